//! Spans of time whose range is part of their type, as [`crate::ranges`]
//! does for numbers: serde refuses one out of range as it reads it, so the
//! refusal names the value's own path and line, and code that makes one (a
//! form, the Go reader) goes through the same `new`, in the same words.
//! Each reads and writes as a plain [`Duration`] (integer nanoseconds, or a
//! Go duration string), and reads as one in code (`Deref`).
//!
//! | type             | what                                           | allowed            |
//! |------------------|------------------------------------------------|--------------------|
//! | [`Delay`]        | a delay or duration (backoffs, reconciles, …)  | 0 to 10 years      |
//! | [`Period`]       | a poll or a deadline, which must pass          | 1ns to 10 years    |
//! | [`SignedDelay`]  | `RequeueAfter` (negative means "not at all")   | -10 to 10 years    |
//! | [`RunLength`]    | a run                                          | 1ns to 7 days      |
//! | [`SampleWidth`]  | a time-series sample                           | 1ms to 1h          |
//! | [`ResyncPeriod`] | an informer's resync                           | 10ms to 10 years   |
//! | [`At`]           | an instant a file names (an add, an outage)    | 0 to 10 years in   |

use std::borrow::Cow;
use std::ops::Deref;

use crate::limits::{MAX_DELAY, MAX_RUN, MIN_RESYNC};
use crate::ranges::OutOfRange;
use crate::time::go::format_go_duration as go;
use crate::time::{Duration, Instant, HOUR, MILLISECOND};

/// A [`Duration`] from `MIN` to `MAX` nanoseconds, both included.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span<const MIN: i64, const MAX: i64>(Duration);

/// A delay or a duration: 0 to 10 years.
pub type Delay = Span<0, { MAX_DELAY.as_nanos() }>;
/// A poll or a deadline, which must pass: 1ns to 10 years.
pub type Period = Span<1, { MAX_DELAY.as_nanos() }>;
/// `RequeueAfter`: -10 to 10 years (negative is legal in controller-runtime
/// and means "not at all").
pub type SignedDelay = Span<{ -MAX_DELAY.as_nanos() }, { MAX_DELAY.as_nanos() }>;
/// A run's length: 1ns to 7 days.
pub type RunLength = Span<1, { MAX_RUN.as_nanos() }>;
/// A time-series sample's width: 1ms to 1h.
pub type SampleWidth = Span<{ MILLISECOND.as_nanos() }, { HOUR.as_nanos() }>;
/// An informer's resync period: 10ms to 10 years.
pub type ResyncPeriod = Span<{ MIN_RESYNC.as_nanos() }, { MAX_DELAY.as_nanos() }>;

impl<const MIN: i64, const MAX: i64> Span<MIN, MAX> {
    /// Zero, for the spans that hold it (naming it for one that does not,
    /// such as a `Period`, does not compile).
    pub const ZERO: Span<MIN, MAX> = Span::lit(Duration::ZERO);

    const fn holds(d: Duration) -> bool {
        d.as_nanos() >= MIN && d.as_nanos() <= MAX
    }

    pub fn new(d: Duration) -> Result<Span<MIN, MAX>, OutOfRange> {
        within(d, MIN, MAX).map(|()| Span(d))
    }

    /// A value written in the code: out of range it does not compile in a
    /// `const`, and panics anywhere else (a user's value goes through `new`).
    pub const fn lit(d: Duration) -> Span<MIN, MAX> {
        assert!(Self::holds(d), "a span out of its range");
        Span(d)
    }

    /// A value the model makes itself, which may lie past what a file may
    /// say: controller-runtime's `InfDuration`, with which Crossplane parks
    /// a reconcile it defers (R = 0). Never for a value read or typed.
    pub(crate) const fn of_the_model(d: Duration) -> Span<MIN, MAX> {
        Span(d)
    }

    /// A duration worked out from others, brought into range (a cost
    /// estimate's run, a comparison's window).
    pub fn saturating(d: Duration) -> Span<MIN, MAX> {
        Span(Duration::from_nanos(d.as_nanos().clamp(MIN, MAX)))
    }

    pub const fn get(self) -> Duration {
        self.0
    }
}

/// Whether `d` is from `min` to `max` nanoseconds, and if not, why in the
/// reader's words. (One function for every span: each type's own code is
/// a call, not a copy; the page carries them all.)
fn within(d: Duration, min: i64, max: i64) -> Result<(), OutOfRange> {
    if (min..=max).contains(&d.as_nanos()) {
        return Ok(());
    }
    let low = match min {
        0 => "0s".to_string(),
        1 => "more than 0s".to_string(),
        n => go(Duration::from_nanos(n)),
    };
    Err(OutOfRange::because(format!(
        "{} is out of range: use {low} to {}",
        go(d),
        go(Duration::from_nanos(max))
    )))
}

impl<const MIN: i64, const MAX: i64> Default for Span<MIN, MAX> {
    /// Zero where zero is allowed, else the least allowed.
    fn default() -> Span<MIN, MAX> {
        Span(Duration::from_nanos(0i64.clamp(MIN, MAX)))
    }
}

impl<const MIN: i64, const MAX: i64> Deref for Span<MIN, MAX> {
    type Target = Duration;

    fn deref(&self) -> &Duration {
        &self.0
    }
}

impl<const MIN: i64, const MAX: i64> From<Span<MIN, MAX>> for Duration {
    fn from(s: Span<MIN, MAX>) -> Duration {
        s.0
    }
}

impl<const MIN: i64, const MAX: i64> TryFrom<Duration> for Span<MIN, MAX> {
    type Error = OutOfRange;

    fn try_from(d: Duration) -> Result<Span<MIN, MAX>, OutOfRange> {
        Span::new(d)
    }
}

impl<const MIN: i64, const MAX: i64> PartialEq<Duration> for Span<MIN, MAX> {
    fn eq(&self, d: &Duration) -> bool {
        self.0 == *d
    }
}

impl<const MIN: i64, const MAX: i64> PartialOrd<Duration> for Span<MIN, MAX> {
    fn partial_cmp(&self, d: &Duration) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(d)
    }
}

// Printed as the duration is (the bare integer under `{:?}`), so no text
// written with it changes.
impl<const MIN: i64, const MAX: i64> std::fmt::Debug for Span<MIN, MAX> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl<const MIN: i64, const MAX: i64> serde::Serialize for Span<MIN, MAX> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

// `#[serde(try_from)]`, written out: the duration as read, refused where it
// stands when out of range.
impl<'de, const MIN: i64, const MAX: i64> serde::Deserialize<'de> for Span<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Span<MIN, MAX>, D::Error> {
        let d = <Duration as serde::Deserialize>::deserialize(d)?;
        Span::new(d).map_err(serde::de::Error::custom)
    }
}

impl<const MIN: i64, const MAX: i64> schemars::JsonSchema for Span<MIN, MAX> {
    // Inline: the range sits at the field, as a plain duration's would.
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Span_{MIN}_{MAX}").into()
    }

    // A duration (the one definition) and the range, which JSON Schema
    // cannot put on a string like "1m30s": it is said in words, and the
    // reader holds to it.
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut s = g.subschema_for::<Duration>();
        s.insert(
            "description".into(),
            format!(
                "From {} to {} ({MIN} to {MAX} nanoseconds).",
                go(Duration::from_nanos(MIN)),
                go(Duration::from_nanos(MAX))
            )
            .into(),
        );
        s
    }
}

/// An instant a file names (when a key is added, an outage starts or
/// ends, an object is ready): 0 to 10 years after the run's start.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct At(Instant);

impl At {
    pub const T0: At = At(Instant::T0);

    pub fn new(t: Instant) -> Result<At, OutOfRange> {
        Delay::new(t.since_t0())
            .map(|_| At(t))
            .map_err(|e| OutOfRange::because(format!("{e} after the start")))
    }

    /// An instant written in the code (see [`Span::lit`]).
    pub const fn lit(t: Instant) -> At {
        Delay::lit(t.since_t0());
        At(t)
    }

    /// An instant the model worked out, brought into range.
    pub fn saturating(t: Instant) -> At {
        At(Instant::T0 + Delay::saturating(t.since_t0()).get())
    }

    pub const fn get(self) -> Instant {
        self.0
    }
}

impl Deref for At {
    type Target = Instant;

    fn deref(&self) -> &Instant {
        &self.0
    }
}

impl From<At> for Instant {
    fn from(t: At) -> Instant {
        t.0
    }
}

impl std::fmt::Debug for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl serde::Serialize for At {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for At {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<At, D::Error> {
        let t = <Instant as serde::Deserialize>::deserialize(d)?;
        At::new(t).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for At {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "At".into()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Delay as schemars::JsonSchema>::json_schema(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SECOND;

    #[test]
    fn a_span_refuses_what_is_out_of_its_range_as_it_is_read() {
        let ok: Delay = serde_json::from_str("\"1m30s\"").unwrap();
        assert_eq!(ok.get(), 90 * SECOND);
        let e = serde_json::from_str::<Delay>("-5").unwrap_err().to_string();
        assert!(
            e.starts_with("-5ns is out of range: use 0s to 87600h0m0s"),
            "{e}"
        );
        let e = serde_json::from_str::<Period>("0").unwrap_err().to_string();
        assert!(
            e.starts_with("0s is out of range: use more than 0s to"),
            "{e}"
        );
        let e = serde_json::from_str::<SampleWidth>("\"2h\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("2h0m0s is out of range: use 1ms to 1h0m0s"),
            "{e}"
        );
        assert_eq!(SignedDelay::new(-SECOND).map(Span::get), Ok(-SECOND));
        assert_eq!(serde_json::to_string(&ok).unwrap(), "90000000000");
        let e = serde_json::from_str::<At>("\"-1s\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("-1s is out of range: use 0s to 87600h0m0s after the start"),
            "{e}"
        );
    }

    #[test]
    fn a_span_defaults_to_zero_or_its_least() {
        assert_eq!(Delay::default().get(), Duration::ZERO);
        assert_eq!(SampleWidth::default().get(), MILLISECOND);
    }
}
