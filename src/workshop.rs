//! The messages between a workshop's two windows (see `presenter`): what a
//! window says (hello, the state, the clock) and what an audience window
//! asks the presenter's to do. Plain data, read and written with serde.

use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Instant};

use crate::lesson_state::LessonState;

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
    pub revealed: bool,
    pub played: bool,
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
    pub fn of(l: &LessonState, until_wait: bool) -> LessonUi {
        LessonUi {
            guesses: l.guesses.clone(),
            answers: l.answers.clone(),
            asked: l.visit.asked,
            revealed: l.visit.revealed_at.is_some(),
            played: l.visit.played_at.is_some(),
            page: l.visit.pages.at,
            draft: l.visit.draft.clone(),
            until_wait,
        }
    }

    /// Onto this window's lesson (its real instants are its own: only
    /// whether a thing happened travels).
    pub fn apply(self, l: &mut LessonState) {
        if self.guesses.len() == l.guesses.len() {
            l.guesses = self.guesses;
        }
        if self.answers.len() == l.answers.len() {
            l.answers = self.answers;
        }
        l.visit.asked = self.asked;
        l.visit.revealed_at = match (self.revealed, l.visit.revealed_at) {
            (true, Some(t)) => Some(t),
            (true, None) => Some(0.0),
            (false, _) => None,
        };
        l.visit.played_at = match (self.played, l.visit.played_at) {
            (true, Some(t)) => Some(t),
            (true, None) => Some(0.0),
            (false, _) => None,
        };
        l.visit.pages.at = self.page;
        // A guess typed on the projector stays until the presenter's
        // window types one too.
        if !self.draft.is_empty() || !l.visit.asked {
            l.visit.draft = self.draft;
        }
    }
}
