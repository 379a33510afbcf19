//! Items are keys such as `ns/pod-1`. Each distinct key is interned once into a
//! dense [`ItemId`], so the queue and the limiters keep per-item state in plain
//! vectors instead of hashing strings on every call.

use std::sync::Arc;

/// Odd constants (the fractional digits of pi) that key the hash.
const K: [u64; 3] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
];

/// A 64 x 64 -> 128 bit multiply, folded: every input bit reaches every
/// output bit.
#[inline]
fn fold_mul(a: u64, b: u64) -> u64 {
    let wide = (a as u128) * (b as u128);
    (wide as u64) ^ ((wide >> 64) as u64)
}

#[inline]
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

#[inline]
fn half_word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w) as u64
}

/// `a == b`, with keys of 8 to 16 bytes (the usual `ns/name`) compared as
/// two words in line instead of through a call to `memcmp`.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if (8..=16).contains(&len) {
        word(a, 0) == word(b, 0) && word(a, len - 8) == word(b, len - 8)
    } else {
        a == b
    }
}

/// The key hash, in the style of foldhash: 16 bytes per folded multiply, the
/// last (or only) 16 read as two possibly overlapping words, so a key such as
/// `ns/pod-1234` costs one multiply and no byte-by-byte tail. Keys are
/// trusted strings, so a fast non-cryptographic hash is the right trade; it
/// is fixed (no random seed), so runs are deterministic.
#[inline]
pub(crate) fn hash_key(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let len = bytes.len();
    let (acc, a, b) = if len <= 16 {
        let (a, b) = if len >= 8 {
            (word(bytes, 0), word(bytes, len - 8))
        } else if len >= 4 {
            (half_word(bytes, 0), half_word(bytes, len - 4))
        } else if len > 0 {
            let mid = bytes[len / 2] as u64;
            (bytes[0] as u64, mid << 8 | bytes[len - 1] as u64)
        } else {
            (0, 0)
        };
        (K[0], a, b)
    } else {
        let mut acc = K[0];
        let mut at = 0;
        while at + 16 < len {
            acc = fold_mul(word(bytes, at) ^ K[1], word(bytes, at + 8) ^ acc);
            at += 16;
        }
        (acc, word(bytes, len - 16), word(bytes, len - 8))
    };
    fold_mul(a ^ K[1] ^ len as u64, b ^ K[2] ^ acc)
}

/// A dense handle for an interned key. Ids are handed out 0, 1, 2, ... in the
/// order keys are first seen, which keeps every run deterministic.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ItemId(pub u32);

impl ItemId {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Maps keys to [`ItemId`]s and back, without an allocation per key: every
/// key's bytes live in one arena, and an open-addressing table (linear
/// probing) holds, per slot, 32 bits of the key's hash and its id. A lookup
/// hashes the key once and compares bytes only when those 32 bits match;
/// growing the table moves the slots without touching the arena. Ids are
/// never recycled: memory grows with the number of distinct keys ever seen,
/// like the limiters' maps in client-go grow with keys that are never
/// forgotten.
///
/// A key's name never changes once interned, so a clone (a rewind
/// checkpoint) shares the names instead of copying them; the first new key
/// interned after a clone copies them once, then goes on alone.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Arc<KeyNames>,
}

/// The interner's contents, shared by its clones until one of them learns
/// a new key.
#[derive(Debug)]
struct KeyNames {
    /// Every key's bytes, back to back.
    arena: String,
    /// Key `id` is `arena[ends[id]..ends[id + 1]]` (`ends[0]` is 0).
    ends: Vec<u32>,
    /// `tag << 32 | (id + 1)` per slot, 0 when empty; the length is a power
    /// of two (or 0 before the first key).
    table: Vec<u64>,
}

impl Default for KeyNames {
    fn default() -> Self {
        KeyNames {
            arena: String::new(),
            ends: vec![0],
            table: Vec::new(),
        }
    }
}

/// A copy keeps the original's capacity: the copy is the live run, about to
/// learn more keys.
impl Clone for KeyNames {
    fn clone(&self) -> Self {
        let mut arena = String::with_capacity(self.arena.capacity());
        arena.push_str(&self.arena);
        let mut ends = Vec::with_capacity(self.ends.capacity());
        ends.extend_from_slice(&self.ends);
        KeyNames {
            arena,
            ends,
            table: self.table.clone(),
        }
    }
}

/// The 32 bits of a hash a slot keeps; their top bits also pick the slot,
/// so one more multiply spreads the hash's bits into them.
#[inline]
fn tag_of(hash: u64) -> u32 {
    ((hash ^ hash >> 32).wrapping_mul(K[0]) >> 32) as u32
}

/// The slot a tag starts probing from in a table of `slots` slots: its top
/// bits, so the table is roughly in tag order and doubling it moves every
/// slot to about twice its index (the moves stream through memory instead of
/// scattering).
#[inline]
fn home(tag: u32, slots: usize) -> usize {
    ((tag as u64 * slots as u64) >> 32) as usize
}

#[inline]
fn tag_in(slot: u64) -> u32 {
    (slot >> 32) as u32
}

/// Where a lookup ended: the key's id, or the empty slot it would take.
enum Probe {
    Found(ItemId),
    Vacant(usize),
}

impl KeyNames {
    /// Slots that hold `keys` keys at most 3/4 full.
    fn slots_for(keys: usize) -> usize {
        (keys.saturating_mul(4) / 3 + 1).next_power_of_two().max(16)
    }

    fn probe(&self, key: &str, tag: u32) -> Probe {
        let mask = self.table.len() - 1;
        let mut i = home(tag, self.table.len());
        loop {
            let slot = self.table[i];
            if slot == 0 {
                return Probe::Vacant(i);
            }
            if tag_in(slot) == tag {
                let id = ItemId(slot as u32 - 1);
                if same_bytes(self.bytes(id), key.as_bytes()) {
                    return Probe::Found(id);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The first empty slot from `tag`'s home: where a key known to be new
    /// (or a slot being moved) goes.
    fn vacancy(&self, tag: u32) -> usize {
        let mask = self.table.len() - 1;
        let mut i = home(tag, self.table.len());
        while self.table[i] != 0 {
            i = (i + 1) & mask;
        }
        i
    }

    /// Doubles the table, placing every slot again by its tag.
    fn grow(&mut self) {
        let slots = Self::slots_for(self.len() + 1).max(self.table.len() * 2);
        let old = std::mem::replace(&mut self.table, vec![0; slots]);
        for slot in old.into_iter().filter(|s| *s != 0) {
            let i = self.vacancy(tag_in(slot));
            self.table[i] = slot;
        }
    }

    /// Adds `key`, known to be new, whose lookup ended at `vacant`.
    fn insert(&mut self, key: &str, tag: u32, vacant: Option<usize>) -> ItemId {
        let mut vacant = vacant;
        if (self.len() + 1) * 4 > self.table.len() * 3 {
            self.grow();
            vacant = None; // the slots moved
        }
        let vacant = vacant.unwrap_or_else(|| self.vacancy(tag));
        let id = u32::try_from(self.len())
            .ok()
            .filter(|id| *id < u32::MAX - 1)
            .expect("fewer than 2^32 - 2 distinct keys");
        self.arena.push_str(key);
        self.ends
            .push(u32::try_from(self.arena.len()).expect("under 4 GiB of key bytes"));
        self.table[vacant] = (tag as u64) << 32 | (id as u64 + 1);
        ItemId(id)
    }

    /// Key `id`'s bytes (no character-boundary checks, unlike [`Interner::name`]).
    #[inline]
    fn bytes(&self, id: ItemId) -> &[u8] {
        let i = id.index();
        &self.arena.as_bytes()[self.ends[i] as usize..self.ends[i + 1] as usize]
    }

    fn len(&self) -> usize {
        self.ends.len() - 1
    }
}

impl Interner {
    /// An interner with room for `keys` keys of about `bytes_per_key` bytes.
    pub fn with_capacity(keys: usize, bytes_per_key: usize) -> Interner {
        let mut ends = Vec::with_capacity(keys.saturating_add(1));
        ends.push(0);
        Interner {
            names: Arc::new(KeyNames {
                arena: String::with_capacity(keys.saturating_mul(bytes_per_key)),
                ends,
                table: vec![0; KeyNames::slots_for(keys)],
            }),
        }
    }

    pub fn intern(&mut self, key: &str) -> ItemId {
        let tag = tag_of(hash_key(key));
        // A key already seen is found without any thought of growing (or
        // of copying names shared with a checkpoint).
        let vacant = match (!self.names.table.is_empty()).then(|| self.names.probe(key, tag)) {
            Some(Probe::Found(id)) => return id,
            Some(Probe::Vacant(i)) => Some(i),
            None => None,
        };
        Arc::make_mut(&mut self.names).insert(key, tag, vacant)
    }

    pub fn get(&self, key: &str) -> Option<ItemId> {
        if self.names.table.is_empty() {
            return None;
        }
        match self.names.probe(key, tag_of(hash_key(key))) {
            Probe::Found(id) => Some(id),
            Probe::Vacant(_) => None,
        }
    }

    pub fn name(&self, id: ItemId) -> &str {
        let i = id.index();
        &self.names.arena[self.names.ends[i] as usize..self.names.ends[i + 1] as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every key in id order (the order keys were first seen).
    pub fn iter(&self) -> impl Iterator<Item = (ItemId, &str)> {
        (0..self.len()).map(|i| (ItemId(i as u32), self.name(ItemId(i as u32))))
    }

    /// Bytes the names hold on the heap, however many clones share them
    /// (a clone allocates none of it).
    pub fn heap_bytes(&self) -> usize {
        self.names.arena.capacity()
            + self.names.ends.capacity() * 4
            + self.names.table.capacity() * 8
    }

    /// Whether `self` and `other` share their names (one is a clone of the
    /// other and neither has learnt a key since).
    pub fn shares_names_with(&self, other: &Interner) -> bool {
        Arc::ptr_eq(&self.names, &other.names)
    }
}

/// Per-item values in a vector indexed by [`ItemId`], growing on demand.
#[derive(Clone, Debug)]
pub(crate) struct ItemMap<T> {
    values: Vec<T>,
    default: T,
}

impl<T: Clone> ItemMap<T> {
    pub(crate) fn new(default: T) -> Self {
        ItemMap {
            values: Vec::new(),
            default,
        }
    }

    #[inline]
    pub(crate) fn get(&self, id: ItemId) -> &T {
        self.values.get(id.index()).unwrap_or(&self.default)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, id: ItemId) -> &mut T {
        let i = id.index();
        if i >= self.values.len() {
            self.values.resize(i + 1, self.default.clone());
        }
        &mut self.values[i]
    }

    #[inline]
    pub(crate) fn set(&mut self, id: ItemId, value: T) {
        *self.get_mut(id) = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_keys_round_trip_through_the_arena_and_equal_hashes_chain() {
        let mut i = Interner::with_capacity(4, 8);
        let keys: Vec<String> = (0..50_000).map(|n| format!("ns/pod-{n}")).collect();
        for (n, k) in keys.iter().enumerate() {
            assert_eq!(i.intern(k), ItemId(n as u32));
        }
        for (n, k) in keys.iter().enumerate() {
            assert_eq!(i.get(k), Some(ItemId(n as u32)));
            assert_eq!(i.name(ItemId(n as u32)), k);
        }
        assert_eq!(i.get("ns/pod-50000"), None);
        assert_eq!(i.len(), 50_000);
        assert!(
            i.names.table.len() * 3 >= 50_000 * 4,
            "the table stays at most 3/4 full"
        );
    }

    #[test]
    fn keys_with_equal_tags_are_told_apart_by_their_bytes() {
        // Force every key onto one tag, as a collision of all 32 bits would:
        // insert by hand through the same probe `intern` uses.
        let mut c = KeyNames::default();
        c.grow();
        let tag = 7;
        for (n, key) in ["a", "b", "c"].into_iter().enumerate() {
            let Probe::Vacant(slot) = c.probe(key, tag) else {
                panic!("{key} is new")
            };
            c.arena.push_str(key);
            c.ends.push(c.arena.len() as u32);
            c.table[slot] = (tag as u64) << 32 | (n as u64 + 1);
        }
        for (n, key) in ["a", "b", "c"].into_iter().enumerate() {
            assert!(matches!(c.probe(key, tag), Probe::Found(id) if id == ItemId(n as u32)));
        }
        assert!(matches!(c.probe("d", tag), Probe::Vacant(_)));
        c.grow();
        assert!(
            matches!(c.probe("c", tag), Probe::Found(ItemId(2))),
            "found after a move"
        );
    }

    #[test]
    fn keys_differing_only_in_their_last_digits_spread_over_the_table() {
        // A hash whose low bits came only from the last bytes would put these
        // keys into a few runs of slots; count the longest run of full slots.
        let mut i = Interner::default();
        for n in 0..10_000 {
            i.intern(&format!("ns/pod-{n}"));
        }
        let (mut run, mut longest) = (0, 0);
        for slot in &i.names.table {
            run = if *slot == 0 { 0 } else { run + 1 };
            longest = longest.max(run);
        }
        assert!(longest < 200, "longest run of full slots {longest}");
    }

    #[test]
    fn a_clone_shares_the_names_until_it_learns_a_key() {
        let mut live = Interner::default();
        for n in 0..1000 {
            live.intern(&format!("ns/pod-{n}"));
        }
        let checkpoint = live.clone();
        assert!(live.shares_names_with(&checkpoint));
        // Known keys are looked up without copying.
        assert_eq!(live.intern("ns/pod-7"), ItemId(7));
        assert!(live.shares_names_with(&checkpoint));
        // A new key copies once; the checkpoint keeps the names as they were.
        assert_eq!(live.intern("ns/new"), ItemId(1000));
        assert!(!live.shares_names_with(&checkpoint));
        assert_eq!(checkpoint.len(), 1000);
        assert_eq!(checkpoint.get("ns/new"), None);
        assert_eq!(live.get("ns/new"), Some(ItemId(1000)));
        assert_eq!(live.name(ItemId(999)), "ns/pod-999");
        assert_eq!(checkpoint.name(ItemId(999)), "ns/pod-999");
    }

    #[test]
    fn interning_is_stable_and_dense() {
        let mut i = Interner::default();
        assert_eq!(i.intern("b"), ItemId(0));
        assert_eq!(i.intern("a"), ItemId(1));
        assert_eq!(i.intern("b"), ItemId(0));
        assert_eq!(i.name(ItemId(1)), "a");
        assert_eq!(i.get("zzz"), None);
        let mut m = ItemMap::new(0u32);
        *m.get_mut(ItemId(5)) += 2;
        assert_eq!(*m.get(ItemId(5)), 2);
        assert_eq!(*m.get(ItemId(99)), 0);
    }
}
