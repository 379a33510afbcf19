//! The run's slice of the page: the settings the form shows, the run
//! itself (a [`Timeline`]), how it plays, the key selected, the manager
//! form, and the run left behind by a version switch.

use super::UiState;
use crate::notice::Notice;
use crate::pacing::{self, Cue, Pacing, MAX_SPEED, MIN_SPEED};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::Shared;
use crate::timeline::Timeline;
use workqueue_core::{Input, Instant, QueueKind, SimEvent};

/// What the run may be told.
pub enum RunAction {
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
    /// Adaptive playback on or off (see [`crate::pacing`]).
    TogglePacing,
    /// Open shared state (a link or an uploaded scenario).
    Load(Box<Shared>),
    /// Run several controllers in one manager (see [`crate::provider`]).
    RunManager(Provider),
    /// Back to the one controller of the settings.
    ExitManager,
    /// The same run on the other controller-runtime version: the settings
    /// for that queue, the recorded inputs replayed to the same instant,
    /// and the run left behind kept as figures beside the new one.
    SwitchQueue(QueueKind),
}

pub struct RunState {
    pub(crate) settings: Settings,
    pub timeline: Timeline,
    pub playback: Playback,
    pub(crate) selected: Option<String>,
    /// The run on the other queue, left by the last version switch.
    pub(crate) other_run: Option<crate::headline::SideBySide>,
    /// The manager form's values.
    pub(crate) provider: Provider,
}

/// How the run plays: whether and how fast, how pacing shapes the stretch
/// being played, and where a step the clicker plays stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    pub playing: bool,
    /// The chosen speed: virtual time per real time.
    pub(crate) speed: f64,
    /// Adaptive playback (see [`crate::pacing`]), and how the last frame ran.
    pub(crate) pacing: Pacing,
    pub(crate) effective_speed: f64,
    pub(crate) cue: Cue,
    /// A fresh run with nothing scheduled: the clock is waiting for a first key.
    pub(crate) idle: bool,
    /// A step played by the clicker pauses once what it waits for happened.
    pub(crate) until_wait: bool,
}

impl RunState {
    /// The run's own transitions: each changes the run and, at most, what
    /// the page says of it. Returns whether anything on screen changed.
    /// (The run's actions that reach into a lesson or make the page afresh
    /// are coordinated by [`super::Playground::apply`] and never come here.)
    pub(crate) fn apply(&mut self, action: RunAction, ui: &mut UiState) -> bool {
        match action {
            RunAction::FrameWork(work_ms) => {
                // Nothing on screen changes: no render.
                self.timeline.fit_budget(work_ms);
                return false;
            }
            RunAction::TogglePlay => self.playback.playing = !self.playback.playing,
            RunAction::Play => self.playback.playing = true,
            RunAction::Pause => self.playback.playing = false,
            RunAction::Step => {
                self.playback.playing = false;
                match self.timeline.step() {
                    Some(_) => ui.narration = self.narrate(),
                    None => {
                        ui.notice =
                            Notice::info("Nothing is scheduled: add a key to see something happen.")
                    }
                }
            }
            RunAction::Seek(t) => {
                self.timeline.seek(t);
            }
            RunAction::SetSpeed(s) => self.playback.speed = s.clamp(MIN_SPEED, MAX_SPEED),
            RunAction::Faster => {
                self.playback.speed = pacing::speed_step(self.playback.speed, true)
            }
            RunAction::Slower => {
                self.playback.speed = pacing::speed_step(self.playback.speed, false)
            }
            RunAction::Input(input) => {
                if let Input::Add { key } | Input::Decide { key, .. } = &input {
                    self.selected = Some(key.clone());
                }
                match self.timeline.record(input) {
                    Ok(()) => ui.narration = self.narrate(),
                    Err(e) => ui.notice = Notice::error(e.to_string()),
                }
                self.playback.idle = false; // something happened
            }
            RunAction::Select(key) => self.selected = key,
            RunAction::TogglePacing => {
                self.playback.pacing.on = !self.playback.pacing.on;
                self.playback.pacing.reset();
            }
            // Coordinated across the page (see `state/apply.rs`).
            RunAction::Tick(_)
            | RunAction::StepBack
            | RunAction::Restart
            | RunAction::Apply(_)
            | RunAction::Load(_)
            | RunAction::RunManager(_)
            | RunAction::ExitManager
            | RunAction::SwitchQueue(_) => return false,
        }
        true
    }

    /// The latest reconcile result, in words.
    pub(crate) fn narrate(&self) -> String {
        let sim = self.timeline.sim();
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
}
