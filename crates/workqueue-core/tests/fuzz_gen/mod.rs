//! The fuzzer's generator: every value from a case number, extremes
//! (0, negatives, NaN, infinities, integer limits) weighted in.

use super::*;
use workqueue_core::{At, Span};
use workqueue_core::{
    BreakerAmount, Burst, EventRate, Failures, KeyCount, Qps, ReconcileRate, Workers,
};

/// The generator; a `wild` one picks extreme values often, a tame one
/// rarely, so that plenty of cases get past the gate and drive the run.
pub struct Gen(pub Rng, pub bool);

impl Gen {
    pub fn extreme(&mut self) -> bool {
        let percent = if self.1 { 35 } else { 2 };
        self.chance(percent)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn f64(&mut self) -> f64 {
        const EXTREMES: [f64; 12] = [
            0.0,
            -1.0,
            1e-300,
            1e308,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            1e-10,
            0.001,
            1e6,
            1e9 + 1.0,
        ];
        if self.extreme() {
            EXTREMES[self.below(EXTREMES.len() as u64) as usize]
        } else {
            0.01 + self.0.next_f64() * 100.0
        }
    }
    /// A time field's value: any of [`Self::nanos`], brought into the
    /// field's range (past its ends, the type refuses it as it is read).
    pub fn span<const MIN: i64, const MAX: i64>(&mut self) -> Span<MIN, MAX> {
        Span::saturating(Duration::from_nanos(self.nanos()))
    }

    pub fn nanos(&mut self) -> i64 {
        const EXTREMES: [i64; 8] = [
            0,
            -1,
            1,
            i64::MIN,
            i64::MAX,
            i64::MAX / 2 + 1,
            -SECOND.as_nanos(),
            1,
        ];
        if !self.extreme() {
            return ((1 + self.below(2_000) as i64) * MILLISECOND).as_nanos();
        }
        match self.below(4) {
            0 => self.0.next_u64() as i64,
            _ => EXTREMES[self.below(EXTREMES.len() as u64) as usize],
        }
    }
    pub fn count(&mut self) -> u64 {
        const EXTREMES: [u64; 7] = [0, 1, u64::MAX, u64::MAX / 2 + 1, 50_000, 50_001, 1 << 40];
        if self.extreme() {
            EXTREMES[self.below(EXTREMES.len() as u64) as usize]
        } else {
            1 + self.below(300)
        }
    }
    pub fn key(&mut self) -> String {
        if !self.extreme() {
            return format!("ns/k{}", self.below(6));
        }
        match self.below(3) {
            0 => String::new(),
            1 => "x".repeat(300),
            _ => " ".into(),
        }
    }
    pub fn outcome(&mut self) -> Outcome {
        match self.below(7) {
            0 => Outcome::Success,
            1 => Outcome::Requeue,
            2 => Outcome::RequeueAfter {
                after_ns: self.span(),
            },
            3 => Outcome::Error,
            4 => Outcome::TerminalError,
            5 => Outcome::ErrorWithRequeueAfter {
                after_ns: self.span(),
            },
            _ => Outcome::Custom {
                result: ReconcileResult {
                    requeue: self.chance(50),
                    requeue_after_ns: self.span(),
                    error: Default::default(),
                    priority: self.chance(30).then(|| self.nanos() % 200 - 100),
                },
            },
        }
    }
    pub fn script(&mut self) -> Script {
        match self.below(5) {
            0 => Script::Always {
                outcome: self.outcome(),
            },
            1 => Script::FailThenSucceed {
                failures: Failures::new(self.count() as u32).unwrap_or(Failures::lit(1_000_000)),
            },
            2 => Script::Sequence {
                outcomes: (0..self.below(4)).map(|_| self.outcome()).collect(),
                then: self.outcome(),
            },
            3 => Script::Random {
                // An extreme one cannot be made: the type refuses it.
                error_probability: workqueue_core::Probability::new(if self.extreme() {
                    self.f64()
                } else {
                    self.0.next_f64()
                })
                .unwrap_or(workqueue_core::Probability::ALWAYS),
                otherwise: self.outcome(),
            },
            _ => Script::Live,
        }
    }
    pub fn limiter(&mut self, depth: u32) -> LimiterConfig {
        match self.below(if depth > 2 { 4 } else { 6 }) {
            0 => LimiterConfig::Exponential {
                base_ns: self.span(),
                max_ns: self.span(),
            },
            1 => LimiterConfig::FastSlow {
                fast_ns: self.span(),
                slow_ns: self.span(),
                max_fast_attempts: self.count() as u32,
            },
            2 => LimiterConfig::Bucket {
                qps: Qps::new(self.f64()).unwrap_or(Qps::lit(0.0)),
                burst: if self.extreme() {
                    Burst::new(self.nanos()).unwrap_or(Burst::lit(1))
                } else {
                    Burst::new(self.count() as i64).unwrap_or(Burst::lit(1))
                },
            },
            3 => LimiterConfig::DefaultController,
            4 => LimiterConfig::MaxOf {
                limiters: (0..self.below(4))
                    .map(|_| self.limiter(depth + 1))
                    .collect(),
            },
            _ => LimiterConfig::WithMaxWait {
                limiter: Box::new(self.limiter(depth + 1)),
                max_wait_ns: self.span(),
            },
        }
    }
    pub fn source(&mut self) -> Source {
        match self.below(3) {
            0 => Source::WatchEvents {
                key: self.key(),
                per_second: EventRate::new(self.f64()).unwrap_or(EventRate::lit(1e6)),
                start_ns: self.span(),
                duration_ns: self.span(),
            },
            1 => Source::AddMany {
                prefix: self.key(),
                count: KeyCount::new(self.count()).unwrap_or(KeyCount::lit(1_000_000)),
                at_ns: self.span(),
                script: self.chance(30).then(|| self.script()),
            },
            _ => Source::Resync {
                period_ns: self.span(),
            },
        }
    }
    pub fn scenario(&mut self) -> Scenario {
        let mut s = Scenario::new("fuzz");
        s.seed = self.0.next_u64();
        // Either queue, with a limiter or with the queue's default.
        if self.chance(40) {
            s.controllers[0].queue = workqueue_core::QueueKind::Priority;
        }
        s.controllers[0].limiter = (!self.chance(15)).then(|| self.limiter(0));
        s.controllers[0].controller.workers = if self.chance(20) {
            Workers::new(self.count() as u32).unwrap_or(Workers::lit(1_000))
        } else {
            Workers::lit(1 + self.below(4) as u32)
        };
        s.controllers[0].controller.reconcile_ns = if self.chance(50) {
            Span::ZERO
        } else {
            self.span()
        };
        s.controllers[0].controller.give_up_after = self.chance(20).then(|| self.count());
        if self.chance(15) {
            let profile = [
                CrossplaneProfile::Note2021,
                CrossplaneProfile::Provider,
                CrossplaneProfile::Core,
            ][self.below(3) as usize];
            // Core's breaker flags on half of core's runs, and now and then on a
            // profile that has no breaker (refused by name).
            let flags = if profile == CrossplaneProfile::Core {
                self.chance(50)
            } else {
                self.chance(5)
            };
            let breaker = flags.then(|| workqueue_core::BreakerFlags {
                burst: BreakerAmount::lit(self.below(300) as f64),
                refill_per_second: BreakerAmount::lit(self.below(9) as f64 / 4.0),
                cooldown: Span::lit(self.below(600) as i64 * SECOND),
            });
            s.crossplane = Some(CrossplaneConfig {
                max_reconcile_rate: ReconcileRate::new(self.count() as u32)
                    .unwrap_or(ReconcileRate::lit(1_000)),
                profile,
                breaker,
            });
        }
        s.controllers[0].default_script = self.script();
        for _ in 0..self.below(4) {
            let spec = ItemSpec {
                key: self.key(),
                script: self.chance(50).then(|| self.script()),
                reconcile_ns: self.chance(30).then(|| self.span()),
                add_at_ns: self
                    .chance(80)
                    .then(|| At::saturating(Instant::from_nanos(self.nanos()))),
            };
            s.controllers[0].items.push(spec);
        }
        for _ in 0..self.below(4) {
            let src = self.source();
            s.controllers[0].sources.push(src);
        }
        if self.chance(20) {
            s.duration_ns = self.span();
        }
        if self.chance(10) {
            s.sample_ns = self.span();
        }
        s
    }
    pub fn input(&mut self) -> Input {
        match self.below(7) {
            0 => Input::Add { key: self.key() },
            1 => Input::AddMany {
                prefix: self.key(),
                count: KeyCount::new(self.count()).unwrap_or(KeyCount::lit(1_000_000)),
            },
            2 => Input::WatchEvents {
                key: self.key(),
                per_second: EventRate::new(self.f64()).unwrap_or(EventRate::lit(1e6)),
                duration_ns: self.span(),
            },
            3 => Input::Resync {
                period_ns: self.chance(70).then(|| self.span()),
            },
            4 => Input::Decide {
                key: self.key(),
                outcome: self.outcome(),
            },
            5 => Input::SetScript {
                key: self.key(),
                script: self.script(),
            },
            _ => Input::Shutdown,
        }
    }
    /// Replaces leaves of a JSON document with extreme or ill-typed values,
    /// drops fields, or adds unknown ones.
    pub fn mutate(&mut self, v: &mut Value) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                let keys: Vec<String> = map.keys().cloned().collect();
                let k = &keys[self.below(keys.len() as u64) as usize];
                match self.below(10) {
                    0 => {
                        map.remove(k);
                    }
                    1 => {
                        map.insert("surprise".into(), Value::from(1));
                    }
                    _ => {
                        if let Some(child) = map.get_mut(k) {
                            self.mutate(child);
                        }
                    }
                }
            }
            Value::Array(items) if !items.is_empty() => {
                let i = self.below(items.len() as u64) as usize;
                self.mutate(&mut items[i]);
            }
            leaf => {
                *leaf = match self.below(9) {
                    0 => Value::from(-1),
                    1 => Value::from(i64::MIN),
                    2 => Value::from(u64::MAX),
                    3 => serde_json::json!(1e308),
                    4 => serde_json::json!(1e-300),
                    5 => Value::Null,
                    6 => Value::from("3000000h"),
                    7 => Value::from("-5ms"),
                    _ => Value::from(0),
                }
            }
        }
    }
}
