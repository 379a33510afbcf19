//! How much work a scenario asks for, from the file alone, before anything
//! runs: keys added, watch events, resync adds, reconciles (first ones and
//! retries, as the scripts and limiters allow) and the client requests they
//! make, in the work units the budget counts. It is an estimate, meant to
//! tell a ten-second run from a ten-year one: `wqsim` refuses above a cap
//! instead of hanging, and says how far over the file is.

use crate::controller::{Outcome, Script};
use crate::limiter::LimiterConfig;
use crate::scenario::{ControllerSpec, Scenario, Source};
use crate::sim::MAX_PASSES_WITHOUT_PROGRESS;
use crate::time::{Duration, SECOND};

/// The estimated work units of a whole run, every controller.
pub(crate) fn work(s: &Scenario) -> f64 {
    s.controllers.iter().map(|c| controller(s, c)).sum()
}

/// What follows a script's fixed outcomes, for ever.
#[derive(Clone, Copy)]
enum Tail {
    /// The key is done.
    Ends,
    /// Back through the rate limiter every time.
    RateLimited,
    /// Back after a fixed delay every time.
    After(Duration),
}

fn outcome_tail(o: &Outcome) -> Tail {
    match o {
        Outcome::Success | Outcome::TerminalError => Tail::Ends,
        Outcome::Requeue | Outcome::Error | Outcome::ErrorWithRequeueAfter { .. } => {
            Tail::RateLimited
        }
        Outcome::RequeueAfter { after_ns } if *after_ns > Duration::ZERO => {
            Tail::After(after_ns.get())
        }
        Outcome::RequeueAfter { .. } => Tail::Ends,
        Outcome::Custom { result } => {
            if result.requeue_after_ns > Duration::ZERO {
                Tail::After(result.requeue_after_ns.get())
            } else if result.requeue {
                Tail::RateLimited
            } else {
                Tail::Ends
            }
        }
    }
}

/// Retries one key's script makes before its tail, and the tail.
fn script_shape(s: &Script) -> (f64, Tail) {
    match s {
        Script::Always { outcome } => (0.0, outcome_tail(outcome)),
        Script::FailThenSucceed { failures } => (failures.get() as f64, Tail::Ends),
        Script::Sequence { outcomes, then } => (outcomes.len() as f64, outcome_tail(then)),
        Script::Random {
            error_probability: p,
            otherwise,
        } => {
            let p = p.get();
            if p >= 1.0 {
                (0.0, Tail::RateLimited)
            } else {
                // Expected errors before the first non-error: p / (1 - p).
                (p / (1.0 - p), outcome_tail(otherwise))
            }
        }
        // Bounded as if the outage or the waiting lasted the whole run: an
        // estimate is a ceiling.
        Script::Outage { otherwise, .. } => match outcome_tail(otherwise) {
            Tail::After(d) => (0.0, Tail::After(d)),
            _ => (0.0, Tail::RateLimited),
        },
        Script::NotReadyUntil { every_ns, .. } => (0.0, Tail::After(every_ns.get())),
        Script::Live => (0.0, Tail::Ends),
    }
}

/// How many times one key can come back through `l` in `run`, and how many
/// times all keys together can (a bucket is shared by every key).
fn limiter_returns(l: &LimiterConfig, run: f64) -> (f64, f64) {
    // A zero delay is a loop the stall guard ends after so many passes.
    let over = |d: Duration| {
        if d <= Duration::ZERO {
            MAX_PASSES_WITHOUT_PROGRESS as f64
        } else {
            run / d.as_nanos() as f64
        }
    };
    match l {
        LimiterConfig::Exponential { base_ns, max_ns } => {
            if *base_ns <= Duration::ZERO {
                return (MAX_PASSES_WITHOUT_PROGRESS as f64, f64::INFINITY);
            }
            let doublings = (max_ns.as_nanos() as f64 / base_ns.as_nanos() as f64)
                .max(1.0)
                .log2()
                + 1.0;
            (doublings + over(max_ns.get()), f64::INFINITY)
        }
        LimiterConfig::FastSlow {
            slow_ns,
            max_fast_attempts,
            ..
        } => (
            *max_fast_attempts as f64 + over(slow_ns.get()),
            f64::INFINITY,
        ),
        LimiterConfig::Bucket { qps, burst } => (
            f64::INFINITY,
            burst.get() as f64 + qps.get() * run / SECOND.as_nanos() as f64,
        ),
        LimiterConfig::MaxOf { limiters } => limiters
            .iter()
            .map(|l| limiter_returns(l, run))
            .fold((f64::INFINITY, f64::INFINITY), |(k, g), (k2, g2)| {
                (k.min(k2), g.min(g2))
            }),
        // The wait is capped, so a key can come back as often as the cap.
        LimiterConfig::WithMaxWait {
            limiter,
            max_wait_ns,
        } => {
            let (k, g) = limiter_returns(limiter, run);
            (k.max(over(max_wait_ns.get())), g)
        }
        LimiterConfig::DefaultController => {
            limiter_returns(&LimiterConfig::default_controller_parts(), run)
        }
    }
}

/// Reconciles of `keys` keys running `script`, through `limiter`.
fn reconciles(keys: f64, script: &Script, limiter: &LimiterConfig, run: f64) -> f64 {
    if keys == 0.0 {
        return 0.0;
    }
    let (fixed, tail) = script_shape(script);
    let tail = match tail {
        Tail::Ends => 0.0,
        Tail::After(d) => keys * run / d.as_nanos() as f64,
        Tail::RateLimited => {
            let (per_key, all) = limiter_returns(limiter, run);
            (keys * per_key).min(all)
        }
    };
    keys * (1.0 + fixed) + tail
}

fn controller(s: &Scenario, c: &ControllerSpec) -> f64 {
    let run = s.duration_ns.as_nanos() as f64;
    let limiter = s.queue_limiter(c);
    let mut keys = 0.0;
    let mut events = 0.0;
    let mut periods = 0.0;
    let mut work = 0.0;
    // Items with a script of their own, then every other key.
    let mut plain = 0.0;
    for item in &c.items {
        keys += 1.0;
        match &item.script {
            Some(sc) => work += reconciles(1.0, sc, &limiter, run),
            None => plain += 1.0,
        }
    }
    for src in &c.sources {
        match src {
            Source::AddMany {
                count, script: sc, ..
            } => {
                keys += count.get() as f64;
                match sc {
                    Some(sc) => work += reconciles(count.get() as f64, sc, &limiter, run),
                    None => plain += count.get() as f64,
                }
            }
            Source::WatchEvents {
                per_second,
                start_ns,
                duration_ns,
                ..
            } => {
                keys += 1.0;
                let span = (duration_ns.as_nanos() as f64)
                    .min((run - start_ns.as_nanos() as f64).max(0.0));
                events += per_second.get() * span / SECOND.as_nanos() as f64;
            }
            Source::Resync { period_ns } => periods += run / period_ns.as_nanos() as f64,
        }
    }
    work += reconciles(plain, &c.default_script, &limiter, run);
    // A resync adds every key again; an event adds its key: each may lead
    // to a reconcile (at most one each).
    let adds = events + periods * keys;
    work += adds;
    // Workers that take time bound how many reconciles fit in the run.
    let reconcile_ns = c.controller.reconcile_ns;
    if reconcile_ns > Duration::ZERO {
        let fit = keys + c.controller.workers.get() as f64 * run / reconcile_ns.as_nanos() as f64;
        work = work.min(fit);
    }
    // A reconcile is a hand-out and an end (two units) plus its requests.
    let writes: u64 = c.writes.values().map(|n| u64::from(n.get())).sum();
    let per_reconcile = 2.0 + c.requests_per_reconcile.get() as f64 + writes as f64;

    keys + adds + work * per_reconcile
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json(json).unwrap()
    }

    #[test]
    fn a_small_file_is_a_small_estimate() {
        let s = scenario(
            r#"{"version": 2, "duration_ns": "10s", "controllers": [{"items": [{"key": "a"}], "default_script": {"type": "fail_then_succeed", "failures": 3}}]}"#,
        );
        let w = work(&s);
        assert!((4.0..100.0).contains(&w), "{w}");
    }

    #[test]
    fn requeues_every_nanosecond_for_a_week_are_astronomical() {
        let mut s = scenario(
            r#"{"version": 2, "duration_ns": "168h", "controllers": [{"items": [{"key": "a"}], "default_script": {"type": "always", "outcome": {"kind": "requeue_after", "after_ns": 1}}}]}"#,
        );
        assert!(work(&s) > 1e14, "{}", work(&s));
        // Reconciles that take a second fit a week's worth, no more.
        s.controllers[0].controller.reconcile_ns = Span::lit(SECOND);
        let w = work(&s);
        assert!(w < 1e7, "{w}");
    }

    #[test]
    fn a_shared_bucket_bounds_every_key_together() {
        let many = scenario(
            r#"{"version": 2, "duration_ns": "10s", "controllers": [{"limiter": {"type": "bucket", "qps": 10, "burst": 100}, "default_script": {"type": "always", "outcome": {"kind": "error"}}, "sources": [{"type": "add_many", "prefix": "k", "count": 100000}]}]}"#,
        );
        // 100,000 first reconciles, then 200 more through the bucket.
        let w = work(&many);
        assert!((300_000.0..400_000.0).contains(&w), "{w}");
    }

    #[test]
    fn watch_events_and_resyncs_count() {
        let s = scenario(
            r#"{"version": 2, "duration_ns": "168h", "controllers": [{"sources": [{"type": "watch_events", "key": "a", "per_second": 1000, "duration_ns": "1000s"}, {"type": "resync", "period_ns": "10ms"}, {"type": "add_many", "prefix": "k", "count": 500000}]}]}"#,
        );
        // A 10ms resync of half a million keys for a week: 3e13 adds.
        assert!(work(&s) > 1e13, "{}", work(&s));
    }
}
