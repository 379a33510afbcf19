//! The lesson player: the step's text, what it waits for, a prediction to
//! make before the answer shows, and Back / Next. It takes its props
//! ([`LessonPanelProps::of`], made where it is placed) and reads no context.

use workqueue_core::Scenario;
use yew::prelude::*;

use super::event_value;
use super::paging::PageLayout;
use crate::hooks::now_ms;
use crate::lesson_state::{LessonState, Press};
use crate::lesson_state::{Opening, StepShown};
use crate::lesson_worker::LessonWorker;
use crate::lessons;
use crate::state::{Mode, Playground};
use crate::store::controls::LessonCalls;

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    pub mode: Mode,
    /// Bumped when the clicker opens the prediction: the field takes focus.
    pub focus_guess: u64,
    pub lesson: Option<LessonState>,
    /// A lesson on its way from the lesson worker.
    pub opening: Option<Opening>,
    /// The open step, unless a lesson being read keeps the panel's place.
    pub step: Option<StepShown>,
    pub playing: bool,
    /// A fresh run with nothing scheduled.
    pub idle: bool,
    /// What the panel's buttons and field ask.
    pub calls: LessonCalls,
    pub worker: LessonWorker,
    /// The run's scenario as it is when asked: a goal is checked on it at
    /// the click, never while rendering.
    pub scenario_now: Callback<(), Scenario>,
    /// The run's settings, where an exercise needs the form and the page
    /// does not show it (a workshop): only on a step with a goal.
    pub settings: Option<crate::settings::Settings>,
    /// In a trainer's course of several lessons: this lesson's place in it
    /// (1-based) and the course's length.
    pub course_at: Option<(usize, usize)>,
}

impl LessonPanelProps {
    pub fn of(
        state: &Playground,
        calls: LessonCalls,
        worker: LessonWorker,
        scenario_now: Callback<(), Scenario>,
    ) -> LessonPanelProps {
        let opening = state.lessons.pending.as_ref().map(Opening::of);
        let reading = opening.as_ref().is_some_and(Opening::reading);
        let exercise = state.lessons.current.as_ref().is_some_and(|l| {
            state
                .lessons
                .library
                .get(l.index)
                .is_some_and(|x| x.steps.get(l.step).is_some_and(|s| s.goal.is_some()))
        });
        let room = state.workshop.mode.room();
        let course_at = state
            .lessons
            .course
            .as_ref()
            .zip(state.lessons.current.as_ref())
            .and_then(|(course, l)| {
                let id = &state.lessons.library.get(l.index)?.id;
                let at = course.iter().position(|c| c == id)?;
                Some((at + 1, course.len()))
            })
            .filter(|(_, n)| *n > 1);
        LessonPanelProps {
            course_at,
            settings: (exercise && room).then(|| state.run.settings.clone()),
            mode: state.workshop.mode,
            focus_guess: state.lessons.focus_guess,
            step: (!reading).then(|| state.step_shown(now_ms())).flatten(),
            lesson: state.lessons.current.clone(),
            opening,
            playing: state.run.playback.playing,
            idle: state.run.playback.idle,
            calls,
            worker,
            scenario_now,
        }
    }
}

#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonPanelProps) -> Html {
    let worker = props.worker.clone();
    let guess_field = use_node_ref();
    // The step whose answer's "why" is open (a card over the panel, so
    // the narration's pages never change under the reader).
    let why_open = use_state_eq(|| None::<(usize, usize)>);
    let (answer_box, why_card) = (use_node_ref(), use_node_ref());
    {
        // Open, the card sits beside the answer it explains, never on it.
        let (answer_box, why_card) = (answer_box.clone(), why_card.clone());
        use_effect_with(*why_open, move |open| {
            if open.is_some() {
                if let (Some(card), Some(answer)) = (
                    why_card.cast::<web_sys::HtmlElement>(),
                    answer_box.cast::<web_sys::Element>(),
                ) {
                    crate::hooks::place_beside(&card, &answer);
                }
            }
        });
    }
    {
        // Playing, the reader watches the stage: the card closes, and the
        // answer's line it would cover is in view.
        let why_open = why_open.clone();
        use_effect_with(props.playing, move |playing| {
            if *playing {
                why_open.set(None);
            }
        });
    }
    // An embed is a guest: it takes focus only once the reader is in it.
    let may_focus = !props.mode.embed || crate::hooks::page_has_focus();
    {
        // The clicker opened the prediction: the field takes focus.
        let field = guess_field.clone();
        use_effect_with(props.focus_guess, move |asked| {
            if *asked > 0 && may_focus {
                if let Some(input) = field.cast::<web_sys::HtmlInputElement>() {
                    // The field is in view (the panel's foot): focus only,
                    // so neither the page nor an embed's host scrolls.
                    crate::hooks::focus_quietly(&input);
                }
            }
        });
    }
    let panel = use_node_ref();
    let lesson_index = props.lesson.as_ref().map(|l| l.index);
    {
        // A lesson that opens takes focus: never a form field.
        let panel = panel.clone();
        use_effect_with(lesson_index, move |index| {
            if index.is_some() && may_focus {
                if let Some(section) = panel.cast::<web_sys::HtmlElement>() {
                    // Focus only: the page (an embed's frame above all) stays
                    // where it is.
                    crate::hooks::focus_quietly(&section);
                }
            }
        });
    }
    // Where the panel has a fixed height (workshop, embed), the narration
    // is laid out in pages that fit it: measured after each render, the
    // blocks of the page on screen shown, the others hidden, never cut.
    let body = use_node_ref();
    let layout = use_mut_ref(PageLayout::default);
    let fitted = props.mode.workshop || props.mode.embed;
    {
        let watched = body.clone();
        let (body, layout, on_pages) = (body.clone(), layout.clone(), props.calls.pages.clone());
        let at = props
            .lesson
            .as_ref()
            .map(|l| (l.index, l.step, l.visit.pages.at, l.visit.pages.of));
        let lay_out = move || {
            if let (true, Some((index, step, page, pages)), Some(body)) =
                (fitted, at, body.cast::<web_sys::HtmlElement>())
            {
                if body.client_height() == 0 {
                    return; // not shown (a phone's embed showing its stage)
                }
                let found = layout.borrow_mut().show(&body, (index, step), page);
                if found != pages {
                    on_pages.emit(found);
                }
            }
        };
        // After every render, and whenever the panel's room changes without
        // one (the stage beside it grew, the window turned).
        let latest = use_mut_ref(|| None::<Box<dyn Fn()>>);
        *latest.borrow_mut() = Some(Box::new(lay_out));
        {
            let latest = latest.clone();
            use_effect(move || {
                if let Some(f) = latest.borrow().as_ref() {
                    f();
                }
            });
        }
        let open = props.lesson.is_some();
        use_effect_with((fitted, open), move |(fitted, open)| {
            let observer = (*fitted && *open).then(|| {
                let callback = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    if let Some(f) = latest.borrow().as_ref() {
                        f();
                    }
                });
                let observer = web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(
                    callback.as_ref(),
                ))
                .ok();
                if let (Some(o), Some(el)) = (&observer, watched.cast::<web_sys::Element>()) {
                    o.observe(&el);
                }
                (observer, callback)
            });
            move || {
                if let Some((Some(o), _)) = &observer {
                    o.disconnect();
                }
                drop(observer);
            }
        });
    }
    // A lesson on its way from the lesson worker keeps its place (the page
    // does not jump when it arrives), over the one open before it.
    let reading = props.opening.as_ref().is_some_and(Opening::reading);
    if props.lesson.is_none() || reading {
        return match &props.opening {
            Some(p) => {
                // Reading a file answers every question: it can take a
                // while, so it shows how far it is and can be stopped.
                let cancel = {
                    let on_cancel = props.calls.cancel.clone();
                    Callback::from(move |_| {
                        worker.cancel();
                        on_cancel.emit(());
                    })
                };
                let (done, total) = p.progress.unwrap_or((0, 0));
                html! {
                    <section class="panel lesson loading" aria-busy="true" data-testid="lesson-loading">
                        <p class="hint">{ format!("Opening the lesson {}…", p.id) }</p>
                        if total > 0 {
                            <p class="hint" data-testid="lesson-progress">{ format!("Answering its questions: step {done} of {total}") }</p>
                            <progress max={total.to_string()} value={done.to_string()}></progress>
                        }
                        if p.file || total > 0 {
                            <button onclick={cancel} data-testid="lesson-cancel">{"Stop"}</button>
                        }
                    </section>
                }
            }
            None => html! {},
        };
    }
    let (Some(ls), Some(shown)) = (props.lesson.clone(), &props.step) else {
        return html! {};
    };
    let lesson = &shown.lesson;
    let step = &lesson.steps[ls.step];
    let waiting = step.wait.as_ref().filter(|_| shown.waiting);
    let calls = &props.calls;
    // One button does what the clicker's next press does, and says what.
    let press = shown.press;
    let next = calls.next.reform(|_: MouseEvent| now_ms());
    let back = calls.back.reform(|_: MouseEvent| ());
    let exit = calls.exit.reform(|_: MouseEvent| ());
    let on_guess = calls.draft.reform(|e: InputEvent| event_value(&e));
    // Enter in the field: a guess is revealed; nothing typed is a slip
    // (the reader thought a button had the keyboard), said beside it.
    let reveal = {
        let (calls, draft) = (calls.clone(), ls.visit.draft.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match draft.trim().is_empty() {
                true => calls.enter_without_guess.emit(()),
                false => calls.reveal.emit((draft.clone(), now_ms())),
            }
        })
    };
    // The form's own Reveal button reveals, with a guess or without.
    let reveal_button = {
        let draft = ls.visit.draft.clone();
        calls.reveal.reform(move |e: MouseEvent| {
            e.prevent_default();
            (draft.clone(), now_ms())
        })
    };
    // What to do next when the step sits paused: never a silent stage.
    let predicted = step.question.is_none() || ls.guess().is_some();
    // Before a prediction the form is what to do; after it, say how to run.
    // (Where the clicker drives, its Next button already says "Play".)
    // (A figure in the stage's place has no run to play.)
    let figure = props.mode.figure_on_stage(step);
    let play_hint = if fitted
        || figure
        || props.playing
        || step.act.is_some()
        || props.idle
        || !predicted
        || ls.visit.played_at.is_some()
    {
        html! {}
    } else {
        let play = calls.play.reform(|_: MouseEvent| ());
        html! {
            <p class="play-hint" data-testid="play-hint">{"Paused. Press play (or space) to run this step. "}
                <button onclick={play} data-testid="lesson-play">{"▶ Play"}</button></p>
        }
    };
    // Computed once when the step opened, from its own set-up: it never shifts.
    let answer = ls.answer().cloned();
    // The question and the answer. Where the panel fits the screen they close
    // the narration (paged with it), and the foot keeps only the field.
    let asking = step.question.is_some() && ls.guess().is_none();
    // The field shows with the question's page: the label names it only then.
    let on_last_page = !ls.visit.pages.more();
    let ask = match (&step.question, asking) {
        (Some(p), true) if on_last_page => {
            html! { <p class="ask"><label for="guess">{ format!("Predict first: {}", p.ask) }</label></p> }
        }
        (Some(p), true) => html! { <p class="ask">{ format!("Predict first: {}", p.ask) }</p> },
        _ => html! {},
    };
    let answered = match (&step.question, ls.guess(), &answer) {
        (Some(p), Some(g), Some(a)) => {
            let right = workqueue_lessons::same_answer(g, a, p.tolerance);
            // Why, where no trainer is there to say it (a room's trainer has
            // it in the presenter's notes): a button on the answer's line,
            // and a card over the panel, opened by the reader.
            let (toggle, card) = if p.why.is_empty() || props.mode.room() {
                (html! {}, html! {})
            } else {
                let at = (ls.index, ls.step);
                let open = *why_open == Some(at);
                let onclick = {
                    let why_open = why_open.clone();
                    Callback::from(move |_: MouseEvent| why_open.set((!open).then_some(at)))
                };
                let close = {
                    let why_open = why_open.clone();
                    Callback::from(move |_: MouseEvent| why_open.set(None))
                };
                let card = if open {
                    html! {
                        <div id="answer-why" class="why-card" role="note" data-testid="answer-why" ref={why_card.clone()}>
                            { Html::from_html_unchecked(AttrValue::from(p.why.clone())) }
                            <button class="ghost why-close" onclick={close} data-testid="answer-why-close">{"Close"}</button>
                        </div>
                    }
                } else {
                    html! {}
                };
                let label = if open { "Hide why" } else { "Why?" };
                (
                    html! { <>{" "}<button class="why-toggle ghost" {onclick} aria-expanded={open.to_string()}
                    aria-controls="answer-why" data-testid="answer-why-toggle">{ label }</button></> },
                    card,
                )
            };
            html! {
                <div class={classes!("answer", right.then_some("right"))} role="status" data-testid="answer" ref={answer_box.clone()}>
                    <p class="q">{ p.ask.clone() }</p>
                    <p>{"Answer: "}<strong data-testid="answer-value">{ format!("{a} {}", p.unit) }</strong>
                       { if g.trim().is_empty() { html! {} } else if right { html! { <span>{" — you got it."}</span> } } else { html! { <span>{ format!(" — you said {g}.") }</span> } } }{ toggle }</p>
                    { card }
                </div>
            }
        }
        _ => html! {},
    };
    // (The clicker's Next reveals where the panel is fitted, so the form's
    // own button gives way there.)
    let field = match &step.question {
        Some(p) if asking && on_last_page => {
            // A question with no unit of its own whose answer is a time
            // says what a time looks like ("10.015s", "10015ms").
            // A phone's keyboard: digits for a count, letters too for a time.
            let keys = if workqueue_lessons::is_time(&p.answer) {
                "text"
            } else {
                "decimal"
            };
            let hint = if p.unit.is_empty() && workqueue_lessons::is_time(&p.answer) {
                "a time, e.g. 1.5s".to_string()
            } else {
                p.unit.clone()
            };
            html! {
            // Once Predict was pressed the field lights up for the room's
            // guess (the press shows; nothing moves).
            <form class={classes!("predict", ls.visit.asked.then_some("asked"))} onsubmit={reveal}>
                { if fitted { html! {} } else { ask.clone() } }
                <div class="row">
                    <input id="guess" ref={guess_field.clone()} type="text" inputmode={keys} value={ls.visit.draft.clone()} oninput={on_guess} placeholder={hint} aria-label={format!("Your prediction: {}", p.ask)} aria-invalid={ls.visit.refused.is_some().then_some("true")} aria-describedby={ls.visit.refused.is_some().then_some("guess-refused")} data-testid="guess" />
                    // (The presenter's window has its own Reveal, and the clicker's.)
                    { if fitted || props.mode.presenter { html! {} } else { html! { <button type="submit" class="primary" onclick={reveal_button.clone()} data-testid="reveal">{"Reveal"}</button> } } }
                </div>
                // Why the guess was not taken, beside the field it is about.
                { match &ls.visit.refused {
                    Some(why) => html! { <p class="guess-refused" id="guess-refused" role="alert" data-testid="guess-refused">{ why.clone() }</p> },
                    None => html! {},
                } }
            </form>
            }
        }
        // Where the panel is fitted the field's room is kept on the pages
        // before the question's: the narration's room does not change when
        // the last page comes, so its pages stay as laid out (else the last
        // page, with less room, spilled into one more page, and back).
        Some(_) if asking && fitted => html! {
            <div class="predict reserve" aria-hidden="true">
                <div class="row"><input type="text" disabled=true tabindex="-1" /></div>
            </div>
        },
        _ => html! {},
    };
    html! {
        <section class="panel lesson" ref={panel} tabindex="-1" aria-label={format!("Lesson: {}", lesson.title)} data-testid="lesson">
            <div class="panel-head">
                <h2><span class="lesson-title">{ crate::lessons::course_title(&lesson.title, props.course_at.is_some()) }</span><small>{ format!("step {} of {}", ls.step + 1, lesson.steps.len()) }{ match props.course_at { Some((at, of)) => html! { <span class="course-at" data-testid="course-at">{ format!(" · lesson {at} of {of}") }</span> }, None => html! {} } }</small></h2>
                // The projector's window shows the presenter's lesson: only
                // the presenter closes it.
                // An embed holds its one lesson: closing it would leave its
                // reader an empty stage with no way back.
                { if props.mode.audience || props.mode.embed { html! {} } else { html! { <button class="icon small" onclick={exit} aria-label="Close the lesson">{"×"}</button> } } }
            </div>
            <ol class="dots" aria-hidden="true">
                { for (0..lesson.steps.len()).map(|i| html! { <li class={classes!((i == ls.step).then_some("on"), (i < ls.step).then_some("done"))}></li> }) }
            </ol>
            <h3 data-testid="lesson-step-title">{ step.title.clone() }</h3>
            // (Its line is kept where the panel is fitted, so the narration
            // does not move when a second page comes or goes.)
            { if ls.visit.pages.of > 1 { html! { <p class="page-of" data-testid="lesson-page">{ format!("page {} of {}", ls.visit.pages.at + 1, ls.visit.pages.of) }</p> } }
              else if fitted { html! { <p class="page-of" aria-hidden="true">{"\u{a0}"}</p> } } else { html! {} } }
            <div class="lesson-body" ref={body}>
            { if ls.step == 0 && !lesson.intro.is_empty() { prose(&lesson.intro, "lesson-text intro") } else { html! {} } }
            { prose(&step.text, "lesson-text") }
            { match &step.goal {
                // An embed has no settings form: the exercise is done in the
                // whole playground, at this step, in a new tab. (The embed's
                // own entry draws only this: the form and the check are not
                // in its module.)
                Some(goal) if props.mode.embed || cfg!(feature = "built-in-only") => html! {
                    <div class="goal" data-testid="goal">
                        <p class="goal-text"><strong>{"Your turn: "}</strong>{ goal.describe.clone() }</p>
                        { match crate::lessons::is_built_in(&lesson.id) {
                            true => html! {
                                <p><a class="button primary" href={format!("./?lesson={}&step={}", lesson.id, ls.step + 1)} target="_blank" rel="noopener" data-testid="goal-open" aria-label="Try it in the playground (a new tab, at this step)">
                                    {"Try it in the playground"}<span aria-hidden="true">{" ↗"}</span>
                                </a></p>
                            },
                            false => html! { <p>{"Its settings are in the whole playground."}</p> },
                        } }
                    </div>
                },
                Some(goal) => {
                    // Checked on the learner's settings as they are when asked.
                    let on_check = {
                        let (id, index, step) = (lesson.id.clone(), ls.index, ls.step);
                        let (scenario_now, worker) = (props.scenario_now.clone(), worker.clone());
                        Callback::from(move |_| {
                            let scenario = scenario_now.emit(()).to_json();
                            worker.check(&id, index, step, scenario);
                        })
                    };
                    let figures = shown.figures.clone();
                    // On a projector the form is hidden: the exercise brings it.
                    let settings = props.settings.clone().map(|s| (s, calls.apply.clone()));
                    html! { <super::goal::GoalCheck describe={goal.describe.clone()} {figures} {on_check} {settings} /> }
                }
                None => html! {},
            } }
            { match lessons::act(lesson, ls.step) {
                Some(act) => {
                    let inputs = act.inputs.clone();
                    let onclick = calls.act.reform(move |_: MouseEvent| inputs.clone());
                    html! { <p><button class="primary" {onclick} data-testid="lesson-act">{ act.label.clone() }</button></p> }
                }
                None => html! {},
            } }
            // (In a room the figure takes the stage's place: see `figure_shown`.)
            { if step.compare_limiters && !figure { html! { <super::compare::Compare articles={step.compared.clone()} /> } } else { html! {} } }
            { if fitted { html! { <>{ ask.clone() }{ answered.clone() }</> } } else { html! {} } }
            </div>
            // The question, the answer and the buttons stay in view (on a
            // projector the narration above them scrolls, never they).
            <div class="lesson-foot">
            { if fitted { html! {} } else { answered.clone() } }
            { field }
            { play_hint }
            { match (waiting, &step.wait) {
                (Some(w), _) => html! { <p class="waiting-for" data-testid="lesson-wait">{ if matches!(press, Press::Page | Press::Asked | Press::Revealed | Press::Played) { w.ahead() } else { w.describe() } }</p> },
                // Where the panel is fitted the line stays once met, so the
                // narration above it does not move when the wait ends.
                (None, Some(w)) if fitted => html! { <p class="waiting-for met">{ w.done() }</p> },
                _ => html! {},
            } }
            <div class="lesson-nav">
                <button onclick={back} disabled={shown.at_start} data-testid="lesson-back" aria-label="Back">{"←"}<span class="back-word">{" Back"}</span></button>
                { match press {
                    // An embed ends with its one lesson: the library goes on elsewhere.
                    // (While the last scene still plays, it says so: the
                    // lesson has not ended under the reader's eyes.)
                    Press::AtEnd => html! { <span class="hint" data-testid="lesson-at-end">{ match (props.mode.embed, props.playing) {
                        (true, true) => "The last step: its scene plays on.",
                        (true, false) => "The end of this lesson.",
                        (false, _) => "That was the last lesson.",
                    } }</span> },
                    press => {
                        let label = match press {
                            Press::Page => ls.visit.pages.read_on(),
                            Press::Asked => "Predict…".to_string(),
                            Press::Revealed => "Reveal".to_string(),
                            Press::Played => "▶ Play the step".to_string(),
                            Press::Decided => match shown.decision {
                                Some(outcome) => format!("Choose {}", outcome_name(outcome)),
                                None => "Next →".to_string(),
                            },
                            Press::Skipped => "Skip to the end of the scene »".to_string(),
                            Press::Dwelling if ls.visit.kept.is_some() => "Moving on…".to_string(),
                            _ if shown.at_end => "Last step".to_string(),
                            _ if ls.step + 1 >= lesson.steps.len() => "Next lesson →".to_string(),
                            _ => "Next →".to_string(),
                        };
                        html! { <button class="primary" onclick={next} data-testid="lesson-next" data-press={press.id()}>{ label }</button> }
                    }
                } }
            </div>
            </div>
        </section>
    }
}

/// An outcome as its button on the stage names it.
fn outcome_name(outcome: workqueue_core::Outcome) -> String {
    use workqueue_core::Outcome;
    match outcome {
        Outcome::Success => "Success".into(),
        Outcome::Requeue => "Requeue".into(),
        Outcome::RequeueAfter { after_ns } => {
            format!("RequeueAfter {}", crate::format::dur(after_ns.get()))
        }
        Outcome::Error => "Error".into(),
        Outcome::TerminalError => "Terminal error".into(),
        Outcome::ErrorWithRequeueAfter { .. } | Outcome::Custom { .. } => "it".into(),
    }
}

/// Lesson prose: HTML the lesson worker wrote with pulldown-cmark's writer,
/// where anything the file says is escaped text (see
/// `workqueue_lessons::view::prose`): only the worker's own tags are markup.
fn prose(html: &str, class: &'static str) -> Html {
    html! { <div class={class} data-pages="">{ Html::from_html_unchecked(AttrValue::from(html.to_string())) }</div> }
}
