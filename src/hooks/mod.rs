//! Hooks that connect the playground to the browser: the animation clock and
//! keyboard shortcuts.

use crate::state::{LessonAction, RunAction, WorkshopAction};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::store::Dispatcher;

use crate::state::Action;

mod roving;
mod travel;
mod workshop_link;
pub use roving::use_roving_focus;
pub use travel::use_travel;
pub use workshop_link::use_workshop_link;

/// Milliseconds since page load (the browser's monotonic clock).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Gives `el` the keyboard without scrolling anything: the page (or an
/// embed's host) stays where the person is looking.
pub fn focus_quietly(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Puts a card drawn over the page (`position: fixed`) beside `anchor`
/// rather than on it: below it where it fits, else above it, else at the
/// foot of the window. What the card explains stays readable beside it.
pub fn place_beside(card: &web_sys::HtmlElement, anchor: &web_sys::Element) {
    const GAP: f64 = 6.0;
    let Some(window_height) = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
    else {
        return;
    };
    // Where `top: 0` puts the card: an ancestor may hold fixed boxes (a
    // transform, a containment), so that is not always the window's top.
    let style = card.style();
    let _ = style.set_property("transform", "none");
    let _ = style.set_property("top", "0px");
    let drawn = card.get_bounding_client_rect();
    let (origin, height) = (drawn.top(), drawn.height());
    let at = anchor.get_bounding_client_rect();
    let top = if at.bottom() + GAP + height <= window_height - GAP {
        at.bottom() + GAP
    } else if at.top() - GAP - height >= GAP {
        at.top() - GAP - height
    } else {
        (window_height - height - GAP).max(GAP)
    };
    let _ = style.set_property("top", &format!("{:.0}px", top - origin));
}

/// Whether this document has the keyboard (in an iframe: whether the
/// reader clicked or tabbed into it).
pub fn page_has_focus() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.has_focus().ok())
        .unwrap_or(false)
}

/// Whether the page is a phone's width (the stylesheet's `max-width: 560px`).
pub fn narrow() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 560.0)
}

/// Ticks the playground once per animation frame (`requestAnimationFrame`)
/// with the real time elapsed, so each tick lands on a frame the browser
/// paints, but only while `live`: a paused run, a step held for a
/// prediction, an embed scrolled out of view ask for no frame at all, so
/// they cost nothing. When frames start again the first one counts no time
/// (the run resumes where it stopped, never leaps). A hidden tab gets no
/// frames either; the reducer caps each tick.
#[hook]
pub fn use_ticker(dispatch: Dispatcher, live: bool, presenter: bool) {
    let frames = {
        let dispatch = dispatch.clone();
        use_memo((), move |_| FrameLoop::new(dispatch))
    };
    {
        let frames = frames.clone();
        use_effect_with(live, move |live| {
            frames.set_live(*live);
        });
    }
    // A presenter's window the browser paints seldom (behind the
    // projector's window the trainer works in) still holds the workshop and
    // moves it on: while it should play and no frame came for a while, a
    // timer ticks in the frame's place.
    {
        let frames = frames.clone();
        use_effect_with(live && presenter, move |&on| {
            let fallback = on.then(|| {
                gloo_timers::callback::Interval::new(FALLBACK_MS, move || {
                    let now = now_ms();
                    let prev = frames.last.get().unwrap_or(now);
                    if frames.live.get() && now - prev >= 2.0 * f64::from(FALLBACK_MS) {
                        frames.last.set(Some(now));
                        tick(&dispatch, now - prev);
                    }
                })
            });
            move || drop(fallback)
        });
    }
    use_effect_with((), move |_| move || frames.set_live(false));
}

/// How often (ms) a presenter's window checks that frames still come.
const FALLBACK_MS: u32 = 50;

/// One tick of `real_ms`, a frame's or the timer's. The reducer runs inside
/// `dispatch`: timed here, it fits the next frames' work to this device
/// (the reducer reads no clock).
fn tick(dispatch: &Dispatcher, real_ms: f64) {
    let started = now_ms();
    dispatch.dispatch(Action::Run(RunAction::Tick(real_ms)));
    dispatch.dispatch(Action::Run(RunAction::FrameWork(now_ms() - started)));
}

/// The animation-frame loop behind [`use_ticker`]: at most one frame asked
/// for at a time, none while not live.
struct FrameLoop {
    live: Cell<bool>,
    /// The frame asked for and not yet run (to cancel it).
    pending: Cell<Option<i32>>,
    /// The last frame's time; none after a stop.
    last: Cell<Option<f64>>,
    callback: RefCell<Option<FrameCallback>>,
}

type FrameCallback = Closure<dyn FnMut(f64)>;

impl FrameLoop {
    fn new(dispatch: Dispatcher) -> Rc<FrameLoop> {
        let frames = Rc::new(FrameLoop {
            live: Cell::new(false),
            pending: Cell::new(None),
            last: Cell::new(None),
            callback: RefCell::new(None),
        });
        // The callback holds the loop weakly: the loop owns it.
        let weak = Rc::downgrade(&frames);
        *frames.callback.borrow_mut() = Some(Closure::new(move |t: f64| {
            let Some(me) = weak.upgrade() else { return };
            me.pending.set(None);
            if !me.live.get() {
                return;
            }
            let prev = me.last.replace(Some(t)).unwrap_or(t);
            // (A timer's tick may have come since the last frame.)
            let prev = prev.min(t);
            tick(&dispatch, t - prev);
            // (The render the tick caused may have stopped the loop.)
            if me.live.get() {
                me.ask();
            }
        }));
        frames
    }

    fn set_live(&self, live: bool) {
        self.live.set(live);
        if live {
            self.ask();
        } else {
            if let (Some(id), Some(w)) = (self.pending.take(), web_sys::window()) {
                let _ = w.cancel_animation_frame(id);
            }
            self.last.set(None);
        }
    }

    /// Asks for the next frame, unless one is already asked for.
    fn ask(&self) {
        if self.pending.get().is_some() {
            return;
        }
        let callback = self.callback.borrow();
        if let (Some(f), Some(w)) = (callback.as_ref(), web_sys::window()) {
            if let Ok(id) = w.request_animation_frame(f.as_ref().unchecked_ref()) {
                self.pending.set(Some(id));
            }
        }
    }
}

/// Whether the page is in view. In an embed that is whether half of its
/// frame or more shows in the reader's window (an `IntersectionObserver` on
/// the frame's own document reports against the top page's viewport): a
/// frame peeking in at the screen's foot is not watched yet, and a scene
/// that plays by itself waits for its reader. The page itself always
/// counts as in view.
#[hook]
pub fn use_in_view(embed: bool) -> bool {
    // The share of the frame that counts as watched.
    const WATCHED: f64 = 0.5;
    // An embed is not watched until its observer says so (its first report
    // comes within a frame): a scene that plays on load waits for it.
    let seen = use_state_eq(|| !embed);
    {
        let (seen, unseen) = (seen.clone(), seen.clone());
        use_effect_with(embed, move |embed| {
            let observed = embed.then(|| {
                let callback =
                    Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
                        // The latest entry says how it is now.
                        if let Some(e) = entries
                            .iter()
                            .last()
                            .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
                        {
                            let shown = e.is_intersecting() && e.intersection_ratio() >= WATCHED;
                            // Its CSS animations hold too (see `.offscreen`).
                            let _ = e
                                .target()
                                .class_list()
                                .toggle_with_force("offscreen", !shown);
                            seen.set(shown);
                        }
                    });
                let options = web_sys::IntersectionObserverInit::new();
                let thresholds = js_sys::Array::of2(&0.0.into(), &WATCHED.into());
                options.set_threshold(&thresholds);
                let observer = web_sys::IntersectionObserver::new_with_options(
                    callback.as_ref().unchecked_ref(),
                    &options,
                )
                .ok();
                let root = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.document_element());
                match (&observer, root) {
                    (Some(o), Some(root)) => o.observe(&root),
                    // No observer to ask (an old browser): always watched.
                    _ => unseen.set(true),
                }
                (observer, callback)
            });
            move || {
                if let Some((Some(o), _)) = &observed {
                    o.disconnect();
                }
                drop(observed);
            }
        });
    }
    *seen
}

/// Whether a key press belongs to what the user is typing or pressing: form
/// fields keep their keys, a focused button keeps space and enter, and
/// modified keys are the browser's.
pub fn typing_in_a_field(e: &KeyboardEvent) -> bool {
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name())
        .unwrap_or_default();
    let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") && e.key() != "Escape";
    let pressing = tag == "BUTTON" && matches!(e.key().as_str(), " " | "Enter");
    typing || pressing || e.ctrl_key() || e.meta_key() || e.alt_key()
}

/// A `keydown` listener on the window, removed when dropped.
pub struct KeyListener {
    handler: Closure<dyn Fn(KeyboardEvent)>,
}

impl KeyListener {
    pub fn new(f: impl Fn(KeyboardEvent) + 'static) -> KeyListener {
        let handler = Closure::<dyn Fn(KeyboardEvent)>::new(f);
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
        }
        KeyListener { handler }
    }
}

impl Drop for KeyListener {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "keydown",
                self.handler.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Space plays or pauses, arrows step, + and - change the speed, n and p (or
/// PageDown and PageUp, what presentation clickers send) move through a
/// lesson. (The number keys answer a reconcile: see the stage's decision.)
///
/// In a workshop's windows (`room`) a clicker's every key does what a
/// clicker means, wherever the focus is: PageDown and PageUp move, `b` and
/// `.` blank the projector (they type only into a field the trainer clicked
/// into: nothing puts the focus in one there), F5 and Shift+F5 go full
/// screen and back (never a reload that would end the workshop), Escape
/// shows a blank screen again.
///
/// In an embed (`guest`) PageDown, PageUp and Space are the post's reading
/// keys: they are left to the browser, which scrolls the post (a frame
/// with nothing to scroll hands the scroll to its host); `n`, `p` and the
/// lesson's own buttons move through the lesson.
#[hook]
pub fn use_keyboard(dispatch: Dispatcher, room: bool, guest: bool) {
    use_effect_with((room, guest), move |&(room, guest)| {
        let listener = KeyListener::new(move |e: KeyboardEvent| {
            let key = e.key();
            if guest && matches!(key.as_str(), "PageDown" | "PageUp" | " ") {
                return;
            }
            if room && key == "F5" {
                e.prevent_default();
                full_screen();
                return;
            }
            // A clicker's keys always drive the lesson, wherever focus is
            // (a focused select would otherwise change lesson on PageDown).
            let clicker = matches!(key.as_str(), "PageDown" | "PageUp" | "Escape");
            // In the room `b` blanks the projector from inside a field too
            // (no prediction or setting has a b in it); `.` does everywhere
            // but in a field, where it is a decimal point (".5", "1.5s").
            let blank_key = room
                && match key.as_str() {
                    "b" | "B" => true,
                    "." => !typing_in_a_field(&e),
                    _ => false,
                };
            // On the timeline's slider ← and → step by event as everywhere
            // else (the slider itself would move a nanosecond a press).
            let scrub = matches!(key.as_str(), "ArrowLeft" | "ArrowRight")
                && e.target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| el.has_attribute("data-scrub"));
            if blank_key || scrub {
                e.prevent_default();
            } else if typing_in_a_field(&e) && !clicker {
                return;
            }
            let action = match key.as_str() {
                "b" | "B" | "." if room => Action::Workshop(WorkshopAction::Blank),
                "Escape" if room => {
                    // (And out of a field the trainer clicked into: the
                    // clicker's `b` and `.` blank the screen again.)
                    if let Some(el) = web_sys::window()
                        .and_then(|w| w.document())
                        .and_then(|d| d.active_element())
                        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = el.blur();
                    }
                    dispatch.dispatch(Action::Workshop(WorkshopAction::Unblank));
                    Action::Run(RunAction::Select(None))
                }
                " " => Action::Run(RunAction::TogglePlay),
                "ArrowRight" => Action::Run(RunAction::Step),
                "ArrowLeft" => Action::Run(RunAction::StepBack),
                "+" | "=" => Action::Run(RunAction::Faster),
                "-" | "_" => Action::Run(RunAction::Slower),
                "Escape" => Action::Run(RunAction::Select(None)),
                "n" | "PageDown" => Action::Lesson(LessonAction::Next(now_ms())),
                "p" | "PageUp" => Action::Lesson(LessonAction::Back),
                _ => return,
            };
            e.prevent_default();
            dispatch.dispatch(action);
        });
        move || drop(listener)
    });
}

/// The page full screen, or back (a clicker's F5 and Shift+F5).
fn full_screen() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(root) = doc.document_element() {
        let _ = root.request_fullscreen();
    }
}

/// Keeps `--top-h` on the root element at the header's height, so panels
/// that fit the screen (the workshop's lesson, an embed's) know the room
/// below it, whatever the header wraps to. The header a render leaves on
/// the page is the one watched: a tree that draws a new header element (a
/// lesson arriving, a mode switch) moves the watch to it, so the figure
/// never stays at a detached header's 0.
#[hook]
pub fn use_header_height() {
    struct Watch {
        observer: web_sys::ResizeObserver,
        header: Option<web_sys::Element>,
        _on_resize: Closure<dyn Fn()>,
    }
    let watch = use_mut_ref(|| None::<Watch>);
    {
        let watch = watch.clone();
        use_effect(move || {
            let doc = web_sys::window().and_then(|w| w.document());
            let header = doc
                .as_ref()
                .and_then(|d| d.query_selector("header.top").ok().flatten());
            let mut slot = watch.borrow_mut();
            if slot.is_none() {
                let measure = move || {
                    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
                        return;
                    };
                    let height = doc
                        .query_selector("header.top")
                        .ok()
                        .flatten()
                        .and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok())
                        .map_or(0, |h| h.offset_height());
                    if let Some(root) = doc
                        .document_element()
                        .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = root.style().set_property("--top-h", &format!("{height}px"));
                    }
                };
                measure();
                let on_resize = Closure::<dyn Fn()>::new(measure);
                if let Ok(observer) =
                    web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref())
                {
                    *slot = Some(Watch {
                        observer,
                        header: None,
                        _on_resize: on_resize,
                    });
                }
            }
            if let Some(w) = slot.as_mut() {
                if w.header != header {
                    // (Observing a new element reports its size at once.)
                    w.observer.disconnect();
                    if let Some(h) = &header {
                        w.observer.observe(h);
                    }
                    w.header = header;
                }
            }
            || ()
        });
    }
    use_effect_with((), move |_| {
        move || {
            if let Some(w) = watch.borrow_mut().take() {
                w.observer.disconnect();
            }
        }
    });
}

/// The projector's scale: the room's layout is designed for a 1024x768
/// screen and drawn at `min(height / 768, width / 960)` of it (CSS `zoom`
/// on `body.room`, from `--room`), so a 1080p projector shows everything
/// 1.4 times as large as a 768p one, and 800x600 the 1024x768 layout at
/// 0.78: type, stage and panel in the same proportions at every size. The
/// height decides down to a 5:4 screen (1280x1024 is drawn at 1.33, the
/// layout 960 px wide), so the back row's type follows the screen's
/// height there too; only a narrower screen is limited by its width.
#[hook]
pub fn use_room_scale() {
    use_effect_with((), |_| {
        let set = || {
            let Some(w) = web_sys::window() else { return };
            let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| {
                v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
            };
            let (width, height) = (num(w.inner_width()), num(w.inner_height()));
            if width <= 0.0 || height <= 0.0 {
                return;
            }
            let scale = (height / 768.0).min(width / 960.0);
            if let Some(body) = w.document().and_then(|d| d.body()) {
                let _ = body.style().set_property("--room", &format!("{scale:.5}"));
            }
        };
        set();
        let on_resize = Closure::<dyn Fn()>::new(set);
        let window = web_sys::window();
        if let Some(w) = &window {
            let _ =
                w.add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = window {
                let _ = w.remove_event_listener_with_callback(
                    "resize",
                    on_resize.as_ref().unchecked_ref(),
                );
            }
            drop(on_resize);
        }
    });
}

/// Keeps the address's `lesson` and `step` on the step on screen, so a
/// copied address or a reload names the step the room is on (an embed's
/// address is its host's: left alone).
#[hook]
pub fn use_lesson_in_address(embed: bool, at: Option<(String, usize)>) {
    use_effect_with((embed, at), |(embed, at)| {
        let Some((id, step)) = at.as_ref().filter(|_| !*embed) else {
            return;
        };
        replace_search(|search| crate::open::with_lesson_step(search, id, step + 1));
    });
}

/// Puts the page-wide mode classes on `<body>` (workshop: large type and
/// high contrast; embed: compact; presenter, audience: a workshop's two
/// windows). While `waiting` (an embed's lesson on its way) the body keeps
/// `embed-wait`: the first paint stays over the app (see
/// [`crate::first_paint`]), and goes when the wait ends.
#[hook]
pub fn use_body_classes(mode: crate::state::Mode, waiting: bool) {
    use_effect_with((mode, waiting), |(mode, waiting)| {
        let (workshop, embed) = (&mode.workshop, &mode.embed);
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            // A projector's window (workshop, audience) is drawn at the
            // room's scale (`use_room_scale`); the presenter's laptop is not.
            let room = (mode.workshop || mode.audience) && !mode.presenter && !mode.embed;
            let classes: Vec<&str> = [
                (mode.workshop, "workshop"),
                (mode.embed, "embed"),
                (mode.presenter, "presenter"),
                (mode.audience, "audience"),
                (room, "room"),
                (*waiting && mode.embed, "embed-wait"),
                (*waiting && !mode.embed, "room-wait"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, c)| *c)
            .collect();
            body.set_class_name(&classes.join(" "));
        }
        if !*waiting {
            crate::first_paint::done();
        }
        // Workshop mode lives in the address too, so a reload keeps it (an
        // embed's address belongs to its host page: left alone).
        if !*embed {
            replace_search(|search| crate::open::with_workshop_param(search, *workshop));
        }
    });
}

/// Rewrites the address's query with `edit` in place (no new history
/// entry, path and fragment kept), where it changes anything.
fn replace_search(edit: impl FnOnce(&str) -> String) {
    let Some(w) = web_sys::window() else { return };
    let location = w.location();
    let search = location.search().unwrap_or_default();
    let wanted = edit(&search);
    if wanted == search {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{wanted}{hash}")),
        );
    }
}
