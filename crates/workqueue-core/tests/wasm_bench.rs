//! The core's benchmark in wasm, in headless Chromium: prints the same
//! `name value` lines as `cargo run --release --bin bench`, prefixed `wasm_`.
//! Run with `scripts/bench.sh` (a release build; figures, not a pass/fail test).

#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn wasm_benchmark_figures() {
    let perf = web_sys::window()
        .and_then(|w| w.performance())
        .expect("a browser with performance.now");
    let now_ms = move || perf.now();
    keep_freed_memory();
    let figures = workqueue_core::bench::run(&now_ms, 9)
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect();
    for (name, value) in workqueue_core::bench::with_ratios(figures) {
        console_log!("wasm_{name} {value:.3}");
        assert!(value.is_finite() && value > 0.0, "{name} measured");
    }
}

/// The native bench keeps freed memory in the process (Go's runtime keeps
/// its heap too), so `_cold` measures the queue's own work, not the
/// kernel's zeroed pages. The wasm counterpart: grow linear memory once,
/// up front, and hand it back to the allocator, which keeps it; the cold
/// rounds then reuse it instead of paying for `memory.grow` themselves.
fn keep_freed_memory() {
    let mut grown = vec![0u8; 64 << 20];
    // Touch every page, so the growth is not left for later.
    for page in grown.chunks_mut(64 << 10) {
        page[0] = 1;
    }
    std::hint::black_box(&grown);
}
