//! The side panel beside the stage: one click to the selected key's
//! explanation, the settings, the charts, the metrics or the log. Only one
//! shows at a time, so none is ever bigger than the stage.

use yew::prelude::*;

use super::charts::Charts;
use super::inspector::{Inspector, InspectorProps};
use super::log::EventLog;
use super::metrics::Metrics;
use super::settings_panel::SettingsPanel;
use super::use_playground;

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

#[function_component(Side)]
pub fn side() -> Html {
    let context = use_playground();
    let state = context.read();
    let tab = use_state(|| Tab::Settings);
    {
        // Workshop mode hides the settings: show the key's explanation instead.
        let tab = tab.clone();
        use_effect_with(state.mode.workshop, move |workshop| {
            if *workshop {
                tab.set(Tab::Key);
            }
        });
    }
    {
        // Selecting a key (on the stage or by adding it) opens its explanation.
        let tab = tab.clone();
        use_effect_with(state.selected.clone(), move |selected| {
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
            { panel(Tab::Key, html! { <Inspector ..InspectorProps::of(&state, context.dispatcher()) /> }) }
            { panel(Tab::Settings, html! { <><SettingsPanel settings={state.settings.clone()} dispatch={context.dispatcher()} /><super::provider_panel::ProviderPanel provider={state.provider.clone()} queue={state.settings.queue} dispatch={context.dispatcher()} /></> }) }
            { panel(Tab::Charts, if *tab == Tab::Charts { html! { <Charts /> } } else { html! {} }) }
            { panel(Tab::Metrics, if *tab == Tab::Metrics { html! { <>
                <super::summary::RunSummary summary={workqueue_core::Summary::of(state.engine())} />
                <Metrics snapshot={state.sim().metrics_snapshot()}
                    controller={state.is_manager().then(|| AttrValue::from(state.engine().controllers().next().map(|(n, _)| n.to_string()).unwrap_or_default()))} />
            </> } } else { html! {} }) }
            { panel(Tab::Log, html! { <EventLog /> }) }
        </aside>
    }
}
