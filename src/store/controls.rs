//! The callbacks the page's parts are handed for what they change: a part
//! calls one with a plain value (a key, an input, settings) and the action
//! is built here, so the parts know nothing of actions (as todomvc's
//! leaves take `Callback<T>` props). Made once per store: two renders hand
//! a part the same callbacks, and it draws again only when its values do.

use std::rc::Rc;

use workqueue_core::{Input, Instant, QueueKind};
use yew::Callback;

use crate::lessons::Refusal;
use crate::notice::Notice;
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::Shared;
use crate::state::{Action, GoImport, LessonAction, RunAction, UiAction, WorkshopAction};

/// What the run's parts may ask of the run.
#[derive(Clone, PartialEq)]
pub struct Controls {
    /// A key selected, or none.
    pub(crate) select: Callback<Option<String>>,
    /// An input into the run (a key added, a reconcile's result chosen…).
    pub(crate) input: Callback<Input>,
    /// New settings: a new run.
    pub(crate) apply: Callback<Settings>,
    /// The same run on the other controller-runtime version.
    pub(crate) switch_queue: Callback<QueueKind>,
    /// Several controllers in one manager, as the form says.
    pub(crate) run_manager: Callback<Provider>,
    /// Back to the one controller of the settings.
    pub(crate) exit_manager: Callback<()>,
    /// A refused lesson file's message goes.
    pub(crate) dismiss_refusal: Callback<()>,
    pub(crate) transport: TransportCalls,
    pub(crate) lesson: LessonCalls,
    pub(crate) menu: MenuCalls,
}

/// What the time controls ask.
#[derive(Clone, PartialEq)]
pub struct TransportCalls {
    pub(crate) play_pause: Callback<()>,
    pub(crate) step: Callback<()>,
    pub(crate) step_back: Callback<()>,
    pub(crate) restart: Callback<()>,
    pub(crate) faster: Callback<()>,
    pub(crate) slower: Callback<()>,
    pub(crate) pacing: Callback<()>,
    /// A chosen speed (virtual time per real time).
    pub(crate) speed: Callback<f64>,
    /// A virtual instant to go to.
    pub(crate) seek: Callback<Instant>,
}

/// What the lesson's panels ask (the presenter's notes included).
#[derive(Clone, PartialEq)]
pub struct LessonCalls {
    /// The clicker's next press, at this real instant (ms).
    pub(crate) next: Callback<f64>,
    /// The previous step.
    pub(crate) back: Callback<()>,
    pub(crate) exit: Callback<()>,
    /// Stop waiting for the lesson being read.
    pub(crate) cancel: Callback<()>,
    /// What is typed in the prediction field.
    pub(crate) draft: Callback<String>,
    /// A guess revealed, at this real instant (ms).
    pub(crate) reveal: Callback<(String, f64)>,
    /// Enter in the prediction field with nothing typed.
    pub(crate) enter_without_guess: Callback<()>,
    /// The panel measured the narration: this many pages.
    pub(crate) pages: Callback<usize>,
    /// Play the run.
    pub(crate) play: Callback<()>,
    /// A step's act: its inputs into the run, then play.
    pub(crate) act: Callback<Vec<Input>>,
    /// An exercise's settings: a new run.
    pub(crate) apply: Callback<Settings>,
}

/// What the page's menu and its dialogs ask.
#[derive(Clone, PartialEq)]
pub struct MenuCalls {
    /// Open a built-in lesson at its first step.
    pub(crate) start_lesson: Callback<usize>,
    /// Open a run (a file, a link).
    pub(crate) load: Callback<Shared>,
    /// Open a run and play it at this speed (an imported controller's).
    pub(crate) open_run: Callback<(Shared, f64)>,
    pub(crate) notify: Callback<Option<Notice>>,
    /// A trainer's lesson file, by name, and its text.
    pub(crate) lesson_file: Callback<(String, String)>,
    /// A lesson file that cannot be read.
    pub(crate) refused: Callback<Refusal>,
    pub(crate) toggle_workshop: Callback<()>,
    /// This window becomes the presenter's.
    pub(crate) present: Callback<()>,
    /// A Go set-up being read, read or refused.
    pub(crate) go_import: Callback<GoImport>,
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
            menu: MenuCalls {
                start_lesson: call(&send, |i| Action::Lesson(LessonAction::Start(i))),
                load: call(&send, |run| Action::Run(RunAction::Load(Box::new(run)))),
                open_run: {
                    let send = send.clone();
                    Callback::from(move |(run, speed): (Shared, f64)| {
                        send(Action::Run(RunAction::Load(Box::new(run))));
                        // A run of minutes plays in about half a minute.
                        send(Action::Run(RunAction::SetSpeed(speed)));
                        send(Action::Run(RunAction::TogglePlay));
                    })
                },
                notify: call(&send, |n| Action::Ui(UiAction::Notify(n))),
                lesson_file: call(&send, |(file, text)| {
                    Action::Lesson(LessonAction::OpenFile {
                        file,
                        text,
                        step: 1,
                    })
                }),
                refused: call(&send, |r| Action::Lesson(LessonAction::Refused(r))),
                toggle_workshop: on(|| Action::Workshop(WorkshopAction::ToggleWorkshop)),
                present: on(|| Action::Workshop(WorkshopAction::Present)),
                go_import: call(&send, |g| Action::Ui(UiAction::GoImport(g))),
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
