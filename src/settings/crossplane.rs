//! The Crossplane preset's part of the form: which Crossplane (the 2021
//! design, a provider of today, core since v2.1) and, for core, the three
//! flags of its XR circuit breaker.

use super::*;
use workqueue_core::{BreakerAmount, BreakerFlags};

/// The profiles in the order the form offers them, with their words.
pub const PROFILES: [CrossplaneProfile; 3] = [
    CrossplaneProfile::Note2021,
    CrossplaneProfile::Provider,
    CrossplaneProfile::Core,
];

pub fn profile_label(p: CrossplaneProfile) -> &'static str {
    match p {
        CrossplaneProfile::Note2021 => "The 2021 design (Crossplane's rate-limiting one-pager)",
        CrossplaneProfile::Provider => "A provider on today's crossplane-runtime",
        CrossplaneProfile::Core => "Crossplane core since v2.1",
    }
}

pub fn profile_blurb(p: CrossplaneProfile) -> &'static str {
    match p {
        CrossplaneProfile::Note2021 => "As design/one-pager-rate-limiting.md in crossplane/crossplane describes it: R workers, a global bucket of R per second (burst 10R) in front of every reconciler, a 1s→60s backoff per object, and the API client at 5R per second. The queue is the version switch's.",
        CrossplaneProfile::Provider => "The same bucket, backoff and client limit, on controller-runtime's priority queue: crossplane-runtime v2.2 requires v0.23 and leaves UsePriorityQueue unset.",
        CrossplaneProfile::Core => "R is now the worker pool (--max-reconcile-rate is an alias of --max-concurrent-reconciles): no global bucket, no client-side limit, a 1s→30s backoff, and a circuit breaker per XR that drops its watch events once they come faster than it refills.",
    }
}

impl Settings {
    /// The fields the Crossplane preset shows for the chosen profile.
    pub fn crossplane_fields(&self) -> &'static [Field] {
        match self.profile {
            CrossplaneProfile::Core => &[
                Field::Rate,
                Field::BreakerBurst,
                Field::BreakerRefill,
                Field::BreakerCooldown,
            ],
            _ => &[Field::Rate],
        }
    }

    /// A field's unit line, as the chosen Crossplane reads it.
    pub fn unit_of(&self, f: Field) -> &'static str {
        match (f, self.preset, self.profile) {
            (Field::Rate, Preset::Crossplane, CrossplaneProfile::Core) => "workers per controller",
            _ => f.unit(),
        }
    }

    /// `--max-reconcile-rate r` under the chosen profile; the breaker's
    /// flags are written only where they differ from the defaults.
    pub(super) fn crossplane(
        &self,
        r: ReconcileRate,
        errors: &mut FieldErrors,
    ) -> CrossplaneConfig {
        let breaker = (self.profile == CrossplaneProfile::Core)
            .then(|| BreakerFlags {
                burst: self.tokens(Field::BreakerBurst, errors),
                refill_per_second: self.tokens(Field::BreakerRefill, errors),
                cooldown: self.span(Field::BreakerCooldown, errors),
            })
            .filter(|b| *b != BreakerFlags::DEFAULT);
        CrossplaneConfig {
            max_reconcile_rate: r,
            profile: self.profile,
            breaker,
        }
    }

    /// A number of tokens (or tokens per second): finite, 0 or more.
    fn tokens(&self, f: Field, errors: &mut FieldErrors) -> BreakerAmount {
        match self.get(f).trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => BreakerAmount::new(v).unwrap_or_else(|e| {
                errors.push((f, e.to_string()));
                BreakerAmount::lit(0.0)
            }),
            _ => {
                errors.push((f, format!("{:?} is not a number of 0 or more", self.get(f))));
                BreakerAmount::lit(0.0)
            }
        }
    }

    /// The form's Crossplane part read from a scenario's.
    pub(super) fn read_crossplane(&mut self, cp: &CrossplaneConfig) {
        self.preset = Preset::Crossplane;
        self.profile = cp.profile;
        self.set(Field::Rate, cp.max_reconcile_rate.to_string());
        let b = cp.breaker_flags();
        self.set(Field::BreakerBurst, b.burst.to_string());
        self.set(Field::BreakerRefill, b.refill_per_second.to_string());
        self.set(Field::BreakerCooldown, format_go_duration(b.cooldown.get()));
    }
}
