//! The run's slice of the page: the settings the form shows, the run
//! itself (a [`Timeline`]), how it plays, the key selected, the manager
//! form, and the run left behind by a version switch.

use crate::pacing::{Cue, Pacing};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::Shared;
use crate::timeline::Timeline;
use workqueue_core::{Input, Instant, QueueKind};

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
    pub settings: Settings,
    pub timeline: Timeline,
    pub playback: Playback,
    pub selected: Option<String>,
    /// The run on the other queue, left by the last version switch.
    pub other_run: Option<crate::headline::SideBySide>,
    /// The manager form's values.
    pub provider: Provider,
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
