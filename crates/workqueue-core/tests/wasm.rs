//! The core in wasm32, in headless Chromium: the same run as natively.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "determinism_scenario.rs"]
mod scenario;

#[wasm_bindgen_test]
fn the_run_in_wasm_matches_the_native_digest() {
    let digest = format!("{:016x}", scenario::run().digest());
    assert_eq!(scenario::GOLDEN.trim(), digest);
}

#[wasm_bindgen_test]
fn the_priority_queue_run_in_wasm_matches_the_native_digest() {
    let run = scenario::run_on(workqueue_core::QueueKind::Priority);
    assert_eq!(
        scenario::GOLDEN_PRIORITY.trim(),
        format!("{:016x}", run.digest())
    );
}

#[wasm_bindgen_test]
fn exact_bucket_arithmetic_in_wasm() {
    let mut b = workqueue_core::TokenBucket::new(10.0, 100);
    let delays: Vec<workqueue_core::Duration> = (0..141)
        .map(|_| b.reserve_delay(workqueue_core::Instant::T0))
        .collect();
    assert_eq!(delays[140].as_nanos(), 4_099_999_999);
}
