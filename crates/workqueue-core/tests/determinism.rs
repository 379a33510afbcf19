//! The same scenario and seed give the same run: twice here, however time is
//! sliced, and (through the golden digest, which tests/wasm.rs checks too) in
//! wasm. `WQ_BLESS=1 cargo test --test determinism` rewrites the golden file
//! after an intended change of behaviour.

#![cfg(not(target_arch = "wasm32"))]

#[path = "determinism_scenario.rs"]
mod scenario;

#[test]
fn the_same_seed_gives_the_same_run_however_time_is_sliced() {
    let a = scenario::run();
    let b = scenario::run();
    assert_eq!(a.digest(), b.digest());
    // Sliced into uneven frames, as the browser does.
    let s = scenario::scenario_on(workqueue_core::QueueKind::ClientGo);
    let mut c = workqueue_core::Simulation::new(&s).unwrap();
    let mut t = 0;
    let mut step = 1_234_567;
    while t < s.duration_ns {
        t = (t + step).min(s.duration_ns);
        c.run_until(t);
        step = step * 7 % 97_000_003 + 1;
    }
    assert_eq!(c.digest(), a.digest());
    // A different seed gives a different run.
    let mut other = s.clone();
    other.seed += 1;
    let mut d = workqueue_core::Simulation::new(&other).unwrap();
    d.run_to_end();
    assert_ne!(d.digest(), a.digest());
}

#[test]
fn the_digest_matches_the_golden_file_shared_with_wasm() {
    let digest = format!("{:016x}", scenario::run().digest());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/determinism.txt");
    if std::env::var_os("WQ_BLESS").is_some() {
        std::fs::write(path, format!("{digest}\n")).unwrap();
    }
    assert_eq!(
        scenario::GOLDEN.trim(),
        digest,
        "behaviour changed: if intended, rerun with WQ_BLESS=1"
    );
}

#[test]
fn the_priority_queue_run_matches_its_golden_file_too() {
    let run = scenario::run_on(workqueue_core::QueueKind::Priority);
    let digest = format!("{:016x}", run.digest());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/determinism_priority.txt"
    );
    if std::env::var_os("WQ_BLESS").is_some() {
        std::fs::write(path, format!("{digest}\n")).unwrap();
    }
    assert_eq!(
        scenario::GOLDEN_PRIORITY.trim(),
        digest,
        "behaviour changed: if intended, rerun with WQ_BLESS=1"
    );
    assert_ne!(
        digest,
        format!("{:016x}", scenario::run().digest()),
        "the queues differ"
    );
}
