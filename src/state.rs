//! The playground's state, a plain value, and its transitions: an action
//! changes it in place ([`Playground::apply`]) and moves `rev` when
//! something on screen changed. The state is four slices by concern, each
//! with its own actions and reducer: the run ([`RunState`], a [`Timeline`]
//! the state owns), the lessons ([`LessonsState`]), the workshop's windows
//! ([`WorkshopState`]) and the page's own words ([`UiState`]);
//! `state/apply.rs` routes an action to its slice and coordinates those
//! that span slices. [`crate::store`] keeps the one state.
//! One engine runs everything, one controller or a manager of several, so no
//! action needs to ask which kind of run it has.

use workqueue_core::{BucketStore, Controller, Duration, Instant, Manager, Scenario};

use crate::notice::Notice;
use crate::pacing::{self, Cue, Pacing};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::{LessonPosition, Shared};
use crate::timeline::Timeline;

/// Longest real time one tick may account for (a hidden tab's throttled
/// timer must not become a leap).
pub const MAX_TICK_MS: f64 = 250.0;

/// What can happen to the page, by the concern it belongs to: each
/// concern's reducer applies its own (see `state/apply.rs`, which routes
/// them and coordinates those that span concerns).
pub enum Action {
    /// The run: playing, stepping, new settings, inputs.
    Run(RunAction),
    /// The lessons: moving through one, a guess, lessons from the worker.
    Lesson(LessonAction),
    /// The workshop's windows: the projector, the presenter's state.
    Workshop(WorkshopAction),
    /// The page's own words: a notice.
    Ui(UiAction),
}

pub struct Playground {
    /// The run on the stage and how it plays.
    pub run: RunState,
    /// The lessons: the one open, the library, a course, one on its way.
    pub(crate) lessons: LessonsState,
    /// How the page was opened and what its workshop windows share.
    pub(crate) workshop: WorkshopState,
    /// What the page says of itself: a notice, the narration, an import.
    pub ui: UiState,
    /// Moves with every change that shows (see [`Playground::apply`]).
    pub(crate) rev: u64,
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
    pub(crate) fn on(settings: Settings, timeline: Timeline, notice: Option<Notice>) -> Playground {
        // A fresh run with nothing scheduled waits for its first key from
        // the first frame on (not only after a tick noticed it).
        let idle = timeline.next_instant().is_none() && timeline.tape().is_empty();
        Playground {
            run: RunState {
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
                other_run: None,
                provider: Provider::default(),
            },
            lessons: LessonsState::default(),
            workshop: WorkshopState::default(),
            ui: UiState {
                notice,
                ..UiState::default()
            },
            rev: 0,
        }
    }

    /// What a new run keeps of the page it replaces: the place in the
    /// reducer's history, the speed, play or pause, and how the page was
    /// opened. Everything else belongs to the run.
    pub(crate) fn carry_over(&self, mut fresh: Playground) -> Playground {
        fresh.rev = self.rev;
        fresh.ui.go_import = self.ui.go_import.clone();
        fresh.run.playback.speed = self.run.playback.speed;
        fresh.run.playback.playing = self.run.playback.playing;
        fresh.workshop.mode = self.workshop.mode;
        fresh.lessons.course = self.lessons.course.clone();
        fresh.lessons.library = self.lessons.library.clone();
        // A lesson the fresh state waits for may be one this page already
        // holds: it opens now, not when the worker would send it again.
        fresh.resolve_pending_lesson();
        fresh.workshop.outbox = self.workshop.outbox.clone();
        fresh
    }

    /// The same page, saying `notice`.
    pub(crate) fn noticed(mut self, notice: Option<Notice>) -> Playground {
        self.ui.notice = notice;
        self
    }

    /// The stage's controller, to read (see [`Timeline::sim`]).
    pub fn sim(&self) -> &Controller {
        self.run.timeline.sim()
    }

    /// Every token bucket of the run, to read the stage's (its controller
    /// holds their ids).
    pub(crate) fn buckets(&self) -> &BucketStore {
        self.engine().buckets()
    }

    /// The whole run, every controller, to read.
    pub fn engine(&self) -> &Manager {
        self.run.timeline.engine()
    }

    /// Whether a periodic resync is running on the stage's controller.
    pub(crate) fn resync_active(&self) -> bool {
        self.sim()
            .sources()
            .any(|(s, _)| matches!(s, workqueue_core::Source::Resync { .. }))
    }

    /// Whether the run is a manager of several controllers.
    pub(crate) fn is_manager(&self) -> bool {
        self.run.timeline.engine().len() > 1
    }

    /// Whether the inspector ("why is this key here?") is on the page: an
    /// embed's lesson has the side to itself, so there a chip is no button.
    pub(crate) fn inspector_shown(&self) -> bool {
        !self.workshop.mode.embed
            || (self.lessons.current.is_none() && self.lessons.pending.is_none())
    }

    /// The scenario on the stage.
    pub(crate) fn current_scenario(&self) -> Scenario {
        self.run.timeline.scenario().clone()
    }

    pub fn now(&self) -> Instant {
        self.run.timeline.now()
    }

    pub(crate) fn horizon(&self) -> Instant {
        self.run.timeline.horizon()
    }

    /// Everything needed to reopen exactly this view.
    pub(crate) fn shared(&self) -> Shared {
        let t = &self.run.timeline;
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
            lesson: self.lessons.current.as_ref().map(|l| {
                let id = self.lessons.library.entries()[l.index].id.clone();
                LessonPosition {
                    text: self.lessons.library.source(&id),
                    id,
                    step: l.step,
                }
            }),
            selected: self.run.selected.clone(),
        }
    }

    /// Plays to `target` within one frame and shows a refused replay.
    fn advance_to(&mut self, target: Instant) -> bool {
        let t = &mut self.run.timeline;
        let reached = t.advance_to(target);
        if let Some(e) = t.take_refusal() {
            self.ui.notice = Notice::error(e.to_string());
        }
        reached
    }

    /// Whether the next animation frame can change anything: a run playing
    /// (not held for a prediction or a person's decision), a seek or a
    /// link still being caught up, or a lesson press kept until the step
    /// may go on. Otherwise no frame is asked for at all.
    pub(crate) fn wants_frames(&self) -> bool {
        let playing = self.run.playback.playing && !self.holds_for_prediction() && !self.deciding();
        playing
            || self.run.timeline.pending().is_some()
            || self
                .lessons
                .current
                .as_ref()
                .is_some_and(|l| l.visit.kept.is_some())
    }

    /// Whether a reconcile has ended and waits for the person to choose
    /// its result: the virtual clock holds meanwhile, so a reconcile lasts
    /// its set duration however long they think.
    pub(crate) fn deciding(&self) -> bool {
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
            let t = &mut self.run.timeline;
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
        self.run.playback.idle =
            now == Instant::T0 && upcoming.is_none() && in_motion == 0 && !taped;
        if self.run.playback.idle {
            return;
        }
        let end = Instant::T0 + self.run.timeline.scenario().duration_ns.get();
        match self.run.playback.pacing.frame(
            self.run.playback.speed,
            now,
            upcoming,
            in_motion,
            real_ms,
            sources_only,
        ) {
            pacing::Frame::Hold => {}
            pacing::Frame::Pass => {
                self.run.timeline.one_pass(now);
                self.run.playback.pacing.landed();
            }
            pacing::Frame::Run { speed, cue, land } => {
                self.run.playback.effective_speed = speed;
                self.run.playback.cue = cue;
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
                let is_event = upcoming.is_some_and(|at| self.run.timeline.next_is_event(at));
                match upcoming {
                    // Land on the event and show its first pass alone.
                    Some(at) if land && at <= target && is_event => {
                        self.advance_to(at - Duration::NANOSECOND);
                        self.run.timeline.one_pass(at);
                        self.run.playback.pacing.landed();
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
            self.run.playback.playing = false;
            self.ui.notice = Notice::info(format!(
                "The run reached its set length, {}, and stopped.",
                crate::format::clock(end)
            ));
        }
        if let Some(reason) = self.run.timeline.stall_reason() {
            self.run.playback.playing = false;
            self.ui.notice = Notice::error(format!("Paused: {reason}"));
        }
    }
}

mod apply;
mod lesson;
mod run;
mod ui;
mod workshop;

pub use lesson::{LessonAction, LessonsState};
pub use run::{Playback, RunAction, RunState};
pub use ui::{GoImport, UiAction, UiState};
pub use workshop::{Mode, WorkshopAction, WorkshopState};

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod slice_tests;
#[cfg(test)]
mod tests;
