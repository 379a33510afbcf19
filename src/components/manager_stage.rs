//! The stage of a manager: what the controllers share drawn once, across
//! the top (Crossplane's global bucket or a shared bucket, and the API
//! client), and one column per controller below (its queue, workers and
//! waiting keys, with its own backoff), all fed by the shared parts. What
//! it draws is read from the run once, into [`ManagerStageProps`] (made by
//! [`ManagerStageProps::of`] where the stage is placed).

use workqueue_core::{format_go_duration, ClientRate, Duration, Instant, Manager, StageView};
use workqueue_core::{BucketOwner, BucketView, SECOND};
use yew::prelude::*;

use super::chips::{chip, lane_of, more, use_arrival, waiting_chip, Chips};
use super::queue_switch::{QueueSwitch, QueueSwitchProps};
use super::stage::bucket_gauge;
use crate::format;
use crate::state::Playground;
use crate::store::controls::Controls;

/// Keys drawn per lane in a controller's column.
const CHIPS: usize = 6;
/// Keys per lane of a column where the stage has a fixed height (a
/// projector, an embed): none, the lanes' counts keep every column on screen.
const FITTED_CHIPS: usize = 0;

/// What the controllers share, as the top row draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedView {
    /// Who shares the global bucket and the client: every controller.
    pub by_all: String,
    /// Who the shared limiter bucket is passed to.
    pub by_sharers: String,
    /// Crossplane's global bucket.
    pub global: Option<BucketView>,
    /// The bucket some controllers' limiters share.
    pub shared: Option<BucketView>,
    pub client: ClientView,
}

/// The API client every controller sends its requests through.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientView {
    /// API requests through the client, and the time they waited.
    pub requests: u64,
    pub waited: Duration,
    /// The client's buckets: the kinds each serves, and its level.
    pub levels: Vec<(Vec<String>, f64)>,
    pub limit: Option<ClientRate>,
}

impl SharedView {
    /// `views` are the controllers' stage views, in order (each computed once a frame).
    fn of(m: &Manager, views: &[&StageView]) -> SharedView {
        let s = m.scenario();
        let names: Vec<&str> = m.controllers().map(|(n, _)| n).collect();
        let sharers: Vec<&str> = m
            .controllers()
            .filter(|(_, c)| c.spec().shares_bucket)
            .map(|(n, _)| n)
            .collect();
        let (global, shared) = m.shared_levels();
        let on_bucket: usize = views
            .iter()
            .filter_map(|v| v.bucket.as_ref())
            .map(|b| b.waiting_on_bucket)
            .sum();
        let (requests, waited) = m.client_totals();
        SharedView {
            // Names are text from a file or a link: shown escaped.
            by_all: workqueue_core::shown(&format!("shared by {}", names.join(", "))).into_owned(),
            by_sharers: workqueue_core::shown(&format!("passed to {}", sharers.join(", ")))
                .into_owned(),
            global: global.zip(s.crossplane.as_ref()).map(|(tokens, cp)| {
                let d = cp.derived();
                BucketView {
                    owner: BucketOwner::Crossplane,
                    tokens,
                    burst: d.global_burst,
                    qps: d.global_qps,
                    waiting_on_bucket: on_bucket,
                }
            }),
            shared: shared
                .zip(s.shared_bucket.as_ref())
                .map(|(tokens, b)| BucketView {
                    owner: BucketOwner::Shared,
                    tokens,
                    burst: b.burst.get(),
                    qps: b.qps.get(),
                    waiting_on_bucket: on_bucket,
                }),
            client: ClientView {
                requests,
                waited,
                levels: m
                    .client_levels()
                    .into_iter()
                    .map(|(kinds, tokens)| (kinds.to_vec(), tokens))
                    .collect(),
                limit: s.client_limit(),
            },
        }
    }
}

/// The API client's buckets (one for all kinds, or one per kind) and what
/// went through them.
fn client_part(c: &ClientView) -> Html {
    let ClientView {
        requests,
        waited,
        levels,
        limit,
    } = c;
    let (requests, waited) = (*requests, *waited);
    match (levels.as_slice(), *limit) {
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
                                <span class="kind">{ workqueue_core::shown(&kinds.join(", ")).into_owned() }</span>
                                <meter min="0" max={c.burst.to_string()} value={tokens.max(0.0).to_string()}></meter>
                                <span class="level">{ format!("{:.1}/{}", tokens, c.burst) }</span>
                            </li>
                        }
                    }) }
                </ul>
                <p class="hint">{ format!("{} qps, burst {} for each kind's REST client; below zero, the level counts the requests that have each reserved a token and wait for its refill", c.qps, c.burst) }</p>
                <p class="client-totals" data-testid="client-totals" title={format!("{} exactly", format_go_duration(waited))}>{ format!("{} requests, {} waited in all", format::count(requests), format::about(waited)) }</p>
            </>
        },
        _ => {
            html! { <p class="hint" data-testid="client-totals">{ format!("No client-side limit (controller-runtime v0.21 and later): {} requests went straight out.", format::count(requests)) }</p> }
        }
    }
}

/// The shared buckets, each drawn once, with who shares them.
fn shared_parts(s: &SharedView, focused: bool) -> Html {
    let SharedView {
        by_all, by_sharers, ..
    } = s;
    let mut parts = Vec::new();
    if let Some(b) = &s.global {
        parts.push(("global", bucket_gauge(b)));
    }
    if let Some(b) = &s.shared {
        parts.push(("shared", bucket_gauge(b)));
    }
    let client_by = match s.client.levels.len() {
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
                { client_part(&s.client) }
            </div>
        </div>
    }
}

/// The seconds the manager's total rate is taken over: long enough that
/// whole reconciles average to a steady rate's figure.
const RATE_WINDOW_S: i64 = 4;

/// All controllers together against the limit they share, and the end of
/// the run: a manager's run lasts its set duration.
#[derive(Clone, Debug, PartialEq)]
pub struct TotalsView {
    pub controllers: usize,
    /// Every controller's reconciles per second over the last
    /// [`RATE_WINDOW_S`] seconds (or the whole seconds passed, if fewer),
    /// summed, and that many seconds (none before one has passed).
    pub rate: Option<(f64, i64)>,
    /// The shared limit (what it is, its rate), while it holds keys back.
    pub against: Option<(&'static str, f64)>,
    /// The shared limit whether or not it holds keys back: the words the
    /// line keeps room for.
    pub limit: Option<(&'static str, f64)>,
    /// The run's set end, and whether the run is there.
    pub end: Instant,
    pub ended: bool,
}

impl TotalsView {
    fn of(m: &Manager) -> TotalsView {
        let now = m.now();
        // (None before a whole second has passed: a rate over a part of one
        // would read as reconciles a second that never happened.) Over
        // several seconds, not one: reconciles come whole, so one second
        // holds 2 or 3 of a steady 2.5 a second, and the line flickered
        // between 6 and 9 where three such controllers make 7.5.
        let seconds = (now.since_t0() / SECOND).min(RATE_WINDOW_S);
        let rate: Option<(f64, i64)> = (seconds >= 1)
            .then(|| {
                m.controllers()
                    .map(|(_, c)| c.series().reconciles_per_second(now, seconds * SECOND))
                    .sum::<Option<f64>>()
                    .map(|r| (r, seconds))
            })
            .flatten();
        let s = m.scenario();
        let limit = match (&s.crossplane, &s.shared_bucket) {
            (Some(cp), _) => Some(("the global bucket", cp.derived().global_qps)),
            (None, Some(b)) => Some(("the shared bucket", b.qps.get())),
            _ => None,
        };
        // The shared limit is named only while it holds keys back (keys that
        // succeed never ask it).
        let (global, shared) = m.shared_levels();
        let holding = match (&s.crossplane, &s.shared_bucket) {
            (Some(_), _) => global.is_some_and(|t| t < 1.0),
            (None, Some(_)) => shared.is_some_and(|t| t < 1.0),
            _ => false,
        };
        let end = Instant::T0 + s.duration_ns.get();
        TotalsView {
            controllers: m.len(),
            rate,
            against: limit.filter(|_| holding),
            limit,
            end,
            ended: now >= end,
        }
    }
}

fn totals(t: &TotalsView) -> Html {
    let TotalsView {
        controllers,
        rate,
        end,
        ended,
        ..
    } = *t;
    let rate_text = match rate {
        Some((r, 1)) => {
            format!("All {controllers} controllers: {r:.1} reconciles/s over the last second")
        }
        Some((r, n)) => {
            format!("All {controllers} controllers: {r:.1} reconciles/s over the last {n} seconds")
        }
        None => format!("All {controllers} controllers: no whole second yet"),
    };
    let words = |(what, qps): (&str, f64)| format!(", against the {qps}/s that {what} allows");
    let against = t.against.map(words);
    let room_for = t.limit.map(words);
    html! {
        <div class="manager-totals">
            // (Stacked with the longest it says, so the lines below stay put
            // on a projector when the first second has passed.)
            { super::stack::stacked(0, vec![
                html! { <p class="total-rate" data-testid="total-rate">{ rate_text }{ against.clone().unwrap_or_default() }</p> },
                html! { <p class="total-rate">{ format!("All {controllers} controllers: 0000.0 reconciles/s over the last {RATE_WINDOW_S} seconds") }{ room_for.unwrap_or_default() }</p> },
            ]) }
            { if ended { html! {
                <p class="run-ended" role="status" data-testid="run-ended">{ format!("The run ended at {}, the length it was set to. Restart plays it again.", format::clock(end)) }</p>
            } } else { html! {} } }
        </div>
    }
}

/// One controller's column: its stage view and its figures.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnView {
    pub name: String,
    pub view: StageView,
    /// Reconciles so far.
    pub reconciles: u64,
    /// Over the last second, as the headline counts (none before one has passed).
    pub rate: Option<f64>,
    pub converged_at: Option<Instant>,
}

fn column(cx: Chips<'_>, col: &ColumnView, fitted: bool) -> Html {
    let ColumnView {
        name,
        view,
        reconciles,
        ..
    } = col;
    let now = view.now;
    let rate = col
        .rate
        .map_or_else(|| "–/s".to_string(), |r| format!("{r:.1}/s"));
    let converged = match col.converged_at {
        Some(t) => format!(" · converged at {}", format::clock(t)),
        None => " · not converged yet".into(),
    };
    if fitted {
        // A projector or an embed: each column in three short lines, so
        // every column stays on screen however the shared row grows.
        let converged = col
            .converged_at
            .map(|t| format!(" · done {}", format::clock(t)))
            .unwrap_or_default();
        return html! {
            <div class="controller-column fitted" data-testid="controller" data-controller={name.to_string()}>
                <h3 class="controller-name">{ workqueue_core::shown(name).into_owned() }</h3>
                <p class="controller-stats" data-testid="controller-stats">
                    { format!("{rate} · {}/{} busy{converged}", view.busy, view.workers.total) }
                </p>
                <p class="controller-counts">
                    <span class="count queue">{ format!("queue {}", format::count(view.queued.total as u64)) }</span>
                    <span class="count waiting">{ format!("waiting {}", format::count(view.waiting.total as u64)) }</span>
                </p>
            </div>
        };
    }
    html! {
        <div class="controller-column" data-testid="controller" data-controller={name.to_string()}>
            <h3 class="controller-name">{ workqueue_core::shown(name).into_owned() }</h3>
            <p class="controller-stats" data-testid="controller-stats">
                { format!("{} reconciles ({rate}) · {} of {} workers busy{converged}", format::count(*reconciles), view.busy, view.workers.total) }
            </p>
            <div class="lane queue mini">
                <h4>{ format!("Queue: {}", format::count(view.queued.total as u64)) }</h4>
                <div class="chips">
                    { for view.queued.first.iter().map(|k| chip(cx, k, "queued", html! {})) }
                    { more(view.queued.rest()) }
                </div>
            </div>
            <div class="lane waiting mini">
                <h4>{ format!("Waiting: {}", format::count(view.waiting.total as u64)) }</h4>
                <div class="chips">
                    { for view.waiting.first.iter().map(|w| waiting_chip(cx, now, w)) }
                    { more(view.waiting.rest()) }
                </div>
            </div>
        </div>
    }
}

/// A manager's run at one instant: each controller's column, what they
/// share and their totals.
#[derive(Clone, Debug, PartialEq)]
pub struct ManagerView {
    /// The run's clock (`data-now`).
    pub now: Instant,
    pub columns: Vec<ColumnView>,
    pub shared: SharedView,
    pub totals: TotalsView,
}

impl ManagerView {
    /// `m` at its instant, with at most `chips` keys per lane of a column.
    fn of(m: &Manager, chips: usize) -> ManagerView {
        let columns: Vec<ColumnView> = m
            .controllers()
            .map(|(name, c)| {
                let view = c.stage_view(m.buckets(), chips, 0);
                ColumnView {
                    name: name.to_string(),
                    reconciles: c.inner_reconciles(),
                    rate: c.series().reconciles_per_second(view.now, SECOND),
                    converged_at: c.converged_at(),
                    view,
                }
            })
            .collect();
        let views: Vec<&StageView> = columns.iter().map(|c| &c.view).collect();
        ManagerView {
            now: m.now(),
            shared: SharedView::of(m, &views),
            totals: TotalsView::of(m),
            columns,
        }
    }
}

/// What a manager's stage draws: the run's view, and the few things of
/// the page around it.
#[derive(Properties, PartialEq)]
pub struct ManagerStageProps {
    pub view: ManagerView,
    /// A lesson step about the manager: what its controllers share is the
    /// part the stage keeps in full view.
    pub focused: bool,
    /// A projector or an embed keeps every column on screen: counts only.
    pub fitted: bool,
    /// The words on top, the way back and the version switch (not where a
    /// lesson's step leads the way back on a projector).
    pub head: Option<QueueSwitchProps>,
    pub selected: Option<String>,
    /// A chip press shows why its key is there (see `Playground::inspector_shown`).
    pub pressable: bool,
    /// What the stage's parts change.
    pub controls: Controls,
}

impl ManagerStageProps {
    /// What the stage shows of `state`, a manager's run.
    pub fn of(state: &Playground, controls: Controls) -> ManagerStageProps {
        let fitted = state.workshop.mode.workshop || state.workshop.mode.embed;
        let chips = if fitted { FITTED_CHIPS } else { CHIPS };
        ManagerStageProps {
            view: ManagerView::of(state.engine(), chips),
            focused: state
                .focus()
                .is_some_and(|f| f.lanes.contains(&workqueue_lessons::Lane::Manager)),
            fitted,
            head: (!(fitted && state.lessons.current.is_some()))
                .then(|| QueueSwitchProps::of(state, controls.switch_queue.clone())),
            selected: state.run.selected.clone(),
            pressable: state.inspector_shown(),
            controls,
        }
    }
}

#[function_component(ManagerStage)]
pub fn manager_stage(props: &ManagerStageProps) -> Html {
    let ManagerStageProps {
        view,
        focused,
        fitted,
        ..
    } = props;
    let columns = &view.columns;
    let (focused, fitted) = (*focused, *fitted);
    let arrived = use_arrival(props.selected.as_ref().and_then(|k| {
        let lane = columns.iter().find_map(|c| lane_of(&c.view, k))?;
        Some((k.clone(), lane))
    }));
    let cx = Chips::new(
        props.selected.as_deref(),
        arrived,
        props.pressable,
        &props.controls,
    );
    let exit = props.controls.exit_manager.reform(|_: MouseEvent| ());
    html! {
        <section class="stage manager-stage" aria-label={format!("The stage: a manager with {} controllers and what they share", columns.len())} data-stage="" data-manager="" data-now={view.now.as_nanos().to_string()}>
            // (A lesson's step leads the way back on a projector.)
            if let Some(switch) = &props.head {
                <div class="manager-head">
                    <p class="hint">{"Several controllers in one process. What they share is drawn once, on top; each column is one controller with its own queue and backoff."}</p>
                    <button onclick={exit} data-testid="exit-manager">{"Back to one controller"}</button>
                </div>
                // Every controller on the other version: each keeps its
                // limiter, and one left unset takes that version's default.
                <QueueSwitch ..switch.clone() />
            }
            { totals(&view.totals) }
            { shared_parts(&view.shared, focused) }
            <div class={classes!("controllers", focused.then_some("focus"))} data-lane="manager" style={format!("grid-template-columns: repeat({}, minmax(0, 1fr))", columns.len().clamp(1, 3))}>
                { for columns.iter().map(|col| column(cx, col, fitted)) }
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::TotalsView;
    use crate::state::{Action, LessonAction, Playground, RunAction};
    use workqueue_core::{Instant, SECOND};

    /// A step that asks for the manager's steady rate shows that rate on
    /// the line the reader checks the answer against, at every instant of
    /// the steady part (provider 3: three kinds of 2.5 a second each, 7.5).
    #[test]
    fn the_total_rate_line_reads_a_steady_rate_as_the_answer_says() {
        let mut p = Playground::from_url("?embed=1&lesson=provider&step=3", "");
        p.apply(Action::Lesson(LessonAction::Reveal(String::new(), 0.0)));
        let mut seen = Vec::new();
        for s in 10..30 {
            let at = Instant::T0 + s * SECOND;
            p.apply(Action::Run(RunAction::Seek(at)));
            let rate = TotalsView::of(p.engine()).rate.map(|(r, _)| r);
            seen.push(rate);
        }
        assert!(
            seen.iter()
                .all(|r| r.is_some_and(|r| (r - 7.5).abs() < 0.3)),
            "the line reads 7.5 a second throughout: {seen:?}"
        );
    }
}
