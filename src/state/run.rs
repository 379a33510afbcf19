//! The run's slice of the page: the settings the form shows, the run
//! itself (a [`Timeline`]), how it plays, the key selected, the manager
//! form, and the run left behind by a version switch.

use crate::pacing::{Cue, Pacing};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::timeline::Timeline;

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
