//! The largest lesson the budget admits, read and answered as the page's
//! worker does: prints how long that takes here, and writes the file (for
//! timing it in the page).
//!
//! `cargo run --release -p workqueue-lessons --example largest [OUT.md]`

use std::time::Instant;

use workqueue_lessons::cost::LESSON_BUDGET;
use workqueue_lessons::query::STEP_BUDGET;
use workqueue_lessons::{lesson_or_mistakes, view::view};

/// A lesson of `steps` steps, each `keys` always-failing keys under
/// client-go's default limiter, asked how many requeue in the first 10 s.
fn lesson(steps: usize, keys: u64) -> String {
    let mut text = String::from("# The largest lesson\n\n");
    for i in 0..steps {
        text += &format!(
            "## Step {i}\n\n{keys} keys fail.\n\n```step\n{{\"focus\": {{\"lanes\": [\"waiting\", \"bucket\"]}}, \"setup\": {{\"scenario\": {{\"version\": 2, \"controllers\": [{{\"default_script\": {{\"type\": \"always\", \"outcome\": {{\"kind\": \"error\"}}}}}}]}}, \"inputs\": [{{\"do\": {{\"input\": \"add_many\", \"prefix\": \"k{i}-\", \"count\": {keys}}}}}]}}, \"question\": {{\"ask\": \"How many requeues in the first 10 s?\", \"query\": {{\"requeues\": {{\"until\": \"10s\"}}}}}}}}\n```\n\n"
        );
    }
    text
}

fn accepted(steps: usize, keys: u64) -> bool {
    lesson_or_mistakes("largest", &lesson(steps, keys)).is_ok()
}

fn main() {
    // The most keys a step may have, then as many such steps as fit.
    let (mut lo, mut hi) = (1u64, 10_000_000u64);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if accepted(1, mid) {
            lo = mid
        } else {
            hi = mid
        }
    }
    let keys = lo;
    let mut steps = 1;
    while accepted(steps + 1, keys) {
        steps += 1;
    }
    let text = lesson(steps, keys);
    let started = Instant::now();
    let l = lesson_or_mistakes("largest", &text).expect("accepted");
    let v = view(&l);
    let took = started.elapsed();
    let answers = v.answers();
    println!("budget: {STEP_BUDGET} work units a step, {LESSON_BUDGET} a lesson");
    println!(
        "largest accepted: {steps} steps of {keys} failing keys, each answered ({} bytes)",
        text.len()
    );
    println!(
        "read and answered natively in {:.0} ms (answers {answers:?})",
        took.as_secs_f64() * 1e3
    );
    if let Some(out) = std::env::args().nth(1) {
        std::fs::write(&out, &text).expect("written");
        println!("written to {out}");
    }
}
