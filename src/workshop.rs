//! The messages between a workshop's two windows (see `presenter`): what a
//! window says (hello, the state, the clock) and what an audience window
//! asks the presenter's to do. Plain data, read and written with serde.

use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Instant};

use crate::lesson_state::{LessonState, Press, PressFrom, MIN_DWELL_MS};

/// Which window this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Presenter,
    Audience,
}

/// What the windows say to each other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "snake_case")]
pub enum Message {
    /// A window (re)opened: whoever holds the workshop answers with it.
    Hello { from: Role },
    /// The whole workshop: what a window needs to show the same thing.
    State(Mirror),
    /// The instant, while the run plays (several times a second).
    Clock(Clock),
    /// Something a person did in an audience window, for the presenter to do.
    Do(Remote),
}

/// The workshop as one window holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mirror {
    /// The run and the lesson step, as a share link's JSON: read back
    /// through the same gate as a link.
    pub shared: String,
    pub lesson: Option<LessonUi>,
    pub clock: Clock,
    /// The lessons the room walks (`?lessons=`), in order: where the
    /// clicker goes after a lesson's last step.
    #[serde(default)]
    pub course: Option<Vec<String>>,
    /// The projector is blanked (a clicker's `b` or `.`).
    #[serde(default)]
    pub blank: bool,
    /// The run left by a version switch, beside this one (the stage's
    /// comparison after the switch).
    #[serde(default)]
    pub other_run: Option<Box<crate::headline::SideBySide>>,
}

/// Play, pause and the instant.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    pub at: Instant,
    pub playing: bool,
    pub speed: f64,
    /// The speed the run actually moves at (adaptive playback).
    pub effective: f64,
}

/// What was predicted and shown at the lesson's steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonUi {
    pub guesses: Vec<Option<String>>,
    pub answers: Vec<Option<String>>,
    pub asked: bool,
    /// How long before the message (real ms) the answer was shown and the
    /// scene started: every window times the clicker's dwell from them
    /// (each window's real clock has its own origin, so no instant travels).
    pub revealed_ms_ago: Option<f64>,
    pub played_ms_ago: Option<f64>,
    /// A press waits in the presenter's window for the dwell to end: the
    /// audience's Next says so ("Moving on…") at once.
    #[serde(default)]
    pub kept: bool,
    /// What the presenter's next press does, and while it dwells, how much
    /// longer (ms, when sent) and what it does after.
    #[serde(default)]
    pub press: Option<Press>,
    #[serde(default)]
    pub dwell: Option<(f64, Press)>,
    pub page: usize,
    /// The prediction being typed in the presenter's window, so the room
    /// sees it as it is typed.
    #[serde(default)]
    pub draft: String,
    /// The step plays until what it waits for has happened, then pauses.
    #[serde(default)]
    pub until_wait: bool,
}

/// An action from an audience window, in words both windows read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Remote {
    Next,
    Back,
    Reveal {
        guess: String,
    },
    TogglePlay,
    Play,
    Pause,
    Step,
    StepBack,
    Seek {
        at: Instant,
    },
    SetSpeed {
        speed: f64,
    },
    Faster,
    Slower,
    Restart,
    Input {
        input: Input,
    },
    LessonStep {
        step: usize,
    },
    /// A clicker's blank-screen key, or Escape on a blank screen.
    Blank,
    Unblank,
    /// The audience window's narration takes this many pages on its
    /// screen: the clicker turns them (the presenter's own is not paged).
    Pages {
        pages: usize,
    },
}

/// The channel's name for a room: windows of one playground (one path) with
/// the same `?presenter=` / `?audience=` value.
pub fn channel_name(path: &str, room: &str) -> String {
    format!("workqueue-playground:{path}:{room}")
}

/// Messages are JSON text on the channel.
pub fn encode(m: &Message) -> String {
    serde_json::to_string(m).unwrap_or_default()
}

/// A message from another window: anything that does not read is ignored
/// (another version of the page, another program on the channel).
pub fn decode(text: &str) -> Option<Message> {
    serde_json::from_str(text).ok()
}

impl LessonUi {
    /// The step as this window holds it at real instant `now_ms`.
    pub fn of(l: &LessonState, press: PressFrom, until_wait: bool, now_ms: f64) -> LessonUi {
        let ago = |at: Option<f64>| at.map(|t| (now_ms - t).max(0.0));
        LessonUi {
            guesses: l.guesses.clone(),
            answers: l.answers.clone(),
            asked: l.visit.asked,
            revealed_ms_ago: ago(l.visit.revealed_at),
            played_ms_ago: ago(l.visit.played_at),
            kept: l.visit.kept.is_some(),
            press: Some(press.press),
            dwell: press
                .dwell
                .map(|(since, then)| ((since + MIN_DWELL_MS - now_ms).max(0.0), then)),
            page: l.visit.pages.at,
            draft: l.visit.draft.clone(),
            until_wait,
        }
    }

    /// What changes the step, without the times that grow by themselves.
    pub fn untimed(mut self) -> LessonUi {
        self.revealed_ms_ago = self.revealed_ms_ago.map(|_| 0.0);
        self.played_ms_ago = self.played_ms_ago.map(|_| 0.0);
        self.dwell = self.dwell.map(|(_, then)| (0.0, then));
        self
    }

    /// Onto this window's lesson, received at this window's real instant
    /// `now_ms`: the presenter's times become this window's own.
    pub fn apply(self, l: &mut LessonState, now_ms: f64) {
        if self.guesses.len() == l.guesses.len() {
            l.guesses = self.guesses;
        }
        if self.answers.len() == l.answers.len() {
            l.answers = self.answers;
        }
        l.visit.asked = self.asked;
        l.visit.revealed_at = self.revealed_ms_ago.map(|ago| now_ms - ago);
        l.visit.played_at = self.played_ms_ago.map(|ago| now_ms - ago);
        // Only shown here: the presenter's window carries the press out.
        l.visit.kept = self.kept.then_some(now_ms);
        l.visit.told = self.press.map(|press| PressFrom {
            press,
            dwell: self
                .dwell
                .map(|(left, then)| (now_ms + left - MIN_DWELL_MS, then)),
        });
        l.visit.pages.at = self.page;
        // A guess typed on the projector stays until the presenter's
        // window types one too.
        if !self.draft.is_empty() || !l.visit.asked {
            l.visit.draft = self.draft;
        }
    }
}
