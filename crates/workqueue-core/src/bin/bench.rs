//! `cargo run --release --bin bench`: prints `name value` lines. The
//! workloads are described in `workqueue_core::bench`.

use std::time::Instant;

fn main() {
    let start = Instant::now();
    let now_ms = || start.elapsed().as_secs_f64() * 1e3;
    for (name, value) in workqueue_core::bench::run(&now_ms, 25) {
        println!("{name} {value:.3}");
    }
}
