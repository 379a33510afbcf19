//! Lessons, the comparison, sharing, embedding, export and workshop mode.

use yew::prelude::*;

use super::copy_button::CopyButton;
use super::modal::Modal;

use crate::store::controls::MenuCalls;

use super::download::download;
use super::event_value;
use crate::lesson_worker::LessonWorker;
use crate::lessons::{self, Library};
use crate::notice::{Notice, NoticeKind};
use crate::share::{self, Shared};
use crate::snippet;
use crate::state::GoImport;

#[derive(Clone, Copy, PartialEq)]
enum Dialog {
    None,
    Compare,
    Share,
    Embed,
    Go,
    Import,
}

/// The page's address without query or fragment.
fn base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split(['?', '#']).next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// What the toolbar offers, and the run it saves, shares and exports.
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// The lessons the menu lists.
    pub library: Library,
    /// The open lesson's place in the library.
    pub current: Option<usize>,
    pub workshop: bool,
    /// A controller's Go set-up, as far as it has been read.
    pub go_import: Option<GoImport>,
    /// The run as it is now, made only when asked (a click, a dialog
    /// opening): it copies the whole tape.
    pub run: Callback<(), Shared>,
    pub worker: Option<LessonWorker>,
    /// What the menu and its dialogs ask.
    pub calls: MenuCalls,
}

#[function_component(Toolbar)]
pub fn toolbar(props: &ToolbarProps) -> Html {
    let dialog = use_state(|| Dialog::None);
    let calls = &props.calls;
    // The run as it was when a dialog opened: the comparison replays it,
    // the link, the snippet and the Go code are made from it.
    let snapshot = use_state(|| None::<std::rc::Rc<Shared>>);
    let open = |which: Dialog| {
        let (dialog, snapshot, run) = (dialog.clone(), snapshot.clone(), props.run.clone());
        Callback::from(move |_| {
            // (Closing, or reading Go, needs no copy of the run.)
            if !matches!(which, Dialog::None | Dialog::Import) {
                snapshot.set(Some(std::rc::Rc::new(run.emit(()))));
            }
            dialog.set(which)
        })
    };
    let close = open(Dialog::None);

    let on_lesson = {
        let start = calls.start_lesson.clone();
        Callback::from(move |e: Event| {
            if let Ok(i) = event_value(&e).parse::<usize>() {
                // Focus leaves the select (the lesson panel takes it), so a
                // clicker's PageDown moves the step, not the lesson.
                if let Some(select) = super::target::<web_sys::HtmlElement>(&e) {
                    let _ = select.blur();
                }
                start.emit(i);
            }
        })
    };
    // Titles change only when lessons arrive: not rebuilt every frame.
    let titles = use_memo(props.library.clone(), |library| {
        library
            .entries()
            .iter()
            .map(|l| l.title.clone())
            .collect::<Vec<_>>()
    });
    let on_upload = read_file(calls.clone(), MAX_SCENARIO_BYTES, |calls, name, bytes| {
        let text = String::from_utf8_lossy(&bytes);
        match crate::share::from_file(&text) {
            Ok(shared) => calls.load.emit(shared),
            Err(e) => calls.notify.emit(Some(Notice {
                kind: NoticeKind::Error,
                text: format!(
                    "{name} is not a usable scenario or run: {}",
                    workqueue_core::document::explain(&text, &e)
                ),
            })),
        }
    });
    // A trainer's lesson: read by the same code as the built-in ones.
    // A trainer's lesson: the lesson worker reads it as it reads the built-in ones.
    let on_lesson_file = read_file(
        calls.clone(),
        workqueue_lessons::parse::MAX_FILE_BYTES as f64,
        |calls, file, bytes| match workqueue_lessons::parse::text_of(&bytes) {
            Ok(text) => calls.lesson_file.emit((file, text.to_string())),
            // Not UTF-8: refused where the first bad byte is.
            Err(e) => calls.refused.emit(crate::lessons::Refusal::new(
                &file,
                &String::from_utf8_lossy(&bytes),
                vec![e],
            )),
        },
    );
    // The run as a file: its scenario, what was done to it and the instant
    // (written when clicked: it serialises the whole tape).
    let save_run = {
        let run = props.run.clone();
        Callback::from(move |_| {
            let json = crate::share::to_file(&run.emit(()));
            download("workqueue-run.json", "application/json", &json)
        })
    };
    let workshop = calls.toggle_workshop.reform(|_: MouseEvent| ());
    // Two screens: this window becomes the presenter's (its address says
    // so, for a reload), and the projector's window opens.
    let present = {
        let on_present = calls.present.clone();
        Callback::from(move |_| {
            if let Some(w) = web_sys::window() {
                let location = w.location();
                let search = location.search().unwrap_or_default();
                let search = crate::open::with_workshop_param(&search, false);
                let joined = if search.is_empty() {
                    "?presenter=1".to_string()
                } else {
                    format!("{search}&presenter=1")
                };
                let url = format!(
                    "{}{joined}{}",
                    location.pathname().unwrap_or_default(),
                    location.hash().unwrap_or_default()
                );
                if let Ok(history) = w.history() {
                    let _ = history.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&url),
                    );
                }
            }
            on_present.emit(());
            super::presenter::open_audience_window();
        })
    };
    let current = props.current;

    html! {
        <>
            <nav class="toolbar" aria-label="Lessons, sharing and export">
                <label class="sr-only" for="lesson-pick">{"Open a lesson"}</label>
                <select id="lesson-pick" onchange={on_lesson} data-testid="lesson-pick">
                    <option value="" selected={current.is_none()} disabled=true>{"Lessons…"}</option>
                    { for titles.iter().enumerate().map(|(i, t)| html! { <option value={i.to_string()} selected={current == Some(i)}>{ t.clone() }</option> }) }
                </select>
                <button onclick={open(Dialog::Compare)} data-testid="compare-toggle">{"Compare limiters"}</button>
                <button onclick={open(Dialog::Share)} data-testid="share">{"Share"}</button>
                <button onclick={open(Dialog::Embed)} data-testid="embed">{"Embed"}</button>
                <button onclick={open(Dialog::Go)} data-testid="go-code">{"Go code"}</button>
                <button onclick={open(Dialog::Import)} data-testid="bring-controller" title="Paste your controller's Go set-up and watch it run">{"Bring your controller"}</button>
                <button onclick={save_run} data-testid="download" title="The scenario, everything done to it and the instant, as a file: Load reopens it, wqsim runs it, a lesson step takes it as its setup">{"Download run"}</button>
                <label class="button" data-testid="upload-label" title="A run or a scenario file (JSON)">{"Load run…"}
                    <input type="file" accept=".json,application/json" onchange={on_upload} class="sr-only" data-testid="upload" />
                </label>
                <label class="button" data-testid="lesson-upload-label">{"Load lesson…"}
                    <input type="file" accept=".md,text/markdown,text/plain" onchange={on_lesson_file} class="sr-only" data-testid="lesson-upload" />
                </label>
                <button onclick={workshop} aria-pressed={props.workshop.to_string()} data-testid="workshop">{"Workshop mode"}</button>
                { if props.workshop { html! {
                    <button onclick={present} data-testid="present" title="Two screens: the projector shows the stage and the narration, this window shows your notes">{"Presenter view"}</button>
                } } else { html! {} } }
            </nav>
            { match (*dialog, (*snapshot).clone()) {
                (Dialog::None, _) => html! {},
                (Dialog::Import, _) => html! {
                    <super::import_dialog::ImportDialog go_import={props.go_import.clone()} worker={props.worker.clone()} calls={calls.clone()} onclose={close.clone()} />
                },
                (_, None) => html! {},
                (Dialog::Compare, Some(run)) => html! {
                    <Modal title="The same storm under four limiters" onclose={close.clone()}>
                        <super::compare::Compare own={Some(super::compare::OwnRun(run))} />
                    </Modal>
                },
                (Dialog::Share, Some(run)) => {
                    // A link made in workshop mode opens in workshop mode.
                    let query = if props.workshop { "?workshop=1" } else { "" };
                    let link = format!("{}{query}#{}", base_url(), share::encode(&run));
                    html! {
                    <Modal title="Share this exact view" onclose={close.clone()}>
                        <p>{"The link holds the settings, everything you did, the instant and the lesson step. Nothing is stored anywhere else."}</p>
                        <input class="wide mono" readonly=true value={link.clone()} aria-label="Share link" data-testid="share-link" />
                        <CopyButton text={link.clone()} label="Copy link" />
                    </Modal>
                    }
                }
                (Dialog::Embed, Some(run)) => {
                    // The open lesson's steps, each one a blogger may embed.
                    let lesson = props.current.and_then(|i| props.library.get(i)).map(|l| {
                        let steps = l.steps.iter().map(|s| EmbedStep {
                            title: s.title.clone(),
                            asks: s.question.is_some(),
                        });
                        (l.title.clone(), steps.collect::<Vec<_>>())
                    });
                    html! { <EmbedDialog {run} {lesson} onclose={close.clone()} /> }
                }
                (Dialog::Go, Some(run)) => {
                    let code = workqueue_go::export::go(&run.run.scenario);
                    let title = workqueue_go::export::Language::of(&run.run.scenario).title();
                    html! {
                        <Modal {title} onclose={close.clone()}>
                            <pre class="code" data-testid="go-snippet">{ code.clone() }</pre>
                            <CopyButton text={code} label="Copy" />
                        </Modal>
                    }
                }
            } }
        </>
    }
}

/// A file input's change: the chosen file's name and text, to `read`.
/// The largest scenario file the page reads (a lesson file's limit is its
/// reader's, [`workqueue_lessons::parse::MAX_FILE_BYTES`]).
const MAX_SCENARIO_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// An upload, read once its size is known to be within `limit` bytes: its
/// bytes go to `read` with the file's name, or what is wrong to `refuse`.
fn read_file(
    calls: MenuCalls,
    limit: f64,
    read: fn(&MenuCalls, String, Vec<u8>),
) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let Some(input) = super::target::<web_sys::HtmlInputElement>(&e) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        // The size first: a file too large is never read.
        if file.size() > limit {
            calls.notify.emit(Notice::error(format!(
                "{} is {} KB: the playground reads files of at most {} KB.",
                file.name(),
                (file.size() / 1024.0).ceil(),
                (limit / 1024.0).floor()
            )));
            return;
        }
        let calls = calls.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                .await
                .map(|b| js_sys::Uint8Array::new(&b).to_vec())
                .unwrap_or_default();
            read(&calls, file.name(), bytes);
        });
    })
}

/// A lesson step as the Embed dialog offers it.
#[derive(Clone, PartialEq)]
pub struct EmbedStep {
    pub title: String,
    /// It asks the reader a prediction first, so it never plays on load.
    pub asks: bool,
}

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// The run the snippet opens.
    pub run: std::rc::Rc<Shared>,
    /// The open lesson's title and steps (none outside a lesson).
    pub lesson: Option<(String, Vec<EmbedStep>)>,
    pub onclose: Callback<MouseEvent>,
}

/// Builds the `<iframe>` snippet for a blog post, with a live preview.
#[function_component(EmbedDialog)]
pub fn embed_dialog(props: &EmbedProps) -> Html {
    let run = &props.run;
    let autoplay = use_state(|| false);
    // The frame's colours: the reader's system setting (auto), or fixed to
    // match the post.
    let theme = use_state(|| "auto".to_string());
    // Which step of a built-in lesson the frame opens (the current one
    // until another is chosen): any step, without playing through those
    // before it.
    let chosen = use_state(|| None::<usize>);
    let mut query = vec!["embed=1".to_string()];
    // A built-in lesson is named; any other view (a trainer's own lesson
    // included, with its text) travels in the fragment.
    let built_in = run.lesson.as_ref().filter(|l| lessons::is_built_in(&l.id));
    let step = built_in.map(|l| chosen.unwrap_or(l.step));
    if let (Some(l), Some(step)) = (built_in, step) {
        query.push(format!("lesson={}", l.id));
        query.push(format!("step={}", step + 1));
    }
    // A step that asks a prediction never plays on load: the dialog does
    // not offer it there, and the snippet does not say it.
    let asks = match (&props.lesson, step) {
        (Some((_, steps)), Some(at)) => steps.get(at).is_some_and(|s| s.asks),
        _ => false,
    };
    if *autoplay && !asks {
        query.push("autoplay=1".into());
    }
    if matches!(theme.as_str(), "light" | "dark") {
        query.push(format!("theme={}", *theme));
    }
    let fragment = if built_in.is_some() {
        String::new()
    } else {
        format!("#{}", share::encode(run))
    };
    let src = format!("{}?{}{}", base_url(), query.join("&"), fragment);
    // A guest in the host's page: the frame's height is set before it
    // loads and never changes (the playground fits itself to it), it loads
    // when scrolled near, and it takes no focus until the reader clicks in.
    let title = snippet::frame_title(match (&props.lesson, step) {
        (Some((lesson, steps)), Some(at)) => steps
            .get(at)
            .map(|s| (lesson.as_str(), at + 1, s.title.as_str())),
        _ => None,
    });
    let snippet = snippet::iframe(&src, &title);
    let toggle = {
        let a = autoplay.clone();
        Callback::from(move |_| a.set(!*a))
    };
    html! {
        <Modal title="Embed in a page" onclose={props.onclose.clone()}>
            <p>{ format!("Paste this into your post. The frame is {} px tall from the start, so nothing in the post moves while it loads; the playground fits itself to it and pages the narration. ", snippet::EMBED_HEIGHT) }
               { if run.lesson.is_some() { "It opens the current lesson step." } else { "It opens this exact setup." } }</p>
            { match (step, &props.lesson) {
                (Some(at), Some((_, steps))) if !steps.is_empty() => html! {
                    <p><label for="embed-step">{"Step "}</label>
                       <select id="embed-step" data-testid="embed-step" onchange={let c = chosen.clone(); Callback::from(move |e: Event| c.set(event_value(&e).parse().ok()))}>
                           { for steps.iter().enumerate().map(|(i, s)| html! {
                               <option value={i.to_string()} selected={i == at}>{ format!("{}. {}", i + 1, s.title) }</option>
                           }) }
                       </select></p>
                },
                _ => html! {},
            } }
            if asks {
                <p class="hint" data-testid="embed-no-autoplay">{"This step asks the reader a prediction first, so it does not play on load: the reader predicts, reveals the answer, then presses Play."}</p>
            } else {
                <label class="check"><input type="checkbox" data-testid="embed-autoplay" checked={*autoplay} onchange={toggle} />{" start playing on load"}</label>
            }
            <p><label for="embed-theme">{"Colours "}</label>
               <select id="embed-theme" data-testid="embed-theme" onchange={let t = theme.clone(); Callback::from(move |e: Event| t.set(event_value(&e)))}>
                   <option value="auto" selected={theme.as_str() == "auto"}>{"auto: light or dark as the reader's system is"}</option>
                   <option value="light" selected={theme.as_str() == "light"}>{"light"}</option>
                   <option value="dark" selected={theme.as_str() == "dark"}>{"dark"}</option>
               </select></p>
            <textarea class="wide mono" readonly=true rows="4" value={snippet.clone()} aria-label="Embed snippet" data-testid="embed-snippet" />
            <CopyButton text={snippet.clone()} label="Copy snippet" />
            <h3>{"Preview: a blog column (700 px) and a phone (390 px)"}</h3>
            <div class="previews">
                <iframe class="preview wide" src={src.clone()} title="Embed preview, 700 px wide" data-testid="preview-700"></iframe>
                <iframe class="preview phone" src={src} title="Embed preview, 390 px wide" data-testid="preview-390"></iframe>
            </div>
        </Modal>
    }
}
