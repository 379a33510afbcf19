//! Every number the source articles state, reproduced through the public API.

use workqueue_core::Span;
use workqueue_core::{Burst, EventRate, KeyCount, Qps, ReconcileRate};
use workqueue_core::{CrossplaneConfig, Outcome, Script};
use workqueue_core::{
    Duration, Input, Instant, LimiterConfig, QueueEvent, QueueOptions, ResultLabel, Scenario,
    Simulation, Workqueue, MILLISECOND, SECOND,
};
use workqueue_core::{ItemSpec, Source};
use workqueue_core::{SimEvent, WorkerState};

fn per_item() -> LimiterConfig {
    LimiterConfig::Exponential {
        base_ns: Span::lit(5 * MILLISECOND),
        max_ns: Span::lit(1000 * SECOND),
    }
}

fn bucket() -> LimiterConfig {
    LimiterConfig::Bucket {
        qps: Qps::lit(10.0),
        burst: Burst::lit(100),
    }
}

/// A storm of 50 watch events a second for 2 s on the one key `key`, from
/// t=0, each reconcile taking `reconcile`.
fn storm_on(key: &str, reconcile: Duration) -> Simulation {
    let mut s = Scenario::new("storm on one key");
    s.controllers[0].controller.reconcile_ns = Span::lit(reconcile);
    s.controllers[0].sources.push(Source::WatchEvents {
        key: key.into(),
        per_second: EventRate::lit(50.0),
        start_ns: Span::lit(Duration::ZERO),
        duration_ns: Span::lit(2 * SECOND),
    });
    Simulation::new(&s).unwrap()
}

/// `count` keys that fail every reconcile, added at once, reconciled instantly.
fn failing_storm(limiter: LimiterConfig, count: u64) -> Simulation {
    let mut s = Scenario::failing_keys(limiter, KeyCount::new(count).unwrap());
    s.duration_ns = Span::lit(10 * SECOND);
    s.sample_ns = Span::lit(MILLISECOND); // exact per-millisecond counts (runs up to 4s stay below compaction)
    let mut sim = Simulation::new(&s).unwrap();
    sim.set_log_capacity(0);
    sim
}

/// Requeues (keys re-entering the queue after a delay) in `[from, to)`.
fn requeues_between(sim: &Simulation, from: Instant, to: Duration) -> u64 {
    let series = sim.series();
    (0..series.samples.len())
        .filter(|i| series.start_of(*i) >= from && series.start_of(*i) < Instant::T0 + to)
        .map(|i| series.samples[i].requeues as u64)
        .sum()
}

#[test]
fn one_failing_key_is_requeued_about_seven_times_in_its_first_second() {
    let mut sim = failing_storm(per_item(), 1);
    sim.run_until(Instant::T0 + SECOND);
    assert_eq!(
        requeues_between(&sim, Instant::T0, SECOND),
        7,
        "re-adds at 5, 15, 35, 75, 155, 315 and 635 ms"
    );
}

#[test]
fn ten_thousand_failing_keys_requeue_70_to_80_thousand_times_in_the_first_second_per_item_only() {
    let mut sim = failing_storm(per_item(), 10_000);
    sim.run_until(Instant::T0 + SECOND);
    let n = requeues_between(&sim, Instant::T0, SECOND);
    assert!((70_000..=80_000).contains(&n), "{n}");
}

#[test]
fn bucket_alone_lets_100_through_at_once_then_10_per_second() {
    let mut sim = failing_storm(bucket(), 10_000);
    sim.run_until(Instant::T0 + 4 * SECOND);
    assert_eq!(requeues_between(&sim, Instant::T0, MILLISECOND), 100);
    assert_eq!(
        requeues_between(&sim, Instant::T0 + MILLISECOND, 100 * MILLISECOND),
        0
    );
    for s in 1..4 {
        assert_eq!(
            requeues_between(&sim, Instant::T0 + s * SECOND, (s + 1) * SECOND),
            10,
            "second {s}"
        );
    }
}

#[test]
fn max_of_gives_the_first_100_a_5ms_delay_and_then_queues_behind_the_bucket() {
    let mut q = Workqueue::new(&LimiterConfig::DefaultController, QueueOptions::default());
    let delays: Vec<Duration> = (0..150)
        .map(|i| {
            let id = q.key(&format!("ns/pod-{i}"));
            q.add_rate_limited(Instant::T0, id).0
        })
        .collect();
    assert!(delays[..100].iter().all(|d| *d == 5 * MILLISECOND));
    assert_eq!(delays[100], 100 * MILLISECOND);
    assert_eq!(delays[101], 200 * MILLISECOND);
    // And in a run: with max-of the herd is smoothed like the bucket alone.
    let mut sim = failing_storm(LimiterConfig::DefaultController, 10_000);
    sim.run_until(Instant::T0 + 3 * SECOND);
    assert_eq!(
        requeues_between(&sim, Instant::T0, 5 * MILLISECOND),
        0,
        "nothing is requeued before 5ms"
    );
    assert_eq!(
        requeues_between(&sim, Instant::T0 + 5 * MILLISECOND, 6 * MILLISECOND),
        100
    );
    assert_eq!(
        requeues_between(&sim, Instant::T0 + 2 * SECOND, 3 * SECOND),
        10
    );
}

#[test]
fn a_key_with_five_earlier_failures_waits_160ms_not_the_buckets_100ms() {
    let mut q = Workqueue::new(&LimiterConfig::DefaultController, QueueOptions::default());
    let old = q.key("ns/flaky");
    for _ in 0..5 {
        q.add_rate_limited(Instant::T0, old);
    }
    for i in 0..95 {
        let id = q.key(&format!("ns/pod-{i}"));
        q.add_rate_limited(Instant::T0, id);
    }
    let (answer, _) = q.add_rate_limited_explained(Instant::T0, old);
    assert_eq!(answer.delay, 160 * MILLISECOND);
    assert_eq!(
        answer.parts[1].delay,
        100 * MILLISECOND,
        "the bucket's answer for the 101st call"
    );
    assert!(answer.parts[0].won);
}

#[test]
fn backoff_reaches_the_1000s_cap_after_about_eighteen_failures() {
    let mut q = Workqueue::new(&per_item(), QueueOptions::default());
    let k = q.key("k");
    let d: Vec<Duration> = (0..20)
        .map(|_| q.add_rate_limited(Instant::T0, k).0)
        .collect();
    assert_eq!(d[17], 655_360 * MILLISECOND);
    assert_eq!(d[18], 1000 * SECOND, "16m40s from the 19th failure on");
}

#[test]
fn an_event_storm_on_one_key_gives_one_reconcile_in_flight_plus_one_queued() {
    let mut sim = storm_on("prod/web-7d8", 200 * MILLISECOND);
    let k = sim
        .find("prod/web-7d8")
        .unwrap_or(workqueue_core::ItemId(0));
    let mut in_flight_and_dirty = 0;
    while sim.now() < Instant::T0 + 2 * SECOND {
        sim.step();
        assert!(sim.queue().len() <= 1, "never two copies queued");
        assert!(
            sim.workers()
                .iter()
                .filter(|w| **w != WorkerState::Idle)
                .count()
                <= 1
        );
        if sim.queue().is_processing(k) && sim.queue().is_dirty(k) {
            in_flight_and_dirty += 1;
        }
    }
    assert_eq!(sim.find("prod/web-7d8"), Some(k));
    assert_eq!(sim.watch_events_total(), 100, "its only source's events");
    assert!(
        in_flight_and_dirty > 0,
        "one reconcile in flight while the key is queued again (dirty)"
    );
    // 100 events, but only about one reconcile per 200ms.
    assert!(
        (10..=11).contains(&sim.item(k).reconciles),
        "{}",
        sim.item(k).reconciles
    );
}

#[test]
fn give_up_after_15_requeues() {
    let mut s = Scenario::new("give up");
    s.controllers[0].limiter = Some(per_item());
    s.controllers[0].controller.give_up_after = Some(15);
    s.controllers[0]
        .items
        .push(ItemSpec::always("ns/broken", Outcome::Error));
    s.duration_ns = Span::lit(1000 * SECOND);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let k = sim.find("ns/broken").unwrap();
    assert_eq!(sim.item(k).reconciles, 16, "the first try and 15 retries");
    assert!(sim.item(k).gave_up);
    assert_eq!(sim.queue().num_requeues(k), 0, "forgotten");
    assert_eq!(sim.controller_metrics().gave_up_total, 1);
}

/// Spec S36 on the client-go adapter queue with the default controller limiter.
#[test]
fn reconcile_result_table_walk_through() {
    let mut s = Scenario::new("S36");
    s.controllers[0].items.push(ItemSpec {
        script: Some(Script::Live),
        ..ItemSpec::new("k")
    });
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0);
    let k = sim.find("k").unwrap();
    let decide =
        |sim: &mut Simulation, outcome: Outcome, external_add: bool| -> (Option<i128>, u64) {
            if external_add {
                sim.apply(Input::Add { key: "k".into() }).unwrap();
                // The item was queued before; let the worker take it.
            }
            // Bring the key to a worker: run until it awaits a decision.
            while !sim
                .workers()
                .iter()
                .any(|w| matches!(w, WorkerState::AwaitingDecision { .. }))
            {
                sim.step().expect("the key comes back");
            }
            let now = sim.now();
            sim.apply(Input::Decide {
                key: "k".into(),
                outcome,
            })
            .unwrap();
            let waiting = sim.queue().waiting_until(k).map(|r| r - now.wide());
            (waiting, sim.queue().num_requeues(k))
        };
    let ms = MILLISECOND.as_nanos() as i128;
    assert_eq!(decide(&mut sim, Outcome::Error, false), (Some(5 * ms), 1));
    assert_eq!(decide(&mut sim, Outcome::Error, false), (Some(10 * ms), 2));
    assert_eq!(decide(&mut sim, Outcome::TerminalError, false), (None, 2));
    assert_eq!(decide(&mut sim, Outcome::Requeue, true), (Some(20 * ms), 3));
    assert_eq!(
        decide(
            &mut sim,
            Outcome::ErrorWithRequeueAfter {
                after_ns: Span::lit(60 * SECOND)
            },
            false
        ),
        (Some(40 * ms), 4)
    );
    let both = Outcome::Custom {
        result: workqueue_core::ReconcileResult {
            requeue: true,
            requeue_after_ns: Span::lit(30 * SECOND),
            error: workqueue_core::ErrorKind::None,
            priority: None,
        },
    };
    assert_eq!(decide(&mut sim, both, false), (Some(30_000 * ms), 0));
    assert_eq!(
        decide(
            &mut sim,
            Outcome::RequeueAfter {
                after_ns: Span::lit(-5 * SECOND)
            },
            false
        ),
        (None, 0)
    );
    let neg = Outcome::Custom {
        result: workqueue_core::ReconcileResult {
            requeue: true,
            requeue_after_ns: Span::lit(-5 * SECOND),
            error: workqueue_core::ErrorKind::None,
            priority: None,
        },
    };
    assert_eq!(decide(&mut sim, neg, true), (Some(5 * ms), 1));
    let m = sim.controller_metrics();
    assert_eq!(
        (
            m.total(ResultLabel::Error),
            m.total(ResultLabel::Requeue),
            m.total(ResultLabel::RequeueAfter),
            m.total(ResultLabel::Success)
        ),
        (4, 2, 1, 1)
    );
    assert_eq!(
        (m.reconcile_errors_total, m.terminal_reconcile_errors_total),
        (4, 1)
    );
    // The queue calls each choice caused are in the log, Forget before AddAfter.
    let calls: Vec<String> = sim.log().iter().map(|e| sim.describe(e)).collect();
    let forget = calls
        .iter()
        .position(|c| c.starts_with("queue.Forget"))
        .unwrap();
    assert!(
        calls[forget + 1].starts_with("queue.AddAfter(\"k\", 30s)"),
        "{:?}",
        &calls[forget..forget + 2]
    );
}

fn crossplane(r: u32) -> Scenario {
    let mut s = Scenario::new("crossplane");
    s.crossplane = Some(CrossplaneConfig::note_2021(ReconcileRate::new(r).unwrap()));
    s
}

#[test]
fn crossplane_r10_runs_10_workers_with_a_10_per_second_burst_100_global_bucket() {
    let mut s = crossplane(10);
    s.controllers[0].controller.reconcile_ns = Span::lit(100 * MILLISECOND); // 10 workers could do 100/s
    s.controllers[0]
        .sources
        .push(Source::add_many("mr-", KeyCount::lit(300)));
    let mut sim = Simulation::new(&s).unwrap();
    assert_eq!(sim.workers().len(), 10);
    assert_eq!(
        sim.limiter_config(),
        &LimiterConfig::Exponential {
            base_ns: Span::lit(SECOND),
            max_ns: Span::lit(60 * SECOND)
        }
    );
    sim.run_until(Instant::T0);
    let busy = sim
        .workers()
        .iter()
        .filter(|w| **w != WorkerState::Idle)
        .count();
    assert_eq!(busy, 10, "ten reconciles at once");
    sim.run_until(Instant::T0 + 20 * SECOND);
    // The burst of 100 and then 10 per second: 300 keys need about 20s, not 3s.
    let done = sim.controller_metrics().total(ResultLabel::Success);
    assert!((280..=300).contains(&done), "{done}");
    assert!(
        sim.controller_metrics().total(ResultLabel::RequeueAfter) > 0,
        "the middleware deferred some"
    );
    let mut early = Simulation::new(&s).unwrap();
    early.run_until(Instant::T0 + 5 * SECOND);
    let done = early.controller_metrics().total(ResultLabel::Success);
    assert!((140..=150).contains(&done), "100 + 10/s after 5s: {done}");
}

#[test]
fn crossplane_throttle_deferral_resets_the_per_object_backoff() {
    // S46: 1, 2, 4 s backoff; then the global bucket is empty on the 4th
    // dequeue, the middleware answers RequeueAfter, and the backoff restarts at 1s.
    let mut s = crossplane(1);
    s.controllers[0]
        .items
        .push(ItemSpec::always("k", Outcome::Requeue));
    let mut sim = Simulation::new(&s).unwrap();
    let k = sim.find("k").unwrap();
    sim.run_until(Instant::T0);
    assert_eq!(sim.queue().num_requeues(k), 1);
    // Drain the global bucket (burst 10) by hand-added keys at 7s, before the 4th dequeue.
    sim.run_until(Instant::T0 + 6 * SECOND);
    assert_eq!(sim.queue().num_requeues(k), 3, "delays 1s, 2s, 4s");
    sim.apply(Input::AddMany {
        prefix: "other-".into(),
        count: KeyCount::lit(12),
    })
    .unwrap();
    sim.run_until(Instant::T0 + 7 * SECOND);
    let deferred = sim.log().iter().any(|e| matches!(&e.event, SimEvent::Gate { item, gate: workqueue_core::Gate::Defer { .. }, .. } if *item == k));
    assert!(
        deferred,
        "the 4th dequeue of k is deferred by the global bucket"
    );
    assert_eq!(
        sim.queue().num_requeues(k),
        0,
        "RequeueAfter forgot the backoff"
    );
    // Next time k passes (free pass) and fails, it waits 1s, not 8s.
    let before = sim.item(k).retries_total;
    while sim.item(k).retries_total == before {
        sim.step().unwrap();
    }
    assert_eq!(
        sim.details(k).unwrap().retries.back().unwrap().delay,
        SECOND
    );
}

#[test]
fn crossplane_r0_never_reconciles_anything() {
    let mut s = crossplane(0);
    s.controllers[0]
        .sources
        .push(Source::add_many("mr-", KeyCount::lit(5)));
    let mut sim = Simulation::new(&s).unwrap();
    assert_eq!(sim.workers().len(), 1, "workers fall back to 1");
    sim.run_until(Instant::T0 + 3600 * SECOND);
    assert_eq!(sim.controller_metrics().total(ResultLabel::Success), 0);
    assert_eq!(
        sim.controller_metrics().total(ResultLabel::RequeueAfter),
        5,
        "each parked for InfDuration"
    );
    assert_eq!(
        sim.queue().next_ready_at(),
        Some(Instant::T0 + workqueue_core::INF_DURATION),
        "parked for 292 years"
    );
}

#[test]
fn shutdown_lets_workers_finish_what_is_queued() {
    let mut s = Scenario::new("shutdown");
    s.controllers[0].controller.reconcile_ns = Span::lit(SECOND);
    s.controllers[0]
        .sources
        .push(Source::add_many("p", KeyCount::lit(3)));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0);
    sim.apply(Input::Shutdown).unwrap();
    sim.apply(Input::Add { key: "late".into() }).unwrap();
    sim.run_until(Instant::T0 + 10 * SECOND);
    assert_eq!(sim.controller_metrics().total(ResultLabel::Success), 3);
    assert!(sim.queue().shutting_down() && sim.queue().is_empty());
    let ignored = sim.log().iter().any(|e| {
        matches!(
            &e.event,
            SimEvent::Queue(QueueEvent::Add {
                effect: workqueue_core::AddEffect::Ignored,
                ..
            })
        )
    });
    assert!(ignored);
}

/// Fifty events a second on one key with 1s reconciles: the first event
/// queues the key, the next marks it dirty while it is processed, and every
/// later one is absorbed by that dirty copy, until a worker takes it again.
#[test]
fn a_storm_on_one_key_is_absorbed_by_one_dirty_copy() {
    let mut sim = storm_on("prod/web", SECOND);
    sim.run_until(Instant::T0 + 500 * MILLISECOND);
    let k = sim.find("prod/web").unwrap();
    assert_eq!(sim.watch_events_total(), 26, "events at 0, 20ms, ... 500ms");
    assert!(sim.queue().is_processing(k) && sim.queue().is_dirty(k));
    assert_eq!(sim.item(k).absorbed, 24);
    // What comes next is a watch event alone (520ms); at 1s the reconcile ends too.
    assert!(sim.next_is_sources_only());
    let mut later = sim.clone();
    later.run_until(Instant::T0 + 990 * MILLISECOND);
    assert!(!later.next_is_sources_only());
    // Done at 1s re-queues the dirty copy and a worker takes it: a fresh count.
    sim.run_until(Instant::T0 + SECOND);
    assert_eq!(sim.item(k).absorbed, 0);
    assert_eq!(sim.item(k).reconciles, 1);
}
