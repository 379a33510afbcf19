//! A controller manager: controllers that share a bucket take tokens from
//! one pool, Crossplane's provider shares its global bucket and its API
//! client across kinds, the client waits with x/time/rate's arithmetic, and
//! a one-controller file runs exactly as before.

use workqueue_core::{At, Span};
use workqueue_core::{
    BucketSpec, ClientLimit, ClientPlan, ClientScope, ControllerConfig, ControllerSpec, Draw,
    Source,
};
use workqueue_core::{Burst, ClientQps, Failures, KeyCount, Qps, ReconcileRate, Requests, Workers};
use workqueue_core::{CrossplaneConfig, Outcome, Script};
use workqueue_core::{
    Duration, Instant, LimiterConfig, Manager, Scenario, Simulation, TokenBucket, MILLISECOND,
    SECOND,
};

fn kind(name: &str, count: u64, script: Script) -> ControllerSpec {
    ControllerSpec {
        name: name.into(),
        queue: Default::default(),
        limiter: Some(LimiterConfig::Exponential {
            base_ns: Span::lit(5 * MILLISECOND),
            max_ns: Span::lit(1000 * SECOND),
        }),
        controller: ControllerConfig::default(),
        default_script: script,
        items: Vec::new(),
        sources: vec![Source::add_many(
            &format!("{name}-"),
            KeyCount::new(count).unwrap(),
        )],
        requests_per_reconcile: Requests::lit(0),
        kind: String::new(),
        writes: Default::default(),
        errors_write_nothing: false,
        failure_writes: None,
        shares_bucket: false,
    }
}

/// `s` as a manager, run for its first minute.
fn a_minute_of(s: &Scenario) -> Manager {
    let mut m = Manager::new(s).unwrap();
    m.run_until(Instant::T0 + 60 * SECOND);
    m
}

/// When each controller converged (every one has).
fn converged(m: &Manager) -> Vec<Instant> {
    m.controllers()
        .map(|(_, c)| c.converged_at().unwrap())
        .collect()
}

#[test]
fn two_controllers_passed_the_same_bucket_take_tokens_from_one_pool() {
    let mut s = Scenario::of("shared", Vec::new());
    s.shared_bucket = Some(BucketSpec {
        qps: Qps::lit(10.0),
        burst: Burst::lit(100),
    });
    let fail_once = Script::FailThenSucceed {
        failures: Failures::lit(1),
    };
    for name in ["a", "b"] {
        let mut c = kind(name, 80, fail_once.clone());
        c.shares_bucket = true;
        s.controllers.push(c);
    }
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0);
    // 160 failures at t=0 against one bucket of 100: 60 in debt.
    let (_, shared) = m.shared_levels();
    assert_eq!(shared, Some(-60.0));
    // The two controllers' workers take turns: 60 keys wait on the shared
    // debt, 30 of each (the others wait out their own 5ms backoff).
    let on_bucket: Vec<usize> = m
        .controllers()
        .map(|(_, c)| c.bucket_view(m.buckets()).unwrap().waiting_on_bucket)
        .collect();
    assert_eq!(
        on_bucket,
        vec![30, 30],
        "their goroutines interleave: they split the debt"
    );
    // Apart, each would have had its own 100 tokens: nobody waits.
    let mut alone = s.clone();
    alone
        .controllers
        .iter_mut()
        .for_each(|c| c.shares_bucket = false);
    for c in &mut alone.controllers {
        c.limiter = Some(LimiterConfig::MaxOf {
            limiters: vec![
                LimiterConfig::Bucket {
                    qps: Qps::lit(10.0),
                    burst: Burst::lit(100),
                },
                c.limiter.clone().unwrap(),
            ],
        });
    }
    let mut apart = Manager::new(&alone).unwrap();
    apart.run_until(Instant::T0);
    assert!(apart.controllers().all(|(_, c)| c
        .bucket_view(apart.buckets())
        .unwrap()
        .waiting_on_bucket
        == 0));
}

#[test]
fn a_crossplane_provider_shares_its_global_bucket_and_client_across_kinds() {
    let mut s = Scenario::of("provider", Vec::new());
    s.crossplane = Some(CrossplaneConfig::note_2021(ReconcileRate::lit(10)));
    for name in ["buckets", "queues", "topics"] {
        s.controllers.push(kind(
            name,
            100,
            Script::Always {
                outcome: Outcome::Success,
            },
        ));
    }
    let mut m = Manager::new(&s).unwrap();
    // The seeds' numbers at the manager level: 10 workers per controller,
    // one global bucket of 10/s with a burst of 100, a 50 qps / 100 client.
    assert!(m.controllers().all(|(_, c)| c.workers().len() == 10));
    assert_eq!(m.shared_levels(), (Some(100.0), None));
    m.run_until(Instant::T0);
    // 300 objects at t=0: the one global bucket lets 100 through and defers
    // 200 with a paid reservation, however the objects split across kinds.
    let (global, _) = m.shared_levels();
    assert_eq!(global, Some(-200.0));
    let inner: u64 = m.controllers().map(|(_, c)| c.inner_reconciles()).sum();
    assert_eq!(inner, 100);
    m.run_until(Instant::T0 + 60 * SECOND);
    // The deferred ones come back at 10 a second: the provider converges
    // after 20s, not after 20s per kind.
    let inner: u64 = m.controllers().map(|(_, c)| c.inner_reconciles()).sum();
    assert_eq!(inner, 300);
    let converged = m
        .controllers()
        .filter_map(|(_, c)| c.converged_at())
        .max()
        .unwrap();
    assert_eq!(converged, Instant::T0 + 20 * SECOND);
}

#[test]
fn the_client_waits_with_x_time_rate_arithmetic() {
    let mut s = Scenario::new("client");
    s.client = Some(ClientLimit::per_kind(ClientQps::lit(5.0), Burst::lit(2)));
    s.controllers[0].requests_per_reconcile = Requests::lit(3);
    s.controllers[0].controller.workers = Workers::lit(2);
    s.controllers[0].controller.reconcile_ns = Span::lit(10 * MILLISECOND);
    s.controllers[0].default_script = Script::Always {
        outcome: Outcome::Success,
    };
    s.controllers[0]
        .sources
        .push(Source::add_many("k", KeyCount::lit(2)));
    let mut m = Manager::new(&s).unwrap();
    m.run_to_end();
    // The same reservations by hand: 6 requests at t=0.
    let mut b = TokenBucket::new(5.0, 2);
    let delays: Vec<Duration> = (0..6).map(|_| b.reserve_delay(Instant::T0)).collect();
    let waited = delays[2] + delays[5];
    assert_eq!(m.client_totals(), (6, waited));
    let (_, c) = m.controllers().next().unwrap();
    let log: Vec<String> = {
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_to_end();
        sim.log().iter().map(|e| sim.describe(e)).collect()
    };
    assert!(
        log.iter()
            .any(|l| l.contains("Waited for 200ms due to client-side throttling")),
        "{log:?}"
    );
    assert_eq!(
        c.converged_at(),
        Some(Instant::T0 + delays[5] + 10 * MILLISECOND)
    );
}

#[test]
fn a_one_controller_file_runs_exactly_as_before() {
    let s = Scenario::failing_keys(LimiterConfig::DefaultController, KeyCount::lit(500));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    let mut m = Manager::new(&s).unwrap();
    m.run_to_end();
    assert_eq!(m.digest(), sim.digest());
}

#[test]
fn a_manager_is_validated_by_field() {
    let mut s = Scenario::of("bad", Vec::new());
    s.controllers.push(kind("a", 1, Script::default()));
    s.controllers.push(kind("a", 1, Script::default()));
    assert_eq!(s.validate().unwrap_err().field, "controllers[1].name");
    s.controllers[1].name = "b".into();
    s.controllers[1].shares_bucket = true;
    assert_eq!(
        s.validate().unwrap_err().field,
        "controllers[1].shares_bucket"
    );
    // Numbers out of their range are refused as the file is read.
    let read = |manager: &str, second: &str| {
        Scenario::from_json(&format!(
            r#"{{"version": 2, {manager} "controllers": [{{"name": "a"}}, {second}]}}"#
        ))
        .unwrap_err()
    };
    let e = read("", r#"{"name": "b", "controller": {"workers": 0}}"#);
    assert_eq!(e.field, "controllers[1].controller.workers");
    for qps in ["-1", "0"] {
        let e = read(
            &format!(r#""client": {{"qps": {qps}, "burst": 10}},"#),
            "{}",
        );
        assert_eq!(e.field, "client.qps", "a client that never refills: {e}");
    }
}

/// A manager of one is its controller: the same digest, and the controller
/// read out of it shows the buckets as they stand (Crossplane's global
/// bucket, the client), so it can run on alone exactly as a Simulation.
#[test]
fn a_manager_of_one_is_exactly_its_controller() {
    let mut s = Scenario::new("one");
    s.crossplane = Some(CrossplaneConfig::note_2021(ReconcileRate::lit(1)));
    s.controllers[0].default_script = Script::Always {
        outcome: Outcome::Error,
    };
    s.controllers[0].requests_per_reconcile = Requests::lit(2);
    s.controllers[0]
        .sources
        .push(Source::add_many("obj-", KeyCount::lit(20)));
    let mut plain = Simulation::new(&s).unwrap();
    let mut managed = Manager::new(&s).unwrap();
    for d in [Duration::ZERO, 500 * MILLISECOND, 3 * SECOND, 10 * SECOND] {
        let t = Instant::T0 + d;
        plain.run_until(t);
        managed.run_until(t);
        let c = managed.controller(0).unwrap();
        let tokens = c.bucket_tokens_at(managed.buckets(), t);
        assert_eq!(tokens, plain.bucket_tokens_at(t), "at {t:?}");
        assert_eq!(c.digest(), plain.digest(), "at {t:?}");
    }
    // Taken out of the manager, the controller runs on as the plain one.
    let mut alone = managed.controller_alone(0).unwrap();
    alone.run_until(Instant::T0 + 30 * SECOND);
    plain.run_until(Instant::T0 + 30 * SECOND);
    assert_eq!(alone.digest(), plain.digest());
}

/// Two kinds at 5 qps / burst 10, 100 writes each at once. controller-
/// runtime's client gives each kind's REST client its own bucket: each
/// kind's 100th request goes at 10 + 90 × 200 ms = 18 s, side by side. One
/// bucket for both (a clientset, an explicit `Config.RateLimiter`): the
/// 200th goes at (200 − 10) × 200 ms = 38 s.
#[test]
fn the_client_limits_each_kind_on_its_own_unless_told_to_share() {
    let run = |per: ClientScope| {
        let mut s = Scenario::of("kinds", two_kinds_of_100());
        s.client = Some(ClientLimit {
            qps: ClientQps::lit(5.0),
            burst: Burst::lit(10),
            per,
        });
        for c in &mut s.controllers {
            c.requests_per_reconcile = Requests::lit(1);
            c.controller.workers = Workers::lit(100);
            c.controller.reconcile_ns = Span::lit(Duration::ZERO);
        }
        s.duration_ns = Span::lit(60 * SECOND);
        let m = a_minute_of(&s);
        let converged = converged(&m);
        (converged, m.client_levels().len(), m.client_totals().0)
    };
    let (per_kind, buckets, requests) = run(ClientScope::Kind);
    assert_eq!((buckets, requests), (2, 200));
    assert_eq!(
        per_kind,
        vec![Instant::T0 + 18 * SECOND, Instant::T0 + 18 * SECOND],
        "each kind on its own bucket"
    );
    let (shared, buckets, _) = run(ClientScope::Shared);
    assert_eq!(buckets, 1);
    assert_eq!(
        *shared.iter().max().unwrap(),
        Instant::T0 + 38 * SECOND,
        "one bucket for both"
    );
    // Two controllers that write the same kind share its bucket.
    let mut s = Scenario::of(
        "same",
        vec![
            kind("a", 1, Script::default()),
            kind("b", 1, Script::default()),
        ],
    );
    s.controllers[1].kind = "a".into();
    s.client = Some(ClientLimit::per_kind(ClientQps::lit(5.0), Burst::lit(10)));
    let plan = ClientPlan::of(&s);
    assert_eq!(plan.kinds, vec![vec!["a".to_string()]]);
    assert_eq!(
        plan.draws,
        vec![
            vec![Draw {
                bucket: 0,
                requests: 0
            }];
            2
        ]
    );
}

/// Requests by kind. Controller a writes its own kind once and a Secret
/// once per reconcile; b only writes a Secret. With a bucket per kind, a's
/// own bucket serves 100 requests (done at 18 s) but the Secret bucket
/// serves 200: each reconcile waits for its slowest bucket, so both finish
/// by 38 s, and the Secret kind carries 200 requests in the summary. b's own
/// kind, which it never writes, sends none.
#[test]
fn writes_to_another_kind_draw_from_that_kinds_bucket() {
    let mut s = Scenario::of("writes", two_kinds_of_100());
    s.client = Some(ClientLimit::per_kind(ClientQps::lit(5.0), Burst::lit(10)));
    for c in &mut s.controllers {
        c.controller.workers = Workers::lit(100);
        c.controller.reconcile_ns = Span::lit(Duration::ZERO);
        c.writes.insert("Secret".into(), Requests::lit(1));
    }
    s.controllers[0].requests_per_reconcile = Requests::lit(1);
    s.duration_ns = Span::lit(60 * SECOND);
    let plan = ClientPlan::of(&s);
    assert_eq!(
        plan.kinds,
        vec![
            vec!["a".to_string()],
            vec!["Secret".to_string()],
            vec!["b".to_string()]
        ]
    );
    assert_eq!(
        plan.draws[0],
        vec![
            Draw {
                bucket: 0,
                requests: 1
            },
            Draw {
                bucket: 1,
                requests: 1
            }
        ]
    );
    assert_eq!(
        plan.draws[1],
        vec![
            Draw {
                bucket: 2,
                requests: 0
            },
            Draw {
                bucket: 1,
                requests: 1
            }
        ]
    );
    let m = a_minute_of(&s);
    let converged = converged(&m);
    assert_eq!(*converged.iter().max().unwrap(), Instant::T0 + 38 * SECOND);
    let summary = workqueue_core::Summary::of(&m);
    let by_kind: Vec<(String, u64)> = summary
        .requests
        .iter()
        .map(|k| (k.kind.clone(), k.requests))
        .collect();
    assert_eq!(
        by_kind,
        vec![("a".to_string(), 100), ("Secret".to_string(), 200)]
    );
    // Without the Secret writes, a's own kind alone is done at 18 s.
    for c in &mut s.controllers {
        c.writes.clear();
    }
    let m = a_minute_of(&s);
    assert_eq!(
        m.controllers().next().unwrap().1.converged_at(),
        Some(Instant::T0 + 18 * SECOND)
    );
}

/// A write's kind is named in the field path when it is refused.
#[test]
fn a_write_with_no_kind_or_too_many_requests_is_refused_by_field() {
    let mut s = Scenario::of("w", vec![kind("a", 1, Script::default())]);
    s.controllers[0]
        .writes
        .insert(String::new(), Requests::lit(1));
    let e = s.validate().unwrap_err();
    assert_eq!(e.field, "controllers[0].writes.");
    s.controllers[0].writes.clear();
    s.controllers[0]
        .writes
        .insert("Secret".into(), Requests::lit(600));
    s.controllers[0]
        .writes
        .insert("ConfigMap".into(), Requests::lit(600));
    let e = s.validate().unwrap_err();
    assert_eq!(e.field, "controllers[0].writes");
    assert!(e.reason.contains("1200 requests"), "{}", e.reason);
}

/// Where errors write nothing, a reconcile that fails sends none of its
/// requests: through a 5 s outage, only the successes write, and the
/// client's bucket is not drained by failures. Otherwise every reconcile
/// sends them.
#[test]
fn where_errors_write_nothing_only_successes_send_requests() {
    let run = |errors_write_nothing: bool| {
        let mut s = Scenario::of(
            "outage",
            vec![kind(
                "a",
                20,
                Script::Outage {
                    from_ns: At::lit(Instant::T0),
                    until_ns: At::lit(Instant::T0 + 5 * SECOND),
                    otherwise: Outcome::Success,
                },
            )],
        );
        s.client = Some(ClientLimit::per_kind(ClientQps::lit(5.0), Burst::lit(10)));
        let c = &mut s.controllers[0];
        c.controller.workers = Workers::lit(4);
        c.controller.reconcile_ns = Span::lit(10 * workqueue_core::MILLISECOND);
        c.requests_per_reconcile = Requests::lit(1);
        c.writes.insert("Secret".into(), Requests::lit(2));
        c.errors_write_nothing = errors_write_nothing;
        let m = a_minute_of(&s);
        let sim = m.controllers().next().unwrap().1;
        let snapshot = sim.metrics_snapshot();
        let all = sim.inner_reconciles();
        (sim.requests_by_kind(), all, snapshot, m.client_totals())
    };
    let (by_kind, all, metrics, _) = run(true);
    // reconcile_total is [error, requeue_after, requeue, success].
    let successes = metrics.controller.reconcile_total[3];
    assert_eq!(successes, 20, "every key converged");
    assert!(all > successes, "there were failures: {all}");
    assert_eq!(
        by_kind,
        vec![
            ("a".to_string(), successes),
            ("Secret".to_string(), 2 * successes)
        ]
    );
    let (by_kind, all, _, _) = run(false);
    assert_eq!(
        by_kind,
        vec![("a".to_string(), all), ("Secret".to_string(), 2 * all)]
    );
}

/// Controllers `a` and `b`, 100 keys each, every reconcile a success.
fn two_kinds_of_100() -> Vec<ControllerSpec> {
    ["a", "b"]
        .map(|name| {
            kind(
                name,
                100,
                Script::Always {
                    outcome: Outcome::Success,
                },
            )
        })
        .to_vec()
}
