//! `cargo run --release --bin bench`: prints `name value` lines. The
//! workloads are described in `workqueue_check::bench`.
//!
//! The figures are the best of [`PROCESSES`] runs, each in a fresh process:
//! on this machine kind a process lands, about one time in three, in a memory
//! placement where every figure is a third slower, for its whole life.
//! Best-of-rounds within one process cannot see past that; a few processes
//! can.

use std::process::Command;
use std::time::Instant;

use workqueue_check::bench;

const PROCESSES: usize = 5;
/// Set in the child processes, which measure and print raw figures.
const CHILD: &str = "WQ_BENCH_CHILD";

fn main() {
    keep_freed_memory();
    if std::env::var_os(CHILD).is_some() {
        let start = Instant::now();
        let now_ms = || start.elapsed().as_secs_f64() * 1e3;
        for (name, value) in bench::run(&now_ms, 25) {
            println!("{name} {value}");
        }
        return;
    }
    let mut best: Vec<(String, f64)> = Vec::new();
    for _ in 0..PROCESSES {
        for (name, value) in child_figures() {
            match best.iter_mut().find(|(n, _)| *n == name) {
                Some((_, b)) => *b = b.min(value),
                None => best.push((name, value)),
            }
        }
    }
    for (name, value) in bench::with_ratios(best) {
        println!("{name} {value:.3}");
    }
}

fn child_figures() -> Vec<(String, f64)> {
    let exe = std::env::current_exe().expect("the bench's own path");
    let out = Command::new(exe)
        .env(CHILD, "1")
        .output()
        .expect("the bench runs itself");
    assert!(out.status.success(), "a bench process failed: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// glibc hands large freed blocks back to the kernel, so every fresh queue
/// would pay again for zeroed pages; Go's runtime (the figures compared
/// against) keeps its freed heap. Keep ours too, so `_cold` measures the
/// queue's own work: interning and growing tables.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_MAX: i32 = -4;
    // SAFETY: mallopt only changes allocator tunables; it is called before
    // any allocation-heavy work and before any thread starts.
    unsafe {
        // Never trim the heap's top, and serve every block from the heap
        // (no mmap, whose blocks go back to the kernel when freed).
        mallopt(M_TRIM_THRESHOLD, i32::MAX);
        mallopt(M_MMAP_MAX, 0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
