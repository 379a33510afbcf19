//! The version switch on the stage: which controller-runtime (and so which
//! queue, and which default limiter) the run shows, and after a switch the
//! run left behind beside this one.

use workqueue_core::QueueKind;
use yew::prelude::*;

use crate::format;
use crate::headline::{Headline, SideBySide};
use crate::state::Playground;

/// What the version switch shows: the queue the run is on, and the run a
/// switch left behind.
#[derive(Properties, PartialEq, Clone)]
pub struct QueueSwitchProps {
    pub queue: QueueKind,
    /// The run left by the last version switch, while it was on the other
    /// queue.
    pub compare: Option<SideBySide>,
    /// Switch the run to the other queue.
    pub on_switch: Callback<QueueKind>,
}

impl QueueSwitchProps {
    pub fn of(state: &Playground, on_switch: Callback<QueueKind>) -> QueueSwitchProps {
        QueueSwitchProps {
            queue: state.run.settings.queue,
            compare: state
                .run
                .other_run
                .clone()
                .filter(|o| o.before.queue != state.run.settings.queue),
            on_switch,
        }
    }
}

/// Which controller-runtime the stage runs: the queue, and with it the
/// default limiter. Always on the stage, so the picture says what it shows.
#[function_component(QueueSwitch)]
pub fn queue_switch(props: &QueueSwitchProps) -> Html {
    let current = props.queue;
    let option = |kind: QueueKind,
                  label: &'static str,
                  detail: &'static str,
                  more: &'static str| {
        let on = current == kind;
        let onclick = {
            let on_switch = props.on_switch.clone();
            Callback::from(move |_| {
                if current != kind {
                    on_switch.emit(kind);
                }
            })
        };
        html! {
            <button role="radio" aria-checked={on.to_string()} class={classes!("version", on.then_some("on"))} {onclick} title={format!("controller-runtime {label}: {detail}{more}")}
                data-testid={format!("queue-{}", if kind == QueueKind::Priority { "priority" } else { "client-go" })}>
                <strong>{ label }</strong><small>{ detail }</small>
            </button>
        }
    };
    html! {
        <div class="queue-switch" role="radiogroup" aria-label="controller-runtime version">
            <span class="switch-label">{"controller-runtime"}</span>
            // (One short line each on the stage; the versions that run them,
            // Crossplane's included, in the title.)
            { option(QueueKind::ClientGo, "v0.22 and earlier", "client-go queue", " (Crossplane core v2.1 still ran it)") }
            { option(QueueKind::Priority, "v0.23 and later", "priority queue, today's default", " (v0.24 unchanged; Crossplane core from v2.2, and providers on crossplane-runtime today)") }
            { side_by_side(current, props.compare.as_ref()) }
        </div>
    }
}

/// After a version switch: the run left behind and this one, in figures
/// taken at the same instant (the switch's), so they can be compared.
fn side_by_side(queue: QueueKind, pair: Option<&SideBySide>) -> Html {
    let Some(pair) = pair else {
        return html! {};
    };
    let version = |q: QueueKind| {
        if q == QueueKind::Priority {
            "v0.23"
        } else {
            "v0.22"
        }
    };
    let line = |h: &Headline| {
        format!(
            "{}: {} reconciles, {} errors, {} requeues",
            version(h.queue),
            format::count(h.reconciles),
            format::count(h.errors),
            format::count(h.requeues)
        )
    };
    let after = match &pair.after {
        Some(h) => line(h),
        None => format!("{}: replaying…", version(queue)),
    };
    html! {
        <p class="side-by-side" data-testid="version-compare">
            <span class="at">{ format!("Both at {}", format::clock(pair.before.at)) }</span>
            <span>{ line(&pair.before) }</span>
            <span>{ after }</span>
        </p>
    }
}
