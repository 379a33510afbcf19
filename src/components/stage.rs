//! The stage: the whole machine as a pipeline. Watch events fly in from
//! the sources and land in the queue (new, merged into the queued copy, or
//! marking a key in flight dirty); workers reconcile; failed keys wait in
//! the heap with a shrinking ring; the token bucket drains and refills, its
//! debt drawn on its own scale. Everything drawn comes from the core's
//! [`StageView`], never from the queue's internals, handed down in
//! [`StageProps`] (made by [`StageProps::of`] where the stage is placed).

use workqueue_charts::bucket::level;
use workqueue_core::{BucketOwner, BucketView, Landing, SourceView, WorkerView};
use workqueue_core::{Duration, Instant, QueueKind, StageView};
use yew::prelude::*;

use super::chips::{chip, lane_of, more, use_arrival, waiting_chip, Chips};
use super::drain::{drain_hint, Drain};
use super::queue_switch::{QueueSwitch, QueueSwitchProps};
use super::workers::worker;
use crate::flights::Flight;
use crate::format;
use crate::lesson_state::TallyShown;
use crate::state::Playground;
use crate::store::controls::Controls;
use workqueue_lessons::{Focus, Lane};

/// Chips drawn per lane; past this the lane shows a count instead, which
/// keeps ten thousand keys smooth.
pub const MAX_CHIPS: usize = 12;
/// Chips per lane where the room reads from afar (workshop, embed).
pub const ROOM_CHIPS: usize = 4;
/// Chips per lane in an embed's frame (it shares a blog column's height
/// with the narration).
pub const FRAME_CHIPS: usize = 3;
/// Chips per lane in an embed on a phone, where the narration needs the
/// frame's height more than a third key does.
pub const PHONE_CHIPS: usize = 2;
/// Workers drawn; more are summed up.
pub const MAX_WORKERS: usize = 32;
/// Workers a projector or an embed draws as cards; the rest are a count
/// (a step about a key keeps three lanes drawn: a tall pool would push the
/// lanes below off a 768-line screen).
pub const ROOM_WORKERS: usize = 2;

/// What the stage draws: the core's view of the stage's controller at
/// this instant, and the few things of the page around it.
#[derive(Properties, PartialEq)]
pub struct StageProps {
    pub view: StageView,
    /// Rows the waiting lane keeps room for: as many chips as could come
    /// to it (keys still to come from a set-up being played count too, so
    /// the lanes take their final size from the first frame).
    pub rows: usize,
    pub selected: Option<String>,
    /// A chip press shows why its key is there (see `Playground::inspector_shown`).
    pub pressable: bool,
    pub spotlight: Spotlight,
    /// The run's clock (`data-now`).
    pub now: Instant,
    /// A full bucket that keys fail against without draining it.
    pub drain: Option<Drain>,
    pub switch: QueueSwitchProps,
    /// The count the step's question asks about.
    pub tally: Option<TallyShown>,
    /// A lesson is open (its steps keep the count's row).
    pub lesson: bool,
    /// What the stage's parts change.
    pub controls: Controls,
}

impl StageProps {
    /// What the stage shows of `state`.
    pub fn of(state: &Playground, controls: Controls) -> StageProps {
        // A projector or an embed shows a crowd as a few keys and a count.
        let chips = if state.workshop.mode.embed && crate::hooks::narrow() {
            PHONE_CHIPS
        } else if state.workshop.mode.embed {
            FRAME_CHIPS
        } else if state.workshop.mode.workshop {
            ROOM_CHIPS
        } else {
            MAX_CHIPS
        };
        // ...and a pool of workers as a few cards and a count: ten cards
        // would push the lanes below them off a projector (and, in a
        // lesson, the lane the step is about below the fold).
        let workers = if state.workshop.mode.embed && crate::hooks::narrow() {
            1
        } else if state.workshop.mode.embed
            || state.workshop.mode.workshop
            || state.workshop.mode.audience
            || state.lessons.current.is_some()
        {
            ROOM_WORKERS
        } else {
            MAX_WORKERS
        };
        // The key the step follows stays among the chips drawn.
        let followed = state.focus().and_then(|f| f.key);
        let view: StageView =
            state
                .sim()
                .stage_view_keeping(state.buckets(), chips, workers, followed.as_deref());
        let planned = usize::try_from(state.run.timeline.keys_planned()).unwrap_or(usize::MAX);
        StageProps {
            drain: view.bucket.as_ref().and_then(|b| Drain::of(state, b)),
            rows: chips.min(view.keys.max(planned)).max(1),
            view,
            selected: state.run.selected.clone(),
            pressable: state.inspector_shown(),
            spotlight: Spotlight {
                focus: state.focus(),
                room: state.workshop.mode.workshop && !state.workshop.mode.embed,
            },
            now: state.now(),
            switch: QueueSwitchProps::of(state, controls.switch_queue.clone()),
            tally: state.tally_shown(),
            lesson: state.lessons.current.is_some(),
            controls,
        }
    }
}

/// The question's count, in the stage's top row from the step's first
/// frame ("?" until the room has guessed), so nothing moves when it fills.
fn tally(t: &TallyShown) -> Html {
    let value = t.value.clone().unwrap_or_else(|| "?".to_string());
    let title = t
        .past
        .then_some("The count at the instant the question asks about (the run has gone on since)");
    html! {
        <p class={classes!("tally", t.past.then_some("past"))} data-testid="tally" {title} aria-live="polite">
            <span class="tally-label">{ format!("{}: ", t.label) }</span><strong data-testid="tally-value" style={format!("min-width: {}ch", t.width)}>{ value }</strong>
        </p>
    }
}

/// Where a lesson step points the room. Where space is short (a
/// projector, an embed), the step's focused lanes are drawn in full and the
/// others shrink to their one-line title.
#[derive(Clone, Debug, PartialEq)]
pub struct Spotlight {
    /// The lesson step's focus, where the stage gives way to it.
    pub focus: Option<Focus>,
    /// A projector (a workshop, not an embed).
    pub room: bool,
}

impl Spotlight {
    /// The classes of `lane` in `view`.
    fn classes(&self, lane: Lane, view: &StageView) -> Classes {
        let name = lane.id();
        match &self.focus {
            Some(f) if f.lanes.contains(&lane) => classes!("lane", name, "focus"),
            Some(_) if self.keeps(lane, view) => classes!("lane", name, "focus", "keyed"),
            Some(_) => classes!("lane", name, "dim"),
            None => classes!("lane", name),
        }
    }

    /// Whether `lane` stays drawn for the step's key. The lane that holds
    /// the key the text names is never reduced: it stays in sight wherever
    /// it goes. On a projector every lane it passes through (queue,
    /// workers, waiting) stays drawn for the whole step, so no lane opens
    /// or closes under the room's eyes as it moves (that pushed the lanes
    /// below up and down); an embed's frame has room for the one that
    /// holds it now.
    fn keeps(&self, lane: Lane, view: &StageView) -> bool {
        let Some(key) = self.focus.as_ref().and_then(|f| f.key.as_deref()) else {
            return false;
        };
        if self.room {
            return matches!(lane, Lane::Queue | Lane::Workers | Lane::Waiting);
        }
        let drawn = lane_of(view, key);
        match lane {
            Lane::Queue => drawn == Some("queued"),
            Lane::Waiting => drawn == Some("waiting"),
            Lane::Workers => drawn == Some("processing"),
            _ => false,
        }
    }
}

#[function_component(Stage)]
pub fn stage(props: &StageProps) -> Html {
    let StageProps {
        view, spotlight, ..
    } = props;
    let in_motion = view.queued.total + view.waiting.total + view.busy;
    crate::hooks::use_travel(in_motion <= crate::pacing::CROWD);
    let arrived = use_arrival(
        props
            .selected
            .as_ref()
            .and_then(|k| Some((k.clone(), lane_of(view, k)?))),
    );
    let cx = Chips::new(
        props.selected.as_deref(),
        arrived,
        props.pressable,
        &props.controls,
    );
    let now = view.now;
    let lane = |lane: Lane| spotlight.classes(lane, view);

    let sources: Html = view.sources.iter().map(|s| match s {
        SourceView::Watch { key, per_second, next } => html! { <li>{ format!("watch events on {key}: {per_second}/s, next {}", format::until(next.wide(), now)) }</li> },
        SourceView::Resync { period, next } => html! { <li>{ format!("resync every {}, next {}", format::dur(*period), format::until(next.wide(), now)) }</li> },
        SourceView::AddMany { prefix, count } => html! { <li>{ format!("{count} keys {prefix}…") }</li> },
    }).collect();
    let flights = use_mut_ref(crate::flights::Flights::default);
    let particles: Html = flights
        .borrow_mut()
        .update(&view.arrivals, crate::hooks::now_ms())
        .iter()
        .map(particle)
        .collect();
    // The decision the number keys answer: the selected key's, else the first.
    let deciding: Vec<&str> = view
        .workers
        .first
        .iter()
        .filter_map(|w| match w {
            WorkerView::Deciding { key, .. } => Some(key.key.as_str()),
            _ => None,
        })
        .collect();
    let primary = props
        .selected
        .as_deref()
        .filter(|s| deciding.contains(s))
        .or(deciding.first().copied())
        .map(str::to_string);

    let priority_queue = view.queue == QueueKind::Priority;
    let (queue_title, queue_hint, waiting_title, waiting_hint) = if priority_queue {
        (
            "Ready ",
            "Priority first (highest on the left), then FIFO. One record per key: ready or waiting, never both.",
            "Waiting ",
            "Records with a readyAt. An immediate add moves a key to Ready and cancels its wait.",
        )
    } else {
        (
            "Queue ",
            "FIFO, head on the left. A key is queued once, however often it is added.",
            "Waiting heap ",
            "AddAfter and AddRateLimited park keys here; each goes back to the queue at its readyAt.",
        )
    };
    html! {
        <section class="stage" id="stage" tabindex="-1" aria-label="The stage: sources, queue, workers, waiting heap and bucket" data-stage="" data-queue={if priority_queue { "priority" } else { "client_go" }} data-asks={view.asks.then_some("")} data-now={props.now.as_nanos().to_string()}>
            <div class="stage-top">
                <QueueSwitch ..props.switch.clone() />
                // (In a lesson the count's row is always there, empty where
                // the step counts nothing: a step entered by a kept press
                // moves no lane when its count comes or goes.)
                { match (&props.tally, props.lesson) {
                    (Some(t), _) => html! { <div class="tally-row">{ tally(t) }</div> },
                    (None, true) => html! { <div class="tally-row" aria-hidden="true"><p class="tally" style="visibility: hidden"><span class="tally-label">{"\u{a0}"}</span><strong>{"?"}</strong></p></div> },
                    (None, false) => html! {},
                } }
            </div>
            <div class={lane(Lane::Sources)} data-lane="sources" data-testid="sources">
                <h3>{"Sources"}</h3>
                <p class="stat"><strong data-testid="watch-total">{ format::count(view.watch_events_total) }</strong>{ if view.watch_events_total == 1 { " watch event so far" } else { " watch events so far" } }</p>
                <div class="stream" aria-hidden="true">{ particles }</div>
                <p class="legend" aria-hidden="true"><span class="key"><span class="dot queued"></span>{"queued"}</span>{" "}<span class="key"><span class="dot merged"></span>{"merged"}</span>{" "}<span class="key"><span class="dot dirty"></span>{"marks dirty"}</span></p>
                <ul class="plain">{ sources }</ul>
            </div>
            // The workers come first in the page's order (the grid places
            // them where they belong): a keyboard reaches a pending decision
            // in a few Tabs from the stage.
            <div class={lane(Lane::Workers)} data-lane="workers" data-testid="workers">
                <h3>{"Workers "}<small>{ format!("{} of {} busy", view.busy, view.workers.total) }</small></h3>
                <div class="worker-grid">
                    { for view.workers.first.iter().enumerate().map(|(i, w)| worker(cx, now, i, w, primary.as_deref(), view.asks)) }
                </div>
                { if view.workers.rest() > 0 { html! { <p class="more">{ format!("+{} more workers", view.workers.rest()) }</p> } } else { html! {} } }
            </div>
            <div class={lane(Lane::Queue)} data-lane="queue" data-testid="queue">
                <h3>{ queue_title }<small>{ format!("Len() = {}", format::count(view.queued.total as u64)) }</small></h3>
                <p class="hint">{ queue_hint }</p>
                <div class="chips">
                    { for view.queued.first.iter().map(|k| chip(cx, k, "queued", html! {})) }
                    { more(view.queued.rest()) }
                    { if view.queued.total == 0 { html! { <span class="empty">{"empty"}</span> } } else { html! {} } }
                </div>
                // (Kept, unseen, while no key is dirty: on a projector the
                // lanes below do not move when the note comes and goes.)
                <p class={classes!("dirty-note", (view.dirty_in_flight == 0).then_some("none"))} aria-hidden={(view.dirty_in_flight == 0).then_some("true")}>
                    { format!("{} dirty: re-added while being reconciled", view.dirty_in_flight) }<span class="more-words">{", not in the FIFO until Done"}</span></p>
            </div>
            <div class={lane(Lane::Waiting)} data-lane="waiting" data-testid="waiting" style={format!("--rows: {}", props.rows)}>
                <h3>{ waiting_title }<small>{ format::plural(view.waiting.total as u64, "key") }</small></h3>
                <p class="hint">{ waiting_hint }</p>
                <div class="chips">
                    // Each key in a slot of its own: on a projector and in an
                    // embed the slots place the keys by transform, so a key
                    // moving up a row as the one before it leaves glides
                    // there, and nothing around it is laid out anew.
                    { for view.waiting.first.iter().enumerate().map(|(i, w)| html! {
                        <div class="slot" key={w.key.key.clone()} style={format!("--i: {i}")}>{ waiting_chip(cx, now, w) }</div>
                    }) }
                    { more(view.waiting.rest()) }
                    { if view.waiting.total == 0 { html! { <span class="empty">{"nothing waiting"}</span> } } else { html! {} } }
                </div>
            </div>
            <div class={lane(Lane::Bucket)} data-lane="bucket" data-testid="bucket">
                { match (&view.bucket, &view.breaker) {
                    (Some(b), _) => html! { <><h3>{"Token bucket"}</h3>{ bucket_gauge(b) }{ drain_hint(props.drain.as_ref(), b, &props.controls.apply, &props.controls.input) }</> },
                    // Crossplane core since v2.1: no bucket, a breaker per XR.
                    (None, Some(b)) => html! { <><h3>{"XR circuit breaker"}</h3>{ super::breaker::breaker_panel(b, now) }</> },
                    (None, None) => html! { <><h3>{"Token bucket"}</h3><p class="hint">{"This limiter has no bucket: keys only slow themselves down."}</p></> },
                } }
            </div>
        </section>
    }
}

/// A watch event in flight from the sources to the queue, coloured by what
/// the queue did with it. It mounts once (keyed by its number) and plays its
/// flight; the legend under the stream names the colours.
fn particle(f: &Flight) -> Html {
    let class = match f.landing {
        Landing::Queued => "queued",
        Landing::Merged => "merged",
        Landing::MarkedDirty => "dirty",
        Landing::Dropped => "dropped",
    };
    html! {
        <span key={f.seq.to_string()} class={classes!("particle", class)} data-landing={class}
            style={format!("animation-delay:{:.0}ms", f.delay_ms)}></span>
    }
}

/// Height of the gauge's debt zone at its bottom: a hundred bursts of debt.
const DEBT_FLOOR_BURSTS: f64 = 100.0;

pub(super) fn bucket_gauge(b: &BucketView) -> Html {
    let burst = (b.burst as f64).max(1.0);
    let name = match b.owner {
        BucketOwner::Controller => "controller bucket",
        BucketOwner::Crossplane => "global bucket (Crossplane)",
        BucketOwner::Shared => "shared bucket",
        BucketOwner::Client => "API client",
    };
    // Tokens fill the top part linearly; debt fills the bottom part on a
    // logarithmic scale, so the burst line stays in view at any debt.
    let tokens_pct = (b.tokens.max(0.0) / burst * 100.0).min(100.0);
    let floor = -level(-DEBT_FLOOR_BURSTS * burst, burst);
    let debt_pct = (-level(-b.debt(), burst) / floor * 100.0).clamp(0.0, 100.0);
    let next = b.next_token_in().map(format::short);
    // The drip: the refill toward the next whole token, drawn in virtual
    // time, so it pauses with the run and slows with slow motion.
    let drip = b.refill_progress().map(|p| {
        html! { <span class="drip" aria-hidden="true" data-testid="drip" style={format!("--p:{p:.3}")}></span> }
    });
    let every =
        (b.qps > 0.0).then(|| format::short(Duration::from_nanos((1e9 / b.qps).round() as i64)));
    html! {
        <div class={classes!("gauge", (b.debt() > 0.0).then_some("in-debt"))} role="meter" aria-label={name} aria-valuemin={format!("-{}", b.burst * 100)} aria-valuemax={b.burst.to_string()} aria-valuenow={format!("{:.2}", b.tokens)} data-testid="bucket-gauge">
            <div class="tube" aria-hidden="true">
                { drip.unwrap_or_default() }
                <div class="tokens-zone"><div class="fill" style={format!("--f:{:.3}", tokens_pct / 100.0)}></div><span class="tick top">{ format::compact(b.burst as u64) }</span></div>
                <div class="zero"><span class="tick">{"0"}</span></div>
                <div class="debt-zone"><div class="debt" style={format!("height:{debt_pct:.1}%")}></div><span class="tick bottom">{ format!("-{}", format::compact(b.burst as u64 * 100)) }</span></div>
            </div>
            <div class="gauge-text">
                <p class="big" data-testid="tokens">{ format!("{:.1}", b.tokens) }<small>{ format!(" / {} tokens", b.burst) }</small></p>
                <p>{ format!("{name}: refills {}/s", b.qps) }</p>
                { match every {
                    Some(every) => {
                        let taken = b.debt() > 0.0 && b.waiting_on_bucket > 0;
                        let shown = if taken { 0 } else if b.tokens < b.burst as f64 { 1 } else { 2 };
                        super::stack::stacked(shown, vec![
                            html! { <p class="drip-text" data-testid={(shown == 0).then_some("drip-text")}>{ format!("+1 token every {every}, taken at once by the next waiting key") }</p> },
                            html! { <p class="drip-text">{ format!("+1 token every {every}") }</p> },
                            html! { <p></p> },
                        ])
                    }
                    None => html! {},
                } }
                {{
                    // The level's own figure, to the same tenth (a whole
                    // count rounded up read "-0.5 tokens, in debt by 1").
                    let debt = format!("{:.1}", b.debt());
                    let next_in = next.clone().unwrap_or_else(|| "-".into());
                    let shown = match &next { Some(_) if b.debt() > 0.0 => 0, Some(_) => 1, None => 2 };
                    super::stack::stacked(shown, vec![
                        html! { <p class="debt-text" data-testid={(shown == 0).then_some("debt")}>{ format!("in debt by {debt}") }<br/>{ format!("next free token in {next_in}") }</p> },
                        html! { <p>{ format!("next free token in {next_in}") }</p> },
                        html! { <p></p> },
                    ])
                }}
                { if b.owner == BucketOwner::Client { html! {} } else { html! {
                    <p data-testid="on-bucket">{ format!("{} waiting on the bucket", format::plural(b.waiting_on_bucket as u64, "key")) }</p>
                } } }
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stage renders again only when what it draws changed.
    #[test]
    fn the_props_are_equal_while_the_state_is() {
        let context = crate::store::PlaygroundContext::new(Playground::from_url("", ""));
        let state = context.read();
        let props = || StageProps::of(&state, context.controls());
        assert!(props() == props());
    }
}
