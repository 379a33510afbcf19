//! The workers: a card per worker (idle, reconciling with its progress, or
//! waiting for a person's decision) and the decision's six results.

use wasm_bindgen::JsCast;
use workqueue_core::{
    parse_go_duration, Duration, Input, Instant, Outcome, SignedDelay, WorkerView,
};
use yew::prelude::*;

use super::chips::{chip, Chips};
use crate::format;

pub(super) fn worker(
    cx: Chips<'_>,
    now: Instant,
    i: usize,
    w: &WorkerView,
    primary: Option<&str>,
    asks: bool,
) -> Html {
    match w {
        // Where the reader decides each result, an idle worker says so
        // (its card keeps the decision's room).
        WorkerView::Idle if asks => html! {
            <div class="worker idle"><span class="worker-name">{ format!("worker {i}") }</span><span class="asks">{"idle: when a key reaches this worker, you choose what its Reconcile returns"}</span></div>
        },
        WorkerView::Idle => html! {
            <div class="worker idle"><span class="worker-name">{ format!("worker {i}") }</span><span class="hint">{"idle: Get() blocks"}</span></div>
        },
        WorkerView::Reconciling {
            key,
            started,
            until,
            times_out,
        } => {
            let total = (*until - *started).max(Duration::NANOSECOND).as_nanos() as f64;
            let pct = (((now - *started).as_nanos() as f64 / total) * 100.0).clamp(0.0, 100.0);
            let ends = if *times_out {
                format!(
                    "ReconciliationTimeout fires at {}: an error",
                    format::dur(until.since_t0())
                )
            } else {
                format!("Reconcile ends at {}", format::dur(until.since_t0()))
            };
            html! {
                <div class={classes!("worker", "busy", times_out.then_some("times-out"))}>
                    <span class="worker-name">{ format!("worker {i}") }</span>
                    { chip(cx, key, "processing", html! {}) }
                    <div class="progress" role="progressbar" aria-label="reconcile progress" aria-valuenow={format!("{pct:.0}")} aria-valuemin="0" aria-valuemax="100">
                        <div style={format!("width:{pct:.1}%")}></div>
                    </div>
                    <span class="hint">{ ends }</span>
                </div>
            }
        }
        WorkerView::Deciding { key, .. } => html! {
            <div class="worker deciding">
                <span class="worker-name">{ format!("worker {i}") }</span>
                { chip(cx, key, "processing", html! {}) }
                <Decision key_name={key.key.clone()} primary={primary == Some(key.key.as_str())} on_input={cx.on_input.clone()} />
            </div>
        },
    }
}

#[derive(Properties, PartialEq)]
pub struct DecisionProps {
    pub key_name: String,
    /// The number keys 1 to 6 answer this decision.
    pub primary: bool,
    /// The chosen result, as the run's input.
    pub on_input: Callback<Input>,
}

/// After a decision the buttons disappear: focus moves to the next decision
/// if there is one, else to the lesson's way on (so Enter goes on, however
/// the result was chosen: its button or its number key), else to the
/// stage, never back to the page's top.
fn keep_focus_on_the_work() {
    gloo_timers::callback::Timeout::new(0, || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let first = |selector: &str| doc.query_selector(selector).ok().flatten();
        let target = first(".decision .outcome")
            .or_else(|| first("[data-testid=\"lesson-next\"]"))
            .or_else(|| first("[data-stage]"));
        if let Some(el) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            // Focus only: the page stays where the person is looking.
            crate::hooks::focus_quietly(&el);
        }
    })
    .forget();
}

/// The six results a reconcile can return, for the user to pick.
#[function_component(Decision)]
pub fn decision(props: &DecisionProps) -> Html {
    let after = use_state(|| "30s".to_string());
    // RequeueAfter as typed, held to its range (negative means "not at all").
    let parsed = parse_go_duration(&after)
        .map_err(|e| e.to_string())
        .and_then(|d| SignedDelay::new(d).map_err(|e| e.to_string()));
    let decide = {
        let on_input = props.on_input.clone();
        let key = props.key_name.clone();
        move |outcome: Outcome| {
            on_input.emit(Input::Decide {
                key: key.clone(),
                outcome,
            });
            keep_focus_on_the_work();
        }
    };
    let choose = |outcome: Option<Outcome>| {
        let decide = decide.clone();
        Callback::from(move |_| {
            if let Some(outcome) = outcome {
                decide(outcome);
            }
        })
    };
    let after_ns = parsed.as_ref().ok().copied();
    let options: [(&str, &str, Option<Outcome>); 6] = [
        ("Success", "success", Some(Outcome::Success)),
        ("Requeue", "requeue", Some(Outcome::Requeue)),
        (
            "Requeue\u{200b}After",
            "requeue-after",
            after_ns.map(|after_ns| Outcome::RequeueAfter { after_ns }),
        ),
        ("Error", "error", Some(Outcome::Error)),
        ("Terminal error", "terminal", Some(Outcome::TerminalError)),
        (
            "Error + Requeue\u{200b}After",
            "error-after",
            after_ns.map(|after_ns| Outcome::ErrorWithRequeueAfter { after_ns }),
        ),
    ];
    {
        // Number keys 1 to 6 pick the outcomes in the order shown.
        let outcomes: Vec<Option<Outcome>> = options.iter().map(|o| o.2).collect();
        let decide = decide.clone();
        use_effect_with((props.primary, outcomes), move |(primary, outcomes)| {
            let listener = primary.then(|| {
                let outcomes = outcomes.clone();
                crate::hooks::KeyListener::new(move |e: KeyboardEvent| {
                    if crate::hooks::typing_in_a_field(&e) {
                        return;
                    }
                    let n = e
                        .key()
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=6).contains(n));
                    if let Some(Some(outcome)) = n.map(|n| outcomes[n - 1]) {
                        e.prevent_default();
                        decide(outcome);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let on_after = super::keep_typed(&after);
    html! {
        <div class="decision" role="group" aria-label={format!("Result of Reconcile({})", props.key_name)}>
            <p class="decision-title">{"Reconcile returned…"}</p>
            <div class="decision-buttons">
                { for options.iter().enumerate().map(|(n, (label, id, outcome))| html! {
                    <button class={classes!("outcome", *id)} data-testid={format!("outcome-{id}")}
                        title={outcome.map(|o| match o {
                            // controller-runtime marks the field deprecated (pkg/reconcile/reconcile.go).
                            Outcome::Requeue => format!("{}: deprecated since controller-runtime v0.21, use RequeueAfter", o.go_return()),
                            _ => o.go_return(),
                        }).unwrap_or_else(|| "fix the duration first".into())}
                        aria-keyshortcuts={props.primary.then(|| (n + 1).to_string())}
                        disabled={outcome.is_none()} onclick={choose(*outcome)}>
                        { if props.primary { html! { <kbd aria-hidden="true">{ n + 1 }</kbd> } } else { html! {} } }
                        { *label }
                    </button>
                }) }
            </div>
            <label class="after">{"RequeueAfter "}
                <input type="text" class="num" value={(*after).clone()} oninput={on_after} aria-label="RequeueAfter duration" data-testid="after" />
            </label>
            { if let Err(e) = &parsed { html! { <small class="error">{ e.to_string() }</small> } } else { html! {} } }
        </div>
    }
}
