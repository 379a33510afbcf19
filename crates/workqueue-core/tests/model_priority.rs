//! Model-based property test of the priority queue: random call sequences on
//! the real queue and on a naive reference written from SEMANTICS.md 6.4
//! (a vector of records sorted afresh on every read, a list of locked keys,
//! integer arithmetic for the per-item limiter), on a fake clock. Every
//! answer must agree: what `Get` hands out and with which priority, `Len`,
//! the waiting count, `NumRequeues`, adds and retries. Failing inputs that
//! proptest finds are kept in `tests/model_priority.proptest-regressions`.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use workqueue_core::Span;
use workqueue_core::{AddOpts, PqGot, PriorityQueue};
use workqueue_core::{Duration, Instant, ItemId, LimiterConfig, WideInstant, MILLISECOND, SECOND};

const KEYS: u8 = 6;
const BASE: Duration = Duration::from_nanos(5 * MILLISECOND.as_nanos());
const MAX: Duration = Duration::from_nanos(1000 * SECOND.as_nanos());

#[derive(Clone, Copy, Debug)]
struct Record {
    priority: i64,
    counter: u64,
    ready_at: Option<WideInstant>,
}

/// The reference: one line per rule of 6.4.
#[derive(Default)]
struct Model {
    records: Vec<Option<Record>>,
    locked: Vec<bool>,
    failures: Vec<u32>,
    counter: u64,
    shut_down: bool,
    now: Instant,
    adds: u64,
    retries: u64,
}

impl Model {
    fn new() -> Model {
        Model {
            records: vec![None; KEYS as usize],
            locked: vec![false; KEYS as usize],
            failures: vec![0; KEYS as usize],
            ..Model::default()
        }
    }

    fn fresh(&mut self) -> u64 {
        self.counter += 1;
        self.counter - 1
    }

    fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.shut_down {
            return;
        }
        let mut due: Vec<(usize, Record)> = self
            .records
            .iter()
            .enumerate()
            .filter_map(|(k, r)| {
                r.filter(|r| r.ready_at.is_some_and(|t| t <= now.wide()))
                    .map(|r| (k, r))
            })
            .collect();
        due.sort_by_key(|(_, r)| (r.ready_at, -r.priority, r.counter));
        for (k, r) in due {
            let counter = self.fresh();
            self.records[k] = Some(Record {
                ready_at: None,
                counter,
                ..r
            });
            self.adds += 1;
        }
    }

    fn when(&mut self, k: usize) -> Duration {
        let n = self.failures[k];
        self.failures[k] += 1;
        if n >= 62 {
            return MAX;
        }
        BASE.saturating_mul(1 << n).min(MAX)
    }

    fn add(&mut self, k: usize, opts: AddOpts) {
        if self.shut_down {
            return;
        }
        let mut after = opts.after;
        if opts.rate_limited {
            let rl = self.when(k);
            if after == Duration::ZERO || rl < after {
                after = rl;
            }
        }
        let ready_at = (after > Duration::ZERO).then(|| self.now.wide_after(after));
        if after > Duration::ZERO {
            self.retries += 1;
        }
        let priority = opts.priority.unwrap_or(0);
        match self.records[k] {
            None => {
                let counter = self.fresh();
                self.records[k] = Some(Record {
                    priority,
                    counter,
                    ready_at,
                });
                if ready_at.is_none() {
                    self.adds += 1;
                }
            }
            Some(mut r) => {
                let was_waiting = r.ready_at.is_some();
                r.ready_at = match (r.ready_at, ready_at) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(a.min(b)),
                };
                if priority > r.priority {
                    r.priority = priority;
                    r.counter = self.fresh();
                }
                if was_waiting && r.ready_at.is_none() {
                    self.adds += 1;
                }
                self.records[k] = Some(r);
            }
        }
    }

    fn get(&mut self) -> Option<(usize, i64)> {
        if self.shut_down {
            return None;
        }
        let (k, r) = self
            .records
            .iter()
            .enumerate()
            .filter_map(|(k, r)| {
                r.filter(|r| r.ready_at.is_none() && !self.locked[k])
                    .map(|r| (k, r))
            })
            .min_by_key(|(_, r)| (-r.priority, r.counter))?;
        self.records[k] = None;
        self.locked[k] = true;
        Some((k, r.priority))
    }

    fn ready(&self) -> usize {
        self.count(false)
    }

    fn waiting(&self) -> usize {
        self.count(true)
    }

    /// The keys on record that wait for a `ready_at` (or, `false`, that do not).
    fn count(&self, waiting: bool) -> usize {
        self.records
            .iter()
            .flatten()
            .filter(|r| r.ready_at.is_some() == waiting)
            .count()
    }
}

#[derive(Clone, Debug)]
enum Op {
    Add {
        key: u8,
        after: Duration,
        rate_limited: bool,
        priority: Option<i64>,
    },
    Get,
    Done(u8),
    Forget(u8),
    Wait(Duration),
    ShutDown,
}

fn op() -> impl Strategy<Value = Op> {
    let after = prop_oneof![
        Just(Duration::ZERO),
        Just(-Duration::NANOSECOND),
        Just(MILLISECOND),
        Just(5 * MILLISECOND),
        Just(20 * MILLISECOND),
        Just(SECOND)
    ];
    let priority = prop_oneof![Just(None), Just(Some(-100)), Just(Some(0)), Just(Some(5))];
    prop_oneof![
        8 => (0..KEYS, after, any::<bool>(), priority).prop_map(|(key, after, rate_limited, priority)| Op::Add { key, after, rate_limited, priority }),
        5 => Just(Op::Get),
        4 => (0..KEYS).prop_map(Op::Done),
        1 => (0..KEYS).prop_map(Op::Forget),
        4 => prop_oneof![Just(Duration::ZERO), Just(MILLISECOND), Just(5 * MILLISECOND), Just(50 * MILLISECOND)].prop_map(Op::Wait),
        1 => Just(Op::ShutDown),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_priority_queue_agrees_with_the_naive_reference(ops in proptest::collection::vec(op(), 1..120)) {
        let limiter = LimiterConfig::Exponential { base_ns: Span::lit(BASE), max_ns: Span::lit(MAX) };
        let mut q = PriorityQueue::new(&limiter, Some(0));
        let ids: Vec<ItemId> = (0..KEYS).map(|k| q.key(&format!("k{k}"))).collect();
        let mut m = Model::new();
        let mut now: Instant = Instant::T0;
        for (i, op) in ops.iter().enumerate() {
            q.advance(now);
            m.advance(now);
            match *op {
                Op::Add { key, after, rate_limited, priority } => {
                    let opts = AddOpts { after, rate_limited, priority };
                    q.add_with_opts(now, opts, &[ids[key as usize]]);
                    m.add(key as usize, opts);
                }
                Op::Get => {
                    let got = match q.get(now) {
                        PqGot::Item { item, priority } => Some((item.index(), priority)),
                        PqGot::Empty | PqGot::ShutDown => None,
                    };
                    prop_assert_eq!(got, m.get(), "step {}: {:?}", i, op);
                }
                Op::Done(key) => {
                    q.done(now, ids[key as usize]);
                    m.locked[key as usize] = false;
                }
                Op::Forget(key) => {
                    q.forget(ids[key as usize]);
                    m.failures[key as usize] = 0;
                }
                Op::Wait(d) => now += d,
                Op::ShutDown => {
                    prop_assert_eq!(q.shutdown().is_err(), m.shut_down, "a second shutdown is refused");
                    m.shut_down = true;
                }
            }
            prop_assert_eq!(q.len(), m.ready(), "Len after step {}", i);
            prop_assert_eq!(q.waiting_len(), m.waiting(), "waiting after step {}", i);
            for k in 0..KEYS {
                prop_assert_eq!(q.num_requeues(ids[k as usize]), m.failures[k as usize] as u64);
            }
            let metrics = q.metrics().expect("metrics on");
            prop_assert_eq!((metrics.adds_total, metrics.retries_total), (m.adds, m.retries), "after step {}", i);
        }
    }
}
