//! Which controller-runtime the stage runs. Switching keeps the run: the
//! same scenario on the other queue, what was done replayed to the same
//! instant, and the run left behind kept as its headline figures.

use workqueue_core::{Nanos, QueueKind, ResultLabel, Simulation};

use crate::state::{Notice, Playground};
use crate::timeline::Timeline;

/// A run's headline figures, to set two runs side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    pub queue: QueueKind,
    pub at: Nanos,
    pub reconciles: u64,
    pub errors: u64,
    pub requeues: u64,
}

impl Headline {
    pub fn of(sim: &Simulation) -> Headline {
        let m = sim.controller_metrics();
        Headline {
            queue: sim.spec().queue,
            at: sim.now(),
            reconciles: sim.inner_reconciles(),
            errors: m.total(ResultLabel::Error),
            requeues: sim.requeues_total(),
        }
    }
}

impl Playground {
    /// The same run on `queue`: the settings for that queue, the recorded
    /// inputs replayed to the same instant, this run's figures kept beside it.
    pub fn switch_queue(&self, queue: QueueKind) -> Result<Playground, String> {
        let settings = self.settings.for_queue(queue);
        let (before, tape, at) = {
            let t = self.timeline.borrow();
            (Headline::of(t.sim()), t.tape().to_vec(), t.now())
        };
        let scenario = settings.to_scenario().map_err(|errors| {
            errors
                .iter()
                .map(|(f, e)| format!("{}: {e}", f.label()))
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let t = Timeline::replayed(scenario, tape, at).map_err(|e| e.to_string())?;
        let mut fresh = self.carry_over(Playground::on(settings, t, None));
        fresh.other_run = Some(before);
        fresh.selected = self.selected.clone();
        fresh.idle = self.idle;
        fresh.notice = Notice::info(
            "The same run on the other queue: what you did is replayed to the same instant.",
        );
        Ok(fresh)
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use workqueue_core::Input;
    use yew::Reducible;

    use super::*;
    use crate::settings::Settings;
    use crate::state::Action;

    fn reduce(p: Rc<Playground>, a: Action) -> Rc<Playground> {
        p.reduce(a)
    }

    /// Switching the version replays what was done on the other queue, to
    /// the same instant, and keeps the first run's figures beside it.
    #[test]
    fn switching_the_version_replays_the_same_run_on_the_other_queue() {
        let mut settings = Settings::default();
        settings.script = crate::settings::ScriptChoice::AlwaysError;
        settings.set(crate::settings::Field::Reconcile, "0s".into());
        let scenario = settings.to_scenario().unwrap();
        let mut p = Rc::new(Playground::with(settings, scenario));
        p = reduce(
            p,
            Action::Input(Input::AddMany {
                prefix: "ns/p-".into(),
                count: 300,
            }),
        );
        for _ in 0..40 {
            p = reduce(p, Action::Step);
        }
        let (at, before) = (p.now(), p.sim().requeues_total());
        assert!(before > 0);
        p = reduce(p, Action::SwitchQueue(QueueKind::Priority));
        while p.timeline.borrow().pending().is_some() {
            p = reduce(p, Action::Tick(16.0));
        }
        assert_eq!(p.sim().spec().queue, QueueKind::Priority);
        assert_eq!(p.now(), at, "the same instant");
        assert_eq!(p.sim().queue().keys().len(), 300, "the same keys");
        let other = p
            .other_run
            .clone()
            .expect("the first run's figures are kept");
        assert_eq!(
            (other.queue, other.at, other.requeues),
            (QueueKind::ClientGo, at, before)
        );
        assert_ne!(
            p.sim().requeues_total(),
            before,
            "a different queue, a different run"
        );
    }
}
