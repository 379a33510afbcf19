//! Model-based property test of the key interner: random keys (empty,
//! short, word-sized, long, with shared prefixes and suffixes) interned and
//! looked up against a `HashMap<String, u32>` that hands out ids in the
//! same first-seen order. Every id, every name and every miss must agree,
//! across the table's growth.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use proptest::prelude::*;
use workqueue_core::{Interner, ItemId};

/// Keys that stress the hash's word reads: lengths 0 to 40, few distinct
/// bytes, so many keys share prefixes, suffixes and overlapping words.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ab/]{0,3}",
        "[ab/]{4,8}",
        "ns/[ab]{1,9}",
        "[ab]{9,17}",
        "[abc/-]{17,40}",
        (0u32..3000).prop_map(|n| format!("ns/pod-{n}")),
    ]
}

#[derive(Clone, Debug)]
enum Call {
    Intern(String),
    Get(String),
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![3 => key().prop_map(Call::Intern), 1 => key().prop_map(Call::Get)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn interner_agrees_with_a_hash_map(calls in prop::collection::vec(call(), 1..600)) {
        let mut real = Interner::default();
        let mut model: HashMap<String, u32> = HashMap::new();
        for c in &calls {
            match c {
                Call::Intern(k) => {
                    let next = model.len() as u32;
                    let want = *model.entry(k.clone()).or_insert(next);
                    prop_assert_eq!(real.intern(k), ItemId(want), "intern {:?}", k);
                }
                Call::Get(k) => {
                    prop_assert_eq!(real.get(k), model.get(k).map(|id| ItemId(*id)), "get {:?}", k);
                }
            }
        }
        prop_assert_eq!(real.len(), model.len());
        for (k, id) in &model {
            prop_assert_eq!(real.name(ItemId(*id)), k.as_str());
        }
    }
}
