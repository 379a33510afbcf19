//! "Bring your controller": a controller's Go set-up, pasted or picked as
//! files, read into a scenario by the lesson worker (`workqueue-go`, off
//! the page's thread), then opened as a run. What the reader took and what
//! it did not understand are listed with their file and line.

use yew::prelude::*;

use super::modal::Modal;
use crate::lesson_worker::LessonWorker;
use crate::share::Shared;
use crate::state::GoImport;
use crate::store::controls::MenuCalls;
use workqueue_core::{Duration, Instant, Scenario};

/// The most Go the page sends to be read (`wqsim import` reads more).
const MAX_PAGE_BYTES: usize = 512 * 1024;

#[derive(Properties, PartialEq)]
pub struct ImportDialogProps {
    /// The Go set-up as far as the lesson worker has read it.
    pub go_import: Option<GoImport>,
    /// Reads the Go off the page's thread.
    pub worker: Option<LessonWorker>,
    /// Reading the Go, and opening its run.
    pub calls: MenuCalls,
    pub onclose: Callback<MouseEvent>,
}

#[function_component(ImportDialog)]
pub fn import_dialog(props: &ImportDialogProps) -> Html {
    let worker = props.worker.clone();
    let pasted = use_state(String::new);
    let picked = use_state(Vec::<(String, String)>::new);
    let too_big = use_state(|| None::<String>);
    // What Go does not say: the author's own figures, applied on Run it.
    let objects = use_state(|| "100".to_string());
    let reconcile_ms = use_state(|| "50".to_string());
    // An outage window, as `wqsim import --outage` takes it (empty: none).
    let outage = use_state(String::new);
    // Writes only (reads are served from the informer's cache), per
    // controller: (own kind, other kinds, what a failing reconcile still
    // writes; empty: as the box below says).
    let writes = use_state(Vec::<Writes>::new);
    let errors_write_nothing = use_state(|| false);
    let on_paste = super::keep_typed(&pasted);
    let on_pick = {
        let (picked, too_big) = (picked.clone(), too_big.clone());
        Callback::from(move |e: Event| {
            let Some(input) = super::target::<web_sys::HtmlInputElement>(&e) else {
                return;
            };
            let Some(list) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            let (picked, too_big) = (picked.clone(), too_big.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let mut read = Vec::new();
                let mut refused = None;
                for f in files {
                    let name = workqueue_core::shown(&f.name()).into_owned();
                    if f.size() > MAX_PAGE_BYTES as f64 {
                        refused = Some(format!(
                            "{name}: {} KB of Go: the page reads at most {} KB; run `wqsim import` on the files instead.",
                            (f.size() / 1024.0).ceil(),
                            MAX_PAGE_BYTES / 1024
                        ));
                        break;
                    }
                    let bytes = wasm_bindgen_futures::JsFuture::from(f.array_buffer())
                        .await
                        .map(|b| js_sys::Uint8Array::new(&b).to_vec())
                        .unwrap_or_default();
                    // Go source is UTF-8, as `wqsim import` reads it.
                    match String::from_utf8(bytes) {
                        Ok(text) => read.push((f.name(), text)),
                        Err(e) => {
                            let at = e.utf8_error().valid_up_to();
                            let line =
                                1 + e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count();
                            refused = Some(format!("{name}: line {line}: not UTF-8 text, as Go source is: save it as UTF-8 and pick it again."));
                            break;
                        }
                    }
                }
                match refused {
                    Some(why) => {
                        picked.set(Vec::new());
                        too_big.set(Some(why));
                    }
                    None => {
                        too_big.set(None);
                        picked.set(read);
                    }
                }
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
        let (on_import, files, too_big) = (
            props.calls.go_import.clone(),
            files.clone(),
            too_big.clone(),
        );
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
            on_import.emit(GoImport::Reading);
            if let Some(worker) = &worker {
                worker.import_go(files.clone());
            }
        })
    };
    let result = match (&*too_big, &props.go_import) {
        (Some(why), _) => {
            html! { <p class="field-error" role="alert" data-testid="import-error">{ why.clone() }</p> }
        }
        (None, Some(GoImport::Reading)) => {
            html! { <p class="hint" role="status">{"Reading the Go…"}</p> }
        }
        (None, Some(GoImport::Refused(why))) => {
            html! { <p class="field-error" role="alert" data-testid="import-error">{ workqueue_core::shown(why).into_owned() }</p> }
        }
        (
            None,
            Some(GoImport::Read {
                scenario,
                taken,
                unread,
            }),
        ) => {
            let rows: Vec<Writes> = (0..scenario.controllers.len())
                .map(|i| writes.get(i).cloned().unwrap_or_default())
                .collect();
            let assumed = assume(
                scenario,
                &Figures {
                    objects: &objects,
                    reconcile_ms: &reconcile_ms,
                    outage: &outage,
                    writes: &rows,
                    errors_write_nothing: *errors_write_nothing,
                },
            );
            let write_rows = scenario.controllers.iter().enumerate().map(|(i, c)| {
                let set = |column: Column| {
                    let (writes, rows) = (writes.clone(), rows.clone());
                    Callback::from(move |e: InputEvent| {
                        let Some(t) = super::target::<web_sys::HtmlInputElement>(&e)
                        else {
                            return;
                        };
                        let mut next = rows.clone();
                        match column {
                            Column::Own => next[i].own = t.value(),
                            Column::Other => next[i].other = t.value(),
                            Column::Failing => next[i].failing = t.value(),
                        }
                        writes.set(next);
                    })
                };
                let Writes { own, other, failing } = rows[i].clone();
                html! {
                    <tr>
                        <th scope="row" class="mono">{ c.name.clone() }</th>
                        <td><input type="text" inputmode="numeric" aria-label={format!("{}: writes to its own kind per reconcile", c.name)} value={own} oninput={set(Column::Own)} data-testid={format!("import-own-writes-{i}")} /></td>
                        <td><input type="text" aria-label={format!("{}: writes to other kinds per reconcile", c.name)} placeholder="e.g. Secret 1, ConfigMap 2" value={other} oninput={set(Column::Other)} data-testid={format!("import-other-writes-{i}")} /></td>
                        <td><input type="text" aria-label={format!("{}: writes a failing reconcile still sends", c.name)} placeholder={if *errors_write_nothing { "none" } else { "all of them" }} value={failing} oninput={set(Column::Failing)} data-testid={format!("import-failure-writes-{i}")} /></td>
                    </tr>
                }
            });
            let on_errors = super::keep_ticked(&errors_write_nothing);
            let open = {
                let (open_run, assumed, onclose) = (
                    props.calls.open_run.clone(),
                    assumed.clone(),
                    props.onclose.clone(),
                );
                Callback::from(move |e: MouseEvent| {
                    let Ok(scenario) = assumed.clone() else {
                        return;
                    };
                    let speed = speed_for(scenario.duration_ns.get());
                    let run = Shared {
                        run: workqueue_core::Run {
                            scenario,
                            inputs: Vec::new(),
                            run_to: Instant::T0,
                        },
                        lesson: None,
                        selected: None,
                    };
                    open_run.emit((run, speed));
                    onclose.emit(e);
                })
            };
            let names: Vec<String> = scenario
                .controllers
                .iter()
                .map(|c| match c.controller.workers.get() {
                    1 => format!("{} (1 worker)", c.name),
                    n => format!("{} ({n} workers)", c.name),
                })
                .collect();
            html! {
                <div class="import-result" data-testid="import-result">
                    <p><strong>{ format!("{} controller{}: ", names.len(), if names.len() == 1 { "" } else { "s" }) }</strong>{ names.join(", ") }</p>
                    <h3>{"Taken from your code"}</h3>
                    <ul class="found" data-testid="import-taken">{ for notes(taken) }</ul>
                    <h3>{"Not in your code, or not understood"}</h3>
                    <ul class="found" data-testid="import-unread">{ for notes(unread) }</ul>
                    <h3>{"What your code does not say"}</h3>
                    <div class="grid3">
                        { number_field("import-objects", "Objects per controller", &objects) }
                        { number_field("import-reconcile", "Each reconcile takes (ms)", &reconcile_ms) }
                        { field("import-outage", "An outage, from..to (e.g. 10s..100s; empty: none)", &outage, "text") }
                    </div>
                    <h3>{"API requests each reconcile sends"}</h3>
                    <p class="hint">{"Reads come from the informer's cache and cost no request; every write, status update, patch or delete does."}</p>
                    <table class="writes">
                        <thead><tr><th scope="col">{"Controller"}</th><th scope="col">{"Writes to its own kind"}</th><th scope="col">{"Writes to other kinds"}</th><th scope="col">{"When it fails, it still writes"}</th></tr></thead>
                        <tbody>{ for write_rows }</tbody>
                    </table>
                    <label class="check"><input type="checkbox" checked={*errors_write_nothing} onchange={on_errors} data-testid="import-errors-write-nothing" />{" A reconcile that fails writes nothing (it fails before its writes)"}</label>
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
    field(id, label, value, "numeric")
}

fn field(
    id: &'static str,
    label: &'static str,
    value: &UseStateHandle<String>,
    inputmode: &'static str,
) -> Html {
    let oninput = super::keep_typed(value);
    html! {
        <div class="field">
            <label for={id}>{ label }</label>
            <input id={id} type="text" {inputmode} value={(**value).clone()} {oninput} data-testid={id} />
        </div>
    }
}

/// Real time a run of the author's plays for, at the speed it opens with.
const PLAYS_FOR: Duration = Duration::from_nanos(30 * workqueue_core::SECOND.as_nanos());

/// The speed on the 1-2-5 scale at which a run of `duration` plays in
/// about [`PLAYS_FOR_NS`] (never slower than real time).
fn speed_for(duration: workqueue_core::Duration) -> f64 {
    let wanted = duration.as_nanos() as f64 / PLAYS_FOR.as_nanos() as f64;
    let mut speed = 1.0;
    while speed < wanted {
        let next = crate::pacing::speed_step(speed, true);
        if next <= speed {
            break;
        }
        speed = next;
    }
    speed
}

/// One controller's writes per reconcile, as typed.
#[derive(Clone, Debug, PartialEq)]
struct Writes {
    /// To its own kind (a status update: 1).
    own: String,
    /// To other kinds ("Secret 1, ConfigMap 2").
    other: String,
    /// Those a failing reconcile still sends (empty: all of them, or
    /// none where failures write nothing).
    failing: String,
}

impl Default for Writes {
    fn default() -> Self {
        Writes {
            own: "1".into(),
            other: String::new(),
            failing: String::new(),
        }
    }
}

/// Which of a controller's write fields was typed in.
#[derive(Clone, Copy)]
enum Column {
    Own,
    Other,
    Failing,
}

/// What the author types beside their code.
struct Figures<'a> {
    objects: &'a str,
    reconcile_ms: &'a str,
    outage: &'a str,
    /// Per controller: its writes, as typed.
    writes: &'a [Writes],
    errors_write_nothing: bool,
}

/// The imported scenario with the author's figures (see
/// `workqueue_go::assume`), refused by the field's label.
fn assume(s: &Scenario, f: &Figures) -> Result<Scenario, String> {
    use workqueue_go::assume::{objects_of, window_of, writes_of, Assumptions};
    // An empty box is its default again, as before any typing (`None`
    // keeps what the import assumed).
    let number = |label: &str, text: &str| match text.trim() {
        "" => Ok(None),
        t => t.parse::<u64>().map(Some).map_err(|_| {
            format!(
                "{label}: {:?} is not a whole number (empty: the default)",
                workqueue_core::shown(t)
            )
        }),
    };
    let objects = match f.objects.trim() {
        "" => None,
        t => Some(objects_of(t).map_err(|e| format!("Objects per controller: {e}"))?),
    };
    let reconcile = number("Each reconcile takes (ms)", f.reconcile_ms)?;
    let outage = match f.outage.trim() {
        "" => None,
        text => Some(window_of(text).map_err(|e| format!("An outage: {e}"))?),
    };
    let mut writes = Vec::new();
    let mut failure_writes = Vec::new();
    for (c, w) in s.controllers.iter().zip(f.writes) {
        let own = number(&format!("{}: writes to its own kind", c.name), &w.own)?;
        let other =
            writes_of(&w.other).map_err(|e| format!("{}: Writes to other kinds: {e}", c.name))?;
        writes.push((
            c.name.clone(),
            own.map(|n| n.min(u32::MAX as u64) as u32),
            other,
        ));
        if !w.failing.trim().is_empty() {
            let sent = writes_of(&w.failing)
                .map_err(|e| format!("{}: When it fails, it still writes: {e}", c.name))?;
            failure_writes.push((c.name.clone(), sent));
        }
    }
    let a = Assumptions {
        objects,
        reconcile_ns: reconcile
            .map(|ms| workqueue_core::MILLISECOND.saturating_mul(ms.min(1 << 40) as i64)),
        outage,
        writes,
        errors_write_nothing: f.errors_write_nothing,
        failure_writes,
    };
    let keys = a
        .objects
        .unwrap_or(0)
        .saturating_mul(s.controllers.len() as u64);
    if keys > crate::timeline::PAGE_MAX_KEYS {
        return Err(format!(
            "Objects per controller: {keys} keys in all is too many for the page: at most {}",
            crate::timeline::PAGE_MAX_KEYS
        ));
    }
    a.apply(s).map_err(|e| {
        let name = |i: &str| {
            i.parse::<usize>()
                .ok()
                .and_then(|i| s.controllers.get(i))
                .map_or_else(String::new, |c| format!("{}: ", c.name))
        };
        let at = e
            .field
            .strip_prefix("controllers[")
            .and_then(|r| r.split_once(']'));
        match at {
            Some((i, rest)) if rest.starts_with(".writes") => {
                format!("{}Writes to other kinds: {}", name(i), e.reason)
            }
            Some((i, rest)) if rest.starts_with(".requests_per_reconcile") => {
                format!("{}Writes to its own kind: {}", name(i), e.reason)
            }
            _ => e.to_string(),
        }
    })
}

/// The notes a list shows: each escaped, the first [`MAX_NOTES`] of them,
/// then how many more there are (a file with tens of thousands of flags
/// would otherwise put megabytes of text in the dialog).
fn notes(list: &[String]) -> impl Iterator<Item = Html> + '_ {
    let more = list.len().saturating_sub(MAX_NOTES);
    list.iter()
        .take(MAX_NOTES)
        .map(|t| {
            let t: String = t.chars().take(MAX_NOTE_CHARS).collect();
            html! { <li class="mono">{ workqueue_core::shown(&t).into_owned() }</li> }
        })
        .chain((more > 0).then(|| html! {
            <li class="hint">{ format!("… and {more} more (`wqsim import` lists them all)") }</li>
        }))
}

/// Notes a list of the dialog shows, and characters a note shows, at most.
const MAX_NOTES: usize = 300;
const MAX_NOTE_CHARS: usize = 400;

#[cfg(test)]
mod tests {
    use super::{assume, speed_for, Figures, Writes};
    use workqueue_core::{Instant, Scenario, Script, SECOND};
    use workqueue_core::{KeyCount, Requests};

    fn figures<'a>(outage: &'a str, writes: &'a [Writes]) -> Figures<'a> {
        Figures {
            objects: "10",
            reconcile_ms: "50",
            outage,
            writes,
            errors_write_nothing: false,
        }
    }

    /// The author's outage starts where they say (not only at 0), and a
    /// failing reconcile sends the writes they name; a mistake names its
    /// field (and the controller's row).
    #[test]
    fn the_outage_window_and_a_failure_s_writes_are_the_author_s() {
        let s = Scenario::new("mine");
        let name = s.controllers[0].name.clone();
        let w = [Writes {
            own: "1".into(),
            other: "Secret 2".into(),
            failing: "Secret 1".into(),
        }];
        let out = assume(&s, &figures("10s..100s", &w)).unwrap();
        let c = &out.controllers[0];
        match &c.default_script {
            Script::Outage {
                from_ns, until_ns, ..
            } => assert_eq!(
                (from_ns.get(), until_ns.get()),
                (Instant::T0 + 10 * SECOND, Instant::T0 + 100 * SECOND)
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            c.failure_writes,
            Some([("Secret".to_string(), 1)].into_iter().collect())
        );
        assert_eq!(
            c.writes,
            [("Secret".to_string(), Requests::lit(2))]
                .into_iter()
                .collect()
        );
        // Empty: no outage, and a failure sends what the box says.
        let plain = [Writes::default()];
        let out = assume(&s, &figures("", &plain)).unwrap();
        assert!(!matches!(
            out.controllers[0].default_script,
            Script::Outage { .. }
        ));
        assert_eq!(out.controllers[0].failure_writes, None);
        let e = assume(&s, &figures("100s..10s", &plain)).unwrap_err();
        assert!(e.starts_with("An outage: "), "{e}");
        let bad = [Writes {
            failing: "Event lots".into(),
            ..Writes::default()
        }];
        let e = assume(&s, &figures("", &bad)).unwrap_err();
        assert!(
            e.starts_with(&format!("{name}: When it fails, it still writes: ")),
            "{e}"
        );
    }

    /// A box emptied after typing is its default again, as before any
    /// typing: objects, reconcile time and own writes keep what the import
    /// assumed; a number without its unit in the outage box is refused.
    #[test]
    fn an_emptied_number_box_is_its_default_again() {
        let mut s = Scenario::new("mine");
        s.controllers[0]
            .sources
            .push(workqueue_core::Source::add_many("k-", KeyCount::lit(100)));
        s.controllers[0].controller.reconcile_ns =
            workqueue_core::Span::lit(50 * workqueue_core::MILLISECOND);
        s.controllers[0].requests_per_reconcile = Requests::lit(1);
        let untouched = assume(&s, &figures("", &[Writes::default()])).unwrap();
        let no_own = [Writes {
            own: "".into(),
            ..Writes::default()
        }];
        let emptied = Figures {
            objects: "",
            reconcile_ms: " ",
            ..figures("", &no_own)
        };
        let out = assume(&s, &emptied).unwrap();
        let c = &out.controllers[0];
        assert!(matches!(
            c.sources[0],
            workqueue_core::Source::AddMany { count, .. } if count.get() == 100
        ));
        assert_eq!(c.controller.reconcile_ns, 50 * workqueue_core::MILLISECOND);
        assert_eq!(c.requests_per_reconcile, Requests::lit(1));
        assert_eq!(out.controllers[0].sources, s.controllers[0].sources);
        assert_eq!(untouched.controllers[0].controller, c.controller);
        let bad = |objects: &'static str| Figures {
            objects,
            ..figures("", &[])
        };
        let e = assume(&s, &bad("-5")).unwrap_err();
        assert!(
            e.starts_with("Objects per controller: ") && e.contains("1 or more"),
            "{e}"
        );
        let e = assume(&s, &figures("20..80", &[])).unwrap_err();
        assert_eq!(e, "An outage: \"20\" has no unit (write 20s or 20ms)");
    }

    #[test]
    fn a_run_of_minutes_opens_at_a_speed_that_plays_it_in_about_half_a_minute() {
        use workqueue_core::SECOND;
        assert_eq!(speed_for(10 * SECOND), 1.0);
        for minutes in [1, 5, 15, 60] {
            let d = minutes * 60 * SECOND;
            let s = speed_for(d);
            let real = d.as_nanos() as f64 / s / SECOND.as_nanos() as f64;
            assert!(
                (12.0..=30.0).contains(&real),
                "{minutes} min plays in {real} s at {s}x"
            );
        }
    }
}
