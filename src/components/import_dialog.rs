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
            let open = {
                let (d, scenario, onclose) =
                    (state.dispatcher(), scenario.clone(), props.onclose.clone());
                Callback::from(move |e: MouseEvent| {
                    d.dispatch(Action::Load(Box::new(Shared {
                        scenario: (*scenario).clone(),
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
                    <button class="primary" onclick={open} data-testid="import-open">{"Run it"}</button>
                </div>
            }
        }
        (None, None) => html! {},
    };
    html! {
        <Modal title="Bring your controller" onclose={props.onclose.clone()}>
            <p>{"Paste your controller's set-up (main.go, SetupWithManager, a provider's Setup) or pick its .go files. The playground reads controller-runtime's builder and options, client-go's rate limiters and queues, crossplane-runtime's rate limiting, rest.Config's QPS and Burst, and flags with their defaults. Nothing leaves this page."}</p>
            <label for="import-go">{"Go code"}</label>
            <textarea id="import-go" class="wide mono code-input" rows="10" spellcheck="false" oninput={on_paste} value={(*pasted).clone()}
                placeholder="func main() { … ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).WithOptions(controller.Options{…}) … }" data-testid="import-go" />
            <p>
                <label class="button">{"Pick .go files…"}
                    <input type="file" accept=".go,text/x-go,text/plain" multiple=true onchange={on_pick} class="sr-only" data-testid="import-files" />
                </label>
                { if picked.is_empty() { html! {} } else { html! { <span class="hint">{ format!(" {} file(s): {}", picked.len(), picked.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")) }</span> } } }
            </p>
            <button class="primary" onclick={on_read} disabled={files.is_empty()} data-testid="import-read">{"Read it"}</button>
            { result }
        </Modal>
    }
}
