//! Items are keys such as `ns/pod-1`. Each distinct key is interned once into a
//! dense [`ItemId`], so the queue and the limiters keep per-item state in plain
//! vectors instead of hashing strings on every call.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

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

type FxBuild = BuildHasherDefault<FxHasher>;

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

/// Maps keys to [`ItemId`]s and back. Ids are never recycled: memory grows with
/// the number of distinct keys ever seen, like the limiters' maps in client-go
/// grow with keys that are never forgotten.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    ids: HashMap<Arc<str>, ItemId, FxBuild>,
    names: Vec<Arc<str>>,
}

impl Interner {
    pub fn intern(&mut self, key: &str) -> ItemId {
        if let Some(id) = self.ids.get(key) {
            return *id;
        }
        let id = ItemId(u32::try_from(self.names.len()).expect("more than 2^32 distinct keys"));
        let name: Arc<str> = key.into();
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    pub fn get(&self, key: &str) -> Option<ItemId> {
        self.ids.get(key).copied()
    }

    pub fn name(&self, id: ItemId) -> &str {
        &self.names[id.index()]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every key in id order (the order keys were first seen).
    pub fn iter(&self) -> impl Iterator<Item = (ItemId, &str)> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, n)| (ItemId(i as u32), &**n))
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
