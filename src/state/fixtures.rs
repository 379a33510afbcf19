//! The runs the page's tests start from.

use crate::state::RunAction;
use workqueue_core::Input;
use workqueue_core::KeyCount;

use super::{Action, Playground};
use crate::settings::{Field, Preset, ScriptChoice, Settings};

/// Applies `a` and hands the state back, so a test reads as a chain of
/// transitions.
pub(crate) fn reduce(mut p: Playground, a: Action) -> Playground {
    p.apply(a);
    p
}

/// A fresh run whose every reconcile fails (each taking `reconcile`, where
/// given), under `preset` where given: keys that fail by themselves, so
/// nothing waits for a person's choice.
pub(crate) fn failing(reconcile: Option<&str>, preset: Option<Preset>) -> Playground {
    let mut settings = Settings::default();
    settings.script = ScriptChoice::AlwaysError;
    if let Some(preset) = preset {
        settings.preset = preset;
    }
    if let Some(reconcile) = reconcile {
        settings.set(Field::Reconcile, reconcile.into());
    }
    let scenario = settings.to_scenario().unwrap();
    Playground::with(settings, scenario)
}

/// `count` keys `ns/p-0`, `ns/p-1`… added at once.
pub(crate) fn crowd(p: Playground, count: u64) -> Playground {
    reduce(
        p,
        Action::Run(RunAction::Input(Input::AddMany {
            prefix: "ns/p-".into(),
            count: KeyCount::new(count).unwrap(),
        })),
    )
}
