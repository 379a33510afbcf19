//! The controller's queue, whichever it is: client-go's rate-limiting queue
//! (controller-runtime up to v0.22, or `UsePriorityQueue: false`) or
//! controller-runtime's priority queue (the default since v0.23). The
//! controller talks to both through `AddWithOpts`, as controller-runtime
//! does: on a client-go queue it is adapted (`RateLimited` → `AddRateLimited`,
//! else `After > 0` → `AddAfter`, else `Add`; priorities are dropped).

use serde::{Deserialize, Serialize};

use crate::buckets::BucketStore;
use crate::item::{Interner, ItemId};
use crate::limiter::{Answer, AnswerKind, Limiter, LimiterConfig};
use crate::metrics::Histogram;
use crate::priority::PriorityQueue;
use crate::queue_calls::{AddEffect, AddOpts, AlreadyShutDown, Placed, PqGot, QueueEvent};
use crate::time::{Duration, Instant, WideInstant};
use crate::waiting::ReadyAt;
use crate::workqueue::{Got, QueueOptions, Workqueue};

/// Which queue a controller runs on.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum QueueKind {
    /// client-go's rate-limiting queue: controller-runtime v0.22 and earlier.
    #[default]
    ClientGo,
    /// controller-runtime's priority queue: the default since v0.23.
    Priority,
}

impl QueueKind {
    pub fn is_client_go(&self) -> bool {
        *self == QueueKind::ClientGo
    }

    /// The limiter controller-runtime wires in when the controller passes
    /// none: client-go's default (max of per-item and a 10 qps bucket), or
    /// for the priority queue per-item backoff alone.
    pub fn default_limiter(self) -> LimiterConfig {
        match self {
            QueueKind::ClientGo => LimiterConfig::DefaultController,
            QueueKind::Priority => crate::priority::default_limiter(),
        }
    }
}

/// What `Get` handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handed {
    /// A key and the priority it was handed out with (0 on a client-go queue).
    Item(ItemId, i64),
    Empty,
    ShutDown,
}

/// The queue metrics both queues keep, under client-go's names.
pub struct MetricTotals<'a> {
    pub depth: i64,
    pub adds_total: u64,
    pub retries_total: u64,
    pub queue_duration: &'a Histogram,
    pub work_duration: &'a Histogram,
    /// The priority queue's depth per priority (empty on a client-go queue).
    pub depth_by_priority: Vec<(i64, i64)>,
}

#[derive(Clone, Debug)]
pub enum ControllerQueue {
    ClientGo(Workqueue),
    Priority(PriorityQueue),
}

impl ControllerQueue {
    /// A named queue (metrics on) of this kind with `limiter` (built from
    /// `config`, its buckets in the run's store), built at `t0`, recording
    /// its events.
    pub fn new(
        kind: QueueKind,
        config: &LimiterConfig,
        limiter: Limiter,
        keep_observations: usize,
        t0: Instant,
    ) -> Self {
        match kind {
            QueueKind::ClientGo => {
                let options = QueueOptions {
                    metrics: true,
                    keep_observations,
                    record_events: true,
                };
                ControllerQueue::ClientGo(Workqueue::new_in(config, limiter, options, t0))
            }
            QueueKind::Priority => {
                let mut q = PriorityQueue::new_in(config, limiter, Some(keep_observations));
                q.set_record_events(true);
                ControllerQueue::Priority(q)
            }
        }
    }

    pub fn kind(&self) -> QueueKind {
        match self {
            ControllerQueue::ClientGo(_) => QueueKind::ClientGo,
            ControllerQueue::Priority(_) => QueueKind::Priority,
        }
    }

    pub fn key(&mut self, key: &str) -> ItemId {
        match self {
            ControllerQueue::ClientGo(q) => q.key(key),
            ControllerQueue::Priority(q) => q.key(key),
        }
    }

    pub fn keys(&self) -> &Interner {
        match self {
            ControllerQueue::ClientGo(q) => q.keys(),
            ControllerQueue::Priority(q) => q.keys(),
        }
    }

    pub fn key_name(&self, item: ItemId) -> &str {
        self.keys().name(item)
    }

    pub fn advance(&mut self, now: Instant) {
        match self {
            ControllerQueue::ClientGo(q) => {
                q.advance(now);
            }
            ControllerQueue::Priority(q) => q.advance(now),
        }
    }

    /// Releases at most `max` keys due by `now`; returns how many (fewer
    /// than `max`: none due is left).
    pub fn advance_bounded(&mut self, now: Instant, max: usize) -> usize {
        match self {
            ControllerQueue::ClientGo(q) => q.advance_bounded(now, max),
            ControllerQueue::Priority(q) => q.advance_bounded(now, max),
        }
    }

    /// When the next waiting key becomes ready (none after shutdown).
    pub fn next_ready_at(&self) -> Option<Instant> {
        match self {
            ControllerQueue::ClientGo(q) => q.next_ready_at(),
            ControllerQueue::Priority(q) if q.shutting_down() => None,
            ControllerQueue::Priority(q) => q.next_ready_at().and_then(WideInstant::narrow),
        }
    }

    /// An immediate add (`Add`, or `AddWithOpts{Priority}`), and what it did
    /// in the client-go queue's terms: a new ready record is queued (or
    /// "dirty" when its key is being processed), a ready one absorbs it.
    pub fn add(&mut self, now: Instant, item: ItemId, priority: Option<i64>) -> AddEffect {
        match self {
            ControllerQueue::ClientGo(q) => q.add(now, item),
            ControllerQueue::Priority(q) => {
                let opts = AddOpts {
                    priority,
                    ..AddOpts::default()
                };
                match q.add_explained(now, opts, item).map(|a| a.placed) {
                    None => AddEffect::Ignored,
                    Some(Placed::StayedReady) => AddEffect::Deduplicated,
                    Some(_) if q.is_locked(item) => AddEffect::MarkedDirty,
                    Some(_) => AddEffect::Queued,
                }
            }
        }
    }

    /// `AddWithOpts{After: delay, Priority}` (`AddAfter` on a client-go queue).
    pub fn add_after(
        &mut self,
        now: Instant,
        item: ItemId,
        delay: Duration,
        priority: Option<i64>,
    ) {
        match self {
            ControllerQueue::ClientGo(q) => {
                q.add_after(now, item, delay);
            }
            ControllerQueue::Priority(q) => {
                let opts = AddOpts {
                    after: delay,
                    priority,
                    ..AddOpts::default()
                };
                q.add_explained(now, opts, item);
            }
        }
    }

    /// `AddWithOpts{RateLimited: true, Priority}` (`AddRateLimited` on a
    /// client-go queue), with the limiter's whole answer and the delay the
    /// key really got; the limiter's buckets are in `buckets`. After a
    /// priority queue's shutdown the limiter is not asked: `None`.
    pub fn add_rate_limited(
        &mut self,
        now: Instant,
        item: ItemId,
        priority: Option<i64>,
        buckets: &mut BucketStore,
    ) -> Option<(Answer, Duration)> {
        match self {
            ControllerQueue::ClientGo(q) => {
                let (answer, _) = q.add_rate_limited_explained_in(now, item, buckets);
                let delay = answer.delay;
                Some((answer, delay))
            }
            ControllerQueue::Priority(q) => {
                let opts = AddOpts {
                    rate_limited: true,
                    priority,
                    ..AddOpts::default()
                };
                let added = q.add_explained_in(now, opts, item, buckets)?;
                let answer = added.limiter.unwrap_or(Answer {
                    kind: AnswerKind::MaxOf,
                    delay: added.effective,
                    parts: Vec::new(),
                    won: false,
                });
                Some((answer, added.effective))
            }
        }
    }

    pub fn get(&mut self, now: Instant) -> Handed {
        match self {
            ControllerQueue::ClientGo(q) => match q.get(now) {
                Got::Item(item) => Handed::Item(item, 0),
                Got::Empty => Handed::Empty,
                Got::ShutDown => Handed::ShutDown,
            },
            ControllerQueue::Priority(q) => match q.get(now) {
                PqGot::Item { item, priority } => Handed::Item(item, priority),
                PqGot::Empty => Handed::Empty,
                PqGot::ShutDown => Handed::ShutDown,
            },
        }
    }

    pub fn done(&mut self, now: Instant, item: ItemId) {
        match self {
            ControllerQueue::ClientGo(q) => q.done(now, item),
            ControllerQueue::Priority(q) => q.done(now, item),
        }
    }

    /// `Len()`: the FIFO, or the priority queue's ready records.
    pub fn len(&self) -> usize {
        match self {
            ControllerQueue::ClientGo(q) => q.len(),
            ControllerQueue::Priority(q) => q.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a `Get` now would hand something out (or answer shutdown).
    pub fn can_hand_out(&self) -> bool {
        match self {
            ControllerQueue::ClientGo(q) => !q.is_empty(),
            ControllerQueue::Priority(q) => q.shutting_down() || q.has_ready_unlocked(),
        }
    }

    /// `ShutDown()`. The priority queue refuses a second one (upstream
    /// panics: "close of closed channel").
    pub fn shutdown(&mut self, now: Instant) -> Result<(), AlreadyShutDown> {
        match self {
            ControllerQueue::ClientGo(q) => {
                q.shutdown(now);
                Ok(())
            }
            ControllerQueue::Priority(q) => q.shutdown(),
        }
    }

    pub fn shutting_down(&self) -> bool {
        match self {
            ControllerQueue::ClientGo(q) => q.shutting_down(),
            ControllerQueue::Priority(q) => q.shutting_down(),
        }
    }

    pub fn waiting_len(&self) -> usize {
        match self {
            ControllerQueue::ClientGo(q) => q.waiting_len(),
            ControllerQueue::Priority(q) => q.waiting_len(),
        }
    }

    pub fn processing_count(&self) -> usize {
        match self {
            ControllerQueue::ClientGo(q) => q.processing_count(),
            ControllerQueue::Priority(q) => q.processing_count(),
        }
    }

    /// Handed out and not yet `Done`.
    pub fn is_processing(&self, item: ItemId) -> bool {
        match self {
            ControllerQueue::ClientGo(q) => q.is_processing(item),
            ControllerQueue::Priority(q) => q.is_locked(item),
        }
    }

    /// Queued again: client-go's dirty set, or a priority-queue record.
    pub fn is_dirty(&self, item: ItemId) -> bool {
        match self {
            ControllerQueue::ClientGo(q) => q.is_dirty(item),
            ControllerQueue::Priority(q) => q.record(item).is_some(),
        }
    }

    /// The keys `Get` would hand out next, in order (locked ones included
    /// on a priority queue: they are skipped at hand-out).
    pub fn queued(&self) -> Box<dyn Iterator<Item = ItemId> + '_> {
        match self {
            ControllerQueue::ClientGo(q) => Box::new(q.queued()),
            ControllerQueue::Priority(q) => Box::new(q.ready().map(|(item, _)| item)),
        }
    }

    /// The `n` soonest waiting keys, soonest first.
    pub fn waiting_soonest(&self, n: usize) -> Vec<(ItemId, ReadyAt)> {
        match self {
            ControllerQueue::ClientGo(q) => q.waiting_soonest(n),
            ControllerQueue::Priority(q) => q
                .waiting_soonest(n)
                .into_iter()
                .map(|(item, at, _)| (item, at))
                .collect(),
        }
    }

    pub fn waiting_ids(&self) -> Box<dyn Iterator<Item = ItemId> + '_> {
        match self {
            ControllerQueue::ClientGo(q) => Box::new(q.waiting_ids()),
            ControllerQueue::Priority(q) => Box::new(q.waiting_ids()),
        }
    }

    /// When this key becomes ready, if it is waiting.
    pub fn waiting_until(&self, item: ItemId) -> Option<ReadyAt> {
        match self {
            ControllerQueue::ClientGo(q) => q.waiting_until(item),
            ControllerQueue::Priority(q) => q.record(item).and_then(|(_, at)| at),
        }
    }

    /// The priority of the key's record, else the one it was last handed
    /// out with (always 0 on client-go's queue).
    pub fn last_priority(&self, item: ItemId) -> i64 {
        match self {
            ControllerQueue::ClientGo(_) => 0,
            ControllerQueue::Priority(q) => q.last_priority(item),
        }
    }

    /// The priority of the key's record (`None` on a client-go queue, or
    /// when the key has no record).
    pub fn priority_of(&self, item: ItemId) -> Option<i64> {
        match self {
            ControllerQueue::ClientGo(_) => None,
            ControllerQueue::Priority(q) => q.record(item).map(|(p, _)| p),
        }
    }

    pub fn forget(&mut self, item: ItemId) {
        match self {
            ControllerQueue::ClientGo(q) => q.forget(item),
            ControllerQueue::Priority(q) => q.forget(item),
        }
    }

    pub fn num_requeues(&self, item: ItemId) -> u64 {
        match self {
            ControllerQueue::ClientGo(q) => q.num_requeues(item),
            ControllerQueue::Priority(q) => q.num_requeues(item),
        }
    }

    pub fn limiter(&self) -> &Limiter {
        match self {
            ControllerQueue::ClientGo(q) => q.limiter(),
            ControllerQueue::Priority(q) => q.limiter(),
        }
    }

    pub fn limiter_config(&self) -> &LimiterConfig {
        match self {
            ControllerQueue::ClientGo(q) => q.limiter_config(),
            ControllerQueue::Priority(q) => q.limiter_config(),
        }
    }

    pub fn metrics(&self) -> Option<MetricTotals<'_>> {
        match self {
            ControllerQueue::ClientGo(q) => q.metrics().map(|m| MetricTotals {
                depth: m.depth,
                adds_total: m.adds_total,
                retries_total: m.retries_total,
                queue_duration: &m.queue_duration,
                work_duration: &m.work_duration,
                depth_by_priority: Vec::new(),
            }),
            ControllerQueue::Priority(q) => q.metrics().map(|m| MetricTotals {
                depth: m.depth_total(),
                adds_total: m.adds_total,
                retries_total: m.retries_total,
                queue_duration: &m.queue_duration,
                work_duration: &m.work_duration,
                depth_by_priority: m.depth.iter().collect(),
            }),
        }
    }

    /// `(unfinished_work_seconds, longest_running_processor_seconds)` at `now`.
    pub fn work_gauges(&self, now: Instant) -> (f64, f64) {
        match self {
            ControllerQueue::ClientGo(q) => q.work_gauges(now),
            ControllerQueue::Priority(q) => q.metrics().map_or((0.0, 0.0), |m| m.work_gauges(now)),
        }
    }

    pub fn swap_events(&mut self, buf: &mut Vec<(Instant, QueueEvent)>) {
        match self {
            ControllerQueue::ClientGo(q) => q.swap_events(buf),
            ControllerQueue::Priority(q) => q.swap_events(buf),
        }
    }
}
