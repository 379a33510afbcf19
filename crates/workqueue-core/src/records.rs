//! What the driver remembers about each key beyond the queue's own state:
//! counters, the latest answer and a bounded ring of its retries.

use serde::Serialize;

use crate::item::{ItemId, ItemMap};
use crate::limiter::Answer;
use crate::time::{Duration, Instant};

/// Retries remembered per key for the backoff chart and the inspector (the
/// latest ones; the failure count itself is never lost). Kept inline, so ten
/// thousand keys hold the same memory after an hour as after five minutes.
pub(crate) const HISTORY_PER_ITEM: usize = 8;

/// One rate-limited requeue of a key, for "why is this key waiting?" (what
/// the queue then did with it is in the log, as `QueueEvent::AddAfter`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Retry {
    pub at: Instant,
    /// `NumRequeues(key)` before this requeue: the failure number, from 0.
    pub failures_before: u64,
    pub delay: Duration,
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

/// What the simulation knows about one key beyond the queue's own state:
/// counters and flags, one small record per key (its retry history and the
/// limiter's latest answer are in [`Details`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ItemInfo {
    pub reconciles: u64,
    pub errors: u64,
    /// Adds absorbed by deduplication since the key was last handed to a
    /// worker: how many events the one queued (or dirty) copy stands for.
    pub absorbed: u64,
    /// When the key's current wait in the heap began (its countdown's full
    /// length is `ready_at - wait_from`).
    pub wait_from: Instant,
    /// The log position (`seq`) of the key's latest `ReconcileEnd`: where
    /// the calls its last result caused begin.
    /// (`None` before the first; never position 0, which its Get took first.)
    pub last_end_seq: Option<std::num::NonZeroU64>,
    /// Rate-limited requeues so far (however many [`Details`] still holds).
    pub retries_total: u64,
    /// Dropped by "give up after N requeues" or a terminal error.
    pub gave_up: bool,
    /// Whether the latest rate-limited requeue waits because of a token
    /// bucket (its answer was decided by one).
    pub bucket_bound: bool,
    /// Whether the latest wait is a `RequeueAfter` (not the limiter's).
    pub waits_after: bool,
    #[serde(flatten)]
    pub converge: Converge,
}

/// A key's time to converge: from its first add to its latest success.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Converge {
    /// When the key was first added: where its time to converge starts.
    pub first_added: Option<Instant>,
    /// When a reconcile of the key last succeeded.
    pub last_success: Option<Instant>,
    /// The success that ended the key's last run of failures (or its first
    /// success, if it never failed): where it converged. A later success
    /// (a resync, a watch event) does not move it; a later failure clears
    /// it until the next success.
    #[serde(skip)]
    pub settled: Option<Instant>,
}

impl Converge {
    /// How long the key took to converge, once it has succeeded (and not
    /// failed since).
    pub fn took(&self) -> Option<Duration> {
        Some(self.settled? - self.first_added?)
    }

    /// A success at `now`: where the key converged, unless it already had
    /// and has not failed since (a failure clears `settled`, so no flag of
    /// its own is kept: a million keys' records are 8 bytes smaller each).
    pub(crate) fn succeeded(&mut self, now: Instant) {
        self.last_success = Some(now);
        if self.settled.is_none() {
            self.settled = Some(now);
        }
    }

    pub(crate) fn failed(&mut self) {
        self.settled = None;
    }
}

/// Keys whose details are held: the first this many keys to retry (every
/// key of the lessons' 10,000-key storms). Held for every key of a
/// 100,000-key storm they were 300 bytes a key, in the live run and in every
/// rewind checkpoint. The first to retry are kept, not the latest: in a
/// storm the keys that retried first are the ones ready first, the ones
/// the stage shows and a person clicks.
pub const DETAILED_KEYS: usize = 16_384;

/// What the inspector and the backoff chart show of one key: its latest
/// retries and every sub-limiter's answer to its latest `When`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyDetail {
    /// The latest rate-limited requeues, oldest first (bounded).
    pub retries: RetryHistory,
    pub answer: Option<Answer>,
}

/// Per-key details in at most [`DETAILED_KEYS`] slots: a key is given
/// one at its first retry while any is free, and keeps it. A key without
/// one still has its counters in [`ItemInfo`].
#[derive(Clone, Debug)]
pub(crate) struct Details {
    /// Each key's slot, [`NO_SLOT`] when it has none.
    slot_of: ItemMap<u32>,
    slots: Vec<KeyDetail>,
}

const NO_SLOT: u32 = u32::MAX;

impl Default for Details {
    fn default() -> Self {
        Details {
            slot_of: ItemMap::new(NO_SLOT),
            slots: Vec::new(),
        }
    }
}

impl Details {
    pub(crate) fn get(&self, item: ItemId) -> Option<&KeyDetail> {
        match *self.slot_of.get(item) {
            NO_SLOT => None,
            slot => self.slots.get(slot as usize),
        }
    }

    /// Records a rate-limited requeue of `item` and the answer behind it
    /// (dropped for a key without a slot once none is free).
    pub(crate) fn record(&mut self, item: ItemId, retry: Retry, answer: Answer) {
        let slot = match *self.slot_of.get(item) {
            NO_SLOT if self.slots.len() < DETAILED_KEYS => {
                self.slot_of.set(item, self.slots.len() as u32);
                self.slots.push(KeyDetail::default());
                self.slots.len() - 1
            }
            NO_SLOT => return,
            slot => slot as usize,
        };
        let detail = &mut self.slots[slot];
        detail.retries.push(retry);
        detail.answer = Some(answer);
    }
}

#[cfg(test)]
mod details_tests {
    use super::*;
    use crate::item::ItemId;
    use crate::limiter::AnswerKind;

    fn answer(delay: Duration) -> Answer {
        Answer {
            kind: AnswerKind::MaxOf,
            delay,
            parts: Vec::new(),
            won: false,
        }
    }

    fn retry(at: Instant) -> Retry {
        Retry {
            at,
            failures_before: 0,
            delay: at.since_t0(),
        }
    }

    #[test]
    fn the_first_keys_to_retry_keep_their_details_and_later_ones_get_none() {
        let mut d = Details::default();
        // Ids out of order: slots go by first retry, not by id.
        for i in (0..DETAILED_KEYS as u32).rev() {
            d.record(
                ItemId(i + 5),
                retry(Instant::from_nanos(i as i64)),
                answer(Duration::from_nanos(1)),
            );
        }
        d.record(
            ItemId(5),
            retry(Instant::from_nanos(7)),
            answer(Duration::from_nanos(2)),
        );
        assert_eq!(d.get(ItemId(5)).unwrap().retries.len(), 2);
        assert_eq!(
            d.get(ItemId(5)).unwrap().answer.as_ref().unwrap().delay,
            Duration::from_nanos(2)
        );
        // All taken: a newcomer is not held, and nobody loses theirs.
        d.record(
            ItemId(0),
            retry(Instant::from_nanos(9)),
            answer(Duration::from_nanos(3)),
        );
        assert_eq!(d.get(ItemId(0)), None);
        assert!((5..DETAILED_KEYS as u32 + 5).all(|i| d.get(ItemId(i)).is_some()));
        assert_eq!(d.slots.len(), DETAILED_KEYS);
    }
}
