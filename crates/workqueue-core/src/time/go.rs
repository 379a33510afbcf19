//! Go's durations as text (`time.Duration.String`, `time.ParseDuration`)
//! and Go's conversions between floats and durations.

use super::{Duration, HOUR, MICROSECOND, MILLISECOND, MINUTE, SECOND};

/// Go's `Duration.Seconds()`: whole seconds plus the fraction, computed in two
/// parts so that large durations keep their nanoseconds.
pub(crate) fn go_seconds(d: Duration) -> f64 {
    let (d, second) = (d.as_nanos(), SECOND.as_nanos());
    let sec = d / second;
    let nsec = d % second;
    sec as f64 + nsec as f64 / 1e9
}

/// Go's `time.Duration(f)` on amd64: truncation toward zero, and the
/// "integer indefinite" value `i64::MIN` for NaN or anything out of range.
/// (Rust's `as` saturates instead, which is what arm64 does.)
pub(crate) fn go_f64_to_i64(x: f64) -> i64 {
    // 2^63 is the first float that does not fit.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if x.is_nan() || !(-TWO_63..TWO_63).contains(&x) {
        i64::MIN
    } else {
        x as i64
    }
}

/// Port of Go's `time.Duration.String`.
pub fn format_go_duration(d: Duration) -> String {
    let d = d.as_nanos();
    if d == 0 {
        return "0s".to_string();
    }
    let neg = d < 0;
    let mut u = d.unsigned_abs();
    let mut out = String::new();
    if u < SECOND.as_nanos() as u64 {
        let (prec, unit) = if u < MICROSECOND.as_nanos() as u64 {
            (0, "ns")
        } else if u < MILLISECOND.as_nanos() as u64 {
            (3, "µs")
        } else {
            (6, "ms")
        };
        let (frac, rest) = fmt_frac(u, prec);
        out.push_str(&rest.to_string());
        out.push_str(&frac);
        out.push_str(unit);
    } else {
        let (frac, rest) = fmt_frac(u, 9);
        u = rest;
        let secs = u % 60;
        u /= 60;
        let mut s = format!("{secs}{frac}s");
        if u > 0 {
            let mins = u % 60;
            u /= 60;
            s = format!("{mins}m{s}");
            if u > 0 {
                s = format!("{u}h{s}");
            }
        }
        out.push_str(&s);
    }
    if neg {
        format!("-{out}")
    } else {
        out
    }
}

/// The fraction of `v / 10^prec` with trailing zeros dropped (".5", or "" when
/// zero), and the integer part.
fn fmt_frac(mut v: u64, prec: u32) -> (String, u64) {
    let mut digits = Vec::new();
    let mut print = false;
    for _ in 0..prec {
        let digit = v % 10;
        print = print || digit != 0;
        if print {
            digits.push(char::from(b'0' + digit as u8));
        }
        v /= 10;
    }
    if digits.is_empty() {
        return (String::new(), v);
    }
    digits.push('.');
    (digits.iter().rev().collect(), v)
}

/// Why a duration string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("empty: write a duration such as 5ms, 1.5s or 2m30s")]
    Empty,
    #[error("invalid duration {0:?}: expected a number with a unit, like 5ms, 1.5s or 2m30s")]
    Invalid(String),
    #[error("unknown unit {unit:?} in {input:?}: use ns, us, µs, ms, s, m or h")]
    UnknownUnit { unit: String, input: String },
    #[error("duration {0:?} is out of range (about ±292 years at most)")]
    Overflow(String),
}

/// Parses Go's duration syntax (`300ms`, `-1.5h`, `2h45m`, `0`).
pub fn parse_go_duration(input: &str) -> Result<Duration, DurationError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(DurationError::Empty);
    }
    let (neg, mut rest) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    if rest.is_empty() {
        return Err(DurationError::Invalid(input.to_string()));
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..num_end];
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err(DurationError::Invalid(input.to_string()));
        }
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_end];
        rest = &rest[unit_end..];
        let scale: i128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => MICROSECOND.as_nanos() as i128,
            "ms" => MILLISECOND.as_nanos() as i128,
            "s" => SECOND.as_nanos() as i128,
            "m" => MINUTE.as_nanos() as i128,
            "h" => HOUR.as_nanos() as i128,
            "" => return Err(DurationError::Invalid(input.to_string())),
            _ => {
                return Err(DurationError::UnknownUnit {
                    unit: unit.to_string(),
                    input: input.to_string(),
                })
            }
        };
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        let whole: i128 = if whole.is_empty() {
            0
        } else {
            whole
                .parse::<i128>()
                .map_err(|_| DurationError::Overflow(input.to_string()))?
        };
        let mut value = whole
            .checked_mul(scale)
            .ok_or_else(|| DurationError::Overflow(input.to_string()))?;
        // Fractions are exact to the nanosecond; further digits are dropped as Go does.
        let mut place = scale;
        for c in frac.chars() {
            place /= 10;
            if place == 0 {
                break;
            }
            value += (c as i128 - '0' as i128) * place;
        }
        total = total
            .checked_add(value)
            .filter(|t| *t <= i64::MAX as i128 + 1)
            .ok_or_else(|| DurationError::Overflow(input.to_string()))?;
    }
    let signed = if neg { -total } else { total };
    i64::try_from(signed)
        .map(Duration::from_nanos)
        .map_err(|_| DurationError::Overflow(input.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::*;

    const fn ns(n: i64) -> Duration {
        Duration::from_nanos(n)
    }

    #[test]
    fn formats_like_go() {
        let cases = [
            (ns(0), "0s"),
            (ns(1), "1ns"),
            (ns(1_100), "1.1µs"),
            (5 * MILLISECOND, "5ms"),
            (2_200 * MICROSECOND, "2.2ms"),
            (SECOND, "1s"),
            (ns(4_099_999_999), "4.099999999s"),
            (81_920 * MILLISECOND, "1m21.92s"),
            (1000 * SECOND, "16m40s"),
            (HOUR + 2 * MINUTE + 3 * SECOND, "1h2m3s"),
            (-5 * SECOND, "-5s"),
            (INF_DURATION, "2562047h47m16.854775807s"),
            (ns(i64::MIN), "-2562047h47m16.854775808s"),
        ];
        for (d, want) in cases {
            assert_eq!(format_go_duration(d), want, "{d:?}");
        }
    }

    #[test]
    fn parses_go_syntax() {
        assert_eq!(parse_go_duration("5ms"), Ok(5 * MILLISECOND));
        assert_eq!(parse_go_duration("1.5s"), Ok(1_500 * MILLISECOND));
        assert_eq!(parse_go_duration("2m30s"), Ok(150 * SECOND));
        assert_eq!(parse_go_duration("-5s"), Ok(-5 * SECOND));
        assert_eq!(parse_go_duration("0"), Ok(Duration::ZERO));
        assert_eq!(parse_go_duration("100us"), Ok(100 * MICROSECOND));
        assert!(matches!(
            parse_go_duration("5"),
            Err(DurationError::Invalid(_))
        ));
        assert!(matches!(
            parse_go_duration("5 parsecs"),
            Err(DurationError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_go_duration("3000000h"),
            Err(DurationError::Overflow(_))
        ));
        assert_eq!(parse_go_duration(""), Err(DurationError::Empty));
    }

    #[test]
    fn format_then_parse_round_trips() {
        for d in [
            ns(1),
            ns(999),
            5 * MILLISECOND,
            ns(4_099_999_999),
            1000 * SECOND,
            3 * HOUR + ns(7),
        ] {
            assert_eq!(parse_go_duration(&format_go_duration(d)), Ok(d));
        }
    }

    #[test]
    fn go_conversion_matches_amd64() {
        assert_eq!(go_f64_to_i64(4_099_999_999.999_999_5), 4_099_999_999);
        assert_eq!(go_f64_to_i64(-1.9), -1);
        assert_eq!(go_f64_to_i64(9_223_372_036_854_775_808.0), i64::MIN);
        assert_eq!(go_f64_to_i64(f64::NAN), i64::MIN);
        assert_eq!(go_seconds(ns(1_500_000_001)), 1.500000001);
    }
}
