//! The callbacks the page's parts are handed for what they change: a part
//! calls one with a plain value (a key, an input, settings) and the action
//! is built here, so the parts know nothing of actions (as todomvc's
//! leaves take `Callback<T>` props). Made once per store: two renders hand
//! a part the same callbacks, and it draws again only when its values do.

use std::rc::Rc;

use workqueue_core::{Input, Instant, QueueKind};
use yew::Callback;

use crate::provider::Provider;
use crate::settings::Settings;
use crate::state::{Action, LessonAction, RunAction};

/// What the run's parts may ask of the run.
#[derive(Clone, PartialEq)]
pub struct Controls {
    /// A key selected, or none.
    pub select: Callback<Option<String>>,
    /// An input into the run (a key added, a reconcile's result chosen…).
    pub input: Callback<Input>,
    /// New settings: a new run.
    pub apply: Callback<Settings>,
    /// The same run on the other controller-runtime version.
    pub switch_queue: Callback<QueueKind>,
    /// Several controllers in one manager, as the form says.
    pub run_manager: Callback<Provider>,
    /// Back to the one controller of the settings.
    pub exit_manager: Callback<()>,
    /// A refused lesson file's message goes.
    pub dismiss_refusal: Callback<()>,
    pub transport: TransportCalls,
    pub lesson: LessonCalls,
}

/// What the time controls ask.
#[derive(Clone, PartialEq)]
pub struct TransportCalls {
    pub play_pause: Callback<()>,
    pub step: Callback<()>,
    pub step_back: Callback<()>,
    pub restart: Callback<()>,
    pub faster: Callback<()>,
    pub slower: Callback<()>,
    pub pacing: Callback<()>,
    /// A chosen speed (virtual time per real time).
    pub speed: Callback<f64>,
    /// A virtual instant to go to.
    pub seek: Callback<Instant>,
}

/// What the lesson's panels ask (the presenter's notes included).
#[derive(Clone, PartialEq)]
pub struct LessonCalls {
    /// The clicker's next press, at this real instant (ms).
    pub next: Callback<f64>,
    /// The previous step.
    pub back: Callback<()>,
    pub exit: Callback<()>,
    /// Stop waiting for the lesson being read.
    pub cancel: Callback<()>,
    /// What is typed in the prediction field.
    pub draft: Callback<String>,
    /// A guess revealed, at this real instant (ms).
    pub reveal: Callback<(String, f64)>,
    /// Enter in the prediction field with nothing typed.
    pub enter_without_guess: Callback<()>,
    /// The panel measured the narration: this many pages.
    pub pages: Callback<usize>,
    /// Play the run.
    pub play: Callback<()>,
    /// A step's act: its inputs into the run, then play.
    pub act: Callback<Vec<Input>>,
    /// An exercise's settings: a new run.
    pub apply: Callback<Settings>,
}

impl Controls {
    /// Every callback, each sending its action through `send`.
    pub(super) fn to(send: Rc<dyn Fn(Action)>) -> Controls {
        let on = |a: fn() -> Action| call(&send, move |()| a());
        Controls {
            select: call(&send, |key| Action::Run(RunAction::Select(key))),
            input: call(&send, |i| Action::Run(RunAction::Input(i))),
            apply: call(&send, |s| Action::Run(RunAction::Apply(s))),
            switch_queue: call(&send, |q| Action::Run(RunAction::SwitchQueue(q))),
            run_manager: call(&send, |p| Action::Run(RunAction::RunManager(p))),
            exit_manager: on(|| Action::Run(RunAction::ExitManager)),
            dismiss_refusal: on(|| Action::Lesson(LessonAction::DismissRefusal)),
            transport: TransportCalls {
                play_pause: on(|| Action::Run(RunAction::TogglePlay)),
                step: on(|| Action::Run(RunAction::Step)),
                step_back: on(|| Action::Run(RunAction::StepBack)),
                restart: on(|| Action::Run(RunAction::Restart)),
                faster: on(|| Action::Run(RunAction::Faster)),
                slower: on(|| Action::Run(RunAction::Slower)),
                pacing: on(|| Action::Run(RunAction::TogglePacing)),
                speed: call(&send, |s| Action::Run(RunAction::SetSpeed(s))),
                seek: call(&send, |t| Action::Run(RunAction::Seek(t))),
            },
            lesson: LessonCalls {
                next: call(&send, |at| Action::Lesson(LessonAction::Next(at))),
                back: on(|| Action::Lesson(LessonAction::Back)),
                exit: on(|| Action::Lesson(LessonAction::Exit)),
                cancel: on(|| Action::Lesson(LessonAction::Cancel)),
                draft: call(&send, |text| Action::Lesson(LessonAction::Draft(text))),
                reveal: call(&send, |(guess, at)| {
                    Action::Lesson(LessonAction::Reveal(guess, at))
                }),
                enter_without_guess: on(|| Action::Lesson(LessonAction::EnterWithoutGuess)),
                pages: call(&send, |n| Action::Lesson(LessonAction::NarrationPages(n))),
                play: on(|| Action::Run(RunAction::Play)),
                act: {
                    let send = send.clone();
                    Callback::from(move |inputs: Vec<Input>| {
                        for input in inputs {
                            send(Action::Run(RunAction::Input(input)));
                        }
                        send(Action::Run(RunAction::Play));
                    })
                },
                apply: call(&send, |s| Action::Run(RunAction::Apply(s))),
            },
        }
    }
}

/// A callback that sends the action `make` builds of its value.
fn call<T: 'static>(
    send: &Rc<dyn Fn(Action)>,
    make: impl Fn(T) -> Action + 'static,
) -> Callback<T> {
    let send = send.clone();
    Callback::from(move |value| send(make(value)))
}
