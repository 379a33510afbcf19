//! A controller manager: several controllers in one process, each with its
//! own queue, limiter, workers and sources, sharing what a manager shares:
//! a limiter passed to several controllers (the same `BucketRateLimiter`
//! object), Crossplane's global bucket in front of every reconciler, and the
//! API client's rate limiter.
//!
//! Each controller is a [`Controller`]. The manager owns the run's one
//! [`BucketStore`]: every token bucket of every controller, the shared ones
//! once (see [`crate::shared`]), held by id by each controller that uses
//! them, as several controllers hold one Go `*rate.Limiter`. It moves every
//! controller forward instant by instant, in controller order, handing each
//! the store: a reservation by one controller is seen by the next at the
//! same instant, and a run depends only on the scenario and its seed.

use crate::buckets::{BucketId, BucketStore};
use crate::events::{Input, SimError};
use crate::rate::TokenBucket;
use crate::scenario::{Scenario, ScenarioError};
use crate::shared::Shared;
use crate::sim::alone::Simulation;
use crate::sim::Controller;
use crate::time::{Duration, Instant};
use crate::timer::{earliest, Deadline, Timer};

/// Work units a controller spends per turn when several share an instant.
pub(crate) const TURN: u64 = 2;

#[derive(Clone, Debug)]
pub struct Manager {
    scenario: Scenario,
    names: Vec<String>,
    controllers: Vec<Controller>,
    /// Every token bucket of the run.
    buckets: BucketStore,
    /// The buckets the controllers share, and the API client's plan.
    shared: Shared,
    now: Instant,
    /// Work units the last bounded call left unspent.
    work_left: u64,
    /// Recorded inputs passed over as refused (see [`Manager::skip_input`]).
    inputs_skipped: usize,
}

impl Manager {
    /// Validates the scenario and builds every controller at `T0 = 0`. A
    /// one-controller scenario runs exactly as a [`Simulation`] of it.
    pub fn new(scenario: &Scenario) -> Result<Manager, ScenarioError> {
        scenario.validate()?;
        let mut buckets = BucketStore::new();
        let shared = Shared::new(scenario, &mut buckets);
        let controllers = (0..scenario.controllers.len())
            .map(|i| Controller::new(scenario, i, &shared, &mut buckets))
            .collect();
        let names = (0..scenario.controllers.len())
            .map(|i| scenario.controller_name(i))
            .collect();
        Ok(Manager {
            scenario: scenario.clone(),
            names,
            controllers,
            buckets,
            shared,
            now: Instant::T0,
            work_left: 0,
            inputs_skipped: 0,
        })
    }

    /// Runs controller `i` to `t`, spending at most `budget` work units;
    /// whether it got there.
    fn run_controller(&mut self, i: usize, t: Instant, budget: u64) -> bool {
        self.controllers[i].run_until_bounded(t, budget, &mut self.buckets)
    }

    /// Runs every controller to `t`, instant by instant. Within an instant
    /// the controllers take turns of `TURN` work units (a hand-out to a
    /// worker, a key added), as their goroutines would interleave: no
    /// controller's whole instant runs before the others start.
    pub fn run_until(&mut self, t: Instant) {
        while !self.run_until_bounded(t, u64::MAX) && !self.stalled() {}
    }

    /// Like [`Manager::run_until`], spending at most `budget` work units in
    /// all (a page frame must end); whether `t` was reached. A later call
    /// carries on exactly where this one stopped.
    pub fn run_until_bounded(&mut self, t: Instant, budget: u64) -> bool {
        let turn = if self.controllers.len() == 1 {
            u64::MAX
        } else {
            TURN
        };
        let mut left = budget;
        self.work_left = left;
        while let Some(next) = self.next_event_at().filter(|n| *n <= t) {
            loop {
                let mut all_done = true;
                for i in 0..self.controllers.len() {
                    let give = turn.min(left);
                    if give == 0 {
                        self.work_left = 0;
                        return false;
                    }
                    all_done &= self.run_controller(i, next, give);
                    // A turn costs at least one unit, even one with nothing
                    // to do: sixteen idle controllers are sixteen visits.
                    let spent = give - self.controllers[i].budget_left().min(give);
                    left -= spent.max(1);
                }
                if all_done || self.stalled() {
                    break;
                }
            }
            self.work_left = left;
            if self.stalled() {
                return false; // a zero-delay loop never lets this instant end
            }
        }
        for i in 0..self.controllers.len() {
            self.run_controller(i, t, u64::MAX);
        }
        self.now = self.now.max(t);
        true
    }

    /// Work units the last bounded call left unspent.
    pub fn budget_left(&self) -> u64 {
        self.work_left
    }

    /// One pass over the next instant anything happens, in every controller
    /// due then (see [`Simulation::step`]): an instant with instant
    /// reconciles takes several passes, and the stage shows them one by one.
    /// Returns that instant, or `None` when nothing is scheduled (or a
    /// controller is stuck).
    pub fn step(&mut self) -> Option<Instant> {
        self.step_bounded(u64::MAX)
    }

    /// Like [`Manager::step`], spending at most `budget` work units over
    /// the controllers due; a controller whose pass did not fit takes it
    /// (or finishes it) on the next call, at the same instant.
    pub fn step_bounded(&mut self, budget: u64) -> Option<Instant> {
        let t = self.next_event_at()?;
        let mut left = budget;
        for i in 0..self.controllers.len() {
            if left == 0 {
                break;
            }
            if self.controllers[i].next_event_at() == Some(t) {
                self.controllers[i].step_bounded(left, &mut self.buckets);
                left = left
                    .saturating_sub(1)
                    .min(self.controllers[i].budget_left());
            }
        }
        self.work_left = left;
        self.now = self.now.max(t);
        Some(t)
    }

    /// Applies a person's input to controller `i`. A refused input changes
    /// nothing.
    pub fn apply(&mut self, i: usize, input: Input) -> Result<(), SimError> {
        self.apply_bounded(i, input, crate::sim::APPLY_BUDGET)
    }

    /// Like [`Manager::apply`], starting at most `budget` work units of what
    /// the input sets off ([`Manager::budget_left`] tells what is left).
    pub fn apply_bounded(&mut self, i: usize, input: Input, budget: u64) -> Result<(), SimError> {
        if i >= self.controllers.len() {
            return Err(SimError::Invalid(ScenarioError {
                field: "controller".into(),
                reason: format!("there is no controller {i}: this run has {}", self.len()),
                line: None,
            }));
        }
        let result = self.controllers[i].apply_bounded(input, budget, &mut self.buckets);
        self.work_left = self.controllers[i].budget_left();
        result
    }

    /// Passes over a recorded input that this run refused, so the inputs
    /// after it still line up with their places on the tape.
    pub fn skip_input(&mut self) {
        self.inputs_skipped += 1;
    }

    /// Inputs applied (or skipped as refused) so far, over every controller:
    /// the place on the tape the next input comes from.
    pub fn inputs_applied(&self) -> usize {
        self.controllers
            .iter()
            .map(|c| c.inputs().len())
            .sum::<usize>()
            + self.inputs_skipped
    }

    /// Lowers the most keys each controller may hold (the page keeps what
    /// it can draw and rewind).
    pub fn set_key_limit(&mut self, limit: u64) {
        for c in &mut self.controllers {
            c.set_key_limit(limit);
        }
    }

    /// Keys known to every controller together.
    pub fn key_total(&self) -> usize {
        self.controllers
            .iter()
            .map(|c| c.queue().keys().len())
            .sum()
    }

    /// Keys queued, waiting or being processed, over every controller.
    pub fn in_motion(&self) -> usize {
        self.controllers
            .iter()
            .map(|c| {
                let q = c.queue();
                q.len() + q.waiting_len() + q.processing_count()
            })
            .sum()
    }

    /// Whether the next instant holds events of sources alone, in every
    /// controller that has something then (see
    /// [`Controller::next_is_sources_only`]).
    pub fn next_is_sources_only(&self) -> bool {
        // Ties go to every other kind first, over all controllers.
        self.next_deadline(None)
            .is_some_and(|d| d.timer == Timer::Source)
    }

    /// Why a controller is stuck (a zero-delay retry loop), if one is.
    pub fn stall_reason(&self) -> Option<&str> {
        self.controllers.iter().find_map(Controller::stalled)
    }

    /// Whether a controller is stuck (a zero-delay retry loop).
    pub fn stalled(&self) -> bool {
        self.stall_reason().is_some()
    }

    pub fn run_to_end(&mut self) {
        self.run_until(Instant::T0 + self.scenario.duration_ns.get());
    }

    pub fn now(&self) -> Instant {
        self.now
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The controllers, in the scenario's order, with their names.
    pub fn controllers(&self) -> impl Iterator<Item = (&str, &Controller)> + '_ {
        self.names
            .iter()
            .map(String::as_str)
            .zip(self.controllers.iter())
    }

    pub fn len(&self) -> usize {
        self.controllers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.controllers.is_empty()
    }

    /// Controller `i` (in the scenario's order).
    pub fn controller(&self, i: usize) -> Option<&Controller> {
        self.controllers.get(i)
    }

    /// Every token bucket of the run, to read a controller's (see
    /// [`Controller::stage_view`]).
    pub fn buckets(&self) -> &BucketStore {
        &self.buckets
    }

    /// Controller `i` taken out to run alone, from where it stands, on a
    /// copy of the run's buckets (a what-if: the others no longer draw).
    pub fn controller_alone(&self, i: usize) -> Option<Simulation> {
        let c = self.controllers.get(i)?.clone();
        Some(Simulation::from_parts(c, self.buckets.clone()))
    }

    /// The next instant anything happens in any controller.
    pub fn next_event_at(&self) -> Option<Instant> {
        self.next_deadline(None).map(|d| d.at)
    }

    /// The next deadline over every controller's timer table and `input`
    /// (a recorded input still to come, [`Timer::Input`]): the earliest,
    /// ties to the kind handled first, then the lowest controller.
    pub fn next_deadline(&self, input: Option<Deadline>) -> Option<Deadline> {
        debug_assert!(input.is_none_or(|d| d.timer == Timer::Input));
        let controllers = self.controllers.iter().enumerate();
        earliest(
            controllers
                .filter_map(|(i, c)| {
                    Some(Deadline {
                        controller: i,
                        ..c.next_deadline()?
                    })
                })
                .chain(input),
        )
    }

    pub fn set_log_capacity(&mut self, capacity: usize) {
        for c in &mut self.controllers {
            c.set_log_capacity(capacity);
        }
    }

    /// API requests through the shared client, and the time they waited.
    pub fn client_totals(&self) -> (u64, Duration) {
        self.controllers
            .iter()
            .map(Controller::client_totals)
            .fold((0, Duration::ZERO), |(r, w), (r2, w2)| {
                (r + r2, w.saturating_add(w2))
            })
    }

    /// The shared buckets' levels at the manager's clock: (Crossplane's
    /// global bucket, the shared limiter bucket).
    pub fn shared_levels(&self) -> (Option<f64>, Option<f64>) {
        let level = |b: Option<BucketId>| b.map(|b| self.buckets.tokens_at(b, self.now));
        (level(self.shared.global), level(self.shared.limiter))
    }

    /// The API client's buckets at the manager's clock: the kinds each
    /// serves, and its level (none without a client limit).
    pub fn client_levels(&self) -> Vec<(&[String], f64)> {
        self.shared
            .plan
            .kinds
            .iter()
            .zip(&self.shared.client)
            .map(|(kinds, b)| (kinds.as_slice(), self.buckets.tokens_at(*b, self.now)))
            .collect()
    }

    /// The client bucket controller `i` draws from, and the kinds it serves.
    pub fn client_bucket_of(&self, i: usize) -> Option<(&[String], &TokenBucket)> {
        let b = self.shared.plan.draws.get(i)?.first()?.bucket;
        let kinds = self.shared.plan.kinds.get(b)?;
        Some((
            kinds.as_slice(),
            self.buckets.get(*self.shared.client.get(b)?),
        ))
    }

    /// A fingerprint of the whole run. A manager of one has its controller's
    /// digest, so a one-controller file runs as it always did.
    pub fn digest(&self) -> u64 {
        match self.controllers.as_slice() {
            [one] => one.digest(),
            many => many.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
                (h ^ c.digest()).wrapping_mul(0x0100_0000_01b3)
            }),
        }
    }
}
