//! The run a step's set-up describes, built exactly as the playground builds
//! it: the scenario, each input at its instant (to the first controller),
//! then on to `run_to`.

use workqueue_core::Manager;

use crate::model::{Lesson, Setup};
use crate::query::Value;

impl Setup {
    pub fn scene(&self) -> Result<Manager, String> {
        self.scene_within(u64::MAX)
    }

    /// The scene, refused if building it takes more than `budget` units of
    /// the core's work (a file from anyone cannot hold a page or a tool).
    pub fn scene_within(&self, budget: u64) -> Result<Manager, String> {
        let mut run = Manager::new(&self.scenario).map_err(|e| e.to_string())?;
        let mut inputs: Vec<_> = self.inputs.iter().collect();
        inputs.sort_by_key(|(at, _)| *at);
        let mut left = budget;
        let mut reach = |run: &mut Manager, t| {
            let reached = run.run_until_bounded(t, left);
            left = run.budget_left();
            match reached {
                true => Ok(()),
                false => Err(run.stall_reason().map_or_else(
                    || format!("setting the scene up takes more than {budget} steps of work"),
                    str::to_string,
                )),
            }
        };
        for (at, input) in inputs {
            reach(&mut run, *at)?;
            run.apply(0, input.clone()).map_err(|e| e.to_string())?;
        }
        reach(&mut run, self.run_to)?;
        Ok(run)
    }
}

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
        let scene = match self.setup_for(step)?.scene_within(crate::cost::STEP_BUDGET) {
            Ok(scene) => scene,
            Err(e) => return Some(Err(e)),
        };
        Some(question.query.answer(&scene))
    }
}
