//! Hostile inputs, one class per test: what a file, a link's tape or a live
//! input can hold must be refused by name, or run within a budget, never
//! freeze, hang or be dropped in silence.

use workqueue_core::Instant;
use workqueue_core::Script;
use workqueue_core::Span;
use workqueue_core::{limits, validate};
use workqueue_core::{Burst, ClientQps, EventRate, Failures, KeyCount, Requests, Workers};
use workqueue_core::{ControllerSpec, Scenario, Source};
use workqueue_core::{Input, Manager, Simulation, HOUR, MILLISECOND, SECOND};

fn refused(json: &str) -> (String, String) {
    let e = Scenario::from_json(json).expect_err(json);
    (e.field, e.reason)
}

fn one(controller: &str) -> String {
    format!(r#"{{"version": 2, "controllers": [{controller}]}}"#)
}

// --- Silently dropped or changed input -----------------------------------

#[test]
fn a_misspelled_field_in_a_result_or_an_outcome_is_refused_by_name() {
    let (field, reason) = refused(&one(
        r#"{"default_script": {"type": "always", "outcome": {"kind": "custom", "result": {"requeue": true, "requeue_aftr_ns": 5}}}}"#,
    ));
    assert!(
        reason.contains("requeue_aftr_ns") || field.contains("requeue_aftr_ns"),
        "{field}: {reason}"
    );
    let (field, reason) = refused(&one(
        r#"{"items": [{"key": "a", "script": {"type": "always", "outcome": {"kind": "requeue_after", "after_ns": 5, "jitter": 1}}}]}"#,
    ));
    assert!(
        field.contains("jitter") || reason.contains("jitter"),
        "{field}: {reason}"
    );
}

#[test]
fn a_key_listed_twice_in_items_is_refused_not_overwritten() {
    let (field, reason) = refused(&one(
        r#"{"items": [{"key": "ns/x"}, {"key": "ns/y"}, {"key": "ns/x", "script": {"type": "fail_then_succeed", "failures": 3}}]}"#,
    ));
    assert_eq!(field, "controllers[0].items[2].key");
    assert!(reason.contains("twice"), "{reason}");
}

#[test]
fn a_version_2_file_with_a_controllers_field_at_the_top_is_refused() {
    for (top, value) in [
        ("limiter", r#"{"type": "bucket", "qps": -1, "burst": 0}"#),
        ("items", "[]"),
        ("requests_per_reconcile", "7"),
    ] {
        let json = format!(
            r#"{{"version": 2, "{top}": {value}, "controllers": [{{"name": "a"}}, {{"name": "b"}}]}}"#
        );
        let (field, reason) = refused(&json);
        assert_eq!(field, top);
        assert!(reason.contains("controllers"), "{reason}");
    }
}

#[test]
fn add_many_cannot_make_a_key_longer_than_items_allow() {
    // 250 characters of prefix and up to 4 digits of index: 254.
    let prefix = "p".repeat(250);
    let json = one(&format!(
        r#"{{"sources": [{{"type": "add_many", "prefix": "{prefix}", "count": 1001}}]}}"#
    ));
    let (field, reason) = refused(&json);
    assert_eq!(field, "controllers[0].sources[0].prefix");
    assert!(reason.contains("254 characters"), "{reason}");
    // 1,000 keys end at index 999: 253 characters, allowed.
    let ok = one(&format!(
        r#"{{"sources": [{{"type": "add_many", "prefix": "{prefix}", "count": 1000}}]}}"#
    ));
    Scenario::from_json(&ok).unwrap();
    // The same as a live input.
    let e = validate::input(&Input::AddMany {
        prefix: "q".repeat(252),
        count: KeyCount::lit(11),
    })
    .unwrap_err();
    assert_eq!(e.field, "prefix");
}

// --- Errors that name the wrong thing ------------------------------------

#[test]
fn manager_level_parts_are_reported_under_their_own_names() {
    let two = r#"[{"name": "a"}, {"name": "b"}]"#;
    for (part, value, want) in [
        ("client", r#"{"qps": 0, "burst": 5}"#, "client.qps"),
        ("client", r#"{"qps": 5, "burst": 0}"#, "client.burst"),
        (
            "shared_bucket",
            r#"{"qps": 5, "burst": -3}"#,
            "shared_bucket.burst",
        ),
        (
            "shared_bucket",
            r#"{"qps": -5, "burst": 3}"#,
            "shared_bucket.qps",
        ),
        (
            "crossplane",
            r#"{"max_reconcile_rate": 5000}"#,
            "crossplane.max_reconcile_rate",
        ),
    ] {
        let json = format!(r#"{{"version": 2, "{part}": {value}, "controllers": {two}}}"#);
        let (field, _) = refused(&json);
        assert_eq!(field, want, "{json}");
    }
}

#[test]
fn crossplane_r_zero_is_the_same_for_one_controller_and_a_manager() {
    for controllers in [r#"[{"name": "a"}]"#, r#"[{"name": "a"}, {"name": "b"}]"#] {
        let json = format!(
            r#"{{"version": 2, "crossplane": {{"max_reconcile_rate": 0}}, "controllers": {controllers}}}"#
        );
        let s = Scenario::from_json(&json).unwrap_or_else(|e| panic!("{json}: {e:?}"));
        Manager::new(&s).unwrap();
    }
}

#[test]
fn key_length_is_counted_in_characters() {
    let cjk = "鍵".repeat(200);
    validate::key("key", &cjk).unwrap();
    let e = validate::key("key", &"鍵".repeat(300)).unwrap_err();
    assert!(e.reason.ends_with("this one has 300"), "{}", e.reason);
}

#[test]
fn rates_below_the_minimum_are_refused_and_numbers_are_shown_briefly() {
    let (field, reason) = refused(&one(
        r#"{"limiter": {"type": "bucket", "qps": 1e-12, "burst": 5}}"#,
    ));
    assert_eq!(field, "controllers[0].limiter.qps");
    assert!(reason.starts_with("1e-12 tokens per second"), "{reason}");
    let (_, reason) = refused(&one(
        r#"{"limiter": {"type": "bucket", "qps": 1e308, "burst": 5}}"#,
    ));
    assert!(reason.len() < 120, "{reason}");
    assert!(reason.starts_with("1e308 tokens"), "{reason}");
    // Zero is a bucket that never refills, a meaning of its own.
    Scenario::from_json(&one(
        r#"{"limiter": {"type": "bucket", "qps": 0, "burst": 5}}"#,
    ))
    .unwrap();
    assert_eq!(workqueue_core::brief(2.5), "2.5");
    assert_eq!(workqueue_core::brief(1e10), "1e10");
}

// --- One budget that counts real work ------------------------------------

fn client_heavy(requests: u32) -> Scenario {
    let mut s = Scenario::of("heavy", Vec::new());
    s.client = Some(workqueue_core::ClientLimit::per_kind(
        ClientQps::lit(1e6),
        Burst::lit(1_000_000),
    ));
    let mut c = ControllerSpec::new("a");
    c.controller.workers = Workers::lit(100);
    c.requests_per_reconcile = Requests::new(requests).unwrap();
    c.default_script = Script::FailThenSucceed {
        failures: Failures::lit(0),
    };
    c.sources = vec![Source::add_many("k-", KeyCount::lit(1_000))];
    s.controllers.push(c);
    s.duration_ns = Span::lit(HOUR);
    s
}

#[test]
fn each_client_reservation_is_a_unit_of_the_budget() {
    let mut m = Manager::new(&client_heavy(1_000)).unwrap();
    // 5,000 units buy about five hand-outs of 1,000 requests each, not 5,000.
    m.run_until_bounded(Instant::T0, 5_000);
    let reconciling = m
        .controller(0)
        .unwrap()
        .metrics_snapshot()
        .controller
        .active_workers;
    assert!((1..=6).contains(&reconciling), "{reconciling}");
    // And the run finishes all the same, over as many calls as it takes.
    let mut calls = 0;
    while !m.run_until_bounded(Instant::T0 + HOUR, 5_000) {
        calls += 1;
        assert!(calls < 100_000);
    }
    assert_eq!(
        m.controller(0)
            .unwrap()
            .metrics_snapshot()
            .controller
            .reconcile_total[workqueue_core::ResultLabel::Success.index()],
        1_000
    );
}

#[test]
fn a_bounded_manager_step_spends_its_budget_not_the_whole_instant() {
    let mut s = Scenario::of("two", Vec::new());
    for name in ["a", "b"] {
        let mut c = ControllerSpec::new(name);
        c.controller.workers = Workers::lit(1_000);
        c.sources = vec![Source::add_many(&format!("{name}-"), KeyCount::lit(50_000))];
        s.controllers.push(c);
    }
    let mut bounded = Manager::new(&s).unwrap();
    bounded.step_bounded(100);
    let keys: usize = bounded
        .controllers()
        .map(|(_, c)| c.queue().keys().len())
        .sum();
    assert!(keys <= 100, "{keys} keys added on a budget of 100");
    // Stepping on finishes the same instant the same way as one big step.
    let mut whole = Manager::new(&s).unwrap();
    whole.run_until(Instant::T0 + 10 * SECOND);
    bounded.run_until(Instant::T0 + 10 * SECOND);
    let digests = |m: &Manager| m.controllers().map(|(_, c)| c.digest()).collect::<Vec<_>>();
    assert_eq!(digests(&bounded), digests(&whole));
}

#[test]
fn a_tape_cannot_start_more_sources_than_a_file() {
    let watch = |i: usize| {
        (
            Instant::T0 + i as i64 * MILLISECOND,
            Input::WatchEvents {
                key: format!("k{i}"),
                per_second: EventRate::lit(1.0),
                duration_ns: Span::lit(HOUR),
            },
        )
    };
    let tape: Vec<_> = (0..limits::MAX_SOURCES + 1).map(watch).collect();
    let e = validate::tape(&tape).unwrap_err();
    assert_eq!(e.field, "inputs");
    validate::tape(&tape[..limits::MAX_SOURCES]).unwrap();
    // Live, the thousand-and-first running source is refused by name.
    let mut sim = Simulation::new(&Scenario::of("s", vec![ControllerSpec::new("a")])).unwrap();
    for (_, input) in &tape[..limits::MAX_SOURCES] {
        sim.apply(input.clone()).unwrap();
    }
    let e = sim.apply(tape[limits::MAX_SOURCES].1.clone()).unwrap_err();
    assert!(format!("{e:?}").contains("sources"), "{e:?}");
}

// --- The stall guard tells a loop from a crowd ----------------------------

#[test]
fn a_million_keys_that_each_succeed_once_run_to_completion() {
    let mut c = ControllerSpec::new("crowd");
    c.controller.reconcile_ns = Span::ZERO;
    c.default_script = Script::FailThenSucceed {
        failures: Failures::lit(0),
    };
    c.sources = vec![Source::add_many(
        "k",
        KeyCount::new(limits::MAX_ITEMS).unwrap(),
    )];
    let mut s = Scenario::of("crowd", vec![c]);
    s.duration_ns = Span::lit(SECOND);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    assert_eq!(sim.stalled(), None);
    let m = sim.metrics_snapshot();
    assert_eq!(
        m.controller.reconcile_total[workqueue_core::ResultLabel::Success.index()],
        limits::MAX_ITEMS
    );
    assert_eq!(m.workqueue_depth, 0);
}

#[test]
fn a_zero_delay_loop_is_still_caught() {
    let json = one(
        r#"{"limiter": {"type": "exponential", "base_ns": 0, "max_ns": 0}, "controller": {"reconcile_ns": 0}, "items": [{"key": "spin", "script": {"type": "always", "outcome": {"kind": "requeue"}}}]}"#,
    );
    let mut sim = Simulation::new(&Scenario::from_json(&json).unwrap()).unwrap();
    sim.run_to_end();
    let reason = sim.stalled().expect("a loop at one instant is stuck");
    assert!(reason.contains("no key moved on"), "{reason}");
}
