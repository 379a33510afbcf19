//! The playground's state, a plain value, and its transitions: an action
//! changes it in place ([`Playground::apply`]) and moves `rev` when
//! something on screen changed. The run is a [`Timeline`] the state owns;
//! [`crate::store`] keeps the one state and hands it to the components.
//! One engine runs everything, one controller or a manager of several, so no
//! action needs to ask which kind of run it has.

use std::rc::Rc;

use workqueue_core::SimEvent;
use workqueue_core::{
    BucketStore, Controller, Duration, Input, Instant, Manager, QueueKind, Scenario,
};
use workqueue_lessons::view::{Figure, LessonView};

use crate::lesson_state::LessonState;
use crate::lessons::Refusal;
use crate::notice::Notice;
use crate::pacing::{self, Cue, Pacing};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::{LessonPosition, Shared};
use crate::timeline::Timeline;

/// Longest real time one tick may account for (a hidden tab's throttled
/// timer must not become a leap).
pub const MAX_TICK_MS: f64 = 250.0;

pub enum Action {
    /// Real time passed (ms); advances virtual time when playing.
    Tick(f64),
    /// What the last tick's work took (ms): fits the next frames' budget.
    FrameWork(f64),
    TogglePlay,
    Play,
    Pause,
    /// Jump to the next event.
    Step,
    /// Back to the previous event in the log.
    StepBack,
    Seek(Instant),
    SetSpeed(f64),
    /// One step up or down the 1-2-5 speed scale, from the current speed.
    Faster,
    Slower,
    /// Starts over with the same settings and no inputs.
    Restart,
    /// New settings: a new run.
    Apply(Settings),
    Input(Input),
    Select(Option<String>),
    Notify(Option<Notice>),
    /// An information notice has been read: it goes, unless another took its place.
    ExpireNotice(String),
    /// Open lesson `index` at its first step.
    StartLesson(usize),
    /// Go to a step of the current lesson (replaying its set-up).
    LessonStep(usize),
    ExitLesson,
    /// The clicker's next press (PageDown, `n`, the Next button), at this
    /// real instant (ms): the next visible thing (see [`Playground::next_press`]).
    LessonNext(f64),
    /// A press made in an audience window, carried out in the presenter's
    /// (the audience window applied the double-press rule on its own clock).
    LessonNextRemote(f64),
    /// The previous step, across lessons too (PageUp, `p`).
    LessonBack,
    /// A clicker's blank-screen key (`b`, `.`): the projector goes black, or
    /// shows again.
    Blank,
    /// Escape: a blank screen shows again.
    Unblank,
    /// The lesson panel measured the step's narration: this many pages.
    NarrationPages(usize),
    /// What is typed in the prediction field.
    Draft(String),
    /// Record a prediction and show the core's answer, at this real instant (ms).
    Reveal(String, f64),
    /// Enter pressed in the prediction field with nothing typed: said to
    /// type first (the Reveal button shows the answer without a guess).
    EnterWithoutGuess,
    ToggleWorkshop,
    /// Adaptive playback on or off (see [`crate::pacing`]).
    TogglePacing,
    /// Open shared state (a link or an uploaded scenario).
    Load(Box<Shared>),
    /// Run several controllers in one manager (see [`crate::provider`]).
    RunManager(Provider),
    /// Back to the one controller of the settings.
    ExitManager,
    /// A lesson file to read and open at a step (from 1): an upload or a
    /// `?lesson-file=` path, with its text.
    OpenLessonFile {
        file: String,
        text: String,
        step: usize,
    },
    /// The lesson worker sent a lesson back (with the file's text when it
    /// is not built in): redraw, and open the lesson that was waited for.
    LessonArrived(Box<LessonView>, Option<String>),
    /// The lesson worker checked a goal: the figures for (lesson, step).
    GoalFigures(usize, usize, Vec<Figure>),
    /// A trainer's lesson file was refused: say where, beside its text.
    LessonRefused(Refusal),
    /// The lesson worker has answered `done` of the `total` steps of the
    /// file it is reading.
    LessonProgress(usize, usize),
    /// Stop waiting for the lesson being read (the worker is stopped too).
    CancelLesson,
    DismissRefusal,
    /// The same run on the other controller-runtime version: the settings
    /// for that queue, the recorded inputs replayed to the same instant,
    /// and the run left behind kept as figures beside the new one.
    SwitchQueue(QueueKind),
    /// A Go set-up being read, read, or refused (the lesson worker reads it).
    GoImport(GoImport),
    /// This window becomes the presenter's (an audience window opens).
    Present,
    /// The presenter's workshop, for this window to show (see [`crate::presenter`]).
    /// The presenter's state, received at a real instant (ms).
    Follow(Box<crate::workshop::Mirror>, f64),
    /// The presenter's clock while it plays.
    FollowClock(crate::workshop::Clock),
    /// An audience window's narration takes this many pages.
    AudiencePages(usize),
}

/// A controller's Go set-up, as the "Bring your controller" dialog shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum GoImport {
    Reading,
    Read {
        scenario: Box<Scenario>,
        /// What was taken and what was not understood, `file:line: text` each.
        taken: Vec<String>,
        unread: Vec<String>,
    },
    Refused(String),
}

/// How the page was opened (`?embed=1`, `?workshop=1`, `?presenter=1`,
/// `?audience=1`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Mode {
    pub embed: bool,
    pub workshop: bool,
    /// The trainer's window of a workshop on two screens: notes, the next
    /// step, the clicker, a small stage.
    pub presenter: bool,
    /// The projector's window: the stage and the narration, in step with
    /// the presenter's window.
    pub audience: bool,
}

impl Mode {
    /// A room's screens (the single workshop window, the projector's
    /// window and its presenter's): a step's figure takes the stage's place.
    pub fn room(self) -> bool {
        self.workshop || self.audience || self.presenter
    }

    /// Whether `step`'s figure takes the stage's place (and hides its run).
    pub fn figure_on_stage(self, step: &crate::lessons::StepView) -> bool {
        self.room() && step.compare_limiters
    }
}

/// How the run plays: whether and how fast, how pacing shapes the stretch
/// being played, and where a step the clicker plays stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    pub playing: bool,
    /// The chosen speed: virtual time per real time.
    pub speed: f64,
    /// Adaptive playback (see [`crate::pacing`]), and how the last frame ran.
    pub pacing: Pacing,
    pub effective_speed: f64,
    pub cue: Cue,
    /// A fresh run with nothing scheduled: the clock is waiting for a first key.
    pub idle: bool,
    /// A step played by the clicker pauses once what it waits for happened.
    pub until_wait: bool,
}

pub struct Playground {
    pub settings: Settings,
    pub timeline: Timeline,
    pub playback: Playback,
    pub selected: Option<String>,
    pub notice: Option<Notice>,
    /// A sentence for the aria-live region, updated on user actions only.
    pub narration: String,
    pub rev: u64,
    pub lesson: Option<LessonState>,
    pub mode: Mode,
    /// The lessons a trainer chose for the room (`?lessons=herd,provider`),
    /// in their order: the clicker goes from one to the next, and no other.
    pub course: Option<Rc<Vec<String>>>,
    /// The manager form's values.
    pub provider: Provider,
    /// Bumped when the clicker opens the prediction field: the field takes
    /// focus (outside a workshop: a projector's field waits for a click, so
    /// the clicker's keys never type into it).
    pub focus_guess: u64,
    /// The projector is blanked (a clicker's `b` or `.`).
    pub blank: bool,
    /// An audience window's blank key, shown at once and kept until its
    /// presenter's state says the same (a state sent before the key must
    /// not undo it).
    pub blank_asked: Option<bool>,
    /// A lesson asked for before the library arrived.
    pub pending_lesson: Option<crate::lesson_state::PendingLesson>,
    /// A lesson file that was refused: shown beside its text.
    pub refused_lesson: Option<Refusal>,
    /// The lessons the menu lists, those arrived from the worker included.
    pub library: crate::lessons::Library,
    /// The lesson worker's figures for a step's goal: (lesson, step, figures).
    pub goal_figures: Option<(usize, usize, Vec<Figure>)>,
    /// The run on the other queue, left by the last version switch.
    pub other_run: Option<crate::headline::SideBySide>,
    /// The last Go set-up asked to be read, and what came of it.
    pub go_import: Option<GoImport>,
    /// In an audience window: what a person did here, numbered, for the
    /// presenter's window to carry out (the newest few; see
    /// [`crate::presenter`]).
    pub outbox: Vec<(u64, crate::workshop::Remote)>,
    /// What the presenter's window said of a lesson step that has not
    /// arrived here yet: put on it when it does.
    pub pending_ui: Option<(crate::workshop::LessonUi, f64)>,
}

/// Two states are the same page while no action changed what shows: `rev`
/// counts those changes (a run is not compared key by key).
impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev
    }
}

impl Default for Playground {
    fn default() -> Self {
        let settings = Settings::default();
        let scenario = settings
            .to_scenario()
            .unwrap_or_else(|_| Scenario::new("playground"));
        Playground::with(settings, scenario)
    }
}

impl Playground {
    /// A fresh run of `scenario` (the settings are what the form shows). A
    /// scenario the page cannot run falls back to an empty one, with a notice.
    pub fn with(settings: Settings, scenario: Scenario) -> Playground {
        let (timeline, notice) = match Timeline::new(scenario) {
            Ok(t) => (t, None),
            Err(e) => (
                Timeline::new(Scenario::new("playground")).expect("the empty scenario is valid"),
                Notice::error(format!("This scenario cannot run here: {e}")),
            ),
        };
        Playground::on(settings, timeline, notice)
    }

    /// The page around a timeline.
    pub fn on(settings: Settings, timeline: Timeline, notice: Option<Notice>) -> Playground {
        // A fresh run with nothing scheduled waits for its first key from
        // the first frame on (not only after a tick noticed it).
        let idle = timeline.next_instant().is_none() && timeline.tape().is_empty();
        Playground {
            settings,
            timeline,
            playback: Playback {
                playing: true,
                speed: 1.0,
                pacing: Pacing::default(),
                effective_speed: 1.0,
                cue: Cue::Normal,
                idle,
                until_wait: false,
            },
            selected: None,
            notice,
            narration: String::new(),
            rev: 0,
            lesson: None,
            mode: Mode::default(),
            course: None,
            provider: Provider::default(),
            focus_guess: 0,
            blank: false,
            blank_asked: None,
            other_run: None,
            pending_lesson: None,
            refused_lesson: None,
            go_import: None,
            outbox: Vec::new(),
            pending_ui: None,
            library: crate::lessons::Library::default(),
            goal_figures: None,
        }
    }

    /// What a new run keeps of the page it replaces: the place in the
    /// reducer's history, the speed, play or pause, and how the page was
    /// opened. Everything else belongs to the run.
    pub fn carry_over(&self, mut fresh: Playground) -> Playground {
        fresh.rev = self.rev;
        fresh.go_import = self.go_import.clone();
        fresh.playback.speed = self.playback.speed;
        fresh.playback.playing = self.playback.playing;
        fresh.mode = self.mode;
        fresh.course = self.course.clone();
        fresh.library = self.library.clone();
        // A lesson the fresh state waits for may be one this page already
        // holds: it opens now, not when the worker would send it again.
        fresh.resolve_pending_lesson();
        fresh.outbox = self.outbox.clone();
        fresh
    }

    /// An audience window sends what a person does to the presenter's.
    fn send(&mut self, remote: crate::workshop::Remote) {
        /// Sent at once: only the last few are ever still unsent.
        const KEPT: usize = 16;
        let seq = self.outbox.last().map_or(1, |(n, _)| n + 1);
        self.outbox.push((seq, remote));
        if self.outbox.len() > KEPT {
            self.outbox.remove(0);
        }
    }

    /// The stage's controller, to read (see [`Timeline::sim`]).
    pub fn sim(&self) -> &Controller {
        self.timeline.sim()
    }

    /// Every token bucket of the run, to read the stage's (its controller
    /// holds their ids).
    pub fn buckets(&self) -> &BucketStore {
        self.engine().buckets()
    }

    /// The whole run, every controller, to read.
    pub fn engine(&self) -> &Manager {
        self.timeline.engine()
    }

    /// Whether a periodic resync is running on the stage's controller.
    pub fn resync_active(&self) -> bool {
        self.sim()
            .sources()
            .any(|(s, _)| matches!(s, workqueue_core::Source::Resync { .. }))
    }

    /// Whether the run is a manager of several controllers.
    pub fn is_manager(&self) -> bool {
        self.timeline.engine().len() > 1
    }

    /// Whether the inspector ("why is this key here?") is on the page: an
    /// embed's lesson has the side to itself, so there a chip is no button.
    pub fn inspector_shown(&self) -> bool {
        !self.mode.embed || (self.lesson.is_none() && self.pending_lesson.is_none())
    }

    /// The scenario on the stage.
    pub fn current_scenario(&self) -> Scenario {
        self.timeline.scenario().clone()
    }

    pub fn now(&self) -> Instant {
        self.timeline.now()
    }

    pub fn horizon(&self) -> Instant {
        self.timeline.horizon()
    }

    /// Everything needed to reopen exactly this view.
    pub fn shared(&self) -> Shared {
        let t = &self.timeline;
        let now = t.now();
        Shared {
            run: workqueue_core::Run {
                scenario: t.scenario().clone(),
                inputs: t
                    .tape()
                    .iter()
                    .filter(|(at, _)| *at <= now)
                    .cloned()
                    .collect(),
                run_to: now,
            },
            lesson: self.lesson.as_ref().map(|l| {
                let id = self.library.entries()[l.index].id.clone();
                LessonPosition {
                    text: self.library.source(&id),
                    id,
                    step: l.step,
                }
            }),
            selected: self.selected.clone(),
        }
    }

    /// Plays to `target` within one frame and shows a refused replay.
    fn advance_to(&mut self, target: Instant) -> bool {
        let t = &mut self.timeline;
        let reached = t.advance_to(target);
        if let Some(e) = t.take_refusal() {
            self.notice = Notice::error(e.to_string());
        }
        reached
    }

    fn record(&mut self, input: Input) {
        let result = self.timeline.record(input);
        match result {
            Ok(()) => self.narration = self.narrate(),
            Err(e) => self.notice = Notice::error(e.to_string()),
        }
    }

    /// The latest reconcile result, in words.
    fn narrate(&self) -> String {
        let t = &self.timeline;
        let sim = t.sim();
        let entry = sim.log().iter().rev().find(|e| {
            matches!(
                e.event,
                SimEvent::ReconcileEnd { .. }
                    | SimEvent::AwaitingDecision { .. }
                    | SimEvent::GaveUp { .. }
            )
        });
        entry.map(|e| sim.describe(e)).unwrap_or_default()
    }

    /// Whether the next animation frame can change anything: a run playing
    /// (not held for a prediction or a person's decision), a seek or a
    /// link still being caught up, or a lesson press kept until the step
    /// may go on. Otherwise no frame is asked for at all.
    pub fn wants_frames(&self) -> bool {
        let playing = self.playback.playing && !self.holds_for_prediction() && !self.deciding();
        playing
            || self.timeline.pending().is_some()
            || self.lesson.as_ref().is_some_and(|l| l.visit.kept.is_some())
    }

    /// Whether a reconcile has ended and waits for the person to choose
    /// its result: the virtual clock holds meanwhile, so a reconcile lasts
    /// its set duration however long they think.
    pub fn deciding(&self) -> bool {
        self.engine().controllers().any(|(_, c)| {
            c.workers()
                .iter()
                .any(|w| matches!(w, workqueue_core::WorkerState::AwaitingDecision { .. }))
        })
    }

    /// One animation frame of playing.
    fn tick(&mut self, real_ms: f64) {
        if self.deciding() {
            return;
        }
        let (now, upcoming, in_motion, sources_only, taped) = {
            let t = &mut self.timeline;
            t.set_playing(true);
            t.played(real_ms);
            (
                t.now(),
                t.next_instant(),
                t.in_motion(),
                t.next_is_sources_only(),
                !t.tape().is_empty(),
            )
        };
        // A fresh run with nothing to do: the clock waits for the first key
        // instead of counting up an empty stage.
        self.playback.idle = now == Instant::T0 && upcoming.is_none() && in_motion == 0 && !taped;
        if self.playback.idle {
            return;
        }
        let end = Instant::T0 + self.timeline.scenario().duration_ns;
        match self.playback.pacing.frame(
            self.playback.speed,
            now,
            upcoming,
            in_motion,
            real_ms,
            sources_only,
        ) {
            pacing::Frame::Hold => {}
            pacing::Frame::Pass => {
                self.timeline.one_pass(now);
                self.playback.pacing.landed();
            }
            pacing::Frame::Run { speed, cue, land } => {
                self.playback.effective_speed = speed;
                self.playback.cue = cue;
                let target = now.saturating_add(pacing::virtual_step(real_ms, speed));
                // A manager's run stops exactly at its duration, at any speed.
                let target = if self.is_manager() {
                    target.min(end.max(now))
                } else {
                    target
                };
                // A step's scene stops exactly at the instant it waits for.
                let target = match self.scene_stop() {
                    Some(stop) if stop > now => target.min(stop),
                    _ => target,
                };
                let is_event = upcoming.is_some_and(|at| self.timeline.next_is_event(at));
                match upcoming {
                    // Land on the event and show its first pass alone.
                    Some(at) if land && at <= target && is_event => {
                        self.advance_to(at - Duration::NANOSECOND);
                        self.timeline.one_pass(at);
                        self.playback.pacing.landed();
                    }
                    _ => {
                        self.advance_to(target);
                    }
                }
            }
        }
        // A manager file's run ends with its duration; a playground run
        // goes on while something is scheduled.
        if self.is_manager() && self.now() >= end {
            self.playback.playing = false;
            self.notice = Notice::info(format!(
                "The run reached its set length, {}, and stopped.",
                crate::format::clock(end)
            ));
        }
        if let Some(reason) = self.timeline.stall_reason() {
            self.playback.playing = false;
            self.notice = Notice::error(format!("Paused: {reason}"));
        }
    }
}

mod apply;

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
