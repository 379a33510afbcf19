use super::*;
use crate::ranges::{Failures, ReconcileRate, Requests, Workers};
use crate::time::Duration;
use crate::{At, Span};

#[test]
fn a_minimal_document_gets_defaults() {
    let s = Scenario::from_json(
        r#"{"version": 2, "controllers": [{"items": [{"key": "default/web"}]}]}"#,
    )
    .unwrap();
    let c = s.first();
    assert_eq!(c.limiter(), LimiterConfig::DefaultController);
    assert_eq!(c.queue, QueueKind::ClientGo);
    assert_eq!(c.items[0].add_at_ns, Some(At::T0));
    assert_eq!(c.controller.workers, Workers::lit(1));
    assert_eq!(s.controller_name(0), "controller-0");
}

#[test]
fn the_default_limiter_follows_the_queue() {
    let pq =
        Scenario::from_json(r#"{"version": 2, "controllers": [{"queue": "priority"}]}"#).unwrap();
    assert_eq!(pq.first().queue, QueueKind::Priority);
    assert_eq!(
        pq.first().limiter(),
        crate::priority::default_limiter(),
        "per-item alone, no bucket"
    );
    let named = Scenario::from_json(
            r#"{"version": 2, "controllers": [{"queue": "priority", "limiter": {"type": "default_controller"}}]}"#,
        )
        .unwrap();
    assert_eq!(
        named.first().limiter(),
        LimiterConfig::DefaultController,
        "a named limiter is kept"
    );
    // A scenario made before the switch still means what it meant.
    let old = Scenario::new("old");
    assert!(!old.to_json().contains("queue"));
    assert_eq!(Scenario::from_json(&old.to_json()).unwrap(), old);
    let bad =
        Scenario::from_json(r#"{"version": 2, "controllers": [{"queue": "fifo"}]}"#).unwrap_err();
    assert_eq!(bad.field, "controllers[0].queue");
}

#[test]
fn version_1_documents_are_upgraded() {
    // One controller at the top level: its fields move into controllers[0].
    let one = Scenario::from_json(
        r#"{"version": 1, "seed": 4, "queue": "priority", "items": [{"key": "a"}],
                "crossplane": {"max_reconcile_rate": 3}, "requests_per_reconcile": 2}"#,
    )
    .unwrap();
    assert_eq!(one.version, SCENARIO_VERSION);
    assert_eq!(one.controllers.len(), 1);
    assert_eq!(one.first().queue, QueueKind::Priority);
    assert_eq!(one.first().items[0].key, "a");
    assert_eq!(one.first().requests_per_reconcile, Requests::lit(2));
    assert_eq!(
        one.crossplane.unwrap().max_reconcile_rate,
        ReconcileRate::lit(3)
    );
    assert_eq!(one.seed, 4);
    // A manager that also sets one controller's fields at the top: the
    // file is refused, naming both (version 1 dropped them in silence).
    let mixed = Scenario::from_json(
        r#"{"version": 1, "items": [{"key": "ignored"}], "shared_bucket": {"qps": 5, "burst": 5},
                "controllers": [{"name": "a", "shares_bucket": true}, {"name": "b"}]}"#,
    )
    .unwrap_err();
    assert_eq!(mixed.field, "items");
    assert!(mixed.reason.contains("controllers"), "{mixed}");
    let many = Scenario::from_json(
        r#"{"version": 1, "shared_bucket": {"qps": 5, "burst": 5},
                "controllers": [{"name": "a", "shares_bucket": true}, {"name": "b"}]}"#,
    )
    .unwrap();
    assert_eq!(many.controllers.len(), 2);
    assert!(many.first().shares_bucket);
    // Mistakes in an old file are named where they are written.
    let e = Scenario::from_json(r#"{"version": 1, "controller": {"workers": 0}}"#).unwrap_err();
    assert_eq!(e.field, "controller.workers");
}

#[test]
fn bad_documents_name_the_field() {
    let one = |c: &str| format!(r#"{{"version": 2, "controllers": [{c}]}}"#);
    let cases = [
        (r#"{"items": []}"#.to_string(), "version"),
        (r#"{"version": 3}"#.to_string(), "version"),
        (r#"{"version": 2}"#.to_string(), "controllers"),
        (
            r#"{"version": 2, "controllers": []}"#.to_string(),
            "controllers",
        ),
        (
            one(r#"{"limiter": {"type": "bucket", "qps": 10, "burst": 0}}"#),
            "controllers[0].limiter.burst",
        ),
        (
            one(
                r#"{"limiter": {"type": "max_of", "limiters": [{"type": "exponential", "base_ns": -5, "max_ns": 1}]}}"#,
            ),
            "controllers[0].limiter.limiters[0].base_ns",
        ),
        (
            one(r#"{"limiter": {"type": "exponential", "base_ns": "5ms", "max_ns": "200000h"}}"#),
            "controllers[0].limiter.max_ns",
        ),
        (
            one(r#"{"controller": {"workers": 0}}"#),
            "controllers[0].controller.workers",
        ),
        (
            one(r#"{"sources": [{"type": "add_many", "prefix": "p", "count": 2000000}]}"#),
            "controllers[0].sources[0].count",
        ),
        (
            one(
                r#"{"sources": [{"type": "add_many", "prefix": "p", "count": 600000}, {"type": "add_many", "prefix": "q", "count": 600000}]}"#,
            ),
            "controllers[0].items",
        ),
        (
            one(r#"{"default_script": {"type": "random", "error_probability": 1.5}}"#),
            "controllers[0].default_script.error_probability",
        ),
        (
            r#"{"version": 2, "controllers": [{}], "duration_ns": -1}"#.to_string(),
            "duration_ns",
        ),
        (
            one(r#"{"items": [{"key": ""}]}"#),
            "controllers[0].items[0].key",
        ),
        (
            one(r#"{"items": [{"key": "a"}, {"key": "a"}]}"#),
            "controllers[0].items[1].key",
        ),
        ("{not json".to_string(), "(document)"),
        (
            one(r#"{"limiter": {"type": "leaky"}}"#),
            "controllers[0].limiter.type",
        ),
        (
            one(r#"{"controller": {"workers": -1}}"#),
            "controllers[0].controller.workers",
        ),
        (
            one(r#"{"controller": {"wrokers": 2}}"#),
            "controllers[0].controller.wrokers",
        ),
        (
            r#"{"version": 2, "controllers": [{}], "client": {"qps": 0, "burst": 1}}"#.to_string(),
            "client.qps",
        ),
        (
            r#"{"version": 2, "controllers": [{}], "shared_bucket": {"qps": 1, "burst": 0}}"#
                .to_string(),
            "shared_bucket.burst",
        ),
        (
            r#"{"version": 2, "controllers": [{"name": "a"}, {"name": "a"}]}"#.to_string(),
            "controllers[1].name",
        ),
        (
            one(r#"{"shares_bucket": true}"#),
            "controllers[0].shares_bucket",
        ),
    ];
    for (doc, field) in cases {
        let err = Scenario::from_json(&doc).expect_err(&doc);
        assert_eq!(err.field, field, "{doc}: {err}");
        assert!(!err.reason.is_empty());
    }
}

#[test]
fn round_trips_through_json() {
    let mut s = Scenario::new("round trip");
    s.first_mut().items.push(ItemSpec {
        key: "a".into(),
        script: Some(Script::FailThenSucceed {
            failures: Failures::lit(3),
        }),
        reconcile_ns: Some(Span::lit(Duration::from_nanos(5))),
        add_at_ns: Some(At::T0),
    });
    s.first_mut().sources.push(Source::Resync {
        period_ns: Span::lit(30 * SECOND),
    });
    s.crossplane = Some(CrossplaneConfig::note_2021(ReconcileRate::lit(10)));
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}

/// Read in one pass: the version is refused where it is written, and so is
/// a version 1 field in a version 2 file, before its value is read.
#[test]
fn the_version_and_version_1_fields_are_refused_where_they_are_written() {
    let e = Scenario::from_json("{\n\"version\": 3,\n \"controllers\": [{}]}").unwrap_err();
    assert_eq!((e.field.as_str(), e.line), ("version", Some(2)));
    let e =
        Scenario::from_json("{\"version\": 2,\n \"items\": 7, \"controllers\": [{}]}").unwrap_err();
    assert_eq!((e.field.as_str(), e.line), ("items", Some(2)));
    assert!(e.reason.contains("controllers"), "{e}");
    // Written before the version: refused once the file is read.
    let e = Scenario::from_json(r#"{"items": [], "version": 2, "controllers": [{}]}"#).unwrap_err();
    assert_eq!(e.field, "items");
    let e = Scenario::from_json(r#"{"version": "two"}"#).unwrap_err();
    assert_eq!(e.field, "version");
    assert!(e.reason.contains("a version number"), "{e}");
}
