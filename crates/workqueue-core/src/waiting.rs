//! The delaying queue's waiting heap: a min-heap on `readyAt` with at most one
//! entry per item, ported from client-go's `waitForPriorityQueue` on Go's
//! `container/heap`, so items ready at the same instant leave in Go's order.

use crate::item::{ItemId, ItemMap};

/// Instants in the heap are i128: `now + InfDuration` must not overflow.
pub type ReadyAt = i128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub item: ItemId,
    /// `readyAt` as two words: an i128 field would align each entry to 16
    /// bytes, 32 a waiting key instead of 24 (in every rewind checkpoint).
    ready: [u64; 2],
}

impl Waiting {
    pub fn new(item: ItemId, ready_at: ReadyAt) -> Waiting {
        let bits = ready_at as u128;
        Waiting {
            item,
            ready: [(bits >> 64) as u64, bits as u64],
        }
    }

    pub fn ready_at(&self) -> ReadyAt {
        ((u128::from(self.ready[0]) << 64) | u128::from(self.ready[1])) as i128
    }

    fn set_ready_at(&mut self, ready_at: ReadyAt) {
        *self = Waiting::new(self.item, ready_at);
    }
}

#[derive(Clone, Debug)]
pub struct WaitingHeap {
    heap: Vec<Waiting>,
    /// Heap index per item, `u32::MAX` when absent (client-go's `knownEntries`).
    pos: ItemMap<u32>,
}

/// What an insert did, for the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    New,
    /// The item was waiting for later: its readyAt moved earlier.
    MovedEarlier {
        from: ReadyAt,
    },
    /// The item was already waiting for an earlier (or equal) instant: discarded.
    KeptEarlier {
        existing: ReadyAt,
    },
}

impl Default for WaitingHeap {
    fn default() -> Self {
        WaitingHeap {
            heap: Vec::new(),
            pos: ItemMap::new(u32::MAX),
        }
    }
}

impl WaitingHeap {
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn peek(&self) -> Option<Waiting> {
        self.heap.first().copied()
    }

    pub fn ready_at(&self, item: ItemId) -> Option<ReadyAt> {
        let p = *self.pos.get(item);
        (p != u32::MAX).then(|| self.heap[p as usize].ready_at())
    }

    /// Entries in heap (array) order; sort them for display.
    pub fn entries(&self) -> &[Waiting] {
        &self.heap
    }

    /// The `k` soonest entries, soonest first (equal instants by item),
    /// found by walking down from the root: O(k log k), the heap untouched
    /// and uncopied, however many keys wait. Among keys tied at the k-th
    /// instant, the walk picks those nearest the root.
    pub fn soonest(&self, k: usize) -> Vec<Waiting> {
        use std::cmp::Reverse;
        let key = |i: usize| Reverse((self.heap[i].ready_at(), self.heap[i].item, i));
        let mut frontier = std::collections::BinaryHeap::new();
        if !self.heap.is_empty() {
            frontier.push(key(0));
        }
        let mut out = Vec::with_capacity(k.min(self.heap.len()));
        while out.len() < k {
            let Some(Reverse((_, _, i))) = frontier.pop() else {
                break;
            };
            out.push(self.heap[i]);
            for child in [2 * i + 1, 2 * i + 2] {
                if child < self.heap.len() {
                    frontier.push(key(child));
                }
            }
        }
        out.sort_by_key(|w| (w.ready_at(), w.item));
        out
    }

    /// client-go's `insert`: the earliest readyAt wins.
    pub fn insert(&mut self, item: ItemId, ready_at: ReadyAt) -> Insert {
        let p = *self.pos.get(item);
        if p != u32::MAX {
            let existing = self.heap[p as usize].ready_at();
            if existing > ready_at {
                self.heap[p as usize].set_ready_at(ready_at);
                self.fix(p as usize);
                return Insert::MovedEarlier { from: existing };
            }
            return Insert::KeptEarlier { existing };
        }
        self.heap.push(Waiting::new(item, ready_at));
        self.pos.set(item, (self.heap.len() - 1) as u32);
        self.up(self.heap.len() - 1);
        Insert::New
    }

    /// `heap.Pop`: swap the root with the last entry, sift down, take the last.
    pub fn pop(&mut self) -> Option<Waiting> {
        let n = self.heap.len().checked_sub(1)?;
        self.swap(0, n);
        self.down(0, n);
        let w = self.heap.pop()?;
        self.pos.set(w.item, u32::MAX);
        Some(w)
    }

    pub fn clear(&mut self) {
        for w in self.heap.drain(..) {
            self.pos.set(w.item, u32::MAX);
        }
    }

    fn less(&self, i: usize, j: usize) -> bool {
        self.heap[i].ready_at() < self.heap[j].ready_at()
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.pos.set(self.heap[i].item, i as u32);
        self.pos.set(self.heap[j].item, j as u32);
    }

    /// `heap.Fix`.
    fn fix(&mut self, i: usize) {
        if !self.down(i, self.heap.len()) {
            self.up(i);
        }
    }

    fn up(&mut self, mut j: usize) {
        while j > 0 {
            let i = (j - 1) / 2;
            if !self.less(j, i) {
                break;
            }
            self.swap(i, j);
            j = i;
        }
    }

    fn down(&mut self, i0: usize, n: usize) -> bool {
        let mut i = i0;
        loop {
            let j1 = 2 * i + 1;
            if j1 >= n {
                break;
            }
            let mut j = j1;
            let j2 = j1 + 1;
            if j2 < n && self.less(j2, j1) {
                j = j2;
            }
            if !self.less(j, i) {
                break;
            }
            self.swap(i, j);
            i = j;
        }
        i > i0
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;

    #[test]
    fn an_entry_keeps_every_instant_exactly_in_24_bytes() {
        for at in [
            0,
            1,
            -1,
            i64::MAX as i128 * 3,
            i64::MIN as i128 * 2,
            i128::MAX,
            i128::MIN,
        ] {
            assert_eq!(Waiting::new(ItemId(7), at).ready_at(), at);
        }
        assert_eq!(std::mem::size_of::<Waiting>(), 24);
    }
}
