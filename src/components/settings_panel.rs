//! The configuration, always visible: limiter preset and its parameters with
//! units, workers, reconcile duration and how reconciles turn out. Values are
//! checked as they are typed; only a valid form can be applied.

use yew::prelude::*;

use super::event_value;
use crate::settings::{crossplane, Field, Preset, ScriptChoice, Settings};

#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The run's settings: what Apply would leave unchanged.
    pub settings: Settings,
    /// Run these settings.
    pub on_apply: Callback<Settings>,
}

#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsProps) -> Html {
    let form = use_state(|| props.settings.clone());
    // The run's settings the form was last set from.
    let shown = use_mut_ref(|| props.settings.clone());
    {
        // A new run (a version switch, a restart, a link, a lesson) sets the
        // form to it, keeping edits not applied yet that it does not touch.
        let (form, shown) = (form.clone(), shown.clone());
        use_effect_with(props.settings.clone(), move |s| {
            let before = shown.replace(s.clone());
            form.set(form.rebased(&before, s));
        });
    }
    let errors = form.to_scenario().err().unwrap_or_default();
    let error_of = |f: Field| errors.iter().find(|(e, _)| *e == f).map(|(_, m)| m.clone());
    let dirty = *form != props.settings;

    let field = |f: Field| {
        let handle = form.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut next: Settings = (*handle).clone();
            next.set(f, event_value(&e));
            handle.set(next);
        });
        let err = error_of(f);
        let id = format!("f-{}", f.id());
        let hint_id = format!("{id}-hint");
        html! {
            <div class={classes!("field", err.is_some().then_some("invalid"))}>
                <label for={id.clone()}>{ f.label() }</label>
                <input id={id.clone()} type="text" value={form.get(f).to_string()} {oninput}
                    aria-invalid={err.is_some().to_string()} aria-describedby={hint_id.clone()} spellcheck="false" />
                <small id={hint_id} class={if err.is_some() { "error" } else { "unit" }}>
                    { err.unwrap_or_else(|| form.unit_of(f).to_string()) }
                </small>
            </div>
        }
    };

    // A select's change, put on the form by `set`; a value it does not
    // know changes nothing.
    let on_select = |set: fn(&mut Settings, &str) -> bool| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut next: Settings = (*form).clone();
            if set(&mut next, &event_value(&e)) {
                form.set(next);
            }
        })
    };
    let on_preset = on_select(|s, id| Preset::from_id(id).map(|p| s.preset = p).is_some());
    let on_profile = on_select(|s, id| {
        crossplane::PROFILES
            .into_iter()
            .find(|p| p.name() == id)
            .map(|p| s.profile = p)
            .is_some()
    });
    let on_script = on_select(|s, id| ScriptChoice::from_id(id).map(|c| s.script = c).is_some());
    let apply = {
        let form = form.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            on_apply.emit((*form).clone());
        })
    };
    let preset = form.preset;
    html! {
        <form class="panel settings" onsubmit={apply} aria-label="Configuration">
            <h2>{"Rate limiter"}</h2>
            <div class="field">
                <label for="f-preset">{"Preset"}</label>
                <select id="f-preset" data-testid="preset" onchange={on_preset}>
                    { for Preset::ALL.iter().map(|p| html! {
                        <option value={p.id()} selected={*p == preset}>{ form.preset_label(*p) }</option>
                    }) }
                </select>
            </div>
            <p class="blurb">{ preset.blurb() }</p>
            { if preset == Preset::Crossplane { html! {
                <>
                <div class="field">
                    <label for="f-profile">{"Which Crossplane"}</label>
                    <select id="f-profile" data-testid="profile" onchange={on_profile}>
                        { for crossplane::PROFILES.iter().map(|p| html! {
                            <option value={p.name()} selected={*p == form.profile}>{ crossplane::profile_label(*p) }</option>
                        }) }
                    </select>
                </div>
                <p class="blurb">{ crossplane::profile_blurb(form.profile) }</p>
                </>
            } } else { html! {} } }
            <div class="grid2">
                { for (if preset == Preset::Crossplane { form.crossplane_fields() } else { preset.fields() }).iter().map(|f| field(*f)) }
            </div>
            <h2>{"Controller"}</h2>
            <div class="grid2">
                { if preset == Preset::Crossplane { html!{} } else { field(Field::Workers) } }
                { field(Field::Reconcile) }
            </div>
            <div class="grid2">
                { field(Field::GiveUp) }
                { field(Field::Timeout) }
            </div>
            <div class="field">
                <label for="f-script">{"Each reconcile"}</label>
                <select id="f-script" data-testid="script" onchange={on_script}>
                    { for form.script_choices().into_iter().map(|(c, label)| html! {
                        <option value={c.id()} selected={c == form.script}>{ label }</option>
                    }) }
                </select>
            </div>
            { match form.script {
                ScriptChoice::FailThenSucceed => field(Field::FailN),
                ScriptChoice::Random => html! { <div class="grid2">{ field(Field::Probability) }{ field(Field::Seed) }</div> },
                _ => html! {},
            } }
            <div class="apply-row">
                <button type="submit" class="primary" data-testid="apply" disabled={!errors.is_empty() || !dirty}>
                    { if dirty { "Apply" } else { "Applied" } }
                </button>
                { if !errors.is_empty() { html! { <span class="error" role="alert">{ format!("To fix: {}", errors.iter().map(|(f, _)| f.label()).collect::<Vec<_>>().join(", ")) }</span> } } else { html! {} } }
            </div>
        </form>
    }
}
