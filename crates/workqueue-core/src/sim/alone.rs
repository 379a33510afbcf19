//! A controller that runs alone: it owns its run's bucket store, and hands
//! it to every call. It reads as its [`Controller`] (it derefs to it); the
//! calls that move it or read its buckets are its own (those that draw
//! the stage: in `crate::view`).

use std::ops::{Deref, DerefMut};

use super::*;

/// One controller's run, with the store of the token buckets it uses.
#[derive(Clone, Debug)]
pub struct Simulation {
    controller: Controller,
    buckets: BucketStore,
}

impl Deref for Simulation {
    type Target = Controller;

    fn deref(&self) -> &Controller {
        &self.controller
    }
}

impl DerefMut for Simulation {
    fn deref_mut(&mut self) -> &mut Controller {
        &mut self.controller
    }
}

impl Simulation {
    /// Validates a scenario of one controller and builds its run at `T0 = 0`
    /// (a scenario of several runs as a [`crate::Manager`]).
    pub fn new(scenario: &Scenario) -> Result<Simulation, ScenarioError> {
        scenario.validate()?;
        if scenario.controllers.len() > 1 {
            return Err(ScenarioError {
                field: "controllers".into(),
                reason: format!(
                    "{} controllers share this manager: run it as a Manager (wqsim does)",
                    scenario.controllers.len()
                ),
                line: None,
            });
        }
        let mut buckets = BucketStore::new();
        let shared = Shared::new(scenario, &mut buckets);
        let controller = Controller::new(scenario, 0, &shared, &mut buckets);
        Ok(Simulation {
            controller,
            buckets,
        })
    }

    /// `controller` run alone on `buckets` (a copy of its run's: a what-if
    /// taken out of a manager).
    pub(crate) fn from_parts(controller: Controller, buckets: BucketStore) -> Simulation {
        debug_assert!(controller.gate_bucket().is_none_or(|b| buckets.owns(b)));
        Simulation {
            controller,
            buckets,
        }
    }

    /// The controller, to read.
    pub fn controller(&self) -> &Controller {
        &self.controller
    }

    /// The token buckets of this run.
    pub fn buckets(&self) -> &BucketStore {
        &self.buckets
    }

    /// Handles everything due at the next event's instant. Returns that
    /// instant, or `None` when nothing is scheduled (or the run is stuck).
    pub fn step(&mut self) -> Option<Instant> {
        self.controller.step(&mut self.buckets)
    }

    /// Like [`Simulation::step`], spending at most `budget` work units: a
    /// pass that runs out is finished by the next call, at the same instant.
    pub fn step_bounded(&mut self, budget: u64) -> Option<Instant> {
        self.controller.step_bounded(budget, &mut self.buckets)
    }

    /// Handles every event due up to and including `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: Instant) {
        self.controller.run_until(t, &mut self.buckets)
    }

    /// Like [`Simulation::run_until`], but spends at most `budget` work units
    /// (an instant, a key added, an item handed to a worker: each one unit),
    /// so a caller with a frame to render is never stuck behind a storm. Every
    /// loop inside the call draws on the same budget. Returns whether `t` was
    /// reached; if not, a later call carries on exactly where this one stopped.
    pub fn run_until_bounded(&mut self, t: Instant, budget: u64) -> bool {
        self.controller
            .run_until_bounded(t, budget, &mut self.buckets)
    }

    /// Runs until the scenario's duration (or until nothing more can happen).
    pub fn run_to_end(&mut self) {
        self.controller.run_to_end(&mut self.buckets)
    }

    /// Applies an input at the current instant and records it for replay.
    /// The input passes the validation gate first; a refused input changes
    /// nothing. Work it starts (a thousand keys to add) is bounded by
    /// `APPLY_BUDGET`; the rest is done by the next `run_until_bounded`.
    pub fn apply(&mut self, input: Input) -> Result<(), SimError> {
        self.apply_bounded(input, APPLY_BUDGET)
    }

    /// Like [`Simulation::apply`], starting at most `budget` work units of
    /// what the input sets off ([`Controller::budget_left`] tells what is
    /// left); the rest is done by the next `run_until_bounded`.
    pub fn apply_bounded(&mut self, input: Input, budget: u64) -> Result<(), SimError> {
        self.controller
            .apply_bounded(input, budget, &mut self.buckets)
    }

    /// Rebuilds a run from its scenario and recorded inputs, up to `until`.
    pub fn replay(
        scenario: &Scenario,
        inputs: &[(Instant, Input)],
        until: Instant,
    ) -> Result<Simulation, SimError> {
        let mut sim = Simulation::new(scenario).map_err(SimError::Invalid)?;
        validate::tape(inputs).map_err(SimError::Invalid)?;
        for (at, input) in inputs.iter().filter(|(at, _)| *at <= until) {
            sim.run_until(*at);
            sim.apply(input.clone())?;
        }
        sim.run_until(until);
        Ok(sim)
    }

    /// Tokens in the bucket that gates this controller at `t` (see
    /// [`Controller::gate_bucket`]).
    pub fn bucket_tokens_at(&self, t: Instant) -> Option<f64> {
        self.controller.bucket_tokens_at(&self.buckets, t)
    }
}
