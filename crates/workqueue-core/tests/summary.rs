//! The numbers an author asks of a run, against figures computed by hand.

use workqueue_core::{At, Span};
use workqueue_core::{Burst, ClientQps, EventRate, Failures, KeyCount, Qps, Requests, Workers};
use workqueue_core::{ClientLimit, ClientScope, Source};
use workqueue_core::{Duration, Instant};
use workqueue_core::{Input, LimiterConfig, Manager, Scenario, MILLISECOND, SECOND};
use workqueue_core::{Outcome, Script};
use workqueue_core::{Spread, Summary};

fn one(script: Script, limiter: LimiterConfig) -> Scenario {
    let mut s = Scenario::new("one");
    let c = s.first_mut();
    c.default_script = script;
    c.limiter = Some(limiter);
    s
}

const BACKOFF: LimiterConfig = LimiterConfig::Exponential {
    base_ns: Span::lit(Duration::from_nanos(5 * MILLISECOND.as_nanos())),
    max_ns: Span::lit(Duration::from_nanos(1000 * SECOND.as_nanos())),
};

#[test]
fn a_spread_of_nothing_is_none_and_ranks_are_measured_values() {
    assert_eq!(Spread::of(Vec::new()), None);
    let s = Spread::of(vec![
        Duration::from_nanos(3),
        Duration::from_nanos(1),
        Duration::from_nanos(2),
    ])
    .unwrap();
    let ns = Duration::from_nanos;
    assert_eq!((s.p50, s.p95, s.max), (ns(2), ns(3), ns(3)));
}

/// Three failures under a 5 ms exponential backoff: the key converges 35 ms
/// after its add (5 + 10 + 20), all of it spent backing off.
#[test]
fn a_failing_key_spends_its_time_backing_off() {
    let s = one(
        Script::FailThenSucceed {
            failures: Failures::lit(3),
        },
        BACKOFF,
    );
    let mut m = Manager::new(&s).unwrap();
    m.apply(0, Input::Add { key: "a".into() }).unwrap();
    m.run_until(Instant::T0 + SECOND);
    let sum = Summary::of(&m);
    assert_eq!((sum.keys, sum.converged_keys), (1, 1));
    let t = 35 * MILLISECOND;
    assert_eq!(
        sum.time_to_converge,
        Some(Spread {
            p50: t,
            p95: t,
            max: t
        })
    );
    assert_eq!(sum.time_spent.backoff, t);
    assert_eq!(
        sum.time_spent.bucket + sum.time_spent.requeue_after + sum.time_spent.client,
        Duration::ZERO
    );
    assert_eq!(sum.last_converged_at, Some(Instant::T0 + t));
    let rate = sum.reconciles_per_second;
    assert!(
        (rate - 4.0 / 0.035).abs() < 1e-9,
        "four reconciles in the 35 ms there was work: {rate}"
    );
}

/// A RequeueAfter's wait is its own cause; a bucket's wait is the bucket's.
#[test]
fn waits_are_told_apart_by_what_set_them() {
    let s = one(
        Script::Sequence {
            outcomes: vec![Outcome::RequeueAfter {
                after_ns: Span::lit(SECOND),
            }],
            then: Outcome::Success,
        },
        BACKOFF,
    );
    let mut m = Manager::new(&s).unwrap();
    m.apply(0, Input::Add { key: "a".into() }).unwrap();
    m.run_until(Instant::T0 + 2 * SECOND);
    let sum = Summary::of(&m);
    assert_eq!(sum.time_spent.requeue_after, SECOND);
    assert_eq!(sum.time_spent.backoff, Duration::ZERO);

    // A bucket of 1/s, burst 1: the second failure waits a whole second.
    let s = one(
        Script::FailThenSucceed {
            failures: Failures::lit(2),
        },
        LimiterConfig::Bucket {
            qps: Qps::lit(1.0),
            burst: Burst::lit(1),
        },
    );
    let mut m = Manager::new(&s).unwrap();
    m.apply(0, Input::Add { key: "a".into() }).unwrap();
    m.run_until(Instant::T0 + 5 * SECOND);
    let sum = Summary::of(&m);
    assert_eq!(sum.time_spent.bucket, SECOND);
    assert_eq!(sum.time_to_converge.unwrap().max, SECOND);
}

/// One worker, 100 keys at once: the queue holds 100, and the keys wait
/// their turn (0 + 10 + … + 990 ms with 10 ms reconciles).
#[test]
fn a_storm_fills_the_queue_and_keys_wait_their_turn() {
    let mut s = one(
        Script::Always {
            outcome: Outcome::Success,
        },
        BACKOFF,
    );
    s.first_mut().controller.reconcile_ns = Span::lit(10 * MILLISECOND);
    s.first_mut().sources = vec![Source::add_many("k-", KeyCount::lit(100))];
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 5 * SECOND);
    let sum = Summary::of(&m);
    assert_eq!(sum.deepest_queue, 100);
    assert_eq!(
        sum.time_spent.queued,
        (0..100).map(|i| i * 10 * MILLISECOND).sum::<Duration>()
    );
    assert_eq!(sum.time_spent.reconciling, 100 * 10 * MILLISECOND);
    let spread = sum.time_to_converge.unwrap();
    assert_eq!(
        (spread.p50, spread.p95, spread.max),
        (500 * MILLISECOND, 950 * MILLISECOND, SECOND)
    );
}

/// Two kinds at client-go's 5/10, 100 writes each: requests are counted per
/// kind, and the client's wait is where their time went.
#[test]
fn requests_are_counted_per_kind_and_the_client_wait_is_named() {
    let mut s = Scenario::new("kinds");
    let mut a = s.controllers[0].clone();
    a.name = "secrets".into();
    a.default_script = Script::Always {
        outcome: Outcome::Success,
    };
    a.requests_per_reconcile = Requests::lit(1);
    a.controller.workers = Workers::lit(100);
    a.sources = vec![Source::add_many("s-", KeyCount::lit(100))];
    let mut b = a.clone();
    b.name = "configmaps".into();
    b.sources = vec![Source::add_many("c-", KeyCount::lit(100))];
    s.controllers = vec![a, b];
    s.client = Some(ClientLimit {
        qps: ClientQps::lit(5.0),
        burst: Burst::lit(10),
        per: ClientScope::Kind,
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 20 * SECOND);
    let sum = Summary::of(&m);
    let kinds: Vec<_> = sum
        .requests
        .iter()
        .map(|k| (k.kind.as_str(), k.requests))
        .collect();
    assert_eq!(kinds, vec![("secrets", 100), ("configmaps", 100)]);
    assert!(
        (sum.requests[0].per_second - 100.0 / 18.0).abs() < 1e-9,
        "100 in the 18 s until the last converged: {sum:?}"
    );
    assert_eq!(sum.last_converged_at, Some(Instant::T0 + 18 * SECOND));
    assert_eq!(sum.time_to_converge.unwrap().max, 18 * SECOND);
    let (_, waited) = m.client_totals();
    assert_eq!(sum.time_spent.client, waited);
    assert!(waited > Duration::ZERO);
}

/// Time summed over many keys can pass what a duration holds (50,000 keys
/// waiting 84 h each is 479 years): the sums stop at the largest duration,
/// never wrap to a negative one or panic, in every controller and across
/// them.
#[test]
fn sums_past_292_years_saturate() {
    let mut s = Scenario::new("long waits");
    let c = s.first_mut();
    c.default_script = Script::Always {
        outcome: Outcome::RequeueAfter {
            after_ns: Span::lit(84 * 3600 * SECOND),
        },
    };
    c.sources = vec![Source::add_many("k-", KeyCount::lit(50_000))];
    let mut other = s.controllers[0].clone();
    other.name = "second".into();
    s.controllers.push(other);
    s.duration_ns = Span::lit(168 * 3600 * SECOND);
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 168 * 3600 * SECOND);
    let sum = Summary::of(&m);
    let spent = sum.time_spent;
    for d in [
        spent.queued,
        spent.backoff,
        spent.bucket,
        spent.requeue_after,
        spent.client,
        spent.reconciling,
    ] {
        assert!(d >= Duration::ZERO, "{spent:?}");
    }
    assert_eq!(spent.requeue_after, Duration::MAX, "{spent:?}");
}

/// Issue 48, item 5: keys pile up in the queue while every worker waits on
/// the API client: the summary names the client's limit (and its busiest
/// kind), not "queued"; and it has each kind's peak rate and a series.
#[test]
fn the_summary_names_the_client_limit_that_held_the_run_back() {
    let mut s = Scenario::new("held");
    s.client = Some(ClientLimit {
        qps: ClientQps::lit(5.0),
        burst: Burst::lit(10),
        per: ClientScope::Kind,
    });
    let c = s.first_mut();
    c.kind = "Widget".into();
    c.controller.workers = Workers::lit(4);
    c.writes.insert("Secret".into(), Requests::lit(2));
    c.sources.push(Source::AddMany {
        prefix: "w-".into(),
        count: KeyCount::lit(200),
        at_ns: Span::lit(Duration::ZERO),
        script: None,
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 120 * SECOND);
    let sum = Summary::of(&m);
    assert!(
        sum.time_spent.queued > sum.time_spent.client,
        "the keys' time shows as queued: {:?}",
        sum.time_spent
    );
    let held = sum.held_back_by.as_ref().expect("something held the run");
    assert_eq!(held.limit, "client");
    assert!(
        held.what.contains("5 qps, burst 10") && held.what.contains("Secret"),
        "{held:?}"
    );
    // Secret's bucket: its burst of 10 in the first second, then 5 a second
    // at most; its series says so, second by second.
    let secret = sum.requests.iter().find(|k| k.kind == "Secret").unwrap();
    assert_eq!(sum.request_series.width, SECOND);
    let series = per_second(&sum, "Secret");
    assert_eq!(
        secret.peak_per_second,
        series.iter().cloned().fold(0.0, f64::max)
    );
    assert!(secret.peak_per_second >= 10.0, "{secret:?}");
    assert!(series[10..60].iter().all(|r| *r <= 6.0), "{series:?}");
    let total: f64 = series.iter().sum();
    assert_eq!(total as u64, secret.requests);
}

/// A per-item backoff that holds keys through an outage is named as such.
#[test]
fn the_summary_names_the_backoff_of_an_outage() {
    let mut s = one(
        Script::Outage {
            from_ns: At::lit(Instant::T0 + 10 * SECOND),
            until_ns: At::lit(Instant::T0 + 100 * SECOND),
            otherwise: Outcome::Success,
        },
        BACKOFF,
    );
    s.first_mut().sources.push(Source::AddMany {
        prefix: "k-".into(),
        count: KeyCount::lit(20),
        at_ns: Span::lit(20 * SECOND),
        script: None,
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 600 * SECOND);
    let held = Summary::of(&m).held_back_by.unwrap();
    assert_eq!(held.limit, "backoff", "{held:?}");
    assert!(held.what.contains("exponential"), "{held:?}");
}

/// Issue 48, item 5: a failure that sends only some of its writes. Through
/// an outage each failing reconcile still updates its status (its own kind)
/// but never creates its Secret: the Secrets are those of the successes.
#[test]
fn a_failing_reconcile_sends_only_the_writes_it_still_makes() {
    let run = |failure_writes: Option<&[(&str, u32)]>| {
        let mut s = Scenario::new("partial");
        let c = s.first_mut();
        c.kind = "Widget".into();
        c.requests_per_reconcile = Requests::lit(1);
        c.writes.insert("Secret".into(), Requests::lit(2));
        c.failure_writes =
            failure_writes.map(|w| w.iter().map(|(k, n)| (k.to_string(), *n)).collect());
        c.default_script = Script::FailThenSucceed {
            failures: Failures::lit(2),
        };
        c.limiter = Some(BACKOFF);
        c.sources.push(Source::AddMany {
            prefix: "w-".into(),
            count: KeyCount::lit(10),
            at_ns: Span::lit(Duration::ZERO),
            script: None,
        });
        s.validate().unwrap();
        let mut m = Manager::new(&s).unwrap();
        m.run_until(Instant::T0 + 60 * SECOND);
        let sum = Summary::of(&m);
        let n = |k: &str| sum.requests.iter().find(|r| r.kind == k).unwrap().requests;
        (n("Widget"), n("Secret"))
    };
    // 10 keys, 3 reconciles each: 2 failures, then a success.
    assert_eq!(run(None), (30, 60), "every reconcile sends all");
    assert_eq!(
        run(Some(&[("Widget", 1)])),
        (30, 20),
        "failures update their status only"
    );
    assert_eq!(run(Some(&[])), (10, 20), "failures send nothing");
    // A failure never sends more than a success.
    let mut s = Scenario::new("more");
    let c = s.first_mut();
    c.writes.insert("Secret".into(), Requests::lit(1));
    c.failure_writes = Some([("Secret".to_string(), 2)].into_iter().collect());
    let e = s.validate().unwrap_err();
    assert!(e.reason.contains("never more"), "{e}");
}

/// A steady 10 reconciles a second, sampled every 400ms: each bin of the
/// request series is a whole number of samples (1.2s), so a steady rate
/// reads steady, not 10 and 15 by turns (1s bins took 3 samples, then 2).
#[test]
fn the_request_series_bins_whole_samples() {
    let mut s = Scenario::new("steady");
    s.sample_ns = Span::lit(400 * MILLISECOND);
    s.duration_ns = Span::lit(60 * SECOND);
    let c = s.first_mut();
    c.kind = "Widget".into();
    c.writes.insert("Secret".into(), Requests::lit(1));
    c.controller.reconcile_ns = Span::lit(Duration::ZERO);
    c.sources.push(Source::WatchEvents {
        key: "w".into(),
        per_second: EventRate::lit(10.0),
        start_ns: Span::lit(Duration::ZERO),
        duration_ns: Span::lit(60 * SECOND),
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 60 * SECOND);
    let sum = Summary::of(&m);
    assert_eq!(sum.request_series.width, 1200 * MILLISECOND);
    let widget = per_second(&sum, "Secret");
    let steady = &widget[1..widget.len() - 1];
    assert!(steady.iter().all(|r| (r - 10.0).abs() < 1e-9), "{widget:?}");
}

/// The kind's request series counts a request in the second it is sent,
/// not the one it was reserved in: with x/time/rate's `Wait` a request
/// goes out at its reservation's time to act. A kind's bucket of 5 qps,
/// burst 10, and 200 keys at t=0 with 4 workers: the burst and the tokens
/// of 0.2s, 0.4s, 0.6s and 0.8s go out in the first second (14; 15 at
/// most with a nanosecond's edge), then 5 a second (6 at most with an
/// edge) until the keys run out (the 200th at 37s); the requests the
/// workers have reserved ahead are not counted early.
#[test]
fn the_request_series_counts_a_request_when_it_is_sent() {
    let sum = widgets_sent("sent", 200, 100 * MILLISECOND);
    assert_eq!(sum.request_series.width, SECOND);
    let widget = &widget_rates(&sum);
    assert!(
        (14.0..=15.0).contains(&widget[0]),
        "the first second sends the burst and 4 tokens: {widget:?}"
    );
    assert!(
        widget[1..37].iter().all(|r| (4.0..=6.0).contains(r)),
        "then 5 a second: {widget:?}"
    );
    let total: f64 = widget.iter().sum();
    assert_eq!(total, 200.0, "{widget:?}");
    let peak = sum.requests.iter().find(|k| k.kind == "Widget").unwrap();
    assert!(peak.peak_per_second <= 15.0, "{peak:?}");
}

/// Requests reserved ahead of a compaction of the series (1ms samples
/// merge past 4096 of them, every 4.1s, 8.2s, …) land in the sample of
/// the instant they are sent: by 60s a bucket of 5 qps, burst 10, always
/// asked for, has sent its burst and a token every 0.2s (10 + 299 = 309),
/// not the reservations the workers still wait on; and no bin holds more
/// than its tokens (the bins are 63 samples of 16ms: 1.008s, 6 tokens at most).
#[test]
fn requests_reserved_ahead_land_where_they_are_sent_after_a_compaction() {
    let sum = widgets_sent("compacted", 1000, MILLISECOND);
    assert_eq!(sum.request_series.width, 1008 * MILLISECOND);
    let widget = &widget_rates(&sum);
    let seconds = 1.008;
    let sent: f64 = widget.iter().map(|r| r * seconds).sum();
    assert!((sent - 309.0).abs() < 1.0 + 1e-6, "{sent}: {widget:?}");
    assert!(
        widget[1..].iter().all(|r| r * seconds <= 6.0 + 1e-9),
        "{widget:?}"
    );
}

/// A key converges where its last run of failures ends: three failures
/// (5ms, 10ms, 20ms of backoff, reconciles of 0s) end with a success at
/// 35ms. The informer's resync every minute reconciles it again, and
/// succeeds: that moves neither its time to converge nor the run's last
/// convergence (they read 2m before, the resync's round).
#[test]
fn a_resync_s_later_success_is_not_where_a_key_converged() {
    let mut s = one(
        Script::FailThenSucceed {
            failures: Failures::lit(3),
        },
        BACKOFF,
    );
    let c = s.first_mut();
    c.controller.reconcile_ns = Span::lit(Duration::ZERO);
    c.sources.push(Source::AddMany {
        prefix: "k-".into(),
        count: KeyCount::lit(1),
        at_ns: Span::lit(Duration::ZERO),
        script: None,
    });
    c.sources.push(Source::Resync {
        period_ns: Span::lit(60 * SECOND),
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 130 * SECOND);
    assert_eq!(
        m.controller(0)
            .unwrap()
            .item(workqueue_core::ItemId(0))
            .reconciles,
        6
    );
    let sum = Summary::of(&m);
    let converge = sum.time_to_converge.expect("the key converged");
    assert_eq!(converge.max, 35 * MILLISECOND);
    assert_eq!(sum.last_converged_at, Some(Instant::T0 + 35 * MILLISECOND));
}

/// `count` Widgets added at once, four workers each sending one request per
/// 50ms reconcile through a client of 5 qps, burst 10, for 60s sampled
/// every `sample`: the run's summary.
fn widgets_sent(name: &str, count: u64, sample: Duration) -> Summary {
    let mut s = Scenario::new(name);
    s.client = Some(ClientLimit {
        qps: ClientQps::lit(5.0),
        burst: Burst::lit(10),
        per: ClientScope::Kind,
    });
    s.sample_ns = Span::lit(sample);
    s.duration_ns = Span::lit(60 * SECOND);
    let c = s.first_mut();
    c.kind = "Widget".into();
    c.requests_per_reconcile = Requests::lit(1);
    c.controller.workers = Workers::lit(4);
    c.controller.reconcile_ns = Span::lit(50 * MILLISECOND);
    c.sources.push(Source::AddMany {
        prefix: "w-".into(),
        count: KeyCount::new(count).unwrap(),
        at_ns: Span::lit(Duration::ZERO),
        script: None,
    });
    let mut m = Manager::new(&s).unwrap();
    m.run_until(Instant::T0 + 60 * SECOND);
    Summary::of(&m)
}

/// The Widgets' requests a second, bin by bin.
fn widget_rates(sum: &Summary) -> Vec<f64> {
    sum.request_series
        .kinds
        .iter()
        .find(|k| k.kind == "Widget")
        .unwrap()
        .per_second
        .clone()
}

/// A kind's requests per sample of the run's series.
fn per_second<'a>(sum: &'a Summary, kind: &str) -> &'a [f64] {
    let series = &sum.request_series.kinds;
    &series.iter().find(|k| k.kind == kind).unwrap().per_second
}
