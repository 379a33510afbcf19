//! # workqueue-check
//!
//! What checks the sans-IO core from outside it, with the file system and a
//! clock the core never touches: [`conformance`] replays the cases recorded
//! against the real client-go and controller-runtime, and [`bench`] times
//! the core's workloads (`cargo run --release -p workqueue-check --bin
//! bench`, and in wasm through `tests/wasm_bench.rs`).

pub mod bench;
pub mod conformance;
