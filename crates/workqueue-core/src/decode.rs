//! The scenario format, read by hand: one [`Decode`] per type, field by
//! field, with serde's names, defaults and tags (the types' serde attributes
//! say the same; `tests/fuzz.rs` holds the two readers to one answer).

use crate::controller::{CrossplaneConfig, ErrorKind, Outcome, ReconcileResult, Script};
use crate::json::{child, tagged, unknown_variant, Decode, Duration, Fields, Json};
use crate::limiter::LimiterConfig;
use crate::queue::QueueKind;
use crate::scenario::{
    BucketSpec, ClientLimit, ControllerConfig, ControllerSpec, ItemSpec, Scenario, ScenarioError,
    Source,
};
use crate::sim::Input;
use crate::time::{MILLISECOND, SECOND};

/// What a unit variant of a tagged enum checks of its other fields: nothing
/// (serde ignores them there, even where the enum denies unknown fields).
const UNIT: &[&str] = &[];

/// A string enum: `names[i]` is `values[i]`.
fn string_enum<T: Copy>(
    v: &Json,
    path: &str,
    names: &[&str],
    values: &[T],
) -> Result<T, ScenarioError> {
    let name = String::decode(v, path)?;
    match names.iter().position(|n| *n == name) {
        Some(i) => Ok(values[i]),
        None => Err(unknown_variant(path, &name, names)),
    }
}

impl Decode for QueueKind {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        string_enum(
            v,
            path,
            &["client_go", "priority"],
            &[QueueKind::ClientGo, QueueKind::Priority],
        )
    }
}

impl Decode for ErrorKind {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        string_enum(
            v,
            path,
            &["none", "transient", "terminal"],
            &[ErrorKind::None, ErrorKind::Transient, ErrorKind::Terminal],
        )
    }
}

impl Decode for ReconcileResult {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let r = ReconcileResult {
            requeue: f.or_default("requeue")?,
            requeue_after_ns: f.duration_or("requeue_after_ns", 0)?,
            error: f.or_default("error")?,
            priority: f.or_default("priority")?,
        };
        f.finish(false, &[])?;
        Ok(r)
    }
}

impl Decode for Outcome {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        const KINDS: [&str; 7] = [
            "success",
            "requeue",
            "requeue_after",
            "error",
            "terminal_error",
            "error_with_requeue_after",
            "custom",
        ];
        let (kind, mut f) = tagged(v, path, "kind", &KINDS)?;
        let outcome = match kind.as_str() {
            "success" => Outcome::Success,
            "requeue" => Outcome::Requeue,
            "requeue_after" => Outcome::RequeueAfter {
                after_ns: f.duration("after_ns")?,
            },
            "error" => Outcome::Error,
            "terminal_error" => Outcome::TerminalError,
            "error_with_requeue_after" => Outcome::ErrorWithRequeueAfter {
                after_ns: f.duration("after_ns")?,
            },
            "custom" => Outcome::Custom {
                result: f.required("result")?,
            },
            _ => return Err(unknown_variant(&child(path, "kind"), &kind, &KINDS)),
        };
        f.finish(false, &[])?;
        Ok(outcome)
    }
}

fn success() -> Outcome {
    Outcome::Success
}

impl Decode for Script {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        const TYPES: [&str; 5] = ["always", "fail_then_succeed", "sequence", "random", "live"];
        let (kind, mut f) = tagged(v, path, "type", &TYPES)?;
        let (script, known): (Script, &[&str]) = match kind.as_str() {
            "always" => (
                Script::Always {
                    outcome: f.required("outcome")?,
                },
                &["type", "outcome"],
            ),
            "fail_then_succeed" => (
                Script::FailThenSucceed {
                    failures: f.required("failures")?,
                },
                &["type", "failures"],
            ),
            "sequence" => (
                Script::Sequence {
                    outcomes: f.required("outcomes")?,
                    then: f.or_else("then", success)?,
                },
                &["type", "outcomes", "then"],
            ),
            "random" => (
                Script::Random {
                    error_probability: f.required("error_probability")?,
                    otherwise: f.or_else("otherwise", success)?,
                },
                &["type", "error_probability", "otherwise"],
            ),
            "live" => (Script::Live, UNIT),
            _ => return Err(unknown_variant(&child(path, "type"), &kind, &TYPES)),
        };
        f.finish(!known.is_empty(), known)?;
        Ok(script)
    }
}

impl Decode for LimiterConfig {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        const TYPES: [&str; 6] = [
            "exponential",
            "fast_slow",
            "bucket",
            "max_of",
            "with_max_wait",
            "default_controller",
        ];
        let (kind, mut f) = tagged(v, path, "type", &TYPES)?;
        let (limiter, known): (LimiterConfig, &[&str]) = match kind.as_str() {
            "exponential" => (
                LimiterConfig::Exponential {
                    base_ns: f.duration("base_ns")?,
                    max_ns: f.duration("max_ns")?,
                },
                &["type", "base_ns", "max_ns"],
            ),
            "fast_slow" => (
                LimiterConfig::FastSlow {
                    fast_ns: f.duration("fast_ns")?,
                    slow_ns: f.duration("slow_ns")?,
                    max_fast_attempts: f.or_default("max_fast_attempts")?,
                },
                &["type", "fast_ns", "slow_ns", "max_fast_attempts"],
            ),
            "bucket" => (
                LimiterConfig::Bucket {
                    qps: f.required("qps")?,
                    burst: f.required("burst")?,
                },
                &["type", "qps", "burst"],
            ),
            "max_of" => (
                LimiterConfig::MaxOf {
                    limiters: f.required("limiters")?,
                },
                &["type", "limiters"],
            ),
            "with_max_wait" => (
                LimiterConfig::WithMaxWait {
                    limiter: Box::new(f.required("limiter")?),
                    max_wait_ns: f.duration("max_wait_ns")?,
                },
                &["type", "limiter", "max_wait_ns"],
            ),
            "default_controller" => (LimiterConfig::DefaultController, UNIT),
            _ => return Err(unknown_variant(&child(path, "type"), &kind, &TYPES)),
        };
        f.finish(!known.is_empty(), known)?;
        Ok(limiter)
    }
}

impl Decode for Source {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        const TYPES: [&str; 3] = ["watch_events", "add_many", "resync"];
        let (kind, mut f) = tagged(v, path, "type", &TYPES)?;
        let (source, known): (Source, &[&str]) = match kind.as_str() {
            "watch_events" => (
                Source::WatchEvents {
                    key: f.required("key")?,
                    per_second: f.required("per_second")?,
                    start_ns: f.duration_or("start_ns", 0)?,
                    duration_ns: f.duration("duration_ns")?,
                },
                &["type", "key", "per_second", "start_ns", "duration_ns"],
            ),
            "add_many" => (
                Source::AddMany {
                    prefix: f.required("prefix")?,
                    count: f.required("count")?,
                    at_ns: f.duration_or("at_ns", 0)?,
                    script: f.or_default("script")?,
                },
                &["type", "prefix", "count", "at_ns", "script"],
            ),
            "resync" => (
                Source::Resync {
                    period_ns: f.duration("period_ns")?,
                },
                &["type", "period_ns"],
            ),
            _ => return Err(unknown_variant(&child(path, "type"), &kind, &TYPES)),
        };
        f.finish(!known.is_empty(), known)?;
        Ok(source)
    }
}

impl Decode for ControllerConfig {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let c = ControllerConfig {
            workers: f.or_else("workers", || 1)?,
            reconcile_ns: f.duration_or("reconcile_ns", 0)?,
            give_up_after: f.or_default("give_up_after")?,
        };
        f.finish(true, &["workers", "reconcile_ns", "give_up_after"])?;
        Ok(c)
    }
}

impl Decode for ItemSpec {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let item = ItemSpec {
            key: f.required("key")?,
            script: f.or_default("script")?,
            reconcile_ns: f.optional_duration("reconcile_ns", None)?,
            add_at_ns: f.optional_duration("add_at_ns", Some(0))?,
        };
        f.finish(true, &["key", "script", "reconcile_ns", "add_at_ns"])?;
        Ok(item)
    }
}

impl Decode for CrossplaneConfig {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let c = CrossplaneConfig {
            max_reconcile_rate: f.required("max_reconcile_rate")?,
        };
        f.finish(true, &["max_reconcile_rate"])?;
        Ok(c)
    }
}

/// `qps` and `burst`: the API client's limit and the shared bucket.
fn qps_burst(v: &Json, path: &str) -> Result<(f64, i64), ScenarioError> {
    let mut f = Fields::of(v, path)?;
    let pair = (f.required("qps")?, f.required("burst")?);
    f.finish(true, &["qps", "burst"])?;
    Ok(pair)
}

impl Decode for ClientLimit {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let (qps, burst) = qps_burst(v, path)?;
        Ok(ClientLimit { qps, burst })
    }
}

impl Decode for BucketSpec {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let (qps, burst) = qps_burst(v, path)?;
        Ok(BucketSpec { qps, burst })
    }
}

impl Decode for ControllerSpec {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let c = ControllerSpec {
            name: f.required("name")?,
            queue: f.or_default("queue")?,
            limiter: f.or_default("limiter")?,
            controller: f.or_default("controller")?,
            default_script: f.or_default("default_script")?,
            items: f.or_default("items")?,
            sources: f.or_default("sources")?,
            requests_per_reconcile: f.or_default("requests_per_reconcile")?,
            shares_bucket: f.or_default("shares_bucket")?,
        };
        f.finish(
            true,
            &[
                "name",
                "queue",
                "limiter",
                "controller",
                "default_script",
                "items",
                "sources",
                "requests_per_reconcile",
                "shares_bucket",
            ],
        )?;
        Ok(c)
    }
}

impl Decode for Scenario {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let mut f = Fields::of(v, path)?;
        let s = Scenario {
            version: f.required("version")?,
            name: f.or_default("name")?,
            seed: f.or_default("seed")?,
            queue: f.or_default("queue")?,
            limiter: f.or_default("limiter")?,
            controller: f.or_default("controller")?,
            crossplane: f.or_default("crossplane")?,
            default_script: f.or_default("default_script")?,
            items: f.or_default("items")?,
            sources: f.or_default("sources")?,
            requests_per_reconcile: f.or_default("requests_per_reconcile")?,
            client: f.or_default("client")?,
            shared_bucket: f.or_default("shared_bucket")?,
            shares_bucket: f.or_default("shares_bucket")?,
            controllers: f.or_default("controllers")?,
            duration_ns: f.duration_or("duration_ns", 60 * SECOND)?,
            sample_ns: f.duration_or("sample_ns", 100 * MILLISECOND)?,
        };
        f.finish(
            true,
            &[
                "version",
                "name",
                "seed",
                "queue",
                "limiter",
                "controller",
                "crossplane",
                "default_script",
                "items",
                "sources",
                "requests_per_reconcile",
                "client",
                "shared_bucket",
                "shares_bucket",
                "controllers",
                "duration_ns",
                "sample_ns",
            ],
        )?;
        Ok(s)
    }
}

impl Decode for Input {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        const INPUTS: [&str; 7] = [
            "add",
            "add_many",
            "watch_events",
            "resync",
            "decide",
            "set_script",
            "shutdown",
        ];
        let (kind, mut f) = tagged(v, path, "input", &INPUTS)?;
        let (input, known): (Input, &[&str]) = match kind.as_str() {
            "add" => (
                Input::Add {
                    key: f.required("key")?,
                },
                &["input", "key"],
            ),
            "add_many" => (
                Input::AddMany {
                    prefix: f.required("prefix")?,
                    count: f.required("count")?,
                },
                &["input", "prefix", "count"],
            ),
            "watch_events" => (
                Input::WatchEvents {
                    key: f.required("key")?,
                    per_second: f.required("per_second")?,
                    duration_ns: f.duration("duration_ns")?,
                },
                &["input", "key", "per_second", "duration_ns"],
            ),
            "resync" => (
                Input::Resync {
                    period_ns: f.required::<Option<Duration>>("period_ns")?.map(|d| d.0),
                },
                &["input", "period_ns"],
            ),
            "decide" => (
                Input::Decide {
                    key: f.required("key")?,
                    outcome: f.required("outcome")?,
                },
                &["input", "key", "outcome"],
            ),
            "set_script" => (
                Input::SetScript {
                    key: f.required("key")?,
                    script: f.required("script")?,
                },
                &["input", "key", "script"],
            ),
            "shutdown" => (Input::Shutdown, UNIT),
            _ => return Err(unknown_variant(&child(path, "input"), &kind, &INPUTS)),
        };
        f.finish(!known.is_empty(), known)?;
        Ok(input)
    }
}
