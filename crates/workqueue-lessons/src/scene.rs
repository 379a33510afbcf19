//! The run a step's set-up describes, built by the core exactly as the
//! playground builds it ([`workqueue_core::Run::scene`]).

use crate::model::{Lesson, Setup};
use crate::query::Value;

impl Lesson {
    /// The set-up step `step` plays: its own, or the nearest before it.
    pub fn setup_for(&self, step: usize) -> Option<&Setup> {
        self.steps
            .get(..=step)?
            .iter()
            .rev()
            .find_map(|s| s.setup.as_ref())
    }

    /// The answer to step `step`'s question, from its set-up: the same
    /// whatever was played, however often it is asked.
    pub fn answer(&self, step: usize) -> Option<Result<Value, String>> {
        let question = self.steps.get(step)?.question.as_ref()?;
        let scene = match self
            .setup_for(step)?
            .scene_within(crate::query::STEP_BUDGET)
        {
            Ok(scene) => scene,
            Err(e) => return Some(Err(e)),
        };
        Some(question.query.answer(&scene))
    }
}
