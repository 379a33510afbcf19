//! The first thing a newcomer sees on an empty stage: one obvious action
//! (watch a key fail three times and recover), the first lesson beside it,
//! and a word on free play.

use workqueue_core::{Input, Script};
use yew::prelude::*;

use super::use_playground;
use crate::state::Action;

/// The key the short scene follows.
pub const DEMO_KEY: &str = "default/flaky";

#[function_component(Welcome)]
pub fn welcome() -> Html {
    let state = use_playground();
    if !state.idle || state.lesson.is_some() || state.mode.embed {
        return html! {};
    }
    let watch = {
        let d = state.dispatcher();
        Callback::from(move |_| {
            d.dispatch(Action::Input(Input::SetScript {
                key: DEMO_KEY.into(),
                script: Script::FailThenSucceed { failures: 3 },
            }));
            d.dispatch(Action::Input(Input::Add {
                key: DEMO_KEY.into(),
            }));
            d.dispatch(Action::Select(Some(DEMO_KEY.into())));
        })
    };
    let lesson = {
        let d = state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::StartLesson(0)))
    };
    html! {
        <section class="panel welcome" aria-label="Start here" data-testid="welcome">
            <p class="welcome-text">{"The stage below is a controller's work queue. Start by watching one key fail three times, wait longer after each failure, and succeed:"}</p>
            <div class="welcome-actions">
                <button class="primary big" onclick={watch} data-testid="watch-demo">{"▶ Watch a key fail and recover"}</button>
                <button onclick={lesson} data-testid="start-lesson">{"Start the first lesson"}</button>
            </div>
            <p class="hint">{"Or play freely: add keys, fire a watch storm, change the limiter in Settings."}</p>
        </section>
    }
}
