//! Durations in JSON: integer nanoseconds (the conformance format) or a Go
//! duration string such as `"1m30s"` (friendlier in hand-written scenarios).
//! They are always written back as integers, so files round-trip exactly.
//! The same reader serves instants (`at`, `run_to`, `from_ns`…): an instant
//! is written as the duration since `T0`.

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};
use std::fmt;

use crate::time::{parse_go_duration, Duration, Instant};

/// A time field this module reads and writes: its integer nanoseconds.
pub trait Nanoseconds: Copy {
    fn from_nanos(ns: i64) -> Self;
    fn as_nanos(self) -> i64;
}

impl Nanoseconds for Duration {
    fn from_nanos(ns: i64) -> Self {
        Duration::from_nanos(ns)
    }
    fn as_nanos(self) -> i64 {
        Duration::as_nanos(self)
    }
}

impl Nanoseconds for Instant {
    fn from_nanos(ns: i64) -> Self {
        Instant::from_nanos(ns)
    }
    fn as_nanos(self) -> i64 {
        Instant::as_nanos(self)
    }
}

pub fn serialize<T: Nanoseconds, S: Serializer>(d: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(d.as_nanos())
}

pub fn deserialize<'de, T: Nanoseconds, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_any(DurationVisitor).map(T::from_nanos)
}

struct DurationVisitor;

impl Visitor<'_> for DurationVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a duration: integer nanoseconds or a string like \"5ms\"")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v)
            .map_err(|_| E::custom(format!("{v} ns is out of range (about 292 years at most)")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        if v.fract() == 0.0 && v.abs() < 9.2e18 {
            Ok(v as i64)
        } else {
            Err(E::custom(format!(
                "{v} is not a whole number of nanoseconds"
            )))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
        parse_go_duration(v)
            .map(Duration::as_nanos)
            .map_err(E::custom)
    }
}

/// The same for `Option<Duration>` and `Option<Instant>` fields.
pub mod option {
    use super::*;
    use serde::Deserialize;

    pub fn serialize<T: Nanoseconds, S: Serializer>(
        d: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match d {
            Some(v) => s.serialize_some(&v.as_nanos()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Nanoseconds, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super")] Duration);
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| T::from_nanos(w.0.as_nanos())))
    }
}

/// How a duration is written, for the JSON Schema (`#[schemars(with)]` on
/// each duration field): what [`deserialize`] accepts.
pub struct DurationSchema;

impl schemars::JsonSchema for DurationSchema {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Duration".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A duration: integer nanoseconds, or a Go duration string such as \"750ms\", \"1m30s\" or \"1.5h\".",
            "anyOf": [
                {"type": "integer", "description": "nanoseconds"},
                {"type": "string", "pattern": "^[-+]?(0|([0-9]*\\.?[0-9]+(ns|us|µs|μs|ms|s|m|h))+)$"}
            ]
        })
    }
}
