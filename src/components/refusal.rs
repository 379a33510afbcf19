//! A refused lesson file, shown beside the lesson it did not replace.

use yew::prelude::*;

use crate::lessons::Refusal;

#[derive(Properties, PartialEq)]
pub struct LessonRefusalProps {
    /// The lesson file last refused, if it was not dismissed.
    pub refused: Option<Refusal>,
    pub on_dismiss: Callback<()>,
}

/// A refused lesson file, beside its text: the line and field at fault and
/// the lines around it. What was open keeps working.
#[function_component(LessonRefusal)]
pub fn lesson_refusal(props: &LessonRefusalProps) -> Html {
    let Some(r) = &props.refused else {
        return html! {};
    };
    let dismiss = props.on_dismiss.reform(|_: MouseEvent| ());
    html! {
        <section class="panel refusal" role="alert" aria-label="A refused lesson file" data-testid="lesson-refusal">
            <div class="panel-head">
                <h2>{ format!("{} was not opened", r.file) }</h2>
                <button class="icon small" onclick={dismiss} aria-label="Dismiss">{"×"}</button>
            </div>
            if r.mistakes.len() > 1 {
                <p class="hint">{ format!("{} mistakes, in file order:", r.mistakes.len()) }</p>
            }
            { for r.mistakes.iter().map(|m| html! {
                <div class="mistake" data-testid="refusal-mistake">
                    <p data-testid="refusal-reason"><strong>{ format!("Line {}", m.line) }</strong>{ format!(", {}: {}", m.field, m.reason) }</p>
                    <pre class="code excerpt">
                        { for m.excerpt.iter().map(|(n, text)| html! {
                            <span class={classes!("excerpt-line", (*n == m.line).then_some("bad"))}>{ format!("{n:>4}  {text}\n") }</span>
                        }) }
                    </pre>
                </div>
            }) }
        </section>
    }
}
