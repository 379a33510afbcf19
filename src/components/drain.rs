//! The bucket that never drains: a full controller bucket while keys fail
//! (failures come slower than it refills), why, and settings that drain it.

use workqueue_core::{BucketOwner, BucketView, Duration, Input, ResultLabel};
use yew::prelude::*;

use crate::format;
use crate::settings::{Field, ScriptChoice, Settings};
use crate::state::Playground;

/// A full controller bucket while keys fail: failures come slower than it
/// refills, so it never drains. What the hint says why with, and the
/// settings that drain it.
#[derive(Clone, Debug, PartialEq)]
pub struct Drain {
    /// The most failures a second the workers can bring.
    pub most: f64,
    pub workers: u32,
    /// A reconcile's length (cut by its timeout).
    pub reconcile_ns: Duration,
    /// The run's settings with short reconciles that always fail.
    pub settings: Settings,
}

impl Drain {
    /// The hint's figures, when bucket `b` of `state`'s run never drains.
    pub(crate) fn of(state: &Playground, b: &BucketView) -> Option<Drain> {
        if b.owner != BucketOwner::Controller || b.tokens < b.burst as f64 - 1.0 {
            return None;
        }
        let sim = state.sim();
        let failing = sim.controller_metrics().total(ResultLabel::Error) > 0;
        let spec = &sim.spec().controller;
        // A reconcile cut by its timeout ends at the deadline.
        let reconcile_ns = spec
            .reconcile_timeout_ns
            .map_or(spec.reconcile_ns.get(), |t| {
                spec.reconcile_ns.get().min(t.get())
            });
        let most = failures_per_second(spec.workers.get(), reconcile_ns)?;
        if !failing || most >= b.qps {
            return None;
        }
        let mut settings = state.run.settings.clone();
        settings.set(Field::Reconcile, DRAIN_RECONCILE.into());
        settings.script = ScriptChoice::AlwaysError;
        Some(Drain {
            most,
            workers: spec.workers.get(),
            reconcile_ns,
            settings,
        })
    }
}

/// A full bucket while keys fail ([`Drain`]): says why it never drains, and
/// offers settings that drain it.
pub(crate) fn drain_hint(
    drain: Option<&Drain>,
    b: &BucketView,
    on_apply: &Callback<Settings>,
    on_input: &Callback<Input>,
) -> Html {
    let Some(Drain {
        most,
        workers,
        reconcile_ns,
        settings,
    }) = drain
    else {
        return html! {};
    };
    let drain = {
        let (on_apply, on_input) = (on_apply.clone(), on_input.clone());
        let settings = settings.clone();
        Callback::from(move |_| {
            on_apply.emit(settings.clone());
            on_input.emit(Input::AddMany {
                prefix: "default/pod-".into(),
                count: workqueue_core::KeyCount::lit(300),
            });
        })
    };
    html! {
        <p class="hint drain-hint" data-testid="drain-hint">
            { format!("Full: at most {} failures/s reach it ({} worker(s), {} per reconcile), fewer than the {}/s it refills. ", (most * 10.0).round() / 10.0, workers, format::short(*reconcile_ns), b.qps) }
            <button onclick={drain} data-testid="drain">{ format!("Drain it: 300 keys failing every {DRAIN_RECONCILE}") }</button>
        </p>
    }
}

/// Reconciles short enough that one worker's failures outrun a 10/s refill.
const DRAIN_RECONCILE: &str = "20ms";

/// The most reconciles per second `workers` can finish, each taking
/// `reconcile_ns`: `None` when reconciles take no time (no ceiling).
pub(crate) fn failures_per_second(workers: u32, reconcile_ns: Duration) -> Option<f64> {
    (reconcile_ns > Duration::ZERO).then(|| workers as f64 * 1e9 / reconcile_ns.as_nanos() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::parse_go_duration;

    /// The reviewer's case: one worker, 200 ms reconciles, 5 failures/s
    /// against a 10/s refill, so the bucket never drains; 20 ms does.
    #[test]
    fn failures_per_second_is_the_workers_ceiling() {
        assert_eq!(
            failures_per_second(1, Duration::from_nanos(200_000_000)),
            Some(5.0)
        );
        let fast = parse_go_duration(DRAIN_RECONCILE).unwrap();
        assert!(failures_per_second(1, fast).unwrap() > 10.0);
        assert_eq!(failures_per_second(4, Duration::ZERO), None, "no ceiling");
    }
}
