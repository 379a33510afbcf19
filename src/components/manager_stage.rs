//! The stage of a manager: what the controllers share drawn once, across
//! the top (Crossplane's global bucket or a shared bucket, and the API
//! client), and one column per controller below (its queue, workers and
//! waiting keys, with its own backoff), all fed by the shared parts.

use workqueue_core::{format_go_duration, Instant, Manager, Simulation, StageView, SECOND};
use workqueue_core::{BucketOwner, BucketView};
use yew::prelude::*;

use super::chips::{chip, lane_of, more, use_arrival, waiting_chip, Chips};
use super::stage::bucket_gauge;
use super::use_playground;
use crate::format;
use crate::state::Action;

/// Keys drawn per lane in a controller's column.
const CHIPS: usize = 6;
/// Keys per lane of a column where the stage has a fixed height (a
/// projector, an embed): none, the lanes' counts keep every column on screen.
const FITTED_CHIPS: usize = 0;

/// The shared buckets, each drawn once, with who shares them.
/// `views` are the controllers' stage views, in order (each computed once a frame).
fn shared_parts(m: &Manager, views: &[StageView], focused: bool) -> Html {
    let s = m.scenario();
    let names: Vec<&str> = m.controllers().map(|(n, _)| n).collect();
    let by_all = format!("shared by {}", names.join(", "));
    let sharers: Vec<&str> = m
        .controllers()
        .filter(|(_, c)| c.spec().shares_bucket)
        .map(|(n, _)| n)
        .collect();
    let by_sharers = format!("passed to {}", sharers.join(", "));
    let (global, shared) = m.shared_levels();
    let on_bucket: usize = views
        .iter()
        .filter_map(|v| v.bucket.as_ref())
        .map(|b| b.waiting_on_bucket)
        .sum();
    let mut parts = Vec::new();
    if let (Some(tokens), Some(cp)) = (global, &s.crossplane) {
        let d = cp.derived();
        parts.push((
            "global",
            bucket_gauge(&BucketView {
                owner: BucketOwner::Crossplane,
                tokens,
                burst: d.global_burst,
                qps: d.global_qps,
                waiting_on_bucket: on_bucket,
            }),
        ));
    }
    if let (Some(tokens), Some(b)) = (shared, &s.shared_bucket) {
        parts.push((
            "shared",
            bucket_gauge(&BucketView {
                owner: BucketOwner::Shared,
                tokens,
                burst: b.burst,
                qps: b.qps,
                waiting_on_bucket: on_bucket,
            }),
        ));
    }
    let (requests, waited) = m.client_totals();
    let buckets = m.client_levels();
    let client_part = match (buckets.as_slice(), s.client_limit()) {
        // One bucket for every kind: drawn as the others are.
        ([(_, tokens)], Some(c)) => html! {
            <>
                { bucket_gauge(&BucketView { owner: BucketOwner::Client, tokens: *tokens, burst: c.burst, qps: c.qps, waiting_on_bucket: 0 }) }
                <p class="client-totals" data-testid="client-totals" title={format!("{} exactly", format_go_duration(waited))}>{ format!("{} requests, {} waited in all", format::count(requests), format::about(waited)) }</p>
            </>
        },
        // A bucket per kind: each kind's level, side by side.
        (many, Some(c)) if !many.is_empty() => html! {
            <>
                <ul class="client-kinds" data-testid="client-kinds">
                    { for many.iter().map(|(kinds, tokens)| {
                        let low = *tokens < 1.0;
                        html! {
                            <li class={classes!("client-kind", low.then_some("debt"))} data-testid="client-kind" data-kind={kinds.join(",")}>
                                <span class="kind">{ kinds.join(", ") }</span>
                                <meter min="0" max={c.burst.to_string()} value={tokens.max(0.0).to_string()}></meter>
                                <span class="level">{ format!("{:.1}/{}", tokens, c.burst) }</span>
                            </li>
                        }
                    }) }
                </ul>
                <p class="hint">{ format!("{} qps, burst {} for each kind's REST client", c.qps, c.burst) }</p>
                <p class="client-totals" data-testid="client-totals" title={format!("{} exactly", format_go_duration(waited))}>{ format!("{} requests, {} waited in all", format::count(requests), format::about(waited)) }</p>
            </>
        },
        _ => {
            html! { <p class="hint" data-testid="client-totals">{ format!("No client-side limit (controller-runtime v0.21 and later): {} requests went straight out.", format::count(requests)) }</p> }
        }
    };
    let client_by = match buckets.len() {
        0 | 1 => by_all.clone(),
        n => format!("{n} buckets, one per kind"),
    };
    html! {
        <div class={classes!("shared-row", focused.then_some("focus"))} data-lane="manager" data-testid="shared">
            { for parts.into_iter().map(|(id, gauge)| html! {
                <div class={classes!("lane", "shared-part", id)} data-testid={format!("shared-{id}")}>
                    <h3>{ if id == "global" { "Global bucket " } else { "Shared bucket " } }<small>{ if id == "global" { by_all.clone() } else { by_sharers.clone() } }</small></h3>
                    { gauge }
                </div>
            }) }
            <div class="lane shared-part client" data-testid="shared-client">
                <h3>{"API client "}<small>{ client_by }</small></h3>
                { client_part }
            </div>
        </div>
    }
}

/// All controllers together against the limit they share, and the end of
/// the run: a manager's run lasts its set duration.
fn totals(m: &Manager) -> Html {
    let now = m.now();
    let rate: Option<f64> = m
        .controllers()
        .map(|(_, c)| c.series().reconciles_per_second(now, SECOND))
        .sum();
    let s = m.scenario();
    let limit = match (&s.crossplane, &s.shared_bucket) {
        (Some(cp), _) => Some(("the global bucket", cp.derived().global_qps)),
        (None, Some(b)) => Some(("the shared bucket", b.qps)),
        _ => None,
    };
    let rate_text = match rate {
        Some(r) => format!(
            "All {} controllers: {r:.1} reconciles/s over the last second",
            m.len()
        ),
        None => format!("All {} controllers: no whole second yet", m.len()),
    };
    // The shared limit is named only while it holds keys back (keys that
    // succeed never ask it).
    let (global, shared) = m.shared_levels();
    let holding = match (&s.crossplane, &s.shared_bucket) {
        (Some(_), _) => global.is_some_and(|t| t < 1.0),
        (None, Some(_)) => shared.is_some_and(|t| t < 1.0),
        _ => false,
    };
    let against = limit
        .filter(|_| holding)
        .map(|(what, qps)| format!(", against the {qps}/s that {what} allows"));
    let ended = now >= Instant::T0 + s.duration_ns;
    html! {
        <div class="manager-totals">
            <p class="total-rate" data-testid="total-rate">{ rate_text }{ against.unwrap_or_default() }</p>
            { if ended { html! {
                <p class="run-ended" role="status" data-testid="run-ended">{ format!("The run ended at {}, the length it was set to. Restart plays it again.", format::clock(Instant::T0 + s.duration_ns)) }</p>
            } } else { html! {} } }
        </div>
    }
}

fn column(cx: Chips<'_>, name: &str, c: &Simulation, view: &StageView, fitted: bool) -> Html {
    let now = view.now;
    let reconciles = c.inner_reconciles();
    // Over the last second, as the headline counts (none before one has passed).
    let rate = c
        .series()
        .reconciles_per_second(now, SECOND)
        .map_or_else(|| "–/s".to_string(), |r| format!("{r:.1}/s"));
    let converged = match c.converged_at() {
        Some(t) => format!(" · converged at {}", format::clock(t)),
        None => " · not converged yet".into(),
    };
    if fitted {
        // A projector or an embed: each column in three short lines, so
        // every column stays on screen however the shared row grows.
        let converged = c
            .converged_at()
            .map(|t| format!(" · done {}", format::clock(t)))
            .unwrap_or_default();
        return html! {
            <div class="controller-column fitted" data-testid="controller" data-controller={name.to_string()}>
                <h3 class="controller-name">{ name.to_string() }</h3>
                <p class="controller-stats" data-testid="controller-stats">
                    { format!("{rate} · {}/{} busy{converged}", view.busy, view.workers_total) }
                </p>
                <p class="controller-counts">
                    <span class="count queue">{ format!("queue {}", format::count(view.queued_total as u64)) }</span>
                    <span class="count waiting">{ format!("waiting {}", format::count(view.waiting_total as u64)) }</span>
                </p>
            </div>
        };
    }
    html! {
        <div class="controller-column" data-testid="controller" data-controller={name.to_string()}>
            <h3 class="controller-name">{ name.to_string() }</h3>
            <p class="controller-stats" data-testid="controller-stats">
                { format!("{} reconciles ({rate}) · {} of {} workers busy{converged}", format::count(reconciles), view.busy, view.workers_total) }
            </p>
            <div class="lane queue mini">
                <h4>{ format!("Queue: {}", format::count(view.queued_total as u64)) }</h4>
                <div class="chips">
                    { for view.queued.iter().map(|k| chip(cx, k, "queued", html! {})) }
                    { more(view.queued_total.saturating_sub(view.queued.len())) }
                </div>
            </div>
            <div class="lane waiting mini">
                <h4>{ format!("Waiting: {}", format::count(view.waiting_total as u64)) }</h4>
                <div class="chips">
                    { for view.waiting.iter().map(|w| waiting_chip(cx, now, w)) }
                    { more(view.waiting_total.saturating_sub(view.waiting.len())) }
                </div>
            </div>
        </div>
    }
}

#[function_component(ManagerStage)]
pub fn manager_stage() -> Html {
    let context = use_playground();
    let state = context.read();
    if !state.is_manager() {
        return html! {};
    }
    let m = state.engine();
    // A lesson step about the manager: what its controllers share is the
    // part the stage keeps in full view.
    let focused = state
        .focus()
        .is_some_and(|f| f.lanes.contains(&crate::lessons::Lane::Manager));
    // A projector or an embed keeps every column on screen: counts only.
    let fitted = state.mode.workshop || state.mode.embed;
    let chips = if fitted { FITTED_CHIPS } else { CHIPS };
    let views: Vec<StageView> = m
        .controllers()
        .map(|(_, c)| c.stage_view(chips, 0))
        .collect();
    let arrived = use_arrival(state.selected.as_ref().and_then(|k| {
        let lane = views.iter().find_map(|v| lane_of(v, k))?;
        Some((k.clone(), lane))
    }));
    let dispatch = state.dispatcher();
    let cx = Chips {
        selected: state.selected.as_deref(),
        arrived,
        dispatch: &dispatch,
    };
    let exit = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::ExitManager))
    };
    html! {
        <section class="stage manager-stage" aria-label={format!("The stage: a manager with {} controllers and what they share", m.len())} data-stage="" data-manager="" data-now={state.now().as_nanos().to_string()}>
            // (A lesson's step leads the way back on a projector.)
            if !((state.mode.workshop || state.mode.embed) && state.lesson.is_some()) {
                <div class="manager-head">
                    <p class="hint">{"Several controllers in one process. What they share is drawn once, on top; each column is one controller with its own queue and backoff."}</p>
                    <button onclick={exit} data-testid="exit-manager">{"Back to one controller"}</button>
                </div>
                // Every controller on the other version: each keeps its
                // limiter, and one left unset takes that version's default.
                <super::stage::QueueSwitch ..super::stage::QueueSwitchProps::of(&state, state.dispatcher()) />
            }
            { totals(m) }
            { shared_parts(m, &views, focused) }
            <div class={classes!("controllers", focused.then_some("focus"))} data-lane="manager" style={format!("grid-template-columns: repeat({}, minmax(0, 1fr))", m.len().clamp(1, 3))}>
                { for m.controllers().zip(&views).map(|((name, c), view)| column(cx, name, c, view, fitted)) }
            </div>
        </section>
    }
}
