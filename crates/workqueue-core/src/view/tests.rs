use super::*;
use crate::controller::{Outcome, Script};
use crate::events::Input;
use crate::events::ARRIVALS_KEPT;
use crate::limiter::LimiterConfig;
use crate::ranges::{Burst, EventRate, Failures, KeyCount, Qps, Workers};
use crate::scenario::Scenario;
use crate::sim::alone::Simulation;
use crate::time::Instant;
use crate::time::{MILLISECOND, SECOND};
use crate::Span;

/// Past [`crate::records::DETAILED_KEYS`] retrying keys, the first to retry
/// keep their details; a later one has its count, not its details.
#[test]
fn a_key_without_details_still_reports_its_requeues() {
    let keys = crate::records::DETAILED_KEYS as u64 + 100;
    let per_item = LimiterConfig::Exponential {
        base_ns: Span::lit(SECOND),
        max_ns: Span::lit(1000 * SECOND),
    };
    let mut s = Scenario::failing_keys(per_item, KeyCount::new(keys).unwrap());
    s.first_mut().controller.workers = Workers::lit(64);
    s.first_mut().controller.reconcile_ns = Span::ZERO;
    let mut sim = crate::sim::alone::Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + SECOND / 2);
    let first = sim.key_report(crate::item::ItemId(0));
    assert_eq!(first.retries, 1);
    assert_eq!(first.last_retry.map(|r| r.delay), Some(SECOND));
    assert!(first.answer.is_some());
    let last = sim.key_report(crate::item::ItemId(keys as u32 - 1));
    assert_eq!(last.retries, 1);
    assert_eq!(
        (last.last_retry, last.answer, last.history.len()),
        (None, None, 0)
    );
}

fn sim(limiter: LimiterConfig, script: Script) -> Simulation {
    let mut s = Scenario::new("view");
    s.controllers[0].limiter = Some(limiter);
    s.controllers[0].default_script = script;
    s.controllers[0].controller.reconcile_ns = Span::ZERO;
    Simulation::new(&s).expect("a valid scenario")
}

/// Key `a`, failing every time under per-item backoff from 5ms.
fn failing_key_a() -> Simulation {
    let mut s = sim(
        LimiterConfig::Exponential {
            base_ns: Span::lit(5 * MILLISECOND),
            max_ns: Span::lit(SECOND),
        },
        Script::Always {
            outcome: Outcome::Error,
        },
    );
    s.apply(Input::Add { key: "a".into() }).unwrap();
    s
}

#[test]
fn a_failing_key_waits_with_a_countdown_that_shrinks_to_zero() {
    let mut s = failing_key_a();
    s.run_until(Instant::T0);
    let v = s.stage_view(24, 32);
    assert_eq!(v.waiting.total, 1);
    let w = &v.waiting.first[0];
    assert_eq!(
        (w.key.key.as_str(), w.ready_at, w.from),
        ("a", (Instant::T0 + 5 * MILLISECOND).wide(), Instant::T0)
    );
    assert_eq!(w.key.failures, 1);
    assert_eq!(w.fraction_left(Instant::T0), 1.0);
    assert!((w.fraction_left(Instant::T0 + 2 * MILLISECOND) - 0.6).abs() < 1e-12);
    assert_eq!(w.fraction_left(Instant::T0 + 5 * MILLISECOND), 0.0);
    assert!(!w.on_bucket, "the key's own backoff decided this wait");
    assert!(v.bucket.is_none(), "an exponential limiter has no bucket");
    // The second wait starts at 5ms and lasts 10ms.
    s.run_until(Instant::T0 + 5 * MILLISECOND);
    let w = &s.stage_view(24, 32).waiting.first[0];
    assert_eq!(
        (w.from, w.ready_at),
        (
            Instant::T0 + 5 * MILLISECOND,
            (Instant::T0 + 15 * MILLISECOND).wide()
        )
    );
}

#[test]
fn a_key_report_explains_the_last_result_without_scanning_the_log() {
    let mut s = failing_key_a();
    s.run_until(Instant::T0 + 5 * MILLISECOND);
    let id = s.find("a").unwrap();
    let r = s.key_report(id);
    assert_eq!(
        r.places,
        vec![Place::Waiting {
            ready_at: (Instant::T0 + 15 * MILLISECOND).wide(),
            priority: None
        }]
    );
    assert_eq!((r.num_requeues, r.reconciles, r.errors), (2, 2, 2));
    assert_eq!(r.last_retry.map(|x| x.delay), Some(10 * MILLISECOND));
    assert_eq!(r.history.len(), 2);
    assert!(r.calls[0].contains("Reconcile(\"a\")"), "{:?}", r.calls);
    assert!(
        r.calls
            .iter()
            .any(|c| c.contains("AddRateLimited(\"a\"): When = 10ms")),
        "{:?}",
        r.calls
    );
    assert!(
        r.calls.last().unwrap().contains("Done(\"a\")"),
        "{:?}",
        r.calls
    );
}

#[test]
fn watch_events_land_as_queued_merged_or_dirty() {
    let mut s = sim(
        LimiterConfig::DefaultController,
        Script::Always {
            outcome: Outcome::Success,
        },
    );
    let mut scenario = Scenario::new("view");
    scenario.controllers[0].default_script = s.spec().default_script.clone();
    scenario.controllers[0].controller.reconcile_ns = Span::lit(SECOND);
    s = Simulation::new(&scenario).unwrap();
    s.apply(Input::WatchEvents {
        key: "web".into(),
        per_second: EventRate::lit(50.0),
        duration_ns: Span::lit(SECOND),
    })
    .unwrap();
    s.run_until(Instant::T0 + 100 * MILLISECOND);
    let v = s.stage_view(24, 32);
    let landings: Vec<Landing> = v.arrivals.iter().map(|a| a.landing).collect();
    // 0ms: queued, then taken by the worker at once; 20ms on: the key
    // is being reconciled, so the first later event marks it dirty and
    // the rest merge into that one dirty copy.
    assert_eq!(landings[0], Landing::Queued);
    assert_eq!(landings[1], Landing::MarkedDirty);
    assert!(landings[2..].iter().all(|l| *l == Landing::Merged));
    assert_eq!(v.arrivals.len(), 6);
    assert!(v.arrivals.windows(2).all(|w| w[0].seq + 1 == w[1].seq));
    assert_eq!(v.dirty_in_flight, 1);
    let WorkerView::Reconciling { key, .. } = &v.workers.first[0] else {
        panic!("the worker holds web: {:?}", v.workers.first[0]);
    };
    assert!(key.dirty);
    assert_eq!(key.absorbed, 4, "four events merged into the dirty copy");
    // The ring keeps only the latest events.
    s.run_until(Instant::T0 + SECOND);
    let v = s.stage_view(24, 32);
    assert_eq!(v.arrivals.len(), ARRIVALS_KEPT);
    assert_eq!(v.arrivals.last().unwrap().seq, v.watch_events_total);
}

#[test]
fn the_bucket_reports_debt_the_next_free_token_and_who_waits_on_it() {
    let mut s = sim(
        LimiterConfig::Bucket {
            qps: Qps::lit(10.0),
            burst: Burst::lit(100),
        },
        Script::FailThenSucceed {
            failures: Failures::lit(1),
        },
    );
    let b = s.bucket_view().unwrap();
    assert_eq!(
        (b.tokens, b.burst, b.qps, b.owner),
        (100.0, 100, 10.0, BucketOwner::Controller)
    );
    assert_eq!(b.next_token_in(), None);
    s.apply(Input::AddMany {
        prefix: "k".into(),
        count: KeyCount::lit(150),
    })
    .unwrap();
    s.run_until(Instant::T0);
    let b = s.bucket_view().unwrap();
    assert_eq!(b.tokens, -50.0);
    assert_eq!(b.debt(), 50.0);
    assert_eq!(b.next_token_in(), Some(5_100 * MILLISECOND));
    assert_eq!(b.waiting_on_bucket, 50, "the first 100 took a free token");
    // Half a second later five tokens have dripped back, and the five
    // keys they were promised to have come back and succeeded.
    s.run_until(Instant::T0 + 500 * MILLISECOND);
    let b = s.bucket_view().unwrap();
    assert!((b.tokens + 45.0).abs() < 1e-9, "{}", b.tokens);
    assert_eq!(b.waiting_on_bucket, 45);
    // In debt, the drip still moves: 50 ms on, half of the next token.
    s.run_until(Instant::T0 + 550 * MILLISECOND);
    let b = s.bucket_view().unwrap();
    let p = b.refill_progress().expect("in debt, the bucket refills");
    assert!((p - 0.5).abs() < 1e-6, "{p}");
    let full = BucketView {
        tokens: b.burst as f64,
        ..b.clone()
    };
    assert_eq!(full.refill_progress(), None, "a full bucket does not drip");
}

/// The key a step follows is drawn while it waits, even when ten others
/// are due before it; the chips drawn stay as many, the total the same.
#[test]
fn a_followed_key_is_drawn_among_the_soonest() {
    let mut s = failing_key_a();
    // `a` fails at 0, 5 and 15 ms (its next wait 20 ms); ten keys failing
    // once at 16 ms are due at 21 ms, before it.
    s.run_until(Instant::T0 + 16 * MILLISECOND);
    s.apply(Input::AddMany {
        prefix: "b-".into(),
        count: KeyCount::lit(10),
    })
    .unwrap();
    s.run_until(Instant::T0 + 16 * MILLISECOND);
    let plain = s.stage_view(3, 32);
    assert_eq!(plain.waiting.total, 11);
    assert!(
        plain.waiting.first.iter().all(|w| w.key.key != "a"),
        "due last, not drawn"
    );
    let kept = s.stage_view_keeping(3, 32, Some("a"));
    let keys: Vec<&str> = kept
        .waiting
        .first
        .iter()
        .map(|w| w.key.key.as_str())
        .collect();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[2], "a", "{keys:?}");
    assert_eq!(&keys[..2], &["b-0", "b-1"][..], "{keys:?}");
    assert_eq!(kept.waiting.total, 11);
    // A key that is not waiting (or not known) changes nothing.
    assert_eq!(s.stage_view_keeping(3, 32, Some("nobody")), plain);
}
