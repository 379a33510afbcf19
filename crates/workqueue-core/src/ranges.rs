//! Numbers whose range is part of their type: serde refuses one out of
//! range as it reads it (`#[serde(try_from)]`), so the refusal names the
//! value's own path and line, and no check after reading is needed; code
//! that makes one (a form, a generator) goes through the same `new`.
//! Each writes and reads as the plain number, and its JSON Schema says the
//! range.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Why a number is out of its range, in the reader's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OutOfRange(String);

/// An error probability: 0 to 1 (never to always).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Probability(f64);

impl Probability {
    pub const NEVER: Probability = Probability(0.0);
    pub const ALWAYS: Probability = Probability(1.0);

    pub fn new(p: f64) -> Result<Probability, OutOfRange> {
        // `contains` is false for NaN, so NaN is refused too.
        if (0.0..=1.0).contains(&p) {
            Ok(Probability(p))
        } else {
            Err(OutOfRange(format!("{p} is not a probability: use 0 to 1")))
        }
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Probability {
    type Error = OutOfRange;

    fn try_from(p: f64) -> Result<Probability, OutOfRange> {
        Probability::new(p)
    }
}

impl From<Probability> for f64 {
    fn from(p: Probability) -> f64 {
        p.0
    }
}

impl schemars::JsonSchema for Probability {
    // Inline: the range sits at the field, as a plain number's would.
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Probability".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "number", "format": "double", "minimum": 0.0, "maximum": 1.0})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
