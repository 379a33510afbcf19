//! Every token bucket a run uses, in one store: a controller's own limiter
//! buckets, Crossplane's global bucket, a limiter shared by several
//! controllers of a manager, the API client's per-REST-client buckets.
//!
//! In Go these are objects behind pointers: one `*rate.Limiter` passed to
//! several controllers is one bucket that all of them draw from. Here the
//! store holds the buckets and hands out [`BucketId`]s; a limiter, a
//! middleware or a controller holds ids, and the calls that take or read
//! tokens are handed the store. A controller that runs alone owns its store;
//! a manager owns one for all its controllers. Nothing is lent or copied:
//! a reservation by one controller is seen by the next because there is one
//! bucket.

use crate::rate::TokenBucket;
use crate::time::{Duration, Instant};

/// A bucket in a [`BucketStore`]. Only the store that made it knows it
/// (checked in debug builds).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BucketId {
    index: u32,
    /// The store that made this id (see [`BucketStore::owns`]).
    #[cfg(debug_assertions)]
    store: u32,
}

impl std::fmt::Debug for BucketId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BucketId({})", self.index)
    }
}

/// The token buckets of one run, by [`BucketId`].
#[derive(Clone)]
pub struct BucketStore {
    buckets: Vec<TokenBucket>,
    /// Tells this store's ids from another's (a clone keeps it: its ids are
    /// the original's, and so are its buckets).
    #[cfg(debug_assertions)]
    tag: u32,
}

impl std::fmt::Debug for BucketStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.buckets).finish()
    }
}

impl Default for BucketStore {
    fn default() -> Self {
        BucketStore::new()
    }
}

impl BucketStore {
    /// An empty store.
    pub fn new() -> BucketStore {
        #[cfg(debug_assertions)]
        static STORES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        BucketStore {
            buckets: Vec::new(),
            #[cfg(debug_assertions)]
            tag: STORES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Puts `bucket` in the store; its id.
    pub fn add(&mut self, bucket: TokenBucket) -> BucketId {
        let index = u32::try_from(self.buckets.len()).expect("fewer than 2^32 buckets");
        self.buckets.push(bucket);
        BucketId {
            index,
            #[cfg(debug_assertions)]
            store: self.tag,
        }
    }

    /// Whether `id` was made by this store (always, in release builds: the
    /// check is a debug assertion's).
    pub fn owns(&self, id: BucketId) -> bool {
        #[cfg(debug_assertions)]
        if id.store != self.tag {
            return false;
        }
        (id.index as usize) < self.buckets.len()
    }

    /// The bucket `id`.
    #[inline]
    pub fn get(&self, id: BucketId) -> &TokenBucket {
        debug_assert!(self.owns(id), "{id:?} is another store's");
        &self.buckets[id.index as usize]
    }

    #[inline]
    fn get_mut(&mut self, id: BucketId) -> &mut TokenBucket {
        debug_assert!(self.owns(id), "{id:?} is another store's");
        &mut self.buckets[id.index as usize]
    }

    /// Tokens in bucket `id` at `t` (see [`TokenBucket::tokens_at`]).
    pub fn tokens_at(&self, id: BucketId, t: Instant) -> f64 {
        self.get(id).tokens_at(t)
    }

    /// `Reserve().DelayFrom(t)` on bucket `id` (see
    /// [`TokenBucket::reserve_delay`]).
    #[inline]
    pub fn reserve_delay(&mut self, id: BucketId, t: Instant) -> Duration {
        self.get_mut(id).reserve_delay(t)
    }

    /// `ReserveN(t, n)` on bucket `id` (see [`TokenBucket::reserve_n`]).
    #[inline]
    pub fn reserve_n(
        &mut self,
        id: BucketId,
        t: Instant,
        n: i64,
        max_wait: Duration,
    ) -> crate::rate::Reservation {
        self.get_mut(id).reserve_n(t, n, max_wait)
    }

    /// How many buckets the store holds.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SECOND;

    #[test]
    fn one_bucket_two_holders() {
        let mut store = BucketStore::new();
        let id = store.add(TokenBucket::new(1.0, 1));
        let (a, b) = (id, id);
        assert_eq!(store.reserve_delay(a, Instant::T0), Duration::ZERO);
        assert_eq!(store.reserve_delay(b, Instant::T0), SECOND);
        assert_eq!(store.tokens_at(a, Instant::T0), -1.0);
    }

    #[test]
    #[cfg(debug_assertions)]
    fn a_store_knows_only_its_own_ids() {
        let mut one = BucketStore::new();
        let mut two = BucketStore::new();
        let id = one.add(TokenBucket::new(1.0, 1));
        two.add(TokenBucket::new(1.0, 1));
        assert!(one.owns(id) && one.clone().owns(id));
        assert!(!two.owns(id));
    }
}
