//! Virtual time: integer nanoseconds, exactly like Go's `time.Time` and
//! `time.Duration`.
//!
//! The core never reads a clock. Every call that can change state takes the
//! current virtual [`Instant`], measured from the start of the run
//! ([`Instant::T0`]); spans between instants are [`Duration`]s. Both are one
//! i64 underneath, serialized as that integer, and every operation does what
//! the i64 arithmetic did (plain, saturating or checked, as named), because
//! the recorded upstream cases check the edges.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub};

mod files;
pub(crate) mod go;

// The three time types are one integer each, alike in all but their
// arithmetic: compared, hashed and written to files as that integer (see
// `files.rs` for what a file may say instead), printed by Debug as the bare
// integer (as the integers were, so that no text written
// with `{:?}` changes), and crossed to and from the raw count by name.
macro_rules! nanos_newtype {
    ($(#[$doc:meta])* $name:ident($raw:ty)) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name($raw);

        impl $name {
            /// From integer nanoseconds (a file's or a test's; also the one
            /// way to build one in a `const`, where `*` is not allowed).
            pub const fn from_nanos(ns: $raw) -> $name {
                $name(ns)
            }

            /// The raw count, for float arithmetic (Go's conversions are on
            /// it) and the page's sliders.
            pub const fn as_nanos(self) -> $raw {
                self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }
    };
}

nanos_newtype! {
    /// A point in virtual time: nanoseconds since [`Instant::T0`].
    Instant(i64)
}

nanos_newtype! {
    /// A signed span of virtual time in nanoseconds, as Go's `time.Duration`.
    Duration(i64)
}

nanos_newtype! {
    /// An instant kept in 128 bits, where `now + InfDuration` cannot overflow:
    /// the queues' `readyAt` and x/time/rate's `timeToAct`, which Go computes
    /// as a `time.Time` that never wraps. (Written as its integer: no file
    /// a person writes holds one.)
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    WideInstant(i128)
}

impl Instant {
    /// The start of every run.
    pub const T0: Instant = Instant(0);
    /// The end of representable time: "never" for a timer.
    pub const MAX: Instant = Instant(i64::MAX);
    /// The earliest representable instant: "never happened" for a gauge.
    pub const MIN: Instant = Instant(i64::MIN);

    /// `self + d`, stopping at the end (or start) of representable time
    /// instead of wrapping.
    pub const fn saturating_add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }

    /// How long after `T0` this is.
    pub const fn since_t0(self) -> Duration {
        Duration(self.0)
    }

    /// `self - earlier`, saturating as i64's `saturating_sub`.
    pub const fn saturating_sub(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }

    /// This instant as a [`WideInstant`].
    pub const fn wide(self) -> WideInstant {
        WideInstant(self.0 as i128)
    }

    /// `self + d`, exact: a [`WideInstant`] holds any sum of two i64s.
    pub const fn wide_after(self, d: Duration) -> WideInstant {
        WideInstant(self.0 as i128 + d.0 as i128)
    }
}

impl WideInstant {
    pub const T0: WideInstant = WideInstant(0);

    /// The instant, when an i64 holds it.
    pub fn narrow(self) -> Option<Instant> {
        i64::try_from(self.0).ok().map(Instant)
    }
}

/// The exact nanoseconds from `earlier` to `self` (wide: it may not fit a
/// [`Duration`]).
impl Sub for WideInstant {
    type Output = i128;
    fn sub(self, earlier: WideInstant) -> i128 {
        self.0 - earlier.0
    }
}

impl Duration {
    pub const ZERO: Duration = Duration(0);
    pub const NANOSECOND: Duration = Duration(1);
    pub const MICROSECOND: Duration = Duration(1_000);
    pub const MILLISECOND: Duration = Duration(1_000_000);
    pub const SECOND: Duration = Duration(1_000_000_000);
    pub const MINUTE: Duration = Duration(60 * Self::SECOND.0);
    pub const HOUR: Duration = Duration(60 * Self::MINUTE.0);
    /// The largest duration, about 292 years.
    pub const MAX: Duration = Duration(i64::MAX);
    /// `rate.InfDuration`.
    pub const INF: Duration = Duration::MAX;

    pub const fn saturating_add(self, d: Duration) -> Duration {
        Duration(self.0.saturating_add(d.0))
    }

    pub const fn saturating_sub(self, d: Duration) -> Duration {
        Duration(self.0.saturating_sub(d.0))
    }

    pub const fn saturating_mul(self, n: i64) -> Duration {
        Duration(self.0.saturating_mul(n))
    }

    pub const fn checked_mul(self, n: i64) -> Option<Duration> {
        match self.0.checked_mul(n) {
            Some(ns) => Some(Duration(ns)),
            None => None,
        }
    }
}

// An operator on the time types is the i64's on the raw counts (plain, as
// `+` on the i64s was: it panics on overflow where overflow checks are on).
macro_rules! raw_op {
    ($(#[$doc:meta])* $tr:ident $method:ident $op:tt: i64, $rhs:ident => $out:ident) => {
        $(#[$doc])*
        impl $tr<$rhs> for i64 {
            type Output = $out;
            fn $method(self, rhs: $rhs) -> $out {
                $out(self $op rhs.0)
            }
        }
    };
    ($tr:ident $method:ident $op:tt: $lhs:ident, i64 => $out:ident) => {
        impl $tr<i64> for $lhs {
            type Output = $out;
            fn $method(self, rhs: i64) -> $out {
                $out(self.0 $op rhs)
            }
        }
    };
    ($tr:ident $method:ident $op:tt: $lhs:ident, $rhs:ident => $out:ident) => {
        impl $tr<$rhs> for $lhs {
            type Output = $out;
            fn $method(self, rhs: $rhs) -> $out {
                $out(self.0 $op rhs.0)
            }
        }
    };
}

raw_op!(Add add +: Instant, Duration => Instant);
raw_op!(Sub sub -: Instant, Duration => Instant);
raw_op!(Sub sub -: Instant, Instant => Duration);
raw_op!(Add add +: Duration, Duration => Duration);
raw_op!(Sub sub -: Duration, Duration => Duration);
raw_op!(Mul mul *: Duration, i64 => Duration);
raw_op!(
    /// `5 * MILLISECOND`, written as Go writes `5 * time.Millisecond`.
    Mul mul *: i64, Duration => Duration
);
raw_op!(Div div /: Duration, i64 => Duration);

impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, d: Duration) {
        self.0 += d.0;
    }
}

impl AddAssign for Duration {
    fn add_assign(&mut self, d: Duration) {
        self.0 += d.0;
    }
}

impl Neg for Duration {
    type Output = Duration;
    fn neg(self) -> Duration {
        Duration(-self.0)
    }
}

/// How many whole `d` fit in `self` (truncated, as i64 division).
impl Div for Duration {
    type Output = i64;
    fn div(self, d: Duration) -> i64 {
        self.0 / d.0
    }
}

impl std::iter::Sum for Duration {
    fn sum<I: Iterator<Item = Duration>>(iter: I) -> Duration {
        iter.fold(Duration::ZERO, |a, b| a + b)
    }
}

// Go's `time.Nanosecond` … `time.Hour`, so that a delay reads as in Go:
// `5 * MILLISECOND`.
pub const NANOSECOND: Duration = Duration::NANOSECOND;
pub const MICROSECOND: Duration = Duration::MICROSECOND;
pub const MILLISECOND: Duration = Duration::MILLISECOND;
pub const SECOND: Duration = Duration::SECOND;
pub const MINUTE: Duration = Duration::MINUTE;
pub const HOUR: Duration = Duration::HOUR;

/// `rate.InfDuration`: the largest duration, about 292 years.
pub const INF_DURATION: Duration = Duration::INF;

/// `instant + delay`, saturating at the end of representable time instead of
/// wrapping into the past (a wrapped instant would fire at once, forever).
pub(crate) fn after(instant: Instant, delay: Duration) -> Instant {
    instant.saturating_add(delay)
}

/// A count with thousands separators, as people read it: 10000 is 10,000.
pub fn format_count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
