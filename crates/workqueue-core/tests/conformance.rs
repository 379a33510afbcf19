//! Every shared conformance case, replayed through the library. The cases
//! live in `../shared/conformance/cases` beside the checkout.

use std::path::PathBuf;
use workqueue_core::conformance;

fn cases_dir() -> PathBuf {
    let from_env = std::env::var_os("WQ_CONFORMANCE_CASES").map(PathBuf::from);
    from_env.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/cases")
    })
}

#[test]
fn every_shared_case_passes() {
    let dir = cases_dir();
    let files =
        conformance::collect(std::slice::from_ref(&dir)).expect("the shared cases are readable");
    assert!(
        files.len() >= 80,
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
