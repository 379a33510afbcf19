use super::*;
use proptest::prelude::*;

#[test]
fn a_probability_is_refused_outside_0_to_1_where_it_is_read() {
    assert_eq!(Probability::new(0.25).map(Probability::get), Ok(0.25));
    assert!(Probability::new(1.0).is_ok() && Probability::new(0.0).is_ok());
    let e = Probability::new(7.5).unwrap_err();
    assert_eq!(e.to_string(), "7.5 is not a probability: use 0 to 1");
    assert!(Probability::new(f64::NAN).is_err());
    assert!(serde_json::from_str::<Probability>("1.5").is_err());
    assert_eq!(serde_json::to_string(&Probability(0.5)).unwrap(), "0.5");
}

#[test]
fn each_range_says_itself_and_reads_and_writes_the_plain_number() {
    assert_eq!(
        Workers::new(0).unwrap_err().to_string(),
        "0 workers is out of range: use 1 to 1000"
    );
    assert_eq!(
        Burst::new(0).unwrap_err().to_string(),
        "burst 0 is out of range: use 1 to 1000000 (a burst below 1 grants no token ever: every key would wait 292 years)"
    );
    assert_eq!(
        Burst::new(2_000_000).unwrap_err().to_string(),
        "burst 2000000 is out of range: use 1 to 1000000"
    );
    assert!(Qps::new(0.0).is_ok() && Qps::new(1e9).is_ok());
    assert_eq!(
        Qps::new(1e-12).unwrap_err().to_string(),
        "1e-12 tokens per second is out of range: use 0 (never refills) or 0.001 to 1e9"
    );
    assert!(Qps::new(f64::NAN).is_err() && Qps::new(-1.0).is_err());
    assert_eq!(
        ClientQps::new(0.0).unwrap_err().to_string(),
        "0 qps: a client limit needs a rate of 0.001 to 1e9 (or no limit at all)"
    );
    assert_eq!(
        EventRate::new(1e-10).unwrap_err().to_string(),
        "1e-10 events per second is out of range: use 0.001 to 1000000"
    );
    assert_eq!(
        KeyCount::new(0).unwrap_err().to_string(),
        "0 keys is out of range: use 1 to 1000000"
    );
    assert!(Failures::new(1_000_001).is_err() && Failures::new(0).is_ok());
    assert!(Requests::new(1_001).is_err() && Requests::new(1_000).is_ok());
    assert_eq!(
        ReconcileRate::new(5000).unwrap_err().to_string(),
        "R = 5000 would start 5000 workers: use 0 to 1000 (the worker limit)"
    );
    assert_eq!(
        BreakerAmount::new(-1.0).unwrap_err().to_string(),
        "-1 is out of range: use 0 to 1e9"
    );
    assert_eq!(
        serde_json::from_str::<Workers>("4").unwrap(),
        Workers::lit(4)
    );
    assert_eq!(serde_json::to_string(&Burst::lit(100)).unwrap(), "100");
    assert_eq!(serde_json::to_string(&Qps::lit(10.0)).unwrap(), "10.0");
    let e = serde_json::from_str::<Workers>("1001").unwrap_err();
    assert!(
        e.to_string().starts_with("1001 workers is out of range"),
        "{e}"
    );
}

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
