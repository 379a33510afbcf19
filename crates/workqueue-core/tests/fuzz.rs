//! Fuzzing the validation gate and the driver: arbitrary scenarios (typed,
//! and JSON documents mutated leaf by leaf), arbitrary live inputs, extreme
//! numbers everywhere (0, negatives, 1e-300, 1e308, NaN, infinities, i64/u64
//! extremes, huge counts). For every case:
//!
//! * nothing panics (tests build with overflow checks, so a wrap panics too);
//! * every refusal names a field and gives a reason;
//! * a bounded call spends at most its budget, and the events it produces are
//!   bounded by that budget plus the work that was already pending;
//! * a scenario the gate accepts can be built and driven.
//!
//! Each case is generated from its number, so a failure is replayed with
//! `WQ_FUZZ_FROM=N WQ_FUZZ_CASES=1`. CI runs a few thousand cases;
//! `bash scripts/fuzz.sh` runs a million and prints how many ran and failed.

#![cfg(not(target_arch = "wasm32"))]

use std::panic::{catch_unwind, AssertUnwindSafe};
use workqueue_core::{At, Span};
use workqueue_core::{Burst, ClientQps, EventRate, KeyCount, Qps, Requests, Workers};

use serde_json::Value;
use workqueue_core::Rng;
use workqueue_core::{CrossplaneConfig, CrossplaneProfile, ReconcileResult};
use workqueue_core::{
    Duration, Input, Instant, LimiterConfig, Outcome, Scenario, Script, SimError, Simulation,
    MILLISECOND, SECOND,
};
use workqueue_core::{ItemSpec, Source};

const BUDGET: u64 = 400;

mod fuzz_gen;
use fuzz_gen::Gen;

/// A valid starting point for mutation: a scenario that uses every part.
fn rich_scenario() -> Scenario {
    let mut s = Scenario::failing_keys(LimiterConfig::DefaultController, KeyCount::lit(20));
    s.controllers[0].items.push(ItemSpec {
        key: "ns/a".into(),
        script: Some(Script::Random {
            error_probability: workqueue_core::Probability::new(0.5).unwrap(),
            otherwise: Outcome::RequeueAfter {
                after_ns: Span::lit(30 * SECOND),
            },
        }),
        reconcile_ns: Some(Span::lit(100 * MILLISECOND)),
        add_at_ns: Some(At::lit(Instant::T0 + SECOND)),
    });
    s.controllers[0].sources.push(Source::WatchEvents {
        key: "ns/w".into(),
        per_second: EventRate::lit(50.0),
        start_ns: Span::lit(SECOND),
        duration_ns: Span::lit(2 * SECOND),
    });
    s.controllers[0].sources.push(Source::Resync {
        period_ns: Span::lit(10 * SECOND),
    });
    s.controllers[0].controller.workers = Workers::lit(2);
    s
}

/// What became of one case.
enum Fate {
    Driven,
    Refused,
}

fn refusal_names_a_field(field: &str, reason: &str) -> Result<(), String> {
    if field.trim().is_empty() || reason.trim().is_empty() {
        return Err(format!(
            "a refusal without a field or reason: {field:?}: {reason:?}"
        ));
    }
    Ok(())
}

fn refused(field: &str, reason: &str) -> Result<Fate, String> {
    refusal_names_a_field(field, reason).map(|_| Fate::Refused)
}

/// Drives an accepted scenario with inputs and bounded calls.
fn drive(g: &mut Gen, mut sim: Simulation) -> Result<Fate, String> {
    for _ in 0..6 {
        if g.chance(50) {
            match sim.apply(g.input()) {
                Ok(()) => {}
                Err(SimError::Invalid(e)) => refusal_names_a_field(&e.field, &e.reason)?,
                Err(SimError::NotAwaiting { .. }) => {}
                Err(SimError::Stalled(reason)) => refusal_names_a_field("run", &reason)?,
                // A second shutdown of a priority queue is refused by name.
                Err(SimError::AlreadyShutDown(_)) => {}
            }
        }
        let before = sim.now();
        let pending = (sim.queue().len()
            + sim.queue().waiting_len()
            + sim.workers().len()
            + sim.spec().items.len()) as u64;
        let log_before = sim.log_total();
        let target = before.saturating_add(Duration::from_nanos(g.nanos().max(0)));
        let reached = sim.run_until_bounded(target, BUDGET);
        let events = sim.log_total() - log_before;
        if sim.budget_left() > BUDGET {
            return Err("the budget grew".into());
        }
        if events > 16 * (BUDGET + pending) {
            return Err(format!(
                "{events} events in one call with a budget of {BUDGET} and {pending} pending"
            ));
        }
        if sim.now() < before
            || (reached && sim.now() != target.max(before))
            || (!reached && sim.now() > target)
        {
            return Err(format!(
                "clock went from {before:?} to {:?} aiming at {target:?}",
                sim.now()
            ));
        }
    }
    Ok(Fate::Driven)
}

fn one_case(n: u64) -> Result<Fate, String> {
    let mut g = Gen(
        Rng::new(n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xF022),
        n % 2 == 1,
    );
    if g.chance(50) {
        // A typed scenario, as the forms and lessons build them.
        let s = g.scenario();
        match Simulation::new(&s) {
            Ok(sim) => drive(&mut g, sim),
            Err(e) => refused(&e.field, &e.reason),
        }
    } else {
        // A document, as an uploaded file or a hand-edited scenario.
        let mut doc = serde_json::to_value(rich_scenario()).map_err(|e| e.to_string())?;
        for _ in 0..1 + g.below(3) {
            g.mutate(&mut doc);
        }
        let mut text = doc.to_string();
        if g.chance(10) {
            let cut = g.below(text.len() as u64) as usize;
            text = text.chars().take(cut).collect();
        }
        match Scenario::from_json(&text) {
            Ok(s) => {
                let sim = Simulation::new(&s)
                    .map_err(|e| format!("accepted by from_json, refused by new: {e}"))?;
                drive(&mut g, sim)
            }
            Err(e) => refused(&e.field, &e.reason),
        }
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn arbitrary_scenarios_and_inputs_never_panic_and_stay_in_budget() {
    let from = env_u64("WQ_FUZZ_FROM", 0);
    let cases = env_u64("WQ_FUZZ_CASES", 3_000);
    let mut failures = Vec::new();
    let (mut driven, mut refused) = (0u64, 0u64);
    // Panics are caught and counted; keep their default report quiet.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for n in from..from + cases {
        let result = catch_unwind(AssertUnwindSafe(|| one_case(n)))
            .unwrap_or_else(|p| Err(format!("panic: {}", panic_text(&p))));
        match result {
            Ok(Fate::Driven) => driven += 1,
            Ok(Fate::Refused) => refused += 1,
            Err(e) => failures.push((n, e)),
        }
    }
    std::panic::set_hook(hook);
    println!(
        "fuzz scenarios+inputs: {cases} cases ran ({driven} accepted and driven, {refused} refused naming a field), {} failed",
        failures.len()
    );
    // About a quarter get past the gate; a generator that stops reaching
    // the driver (every case refused) would test nothing.
    assert!(
        driven * 5 > cases,
        "too few cases get past the gate to test the driver"
    );
    for (n, e) in failures.iter().take(10) {
        println!("  case {n}: {e}");
    }
    assert!(failures.is_empty(), "{} cases failed", failures.len());
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// The freeze from the issue: a 1e-10 events/s storm that starts after t=0.
#[test]
fn a_vanishing_rate_is_refused_and_a_late_start_cannot_wrap() {
    let e = Scenario::from_json(
        r#"{"version": 2, "controllers": [{"sources": [{"type": "watch_events", "key": "k",
            "per_second": 1e-10, "start_ns": "1s", "duration_ns": "60s"}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "controllers[0].sources[0].per_second");
    // The slowest accepted rate, starting late in a long run: one event.
    let mut s = Scenario::new("slow storm");
    s.controllers[0].sources.push(Source::WatchEvents {
        key: "k".into(),
        per_second: EventRate::lit(0.001),
        start_ns: Span::lit(6 * 24 * 3600 * SECOND),
        duration_ns: Span::lit(24 * 3600 * SECOND),
    });
    s.duration_ns = Span::lit(workqueue_core::limits::MAX_RUN);
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    assert_eq!(sim.watch_events_total(), 87);
}

/// A zero-delay retry loop never lets time move: the run stops with a
/// message, and every bounded call on the way returns.
#[test]
fn a_run_that_cannot_progress_stops_with_a_message() {
    // Requeue with a 0ns backoff and instant reconciles: back in the queue
    // at the same instant, for ever.
    let mut s = Scenario::new("spin");
    s.controllers[0].limiter = Some(LimiterConfig::Exponential {
        base_ns: Span::ZERO,
        max_ns: Span::ZERO,
    });
    s.controllers[0]
        .items
        .push(ItemSpec::always("k", Outcome::Requeue));
    let mut sim = Simulation::new(&s).unwrap();
    let mut calls = 0;
    while sim.stalled().is_none() {
        assert!(!sim.run_until_bounded(Instant::T0 + SECOND, 100_000));
        calls += 1;
        assert!(calls < 100, "no stall after {calls} calls");
    }
    assert_eq!(sim.now(), Instant::T0);
    assert!(sim.stalled().unwrap().contains("zero-delay retry loop"));
    assert!(matches!(
        sim.apply(Input::Add { key: "x".into() }),
        Err(SimError::Stalled(_))
    ));
}

/// The scenario decoder fed arbitrary bytes and cut or flipped documents.
#[test]
fn the_scenario_decoder_refuses_garbage_by_name() {
    let cases = env_u64("WQ_FUZZ_CASES", 3_000);
    let valid = rich_scenario().to_json().into_bytes();
    let mut failures = 0u64;
    let mut rng = Rng::new(0xDEC0DE);
    for _ in 0..cases {
        let mut bytes = if rng.next_u64().is_multiple_of(2) {
            valid.clone()
        } else {
            (0..rng.next_u64() % 200)
                .map(|_| rng.next_u64() as u8)
                .collect()
        };
        for _ in 0..1 + rng.next_u64() % 4 {
            if bytes.is_empty() {
                break;
            }
            let i = (rng.next_u64() % bytes.len() as u64) as usize;
            match rng.next_u64() % 3 {
                0 => bytes[i] ^= 1 << (rng.next_u64() % 8),
                1 => bytes.truncate(i),
                _ => bytes.insert(i, rng.next_u64() as u8),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let ok = catch_unwind(AssertUnwindSafe(|| match Scenario::from_json(&text) {
            Ok(s) => Simulation::new(&s).is_ok(),
            Err(e) => refusal_names_a_field(&e.field, &e.reason).is_ok(),
        }))
        .unwrap_or(false);
        failures += u64::from(!ok);
    }
    println!("fuzz scenario decoder: {cases} cases ran, {failures} failed");
    assert_eq!(failures, 0);
}

/// Found by the fuzzer (case 25351): a resync started when the clock stands
/// at the end of time must not fire for ever at that instant.
#[test]
fn a_resync_at_the_end_of_time_fires_once() {
    let mut s = Scenario::new("end of time");
    s.controllers[0].items.push(ItemSpec::new("k"));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::from_nanos(i64::MAX));
    sim.apply(Input::Resync {
        period_ns: Some(Span::lit(149 * MILLISECOND)),
    })
    .unwrap();
    assert!(sim.run_until_bounded(Instant::from_nanos(i64::MAX), 10_000));
    assert_eq!(sim.sources().count(), 0, "the resync is over");
    sim.apply(Input::Add { key: "k2".into() }).unwrap();
}

/// Managers built from generated controllers, shared parts and clients are
/// refused by name or run, in bounded calls, without a panic.
/// Up to four controllers from generated scenarios, with a shared bucket
/// and a client limit half the time each.
fn manager_scenario(g: &mut Gen) -> Scenario {
    use workqueue_core::{BucketSpec, ClientLimit, ClientScope, ControllerSpec};
    let mut s = g.scenario();
    for i in 0..1 + g.below(3) {
        let c = g.scenario().controllers.remove(0);
        s.controllers.push(ControllerSpec {
            name: if g.chance(5) {
                String::new()
            } else {
                format!("c{i}")
            },
            requests_per_reconcile: Requests::lit(g.below(5) as u32),
            shares_bucket: g.chance(50),
            ..c
        });
    }
    if g.chance(50) {
        s.shared_bucket = Some(BucketSpec {
            qps: Qps::new(g.count() as f64 / 7.0).unwrap_or(Qps::lit(0.0)),
            burst: Burst::new(g.count() as i64).unwrap_or(Burst::lit(1)),
        });
    }
    if g.chance(50) {
        s.client = Some(ClientLimit {
            qps: ClientQps::new(g.count() as f64 / 3.0).unwrap_or(ClientQps::lit(0.001)),
            burst: Burst::new(g.count() as i64).unwrap_or(Burst::lit(1)),
            per: if g.chance(50) {
                ClientScope::Kind
            } else {
                ClientScope::Shared
            },
        });
    }
    s
}

#[test]
fn arbitrary_managers_never_panic_and_stay_in_budget() {
    use workqueue_core::Manager;
    let cases = env_u64("WQ_FUZZ_CASES", 3_000) / 10;
    let (mut driven, mut refused) = (0u64, 0u64);
    for n in 0..cases {
        let mut g = Gen(Rng::new(n ^ 0x4D41_4E41), n % 2 == 1);
        let s = manager_scenario(&mut g);
        let result = catch_unwind(AssertUnwindSafe(|| match Manager::new(&s) {
            Err(e) => {
                refusal_names_a_field(&e.field, &e.reason).expect("a refusal names a field");
                false
            }
            Ok(mut m) => {
                for _ in 0..4 {
                    let target = m
                        .now()
                        .saturating_add(Duration::from_nanos(g.nanos().max(0)));
                    m.run_until_bounded(target, BUDGET);
                }
                true
            }
        }));
        match result {
            Ok(true) => driven += 1,
            Ok(false) => refused += 1,
            Err(p) => panic!("manager case {n} panicked: {}", panic_text(&p)),
        }
    }
    println!("fuzz managers: {cases} cases ({driven} driven, {refused} refused naming a field)");
    assert!(driven > 0 && refused > 0, "both paths are exercised");
}

/// A manager fed a recorded tape as the page replays a link: frame by
/// frame, each frame one budget for the inputs it applies and the run
/// between them. No frame may do much more work than its budget (counted
/// in log events), and under `WQ_FUZZ_WALL_MS` (set by scripts/fuzz.sh, an
/// optimised build) none may take longer than that many milliseconds.
#[test]
fn arbitrary_manager_tapes_replay_frame_by_frame_within_budget() {
    use workqueue_core::{validate, Manager};
    let cases = env_u64("WQ_FUZZ_CASES", 3_000) / 10;
    let wall_ms = env_u64("WQ_FUZZ_WALL_MS", 0);
    let (mut replayed, mut refused, mut frames, mut slowest) = (0u64, 0u64, 0u64, 0f64);
    for n in 0..cases {
        let mut g = Gen(Rng::new(n ^ 0x7441_5045), n % 2 == 1);
        let s = manager_scenario(&mut g);
        let mut at = Instant::T0;
        let tape: Vec<(Instant, Input)> = (0..g.below(40))
            .map(|_| {
                at = at.saturating_add(Duration::from_nanos(g.nanos().max(0) / 8));
                (at, g.input())
            })
            .collect();
        let checked = validate::tape(&tape).and_then(|()| Manager::new(&s));
        let mut m = match checked {
            Err(e) => {
                refusal_names_a_field(&e.field, &e.reason).expect("a refusal names a field");
                refused += 1;
                continue;
            }
            Ok(m) => m,
        };
        let work = |m: &Manager| m.controllers().map(|(_, c)| c.log_total()).sum::<u64>();
        let mut next = 0;
        for _ in 0..12 {
            let started = std::time::Instant::now();
            let before = work(&m);
            let target = m
                .now()
                .saturating_add(Duration::from_nanos(g.nanos().max(0)));
            let mut left = BUDGET;
            let mut reached = true;
            while let Some((at, input)) = tape.get(next).filter(|(at, _)| *at <= target) {
                if !m.run_until_bounded(*at, left) || m.budget_left() == 0 {
                    reached = false;
                    break;
                }
                left = m.budget_left();
                let i = next % m.len();
                if m.apply_bounded(i, input.clone(), left).is_err() {
                    m.skip_input();
                }
                left = m.budget_left().min(left - 1);
                next += 1;
            }
            if reached && left > 0 {
                m.run_until_bounded(target, left);
            }
            if g.chance(20) {
                m.step_bounded(BUDGET);
            }
            let done = work(&m) - before;
            let keys: u64 = m
                .controllers()
                .map(|(_, c)| c.queue().keys().len() as u64)
                .sum();
            assert!(
                done <= 16 * (2 * BUDGET + keys + 64),
                "case {n}: {done} events in one frame of budget {BUDGET}"
            );
            let ms = started.elapsed().as_secs_f64() * 1e3;
            slowest = slowest.max(ms);
            assert!(
                wall_ms == 0 || ms <= wall_ms as f64,
                "case {n}: a frame took {ms:.1} ms"
            );
            frames += 1;
        }
        assert_eq!(
            m.inputs_applied(),
            next,
            "case {n}: every taped input applied or skipped in place"
        );
        replayed += 1;
    }
    println!("fuzz manager tapes: {cases} cases ({replayed} replayed in {frames} frames, {refused} refused naming a field), slowest frame {slowest:.2} ms");
    assert!(replayed > 0 && refused > 0, "both paths are exercised");
}
