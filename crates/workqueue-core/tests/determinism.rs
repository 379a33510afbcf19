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
    let end = workqueue_core::Instant::T0 + s.duration_ns.get();
    let mut t = workqueue_core::Instant::T0;
    let mut step = 1_234_567;
    while t < end {
        t = (t + workqueue_core::Duration::from_nanos(step)).min(end);
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

/// The run's digest, checked against `golden` (the text of
/// tests/golden/`file`), which `WQ_BLESS=1` rewrites first.
fn matches_golden(run: &workqueue_core::Simulation, file: &str, golden: &str) -> String {
    let digest = format!("{:016x}", run.digest());
    if std::env::var_os("WQ_BLESS").is_some() {
        let path = format!("{}/tests/golden/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, format!("{digest}\n")).unwrap();
    }
    assert_eq!(
        golden.trim(),
        digest,
        "behaviour changed: if intended, rerun with WQ_BLESS=1"
    );
    digest
}

#[test]
fn the_digest_matches_the_golden_file_shared_with_wasm() {
    matches_golden(&scenario::run(), "determinism.txt", scenario::GOLDEN);
}

#[test]
fn the_priority_queue_run_matches_its_golden_file_too() {
    let run = scenario::run_on(workqueue_core::QueueKind::Priority);
    let digest = matches_golden(&run, "determinism_priority.txt", scenario::GOLDEN_PRIORITY);
    assert_ne!(
        digest,
        format!("{:016x}", scenario::run().digest()),
        "the queues differ"
    );
}

/// A storm's keys, all due at one instant, are released over several
/// bounded calls (a unit each, so no frame pays for a quarter of a million
/// at once), and the run is the one an unbounded call gives.
#[test]
fn a_storm_due_at_one_instant_is_released_over_bounded_calls_with_the_same_run() {
    use workqueue_core::{
        KeyCount, LimiterConfig, QueueKind, Scenario, Simulation, Span, MILLISECOND, SECOND,
    };
    for queue in [QueueKind::ClientGo, QueueKind::Priority] {
        let per_item = LimiterConfig::Exponential {
            base_ns: Span::lit(5 * MILLISECOND),
            max_ns: Span::lit(1000 * SECOND),
        };
        let mut s = Scenario::failing_keys(per_item, KeyCount::lit(5_000));
        s.first_mut().queue = queue;
        s.duration_ns = Span::lit(3 * SECOND);
        let mut whole = Simulation::new(&s).unwrap();
        whole.run_until(workqueue_core::Instant::T0 + s.duration_ns.get());
        let mut sliced = Simulation::new(&s).unwrap();
        let (mut calls, mut split_releases) = (0, 0);
        while !sliced.run_until_bounded(workqueue_core::Instant::T0 + s.duration_ns.get(), 700) {
            calls += 1;
            let now = sliced.now();
            if sliced.queue().next_ready_at().is_some_and(|at| at <= now) {
                split_releases += 1;
            }
        }
        assert!(
            split_releases >= 5,
            "{queue:?}: 5,000 keys due at once span calls of 700 units ({split_releases} of {calls})"
        );
        assert_eq!(sliced.digest(), whole.digest(), "{queue:?}");
        assert_eq!(sliced.requeues_total(), whole.requeues_total());
    }
}
