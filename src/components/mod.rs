//! The playground's parts: function components that take their props.
//! Only the root ([`crate::app::App`] and [`crate::embed::EmbedApp`]) reads the store; it hands each part the
//! values it shows (its `…Props::of(&state, …)`), the callbacks for what
//! it changes ([`crate::store::controls::Controls`]: a part calls one with a plain
//! value and never builds an action), and, for the panels that read a
//! large part of the run while they are open, a read-only
//! [`crate::store::RunRef`].

pub mod breakable;
pub mod breaker;
pub mod charts;
pub mod chips;
pub mod compare;
pub mod copy_button;
pub mod download;
pub mod drain;
pub mod embed_turn;
pub mod goal;
pub mod import_dialog;
pub mod inputs;
pub mod inspector;
pub mod key_script;
pub mod lesson;
pub mod log;
pub mod manager_stage;
pub mod metrics;
pub mod modal;
pub mod paging;
pub mod presenter;
pub mod provider_panel;
pub mod queue_switch;
pub mod refusal;
pub mod settings_panel;
pub mod side;
pub mod stack;
pub mod stage;
pub mod summary;
pub mod toolbar;
pub mod transport;
pub mod welcome;
pub mod workers;

use yew::prelude::*;

/// The element an event came from, as the kind of element it must be.
pub fn target<T: wasm_bindgen::JsCast>(e: &Event) -> Option<T> {
    e.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<T>(t).ok())
}

/// The value of the input, text area or select an event came from.
pub fn event_value(e: &Event) -> String {
    if let Some(i) = target::<web_sys::HtmlInputElement>(e) {
        return i.value();
    }
    if let Some(t) = target::<web_sys::HtmlTextAreaElement>(e) {
        return t.value();
    }
    target::<web_sys::HtmlSelectElement>(e).map_or_else(String::new, |s| s.value())
}

/// Keeps what is typed into a field in `typed`, at every keystroke.
pub fn keep_typed(typed: &UseStateHandle<String>) -> Callback<InputEvent> {
    let typed = typed.clone();
    Callback::from(move |e: InputEvent| typed.set(event_value(&e)))
}

/// Keeps whether a checkbox is ticked in `ticked`.
pub fn keep_ticked(ticked: &UseStateHandle<bool>) -> Callback<Event> {
    let ticked = ticked.clone();
    Callback::from(move |e: Event| {
        if let Some(t) = target::<web_sys::HtmlInputElement>(&e) {
            ticked.set(t.checked());
        }
    })
}
