//! controller-runtime's handling of reconcile results (`reconcileHandler` in
//! `pkg/internal/controller/controller.go`) on a client-go queue, the outcome
//! scripts that stand in for a user's `Reconcile`, and Crossplane's global
//! rate-limiting middleware (`crossplane-runtime/pkg/ratelimiter`).

use crate::ranges::{BreakerAmount, Failures, ReconcileRate};
use crate::spans::{At, Delay, Period, SignedDelay};
use serde::{Deserialize, Serialize};

use crate::buckets::{BucketId, BucketStore};
use crate::item::{ItemId, ItemMap};
use crate::limiter::LimiterConfig;
use crate::rate::TokenBucket;
use crate::rng::Rng;
use crate::tagged::internally_tagged;
use crate::time::go::format_go_duration;
use crate::time::{Duration, Instant, SECOND};

/// Whether and how `Reconcile` failed.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No error.
    #[default]
    None,
    /// An ordinary error: retried with rate limiting.
    Transient,
    /// `reconcile.TerminalError(err)`: never retried, never forgotten.
    Terminal,
}

/// What `Reconcile` returned: `(reconcile.Result{Requeue, RequeueAfter}, err)`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct ReconcileResult {
    /// `Result.Requeue`.
    #[serde(default)]
    pub requeue: bool,
    /// `Result.RequeueAfter`.
    #[serde(default)]
    pub requeue_after_ns: SignedDelay,
    /// Whether `Reconcile` returned an error, and which.
    #[serde(default)]
    pub error: ErrorKind,
    /// `Result.Priority` (controller-runtime v0.23+): the priority of every
    /// re-add; unset, the priority the key was handed out with. Only the
    /// priority queue has priorities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
}

/// The outcomes a user picks in the playground; each is a [`ReconcileResult`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(tag = "kind")]
pub enum Outcome {
    /// `(Result{}, nil)`.
    Success,
    /// `(Result{Requeue: true}, nil)`: deprecated, still rate-limited.
    Requeue,
    /// `(Result{RequeueAfter: d}, nil)`.
    RequeueAfter {
        /// `RequeueAfter`.
        after_ns: SignedDelay,
    },
    /// `(Result{}, err)`.
    Error,
    /// `(Result{}, reconcile.TerminalError(err))`.
    TerminalError,
    /// `(Result{RequeueAfter: d}, err)`: the error wins, `d` is ignored.
    ErrorWithRequeueAfter {
        /// `RequeueAfter`.
        after_ns: SignedDelay,
    },
    /// Any other combination.
    Custom {
        /// The whole result.
        result: ReconcileResult,
    },
}

internally_tagged!(Outcome, "kind");

impl Outcome {
    pub fn result(self) -> ReconcileResult {
        let r = |requeue, after, error| ReconcileResult {
            requeue,
            requeue_after_ns: after,
            error,
            priority: None,
        };
        match self {
            Outcome::Success => r(false, SignedDelay::ZERO, ErrorKind::None),
            Outcome::Requeue => r(true, SignedDelay::ZERO, ErrorKind::None),
            Outcome::RequeueAfter { after_ns } => r(false, after_ns, ErrorKind::None),
            Outcome::Error => r(false, SignedDelay::ZERO, ErrorKind::Transient),
            Outcome::TerminalError => r(false, SignedDelay::ZERO, ErrorKind::Terminal),
            Outcome::ErrorWithRequeueAfter { after_ns } => r(false, after_ns, ErrorKind::Transient),
            Outcome::Custom { result } => result,
        }
    }

    /// How the Go reconciler would return it.
    pub fn go_return(self) -> String {
        let ReconcileResult {
            requeue,
            requeue_after_ns,
            error,
            priority,
        } = self.result();
        let mut fields = Vec::new();
        if requeue {
            fields.push("Requeue: true".to_string());
        }
        if requeue_after_ns != Duration::ZERO {
            fields.push(format!(
                "RequeueAfter: {}",
                format_go_duration(requeue_after_ns.get())
            ));
        }
        if let Some(p) = priority {
            fields.push(format!("Priority: ptr.To({p})"));
        }
        let err = match error {
            ErrorKind::None => "nil",
            ErrorKind::Transient => "err",
            ErrorKind::Terminal => "reconcile.TerminalError(err)",
        };
        format!("return ctrl.Result{{{}}}, {err}", fields.join(", "))
    }
}

/// `controller_runtime_reconcile_total`'s `result` label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultLabel {
    Error,
    RequeueAfter,
    Requeue,
    Success,
}

impl ResultLabel {
    pub const ALL: [ResultLabel; 4] = [
        ResultLabel::Error,
        ResultLabel::RequeueAfter,
        ResultLabel::Requeue,
        ResultLabel::Success,
    ];

    /// Position in [`ResultLabel::ALL`] (and in `reconcile_total`).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ResultLabel::Error => "error",
            ResultLabel::RequeueAfter => "requeue_after",
            ResultLabel::Requeue => "requeue",
            ResultLabel::Success => "success",
        }
    }
}

/// The queue call a result leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Requeue {
    None,
    RateLimited,
    After { delay: Duration },
}

/// What controller-runtime does with a result (spec 6.3, client-go adapter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub label: ResultLabel,
    /// `Forget(req)` is called (before any re-add).
    pub forget: bool,
    pub requeue: Requeue,
    pub terminal: bool,
    /// controller-runtime logs a warning: the error made it ignore the Result.
    pub result_ignored: bool,
}

/// The decision table, in controller-runtime's evaluation order.
pub(crate) fn decide(r: ReconcileResult) -> Decision {
    let ignored = r.requeue || r.requeue_after_ns > Duration::ZERO;
    let d = |label, forget, requeue, terminal, result_ignored| Decision {
        label,
        forget,
        requeue,
        terminal,
        result_ignored,
    };
    match r.error {
        ErrorKind::Terminal => d(ResultLabel::Error, false, Requeue::None, true, ignored),
        ErrorKind::Transient => d(
            ResultLabel::Error,
            false,
            Requeue::RateLimited,
            false,
            ignored,
        ),
        ErrorKind::None if r.requeue_after_ns > Duration::ZERO => d(
            ResultLabel::RequeueAfter,
            true,
            Requeue::After {
                delay: r.requeue_after_ns.get(),
            },
            false,
            false,
        ),
        ErrorKind::None if r.requeue => d(
            ResultLabel::Requeue,
            false,
            Requeue::RateLimited,
            false,
            false,
        ),
        ErrorKind::None => d(ResultLabel::Success, true, Requeue::None, false, false),
    }
}

/// What `otherwise` is when a file leaves it out.
fn success() -> Outcome {
    Outcome::Success
}

/// How an item's reconciles turn out: a stand-in for the user's `Reconcile`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(tag = "type")]
pub enum Script {
    /// Every reconcile returns the same outcome.
    Always {
        /// What every reconcile returns.
        outcome: Outcome,
    },
    /// `failures` errors, then success for ever.
    FailThenSucceed {
        /// Errors before the first success.
        failures: Failures,
    },

    /// The listed outcomes in order, then `then` for ever.
    Sequence {
        /// What the first reconciles return, in order.
        outcomes: Vec<Outcome>,
        /// What every later reconcile returns.
        #[serde(default = "success")]
        then: Outcome,
    },
    /// An error with probability `error_probability` (from the scenario's
    /// seed), otherwise `otherwise`.
    Random {
        /// The chance, from 0 to 1, that a reconcile fails.
        error_probability: crate::ranges::Probability,
        /// What the reconciles that do not fail return.
        #[serde(default = "success")]
        otherwise: Outcome,
    },
    /// An outage of something the reconciler needs (a webhook, an external
    /// API): reconciles ending from `from_ns` until `until_ns` fail, the
    /// others return `otherwise`.
    Outage {
        /// When the outage starts.
        from_ns: At,
        /// When it ends.
        until_ns: At,
        /// What the reconciles that do not fail return.
        #[serde(default = "success")]
        otherwise: Outcome,
    },
    /// Not ready yet: `RequeueAfter: every_ns` until `ready_ns`, then success
    /// (a reconciler polling for something that takes time).
    NotReadyUntil {
        /// When the object is ready.
        ready_ns: At,
        /// The `RequeueAfter` while it is not.
        every_ns: Period,
    },
    /// Each reconcile waits for a person to pick its result (a `decide` input).
    Live,
}

internally_tagged!(Script, "type");

impl Default for Script {
    fn default() -> Self {
        Script::Always {
            outcome: Outcome::Success,
        }
    }
}

impl Script {
    /// The outcome of reconcile number `attempt` (0-based), ending at `now`,
    /// under this script; `None` for [`Script::Live`].
    pub fn outcome(&self, attempt: u64, now: Instant, rng: &mut Rng) -> Option<Outcome> {
        match self {
            Script::Always { outcome } => Some(*outcome),
            Script::FailThenSucceed { failures } => Some(if attempt < failures.get() as u64 {
                Outcome::Error
            } else {
                Outcome::Success
            }),
            Script::Sequence { outcomes, then } => {
                Some(*outcomes.get(attempt as usize).unwrap_or(then))
            }
            Script::Random {
                error_probability,
                otherwise,
            } => Some(if rng.next_f64() < error_probability.get() {
                Outcome::Error
            } else {
                *otherwise
            }),
            Script::Outage {
                from_ns,
                until_ns,
                otherwise,
            } => Some(if (from_ns.get()..until_ns.get()).contains(&now) {
                Outcome::Error
            } else {
                *otherwise
            }),
            Script::NotReadyUntil { ready_ns, every_ns } => Some(if now < ready_ns.get() {
                Outcome::RequeueAfter {
                    after_ns: SignedDelay::lit(every_ns.get()),
                }
            } else {
                Outcome::Success
            }),
            Script::Live => None,
        }
    }
}

/// controller-runtime's controller metrics.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ControllerMetrics {
    /// `controller_runtime_reconcile_total{result=...}`, in [`ResultLabel::ALL`] order.
    pub reconcile_total: [u64; 4],
    pub reconcile_errors_total: u64,
    pub terminal_reconcile_errors_total: u64,
    /// `controller_runtime_reconcile_timeouts_total` (v0.23): reconciles
    /// whose `ReconciliationTimeout` fired. (Not written while 0: runs
    /// without the option keep their recorded digests.)
    #[serde(skip_serializing_if = "is_zero")]
    pub reconcile_timeouts_total: u64,
    /// Items dropped by the "give up after N requeues" pattern.
    pub gave_up_total: u64,
    pub active_workers: u32,
    pub max_concurrent_reconciles: u32,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl ControllerMetrics {
    pub fn total(&self, label: ResultLabel) -> u64 {
        self.reconcile_total[label.index()]
    }

    pub(crate) fn count(&mut self, d: &Decision) {
        let i = d.label.index();
        self.reconcile_total[i] += 1;
        if d.label == ResultLabel::Error {
            self.reconcile_errors_total += 1;
        }
        if d.terminal {
            self.terminal_reconcile_errors_total += 1;
        }
    }
}

/// Crossplane's `--max-reconcile-rate R` and what it sets, in one of three
/// designs (`profile`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossplaneConfig {
    /// Crossplane's `--max-reconcile-rate`: reconciles per second (in
    /// `core`, the alias of `--max-concurrent-reconciles`: workers per
    /// controller).
    pub max_reconcile_rate: ReconcileRate,
    /// Which Crossplane: the 2021 design (the default), a provider on
    /// today's crossplane-runtime, or Crossplane core since v2.1.
    #[serde(default, skip_serializing_if = "CrossplaneProfile::is_note_2021")]
    pub profile: CrossplaneProfile,
    /// Core's XR circuit breaker flags, where they differ from v2.1.1's
    /// defaults (only `core` has the breaker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker: Option<BreakerFlags>,
}

/// Crossplane core's three breaker flags (`cmd/crossplane/core/core.go`
/// lines 118-120 since v2.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakerFlags {
    /// `--circuit-breaker-burst`: tokens a new XR starts with (100).
    pub burst: BreakerAmount,
    /// `--circuit-breaker-refill-rate`: tokens per second (1).
    pub refill_per_second: BreakerAmount,
    /// `--circuit-breaker-cooldown`: how long the circuit stays open (5m).
    pub cooldown: Delay,
}

impl BreakerFlags {
    /// v2.1.1's defaults.
    pub const DEFAULT: BreakerFlags = BreakerFlags {
        burst: BreakerAmount::lit(crate::circuit::BreakerConfig::crossplane().burst),
        refill_per_second: BreakerAmount::lit(
            crate::circuit::BreakerConfig::crossplane().refill_per_second,
        ),
        cooldown: Delay::lit(crate::circuit::BreakerConfig::crossplane().cooldown),
    };

    /// The breaker these flags make (the probe interval and expiry are
    /// hard-coded upstream).
    pub fn config(self) -> crate::circuit::BreakerConfig {
        crate::circuit::BreakerConfig {
            burst: self.burst.get(),
            refill_per_second: self.refill_per_second.get(),
            cooldown: self.cooldown.get(),
            ..crate::circuit::BreakerConfig::crossplane()
        }
    }
}

/// The three Crossplanes a scenario can name. docs/crossplane-today.md and
/// docs/what-changed.md cite the upstream file and line of each choice.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum CrossplaneProfile {
    /// The 2021 rate-limiting design: a global bucket of R/s (burst 10R)
    /// shared by every controller, R workers each, a 1s-60s backoff per
    /// object, an API client at 5R qps / 10R burst; the queue is the
    /// controller's own (`queue`). History for Crossplane itself since v2.1.
    #[default]
    #[serde(rename = "note-2021")]
    Note2021,
    /// A provider on crossplane-runtime v2.2 or later: the same global
    /// bucket (in the reconciler wrapper), backoff and client limit, on
    /// controller-runtime v0.23's priority queue, which it gets because it
    /// leaves `UsePriorityQueue` unset.
    #[serde(rename = "provider")]
    Provider,
    /// Crossplane core since v2.1, each controller an XR controller: R
    /// workers each, no global bucket, no client limit (QPS -1), a 1s-30s
    /// backoff, and the XR circuit breaker on the watch events that enqueue
    /// an XR (burst 100, 1 token/s, 5 minutes open: v2.1.1's defaults). The
    /// queue is the controller's own (`queue`): v2.1.x ran client-go's,
    /// v2.2 and later controller-runtime v0.23's priority queue.
    #[serde(rename = "core")]
    Core,
}

impl CrossplaneProfile {
    pub fn is_note_2021(&self) -> bool {
        *self == CrossplaneProfile::Note2021
    }

    /// The name a scenario file uses.
    pub fn name(self) -> &'static str {
        match self {
            CrossplaneProfile::Note2021 => "note-2021",
            CrossplaneProfile::Provider => "provider",
            CrossplaneProfile::Core => "core",
        }
    }
}

/// Every parameter `--max-reconcile-rate R` derives (spec 7.3), by profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossplaneDerived {
    pub rest_qps: f64,
    pub rest_burst: u32,
    pub global_qps: f64,
    pub global_burst: i64,
    /// `MaxConcurrentReconciles` as asked (R), and what the controller runs (at least 1).
    pub max_concurrent_reconciles: u32,
    pub workers: u32,
    pub per_object: LimiterConfig,
    /// Whether the global bucket (`global_qps`, `global_burst`) is there:
    /// not in core since v2.1.
    pub global_bucket: bool,
    /// Whether the API client is limited to `rest_qps`/`rest_burst`: not in
    /// core since v2.1.
    pub client_limit: bool,
    /// Whether each controller has the XR circuit breaker (core only).
    pub breaker: bool,
}

impl CrossplaneConfig {
    /// The global bucket: R per second, burst 10R, in front of every
    /// reconciler (`ratelimiter.Reconciler`).
    pub fn global_bucket(&self) -> TokenBucket {
        let d = self.derived();
        TokenBucket::new(d.global_qps, d.global_burst)
    }

    /// R in the 2021 design.
    pub const fn note_2021(max_reconcile_rate: ReconcileRate) -> CrossplaneConfig {
        CrossplaneConfig {
            max_reconcile_rate,
            profile: CrossplaneProfile::Note2021,
            breaker: None,
        }
    }

    /// The flags of core's breaker: the scenario's, or the defaults.
    pub fn breaker_flags(&self) -> BreakerFlags {
        self.breaker.unwrap_or(BreakerFlags::DEFAULT)
    }

    pub fn derived(&self) -> CrossplaneDerived {
        // At most the worker limit (its type's range): every product fits.
        let r = self.max_reconcile_rate.get();
        let core = self.profile == CrossplaneProfile::Core;
        CrossplaneDerived {
            rest_qps: 5.0 * r as f64,
            rest_burst: r.saturating_mul(10),
            global_qps: r as f64,
            global_burst: (r as i64).saturating_mul(10),
            max_concurrent_reconciles: r,
            workers: r.max(1),
            per_object: LimiterConfig::Exponential {
                base_ns: Delay::lit(SECOND),
                // Core's XR controllers set their own: 1s to 30s.
                max_ns: Delay::lit(if core { 30 * SECOND } else { 60 * SECOND }),
            },
            global_bucket: !core,
            client_limit: !core,
            breaker: core,
        }
    }
}

/// Crossplane's `ratelimiter.Reconciler`: one global bucket in front of the
/// inner reconciler (in the run's store: one provider's controllers all
/// hold the same), and the set of keys that already paid for a pass.
#[derive(Clone, Debug)]
pub struct Middleware {
    pub global: BucketId,
    limited: ItemMap<bool>,
}

/// What the middleware did with one reconcile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Gate {
    /// The key was marked limited: it passes without a token, mark cleared.
    FreePass,
    /// A token was available at once.
    Pass,
    /// No token yet: `Result{RequeueAfter: d}` without calling the inner reconciler.
    Defer { delay: Duration },
}

impl Middleware {
    /// The middleware in front of one reconciler, gating on `global` (see
    /// [`CrossplaneConfig::global_bucket`]).
    pub fn new(global: BucketId) -> Self {
        Middleware {
            global,
            limited: ItemMap::new(false),
        }
    }

    /// One reconcile of `item` at `now`, its token (if any) taken from the
    /// global bucket in `buckets`.
    pub fn gate(&mut self, item: ItemId, now: Instant, buckets: &mut BucketStore) -> Gate {
        if *self.limited.get(item) {
            self.limited.set(item, false);
            return Gate::FreePass;
        }
        let d = buckets.reserve_delay(self.global, now);
        if d != Duration::ZERO {
            self.limited.set(item, true);
        }
        if d > Duration::ZERO {
            Gate::Defer { delay: d }
        } else {
            Gate::Pass // global.Forget is a no-op for a bucket
        }
    }

    pub fn is_limited(&self, item: ItemId) -> bool {
        *self.limited.get(item)
    }
}

#[cfg(test)]
mod tests;
