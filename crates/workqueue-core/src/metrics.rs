//! client-go's workqueue metrics (`metrics.go`), with the same update rules,
//! measured on the virtual clock.

use serde::Serialize;
use std::collections::VecDeque;

use crate::time::go::go_seconds;
use crate::time::{Duration, Instant};

/// "No time on record" in a queue's per-key `addTimes` (a sentinel, not an
/// `Option`: eight bytes a key, not sixteen).
pub(crate) const NO_TIME: Instant = Instant::MIN;

/// Upper bounds of controller-runtime's latency buckets: 1e-8 s to 1e3 s.
pub(crate) const HISTOGRAM_BOUNDS: [f64; 12] = [
    1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
];

/// A Prometheus-style histogram that also keeps the most recent raw
/// observations (bounded, so long runs use constant memory).
#[derive(Clone, Debug, Serialize)]
pub struct Histogram {
    /// Counts per bucket: `buckets[i]` counts observations in
    /// `(HISTOGRAM_BOUNDS[i-1], HISTOGRAM_BOUNDS[i]]`; the last slot is `+Inf`.
    pub buckets: [u64; 13],
    pub count: u64,
    pub sum: f64,
    #[serde(skip)]
    recent: VecDeque<f64>,
    #[serde(skip)]
    keep: usize,
}

impl Histogram {
    pub fn new(keep: usize) -> Self {
        Histogram {
            buckets: [0; 13],
            count: 0,
            sum: 0.0,
            recent: VecDeque::new(),
            keep,
        }
    }

    pub fn observe(&mut self, v: f64) {
        // Bounds are sorted: a binary search finds the first bound ≥ v.
        let i = HISTOGRAM_BOUNDS.partition_point(|b| *b < v);
        self.buckets[i] += 1;
        self.count += 1;
        self.sum += v;
        if self.keep > 0 {
            if self.recent.len() == self.keep {
                self.recent.pop_front();
            }
            self.recent.push_back(v);
        }
    }

    /// Prometheus's cumulative `le` counts, one per bound in `HISTOGRAM_BOUNDS`.
    pub fn cumulative(&self) -> [u64; 12] {
        let mut out = [0; 12];
        let mut running = 0;
        for (i, c) in self.buckets[..12].iter().enumerate() {
            running += c;
            out[i] = running;
        }
        out
    }

    /// The latest observations, oldest first (all of them while fewer than `keep`).
    pub fn recent(&self) -> impl Iterator<Item = f64> + '_ {
        self.recent.iter().copied()
    }
}

/// The seven queue metrics. The per-item bookkeeping (`addTimes`,
/// `processingStartTimes`) lives in the queue's item slots; the update rules
/// are client-go's and are applied by [`crate::Workqueue`].
#[derive(Clone, Debug)]
pub struct QueueMetrics {
    /// `workqueue_depth`: +1 when an item becomes dirty, −1 per `Get`. Can go
    /// negative through the `Done` anomaly, exactly as in client-go.
    pub depth: i64,
    /// `workqueue_adds_total`.
    pub adds_total: u64,
    /// `workqueue_retries_total`: every accepted `AddAfter`, delay ≤ 0 included.
    pub retries_total: u64,
    /// `workqueue_queue_duration_seconds`.
    pub queue_duration: Histogram,
    /// `workqueue_work_duration_seconds`.
    pub work_duration: Histogram,
    /// The unfinished-work ticker (every 500 ms of the queue clock from the
    /// instant the queue was built, `tick_origin`) and what it last set the
    /// two gauges to: `(unfinished, longest)`. The ticker stops at shutdown,
    /// so from then on the gauges keep their last values.
    pub(crate) tick_origin: Instant,
    pub(crate) next_tick: Instant,
    pub(crate) last_gauges: (f64, f64),
}

/// client-go's `unfinishedWorkUpdatePeriod` for named queues.
pub(crate) const UNFINISHED_WORK_PERIOD: Duration =
    Duration::from_nanos(500 * crate::time::MILLISECOND.as_nanos());

impl QueueMetrics {
    pub fn new(keep_observations: usize) -> Self {
        QueueMetrics {
            depth: 0,
            adds_total: 0,
            retries_total: 0,
            queue_duration: Histogram::new(keep_observations),
            work_duration: Histogram::new(keep_observations),
            tick_origin: Instant::T0,
            next_tick: Instant::T0 + UNFINISHED_WORK_PERIOD,
            last_gauges: (0.0, 0.0),
        }
    }

    /// The first tick after `now`, on the ticker's phase.
    pub(crate) fn tick_after(&self, now: Instant) -> Instant {
        let since = now.saturating_sub(self.tick_origin).max(Duration::ZERO);
        let periods = since / UNFINISHED_WORK_PERIOD + 1;
        self.tick_origin
            .saturating_add(UNFINISHED_WORK_PERIOD.saturating_mul(periods))
    }

    /// The gauges as the ticker last set them: `(unfinished, longest)`.
    pub fn last_gauges(&self) -> (f64, f64) {
        self.last_gauges
    }
}

/// `since(start)` in seconds, as client-go's `sinceInSeconds`.
#[inline]
pub(crate) fn since_seconds(now: Instant, start: Instant) -> f64 {
    go_seconds(now - start)
}
