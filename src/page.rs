//! What every layout of the page shares: the store opened from the address,
//! the lesson worker, the hooks that drive the run, and the parts each
//! layout draws (the stage, the lesson, notices). The whole playground
//! ([`crate::app`]) and an embed ([`crate::embed`]) are two entries over it:
//! an embed's module carries none of the other layouts.

use crate::state::UiAction;
use yew::prelude::*;

use crate::components::embed_turn::{self, Turn};
use crate::components::inspector::{Inspector, InspectorProps};
use crate::components::lesson::{LessonPanel, LessonPanelProps};
use crate::components::manager_stage::{ManagerStage, ManagerStageProps};
use crate::components::refusal::LessonRefusal;
use crate::components::stage::{Stage, StageProps};
use crate::hooks;
use crate::lesson_state;
use crate::lesson_worker::LessonWorker;
use crate::lessons;
use crate::notice::{Notice, NoticeKind};
use crate::open;
use crate::session;
use crate::state::{Action, Playground};
use crate::store::{self, Dispatcher, PlaygroundContext, StateRef};
use workqueue_core::Scenario;

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
            notice: state.ui.notice.clone(),
            floats: state.workshop.mode.workshop
                || state.workshop.mode.embed
                || state.workshop.mode.presenter,
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
                    d.dispatch(Action::Ui(UiAction::ExpireNotice(text)))
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
        Callback::from(move |_| d.dispatch(Action::Ui(UiAction::Notify(None))))
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

/// What an entry reads from its address. The whole page reads everything
/// (a share link's fragment, the run a reload left, `?lesson-file=`); an
/// embed's own entry reads a built-in lesson only (index.html's starter
/// sends any other embed to the page's module), so its module carries none
/// of those readers, nor the inspector a lesson's embed never shows.
#[derive(Clone, Copy)]
pub(crate) struct Reader {
    /// The store as the address opens it, and whether a reload's run was
    /// restored (its lesson is then in it already).
    pub(crate) open: fn(search: &str, hash: &str) -> (Playground, bool),
    /// Fetches `?lesson-file=`'s lesson, where the entry reads one.
    pub(crate) lesson_file: Option<fn(path: String, step: usize, dispatch: Dispatcher)>,
    /// The side's inspector, where the layout can show one.
    pub(crate) inspector: fn(&StateRef) -> Html,
}

impl Reader {
    /// The whole page's reader.
    pub(crate) const PAGE: Reader = Reader {
        open: |search, hash| {
            // A reload reopens the run as it was left (never in an embed:
            // its state is its host page's address).
            let saved = (!open::mode_of(search).embed)
                .then(session::restored)
                .flatten();
            let opened = Playground::from_url(search, hash);
            match saved {
                Some(saved) => (opened.reloaded(saved), true),
                None => (opened, false),
            }
        },
        lesson_file: Some(|path, step, d| {
            wasm_bindgen_futures::spawn_local(crate::fetch::lesson_file(path, step, move |a| {
                d.dispatch(a)
            }))
        }),
        inspector,
    };

    /// An embed's own entry: a built-in lesson named by the address.
    pub(crate) const BUILT_IN_LESSON: Reader = Reader {
        open: |search, _| (Playground::from_address(search), false),
        lesson_file: None,
        inspector: |_| Html::default(),
    };
}

/// The page's store, worker and turn, made by [`use_page`] for a layout.
pub(crate) struct Page {
    /// What the entry reads (and whether it draws an inspector).
    pub(crate) reader: Reader,
    pub(crate) context: PlaygroundContext,
    /// The page's one lesson worker, handed to the components that ask it.
    pub(crate) worker: LessonWorker,
    /// The scenario as it is now, for a lesson's goal to be checked on.
    pub(crate) scenario_now: Callback<(), Scenario>,
    /// A phone's embed shows the story and the stage in turn.
    pub(crate) turn: Turn,
    pub(crate) on_turn: Callback<Turn>,
}

/// Opens the page from its address (or, outside an embed, from the run a
/// reload left) and runs what every layout needs: lessons fetched and read,
/// the clock's frames while something moves in view, the keyboard, the
/// address kept, the body's classes.
#[hook]
pub(crate) fn use_page(reader: Reader) -> Page {
    let reopened = use_mut_ref(|| false);
    let context = {
        let reopened = reopened.clone();
        store::use_store(move || {
            let (search, hash) = location();
            let (opened, restored) = (reader.open)(&search, &hash);
            *reopened.borrow_mut() = restored;
            opened
        })
    };
    let state = context.read();
    let worker = {
        let d = context.dispatcher();
        (*use_memo((), move |_| {
            LessonWorker::new(Callback::from(move |a| d.dispatch(a)))
        }))
        .clone()
    };
    {
        // Lessons are read by the lesson worker; its replies come back here.
        // A lesson waited for: the worker is asked for it (a built-in file
        // is fetched first), once.
        // (Once per asking: its progress changes the pending lesson too.)
        let ticket = state
            .lessons
            .pending
            .as_ref()
            .map(|p| (p.id.clone(), p.ticket));
        let pending = state.lessons.pending.clone();
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
        let room = state.workshop.mode.workshop
            || state.workshop.mode.presenter
            || state.workshop.mode.audience;
        let upcoming = state
            .lessons
            .current
            .as_ref()
            .filter(|_| room && state.lessons.pending.is_none())
            .and_then(|l| state.next_lesson(l.index))
            .filter(|&i| state.lessons.library.get(i).is_none())
            .and_then(|i| state.lessons.library.entries().get(i).map(|e| e.id.clone()))
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
        let reopened = *reopened.borrow();
        use_effect_with((), move |_| {
            if reopened {
                return; // the reloaded run holds the lesson, as it was left
            }
            let Some(fetch) = reader.lesson_file else {
                return;
            };
            let (search, _) = location();
            let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
            let param = |name: &str| params.as_ref().and_then(|p| p.get(name));
            if let Some(path) = param("lesson-file") {
                let step = param("step").and_then(|s| s.parse().ok()).unwrap_or(1);
                fetch(path, step, d);
            }
        });
    }
    let scenario_now = {
        let context = context.clone();
        (*use_memo((), move |_| {
            Callback::from(move |_| context.read().current_scenario())
        }))
        .clone()
    };
    // Frames only while something on the stage changes and someone can see
    // it: an embed scrolled away stops, and resumes where it was.
    let in_view = hooks::use_in_view(state.workshop.mode.embed);
    hooks::use_ticker(
        state.dispatcher(),
        in_view && state.wants_frames(),
        state.workshop.mode.presenter,
    );
    hooks::use_keyboard(
        state.dispatcher(),
        state.workshop.mode.workshop
            || state.workshop.mode.audience
            || state.workshop.mode.presenter,
        state.workshop.mode.embed,
    );
    hooks::use_lesson_in_address(
        state.workshop.mode.embed,
        state.lessons.current.as_ref().and_then(|l| {
            let id = state.lessons.library.get(l.index)?.id.clone();
            Some((id, l.step))
        }),
    );
    hooks::use_roving_focus(state.workshop.mode.embed);
    // An embed's first paint stays until its lesson is on the page; a
    // projector's window shows nothing until then (no stage that jumps
    // when the lesson and the room's scale arrive).
    let projector = state.workshop.mode.workshop || state.workshop.mode.audience;
    // (A long file's reading shows its progress, though.)
    let waiting = state
        .lessons
        .pending
        .as_ref()
        .is_some_and(|p| state.workshop.mode.embed || p.progress.is_none());
    hooks::use_body_classes(
        state.workshop.mode,
        (state.workshop.mode.embed || projector) && waiting,
    );
    hooks::use_header_height();
    hooks::use_room_scale();
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
    let place = state.lessons.current.as_ref().map(|l| {
        let answered = l.guess().is_some();
        (l.index, l.step, l.visit.pages.at, l.visit.asked, answered)
    });
    let (turn, on_turn) = embed_turn::use_turn(
        place,
        state.workshop.mode.embed && state.run.playback.playing,
    );
    drop(state);
    Page {
        reader,
        context,
        worker,
        scenario_now,
        turn,
        on_turn,
    }
}

/// The app's mark, in every header.
pub(crate) fn logo() -> Html {
    html! { <svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7"/><rect x="6" y="9" width="6" height="14" rx="2" class="l1"/><rect x="14" y="9" width="6" height="14" rx="2" class="l2"/><rect x="22" y="9" width="4" height="14" rx="2" class="l3"/></svg> }
}

/// The stage: a lesson about a manager shows its controllers.
pub(crate) fn stage(state: &StateRef) -> Html {
    if state.is_manager() {
        html! { <ManagerStage ..ManagerStageProps::of(state, state.controls()) /> }
    } else {
        html! { <Stage ..StageProps::of(state, state.controls()) /> }
    }
}

/// The notice, and a clicker's blank screen over everything.
pub(crate) fn notices(state: &StateRef) -> Html {
    html! {
        <>
            <Notices ..NoticesProps::of(state) />
            // (The presenter's own window keeps its notes: it says the
            // projector is blank instead of going black itself.)
            { match (state.workshop.blank, state.workshop.mode.presenter) {
                (true, false) => html! {
                    <div class="blank-screen" data-testid="blank-screen" role="status" aria-label="The screen is blank: press b, . or Escape to show it again"></div>
                },
                (true, true) => html! {
                    <div class="projector-blank" data-testid="projector-blank" role="status">{"The projector is blank: b, . or Escape shows it again."}</div>
                },
                _ => html! {},
            } }
        </>
    }
}

/// Why a lesson file was refused, where it was.
pub(crate) fn refusal(state: &StateRef) -> Html {
    let on_dismiss = state.controls().dismiss_refusal;
    html! { <LessonRefusal refused={state.lessons.refused.clone()} {on_dismiss} /> }
}

/// The lesson's panel: its narration, question and buttons.
pub(crate) fn lesson_panel(state: &StateRef, page: &Page) -> Html {
    let props = LessonPanelProps::of(
        state,
        state.controls().lesson,
        page.worker.clone(),
        page.scenario_now.clone(),
    );
    html! { <LessonPanel ..props /> }
}

/// An embed's inspector, where no lesson has the side to itself.
pub(crate) fn inspector(state: &StateRef) -> Html {
    if state.workshop.mode.embed && state.inspector_shown() {
        html! { <Inspector ..InspectorProps::of(state, &state.controls()) /> }
    } else {
        html! {}
    }
}

/// What a screen reader hears of the run.
pub(crate) fn narration(state: &StateRef) -> Html {
    html! { <div class="sr-only" aria-live="polite" data-testid="narration">{ state.ui.narration.clone() }</div> }
}
