//! A whole setup in one versioned serde document: limiter, controller, items
//! and their scripts, event sources, seed and duration. Validation names the
//! field at fault and says why, before anything reaches the simulation.

use serde::{Deserialize, Serialize};

use crate::controller::{CrossplaneConfig, Outcome, Script};
use crate::limiter::LimiterConfig;
use crate::time::{format_go_duration, Nanos, HOUR, MILLISECOND, SECOND};

/// The scenario format this build reads and writes.
pub const SCENARIO_VERSION: u32 = 1;
/// Most distinct keys a scenario may create.
pub const MAX_ITEMS: u64 = 50_000;
/// Longest virtual run.
pub const MAX_RUN: Nanos = 7 * 24 * HOUR;
/// Longest delay anywhere in a configuration (client-go itself allows more;
/// past ten years a value is a typo, not a setting).
pub const MAX_DELAY: Nanos = 10 * 365 * 24 * HOUR;
pub const MAX_WORKERS: u32 = 1_000;
pub const MAX_BURST: i64 = 1_000_000;
pub const MAX_EVENTS_PER_SOURCE: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub seed: u64,
    /// The queue's rate limiter. Ignored when `crossplane` is set (it derives its own).
    #[serde(default = "default_limiter")]
    pub limiter: LimiterConfig,
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
    /// How long the run lasts (virtual time).
    #[serde(with = "crate::serde_duration", default = "default_duration")]
    pub duration_ns: Nanos,
    /// Width of one time-series sample.
    #[serde(with = "crate::serde_duration", default = "default_sample")]
    pub sample_ns: Nanos,
}

fn default_limiter() -> LimiterConfig {
    LimiterConfig::DefaultController
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

fn bad(field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        field: field.into(),
        reason: reason.into(),
    }
}

fn check_duration(field: &str, d: Nanos, allow_zero: bool) -> Result<(), ScenarioError> {
    if d < 0 {
        return Err(bad(
            field,
            format!(
                "{} is negative; durations here must be 0 or more",
                format_go_duration(d)
            ),
        ));
    }
    if d == 0 && !allow_zero {
        return Err(bad(field, "must be more than 0"));
    }
    if d > MAX_DELAY {
        return Err(bad(
            field,
            format!(
                "{} is absurd: at most {} is allowed",
                format_go_duration(d),
                format_go_duration(MAX_DELAY)
            ),
        ));
    }
    Ok(())
}

fn check_limiter(field: &str, l: &LimiterConfig) -> Result<(), ScenarioError> {
    match l {
        LimiterConfig::Exponential { base_ns, max_ns } => {
            check_duration(&format!("{field}.base_ns"), *base_ns, true)?;
            check_duration(&format!("{field}.max_ns"), *max_ns, true)
        }
        LimiterConfig::FastSlow {
            fast_ns, slow_ns, ..
        } => {
            check_duration(&format!("{field}.fast_ns"), *fast_ns, true)?;
            check_duration(&format!("{field}.slow_ns"), *slow_ns, true)
        }
        LimiterConfig::Bucket { qps, burst } => {
            if !qps.is_finite() || *qps < 0.0 {
                return Err(bad(
                    format!("{field}.qps"),
                    format!("{qps} is not a rate: use 0 or more tokens per second"),
                ));
            }
            if *qps > 1e9 {
                return Err(bad(
                    format!("{field}.qps"),
                    format!("{qps} per second is absurd: at most 1e9"),
                ));
            }
            if *burst < 1 {
                return Err(bad(
                    format!("{field}.burst"),
                    format!("burst {burst} grants no token ever, so every item would wait InfDuration (292 years); use 1 or more"),
                ));
            }
            if *burst > MAX_BURST {
                return Err(bad(
                    format!("{field}.burst"),
                    format!("{burst} is absurd: at most {MAX_BURST}"),
                ));
            }
            Ok(())
        }
        LimiterConfig::MaxOf { limiters } => {
            if limiters.is_empty() {
                return Err(bad(
                    format!("{field}.limiters"),
                    "max-of needs at least one limiter",
                ));
            }
            for (i, l) in limiters.iter().enumerate() {
                check_limiter(&format!("{field}.limiters[{i}]"), l)?;
            }
            Ok(())
        }
        LimiterConfig::WithMaxWait {
            limiter,
            max_wait_ns,
        } => {
            check_duration(&format!("{field}.max_wait_ns"), *max_wait_ns, true)?;
            check_limiter(&format!("{field}.limiter"), limiter)
        }
        LimiterConfig::DefaultController => Ok(()),
    }
}

fn check_outcome(field: &str, o: &Outcome) -> Result<(), ScenarioError> {
    let after = match o {
        Outcome::RequeueAfter { after_ns } | Outcome::ErrorWithRequeueAfter { after_ns } => {
            *after_ns
        }
        Outcome::Custom { result } => result.requeue_after_ns,
        _ => return Ok(()),
    };
    // Negative RequeueAfter is legal in controller-runtime (it means "not at all").
    if after.abs() > MAX_DELAY {
        return Err(bad(
            format!("{field}.after_ns"),
            format!("{} is absurd", format_go_duration(after)),
        ));
    }
    Ok(())
}

fn check_script(field: &str, s: &Script) -> Result<(), ScenarioError> {
    match s {
        Script::Always { outcome } => check_outcome(&format!("{field}.outcome"), outcome),
        Script::Sequence { outcomes, then } => {
            for (i, o) in outcomes.iter().enumerate() {
                check_outcome(&format!("{field}.outcomes[{i}]"), o)?;
            }
            check_outcome(&format!("{field}.then"), then)
        }
        Script::Random {
            error_probability,
            otherwise,
        } => {
            if !(0.0..=1.0).contains(error_probability) {
                return Err(bad(
                    format!("{field}.error_probability"),
                    format!("{error_probability} is not a probability between 0 and 1"),
                ));
            }
            check_outcome(&format!("{field}.otherwise"), otherwise)
        }
        Script::FailThenSucceed { .. } | Script::Live => Ok(()),
    }
}

fn check_key(field: &str, key: &str) -> Result<(), ScenarioError> {
    if key.trim().is_empty() {
        return Err(bad(field, "a key cannot be empty"));
    }
    if key.len() > 253 {
        return Err(bad(
            field,
            format!(
                "a key is at most 253 characters, this one has {}",
                key.len()
            ),
        ));
    }
    Ok(())
}

impl Scenario {
    /// An empty run of a controller with client-go's default limiter.
    pub fn new(name: &str) -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            name: name.to_string(),
            seed: 1,
            limiter: LimiterConfig::DefaultController,
            controller: ControllerConfig::default(),
            crossplane: None,
            default_script: Script::default(),
            items: Vec::new(),
            sources: Vec::new(),
            duration_ns: default_duration(),
            sample_ns: default_sample(),
        }
    }

    /// The seeds' storm: `count` keys `ns/pod-0`, `ns/pod-1`, ... added at
    /// t=0, every reconcile an error, reconciles instant.
    pub fn failing_keys(limiter: LimiterConfig, count: u64) -> Scenario {
        let mut s = Scenario::new("failing keys");
        s.limiter = limiter;
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

    /// Parses and validates a scenario document.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let version: Option<u64> = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| bad("(document)", format!("not valid JSON: {e}")))?
            .get("version")
            .and_then(|v| v.as_u64());
        match version {
            None => return Err(bad("version", "missing: a scenario starts with \"version\": 1")),
            Some(v) if v != SCENARIO_VERSION as u64 => {
                return Err(bad("version", format!("version {v} is not supported: this playground reads version {SCENARIO_VERSION}")))
            }
            _ => {}
        }
        let s: Scenario =
            serde_json::from_str(text).map_err(|e| bad("(document)", e.to_string()))?;
        s.validate()?;
        Ok(s)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The number of distinct keys the scenario would create (at most).
    pub fn key_count(&self) -> u64 {
        let many: u64 = self
            .sources
            .iter()
            .map(|s| match s {
                Source::AddMany { count, .. } => *count,
                Source::WatchEvents { .. } => 1,
                Source::Resync { .. } => 0,
            })
            .sum();
        self.items.len() as u64 + many
    }

    /// Checks a key typed by a user.
    pub fn check_input_key(key: &str) -> Result<(), ScenarioError> {
        check_key("key", key)
    }

    /// Checks one event source (`i` is its place in `sources`).
    pub fn check_source(i: usize, s: &Source) -> Result<(), ScenarioError> {
        let f = |name: &str| format!("sources[{i}].{name}");
        match s {
            Source::WatchEvents {
                key,
                per_second,
                start_ns,
                duration_ns,
            } => {
                check_key(&f("key"), key)?;
                if !per_second.is_finite() || *per_second <= 0.0 || *per_second > 1e6 {
                    return Err(bad(
                        f("per_second"),
                        format!(
                            "{per_second} events per second: use more than 0 and at most 1000000"
                        ),
                    ));
                }
                check_duration(&f("start_ns"), *start_ns, true)?;
                check_duration(&f("duration_ns"), *duration_ns, false)?;
                let events = per_second * (*duration_ns as f64 / SECOND as f64);
                if events > MAX_EVENTS_PER_SOURCE as f64 {
                    return Err(bad(
                        f("duration_ns"),
                        format!("{events:.0} events is too many: at most {MAX_EVENTS_PER_SOURCE}"),
                    ));
                }
            }
            Source::AddMany {
                prefix,
                count,
                at_ns,
                script,
            } => {
                check_key(&f("prefix"), prefix)?;
                if *count == 0 {
                    return Err(bad(f("count"), "add at least one key"));
                }
                check_duration(&f("at_ns"), *at_ns, true)?;
                if let Some(s) = script {
                    check_script(&f("script"), s)?;
                }
            }
            Source::Resync { period_ns } => {
                check_duration(&f("period_ns"), *period_ns, false)?;
                if *period_ns < 10 * MILLISECOND {
                    return Err(bad(
                        f("period_ns"),
                        "a resync more often than every 10ms is not a resync",
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version != SCENARIO_VERSION {
            return Err(bad(
                "version",
                format!(
                    "version {} is not supported: this playground reads version {SCENARIO_VERSION}",
                    self.version
                ),
            ));
        }
        if self.crossplane.is_none() {
            check_limiter("limiter", &self.limiter)?;
        }
        let c = &self.controller;
        if c.workers == 0 || c.workers > MAX_WORKERS {
            return Err(bad(
                "controller.workers",
                format!("{} workers: use 1 to {MAX_WORKERS}", c.workers),
            ));
        }
        check_duration("controller.reconcile_ns", c.reconcile_ns, true)?;
        if let Some(cp) = &self.crossplane {
            if cp.max_reconcile_rate > 10_000 {
                return Err(bad(
                    "crossplane.max_reconcile_rate",
                    format!("{} is absurd: at most 10000", cp.max_reconcile_rate),
                ));
            }
        }
        check_script("default_script", &self.default_script)?;
        if self.key_count() > MAX_ITEMS {
            return Err(bad(
                "items",
                format!("{} keys is too many: at most {MAX_ITEMS}", self.key_count()),
            ));
        }
        for (i, it) in self.items.iter().enumerate() {
            check_key(&format!("items[{i}].key"), &it.key)?;
            if let Some(s) = &it.script {
                check_script(&format!("items[{i}].script"), s)?;
            }
            if let Some(d) = it.reconcile_ns {
                check_duration(&format!("items[{i}].reconcile_ns"), d, true)?;
            }
            if let Some(d) = it.add_at_ns {
                check_duration(&format!("items[{i}].add_at_ns"), d, true)?;
            }
        }
        for (i, s) in self.sources.iter().enumerate() {
            Self::check_source(i, s)?;
        }
        check_duration("duration_ns", self.duration_ns, false)?;
        if self.duration_ns > MAX_RUN {
            return Err(bad(
                "duration_ns",
                format!("runs last at most {}", format_go_duration(MAX_RUN)),
            ));
        }
        if self.sample_ns < MILLISECOND || self.sample_ns > HOUR {
            return Err(bad("sample_ns", "samples are 1ms to 1h wide"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_document_gets_defaults() {
        let s =
            Scenario::from_json(r#"{"version": 1, "items": [{"key": "default/web"}]}"#).unwrap();
        assert_eq!(s.limiter, LimiterConfig::DefaultController);
        assert_eq!(s.items[0].add_at_ns, Some(0));
        assert_eq!(s.controller.workers, 1);
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
                r#"{"version": 1, "sources": [{"type": "add_many", "prefix": "p", "count": 100000}]}"#,
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
                "(document)",
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
