//! Go's arithmetic on the values a set-up computes, checked: a result Go's
//! compiler would refuse (a constant that overflows `int64`, a duration
//! past 292 years) or that no count can hold is `Unknown` with the reason,
//! never a wrapped, saturated or panicking number.

use gosyn::token::Operator;
use workqueue_core::Duration;

use crate::value::Value;

/// `ns` nanoseconds as a `time.Duration`, when an int64 holds it.
pub(crate) fn duration(ns: f64) -> Result<Duration, String> {
    let r = ns.round();
    // i64::MAX as f64 rounds up to 2^63, which does not fit: strictly less.
    if r.is_finite() && r >= i64::MIN as f64 && r < i64::MAX as f64 {
        Ok(Duration::from_nanos(r as i64))
    } else {
        Err(format!(
            "{ns:e} ns overflows a time.Duration (int64 nanoseconds, about 292 years)"
        ))
    }
}

/// `x` as a whole number of type `T` (a count, a burst, a rate R), when it
/// is one and `T` holds it; `what` names it in the reason.
pub(crate) fn whole<T: TryFrom<i64>>(x: f64, what: &str) -> Result<T, String> {
    let out_of_range = || format!("{what} {x} is out of range");
    if !x.is_finite() || x < i64::MIN as f64 || x >= i64::MAX as f64 {
        return Err(out_of_range());
    }
    T::try_from(x.trunc() as i64).map_err(|_| out_of_range())
}

/// A unary operator: `&x`, `*x` (a flag's pointer: its value) and `-x`.
pub(crate) fn unary(op: Operator, v: Value) -> Value {
    match (op, v) {
        (Operator::And | Operator::Star, v) => v,
        (Operator::Add, v @ (Value::Num(_) | Value::Dur(_))) => v,
        (Operator::Sub, Value::Num(n)) => Value::Num(-n),
        (Operator::Sub, Value::Dur(d)) => match d.as_nanos().checked_neg() {
            Some(n) => Value::Dur(Duration::from_nanos(n)),
            None => Value::Unknown("the negated duration overflows a time.Duration".into()),
        },
        (_, Value::Unknown(why)) => Value::Unknown(why),
        _ => Value::Unknown("an operator the reader does not evaluate".into()),
    }
}

/// A binary operator on numbers and durations.
pub(crate) fn binary(op: Operator, x: Value, y: Value) -> Value {
    use Value::{Dur, Num};
    let dur = |r: Result<Duration, String>| r.map_or_else(Value::Unknown, Dur);
    let exact = |r: Option<i64>| match r {
        Some(n) => Dur(Duration::from_nanos(n)),
        None => Value::Unknown("the duration overflows a time.Duration (about 292 years)".into()),
    };
    match (op, x, y) {
        (Operator::Star, Num(a), Num(b)) => Num(a * b),
        (Operator::Star, Num(a), Dur(d)) | (Operator::Star, Dur(d), Num(a)) => {
            dur(duration(a * d.as_nanos() as f64))
        }
        (Operator::Star, Dur(a), Dur(b)) => exact(a.as_nanos().checked_mul(b.as_nanos())),
        (Operator::Quo, Num(a), Num(b)) if b != 0.0 => Num(a / b),
        (Operator::Quo, Dur(d), Num(b)) if b != 0.0 => dur(duration(d.as_nanos() as f64 / b)),
        (Operator::Add, Num(a), Num(b)) => Num(a + b),
        (Operator::Add, Dur(a), Dur(b)) => exact(a.as_nanos().checked_add(b.as_nanos())),
        (Operator::Sub, Num(a), Num(b)) => Num(a - b),
        (Operator::Sub, Dur(a), Dur(b)) => exact(a.as_nanos().checked_sub(b.as_nanos())),
        (_, Value::Unknown(why), _) | (_, _, Value::Unknown(why)) => Value::Unknown(why),
        _ => Value::Unknown("arithmetic the reader does not evaluate".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_is_a_reason_not_a_number() {
        let huge = Value::Num(-1e30);
        let second = Value::Dur(Duration::from_nanos(1_000_000_000));
        let d = binary(Operator::Star, huge, second);
        assert!(matches!(d, Value::Unknown(_)), "{d:?}");
        assert!(matches!(
            unary(Operator::Sub, Value::Dur(Duration::from_nanos(i64::MIN))),
            Value::Unknown(_)
        ));
        assert!(matches!(
            binary(
                Operator::Add,
                Value::Dur(Duration::MAX),
                Value::Dur(Duration::from_nanos(1))
            ),
            Value::Unknown(_)
        ));
        assert!(whole::<u32>(1e30, "R").is_err());
        assert!(whole::<u32>(-5.0, "R").is_err());
        assert!(whole::<i64>(f64::NAN, "burst").is_err());
        assert_eq!(whole::<i64>(7.0, "burst"), Ok(7));
        assert!(duration(9.3e18).is_err());
        assert_eq!(duration(1.5e9).map(|d| d.as_nanos()), Ok(1_500_000_000));
    }
}
