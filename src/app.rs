//! The whole playground: the single window, the projector's and the
//! presenter's layouts (and an embed's, when this module is the one
//! loaded; see [`crate::embed`]).

use crate::state::{LessonAction, RunAction};
use yew::prelude::*;

use crate::components::compare::Compare;
use crate::components::inputs::Inputs;
use crate::components::side::{Side, SideProps};
use crate::components::toolbar::Toolbar;
use crate::components::transport::{pace_cue, Transport, TransportView};
use crate::components::welcome::{Welcome, DEMO_KEY};
use crate::hooks;
use crate::page;
use crate::session;
use crate::state::Action;
use crate::store::StateRef;

/// The welcome panel, on a first visit to the free playground only.
fn welcome(state: &StateRef) -> Html {
    use workqueue_core::{Input, Script};
    let show =
        state.run.playback.idle && state.lessons.current.is_none() && !state.workshop.mode.embed;
    let d = state.dispatcher();
    let on_watch = {
        let d = d.clone();
        Callback::from(move |_| {
            d.dispatch(Action::Run(RunAction::Input(Input::SetScript {
                key: DEMO_KEY.into(),
                script: Script::FailThenSucceed {
                    failures: workqueue_core::Failures::lit(3),
                },
            })));
            d.dispatch(Action::Run(RunAction::Input(Input::Add {
                key: DEMO_KEY.into(),
            })));
            d.dispatch(Action::Run(RunAction::Select(Some(DEMO_KEY.into()))));
        })
    };
    let on_lesson = Callback::from(move |_| d.dispatch(Action::Lesson(LessonAction::Start(0))));
    html! { <Welcome {show} {on_watch} {on_lesson} /> }
}

#[function_component(App)]
pub fn app() -> Html {
    let page = page::use_page(page::Reader::PAGE);
    let context = page.context.clone();
    {
        // The run is saved as the page is hidden (a reload, a closed tab, a
        // phone's app switch), as it is then.
        let context = context.clone();
        use_effect_with((), move |_| session::save_when_hidden(context));
    }
    hooks::use_workshop_link(&context);
    // The run as it is now, for the toolbar to save, share and export
    // when asked (it copies the whole tape).
    let run_now = {
        let context = context.clone();
        use_memo((), move |_| {
            Callback::from(move |_| context.read().shared())
        })
    };
    let state = context.read();
    if state.workshop.mode.embed {
        drop(state);
        return crate::embed::layout(&page);
    }
    let brand = html! {
        <div class="brand">
            { page::logo() }
            <div>
                <h1>{"Workqueue Playground"}</h1>
                <p class="tagline">{"What client-go's workqueue and controller rate limiting do to every key, exact to the nanosecond."}</p>
            </div>
        </div>
    };
    // In a room a step's figure takes the stage's place, as large as the
    // stage: the four plots side by side where the whole room can read them
    // (the stage's view is then not computed at all).
    let stage = match state.figure_shown() {
        Some(plots) => html! {
            <section class="stage-figure" data-testid="stage-figure" aria-label="The step's figure">
                <Compare articles={plots} />
            </section>
        },
        None => page::stage(&state),
    };
    let notices = page::notices(&state);
    let refusal = page::refusal(&state);
    let lesson_panel = page::lesson_panel(&state, &page);
    let narration = page::narration(&state);
    if state.workshop.mode.audience {
        // The projector: the stage and the narration, nothing else. The
        // presenter's window holds the workshop (see `presenter`).
        let (class, text) = pace_cue(&state);
        return html! {
            <>
                { notices }
                <main class="audience-layout" data-testid="audience">
                    { lesson_panel }
                    <div class="audience-main">
                        <p class="audience-clock" aria-live="off">
                            <span class="clock-label">{"virtual time"}</span>
                            <output data-testid="clock">{ crate::format::clock(state.now()) }</output>
                            // (The room sees when time is compressed or slowed,
                            // as the single window shows it under its clock.)
                            <span class={classes!("pace", class)} data-testid="pace">{ text }</span>
                        </p>
                        { stage }
                    </div>
                </main>
                { narration }
            </>
        };
    }
    if state.workshop.mode.presenter {
        // The trainer's screen: notes, the answer, the next step, the
        // clicker (the lesson panel's Back and Next) and a small live stage.
        return html! {
            <>
                <header class="top compact">{ brand }<Transport view={TransportView::of(&state)} calls={state.controls().transport} /></header>
                { notices }
                <main class="presenter-layout">
                    <crate::components::presenter::PresenterPanel ..crate::components::presenter::PresenterProps::of(&state, state.controls().lesson) />
                    <div class="presenter-side">
                        <div class="presenter-stage" aria-label="The stage, as the room sees it">{ stage }</div>
                        { refusal }
                        { lesson_panel }
                    </div>
                </main>
                { narration }
            </>
        };
    }
    let skip_to_stage = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        let stage = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("stage"))
            .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
        if let Some(stage) = stage {
            let _ = stage.focus();
        }
    });
    let manager_mode = state.is_manager();
    html! {
        <>
            // A link, not a fragment: the address's fragment is a share link's.
            <a class="skip-link" href="" onclick={skip_to_stage} data-testid="skip-link">{"Skip to the stage"}</a>
            <header class="top">
                { brand }
                <Transport view={TransportView::of(&state)} calls={state.controls().transport} />
                <Toolbar library={state.lessons.library.clone()} current={state.lessons.current.as_ref().map(|l| l.index)} workshop={state.workshop.mode.workshop}
                    go_import={state.ui.go_import.clone()} run={(*run_now).clone()} worker={page.worker.clone()} calls={state.controls().menu} />
            </header>
            { notices }
            // The stage is the hero: the lesson and the actions above it, the
            // details one click away beside it.
            <main class="layout">
                <div class="center">
                    { welcome(&state) }
                    { refusal }
                    { lesson_panel }
                    { if manager_mode { stage } else { html! { <><Inputs settings={state.run.settings.clone()} resync_active={state.resync_active()} on_input={state.controls().input} on_apply={state.controls().apply} />{ stage }</> } } }
                </div>
                <Side ..SideProps::of(&state, context.run(), state.controls()) />
            </main>
            { narration }
        </>
    }
}
