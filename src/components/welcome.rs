//! The first thing a newcomer sees on an empty stage: one obvious action
//! (watch a key fail three times and recover), the first lesson beside it,
//! and a word on free play.

use yew::prelude::*;

/// The key the short scene follows.
pub const DEMO_KEY: &str = "default/flaky";

#[derive(Properties, PartialEq)]
pub struct WelcomeProps {
    /// Whether it shows (it stays in the tree either way, so its siblings
    /// keep their places when it comes and goes).
    pub show: bool,
    /// Plays the short scene: [`DEMO_KEY`] fails three times and recovers.
    pub on_watch: Callback<MouseEvent>,
    /// Opens the first lesson.
    pub on_lesson: Callback<MouseEvent>,
}

#[function_component(Welcome)]
pub fn welcome(props: &WelcomeProps) -> Html {
    if !props.show {
        return html! {};
    }
    let (watch, lesson) = (props.on_watch.clone(), props.on_lesson.clone());
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
