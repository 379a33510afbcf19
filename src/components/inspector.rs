//! "Why is this key waiting?": for the selected key, where it is, what every
//! sub-limiter answered to its last `When`, which answer won, the bucket
//! reservation behind it, and the queue calls its last result caused.

use workqueue_core::{Answer, AnswerKind};
use workqueue_core::{Duration, Instant};
use workqueue_core::{Holder, KeyReport, Place};
use yew::prelude::*;

use crate::format;
use crate::state::Playground;
use crate::store::controls::Controls;

/// What holds the key back, across levels, in words.
fn holders(holding: &[Holder]) -> String {
    holding
        .iter()
        .map(|h| match h {
            Holder::OwnBackoff => "its own backoff (or the RequeueAfter it asked for)".to_string(),
            Holder::Bucket => "a token bucket in its queue's limiter".into(),
            Holder::GlobalBucket => {
                "the global bucket: the middleware answered RequeueAfter; its next pass is paid for"
                    .into()
            }
            Holder::Client { waited, kinds } => format!(
                "the API client: its last reconcile waited {} for its requests, on {}",
                format::dur(*waited),
                match kinds.as_slice() {
                    [one] => format!("the bucket of {one}'s REST client (one per kind)"),
                    _ => "the client's one bucket, shared by every kind".to_string(),
                }
            ),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where the key is, in words.
fn where_is(places: &[Place], now: Instant) -> String {
    places
        .iter()
        .map(|p| match p {
            Place::Reconciling { priority: None } => "being reconciled".to_string(),
            Place::Reconciling { priority: Some(p) } => {
                format!("being reconciled (handed out with priority {p})")
            }
            Place::Queued => "queued (dirty)".into(),
            Place::DirtyInFlight => "dirty: queued again at Done".into(),
            Place::Ready {
                priority,
                skipped: true,
            } => {
                format!("a new record is ready (priority {priority}): skipped until Done")
            }
            Place::Ready {
                priority,
                skipped: false,
            } => format!("ready, priority {priority}"),
            Place::Waiting {
                ready_at,
                priority: None,
            } => {
                format!("waiting, ready {}", format::until(*ready_at, now))
            }
            Place::Waiting {
                ready_at,
                priority: Some(p),
            } => {
                format!(
                    "waiting, ready {} (priority {p})",
                    format::until(*ready_at, now)
                )
            }
            Place::Dropped => "dropped (terminal error or gave up)".into(),
            Place::Idle => "not queued: nothing to do".into(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn answer_rows(a: &Answer, depth: usize, out: &mut Vec<Html>) {
    let (name, detail) = match &a.kind {
        AnswerKind::Exponential {
            base,
            max,
            exp,
            capped,
        } => (
            "exponential".to_string(),
            format!(
                "{} × 2^{exp}{}",
                format::dur(*base),
                if *capped {
                    format!(", capped at {}", format::dur(*max))
                } else {
                    String::new()
                }
            ),
        ),
        AnswerKind::FastSlow {
            fast,
            slow,
            max_fast,
            attempt,
        } => (
            "fast/slow".to_string(),
            format!(
                "attempt {attempt}: {} ({} for the first {max_fast}, then {})",
                if *attempt <= *max_fast as u64 {
                    "fast"
                } else {
                    "slow"
                },
                format::dur(*fast),
                format::dur(*slow)
            ),
        ),
        AnswerKind::Bucket {
            qps,
            burst,
            tokens_before,
            tokens_after,
            ok,
        } => (
            "token bucket".to_string(),
            if *ok {
                format!("{tokens_before:.2} → {tokens_after:.2} tokens ({qps}/s, burst {burst})")
            } else {
                format!("no reservation possible (burst {burst}): InfDuration")
            },
        ),
        AnswerKind::MaxOf => (
            "max-of".to_string(),
            "the largest answer, at least 0".to_string(),
        ),
        AnswerKind::WithMaxWait { max_wait, capped } => (
            "with-max-wait".to_string(),
            format!(
                "cap {}{}",
                format::dur(*max_wait),
                if *capped { " (applied)" } else { "" }
            ),
        ),
    };
    out.push(html! {
        <tr class={classes!(a.won.then_some("won"))}>
            <td style={format!("padding-left:{}rem", 0.4 + depth as f64)}>{ name }{ if a.won { html! { <span class="won-badge">{"wins"}</span> } } else { html! {} } }</td>
            <td class="mono">{ detail }</td>
            <td class="mono num" data-testid="answer-delay">{ format::dur(a.delay) }</td>
            <td class="mono num">{ format!("{} ns", a.delay.as_nanos()) }</td>
        </tr>
    });
    for p in &a.parts {
        answer_rows(p, depth + 1, out);
    }
}

#[derive(Properties, PartialEq, Clone)]
pub struct InspectorProps {
    /// The selected key.
    pub selected: Option<String>,
    /// Its report and the instant it was made at, once the run has seen it.
    pub report: Option<(KeyReport, Instant)>,
    /// A manager's run: its scripts come from its file.
    pub manager: bool,
    /// Select a key, or none (the inspector closes).
    pub on_select: Callback<Option<String>>,
    /// An input into the run (the key's script).
    pub on_input: Callback<workqueue_core::Input>,
}

impl InspectorProps {
    /// What the inspector shows of `state`. In a manager, the key belongs
    /// to one of the controllers.
    pub fn of(state: &Playground, controls: &Controls) -> InspectorProps {
        let report = state.run.selected.as_ref().and_then(|key| {
            state
                .engine()
                .controllers()
                .find_map(|(_, c)| c.find(key).map(|id| (c.key_report(id), c.now())))
        });
        InspectorProps {
            selected: state.run.selected.clone(),
            report,
            manager: state.is_manager(),
            on_select: controls.select.clone(),
            on_input: controls.input.clone(),
        }
    }
}

#[function_component(Inspector)]
pub fn inspector(props: &InspectorProps) -> Html {
    // A key is text from a file or a link: shown escaped.
    let Some(key) = props
        .selected
        .as_deref()
        .map(|k| workqueue_core::shown(k).into_owned())
    else {
        return html! {
            <section class="panel inspector" aria-label="Why is this key waiting?">
                <h2>{"Why is this key waiting?"}</h2>
                <p class="hint">{"Select a key on the stage (or add one) to see every limiter's answer, which one won, and the exact When values."}</p>
            </section>
        };
    };
    let Some((report, now)) = props.report.clone() else {
        return html! { <section class="panel inspector"><h2>{"Why is this key waiting?"}</h2><p>{ format!("{key} has not been seen yet.") }</p></section> };
    };
    let last = report.last_retry;
    let mut rows = Vec::new();
    if let Some(a) = &report.answer {
        answer_rows(a, 0, &mut rows);
    }
    let calls = &report.calls;
    let close = props.on_select.reform(|_: MouseEvent| None);
    html! {
        <section class="panel inspector" aria-label="Why is this key waiting?" data-testid="inspector">
            <div class="panel-head">
                <h2>{"Why is "}<code>{ key.clone() }</code>{" here?"}</h2>
                <button class="icon small" onclick={close} aria-label="Close the inspector">{"×"}</button>
            </div>
            <dl class="facts">
                <dt>{"Now"}</dt><dd class="where" data-testid="where">{ where_is(&report.places, now) }</dd>
                // Always a row, so the panel keeps its layout as the key moves.
                <dt>{"Held by"}</dt>
                <dd class="held" data-testid="holding">{ if report.holding.is_empty() { "nothing".to_string() } else { holders(&report.holding) } }</dd>
                <dt>{"NumRequeues"}</dt><dd data-testid="num-requeues">{ report.num_requeues }</dd>
                <dt>{"Reconciles"}</dt><dd>{ format!("{} ({} failed)", report.reconciles, report.errors) }</dd>
                <dt>{"Script"}</dt><dd data-testid="script-words">{ format::script(&report.script) }</dd>
            </dl>
            // A manager's scripts come from its file; a single run's can change.
            { if !props.manager {
                let target = key.clone();
                let on_set = props.on_input.reform(move |script| {
                    workqueue_core::Input::SetScript { key: target.clone(), script }
                });
                html! { <super::key_script::KeyScript key_name={key.clone()} {on_set} /> }
            } else { html! {} } }
            { match last {
                None if report.retries == 0 => html! { <p class="hint">{"No rate-limited requeue yet: the limiter has not been asked about this key."}</p> },
                None => html! { <p class="hint" data-testid="details-not-held">{ format!("{} rate-limited requeues; their details are not held: a run this large keeps them for the first {} keys to retry.", report.retries, format::count(workqueue_core::DETAILED_KEYS as u64)) }</p> },
                Some(r) => html! {
                    <>
                        <h3>{ format!("Last AddRateLimited at {}: failure #{} → When = {}", format::at(r.at), r.failures_before + 1, format::dur(r.delay)) }</h3>
                        <table class="answers">
                            <thead><tr><th>{"limiter"}</th><th>{"why"}</th><th>{"answer"}</th><th>{"exact"}</th></tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                    </>
                },
            } }
            { if calls.is_empty() { html! {} } else { html! {
                <>
                    <h3>{"What its last result did"}</h3>
                    <ol class="calls mono" data-testid="calls">{ for calls.iter().map(|c| html! { <li>{ c }</li> }) }</ol>
                </>
            } } }
            { if report.history.len() > 1 { html! {
                <>
                    <h3>{"Every requeue so far"}</h3>
                    <table class="history">
                        <thead><tr><th>{"failure"}</th><th>{"at"}</th><th>{"When"}</th><th>{"ready"}</th></tr></thead>
                        <tbody>
                        { for report.history.iter().take(12).map(|r| html! {
                            <tr><td class="num">{ r.failures_before + 1 }</td><td class="mono">{ format::dur(r.at.since_t0()) }</td>
                            <td class="mono">{ format::dur(r.delay) }</td><td class="mono">{ format::dur(r.at.saturating_add(r.delay.max(Duration::ZERO)).since_t0()) }</td></tr>
                        }) }
                        </tbody>
                    </table>
                </>
            } } else { html! {} } }
        </section>
    }
}
