//! Durations in JSON: integer nanoseconds (the conformance format) or a Go
//! duration string such as `"1m30s"` (friendlier in hand-written scenarios).
//! They are always written back as integers, so files round-trip exactly.

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};
use std::fmt;

use crate::time::{parse_go_duration, Nanos};

pub fn serialize<S: Serializer>(d: &Nanos, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(*d)
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Nanos, D::Error> {
    d.deserialize_any(DurationVisitor)
}

struct DurationVisitor;

impl Visitor<'_> for DurationVisitor {
    type Value = Nanos;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a duration: integer nanoseconds or a string like \"5ms\"")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Nanos, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Nanos, E> {
        i64::try_from(v)
            .map_err(|_| E::custom(format!("{v} ns is out of range (about 292 years at most)")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Nanos, E> {
        if v.fract() == 0.0 && v.abs() < 9.2e18 {
            Ok(v as i64)
        } else {
            Err(E::custom(format!(
                "{v} is not a whole number of nanoseconds"
            )))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Nanos, E> {
        parse_go_duration(v).map_err(E::custom)
    }
}

/// The same for `Option<Nanos>` fields.
pub mod option {
    use super::*;
    use serde::Deserialize;

    pub fn serialize<S: Serializer>(d: &Option<Nanos>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(v) => s.serialize_some(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Nanos>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super")] Nanos);
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
    }
}

/// How a duration is written, for the JSON Schema (`#[schemars(with)]` on
/// each duration field): what [`deserialize`] accepts.
pub struct Duration;

impl schemars::JsonSchema for Duration {
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
