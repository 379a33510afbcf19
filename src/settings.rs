//! The configuration form as typed: presets, parameters with units, and their
//! conversion to a validated [`Scenario`]. Invalid values stay in the form
//! with a message and never reach the simulation.

use workqueue_core::Span;
use workqueue_core::{format_go_duration, parse_go_duration, Duration, LimiterConfig, QueueKind};
use workqueue_core::{Burst, Failures, OutOfRange, Qps, ReconcileRate, Workers};
use workqueue_core::{ControllerConfig, Scenario};
use workqueue_core::{CrossplaneConfig, CrossplaneProfile, Outcome, Probability, Script};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    ClientGoDefault,
    PerItem,
    BucketOnly,
    FastSlow,
    WithMaxWait,
    Crossplane,
}

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::ClientGoDefault,
        Preset::PerItem,
        Preset::BucketOnly,
        Preset::FastSlow,
        Preset::WithMaxWait,
        Preset::Crossplane,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Preset::ClientGoDefault => "default",
            Preset::PerItem => "per-item",
            Preset::BucketOnly => "bucket",
            Preset::FastSlow => "fast-slow",
            Preset::WithMaxWait => "max-wait",
            Preset::Crossplane => "crossplane",
        }
    }

    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            Preset::ClientGoDefault => "client-go default (max-of)",
            Preset::PerItem => "Per-item backoff only",
            Preset::BucketOnly => "Token bucket only",
            Preset::FastSlow => "Fast/slow",
            Preset::WithMaxWait => "Default with max wait",
            Preset::Crossplane => "Crossplane --max-reconcile-rate",
        }
    }

    pub fn blurb(self) -> &'static str {
        match self {
            Preset::ClientGoDefault => "The larger of a per-key exponential delay and a controller-wide token bucket. Every call takes a token, even when the key's own delay wins.",
            Preset::PerItem => "Each key doubles its own delay on every failure, up to a cap. Keys never slow each other down, so many failing keys add up.",
            Preset::BucketOnly => "One bucket for the whole controller: a burst at once, then a steady rate. Keys share it, so one key's failures delay the others.",
            Preset::FastSlow => "A fixed short delay for the first attempts, then a fixed long one.",
            Preset::WithMaxWait => "The default limiter, but no delay is ever longer than the cap (its counters still grow).",
            Preset::Crossplane => "Two layers, as Crossplane's 2021 note designed them: a global bucket in front of the reconciler that answers RequeueAfter, and a 1s→60s per-object backoff in the queue. Providers on crossplane-runtime still run this (now on the priority queue); Crossplane core dropped the bucket in v2.1 for a worker pool and a circuit breaker per XR (lesson 8).",
        }
    }

    /// Which parameter fields the preset uses.
    pub fn fields(self) -> &'static [Field] {
        use Field::*;
        match self {
            Preset::ClientGoDefault => &[Base, Max, Qps, Burst],
            Preset::PerItem => &[Base, Max],
            Preset::BucketOnly => &[Qps, Burst],
            Preset::FastSlow => &[Fast, Slow, MaxFast],
            Preset::WithMaxWait => &[Base, Max, Qps, Burst, MaxWait],
            Preset::Crossplane => &[Rate],
        }
    }
}

/// Every editable value of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Base,
    Max,
    Qps,
    Burst,
    Fast,
    Slow,
    MaxFast,
    MaxWait,
    Rate,
    Workers,
    Reconcile,
    FailN,
    Probability,
    Seed,
    GiveUp,
    Timeout,
    BreakerBurst,
    BreakerRefill,
    BreakerCooldown,
}

impl Field {
    pub fn id(self) -> &'static str {
        match self {
            Field::Base => "base",
            Field::Max => "max",
            Field::Qps => "qps",
            Field::Burst => "burst",
            Field::Fast => "fast",
            Field::Slow => "slow",
            Field::MaxFast => "max-fast",
            Field::MaxWait => "max-wait",
            Field::Rate => "rate",
            Field::Workers => "workers",
            Field::Reconcile => "reconcile",
            Field::FailN => "fail-n",
            Field::Probability => "probability",
            Field::Seed => "seed",
            Field::GiveUp => "give-up",
            Field::Timeout => "timeout",
            Field::BreakerBurst => "breaker-burst",
            Field::BreakerRefill => "breaker-refill",
            Field::BreakerCooldown => "breaker-cooldown",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Field::Base => "Base delay",
            Field::Max => "Max delay",
            Field::Qps => "Bucket rate",
            Field::Burst => "Bucket burst",
            Field::Fast => "Fast delay",
            Field::Slow => "Slow delay",
            Field::MaxFast => "Fast attempts",
            Field::MaxWait => "Max wait",
            Field::Rate => "--max-reconcile-rate",
            Field::Workers => "Workers",
            Field::Reconcile => "Reconcile takes",
            Field::FailN => "Failures before success",
            Field::Probability => "Error probability",
            Field::Seed => "Seed",
            Field::GiveUp => "Give up after",
            Field::Timeout => "Reconciliation timeout",
            Field::BreakerBurst => "--circuit-breaker-burst",
            Field::BreakerRefill => "--circuit-breaker-refill-rate",
            Field::BreakerCooldown => "--circuit-breaker-cooldown",
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Field::Qps => "per second",
            Field::Burst => "tokens",
            Field::MaxFast => "attempts",
            Field::Rate => "reconciles/s",
            Field::Workers => "MaxConcurrentReconciles",
            Field::FailN => "errors",
            Field::Probability => "0 to 1",
            Field::Seed => "",
            Field::GiveUp => "requeues (empty: never)",
            Field::Timeout => "v0.22+: a Go duration (empty: none)",
            Field::BreakerBurst => "tokens per XR (an Update costs 2)",
            Field::BreakerRefill => "events per second, refilled",
            _ => "Go duration: 5ms, 1.5s, 2m",
        }
    }
}

/// How reconciles turn out unless a key has its own script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptChoice {
    Live,
    Success,
    FailThenSucceed,
    AlwaysError,
    Random,
    /// What a file, a link or an import set and the form has no words for
    /// (an outage, a sequence, RequeueAfter until ready): kept as it is.
    Loaded,
}

impl ScriptChoice {
    pub const ALL: [ScriptChoice; 5] = [
        ScriptChoice::Live,
        ScriptChoice::FailThenSucceed,
        ScriptChoice::Success,
        ScriptChoice::AlwaysError,
        ScriptChoice::Random,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ScriptChoice::Live => "live",
            ScriptChoice::Success => "success",
            ScriptChoice::FailThenSucceed => "fail-then-succeed",
            ScriptChoice::AlwaysError => "always-error",
            ScriptChoice::Random => "random",
            ScriptChoice::Loaded => "loaded",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ScriptChoice::Live => "I decide each result",
            ScriptChoice::Success => "Always succeed",
            ScriptChoice::FailThenSucceed => "Fail N times, then succeed",
            ScriptChoice::AlwaysError => "Always return an error",
            ScriptChoice::Random => "Fail at random",
            ScriptChoice::Loaded => "As loaded",
        }
    }

    pub fn from_id(id: &str) -> Option<ScriptChoice> {
        ScriptChoice::ALL
            .into_iter()
            .chain([ScriptChoice::Loaded])
            .find(|c| c.id() == id)
    }
}

/// The form, with every value as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// controller-runtime v0.22 and earlier (client-go's queue) or v0.23+
    /// (the priority queue).
    pub queue: QueueKind,
    pub preset: Preset,
    /// Which Crossplane, with the Crossplane preset.
    pub profile: CrossplaneProfile,
    pub script: ScriptChoice,
    /// The script behind [`ScriptChoice::Loaded`], when the run has one
    /// the form cannot spell.
    pub loaded_script: Option<Script>,
    values: Vec<(Field, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        let values = [
            (Field::Base, "5ms"),
            (Field::Max, "1000s"),
            (Field::Qps, "10"),
            (Field::Burst, "100"),
            (Field::Fast, "5ms"),
            (Field::Slow, "10s"),
            (Field::MaxFast, "3"),
            (Field::MaxWait, "10s"),
            (Field::Rate, "10"),
            (Field::Workers, "1"),
            (Field::Reconcile, "200ms"),
            (Field::FailN, "3"),
            (Field::Probability, "0.3"),
            (Field::Seed, "1"),
            (Field::GiveUp, ""),
            (Field::Timeout, ""),
            (Field::BreakerBurst, "100"),
            (Field::BreakerRefill, "1"),
            (Field::BreakerCooldown, "5m0s"),
        ];
        Settings {
            queue: QueueKind::ClientGo,
            preset: Preset::ClientGoDefault,
            profile: CrossplaneProfile::Note2021,
            script: ScriptChoice::Live,
            loaded_script: None,
            values: values.iter().map(|(f, v)| (*f, v.to_string())).collect(),
        }
    }
}

/// A form field that cannot be used, and why.
pub type FieldErrors = Vec<(Field, String)>;

impl Settings {
    /// The choices of "Each reconcile": the form's own, and the run's
    /// script when the form has no words for it.
    pub fn script_choices(&self) -> Vec<(ScriptChoice, String)> {
        let mut out: Vec<(ScriptChoice, String)> = ScriptChoice::ALL
            .iter()
            .map(|c| (*c, c.label().to_string()))
            .collect();
        if let Some(s) = &self.loaded_script {
            out.push((
                ScriptChoice::Loaded,
                format!("As loaded: {}", crate::format::script(s)),
            ));
        }
        out
    }

    /// This form (with edits not applied yet) on top of new settings for
    /// the run: what the run changed from `before` to `after` is taken, and
    /// every edit the run did not touch is kept (a version switch never
    /// throws away what was being typed).
    pub fn rebased(&self, before: &Settings, after: &Settings) -> Settings {
        let mut out = after.clone();
        for (f, v) in &self.values {
            if v.as_str() != before.get(*f) && after.get(*f) == before.get(*f) {
                out.set(*f, v.clone());
            }
        }
        if self.preset != before.preset && after.preset == before.preset {
            out.preset = self.preset;
        }
        if self.script != before.script && after.script == before.script {
            out.script = self.script;
        }
        if self.profile != before.profile && after.profile == before.profile {
            out.profile = self.profile;
        }
        out
    }

    pub fn get(&self, field: Field) -> &str {
        self.values
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }

    pub fn set(&mut self, field: Field, value: String) {
        match self.values.iter_mut().find(|(f, _)| *f == field) {
            Some(slot) => slot.1 = value,
            None => self.values.push((field, value)),
        }
    }

    /// A time field, read and held to its type's range (a negative delay
    /// says so in a delay's words).
    fn span<const MIN: i64, const MAX: i64>(
        &self,
        f: Field,
        errors: &mut FieldErrors,
    ) -> Span<MIN, MAX> {
        match parse_go_duration(self.get(f)) {
            Ok(d) if d < Duration::ZERO && MIN == 0 => {
                errors.push((
                    f,
                    format!("{} is negative: a delay is 0 or more", self.get(f)),
                ));
                Span::default()
            }
            Ok(d) => Span::new(d).unwrap_or_else(|e| {
                errors.push((f, e.to_string()));
                Span::default()
            }),
            Err(e) => {
                errors.push((f, e.to_string()));
                Span::default()
            }
        }
    }

    fn number<T: std::str::FromStr>(
        &self,
        f: Field,
        what: &str,
        errors: &mut FieldErrors,
    ) -> Option<T> {
        let v = self.get(f).trim().parse::<T>();
        if v.is_err() {
            errors.push((f, format!("{:?} is not {what}", self.get(f))));
        }
        v.ok()
    }

    /// A field's number in its type's range: one that is not a number is
    /// refused as not `what`, one out of range in the type's words (as a
    /// file's reader says it); `fallback` stands in for either.
    fn ranged<T: std::str::FromStr, R>(
        &self,
        f: Field,
        what: &str,
        new: impl Fn(T) -> Result<R, OutOfRange>,
        fallback: R,
        errors: &mut FieldErrors,
    ) -> R {
        self.number::<T>(f, what, errors)
            .and_then(|x| new(x).map_err(|e| errors.push((f, e.to_string()))).ok())
            .unwrap_or(fallback)
    }

    /// The limiter the preset and its fields describe.
    fn limiter(&self, errors: &mut FieldErrors) -> LimiterConfig {
        let exp = |s: &Self, e: &mut FieldErrors| LimiterConfig::Exponential {
            base_ns: s.span(Field::Base, e),
            max_ns: s.span(Field::Max, e),
        };
        let bucket = |s: &Self, e: &mut FieldErrors| LimiterConfig::Bucket {
            qps: s.ranged(
                Field::Qps,
                "a number of tokens per second",
                Qps::new,
                Qps::lit(1.0),
                e,
            ),
            burst: s.ranged(
                Field::Burst,
                "a whole number of tokens",
                Burst::new,
                Burst::lit(1),
                e,
            ),
        };
        match self.preset {
            Preset::ClientGoDefault => LimiterConfig::MaxOf {
                limiters: vec![exp(self, errors), bucket(self, errors)],
            },
            Preset::PerItem => exp(self, errors),
            Preset::BucketOnly => bucket(self, errors),
            Preset::FastSlow => LimiterConfig::FastSlow {
                fast_ns: self.span(Field::Fast, errors),
                slow_ns: self.span(Field::Slow, errors),
                max_fast_attempts: self
                    .number::<u32>(Field::MaxFast, "a whole number of attempts", errors)
                    .unwrap_or(0),
            },
            Preset::WithMaxWait => LimiterConfig::WithMaxWait {
                limiter: Box::new(LimiterConfig::MaxOf {
                    limiters: vec![exp(self, errors), bucket(self, errors)],
                }),
                max_wait_ns: self.span(Field::MaxWait, errors),
            },
            Preset::Crossplane => LimiterConfig::crossplane_per_object(),
        }
    }

    /// The same settings on another queue, with the limiter controller-runtime
    /// wires for it by default (Crossplane keeps its own).
    pub fn for_queue(&self, queue: QueueKind) -> Settings {
        let mut out = self.clone();
        out.queue = queue;
        // controller-runtime keeps a RateLimiter the program set and puts
        // the version's default in only where it was left nil: so does the
        // switch (a limiter other than the old version's default is kept).
        if out.preset != Preset::Crossplane && self.has_default_limiter() {
            out.preset = match queue {
                QueueKind::ClientGo => Preset::ClientGoDefault,
                QueueKind::Priority => Preset::PerItem,
            };
            out.set(Field::Base, "5ms".into());
            out.set(Field::Max, "1000s".into());
        }
        out
    }

    /// A preset's name in the form's list. The max-of preset is client-go's
    /// default only with client-go's figures (5ms to 1000s, 10/s burst 100):
    /// with others (a program's own `NewMaxOfRateLimiter`, an import) it is
    /// named by its figures, which choosing it gives.
    pub fn preset_label(&self, p: Preset) -> String {
        let own = |s: &Self| {
            format!(
                "max-of(exponential {}→{}, bucket {}/s burst {})",
                s.get(Field::Base),
                s.get(Field::Max),
                s.get(Field::Qps),
                s.get(Field::Burst)
            )
        };
        let d = |f: Field| parse_go_duration(self.get(f).trim()).ok();
        let defaults = d(Field::Base) == Some(5 * workqueue_core::MILLISECOND)
            && d(Field::Max) == Some(1000 * workqueue_core::SECOND)
            && self.get(Field::Qps).trim().parse::<f64>().ok() == Some(10.0)
            && self.get(Field::Burst).trim().parse::<i64>().ok() == Some(100);
        match p {
            Preset::ClientGoDefault if !defaults => own(self),
            Preset::WithMaxWait if !defaults => format!("{} with max wait", own(self)),
            p => p.label().to_string(),
        }
    }

    /// Whether the limiter is its queue's default (what a nil RateLimiter
    /// gets): client-go's max-of on the client-go queue, per-item 5ms–1000s
    /// on the priority queue.
    fn has_default_limiter(&self) -> bool {
        // (By value: a scenario read back writes 1000s as 16m40s.)
        let is = |f: Field, ms: i64| {
            parse_go_duration(self.get(f).trim()).ok() == Some(Duration::from_nanos(ms * 1_000_000))
        };
        let defaults = is(Field::Base, 5) && is(Field::Max, 1_000_000);
        match self.queue {
            QueueKind::ClientGo => {
                self.preset == Preset::ClientGoDefault
                    && defaults
                    && self.get(Field::Qps) == "10"
                    && self.get(Field::Burst) == "100"
            }
            QueueKind::Priority => self.preset == Preset::PerItem && defaults,
        }
    }

    /// `scenario` with what changed from `before` to these settings, and
    /// nothing else: the form edits the run's scenario (its keys, sources,
    /// client limit, requests per reconcile and other controllers stay); a
    /// limiter the form cannot show stays unless the limiter was changed.
    pub fn edit(&self, before: &Settings, scenario: &Scenario) -> Result<Scenario, FieldErrors> {
        let form = self.to_scenario()?;
        let mut out = scenario.clone();
        let changed = |fields: &[Field]| fields.iter().any(|f| self.get(*f) != before.get(*f));
        let limiter_changed = self.preset != before.preset
            || self.profile != before.profile
            || changed(&[
                Field::BreakerBurst,
                Field::BreakerRefill,
                Field::BreakerCooldown,
                Field::Base,
                Field::Max,
                Field::Qps,
                Field::Burst,
                Field::Fast,
                Field::Slow,
                Field::MaxFast,
                Field::MaxWait,
                Field::Rate,
            ]);
        if self.queue != before.queue {
            for c in &mut out.controllers {
                c.queue = self.queue;
            }
        }
        let (new, c) = (form.first(), out.first_mut());
        if limiter_changed || self.queue != before.queue && before.has_default_limiter() {
            c.limiter = new.limiter.clone();
            out.crossplane = form.crossplane;
        }
        let c = out.first_mut();
        if changed(&[
            Field::Workers,
            Field::Reconcile,
            Field::GiveUp,
            Field::Timeout,
        ]) {
            c.controller = ControllerConfig {
                // What the form does not show stays as the file set it.
                reconcile_jitter_ns: c.controller.reconcile_jitter_ns,
                ..new.controller.clone()
            };
        }
        if self.script != before.script || changed(&[Field::FailN, Field::Probability]) {
            c.default_script = new.default_script.clone();
        }
        if changed(&[Field::Seed]) {
            out.seed = form.seed;
        }
        out.validate()
            .map_err(|e| vec![(field_of(&e.field, self.preset), e.reason)])?;
        Ok(out)
    }

    /// The scenario these settings describe, or every field at fault.
    pub fn to_scenario(&self) -> Result<Scenario, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut s = Scenario::new("playground");
        s.controllers[0].queue = self.queue;
        s.controllers[0].limiter = Some(self.limiter(&mut errors));
        if self.preset == Preset::Crossplane {
            let r = self.ranged(
                Field::Rate,
                match self.profile {
                    CrossplaneProfile::Core => "a whole number of workers",
                    _ => "a whole number of reconciles per second",
                },
                ReconcileRate::new,
                ReconcileRate::lit(10),
                &mut errors,
            );
            s.crossplane = Some(self.crossplane(r, &mut errors));
        }
        s.controllers[0].controller = ControllerConfig {
            workers: self.ranged(
                Field::Workers,
                "a whole number of workers",
                Workers::new,
                Workers::lit(1),
                &mut errors,
            ),
            reconcile_ns: self.span(Field::Reconcile, &mut errors),
            give_up_after: match self.get(Field::GiveUp).trim() {
                "" => None,
                _ => self.number::<u64>(Field::GiveUp, "a whole number of requeues", &mut errors),
            },
            reconcile_timeout_ns: match self.get(Field::Timeout).trim() {
                "" => None,
                t => match parse_go_duration(t) {
                    Ok(d) if d > Duration::ZERO => Span::new(d)
                        .map_err(|e| errors.push((Field::Timeout, e.to_string())))
                        .ok(),
                    Ok(_) => {
                        errors.push((
                            Field::Timeout,
                            format!("{t}: a timeout is more than 0s (leave it empty for none)"),
                        ));
                        None
                    }
                    Err(e) => {
                        errors.push((Field::Timeout, e.to_string()));
                        None
                    }
                },
            },
            // Not on the form: a file's jitter is kept by `edit`.
            reconcile_jitter_ns: None,
        };
        s.controllers[0].default_script = match self.script {
            ScriptChoice::Live => Script::Live,
            ScriptChoice::Success => Script::Always {
                outcome: Outcome::Success,
            },
            ScriptChoice::AlwaysError => Script::Always {
                outcome: Outcome::Error,
            },
            ScriptChoice::FailThenSucceed => Script::FailThenSucceed {
                failures: self.ranged(
                    Field::FailN,
                    "a whole number of failures",
                    Failures::new,
                    Failures::lit(3),
                    &mut errors,
                ),
            },
            ScriptChoice::Random => Script::Random {
                error_probability: self.ranged(
                    Field::Probability,
                    "a probability",
                    Probability::new,
                    Probability::NEVER,
                    &mut errors,
                ),
                otherwise: Outcome::Success,
            },
            ScriptChoice::Loaded => self.loaded_script.clone().unwrap_or(Script::Always {
                outcome: Outcome::Success,
            }),
        };
        s.seed = self
            .number::<u64>(Field::Seed, "a whole number", &mut errors)
            .unwrap_or(1);
        s.duration_ns = Span::lit(workqueue_core::limits::MAX_RUN);
        if !errors.is_empty() {
            return Err(errors);
        }
        // The core's own validation, mapped back onto the form's fields.
        s.validate()
            .map_err(|e| vec![(field_of(&e.field, self.preset), e.reason)])?;
        Ok(s)
    }
}

/// Field errors in one line, each with its label.
pub(crate) fn field_errors(errors: &FieldErrors) -> String {
    errors
        .iter()
        .map(|(f, e)| format!("{}: {e}", f.label()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The form field behind a scenario field path such as `limiter.limiters[1].burst`.
fn field_of(path: &str, preset: Preset) -> Field {
    let table = [
        ("breaker.burst", Field::BreakerBurst),
        ("breaker.refill_per_second", Field::BreakerRefill),
        ("breaker.cooldown", Field::BreakerCooldown),
        ("max_wait_ns", Field::MaxWait),
        ("base_ns", Field::Base),
        ("max_ns", Field::Max),
        ("qps", Field::Qps),
        ("burst", Field::Burst),
        ("fast_ns", Field::Fast),
        ("slow_ns", Field::Slow),
        ("max_reconcile_rate", Field::Rate),
        ("workers", Field::Workers),
        ("reconcile_timeout_ns", Field::Timeout),
        ("reconcile_ns", Field::Reconcile),
        ("error_probability", Field::Probability),
    ];
    table
        .iter()
        .find(|(suffix, _)| path.ends_with(suffix))
        .map(|(_, f)| *f)
        .unwrap_or(preset.fields().first().copied().unwrap_or(Field::Workers))
}

pub mod crossplane;
pub mod outcome_list;
mod read;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod outcome_list_tests;
