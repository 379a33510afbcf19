//! Long names that a narrow box wraps between their words, never inside
//! one: a line-break opportunity (`<wbr>`) after each separator.

use yew::prelude::*;

/// Separators of a metric's name (`controller_runtime_reconcile_total{…}`).
pub(crate) const METRIC: &[char] = &['_', '{', ','];
/// Separators of a key (`default/web-1`, `ns/app.v2`).
pub(crate) const KEY: &[char] = &['/', '-', '.'];

/// `text` with a `<wbr>` after each of `after`; the text itself is written
/// as text, never as markup.
pub(crate) fn breakable(text: &str, after: &[char]) -> Html {
    let mut parts = Vec::new();
    let mut word = String::new();
    for ch in text.chars() {
        word.push(ch);
        if after.contains(&ch) {
            parts.push(html! { <>{ std::mem::take(&mut word) }<wbr /></> });
        }
    }
    parts.push(html! { { word } });
    html! { <>{ for parts }</> }
}
