//! Model-based property test: random call sequences on the real queue and on
//! a naive reference written straight from the spec (vectors, linear scans,
//! a sorted list instead of a heap, integer arithmetic for the limiters), on
//! a fake clock. Every observable answer must agree.
//!
//! The reference is deliberately simple and slow. Items that become ready at
//! the same instant leave Go's heap in an order that only a port of
//! `container/heap` reproduces (the conformance cases check that order), so
//! the reference files them as one *tie group*: a `Get` may hand out any
//! member of the group at the head, and the test checks exactly that. No case
//! is skipped or cut short. Failing inputs that proptest finds are kept in
//! `tests/model.proptest-regressions`.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use workqueue_core::Span;
use workqueue_core::{
    BucketStore, Duration, Got, Instant, LimiterConfig, QueueOptions, WideInstant, Workqueue,
    MILLISECOND, SECOND,
};
use workqueue_core::{Burst, Qps};

/// The reference queue: client-go's rules, one line each.
#[derive(Default)]
struct Model {
    /// The FIFO as `(item, tie group)`; members of one group are adjacent and
    /// may come out in any order among themselves.
    queue: Vec<(u8, u64)>,
    next_group: u64,
    dirty: Vec<u8>,
    processing: Vec<u8>,
    waiting: Vec<(u8, WideInstant)>,
    failures: [u64; 8],
    shutting_down: bool,
    now: Instant,
    adds: u64,
    retries: u64,
}

impl Model {
    fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.shutting_down {
            return;
        }
        // Release due entries instant by instant; one instant's releases form
        // one tie group.
        while let Some(ready) = self
            .waiting
            .iter()
            .map(|(_, r)| *r)
            .filter(|r| *r <= self.now.wide())
            .min()
        {
            let group = self.new_group();
            let due: Vec<u8> = self
                .waiting
                .iter()
                .filter(|(_, r)| *r == ready)
                .map(|(i, _)| *i)
                .collect();
            self.waiting.retain(|(_, r)| *r != ready);
            for item in due {
                self.add_in(item, group);
            }
        }
    }

    fn new_group(&mut self) -> u64 {
        self.next_group += 1;
        self.next_group
    }

    fn add(&mut self, item: u8) {
        let group = self.new_group();
        self.add_in(item, group);
    }

    fn add_in(&mut self, item: u8, group: u64) {
        if self.shutting_down || self.dirty.contains(&item) {
            return;
        }
        self.adds += 1;
        self.dirty.push(item);
        if !self.processing.contains(&item) {
            self.queue.push((item, group));
        }
    }

    /// The items a correct queue may hand out next: the head's tie group.
    fn candidates(&self) -> Vec<u8> {
        match self.queue.first() {
            None => Vec::new(),
            Some((_, g)) => self
                .queue
                .iter()
                .take_while(|(_, h)| h == g)
                .map(|(i, _)| *i)
                .collect(),
        }
    }

    /// `Get` when the queue handed out `item` (one of [`Model::candidates`]).
    fn get(&mut self, item: u8) {
        let k = self
            .queue
            .iter()
            .position(|(i, _)| *i == item)
            .expect("a candidate is queued");
        self.queue.remove(k);
        if !self.processing.contains(&item) {
            self.processing.push(item);
        }
        self.dirty.retain(|i| *i != item);
    }

    fn done(&mut self, item: u8) {
        self.processing.retain(|i| *i != item);
        if self.dirty.contains(&item) {
            let group = self.new_group();
            self.queue.push((item, group));
        }
    }

    fn add_after(&mut self, item: u8, d: Duration) {
        if self.shutting_down {
            return;
        }
        self.retries += 1;
        if d <= Duration::ZERO {
            self.add(item);
            return;
        }
        let ready = self.now.wide_after(d);
        match self.waiting.iter_mut().find(|(i, _)| *i == item) {
            Some(entry) => entry.1 = entry.1.min(ready),
            None => self.waiting.push((item, ready)),
        }
    }

    /// Exponential(1ms, 1s) in plain integers: min(base·2^n, max).
    fn when(&mut self, item: u8) -> Duration {
        let n = self.failures[item as usize];
        self.failures[item as usize] += 1;
        if n >= 20 {
            return SECOND;
        }
        Duration::from_nanos(MILLISECOND.as_nanos() << n).min(SECOND)
    }
}

#[derive(Clone, Debug)]
enum Op {
    Tick(Duration),
    Add(u8),
    Get,
    Done(u8),
    AddAfter(u8, Duration),
    AddRateLimited(u8),
    Forget(u8),
    Shutdown,
}

fn op() -> impl Strategy<Value = Op> {
    let item = 0u8..8;
    prop_oneof![
        4 => (0i64..50).prop_map(|ms| Op::Tick(ms * MILLISECOND + Duration::NANOSECOND)),
        4 => item.clone().prop_map(Op::Add),
        4 => Just(Op::Get),
        3 => item.clone().prop_map(Op::Done),
        3 => (item.clone(), -5i64..80).prop_map(|(i, ms)| Op::AddAfter(i, ms * MILLISECOND)),
        3 => item.clone().prop_map(Op::AddRateLimited),
        1 => item.prop_map(Op::Forget),
        1 => Just(Op::Shutdown),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_queue_agrees_with_the_naive_model(ops in proptest::collection::vec(op(), 1..120)) {
        let limiter = LimiterConfig::Exponential { base_ns: Span::lit(MILLISECOND), max_ns: Span::lit(SECOND) };
        let mut q = Workqueue::new(&limiter, QueueOptions::with_metrics());
        let ids: Vec<_> = (0..8).map(|i| q.key(&format!("k{i}"))).collect();
        let mut m = Model::default();
        let mut now = Instant::T0;
        for op in ops {
            if let Op::Tick(d) = op {
                now += d;
                m.advance(now);
                q.advance(now);
            }
            match op {
                Op::Tick(_) => {}
                Op::Add(i) => { m.add(i); q.add(now, ids[i as usize]); }
                Op::Get => {
                    let allowed = m.candidates();
                    match q.get(now) {
                        Got::Item(id) => {
                            let got = ids.iter().position(|x| *x == id).unwrap() as u8;
                            prop_assert!(allowed.contains(&got), "got {} but the head group is {:?}", got, allowed);
                            m.get(got);
                        }
                        _ => prop_assert!(allowed.is_empty(), "nothing handed out, but {:?} is queued", allowed),
                    }
                }
                Op::Done(i) => { m.done(i); q.done(now, ids[i as usize]); }
                Op::AddAfter(i, d) => { m.add_after(i, d); q.add_after(now, ids[i as usize], d); }
                Op::AddRateLimited(i) => {
                    let d = m.when(i);
                    m.add_after(i, d);
                    let (got, _) = q.add_rate_limited(now, ids[i as usize]);
                    prop_assert_eq!(got, d);
                }
                Op::Forget(i) => { m.failures[i as usize] = 0; q.forget(ids[i as usize]); }
                Op::Shutdown => { m.shutting_down = true; m.waiting.clear(); q.shutdown(now); }
            }
            prop_assert_eq!(q.len(), m.queue.len());
            // The whole FIFO, group by group: the same items in each group.
            let real: Vec<u8> = q.queued().map(|id| ids.iter().position(|x| *x == id).unwrap() as u8).collect();
            let mut at = 0;
            for group in m.queue.chunk_by(|a, b| a.1 == b.1) {
                let mut want: Vec<u8> = group.iter().map(|(i, _)| *i).collect();
                let mut got = real[at..at + want.len()].to_vec();
                want.sort();
                got.sort();
                prop_assert_eq!(got, want, "FIFO {:?} vs reference {:?}", real, m.queue);
                at += group.len();
            }
            prop_assert_eq!(q.waiting_len(), m.waiting.len());
            for i in 0..8u8 {
                let id = ids[i as usize];
                prop_assert_eq!(q.is_dirty(id), m.dirty.contains(&i));
                prop_assert_eq!(q.is_processing(id), m.processing.contains(&i));
                prop_assert_eq!(q.num_requeues(id), m.failures[i as usize]);
            }
            let metrics = q.metrics().unwrap();
            prop_assert_eq!(metrics.adds_total, m.adds);
            prop_assert_eq!(metrics.retries_total, m.retries);
        }
    }
}

/// The token bucket against exact rational arithmetic: with an integer rate
/// and reservations at whole milliseconds, tokens are multiples of 1/1000, so
/// the exact wait is known; x/time/rate's float64 truncation may fall short of
/// it by one nanosecond (as in 4.099999999s), never more and never over.
#[test]
fn bucket_waits_are_within_a_nanosecond_of_exact_arithmetic() {
    use workqueue_core::TokenBucket;
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                1u32..50,
                1i64..200,
                proptest::collection::vec(0i64..300, 1..300),
            ),
            |(rate, burst, gaps)| {
                let mut b = TokenBucket::new(rate as f64, burst);
                // Exact model in thousandths of a token.
                let mut milli_tokens: i128 = burst as i128 * 1000;
                let mut now_ms: i64 = 0;
                let mut last_ms: Option<i64> = None;
                for gap in gaps {
                    now_ms += gap;
                    let elapsed = last_ms.map_or(i64::MAX / 1_000_000, |l| now_ms - l) as i128;
                    milli_tokens =
                        (milli_tokens + elapsed * rate as i128).min(burst as i128 * 1000) - 1000;
                    last_ms = Some(now_ms);
                    let got = b
                        .reserve_delay(Instant::T0 + now_ms * MILLISECOND)
                        .as_nanos() as i128;
                    // exact wait in ns = debt/rate s = (-milli/1000)/rate * 1e9 = -milli * 1e6 / rate
                    let exact = if milli_tokens < 0 {
                        -milli_tokens * 1_000_000 / rate as i128
                    } else {
                        0
                    };
                    prop_assert!(
                        got == exact || got == exact - 1,
                        "rate {} got {} exact {}",
                        rate,
                        got,
                        exact
                    );
                }
                Ok(())
            },
        )
        .unwrap();
}

/// One code path: a limiter answering plainly and a clone answering with
/// explanations give the same delays and end in the same state, for random
/// limiter trees and call sequences (Forget and time moving included).
#[test]
fn plain_and_explained_answers_are_the_same_code() {
    use workqueue_core::{ItemId, Limiter};
    fn tree() -> impl Strategy<Value = LimiterConfig> {
        let leaf = prop_oneof![
            (0i64..20, 0i64..2_000).prop_map(|(b, m)| LimiterConfig::Exponential {
                base_ns: Span::lit(b * MILLISECOND),
                max_ns: Span::lit(m * MILLISECOND)
            }),
            (0i64..20, 0i64..2_000, 0u32..5).prop_map(|(f, s, n)| LimiterConfig::FastSlow {
                fast_ns: Span::lit(f * MILLISECOND),
                slow_ns: Span::lit(s * MILLISECOND),
                max_fast_attempts: n
            }),
            (0u32..50, 1i64..20).prop_map(|(q, b)| LimiterConfig::Bucket {
                qps: Qps::new(q as f64).unwrap(),
                burst: Burst::new(b).unwrap()
            }),
            Just(LimiterConfig::DefaultController),
        ];
        leaf.prop_recursive(3, 8, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 1..4)
                    .prop_map(|limiters| LimiterConfig::MaxOf { limiters }),
                (inner, 0i64..500).prop_map(|(l, w)| LimiterConfig::WithMaxWait {
                    limiter: Box::new(l),
                    max_wait_ns: Span::lit(w * MILLISECOND)
                }),
            ]
        })
    }
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                tree(),
                proptest::collection::vec((0u32..4, 0i64..30, 0u8..10), 1..80),
            ),
            |(config, calls)| {
                let (mut one, mut two) = (BucketStore::new(), BucketStore::new());
                let mut plain: Limiter = config.build(&mut one);
                let mut explained: Limiter = config.build(&mut two);
                let mut now = Instant::T0;
                for (item, dt, kind) in calls {
                    now += dt * MILLISECOND;
                    let id = ItemId(item);
                    if kind == 0 {
                        plain.forget(id);
                        explained.forget(id);
                        continue;
                    }
                    let a = plain.when(id, now, &mut one);
                    let b = explained.when_explained(id, now, &mut two);
                    prop_assert_eq!(a, b.delay, "{:?}", config);
                    prop_assert_eq!(plain.num_requeues(id), explained.num_requeues(id));
                }
                Ok(())
            },
        )
        .unwrap();
}
