//! Numbers and durations as the page shows them.

use workqueue_core::{
    format_go_duration, Duration, Instant, Outcome, Script, WideInstant, MICROSECOND, MILLISECOND,
    MINUTE, SECOND,
};

/// A Go duration, with "never" for anything past 292 years.
pub fn dur(d: Duration) -> String {
    if d == Duration::MAX {
        "never (InfDuration)".into()
    } else {
        format_go_duration(d)
    }
}

/// The virtual clock: rounded to a precision that suits its scale (0.1ms
/// under a second, 10ms under a minute, whole seconds beyond), so it reads
/// steadily; the inspector keeps exact nanoseconds.
pub fn clock(t: Instant) -> String {
    let d = t.since_t0();
    let step = step_for(d);
    format_go_duration(step * (d / step))
}

/// The precision a duration of this size is read at.
fn step_for(d: Duration) -> Duration {
    if d < SECOND {
        100 * MICROSECOND
    } else if d < MINUTE {
        10 * MILLISECOND
    } else {
        SECOND
    }
}

/// A total to read at a glance: to the nearest step of [`clock`]'s scale
/// (the exact sum of x/time/rate's reservations can end in …999996ns).
pub fn about(d: Duration) -> String {
    let step = step_for(d);
    let (d, step) = (d.as_nanos(), step.as_nanos());
    let rounded = (d / step).saturating_add(((d % step) * 2 >= step) as i64);
    format_go_duration(Duration::from_nanos(rounded.saturating_mul(step)))
}

/// A speed factor: `1000×`, `2.5×`, and below 1 as a fraction, `1/120×`.
pub fn speed(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.0}×")
    } else if s >= 0.95 {
        // (0.95 to 1 reads as 1×, not as "1/1×".)
        format!("{:.1}×", s.max(1.0)).replace(".0×", "×")
    } else if s >= 0.5 {
        // A fraction would round to "1/1×" or "1/2×" here: a decimal reads true.
        format!("{s:.1}×")
    } else {
        format!("1/{:.0}×", 1.0 / s.max(1e-9))
    }
}

/// An instant in the run, e.g. `t=1.25s`.
pub fn at(t: Instant) -> String {
    format!("t={}", format_go_duration(t.since_t0()))
}

/// A wide instant from the waiting heap, relative to now, rounded to three
/// significant digits for a countdown (the inspector shows exact values).
pub fn until(ready_at: WideInstant, now: Instant) -> String {
    let left = ready_at - now.wide();
    if left > Duration::MAX.as_nanos() as i128 {
        "in ~292 years".into()
    } else {
        format!("in {}", short(Duration::from_nanos(left as i64)))
    }
}

/// A duration rounded to three significant digits: 39.90004ms → 39.9ms.
pub fn short(d: Duration) -> String {
    if d <= Duration::ZERO {
        return format_go_duration(d);
    }
    let ns = d.as_nanos() as f64;
    let digits = ns.log10().floor() as i32;
    let unit = 10f64.powi((digits - 2).max(0));
    format_go_duration(Duration::from_nanos(((ns / unit).round() * unit) as i64))
}

/// Thousands separators: 10000 → 10,000.
pub fn count(n: u64) -> String {
    workqueue_core::format_count(n)
}

/// "1 probe", "2 probes", "10,000 keys".
pub fn plural(n: u64, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        n => format!("{} {word}s", count(n)),
    }
}

/// A count in at most four characters, for a scale's tick beside a narrow
/// tube: 100 → 100, 1000 → 1k, 10000 → 10k, 2500000 → 2.5M.
pub fn compact(n: u64) -> String {
    let (unit, suffix) = match n {
        0..=999 => return n.to_string(),
        1_000..=999_999 => (1_000.0, "k"),
        1_000_000..=999_999_999 => (1_000_000.0, "M"),
        _ => (1_000_000_000.0, "G"),
    };
    let v = n as f64 / unit;
    if v < 10.0 && (v * 10.0).round() % 10.0 != 0.0 {
        format!("{v:.1}{suffix}")
    } else {
        format!("{}{suffix}", v.round() as u64)
    }
}

/// Seconds with as many decimals as carry meaning.
pub fn seconds(s: f64) -> String {
    if s == 0.0 {
        "0".into()
    } else if s.abs() >= 100.0 {
        format!("{s:.1}")
    } else {
        let t = format!("{s:.6}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A reconcile result in words: "an error", "RequeueAfter 30s".
pub fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Success => "success".into(),
        Outcome::Requeue => "Requeue: true".into(),
        Outcome::RequeueAfter { after_ns } => format!("RequeueAfter {}", dur(after_ns.get())),
        Outcome::Error => "an error".into(),
        Outcome::TerminalError => "a terminal error".into(),
        Outcome::ErrorWithRequeueAfter { after_ns } => {
            format!("an error with RequeueAfter {}", dur(after_ns.get()))
        }
        Outcome::Custom { .. } => o.go_return(),
    }
}

/// What a key's reconciles will do, in words: "fails 3 times, then succeeds".
pub fn script(s: &Script) -> String {
    let then = |o: &Outcome| match o {
        Outcome::Success => "succeeds".to_string(),
        o => format!("returns {}", outcome(o)),
    };
    match s {
        Script::Always { outcome: o } => match o {
            Outcome::Success => "always succeeds".into(),
            Outcome::Error => "always fails".into(),
            o => format!("always returns {}", outcome(o)),
        },
        Script::FailThenSucceed { failures } => match failures.get() {
            0 => "always succeeds".into(),
            1 => "fails once, then succeeds".into(),
            n => format!("fails {n} times, then succeeds"),
        },
        Script::Sequence { outcomes, then: t } => {
            let list: Vec<String> = outcomes.iter().map(outcome).collect();
            format!(
                "returns {} in turn, then {} for ever",
                list.join(", "),
                then(t).trim_start_matches("returns ")
            )
        }
        Script::Random {
            error_probability,
            otherwise,
        } => format!(
            "fails {:.0}% of the time (seeded), otherwise {}",
            error_probability.get() * 100.0,
            then(otherwise)
        ),
        Script::Outage {
            from_ns,
            until_ns,
            otherwise,
        } => format!(
            "fails during an outage from {} to {}, otherwise {}",
            format_go_duration(from_ns.since_t0()),
            format_go_duration(until_ns.since_t0()),
            then(otherwise)
        ),
        Script::NotReadyUntil { ready_ns, every_ns } => format!(
            "not ready until {}: RequeueAfter {} until then, then succeeds",
            format_go_duration(ready_ns.since_t0()),
            format_go_duration(every_ns.get())
        ),
        Script::Live => "waits for you to choose each result".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::Failures;

    #[test]
    fn compact_counts_fit_a_tick() {
        let cases = [
            (0, "0"),
            (100, "100"),
            (999, "999"),
            (1_000, "1k"),
            (1_500, "1.5k"),
        ];
        let more = [
            (10_000, "10k"),
            (250_000, "250k"),
            (2_500_000, "2.5M"),
            (u64::MAX, "18446744074G"),
        ];
        for (n, want) in cases.into_iter().chain(more) {
            assert_eq!(compact(n), want, "{n}");
        }
    }

    #[test]
    fn speeds_below_one_never_read_as_one() {
        assert_eq!(speed(0.8), "0.8×");
        assert_eq!(speed(0.97), "1×");
        assert_eq!(speed(1.0 / 120.0), "1/120×");
        assert_eq!(speed(2.5), "2.5×");
    }

    #[test]
    fn totals_round_to_the_nearest_step_of_their_scale() {
        assert_eq!(
            about(Duration::from_nanos(27 * 60_000_000_000 + 17_999_999_996)),
            "27m18s"
        );
        assert_eq!(about(Duration::from_nanos(1_234_449_999)), "1.23s");
        assert_eq!(about(Duration::from_nanos(1_235_000_000)), "1.24s");
        assert_eq!(about(Duration::from_nanos(12_340_000)), "12.3ms");
        assert_eq!(about(Duration::ZERO), "0s");
    }

    #[test]
    fn scripts_read_as_words() {
        assert_eq!(
            script(&Script::FailThenSucceed {
                failures: Failures::lit(3)
            }),
            "fails 3 times, then succeeds"
        );
        assert_eq!(
            script(&Script::FailThenSucceed {
                failures: Failures::lit(1)
            }),
            "fails once, then succeeds"
        );
        assert_eq!(
            script(&Script::Always {
                outcome: Outcome::Error
            }),
            "always fails"
        );
        assert_eq!(script(&Script::Live), "waits for you to choose each result");
        assert_eq!(
            script(&Script::Sequence {
                outcomes: vec![
                    Outcome::Error,
                    Outcome::RequeueAfter {
                        after_ns: workqueue_core::Span::lit(Duration::from_nanos(30_000_000_000))
                    }
                ],
                then: Outcome::Success
            }),
            "returns an error, RequeueAfter 30s in turn, then succeeds for ever"
        );
        assert_eq!(
            script(&Script::Random {
                error_probability: workqueue_core::Probability::new(0.25).unwrap(),
                otherwise: Outcome::Success
            }),
            "fails 25% of the time (seeded), otherwise succeeds"
        );
    }

    #[test]
    fn formats() {
        assert_eq!(count(70_000), "70,000");
        assert_eq!(count(999), "999");
        assert_eq!(dur(Duration::MAX), "never (InfDuration)");
        assert_eq!(
            until(WideInstant::from_nanos(5_000_000), Instant::T0),
            "in 5ms"
        );
        assert_eq!(
            until(WideInstant::from_nanos(39_900_040), Instant::T0),
            "in 39.9ms"
        );
        assert_eq!(short(Duration::from_nanos(1_139_900_040)), "1.14s");
        assert_eq!(short(Duration::from_nanos(7)), "7ns");
        assert_eq!(seconds(0.00500), "0.005");
    }
}
