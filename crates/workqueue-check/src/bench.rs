//! The benchmark workloads, shared by `bin/bench` (native) and the wasm
//! benchmark test (headless Chromium). The caller passes its clock in
//! milliseconds; this module, like the rest of the core, never reads one.
//!
//! Workloads, through the public API with keys `ns/pod-<i>`:
//! - `add_get_done_ns`: one Add+Get+Done cycle, averaged over 10,000 keys;
//! - `fill10k_drain_ms`: Add each of 10,000 keys twice, then Get+Done all;
//! - `default_when_ns`: the default controller limiter's When over 10,000
//!   keys at one instant, with a Forget on every 64th call;
//! - `storm_10k_60s_ms`: 10,000 keys failing continuously for 60 virtual
//!   seconds under the per-item limiter with instant reconciles;
//! - `storm_100k_60s_ms`: the same with 100,000 keys;
//! - `keys_1m_one_reconcile_each_ms`: 1,000,000 keys added at once and
//!   reconciled once each by 64 workers (natively only: in the browser the
//!   page stops at 100,000 keys);
//! - `watch_storm_*`: one hot key's watch storm with 1 or 1,000 workers;
//! - `pq_add_get_done_ns` and `pq_fill10k_drain_ms`: the same two workloads
//!   on controller-runtime's priority queue (Add, GetWithPriority, Done)
//!   with its own default limiter.
//!
//! The headline figures use client-go's default queue (no metrics provider);
//! `_metrics` lines repeat the work with all seven metrics recorded, and
//! `_cold` lines are the first round on a fresh queue (keys interned, tables
//! growing), the best of [`COLD_TRIALS`] fresh queues. Other figures are the
//! best of several rounds on one queue, the steady state a Go benchmark loop
//! measures.

use std::hint::black_box;
use workqueue_core::Span;
use workqueue_core::{EventRate, KeyCount, Workers};

use workqueue_core::{
    Duration, Got, Instant, LimiterConfig, QueueOptions, Scenario, Simulation, Workqueue,
    MILLISECOND, SECOND,
};
use workqueue_core::{PqGot, PriorityQueue, QueueKind};

const KEYS: usize = 10_000;

/// Fresh queues whose first round is timed for a `_cold` figure.
pub const COLD_TRIALS: usize = 25;

fn queue(metrics: bool) -> Workqueue {
    let options = if metrics {
        QueueOptions::with_metrics()
    } else {
        QueueOptions::default()
    };
    Workqueue::new(&LimiterConfig::DefaultController, options)
}

fn add_get_done(q: &mut Workqueue, keys: &[String]) {
    for k in keys {
        q.add_key(Instant::T0, k);
        if let Got::Item(id) = q.get(Instant::T0) {
            q.done(Instant::T0, id);
        }
    }
}

fn fill_drain(q: &mut Workqueue, keys: &[String]) {
    for _ in 0..2 {
        for k in keys {
            q.add_key(Instant::T0, k);
        }
    }
    while let Got::Item(id) = q.get(Instant::T0) {
        q.done(Instant::T0, id);
    }
    black_box(q.len());
}

fn when_all(q: &mut Workqueue, keys: &[String]) {
    for (i, k) in keys.iter().enumerate() {
        // Keyed by string like client-go's When(item): the lookup is part of the cost.
        let id = q.key(k);
        black_box(q.when(Instant::T0, id));
        if i % 64 == 63 {
            q.forget(id);
        }
    }
}

/// Either queue, so one timing harness serves both.
trait Bench {
    fn fresh(metrics: bool) -> Self;
}

impl Bench for Workqueue {
    fn fresh(metrics: bool) -> Self {
        queue(metrics)
    }
}

impl Bench for PriorityQueue {
    fn fresh(_: bool) -> Self {
        PriorityQueue::new(&QueueKind::Priority.default_limiter(), None)
    }
}

/// Like controller-runtime's `Add(item)`: keyed by the item itself.
fn pq_add(q: &mut PriorityQueue, key: &str) {
    let id = q.key(key);
    black_box(q.add(Instant::T0, id));
}

fn pq_add_get_done(q: &mut PriorityQueue, keys: &[String]) {
    for k in keys {
        pq_add(q, k);
        if let PqGot::Item { item, .. } = q.get(Instant::T0) {
            q.done(Instant::T0, item);
        }
    }
}

fn pq_fill_drain(q: &mut PriorityQueue, keys: &[String]) {
    for _ in 0..2 {
        for k in keys {
            pq_add(q, k);
        }
    }
    while let PqGot::Item { item, .. } = q.get(Instant::T0) {
        q.done(Instant::T0, item);
    }
    black_box(q.len());
}

/// The storm of `storm_10k_60s_ms`; returns the number of requeues (so the
/// work cannot be optimised away).
pub fn storm() -> u64 {
    storm_of(KEYS as u64)
}

/// `keys` keys failing for 60 virtual seconds, per-item limiter, instant
/// reconciles.
pub fn storm_of(keys: u64) -> u64 {
    let per_item = LimiterConfig::Exponential {
        base_ns: Span::lit(5 * MILLISECOND),
        max_ns: Span::lit(1000 * SECOND),
    };
    let mut s = Scenario::failing_keys(per_item, KeyCount::new(keys).unwrap());
    s.duration_ns = Span::lit(60 * SECOND);
    let mut sim = Simulation::new(&s).expect("valid scenario");
    sim.set_log_capacity(0);
    sim.run_to_end();
    sim.requeues_total()
}

/// `keys` keys added at once and reconciled once each (success, instant,
/// 64 workers): the scale the core takes natively. Returns the reconciles.
pub fn one_pass_of(keys: u64) -> u64 {
    let mut s = Scenario::new("one pass");
    s.controllers[0].controller.workers = Workers::lit(64);
    s.controllers[0]
        .sources
        .push(workqueue_core::Source::add_many(
            "ns/pod-",
            KeyCount::new(keys).unwrap(),
        ));
    s.duration_ns = Span::lit(SECOND);
    let mut sim = Simulation::new(&s).expect("valid scenario");
    sim.set_log_capacity(0);
    sim.run_to_end();
    sim.controller_metrics()
        .total(workqueue_core::ResultLabel::Success)
}

/// A watch storm on one key (1,000 events/s for 60 s, 1 ms reconciles) with
/// `workers` workers, all but one idle: a step's cost must not grow with them.
pub fn idle_workers(workers: u32) -> u64 {
    let mut s = Scenario::new("idle workers");
    s.controllers[0].controller.workers = Workers::new(workers).unwrap();
    s.controllers[0].controller.reconcile_ns = Span::lit(MILLISECOND);
    s.controllers[0].default_script = workqueue_core::Script::Always {
        outcome: workqueue_core::Outcome::Success,
    };
    s.controllers[0]
        .sources
        .push(workqueue_core::Source::WatchEvents {
            key: "ns/hot".into(),
            per_second: EventRate::lit(1000.0),
            start_ns: Span::lit(Duration::ZERO),
            duration_ns: Span::lit(60 * SECOND),
        });
    s.duration_ns = Span::lit(60 * SECOND);
    let mut sim = Simulation::new(&s).expect("valid scenario");
    sim.set_log_capacity(0);
    sim.run_to_end();
    sim.watch_events_total()
}

/// Figures that are the ratio of two others: `(name, numerator, denominator)`.
pub const RATIOS: [(&str, &str, &str); 2] = [
    (
        "storm_100k_over_10k",
        "storm_100k_60s_ms",
        "storm_10k_60s_ms",
    ),
    (
        "watch_storm_1000_over_1_workers",
        "watch_storm_1000_workers_ms",
        "watch_storm_1_worker_ms",
    ),
];

/// Appends the [`RATIOS`] computed from `figures`.
pub fn with_ratios(mut figures: Vec<(String, f64)>) -> Vec<(String, f64)> {
    let find = |name: &str| figures.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let ratios: Vec<(String, f64)> = RATIOS
        .iter()
        .filter_map(|(name, num, den)| Some((name.to_string(), find(num)? / find(den)?)))
        .collect();
    figures.extend(ratios);
    figures
}

/// Times `work` on fresh queues (the `_cold` figure, best of
/// [`COLD_TRIALS`]) and on one warmed queue (best of `rounds`).
#[allow(clippy::too_many_arguments)]
fn time_workload<Q: Bench>(
    out: &mut Vec<(&'static str, f64)>,
    time: &dyn Fn(&mut dyn FnMut()) -> f64,
    keys: &[String],
    rounds: usize,
    (name_warm, name_cold): (&'static str, Option<&'static str>),
    metrics: bool,
    work: fn(&mut Q, &[String]),
    scale: &dyn Fn(f64) -> f64,
) {
    // One untimed round first: in the browser a wasm function runs baseline
    // code until the engine has compiled it again, optimised, and a loop
    // switches only at its next call. `_cold` is about a fresh queue's first
    // touches (interning, tables growing), not the engine's compiler tiers,
    // so its trials run on optimised code, as natively.
    let mut q = Q::fresh(metrics);
    work(&mut q, keys);
    let cold = (0..COLD_TRIALS)
        .map(|_| {
            let mut fresh = Q::fresh(metrics);
            time(&mut || work(&mut fresh, keys))
        })
        .fold(f64::INFINITY, f64::min);
    let warm = (0..rounds)
        .map(|_| time(&mut || work(&mut q, keys)))
        .fold(f64::INFINITY, f64::min);
    out.push((name_warm, scale(warm)));
    if let Some(n) = name_cold {
        out.push((n, scale(cold)));
    }
}

/// Runs every workload and returns `(name, value)` figures (ratios not included).
pub fn run(now_ms: &dyn Fn() -> f64, rounds: usize) -> Vec<(&'static str, f64)> {
    let keys: Vec<String> = (0..KEYS).map(|i| format!("ns/pod-{i}")).collect();
    let time = |f: &mut dyn FnMut()| {
        let t = now_ms();
        f();
        now_ms() - t
    };
    let per_key_ns = |ms: f64| ms * 1e6 / KEYS as f64;
    let mut out = Vec::new();
    let mut measure =
        |names, metrics, work: fn(&mut Workqueue, &[String]), scale: &dyn Fn(f64) -> f64| {
            time_workload(&mut out, &time, &keys, rounds, names, metrics, work, scale)
        };
    let ms = |x: f64| x;
    measure(
        ("add_get_done_ns", Some("add_get_done_cold_ns")),
        false,
        add_get_done,
        &per_key_ns,
    );
    measure(
        ("add_get_done_metrics_ns", None),
        true,
        add_get_done,
        &per_key_ns,
    );
    measure(
        ("fill10k_drain_ms", Some("fill10k_drain_cold_ms")),
        false,
        fill_drain,
        &ms,
    );
    measure(("fill10k_drain_metrics_ms", None), true, fill_drain, &ms);
    measure(
        ("default_when_ns", Some("default_when_cold_ns")),
        false,
        when_all,
        &per_key_ns,
    );
    let mut pq = |names, work: fn(&mut PriorityQueue, &[String]), scale: &dyn Fn(f64) -> f64| {
        time_workload(&mut out, &time, &keys, rounds, names, false, work, scale)
    };
    pq(
        ("pq_add_get_done_ns", Some("pq_add_get_done_cold_ns")),
        pq_add_get_done,
        &per_key_ns,
    );
    pq(
        ("pq_fill10k_drain_ms", Some("pq_fill10k_drain_cold_ms")),
        pq_fill_drain,
        &ms,
    );
    let storm_ms = (0..3.min(rounds.max(1)))
        .map(|_| {
            let t = now_ms();
            assert!(storm() > 100_000, "the storm ran");
            now_ms() - t
        })
        .fold(f64::INFINITY, f64::min);
    out.push(("storm_10k_60s_ms", storm_ms));
    let storm_100k = (0..2.min(rounds.max(1)))
        .map(|_| {
            let t = now_ms();
            assert!(storm_of(10 * KEYS as u64) > 1_000_000, "the storm ran");
            now_ms() - t
        })
        .fold(f64::INFINITY, f64::min);
    out.push(("storm_100k_60s_ms", storm_100k));
    #[cfg(not(target_arch = "wasm32"))]
    {
        let t = now_ms();
        assert_eq!(
            one_pass_of(1_000_000),
            1_000_000,
            "every key reconciled once"
        );
        out.push(("keys_1m_one_reconcile_each_ms", now_ms() - t));
    }
    let idle = |workers: u32| {
        (0..3.min(rounds.max(1)))
            .map(|_| {
                let t = now_ms();
                assert!(idle_workers(workers) >= 59_000, "the storm ran");
                now_ms() - t
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (one, thousand) = (idle(1), idle(1000));
    out.push(("watch_storm_1_worker_ms", one));
    out.push(("watch_storm_1000_workers_ms", thousand));
    out
}
