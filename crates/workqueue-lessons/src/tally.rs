//! The number a question asks about, counted live on the stage. A counting
//! question (reconciles, requeues, results) has a value at every instant of
//! the scene, read from the run as it stands: the room watches it climb to
//! the answer instead of trusting a panel below the fold. At the query's
//! last instant it equals the core's answer exactly (tested below).

use serde::{Deserialize, Serialize};
use workqueue_core::{Instant, Manager, ResultLabel};

use crate::query::Query;

/// A count a question's query has at every instant (those that have one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "count")]
pub enum Tally {
    /// `key`'s reconciles so far (the first controller's key).
    Reconciles { key: String, until: Instant },
    /// `NumRequeues(key)` now.
    NumRequeues { key: String, at: Instant },
    /// Requeues of every controller counted from `from`.
    Requeues { from: Instant, until: Instant },
    /// Reconciles ended with `label`, every controller together.
    Results {
        label: ResultLabel,
        until: Option<Instant>,
    },
}

impl Query {
    /// The live count of this question, where it has one (a question about
    /// a time or a rate has none: the clock and the chips show those).
    pub fn tally(&self) -> Option<Tally> {
        Some(match self {
            Query::Reconciles { key, until } => Tally::Reconciles {
                key: key.clone(),
                until: *until,
            },
            Query::NumRequeues { key, at } => Tally::NumRequeues {
                key: key.clone(),
                at: *at,
            },
            Query::Requeues { from, until } => Tally::Requeues {
                from: *from,
                until: *until,
            },
            Query::Results { label, until } => Tally::Results {
                label: *label,
                until: *until,
            },
            _ => return None,
        })
    }
}

impl Tally {
    /// What is counted, in the room's words.
    pub fn label(&self) -> String {
        match self {
            Tally::Reconciles { key, .. } => format!("{key} reconciled"),
            Tally::NumRequeues { key, .. } => format!("NumRequeues({key})"),
            Tally::Requeues { .. } => "Requeues".to_string(),
            Tally::Results { label, .. } => match label {
                ResultLabel::Success => "Reconciles that succeeded".to_string(),
                ResultLabel::Error => "Reconciles that failed".to_string(),
                ResultLabel::Requeue => "Reconciles that asked to requeue".to_string(),
                ResultLabel::RequeueAfter => "Reconciles that asked for RequeueAfter".to_string(),
            },
        }
    }

    /// The last instant the count means what the question asks (past it a
    /// run counts on; the stage then says the count is past the question).
    pub fn until(&self) -> Option<Instant> {
        match self {
            Tally::Reconciles { until, .. } | Tally::Requeues { until, .. } => Some(*until),
            Tally::NumRequeues { at, .. } => Some(*at),
            Tally::Results { until, .. } => *until,
        }
    }

    /// A count asked "at the set-up's instant" (no `until` of its own) ends
    /// at `setup_at`, the instant the step's scene opens at.
    pub fn ending_by(self, setup_at: Instant) -> Tally {
        match self {
            Tally::Results { label, until: None } => Tally::Results {
                label,
                until: Some(setup_at),
            },
            t => t,
        }
    }

    /// The count in `run` as it stands (at `run.now()`); `None` where the
    /// run has no such key or controller.
    pub fn value(&self, run: &Manager) -> Option<u64> {
        match self {
            Tally::Reconciles { key, .. } => {
                let sim = run.controller(0)?;
                Some(sim.item(sim.find(key)?).reconciles)
            }
            Tally::NumRequeues { key, .. } => {
                let sim = run.controller(0)?;
                Some(sim.queue().num_requeues(sim.find(key)?))
            }
            Tally::Requeues { from, until } => Some(
                run.controllers()
                    .map(|(_, c)| c.series().requeues_between(*from, *until))
                    .sum(),
            ),
            Tally::Results { label, .. } => Some(
                run.controllers()
                    .map(|(_, c)| c.controller_metrics().total(*label))
                    .sum(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::query::Value;
    use crate::{lesson, BUILT_IN_FILES};

    /// Every counting question of every built-in lesson: its tally, read
    /// on the step's scene played to the query's last instant, is the
    /// core's answer; at the set-up's instant it is no more than that.
    #[test]
    fn a_tally_at_the_question_s_instant_is_the_answer() {
        let mut counted = 0;
        for (id, text) in BUILT_IN_FILES {
            let l = lesson(id, text).unwrap();
            for step in 0..l.steps.len() {
                let Some(q) = &l.steps[step].question else {
                    continue;
                };
                let Some(tally) = q.query.tally() else {
                    continue;
                };
                let Some(Ok(Value::Count(answer))) = l.answer(step) else {
                    panic!(
                        "{id} step {}: a counting question answers a count",
                        step + 1
                    );
                };
                let mut run = l
                    .setup_for(step)
                    .unwrap()
                    .scene_within(crate::query::STEP_BUDGET)
                    .unwrap();
                let start = tally.value(&run).unwrap();
                assert!(
                    start <= answer,
                    "{id} step {}: {start} > {answer}",
                    step + 1
                );
                let until = tally.until().unwrap_or(run.now()).max(run.now());
                run.run_until(until);
                assert_eq!(tally.value(&run), Some(answer), "{id} step {}", step + 1);
                counted += 1;
            }
        }
        assert!(counted >= 8, "only {counted} counting questions");
    }
}
