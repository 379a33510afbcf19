//! The lesson player: the step's text, what it waits for, a prediction to
//! make before the answer shows, and Back / Next.

use yew::prelude::*;

use super::{event_value, use_playground};
use crate::hooks::now_ms;
use crate::lesson_nav::Press;
use crate::lessons;
use crate::state::Action;

#[function_component(LessonPanel)]
pub fn lesson_panel() -> Html {
    let state = use_playground();
    let guess_field = use_node_ref();
    {
        // The clicker opened the prediction: the field takes focus.
        let field = guess_field.clone();
        use_effect_with(state.focus_guess, move |asked| {
            if *asked > 0 {
                if let Some(input) = field.cast::<web_sys::HtmlInputElement>() {
                    // Focusing scrolls the field into view as well.
                    let _ = input.focus();
                }
            }
        });
    }
    let panel = use_node_ref();
    let lesson_index = state.lesson.as_ref().map(|l| l.index);
    {
        // A lesson that opens takes focus: never a form field.
        let panel = panel.clone();
        use_effect_with(lesson_index, move |index| {
            if index.is_some() {
                if let Some(section) = panel.cast::<web_sys::HtmlElement>() {
                    // Focus only: the page (an embed's frame above all) stays
                    // where it is.
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = section.focus_with_options(&options);
                }
            }
        });
    }
    let Some(ls) = state.lesson.clone() else {
        // A lesson on its way from the lesson worker keeps its place, so
        // the page does not jump when it arrives.
        return match &state.pending_lesson {
            Some(p) => html! {
                <section class="panel lesson loading" aria-busy="true" data-testid="lesson-loading">
                    <p class="hint">{ format!("Opening the lesson {}…", p.id) }</p>
                </section>
            },
            None => html! {},
        };
    };
    let Some(lesson) = lessons::get(ls.index) else {
        return html! {};
    };
    let step = &lesson.steps[ls.step];
    let sim = state.sim();
    let waiting = step.wait.as_ref().filter(|w| !w.met(&sim));
    let d = state.dispatcher();
    // One button does what the clicker's next press does, and says what.
    let press = state.next_press(now_ms());
    let next = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::LessonNext(now_ms())))
    };
    let back = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::LessonBack))
    };
    let exit = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(Action::ExitLesson))
    };
    let on_guess = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| d.dispatch(Action::Draft(event_value(&e))))
    };
    let reveal = {
        let (d, draft) = (d.clone(), ls.draft.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            d.dispatch(Action::Reveal(draft.clone(), now_ms()));
        })
    };
    // What to do next when the step sits paused: never a silent stage.
    let predicted = step.question.is_none() || ls.guess().is_some();
    // Before a prediction the form is what to do; after it, say how to run.
    let play_hint = if state.playing || step.act.is_some() || state.idle || !predicted {
        html! {}
    } else {
        let d = d.clone();
        let play = Callback::from(move |_| d.dispatch(Action::Play));
        html! {
            <p class="play-hint" data-testid="play-hint">{"Paused. Press play (or space) to run this step. "}
                <button onclick={play} data-testid="lesson-play">{"▶ Play"}</button></p>
        }
    };
    // Computed once when the step opened, from its own set-up: it never shifts.
    let answer = ls.answer().cloned();
    html! {
        <section class="panel lesson" ref={panel} tabindex="-1" aria-label={format!("Lesson: {}", lesson.title)} data-testid="lesson">
            <div class="panel-head">
                <h2>{ lesson.title.clone() }<small>{ format!("step {} of {}", ls.step + 1, lesson.steps.len()) }</small></h2>
                <button class="icon small" onclick={exit} aria-label="Close the lesson">{"×"}</button>
            </div>
            <ol class="dots" aria-hidden="true">
                { for (0..lesson.steps.len()).map(|i| html! { <li class={classes!((i == ls.step).then_some("on"), (i < ls.step).then_some("done"))}></li> }) }
            </ol>
            <h3 data-testid="lesson-step-title">{ step.title.clone() }</h3>
            { if ls.step == 0 && !lesson.intro.is_empty() { prose(&lesson.intro, "lesson-text intro") } else { html! {} } }
            { prose(&step.text, "lesson-text") }
            { if step.goal.is_some() { html! { <super::goal::GoalCheck /> } } else { html! {} } }
            { match lessons::act(&lesson, ls.step) {
                Some(act) => {
                    let d = d.clone();
                    let inputs = act.inputs.clone();
                    let onclick = Callback::from(move |_| {
                        for input in &inputs {
                            d.dispatch(Action::Input(input.clone()));
                        }
                        d.dispatch(Action::Play);
                    });
                    html! { <p><button class="primary" {onclick} data-testid="lesson-act">{ act.label.clone() }</button></p> }
                }
                None => html! {},
            } }
            { if step.compare_limiters { html! { <super::compare::Compare /> } } else { html! {} } }
            // The question, the answer and the buttons stay in view (on a
            // projector the narration above them scrolls, never they).
            <div class="lesson-foot">
            { match (&step.question, ls.guess(), &answer) {
                (Some(p), None, _) => html! {
                    <form class="predict" onsubmit={reveal}>
                        <label for="guess">{ format!("Predict first: {}", p.ask) }</label>
                        <div class="row">
                            <input id="guess" ref={guess_field.clone()} type="text" value={ls.draft.clone()} oninput={on_guess} placeholder={p.unit.clone()} data-testid="guess" />
                            <button type="submit" class="primary" data-testid="reveal">{"Reveal"}</button>
                        </div>
                    </form>
                },
                (Some(p), Some(g), Some(a)) => {
                    let right = lessons::same_answer(g, a, p.tolerance);
                    html! {
                        <div class={classes!("answer", right.then_some("right"))} role="status" data-testid="answer">
                            <p class="q">{ p.ask.clone() }</p>
                            <p>{"Answer: "}<strong data-testid="answer-value">{ format!("{a} {}", p.unit) }</strong>
                               { if g.trim().is_empty() { html! {} } else if right { html! { <span>{" — you got it."}</span> } } else { html! { <span>{ format!(" — you said {g}.") }</span> } } }</p>
                        </div>
                    }
                }
                _ => html! {},
            } }
            { play_hint }
            { if let Some(w) = waiting { html! { <p class="waiting-for" data-testid="lesson-wait">{ w.describe() }</p> } } else { html! {} } }
            <div class="lesson-nav">
                <button onclick={back} disabled={ls.step == 0 && ls.index == 0} data-testid="lesson-back">{"← Back"}</button>
                { match press {
                    Press::AtEnd => html! { <span class="hint">{"That was the last lesson."}</span> },
                    press => {
                        let label = match press {
                            Press::Asked => "Predict…",
                            Press::Revealed => "Reveal",
                            Press::Played => "▶ Play the step",
                            _ if ls.step + 1 >= lesson.steps.len() => "Next lesson →",
                            _ => "Next →",
                        };
                        html! { <button class="primary" onclick={next} data-testid="lesson-next" data-press={press.id()}>{ label }</button> }
                    }
                } }
            </div>
            </div>
        </section>
    }
}

/// Lesson prose: HTML the lesson worker wrote with pulldown-cmark's writer,
/// where anything the file says is escaped text (see
/// `workqueue_lessons::view::prose`): only the worker's own tags are markup.
fn prose(html: &str, class: &'static str) -> Html {
    html! { <div class={class}>{ Html::from_html_unchecked(AttrValue::from(html.to_string())) }</div> }
}

/// A refused lesson file, beside its text: the line and field at fault and
/// the lines around it. What was open keeps working.
#[function_component(LessonRefusal)]
pub fn lesson_refusal() -> Html {
    let state = use_playground();
    let Some(r) = state.refused_lesson.clone() else {
        return html! {};
    };
    let d = state.dispatcher();
    let dismiss = Callback::from(move |_| d.dispatch(Action::DismissRefusal));
    html! {
        <section class="panel refusal" role="alert" aria-label="A refused lesson file" data-testid="lesson-refusal">
            <div class="panel-head">
                <h2>{ format!("{} was not opened", r.file) }</h2>
                <button class="icon small" onclick={dismiss} aria-label="Dismiss">{"×"}</button>
            </div>
            <p data-testid="refusal-reason"><strong>{ format!("Line {}", r.line) }</strong>{ format!(", {}: {}", r.field, r.reason) }</p>
            <pre class="code excerpt">
                { for r.excerpt.iter().map(|(n, text)| html! {
                    <span class={classes!("excerpt-line", (*n == r.line).then_some("bad"))}>{ format!("{n:>4}  {text}\n") }</span>
                }) }
            </pre>
        </section>
    }
}
