//! The channel between a workshop's windows (see [`crate::presenter`]): a
//! `BroadcastChannel` named after the page's path and the room, opened
//! only in a presenter's or an audience window.

use crate::state::WorkshopAction;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::Action;
use crate::store::PlaygroundContext;
use crate::workshop::{self, Message, Role};

/// How often the presenter's window says the instant while it plays (ms).
const CLOCK_MS: u32 = 100;
/// Every this many clock ticks, the whole state goes too: a message lost
/// (a window busy, asleep) is made good within a second.
const STATE_EVERY: u32 = 10;
/// A presenter's window that reloads waits this long (ms) for an audience
/// window to answer its hello with the workshop, before it speaks itself.
const ADOPT_MS: u32 = 800;

/// Connects this window to the others of its workshop.
#[hook]
pub fn use_workshop_link(context: &PlaygroundContext) {
    let state = context.read();
    let role = if state.workshop.mode.presenter {
        Some(Role::Presenter)
    } else if state.workshop.mode.audience {
        Some(Role::Audience)
    } else {
        None
    };
    let channel = use_mut_ref(|| None::<web_sys::BroadcastChannel>);
    // Whether the presenter's window says its state: not yet when it has
    // just been reloaded and an audience window may hold the workshop.
    let speaking = use_mut_ref(|| true);
    {
        let (channel, context) = (channel.clone(), context.clone());
        let speaking = speaking.clone();
        use_effect_with(role, move |role| {
            let link = role.and_then(|role| Link::open(role, context, speaking));
            *channel.borrow_mut() = link.as_ref().map(|l| l.channel.clone());
            move || drop(link)
        });
    }
    // The presenter says each change as it happens.
    // (Not while a lesson is on its way: the state would say none is open.)
    let signature = (state.workshop.mode.presenter && state.lessons.pending.is_none())
        .then(|| state.mirror_signature(crate::hooks::now_ms()));
    {
        let (channel, context, speaking) = (channel.clone(), context.clone(), speaking.clone());
        use_effect_with(signature, move |signature| {
            if signature.is_some() && *speaking.borrow() {
                let mirror = context.read().mirror(crate::hooks::now_ms());
                post(channel.borrow().as_ref(), &Message::State(mirror));
            }
        });
    }
    // An audience window sends what was done in it, once each.
    let sent = use_mut_ref(|| 0u64);
    {
        let outbox = state.workshop.outbox.clone();
        use_effect_with(outbox, move |outbox| {
            let mut last = sent.borrow_mut();
            let from = *last;
            for (seq, remote) in outbox.iter().filter(|(seq, _)| *seq > from) {
                post(channel.borrow().as_ref(), &Message::Do(remote.clone()));
                *last = *seq;
            }
        });
    }
}

fn post(channel: Option<&web_sys::BroadcastChannel>, m: &Message) {
    if let Some(c) = channel {
        let _ = c.post_message(&workshop::encode(m).into());
    }
}

/// An open channel and what listens on it; closed when dropped.
struct Link {
    channel: web_sys::BroadcastChannel,
    _on_message: Closure<dyn Fn(web_sys::MessageEvent)>,
    _clock: Option<gloo_timers::callback::Interval>,
    _adopt: Option<gloo_timers::callback::Timeout>,
}

impl Link {
    fn open(role: Role, context: PlaygroundContext, speaking: Rc<RefCell<bool>>) -> Option<Link> {
        let d = context.dispatcher();
        // What this window would say of its workshop: nothing while a
        // lesson is still on its way (it has no step to say).
        let mirror = {
            let context = context.clone();
            move || {
                let s = context.read();
                s.lessons
                    .pending
                    .is_none()
                    .then(|| s.mirror(crate::hooks::now_ms()))
            }
        };
        let location = web_sys::window()?.location();
        let search = location.search().ok()?;
        let room = crate::open::room_of(&search).unwrap_or_else(|| "1".into());
        let path = location.pathname().ok()?;
        let channel = web_sys::BroadcastChannel::new(&workshop::channel_name(&path, &room)).ok()?;
        // A reloaded presenter's window listens first: an audience window
        // holds the step, the predictions and the instant it had.
        let adopting = role == Role::Presenter && crate::session::is_reload();
        *speaking.borrow_mut() = !adopting;
        let on_message = {
            let (channel, speaking, mirror) = (channel.clone(), speaking.clone(), mirror.clone());
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let Some(m) = e.data().as_string().and_then(|t| workshop::decode(&t)) else {
                    return;
                };
                match (role, m) {
                    // A window (re)opened: the other side answers with the
                    // workshop as it holds it (an audience window answers
                    // a presenter's window that reloaded).
                    (_, Message::Hello { from })
                        if from != role && (role == Role::Audience || *speaking.borrow()) =>
                    {
                        if let Some(m) = mirror() {
                            post(Some(&channel), &Message::State(m));
                        }
                    }
                    (Role::Audience, Message::State(m)) => d.dispatch(Action::Workshop(
                        WorkshopAction::Follow(Box::new(m), crate::hooks::now_ms()),
                    )),
                    (Role::Audience, Message::Clock(c)) => {
                        d.dispatch(Action::Workshop(WorkshopAction::FollowClock(c)))
                    }
                    (Role::Presenter, Message::Do(remote)) => {
                        d.dispatch(remote.action(crate::hooks::now_ms()))
                    }
                    (Role::Presenter, Message::State(m)) if !*speaking.borrow() => {
                        *speaking.borrow_mut() = true;
                        d.dispatch(Action::Workshop(WorkshopAction::Follow(
                            Box::new(m),
                            crate::hooks::now_ms(),
                        )))
                    }
                    _ => {}
                }
            })
        };
        channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // No audience window answered: the presenter's window speaks.
        let adopt = adopting.then(|| {
            let (channel, speaking, mirror) = (channel.clone(), speaking.clone(), mirror.clone());
            gloo_timers::callback::Timeout::new(ADOPT_MS, move || {
                if !*speaking.borrow() {
                    *speaking.borrow_mut() = true;
                    if let Some(m) = mirror() {
                        post(Some(&channel), &Message::State(m));
                    }
                }
            })
        });
        let clock = (role == Role::Presenter).then(|| {
            let (channel, ticks) = (channel.clone(), Cell::new(0u32));
            let speaking = speaking.clone();
            gloo_timers::callback::Interval::new(CLOCK_MS, move || {
                let s = context.read();
                if !*speaking.borrow() || s.lessons.pending.is_some() {
                    return;
                }
                ticks.set(ticks.get().wrapping_add(1));
                if ticks.get() % STATE_EVERY == 0 {
                    post(
                        Some(&channel),
                        &Message::State(s.mirror(crate::hooks::now_ms())),
                    );
                } else if s.run.playback.playing {
                    post(Some(&channel), &Message::Clock(s.clock()));
                }
            })
        });
        post(Some(&channel), &Message::Hello { from: role });
        Some(Link {
            channel,
            _on_message: on_message,
            _clock: clock,
            _adopt: adopt,
        })
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.channel.set_onmessage(None);
        self.channel.close();
    }
}
