//! The stage: the whole machine at once. Event sources feed the queue (FIFO,
//! dirty keys marked), workers reconcile (progress, and the outcome buttons
//! when you decide), failed keys wait in the heap with a countdown, and the
//! token bucket shows its level and its debt.

use workqueue_core::scenario::Source;
use workqueue_core::sim::WorkerState;
use workqueue_core::{parse_go_duration, Input, ItemId, Nanos, Outcome, Simulation};
use yew::prelude::*;

use super::{event_value, use_playground};
use crate::format;
use crate::state::{Action, PlaygroundContext};

/// Chips drawn per lane; past this the lane shows a count instead, which
/// keeps ten thousand keys smooth.
pub const MAX_CHIPS: usize = 24;
/// Waiting chips are wider (they carry a countdown): fewer fit.
pub const MAX_WAITING_CHIPS: usize = 24;

/// How long the selected key's arrival highlight lasts after it changes place (ms).
const ARRIVAL_MS: f64 = 600.0;

thread_local! {
    /// The selected key's last place and when it got there: the eye follows
    /// one key by its arrival highlight in each new lane.
    static FOLLOW: std::cell::RefCell<(String, &'static str, f64)> = const { std::cell::RefCell::new((String::new(), "", f64::NEG_INFINITY)) };
}

/// Whether the selected key, now in `lane`, arrived there just now.
fn just_arrived(key: &str, lane: &'static str) -> bool {
    let now = crate::hooks::now_ms();
    FOLLOW.with(|f| {
        let mut f = f.borrow_mut();
        if f.0 != key || f.1 != lane {
            let moved = f.0 == key; // a new selection is not a move
            *f = (
                key.to_string(),
                lane,
                if moved { now } else { f64::NEG_INFINITY },
            );
        }
        now - f.2 < ARRIVAL_MS
    })
}

fn chip(
    state: &PlaygroundContext,
    sim: &Simulation,
    id: ItemId,
    class: &'static str,
    extra: Html,
) -> Html {
    let key = sim.key(id).to_string();
    let selected = state.selected.as_deref() == Some(key.as_str());
    let arrived = selected && just_arrived(&key, class);
    let dirty = sim.queue().is_dirty(id) && sim.queue().is_processing(id);
    let limited = sim.middleware().is_some_and(|m| m.is_limited(id));
    let onclick = {
        let d = state.dispatcher();
        let key = key.clone();
        Callback::from(move |_| d.dispatch(Action::Select(Some(key.clone()))))
    };
    // Events deduplicated into this copy since a worker last took it.
    let absorbed = sim.item(id).absorbed;
    let label = if absorbed > 0 {
        format!("{key}, {absorbed} more events merged into it: select to see why it is here")
    } else {
        format!("{key}: select to see why it is here")
    };
    html! {
        <button key={key.clone()} class={classes!("chip", class, selected.then_some("selected"), dirty.then_some("dirty"), arrived.then_some("arrived"))}
            {onclick} aria-label={label} aria-pressed={selected.to_string()} data-key={key.clone()}>
            <span class="chip-key">{ key }</span>
            { if limited { html! { <span class="badge" title="Crossplane: this key already paid for its next pass">{"paid"}</span> } } else { html! {} } }
            { if absorbed > 0 { html! {
                <span class="absorbed" data-testid="absorbed" title="watch events merged into this one queued copy (deduplicated)">{ format!("+{absorbed}") }</span>
            } } else { html! {} } }
            { extra }
        </button>
    }
}

#[function_component(Stage)]
pub fn stage() -> Html {
    let state = use_playground();
    let sim = state.sim.borrow();
    let in_motion = {
        let q = sim.queue();
        q.len() + q.waiting_len() + q.processing_count()
    };
    crate::hooks::use_travel(in_motion <= crate::pacing::CROWD);
    let now = sim.now();
    let q = sim.queue();

    // --- sources
    let watch = sim.watch_events_total();
    let sources: Html = sim
        .sources()
        .filter_map(|(s, next)| {
            let next = next?;
            Some(match s {
                Source::WatchEvents { key, per_second, .. } => html! { <li>{ format!("watch events on {key}: {per_second}/s, next {}", format::until(next as i128, now)) }</li> },
                Source::Resync { period_ns } => html! { <li>{ format!("resync every {}, next {}", format::dur(*period_ns), format::until(next as i128, now)) }</li> },
                Source::AddMany { prefix, count, .. } => html! { <li>{ format!("{count} keys {prefix}…") }</li> },
            })
        })
        .collect();

    // --- the FIFO
    let queued: Vec<ItemId> = q.queued().take(MAX_CHIPS).collect();
    let queued_more = q.len().saturating_sub(queued.len());
    let dirty_in_flight = sim.workers().iter().filter(|w| matches!(w, WorkerState::Reconciling { item, .. } | WorkerState::AwaitingDecision { item, .. } if q.is_dirty(*item))).count();

    // --- waiting heap, soonest first
    let waiting = q.waiting_soonest(MAX_WAITING_CHIPS);
    let waiting_total = q.waiting_len();
    let waiting_more = waiting_total.saturating_sub(MAX_WAITING_CHIPS);
    let horizon = waiting
        .iter()
        .map(|(_, r)| *r - now as i128)
        .max()
        .unwrap_or(1)
        .max(1) as f64;

    // --- bucket
    let bucket = sim.bucket_tokens_at(now).map(|tokens| {
        let (burst, qps, name) = match sim.middleware() {
            Some(m) => (
                m.global.burst(),
                m.global.limit(),
                "global bucket (Crossplane)",
            ),
            None => {
                let b = q.limiter().bucket().expect("a bucket reports tokens");
                (b.burst(), b.limit(), "controller bucket")
            }
        };
        (tokens, burst, qps, name)
    });

    html! {
        <section class="stage" aria-label="The stage: sources, queue, workers, waiting heap and bucket" data-stage="">
            <div class="lane sources">
                <h3>{"Sources"}</h3>
                <p class="stat"><strong>{ format::count(watch) }</strong>{" watch events so far"}</p>
                <ul class="plain">{ sources }</ul>
            </div>
            <div class="lane queue" data-testid="queue">
                <h3>{"Queue "}<small>{ format!("Len() = {}", q.len()) }</small></h3>
                <p class="hint">{"FIFO, head on the left. A key is queued once, however often it is added."}</p>
                <div class="chips">
                    { for queued.iter().map(|id| chip(&state, &sim, *id, "queued", html! {})) }
                    { if queued_more > 0 { html! { <span class="more">{ format!("+{} more", format::count(queued_more as u64)) }</span> } } else { html! {} } }
                    { if q.is_empty() { html! { <span class="empty">{"empty"}</span> } } else { html! {} } }
                </div>
                { if dirty_in_flight > 0 { html! {
                    <p class="dirty-note">{ format!("{dirty_in_flight} key(s) re-added while being reconciled: dirty, not in the FIFO until Done") }</p>
                } } else { html! {} } }
            </div>
            <div class="lane workers" data-testid="workers">
                <h3>{"Workers "}<small>{ format!("{} of {} busy", sim.controller_metrics().active_workers, sim.workers().len()) }</small></h3>
                <div class="worker-grid">
                    { for sim.workers().iter().enumerate().take(32).map(|(i, w)| worker(&state, &sim, i, w)) }
                </div>
                { if sim.workers().len() > 32 { html! { <p class="more">{ format!("+{} more workers", sim.workers().len() - 32) }</p> } } else { html! {} } }
            </div>
            <div class="lane waiting" data-testid="waiting">
                <h3>{"Waiting heap "}<small>{ format!("{} key(s)", format::count(waiting_total as u64)) }</small></h3>
                <p class="hint">{"AddAfter and AddRateLimited park keys here until their readyAt."}</p>
                <div class="chips">
                    { for waiting.iter().take(MAX_WAITING_CHIPS).map(|(id, ready)| {
                        let left = *ready - now as i128;
                        let width = (left as f64 / horizon * 100.0).clamp(2.0, 100.0);
                        let failures = q.num_requeues(*id);
                        chip(&state, &sim, *id, "waiting", html! {
                            <>
                                <span class="countdown">{ format::until(*ready, now) }</span>
                                { if failures > 0 { html! { <span class="failures" title="NumRequeues: failures so far">{ format!("#{failures}") }</span> } } else { html! {} } }
                                <span class="bar" style={format!("width:{width:.1}%")}></span>
                            </>
                        })
                    }) }
                    { if waiting_more > 0 { html! { <span class="more">{ format!("+{} more", format::count(waiting_more as u64)) }</span> } } else { html! {} } }
                    { if waiting_total == 0 { html! { <span class="empty">{"nothing waiting"}</span> } } else { html! {} } }
                </div>
            </div>
            <div class="lane bucket" data-testid="bucket">
                <h3>{"Token bucket"}</h3>
                { match bucket {
                    None => html! { <p class="hint">{"This limiter has no bucket: keys only slow themselves down."}</p> },
                    Some((tokens, burst, qps, name)) => bucket_gauge(tokens, burst, qps, name),
                } }
            </div>
        </section>
    }
}

fn bucket_gauge(tokens: f64, burst: i64, qps: f64, name: &str) -> Html {
    let burst_f = (burst as f64).max(1.0);
    let level = (tokens.max(0.0) / burst_f * 100.0).min(100.0);
    let debt = (-tokens).max(0.0);
    let debt_h = (debt / burst_f * 100.0).min(100.0);
    let next_token = if debt > 0.0 && qps > 0.0 {
        format!(
            "a new reservation waits {}",
            format::dur(((debt + 1.0) / qps * 1e9) as Nanos)
        )
    } else {
        String::new()
    };
    html! {
        <div class="gauge" role="meter" aria-label={name.to_string()} aria-valuemin="0" aria-valuemax={burst.to_string()} aria-valuenow={format!("{tokens:.2}")}>
            <div class="tanks">
                <div class="tank">
                    <div class="fill" style={format!("height:{level:.1}%")}></div>
                </div>
                <div class="debt-tank" aria-hidden="true" title="debt below zero (up to one burst)">
                    <div class="debt" style={format!("height:{debt_h:.1}%")}></div>
                </div>
            </div>
            <div class="gauge-text">
                <p class="big" data-testid="tokens">{ format!("{tokens:.2}") }<small>{ format!(" / {burst} tokens") }</small></p>
                <p>{ format!("{name}: refills {qps}/s") }</p>
                { if debt > 0.0 { html! { <p class="debt-text">{ format!("in debt by {debt:.2}: {next_token}") }</p> } } else { html! {} } }
            </div>
        </div>
    }
}

fn worker(state: &PlaygroundContext, sim: &Simulation, i: usize, w: &WorkerState) -> Html {
    let now = sim.now();
    match w {
        WorkerState::Idle => html! {
            <div class="worker idle"><span class="worker-name">{ format!("worker {i}") }</span><span class="hint">{"idle: Get() blocks"}</span></div>
        },
        WorkerState::Reconciling {
            item,
            started,
            until,
        } => {
            let total = (*until - *started).max(1) as f64;
            let pct = (((now - *started) as f64 / total) * 100.0).clamp(0.0, 100.0);
            html! {
                <div class="worker busy">
                    <span class="worker-name">{ format!("worker {i}") }</span>
                    { chip(state, sim, *item, "processing", html! {}) }
                    <div class="progress" role="progressbar" aria-label="reconcile progress" aria-valuenow={format!("{pct:.0}")} aria-valuemin="0" aria-valuemax="100">
                        <div style={format!("width:{pct:.1}%")}></div>
                    </div>
                    <span class="hint">{ format!("Reconcile ends at {}", format::dur(*until)) }</span>
                </div>
            }
        }
        WorkerState::AwaitingDecision { item, .. } => {
            let key = sim.key(*item).to_string();
            html! {
                <div class="worker deciding">
                    <span class="worker-name">{ format!("worker {i}") }</span>
                    { chip(state, sim, *item, "processing", html! {}) }
                    <Decision key_name={key} />
                </div>
            }
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct DecisionProps {
    pub key_name: String,
}

/// The six results a reconcile can return, for the user to pick.
#[function_component(Decision)]
pub fn decision(props: &DecisionProps) -> Html {
    let state = use_playground();
    let after = use_state(|| "30s".to_string());
    let parsed = parse_go_duration(&after);
    let choose = |outcome: Option<Outcome>| {
        let d = state.dispatcher();
        let key = props.key_name.clone();
        Callback::from(move |_| {
            if let Some(outcome) = outcome {
                d.dispatch(Action::Input(Input::Decide {
                    key: key.clone(),
                    outcome,
                }));
            }
        })
    };
    let after_ns = parsed.as_ref().ok().copied();
    let options: [(&str, &str, Option<Outcome>); 6] = [
        ("Success", "success", Some(Outcome::Success)),
        ("Requeue", "requeue", Some(Outcome::Requeue)),
        (
            "RequeueAfter",
            "requeue-after",
            after_ns.map(|a| Outcome::RequeueAfter { after_ns: a }),
        ),
        ("Error", "error", Some(Outcome::Error)),
        ("Terminal error", "terminal", Some(Outcome::TerminalError)),
        (
            "Error + RequeueAfter",
            "error-after",
            after_ns.map(|a| Outcome::ErrorWithRequeueAfter { after_ns: a }),
        ),
    ];
    let on_after = {
        let after = after.clone();
        Callback::from(move |e: InputEvent| after.set(event_value(&e)))
    };
    html! {
        <div class="decision" role="group" aria-label={format!("Result of Reconcile({})", props.key_name)}>
            <p class="decision-title">{"Reconcile returned…"}</p>
            <div class="decision-buttons">
                { for options.iter().map(|(label, id, outcome)| html! {
                    <button class={classes!("outcome", *id)} data-testid={format!("outcome-{id}")}
                        title={outcome.map(|o| o.go_return()).unwrap_or_else(|| "fix the duration first".into())}
                        disabled={outcome.is_none()} onclick={choose(*outcome)}>{ *label }</button>
                }) }
            </div>
            <label class="after">{"RequeueAfter "}
                <input type="text" class="num" value={(*after).clone()} oninput={on_after} aria-label="RequeueAfter duration" data-testid="after" />
            </label>
            { if let Err(e) = &parsed { html! { <small class="error">{ e.to_string() }</small> } } else { html! {} } }
        </div>
    }
}
