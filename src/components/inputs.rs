//! What happens to the controller from outside: adds, many keys at once, a
//! watch-event storm on one key, periodic resync. Every input passes the
//! core's validation gate here first; a refusal is shown under its form,
//! on the field it names, and nothing reaches the run.

use workqueue_core::{limits, parse_go_duration, validate, EventRate, Input, KeyCount, Span};
use yew::prelude::*;

use super::event_value;
use crate::settings::{Preset, ScriptChoice, Settings};
use crate::timeline::PAGE_MAX_KEYS;

/// A refusal: the id of the input at fault, and what to tell the user.
type FieldError = Option<(&'static str, String)>;

/// Each input's name as its label reads: a refusal names the field the user
/// sees, not the scenario file's name for it.
fn label(id: &str) -> &'static str {
    match id {
        "in-key" => "Key to add",
        "in-count" => "Distinct keys",
        "in-storm-key" => "Watch storm on",
        "in-rate" => "Events per second",
        "in-storm-for" => "Storm duration",
        _ => "Resync every",
    }
}

/// The form input that shows each field of an input's refusal.
fn input_id(input: &Input, field: &str) -> &'static str {
    match (input, field) {
        (Input::Add { .. }, _) => "in-key",
        (Input::AddMany { .. }, _) => "in-count",
        (Input::WatchEvents { .. }, "key") => "in-storm-key",
        (Input::WatchEvents { .. }, "per_second") => "in-rate",
        (Input::WatchEvents { .. }, _) => "in-storm-for",
        _ => "in-resync",
    }
}

#[derive(Properties, PartialEq)]
pub struct InputsProps {
    /// The run's settings (the workshop's quick choices apply over them).
    pub settings: Settings,
    /// Whether a periodic resync is running (the button stops it).
    pub resync_active: bool,
    /// An input into the run.
    pub on_input: Callback<Input>,
    /// New settings (the workshop's quick choices).
    pub on_apply: Callback<Settings>,
}

#[function_component(Inputs)]
pub fn inputs(props: &InputsProps) -> Html {
    let key = use_state(|| "default/web-1".to_string());
    let count = use_state(|| "100".to_string());
    let storm_key = use_state(|| "default/web-1".to_string());
    let rate = use_state(|| "50".to_string());
    let storm_for = use_state(|| "2s".to_string());
    let resync = use_state(|| "30s".to_string());
    let bind = super::keep_typed;
    let on_input = props.on_input.clone();
    let error = use_state(|| FieldError::None);
    let fail = {
        let error = error.clone();
        move |id: &'static str, text: String| error.set(Some((id, text)))
    };
    // The gate, then the run: a refused input never leaves the form.
    let submit = {
        let (on_input, error) = (on_input.clone(), error.clone());
        move |input: Input| match validate::input(&input) {
            Ok(()) => {
                error.set(None);
                on_input.emit(input);
                focus_the_stage();
            }
            Err(e) => error.set(Some((input_id(&input, &e.field), e.reason))),
        }
    };

    let add = {
        let (submit, key) = (submit.clone(), key.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            submit(Input::Add {
                key: key.trim().to_string(),
            });
        })
    };
    let add_many = {
        let (submit, count, fail) = (submit.clone(), count.clone(), fail.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match count.trim().parse::<u64>() {
                Ok(n) if n > PAGE_MAX_KEYS => fail(
                    "in-count",
                    format!("{n} keys is out of range: use 1 to {PAGE_MAX_KEYS} (the page's limit; wqsim runs up to {})", limits::MAX_ITEMS),
                ),
                Ok(n) => match KeyCount::new(n) {
                    Ok(count) => submit(Input::AddMany {
                        prefix: "default/pod-".into(),
                        count,
                    }),
                    Err(e) => fail("in-count", e.to_string()),
                },
                _ => fail(
                    "in-count",
                    format!(
                        "{:?} is not a whole number of keys: use 1 to {}",
                        *count,
                        PAGE_MAX_KEYS
                    ),
                ),
            }
        })
    };
    let storm = {
        let (submit, k, rate, dur, fail) = (
            submit.clone(),
            storm_key.clone(),
            rate.clone(),
            storm_for.clone(),
            fail.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let per_second = rate.trim().parse::<f64>();
            let duration = parse_go_duration(&dur)
                .map_err(|e| e.to_string())
                .and_then(|d| Span::new(d).map_err(|e| e.to_string()));
            match (per_second, duration) {
                (Ok(per_second), Ok(duration_ns)) => match EventRate::new(per_second) {
                    Ok(per_second) => submit(Input::WatchEvents {
                        key: k.trim().to_string(),
                        per_second,
                        duration_ns,
                    }),
                    Err(e) => fail("in-rate", e.to_string()),
                },
                (Err(_), _) => fail(
                    "in-rate",
                    format!(
                        "{:?} is not a number of events per second: use {} to {}",
                        *rate,
                        limits::MIN_EVENTS_PER_SECOND,
                        limits::MAX_EVENTS_PER_SECOND
                    ),
                ),
                (_, Err(e)) => fail("in-storm-for", e),
            }
        })
    };
    let resync_active = props.resync_active;
    let toggle_resync = {
        let (submit, period, fail) = (submit.clone(), resync.clone(), fail.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if resync_active {
                submit(Input::Resync { period_ns: None });
            } else {
                let period = parse_go_duration(&period)
                    .map_err(|e| e.to_string())
                    .and_then(|p| Span::new(p).map_err(|e| e.to_string()));
                match period {
                    Ok(p) => submit(Input::Resync { period_ns: Some(p) }),
                    Err(e) => fail("in-resync", e),
                }
            }
        })
    };
    let invalid = |id: &str| {
        error
            .as_ref()
            .is_some_and(|(at, _)| *at == id)
            .then_some("true")
    };
    let message = |ids: &[&str]| match error.as_ref() {
        Some((at, text)) if ids.contains(at) => html! {
            <p class="field-error" role="alert" id={format!("{at}-error")} data-testid="field-error">{ label(at) }{ ": " }{ text.clone() }</p>
        },
        _ => html! {},
    };
    html! {
        <section class="panel inputs" aria-label="Inputs">
            <h2>{"Events"}</h2>
            <form class="row" onsubmit={add}>
                <label for="in-key" class="sr-only">{"Key to add"}</label>
                <input id="in-key" data-testid="key" type="text" value={(*key).clone()} oninput={bind(&key)} spellcheck="false" aria-invalid={invalid("in-key")} />
                <button type="submit" class="primary" data-testid="add">{"queue.Add"}</button>
            </form>
            { message(&["in-key"]) }
            <form class="row" onsubmit={add_many}>
                <label for="in-count">{"Add"}</label>
                <input id="in-count" data-testid="count" class="num" type="text" inputmode="numeric" value={(*count).clone()} oninput={bind(&count)} aria-invalid={invalid("in-count")} />
                <button type="submit" data-testid="add-many">{"distinct keys"}</button>
            </form>
            { message(&["in-count"]) }
            <form class="row wrap" onsubmit={storm}>
                <label for="in-storm-key">{"Watch storm on"}</label>
                <input id="in-storm-key" type="text" value={(*storm_key).clone()} oninput={bind(&storm_key)} spellcheck="false" aria-invalid={invalid("in-storm-key")} />
                <label for="in-rate" class="sr-only">{"events per second"}</label>
                <input id="in-rate" data-testid="rate" class="num" type="text" value={(*rate).clone()} oninput={bind(&rate)} aria-invalid={invalid("in-rate")} />
                <span class="unit">{"/s for"}</span>
                <label for="in-storm-for" class="sr-only">{"storm duration"}</label>
                <input id="in-storm-for" class="num" type="text" value={(*storm_for).clone()} oninput={bind(&storm_for)} aria-invalid={invalid("in-storm-for")} />
                <button type="submit" data-testid="storm">{"Fire"}</button>
            </form>
            { message(&["in-storm-key", "in-rate", "in-storm-for"]) }
            <form class="row" onsubmit={toggle_resync}>
                <label for="in-resync">{"Resync every"}</label>
                <input id="in-resync" class="num" type="text" value={(*resync).clone()} oninput={bind(&resync)} disabled={resync_active} aria-invalid={invalid("in-resync")} />
                <button type="submit">{ if resync_active { "Stop resync" } else { "Start resync" } }</button>
            </form>
            { message(&["in-resync"]) }
            { demo_choices(&props.settings, &props.on_apply) }
        </section>
    }
}

/// In workshop mode, where the settings tab is hidden: the limiter and what
/// each reconcile returns, applied as soon as they are picked, so a live
/// demo needs nothing off screen.
fn demo_choices(settings: &Settings, on_apply: &Callback<Settings>) -> Html {
    let pick = |apply: fn(&mut Settings, &str) -> bool| {
        let (on_apply, settings) = (on_apply.clone(), settings.clone());
        Callback::from(move |e: Event| {
            let mut next = settings.clone();
            if apply(&mut next, &event_value(&e)) {
                on_apply.emit(next);
            }
        })
    };
    let on_preset = pick(|s, id| Preset::from_id(id).map(|p| s.preset = p).is_some());
    let on_script = pick(|s, id| ScriptChoice::from_id(id).map(|c| s.script = c).is_some());
    let (preset, script) = (settings.preset, settings.script);
    html! {
        <div class="row wrap demo-choices">
            <label for="w-preset">{"Limiter"}</label>
            <select id="w-preset" data-testid="demo-preset" onchange={on_preset}>
                { for Preset::ALL.iter().map(|p| html! { <option value={p.id()} selected={*p == preset}>{ settings.preset_label(*p) }</option> }) }
            </select>
            <label for="w-script">{"Each reconcile"}</label>
            <select id="w-script" data-testid="demo-script" onchange={on_script}>
                { for settings.script_choices().into_iter().map(|(c, label)| html! { <option value={c.id()} selected={c == script}>{ label }</option> }) }
            </select>
        </div>
    }
}

/// After an input, the keyboard goes to the stage, where the next decision
/// comes up (the digits 1 to 6 answer it), not back into the form's field.
fn focus_the_stage() {
    use wasm_bindgen::JsCast;
    let stage = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-stage]").ok().flatten())
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(stage) = stage {
        crate::hooks::focus_quietly(&stage);
    }
}
