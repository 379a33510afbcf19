//! An exercise: the step's goal, checked by the lesson worker on the
//! learner's own settings with the step's inputs, figure by figure.

use workqueue_lessons::view::Figure;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GoalProps {
    /// What the step asks for, in words.
    pub describe: AttrValue,
    /// The worker's figures for this step, once it checked.
    pub figures: Option<Vec<Figure>>,
    /// Asks the worker to check the learner's settings as they are.
    pub on_check: Callback<MouseEvent>,
}

#[function_component(GoalCheck)]
pub fn goal_check(props: &GoalProps) -> Html {
    let onclick = props.on_check.clone();
    let figures = props.figures.clone();
    let all_met = figures.as_ref().is_some_and(|f| f.iter().all(|x| x.met));
    html! {
        <div class="goal" data-testid="goal">
            <p class="goal-text"><strong>{"Your turn: "}</strong>{ props.describe.clone() }</p>
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
