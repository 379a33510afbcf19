//! A lesson as the page draws it: prose already read into blocks, set-ups as
//! they are, and every question already answered. The lesson worker makes
//! it (with the Markdown reader and the core); the page only deserializes
//! it, so the reader never weighs on the page's first load.

use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Instant};

use crate::model::{Focus, Lesson, Setup, Show, Wait};
use crate::query::{Goal, Question};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonView {
    pub id: String,
    pub title: String,
    /// Prose as HTML (see [`prose`]).
    pub intro: String,
    pub steps: Vec<StepView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    pub title: String,
    pub text: String,
    pub line: usize,
    pub focus: Focus,
    /// A [`SetupView`] as JSON: the page reads it as it reads a link's state.
    pub setup: Option<String>,
    pub wait: Option<Wait>,
    pub question: Option<QuestionView>,
    pub goal: Option<GoalView>,
    /// An [`Act`] as JSON (inputs, like a set-up's, read by the page's reader).
    pub act: Option<String>,
    pub compare_limiters: bool,
    /// The articles' storm under four limiters, where the step compares
    /// them (computed here, never on the page: see [`crate::storm`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<crate::storm::Plot>,
    /// Speaker notes as HTML (see [`prose`]); the presenter's window alone
    /// shows them.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

impl LessonView {
    /// The answer of each step that asks a question, in step order.
    pub fn answers(&self) -> Vec<&str> {
        self.steps
            .iter()
            .filter_map(|s| s.question.as_ref())
            .map(|q| q.answer.as_str())
            .collect()
    }
}

/// A set-up, written as a share link's state is (`scenario`, `inputs` at
/// their instants, `at`): the page opens it with the reader it has for
/// links, so a lesson's scene and a shared run are built the same way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SetupView {
    pub scenario: workqueue_core::Scenario,
    pub inputs: Vec<(Instant, Input)>,
    pub at: Instant,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionView {
    pub ask: String,
    pub unit: String,
    pub tolerance: f64,
    /// The core's answer, as the page shows it (or why it has none).
    pub answer: String,
    /// The count the question asks about, live on the stage once the
    /// answer is out (see [`crate::tally`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<crate::tally::Tally>,
    /// Why the answer is what it is, as HTML (see [`prose`]), shown beside
    /// the answer once revealed: the speaker notes' "Common wrong guess:"
    /// line, which names the usual slip and then the rule (a reader of an
    /// embed has no trainer to say it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
}

/// The speaker notes' line that says why an answer is what it is, without
/// its label: empty where the notes have none.
pub(crate) fn why(notes: &str) -> String {
    notes
        .lines()
        .find_map(|l| l.trim().strip_prefix("Common wrong guess:"))
        .map(|rest| prose(&format!("Often guessed: {}", rest.trim())))
        .unwrap_or_default()
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalView {
    pub describe: String,
}

/// The lesson as the page draws it; `answer` says how each question is
/// answered (the worker asks the core).
pub fn view(lesson: &Lesson) -> LessonView {
    view_with(lesson, |_, _| {})
}

/// [`view`], saying after each step how many of the lesson's steps are
/// done (answering is the long part: the page shows the progress).
pub fn view_with(lesson: &Lesson, mut progress: impl FnMut(usize, usize)) -> LessonView {
    let total = lesson.steps.len();
    LessonView {
        id: lesson.id.clone(),
        title: lesson.title.clone(),
        intro: prose(&lesson.intro),
        steps: lesson
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| StepView {
                title: s.title.clone(),
                text: prose(&s.text),
                line: s.line,
                focus: s.focus.clone(),
                setup: s
                    .setup
                    .as_ref()
                    .and_then(|x| serde_json::to_string(&setup_view(x)).ok()),
                wait: s.wait.clone(),
                question: s.question.as_ref().map(|q| QuestionView {
                    why: why(&s.notes),
                    ..question_view(lesson, i, q)
                }),
                goal: s.goal.as_ref().map(|g: &Goal| GoalView {
                    describe: g.describe.clone(),
                }),
                act: s.act.as_ref().and_then(|a| serde_json::to_string(a).ok()),
                compare_limiters: s.show == Some(Show::CompareLimiters),
                compared: if s.show == Some(Show::CompareLimiters) {
                    crate::storm::articles()
                } else {
                    Vec::new()
                },
                // Each line of the notes stays a line (Ask:, Answer:, …).
                notes: if s.notes.is_empty() {
                    String::new()
                } else {
                    prose(&s.notes.replace('\n', "  \n"))
                },
            })
            .enumerate()
            .map(|(i, step)| {
                progress(i + 1, total);
                step
            })
            .collect(),
    }
}

fn setup_view(s: &Setup) -> SetupView {
    SetupView {
        scenario: s.scenario.clone(),
        inputs: s.inputs.clone(),
        at: s.run_to,
    }
}

fn question_view(lesson: &Lesson, step: usize, q: &Question) -> QuestionView {
    let answer = match lesson.answer(step) {
        Some(Ok(v)) => v.text(),
        Some(Err(e)) => format!("(the core could not answer: {e})"),
        None => String::new(),
    };
    QuestionView {
        ask: q.ask.clone(),
        unit: q.unit.clone(),
        tolerance: q.tolerance,
        answer,
        why: String::new(),
        tally: q.query.tally().map(|t| match lesson.setup_for(step) {
            // (The instant the step's scene opens at: its set-up's end, or
            // its last input's, whichever is later.)
            Some(s) => t.ending_by(
                s.inputs
                    .iter()
                    .map(|(at, _)| *at)
                    .fold(s.run_to, Instant::max),
            ),
            None => t,
        }),
    }
}

/// The longest code span kept whole on one line (about a third of a
/// phone's narration at reading size).
const WHOLE_CODE: usize = 20;

/// Markdown prose as HTML, written by pulldown-cmark's own writer. HTML in
/// the file is written as text (escaped), never as markup, and links keep
/// their words but lead nowhere: the page may show the result as it is.
pub(crate) fn prose(source: &str) -> String {
    use pulldown_cmark::{html, CowStr, Event, Parser, Tag, TagEnd};
    let events = Parser::new(source).flat_map(|event| match event {
        Event::Html(t) | Event::InlineHtml(t) => vec![Event::Text(t)],
        Event::Start(Tag::Link { .. } | Tag::Image { .. }) => vec![],
        Event::End(TagEnd::Link | TagEnd::Image) => vec![],
        Event::FootnoteReference(t) => vec![Event::Text(CowStr::from(format!("[{t}]")))],
        // A short name (a key, a flag) stays whole on its line: a phone
        // never breaks `default/web-1` at its hyphen. A long Go or metric
        // name breaks after its underscores, dots and opening brackets on
        // a narrow panel, never inside a word (its parts are text: the
        // writer escapes them; only the <wbr> between them is markup).
        Event::Code(t) if t.chars().count() <= WHOLE_CODE => vec![
            Event::InlineHtml("<code class=\"whole\">".into()),
            Event::Text(t),
            Event::InlineHtml("</code>".into()),
        ],
        Event::Code(t) => {
            let mut out = vec![Event::InlineHtml("<code>".into())];
            for (i, part) in t.split_inclusive(['_', '.', '[']).enumerate() {
                if i > 0 {
                    out.push(Event::InlineHtml("<wbr>".into()));
                }
                out.push(Event::Text(CowStr::from(part.to_string())));
            }
            out.push(Event::InlineHtml("</code>".into()));
            out
        }
        other => vec![other],
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_html_and_html_in_the_file_is_text() {
        let html = prose("Hello *there* `x` <b>bold</b>\n\n- one\n- **two**\n\n> quoted\n");
        assert!(html.contains("<em>there</em>"), "{html}");
        assert!(html.contains("<code class=\"whole\">x</code>"), "{html}");
        let code = prose("see `reconcile_timeouts_total<i>`");
        assert!(
            code.contains("<code>reconcile_<wbr>timeouts_<wbr>total&lt;i&gt;</code>"),
            "{code}"
        );
        let code = prose("`workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()`");
        assert!(
            code.contains("<code>workqueue.<wbr>DefaultTypedControllerRateLimiter[<wbr>reconcile.<wbr>Request]()</code>"),
            "{code}"
        );
        let key = prose("`default/web-1` and `<b>`");
        assert!(
            key.contains("<code class=\"whole\">default/web-1</code>"),
            "{key}"
        );
        assert!(
            key.contains("<code class=\"whole\">&lt;b&gt;</code>"),
            "{key}"
        );
        assert!(html.contains("&lt;b&gt;bold&lt;/b&gt;"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(html.contains("<li><strong>two</strong></li>"), "{html}");
        assert!(html.contains("<blockquote>"), "{html}");
        let html = prose("<script>alert(1)</script>\n\nsee [docs](javascript:alert(1))");
        assert!(
            !html.contains("<script") && !html.contains("href"),
            "{html}"
        );
        assert!(html.contains("see docs"), "{html}");
    }
}

/// What the page asks the lesson worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Read a lesson file (`file` names it; its id comes from that name).
    Open {
        seq: u64,
        file: String,
        text: String,
    },
    /// Check step `step`'s goal on `scenario` (a scenario file's text), with
    /// the step's own inputs.
    Check {
        seq: u64,
        id: String,
        step: usize,
        scenario: String,
    },
    /// Read a controller's Go set-up (files by name) into a scenario.
    ImportGo {
        seq: u64,
        files: Vec<(String, String)>,
    },
}

/// What the lesson worker answers, with the request's `seq`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    Lesson {
        seq: u64,
        lesson: LessonView,
    },
    /// The file's mistakes, in file order (never none).
    Refused {
        seq: u64,
        file: String,
        mistakes: Vec<crate::LessonError>,
    },
    Figures {
        seq: u64,
        figures: Vec<Figure>,
    },
    Failed {
        seq: u64,
        reason: String,
    },
    /// A Go set-up read: the scenario (a scenario file's text), what was
    /// taken and what was not understood (`file:line: text` each).
    Imported {
        seq: u64,
        scenario: String,
        taken: Vec<String>,
        unread: Vec<String>,
    },
    /// Reading request `seq`: `done` of its `total` steps answered so far.
    Progress {
        seq: u64,
        done: usize,
        total: usize,
    },
}

/// One condition of a goal on the learner's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The figure and its bounds, in words: `t=35s (at most 40s)`.
    pub text: String,
    pub met: bool,
}
