//! A lesson as the page and `wqsim lesson` use it: a title, prose, and steps
//! that each may set up a run, wait for something, focus the stage, and ask
//! a question or set a goal that the core answers.

use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Instant, ResultLabel};

use crate::query::{Goal, Question};

#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// From the file's name (`backoff.md` is `backoff`).
    pub id: String,
    /// The first `#` heading.
    pub title: String,
    /// Prose before the first step, as Markdown.
    pub intro: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The step's `##` heading.
    pub title: String,
    /// The step's prose, as Markdown (never rendered as HTML).
    pub text: String,
    /// The line of the step's heading in its file.
    pub line: usize,
    pub focus: Focus,
    pub setup: Option<Setup>,
    pub wait: Option<Wait>,
    pub question: Option<Question>,
    pub goal: Option<Goal>,
    pub act: Option<Act>,
    pub show: Option<Show>,
    /// Speaker notes (a ```` ```notes ```` block): what to ask, the answer,
    /// the common wrong guess. Shown in the presenter's window only.
    pub notes: String,
}

/// A part of the stage a step talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lane {
    Sources,
    Queue,
    Workers,
    Waiting,
    Bucket,
    /// A manager's controllers side by side, with what they share.
    Manager,
}

impl Lane {
    /// The stage's name for the lane (its `data-lane`).
    pub fn id(self) -> &'static str {
        match self {
            Lane::Sources => "sources",
            Lane::Queue => "queue",
            Lane::Workers => "workers",
            Lane::Waiting => "waiting",
            Lane::Bucket => "bucket",
            Lane::Manager => "manager",
        }
    }
}

/// What a step is about: the lanes the stage shows in full where space is
/// short (a projector, an embed), and the key its text follows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Focus {
    pub lanes: Vec<Lane>,
    #[serde(default)]
    pub key: Option<String>,
}

/// A fresh run: a scenario, inputs at their instants, then run to `run_to`
/// and paused. Going back to the step replays it exactly. It is the core's
/// run file, so a run downloaded from the page pastes in as a set-up.
pub type Setup = workqueue_core::Run;

/// What must happen before the lesson moves on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Wait {
    /// A worker holds this key and waits for you to choose a result.
    Deciding(String),
    /// At least `count` reconciles ended with this result label.
    Results { label: ResultLabel, count: u64 },
    /// Virtual time reached this instant.
    Time(Instant),
}

/// Something the step does when the clicker presses on: the inputs a
/// button in the lesson applies (forms are hidden in workshops and embeds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    pub label: String,
    pub inputs: Vec<Input>,
}

/// Extra pictures a step brings into the lesson panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Show {
    /// The same 10,000 failing keys under three limiters, side by side.
    CompareLimiters,
}

impl Wait {
    /// Whether it has happened in `sim`.
    pub fn met(&self, sim: &workqueue_core::Controller) -> bool {
        use workqueue_core::WorkerState;
        match self {
            Wait::Deciding(key) => sim.workers().iter().any(|w| {
                matches!(w, WorkerState::AwaitingDecision { item, .. } if sim.key(*item) == key.as_str())
            }),
            Wait::Results { label, count } => sim.controller_metrics().total(*label) >= *count,
            Wait::Time(t) => sim.now() >= *t,
        }
    }

    /// What the step waits for, while its scene plays.
    pub fn describe(&self) -> String {
        format!("Waiting {}", self.until())
    }

    /// What the step's scene plays to, before the reader has started it
    /// ("waiting" would say it runs already).
    pub fn ahead(&self) -> String {
        format!("The scene plays {}", self.until())
    }

    /// What the scene did, once it has ("✓ The scene reached t=5s").
    pub fn done(&self) -> String {
        match self {
            Wait::Deciding(key) => format!("✓ A worker asked you about {key}."),
            Wait::Results { label, count } => {
                let did = match label {
                    ResultLabel::Success => "succeeded",
                    ResultLabel::Error => "failed",
                    ResultLabel::Requeue => "asked to requeue",
                    ResultLabel::RequeueAfter => "asked for RequeueAfter",
                };
                let reconciles = if *count == 1 {
                    "reconcile"
                } else {
                    "reconciles"
                };
                format!("✓ {count} {reconciles} {did}.")
            }
            Wait::Time(t) => format!(
                "✓ The scene reached t={}.",
                workqueue_core::format_go_duration(t.since_t0())
            ),
        }
    }

    fn until(&self) -> String {
        match self {
            Wait::Deciding(key) => format!("until a worker asks you about {key}"),
            Wait::Results { label, count } => {
                let one = *count == 1;
                let does = match (label, one) {
                    (ResultLabel::Success, true) => "succeeds",
                    (ResultLabel::Success, false) => "succeed",
                    (ResultLabel::Error, true) => "fails",
                    (ResultLabel::Error, false) => "fail",
                    (ResultLabel::Requeue, true) => "asks to requeue",
                    (ResultLabel::Requeue, false) => "ask to requeue",
                    (ResultLabel::RequeueAfter, true) => "asks for RequeueAfter",
                    (ResultLabel::RequeueAfter, false) => "ask for RequeueAfter",
                };
                let reconciles = if one { "reconcile" } else { "reconciles" };
                format!("for {count} {reconciles} that {does}")
            }
            Wait::Time(t) => format!(
                "until t={}",
                workqueue_core::format_go_duration(t.since_t0())
            ),
        }
    }
}

/// A refusal: the line of the file (from 1), the field, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[error("line {line}: {field}: {reason}")]
pub struct LessonError {
    pub line: usize,
    pub field: String,
    pub reason: String,
}
