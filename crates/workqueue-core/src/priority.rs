//! A sans-IO port of controller-runtime's priority queue
//! (`pkg/controller/priorityqueue`), the default queue of every controller
//! since controller-runtime v0.23 (`../shared/spec/SEMANTICS.md` 6.4).
//!
//! One record per key that is not handed out: `{priority, addedCounter,
//! readyAt}`. Ready records are ordered by priority (highest first), then
//! by counter (FIFO within a priority); waiting records by readyAt first.
//! An immediate add cancels a pending delay, the earlier readyAt wins, a
//! priority only ever rises (and a raise sends the record to the tail of its
//! new class). Keys handed out are locked until `Done`; a locked key's new
//! record waits in the ready tree and is skipped at hand-out. There is no
//! draining at shutdown. Upstream's add buffer is applied before anything
//! reads the queue, so here every add takes effect at once.

use std::collections::BTreeSet;

use crate::buckets::BucketStore;
use crate::item::{Interner, ItemId, ItemMap};
use crate::limiter::{Answer, Limiter, LimiterConfig};
use crate::metrics::{since_seconds, Histogram, NO_TIME};
use crate::queue_calls::{limiter_calls, AddWithOptsCall, QueueEvent};
use crate::time::{Duration, Instant, MILLISECOND, SECOND};
use crate::waiting::{HeapEntry, IndexedHeap, Instant2w, ReadyAt};

mod metrics;
use metrics::PqMetrics;

use crate::queue_calls::{AddOpts, Added, AlreadyShutDown, Placed, PqGot};

/// controller-runtime's `handler.LowPriority`: creates from the informer's
/// initial list and resync updates are enqueued with it.
pub const LOW_PRIORITY: i64 = -100;

/// The limiter `priorityqueue.New` uses when given none: per-item
/// exponential backoff alone, with no controller-wide bucket.
pub(crate) fn default_limiter() -> LimiterConfig {
    LimiterConfig::Exponential {
        base_ns: crate::Delay::lit(5 * MILLISECOND),
        max_ns: crate::Delay::lit(1000 * SECOND),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    priority: i64,
    counter: u64,
    /// `None`: ready.
    ready: Option<Instant2w>,
}

/// What `records` keeps per key, 16 bytes: its record's place in the
/// ready order. Whether it waits, and until when, is its entry in the
/// waiting heap (kept once). A key without a record keeps the priority its
/// last record had, the one it was last handed out with: the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Order {
    priority: i64,
    /// [`NO_RECORD`] when the key has no record.
    counter: u64,
}

/// A counter no record has (counters count adds from 0: never this many).
const NO_RECORD: u64 = u64::MAX;

impl Record {
    fn new(priority: i64, counter: u64, ready_at: Option<ReadyAt>) -> Record {
        Record {
            priority,
            counter,
            ready: ready_at.map(Instant2w::new),
        }
    }

    fn ready_at(&self) -> Option<ReadyAt> {
        self.ready.map(Instant2w::get)
    }
}

/// An entry of either ordered set: readyAt, then priority descending, then
/// counter ascending (the key makes entries unique; counters already are).
/// Ready entries all carry [`READY`] first, so their order is the ready
/// order; one entry type for both sets builds the tree's code once. 32
/// bytes: readyAt's high word packs beside the key (see [`Instant2w`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    ready_low: u64,
    priority: i64,
    counter: u64,
    ready_high: i32,
    item: ItemId,
}

const READY: ReadyAt = ReadyAt::T0;

impl Entry {
    fn new(ready: Option<Instant2w>, priority: i64, counter: u64, item: ItemId) -> Entry {
        let (ready_high, ready_low) = ready.unwrap_or(Instant2w::new(READY)).words();
        Entry {
            ready_low,
            priority,
            counter,
            ready_high,
            item,
        }
    }

    fn ready(&self) -> Instant2w {
        Instant2w::from_words(self.ready_high, self.ready_low)
    }

    fn order(&self) -> (Instant2w, std::cmp::Reverse<i64>, u64, ItemId) {
        (
            self.ready(),
            std::cmp::Reverse(self.priority),
            self.counter,
            self.item,
        )
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The waiting records, in a heap on this same order (a pop is the
/// B-tree's `first`: entries are unique, so the order is total).
impl HeapEntry for Entry {
    fn item(&self) -> ItemId {
        self.item
    }

    type Listing = Entry;
    fn listing(&self) -> Entry {
        *self
    }
}

#[derive(Clone, Debug)]
pub struct PriorityQueue {
    keys: Interner,
    limiter_config: LimiterConfig,
    limiter: Limiter,
    /// The limiter's token buckets when the queue runs alone (empty when
    /// they live in a run's store: see [`PriorityQueue::new_in`]).
    buckets: BucketStore,
    records: ItemMap<Order>,
    ready: BTreeSet<Entry>,
    waiting: IndexedHeap<Entry>,
    locked: ItemMap<bool>,
    locked_count: usize,
    counter: u64,
    shut_down: bool,
    metrics: Option<PqMetrics>,
    now: Instant,
    /// What happened, for the log and the stage (when recording).
    events: Option<Vec<(Instant, QueueEvent)>>,
}

impl PriorityQueue {
    /// A queue whose limiter is `limiter` (see `default_limiter` for
    /// `New`'s own); `metrics` keeps that many observations per histogram
    /// (`None`: an unnamed queue, without metrics).
    pub fn new(limiter: &LimiterConfig, metrics: Option<usize>) -> PriorityQueue {
        let mut buckets = BucketStore::new();
        let built = limiter.build(&mut buckets);
        PriorityQueue::with_limiter(limiter, built, buckets, metrics)
    }

    /// A queue of a run, with `limiter` (built from `config`) whose buckets
    /// live in the run's store: the calls that reach them are handed it
    /// ([`PriorityQueue::add_explained_in`]).
    pub fn new_in(config: &LimiterConfig, limiter: Limiter, metrics: Option<usize>) -> Self {
        PriorityQueue::with_limiter(config, limiter, BucketStore::new(), metrics)
    }

    fn with_limiter(
        config: &LimiterConfig,
        limiter: Limiter,
        buckets: BucketStore,
        metrics: Option<usize>,
    ) -> PriorityQueue {
        PriorityQueue {
            keys: Interner::default(),
            limiter_config: config.clone(),
            limiter,
            buckets,
            records: ItemMap::new(Order {
                priority: 0,
                counter: NO_RECORD,
            }),
            ready: BTreeSet::new(),
            waiting: IndexedHeap::default(),
            locked: ItemMap::new(false),
            locked_count: 0,
            counter: 0,
            shut_down: false,
            metrics: metrics.map(PqMetrics::new),
            now: Instant::T0,
            events: None,
        }
    }

    pub fn set_record_events(&mut self, on: bool) {
        self.events = on.then(|| self.events.take().unwrap_or_default());
    }

    /// Exchanges the recorded events with `buf` (which should be empty).
    pub fn swap_events(&mut self, buf: &mut Vec<(Instant, QueueEvent)>) {
        if let Some(events) = &mut self.events {
            std::mem::swap(events, buf);
        }
    }

    #[inline]
    fn emit(&mut self, event: QueueEvent) {
        if let Some(events) = &mut self.events {
            events.push((self.now, event));
        }
    }

    pub fn key(&mut self, key: &str) -> ItemId {
        self.keys.intern(key)
    }

    pub fn key_name(&self, item: ItemId) -> &str {
        self.keys.name(item)
    }

    pub fn keys(&self) -> &Interner {
        &self.keys
    }

    fn next_counter(&mut self) -> u64 {
        let c = self.counter;
        self.counter += 1;
        c
    }

    /// Moves the clock to `now`: every waiting record due by then becomes
    /// ready, in the waiting order, each with a fresh counter (so records
    /// becoming ready together keep that order within their priority).
    /// After shutdown the waiting loop has stopped: nothing moves any more.
    pub fn advance(&mut self, now: Instant) {
        self.advance_bounded(now, usize::MAX);
    }

    /// Like [`PriorityQueue::advance`], releasing at most `max` records (in
    /// the same order): returns how many it released, fewer than `max` once
    /// nothing due is left.
    pub fn advance_bounded(&mut self, now: Instant, max: usize) -> usize {
        self.now = self.now.max(now);
        let mut released = 0;
        while !self.shut_down && released < max {
            let Some(first) = self.waiting.peek() else {
                break;
            };
            let (prio, item) = (first.priority, first.item);
            if first.ready().get() > now.wide() {
                break;
            }
            self.waiting.pop();
            let counter = self.next_counter();
            self.set_record(item, Record::new(prio, counter, None));
            self.ready.insert(Entry::new(None, prio, counter, item));
            if let Some(m) = &mut self.metrics {
                m.add(now, item, prio);
            }
            self.emit(QueueEvent::Released { item });
            released += 1;
        }
        released
    }

    /// The earliest readyAt in the waiting tree.
    pub fn next_ready_at(&self) -> Option<ReadyAt> {
        self.waiting.peek().map(|w| w.ready().get())
    }

    /// `AddWithOpts(opts, items...)` at `now`. After shutdown it returns at
    /// once, before the limiter is asked (an empty answer).
    pub fn add_with_opts(&mut self, now: Instant, opts: AddOpts, items: &[ItemId]) -> Vec<Added> {
        self.advance(now);
        if self.shut_down {
            return Vec::new();
        }
        items
            .iter()
            .map(|&item| self.add_one(now, opts, item, None, None))
            .collect()
    }

    /// The same for one key, reporting the limiter's whole answer tree.
    pub fn add_explained(&mut self, now: Instant, opts: AddOpts, item: ItemId) -> Option<Added> {
        self.explained(now, opts, item, None)
    }

    /// [`PriorityQueue::add_explained`] on a queue whose limiter's buckets
    /// are in `buckets` (see [`PriorityQueue::new_in`]).
    pub fn add_explained_in(
        &mut self,
        now: Instant,
        opts: AddOpts,
        item: ItemId,
        buckets: &mut BucketStore,
    ) -> Option<Added> {
        self.explained(now, opts, item, Some(buckets))
    }

    fn explained(
        &mut self,
        now: Instant,
        opts: AddOpts,
        item: ItemId,
        buckets: Option<&mut BucketStore>,
    ) -> Option<Added> {
        self.advance(now);
        if self.shut_down {
            return None;
        }
        let mut out = Vec::new(); // allocates only if the limiter answers
        Some(self.add_one(now, opts, item, buckets, Some(&mut out)))
    }

    fn add_one(
        &mut self,
        now: Instant,
        opts: AddOpts,
        item: ItemId,
        buckets: Option<&mut BucketStore>,
        explain: Option<&mut Vec<Answer>>,
    ) -> Added {
        let (added, when) = self.place(now, opts, item, buckets, explain);
        // One record per key, in exactly one of the two sets.
        debug_assert!(self.record_of(item).is_some_and(|r| {
            let in_ready = self
                .ready
                .contains(&Entry::new(None, r.priority, r.counter, item));
            r.ready.is_some() != in_ready
        }));
        if self.events.is_some() {
            self.emit(QueueEvent::AddWithOpts(Box::new(AddWithOptsCall {
                item,
                opts,
                when,
                effective: added.effective,
                placed: added.placed,
                raised: added.raised,
            })));
        }
        added
    }

    /// The add itself; also returns the limiter's `When`, if asked.
    fn place(
        &mut self,
        now: Instant,
        opts: AddOpts,
        item: ItemId,
        buckets: Option<&mut BucketStore>,
        explain: Option<&mut Vec<Answer>>,
    ) -> (Added, Option<Duration>) {
        let mut after = opts.after;
        let mut limiter = None;
        let mut when = None;
        if opts.rate_limited {
            let explaining = explain.is_some();
            let mut out = explain;
            // The run's store, or this queue's own.
            let buckets = buckets.unwrap_or(&mut self.buckets);
            let rl = self.limiter.answer(item, now, buckets, out.as_deref_mut());
            if explaining {
                limiter = out.and_then(|o| o.pop());
            }
            when = Some(rl);
            if after == Duration::ZERO || rl < after {
                after = rl;
            }
        }
        let ready_at = (after > Duration::ZERO).then(|| now.wide_after(after));
        if ready_at.is_some() {
            if let Some(m) = &mut self.metrics {
                m.retries_total += 1;
            }
        }
        let priority = opts.priority.unwrap_or(0);
        let Some(old) = self.record_of(item) else {
            // A new key, or a key being processed (its record went at hand-out).
            let counter = self.next_counter();
            self.set_record(item, Record::new(priority, counter, ready_at));
            let placed = match ready_at {
                Some(at) => {
                    self.waiting.push(Entry::new(
                        Some(Instant2w::new(at)),
                        priority,
                        counter,
                        item,
                    ));
                    Placed::NewWaiting { ready_at: at }
                }
                None => {
                    self.ready.insert(Entry::new(None, priority, counter, item));
                    if let Some(m) = &mut self.metrics {
                        m.add(now, item, priority);
                    }
                    Placed::NewReady
                }
            };
            let added = Added {
                item,
                limiter,
                effective: after,
                placed,
                raised: None,
            };
            return (added, when);
        };
        // An existing record: readyAt only moves earlier (or to ready), the
        // priority only up, with a fresh counter when it rises.
        let (new_ready_at, placed) = match (old.ready_at(), ready_at) {
            (None, _) => (None, Placed::StayedReady),
            (Some(was), None) => (None, Placed::DelayCancelled { was }),
            (Some(was), Some(new)) if was <= new => {
                (Some(was), Placed::KeptEarlier { ready_at: was })
            }
            (Some(was), Some(new)) => (
                Some(new),
                Placed::MovedEarlier {
                    from: was,
                    ready_at: new,
                },
            ),
        };
        let mut record = Record::new(old.priority, old.counter, new_ready_at);
        let mut raised = None;
        if priority > old.priority {
            if old.ready.is_none() {
                if let Some(m) = &mut self.metrics {
                    m.raise(old.priority, priority);
                }
            }
            record.priority = priority;
            record.counter = self.next_counter();
            raised = Some((old.priority, priority));
        }
        if new_ready_at.is_none() && old.ready.is_some() {
            if let Some(m) = &mut self.metrics {
                m.add(now, item, record.priority);
            }
        }
        // The entry sorts by (readyAt, priority, counter): when none moved
        // (a key added again while it waits or is ready), it stays put.
        if record != old {
            if old.ready.is_some() && record.ready.is_some() {
                // Still waiting, earlier or higher: one sift in place.
                let e = Entry::new(record.ready, record.priority, record.counter, item);
                self.waiting.replace(item, e);
            } else {
                self.remove_entry(item, &old);
                self.insert_entry(item, &record);
            }
            self.set_record(item, record);
        }
        let added = Added {
            item,
            limiter,
            effective: after,
            placed,
            raised,
        };
        (added, when)
    }

    /// `item`'s record, put together from its order and its waiting entry.
    fn record_of(&self, item: ItemId) -> Option<Record> {
        let o = self.records.get(item);
        (o.counter != NO_RECORD).then(|| Record {
            priority: o.priority,
            counter: o.counter,
            ready: self.waiting.get(item).map(Entry::ready),
        })
    }

    /// Keeps `record`'s order (its entry, which says whether it waits, is
    /// placed by the caller).
    fn set_record(&mut self, item: ItemId, record: Record) {
        let order = Order {
            priority: record.priority,
            counter: record.counter,
        };
        self.records.set(item, order);
    }

    /// Takes a record's entry out of its set: waiting, or ready.
    fn remove_entry(&mut self, item: ItemId, r: &Record) {
        if r.ready.is_some() {
            self.waiting.remove(item);
        } else {
            self.ready
                .remove(&Entry::new(r.ready, r.priority, r.counter, item));
        }
    }

    fn insert_entry(&mut self, item: ItemId, r: &Record) {
        let e = Entry::new(r.ready, r.priority, r.counter, item);
        if r.ready.is_some() {
            self.waiting.push(e);
        } else {
            self.ready.insert(e);
        }
    }

    /// `AddWithOpts` for one key, without a list to allocate (`None` after
    /// shutdown): `Add`, `AddAfter` and `AddRateLimited` are this.
    fn add_single(&mut self, now: Instant, opts: AddOpts, item: ItemId) -> Option<Added> {
        self.advance(now);
        if self.shut_down {
            return None;
        }
        Some(self.add_one(now, opts, item, None, None))
    }

    pub fn add(&mut self, now: Instant, item: ItemId) -> Option<Added> {
        self.add_single(now, AddOpts::default(), item)
    }

    pub fn add_after(&mut self, now: Instant, item: ItemId, after: Duration) -> Option<Added> {
        let opts = AddOpts {
            after,
            ..AddOpts::default()
        };
        self.add_single(now, opts, item)
    }

    pub fn add_rate_limited(&mut self, now: Instant, item: ItemId) -> Option<Added> {
        let opts = AddOpts {
            rate_limited: true,
            ..AddOpts::default()
        };
        self.add_single(now, opts, item)
    }

    /// `GetWithPriority` at `now`: the first ready record whose key is not
    /// locked. After shutdown it answers shutdown at once.
    pub fn get(&mut self, now: Instant) -> PqGot {
        self.advance(now);
        if self.shut_down {
            return PqGot::ShutDown;
        }
        let Some(&first) = self.ready.iter().find(|e| !*self.locked.get(e.item)) else {
            return PqGot::Empty;
        };
        let (prio, item) = (first.priority, first.item);
        self.ready.remove(&first);
        // The record goes; its priority stays, as the one handed out.
        self.records.get_mut(item).counter = NO_RECORD;
        debug_assert!(!*self.locked.get(item), "a locked key's record is skipped");
        self.locked.set(item, true);
        self.locked_count += 1;
        if let Some(m) = &mut self.metrics {
            m.get(now, item, prio);
        }
        self.emit(QueueEvent::GetWithPriority {
            item,
            priority: prio,
        });
        PqGot::Item {
            item,
            priority: prio,
        }
    }

    /// `Done`: unlocks the key (a record added meanwhile can now be handed out).
    pub fn done(&mut self, now: Instant, item: ItemId) {
        self.advance(now);
        let locked = self.locked.get_mut(item);
        if *locked {
            *locked = false;
            self.locked_count -= 1;
        }
        if let Some(m) = &mut self.metrics {
            m.done(now, item);
        }
        debug_assert!(!*self.locked.get(item));
        // Only a ready record waits on the lock; a waiting one waits on time.
        let requeued =
            self.records.get(item).counter != NO_RECORD && self.waiting.get(item).is_none();
        self.emit(QueueEvent::Done { item, requeued });
    }

    /// Ready records, a locked key's included; waiting ones are not counted.
    pub fn len(&self) -> usize {
        self.ready.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }

    /// Ready records that can be handed out now (their key is not locked).
    pub fn has_ready_unlocked(&self) -> bool {
        self.ready.iter().any(|e| !*self.locked.get(e.item))
    }

    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }

    pub fn processing_count(&self) -> usize {
        self.locked_count
    }

    pub fn is_locked(&self, item: ItemId) -> bool {
        *self.locked.get(item)
    }

    /// The ready records in hand-out order (locked keys' included).
    pub fn ready(&self) -> impl Iterator<Item = (ItemId, i64)> + '_ {
        self.ready.iter().map(|e| (e.item, e.priority))
    }

    /// The waiting records, soonest first (a sorted copy: for a whole
    /// listing; [`PriorityQueue::waiting_soonest`] finds the first few).
    pub fn waiting(&self) -> impl Iterator<Item = (ItemId, ReadyAt, i64)> {
        self.waiting
            .sorted()
            .into_iter()
            .map(|e| (e.item, e.ready().get(), e.priority))
    }

    /// The `n` soonest waiting records, soonest first.
    pub fn waiting_soonest(&self, n: usize) -> Vec<(ItemId, ReadyAt, i64)> {
        self.waiting
            .soonest(n)
            .into_iter()
            .map(|e| (e.item, e.ready().get(), e.priority))
            .collect()
    }

    /// The waiting keys, in no particular order.
    pub fn waiting_ids(&self) -> impl Iterator<Item = ItemId> + '_ {
        self.waiting.entries().iter().map(|e| e.item)
    }

    /// The priority of the key's record, or when it has none, of its last
    /// one: the priority it was last handed out with (0 for a key never
    /// queued).
    pub fn last_priority(&self, item: ItemId) -> i64 {
        self.records.get(item).priority
    }

    /// The key's record, if it has one: its priority and readyAt (`None`: ready).
    pub fn record(&self, item: ItemId) -> Option<(i64, Option<ReadyAt>)> {
        self.record_of(item).map(|r| (r.priority, r.ready_at()))
    }

    /// `ShutDown`: no draining. A second call is what upstream panics on.
    pub fn shutdown(&mut self) -> Result<(), AlreadyShutDown> {
        if self.shut_down {
            return Err(AlreadyShutDown);
        }
        self.shut_down = true;
        self.emit(QueueEvent::ShutDown { drain: false });
        Ok(())
    }

    pub fn shutting_down(&self) -> bool {
        self.shut_down
    }

    limiter_calls!();

    /// The limiter's `When`, called directly (it counts a failure).
    pub fn when(&mut self, now: Instant, item: ItemId) -> Duration {
        self.limiter.when(item, now, &mut self.buckets)
    }

    pub fn metrics(&self) -> Option<&PqMetrics> {
        self.metrics.as_ref()
    }
}

#[cfg(test)]
mod tests;
