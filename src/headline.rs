//! Two runs side by side: a run's headline figures, and the pair a
//! version switch keeps (the run left behind, and this one once it reaches
//! the same instant).

use workqueue_core::{Instant, Manager, QueueKind, ResultLabel};

/// Two runs' figures at one instant: the run left by a version switch, and
/// this one once its replay has reached the switch's instant.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SideBySide {
    pub before: Headline,
    pub after: Option<Headline>,
}

impl SideBySide {
    /// Takes this run's figures if it stands at the switch's instant.
    pub fn settle(&mut self, run: &Manager) {
        if self.after.is_none() && run.now() == self.before.at {
            self.after = Some(Headline::of(run));
        }
    }
}

/// A run's headline figures, to set two runs side by side: every
/// controller's together.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Headline {
    pub queue: QueueKind,
    pub at: Instant,
    pub reconciles: u64,
    pub errors: u64,
    pub requeues: u64,
}

impl Headline {
    pub fn of(run: &Manager) -> Headline {
        let mut h = Headline {
            queue: run.scenario().first().queue,
            at: run.now(),
            reconciles: 0,
            errors: 0,
            requeues: 0,
        };
        for (_, sim) in run.controllers() {
            h.reconciles += sim.inner_reconciles();
            h.errors += sim.controller_metrics().total(ResultLabel::Error);
            h.requeues += sim.requeues_total();
        }
        h
    }
}
