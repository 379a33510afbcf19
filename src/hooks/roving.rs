//! An embed's controls are one stop of its host page's Tab order: Tab
//! enters them at one control (the one used last, else the lesson's main
//! button), the arrow keys (and Home, End) move between them, and one more
//! Tab leaves the frame (a roving tabindex). A control that goes away under the focus
//! (the field once Reveal answered it) hands the focus to the control that
//! takes its place instead of dropping it to the page.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// What can take the keyboard: every control, and anything else the page
/// made tabbable (marked by us once we manage its tabindex).
const TABBABLE: &str = "button, input, select, textarea, a[href], [tabindex], [data-rove]";

/// The controls of the document, in page order: enabled, shown, and not
/// taken out of the Tab order by the page itself.
fn controls() -> Vec<HtmlElement> {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(list) = doc.query_selector_all(TABBABLE) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<HtmlElement>().ok())
        .filter(|el| {
            let ours = el.has_attribute("data-rove");
            let removed = !ours && el.get_attribute("tabindex").as_deref() == Some("-1");
            let disabled = el.has_attribute("disabled")
                || el
                    .closest("[aria-hidden=true], [hidden]")
                    .ok()
                    .flatten()
                    .is_some();
            let shown = el.offset_width() > 0 || el.offset_height() > 0;
            !removed && !disabled && shown
        })
        .collect()
}

/// The one control the Tab key stops at: `current` if it is still there,
/// else the lesson's main button, else Play, else the first (never the
/// name's link out of the frame while a control of the lesson is there).
fn stop_of(list: &[HtmlElement], current: Option<&Element>) -> Option<usize> {
    let named = |id: &str| {
        list.iter()
            .position(|el| el.get_attribute("data-testid").as_deref() == Some(id))
    };
    current
        .and_then(|c| list.iter().position(|el| el.is_same_node(Some(&**c))))
        .or_else(|| named("lesson-next"))
        .or_else(|| named("play"))
        .or((!list.is_empty()).then_some(0))
}

/// Gives the Tab stop to `list[at]` and takes it from the others.
fn rove(list: &[HtmlElement], at: Option<usize>) {
    for (i, el) in list.iter().enumerate() {
        let _ = el.set_attribute("data-rove", "");
        let want = if Some(i) == at { "0" } else { "-1" };
        if el.get_attribute("tabindex").as_deref() != Some(want) {
            let _ = el.set_attribute("tabindex", want);
        }
    }
}

/// Where a key moves the focus among `len` controls from `at`: the arrows
/// to the next or previous (round), Home and End to the first and last. A
/// text field keeps its left and right arrows, Home and End (they move its
/// caret).
fn target_of(key: &str, in_text: bool, at: usize, len: usize) -> Option<usize> {
    let by = |d: isize| Some((at as isize + d).rem_euclid(len as isize) as usize);
    match key {
        "ArrowRight" if !in_text => by(1),
        "ArrowLeft" if !in_text => by(-1),
        "ArrowDown" => by(1),
        "ArrowUp" => by(-1),
        "Home" if !in_text => Some(0),
        "End" if !in_text => len.checked_sub(1),
        _ => None,
    }
}

#[hook]
pub fn use_roving_focus(embed: bool) {
    // The control that holds the Tab stop (the last one focused).
    let current = use_mut_ref(|| None::<Element>);
    // Whether the frame's first controls were drawn: a reader who Tabbed
    // into the frame before they were (the app still starting) is handed
    // to the Tab stop then, and shown it.
    let drawn = use_mut_ref(|| false);
    {
        let drawn = drawn.clone();
        // After every render: the stop moves to a control still there, and
        // a focus lost with its control goes to the one that holds the stop.
        let current = current.clone();
        use_effect(move || {
            if !embed {
                return;
            }
            let list = controls();
            let held = current.borrow().clone();
            let lost = held.as_ref().is_some_and(|el| !el.is_connected());
            let at = stop_of(&list, held.as_ref().filter(|el| el.is_connected()));
            rove(&list, at);
            let doc = web_sys::window().and_then(|w| w.document());
            let on_body = doc
                .as_ref()
                .and_then(|d| d.active_element())
                .is_none_or(|a| a.tag_name() == "BODY");
            // (Only a control the person used is kept as the stop: until
            // then the stop follows the lesson's main button, which may
            // arrive after the first controls do.)
            if let Some(el) = at.and_then(|i| list.get(i)) {
                // (Once the lesson's main button is there: an embed's stop.)
                let main = list
                    .iter()
                    .any(|c| c.get_attribute("data-testid").as_deref() == Some("lesson-next"));
                let first = main && !std::mem::replace(&mut *drawn.borrow_mut(), true);
                if first && on_body && super::page_has_focus() {
                    // (Scrolled into view: the reader is looking for it.)
                    let _ = el.focus();
                } else if lost && on_body && super::page_has_focus() {
                    super::focus_quietly(el);
                }
                if lost {
                    *current.borrow_mut() = Some(el.clone().into());
                }
            }
        });
    }
    use_effect_with(embed, move |embed| {
        let listeners = embed.then(|| {
            let doc = web_sys::window().and_then(|w| w.document());
            let on_focus = {
                let current = current.clone();
                Closure::<dyn Fn(FocusEvent)>::new(move |e: FocusEvent| {
                    let list = controls();
                    let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
                    if let Some(t) =
                        target.filter(|t| list.iter().any(|el| el.is_same_node(Some(&**t))))
                    {
                        rove(&list, stop_of(&list, Some(&t)));
                        *current.borrow_mut() = Some(t);
                    }
                })
            };
            let on_key = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                    return;
                };
                let in_text = matches!(target.tag_name().as_str(), "INPUT" | "TEXTAREA")
                    && target.get_attribute("type").as_deref() != Some("range");
                let list = controls();
                let Some(at) = list.iter().position(|el| el.is_same_node(Some(&*target))) else {
                    return;
                };
                let Some(to) = target_of(&e.key(), in_text, at, list.len()) else {
                    return;
                };
                // These keys move between controls here: the playground's
                // own arrow shortcuts (step the run) stay for the stage.
                e.prevent_default();
                e.stop_propagation();
                rove(&list, Some(to));
                // Scrolled into view as the browser's own Tab does: the
                // reader moved it, and a ring out of sight is no ring.
                let _ = list[to].focus();
            });
            if let Some(d) = &doc {
                let _ = d
                    .add_event_listener_with_callback("focusin", on_focus.as_ref().unchecked_ref());
                let _ =
                    d.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
            }
            (doc, on_focus, on_key)
        });
        move || {
            if let Some((Some(d), on_focus, on_key)) = listeners {
                let _ = d.remove_event_listener_with_callback(
                    "focusin",
                    on_focus.as_ref().unchecked_ref(),
                );
                let _ = d.remove_event_listener_with_callback(
                    "keydown",
                    on_key.as_ref().unchecked_ref(),
                );
            }
        }
    });
}
