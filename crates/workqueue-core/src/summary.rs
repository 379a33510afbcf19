//! The numbers a controller author asks of a run: how long keys took to
//! converge, where that time went, the rates, the deepest queue. Read from a
//! [`Manager`] at its instant, every controller together; the page, `wqsim
//! --summary` and its JSON all print this one value.

use serde::Serialize;

use crate::held_back::{HeldBack, RequestSeries};
use crate::manager::Manager;
use crate::sim::Controller;
use crate::time::{Duration, Instant, SECOND};
use crate::ItemId;

/// A run's summary at its instant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The run's instant.
    pub at: Instant,
    /// Keys the run has seen, and those settled after a success (nothing
    /// queued, waiting or in flight for them).
    pub keys: u64,
    pub converged_keys: u64,
    /// Each converged key's time from its first add to its last success.
    pub time_to_converge: Option<Spread>,
    /// Where the keys' time went, summed over every key.
    pub time_spent: TimeSpent,
    /// Calls of the reconcilers per second, until the last key converged
    /// (over the whole run while keys are left).
    pub reconciles_per_second: f64,
    /// API requests per resource kind (the client's limit is per kind
    /// unless the scenario shares one bucket).
    pub requests: Vec<KindRequests>,
    /// The most keys one controller's queue held at once.
    pub deepest_queue: u64,
    /// When the last key converged, if every key has.
    pub last_converged_at: Option<Instant>,
    /// API requests per second by kind, in each sample of the run.
    pub request_series: RequestSeries,
    /// What held the run back most: which limit, which bucket.
    pub held_back_by: Option<HeldBack>,
}

/// The 50th and 95th percentile and the largest of a set of durations
/// (nearest-rank percentiles: each is one of the measured values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Spread {
    pub p50: Duration,
    pub p95: Duration,
    pub max: Duration,
}

impl Spread {
    /// `None` for no values.
    pub fn of(mut values: Vec<Duration>) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let rank = |p: usize| values[(values.len() * p).div_ceil(100).max(1) - 1];
        Some(Spread {
            p50: rank(50),
            p95: rank(95),
            max: *values.last()?,
        })
    }
}

/// Time summed over every key, by where the key was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimeSpent {
    /// Ready in the queue, waiting for a worker (`workqueue_queue_duration`).
    pub queued: Duration,
    /// In the waiting heap for the limiter's per-key backoff.
    pub backoff: Duration,
    /// In the waiting heap for a token bucket.
    pub bucket: Duration,
    /// In the waiting heap for a `RequeueAfter`.
    pub requeue_after: Duration,
    /// In a worker, waiting for the API client's rate limiter.
    pub client: Duration,
    /// In a worker, reconciling (client waits excluded).
    pub reconciling: Duration,
}

/// One kind's API requests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindRequests {
    pub kind: String,
    pub requests: u64,
    pub per_second: f64,
    /// The highest rate of one sample of the run (see [`RequestSeries`]),
    /// and when that sample started.
    pub peak_per_second: f64,
    pub peak_at: Instant,
}

/// A histogram's sum (seconds, as Prometheus keeps it) in nanoseconds;
/// a sum past what a duration holds is the largest one (`as` saturates).
fn nanos(seconds: f64) -> Duration {
    Duration::from_nanos((seconds * 1e9).round() as i64)
}

/// Whether nothing is left to do for `id`: not queued, waiting or in flight.
fn settled(sim: &Controller, id: ItemId) -> bool {
    let q = sim.queue();
    !q.is_processing(id)
        && !q.is_dirty(id)
        && q.waiting_until(id).is_none()
        && q.priority_of(id).is_none()
}

impl Summary {
    pub fn of(run: &Manager) -> Summary {
        let at = run.now();
        let mut converge = Vec::new();
        let mut keys = 0u64;
        let mut spent = TimeSpent::default();
        let mut reconciles = 0u64;
        let mut deepest = 0u64;
        let mut requests: Vec<KindRequests> = Vec::new();
        for (_, sim) in run.controllers() {
            let q = sim.queue();
            keys += q.keys().len() as u64;
            for id in (0..q.keys().len()).map(|i| ItemId(i as u32)) {
                let info = sim.item(id);
                if let Some(took) = info.converge.took() {
                    if settled(sim, id) && !info.gave_up {
                        converge.push(took);
                    }
                }
            }
            let (_, waited) = sim.client_totals();
            let m = sim.metrics_snapshot();
            let [backoff, bucket, after] = sim.heap_waited();
            // Sums over many keys can pass 292 years: they stop at the
            // largest duration rather than wrap.
            let add = |sum: &mut Duration, d: Duration| *sum = sum.saturating_add(d);
            add(
                &mut spent.queued,
                nanos(m.workqueue_queue_duration_seconds_sum),
            );
            add(&mut spent.backoff, backoff);
            add(&mut spent.bucket, bucket);
            add(&mut spent.requeue_after, after);
            add(&mut spent.client, waited);
            add(
                &mut spent.reconciling,
                nanos(m.workqueue_work_duration_seconds_sum)
                    .saturating_sub(waited)
                    .max(Duration::ZERO),
            );
            reconciles += sim.inner_reconciles();
            deepest = deepest.max(sim.deepest_queue() as u64);
            for (kind, sent) in sim.requests_by_kind() {
                match requests.iter_mut().find(|k| k.kind == kind) {
                    Some(k) => k.requests += sent,
                    None => requests.push(KindRequests {
                        kind,
                        requests: sent,
                        per_second: 0.0,
                        peak_per_second: 0.0,
                        peak_at: Instant::T0,
                    }),
                }
            }
        }
        // Once every key (but those given up) has converged: the latest of
        // their convergences. A resync's or a watch event's later success
        // does not move it; a key failing again holds it back.
        let last_converged_at = run
            .controllers()
            .map(|(_, c)| {
                let ids = (0..c.queue().keys().len()).map(|i| ItemId(i as u32));
                ids.filter(|id| !c.item(*id).gave_up)
                    .map(|id| c.item(id).converge.settled)
                    .try_fold(None, |latest: Option<Instant>, t| {
                        Some(latest.max(Some(t?)))
                    })
            })
            .collect::<Option<Vec<_>>>()
            .and_then(|all| all.into_iter().flatten().max());
        // Rates over the time there was work: a run that converged in 10 s
        // and idled for ten minutes ran at its 10 s rate.
        let span = last_converged_at
            .filter(|t| *t > Instant::T0)
            .unwrap_or(at)
            .since_t0();
        let per_second = |n: u64| {
            if span > Duration::ZERO {
                n as f64 * SECOND.as_nanos() as f64 / span.as_nanos() as f64
            } else {
                0.0
            }
        };
        for k in &mut requests {
            k.per_second = per_second(k.requests);
        }
        let request_series = RequestSeries::of(run);
        for k in &mut requests {
            if let Some((i, peak)) = request_series.peak(&k.kind) {
                k.peak_per_second = peak;
                k.peak_at = Instant::T0 + request_series.width.saturating_mul(i as i64);
            }
        }
        let parts = [
            ("queued", spent.queued),
            ("backoff", spent.backoff),
            ("bucket", spent.bucket),
            ("requeue_after", spent.requeue_after),
            ("client", spent.client),
            ("reconciling", spent.reconciling),
        ];
        let busiest = requests
            .iter()
            .max_by(|a, b| a.requests.cmp(&b.requests))
            .map(|k| k.kind.clone());
        let held_back_by = HeldBack::of(run, parts, busiest);
        let converged_keys = converge.len() as u64;
        Summary {
            at,
            keys,
            converged_keys,
            time_to_converge: Spread::of(converge),
            time_spent: spent,
            reconciles_per_second: per_second(reconciles),
            requests,
            deepest_queue: deepest,
            last_converged_at,
            request_series,
            held_back_by,
        }
    }
}
