//! The driver's timer stores: every instant the run has promised itself
//! (reconcile ends, the sources' firings, the scenario's adds). Each store
//! reports its earliest into one [`TimerTable`], with the queue's waiting
//! heap, which stays the queue's own (client-go's delaying queue owns its
//! heap); the table alone decides which comes next.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::item::ItemId;
use crate::time::Instant;
use crate::timer::{Timer, TimerTable};

#[derive(Clone, Debug, Default)]
pub(super) struct Timers {
    /// When each busy worker's reconcile ends, soonest first (then by
    /// worker): the next end without a scan of the workers.
    reconcile_ends: BinaryHeap<Reverse<(Instant, u32)>>,
    /// `(next firing, slot)` for each scheduled source, soonest first (then
    /// by slot, the order they started in). A stopped source's entry stays
    /// until it surfaces, so a thousand quiet sources cost nothing per
    /// instant and stopping one costs no search.
    sources: BinaryHeap<Reverse<(Instant, u32)>>,
    /// The scenario's own adds, by instant (file order within one), and how
    /// many are made.
    adds: Vec<(Instant, ItemId)>,
    adds_made: usize,
}

impl Timers {
    /// A table with the scenario's adds (in file order within an instant).
    pub(super) fn with_adds(mut adds: Vec<(Instant, ItemId)>) -> Timers {
        adds.sort_by_key(|(at, _)| *at); // stable
        Timers {
            adds,
            ..Timers::default()
        }
    }

    /// The table of every promised instant: the stores' earliest, with the
    /// queue's next release (`queue_ready`) and an instant that carries on
    /// (`resume`).
    pub(super) fn table(
        &self,
        queue_ready: Option<Instant>,
        resume: Option<Instant>,
    ) -> TimerTable {
        let mut table = TimerTable::default();
        table.set(Timer::Resume, resume);
        table.set(Timer::QueueDelay, queue_ready);
        let ends = self.reconcile_ends.peek().map(|Reverse((until, _))| *until);
        table.set(Timer::ReconcileDone, ends);
        table.set(Timer::Add, self.adds.get(self.adds_made).map(|(at, _)| *at));
        // Stale entries included (see [`Timers::drop_stale_sources`]).
        let source = self.sources.peek().map(|Reverse((at, _))| *at);
        table.set(Timer::Source, source);
        table
    }

    /// Worker `w`'s reconcile ends `until`.
    pub(super) fn reconcile_ends(&mut self, until: Instant, w: u32) {
        self.reconcile_ends.push(Reverse((until, w)));
    }

    /// The worker whose reconcile ends by `t`, lowest first; taken off the table.
    pub(super) fn ended_by(&mut self, t: Instant) -> Option<u32> {
        let &Reverse((until, w)) = self.reconcile_ends.peek()?;
        (until <= t).then(|| {
            self.reconcile_ends.pop();
            w
        })
    }

    /// The next scheduled add due by `t`, without making it.
    pub(super) fn add_due_by(&self, t: Instant) -> Option<ItemId> {
        self.adds
            .get(self.adds_made)
            .filter(|(at, _)| *at <= t)
            .map(|(_, id)| *id)
    }

    /// The add [`Timers::add_due_by`] showed is made.
    pub(super) fn add_made(&mut self) {
        debug_assert!(self.adds_made < self.adds.len());
        self.adds_made += 1;
    }

    /// Source `slot` fires next at `at`.
    pub(super) fn source_at(&mut self, at: Instant, slot: u32) {
        self.sources.push(Reverse((at, slot)));
    }

    /// The entry of a source due by `t`, taken off the table: `(when, slot)`
    /// (the caller tells a live entry from a stale one).
    pub(super) fn source_due_by(&mut self, t: Instant) -> Option<(Instant, u32)> {
        let &Reverse((at, slot)) = self.sources.peek()?;
        (at <= t).then(|| {
            self.sources.pop();
            (at, slot)
        })
    }

    /// Drops entries from the top while `stale` says they are, so the next
    /// firing shown is a real one (deeper stale entries go when they surface).
    pub(super) fn drop_stale_sources(&mut self, stale: impl Fn(Instant, u32) -> bool) {
        while let Some(&Reverse((at, slot))) = self.sources.peek() {
            if !stale(at, slot) {
                break;
            }
            self.sources.pop();
        }
    }
}
