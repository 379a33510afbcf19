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
    let figures = workqueue_core::bench::run(&now_ms, 9)
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect();
    for (name, value) in workqueue_core::bench::with_ratios(figures) {
        console_log!("wasm_{name} {value:.3}");
        assert!(value.is_finite() && value > 0.0, "{name} measured");
    }
}
