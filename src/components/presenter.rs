//! The presenter's window: what the trainer reads while the room watches
//! the projector — the step's speaker notes, the answer the room is about
//! to predict, the next step's title, a clock since the workshop began,
//! and a button that opens the audience window. (The clicker controls and
//! the small live stage are the lesson panel and the stage beside it.) It
//! takes its props ([`PresenterProps::of`]) and reads no context.

use yew::prelude::*;

use crate::lesson_state::ReadLesson;
use crate::lesson_state::{LessonState, Press, PressFrom};
use crate::state::Playground;
use crate::store::controls::LessonCalls;

/// The presenter's clock ticks once a second.
const CLOCK_TICK_MS: u32 = 1000;
/// When the workshop began (ms since the epoch), kept in the tab's session
/// storage so a reload of the presenter's window keeps the clock running.
const BEGAN_KEY: &str = "workqueue-playground.workshop-began";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// When the workshop began: as this tab kept it, else now (and kept).
fn began() -> f64 {
    let kept = storage()
        .and_then(|s| s.get_item(BEGAN_KEY).ok().flatten())
        .and_then(|v| v.parse::<f64>().ok());
    kept.unwrap_or_else(begin_now)
}

fn begin_now() -> f64 {
    let now = js_sys::Date::now();
    if let Some(s) = storage() {
        let _ = s.set_item(BEGAN_KEY, &now.to_string());
    }
    now
}

/// Opens the projector's window of this workshop: the same path, in the
/// audience role of the same room. Called from a click, so no pop-up
/// blocker stops it.
pub fn open_audience_window() {
    let Some(w) = web_sys::window() else { return };
    let location = w.location();
    let search = location.search().unwrap_or_default();
    let room = crate::open::room_of(&search).unwrap_or_else(|| "1".into());
    let path = location.pathname().unwrap_or_default();
    // A new name each time: a second click opens a second projector's window.
    let name = format!("workqueue-audience-{}", js_sys::Date::now() as u64);
    let _ = w.open_with_url_and_target_and_features(
        &format!("{path}?audience={room}"),
        &name,
        "popup,width=1024,height=768",
    );
}

/// The open lesson as the presenter's notes show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Presented {
    pub at: LessonState,
    pub lesson: ReadLesson,
    /// After its last step: the next lesson's title, if the course has one.
    pub next_lesson: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct PresenterProps {
    /// A lesson is open (its notes show once it has been read).
    pub open: bool,
    pub presented: Option<Presented>,
    /// What the clicker's next press does, as the clock goes on.
    pub press: PressFrom,
    /// The clicker's presses (Next and Back).
    pub calls: LessonCalls,
}

impl PresenterProps {
    pub fn of(state: &Playground, calls: LessonCalls) -> PresenterProps {
        let presented = state.lessons.current.as_ref().and_then(|l| {
            let lesson = state.lessons.library.get(l.index)?;
            let next_lesson = match lesson.steps.get(l.step + 1) {
                Some(_) => None,
                None => state.next_lesson(l.index).and_then(|i| {
                    state
                        .lessons
                        .library
                        .entries()
                        .get(i)
                        .map(|e| e.title.clone())
                }),
            };
            Some(Presented {
                at: l.clone(),
                lesson: ReadLesson(lesson),
                next_lesson,
            })
        });
        PresenterProps {
            open: state.lessons.current.is_some(),
            presented,
            press: state.press_from(crate::hooks::now_ms()),
            calls,
        }
    }
}

#[function_component(PresenterPanel)]
pub fn presenter_panel(props: &PresenterProps) -> Html {
    // Real time since this window opened the workshop (reset by a click).
    let started = use_state(began);
    let now = use_state(js_sys::Date::now);
    {
        let now = now.clone();
        use_effect_with((), move |_| {
            let timer = gloo_timers::callback::Interval::new(CLOCK_TICK_MS, move || {
                now.set(js_sys::Date::now())
            });
            move || drop(timer)
        });
    }
    let elapsed = ((*now - *started).max(0.0) / 1000.0) as u64;
    let reset = {
        let (started, now) = (started.clone(), now.clone());
        Callback::from(move |_| {
            started.set(begin_now());
            now.set(js_sys::Date::now());
        })
    };
    let open = Callback::from(|e: MouseEvent| {
        open_audience_window();
        // The button gives the keyboard back: space plays, never opens
        // another window.
        if let Some(b) = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
        {
            let _ = b.blur();
        }
    });
    // The clicker's two presses, always in view at the top of the notes.
    let next = props
        .calls
        .next
        .reform(|_: MouseEvent| crate::hooks::now_ms());
    let back = props.calls.back.reform(|_: MouseEvent| ());
    // (The clock re-renders this each second: a dwell ends by itself.)
    let press = props.press.at(crate::hooks::now_ms());
    let next_label = match press {
        Press::Page => "Read on ↓",
        Press::Asked => "Predict…",
        Press::Revealed => "Reveal",
        Press::Played => "▶ Play the step",
        Press::Decided => "Choose the result",
        Press::Skipped => "Skip to the end of the scene »",
        Press::Dwelling => "Moving on…",
        // (Named as the lesson panel names it, so both windows agree.)
        Press::Moved
            if props
                .presented
                .as_ref()
                .is_some_and(|p| p.next_lesson.is_some()) =>
        {
            "Next lesson →"
        }
        Press::Moved => "Next →",
        Press::AtEnd => "The end",
    };
    let body = match &props.presented {
        None => html! {
            <p class="hint">{"Open a lesson (Lessons…, or a link with ?lesson=) to see its notes here. The audience window shows the stage and the narration only."}</p>
        },
        Some(Presented {
            at: ls,
            lesson,
            next_lesson,
        }) => {
            let step = lesson.steps.get(ls.step);
            let next = match lesson.steps.get(ls.step + 1) {
                Some(s) => format!("Step {}: {}", ls.step + 2, s.title),
                None => match next_lesson {
                    Some(title) => format!("Next lesson: {title}"),
                    None => "The end of the course".to_string(),
                },
            };
            let notes = step.map(|s| s.notes.clone()).unwrap_or_default();
            let answer = step.and_then(|s| s.question.as_ref()).map(|q| {
                let unit = if q.unit.is_empty() { String::new() } else { format!(" {}", q.unit) };
                let said = ls.guess().cloned();
                html! {
                    <div class="presenter-answer" data-testid="presenter-answer">
                        <p class="ask">{ q.ask.clone() }</p>
                        <p><span class="label">{"Answer"}</span>{" "}<strong class="mono">{ format!("{}{unit}", q.answer) }</strong></p>
                        // A step revealed once stays revealed (back to it,
                        // or after a reload): its guess is kept, even an
                        // empty one, though this visit has not revealed it.
                        { match (said, ls.visit.revealed_at) {
                            (Some(g), _) if !g.is_empty() => html! { <p class="hint">{ format!("The room said: {g}") }</p> },
                            (Some(_), _) | (None, Some(_)) => html! { <p class="hint">{"Revealed without a guess."}</p> },
                            (None, None) => html! { <p class="hint">{"Not revealed yet: the audience does not see it."}</p> },
                        } }
                    </div>
                }
            });
            html! {
                <>
                    <p class="presenter-where" data-testid="presenter-where">
                        { format!("{} · step {} of {}", lesson.title, ls.step + 1, lesson.steps.len()) }
                    </p>
                    <h2 class="presenter-step">{ step.map(|s| s.title.clone()).unwrap_or_default() }</h2>
                    { answer.unwrap_or_default() }
                    <h3>{"Notes"}</h3>
                    { if notes.is_empty() {
                        html! { <p class="hint" data-testid="presenter-notes">{"No notes for this step."}</p> }
                    } else {
                        html! { <div class="presenter-notes lesson-text" data-testid="presenter-notes">{ Html::from_html_unchecked(AttrValue::from(notes)) }</div> }
                    } }
                    <p class="presenter-next" data-testid="presenter-next"><span class="label">{"Next"}</span>{" "}{ next }</p>
                </>
            }
        }
    };
    html! {
        <section class="panel presenter" aria-label="Presenter's notes" data-testid="presenter">
            <div class="presenter-bar">
                <span class="presenter-clock mono" data-testid="presenter-clock" title="Time since the workshop began">
                    { format!("{}:{:02}", elapsed / 60, elapsed % 60) }
                </span>
                <button class="small" onclick={reset}>{"Reset clock"}</button>
                <button class="primary" onclick={open} data-testid="open-audience">{"Open audience window"}</button>
            </div>
            { if props.open { html! {
                <div class="presenter-clicker">
                    <button onclick={back} data-testid="presenter-back">{"← Back"}</button>
                    <button class="primary" onclick={next} disabled={press == Press::AtEnd} data-testid="presenter-next-press" data-press={press.id()}>{ next_label }</button>
                </div>
            } } else { html! {} } }
            { body }
        </section>
    }
}
