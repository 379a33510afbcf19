//! Items are keys such as `ns/pod-1`. Each distinct key is interned once into a
//! dense [`ItemId`], so the queue and the limiters keep per-item state in plain
//! vectors instead of hashing strings on every call.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// rustc's Fx hash: a multiply-rotate over 8-byte words. Keys are short,
/// trusted strings, so a fast non-cryptographic hash is the right trade.
/// It is deterministic, and nothing iterates over the map for output.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(buf));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
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
/// key's bytes live in one arena, and the table maps a key's hash to the
/// first id with that hash (ids with equal hashes are chained). A lookup
/// hashes the key once. Ids are never recycled: memory grows with the number
/// of distinct keys ever seen, like the limiters' maps in client-go grow with
/// keys that are never forgotten.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    /// Every key's bytes, back to back.
    arena: String,
    /// Where key `id` lives in the arena.
    spans: Vec<(u32, u32)>,
    /// A key's hash → the latest id with that hash.
    by_hash: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    /// For each id, the previous id with the same hash (`u32::MAX`: none).
    same_hash: Vec<u32>,
}

/// The table's keys are hashes already: used as they are.
#[derive(Default, Clone, Copy)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ *b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

const NONE: u32 = u32::MAX;

#[inline]
fn hash_of(key: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(key.as_bytes());
    h.finish()
}

impl Interner {
    /// An interner with room for `keys` keys of about `bytes_per_key` bytes.
    pub fn with_capacity(keys: usize, bytes_per_key: usize) -> Interner {
        Interner {
            arena: String::with_capacity(keys.saturating_mul(bytes_per_key)),
            spans: Vec::with_capacity(keys),
            by_hash: HashMap::with_capacity_and_hasher(keys, Default::default()),
            same_hash: Vec::with_capacity(keys),
        }
    }

    fn find(&self, key: &str, hash: u64) -> Option<ItemId> {
        let mut id = *self.by_hash.get(&hash)?;
        while id != NONE {
            if self.name(ItemId(id)) == key {
                return Some(ItemId(id));
            }
            id = self.same_hash[id as usize];
        }
        None
    }

    pub fn intern(&mut self, key: &str) -> ItemId {
        let hash = hash_of(key);
        if let Some(id) = self.find(key, hash) {
            return id;
        }
        let id = u32::try_from(self.spans.len())
            .ok()
            .filter(|id| *id != NONE)
            .expect("fewer than 2^32 - 1 distinct keys");
        let start = u32::try_from(self.arena.len()).expect("under 4 GiB of key bytes");
        self.arena.push_str(key);
        self.spans.push((start, key.len() as u32));
        let previous = self.by_hash.insert(hash, id).unwrap_or(NONE);
        self.same_hash.push(previous);
        ItemId(id)
    }

    pub fn get(&self, key: &str) -> Option<ItemId> {
        self.find(key, hash_of(key))
    }

    pub fn name(&self, id: ItemId) -> &str {
        let (start, len) = self.spans[id.index()];
        &self.arena[start as usize..(start + len) as usize]
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Every key in id order (the order keys were first seen).
    pub fn iter(&self) -> impl Iterator<Item = (ItemId, &str)> {
        (0..self.spans.len()).map(|i| (ItemId(i as u32), self.name(ItemId(i as u32))))
    }
}

/// Per-item values in a vector indexed by [`ItemId`], growing on demand.
#[derive(Clone, Debug)]
pub struct ItemMap<T> {
    values: Vec<T>,
    default: T,
}

impl<T: Clone> ItemMap<T> {
    pub fn new(default: T) -> Self {
        ItemMap {
            values: Vec::new(),
            default,
        }
    }

    #[inline]
    pub fn get(&self, id: ItemId) -> &T {
        self.values.get(id.index()).unwrap_or(&self.default)
    }

    #[inline]
    pub fn get_mut(&mut self, id: ItemId) -> &mut T {
        let i = id.index();
        if i >= self.values.len() {
            self.values.resize(i + 1, self.default.clone());
        }
        &mut self.values[i]
    }

    #[inline]
    pub fn set(&mut self, id: ItemId, value: T) {
        *self.get_mut(id) = value;
    }

    /// Every slot set so far, in key order (unset ones hold the default).
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.values.iter()
    }

    /// Puts every slot back to the default value.
    pub fn clear(&mut self) {
        self.values.clear();
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
        // Two keys whose table entries collide are told apart by their bytes:
        // chain them by hand under one hash, as a collision would.
        let mut c = Interner::default();
        let (a, b) = (c.intern("a"), c.intern("b"));
        let hb = hash_of("b");
        c.by_hash.insert(hash_of("a"), b.0);
        c.same_hash[b.index()] = a.0;
        c.by_hash.insert(hb, b.0);
        assert_eq!((c.get("a"), c.get("b")), (Some(a), Some(b)));
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
