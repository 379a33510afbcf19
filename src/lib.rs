//! Workqueue Playground: a Yew front end over `workqueue-core`.
//!
//! The UI is a thin view over the simulation: [`state`] holds the run and a
//! reducer, [`components`] render parts of it, [`hooks`] connect the clock and
//! the keyboard, and the charts come from the `workqueue-charts` crate.
// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

pub mod components;
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
pub mod presenter;
pub mod provider;
pub mod session;
pub mod settings;
pub mod share;
pub mod state;
pub mod store;
pub mod timeline;
pub mod versions;
pub mod workshop;

use yew::prelude::*;

use crate::store::{Dispatcher, StateRef};

use components::inputs::Inputs;
use components::inspector::{Inspector, InspectorProps};
use components::lesson::{LessonPanel, LessonPanelProps};
use components::manager_stage::ManagerStage;
use components::refusal::LessonRefusal;
use components::side::{Side, SideProps};
use components::stage::Stage;
use components::toolbar::Toolbar;
use components::transport::{Transport, TransportView};
use components::welcome::Welcome;
use lesson_worker::LessonWorker;
use notice::{Notice, NoticeKind};
use state::{Action, Playground};

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

/// How long an information notice stays (ms).
const NOTICE_MS: u32 = 6000;

#[derive(Properties, PartialEq)]
struct NoticesProps {
    notice: Option<Notice>,
    /// Notices float over the header (workshop, embed, presenter).
    floats: bool,
    dispatch: Dispatcher,
}

impl NoticesProps {
    fn of(state: &StateRef) -> NoticesProps {
        NoticesProps {
            notice: state.notice.clone(),
            floats: state.mode.workshop || state.mode.embed || state.mode.presenter,
            dispatch: state.dispatcher(),
        }
    }
}

#[function_component(Notices)]
fn notices(props: &NoticesProps) -> Html {
    {
        // Where notices float over the header, information goes by itself
        // after a while; an error stays until dismissed.
        let d = props.dispatch.clone();
        let info = props
            .notice
            .as_ref()
            .filter(|n| props.floats && n.kind == NoticeKind::Info)
            .map(|n| n.text.clone());
        use_effect_with(info, move |info| {
            let timer = info.clone().map(|text| {
                gloo_timers::callback::Timeout::new(NOTICE_MS, move || {
                    d.dispatch(Action::ExpireNotice(text))
                })
            });
            move || drop(timer)
        });
    }
    let Some(n) = props.notice.clone() else {
        return html! {};
    };
    let dismiss = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Notify(None)))
    };
    let class = if n.kind == NoticeKind::Error {
        "notice error"
    } else {
        "notice info"
    };
    html! {
        <div class={class} role={if n.kind == NoticeKind::Error { "alert" } else { "status" }} data-testid="notice">
            <span>{ n.text }</span>
            <button class="icon small" onclick={dismiss} aria-label="Dismiss">{"×"}</button>
        </div>
    }
}

/// The page's query string and fragment.
fn location() -> (String, String) {
    let loc = web_sys::window().map(|w| w.location());
    let search = loc
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let hash = loc.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    (search, hash)
}

/// The welcome panel, on a first visit to the free playground only.
fn welcome(state: &StateRef) -> Html {
    use components::welcome::DEMO_KEY;
    use workqueue_core::{Input, Script};
    let show = state.playback.idle && state.lesson.is_none() && !state.mode.embed;
    let d = state.dispatcher();
    let on_watch = {
        let d = d.clone();
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
    let on_lesson = Callback::from(move |_| d.dispatch(Action::StartLesson(0)));
    html! { <Welcome {show} {on_watch} {on_lesson} /> }
}

#[function_component(App)]
pub fn app() -> Html {
    // A reload reopens the run as it was left (never in an embed: its
    // state is its host page's address).
    let reloaded = use_memo((), |_| {
        let (search, _) = location();
        (!open::mode_of(&search).embed)
            .then(session::restored)
            .flatten()
    });
    let context = {
        let reloaded = reloaded.clone();
        store::use_store(move || {
            let (search, hash) = location();
            let opened = Playground::from_url(&search, &hash);
            match (*reloaded).clone() {
                Some(saved) => opened.reloaded(saved),
                None => opened,
            }
        })
    };
    let state = context.read();
    // The page's one lesson worker, handed to the components that ask it.
    let worker = {
        let d = context.dispatcher();
        (*use_memo((), move |_| {
            LessonWorker::new(Callback::from(move |a| d.dispatch(a)))
        }))
        .clone()
    };
    {
        // The run is saved as the page is hidden (a reload, a closed tab, a
        // phone's app switch), as it is then.
        let context = context.clone();
        use_effect_with((), move |_| session::save_when_hidden(context));
    }
    {
        // Lessons are read by the lesson worker; its replies come back here.
        // A lesson waited for: the worker is asked for it (a built-in file
        // is fetched first), once.
        // (Once per asking: its progress changes the pending lesson too.)
        let ticket = state
            .pending_lesson
            .as_ref()
            .map(|p| (p.id.clone(), p.ticket));
        let pending = state.pending_lesson.clone();
        let asker = worker.clone();
        use_effect_with(ticket, move |_| {
            if let Some(p) = pending {
                match &p.source {
                    Some((file, text)) => asker.open(file.clone(), text.clone()),
                    None if lessons::is_built_in(&p.id) => asker.fetch_built_in(&p.id),
                    None => {}
                }
            }
        });
        // In a room, the course's next lesson is fetched while this one is
        // shown: the press that opens it then shows it at once, in every
        // window of the workshop (no stage left over from the last lesson
        // that jumps when the next one arrives).
        let room = state.mode.workshop || state.mode.presenter || state.mode.audience;
        let upcoming = state
            .lesson
            .as_ref()
            .filter(|_| room && state.pending_lesson.is_none())
            .and_then(|l| state.next_lesson(l.index))
            .filter(|&i| state.library.get(i).is_none())
            .and_then(|i| state.library.entries().get(i).map(|e| e.id.clone()))
            .filter(|id| lessons::is_built_in(id));
        {
            let worker = worker.clone();
            use_effect_with(upcoming, move |id| {
                if let Some(id) = id {
                    worker.fetch_built_in(id);
                }
            });
        }
        // `?lesson-file=path`: a trainer's file from this site.
        let d = state.dispatcher();
        let reopened = reloaded.is_some();
        use_effect_with((), move |_| {
            if reopened {
                return; // the reloaded run holds the lesson, as it was left
            }
            let (search, _) = location();
            let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
            let param = |name: &str| params.as_ref().and_then(|p| p.get(name));
            if let Some(path) = param("lesson-file") {
                let step = param("step").and_then(|s| s.parse().ok()).unwrap_or(1);
                wasm_bindgen_futures::spawn_local(fetch::lesson_file(path, step, move |a| {
                    d.dispatch(a)
                }));
            }
        });
    }
    // The run as it is now, for the toolbar to save, share and export
    // when asked (it copies the whole tape).
    let run_now = {
        let context = context.clone();
        use_memo((), move |_| {
            Callback::from(move |_| context.read().shared())
        })
    };
    // The scenario as it is now, for a lesson's goal to be checked on.
    let scenario_now = {
        let context = context.clone();
        use_memo((), move |_| {
            Callback::from(move |_| context.read().current_scenario())
        })
    };
    // Frames only while something on the stage changes and someone can see
    // it: an embed scrolled away stops, and resumes where it was.
    let in_view = hooks::use_in_view(state.mode.embed);
    hooks::use_ticker(
        state.dispatcher(),
        in_view && state.wants_frames(),
        state.mode.presenter,
    );
    hooks::use_keyboard(
        state.dispatcher(),
        state.mode.workshop || state.mode.audience || state.mode.presenter,
    );
    hooks::use_workshop_link(&context);
    hooks::use_lesson_in_address(
        state.mode.embed,
        state.lesson.as_ref().and_then(|l| {
            let id = state.library.get(l.index)?.id.clone();
            Some((id, l.step))
        }),
    );
    hooks::use_roving_focus(state.mode.embed);
    // An embed's first paint stays until its lesson is on the page; a
    // projector's window shows nothing until then (no stage that jumps
    // when the lesson and the room's scale arrive).
    let projector = state.mode.workshop || state.mode.audience;
    // (A long file's reading shows its progress, though.)
    let waiting = state
        .pending_lesson
        .as_ref()
        .is_some_and(|p| state.mode.embed || p.progress.is_none());
    hooks::use_body_classes(state.mode, (state.mode.embed || projector) && waiting);
    hooks::use_header_height();
    hooks::use_room_scale();
    let narration = state.narration.clone();
    let manager_mode = state.is_manager();
    let logo = html! { <svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7"/><rect x="6" y="9" width="6" height="14" rx="2" class="l1"/><rect x="14" y="9" width="6" height="14" rx="2" class="l2"/><rect x="22" y="9" width="4" height="14" rx="2" class="l3"/></svg> };
    let brand = html! {
        <div class="brand">
            { logo.clone() }
            <div>
                <h1>{"Workqueue Playground"}</h1>
                <p class="tagline">{"What client-go's workqueue and controller rate limiting do to every key, exact to the nanosecond."}</p>
            </div>
        </div>
    };
    // The parts every layout draws, made once for whichever draws them.
    // In a room a step's figure takes the stage's place, as large as the
    // stage: the four plots side by side where the whole room can read them
    // (the stage's view is then not computed at all).
    let stage = match state.figure_shown() {
        Some(plots) => html! {
            <section class="stage-figure" data-testid="stage-figure" aria-label="The step's figure">
                <components::compare::Compare articles={plots} />
            </section>
        },
        None if manager_mode => {
            html! { <ManagerStage ..components::manager_stage::ManagerStageProps::of(&state, context.dispatcher()) /> }
        }
        None => {
            html! { <Stage ..components::stage::StageProps::of(&state, context.dispatcher()) /> }
        }
    };
    // A clicker's blank screen, over everything, in every layout.
    let notices = html! {
        <>
            <Notices ..NoticesProps::of(&state) />
            // (The presenter's own window keeps its notes: it says the
            // projector is blank instead of going black itself.)
            { match (state.blank, state.mode.presenter) {
                (true, false) => html! {
                    <div class="blank-screen" data-testid="blank-screen" role="status" aria-label="The screen is blank: press b, . or Escape to show it again"></div>
                },
                (true, true) => html! {
                    <div class="projector-blank" data-testid="projector-blank" role="status">{"The projector is blank: b, . or Escape shows it again."}</div>
                },
                _ => html! {},
            } }
        </>
    };
    let refusal = html! { <LessonRefusal refused={state.refused_lesson.clone()} dispatch={context.dispatcher()} /> };
    // A step's dwell ends by itself, with no frame to draw (the run may be
    // paused): the panel is drawn again then, so Next says it may go on.
    {
        let dwell_ends = state
            .press_from(hooks::now_ms())
            .dwell
            .map(|(since, _)| since + lesson_state::MIN_DWELL_MS);
        let redraw = use_force_update();
        use_effect_with(dwell_ends.map(f64::to_bits), move |ends| {
            let timer = ends.map(|bits| {
                let wait = (f64::from_bits(bits) - hooks::now_ms()).max(0.0) + 20.0;
                gloo_timers::callback::Timeout::new(wait as u32, move || redraw.force_update())
            });
            move || drop(timer)
        });
    }
    let lesson_panel = html! { <LessonPanel ..LessonPanelProps::of(&state, context.dispatcher(), worker.clone(), (*scenario_now).clone()) /> };
    // A phone's embed shows the story and the stage in turn.
    let place = state.lesson.as_ref().map(|l| {
        let answered = l.guess().is_some();
        (l.index, l.step, l.visit.pages.at, l.visit.asked, answered)
    });
    let (turn, on_turn) =
        components::embed_turn::use_turn(place, state.mode.embed && state.playback.playing);
    if state.mode.embed {
        use components::embed_turn::TurnSwitch;
        // The name is a way out: the same lesson and step in the whole
        // playground, in a new tab (a built-in lesson's id is plain letters).
        let full = state.lesson.as_ref().and_then(|l| {
            let id = &state.library.get(l.index)?.id;
            lessons::is_built_in(id).then(|| format!("./?lesson={id}&step={}", l.step + 1))
        });
        let brand = match full {
            Some(href) => html! {
                <a class="brand" {href} target="_blank" rel="noopener" data-testid="open-full" title="Open this lesson in Workqueue Playground (a new tab)">
                    { logo }
                    <div><h1>{"Workqueue Playground"}<span class="ext" aria-hidden="true">{" ↗"}</span></h1></div>
                    <span class="sr-only">{" (opens this lesson in a new tab)"}</span>
                </a>
            },
            None => brand,
        };
        return html! {
            <>
                <header class="top compact">
                    { brand }
                    // Shown while the keyboard is in the frame: how to move
                    // between its controls, one Tab stop of the host page.
                    <p class="keys-hint" aria-hidden="true">{"← → between controls · Tab leaves"}</p>
                    <Transport view={TransportView::of(&state)} dispatch={context.dispatcher()} />
                </header>
                { notices }
                // A frame of fixed height (the snippet sets it): the stage
                // beside the narration, which is paged to fit, never cut
                // (on a phone the two take turns).
                <TurnSwitch {turn} {on_turn} />
                <main class="embed-layout" data-turn={turn.id()}>
                    // A lesson about a manager shows its controllers here too.
                    { stage }
                    <div class="embed-side">
                        { refusal }
                        { lesson_panel }
                        // A lesson's narration has the side to itself.
                        { if state.lesson.is_none() && state.pending_lesson.is_none() { html! { <Inspector ..InspectorProps::of(&state, context.dispatcher()) /> } } else { html! {} } }
                    </div>
                </main>
                <div class="sr-only" aria-live="polite" data-testid="narration">{ narration }</div>
            </>
        };
    }
    if state.mode.audience {
        // The projector: the stage and the narration, nothing else. The
        // presenter's window holds the workshop (see `presenter`).
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
                            { { let (class, text) = components::transport::pace_cue(&state);
                                html! { <span class={classes!("pace", class)} data-testid="pace">{ text }</span> } } }
                        </p>
                        { stage }
                    </div>
                </main>
                <div class="sr-only" aria-live="polite" data-testid="narration">{ narration }</div>
            </>
        };
    }
    if state.mode.presenter {
        // The trainer's screen: notes, the answer, the next step, the
        // clicker (the lesson panel's Back and Next) and a small live stage.
        return html! {
            <>
                <header class="top compact">{ brand }<Transport view={TransportView::of(&state)} dispatch={context.dispatcher()} /></header>
                { notices }
                <main class="presenter-layout">
                    <components::presenter::PresenterPanel ..components::presenter::PresenterProps::of(&state, context.dispatcher()) />
                    <div class="presenter-side">
                        <div class="presenter-stage" aria-label="The stage, as the room sees it">{ stage }</div>
                        { refusal }
                        { lesson_panel }
                    </div>
                </main>
                <div class="sr-only" aria-live="polite" data-testid="narration">{ narration }</div>
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
    html! {
        <>
            // A link, not a fragment: the address's fragment is a share link's.
            <a class="skip-link" href="" onclick={skip_to_stage} data-testid="skip-link">{"Skip to the stage"}</a>
            <header class="top">
                { brand }
                <Transport view={TransportView::of(&state)} dispatch={context.dispatcher()} />
                <Toolbar library={state.library.clone()} current={state.lesson.as_ref().map(|l| l.index)} workshop={state.mode.workshop}
                    go_import={state.go_import.clone()} run={(*run_now).clone()} worker={worker.clone()} dispatch={context.dispatcher()} />
            </header>
            { notices }
            // The stage is the hero: the lesson and the actions above it, the
            // details one click away beside it.
            <main class="layout">
                <div class="center">
                    { welcome(&state) }
                    { refusal }
                    { lesson_panel }
                    { if manager_mode { stage } else { html! { <><Inputs settings={state.settings.clone()} resync_active={state.resync_active()} dispatch={context.dispatcher()} />{ stage }</> } } }
                </div>
                <Side ..SideProps::of(&state, context.run(), context.dispatcher()) />
            </main>
            <div class="sr-only" aria-live="polite" data-testid="narration">{ narration }</div>
        </>
    }
}
