//! Two answers of a run's summary: the API requests per second of each
//! kind through the run (a series, and so its peak), and what held the run
//! back most: which limit, which bucket.

use serde::Serialize;

use crate::limiter::LimiterConfig;
use crate::manager::Manager;
use crate::scenario::ClientScope;
use crate::time::{Duration, Instant, SECOND};

/// API requests per second by kind: one value per second of the run, or
/// per sample once a long run's samples are longer (their width doubles as
/// the run goes on, so the series stays small).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RequestSeries {
    /// Each sample's width: a value is the requests of its sample divided
    /// by it.
    #[serde(rename = "width_ns")]
    pub width: Duration,
    pub kinds: Vec<KindSeries>,
}

/// One kind's requests per second, sample by sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KindSeries {
    pub kind: String,
    pub per_second: Vec<f64>,
}

impl RequestSeries {
    pub(crate) fn of(run: &Manager) -> RequestSeries {
        let now = run.now();
        // Per second, or per sample where samples are longer than that;
        // always a whole number of samples (400ms samples make 1.2s bins:
        // 1s bins would take three samples, then two, by turns).
        let sample = run
            .controllers()
            .map(|(_, c)| c.series().width)
            .max()
            .unwrap_or(SECOND)
            .max(Duration::NANOSECOND);
        let per_bin = (SECOND.as_nanos() + sample.as_nanos() - 1) / sample.as_nanos();
        let width = sample.saturating_mul(per_bin.max(1));
        let samples = ((now.since_t0().as_nanos().max(0) + width.as_nanos() - 1) / width.as_nanos())
            .max(1) as usize;
        let mut kinds: Vec<KindSeries> = Vec::new();
        for (_, sim) in run.controllers() {
            let series = sim.series();
            for (i_kind, (kind, _)) in sim.requests_per_reconcile().iter().enumerate() {
                let at = match kinds.iter().position(|k| k.kind == *kind) {
                    Some(at) => at,
                    None => {
                        kinds.push(KindSeries {
                            kind: kind.clone(),
                            per_second: vec![0.0; samples],
                        });
                        kinds.len() - 1
                    }
                };
                // Each request in the sample of the instant it is sent
                // (after its client reservation's wait), not reserved.
                for c in sim
                    .sent()
                    .cells()
                    .iter()
                    .filter(|c| c.kind as usize == i_kind)
                {
                    let start = Instant::T0.saturating_add(
                        series
                            .width
                            .saturating_mul(c.sample.min(i64::MAX as u64) as i64),
                    );
                    if start >= now {
                        break;
                    }
                    let j = ((start.since_t0().as_nanos() / width.as_nanos()) as usize)
                        .min(samples - 1);
                    kinds[at].per_second[j] += c.requests as f64;
                }
            }
        }
        let seconds = width.as_nanos() as f64 / SECOND.as_nanos() as f64;
        for k in &mut kinds {
            for v in &mut k.per_second {
                *v /= seconds;
            }
        }
        RequestSeries { width, kinds }
    }

    /// A kind's highest rate and its sample.
    pub fn peak(&self, kind: &str) -> Option<(usize, f64)> {
        self.kinds
            .iter()
            .find(|k| k.kind == kind)?
            .per_second
            .iter()
            .copied()
            .enumerate()
            .fold(None, |best: Option<(usize, f64)>, (i, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((i, v)),
            })
    }
}

/// What held the run back most: the limit (`client`, `bucket`, `backoff`,
/// `requeue_after`, `workers`, `reconciling`) and, in words, which one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeldBack {
    pub limit: String,
    pub what: String,
}

impl HeldBack {
    /// From where the keys' time went (queued, backoff, bucket,
    /// requeue_after, client, reconciling) and the kind with the most
    /// requests.
    pub(crate) fn of(
        run: &Manager,
        parts: [(&str, Duration); 6],
        busiest: Option<String>,
    ) -> Option<HeldBack> {
        let time = |name: &str| {
            parts
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(Duration::ZERO, |(_, d)| *d)
        };
        let (largest, d) = parts.iter().copied().max_by_key(|(_, d)| *d)?;
        if d <= Duration::ZERO {
            return None;
        }
        // Keys queue while no worker is free: what holds the workers is
        // what holds the run (the client's limit, else the reconciles).
        let limit = match largest {
            "queued" if time("client") > time("reconciling") => "client",
            "queued" => "workers",
            other => other,
        };
        let s = run.scenario();
        // The controller that waited most in a part of its time.
        let most = |part: &dyn Fn(&crate::sim::Controller) -> Duration| {
            run.controllers()
                .max_by_key(|(_, c)| part(c))
                .map(|(n, c)| (n.to_string(), c))
        };
        let what = match limit {
            "client" => {
                let busiest = busiest.unwrap_or_default();
                match s.client_limit() {
                    Some(c) => match c.per {
                        ClientScope::Kind => format!("the API client's limit of {} qps, burst {} for each kind: the busiest, {busiest}, first", c.qps, c.burst),
                        ClientScope::GroupVersion => format!("the clientset's limit of {} qps, burst {} for each API group-version: the busiest kind, {busiest}, first", c.qps, c.burst),
                        ClientScope::Clientset => format!("the clientset's one bucket of {} qps, burst {} for every kind", c.qps, c.burst),
                        ClientScope::Shared => format!("the config's shared RateLimiter, {} qps, burst {} for every kind", c.qps, c.burst),
                    },
                    None => "the API client's limit".into(),
                }
            }
            "bucket" => {
                let (name, sim) = most(&|c| c.heap_waited()[1])?;
                match (s.shared_bucket, sim.spec().shares_bucket) {
                    (Some(b), true) => format!("the token bucket shared by the controllers, {} per second, burst {}", b.qps, b.burst),
                    _ => match bucket_of(&s.queue_limiter(sim.spec())) {
                        Some((q, b)) => format!("controller {name}'s rate limiter's token bucket, {q} per second, burst {b}"),
                        None => format!("controller {name}'s rate limiter's token bucket"),
                    },
                }
            }
            "backoff" => {
                let (name, sim) = most(&|c| c.heap_waited()[0])?;
                format!("controller {name}'s per-item backoff ({})", s.queue_limiter(sim.spec()).label())
            }
            "requeue_after" => match &s.crossplane {
                Some(cp) if cp.derived().global_bucket => format!("Crossplane's global bucket of {} reconciles per second (each turned-away reconcile is a RequeueAfter)", cp.max_reconcile_rate),
                _ => "the RequeueAfter the reconciles return".into(),
            },
            "workers" => {
                let (name, sim) = most(&|c| {
                    let m = c.metrics_snapshot();
                    Duration::from_nanos((m.workqueue_queue_duration_seconds_sum * 1e9) as i64)
                })?;
                format!("controller {name}'s {} workers: keys waited for a free one", sim.spec().controller.workers)
            }
            _ => "the reconciles' own time".into(),
        };
        Some(HeldBack {
            limit: limit.into(),
            what,
        })
    }
}

/// The token bucket in a limiter (alone, or in a max-of).
fn bucket_of(l: &LimiterConfig) -> Option<(f64, i64)> {
    match l {
        LimiterConfig::Bucket { qps, burst } => Some((qps.get(), burst.get())),
        LimiterConfig::MaxOf { limiters } => limiters.iter().find_map(bucket_of),
        LimiterConfig::WithMaxWait { limiter, .. } => bucket_of(limiter),
        LimiterConfig::DefaultController => Some((10.0, 100)),
        _ => None,
    }
}
