//! Crossplane's XR circuit breaker (crossplane/crossplane `internal/circuit`,
//! since v2.1.0): per composite resource, a token bucket of the watch events
//! that would reconcile it. When the bucket runs dry the circuit opens, and
//! such events are dropped, except one probe each half-open interval, until
//! an event arrives a cooldown after the opening and closes it.
//!
//! What is modelled, and where upstream says it (crossplane/crossplane at
//! 2d040d2, 2026-08-07; docs/crossplane-today.md has every line):
//!
//! * `admit` is `circuit.NewMapFunc` for one mapped request: the verdict is
//!   read from the state *before* the event is recorded (mapfunc.go 61–79),
//!   so the event that empties the bucket and opens the circuit is still
//!   enqueued, and the event that closes it after the cooldown may itself
//!   be dropped.
//! * The event is then recorded (token_bucket.go `RecordEvent`): the bucket
//!   is refilled by `refill × elapsed seconds` in float64, capped at the
//!   burst; an open circuit only checks its cooldown (no token is taken);
//!   a closed one takes a token, or opens when fewer than one is left.
//! * An object being deleted bypasses the breaker, and on the XR's own
//!   watch resets its state (mapfunc.go 56–59, 98–110).
//! * controller-runtime runs a map function twice per Update event, on the
//!   old object and on the new one (enqueue_mapped.go 108–109), so an
//!   Update costs two tokens; `admit_update` does both calls.
//! * A new target garbage-collects every target whose last event is more
//!   than `expire_after` old (token_bucket.go 150–166).
//!
//! Tokens are f64 and refilled event by event, as Go does, without a fused
//! multiply-add (as amd64 builds it). The core never reads a clock: every
//! call takes the current virtual instant. A dropped event is a
//! [`Verdict`], not an error.

use std::collections::BTreeMap;

use crate::time::go::go_seconds;
use crate::time::{after, Duration, Instant, HOUR, MINUTE, SECOND};

/// How many recent event sources a target remembers (the `recentSources`
/// ring), from which the source that tripped the circuit is named.
pub(crate) const RECENT_SOURCES: usize = 16;

/// The breaker's parameters, as `circuit.Config`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakerConfig {
    /// The bucket's capacity: a new target starts with this many tokens
    /// (`--circuit-breaker-burst`).
    pub burst: f64,
    /// Tokens added per second (`--circuit-breaker-refill-rate`).
    pub refill_per_second: f64,
    /// How long the circuit stays open (`--circuit-breaker-cooldown`).
    pub cooldown: Duration,
    /// While open, one event is let through when more than this has passed
    /// since the last one let through (hard-coded: 30 s).
    pub half_open_interval: Duration,
    /// A target not seen for longer than this is forgotten when a new target
    /// appears (hard-coded: 24 h).
    pub expire_after: Duration,
}

impl BreakerConfig {
    /// Crossplane's defaults since v2.1.1: burst 100, 1 token per second,
    /// 5 minutes open, a probe every 30 s, targets forgotten after 24 h.
    pub const fn crossplane() -> BreakerConfig {
        BreakerConfig {
            burst: 100.0,
            refill_per_second: 1.0,
            cooldown: MINUTE.saturating_mul(5),
            half_open_interval: SECOND.saturating_mul(30),
            expire_after: HOUR.saturating_mul(24),
        }
    }

    /// Crossplane v2.1.0's hard-coded values: burst 50, half a token per
    /// second (doubled in v2.1.1 because an Update costs two tokens).
    pub const fn crossplane_v2_1_0() -> BreakerConfig {
        BreakerConfig {
            burst: 50.0,
            refill_per_second: 0.5,
            ..BreakerConfig::crossplane()
        }
    }

    /// Finite, non-negative numbers: what the model's invariants assume
    /// (Go's flags take anything; the validation gate refuses the rest).
    pub fn is_valid(&self) -> bool {
        self.burst.is_finite()
            && self.burst >= 0.0
            && self.refill_per_second.is_finite()
            && self.refill_per_second >= 0.0
            && self.cooldown >= Duration::ZERO
            && self.half_open_interval >= Duration::ZERO
            && self.expire_after >= Duration::ZERO
    }
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig::crossplane()
    }
}

/// What the breaker did with one mapped request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The circuit was closed: enqueued (`EventAllowed`).
    Allowed,
    /// The circuit was open and the half-open interval had passed: enqueued
    /// as a probe (`EventHalfOpenAllowed`).
    HalfOpenAllowed,
    /// The circuit was open: not enqueued (`EventDropped`).
    Dropped,
    /// The object was being deleted: enqueued without touching the breaker
    /// (and without a metric).
    Bypassed,
}

impl Verdict {
    /// Whether the request reaches the queue.
    pub fn enqueues(self) -> bool {
        !matches!(self, Verdict::Dropped)
    }

    /// The `result` label of `circuit_breaker_events_total` it counts under.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Verdict::Allowed => Some("Allowed"),
            Verdict::HalfOpenAllowed => Some("HalfOpenAllowed"),
            Verdict::Dropped => Some("Dropped"),
            Verdict::Bypassed => None,
        }
    }
}

/// How recording the event moved the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Transition {
    Unchanged,
    /// The bucket had less than one token: the circuit opened.
    Opened,
    /// The cooldown had passed: the circuit closed and the event took a token.
    Closed,
    /// The cooldown had passed, but less than one token had come back: the
    /// circuit closed and opened again at once (a refill slower than
    /// 1 / cooldown).
    Reopened,
}

/// One request through the breaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admission {
    pub verdict: Verdict,
    pub transition: Transition,
}

/// An Update event: the map function on the old object, then on the new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpdateAdmission {
    pub old: Admission,
    pub new: Admission,
}

impl UpdateAdmission {
    /// The request is enqueued when either call kept it.
    pub fn enqueues(&self) -> bool {
        self.old.verdict.enqueues() || self.new.verdict.enqueues()
    }
}

/// Which watch an event came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Watch {
    /// The XR's watch on itself: a deleting XR also resets its state.
    Own,
    /// A watch that maps another object to XRs (composition revisions, the
    /// realtime dependency watches).
    Mapped,
}

/// `Breaker.GetState`: what the XR's `WatchCircuit` condition shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CircuitState<S> {
    pub open: bool,
    /// When open: the instant after which the next probe is let through.
    pub next_allowed_at: Option<Instant>,
    /// When open: the most frequent of the recent sources when it opened.
    pub triggered_by: Option<S>,
}

/// A target as its next event would find it ([`CircuitBreaker::targets_at`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetAt {
    pub tokens: f64,
    /// When open: when it opened (the first event from then + cooldown on
    /// closes it).
    pub opened_at: Option<Instant>,
}

/// The breaker's three counters (`circuit_breaker_opens_total`,
/// `circuit_breaker_closes_total`, `circuit_breaker_events_total` by
/// result), for the one controller this breaker belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BreakerMetrics {
    pub opens: u64,
    pub closes: u64,
    pub allowed: u64,
    pub half_open_allowed: u64,
    pub dropped: u64,
}

/// One target's state.
#[derive(Clone, Debug)]
struct Target<S> {
    tokens: f64,
    last_refill: Instant,
    recent: [Option<S>; RECENT_SOURCES],
    recent_idx: usize,
    open: bool,
    opened_at: Instant,
    last_allowed: Instant,
    trigger: Option<S>,
}

/// Crossplane's `TokenBucketBreaker`: one per XR controller, with a state
/// per target (an XR's key `K`); sources (`S`) are the watched objects.
#[derive(Clone, Debug)]
pub struct CircuitBreaker<K, S> {
    config: BreakerConfig,
    targets: BTreeMap<K, Target<S>>,
    /// No target's last event is older than this (a lower bound, as events
    /// only move it on): a new target scans for expired ones only when this
    /// is more than `expire_after` ago, so a crowd of new targets costs no
    /// scan each.
    oldest: Option<Instant>,
    metrics: BreakerMetrics,
}

impl<K: Ord + Clone, S: Clone + Eq> CircuitBreaker<K, S> {
    pub fn new(config: BreakerConfig) -> Self {
        debug_assert!(config.is_valid(), "breaker config {config:?}");
        CircuitBreaker {
            config,
            targets: BTreeMap::new(),
            oldest: None,
            metrics: BreakerMetrics::default(),
        }
    }

    pub fn config(&self) -> &BreakerConfig {
        &self.config
    }

    pub fn metrics(&self) -> BreakerMetrics {
        self.metrics
    }

    /// How many targets have a state.
    pub fn tracked(&self) -> usize {
        self.targets.len()
    }

    /// The tokens stored at the target's last event (not refilled to any
    /// later instant), or `None` for a target without a state.
    pub fn tokens(&self, target: &K) -> Option<f64> {
        self.targets.get(target).map(|t| t.tokens)
    }

    /// `GetState`. An open circuit whose cooldown has passed stays open here
    /// until an event closes it.
    pub fn state(&self, target: &K) -> CircuitState<S> {
        match self.targets.get(target) {
            Some(t) if t.open => CircuitState {
                open: true,
                next_allowed_at: Some(after(t.last_allowed, self.config.half_open_interval)),
                triggered_by: t.trigger.clone(),
            },
            _ => CircuitState {
                open: false,
                next_allowed_at: None,
                triggered_by: None,
            },
        }
    }

    /// Every target as its next event would find it at `now`: its tokens
    /// refilled to `now` (what upstream works out on that event), whether
    /// its circuit is open, and when it opened.
    pub fn targets_at(&self, now: Instant) -> impl Iterator<Item = (&K, TargetAt)> + '_ {
        let config = self.config;
        self.targets.iter().map(move |(k, t)| {
            let elapsed = go_seconds(now.saturating_sub(t.last_refill));
            (
                k,
                TargetAt {
                    tokens: config
                        .burst
                        .min(t.tokens + config.refill_per_second * elapsed),
                    opened_at: t.open.then_some(t.opened_at),
                },
            )
        })
    }

    /// `ResetTarget`: forget the target, so its next event starts afresh.
    pub fn reset(&mut self, target: &K) {
        self.targets.remove(target);
        if self.targets.is_empty() {
            self.oldest = None;
        }
    }

    /// One request mapped from a watch event (`NewMapFunc`, wrapping
    /// `NewSelfDeleteResetMapFunc` on the XR's own watch).
    pub fn admit(
        &mut self,
        now: Instant,
        watch: Watch,
        target: K,
        source: S,
        deleting: bool,
    ) -> Admission {
        if deleting {
            if watch == Watch::Own {
                self.reset(&target);
            }
            return Admission {
                verdict: Verdict::Bypassed,
                transition: Transition::Unchanged,
            };
        }
        let state = self.state(&target);
        let verdict = match state.next_allowed_at {
            None => Verdict::Allowed,
            Some(next) if now > next => Verdict::HalfOpenAllowed,
            Some(_) => Verdict::Dropped,
        };
        let transition = self.record(now, target, source, verdict);
        Admission {
            verdict,
            transition,
        }
    }

    /// An Update event: controller-runtime calls the map function with the
    /// old object, then with the new one, at one instant.
    pub fn admit_update(
        &mut self,
        now: Instant,
        watch: Watch,
        target: K,
        source: S,
        old_deleting: bool,
        new_deleting: bool,
    ) -> UpdateAdmission {
        let old = self.admit(now, watch, target.clone(), source.clone(), old_deleting);
        let new = self.admit(now, watch, target, source, new_deleting);
        UpdateAdmission { old, new }
    }

    /// `RecordEvent`.
    fn record(&mut self, now: Instant, target: K, source: S, verdict: Verdict) -> Transition {
        debug_assert!(verdict != Verdict::Bypassed);
        let config = self.config;
        if !self.targets.contains_key(&target) {
            if self
                .oldest
                .is_some_and(|o| now.saturating_sub(o) > config.expire_after)
            {
                self.targets
                    .retain(|_, t| now.saturating_sub(t.last_refill) <= config.expire_after);
                self.oldest = self.targets.values().map(|t| t.last_refill).min();
            }
            self.oldest = Some(self.oldest.map_or(now, |o| o.min(now)));
            self.targets.insert(
                target.clone(),
                Target {
                    tokens: config.burst,
                    last_refill: now,
                    recent: std::array::from_fn(|_| None),
                    recent_idx: 0,
                    open: false,
                    opened_at: now,
                    last_allowed: now,
                    trigger: None,
                },
            );
        }
        let t = self
            .targets
            .get_mut(&target)
            .expect("the target was just inserted");
        debug_assert!(now >= t.last_refill, "the clock went back");

        let elapsed = go_seconds(now.saturating_sub(t.last_refill));
        t.tokens = config
            .burst
            .min(t.tokens + config.refill_per_second * elapsed);
        t.last_refill = now;

        t.recent[t.recent_idx] = Some(source);
        t.recent_idx = (t.recent_idx + 1) % RECENT_SOURCES;

        let mut closed = false;
        if t.open {
            if verdict == Verdict::HalfOpenAllowed {
                t.last_allowed = now;
            }
            if now.saturating_sub(t.opened_at) < config.cooldown {
                count(&mut self.metrics, verdict);
                return Transition::Unchanged;
            }
            t.open = false;
            closed = true;
            self.metrics.closes += 1;
            t.recent = std::array::from_fn(|_| None);
            t.recent_idx = 0;
        }

        let transition = if t.tokens >= 1.0 {
            t.tokens -= 1.0;
            if closed {
                Transition::Closed
            } else {
                Transition::Unchanged
            }
        } else {
            t.open = true;
            t.opened_at = now;
            t.last_allowed = now;
            self.metrics.opens += 1;
            // A circuit that reopens as it closes finds the ring just
            // cleared, and keeps the source it named before.
            if let Some(src) = most_frequent(&t.recent) {
                t.trigger = Some(src);
            }
            if closed {
                Transition::Reopened
            } else {
                Transition::Opened
            }
        };
        count(&mut self.metrics, verdict);
        debug_assert!(
            (0.0..=config.burst).contains(&t.tokens),
            "tokens {} outside [0, {}]",
            t.tokens,
            config.burst
        );
        debug_assert!(!t.open || (t.opened_at <= now && t.last_allowed >= t.opened_at));
        transition
    }
}

fn count(m: &mut BreakerMetrics, verdict: Verdict) {
    match verdict {
        Verdict::Allowed => m.allowed += 1,
        Verdict::HalfOpenAllowed => m.half_open_allowed += 1,
        Verdict::Dropped => m.dropped += 1,
        Verdict::Bypassed => {}
    }
}

/// The ring's most frequent source, read in slot order: a source that
/// reaches the highest count so far (ties included) becomes the answer, so a
/// tie goes to the one that reaches it later in the ring.
fn most_frequent<S: Clone + Eq>(ring: &[Option<S>]) -> Option<S> {
    let mut counts: Vec<(&S, usize)> = Vec::new();
    let mut best: Option<&S> = None;
    let mut max = 0;
    for src in ring.iter().flatten() {
        let n = match counts.iter_mut().find(|(s, _)| *s == src) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                counts.push((src, 1));
                1
            }
        };
        if n >= max {
            max = n;
            best = Some(src);
        }
    }
    best.cloned()
}

#[cfg(test)]
mod tests;
