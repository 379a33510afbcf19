//! "Bring your controller": a controller's Go set-up, pasted or picked as
//! files, read into a scenario by the lesson worker (`workqueue-go`, off
//! the page's thread), then opened as a run. What the reader took and what
//! it did not understand are listed with their file and line.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::toolbar::Modal;
use super::use_playground;
use crate::share::Shared;
use crate::state::{Action, GoImport};
use workqueue_core::Scenario;

/// The most Go the page sends to be read (`wqsim import` reads more).
const MAX_PAGE_BYTES: usize = 512 * 1024;

#[derive(Properties, PartialEq)]
pub struct ImportDialogProps {
    pub onclose: Callback<MouseEvent>,
}

#[function_component(ImportDialog)]
pub fn import_dialog(props: &ImportDialogProps) -> Html {
    let state = use_playground();
    let pasted = use_state(String::new);
    let picked = use_state(Vec::<(String, String)>::new);
    let too_big = use_state(|| None::<String>);
    // What Go does not say: the author's own figures, applied on Run it.
    let objects = use_state(|| "100".to_string());
    let reconcile_ms = use_state(|| "50".to_string());
    let outage_min = use_state(|| "0".to_string());
    let on_paste = {
        let pasted = pasted.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
            {
                pasted.set(t.value());
            }
        })
    };
    let on_pick = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            let Some(list) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            let picked = picked.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut read = Vec::new();
                for f in files {
                    if f.size() > MAX_PAGE_BYTES as f64 {
                        continue;
                    }
                    let text = wasm_bindgen_futures::JsFuture::from(f.text())
                        .await
                        .ok()
                        .and_then(|v| v.as_string())
                        .unwrap_or_default();
                    read.push((f.name(), text));
                }
                picked.set(read);
            });
        })
    };
    let files = {
        let mut files = (*picked).clone();
        if !pasted.trim().is_empty() {
            files.push(("pasted.go".to_string(), (*pasted).clone()));
        }
        files
    };
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let on_read = {
        let (d, files, too_big) = (state.dispatcher(), files.clone(), too_big.clone());
        Callback::from(move |_: MouseEvent| {
            if bytes > MAX_PAGE_BYTES {
                too_big.set(Some(format!(
                    "{} KB of Go: the page reads at most {} KB; run `wqsim import` on the files instead.",
                    bytes.div_ceil(1024),
                    MAX_PAGE_BYTES / 1024
                )));
                return;
            }
            too_big.set(None);
            d.dispatch(Action::GoImport(GoImport::Reading));
            crate::lesson_worker::import_go(files.clone());
        })
    };
    let result = match (&*too_big, &state.go_import) {
        (Some(why), _) => {
            html! { <p class="field-error" role="alert" data-testid="import-error">{ why.clone() }</p> }
        }
        (None, Some(GoImport::Reading)) => {
            html! { <p class="hint" role="status">{"Reading the Go…"}</p> }
        }
        (None, Some(GoImport::Refused(why))) => {
            html! { <p class="field-error" role="alert" data-testid="import-error">{ why.clone() }</p> }
        }
        (
            None,
            Some(GoImport::Read {
                scenario,
                taken,
                unread,
            }),
        ) => {
            let assumed = assume(scenario, &objects, &reconcile_ms, &outage_min);
            let open = {
                let (d, assumed, onclose) =
                    (state.dispatcher(), assumed.clone(), props.onclose.clone());
                Callback::from(move |e: MouseEvent| {
                    let Ok(scenario) = assumed.clone() else {
                        return;
                    };
                    d.dispatch(Action::Load(Box::new(Shared {
                        scenario,
                        inputs: Vec::new(),
                        at: 0,
                        lesson: None,
                        selected: None,
                    })));
                    d.dispatch(Action::TogglePlay);
                    onclose.emit(e);
                })
            };
            let names: Vec<String> = scenario
                .controllers
                .iter()
                .map(|c| match c.controller.workers {
                    1 => format!("{} (1 worker)", c.name),
                    n => format!("{} ({n} workers)", c.name),
                })
                .collect();
            html! {
                <div class="import-result" data-testid="import-result">
                    <p><strong>{ format!("{} controller{}: ", names.len(), if names.len() == 1 { "" } else { "s" }) }</strong>{ names.join(", ") }</p>
                    <h3>{"Taken from your code"}</h3>
                    <ul class="found" data-testid="import-taken">{ for taken.iter().map(|t| html! { <li class="mono">{ t.clone() }</li> }) }</ul>
                    <h3>{"Not in your code, or not understood"}</h3>
                    <ul class="found" data-testid="import-unread">{ for unread.iter().map(|t| html! { <li class="mono">{ t.clone() }</li> }) }</ul>
                    <h3>{"What your code does not say"}</h3>
                    <div class="grid3">
                        { number_field("import-objects", "Objects per controller", &objects) }
                        { number_field("import-reconcile", "Each reconcile takes (ms)", &reconcile_ms) }
                        { number_field("import-outage", "An outage for the first (minutes; 0: none)", &outage_min) }
                    </div>
                    { match &assumed { Err(why) => html! { <p class="field-error" role="alert" data-testid="import-assume-error">{ why.clone() }</p> }, Ok(_) => html! {} } }
                    <button class="primary" onclick={open} disabled={assumed.is_err()} data-testid="import-open">{"Run it"}</button>
                </div>
            }
        }
        (None, None) => html! {},
    };
    html! {
        <Modal title="Bring your controller" onclose={props.onclose.clone()}>
            <p>{"Paste your controller's set-up (main.go, a SetupWithManager, a provider's Setup; several files one after the other) or pick its .go files and go.mod (it says which controller-runtime). The playground reads controller-runtime's builder and options, client-go's rate limiters and queues, crossplane-runtime's rate limiting, rest.Config's QPS and Burst, and flags with their defaults. Nothing leaves this page."}</p>
            <label for="import-go">{"Go code"}</label>
            <textarea id="import-go" class="wide mono code-input" rows="10" spellcheck="false" oninput={on_paste} value={(*pasted).clone()}
                placeholder="func main() { … ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).WithOptions(controller.Options{…}) … }" data-testid="import-go" />
            <p>
                <label class="button">{"Pick .go files…"}
                    <input type="file" accept=".go,.mod,text/x-go,text/plain" multiple=true onchange={on_pick} class="sr-only" data-testid="import-files" />
                </label>
                { if picked.is_empty() { html! {} } else { html! { <span class="hint">{ format!(" {} file(s): {}", picked.len(), picked.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")) }</span> } } }
            </p>
            <button class="primary" onclick={on_read} disabled={files.is_empty()} data-testid="import-read">{"Read it"}</button>
            { result }
        </Modal>
    }
}

/// A number field bound to `value`.
fn number_field(id: &'static str, label: &'static str, value: &UseStateHandle<String>) -> Html {
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                value.set(t.value());
            }
        })
    };
    html! {
        <div class="field">
            <label for={id}>{ label }</label>
            <input id={id} type="text" inputmode="numeric" value={(**value).clone()} {oninput} data-testid={id} />
        </div>
    }
}

/// The imported scenario with the author's figures: objects per
/// controller, reconcile time, an outage at the start; checked by the
/// core's gate, refused by the field's label.
fn assume(
    s: &Scenario,
    objects: &str,
    reconcile_ms: &str,
    outage_min: &str,
) -> Result<Scenario, String> {
    let number = |label: &str, text: &str| {
        text.trim()
            .parse::<u64>()
            .map_err(|_| format!("{label}: {text:?} is not a whole number"))
    };
    let objects = number("Objects per controller", objects)?;
    let reconcile = number("Each reconcile takes (ms)", reconcile_ms)?;
    let outage = number("An outage for the first (minutes)", outage_min)?;
    let mut s = s.clone();
    let minutes = |m: u64| (m.min(1_000_000) as i64).saturating_mul(60 * workqueue_core::SECOND);
    for c in &mut s.controllers {
        for src in &mut c.sources {
            if let workqueue_core::scenario::Source::AddMany { count, .. } = src {
                *count = objects;
            }
        }
        c.controller.reconcile_ns =
            (reconcile.min(1 << 40) as i64).saturating_mul(workqueue_core::MILLISECOND);
        if outage > 0 {
            c.default_script = workqueue_core::Script::Outage {
                from_ns: 0,
                until_ns: minutes(outage),
                otherwise: workqueue_core::Outcome::Success,
            };
        }
    }
    if outage > 0 {
        // Long enough to see the end of it.
        s.duration_ns = s.duration_ns.max(minutes(outage + 10));
    }
    let keys = s.key_count();
    if keys > crate::timeline::PAGE_MAX_KEYS {
        return Err(format!(
            "Objects per controller: {keys} keys in all is too many for the page: at most {}",
            crate::timeline::PAGE_MAX_KEYS
        ));
    }
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}
