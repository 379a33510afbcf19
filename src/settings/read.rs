//! The form read back from a scenario (a link, a file, a lesson step, an
//! import): every field it can show, and a script it has no words for kept
//! as loaded.

use super::*;

impl Settings {
    /// The settings that describe `s` as closely as the form can.
    pub fn from_scenario(s: &Scenario) -> Settings {
        let mut out = Settings::default();
        let d = |n: Duration| format_go_duration(n);
        let exp = |out: &mut Settings, base: Duration, max: Duration| {
            out.set(Field::Base, d(base));
            out.set(Field::Max, d(max));
        };
        let bucket = |out: &mut Settings, qps: f64, burst: i64| {
            out.set(Field::Qps, qps.to_string());
            out.set(Field::Burst, burst.to_string());
        };
        // A max-of's parts the form has fields for: its backoff and its bucket.
        let parts = |out: &mut Settings, limiters: &[LimiterConfig]| {
            for l in limiters {
                match l {
                    LimiterConfig::Exponential { base_ns, max_ns } => {
                        exp(out, base_ns.get(), max_ns.get())
                    }
                    LimiterConfig::Bucket { qps, burst } => bucket(out, qps.get(), burst.get()),
                    _ => {}
                }
            }
        };
        // (Crossplane's too: a provider of today runs the priority queue.)
        out.queue = s.controllers[0].queue;
        if let Some(cp) = &s.crossplane {
            out.read_crossplane(cp);
        } else {
            match &s.first().limiter() {
                LimiterConfig::DefaultController => out.preset = Preset::ClientGoDefault,
                LimiterConfig::Exponential { base_ns, max_ns } => {
                    out.preset = Preset::PerItem;
                    exp(&mut out, base_ns.get(), max_ns.get());
                }
                LimiterConfig::Bucket { qps, burst } => {
                    out.preset = Preset::BucketOnly;
                    bucket(&mut out, qps.get(), burst.get());
                }
                LimiterConfig::FastSlow {
                    fast_ns,
                    slow_ns,
                    max_fast_attempts,
                } => {
                    out.preset = Preset::FastSlow;
                    out.set(Field::Fast, d(fast_ns.get()));
                    out.set(Field::Slow, d(slow_ns.get()));
                    out.set(Field::MaxFast, max_fast_attempts.to_string());
                }
                LimiterConfig::MaxOf { limiters } => {
                    out.preset = Preset::ClientGoDefault;
                    parts(&mut out, limiters);
                }
                LimiterConfig::WithMaxWait {
                    limiter,
                    max_wait_ns,
                } => {
                    out.preset = Preset::WithMaxWait;
                    out.set(Field::MaxWait, d(max_wait_ns.get()));
                    if let LimiterConfig::MaxOf { limiters } = limiter.as_ref() {
                        parts(&mut out, limiters);
                    }
                }
            }
        }
        out.set(
            Field::Workers,
            s.controllers[0].controller.workers.to_string(),
        );
        out.set(
            Field::Reconcile,
            d(s.controllers[0].controller.reconcile_ns.get()),
        );
        out.set(Field::Seed, s.seed.to_string());
        out.set(
            Field::GiveUp,
            s.controllers[0]
                .controller
                .give_up_after
                .map(|n| n.to_string())
                .unwrap_or_default(),
        );
        out.set(
            Field::Timeout,
            s.controllers[0]
                .controller
                .reconcile_timeout_ns
                .map(|t| d(t.get()))
                .unwrap_or_default(),
        );
        out.script = match &s.controllers[0].default_script {
            Script::Live => ScriptChoice::Live,
            Script::Always {
                outcome: Outcome::Error,
            } => ScriptChoice::AlwaysError,
            Script::FailThenSucceed { failures } => {
                out.set(Field::FailN, failures.to_string());
                ScriptChoice::FailThenSucceed
            }
            Script::Random {
                error_probability,
                otherwise: Outcome::Success,
            } => {
                out.set(Field::Probability, error_probability.get().to_string());
                ScriptChoice::Random
            }
            Script::Always {
                outcome: Outcome::Success,
            } => ScriptChoice::Success,
            other => {
                out.loaded_script = Some(other.clone());
                ScriptChoice::Loaded
            }
        };
        out
    }
}
