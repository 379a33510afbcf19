//! Crossplane's three profiles against figures computed by hand: the 2021
//! design of the rate-limiting note, a provider on today's
//! crossplane-runtime, and Crossplane core since v2.1 with its XR circuit
//! breaker (docs/crossplane-today.md cites the upstream lines).
//!
//! One burst throughout: R = 10, 300 objects created at t=0, every
//! reconcile a success.

use workqueue_core::Span;
use workqueue_core::{BreakerAmount, Burst, ClientQps, EventRate, KeyCount, ReconcileRate};
use workqueue_core::{
    ClientLimit, CrossplaneConfig, CrossplaneProfile, Instant, LimiterConfig, Manager, Outcome,
    QueueKind, ResultLabel, Scenario, Script, Simulation, Source, MILLISECOND, SECOND,
};

fn at_s(s: i64) -> Instant {
    Instant::T0 + s * SECOND
}

/// One controller under `profile` with R = `r`, every reconcile a success
/// taking `reconcile_ms`, on client-go's queue unless the profile says.
fn xp(profile: CrossplaneProfile, r: u32, reconcile_ms: i64) -> Scenario {
    let mut s = Scenario::new(profile.name());
    s.crossplane = Some(CrossplaneConfig {
        max_reconcile_rate: ReconcileRate::new(r).unwrap(),
        profile,
        breaker: None,
    });
    s.duration_ns = Span::lit(3600 * SECOND);
    let c = s.first_mut();
    c.controller.reconcile_ns = Span::lit(reconcile_ms * MILLISECOND);
    c.default_script = Script::Always {
        outcome: Outcome::Success,
    };
    s
}

/// The burst: 300 objects at t=0 (core on v2.2's priority queue).
fn burst(profile: CrossplaneProfile, reconcile_ms: i64) -> Simulation {
    let mut s = xp(profile, 10, reconcile_ms);
    s.first_mut().queue = QueueKind::Priority;
    s.first_mut()
        .sources
        .push(Source::add_many("xr-", KeyCount::lit(300)));
    Simulation::new(&s).unwrap()
}

#[test]
fn the_profile_defaults_to_the_2021_note_and_old_files_read_unchanged() {
    let text = r#"{"version": 2, "controllers": [{}], "crossplane": {"max_reconcile_rate": 4}}"#;
    let s = Scenario::from_json(text).unwrap();
    let cp = s.crossplane.unwrap();
    assert_eq!(cp.profile, CrossplaneProfile::Note2021);
    assert_eq!(cp, CrossplaneConfig::note_2021(ReconcileRate::lit(4)));
    // Written back without the field: files, links and digests stay as they were.
    let json = serde_json::to_string(&s).unwrap();
    assert!(
        json.contains(r#""crossplane":{"max_reconcile_rate":4}"#),
        "{json}"
    );
    for (name, profile) in [
        ("provider", CrossplaneProfile::Provider),
        ("core", CrossplaneProfile::Core),
    ] {
        let text = format!(
            r#"{{"version": 2, "controllers": [{{}}], "crossplane": {{"max_reconcile_rate": 4, "profile": "{name}"}}}}"#
        );
        let s = Scenario::from_json(&text).unwrap();
        assert_eq!(s.crossplane.unwrap().profile, profile);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(&format!(r#""profile":"{name}""#)), "{json}");
    }
}

#[test]
fn an_unknown_profile_is_refused_by_name() {
    let text = r#"{"version": 2, "controllers": [{}], "crossplane": {"max_reconcile_rate": 4, "profile": "v2"}}"#;
    let e = Scenario::from_json(text).unwrap_err();
    assert_eq!(e.field, "crossplane.profile", "{e}");
    assert!(e.reason.contains("note-2021"), "{e}");
    // R is still bounded by the worker limit under every profile.
    let text = r#"{"version": 2, "controllers": [{}], "crossplane": {"max_reconcile_rate": 5000, "profile": "core"}}"#;
    let e = Scenario::from_json(text).unwrap_err();
    assert_eq!(e.field, "crossplane.max_reconcile_rate", "{e}");
}

#[test]
fn where_each_part_comes_from() {
    let per_object = |max_s: i64| LimiterConfig::Exponential {
        base_ns: Span::lit(SECOND),
        max_ns: Span::lit(max_s * SECOND),
    };
    let client_50_100: Option<workqueue_core::ClientRate> =
        Some(ClientLimit::per_kind(ClientQps::lit(50.0), Burst::lit(100)).into());
    let cases = [
        // profile, queue, limiter, client, global bucket, breaker
        (
            CrossplaneProfile::Note2021,
            QueueKind::ClientGo,
            per_object(60),
            client_50_100,
            true,
            false,
        ),
        (
            CrossplaneProfile::Provider,
            QueueKind::Priority,
            per_object(60),
            client_50_100,
            true,
            false,
        ),
        // Core takes the controller's queue: client-go's here (v2.1.x).
        (
            CrossplaneProfile::Core,
            QueueKind::ClientGo,
            per_object(30),
            None,
            false,
            true,
        ),
    ];
    for (profile, queue, limiter, client, global, breaker) in cases {
        let mut s = xp(profile, 10, 0);
        // A second controller: each has its own pool of R workers.
        let mut other = s.first().clone();
        other.name = "other".into();
        s.controllers.push(other);
        assert_eq!(s.client_limit(), client, "{profile:?}");
        let m = Manager::new(&s).unwrap();
        for (_, c) in m.controllers() {
            assert_eq!(c.queue().kind(), queue, "{profile:?}");
            assert_eq!(c.limiter_config(), &limiter, "{profile:?}");
            assert_eq!(c.workers().len(), 10, "{profile:?}");
            assert_eq!(c.middleware().is_some(), global, "{profile:?}");
            assert_eq!(c.breaker().is_some(), breaker, "{profile:?}");
        }
        let (global_level, _) = m.shared_levels();
        assert_eq!(global_level, global.then_some(100.0), "{profile:?}");
        // One client bucket per kind (each controller's), or none at all.
        let buckets = if client.is_some() { 2 } else { 0 };
        assert_eq!(m.client_levels().len(), buckets, "{profile:?}");
    }
}

#[test]
fn only_a_provider_of_today_forces_the_priority_queue() {
    for (profile, on_priority) in [
        (CrossplaneProfile::Note2021, QueueKind::Priority),
        (CrossplaneProfile::Provider, QueueKind::Priority),
        (CrossplaneProfile::Core, QueueKind::Priority),
    ] {
        let mut s = xp(profile, 10, 0);
        s.first_mut().queue = QueueKind::Priority;
        assert_eq!(s.queue_kind(s.first()), on_priority, "{profile:?}");
        s.first_mut().queue = QueueKind::ClientGo;
        let on_client_go = match profile {
            CrossplaneProfile::Provider => QueueKind::Priority,
            _ => QueueKind::ClientGo,
        };
        assert_eq!(s.queue_kind(s.first()), on_client_go, "{profile:?}");
    }
}

#[test]
fn the_2021_note_lets_100_through_then_10_a_second() {
    let mut sim = burst(CrossplaneProfile::Note2021, 0);
    sim.run_until(Instant::T0);
    // A burst of 10R = 100 reach the reconciler; 200 are told RequeueAfter
    // 100ms, 200ms, … 20s, and come back with their token paid.
    assert_eq!(sim.inner_reconciles(), 100);
    sim.run_until(at_s(60));
    assert_eq!(sim.inner_reconciles(), 300);
    assert_eq!(sim.converged_at(), Some(at_s(20)));
    // Each deferred object went through the queue twice.
    assert_eq!(sim.controller_metrics().total(ResultLabel::Success), 300);
    assert_eq!(
        sim.controller_metrics().total(ResultLabel::RequeueAfter),
        200
    );
}

#[test]
fn a_provider_today_runs_the_same_design_on_the_priority_queue() {
    let mut sim = burst(CrossplaneProfile::Provider, 0);
    assert_eq!(sim.queue().kind(), QueueKind::Priority);
    sim.run_until(Instant::T0);
    assert_eq!(sim.inner_reconciles(), 100);
    sim.run_until(at_s(60));
    assert_eq!(sim.inner_reconciles(), 300);
    assert_eq!(sim.converged_at(), Some(at_s(20)));
}

#[test]
fn core_has_no_global_bucket_only_its_workers() {
    // Instant reconciles: nothing holds the 300 back.
    let mut sim = burst(CrossplaneProfile::Core, 0);
    sim.run_until(Instant::T0);
    assert_eq!(sim.inner_reconciles(), 300);
    assert_eq!(sim.converged_at(), Some(Instant::T0));
    // 100ms each: 10 workers take 10 at a time, 30 rounds, 3s.
    let mut sim = burst(CrossplaneProfile::Core, 100);
    sim.run_until(at_s(60));
    assert_eq!(sim.inner_reconciles(), 300);
    assert_eq!(sim.converged_at(), Some(at_s(3)));
    // Creates are Allowed by the breaker: each XR starts with a full bucket.
    let m = sim.breaker().unwrap().metrics();
    assert_eq!((m.allowed, m.dropped, m.opens), (300, 0, 0));
    assert_eq!(sim.breaker().unwrap().tracked(), 300);
}

/// Reconciles of one always-failing object in the first 100s.
fn failing_one(profile: CrossplaneProfile) -> u64 {
    let mut s = xp(profile, 10, 0);
    s.first_mut().default_script = Script::Always {
        outcome: Outcome::Error,
    };
    s.first_mut()
        .sources
        .push(Source::add_many("xr-", KeyCount::lit(1)));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(at_s(100));
    sim.controller_metrics().total(ResultLabel::Error)
}

#[test]
fn core_backs_off_1s_to_30s_a_provider_1s_to_60s() {
    // Core: at 0, 1, 3, 7, 15, 31, then every 30s: 61, 91.
    assert_eq!(failing_one(CrossplaneProfile::Core), 8);
    // A provider: 0, 1, 3, 7, 15, 31, 63 (the next at 123).
    assert_eq!(failing_one(CrossplaneProfile::Provider), 7);
    assert_eq!(failing_one(CrossplaneProfile::Note2021), 7);
}

/// Updates of `xr-hot` at 10 a second for `secs` seconds from t=0.
fn updates_of_xr_hot(secs: i64) -> Source {
    Source::WatchEvents {
        key: "xr-hot".into(),
        per_second: EventRate::lit(10.0),
        start_ns: Span::lit(workqueue_core::Duration::ZERO),
        duration_ns: Span::lit(secs * SECOND),
    }
}

/// What the log says of the breaker: `ns description` per transition.
fn circuit_log(sim: &Simulation) -> Vec<String> {
    sim.log()
        .iter()
        .filter(|e| matches!(e.event, workqueue_core::SimEvent::Circuit { .. }))
        .map(|e| format!("{} {}", e.at.as_nanos(), sim.describe(e)))
        .collect()
}

/// A hot loop: Updates of one XR at 10 a second for 10 minutes.
fn hot_loop(profile: CrossplaneProfile) -> Simulation {
    let mut s = xp(profile, 10, 0);
    s.first_mut().sources.push(updates_of_xr_hot(600));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(at_s(600));
    sim
}

#[test]
fn the_2021_bucket_lets_a_hot_loop_of_10_a_second_run() {
    // R = 10: the global bucket refills as fast as the loop spends it.
    let sim = hot_loop(CrossplaneProfile::Note2021);
    assert_eq!(sim.inner_reconciles(), 6000);
    let sim = hot_loop(CrossplaneProfile::Provider);
    assert_eq!(sim.inner_reconciles(), 6000);
}

#[test]
fn core_s_breaker_stops_a_hot_loop_on_either_queue() {
    let sim = hot_loop(CrossplaneProfile::Core);
    assert_eq!(sim.queue().kind(), QueueKind::ClientGo, "as v2.1.x");
    assert_eq!(sim.inner_reconciles(), 124);
    let mut s = sim.spec().clone();
    s.queue = QueueKind::Priority;
    let mut on_priority = Scenario::of("core v2.2", vec![s]);
    on_priority.crossplane = Some(CrossplaneConfig {
        max_reconcile_rate: ReconcileRate::lit(10),
        profile: CrossplaneProfile::Core,
        breaker: None,
    });
    on_priority.duration_ns = Span::lit(3600 * SECOND);
    let mut sim = Simulation::new(&on_priority).unwrap();
    sim.run_until(at_s(600));
    assert_eq!(sim.queue().kind(), QueueKind::Priority);
    // Each Update costs two tokens and 100ms refills 0.1: 98 − 1.9k after
    // update k. Update 52 (5.2s) finds 1.2: its first call takes one, its
    // second opens the circuit; 53 updates enqueued. Probes strictly after
    // the last one let through + 30s: 35.3s, 65.4s, … 276.1s (9). The first
    // event at 5.2s + 5m closes it (305.2s: its first call dropped, its
    // second allowed), and the cycle repeats: open again at 310.4s, 9 probes
    // to 581.3s. 2 × (53 + 9) = 124 reconciles of 6000 events.
    assert_eq!(sim.inner_reconciles(), 124);
    let b = sim.breaker().unwrap();
    let m = b.metrics();
    assert_eq!((m.opens, m.closes), (2, 1));
    assert_eq!(
        (m.allowed, m.half_open_allowed, m.dropped),
        (211, 18, 11_771)
    );
    let hot = sim.find("xr-hot").unwrap();
    let state = b.state(&hot);
    assert!(state.open);
    assert_eq!(
        state.next_allowed_at,
        Some(Instant::T0 + 581_300 * MILLISECOND + 30 * SECOND)
    );
    // The log says when it opened and closed.
    let said = circuit_log(&sim);
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(said[0].starts_with("5200000000 circuit breaker for \"xr-hot\": opened"));
    assert!(said[1].starts_with("305200000000 circuit breaker for \"xr-hot\": closed"));
    assert!(said[2].starts_with("310400000000 circuit breaker for \"xr-hot\": opened"));
}

#[test]
fn the_breaker_is_per_xr_and_never_sees_requeues() {
    // The hot XR and 300 others: the others' Creates are allowed while the
    // hot one's circuit is open.
    let mut s = xp(CrossplaneProfile::Core, 10, 0);
    s.first_mut().sources.push(updates_of_xr_hot(600));
    s.first_mut().sources.push(Source::AddMany {
        prefix: "xr-".into(),
        count: KeyCount::lit(300),
        at_ns: Span::lit(10 * SECOND),
        script: Some(Script::Always {
            outcome: Outcome::RequeueAfter {
                after_ns: Span::lit(SECOND),
            },
        }),
    });
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(at_s(20));
    // The 300 are polled every second from 10s: 11 passes each by 20s,
    // none of them through the breaker, which saw one Create each.
    let hot = sim.find("xr-hot").unwrap();
    assert!(sim.breaker().unwrap().state(&hot).open);
    assert_eq!(sim.inner_reconciles(), 53 + 300 * 11);
    let m = sim.breaker().unwrap().metrics();
    assert_eq!(m.allowed, 106 + 300);
    // The stage: three rows; the open XR first, refilled to what its next
    // event finds (0.2 left when it opened at 5.2s, +1/s since: 15), and
    // closable from 5.2s + 5m; then closed ones, fewest tokens, by key.
    let v = sim.breaker_view(3).unwrap();
    assert_eq!((v.rows, v.tracked, v.open), (3, 301, 1));
    assert_eq!(v.targets[0].key, "xr-hot");
    assert!(
        (v.targets[0].tokens - 15.0).abs() < 1e-9,
        "{}",
        v.targets[0].tokens
    );
    assert_eq!(
        v.targets[0].closes_from,
        Some(Instant::T0 + 305_200 * MILLISECOND)
    );
    assert!(v.targets[1..]
        .iter()
        .all(|t| t.closes_from.is_none() && t.tokens == 100.0));
    assert!(v.targets[1].key < v.targets[2].key);
    assert_eq!((v.allowed, v.dropped), (m.allowed, m.dropped));
}

/// Core's three breaker flags, as a scenario names them: v2.1.0's burst 50
/// and half a token a second open the circuit on the same hot loop at 2.5s
/// (before Update k the XR holds 50 − 1.95k tokens: Update 25 finds 1.25,
/// takes one and opens on its second call), and a 90s cooldown closes it at
/// the first event 90s later, 92.5s.
#[test]
fn core_s_breaker_flags_are_the_scenario_s() {
    let mut s = xp(CrossplaneProfile::Core, 10, 0);
    s.crossplane = Some(CrossplaneConfig {
        breaker: Some(workqueue_core::BreakerFlags {
            burst: BreakerAmount::lit(50.0),
            refill_per_second: BreakerAmount::lit(0.5),
            cooldown: Span::lit(90 * SECOND),
        }),
        ..s.crossplane.unwrap()
    });
    s.first_mut().sources.push(updates_of_xr_hot(100));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(at_s(100));
    let said = circuit_log(&sim);
    assert!(
        said[0].starts_with("2500000000 circuit breaker for \"xr-hot\": opened"),
        "{said:?}"
    );
    assert!(
        said[1].starts_with("92500000000 circuit breaker for \"xr-hot\": closed"),
        "{said:?}"
    );
    // The flags round-trip through a file; the defaults are not written.
    let back = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(back.crossplane, s.crossplane);
    let plain = xp(CrossplaneProfile::Core, 10, 0);
    assert!(!plain.to_json().contains("breaker"));
}

/// Only core has the breaker; its numbers are refused by field when they
/// mean nothing.
#[test]
fn breaker_flags_are_refused_by_name_where_they_mean_nothing() {
    use workqueue_core::BreakerFlags;
    let flags = BreakerFlags {
        burst: BreakerAmount::lit(10.0),
        refill_per_second: BreakerAmount::lit(1.0),
        cooldown: Span::lit(SECOND),
    };
    let mut s = xp(CrossplaneProfile::Provider, 10, 0);
    s.crossplane = Some(CrossplaneConfig {
        breaker: Some(flags),
        ..s.crossplane.unwrap()
    });
    let e = s.validate().unwrap_err();
    assert_eq!(e.field, "crossplane.breaker");
    assert!(e.reason.contains("only Crossplane core"), "{}", e.reason);
    // Its numbers are refused as they are read, at their path.
    for (breaker, field) in [
        (
            r#"{"burst": 2e9, "refill_per_second": 1, "cooldown": "1s"}"#,
            "crossplane.breaker.burst",
        ),
        (
            r#"{"burst": 10, "refill_per_second": -1, "cooldown": "1s"}"#,
            "crossplane.breaker.refill_per_second",
        ),
    ] {
        let text = format!(
            r#"{{"version": 2, "crossplane": {{"max_reconcile_rate": 10, "profile": "core", "breaker": {breaker}}}, "controllers": [{{}}]}}"#
        );
        let e = Scenario::from_json(&text).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.reason.contains("use 0 to 1e9"), "{e}");
    }
    // Its cooldown too, by its type.
    let text = r#"{"version": 2, "crossplane": {"max_reconcile_rate": 10, "profile": "core", "breaker": {"burst": 10, "refill_per_second": 1, "cooldown": "-1s"}}, "controllers": [{}]}"#;
    let e = Scenario::from_json(text).unwrap_err();
    assert_eq!(e.field, "crossplane.breaker.cooldown", "{e}");
    assert!(e.reason.contains("use 0s to"), "{e}");
}
