//! A whole setup in one versioned serde document: limiter, controller, items
//! and their scripts, event sources, seed and duration. Validation names the
//! field at fault and says why, before anything reaches the simulation.

use crate::ranges::{Burst, ClientQps, EventRate, KeyCount, Qps, Requests, Workers};
use crate::spans::{At, Delay, Period, ResyncPeriod, RunLength, SampleWidth};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::controller::{CrossplaneConfig, CrossplaneProfile, Outcome, Script};
use crate::limiter::LimiterConfig;
use crate::queue::QueueKind;
use crate::tagged::internally_tagged;
use crate::time::{MILLISECOND, SECOND};

/// The scenario format this build reads and writes. Version 1 documents
/// (one controller's fields at the top level, or `controllers` beside them)
/// are upgraded when read: see `ScenarioV1`.
pub const SCENARIO_VERSION: u32 = 2;

/// A manager and its controllers: a single controller is a list of one.
/// What the manager shares (Crossplane's global bucket, a bucket passed to
/// several controllers, the API client) sits at the top.
// Serde's derive says every field; `doc.rs` reads either version through it
// in one pass (the version checked as it comes, version 1's own fields
// moved into `controllers`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct Scenario {
    /// The format's version: 2 (files of version 1 are read and upgraded).
    pub version: u32,
    /// Shown in titles and in `wqsim`'s output.
    #[serde(default)]
    pub name: String,
    /// Seeds every random draw (scripts, jitter): the same seed, the same run.
    #[serde(default)]
    pub seed: u64,
    /// The manager's controllers, in the order they take turns.
    pub controllers: Vec<ControllerSpec>,
    /// Crossplane's `--max-reconcile-rate`: each controller's per-object
    /// limiter and workers, the global bucket they share, the client's limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crossplane: Option<CrossplaneConfig>,
    /// The API client's own rate limit (x/time/rate, `Wait`): none is off,
    /// as in controller-runtime v0.21 and later. With `crossplane`, 5R/10R.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientLimit>,
    /// A `BucketRateLimiter` declared once in the manager and passed to
    /// every controller that `shares_bucket` (max-of with its own limiter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_bucket: Option<BucketSpec>,
    /// How long the run lasts (virtual time).
    #[serde(default = "default_duration")]
    pub duration_ns: RunLength,
    /// Width of one time-series sample.
    #[serde(default = "default_sample")]
    pub sample_ns: SampleWidth,
}

fn is_zero(n: &Requests) -> bool {
    n.get() == 0
}
fn is_false(b: &bool) -> bool {
    !*b
}

/// The API client's rate limit: `rest.Config{QPS, Burst}`, and which
/// requests share one bucket of it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientLimit {
    /// Requests per second (`rest.Config.QPS`).
    pub qps: ClientQps,
    /// Requests that may go at once (`rest.Config.Burst`).
    pub burst: Burst,
    /// Per resource kind (controller-runtime's client), or one bucket for
    /// every request (a clientset, or a `Config.RateLimiter` set by hand).
    #[serde(default, skip_serializing_if = "ClientScope::is_per_kind")]
    pub per: ClientScope,
}

/// Which requests draw from one client bucket.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ClientScope {
    /// controller-runtime's client: one REST client per GroupVersionKind,
    /// each with a token bucket of its own when `Config.RateLimiter` is nil.
    #[default]
    Kind,
    /// client-go's typed clientset: one limiter for every resource it serves.
    Clientset,
    /// client-go's typed clientset with QPS unset: each API group-version's
    /// REST client has a bucket of its own (5 qps, burst 10 by default). In
    /// the run, one bucket per kind, as a kind is served by its group-version.
    GroupVersion,
    /// A `Config.RateLimiter` the program set: one bucket shared by every
    /// client made from that config.
    Shared,
}

impl ClientScope {
    fn is_per_kind(&self) -> bool {
        *self == ClientScope::Kind
    }

    /// Whether each kind has a bucket of its own (per kind, or per
    /// group-version); else one bucket serves every request.
    pub fn by_kind(&self) -> bool {
        matches!(self, ClientScope::Kind | ClientScope::GroupVersion)
    }
}

impl ClientLimit {
    /// controller-runtime up to v0.20: 20 qps, burst 30, per kind.
    pub const V0_20: ClientLimit = ClientLimit::per_kind(ClientQps::lit(20.0), Burst::lit(30));

    /// `qps` and `burst` for each resource kind's REST client.
    pub const fn per_kind(qps: ClientQps, burst: Burst) -> ClientLimit {
        ClientLimit {
            qps,
            burst,
            per: ClientScope::Kind,
        }
    }
}

/// The API client's limit as the run uses it: the scenario's, or
/// Crossplane's 5R / 10R (with R = 0, a limit no file could set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientRate {
    pub qps: f64,
    pub burst: i64,
    pub per: ClientScope,
}

impl From<ClientLimit> for ClientRate {
    fn from(c: ClientLimit) -> ClientRate {
        ClientRate {
            qps: c.qps.get(),
            burst: c.burst.get(),
            per: c.per,
        }
    }
}

/// A token bucket's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BucketSpec {
    /// Tokens per second.
    pub qps: Qps,
    /// The bucket's size: tokens that may go at once.
    pub burst: Burst,
}

/// One controller: its queue, limiter, workers, keys and event sources.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControllerSpec {
    /// Shown on the stage and in `wqsim`'s output (empty: `controller-<i>`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `client_go` (client-go's rate-limiting queue, the default up to
    /// controller-runtime v0.22) or `priority` (the default since v0.23).
    #[serde(default, skip_serializing_if = "QueueKind::is_client_go")]
    pub queue: QueueKind,
    /// The queue's rate limiter (`RateLimiter`); none: the queue's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limiter: Option<LimiterConfig>,
    /// Workers, reconcile time, give-up and timeout.
    #[serde(default)]
    pub controller: ControllerConfig,
    /// The script of every item that has none of its own.
    #[serde(default)]
    pub default_script: Script,
    /// Keys the run knows by name, each with its own script.
    #[serde(default)]
    pub items: Vec<ItemSpec>,
    /// What adds keys: watch events, keys added at once, a resync.
    #[serde(default)]
    pub sources: Vec<Source>,
    /// API requests each reconcile makes through the manager's client.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub requests_per_reconcile: Requests,
    /// The resource kind those requests write (its REST client's bucket,
    /// when the client limits per kind). Empty: the controller's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// API requests each reconcile sends to other kinds, by kind: a Secret
    /// it creates, a Deployment it owns. Reads served from the informer's
    /// cache send none and are not counted here.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub writes: BTreeMap<String, Requests>,
    /// A reconcile that returns an error sends none of its requests: it
    /// failed before its writes (an external API down, a dependency not
    /// found). Off: every reconcile sends them, as one that records the
    /// failure in its status does.
    #[serde(default, skip_serializing_if = "is_false")]
    pub errors_write_nothing: bool,
    /// The writes a reconcile that returns an error still sends, by kind
    /// (its own kind by its name): it failed after some of them (a status
    /// update recording the error, a Secret made before the call that
    /// failed). Unset: it sends all its writes (none with
    /// `errors_write_nothing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_writes: Option<BTreeMap<String, u32>>,
    /// This controller takes its tokens from the manager's shared bucket.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shares_bucket: bool,
}

impl ControllerSpec {
    /// A controller on client-go's queue with its default limiter, no keys.
    pub fn new(name: &str) -> ControllerSpec {
        ControllerSpec {
            name: name.to_string(),
            queue: QueueKind::ClientGo,
            limiter: None,
            controller: ControllerConfig::default(),
            default_script: Script::default(),
            items: Vec::new(),
            sources: Vec::new(),
            requests_per_reconcile: Requests::lit(0),
            kind: String::new(),
            writes: BTreeMap::new(),
            errors_write_nothing: false,
            failure_writes: None,
            shares_bucket: false,
        }
    }

    /// The limiter the queue uses: this controller's, or its queue's default.
    pub fn limiter(&self) -> LimiterConfig {
        self.limiter
            .clone()
            .unwrap_or_else(|| self.queue.default_limiter())
    }
}

fn default_duration() -> RunLength {
    RunLength::lit(60 * SECOND)
}
fn default_sample() -> SampleWidth {
    SampleWidth::lit(100 * MILLISECOND)
}
fn default_add_at() -> Option<At> {
    Some(At::T0)
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControllerConfig {
    /// `MaxConcurrentReconciles`.
    #[serde(default = "one")]
    pub workers: Workers,
    /// How long one reconcile takes, unless an item says otherwise.
    #[serde(default)]
    pub reconcile_ns: Delay,
    /// Give up on a key after this many requeues: on an error with
    /// `NumRequeues(key) >= N`, `Forget` it instead of `AddRateLimited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub give_up_after: Option<u64>,
    /// controller-runtime's `ReconciliationTimeout` (v0.22, off by default):
    /// the deadline on each Reconcile's context. A reconcile still running
    /// when it fires (its API requests' waits included) returns the
    /// context's error, which is rate-limited like any error, and is
    /// counted in `controller_runtime_reconcile_timeouts_total`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconcile_timeout_ns: Option<Period>,
    /// Reconciles take `reconcile_ns` plus up to this much more, drawn
    /// evenly from the scenario's seed (a key's own `reconcile_ns` too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconcile_jitter_ns: Option<Delay>,
}

fn one() -> Workers {
    Workers::lit(1)
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            workers: Workers::lit(1),
            reconcile_ns: Delay::ZERO,
            give_up_after: None,
            reconcile_timeout_ns: None,
            reconcile_jitter_ns: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemSpec {
    /// The object's key, as `namespace/name`.
    pub key: String,
    /// Its own script, else the controller's `default_script`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<Script>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// How long its reconciles take, else the controller's `reconcile_ns`.
    pub reconcile_ns: Option<Delay>,
    /// When the item is first added (`null`: never by itself).
    #[serde(default = "default_add_at")]
    pub add_at_ns: Option<At>,
}

impl ItemSpec {
    /// `key`, added at t=0, with the controller's script and reconcile time.
    pub fn new(key: &str) -> ItemSpec {
        ItemSpec {
            key: key.to_string(),
            script: None,
            reconcile_ns: None,
            add_at_ns: Some(At::T0),
        }
    }

    /// `key`, added at t=0, whose every reconcile ends in `outcome`.
    pub fn always(key: &str, outcome: Outcome) -> ItemSpec {
        ItemSpec {
            script: Some(Script::Always { outcome }),
            ..ItemSpec::new(key)
        }
    }
}

/// Something outside the controller that adds keys: the informer's handlers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(tag = "type")]
pub enum Source {
    /// Watch events for one key at a steady rate: deduplication at work.
    WatchEvents {
        /// The key the events are for.
        key: String,
        /// Events per second.
        per_second: EventRate,
        /// When the first event comes.
        #[serde(default)]
        start_ns: Delay,
        /// How long events keep coming.
        duration_ns: Period,
    },
    /// `count` distinct keys `prefix0`, `prefix1`, ... added at one instant.
    AddMany {
        /// Keys are this prefix and 0, 1, 2 ….
        prefix: String,
        /// How many keys.
        count: KeyCount,
        /// When they are added.
        #[serde(default)]
        at_ns: Delay,
        /// Their script, else the controller's `default_script`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        script: Option<Script>,
    },
    /// The informer's periodic resync: every known key is added again.
    Resync {
        /// How often every key is added again.
        period_ns: ResyncPeriod,
    },
}

internally_tagged!(Source, "type");

impl Source {
    /// `count` keys `prefix0`, `prefix1`, ... added at t=0, with the
    /// controller's script.
    pub fn add_many(prefix: &str, count: KeyCount) -> Source {
        Source::AddMany {
            prefix: prefix.to_string(),
            count,
            at_ns: Delay::ZERO,
            script: None,
        }
    }
}

/// A field that failed validation: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ScenarioError {
    pub field: String,
    pub reason: String,
    /// The line (from 1) where the reader stopped, when the refusal came
    /// from reading; a check after reading leaves it to
    /// [`crate::document::line_of`].
    pub line: Option<usize>,
}

/// A refusal of `field`, and why.
pub(crate) fn bad(field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        field: field.into(),
        reason: reason.into(),
        line: None,
    }
}

impl crate::ranges::OutOfRange {
    /// This refusal, of `field` (a number made from a form or a program,
    /// named as a file would name it).
    pub fn at(self, field: impl Into<String>) -> ScenarioError {
        bad(field, self.to_string())
    }
}

pub(crate) mod doc;

impl Scenario {
    /// An empty run of one controller with client-go's default limiter.
    pub fn new(name: &str) -> Scenario {
        Scenario::of(name, vec![ControllerSpec::new("")])
    }

    /// A manager of these controllers, nothing shared.
    pub fn of(name: &str, controllers: Vec<ControllerSpec>) -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            name: name.to_string(),
            seed: 1,
            controllers,
            crossplane: None,
            client: None,
            shared_bucket: None,
            duration_ns: default_duration(),
            sample_ns: default_sample(),
        }
    }

    /// The seeds' storm: `count` keys `ns/pod-0`, `ns/pod-1`, ... added at
    /// t=0, every reconcile an error, reconciles instant.
    pub fn failing_keys(limiter: LimiterConfig, count: KeyCount) -> Scenario {
        let mut s = Scenario::new("failing keys");
        let c = s.first_mut();
        c.limiter = Some(limiter);
        c.default_script = Script::Always {
            outcome: Outcome::Error,
        };
        c.sources.push(Source::add_many("ns/pod-", count));
        s
    }

    /// The first controller (the only one of a one-controller scenario).
    ///
    /// # Panics
    /// On a scenario with no controller, which validation refuses.
    pub fn first(&self) -> &ControllerSpec {
        &self.controllers[0]
    }

    /// The first controller, to change it.
    ///
    /// # Panics
    /// On a scenario with no controller, which validation refuses.
    pub fn first_mut(&mut self) -> &mut ControllerSpec {
        &mut self.controllers[0]
    }

    /// The limiter controller `c`'s queue is built with: Crossplane's
    /// per-object one, or the controller's own; a controller that shares the
    /// manager's bucket takes the larger of the shared bucket's answer and
    /// its own (the shared bucket first, where the manager finds it).
    pub fn queue_limiter(&self, c: &ControllerSpec) -> LimiterConfig {
        let own = match &self.crossplane {
            Some(cp) => cp.derived().per_object,
            None => c.limiter(),
        };
        match (c.shares_bucket, self.shared_bucket) {
            (true, Some(b)) => LimiterConfig::MaxOf {
                limiters: vec![
                    LimiterConfig::Bucket {
                        qps: b.qps,
                        burst: b.burst,
                    },
                    own,
                ],
            },
            _ => own,
        }
    }

    /// The API client's limit: the scenario's, else Crossplane's 5R / 10R
    /// (not in core since v2.1, whose config leaves QPS at -1), else none
    /// (off, as in controller-runtime v0.21 and later).
    pub fn client_limit(&self) -> Option<ClientRate> {
        self.client.map(ClientRate::from).or_else(|| {
            let d = self.crossplane.as_ref()?.derived();
            d.client_limit.then_some(ClientRate {
                qps: d.rest_qps,
                burst: d.rest_burst as i64,
                per: ClientScope::Kind,
            })
        })
    }

    /// The queue controller `c` runs on: its own `queue` (the stage's
    /// version switch), except in a provider of today, which runs on
    /// controller-runtime v0.23's priority queue: crossplane-runtime v2.2
    /// and later require v0.23.1 and leave `UsePriorityQueue` unset. Core
    /// since v2.1 takes the switch too: v2.1.x required controller-runtime
    /// v0.22 (client-go's queue), v2.2 and later v0.23 (the priority queue).
    pub fn queue_kind(&self, c: &ControllerSpec) -> QueueKind {
        match self.crossplane.map(|cp| cp.profile) {
            Some(CrossplaneProfile::Provider) => QueueKind::Priority,
            Some(CrossplaneProfile::Note2021 | CrossplaneProfile::Core) | None => c.queue,
        }
    }

    /// Controller `i`'s random seed: each controller draws its own.
    pub fn controller_seed(&self, i: usize) -> u64 {
        self.seed.wrapping_add(i as u64)
    }

    /// The name controller `i` is shown under.
    pub fn controller_name(&self, i: usize) -> String {
        match self.controllers.get(i).map(|c| c.name.as_str()) {
            Some("") | None => format!("controller-{i}"),
            Some(n) => n.to_string(),
        }
    }

    /// The resource kind controller `i`'s requests write: its `kind`, else
    /// its name.
    pub fn controller_kind(&self, i: usize) -> String {
        match self.controllers.get(i).map(|c| c.kind.as_str()) {
            Some("") | None => self.controller_name(i),
            Some(k) => k.to_string(),
        }
    }

    /// What controller `i`'s reconcile sends, by kind: its own kind's
    /// `requests_per_reconcile` first, then its `writes` to other kinds
    /// (a kind named twice is summed). Kinds with no requests are left out.
    pub fn requests_by_kind(&self, i: usize) -> Vec<(String, u32)> {
        let Some(c) = self.controllers.get(i) else {
            return Vec::new();
        };
        let mut out: Vec<(String, u32)> =
            vec![(self.controller_kind(i), c.requests_per_reconcile.get())];
        for (kind, n) in &c.writes {
            match out.iter_mut().find(|(k, _)| k == kind) {
                Some((_, m)) => *m = m.saturating_add(n.get()),
                None => out.push((kind.clone(), n.get())),
            }
        }
        out.retain(|(_, n)| *n > 0);
        out
    }

    /// What controller `i`'s reconcile sends when it fails, by kind, in the
    /// order of [`Scenario::requests_by_kind`] (0 for a kind it does not send).
    pub fn failure_requests_by_kind(&self, i: usize) -> Vec<(String, u32)> {
        let Some(c) = self.controllers.get(i) else {
            return Vec::new();
        };
        self.requests_by_kind(i)
            .into_iter()
            .map(|(kind, n)| {
                let sent = match (&c.failure_writes, c.errors_write_nothing) {
                    (_, true) => 0,
                    (Some(w), false) => w.get(&kind).copied().unwrap_or(0).min(n),
                    (None, false) => n,
                };
                (kind, sent)
            })
            .collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
