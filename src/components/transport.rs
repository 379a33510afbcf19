//! Time: play/pause, step, speed on a log scale, and the timeline.

use yew::prelude::*;

use super::event_value;
use workqueue_core::Instant;

use crate::format;
use crate::pacing::{Cue, MAX_SPEED, MIN_SPEED};
use crate::state::Playground;
use crate::store::controls::TransportCalls;

/// Transport icons as inline SVG: no icon font to fetch, same look everywhere.
fn icon(path: &'static str) -> Html {
    html! { <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d={path} fill="currentColor"/></svg> }
}
const PLAY: &str = "M7 4.5v15l13-7.5z";
const PAUSE: &str = "M6 4h4.5v16H6zM13.5 4H18v16h-4.5z";
const STEP: &str = "M5 4.5v15l10-7.5zM16 4.5h3v15h-3z";
const BACK: &str = "M19 4.5v15L9 12zM5 4.5h3v15H5z";

/// What the time controls show: a few numbers of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct TransportView {
    pub now: Instant,
    pub horizon: Instant,
    pub speed: f64,
    pub playing: bool,
    /// Nothing to step back to: the run's start, or the lesson step's.
    pub at_start: bool,
    pub pacing: bool,
    /// How fast time runs right now, when pacing changed it: the badge's
    /// class and words.
    pub cue: (&'static str, String),
}

impl TransportView {
    pub fn of(state: &Playground) -> TransportView {
        TransportView {
            now: state.now(),
            horizon: state.horizon(),
            speed: state.run.playback.speed,
            playing: state.run.playback.playing,
            at_start: state.now()
                <= state
                    .lessons
                    .current
                    .as_ref()
                    .map_or(Instant::T0, |l| l.visit.start),
            pacing: state.run.playback.pacing.on,
            cue: pace_cue(state),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct TransportProps {
    pub view: TransportView,
    pub calls: TransportCalls,
}

#[function_component(Transport)]
pub fn transport(props: &TransportProps) -> Html {
    let state = &props.view;
    let now = state.now;
    let calls = &props.calls;
    let on = |c: &Callback<()>| c.reform(|_: MouseEvent| ());
    let speed = state.speed;
    // The slider runs over log10(speed): -2 (1/100x) to 3 (1000x).
    let on_speed = calls.speed.reform(|e: InputEvent| {
        let v: f64 = event_value(&e).parse().unwrap_or(0.0);
        10f64.powf(v).clamp(MIN_SPEED, MAX_SPEED)
    });
    let horizon = state.horizon.max(now).max(Instant::from_nanos(1));
    let on_seek = calls.seek.reform(|e: InputEvent| {
        let v: f64 = event_value(&e).parse().unwrap_or(0.0);
        Instant::from_nanos(v as i64)
    });
    let faster = on(&calls.faster);
    let slower = on(&calls.slower);
    let speed_label = if speed >= 1.0 {
        format!("{speed:.0}×")
    } else {
        format!("{speed}×")
    };
    html! {
        <section class="transport" aria-label="Time controls">
            <div class="transport-buttons">
                <button class="icon" onclick={on(&calls.step_back)} disabled={state.at_start} aria-label="Step back to the previous event" title="Previous event (←)">{ icon(BACK) }</button>
                <button class="icon primary" data-testid="play" onclick={on(&calls.play_pause)}
                    aria-label={if state.playing { "Pause" } else { "Play" }} title="Play / pause (space)">
                    { icon(if state.playing { PAUSE } else { PLAY }) }
                </button>
                <button class="icon" data-testid="step" onclick={on(&calls.step)} aria-label="Step to the next event" title="Next event (→)">{ icon(STEP) }</button>
                <button class="ghost" onclick={on(&calls.restart)} aria-label="Restart the run" title="Start over with the same settings">{"Restart"}</button>
            </div>
            <div class="clock" aria-live="off" title="Virtual time: the scene's own clock">
                <span class="clock-label">{"virtual time"}</span>
                <output data-testid="clock" class="clock-value">{ format::clock(now) }</output>
                <span class={classes!("pace", state.cue.0)} data-testid="pace" title="Auto pace: virtual time slows down around events close together and speeds through stretches where nothing happens">{ state.cue.1.clone() }</span>
            </div>
            <div class="speed">
                <button class="icon small" onclick={slower} aria-label="Slower" title="Slower (−)">{"−"}</button>
                <input type="range" min="-2" max="3" step="0.01" value={speed.log10().to_string()}
                    oninput={on_speed} aria-label="Speed" aria-valuetext={speed_label.clone()} />
                <button class="icon small" onclick={faster} aria-label="Faster" title="Faster (+)">{"+"}</button>
                <output class="speed-value" data-testid="speed">{ speed_label }</output>
                <button class="ghost small" data-testid="pacing" onclick={on(&calls.pacing)}
                    aria-pressed={if state.pacing { "true" } else { "false" }}
                    title="Slow down around short waits and skip through empty stretches">{"Auto pace"}</button>
            </div>
            <div class="timeline">
                <input type="range" min="0" max={horizon.as_nanos().to_string()} step="1" value={now.as_nanos().to_string()}
                    oninput={on_seek} aria-label="Timeline: drag to rewind" data-scrub="" />
                <span class="timeline-end">{ format::clock(state.horizon) }</span>
            </div>
            <p class="shortcuts" aria-label="Keyboard shortcuts">
                <kbd>{"space"}</kbd>{" play/pause "}<kbd>{"→"}</kbd>{" next event "}<kbd>{"←"}</kbd>{" previous "}<kbd>{"+"}</kbd><kbd>{"−"}</kbd>{" speed "}<kbd>{"1"}</kbd>{"–"}<kbd>{"6"}</kbd>{" a reconcile's result "}<kbd>{"esc"}</kbd>{" deselect"}
            </p>
        </section>
    }
}

/// How fast virtual time runs right now, when pacing changed it. The badge's
/// line is always there (empty when time runs as chosen), so the page never
/// shifts when it comes and goes.
pub(crate) fn pace_cue(state: &Playground) -> (&'static str, String) {
    let rate = format::speed(state.run.playback.effective_speed);
    let (class, text) = match (
        state.run.playback.playing,
        state.run.playback.idle,
        state.run.playback.cue,
    ) {
        (true, false, _) if state.deciding() => ("idle", "held for your choice".to_string()),
        (false, _, _) | (true, false, Cue::Normal) => ("none", String::new()),
        (true, true, _) => ("idle", "waiting for your first key".to_string()),
        (true, false, Cue::SlowMotion) => ("slow", format!("slowed to {rate} near events")),
        (true, false, Cue::SkippingAhead) => ("skip", format!("{rate} through quiet time »")),
    };
    (class, text)
}
