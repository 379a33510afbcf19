//! An exercise: the step's goal, checked by the lesson worker on the
//! learner's own settings with the step's inputs, figure by figure.

use workqueue_lessons::view::Figure;
use yew::prelude::*;

use super::modal::Modal;
use super::settings_panel::SettingsPanel;
use crate::settings::Settings;

#[derive(Properties, PartialEq)]
pub struct GoalProps {
    /// What the step asks for, in words.
    pub describe: AttrValue,
    /// The worker's figures for this step, once it checked.
    pub figures: Option<Vec<Figure>>,
    /// Asks the worker to check the learner's settings as they are.
    pub on_check: Callback<MouseEvent>,
    /// Where the settings form is not on screen (a workshop's projector):
    /// the run's settings, for the form the exercise needs, in a dialog.
    #[prop_or_default]
    pub settings: Option<(Settings, Callback<Settings>)>,
}

#[function_component(GoalCheck)]
pub fn goal_check(props: &GoalProps) -> Html {
    let onclick = props.on_check.clone();
    let figures = props.figures.clone();
    let all_met = figures.as_ref().is_some_and(|f| f.iter().all(|x| x.met));
    let open = use_state(|| false);
    let form = match (&props.settings, *open) {
        (Some((settings, on_apply)), true) => {
            let close = {
                let open = open.clone();
                Callback::from(move |_: MouseEvent| open.set(false))
            };
            html! {
                <Modal title="The settings this exercise asks about" onclose={close}>
                    <SettingsPanel settings={settings.clone()} on_apply={on_apply.clone()} />
                </Modal>
            }
        }
        _ => html! {},
    };
    let change = props.settings.as_ref().map(|_| {
        let open = open.clone();
        let onclick = Callback::from(move |_: MouseEvent| open.set(true));
        html! { <button {onclick} data-testid="goal-settings">{"Change the settings…"}</button> }
    });
    html! {
        <div class="goal" data-testid="goal">
            <p class="goal-text"><strong>{"Your turn: "}</strong>{ props.describe.clone() }</p>
            { change.unwrap_or_default() }
            <button class="primary" {onclick} data-testid="goal-check">{"Check my settings"}</button>
            { form }
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
