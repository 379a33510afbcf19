//! What the driver remembers about each key beyond the queue's own state:
//! counters, the latest answer and a bounded ring of its retries.

use serde::Serialize;

use crate::controller::{Decision, Outcome};
use crate::limiter::Answer;
use crate::time::Nanos;

/// Retries remembered per key for the backoff chart and the inspector (the
/// latest ones; the failure count itself is never lost). Kept inline, so ten
/// thousand keys hold the same memory after an hour as after five minutes.
pub const HISTORY_PER_ITEM: usize = 8;

/// One rate-limited requeue of a key, for "why is this key waiting?" (what
/// the queue then did with it is in the log, as `QueueEvent::AddAfter`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Retry {
    pub at: Nanos,
    /// `NumRequeues(key)` before this requeue: the failure number, from 0.
    pub failures_before: u64,
    pub delay: Nanos,
}

/// The latest [`HISTORY_PER_ITEM`] retries of a key, oldest first, in a
/// fixed inline ring: no allocation per key, whatever the run's length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetryHistory {
    ring: [Retry; HISTORY_PER_ITEM],
    /// Every retry ever pushed (the ring holds the latest of them).
    total: u64,
}

impl RetryHistory {
    pub fn push(&mut self, r: Retry) {
        self.ring[(self.total % HISTORY_PER_ITEM as u64) as usize] = r;
        self.total += 1;
    }

    /// Retries held (at most [`HISTORY_PER_ITEM`]).
    pub fn len(&self) -> usize {
        self.total.min(HISTORY_PER_ITEM as u64) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Every retry of the key so far, including those no longer held.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The retries held, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Retry> + '_ {
        let first = self.total - self.len() as u64;
        (first..self.total).map(move |i| &self.ring[(i % HISTORY_PER_ITEM as u64) as usize])
    }

    pub fn back(&self) -> Option<&Retry> {
        self.iter().next_back()
    }
}

impl Serialize for RetryHistory {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// What the simulation knows about one key beyond the queue's own state.
/// `repr(C)` keeps the fields every reconcile and queue event touches
/// together at the front (two cache lines), then the latest answer, then the
/// history ring: with 100,000 keys the records outgrow the caches, and each
/// line a reconcile touches is a trip to memory.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[repr(C)]
pub struct ItemInfo {
    pub reconciles: u64,
    pub errors: u64,
    /// Adds absorbed by deduplication since the key was last handed to a
    /// worker: how many events the one queued (or dirty) copy stands for.
    pub absorbed: u64,
    /// When the key's current wait in the heap began (its countdown's full
    /// length is `ready_at - wait_from`).
    pub wait_from: Nanos,
    /// How long its latest reconcile waited for the API client.
    pub client_waited: Nanos,
    pub watch_events: u64,
    /// The log position (`seq`) of the key's latest `ReconcileEnd`: where
    /// the calls its last result caused begin.
    pub last_end_seq: Option<u64>,
    pub last_outcome: Option<Outcome>,
    pub last_decision: Option<Decision>,
    /// Dropped by "give up after N requeues" or a terminal error.
    pub gave_up: bool,
    /// Whether the latest rate-limited requeue waits because of a token
    /// bucket (its answer was decided by one).
    pub bucket_bound: bool,
    /// Every sub-limiter's answer to the latest `When` (kept for the latest
    /// requeue only: ten thousand keys × a full history would be heavy to keep
    /// and to snapshot).
    pub last_answer: Option<Answer>,
    /// The latest rate-limited requeues, oldest first (bounded).
    pub retries: RetryHistory,
}
