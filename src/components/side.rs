//! The side panel beside the stage: one click to the selected key's
//! explanation, the settings, the charts, the metrics or the log. Only one
//! shows at a time, so none is ever bigger than the stage.

use yew::prelude::*;

use super::charts::Charts;
use super::inspector::{Inspector, InspectorProps};
use super::log::EventLog;
use super::metrics::Metrics;
use super::provider_panel::ProviderPanel;
use super::settings_panel::SettingsPanel;
use crate::provider::Provider;
use crate::settings::Settings;
use crate::state::Playground;
use crate::store::controls::Controls;
use crate::store::RunRef;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Key,
    Settings,
    Charts,
    Metrics,
    Log,
}

impl Tab {
    pub const ALL: [Tab; 5] = [Tab::Key, Tab::Settings, Tab::Charts, Tab::Metrics, Tab::Log];

    pub fn label(self) -> &'static str {
        match self {
            Tab::Key => "This key",
            Tab::Settings => "Settings",
            Tab::Charts => "Charts",
            Tab::Metrics => "Metrics",
            Tab::Log => "Log",
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Tab::Key => "key",
            Tab::Settings => "settings",
            Tab::Charts => "charts",
            Tab::Metrics => "metrics",
            Tab::Log => "log",
        }
    }
}

/// What the side panel's tabs show.
#[derive(Properties, PartialEq)]
pub struct SideProps {
    pub inspector: InspectorProps,
    pub settings: Settings,
    pub provider: Provider,
    /// The stage runs a manager the provider form cannot show.
    pub other_manager: bool,
    pub workshop: bool,
    pub playing: bool,
    /// A manager's run: its totals name the controller they are of.
    pub manager: bool,
    /// The run, read by the charts, the totals and the log while they show.
    pub run: RunRef,
    /// What the side's panels change.
    pub controls: Controls,
}

impl SideProps {
    pub fn of(state: &Playground, run: RunRef, controls: Controls) -> SideProps {
        SideProps {
            inspector: InspectorProps::of(state, &controls),
            settings: state.run.settings.clone(),
            provider: state.run.provider.clone(),
            other_manager: state.is_manager()
                && Provider::from_scenario(state.run.timeline.scenario()).is_none(),
            workshop: state.workshop.mode.workshop,
            playing: state.run.playback.playing,
            manager: state.is_manager(),
            run,
            controls,
        }
    }
}

#[function_component(Side)]
pub fn side(props: &SideProps) -> Html {
    let tab = use_state(|| Tab::Settings);
    {
        // Workshop mode hides the settings: show the key's explanation instead.
        let tab = tab.clone();
        use_effect_with(props.workshop, move |workshop| {
            if *workshop {
                tab.set(Tab::Key);
            }
        });
    }
    {
        // Selecting a key (on the stage or by adding it) opens its explanation.
        let tab = tab.clone();
        use_effect_with(props.inspector.selected.clone(), move |selected| {
            if selected.is_some() {
                tab.set(Tab::Key);
            }
        });
    }
    let buttons = Tab::ALL.iter().map(|t| {
        let on = *tab == *t;
        let onclick = {
            let (tab, t) = (tab.clone(), *t);
            Callback::from(move |_| tab.set(t))
        };
        html! {
            <button role="tab" id={format!("tab-{}", t.id())} aria-selected={on.to_string()} aria-controls={format!("panel-{}", t.id())}
                class={classes!("tab", on.then_some("on"))} data-testid={format!("tab-{}", t.id())} {onclick}>{ t.label() }</button>
        }
    });
    // Panels keep their state while hidden (an unapplied setting is never
    // lost); the charts mount only when shown, so their canvases measure
    // the space they really have.
    let panel = |t: Tab, body: Html| {
        html! {
            <div role="tabpanel" id={format!("panel-{}", t.id())} aria-labelledby={format!("tab-{}", t.id())} hidden={*tab != t} class="tab-panel">{ body }</div>
        }
    };
    html! {
        <aside class="side" aria-label="Details">
            <div role="tablist" class="tabs" aria-label="Details">{ for buttons }</div>
            { panel(Tab::Key, html! { <Inspector ..props.inspector.clone() /> }) }
            { panel(Tab::Settings, html! { <>
                <SettingsPanel settings={props.settings.clone()} on_apply={props.controls.apply.clone()} />
                <ProviderPanel provider={props.provider.clone()} queue={props.settings.queue} other_manager={props.other_manager} on_run={props.controls.run_manager.clone()} />
            </> }) }
            { panel(Tab::Charts, if *tab == Tab::Charts { html! {
                <Charts run={props.run.clone()} selected={props.inspector.selected.clone()} playing={props.playing} />
            } } else { html! {} }) }
            { panel(Tab::Metrics, if *tab == Tab::Metrics { metrics(&props.run, props.manager) } else { html! {} }) }
            { panel(Tab::Log, html! { <EventLog run={props.run.clone()} playing={props.playing} /> }) }
        </aside>
    }
}

/// The run's totals and its metrics (in a manager, its first controller's).
fn metrics(run: &RunRef, manager: bool) -> Html {
    let (summary, first) = run.engine(|e| {
        let first = e.controllers().next().map(|(n, _)| n.to_string());
        (workqueue_core::Summary::of(e), first)
    });
    let snapshot = run.sim(|s| s.metrics_snapshot());
    html! { <>
        <super::summary::RunSummary {summary} />
        <Metrics {snapshot} controller={manager.then(|| AttrValue::from(first.unwrap_or_default()))} />
    </> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::fixtures::reduce;
    use crate::state::Action;
    use crate::state::RunAction;
    use crate::store::PlaygroundContext;

    fn other_manager(state: Playground) -> bool {
        let context = PlaygroundContext::new(state);
        let state = context.read();
        SideProps::of(&state, context.run(), context.controls()).other_manager
    }

    /// The provider form says so when the manager on the stage is one it
    /// cannot show (a file's, a link's or a controller's Go); a manager it
    /// made, it shows as its own.
    #[test]
    fn the_form_says_when_the_stage_runs_a_manager_it_cannot_show() {
        assert!(!other_manager(Playground::default()), "one controller");
        let made = reduce(
            Playground::default(),
            Action::Run(RunAction::RunManager(Provider::default())),
        );
        assert!(made.is_manager());
        assert!(!other_manager(made), "the form's own manager");
        // The same manager, but its first controller runs a script the
        // form has no words for.
        let mut scenario = Provider::default().to_scenario().unwrap();
        scenario.controllers[0].default_script = workqueue_core::Script::Live;
        let loaded = reduce(
            Playground::default(),
            Action::Run(RunAction::Load(Box::new(crate::share::Shared {
                run: workqueue_core::Run {
                    scenario,
                    inputs: Vec::new(),
                    run_to: workqueue_core::Instant::T0,
                },
                lesson: None,
                selected: None,
            }))),
        );
        assert!(loaded.is_manager());
        assert!(other_manager(loaded), "a manager from a file");
    }
}
