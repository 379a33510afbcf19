//! controller-runtime's `ReconciliationTimeout` (v0.22): a deadline on each
//! Reconcile's context. A reconcile still running when it fires returns the
//! context's error: rate-limited like any error, and counted in
//! `controller_runtime_reconcile_timeouts_total`.

use workqueue_core::Duration;
use workqueue_core::Instant;
use workqueue_core::Span;
use workqueue_core::{Burst, ClientQps, Requests};
use workqueue_core::{ClientLimit, ItemSpec};
use workqueue_core::{Input, ResultLabel, Scenario, Simulation, MILLISECOND, SECOND};
use workqueue_core::{Outcome, Script};

fn slow(timeout: Option<Duration>) -> Scenario {
    let mut s = Scenario::new("slow");
    let c = s.first_mut();
    c.controller.reconcile_ns = Span::lit(2 * SECOND);
    c.controller.reconcile_timeout_ns = timeout.map(Span::lit);
    c.default_script = Script::Always {
        outcome: Outcome::Success,
    };
    s
}

/// `s` run until `until` with the key "a" added at t=0.
fn key_a_until(s: &Scenario, until: Duration) -> Simulation {
    let mut sim = Simulation::new(s).unwrap();
    sim.apply(Input::Add { key: "a".into() }).unwrap();
    sim.run_until(Instant::T0 + until);
    sim
}

/// The reconcile timeouts so far, and the results labelled `label`.
fn timeouts_and(sim: &Simulation, label: ResultLabel) -> (u64, u64) {
    let m = sim.controller_metrics();
    (m.reconcile_timeouts_total, m.total(label))
}

/// A 2 s reconcile under a 500 ms timeout never succeeds: it fails at each
/// deadline, and the default limiter's 5 ms, 10 ms, 20 ms… come between.
#[test]
fn a_reconcile_longer_than_the_timeout_fails_at_each_deadline() {
    // Timeouts at 0.5s, 1.005s, 1.515s, 2.035s, 2.575s; the sixth at 3.155s.
    let mut sim = key_a_until(&slow(Some(500 * MILLISECOND)), 3 * SECOND);
    let m = sim.controller_metrics();
    assert_eq!(m.reconcile_timeouts_total, 5);
    assert_eq!(m.total(ResultLabel::Error), 5);
    assert_eq!(m.total(ResultLabel::Success), 0);
    sim.run_until(Instant::T0 + 3155 * MILLISECOND);
    assert_eq!(sim.controller_metrics().reconcile_timeouts_total, 6);
    // "What its last result did" starts with the deadline firing.
    let calls = sim.key_report(sim.find("a").unwrap()).calls;
    assert!(
        calls[0].contains("ReconciliationTimeout fires"),
        "{calls:?}"
    );
    assert!(calls[1].contains("err [result=error]"), "{calls:?}");

    // Without the option the same reconcile succeeds at 2 s.
    let sim = key_a_until(&slow(None), 3 * SECOND);
    assert_eq!(timeouts_and(&sim, ResultLabel::Success), (0, 1));
}

/// A reconcile within its deadline is not touched, and one that takes the
/// deadline exactly is not cut either (the context fires after it).
#[test]
fn reconciles_within_the_deadline_are_untouched() {
    let mut s = slow(Some(500 * MILLISECOND));
    s.first_mut().items = ["fast", "exact"]
        .iter()
        .zip([100 * MILLISECOND, 500 * MILLISECOND])
        .map(|(k, d)| ItemSpec {
            reconcile_ns: Some(Span::lit(d)),
            ..ItemSpec::new(k)
        })
        .collect();
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + 5 * SECOND);
    assert_eq!(timeouts_and(&sim, ResultLabel::Success), (0, 2));
}

/// The deadline covers the whole call: a reconcile whose API requests wait
/// for the client's bucket past it times out too.
#[test]
fn waiting_for_the_client_counts_against_the_deadline() {
    let mut s = slow(Some(500 * MILLISECOND));
    s.client = Some(ClientLimit::per_kind(ClientQps::lit(1.0), Burst::lit(1)));
    let c = s.first_mut();
    c.controller.reconcile_ns = Span::lit(10 * MILLISECOND);
    c.requests_per_reconcile = Requests::lit(3); // 1 at once, then 1 s each: 2 s of waiting
    let sim = key_a_until(&s, 600 * MILLISECOND);
    assert_eq!(timeouts_and(&sim, ResultLabel::Error), (1, 1));
}

/// A zero or negative timeout is refused by name (controller-runtime's
/// zero means none: a file leaves the field out).
#[test]
fn a_timeout_of_zero_is_refused_by_name() {
    let zero = r#"{"version": 2, "controllers": [{"controller": {"reconcile_timeout_ns": 0}}]}"#;
    let e = Scenario::from_json(zero).unwrap_err();
    assert_eq!(e.field, "controllers[0].controller.reconcile_timeout_ns");
    assert!(e.reason.contains("use more than 0s"), "{e}");
    let text = r#"{"version": 2, "controllers": [{"controller": {"reconcile_ns": "2s", "reconcile_timeout_ns": "30s"}}]}"#;
    let s = Scenario::from_json(text).unwrap();
    assert_eq!(
        s.controllers[0].controller.reconcile_timeout_ns,
        Some(Span::lit(30 * SECOND))
    );
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}
