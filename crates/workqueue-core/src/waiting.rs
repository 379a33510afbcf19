//! The delaying queue's waiting heap: a min-heap on `readyAt` with at most one
//! entry per item, ported from client-go's `waitForPriorityQueue` on Go's
//! `container/heap`, so items ready at the same instant leave in Go's order.

use crate::item::{ItemId, ItemMap};

use crate::time::WideInstant;

/// Instants in the heap are wide: `now + InfDuration` must not overflow.
pub(crate) type ReadyAt = WideInstant;

/// A [`ReadyAt`] as two words, ordered as the i128 is (high word signed,
/// then low word unsigned). The queues only ever compute `now + after`, two
/// i64s, which takes 65 bits: a 32-bit high word holds every such instant
/// exactly and packs beside a 32-bit item id. An i128 field would align its
/// entry to 16 bytes: a waiting entry would be 32 bytes instead of 16, a
/// priority-queue entry 48 instead of 32, in the live run and in every
/// rewind checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Instant2w {
    high: i32,
    low: u64,
}

impl Instant2w {
    /// Exact for every instant within ±2^95 ns (any sum of two i64s);
    /// beyond that, which no queue computes, it saturates.
    #[inline]
    pub(crate) fn new(at: ReadyAt) -> Instant2w {
        let at = at.as_nanos();
        match i32::try_from(at >> 64) {
            Ok(high) => Instant2w {
                high,
                low: at as u64,
            },
            Err(_) if at < 0 => Instant2w::from_words(i32::MIN, 0),
            Err(_) => Instant2w::from_words(i32::MAX, u64::MAX),
        }
    }

    #[inline]
    pub(crate) fn get(self) -> ReadyAt {
        WideInstant::from_nanos((i128::from(self.high) << 64) | i128::from(self.low))
    }

    /// The two words, for an entry that stores them apart (so that the
    /// high one packs beside a 32-bit field).
    #[inline]
    pub(crate) fn words(self) -> (i32, u64) {
        (self.high, self.low)
    }

    #[inline]
    pub(crate) fn from_words(high: i32, low: u64) -> Instant2w {
        Instant2w { high, low }
    }
}

/// A waiting item: 16 bytes (see [`Instant2w`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Waiting {
    ready_low: u64,
    ready_high: i32,
    pub item: ItemId,
}

impl Waiting {
    pub(crate) fn new(item: ItemId, ready_at: ReadyAt) -> Waiting {
        let (ready_high, ready_low) = Instant2w::new(ready_at).words();
        Waiting {
            ready_low,
            ready_high,
            item,
        }
    }

    #[inline]
    fn ready(&self) -> Instant2w {
        Instant2w::from_words(self.ready_high, self.ready_low)
    }

    pub(crate) fn ready_at(&self) -> ReadyAt {
        self.ready().get()
    }
}

/// An entry of an [`IndexedHeap`]: the key it belongs to (one entry per key)
/// and its order.
pub(crate) trait HeapEntry: Copy {
    fn item(&self) -> ItemId;
    /// A total order for listing entries, soonest first.
    type Listing: Ord;
    fn listing(&self) -> Self::Listing;
    /// The heap's `Less`: the listing order, unless the heap being ported
    /// orders less finely.
    fn less(&self, other: &Self) -> bool {
        self.listing() < other.listing()
    }
}

impl HeapEntry for Waiting {
    fn item(&self) -> ItemId {
        self.item
    }

    /// client-go compares readyAt only: equal instants leave in heap order.
    fn less(&self, other: &Self) -> bool {
        self.ready() < other.ready()
    }

    type Listing = (Instant2w, ItemId);
    fn listing(&self) -> Self::Listing {
        (self.ready(), self.item)
    }
}

/// A binary min-heap, as Go's `container/heap` runs it, with each key's
/// position on record so an entry is found, moved or removed in
/// O(log n): 4 bytes a key beside the entries, in one flat vector (a
/// B-tree of the same entries holds some twice their size in half-full
/// nodes).
#[derive(Clone, Debug)]
pub(crate) struct IndexedHeap<E> {
    heap: Vec<E>,
    /// Heap index per item, `u32::MAX` when absent (client-go's `knownEntries`).
    pos: ItemMap<u32>,
}

/// client-go's `waitForPriorityQueue`.
pub(crate) type WaitingHeap = IndexedHeap<Waiting>;

/// What an insert did, for the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insert {
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

impl<E> Default for IndexedHeap<E> {
    fn default() -> Self {
        IndexedHeap {
            heap: Vec::new(),
            pos: ItemMap::new(u32::MAX),
        }
    }
}

impl<E: HeapEntry> IndexedHeap<E> {
    pub(crate) fn len(&self) -> usize {
        self.heap.len()
    }

    pub(crate) fn peek(&self) -> Option<E> {
        self.heap.first().copied()
    }

    /// The entry of `item`, if it has one.
    pub(crate) fn get(&self, item: ItemId) -> Option<&E> {
        let p = *self.pos.get(item);
        (p != u32::MAX).then(|| &self.heap[p as usize])
    }

    /// Entries in heap (array) order; sort them for display.
    pub(crate) fn entries(&self) -> &[E] {
        &self.heap
    }

    /// Every entry, soonest first.
    pub(crate) fn sorted(&self) -> Vec<E> {
        let mut all = self.heap.clone();
        all.sort_by_key(E::listing);
        all
    }

    /// The `k` soonest entries, soonest first (in listing order), found by
    /// walking down from the root: the heap untouched and uncopied, however
    /// many keys wait. Among keys tied at the k-th instant, the walk picks
    /// those nearest the root. The frontier is at most k + 1 entries, and k
    /// is what a view shows (tens), so it is scanned, not kept as a heap.
    pub(crate) fn soonest(&self, k: usize) -> Vec<E> {
        let mut frontier: Vec<usize> = if self.heap.is_empty() {
            vec![]
        } else {
            vec![0]
        };
        let mut out = Vec::with_capacity(k.min(self.heap.len()));
        while out.len() < k {
            let Some((at, &i)) = frontier
                .iter()
                .enumerate()
                .min_by_key(|(_, &i)| (self.heap[i].listing(), i))
            else {
                break;
            };
            frontier.swap_remove(at);
            out.push(self.heap[i]);
            frontier.extend((2 * i + 1..=2 * i + 2).filter(|c| *c < self.heap.len()));
        }
        // Ties the heap does not order (client-go's equal instants) may
        // come out of listing order; a few entries, so an insertion sort.
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && out[j].listing() < out[j - 1].listing() {
                out.swap(j, j - 1);
                j -= 1;
            }
        }
        out
    }

    /// `heap.Push` of an entry whose key has none.
    pub(crate) fn push(&mut self, entry: E) {
        debug_assert!(self.get(entry.item()).is_none(), "one entry per key");
        self.heap.push(entry);
        self.pos.set(entry.item(), (self.heap.len() - 1) as u32);
        self.up(self.heap.len() - 1);
    }

    /// Replaces `item`'s entry with `entry` (same key) and restores the
    /// order (`heap.Fix`).
    pub(crate) fn replace(&mut self, item: ItemId, entry: E) {
        let p = *self.pos.get(item);
        debug_assert!(p != u32::MAX && entry.item() == item);
        self.heap[p as usize] = entry;
        self.fix(p as usize);
    }

    /// `heap.Pop`: swap the root with the last entry, sift down, take the last.
    pub(crate) fn pop(&mut self) -> Option<E> {
        let n = self.heap.len().checked_sub(1)?;
        self.swap(0, n);
        self.down(0, n);
        let e = self.heap.pop()?;
        self.pos.set(e.item(), u32::MAX);
        Some(e)
    }

    /// `heap.Remove` of `item`'s entry, if it has one.
    pub(crate) fn remove(&mut self, item: ItemId) -> Option<E> {
        let i = *self.pos.get(item);
        if i == u32::MAX {
            return None;
        }
        let (i, n) = (i as usize, self.heap.len() - 1);
        if i != n {
            self.swap(i, n);
            if !self.down(i, n) {
                self.up(i);
            }
        }
        let e = self.heap.pop()?;
        self.pos.set(e.item(), u32::MAX);
        Some(e)
    }

    pub(crate) fn clear(&mut self) {
        for e in self.heap.drain(..) {
            self.pos.set(e.item(), u32::MAX);
        }
    }

    fn less(&self, i: usize, j: usize) -> bool {
        self.heap[i].less(&self.heap[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.pos.set(self.heap[i].item(), i as u32);
        self.pos.set(self.heap[j].item(), j as u32);
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

impl WaitingHeap {
    pub(crate) fn ready_at(&self, item: ItemId) -> Option<ReadyAt> {
        self.get(item).map(Waiting::ready_at)
    }

    /// client-go's `insert`: the earliest readyAt wins.
    pub(crate) fn insert(&mut self, item: ItemId, ready_at: ReadyAt) -> Insert {
        match self.ready_at(item) {
            Some(existing) if existing > ready_at => {
                self.replace(item, Waiting::new(item, ready_at));
                Insert::MovedEarlier { from: existing }
            }
            Some(existing) => Insert::KeptEarlier { existing },
            None => {
                self.push(Waiting::new(item, ready_at));
                Insert::New
            }
        }
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;

    /// Every instant a queue computes is `now + after`, two i64s.
    const EXTREMES: [i128; 7] = [
        0,
        1,
        -1,
        i64::MAX as i128 * 2,
        i64::MIN as i128 * 2,
        i64::MAX as i128 + 1,
        i64::MIN as i128 - 1,
    ];

    #[test]
    fn an_entry_keeps_every_instant_a_queue_computes_exactly_in_16_bytes() {
        for at in EXTREMES {
            assert_eq!(
                Waiting::new(ItemId(7), WideInstant::from_nanos(at)).ready_at(),
                WideInstant::from_nanos(at)
            );
        }
        assert_eq!(std::mem::size_of::<Waiting>(), 16);
    }

    #[test]
    fn an_instant_beyond_any_sum_of_two_i64s_saturates_in_order() {
        let (lowest, highest) = (
            Instant2w::new(WideInstant::from_nanos(i128::MIN)),
            Instant2w::new(WideInstant::from_nanos(i128::MAX)),
        );
        for at in EXTREMES {
            assert!(
                lowest < Instant2w::new(WideInstant::from_nanos(at))
                    && Instant2w::new(WideInstant::from_nanos(at)) < highest
            );
        }
    }

    /// A test entry: (order, key), unique as the priority queue's are.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Keyed(u8, ItemId);

    impl HeapEntry for Keyed {
        fn item(&self) -> ItemId {
            self.1
        }
        type Listing = Keyed;
        fn listing(&self) -> Keyed {
            *self
        }
    }

    proptest::proptest! {
        /// Against a naive reference (an ordered set): push, move, remove
        /// and pop leave the same entries, and pops come in the same order.
        #[test]
        fn the_indexed_heap_keeps_what_an_ordered_set_keeps(
            ops in proptest::collection::vec((0u8..4, 0u32..24, proptest::num::u8::ANY), 0..300)
        ) {
            let mut heap = IndexedHeap::<Keyed>::default();
            let mut naive = std::collections::BTreeSet::new();
            for (op, key, order) in ops {
                let item = ItemId(key);
                let had = naive.iter().copied().find(|e: &Keyed| e.1 == item);
                match (op, had) {
                    (0, None) => {
                        heap.push(Keyed(order, item));
                        naive.insert(Keyed(order, item));
                    }
                    (0, Some(old)) | (1, Some(old)) => {
                        heap.replace(item, Keyed(order, item));
                        naive.remove(&old);
                        naive.insert(Keyed(order, item));
                    }
                    (2, _) => {
                        proptest::prop_assert_eq!(heap.remove(item), had);
                        if let Some(old) = had {
                            naive.remove(&old);
                        }
                    }
                    (3, _) => {
                        let first = naive.iter().next().copied();
                        proptest::prop_assert_eq!(heap.pop(), first);
                        if let Some(first) = first {
                            naive.remove(&first);
                        }
                    }
                    _ => {}
                }
                proptest::prop_assert_eq!(heap.len(), naive.len());
                proptest::prop_assert_eq!(heap.peek(), naive.iter().next().copied());
                proptest::prop_assert_eq!(heap.get(item).copied(), naive.iter().copied().find(|e| e.1 == item));
                let listed: Vec<Keyed> = naive.iter().copied().collect();
                proptest::prop_assert_eq!(heap.sorted(), listed.clone());
                proptest::prop_assert_eq!(heap.soonest(5), listed[..listed.len().min(5)].to_vec());
            }
        }

        #[test]
        fn two_words_order_as_the_i128_does(a: (i64, i64), b: (i64, i64)) {
            let (a, b) = (a.0 as i128 + a.1 as i128, b.0 as i128 + b.1 as i128);
            let (x, y) = (Instant2w::new(WideInstant::from_nanos(a)), Instant2w::new(WideInstant::from_nanos(b)));
            proptest::prop_assert_eq!(x.get(), WideInstant::from_nanos(a));
            proptest::prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        }
    }
}
