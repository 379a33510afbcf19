//! An exercise: the step's goal, checked by the core on the learner's own
//! settings with the step's inputs, figure by figure.

use workqueue_lessons::{check, Goal, Setup, Value};
use yew::prelude::*;

use super::use_playground;
use crate::lessons;

#[derive(Properties, PartialEq)]
pub struct GoalProps {
    pub goal: Goal,
}

#[function_component(GoalCheck)]
pub fn goal_check(props: &GoalProps) -> Html {
    let state = use_playground();
    let result = use_state(|| None::<Vec<(Result<Value, String>, bool)>>);
    let onclick = {
        let (state, result, goal) = (state.clone(), result.clone(), props.goal.clone());
        Callback::from(move |_| {
            // The step's own inputs, on the scenario the learner has set.
            let inputs = state
                .lesson
                .as_ref()
                .and_then(|l| lessons::all().get(l.index)?.setup_for(l.step).cloned())
                .map(|s| s.inputs)
                .unwrap_or_default();
            let setup = Setup {
                scenario: state.current_scenario(),
                inputs,
                run_to: 0,
            };
            let figures = match setup.scene() {
                Ok(scene) => check(&goal, &scene),
                Err(e) => vec![(Err(e), false)],
            };
            result.set(Some(figures));
        })
    };
    let rows = result.as_ref().map(|figures| {
        props
            .goal
            .conditions
            .iter()
            .zip(figures)
            .map(|(c, (value, met))| {
                let text = match value {
                    Ok(v) => {
                        let mut bounds = Vec::new();
                        if let Some(m) = c.at_most {
                            bounds.push(format!("at most {}", v.like(m).text()));
                        }
                        if let Some(m) = c.at_least {
                            bounds.push(format!("at least {}", v.like(m).text()));
                        }
                        format!("{} ({})", v.text(), bounds.join(", "))
                    }
                    Err(e) => e.clone(),
                };
                html! { <li class={classes!(met.then_some("met"))}>{ if *met { "✓ " } else { "✗ " } }{ text }</li> }
            })
            .collect::<Html>()
    });
    let all_met = result.as_ref().is_some_and(|f| f.iter().all(|(_, m)| *m));
    html! {
        <div class="goal" data-testid="goal">
            <p class="goal-text"><strong>{"Your turn: "}</strong>{ props.goal.describe.clone() }</p>
            <button class="primary" {onclick} data-testid="goal-check">{"Check my settings"}</button>
            { match rows {
                Some(rows) => html! {
                    <div role="status" data-testid="goal-result">
                        <p class={classes!("goal-verdict", all_met.then_some("met"))}>{ if all_met { "Goal met." } else { "Not met yet." } }</p>
                        <ul class="goal-figures">{ rows }</ul>
                    </div>
                },
                None => html! {},
            } }
        </div>
    }
}
