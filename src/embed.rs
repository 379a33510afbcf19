//! An embed: one lesson in a blog post's frame. Its own entry (the
//! `workqueue-embed` binary) draws only this layout, so the module a
//! post's reader waits for carries none of the playground's other panels.

use yew::prelude::*;

use crate::components::embed_turn::TurnSwitch;
use crate::components::transport::{Transport, TransportView};
use crate::lessons;
use crate::page::{self, Page};

/// The embed's root component.
#[function_component(EmbedApp)]
pub fn embed_app() -> Html {
    let page = page::use_page(page::Reader::BUILT_IN_LESSON);
    layout(&page)
}

/// A frame of fixed height (the snippet sets it): the stage beside the
/// narration, which is paged to fit, never cut (on a phone the two take
/// turns).
pub(crate) fn layout(page: &Page) -> Html {
    let state = page.context.read();
    // The name is a way out: the same lesson and step in the whole
    // playground, in a new tab (a built-in lesson's id is plain letters).
    let full = state.lessons.current.as_ref().and_then(|l| {
        let id = &state.lessons.library.get(l.index)?.id;
        let theme = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .and_then(|search| crate::open::chosen_theme(&search))
            .map(|t| format!("&theme={t}"))
            .unwrap_or_default();
        lessons::is_built_in(id).then(|| format!("./?lesson={id}&step={}{theme}", l.step + 1))
    });
    let brand = match full {
        Some(href) => html! {
            <a class="brand" {href} target="_blank" rel="noopener" data-testid="open-full" title="Open this lesson in Workqueue Playground (a new tab)">
                { page::logo() }
                <div><h1>{"Workqueue Playground"}<span class="ext" aria-hidden="true">{" ↗"}</span></h1></div>
                <span class="sr-only">{" (opens this lesson in a new tab)"}</span>
            </a>
        },
        None => html! {
            <div class="brand">{ page::logo() }<div><h1>{"Workqueue Playground"}</h1></div></div>
        },
    };
    let (turn, on_turn) = (page.turn, page.on_turn.clone());
    html! {
        <>
            <header class="top compact">
                { brand }
                // Shown while the keyboard is in the frame: how to move
                // between its controls, one Tab stop of the host page.
                <p class="keys-hint" aria-hidden="true">{"← → between controls · Tab leaves"}</p>
                <Transport view={TransportView::of(&state)} calls={state.controls().transport} />
            </header>
            { page::notices(&state) }
            <TurnSwitch {turn} {on_turn} />
            <main class="embed-layout" data-turn={turn.id()}>
                // A lesson about a manager shows its controllers here too.
                { page::stage(&state) }
                <div class="embed-side">
                    { page::refusal(&state) }
                    { page::lesson_panel(&state, page) }
                    // A lesson's narration has the side to itself.
                    { (page.reader.inspector)(&state) }
                </div>
            </main>
            { page::narration(&state) }
        </>
    }
}
