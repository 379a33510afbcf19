//! Workqueue Playground: a Yew front end over `workqueue-core`.
//!
//! The UI is a thin view over the simulation: [`state`] holds the run and a
//! reducer, [`components`] render parts of it, [`hooks`] connect the clock and
//! the keyboard, and the charts come from the `workqueue-charts` crate.
// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

pub mod app;
pub mod components;
pub mod embed;
pub mod fetch;
pub mod first_paint;
pub mod flights;
pub mod format;
pub mod headline;
pub mod hooks;
pub mod lesson_nav;
pub mod lesson_state;
pub mod lesson_worker;
pub mod lessons;
pub mod notice;
pub mod open;
pub mod pacing;
mod page;
pub mod presenter;
pub mod provider;
pub mod session;
pub mod settings;
pub mod share;
pub mod snippet;
pub mod state;
pub mod store;
pub mod timeline;
pub mod versions;
pub mod workshop;

/// A panic is a bug: log it to the console (tests fail on console errors) and
/// tell the person at the page what to do, instead of freezing silently.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let text = format!("Workqueue Playground hit a bug: {info}");
        web_sys::console::error_1(&text.as_str().into());
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(body) = doc.as_ref().and_then(|d| d.body()) {
            if let Ok(div) = doc
                .as_ref()
                .map(|d| d.create_element("div"))
                .transpose()
                .ok()
                .flatten()
                .ok_or(())
            {
                div.set_class_name("notice error crash");
                div.set_attribute("role", "alert").ok();
                div.set_text_content(Some("Something went wrong inside the playground. Reload the page to start again; your share link still holds your setup."));
                body.prepend_with_node_1(&div).ok();
            }
        }
    }));
}
