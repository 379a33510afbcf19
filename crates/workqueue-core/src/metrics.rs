//! client-go's workqueue metrics (`metrics.go`), with the same update rules,
//! measured on the virtual clock.

use serde::Serialize;
use std::collections::VecDeque;

use crate::item::{ItemId, ItemMap};
use crate::time::{go_seconds, Nanos};

/// Upper bounds of controller-runtime's latency buckets: 1e-8 s to 1e3 s.
pub const HISTOGRAM_BOUNDS: [f64; 12] = [
    1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
];

/// A Prometheus-style histogram that also keeps the most recent raw
/// observations (bounded, so long runs use constant memory).
#[derive(Clone, Debug, Serialize)]
pub struct Histogram {
    /// Cumulative counts per bound in [`HISTOGRAM_BOUNDS`].
    pub buckets: [u64; 12],
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
            buckets: [0; 12],
            count: 0,
            sum: 0.0,
            recent: VecDeque::new(),
            keep,
        }
    }

    pub fn observe(&mut self, v: f64) {
        for (bound, count) in HISTOGRAM_BOUNDS.iter().zip(self.buckets.iter_mut()) {
            if v <= *bound {
                *count += 1;
            }
        }
        self.count += 1;
        self.sum += v;
        if self.keep > 0 {
            if self.recent.len() == self.keep {
                self.recent.pop_front();
            }
            self.recent.push_back(v);
        }
    }

    /// The latest observations, oldest first (all of them while fewer than `keep`).
    pub fn recent(&self) -> impl Iterator<Item = f64> + '_ {
        self.recent.iter().copied()
    }
}

/// The seven queue metrics and the bookkeeping behind them.
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
    add_times: ItemMap<Option<Nanos>>,
    start_times: ItemMap<Option<Nanos>>,
    /// Items with a start time, for the two gauges; a position index makes removal O(1).
    started: Vec<ItemId>,
    started_pos: ItemMap<u32>,
    /// The unfinished-work ticker (500 ms of the queue clock, from T0) and
    /// what it last set the two gauges to. The ticker stops at shutdown, so
    /// from then on the gauges keep their last values.
    next_tick: Nanos,
    last_gauges: (f64, f64),
}

/// client-go's `unfinishedWorkUpdatePeriod` for named queues.
pub const UNFINISHED_WORK_PERIOD: Nanos = 500 * crate::time::MILLISECOND;

impl QueueMetrics {
    pub fn new(keep_observations: usize) -> Self {
        QueueMetrics {
            depth: 0,
            adds_total: 0,
            retries_total: 0,
            queue_duration: Histogram::new(keep_observations),
            work_duration: Histogram::new(keep_observations),
            add_times: ItemMap::new(None),
            start_times: ItemMap::new(None),
            started: Vec::new(),
            started_pos: ItemMap::new(u32::MAX),
            next_tick: UNFINISHED_WORK_PERIOD,
            last_gauges: (0.0, 0.0),
        }
    }

    pub(crate) fn add(&mut self, item: ItemId, now: Nanos) {
        self.adds_total += 1;
        self.depth += 1;
        let t = self.add_times.get_mut(item);
        if t.is_none() {
            *t = Some(now);
        }
    }

    pub(crate) fn get(&mut self, item: ItemId, now: Nanos) {
        self.depth -= 1;
        let start = self.start_times.get_mut(item);
        if start.is_none() {
            self.started_pos.set(item, self.started.len() as u32);
            self.started.push(item);
        }
        *start = Some(now);
        if let Some(added) = self.add_times.get_mut(item).take() {
            self.queue_duration.observe(go_seconds(now - added));
        }
    }

    pub(crate) fn done(&mut self, item: ItemId, now: Nanos) {
        if let Some(start) = self.start_times.get_mut(item).take() {
            self.work_duration.observe(go_seconds(now - start));
            let pos = *self.started_pos.get(item) as usize;
            self.started.swap_remove(pos);
            if let Some(moved) = self.started.get(pos) {
                self.started_pos.set(*moved, pos as u32);
            }
        }
    }

    pub(crate) fn retry(&mut self) {
        self.retries_total += 1;
    }

    /// The clock reached `now`: fire the gauge ticker if a period boundary was
    /// crossed (a fake ticker fires once per step, however many periods passed).
    pub(crate) fn tick(&mut self, now: Nanos) {
        if now >= self.next_tick {
            self.refresh_gauges(now);
            self.next_tick = (now / UNFINISHED_WORK_PERIOD + 1) * UNFINISHED_WORK_PERIOD;
        }
    }

    /// `updateUnfinishedWork()` at `now`.
    pub(crate) fn refresh_gauges(&mut self, now: Nanos) {
        self.last_gauges = (
            self.unfinished_work_seconds(now),
            self.longest_running_processor_seconds(now),
        );
    }

    /// The gauges as the ticker last set them: `(unfinished, longest)`.
    pub fn last_gauges(&self) -> (f64, f64) {
        self.last_gauges
    }

    /// `workqueue_unfinished_work_seconds` as if refreshed at `now`.
    pub fn unfinished_work_seconds(&self, now: Nanos) -> f64 {
        self.started
            .iter()
            .map(|i| go_seconds(now - self.start_times.get(*i).unwrap_or(now)))
            .sum()
    }

    /// `workqueue_longest_running_processor_seconds` as if refreshed at `now`.
    pub fn longest_running_processor_seconds(&self, now: Nanos) -> f64 {
        self.started
            .iter()
            .map(|i| go_seconds(now - self.start_times.get(*i).unwrap_or(now)))
            .fold(0.0, f64::max)
    }
}
