//! A whole setup in one versioned serde document: limiter, controller, items
//! and their scripts, event sources, seed and duration. Validation names the
//! field at fault and says why, before anything reaches the simulation.

use serde::{Deserialize, Serialize};

use crate::controller::{CrossplaneConfig, Outcome, Script};
use crate::limiter::LimiterConfig;
use crate::queue::QueueKind;
use crate::time::{Nanos, MILLISECOND, SECOND};

/// The scenario format this build reads and writes.
pub const SCENARIO_VERSION: u32 = 1;
pub use crate::validate::{
    MAX_BURST, MAX_DELAY, MAX_EVENTS_PER_SOURCE, MAX_ITEMS, MAX_RUN, MAX_WORKERS,
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub seed: u64,
    /// Which queue the controller runs on: client-go's (the default, as in
    /// every scenario made before the priority queue) or controller-runtime's
    /// priority queue.
    #[serde(default, skip_serializing_if = "QueueKind::is_client_go")]
    pub queue: QueueKind,
    /// The queue's rate limiter; none means the default controller-runtime
    /// wires for this queue (see [`Scenario::limiter`]). Ignored when
    /// `crossplane` is set (it derives its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limiter: Option<LimiterConfig>,
    #[serde(default)]
    pub controller: ControllerConfig,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crossplane: Option<CrossplaneConfig>,
    /// The script of every item that has none of its own.
    #[serde(default)]
    pub default_script: Script,
    #[serde(default)]
    pub items: Vec<ItemSpec>,
    #[serde(default)]
    pub sources: Vec<Source>,
    /// API requests each reconcile makes through the manager's client.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub requests_per_reconcile: u32,
    /// The API client's own rate limit (x/time/rate, `Wait`): none is off,
    /// as in controller-runtime v0.21 and later. With `crossplane`, 5R/10R.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientLimit>,
    /// A `BucketRateLimiter` declared once in the manager and passed to
    /// every controller that `shares_bucket` (max-of with its own limiter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_bucket: Option<BucketSpec>,
    /// This controller takes its tokens from the shared bucket.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shares_bucket: bool,
    /// Several controllers in one manager. Empty: the scenario is one
    /// controller, described by the fields above (as every file made before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<ControllerSpec>,
    /// How long the run lasts (virtual time).
    #[serde(with = "crate::serde_duration", default = "default_duration")]
    pub duration_ns: Nanos,
    /// Width of one time-series sample.
    #[serde(with = "crate::serde_duration", default = "default_sample")]
    pub sample_ns: Nanos,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
fn is_false(b: &bool) -> bool {
    !*b
}

/// The API client's rate limit: `rest.Config{QPS, Burst}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientLimit {
    pub qps: f64,
    pub burst: i64,
}

impl ClientLimit {
    /// controller-runtime up to v0.20: 20 qps, burst 30.
    pub const V0_20: ClientLimit = ClientLimit {
        qps: 20.0,
        burst: 30,
    };
}

/// A token bucket's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BucketSpec {
    pub qps: f64,
    pub burst: i64,
}

/// One controller of a manager: everything a single-controller scenario
/// says about its controller, under a name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerSpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "QueueKind::is_client_go")]
    pub queue: QueueKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limiter: Option<LimiterConfig>,
    #[serde(default)]
    pub controller: ControllerConfig,
    #[serde(default)]
    pub default_script: Script,
    #[serde(default)]
    pub items: Vec<ItemSpec>,
    #[serde(default)]
    pub sources: Vec<Source>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub requests_per_reconcile: u32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub shares_bucket: bool,
}

fn default_duration() -> Nanos {
    60 * SECOND
}
fn default_sample() -> Nanos {
    100 * MILLISECOND
}
fn default_add_at() -> Option<Nanos> {
    Some(0)
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerConfig {
    /// `MaxConcurrentReconciles`.
    #[serde(default = "one")]
    pub workers: u32,
    /// How long one reconcile takes, unless an item says otherwise.
    #[serde(with = "crate::serde_duration", default)]
    pub reconcile_ns: Nanos,
    /// Give up on a key after this many requeues: on an error with
    /// `NumRequeues(key) >= N`, `Forget` it instead of `AddRateLimited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub give_up_after: Option<u64>,
}

fn one() -> u32 {
    1
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            workers: 1,
            reconcile_ns: 0,
            give_up_after: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemSpec {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<Script>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_duration::option"
    )]
    pub reconcile_ns: Option<Nanos>,
    /// When the item is first added (`null`: never by itself).
    #[serde(default = "default_add_at", with = "crate::serde_duration::option")]
    pub add_at_ns: Option<Nanos>,
}

/// Something outside the controller that adds keys: the informer's handlers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Source {
    /// Watch events for one key at a steady rate: deduplication at work.
    WatchEvents {
        key: String,
        per_second: f64,
        #[serde(with = "crate::serde_duration", default)]
        start_ns: Nanos,
        #[serde(with = "crate::serde_duration")]
        duration_ns: Nanos,
    },
    /// `count` distinct keys `prefix0`, `prefix1`, ... added at one instant.
    AddMany {
        prefix: String,
        count: u64,
        #[serde(with = "crate::serde_duration", default)]
        at_ns: Nanos,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        script: Option<Script>,
    },
    /// The informer's periodic resync: every known key is added again.
    Resync {
        #[serde(with = "crate::serde_duration")]
        period_ns: Nanos,
    },
}

/// A field that failed validation: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ScenarioError {
    pub field: String,
    pub reason: String,
}

use crate::validate::bad;

impl Scenario {
    /// An empty run of a controller with client-go's default limiter.
    pub fn new(name: &str) -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            name: name.to_string(),
            seed: 1,
            queue: QueueKind::ClientGo,
            limiter: None,
            controller: ControllerConfig::default(),
            crossplane: None,
            default_script: Script::default(),
            items: Vec::new(),
            sources: Vec::new(),
            requests_per_reconcile: 0,
            client: None,
            shared_bucket: None,
            shares_bucket: false,
            controllers: Vec::new(),
            duration_ns: default_duration(),
            sample_ns: default_sample(),
        }
    }

    /// The seeds' storm: `count` keys `ns/pod-0`, `ns/pod-1`, ... added at
    /// t=0, every reconcile an error, reconciles instant.
    pub fn failing_keys(limiter: LimiterConfig, count: u64) -> Scenario {
        let mut s = Scenario::new("failing keys");
        s.limiter = Some(limiter);
        s.default_script = Script::Always {
            outcome: Outcome::Error,
        };
        s.sources.push(Source::AddMany {
            prefix: "ns/pod-".into(),
            count,
            at_ns: 0,
            script: None,
        });
        s
    }

    /// Parses and validates a scenario document. The version is read first,
    /// so that a document from another version is refused for that, not for
    /// a field it names differently.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        use crate::json::{Decode, Json};
        let doc = crate::json::parse(text)?;
        let version = match &doc {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == "version").map(|(_, v)| v),
            other => return Err(crate::json::invalid("(document)", other, "an object")),
        };
        match version.map(|v| u64::decode(v, "version")).transpose()? {
            None => return Err(bad("version", "missing: a scenario starts with \"version\": 1")),
            Some(v) if v != SCENARIO_VERSION as u64 => {
                return Err(bad("version", format!("version {v} is not supported: this playground reads version {SCENARIO_VERSION}")))
            }
            _ => {}
        }
        let s = Scenario::decode(&doc, "(document)")?;
        s.validate()?;
        Ok(s)
    }

    /// The limiter the queue uses: the scenario's, or the queue's default.
    pub fn limiter(&self) -> LimiterConfig {
        self.limiter
            .clone()
            .unwrap_or_else(|| self.queue.default_limiter())
    }

    /// The limiter the queue is built with: Crossplane's per-object one, or
    /// [`Scenario::limiter`]; a controller that shares the manager's bucket
    /// takes the larger of the shared bucket's answer and its own (the shared
    /// bucket first, where the manager finds it).
    pub fn queue_limiter(&self) -> LimiterConfig {
        let own = match &self.crossplane {
            Some(cp) => cp.derived().per_object,
            None => self.limiter(),
        };
        match (self.shares_bucket, self.shared_bucket) {
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

    /// The API client's limit: the scenario's, else Crossplane's 5R / 10R,
    /// else none (off, as in controller-runtime v0.21 and later).
    pub fn client_limit(&self) -> Option<ClientLimit> {
        self.client.or_else(|| {
            self.crossplane.as_ref().map(|cp| {
                let d = cp.derived();
                ClientLimit {
                    qps: d.rest_qps,
                    burst: d.rest_burst as i64,
                }
            })
        })
    }

    /// The manager's controllers, each as a one-controller scenario (a
    /// one-controller file is its own only controller, unchanged). Seeds
    /// differ per controller; the manager-level parts are handed down.
    pub fn controller_scenarios(&self) -> Vec<Scenario> {
        if self.controllers.is_empty() {
            return vec![self.clone()];
        }
        self.controllers
            .iter()
            .enumerate()
            .map(|(i, c)| Scenario {
                version: self.version,
                name: c.name.clone(),
                seed: self.seed.wrapping_add(i as u64),
                queue: c.queue,
                limiter: c.limiter.clone(),
                controller: c.controller.clone(),
                crossplane: self.crossplane,
                default_script: c.default_script.clone(),
                items: c.items.clone(),
                sources: c.sources.clone(),
                requests_per_reconcile: c.requests_per_reconcile,
                client: self.client_limit(),
                shared_bucket: self.shared_bucket,
                shares_bucket: c.shares_bucket,
                controllers: Vec::new(),
                duration_ns: self.duration_ns,
                sample_ns: self.sample_ns,
            })
            .collect()
    }

    pub fn to_json(&self) -> String {
        crate::json::indent(&serde_json::to_string(self).unwrap_or_default())
    }

    /// The number of distinct keys the scenario would create (at most),
    /// saturating rather than wrapping.
    pub fn key_count(&self) -> u64 {
        crate::validate::key_count(self).unwrap_or(u64::MAX)
    }

    /// Checks a key typed by a user.
    pub fn check_input_key(key: &str) -> Result<(), ScenarioError> {
        crate::validate::key("key", key)
    }

    /// Checks one event source (`i` is its place in `sources`).
    pub fn check_source(i: usize, s: &Source) -> Result<(), ScenarioError> {
        crate::validate::source(i, s)
    }

    /// Every field against its stated range (see [`crate::validate`]).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        crate::validate::scenario(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_document_gets_defaults() {
        let s =
            Scenario::from_json(r#"{"version": 1, "items": [{"key": "default/web"}]}"#).unwrap();
        assert_eq!(s.limiter(), LimiterConfig::DefaultController);
        assert_eq!(s.queue, QueueKind::ClientGo);
        assert_eq!(s.items[0].add_at_ns, Some(0));
        assert_eq!(s.controller.workers, 1);
    }

    #[test]
    fn the_default_limiter_follows_the_queue() {
        let pq = Scenario::from_json(r#"{"version": 1, "queue": "priority"}"#).unwrap();
        assert_eq!(pq.queue, QueueKind::Priority);
        assert_eq!(
            pq.limiter(),
            crate::priority::default_limiter(),
            "per-item alone, no bucket"
        );
        let named = Scenario::from_json(
            r#"{"version": 1, "queue": "priority", "limiter": {"type": "default_controller"}}"#,
        )
        .unwrap();
        assert_eq!(
            named.limiter(),
            LimiterConfig::DefaultController,
            "a named limiter is kept"
        );
        // A scenario made before the switch still means what it meant, and
        // writes the same document.
        let old = Scenario::new("old");
        assert!(!old.to_json().contains("queue"));
        assert_eq!(Scenario::from_json(&old.to_json()).unwrap(), old);
        let bad = Scenario::from_json(r#"{"version": 1, "queue": "fifo"}"#).unwrap_err();
        assert_eq!(bad.field, "queue");
    }

    #[test]
    fn bad_documents_name_the_field() {
        let cases = [
            (r#"{"items": []}"#, "version"),
            (r#"{"version": 2}"#, "version"),
            (
                r#"{"version": 1, "limiter": {"type": "bucket", "qps": 10, "burst": 0}}"#,
                "limiter.burst",
            ),
            (
                r#"{"version": 1, "limiter": {"type": "max_of", "limiters": [{"type": "exponential", "base_ns": -5, "max_ns": 1}]}}"#,
                "limiter.limiters[0].base_ns",
            ),
            (
                r#"{"version": 1, "limiter": {"type": "exponential", "base_ns": "5ms", "max_ns": "200000h"}}"#,
                "limiter.max_ns",
            ),
            (
                r#"{"version": 1, "controller": {"workers": 0}}"#,
                "controller.workers",
            ),
            (
                r#"{"version": 1, "sources": [{"type": "add_many", "prefix": "p", "count": 2000000}]}"#,
                "items",
            ),
            (
                r#"{"version": 1, "default_script": {"type": "random", "error_probability": 1.5}}"#,
                "default_script.error_probability",
            ),
            (r#"{"version": 1, "duration_ns": -1}"#, "duration_ns"),
            (r#"{"version": 1, "items": [{"key": ""}]}"#, "items[0].key"),
            ("{not json", "(document)"),
            (
                r#"{"version": 1, "limiter": {"type": "leaky"}}"#,
                "limiter.type",
            ),
            (
                r#"{"version": 1, "controller": {"workers": -1}}"#,
                "controller.workers",
            ),
        ];
        for (doc, field) in cases {
            let err = Scenario::from_json(doc).expect_err(doc);
            assert_eq!(err.field, field, "{doc}: {err}");
            assert!(!err.reason.is_empty());
        }
    }

    #[test]
    fn round_trips_through_json() {
        let mut s = Scenario::new("round trip");
        s.items.push(ItemSpec {
            key: "a".into(),
            script: Some(Script::FailThenSucceed { failures: 3 }),
            reconcile_ns: Some(5),
            add_at_ns: Some(0),
        });
        s.sources.push(Source::Resync {
            period_ns: 30 * SECOND,
        });
        s.crossplane = Some(CrossplaneConfig {
            max_reconcile_rate: 10,
        });
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }
}
