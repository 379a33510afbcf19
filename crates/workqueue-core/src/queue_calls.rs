//! What the two queues' calls take and say, shared by both so neither
//! depends on the other: the priority queue's `AddOpts`, where an add
//! landed and what `GetWithPriority` returned; and the events both queues
//! emit call by call, the log's and the animation's source.

use serde::Serialize;

use crate::item::ItemId;
use crate::limiter::Answer;
use crate::time::Duration;
use crate::waiting::ReadyAt;

/// The calls both queues hand to their limiter as they are (client-go's
/// queue and controller-runtime's priority queue alike), as methods of the
/// queue whose `impl` invokes this: one with the fields `limiter`,
/// `limiter_config` and `buckets`, and an `emit`.
macro_rules! limiter_calls {
    () => {
        /// `Forget(item)`: clears the limiter's memory of the item, nothing else.
        pub fn forget(&mut self, item: $crate::item::ItemId) {
            self.limiter.forget(item);
            self.emit($crate::queue_calls::QueueEvent::Forget { item });
        }

        /// `NumRequeues(item)`.
        pub fn num_requeues(&self, item: $crate::item::ItemId) -> u64 {
            self.limiter.num_requeues(item)
        }

        pub fn limiter(&self) -> &$crate::limiter::Limiter {
            &self.limiter
        }

        /// The limiter's buckets when the queue runs alone (empty when they
        /// live in a run's store).
        pub fn buckets(&self) -> &$crate::buckets::BucketStore {
            &self.buckets
        }

        pub fn limiter_config(&self) -> &$crate::limiter::LimiterConfig {
            &self.limiter_config
        }
    };
}
pub(crate) use limiter_calls;

/// `AddOpts`: `priority: None` is nil, which the queue reads as 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AddOpts {
    pub after: Duration,
    pub rate_limited: bool,
    pub priority: Option<i64>,
}

impl AddOpts {
    /// As Go code: `AddOpts{After: 30s, RateLimited: true, Priority: ptr.To(-100)}`.
    pub fn go(&self) -> String {
        let mut fields = Vec::new();
        if self.after != Duration::ZERO {
            fields.push(format!(
                "After: {}",
                crate::time::go::format_go_duration(self.after)
            ));
        }
        if self.rate_limited {
            fields.push("RateLimited: true".to_string());
        }
        if let Some(p) = self.priority {
            fields.push(format!("Priority: ptr.To({p})"));
        }
        format!("AddOpts{{{}}}", fields.join(", "))
    }
}

/// What one key's add did, for the stage and the inspector.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Added {
    pub item: ItemId,
    /// The limiter's answer, when the add was rate limited.
    pub limiter: Option<Answer>,
    /// The delay used: `After`, the limiter's, or the smaller of the two.
    pub effective: Duration,
    pub placed: Placed,
    /// The record's priority went up (from, to): it moved to the tail of
    /// its new priority class.
    pub raised: Option<(i64, i64)>,
}

/// Where an add left the key's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "placed", rename_all = "snake_case")]
pub enum Placed {
    /// A new record, ready now.
    NewReady,
    /// A new record, waiting until `ready_at`.
    NewWaiting {
        ready_at: ReadyAt,
    },
    /// The record was already ready: it stays ready (a delay is ignored).
    StayedReady,
    /// An immediate add to a waiting record: the pending delay is cancelled.
    DelayCancelled {
        was: ReadyAt,
    },
    /// Both delayed: the earlier readyAt is kept.
    KeptEarlier {
        ready_at: ReadyAt,
    },
    MovedEarlier {
        from: ReadyAt,
        ready_at: ReadyAt,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PqGot {
    Item {
        item: ItemId,
        priority: i64,
    },
    /// No ready record with an unlocked key (the real call would block).
    Empty,
    ShutDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("close of closed channel")]
pub struct AlreadyShutDown;

/// What one `AddWithOpts` call did (see [`QueueEvent::AddWithOpts`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AddWithOptsCall {
    pub item: ItemId,
    pub opts: AddOpts,
    /// The limiter's `When`, when rate limited.
    pub when: Option<Duration>,
    /// The delay used: `After`, `When`, or the smaller of the two.
    pub effective: Duration,
    pub placed: Placed,
    /// The record's priority went up (from, to).
    pub raised: Option<(i64, i64)>,
}

/// One observable thing the queue did, for the log and the animation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum QueueEvent {
    Add {
        item: ItemId,
        effect: AddEffect,
    },
    AddAfter {
        item: ItemId,
        delay: Duration,
        effect: AfterEffect,
    },
    /// `AddRateLimited`: the limiter's `When` answer; an `AddAfter` follows.
    RateLimited {
        item: ItemId,
        delay: Duration,
    },
    /// The waiting heap released an item (an `Add` follows).
    Released {
        item: ItemId,
    },
    Get {
        item: ItemId,
    },
    Done {
        item: ItemId,
        requeued: bool,
    },
    Forget {
        item: ItemId,
    },
    ShutDown {
        drain: bool,
    },
    /// controller-runtime's priority queue: `AddWithOpts(opts, item)`.
    /// Boxed: four times the size of any other event, it would set the size
    /// of every entry in the log (and in every rewind checkpoint's log).
    AddWithOpts(Box<AddWithOptsCall>),
    /// controller-runtime's priority queue: `GetWithPriority()`.
    GetWithPriority {
        item: ItemId,
        priority: i64,
    },
}

impl QueueEvent {
    /// The key this event is about (a shutdown is about none).
    pub fn item(&self) -> Option<ItemId> {
        match self {
            QueueEvent::Add { item, .. }
            | QueueEvent::AddAfter { item, .. }
            | QueueEvent::RateLimited { item, .. }
            | QueueEvent::Released { item }
            | QueueEvent::Get { item }
            | QueueEvent::Done { item, .. }
            | QueueEvent::Forget { item }
            | QueueEvent::GetWithPriority { item, .. } => Some(*item),
            QueueEvent::AddWithOpts(call) => Some(call.item),
            QueueEvent::ShutDown { .. } => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AddEffect {
    /// New in `dirty`, pushed to the tail of the FIFO.
    Queued,
    /// Already dirty: nothing changes (deduplication).
    Deduplicated,
    /// Being processed: marked dirty; `Done` will push it.
    MarkedDirty,
    /// Shutting down: ignored.
    Ignored,
    /// Never reached the queue: Crossplane core's circuit breaker for the
    /// XR was open and dropped the watch event.
    CircuitOpen,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum AfterEffect {
    /// Delay ≤ 0: a plain `Add` (still counted as a retry).
    Immediate,
    Waiting {
        ready_at: ReadyAt,
    },
    MovedEarlier {
        from: ReadyAt,
        ready_at: ReadyAt,
    },
    /// Already waiting for an earlier instant: this request is discarded.
    KeptEarlier {
        ready_at: ReadyAt,
    },
    Ignored,
}
