//! Numbers whose range is part of their type: serde refuses one out of
//! range as it reads it, so the refusal names the value's own path and line,
//! and no check after reading is needed; code that makes one (a form, a
//! generator, the Go reader) goes through the same `new`, in the same words.
//! Each writes and reads as the plain number, and its JSON Schema says the
//! range.
//!
//! | type             | what                                  | allowed            |
//! |------------------|---------------------------------------|--------------------|
//! | [`Probability`]  | an error probability                  | 0 to 1             |
//! | [`Workers`]      | a controller's workers                | 1 to 1,000         |
//! | [`Burst`]        | a token bucket's burst                | 1 to 1,000,000     |
//! | [`Qps`]          | a token bucket's refill               | 0, or 0.001 to 1e9 |
//! | [`ClientQps`]    | an API client's rate                  | 0.001 to 1e9       |
//! | [`EventRate`]    | watch events per second               | 0.001 to 1,000,000 |
//! | [`KeyCount`]     | keys added at once                    | 1 to 1,000,000     |
//! | [`Failures`]     | failures before success               | 0 to 1,000,000     |
//! | [`Requests`]     | API requests per reconcile (of a kind)| 0 to 1,000         |
//! | [`ReconcileRate`]| Crossplane's R                        | 0 to 1,000         |
//! | [`BreakerAmount`]| a circuit breaker's burst or refill   | 0 to 1e9           |

use std::borrow::Cow;

use crate::limits::*;

/// Why a number is out of its range, in the reader's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OutOfRange(String);

impl OutOfRange {
    pub(crate) fn because(why: String) -> OutOfRange {
        OutOfRange(why)
    }
}

/// A newtype over `$raw` holding only values for which `$ok` holds (with
/// the value bound to `$x`): `new` refuses any other with `$why`, serde
/// refuses it as it reads it, and the schema is `$schema`.
macro_rules! ranged {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($raw:ty);
        ok: |$x:ident| $ok:expr,
        why: $why:expr,
        schema: $schema:tt
    ) => {
        $(#[$meta])*
        pub struct $name($raw);

        impl $name {
            // `RangeInclusive::contains` is not `const`.
            #[allow(clippy::manual_range_contains)]
            const fn holds($x: $raw) -> bool {
                $ok
            }

            pub fn new($x: $raw) -> Result<$name, OutOfRange> {
                if $name::holds($x) {
                    Ok($name($x))
                } else {
                    Err(OutOfRange($why))
                }
            }

            /// A value written in the code: out of range it does not
            /// compile in a `const`, and panics anywhere else (a user's
            /// number goes through `new`).
            pub const fn lit($x: $raw) -> $name {
                assert!($name::holds($x), concat!("out of range for ", stringify!($name)));
                $name($x)
            }

            pub const fn get(self) -> $raw {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl TryFrom<$raw> for $name {
            type Error = OutOfRange;

            fn try_from(x: $raw) -> Result<$name, OutOfRange> {
                $name::new(x)
            }
        }

        impl From<$name> for $raw {
            fn from(x: $name) -> $raw {
                x.0
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }

        // `#[serde(try_from)]`, written out: the number as read, refused
        // where it stands when out of range.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let x = <$raw as serde::Deserialize>::deserialize(d)?;
                $name::new(x).map_err(serde::de::Error::custom)
            }
        }

        impl schemars::JsonSchema for $name {
            // Inline: the range sits at the field, as a plain number's would.
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!($schema)
            }
        }
    };
}

ranged! {
    /// An error probability: 0 to 1 (never to always).
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Probability(f64);
    // Comparisons are false for NaN, so NaN is refused too.
    ok: |p| p >= 0.0 && p <= 1.0,
    why: format!("{p} is not a probability: use 0 to 1"),
    schema: {"type": "number", "format": "double", "minimum": 0.0, "maximum": 1.0}
}

impl Probability {
    pub const NEVER: Probability = Probability(0.0);
    pub const ALWAYS: Probability = Probability(1.0);
}

ranged! {
    /// A controller's workers (`MaxConcurrentReconciles`): 1 to 1,000.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Workers(u32);
    ok: |w| w >= 1 && w <= MAX_WORKERS,
    why: format!("{w} workers is out of range: use 1 to {MAX_WORKERS}"),
    schema: {"type": "integer", "format": "uint32", "minimum": 1, "maximum": MAX_WORKERS}
}

ranged! {
    /// A token bucket's burst (its size): 1 to 1,000,000.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Burst(i64);
    ok: |b| b >= 1 && b <= MAX_BURST,
    why: format!(
        "burst {b} is out of range: use 1 to {MAX_BURST}{}",
        if b < 1 {
            " (a burst below 1 grants no token ever: every key would wait 292 years)"
        } else {
            ""
        }
    ),
    schema: {"type": "integer", "format": "int64", "minimum": 1, "maximum": MAX_BURST}
}

ranged! {
    /// A token bucket's refill in tokens per second: 0 (it never refills),
    /// or 0.001 to 1e9.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Qps(f64);
    ok: |q| q == 0.0 || (q >= MIN_QPS && q <= MAX_QPS),
    why: format!(
        "{} tokens per second is out of range: use 0 (never refills) or {MIN_QPS} to {}",
        brief(q),
        brief(MAX_QPS)
    ),
    schema: {
        "type": "number",
        "format": "double",
        "minimum": 0.0,
        "maximum": MAX_QPS,
        "not": {"exclusiveMinimum": 0.0, "exclusiveMaximum": MIN_QPS}
    }
}

ranged! {
    /// An API client's rate in requests per second: 0.001 to 1e9 (a client
    /// that never refilled would hold its workers for ever).
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct ClientQps(f64);
    ok: |q| q >= MIN_QPS && q <= MAX_QPS,
    why: format!(
        "{} qps: a client limit needs a rate of {MIN_QPS} to {} (or no limit at all)",
        brief(q),
        brief(MAX_QPS)
    ),
    schema: {"type": "number", "format": "double", "minimum": MIN_QPS, "maximum": MAX_QPS}
}

ranged! {
    /// Watch events per second: 0.001 to 1,000,000.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct EventRate(f64);
    ok: |r| r >= MIN_EVENTS_PER_SECOND && r <= MAX_EVENTS_PER_SECOND,
    why: format!(
        "{} events per second is out of range: use {MIN_EVENTS_PER_SECOND} to {MAX_EVENTS_PER_SECOND:.0}",
        brief(r)
    ),
    schema: {
        "type": "number",
        "format": "double",
        "minimum": MIN_EVENTS_PER_SECOND,
        "maximum": MAX_EVENTS_PER_SECOND
    }
}

ranged! {
    /// Distinct keys added at once: 1 to 1,000,000.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct KeyCount(u64);
    ok: |n| n >= 1 && n <= MAX_ITEMS,
    why: format!("{n} keys is out of range: use 1 to {MAX_ITEMS}"),
    schema: {"type": "integer", "format": "uint64", "minimum": 1, "maximum": MAX_ITEMS}
}

ranged! {
    /// Failures before a key's reconciles succeed: 0 to 1,000,000.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Failures(u32);
    ok: |n| n as u64 <= MAX_SCRIPT_FAILURES,
    why: format!("{n} failures is out of range: use 0 to {MAX_SCRIPT_FAILURES}"),
    schema: {"type": "integer", "format": "uint32", "minimum": 0, "maximum": MAX_SCRIPT_FAILURES}
}

ranged! {
    /// API requests one reconcile sends (to one kind): 0 to 1,000.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Requests(u32);
    ok: |n| n <= MAX_REQUESTS_PER_RECONCILE,
    why: format!("{n} requests is out of range: use 0 to {MAX_REQUESTS_PER_RECONCILE}"),
    schema: {
        "type": "integer",
        "format": "uint32",
        "minimum": 0,
        "maximum": MAX_REQUESTS_PER_RECONCILE
    }
}

ranged! {
    /// Crossplane's R (`--max-reconcile-rate`), which starts R workers: 0 to
    /// 1,000 (the worker limit).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct ReconcileRate(u32);
    ok: |r| r <= MAX_WORKERS,
    why: format!("R = {r} would start {r} workers: use 0 to {MAX_WORKERS} (the worker limit)"),
    schema: {"type": "integer", "format": "uint32", "minimum": 0, "maximum": MAX_WORKERS}
}

ranged! {
    /// A circuit breaker's burst (tokens) or refill (tokens per second): 0
    /// to 1e9. Go takes any float64; past this the model's figures mean
    /// nothing.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct BreakerAmount(f64);
    ok: |v| v >= 0.0 && v <= MAX_BREAKER_AMOUNT,
    why: format!("{v} is out of range: use 0 to {MAX_BREAKER_AMOUNT:e}"),
    schema: {"type": "number", "format": "double", "minimum": 0.0, "maximum": MAX_BREAKER_AMOUNT}
}

/// A number as a person reads it in a message: plain in everyday ranges,
/// in scientific notation when huge or tiny (never 309 digits).
pub fn brief(x: f64) -> String {
    let a = x.abs();
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "infinity" } else { "-infinity" }.into()
    } else if a != 0.0 && !(1e-3..1e9).contains(&a) {
        // Scientific notation from the decimal form the page already holds
        // (`{:e}` alone weighed 570 bytes of the page's gzipped budget).
        // The exponent from log10 may be one off; rounding shows it.
        let exp = a.log10().floor() as i32;
        let mantissa = x / 10f64.powi(exp / 2) / 10f64.powi(exp - exp / 2);
        match decimals(mantissa, 5) {
            m if m == "10" || m == "-10" => format!("{}e{}", &m[..m.len() - 1], exp + 1),
            m => format!("{m}e{exp}"),
        }
    } else {
        decimals(x, 6)
    }
}

/// `x` with up to `places` decimals, without trailing zeros.
fn decimals(x: f64, places: usize) -> String {
    let s = format!("{x:.places$}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests;
