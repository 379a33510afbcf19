//! A port of `golang.org/x/time/rate`'s `Limiter`, reduced to what client-go
//! uses (`ReserveN` and `DelayFrom`), with the same float64 arithmetic.
//!
//! Unlike the Go original, the instant is always passed in: the caller's
//! virtual clock replaces `time.Now()`.

use crate::time::go::{go_f64_to_i64, go_seconds};
use crate::time::{Duration, Instant, WideInstant, INF_DURATION, SECOND};

/// `rate.Inf`: Go defines it as `math.MaxFloat64`, and so do we. Any limit at
/// or above it (including `f64::INFINITY`) means "no limit".
pub(crate) const INF_LIMIT: f64 = f64::MAX;

/// A token bucket: `limit` tokens per second, at most `burst`, never refunded.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenBucket {
    limit: f64,
    burst: i64,
    tokens: f64,
    /// When `tokens` was last brought up to date. `None` is Go's zero
    /// `time.Time`, so the first refill sees about 292 years and fills the bucket.
    last: Option<Instant>,
}

/// The result of [`TokenBucket::reserve_n`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reservation {
    pub ok: bool,
    /// The instant the reserved tokens may be used (`t + wait`); kept wide so
    /// `InfDuration` after a late instant does not overflow.
    pub time_to_act: WideInstant,
    /// The bucket's tokens after this reservation (unchanged when not ok).
    pub tokens_after: f64,
    /// The wait the reservation implies (`InfDuration` when not ok).
    pub wait: Duration,
}

impl Reservation {
    /// `Reservation.DelayFrom(t)`.
    pub fn delay_from(&self, t: Instant) -> Duration {
        if !self.ok {
            return INF_DURATION;
        }
        let delay = self.time_to_act - t.wide();
        if delay < 0 {
            Duration::ZERO
        } else {
            Duration::from_nanos(delay.min(INF_DURATION.as_nanos() as i128) as i64)
        }
    }
}

impl TokenBucket {
    /// `rate.NewLimiter(limit, burst)`: the bucket starts full.
    pub fn new(limit: f64, burst: i64) -> Self {
        TokenBucket {
            limit,
            burst,
            tokens: burst as f64,
            last: None,
        }
    }

    pub fn limit(&self) -> f64 {
        self.limit
    }

    pub fn burst(&self) -> i64 {
        self.burst
    }

    fn is_inf(&self) -> bool {
        self.limit >= INF_LIMIT
    }

    /// `Limit.durationFromTokens`.
    fn duration_from_tokens(&self, tokens: f64) -> Duration {
        if self.limit <= 0.0 {
            return INF_DURATION;
        }
        let duration = (tokens / self.limit) * SECOND.as_nanos() as f64;
        if duration > i64::MAX as f64 {
            return INF_DURATION;
        }
        Duration::from_nanos(go_f64_to_i64(duration))
    }

    /// `Limit.tokensFromDuration`.
    fn tokens_from_duration(&self, d: Duration) -> f64 {
        if self.limit <= 0.0 {
            return 0.0;
        }
        go_seconds(d) * self.limit
    }

    /// `Limiter.advance(t)`: the tokens there would be at `t`, without changing state.
    pub fn tokens_at(&self, t: Instant) -> f64 {
        let elapsed = match self.last {
            // t.Sub(zero time) saturates at the largest duration.
            None => INF_DURATION,
            Some(last) => t - last.min(t),
        };
        let tokens = self.tokens + self.tokens_from_duration(elapsed);
        let burst = self.burst as f64;
        if tokens > burst {
            burst
        } else {
            tokens
        }
    }

    /// `Limiter.reserveN(t, n, maxFutureReserve)`. A reservation that is not ok
    /// leaves the bucket untouched.
    pub fn reserve_n(&mut self, t: Instant, n: i64, max_wait: Duration) -> Reservation {
        if self.is_inf() {
            return Reservation {
                ok: true,
                time_to_act: t.wide(),
                tokens_after: self.tokens,
                wait: Duration::ZERO,
            };
        }
        let tokens = self.tokens_at(t) - n as f64;
        let wait = if tokens < 0.0 {
            self.duration_from_tokens(-tokens)
        } else {
            Duration::ZERO
        };
        let ok = n <= self.burst && wait <= max_wait;
        if !ok {
            return Reservation {
                ok,
                time_to_act: WideInstant::T0,
                tokens_after: self.tokens,
                wait: INF_DURATION,
            };
        }
        self.last = Some(t);
        self.tokens = tokens;
        // A bucket never holds more than its burst, and a reservation that
        // was granted waits exactly for the tokens it took on credit.
        debug_assert!(self.tokens <= self.burst as f64);
        debug_assert!(wait == Duration::ZERO || self.tokens < 0.0);
        Reservation {
            ok,
            time_to_act: t.wide_after(wait),
            tokens_after: tokens,
            wait,
        }
    }

    /// `Reserve().DelayFrom(t)` at one instant: what client-go's
    /// `BucketRateLimiter.When` returns when its clock reads `t`.
    pub fn reserve_delay(&mut self, t: Instant) -> Duration {
        self.reserve_n(t, 1, INF_DURATION).delay_from(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::MILLISECOND;

    const T0: Instant = Instant::T0;
    const ZERO: Duration = Duration::ZERO;

    fn at(d: Duration) -> Instant {
        T0 + d
    }

    #[test]
    fn worked_example_10_per_second_burst_100() {
        let mut b = TokenBucket::new(10.0, 100);
        let delays: Vec<Duration> = (0..150).map(|_| b.reserve_delay(T0)).collect();
        assert!(delays[..100].iter().all(|d| *d == ZERO));
        assert_eq!(delays[100], 100 * MILLISECOND);
        assert_eq!(delays[101], 200 * MILLISECOND);
        assert_eq!(
            delays[140],
            Duration::from_nanos(4_099_999_999),
            "call 141 shows float truncation"
        );
        assert_eq!(delays[149], 5 * SECOND);
        assert_eq!(b.tokens_at(T0), -50.0);
        let mut later = b.clone();
        assert_eq!(
            later.reserve_delay(at(SECOND)),
            Duration::from_nanos(4_099_999_999)
        );
        assert_eq!(b.reserve_delay(at(10 * SECOND)), ZERO);
        assert_eq!(b.tokens_at(at(10 * SECOND)), 49.0);
    }

    #[test]
    fn only_four_of_the_first_400_fall_short() {
        let mut b = TokenBucket::new(10.0, 100);
        let mut short = Vec::new();
        for k in 1..=400i64 {
            let d = b.reserve_delay(T0);
            if k > 100 && d != (k - 100) * 100 * MILLISECOND {
                short.push(k);
            }
        }
        assert_eq!(short, vec![141, 182, 264, 269]);
    }

    #[test]
    fn edge_settings() {
        let mut zero_burst = TokenBucket::new(10.0, 0);
        assert_eq!(zero_burst.reserve_delay(T0), INF_DURATION);
        assert_eq!(
            zero_burst,
            TokenBucket::new(10.0, 0),
            "a refused reservation changes nothing"
        );
        let mut inf = TokenBucket::new(f64::INFINITY, 0);
        assert_eq!(inf.reserve_delay(T0), ZERO);
        let mut zero_rate = TokenBucket::new(0.0, 2);
        assert_eq!(zero_rate.reserve_delay(T0), ZERO);
        assert_eq!(zero_rate.reserve_delay(T0), ZERO);
        assert_eq!(zero_rate.reserve_delay(T0), INF_DURATION);
    }
}
