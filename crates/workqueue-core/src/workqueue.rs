//! client-go's rate-limiting work queue: the basic queue (`queue.go`), the
//! delaying queue (`delaying_queue.go`) and the rate-limiting layer
//! (`rate_limiting_queue.go`), as one sans-IO state machine.
//!
//! Every call takes the current virtual instant `now`. Before acting, a call
//! first releases every waiting item whose readyAt is at or before `now`, in
//! Go's heap order: what client-go's background loop has done by the time a
//! fake clock was stepped and the queue settled. Instants never go backwards:
//! an earlier `now` than one already seen is treated as the latest one.

use std::collections::VecDeque;

use crate::buckets::BucketStore;
use crate::item::{Interner, ItemId};
use crate::limiter::{Answer, Limiter, LimiterConfig};
use crate::metrics::{since_seconds, QueueMetrics, NO_TIME, UNFINISHED_WORK_PERIOD};
use crate::time::{Duration, Instant};
use crate::waiting::{Insert, ReadyAt, WaitingHeap};

use crate::queue_calls::limiter_calls;
use crate::queue_calls::{AddEffect, AfterEffect, QueueEvent};

/// What `Get` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Got {
    Item(ItemId),
    /// Nothing queued: the real `Get` would block.
    Empty,
    /// Shut down and drained: `(zero, true)`.
    ShutDown,
}

/// Queue construction options.
#[derive(Clone, Debug)]
pub struct QueueOptions {
    /// A named queue with a provider records metrics; an unnamed one does not.
    pub metrics: bool,
    /// How many raw latency observations to keep besides the histogram counts
    /// (0 by default: a Prometheus histogram keeps none).
    pub keep_observations: usize,
    /// Record [`QueueEvent`]s for [`Workqueue::take_events`].
    pub record_events: bool,
}

/// Like client-go's default (an unnamed queue, or the no-op provider): no metrics.
impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            metrics: false,
            keep_observations: 0,
            record_events: false,
        }
    }
}

impl QueueOptions {
    /// A named queue under a metrics provider, as controller-runtime sets it up.
    pub fn with_metrics() -> Self {
        QueueOptions {
            metrics: true,
            ..QueueOptions::default()
        }
    }
}

/// The queue's two sets, `dirty` and `processing`, as two bytes per item.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    dirty: bool,
    processing: bool,
}

const EMPTY_SLOT: Slot = Slot {
    dirty: false,
    processing: false,
};

/// `started_pos` of an item without a processing start time.
const NOT_STARTED: u32 = u32::MAX;

/// The entry of `item` in `per_item`, growing it on first sight (a free
/// function so the queue's other fields stay borrowable).
#[inline]
fn entry_in<T: Copy>(per_item: &mut Vec<T>, item: ItemId, empty: T) -> &mut T {
    if item.index() >= per_item.len() {
        per_item.resize(item.index() + 1, empty);
    }
    &mut per_item[item.index()]
}

/// A rate-limiting work queue over string keys.
#[derive(Clone, Debug)]
pub struct Workqueue {
    keys: Interner,
    fifo: VecDeque<ItemId>,
    slots: Vec<Slot>,
    /// The metrics' `addTimes`, per item (only when recording metrics:
    /// client-go's default queue grows by two bytes per new key, not twelve).
    add_times: Vec<Instant>,
    /// The metrics' `processingStartTimes`: the items with one, and the
    /// time, for the two work gauges (a handful: the items being processed).
    started: Vec<(ItemId, Instant)>,
    /// Each item's position in `started` ([`NOT_STARTED`] when not there),
    /// so `Done` removes it in one step.
    started_pos: Vec<u32>,
    processing_count: usize,
    shutting_down: bool,
    drain: bool,
    waiting: WaitingHeap,
    limiter: Limiter,
    limiter_config: LimiterConfig,
    /// The limiter's token buckets when the queue runs alone (empty when
    /// they live in a run's store, handed to each call: see
    /// [`Workqueue::new_in`]).
    buckets: BucketStore,
    metrics: Option<QueueMetrics>,
    events: Option<Vec<(Instant, QueueEvent)>>,
    now: Instant,
}

impl Workqueue {
    /// A queue on its own, with its limiter's buckets.
    pub fn new(limiter: &LimiterConfig, options: QueueOptions) -> Self {
        let mut buckets = BucketStore::new();
        let built = limiter.build(&mut buckets);
        Workqueue::with_limiter(limiter, built, buckets, options)
    }

    fn with_limiter(
        config: &LimiterConfig,
        limiter: Limiter,
        buckets: BucketStore,
        options: QueueOptions,
    ) -> Self {
        Workqueue {
            keys: Interner::default(),
            fifo: VecDeque::new(),
            slots: Vec::new(),
            add_times: Vec::new(),
            started: Vec::new(),
            started_pos: Vec::new(),
            processing_count: 0,
            shutting_down: false,
            drain: false,
            waiting: WaitingHeap::default(),
            limiter,
            limiter_config: config.clone(),
            buckets,
            metrics: options
                .metrics
                .then(|| QueueMetrics::new(options.keep_observations)),
            events: options.record_events.then(Vec::new),
            now: Instant::T0,
        }
    }

    /// A queue built when the clock reads `t0`: its clock starts there, and so
    /// does the phase of the 500 ms unfinished-work ticker (ticks at
    /// `t0 + 500ms`, `t0 + 1s`, ...), as when client-go builds a queue on a
    /// clock that already reads `t0`.
    pub fn new_at(limiter: &LimiterConfig, options: QueueOptions, t0: Instant) -> Self {
        let mut q = Workqueue::new(limiter, options);
        q.start_at(t0);
        q
    }

    /// A queue of a run, built at `t0` (as [`Workqueue::new_at`]) with
    /// `limiter` (built from `config`), whose buckets live in the run's
    /// store: the calls that reach them are the `_in` ones, handed it.
    pub fn new_in(
        config: &LimiterConfig,
        limiter: Limiter,
        options: QueueOptions,
        t0: Instant,
    ) -> Self {
        let mut q = Workqueue::with_limiter(config, limiter, BucketStore::new(), options);
        q.start_at(t0);
        q
    }

    fn start_at(&mut self, t0: Instant) {
        self.now = t0;
        if let Some(m) = &mut self.metrics {
            m.tick_origin = t0;
            m.next_tick = t0.saturating_add(UNFINISHED_WORK_PERIOD);
        }
    }

    // ----- keys -----

    /// The id of `key`, interning it on first sight.
    pub fn key(&mut self, key: &str) -> ItemId {
        let id = self.keys.intern(key);
        if id.index() >= self.slots.len() {
            self.slots.resize(id.index() + 1, EMPTY_SLOT);
        }
        id
    }

    #[inline]
    fn slot(&self, item: ItemId) -> &Slot {
        self.slots.get(item.index()).unwrap_or(&EMPTY_SLOT)
    }

    pub fn key_name(&self, item: ItemId) -> &str {
        self.keys.name(item)
    }

    pub fn keys(&self) -> &Interner {
        &self.keys
    }

    // ----- time -----

    /// Brings the queue to `now`, releasing every waiting item that is due.
    /// Returns the instant actually used (never earlier than the last one).
    pub fn advance(&mut self, now: Instant) -> Instant {
        if now <= self.now {
            // Everything due by `self.now` was released when the clock got
            // there, and new entries are always due later: nothing to do.
            return self.now;
        }
        self.advance_bounded(now, usize::MAX);
        now
    }

    /// Like [`Workqueue::advance`], releasing at most `max` items (in the
    /// same order): returns how many it released, fewer than `max` once
    /// nothing due is left. A caller with a frame to render releases a
    /// storm's worth of keys over several calls at one instant.
    pub fn advance_bounded(&mut self, now: Instant, max: usize) -> usize {
        if now > self.now {
            self.now = now;
            // The unfinished-work ticker: a fake ticker fires once per clock
            // step, however many periods passed.
            if !self.shutting_down && self.metrics.as_ref().is_some_and(|m| now >= m.next_tick) {
                self.refresh_gauges(now);
                if let Some(m) = &mut self.metrics {
                    m.next_tick = m.tick_after(now);
                }
            }
        }
        // The waiting loop exits on shutdown: nothing is released after it.
        let mut released = 0;
        while !self.shutting_down && released < max {
            match self.waiting.peek() {
                Some(w) if w.ready_at() <= self.now.wide() => {
                    self.waiting.pop();
                    self.emit(QueueEvent::Released { item: w.item });
                    self.add_inner(w.item);
                    released += 1;
                }
                _ => break,
            }
        }
        released
    }

    /// The latest instant the queue has seen.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// When the next waiting item becomes ready (`None` if nothing waits, or
    /// only beyond the representable range).
    pub fn next_ready_at(&self) -> Option<Instant> {
        if self.shutting_down {
            return None;
        }
        self.waiting.peek().and_then(|w| w.ready_at().narrow())
    }

    // ----- the basic queue -----

    /// `Add(item)`.
    pub fn add(&mut self, now: Instant, item: ItemId) -> AddEffect {
        self.advance(now);
        self.add_inner(item)
    }

    fn add_inner(&mut self, item: ItemId) -> AddEffect {
        let now = self.now;
        let slot = entry_in(&mut self.slots, item, EMPTY_SLOT);
        let effect = if self.shutting_down {
            AddEffect::Ignored
        } else if slot.dirty {
            // The default FIFO's Touch is a no-op: re-adding never reorders.
            AddEffect::Deduplicated
        } else {
            slot.dirty = true;
            if self.metrics.is_some() {
                let add_time = entry_in(&mut self.add_times, item, NO_TIME);
                if *add_time == NO_TIME {
                    *add_time = now; // latency runs from the moment it became dirty
                }
            }
            let effect = if slot.processing {
                AddEffect::MarkedDirty
            } else {
                self.fifo.push_back(item);
                AddEffect::Queued
            };
            if let Some(m) = &mut self.metrics {
                m.adds_total += 1;
                m.depth += 1;
            }
            effect
        };
        // client-go's sets: an added key is dirty (unless the queue shuts
        // down), and it waits in the FIFO unless a worker holds it.
        debug_assert!(effect == AddEffect::Ignored || self.slots[item.index()].dirty);
        debug_assert!(effect != AddEffect::MarkedDirty || self.slots[item.index()].processing);
        self.emit(QueueEvent::Add { item, effect });
        effect
    }

    /// `Get()`, except that an empty queue answers [`Got::Empty`] instead of blocking.
    pub fn get(&mut self, now: Instant) -> Got {
        self.advance(now);
        let Some(item) = self.fifo.pop_front() else {
            return if self.shutting_down {
                Got::ShutDown
            } else {
                Got::Empty
            };
        };
        let now = self.now;
        let slot = entry_in(&mut self.slots, item, EMPTY_SLOT);
        let was_processing = slot.processing;
        slot.processing = true;
        slot.dirty = false;
        if let Some(m) = &mut self.metrics {
            m.depth -= 1;
            let pos = entry_in(&mut self.started_pos, item, NOT_STARTED);
            if *pos == NOT_STARTED {
                *pos = self.started.len() as u32;
                self.started.push((item, now));
            } else {
                self.started[*pos as usize].1 = now;
            }
            let added = std::mem::replace(entry_in(&mut self.add_times, item, NO_TIME), NO_TIME);
            if added != NO_TIME {
                m.queue_duration.observe(since_seconds(now, added));
            }
        }
        if !was_processing {
            self.processing_count += 1;
        }
        // A key handed out is processing and no longer dirty.
        debug_assert!(self.processing_count > 0 && self.processing_count <= self.slots.len());
        self.emit(QueueEvent::Get { item });
        Got::Item(item)
    }

    /// `Done(item)`. Calling it for an item that is queued but not being
    /// processed pushes a second copy: client-go's anomaly, kept on purpose.
    pub fn done(&mut self, now: Instant, item: ItemId) {
        self.advance(now);
        let now = self.now;
        let slot = entry_in(&mut self.slots, item, EMPTY_SLOT);
        let (was_processing, requeued) = (slot.processing, slot.dirty);
        slot.processing = false;
        if let Some(m) = &mut self.metrics {
            let pos = std::mem::replace(
                entry_in(&mut self.started_pos, item, NOT_STARTED),
                NOT_STARTED,
            );
            if pos != NOT_STARTED {
                let (_, started) = self.started.swap_remove(pos as usize);
                m.work_duration.observe(since_seconds(now, started));
                if let Some(&(moved, _)) = self.started.get(pos as usize) {
                    self.started_pos[moved.index()] = pos;
                }
            }
        }
        if was_processing {
            self.processing_count -= 1;
        }
        if requeued {
            self.fifo.push_back(item);
        }
        // Done ends processing; a key re-added meanwhile is back in the FIFO.
        debug_assert!(!self.slots[item.index()].processing);
        debug_assert!(self.processing_count <= self.slots.len());
        self.emit(QueueEvent::Done { item, requeued });
    }

    /// `Len()`: entries in the FIFO (not items that are only dirty).
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    /// `ShutDown()`: stops accepting adds and discards everything waiting.
    /// Queued items can still be fetched with `get`.
    pub fn shutdown(&mut self, now: Instant) {
        self.shutdown_inner(now, false);
    }

    /// `ShutDownWithDrain()`. Returns whether it would return at once (nothing
    /// is being processed); otherwise [`Workqueue::drained`] says when it would.
    pub fn shutdown_with_drain(&mut self, now: Instant) -> bool {
        self.shutdown_inner(now, true);
        self.drained()
    }

    fn shutdown_inner(&mut self, now: Instant, drain: bool) {
        self.advance(now);
        self.drain = drain;
        self.shutting_down = true;
        // The waiting loop exits: whatever still waits is dropped.
        self.waiting.clear();
        self.emit(QueueEvent::ShutDown { drain });
    }

    /// Whether a `ShutDownWithDrain` would have returned by now.
    pub fn drained(&self) -> bool {
        self.processing_count == 0 || !self.drain
    }

    /// `ShuttingDown()`.
    pub fn shutting_down(&self) -> bool {
        self.shutting_down
    }

    // ----- the delaying queue -----

    /// `AddAfter(item, delay)`.
    pub fn add_after(&mut self, now: Instant, item: ItemId, delay: Duration) -> AfterEffect {
        self.advance(now);
        if self.shutting_down {
            self.emit(QueueEvent::AddAfter {
                item,
                delay,
                effect: AfterEffect::Ignored,
            });
            return AfterEffect::Ignored;
        }
        if let Some(m) = &mut self.metrics {
            m.retries_total += 1;
        }
        if delay <= Duration::ZERO {
            self.emit(QueueEvent::AddAfter {
                item,
                delay,
                effect: AfterEffect::Immediate,
            });
            self.add_inner(item);
            return AfterEffect::Immediate;
        }
        let ready_at = self.now.wide_after(delay);
        let effect = match self.waiting.insert(item, ready_at) {
            Insert::New => AfterEffect::Waiting { ready_at },
            Insert::MovedEarlier { from } => AfterEffect::MovedEarlier { from, ready_at },
            Insert::KeptEarlier { existing } => AfterEffect::KeptEarlier { ready_at: existing },
        };
        self.emit(QueueEvent::AddAfter {
            item,
            delay,
            effect,
        });
        effect
    }

    /// The instant `item` is waiting for, if it is in the waiting heap.
    pub fn waiting_until(&self, item: ItemId) -> Option<ReadyAt> {
        self.waiting.ready_at(item)
    }

    /// Everything waiting, earliest first (ties in Go's pop order are not
    /// guaranteed here; this is for display).
    pub fn waiting_sorted(&self) -> Vec<(ItemId, ReadyAt)> {
        self.waiting
            .sorted()
            .into_iter()
            .map(|w| (w.item, w.ready_at()))
            .collect()
    }

    /// The `n` keys due soonest, earliest first: a walk down the heap, no
    /// copy of it, for views that show only the head of a large heap.
    pub fn waiting_soonest(&self, n: usize) -> Vec<(ItemId, ReadyAt)> {
        self.waiting
            .soonest(n)
            .into_iter()
            .map(|w| (w.item, w.ready_at()))
            .collect()
    }

    /// Every key in the waiting heap, in no particular order.
    pub fn waiting_ids(&self) -> impl Iterator<Item = ItemId> + '_ {
        self.waiting.entries().iter().map(|w| w.item)
    }

    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }

    // ----- the rate-limiting queue -----

    /// `AddRateLimited(item)`: `AddAfter(item, When(item))`. `When` runs first,
    /// unconditionally, so even after shutdown the failure counts grow.
    pub fn add_rate_limited(&mut self, now: Instant, item: ItemId) -> (Duration, AfterEffect) {
        self.rate_limited(now, item, None, None)
    }

    /// `AddRateLimited(item)` that also reports every sub-limiter's answer:
    /// the same code as [`Workqueue::add_rate_limited`], explained.
    pub fn add_rate_limited_explained(
        &mut self,
        now: Instant,
        item: ItemId,
    ) -> (Answer, AfterEffect) {
        self.explained(now, item, None)
    }

    /// [`Workqueue::add_rate_limited_explained`] on a queue whose limiter's
    /// buckets are in `buckets` (see [`Workqueue::new_in`]).
    pub fn add_rate_limited_explained_in(
        &mut self,
        now: Instant,
        item: ItemId,
        buckets: &mut BucketStore,
    ) -> (Answer, AfterEffect) {
        self.explained(now, item, Some(buckets))
    }

    fn explained(
        &mut self,
        now: Instant,
        item: ItemId,
        buckets: Option<&mut BucketStore>,
    ) -> (Answer, AfterEffect) {
        let mut out = Vec::with_capacity(1);
        let (delay, effect) = self.rate_limited(now, item, buckets, Some(&mut out));
        let answer = out.pop().unwrap_or(Answer {
            kind: crate::limiter::AnswerKind::MaxOf,
            delay,
            parts: Vec::new(),
            won: false,
        });
        (answer, effect)
    }

    fn rate_limited(
        &mut self,
        now: Instant,
        item: ItemId,
        buckets: Option<&mut BucketStore>,
        out: Option<&mut Vec<Answer>>,
    ) -> (Duration, AfterEffect) {
        self.advance(now);
        // The run's store, or this queue's own.
        let buckets = buckets.unwrap_or(&mut self.buckets);
        let delay = self.limiter.answer(item, self.now, buckets, out);
        self.emit(QueueEvent::RateLimited { item, delay });
        (delay, self.add_after(now, item, delay))
    }

    limiter_calls!();

    /// The limiter's `When(item)` called directly (it changes the limiter's state).
    pub fn when(&mut self, now: Instant, item: ItemId) -> Duration {
        self.advance(now);
        self.limiter.when(item, self.now, &mut self.buckets)
    }

    // ----- inspection -----

    pub fn metrics(&self) -> Option<&QueueMetrics> {
        self.metrics.as_ref()
    }

    /// `(workqueue_unfinished_work_seconds, workqueue_longest_running_processor_seconds)`
    /// as a scrape at `now` would see them: refreshed at `now` while running,
    /// frozen at the last tick before shutdown afterwards.
    pub fn work_gauges(&self, now: Instant) -> (f64, f64) {
        match &self.metrics {
            None => (0.0, 0.0),
            Some(m) if self.shutting_down => m.last_gauges(),
            Some(_) => self.compute_gauges(now),
        }
    }

    /// client-go's `updateUnfinishedWork`: the sum and the maximum of the ages
    /// of every processing start time on record.
    fn compute_gauges(&self, now: Instant) -> (f64, f64) {
        let mut total = 0.0;
        let mut oldest: f64 = 0.0;
        for &(_, start_time) in &self.started {
            let age = since_seconds(now, start_time);
            total += age;
            oldest = oldest.max(age);
        }
        (total, oldest)
    }

    fn refresh_gauges(&mut self, now: Instant) {
        let gauges = self.compute_gauges(now);
        if let Some(m) = &mut self.metrics {
            m.last_gauges = gauges;
        }
    }

    /// Runs `updateUnfinishedWork()` at `now` unless shutting down (as the
    /// ticker would), then returns the gauges as [`Workqueue::work_gauges`].
    pub fn refresh_work_gauges(&mut self, now: Instant) -> (f64, f64) {
        let now = self.advance(now);
        if !self.shutting_down {
            self.refresh_gauges(now);
        }
        self.work_gauges(now)
    }

    /// The FIFO, head first.
    pub fn queued(&self) -> impl Iterator<Item = ItemId> + '_ {
        self.fifo.iter().copied()
    }

    pub fn is_dirty(&self, item: ItemId) -> bool {
        self.slot(item).dirty
    }

    pub fn is_processing(&self, item: ItemId) -> bool {
        self.slot(item).processing
    }

    pub fn processing_count(&self) -> usize {
        self.processing_count
    }

    /// Takes the events recorded since the last call (empty unless enabled).
    pub fn take_events(&mut self) -> Vec<(Instant, QueueEvent)> {
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Exchanges the recorded events with `buf` (which should be empty): the
    /// caller gets the events, the queue keeps `buf`'s capacity, nothing is allocated.
    pub fn swap_events(&mut self, buf: &mut Vec<(Instant, QueueEvent)>) {
        if let Some(events) = &mut self.events {
            std::mem::swap(events, buf);
        }
    }

    pub fn set_record_events(&mut self, on: bool) {
        if on && self.events.is_none() {
            self.events = Some(Vec::new());
        } else if !on {
            self.events = None;
        }
    }

    #[inline]
    fn emit(&mut self, event: QueueEvent) {
        if let Some(events) = &mut self.events {
            events.push((self.now, event));
        }
    }
}

/// Convenience for string keys, as client-go's API reads.
impl Workqueue {
    pub fn add_key(&mut self, now: Instant, key: &str) -> AddEffect {
        let id = self.key(key);
        self.add(now, id)
    }

    pub fn done_key(&mut self, now: Instant, key: &str) {
        let id = self.key(key);
        self.done(now, id)
    }

    pub fn get_key(&mut self, now: Instant) -> Option<&str> {
        match self.get(now) {
            Got::Item(id) => Some(self.keys.name(id)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
