//! An exercise: the step's goal, checked by the lesson worker on the
//! learner's own settings with the step's inputs, figure by figure.

use yew::prelude::*;

use super::use_playground;

#[function_component(GoalCheck)]
pub fn goal_check() -> Html {
    let context = use_playground();
    let state = context.read();
    let worker = use_context::<crate::lesson_worker::LessonWorker>();
    let Some(ls) = state.lesson.clone() else {
        return html! {};
    };
    let Some(lesson) = state.library.get(ls.index) else {
        return html! {};
    };
    let Some(goal) = lesson.steps.get(ls.step).and_then(|s| s.goal.clone()) else {
        return html! {};
    };
    let onclick = {
        let (id, step, context) = (lesson.id.clone(), ls.step, context.clone());
        Callback::from(move |_| {
            if let Some(worker) = &worker {
                let scenario = context.read().current_scenario().to_json();
                worker.check(&id, ls.index, step, scenario);
            }
        })
    };
    let figures = state
        .goal_figures
        .as_ref()
        .filter(|(i, s, _)| (*i, *s) == (ls.index, ls.step))
        .map(|(_, _, f)| f.clone());
    let all_met = figures.as_ref().is_some_and(|f| f.iter().all(|x| x.met));
    html! {
        <div class="goal" data-testid="goal">
            <p class="goal-text"><strong>{"Your turn: "}</strong>{ goal.describe.clone() }</p>
            <button class="primary" {onclick} data-testid="goal-check">{"Check my settings"}</button>
            { match figures {
                Some(figures) => html! {
                    <div role="status" data-testid="goal-result">
                        <p class={classes!("goal-verdict", all_met.then_some("met"))}>{ if all_met { "Goal met." } else { "Not met yet." } }</p>
                        <ul class="goal-figures">
                            { for figures.iter().map(|f| html! { <li class={classes!(f.met.then_some("met"))}>{ if f.met { "✓ " } else { "✗ " } }{ f.text.clone() }</li> }) }
                        </ul>
                    </div>
                },
                None => html! {},
            } }
        </div>
    }
}
