//! A key on the stage: its chip in a lane (what it is, its failures, the
//! events merged into it), the countdown of a waiting key, and the arrival
//! highlight that lets the eye follow the selected key from lane to lane.
//! The chips are drawn from what the stage hands them ([`Chips`]), never
//! from the state.

use workqueue_core::{Duration, Input, Instant, StageView};
use workqueue_core::{KeyView, WaitingView, WorkerView};
use yew::prelude::*;

use super::breakable::{breakable, KEY};

use crate::format;

/// How long the selected key's arrival highlight lasts after it changes place (ms).
const ARRIVAL_MS: f64 = 600.0;

/// The lane (a chip's class) a key is drawn in on this view, if it is.
pub(super) fn lane_of(view: &StageView, key: &str) -> Option<&'static str> {
    let held = |w: &WorkerView| match w {
        WorkerView::Reconciling { key: k, .. } | WorkerView::Deciding { key: k, .. } => {
            k.key == key
        }
        WorkerView::Idle => false,
    };
    if view.queued.first.iter().any(|k| k.key == key) {
        Some("queued")
    } else if view.waiting.first.iter().any(|w| w.key.key == key) {
        Some("waiting")
    } else if view.workers.first.iter().any(held) {
        Some("processing")
    } else {
        None
    }
}

/// The lane the selected key arrived in just now, given where it is drawn
/// (`place`: the key and its lane): the eye follows one key by its arrival
/// highlight in each new lane. A new selection is not an arrival.
#[hook]
pub(super) fn use_arrival(place: Option<(String, &'static str)>) -> Option<&'static str> {
    // The key's last place and when it got there (real ms).
    let last = use_mut_ref(|| (String::new(), "", f64::NEG_INFINITY));
    let (key, lane) = place?;
    let now = crate::hooks::now_ms();
    let mut last = last.borrow_mut();
    if last.0 != key || last.1 != lane {
        let moved = last.0 == key;
        *last = (key, lane, if moved { now } else { f64::NEG_INFINITY });
    }
    (now - last.2 < ARRIVAL_MS).then_some(lane)
}

/// What every chip of one stage draws with: the selected key, the lane it
/// has just arrived in (see [`use_arrival`]), and where a click goes.
#[derive(Clone, Copy)]
pub(super) struct Chips<'a> {
    pub selected: Option<&'a str>,
    pub arrived: Option<&'static str>,
    /// A press shows why the key is there (the inspector is on the page);
    /// where it is not (an embed's lesson has the side), a chip is no button.
    pub pressable: bool,
    /// Select a key.
    pub on_select: &'a Callback<Option<String>>,
    /// A reconcile's result chosen on a worker's card.
    pub on_input: &'a Callback<Input>,
}

impl<'a> Chips<'a> {
    /// The chips of a stage: its selection, the key just arrived, and the
    /// page's callbacks.
    pub(super) fn new(
        selected: Option<&'a str>,
        arrived: Option<&'static str>,
        pressable: bool,
        controls: &'a crate::store::controls::Controls,
    ) -> Chips<'a> {
        Chips {
            selected,
            arrived,
            pressable,
            on_select: &controls.select,
            on_input: &controls.input,
        }
    }
}

/// A key's chip in lane `class`.
pub(super) fn chip(cx: Chips<'_>, k: &KeyView, class: &'static str, extra: Html) -> Html {
    let key = k.key.clone();
    let selected = cx.selected == Some(key.as_str());
    let arrived = selected && cx.arrived == Some(class);
    let onclick = {
        let (on_select, key) = (cx.on_select.clone(), key.clone());
        Callback::from(move |_| on_select.emit(Some(key.clone())))
    };
    // A key is text from a file or a link: shown with its control and bidi
    // characters escaped.
    let seen = workqueue_core::shown(&key).into_owned();
    // The name a screen reader gives the chip is its visible text (the key,
    // its badges and countdown: WCAG's label in name) and then what a
    // press does.
    let hint = if k.absorbed > 0 {
        format!(
            ", {} more events merged into it: select to see why it is here",
            k.absorbed
        )
    } else {
        ": select to see why it is here".to_string()
    };
    let low = k.priority.is_some_and(|p| p < 0);
    // Selected on the press itself: a travelling chip is caught where the
    // pointer went down, not where it has glided to by the release.
    let onpointerdown = {
        let (on_select, key) = (cx.on_select.clone(), key.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() == 0 {
                on_select.emit(Some(key.clone()))
            }
        })
    };
    let class = classes!(
        "chip",
        class,
        selected.then_some("selected"),
        k.dirty.then_some("dirty"),
        arrived.then_some("arrived"),
        low.then_some("low"),
        k.skipped.then_some("skipped")
    );
    let inside = html! {
        <>
            <span class="chip-key">{ breakable(&seen, KEY) }</span>
            { match k.priority {
                Some(p) if p != 0 => html! { <span class="prio" title="its priority: higher goes first; resyncs and the initial list are -100">{ format!("p{p}") }</span> },
                _ => html! {},
            } }
            { if k.skipped { html! { <span class="skip-badge" title="being reconciled: the hand-out skips this record until Done">{"skipped: in flight"}</span> } } else { html! {} } }
            { if k.paid { html! { <span class="badge" title="Crossplane: this key already paid for its next pass">{"paid"}</span> } } else { html! {} } }
            { if k.absorbed > 0 { html! {
                <span class="absorbed" data-testid="absorbed" title="watch events merged into this one queued copy (deduplicated)">{ format!("+{}", k.absorbed) }</span>
            } } else { html! {} } }
            { extra }
        </>
    };
    if !cx.pressable {
        return html! {
            <span key={key.clone()} {class} data-key={key.clone()} data-priority={k.priority.map(|p| p.to_string())}>{ inside }</span>
        };
    }
    html! {
        <button key={key.clone()} {onpointerdown} {class}
            {onclick} aria-pressed={selected.to_string()} data-key={key.clone()} data-priority={k.priority.map(|p| p.to_string())}>
            { inside }
            <span class="sr-only">{ hint }</span>
        </button>
    }
}

pub(super) fn more(n: usize) -> Html {
    if n == 0 {
        return html! {};
    }
    html! { <span class="more pile">{ format!("+{} more", format::count(n as u64)) }</span> }
}

pub(super) fn waiting_chip(cx: Chips<'_>, now: Instant, w: &WaitingView) -> Html {
    let left = w.fraction_left(now);
    let delay = Duration::from_nanos(
        (w.ready_at - w.from.wide()).clamp(0, Duration::MAX.as_nanos() as i128) as i64,
    );
    let title = if w.on_bucket {
        "waiting for a token from the bucket"
    } else {
        "waiting out its own backoff or RequeueAfter"
    };
    chip(
        cx,
        &w.key,
        "waiting",
        html! {
            <>
                <span class={classes!("ring", w.on_bucket.then_some("on-bucket"))} style={format!("--left:{left:.3}")} title={title}></span>
                // The delay the limiter (or the RequeueAfter) chose, then the time left.
                <span class="delay" title="the delay chosen when the key was parked" data-testid="delay">{ format::short(delay) }</span>
                <span class="countdown">{ format::until(w.ready_at, now) }</span>
                { if w.key.failures > 0 { html! { <span class="failures" title="NumRequeues: failures so far">{ format!("#{}", w.key.failures) }</span> } } else { html! {} } }
            </>
        },
    )
}
