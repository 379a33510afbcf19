use super::*;
use crate::ranges::KeyCount;
use crate::time::Instant;

#[test]
fn every_refusal_states_the_range() {
    // A number or a time whose range is its type is refused as it is read,
    // at its path, in the same words.
    for (text, field, range) in [
        (
            r#"{"input": "decide", "key": "a", "outcome": {"kind": "custom", "result": {"requeue_after_ns": -9223372036854775808}}}"#,
            "outcome.result.requeue_after_ns",
            "-87600h0m0s to 87600h0m0s",
        ),
        (
            r#"{"input": "resync", "period_ns": -1}"#,
            "period_ns",
            "use 10ms to 87600h0m0s",
        ),
        (
            r#"{"input": "watch_events", "key": "a", "per_second": 5, "duration_ns": "0s"}"#,
            "duration_ns",
            "use more than 0s to",
        ),
        (
            r#"{"input": "watch_events", "key": "a", "per_second": 1e-10, "duration_ns": "1s"}"#,
            "per_second",
            "0.001 to 1000000",
        ),
        (
            r#"{"input": "add_many", "prefix": "p", "count": 18446744073709551615}"#,
            "count",
            "1 to 1000000",
        ),
    ] {
        let e = crate::document::from_str::<Input>(text).expect_err(text);
        assert_eq!(e.field, field, "{e}");
        assert!(e.reason.contains(range), "{e}");
    }
}

#[test]
fn keys_in_all_are_capped() {
    let mut s = Scenario::new("many");
    for _ in 0..2 {
        s.first_mut()
            .sources
            .push(Source::add_many("p", KeyCount::lit(600_000)));
    }
    assert_eq!(key_count(&s), Some(1_200_000));
    let e = scenario(&s).unwrap_err();
    assert_eq!(e.field, "controllers[0].items");
    assert_eq!(e.reason, "1200000 keys is too many: at most 1000000 in all");
}

#[test]
fn crossplane_r_fits_the_worker_limit() {
    let text = |r: u32| {
        format!(
            r#"{{"version": 2, "crossplane": {{"max_reconcile_rate": {r}}}, "controllers": [{{}}]}}"#
        )
    };
    let e = Scenario::from_json(&text(10_000)).unwrap_err();
    assert_eq!(e.field, "crossplane.max_reconcile_rate");
    assert!(e.reason.contains("0 to 1000"), "{e}");
    let s = Scenario::from_json(&text(0)).unwrap();
    assert_eq!(scenario(&s), Ok(()));
}

#[test]
fn a_tape_must_be_in_time_order() {
    let add = |k: &str| Input::Add { key: k.into() };
    assert_eq!(
        tape(&[
            (Instant::from_nanos(5), add("a")),
            (Instant::from_nanos(9), add("b"))
        ]),
        Ok(())
    );
    assert_eq!(
        tape(&[
            (Instant::from_nanos(9), add("a")),
            (Instant::from_nanos(5), add("b"))
        ])
        .unwrap_err()
        .field,
        "inputs[1].at"
    );
    assert_eq!(
        tape(&[(Instant::T0, add(""))]).unwrap_err().field,
        "inputs[0].key"
    );
}
