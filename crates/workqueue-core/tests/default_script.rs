//! A change of what each reconcile returns, applied to a running simulation
//! (`Input::DefaultScript`): it takes effect from the instant it is made.

use workqueue_core::Instant;
use workqueue_core::Span;
use workqueue_core::{Burst, KeyCount, Qps, Workers};
use workqueue_core::{
    Input, LimiterConfig, ResultLabel, Scenario, Simulation, MILLISECOND, SECOND,
};
use workqueue_core::{Outcome, Script};

fn succeed() -> Script {
    Script::Always {
        outcome: Outcome::Success,
    }
}

/// Keys that always fail drain the bucket; once they succeed it refills,
/// and the failures before the change stay what they were.
#[test]
fn a_drained_bucket_refills_once_keys_succeed() {
    let mut s = Scenario::failing_keys(
        LimiterConfig::Bucket {
            qps: Qps::lit(10.0),
            burst: Burst::lit(100),
        },
        KeyCount::lit(300),
    );
    s.duration_ns = Span::lit(120 * SECOND);
    s.first_mut().controller.reconcile_ns = Span::lit(20 * MILLISECOND);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + 10 * SECOND);
    let drained = sim.bucket_tokens_at(sim.now()).unwrap();
    assert!(drained < 1.0, "300 failing keys drain it: {drained}");
    let errors = sim.controller_metrics().total(ResultLabel::Error);
    sim.apply(Input::DefaultScript { script: succeed() })
        .unwrap();
    sim.run_until(Instant::T0 + 60 * SECOND);
    assert_eq!(
        sim.controller_metrics().total(ResultLabel::Error),
        errors,
        "no failure after the change"
    );
    assert_eq!(
        sim.controller_metrics().total(ResultLabel::Success),
        300,
        "every key converges"
    );
    let refilled = sim.bucket_tokens_at(sim.now()).unwrap();
    assert!(refilled > 99.0, "full again: {refilled}");
}

/// A reconcile held for a person's decision is decided by the new script;
/// a key with a script of its own keeps it.
#[test]
fn a_held_reconcile_follows_the_new_script() {
    let mut s = Scenario::new("live");
    s.first_mut().default_script = Script::Live;
    s.first_mut().controller.workers = Workers::lit(2);
    let mut sim = Simulation::new(&s).unwrap();
    sim.apply(Input::Add { key: "a".into() }).unwrap();
    sim.apply(Input::SetScript {
        key: "b".into(),
        script: Script::Live,
    })
    .unwrap();
    sim.apply(Input::Add { key: "b".into() }).unwrap();
    sim.run_until(Instant::T0 + SECOND);
    sim.apply(Input::DefaultScript { script: succeed() })
        .unwrap();
    assert_eq!(
        sim.controller_metrics().total(ResultLabel::Success),
        1,
        "a is decided, b still waits"
    );
    assert!(sim
        .apply(Input::Decide {
            key: "b".into(),
            outcome: Outcome::Success
        })
        .is_ok());
    assert!(
        sim.apply(Input::Decide {
            key: "a".into(),
            outcome: Outcome::Success
        })
        .is_err(),
        "a was no longer waiting"
    );
}

/// The input reads and writes as every other input does.
#[test]
fn the_input_round_trips_through_json() {
    let input = Input::DefaultScript { script: succeed() };
    let text = serde_json::to_string(&input).unwrap();
    assert_eq!(serde_json::from_str::<Input>(&text).unwrap(), input);
    let plain = r#"{"input": "default_script", "script": {"type": "live"}}"#;
    assert!(serde_json::from_str::<Input>(plain).is_ok());
    let stray = r#"{"input": "default_script", "script": {"type": "live"}, "key": "a"}"#;
    assert!(
        serde_json::from_str::<Input>(stray).is_err(),
        "a key is not one of its fields"
    );
}
