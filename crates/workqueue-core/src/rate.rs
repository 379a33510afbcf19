//! A port of `golang.org/x/time/rate`'s `Limiter`, reduced to what client-go
//! uses (`ReserveN` and `DelayFrom`), with the same float64 arithmetic.
//!
//! Unlike the Go original, the instant is always passed in: the caller's
//! virtual clock replaces `time.Now()`.

use crate::time::{go_f64_to_i64, go_seconds, Nanos, INF_DURATION, SECOND};

/// `rate.Inf`: Go defines it as `math.MaxFloat64`, and so do we. Any limit at
/// or above it (including `f64::INFINITY`) means "no limit".
pub const INF_LIMIT: f64 = f64::MAX;

/// A token bucket: `limit` tokens per second, at most `burst`, never refunded.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenBucket {
    limit: f64,
    burst: i64,
    tokens: f64,
    /// When `tokens` was last brought up to date. `None` is Go's zero
    /// `time.Time`, so the first refill sees about 292 years and fills the bucket.
    last: Option<Nanos>,
}

/// The result of [`TokenBucket::reserve_n`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reservation {
    pub ok: bool,
    /// The instant the reserved tokens may be used (`t + wait`); kept wide so
    /// `InfDuration` after a late instant does not overflow.
    pub time_to_act: i128,
    /// The bucket's tokens after this reservation (unchanged when not ok).
    pub tokens_after: f64,
    /// The wait the reservation implies (`InfDuration` when not ok).
    pub wait: Nanos,
}

impl Reservation {
    /// `Reservation.DelayFrom(t)`.
    pub fn delay_from(&self, t: Nanos) -> Nanos {
        if !self.ok {
            return INF_DURATION;
        }
        let delay = self.time_to_act - t as i128;
        if delay < 0 {
            0
        } else {
            delay.min(INF_DURATION as i128) as Nanos
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
    fn duration_from_tokens(&self, tokens: f64) -> Nanos {
        if self.limit <= 0.0 {
            return INF_DURATION;
        }
        let duration = (tokens / self.limit) * SECOND as f64;
        if duration > i64::MAX as f64 {
            return INF_DURATION;
        }
        go_f64_to_i64(duration)
    }

    /// `Limit.tokensFromDuration`.
    fn tokens_from_duration(&self, d: Nanos) -> f64 {
        if self.limit <= 0.0 {
            return 0.0;
        }
        go_seconds(d) * self.limit
    }

    /// `Limiter.advance(t)`: the tokens there would be at `t`, without changing state.
    pub fn tokens_at(&self, t: Nanos) -> f64 {
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
    pub fn reserve_n(&mut self, t: Nanos, n: i64, max_wait: Nanos) -> Reservation {
        if self.is_inf() {
            return Reservation {
                ok: true,
                time_to_act: t as i128,
                tokens_after: self.tokens,
                wait: 0,
            };
        }
        let tokens = self.tokens_at(t) - n as f64;
        let wait = if tokens < 0.0 {
            self.duration_from_tokens(-tokens)
        } else {
            0
        };
        let ok = n <= self.burst && wait <= max_wait;
        if !ok {
            return Reservation {
                ok,
                time_to_act: 0,
                tokens_after: self.tokens,
                wait: INF_DURATION,
            };
        }
        self.last = Some(t);
        self.tokens = tokens;
        // A bucket never holds more than its burst, and a reservation that
        // was granted waits exactly for the tokens it took on credit.
        debug_assert!(self.tokens <= self.burst as f64);
        debug_assert!(wait == 0 || self.tokens < 0.0);
        Reservation {
            ok,
            time_to_act: t as i128 + wait as i128,
            tokens_after: tokens,
            wait,
        }
    }

    /// `Reserve().DelayFrom(t)` at one instant: what client-go's
    /// `BucketRateLimiter.When` returns when its clock reads `t`.
    pub fn reserve_delay(&mut self, t: Nanos) -> Nanos {
        self.reserve_n(t, 1, INF_DURATION).delay_from(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::MILLISECOND;

    #[test]
    fn worked_example_10_per_second_burst_100() {
        let mut b = TokenBucket::new(10.0, 100);
        let delays: Vec<Nanos> = (0..150).map(|_| b.reserve_delay(0)).collect();
        assert!(delays[..100].iter().all(|d| *d == 0));
        assert_eq!(delays[100], 100 * MILLISECOND);
        assert_eq!(delays[101], 200 * MILLISECOND);
        assert_eq!(
            delays[140], 4_099_999_999,
            "call 141 shows float truncation"
        );
        assert_eq!(delays[149], 5 * SECOND);
        assert_eq!(b.tokens_at(0), -50.0);
        let mut later = b.clone();
        assert_eq!(later.reserve_delay(SECOND), 4_099_999_999);
        assert_eq!(b.reserve_delay(10 * SECOND), 0);
        assert_eq!(b.tokens_at(10 * SECOND), 49.0);
    }

    #[test]
    fn only_four_of_the_first_400_fall_short() {
        let mut b = TokenBucket::new(10.0, 100);
        let mut short = Vec::new();
        for k in 1..=400i64 {
            let d = b.reserve_delay(0);
            if k > 100 && d != (k - 100) * 100 * MILLISECOND {
                short.push(k);
            }
        }
        assert_eq!(short, vec![141, 182, 264, 269]);
    }

    #[test]
    fn edge_settings() {
        let mut zero_burst = TokenBucket::new(10.0, 0);
        assert_eq!(zero_burst.reserve_delay(0), INF_DURATION);
        assert_eq!(
            zero_burst,
            TokenBucket::new(10.0, 0),
            "a refused reservation changes nothing"
        );
        let mut inf = TokenBucket::new(f64::INFINITY, 0);
        assert_eq!(inf.reserve_delay(0), 0);
        let mut zero_rate = TokenBucket::new(0.0, 2);
        assert_eq!(zero_rate.reserve_delay(0), 0);
        assert_eq!(zero_rate.reserve_delay(0), 0);
        assert_eq!(zero_rate.reserve_delay(0), INF_DURATION);
    }
}
