//! What a reconcile does, in an author's words: an outage of something it
//! needs, and a resource that is not ready yet.

use workqueue_core::Instant;
use workqueue_core::KeyCount;
use workqueue_core::{At, Span};
use workqueue_core::{Input, LimiterConfig, Scenario, Simulation, MILLISECOND, SECOND};
use workqueue_core::{Outcome, Script};

fn run(script: Script) -> Simulation {
    let mut s = Scenario::new("pattern");
    let c = s.first_mut();
    c.default_script = script;
    c.limiter = Some(LimiterConfig::Exponential {
        base_ns: Span::lit(5 * MILLISECOND),
        max_ns: Span::lit(1000 * SECOND),
    });
    let mut sim = Simulation::new(&s).unwrap();
    sim.apply(Input::Add { key: "a".into() }).unwrap();
    sim.run_until(Instant::T0 + 20 * 60 * SECOND);
    sim
}

/// A webhook down for five minutes: the key fails at 0, 5 ms, 15 ms, … as
/// the backoff doubles; the first retry after the outage (the 17th, at
/// 5 ms × (2^16 − 1) = 327.675 s) succeeds.
#[test]
fn an_outage_ends_at_the_first_retry_after_it() {
    let sim = run(Script::Outage {
        from_ns: At::lit(Instant::T0),
        until_ns: At::lit(Instant::T0 + 300 * SECOND),
        otherwise: Outcome::Success,
    });
    assert_eq!(
        sim.converged_at(),
        Some(Instant::T0 + 327_675 * MILLISECOND)
    );
    assert_eq!(sim.inner_reconciles(), 17);
}

/// Not ready until 10 s, polled every 3 s: RequeueAfter at 0, 3, 6 and 9 s,
/// success at 12 s; the backoff is never asked.
#[test]
fn not_ready_polls_until_ready() {
    let sim = run(Script::NotReadyUntil {
        ready_ns: At::lit(Instant::T0 + 10 * SECOND),
        every_ns: Span::lit(3 * SECOND),
    });
    assert_eq!(sim.converged_at(), Some(Instant::T0 + 12 * SECOND));
    assert_eq!(sim.inner_reconciles(), 5);
}

#[test]
fn the_patterns_read_from_files_and_bad_ones_are_named() {
    let file = |script: &str| {
        format!(r#"{{"version": 2, "controllers": [{{"default_script": {script}}}]}}"#)
    };
    let s = Scenario::from_json(&file(
        r#"{"type": "outage", "from_ns": "1m", "until_ns": "6m"}"#,
    ))
    .unwrap();
    assert_eq!(
        s.controllers[0].default_script,
        Script::Outage {
            from_ns: At::lit(Instant::T0 + 60 * SECOND),
            until_ns: At::lit(Instant::T0 + 360 * SECOND),
            otherwise: Outcome::Success
        }
    );
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    let e = Scenario::from_json(&file(
        r#"{"type": "outage", "from_ns": "6m", "until_ns": "1m"}"#,
    ))
    .unwrap_err();
    assert_eq!(e.field, "controllers[0].default_script.until_ns");
    let e = Scenario::from_json(&file(
        r#"{"type": "not_ready_until", "ready_ns": "1m", "every_ns": 0}"#,
    ))
    .unwrap_err();
    assert_eq!(e.field, "controllers[0].default_script.every_ns");
    let e =
        Scenario::from_json(&file(r#"{"type": "not_ready_until", "ready_ns": "1m"}"#)).unwrap_err();
    assert!(e.to_string().contains("every_ns"), "{e}");
}

/// Reconciles of 100 ms plus up to 50 ms: every one within the range, not
/// all alike, and the same run from the same seed.
#[test]
fn reconcile_times_spread_within_their_range_from_the_seed() {
    let mut s = Scenario::new("jitter");
    let c = s.first_mut();
    c.controller.reconcile_ns = Span::lit(100 * MILLISECOND);
    c.controller.reconcile_jitter_ns = Some(Span::lit(50 * MILLISECOND));
    c.default_script = Script::Always {
        outcome: Outcome::Success,
    };
    c.sources = vec![workqueue_core::Source::add_many("k-", KeyCount::lit(200))];
    let run = || {
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_until(Instant::T0 + 60 * SECOND);
        sim
    };
    let (a, b) = (run(), run());
    assert_eq!(a.digest(), b.digest(), "the same seed, the same run");
    let work = a.metrics_snapshot().workqueue_work_duration_seconds_sum;
    // 200 reconciles, each 100 to 150 ms, and not all at one end.
    assert!(
        work > 200.0 * 0.1 + 1.0 && work < 200.0 * 0.15 - 1.0,
        "{work}"
    );
    assert!(a.converged_at().is_some());
}
