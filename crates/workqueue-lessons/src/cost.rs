//! What a step costs before anything of it runs, in the core's work units
//! (keys added, events, reconciles and retries, client requests: see
//! `workqueue_core::estimate`): its scene, the scenario and its inputs up to
//! the last instant the set-up names; its question or goal, the scene on to
//! the query's window, plus the samples it reads. A file whose step asks for
//! more than [`STEP_BUDGET`], or whose steps together ask for more than
//! [`LESSON_BUDGET`], is refused at the step's line. What cannot be costed
//! from the file (a query that runs until something happens) is bounded as
//! it runs, by the same budget ([`Query::answer_within`]).

use workqueue_core::Run;
use workqueue_core::{Instant, MILLISECOND};

use crate::model::Setup;
use crate::query::Query;

/// Keys one step's scene may hold: what the page runs (the core, natively,
/// runs more; a lesson is meant for the page).
pub const MAX_SCENE_KEYS: u64 = 250_000;

/// Keys the step's scene holds once its set-up has played: the scenario's
/// and those its inputs add.
pub(crate) fn scene_keys(setup: &Setup) -> u64 {
    setup
        .scenario
        .key_count()
        .saturating_add(Run::keys_added(&setup.inputs))
}

/// Work units a whole lesson's scenes and answers may take together: what
/// opening a lesson computes (every question is answered when it opens).
pub const LESSON_BUDGET: u64 = 20_000_000;

/// The last instant a set-up names: its inputs' and where it pauses.
pub(crate) fn horizon(setup: &Setup) -> Instant {
    setup
        .inputs
        .iter()
        .map(|(at, _)| *at)
        .fold(setup.run_to, Instant::max)
}

/// The estimated work of building the step's scene.
pub fn scene(setup: &Setup) -> f64 {
    setup.work_to(horizon(setup))
}

/// The estimated work of answering `query` on the scene: the run on to its
/// window (from the start: the scene is part of it), and its samples.
pub fn question(setup: &Setup, query: &Query) -> f64 {
    let from = horizon(setup);
    let until = query.window_end().map_or(from, |t| t.max(from));
    setup.work_to(until) + query.samples_from(setup.run_to) as f64
}

impl Query {
    /// The last instant the query runs the scene to, when the file says it;
    /// `None` for a query that runs until something happens (bounded as it
    /// runs).
    pub fn window_end(&self) -> Option<Instant> {
        match self {
            Query::Requeues { until, .. }
            | Query::ReconcilesPerSecond { until, .. }
            | Query::DeepestDebt { until }
            | Query::Reconciles { until, .. }
            | Query::ConvergedAt { until }
            | Query::RequestsPerSecond { until }
            | Query::ClientWait { until } => Some(*until),
            Query::Results { until, .. } => *until,
            Query::NumRequeues { at, .. } => Some(*at),
            Query::WaitAfterFailure { .. }
            | Query::NextWait { .. }
            | Query::NthReconcile { .. }
            | Query::WaitForWorker { .. } => None,
        }
    }

    /// The samples the query reads from the scene's instant `from`.
    pub fn samples_from(&self, from: Instant) -> u64 {
        match self {
            Query::DeepestDebt { until } => ((*until - from.min(*until)) / MILLISECOND) as u64 + 1,
            _ => 0,
        }
    }
}
