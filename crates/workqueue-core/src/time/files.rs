//! Durations and instants in files: written as integer nanoseconds (the
//! conformance format, so files round-trip exactly), read from integer
//! nanoseconds or a Go duration string such as `"1m30s"` (friendlier in a
//! hand-written scenario). An instant is the duration since `T0`. The JSON
//! Schema says the same.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::go::parse_go_duration;
use super::{Duration, Instant};

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.as_nanos())
    }
}

impl Serialize for Instant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.as_nanos())
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Nanoseconds).map(Duration::from_nanos)
    }
}

impl<'de> Deserialize<'de> for Instant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Nanoseconds).map(Instant::from_nanos)
    }
}

/// Reads what a time field may hold: its integer nanoseconds.
struct Nanoseconds;

impl Visitor<'_> for Nanoseconds {
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

/// What a time field accepts, for the JSON Schema: one definition,
/// `Duration`, for durations and instants alike.
fn schema() -> schemars::Schema {
    schemars::json_schema!({
        "description": "A duration: integer nanoseconds, or a Go duration string such as \"750ms\", \"1m30s\" or \"1.5h\".",
        "anyOf": [
            {"type": "integer", "description": "nanoseconds"},
            {"type": "string", "pattern": "^[-+]?(0|([0-9]*\\.?[0-9]+(ns|us|µs|μs|ms|s|m|h))+)$"}
        ]
    })
}

impl schemars::JsonSchema for Duration {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Duration".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schema()
    }
}

impl schemars::JsonSchema for Instant {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Duration".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Duration as schemars::JsonSchema>::schema_id()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schema()
    }
}
