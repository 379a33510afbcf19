//! A lesson as the page draws it: prose already read into blocks, set-ups as
//! they are, and every question already answered. The lesson worker makes
//! it (with the Markdown reader and the core); the page only deserializes
//! it, so the reader never weighs on the page's first load.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Nanos};

use crate::model::{Act, Focus, Lesson, Setup, Show, Wait};
use crate::query::{Goal, Question};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonView {
    pub id: String,
    pub title: String,
    pub intro: Vec<Block>,
    pub steps: Vec<StepView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    pub title: String,
    pub text: Vec<Block>,
    pub line: usize,
    pub focus: Focus,
    pub setup: Option<SetupView>,
    pub wait: Option<Wait>,
    pub question: Option<QuestionView>,
    pub goal: Option<GoalView>,
    pub act: Option<Act>,
    pub compare_limiters: bool,
}

/// A set-up: the scenario as a scenario file's text (the page reads it with
/// the reader it has for files), inputs at their instants, the instant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupView {
    pub scenario: String,
    pub inputs: Vec<(Nanos, Input)>,
    pub run_to: Nanos,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionView {
    pub ask: String,
    pub unit: String,
    pub tolerance: f64,
    /// The core's answer, as the page shows it (or why it has none).
    pub answer: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalView {
    pub describe: String,
}

/// Prose, as blocks of inline runs. HTML in a file is kept as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Block {
    Paragraph(Vec<Inline>),
    Heading(Vec<Inline>),
    List {
        ordered: bool,
        items: Vec<Vec<Block>>,
    },
    Quote(Vec<Block>),
    Code(String),
    Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Inline {
    Text(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
    Code(String),
}

/// The lesson as the page draws it; `answer` says how each question is
/// answered (the worker asks the core).
pub fn view(lesson: &Lesson) -> LessonView {
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
                setup: s.setup.as_ref().map(setup_view),
                wait: s.wait.clone(),
                question: s.question.as_ref().map(|q| question_view(lesson, i, q)),
                goal: s.goal.as_ref().map(|g: &Goal| GoalView {
                    describe: g.describe.clone(),
                }),
                act: s.act.clone(),
                compare_limiters: s.show == Some(Show::CompareLimiters),
            })
            .collect(),
    }
}

fn setup_view(s: &Setup) -> SetupView {
    SetupView {
        scenario: s.scenario.to_json(),
        inputs: s.inputs.clone(),
        run_to: s.run_to,
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
    }
}

/// Markdown prose as blocks.
pub fn prose(source: &str) -> Vec<Block> {
    // Open containers, innermost last, each with what it collected.
    enum Open {
        Root(Vec<Block>),
        Para(Vec<Inline>, bool),
        List(bool, Vec<Vec<Block>>),
        Item(Vec<Block>, Vec<Inline>),
        Quote(Vec<Block>),
        Code(String),
        Span(u8, Vec<Inline>),
    }
    fn push_inline(stack: &mut [Open], inline: Inline) {
        match stack.last_mut() {
            Some(Open::Para(runs, _)) | Some(Open::Span(_, runs)) | Some(Open::Item(_, runs)) => {
                runs.push(inline)
            }
            Some(Open::Code(text)) => {
                if let Inline::Text(t) | Inline::Code(t) = inline {
                    text.push_str(&t)
                }
            }
            _ => {}
        }
    }
    fn push_block(stack: &mut [Open], block: Block) {
        match stack.last_mut() {
            Some(Open::Root(blocks)) | Some(Open::Quote(blocks)) => blocks.push(block),
            Some(Open::Item(blocks, runs)) => {
                if !runs.is_empty() {
                    blocks.push(Block::Paragraph(std::mem::take(runs)));
                }
                blocks.push(block)
            }
            _ => {}
        }
    }
    fn close(stack: &mut Vec<Open>) {
        let Some(top) = stack.pop() else { return };
        match top {
            Open::Root(_) => {}
            Open::Para(runs, heading) => {
                let block = if heading {
                    Block::Heading(runs)
                } else {
                    Block::Paragraph(runs)
                };
                push_block(stack, block)
            }
            Open::List(ordered, items) => push_block(stack, Block::List { ordered, items }),
            Open::Item(mut blocks, runs) => {
                if !runs.is_empty() {
                    blocks.push(Block::Paragraph(runs));
                }
                if let Some(Open::List(_, items)) = stack.last_mut() {
                    items.push(blocks)
                }
            }
            Open::Quote(blocks) => push_block(stack, Block::Quote(blocks)),
            Open::Code(text) => push_block(stack, Block::Code(text)),
            Open::Span(kind, runs) => push_inline(
                stack,
                if kind == 0 {
                    Inline::Emphasis(runs)
                } else {
                    Inline::Strong(runs)
                },
            ),
        }
    }
    let mut stack = vec![Open::Root(Vec::new())];
    for event in Parser::new(source) {
        match event {
            Event::Start(tag) => stack.push(match tag {
                Tag::Paragraph => Open::Para(Vec::new(), false),
                Tag::Heading { .. } => Open::Para(Vec::new(), true),
                Tag::List(start) => Open::List(start.is_some(), Vec::new()),
                Tag::Item => Open::Item(Vec::new(), Vec::new()),
                Tag::BlockQuote(_) => Open::Quote(Vec::new()),
                Tag::CodeBlock(_) => Open::Code(String::new()),
                Tag::Strong => Open::Span(1, Vec::new()),
                // Emphasis, and anything else inline (a link keeps its words).
                _ => Open::Span(0, Vec::new()),
            }),
            Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => {
                // A link's words without emphasis: unwrap the span.
                if let Some(Open::Span(_, runs)) = stack.pop() {
                    for r in runs {
                        push_inline(&mut stack, r)
                    }
                }
            }
            Event::End(_) if stack.len() > 1 => close(&mut stack),
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => {
                push_inline(&mut stack, Inline::Text(t.to_string()))
            }
            Event::Code(t) => push_inline(&mut stack, Inline::Code(t.to_string())),
            Event::SoftBreak | Event::HardBreak => {
                push_inline(&mut stack, Inline::Text(" ".into()))
            }
            Event::Rule => push_block(&mut stack, Block::Rule),
            _ => {}
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    match stack.pop() {
        Some(Open::Root(blocks)) => blocks,
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_reads_into_blocks_and_html_stays_text() {
        let blocks = prose("Hello *there* `x` <b>bold</b>\n\n- one\n- **two**\n\n> quoted\n");
        assert_eq!(
            blocks[0],
            Block::Paragraph(vec![
                Inline::Text("Hello ".into()),
                Inline::Emphasis(vec![Inline::Text("there".into())]),
                Inline::Text(" ".into()),
                Inline::Code("x".into()),
                Inline::Text(" ".into()),
                Inline::Text("<b>".into()),
                Inline::Text("bold".into()),
                Inline::Text("</b>".into()),
            ])
        );
        assert_eq!(
            blocks[1],
            Block::List {
                ordered: false,
                items: vec![
                    vec![Block::Paragraph(vec![Inline::Text("one".into())])],
                    vec![Block::Paragraph(vec![Inline::Strong(vec![Inline::Text(
                        "two".into()
                    )])])],
                ]
            }
        );
        assert_eq!(
            blocks[2],
            Block::Quote(vec![Block::Paragraph(vec![Inline::Text("quoted".into())])])
        );
    }

    #[test]
    fn a_link_keeps_its_words_only() {
        let blocks = prose("see [the docs](https://example.com) now");
        assert_eq!(
            blocks[0],
            Block::Paragraph(vec![
                Inline::Text("see ".into()),
                Inline::Text("the docs".into()),
                Inline::Text(" now".into()),
            ])
        );
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
}

/// What the lesson worker answers, with the request's `seq`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    Lesson {
        seq: u64,
        lesson: LessonView,
    },
    Refused {
        seq: u64,
        file: String,
        line: usize,
        field: String,
        reason: String,
    },
    Figures {
        seq: u64,
        figures: Vec<Figure>,
    },
    Failed {
        seq: u64,
        reason: String,
    },
}

/// One condition of a goal on the learner's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The figure and its bounds, in words: `t=35s (at most 40s)`.
    pub text: String,
    pub met: bool,
}
