//! Replays the shared conformance cases (recorded against the real client-go)
//! on a [`Workqueue`] and compares every step's result with the recording.
//! The expected values come only from the case files.

use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

use workqueue_core::{AddOpts, Histogram, PqGot, PriorityQueue, QueueKind};
use workqueue_core::{Duration, Got, Instant, ItemId, LimiterConfig, QueueOptions, Workqueue};

#[derive(Debug, Deserialize)]
pub struct Case {
    /// `"priority"` for controller-runtime's priority queue; absent for
    /// client-go's queue.
    #[serde(default)]
    pub queue: Option<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Required for client-go cases; a priority-queue case without one
    /// keeps the queue's default.
    #[serde(default)]
    pub limiter: Option<LimiterConfig>,
    pub steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
pub struct Step {
    pub at_ns: Instant,
    pub call: String,
    #[serde(default)]
    pub item: Option<String>,
    /// `add_with_opts`: more keys after `item`.
    #[serde(default)]
    pub items: Option<Vec<String>>,
    #[serde(default)]
    pub delay_ns: Option<Duration>,
    #[serde(default)]
    pub after_ns: Option<Duration>,
    #[serde(default)]
    pub rate_limited: Option<bool>,
    /// `null` or absent: nil.
    #[serde(default)]
    pub priority: Option<i64>,
    #[serde(default)]
    pub expect: Option<Value>,
}

/// The first step whose result differs from the recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub step: usize,
    pub call: String,
    pub expected: Value,
    pub got: Value,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "step {} ({}): expected {}, got {}",
            self.step, self.call, self.expected, self.got
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid case: {source}")]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("step {step}: {reason}")]
    BadStep { step: usize, reason: String },
}

pub fn load(path: &Path) -> Result<Case, CaseError> {
    let text = std::fs::read_to_string(path).map_err(|source| CaseError::Read {
        path: path.into(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| CaseError::Parse {
        path: path.into(),
        source,
    })
}

/// Every `*.json` below the given files or folders, sorted by path.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CaseError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|source| CaseError::Read {
                path: p.clone(),
                source,
            })?;
            let mut inner: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            inner.sort();
            for q in inner {
                if q.is_dir() || q.extension().is_some_and(|e| e == "json") {
                    out.extend(collect(&[q])?);
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Replays one case, on the queue it names. `Ok(None)` means every step matched.
pub fn run(case: &Case) -> Result<Option<Mismatch>, CaseError> {
    match case.queue.as_deref() {
        None => run_client_go(case),
        Some("priority") => run_priority(case),
        Some(other) => Err(CaseError::BadStep {
            step: 0,
            reason: format!("unknown queue {other:?}: use \"priority\" or leave it out"),
        }),
    }
}

/// Compares one step's result with its expectation.
fn check(i: usize, step: &Step, got: Option<Value>) -> Option<Mismatch> {
    match (&step.expect, got) {
        (Some(expected), Some(got)) if !matches(expected, &got) => Some(Mismatch {
            step: i,
            call: step.call.clone(),
            expected: expected.clone(),
            got,
        }),
        // An expectation on a call that answers nothing cannot be checked:
        // the case and the runner disagree about the call, which is a failure.
        (Some(expected), None) => Some(Mismatch {
            step: i,
            call: step.call.clone(),
            expected: expected.clone(),
            got: Value::Null,
        }),
        _ => None,
    }
}

/// The calls both queues answer alike (the cases name them the same).
trait Calls {
    fn key(&mut self, key: &str) -> ItemId;
    fn add(&mut self, now: Instant, item: ItemId);
    fn add_after(&mut self, now: Instant, item: ItemId, delay: Duration);
    fn add_rate_limited(&mut self, now: Instant, item: ItemId);
    fn forget(&mut self, item: ItemId);
    fn done(&mut self, now: Instant, item: ItemId);
    fn len(&self) -> usize;
    fn num_requeues(&self, item: ItemId) -> u64;
    fn when(&mut self, now: Instant, item: ItemId) -> Duration;
    fn shutting_down(&self) -> bool;
}

macro_rules! calls {
    ($queue:ty) => {
        impl Calls for $queue {
            fn key(&mut self, key: &str) -> ItemId {
                <$queue>::key(self, key)
            }
            fn add(&mut self, now: Instant, item: ItemId) {
                <$queue>::add(self, now, item);
            }
            fn add_after(&mut self, now: Instant, item: ItemId, delay: Duration) {
                <$queue>::add_after(self, now, item, delay);
            }
            fn add_rate_limited(&mut self, now: Instant, item: ItemId) {
                <$queue>::add_rate_limited(self, now, item);
            }
            fn forget(&mut self, item: ItemId) {
                <$queue>::forget(self, item)
            }
            fn done(&mut self, now: Instant, item: ItemId) {
                <$queue>::done(self, now, item)
            }
            fn len(&self) -> usize {
                <$queue>::len(self)
            }
            fn num_requeues(&self, item: ItemId) -> u64 {
                <$queue>::num_requeues(self, item)
            }
            fn when(&mut self, now: Instant, item: ItemId) -> Duration {
                <$queue>::when(self, now, item)
            }
            fn shutting_down(&self) -> bool {
                <$queue>::shutting_down(self)
            }
        }
    };
}
calls!(Workqueue);
calls!(PriorityQueue);

/// Step `i`, if it is a call both queues answer alike: what it answered
/// (`Some(None)` for a call that answers nothing). `None` for a call that is
/// the queue's own.
fn common_step<Q: Calls>(
    q: &mut Q,
    i: usize,
    step: &Step,
) -> Result<Option<Option<Value>>, CaseError> {
    let now = step.at_ns;
    let bad = |reason: &str| CaseError::BadStep {
        step: i,
        reason: reason.into(),
    };
    // Every common call but `len` and `shutting_down` names an item.
    let it = match step.call.as_str() {
        "len" => return Ok(Some(Some(json!(q.len())))),
        "shutting_down" => return Ok(Some(Some(json!(q.shutting_down())))),
        "add" | "add_after" | "add_rate_limited" | "forget" | "done" | "num_requeues" | "when" => {
            q.key(step.item.as_deref().ok_or(bad("no item"))?)
        }
        _ => return Ok(None),
    };
    // The calls that change the queue answer nothing.
    match step.call.as_str() {
        "add" => q.add(now, it),
        "add_after" => q.add_after(now, it, step.delay_ns.ok_or(bad("no delay_ns"))?),
        "add_rate_limited" => q.add_rate_limited(now, it),
        "forget" => q.forget(it),
        "done" => q.done(now, it),
        "num_requeues" => return Ok(Some(Some(json!(q.num_requeues(it))))),
        "when" => return Ok(Some(Some(json!(q.when(now, it))))),
        _ => unreachable!("every call that names an item is listed above"),
    }
    Ok(Some(None))
}

fn run_client_go(case: &Case) -> Result<Option<Mismatch>, CaseError> {
    let limiter = case.limiter.as_ref().ok_or(CaseError::BadStep {
        step: 0,
        reason: "a client-go case names its limiter".into(),
    })?;
    let options = QueueOptions {
        metrics: true,
        keep_observations: usize::MAX,
        record_events: false,
    };
    // Built when the clock reads the first step's instant (the shared README):
    // that is the phase of the unfinished-work ticker.
    let t0 = case.steps.first().map_or(Instant::T0, |s| s.at_ns);
    let mut q = Workqueue::new_at(limiter, options, t0);
    for (i, step) in case.steps.iter().enumerate() {
        let now = step.at_ns;
        q.advance(now);
        let got = match common_step(&mut q, i, step)? {
            Some(got) => got,
            None => match step.call.as_str() {
                "get" => Some(match q.get(now) {
                    Got::Item(id) => json!({ "item": q.key_name(id) }),
                    Got::Empty => json!({ "empty": true }),
                    Got::ShutDown => json!({ "shutdown": true }),
                }),
                "shutdown" => {
                    q.shutdown(now);
                    None
                }
                "metrics" => Some(metrics_json(&mut q, now)),
                other => {
                    return Err(CaseError::BadStep {
                        step: i,
                        reason: format!("unknown call {other:?}"),
                    })
                }
            },
        };
        if let Some(m) = check(i, step, got) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

fn run_priority(case: &Case) -> Result<Option<Mismatch>, CaseError> {
    let limiter = case
        .limiter
        .clone()
        .unwrap_or_else(|| QueueKind::Priority.default_limiter());
    let mut q = PriorityQueue::new(&limiter, Some(usize::MAX));
    for (i, step) in case.steps.iter().enumerate() {
        let now = step.at_ns;
        let bad = |reason: &str| CaseError::BadStep {
            step: i,
            reason: reason.into(),
        };
        // The clock moves first: every record due by now is ready.
        q.advance(now);
        let got = match common_step(&mut q, i, step)? {
            Some(got) => got,
            None => match step.call.as_str() {
                "add_with_opts" => {
                    let names = step.item.iter().chain(step.items.iter().flatten());
                    let keys: Vec<ItemId> = names.map(|k| q.key(k)).collect();
                    if keys.is_empty() {
                        return Err(bad("no item or items"));
                    }
                    let opts = AddOpts {
                        after: step.after_ns.unwrap_or(Duration::ZERO),
                        rate_limited: step.rate_limited.unwrap_or(false),
                        priority: step.priority,
                    };
                    q.add_with_opts(now, opts, &keys);
                    None
                }
                "get" => Some(match q.get(now) {
                    PqGot::Item { item, priority } => {
                        json!({ "item": q.key_name(item), "priority": priority })
                    }
                    PqGot::Empty => json!({ "empty": true }),
                    PqGot::ShutDown => json!({ "shutdown": true }),
                }),
                "shutdown" => q
                    .shutdown()
                    .err()
                    .map(|e| json!({ "panic": e.to_string() })),
                "metrics" => {
                    let m = q.metrics().expect("conformance queues record metrics");
                    let (unfinished, longest) = m.work_gauges(now);
                    let depth: serde_json::Map<String, Value> = m
                        .depth
                        .iter()
                        .map(|(p, v)| (p.to_string(), json!(v)))
                        .collect();
                    Some(metrics_answer(
                        json!(depth),
                        (m.adds_total, m.retries_total),
                        [&m.queue_duration, &m.work_duration],
                        (unfinished, longest),
                    ))
                }
                other => return Err(bad(&format!("unknown call {other:?}"))),
            },
        };
        if let Some(m) = check(i, step, got) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

fn metrics_json(q: &mut Workqueue, now: Instant) -> Value {
    // The recording refreshed the gauges at each `metrics` step.
    let (unfinished, longest) = q.refresh_work_gauges(now);
    let m = q.metrics().expect("conformance queues record metrics");
    metrics_answer(
        json!(m.depth),
        (m.adds_total, m.retries_total),
        [&m.queue_duration, &m.work_duration],
        (unfinished, longest),
    )
}

/// A `metrics` step's answer, named as both queues' recordings name it:
/// the depth, the adds and retries, the queue and work durations, and the
/// unfinished and longest-running work gauges.
fn metrics_answer(
    depth: Value,
    (adds, retries): (u64, u64),
    [queue, work]: [&Histogram; 2],
    (unfinished, longest): (f64, f64),
) -> Value {
    json!({
        "depth": depth,
        "adds_total": adds,
        "retries_total": retries,
        "queue_duration_seconds": queue.recent().collect::<Vec<_>>(),
        "work_duration_seconds": work.recent().collect::<Vec<_>>(),
        "unfinished_work_seconds": unfinished,
        "longest_running_processor_seconds": longest,
    })
}

/// Exact for integers, strings and booleans; 1e-9 relative for other floats.
fn matches(expected: &Value, got: &Value) -> bool {
    match (expected, got) {
        (Value::Number(e), Value::Number(g)) => {
            if let (Some(e), Some(g)) = (e.as_i64(), g.as_i64()) {
                return e == g;
            }
            if let (Some(e), Some(g)) = (e.as_u64(), g.as_u64()) {
                return e == g;
            }
            let (e, g) = (
                e.as_f64().unwrap_or(f64::NAN),
                g.as_f64().unwrap_or(f64::NAN),
            );
            e == g || (e - g).abs() <= 1e-9 * e.abs().max(g.abs())
        }
        (Value::Array(e), Value::Array(g)) => {
            e.len() == g.len() && e.iter().zip(g).all(|(e, g)| matches(e, g))
        }
        (Value::Object(e), Value::Object(g)) => {
            e.len() == g.len()
                && e.iter()
                    .all(|(k, ev)| g.get(k).is_some_and(|gv| matches(ev, gv)))
        }
        _ => expected == got,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_tolerance_is_relative_but_integers_are_exact() {
        assert!(matches(&json!(0.1), &json!(0.1 + 1e-12)));
        assert!(!matches(&json!(0.1), &json!(0.1001)));
        assert!(!matches(&json!(4099999999i64), &json!(4100000000i64)));
        assert!(!matches(&json!({"item": "a"}), &json!({"item": "b"})));
        assert!(!matches(&json!([1, 2]), &json!([1, 2, 3])));
    }

    #[test]
    fn a_wrong_expectation_is_reported_at_its_step() {
        let case: Case = serde_json::from_value(json!({
            "name": "t", "limiter": {"type": "default_controller"},
            "steps": [
                {"at_ns": 0, "call": "add", "item": "a"},
                {"at_ns": 0, "call": "len", "expect": 1},
                {"at_ns": 0, "call": "len", "expect": 2}
            ]
        }))
        .unwrap();
        let m = run(&case).unwrap().expect("step 2 must mismatch");
        assert_eq!((m.step, m.expected, m.got), (2, json!(2), json!(1)));
    }

    #[test]
    fn an_expectation_on_a_call_without_a_result_fails() {
        let case: Case = serde_json::from_value(json!({
            "name": "t", "limiter": {"type": "default_controller"},
            "steps": [{"at_ns": 0, "call": "add", "item": "a", "expect": 1}]
        }))
        .unwrap();
        let m = run(&case)
            .unwrap()
            .expect("an add has no result to compare");
        assert_eq!((m.step, m.got), (0, Value::Null));
    }

    #[test]
    fn the_gauge_ticker_starts_with_the_first_step() {
        // Built at 300ms: ticks due at 800ms, 1.3s... A get at 400ms; moving
        // the clock to 900ms fires the 800ms tick, which reads 0.5s of work.
        // Shutdown at 1.0s comes before the next tick, so the gauges freeze at
        // 0.5s. A phase from 0 would fire a tick at 1.0s and freeze at 0.6s.
        let case: Case = serde_json::from_value(json!({
            "name": "t", "limiter": {"type": "default_controller"},
            "steps": [
                {"at_ns": 300_000_000u64, "call": "add", "item": "a"},
                {"at_ns": 400_000_000u64, "call": "get", "expect": {"item": "a"}},
                {"at_ns": 900_000_000u64, "call": "len", "expect": 0},
                {"at_ns": 1_000_000_000u64, "call": "shutdown"},
                {"at_ns": 1_100_000_000u64, "call": "metrics", "expect": {
                    "depth": 0, "adds_total": 1, "retries_total": 0,
                    "queue_duration_seconds": [0.1], "work_duration_seconds": [],
                    "unfinished_work_seconds": 0.5, "longest_running_processor_seconds": 0.5
                }}
            ]
        }))
        .unwrap();
        assert_eq!(run(&case).unwrap(), None);
    }
}
