//! Every recorded conformance case, replayed through the library: the ones
//! kept in the repository (`tests/conformance/`), and those in any extra
//! folder named by `WQ_CONFORMANCE_CASES` (client-go) or `WQ_PRIORITY_CASES`
//! (controller-runtime's priority queue).

use std::path::{Path, PathBuf};
use workqueue_check::conformance;

/// The repository's own folder of one kind of case, then the extra one.
fn case_dirs(in_repo: &str, var: &str) -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(in_repo)];
    if let Some(extra) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        let extra = PathBuf::from(extra);
        assert!(extra.is_dir(), "{var} names no folder: {}", extra.display());
        dirs.push(extra);
    }
    dirs
}

#[test]
fn every_client_go_case_passes() {
    for dir in case_dirs("client-go", "WQ_CONFORMANCE_CASES") {
        every_case_passes(&dir, 80);
    }
}

#[test]
fn every_priority_queue_case_passes() {
    for dir in case_dirs("priority-queue", "WQ_PRIORITY_CASES") {
        every_case_passes(&dir, 60);
        // They are priority-queue cases, replayed on the priority queue.
        for f in conformance::collect(std::slice::from_ref(&dir)).unwrap() {
            let case = conformance::load(&f).unwrap();
            assert_eq!(case.queue.as_deref(), Some("priority"), "{}", f.display());
        }
    }
}

fn every_case_passes(dir: &Path, at_least: usize) {
    let dir = dir.to_path_buf();
    let files = conformance::collect(std::slice::from_ref(&dir)).expect("the cases are readable");
    assert!(
        files.len() >= at_least,
        "expected at least {at_least} cases in {}, found {}",
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
