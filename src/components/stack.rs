//! Words that change with the run, drawn over the words they may change
//! to: where the stage must not move (a projector), the place keeps the
//! height of the longest, so nothing below it moves when they change.

use yew::prelude::*;

/// `variants[shown]` on screen; the others keep their room on a projector
/// (hidden, and out of the accessibility tree) and take none elsewhere.
pub fn stacked(shown: usize, variants: Vec<Html>) -> Html {
    html! {
        <div class="stack">
            { for variants.into_iter().enumerate().map(|(i, v)| if i == shown {
                html! { <div class="on">{ v }</div> }
            } else {
                html! { <div class="off" aria-hidden="true">{ v }</div> }
            }) }
        </div>
    }
}
