//! client-go's rate limiters (`default_rate_limiters.go`): exponential per-item
//! backoff, fast/slow, the token bucket, max-of and with-max-wait, built from a
//! serde [`LimiterConfig`] whose format is the conformance cases' one.
//!
//! "Not yet" is a value: `when` returns the delay. The bucket reads the
//! caller's virtual instant instead of the wall clock.

use crate::ranges::{Burst, Qps};
use crate::spans::Delay;
use serde::{Deserialize, Serialize};

use crate::buckets::{BucketId, BucketStore};
use crate::item::{ItemId, ItemMap};
use crate::rate::TokenBucket;
use crate::tagged::internally_tagged;
use crate::time::go::go_f64_to_i64;
use crate::time::{Duration, Instant, MILLISECOND, SECOND};

/// A limiter as configured: the same JSON as the conformance cases'
/// `limiter` field. Durations are integer nanoseconds, or Go duration strings
/// such as `"5ms"` in hand-written scenario files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(tag = "type")]
pub enum LimiterConfig {
    /// `NewTypedItemExponentialFailureRateLimiter(base, max)`.
    Exponential {
        /// The first failure's delay; each further failure doubles it.
        base_ns: Delay,
        /// The longest delay.
        max_ns: Delay,
    },
    /// `NewTypedItemFastSlowRateLimiter(fast, slow, maxFastAttempts)`.
    FastSlow {
        /// The delay of the first `max_fast_attempts` failures.
        fast_ns: Delay,
        /// The delay of every failure after those.
        slow_ns: Delay,
        /// Failures that wait `fast_ns`; later ones wait `slow_ns`.
        #[serde(default)]
        max_fast_attempts: u32,
    },
    /// `BucketRateLimiter{rate.NewLimiter(qps, burst)}`.
    Bucket {
        /// Tokens per second.
        qps: Qps,
        /// The bucket's size: tokens that may go at once.
        burst: Burst,
    },
    /// `NewTypedMaxOfRateLimiter(limiters...)`.
    MaxOf {
        /// The limiters asked: the longest answer wins.
        limiters: Vec<LimiterConfig>,
    },
    /// `NewTypedWithMaxWaitRateLimiter(limiter, maxWait)`.
    WithMaxWait {
        /// The limiter whose answer is capped.
        limiter: Box<LimiterConfig>,
        /// The longest delay it may answer.
        max_wait_ns: Delay,
    },
    /// `DefaultTypedControllerRateLimiter()`.
    DefaultController,
}

internally_tagged!(LimiterConfig, "type");

impl LimiterConfig {
    /// client-go's `DefaultControllerRateLimiter`, spelled out.
    pub fn default_controller_parts() -> LimiterConfig {
        LimiterConfig::MaxOf {
            limiters: vec![
                LimiterConfig::Exponential {
                    base_ns: Delay::lit(5 * MILLISECOND),
                    max_ns: Delay::lit(1000 * SECOND),
                },
                LimiterConfig::Bucket {
                    qps: Qps::lit(10.0),
                    burst: Burst::lit(100),
                },
            ],
        }
    }

    /// Crossplane's per-object limiter, `ratelimiter.NewController()`.
    pub fn crossplane_per_object() -> LimiterConfig {
        LimiterConfig::Exponential {
            base_ns: Delay::lit(SECOND),
            max_ns: Delay::lit(60 * SECOND),
        }
    }

    /// The limiter, its token buckets put in `buckets`.
    pub fn build(&self, buckets: &mut BucketStore) -> Limiter {
        match self {
            LimiterConfig::Exponential { base_ns, max_ns } => {
                Limiter::Exponential(Exponential::new(base_ns.get(), max_ns.get()))
            }
            LimiterConfig::FastSlow {
                fast_ns,
                slow_ns,
                max_fast_attempts,
            } => Limiter::FastSlow(FastSlow::new(
                fast_ns.get(),
                slow_ns.get(),
                *max_fast_attempts,
            )),
            LimiterConfig::Bucket { qps, burst } => {
                Limiter::Bucket(buckets.add(TokenBucket::new(qps.get(), burst.get())))
            }
            LimiterConfig::MaxOf { limiters } => {
                Limiter::MaxOf(limiters.iter().map(|l| l.build(buckets)).collect())
            }
            LimiterConfig::WithMaxWait {
                limiter,
                max_wait_ns,
            } => Limiter::WithMaxWait(Box::new(limiter.build(buckets)), max_wait_ns.get()),
            LimiterConfig::DefaultController => Self::default_controller_parts().build(buckets),
        }
    }

    /// A short human name, used in explanations and the UI.
    pub fn label(&self) -> String {
        use crate::time::go::format_go_duration as d;
        match self {
            LimiterConfig::Exponential { base_ns, max_ns } => {
                format!("exponential {}→{}", d(base_ns.get()), d(max_ns.get()))
            }
            LimiterConfig::FastSlow {
                fast_ns,
                slow_ns,
                max_fast_attempts,
            } => {
                format!(
                    "fast/slow {} ×{} then {}",
                    d(fast_ns.get()),
                    max_fast_attempts,
                    d(slow_ns.get())
                )
            }
            LimiterConfig::Bucket { qps, burst } => format!("bucket {qps}/s burst {burst}"),
            LimiterConfig::MaxOf { .. } => "max-of".to_string(),
            LimiterConfig::WithMaxWait { max_wait_ns, .. } => {
                format!("with-max-wait {}", d(max_wait_ns.get()))
            }
            LimiterConfig::DefaultController => "default controller".to_string(),
        }
    }
}

/// `ItemExponentialFailureRateLimiter`: `base · 2^failures`, capped at `max`.
#[derive(Clone, Debug)]
pub struct Exponential {
    pub base: Duration,
    pub max: Duration,
    failures: ItemMap<u64>,
}

impl Exponential {
    pub fn new(base: Duration, max: Duration) -> Self {
        Exponential {
            base,
            max,
            failures: ItemMap::new(0),
        }
    }

    /// The delay for a given number of earlier failures, with Go's float64
    /// arithmetic and overflow guard (a pure function of `exp`).
    pub fn delay_for(base: Duration, max: Duration, exp: u64) -> Duration {
        // math.Pow(2, exp) is exact for every representable power of two.
        let pow = if exp >= 1024 {
            f64::INFINITY
        } else {
            f64::from_bits((exp + 1023) << 52)
        };
        let backoff = base.as_nanos() as f64 * pow;
        if backoff > i64::MAX as f64 {
            return max;
        }
        let calculated = Duration::from_nanos(go_f64_to_i64(backoff));
        let delay = if calculated > max { max } else { calculated };
        // Never past the cap. (No floor: at exactly 2^63 ns Go's amd64
        // conversion gives i64::MIN, a retry at once, and so does this.)
        debug_assert!(delay <= max);
        delay
    }

    #[inline]
    pub fn when(&mut self, item: ItemId) -> Duration {
        let failures = self.failures.get_mut(item);
        let exp = *failures;
        *failures += 1;
        Self::delay_for(self.base, self.max, exp)
    }
}

/// `ItemFastSlowRateLimiter`: `fast` for the first `max_fast` failures, then `slow`.
#[derive(Clone, Debug)]
pub struct FastSlow {
    pub fast: Duration,
    pub slow: Duration,
    pub max_fast: u32,
    failures: ItemMap<u64>,
}

impl FastSlow {
    pub fn new(fast: Duration, slow: Duration, max_fast: u32) -> Self {
        FastSlow {
            fast,
            slow,
            max_fast,
            failures: ItemMap::new(0),
        }
    }

    #[inline]
    pub fn when(&mut self, item: ItemId) -> Duration {
        let failures = self.failures.get_mut(item);
        *failures += 1; // counted before the comparison, unlike Exponential
        debug_assert!(*failures > 0, "a failure count wrapped");
        if *failures <= self.max_fast as u64 {
            self.fast
        } else {
            self.slow
        }
    }
}

/// A built, stateful limiter. Its token buckets live in a [`BucketStore`],
/// handed to every call that takes or reads tokens.
#[derive(Clone, Debug)]
pub enum Limiter {
    Exponential(Exponential),
    FastSlow(FastSlow),
    Bucket(BucketId),
    MaxOf(Vec<Limiter>),
    WithMaxWait(Box<Limiter>, Duration),
}

/// What one limiter (and, for composites, each of its parts) answered to a
/// `When` call: the data behind "why is this key waiting?".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    pub kind: AnswerKind,
    pub delay: Duration,
    /// For composites, the answers of the parts, in order.
    pub parts: Vec<Answer>,
    /// Within a max-of, whether this part's answer is the one returned.
    pub won: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerKind {
    /// `base · 2^exp`, capped: `exp` is the failure count before this call.
    Exponential {
        base: Duration,
        max: Duration,
        exp: u64,
        capped: bool,
    },
    /// `attempt` is the failure count after this call.
    FastSlow {
        fast: Duration,
        slow: Duration,
        max_fast: u32,
        attempt: u64,
    },
    /// A reservation: tokens before and after (may go negative), and the rate.
    Bucket {
        qps: f64,
        burst: i64,
        tokens_before: f64,
        tokens_after: f64,
        ok: bool,
    },
    /// The running maximum starts at 0, so negative answers are clamped.
    MaxOf,
    /// `inner` was capped at `max_wait` when `capped`.
    WithMaxWait { max_wait: Duration, capped: bool },
}

impl Limiter {
    /// `When(item)` at virtual instant `now` (only the bucket looks at `now`,
    /// in `buckets`).
    pub fn when(&mut self, item: ItemId, now: Instant, buckets: &mut BucketStore) -> Duration {
        self.answer(item, now, buckets, None)
    }

    /// `When(item)` with the same effect as [`Limiter::when`], also reporting
    /// what every part answered and which one won.
    pub fn when_explained(
        &mut self,
        item: ItemId,
        now: Instant,
        buckets: &mut BucketStore,
    ) -> Answer {
        let mut out = Vec::with_capacity(1);
        let delay = self.answer(item, now, buckets, Some(&mut out));
        out.pop().unwrap_or_else(|| leaf(AnswerKind::MaxOf, delay))
    }

    /// The one implementation of `When`: returns the delay and, when `out`
    /// is given, pushes this limiter's answer tree onto it. The delay never
    /// depends on `out`, so the conformance cases (which call
    /// [`Limiter::when`]) cover exactly what the app runs; the plain call
    /// allocates nothing and moves no explanation around.
    #[inline]
    pub(crate) fn answer(
        &mut self,
        item: ItemId,
        now: Instant,
        buckets: &mut BucketStore,
        out: Option<&mut Vec<Answer>>,
    ) -> Duration {
        match out {
            Some(out) => self.answer_as::<true>(item, now, buckets, Some(out)),
            None => self.answer_as::<false>(item, now, buckets, None),
        }
    }

    /// [`Limiter::answer`], compiled once explaining and once not (the same
    /// code: `EXPLAIN` only tells the compiler that `out` is always `None`
    /// in the plain call, so the plain `When` carries no explanation's
    /// branches through its recursion).
    fn answer_as<const EXPLAIN: bool>(
        &mut self,
        item: ItemId,
        now: Instant,
        buckets: &mut BucketStore,
        out: Option<&mut Vec<Answer>>,
    ) -> Duration {
        debug_assert_eq!(out.is_some(), EXPLAIN);
        let out = if EXPLAIN { out } else { None };
        match self {
            Limiter::Exponential(e) => {
                let delay = e.when(item);
                if let Some(out) = out {
                    let exp = *e.failures.get(item) - 1; // the count before this call
                    let uncapped = base_times_pow2(e.base, exp);
                    let capped = uncapped.is_none_or(|u| u > e.max) && delay == e.max;
                    let kind = AnswerKind::Exponential {
                        base: e.base,
                        max: e.max,
                        exp,
                        capped,
                    };
                    out.push(leaf(kind, delay));
                }
                delay
            }
            Limiter::FastSlow(f) => {
                let delay = f.when(item);
                if let Some(out) = out {
                    let kind = AnswerKind::FastSlow {
                        fast: f.fast,
                        slow: f.slow,
                        max_fast: f.max_fast,
                        attempt: *f.failures.get(item),
                    };
                    out.push(leaf(kind, delay));
                }
                delay
            }
            Limiter::Bucket(id) => {
                let tokens_before = out.as_ref().map(|_| buckets.tokens_at(*id, now));
                let r = buckets.reserve_n(*id, now, 1, crate::time::INF_DURATION);
                let delay = r.delay_from(now);
                if let (Some(out), Some(tokens_before)) = (out, tokens_before) {
                    let b = buckets.get(*id);
                    let kind = AnswerKind::Bucket {
                        qps: b.limit(),
                        burst: b.burst(),
                        tokens_before,
                        tokens_after: r.tokens_after,
                        ok: r.ok,
                    };
                    out.push(leaf(kind, delay));
                }
                delay
            }
            Limiter::MaxOf(parts) => {
                // client-go's running maximum starts at 0: negative answers clamp.
                let mut ret = Duration::ZERO;
                let mut winner = None;
                let mut children = out.as_ref().map(|_| Vec::with_capacity(parts.len()));
                for (i, part) in parts.iter_mut().enumerate() {
                    let delay = part.answer_as::<EXPLAIN>(item, now, buckets, children.as_mut());
                    if delay > ret {
                        ret = delay;
                        winner = Some(i);
                    }
                }
                // The answer is the longest part's, and never negative.
                debug_assert!(ret >= Duration::ZERO);
                debug_assert!(winner.is_some() || ret == Duration::ZERO);
                if let (Some(out), Some(mut children)) = (out, children) {
                    if let Some(w) = winner {
                        children[w].won = true;
                    }
                    out.push(Answer {
                        kind: AnswerKind::MaxOf,
                        delay: ret,
                        parts: children,
                        won: false,
                    });
                }
                ret
            }
            Limiter::WithMaxWait(inner, max_wait) => {
                let mut children = out.as_ref().map(|_| Vec::with_capacity(1));
                let inner_delay = inner.answer_as::<EXPLAIN>(item, now, buckets, children.as_mut());
                let delay = inner_delay.min(*max_wait);
                debug_assert!(delay <= *max_wait && delay <= inner_delay);
                if let (Some(out), Some(children)) = (out, children) {
                    out.push(Answer {
                        kind: AnswerKind::WithMaxWait {
                            max_wait: *max_wait,
                            capped: inner_delay > *max_wait,
                        },
                        delay,
                        parts: children,
                        won: false,
                    });
                }
                delay
            }
        }
    }

    pub fn forget(&mut self, item: ItemId) {
        match self {
            Limiter::Exponential(e) => e.failures.set(item, 0),
            Limiter::FastSlow(f) => f.failures.set(item, 0),
            Limiter::Bucket(_) => {} // tokens are never refunded
            Limiter::MaxOf(parts) => parts.iter_mut().for_each(|p| p.forget(item)),
            Limiter::WithMaxWait(inner, _) => inner.forget(item),
        }
    }

    pub fn num_requeues(&self, item: ItemId) -> u64 {
        match self {
            Limiter::Exponential(e) => *e.failures.get(item),
            Limiter::FastSlow(f) => *f.failures.get(item),
            Limiter::Bucket(_) => 0,
            Limiter::MaxOf(parts) => parts
                .iter()
                .map(|p| p.num_requeues(item))
                .max()
                .unwrap_or(0),
            Limiter::WithMaxWait(inner, _) => inner.num_requeues(item),
        }
    }

    /// The delay the next `When(item)` would return, without any side effect
    /// (on this limiter or on `buckets`).
    pub fn peek(&self, item: ItemId, now: Instant, buckets: &BucketStore) -> Duration {
        self.clone().when(item, now, &mut buckets.clone())
    }

    /// The first token bucket inside this limiter, if any (for the UI's
    /// gauge; a shared bucket is always the first).
    pub fn bucket(&self) -> Option<BucketId> {
        match self {
            Limiter::Bucket(b) => Some(*b),
            Limiter::MaxOf(parts) => parts.iter().find_map(|p| p.bucket()),
            Limiter::WithMaxWait(inner, _) => inner.bucket(),
            _ => None,
        }
    }
}

impl Answer {
    /// Whether a token bucket set this answer's (positive) delay: the
    /// bucket itself, or the winning part of a max-of, or what a cap wraps.
    pub fn decided_by_bucket(&self) -> bool {
        if self.delay <= Duration::ZERO {
            return false;
        }
        match self.kind {
            AnswerKind::Bucket { .. } => true,
            AnswerKind::MaxOf => self
                .parts
                .iter()
                .find(|p| p.won)
                .is_some_and(Answer::decided_by_bucket),
            AnswerKind::WithMaxWait { capped, .. } => {
                !capped && self.parts.first().is_some_and(Answer::decided_by_bucket)
            }
            _ => false,
        }
    }
}

fn leaf(kind: AnswerKind, delay: Duration) -> Answer {
    Answer {
        kind,
        delay,
        parts: Vec::new(),
        won: false,
    }
}

/// `base · 2^exp` when it fits in an i64.
fn base_times_pow2(base: Duration, exp: u64) -> Option<Duration> {
    if exp >= 63 {
        return if base == Duration::ZERO {
            Some(Duration::ZERO)
        } else {
            None
        };
    }
    base.checked_mul(1i64 << exp)
}

#[cfg(test)]
mod tests;
