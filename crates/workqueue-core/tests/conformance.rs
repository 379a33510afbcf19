//! Every shared conformance case, replayed through the library. The cases
//! live in `../shared/conformance/cases` beside the checkout.

use std::path::PathBuf;
use workqueue_core::conformance;

fn cases_dir(var: &str, under_shared: &str) -> PathBuf {
    let from_env = std::env::var_os(var).map(PathBuf::from);
    from_env.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/conformance")
            .join(under_shared)
    })
}

#[test]
fn every_shared_client_go_case_passes() {
    every_case_passes(&cases_dir("WQ_CONFORMANCE_CASES", "cases"), 80);
}

#[test]
fn every_shared_priority_queue_case_passes() {
    let dir = cases_dir("WQ_PRIORITY_CASES", "priorityqueue/cases");
    every_case_passes(&dir, 60);
    // They are priority-queue cases, replayed on the priority queue.
    for f in conformance::collect(std::slice::from_ref(&dir)).unwrap() {
        let case = conformance::load(&f).unwrap();
        assert_eq!(case.queue.as_deref(), Some("priority"), "{}", f.display());
    }
}

fn every_case_passes(dir: &std::path::Path, at_least: usize) {
    let dir = dir.to_path_buf();
    let files =
        conformance::collect(std::slice::from_ref(&dir)).expect("the shared cases are readable");
    assert!(
        files.len() >= at_least,
        "expected the shared cases in {}, found {}",
        dir.display(),
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let case = conformance::load(f).expect("case parses");
        if let Some(m) = conformance::run(&case).expect("case replays") {
            failures.push(format!("{}: {m}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
