//! The priority queue's metrics: the depth per priority and the gauges
//! controller-runtime's priority queue reports beside client-go's.

use super::*;

/// The depth gauge per priority, in priority order. A handful of
/// priorities is usual, so a sorted vector serves (a tree map was 8 KB of
/// the page's code for it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DepthByPriority(Vec<(i64, i64)>);

impl DepthByPriority {
    /// Adds `delta` to the gauge of `priority` (created at 0 on first use).
    pub fn add(&mut self, priority: i64, delta: i64) {
        match self.0.binary_search_by_key(&priority, |(p, _)| *p) {
            Ok(i) => self.0[i].1 += delta,
            Err(i) => self.0.insert(i, (priority, delta)),
        }
    }

    pub fn get(&self, priority: i64) -> Option<i64> {
        self.0
            .binary_search_by_key(&priority, |(p, _)| *p)
            .ok()
            .map(|i| self.0[i].1)
    }

    /// `(priority, depth)`, lowest priority first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.0.iter().copied()
    }
}

/// The queue's metrics: as client-go's, except that depth and adds move
/// only when a record becomes ready, depth is per priority, and retries
/// count positive effective delays.
#[derive(Clone, Debug)]
pub struct PqMetrics {
    /// Every priority ever passed to the depth gauge, with its value.
    pub depth: DepthByPriority,
    pub adds_total: u64,
    pub retries_total: u64,
    pub queue_duration: Histogram,
    pub work_duration: Histogram,
    /// When each ready record's key was added ([`NO_TIME`] when none).
    add_times: ItemMap<Instant>,
    /// Processing start times of the keys handed out and not yet done, in
    /// key order (the order the gauges sum them in): a handful, so a
    /// sorted vector, not a slot per key (nor a tree map's code).
    start_times: Vec<(ItemId, Instant)>,
}

impl PqMetrics {
    pub(super) fn new(keep_observations: usize) -> PqMetrics {
        PqMetrics {
            depth: DepthByPriority::default(),
            adds_total: 0,
            retries_total: 0,
            queue_duration: Histogram::new(keep_observations),
            work_duration: Histogram::new(keep_observations),
            add_times: ItemMap::new(NO_TIME),
            start_times: Vec::new(),
        }
    }

    pub(super) fn add(&mut self, now: Instant, item: ItemId, priority: i64) {
        self.adds_total += 1;
        self.depth.add(priority, 1);
        let t = self.add_times.get_mut(item);
        if *t == NO_TIME {
            *t = now;
        }
    }

    pub(super) fn get(&mut self, now: Instant, item: ItemId, priority: i64) {
        self.depth.add(priority, -1);
        match self.start_times.binary_search_by_key(&item, |(i, _)| *i) {
            Ok(at) => self.start_times[at].1 = now,
            Err(at) => self.start_times.insert(at, (item, now)),
        }
        let added = std::mem::replace(self.add_times.get_mut(item), NO_TIME);
        if added != NO_TIME {
            self.queue_duration.observe(since_seconds(now, added));
        }
    }

    pub(super) fn raise(&mut self, from: i64, to: i64) {
        self.depth.add(from, -1);
        self.depth.add(to, 1);
    }

    pub(super) fn done(&mut self, now: Instant, item: ItemId) {
        if let Ok(at) = self.start_times.binary_search_by_key(&item, |(i, _)| *i) {
            let (_, start) = self.start_times.remove(at);
            self.work_duration.observe(since_seconds(now, start));
        }
    }

    /// `updateUnfinishedWork` at `now`: the sum of the in-flight ages and
    /// the oldest, in seconds.
    pub fn work_gauges(&self, now: Instant) -> (f64, f64) {
        self.start_times
            .iter()
            .map(|&(_, start)| since_seconds(now, start))
            .fold((0.0, 0.0), |(sum, oldest), age| {
                (sum + age, f64::max(oldest, age))
            })
    }

    /// The total depth over every priority.
    pub fn depth_total(&self) -> i64 {
        self.depth.iter().map(|(_, d)| d).sum()
    }
}
