use super::*;
use crate::controller::ReconcileResult;
use crate::time::{Duration, Instant};
use proptest::prelude::*;

proptest! {
    /// Against Rust's own `{:e}`, rounded to six significant digits:
    /// the same text, at every magnitude, subnormals included.
    #[test]
    fn brief_scientific_notation_matches_rusts_own(x in prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL) {
        prop_assume!(!(1e-3..1e9).contains(&x.abs()));
        let reference = format!("{x:.5e}");
        let (m, e) = reference.split_once('e').unwrap();
        let m = m.trim_end_matches('0').trim_end_matches('.');
        prop_assert_eq!(brief(x), format!("{m}e{e}"));
    }
}

#[test]
fn brief_numbers_at_the_edges_of_a_power_of_ten() {
    for (x, text) in [
        (1e-10, "1e-10"),
        (9.999999e-4, "1e-3"),
        (9.99994e-4, "9.99994e-4"),
        (9.9999999e12, "1e13"),
        (-2.5e-7, "-2.5e-7"),
        (1e308, "1e308"),
        (5e-324, "4.94066e-324"),
        (1e9, "1e9"),
        (999_999_999.5, "999999999.5"),
    ] {
        assert_eq!(brief(x), text, "{x}");
    }
}

#[test]
fn every_refusal_states_the_range() {
    let cases: Vec<(Input, &str, &str)> = vec![
        (
            Input::WatchEvents {
                key: "a".into(),
                per_second: 1e-10,
                duration_ns: SECOND,
            },
            "per_second",
            "0.001 to 1000000",
        ),
        (
            Input::AddMany {
                prefix: "p".into(),
                count: u64::MAX,
            },
            "count",
            "1 to 1000000",
        ),
        (
            Input::Decide {
                key: "a".into(),
                outcome: Outcome::Custom {
                    result: ReconcileResult {
                        requeue_after_ns: Duration::from_nanos(i64::MIN),
                        ..Default::default()
                    },
                },
            },
            "outcome.after_ns",
            "87600h0m0s",
        ),
        (
            Input::Resync {
                period_ns: Some(Duration::from_nanos(-1)),
            },
            "period_ns",
            "10ms to",
        ),
    ];
    for (i, field, range) in cases {
        let e = input(&i).expect_err(&format!("{i:?}"));
        assert_eq!(e.field, field, "{e}");
        assert!(e.reason.contains(range), "{e}");
    }
}

#[test]
fn sums_cannot_wrap() {
    let mut s = Scenario::new("overflow");
    for _ in 0..2 {
        s.first_mut()
            .sources
            .push(Source::add_many("p", u64::MAX / 2 + 1));
    }
    assert_eq!(key_count(&s), None);
    assert_eq!(
        scenario(&s).unwrap_err().field,
        "controllers[0].sources[0].count"
    );
}

#[test]
fn crossplane_r_fits_the_worker_limit() {
    let mut s = Scenario::new("r");
    s.crossplane = Some(CrossplaneConfig::note_2021(10_000));
    let e = scenario(&s).unwrap_err();
    assert_eq!(e.field, "crossplane.max_reconcile_rate");
    assert!(e.reason.contains("0 to 1000"), "{e}");
    s.crossplane = Some(CrossplaneConfig::note_2021(0));
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
