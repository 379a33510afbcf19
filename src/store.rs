//! Where the page's state lives. [`Playground`] is a plain value: an action
//! changes it in place ([`Playground::apply`]), so a run of 250,000
//! keys is never copied to make the next frame (a copy of the run
//! takes longer than a frame). The app owns the one state and reads it
//! while it renders, through its [`PlaygroundContext`]; it hands each
//! component the values that component shows and the callbacks for what
//! it changes ([`Controls`]); the page's own hooks dispatch actions
//! through a [`Dispatcher`].

use std::cell::{OnceCell, Ref, RefCell};
use std::collections::VecDeque;
use std::ops::Deref;
use std::rc::Rc;

use yew::prelude::*;

use crate::state::{Action, Playground};

pub mod controls;
use controls::Controls;

/// The one state, and the actions waiting to be applied to it.
struct Store {
    state: RefCell<Playground>,
    /// Actions dispatched while the state was being read or changed: they
    /// are applied in order as soon as it is free.
    waiting: RefCell<VecDeque<Action>>,
    /// Tells the app that a change shows (with the state's revision).
    shown: RefCell<Callback<u64>>,
    /// The parts' callbacks, made once (see [`Controls`]).
    controls: OnceCell<Controls>,
}

impl Store {
    fn dispatch(self: &Rc<Self>, action: Action) {
        self.waiting.borrow_mut().push_back(action);
        self.apply_waiting();
    }

    fn apply_waiting(self: &Rc<Self>) {
        let Ok(mut state) = self.state.try_borrow_mut() else {
            // A render is reading it, or an action is being applied: the
            // action waits for the next turn of the event loop.
            self.later();
            return;
        };
        let mut shows = false;
        loop {
            let next = self.waiting.borrow_mut().pop_front();
            let Some(action) = next else { break };
            shows |= state.apply(action);
        }
        let rev = state.rev;
        drop(state);
        if shows {
            let shown = self.shown.borrow().clone();
            shown.emit(rev);
        }
    }

    /// The callbacks the parts change the state through: the same ones on
    /// every render (they hold the store weakly: a store is not kept alive
    /// by its own callbacks).
    fn controls(self: &Rc<Self>) -> Controls {
        let store = Rc::downgrade(self);
        self.controls
            .get_or_init(|| {
                Controls::to(Rc::new(move |action| {
                    if let Some(store) = store.upgrade() {
                        store.dispatch(action);
                    }
                }))
            })
            .clone()
    }

    #[cfg(target_arch = "wasm32")]
    fn later(self: &Rc<Self>) {
        let me = Rc::downgrade(self);
        gloo_timers::callback::Timeout::new(0, move || {
            if let Some(me) = me.upgrade() {
                me.apply_waiting();
            }
        })
        .forget();
    }

    /// Natively (tests, tools) nothing renders, so the state is never read
    /// while an action is dispatched: nothing ever waits here.
    #[cfg(not(target_arch = "wasm32"))]
    fn later(self: &Rc<Self>) {}
}

/// The state as components see it: read it while rendering
/// ([`PlaygroundContext::read`]), change it by dispatching. Two contexts are
/// equal while the state has not changed in a way that shows.
#[derive(Clone)]
pub struct PlaygroundContext {
    store: Rc<Store>,
    rev: u64,
}

impl PartialEq for PlaygroundContext {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.store, &other.store) && self.rev == other.rev
    }
}

impl PlaygroundContext {
    /// A context around `state` alone (tests, tools): changes show nowhere.
    pub fn new(state: Playground) -> PlaygroundContext {
        PlaygroundContext {
            rev: state.rev,
            store: Rc::new(Store {
                state: RefCell::new(state),
                waiting: RefCell::new(VecDeque::new()),
                shown: RefCell::new(Callback::noop()),
                controls: OnceCell::new(),
            }),
        }
    }

    /// The state, to read while rendering (not to keep: an action waits
    /// while it is held).
    pub fn read(&self) -> StateRef<'_> {
        StateRef {
            state: self.store.state.borrow(),
            context: self,
        }
    }

    pub fn dispatcher(&self) -> Dispatcher {
        Dispatcher(self.store.clone())
    }

    pub fn dispatch(&self, action: Action) {
        self.store.dispatch(action);
    }

    /// The parts' callbacks (see [`Controls`]).
    pub fn controls(&self) -> Controls {
        self.store.controls()
    }

    /// The run alone, to read (see [`RunRef`]).
    pub fn run(&self) -> RunRef {
        RunRef {
            run: self.read().run.timeline.rev(),
            context: self.clone(),
        }
    }
}

/// The run alone, read-only: for the panels that show a large part of it
/// only while they are open (the charts, the log, the totals), which read
/// it as they draw, through the core's views, and change nothing. Two are
/// equal while the run's own revision is ([`crate::timeline::Timeline::rev`]):
/// they draw again when the run changes, not when the rest of the page does.
#[derive(Clone)]
pub struct RunRef {
    context: PlaygroundContext,
    run: u64,
}

impl PartialEq for RunRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.context.store, &other.context.store) && self.run == other.run
    }
}

impl RunRef {
    /// Reads the whole run (every controller).
    pub fn engine<R>(&self, f: impl FnOnce(&workqueue_core::Manager) -> R) -> R {
        f(self.context.read().engine())
    }

    /// Reads the stage's controller.
    pub fn sim<R>(&self, f: impl FnOnce(&workqueue_core::Controller) -> R) -> R {
        f(self.context.read().sim())
    }

    /// Reads the stage's controller with the run's token buckets.
    pub fn sim_and_buckets<R>(
        &self,
        f: impl FnOnce(&workqueue_core::Controller, &workqueue_core::BucketStore) -> R,
    ) -> R {
        let p = self.context.read();
        f(p.sim(), p.buckets())
    }
}

/// The state being read, with a way to ask for changes.
pub struct StateRef<'a> {
    state: Ref<'a, Playground>,
    context: &'a PlaygroundContext,
}

impl Deref for StateRef<'_> {
    type Target = Playground;

    fn deref(&self) -> &Playground {
        &self.state
    }
}

impl StateRef<'_> {
    pub fn dispatcher(&self) -> Dispatcher {
        self.context.dispatcher()
    }

    /// The parts' callbacks (see [`Controls`]).
    pub fn controls(&self) -> Controls {
        self.context.controls()
    }

    /// The context the state was read from, to keep in a callback.
    pub fn context(&self) -> PlaygroundContext {
        self.context.clone()
    }
}

/// Sends actions to the state; cheap to clone into callbacks.
#[derive(Clone)]
pub struct Dispatcher(Rc<Store>);

impl PartialEq for Dispatcher {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Dispatcher {
    pub fn dispatch(&self, action: Action) {
        self.0.dispatch(action);
    }

    /// The parts' callbacks (see [`Controls`]).
    pub fn controls(&self) -> Controls {
        self.0.controls()
    }
}

/// The app's one state, made by `init` on the first render.
#[hook]
pub fn use_store<F>(init: F) -> PlaygroundContext
where
    F: FnOnce() -> Playground + 'static,
{
    let context = use_memo((), move |_| PlaygroundContext::new(init()));
    let rev = use_state_eq(|| context.rev);
    let setter = rev.setter();
    *context.store.shown.borrow_mut() = Callback::from(move |r| setter.set(r));
    PlaygroundContext {
        store: context.store.clone(),
        rev: *rev,
    }
}
