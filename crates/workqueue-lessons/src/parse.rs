//! Reading a lesson file: Markdown where the first `#` heading is the title,
//! each `##` heading starts a step, and each step holds one fenced block
//! marked `step` with its JSON (focus, set-up, wait, question or goal, act).
//! Every refusal names a line of the file and the field at fault.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};
use serde::Deserialize;
use workqueue_core::limits::MAX_RUN;
use workqueue_core::validate;
use workqueue_core::Instant;

use crate::cost;
use crate::model::{Act, Focus, Lesson, Setup, Show, Step, Wait};
use crate::query::{Goal, Question};

/// Larger files are refused before they are read.
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// Steps in one lesson, at most.
pub(crate) const MAX_STEPS: usize = 100;
/// Markdown blocks and spans nested in one another, at most.
pub(crate) const MAX_NESTING: usize = 24;
/// Mistakes one refusal lists, at most (in file order).
pub(crate) const MAX_MISTAKES: usize = 20;
/// The fence's info string that marks a step's block.
pub(crate) const STEP_FENCE: &str = "step";
/// The fence's info string that marks a step's speaker notes: shown in the
/// presenter's window only.
pub(crate) const NOTES_FENCE: &str = "notes";
/// The longest speaker notes a step may carry (characters).
pub(crate) const MAX_NOTES_CHARS: usize = 4000;

use crate::model::LessonError;

fn refuse(line: usize, field: impl Into<String>, reason: impl Into<String>) -> LessonError {
    LessonError {
        line,
        field: field.into(),
        reason: reason.into(),
    }
}

/// A step's block as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepDoc {
    focus: Focus,
    #[serde(default)]
    setup: Option<workqueue_core::Run>,
    #[serde(default)]
    wait: Option<Wait>,
    #[serde(default)]
    question: Option<Question>,
    #[serde(default)]
    goal: Option<Goal>,
    #[serde(default)]
    act: Option<Act>,
    #[serde(default)]
    show: Option<Show>,
}

/// Line numbers of byte offsets.
struct Lines(Vec<usize>);

impl Lines {
    fn of(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines(starts)
    }

    fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// A step while its file is read.
struct Draft {
    title: String,
    line: usize,
    prose: Vec<String>,
    block: Option<(usize, String)>,
    /// The speaker notes: their first line and text.
    notes: Option<(usize, String)>,
}

/// The fenced blocks a step holds.
#[derive(Clone, Copy)]
enum Fence {
    Step,
    Notes,
}

impl Fence {
    /// The block a fence's info string marks, if it marks one.
    fn of(info: &str) -> Option<Fence> {
        match info.trim() {
            STEP_FENCE => Some(Fence::Step),
            NOTES_FENCE => Some(Fence::Notes),
            _ => None,
        }
    }

    /// Gives the block read from line `at` to the step whose heading came
    /// last: refused where none did, where that step already has such a
    /// block, or where notes are too long.
    fn attach(self, drafts: &mut [Draft], at: usize, text: String) -> Result<(), LessonError> {
        let (field, orphan) = match self {
            Fence::Step => ("step", "a step block comes after a ## step heading"),
            Fence::Notes => (
                "notes",
                "speaker notes come after the ## step heading they are for",
            ),
        };
        let Some(step) = drafts.last_mut() else {
            return Err(refuse(at - 1, field, orphan));
        };
        let slot = match self {
            Fence::Step => &mut step.block,
            Fence::Notes => &mut step.notes,
        };
        if slot.is_some() {
            let second = match self {
                Fence::Step => format!("step \"{}\" has a second step block", step.title),
                Fence::Notes => {
                    format!("step \"{}\" has a second notes block: keep one", step.title)
                }
            };
            return Err(refuse(at - 1, field, second));
        }
        if let Fence::Notes = self {
            let chars = text.chars().count();
            if chars > MAX_NOTES_CHARS {
                return Err(refuse(
                    at - 1,
                    field,
                    format!("speaker notes are at most {MAX_NOTES_CHARS} characters, these have {chars}"),
                ));
            }
        }
        *slot = Some((at, text));
        Ok(())
    }
}

/// A lesson file's bytes as text: refused, naming the line and the byte
/// offset, where they are not UTF-8 (a file saved in another encoding).
pub fn text_of(bytes: &[u8]) -> Result<&str, LessonError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(bytes.len()));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let valid = &bytes[..at];
        let line = 1 + valid
            .iter()
            .enumerate()
            .filter(|&(i, b)| *b == b'\n' || (*b == b'\r' && valid.get(i + 1) != Some(&b'\n')))
            .count();
        refuse(
            line,
            "(file)",
            format!("byte {at} is not UTF-8 text: save the file as UTF-8"),
        )
    })
}

/// The refusal of a file of `bytes` over [`MAX_FILE_BYTES`].
pub fn too_large(bytes: usize) -> LessonError {
    refuse(
        1,
        "(file)",
        format!(
            "{} KB is too large: a lesson file holds at most {} KB",
            bytes / 1024,
            MAX_FILE_BYTES / 1024
        ),
    )
}

/// An HTML comment never closed swallows the rest of the file (every step
/// after it): refused on the line where it opens, not the file's last.
fn unclosed_comment(text: &str) -> Result<(), LessonError> {
    let mut fenced = false;
    let mut offset = 0;
    for (i, line) in text.split('\n').enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            if let Some(open) = line.find("<!--") {
                let from = offset + open + 4;
                match text[from..].find("-->") {
                    // Reading goes on after the comment's end.
                    Some(end) => return unclosed_comment(&text[from + end + 3..])
                        .map_err(|e| refuse(e.line + i + text[from..from + end].matches('\n').count(), e.field, e.reason)),
                    None => {
                        return Err(refuse(
                            i + 1,
                            "(comment)",
                            "this <!-- comment is never closed with -->, so it hides every step after it",
                        ))
                    }
                }
            }
        }
        offset += line.len() + 1;
    }
    Ok(())
}

/// Reads lesson `id` from its file's text.
pub fn lesson(id: &str, text: &str) -> Result<Lesson, LessonError> {
    lesson_or_mistakes(id, text).map_err(|mut all| all.swap_remove(0))
}

/// Reads a lesson file, or lists its mistakes: every step's own mistake
/// (steps are read independently), in file order, at most
/// [`MAX_MISTAKES`]; a mistake in the file's outline (its title, its
/// headings, an unclosed comment) stops the reading there. Never empty.
pub fn lesson_or_mistakes(id: &str, text: &str) -> Result<Lesson, Vec<LessonError>> {
    outline(id, text)
        .map_err(|e| vec![e])
        .and_then(|(lesson, drafts)| steps_of(lesson, drafts))
}

/// The file's title, intro and step drafts (their blocks not yet read).
fn outline(id: &str, text: &str) -> Result<(Lesson, Vec<Draft>), LessonError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(too_large(text.len()));
    }
    // Lines end as an editor ends them: CR LF, LF or a lone CR (old Mac
    // files). Counted one way from here on, a refusal names the line the
    // trainer sees.
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let text: &str = &text;
    unclosed_comment(text)?;
    let lines = Lines::of(text);
    let mut title: Option<String> = None;
    let mut intro: Vec<String> = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();
    // The heading being read: its level, line and text so far.
    let mut heading: Option<(HeadingLevel, usize, String)> = None;
    // A fenced step or notes block being read: its first line and text so far.
    let mut fenced: Option<(Fence, usize, String)> = None;
    let mut depth = 0usize;
    for (event, range) in Parser::new(text).into_offset_iter() {
        let line = lines.line(range.start);
        match event {
            Event::Start(Tag::Heading { level, .. }) if depth == 0 => {
                heading = Some((level, line, String::new()));
            }
            Event::End(TagEnd::Heading(level)) if heading.is_some() => {
                let (_, at, words) = heading.take().expect("checked");
                let words = words.trim().to_string();
                match level {
                    HeadingLevel::H1 if title.is_none() && drafts.is_empty() => {
                        if words.is_empty() {
                            return Err(refuse(at, "title", "the # heading is empty"));
                        }
                        title = Some(words);
                    }
                    HeadingLevel::H1 => {
                        return Err(refuse(
                            at,
                            "title",
                            "a lesson has one # title, before its steps; steps are ## headings",
                        ))
                    }
                    HeadingLevel::H2 => {
                        if drafts.len() == MAX_STEPS {
                            return Err(refuse(
                                at,
                                "steps",
                                format!("a lesson has at most {MAX_STEPS} steps"),
                            ));
                        }
                        if words.is_empty() {
                            return Err(refuse(at, "title", "the step's ## heading is empty"));
                        }
                        drafts.push(Draft {
                            title: words,
                            line: at,
                            prose: Vec::new(),
                            block: None,
                            notes: None,
                        });
                    }
                    // Smaller headings are prose.
                    _ => prose(&mut drafts, &mut intro, &text[range]),
                }
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => {
                heading.as_mut().expect("checked").2.push_str(&t);
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if depth == 0 && Fence::of(&info).is_some() =>
            {
                fenced = Fence::of(&info).map(|fence| (fence, line + 1, String::new()));
                depth += 1;
            }
            Event::Text(t) if fenced.is_some() => fenced.as_mut().expect("checked").2.push_str(&t),
            Event::End(TagEnd::CodeBlock) if fenced.is_some() => {
                depth -= 1;
                let (fence, at, text) = fenced.take().expect("checked");
                fence.attach(&mut drafts, at, text)?;
            }
            Event::Start(_) => {
                if depth == 0 && heading.is_none() {
                    prose(&mut drafts, &mut intro, &text[range.clone()]);
                }
                depth += 1;
                // Lists in lists in quotes…: a page lays each level out, so
                // the nesting is bounded before anything is drawn.
                if depth > MAX_NESTING {
                    return Err(refuse(
                        line,
                        "text",
                        format!(
                            "lists, quotes or emphasis nested more than {MAX_NESTING} levels deep"
                        ),
                    ));
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            // A rule or raw HTML at the top: kept as prose (shown as text).
            Event::Rule | Event::Html(_) if depth == 0 => {
                prose(&mut drafts, &mut intro, &text[range])
            }
            _ => {}
        }
    }
    let title = title.ok_or_else(|| refuse(1, "title", "a lesson starts with a # title"))?;
    if drafts.is_empty() {
        return Err(refuse(
            lines.0.len(),
            "steps",
            "a lesson has at least one ## step",
        ));
    }
    let lesson = Lesson {
        id: id.to_string(),
        title,
        intro: intro.join("\n\n"),
        steps: Vec::new(),
    };
    Ok((lesson, drafts))
}

/// Reads every step's block, costs each step, and lists what is wrong.
fn steps_of(mut lesson: Lesson, drafts: Vec<Draft>) -> Result<Lesson, Vec<LessonError>> {
    let mut mistakes = Vec::new();
    let mut total = 0.0;
    // The set-up a step goes on with: its own, or the last one before it.
    let mut current: Option<Setup> = None;
    for (i, draft) in drafts.into_iter().enumerate() {
        let step = match step(draft) {
            Ok(step) => step,
            Err(e) => {
                mistakes.push(e);
                continue;
            }
        };
        if i == 0 && step.setup.is_none() {
            mistakes.push(refuse(
                step.line,
                "setup",
                "the first step sets up the scene (the later ones may go on with it)",
            ));
        }
        if let Some(s) = &step.setup {
            current = Some(s.clone());
        }
        if let Some(setup) = &current {
            let (cost, over) = costed(&step, setup);
            total += cost;
            match over {
                Some(e) => mistakes.push(e),
                None if total > cost::LESSON_BUDGET as f64 => mistakes.push(refuse(
                    step.line,
                    "steps",
                    format!(
                        "the steps up to this one ask for about {} work units together, more than a lesson's budget of {}: split the lesson, or make its scenes smaller",
                        work_units(total),
                        work_units(cost::LESSON_BUDGET as f64)
                    ),
                )),
                None => {}
            }
        }
        lesson.steps.push(step);
    }
    // What no screen can show, for every step read so far.
    mistakes.extend(crate::layout::unshowable(&lesson));
    if mistakes.is_empty() {
        return Ok(lesson);
    }
    mistakes.sort_by_key(|e| e.line);
    if mistakes.len() > MAX_MISTAKES {
        let more = mistakes.len() - MAX_MISTAKES;
        mistakes.truncate(MAX_MISTAKES);
        let line = mistakes.last().map_or(1, |e| e.line);
        mistakes.push(refuse(
            line,
            "file",
            format!(
                "and {more} more mistake(s) after this line: fix these and read the file again"
            ),
        ));
    }
    Err(mistakes)
}

/// What a step's scene and its question or goal cost, and the refusal when
/// one of them is over a step's budget.
fn costed(step: &Step, setup: &Setup) -> (f64, Option<LessonError>) {
    let budget = crate::query::STEP_BUDGET as f64;
    let over = |field: &str, what: &str, n: f64| {
        refuse(
            step.line,
            field,
            format!(
                "{what} asks for about {} work units (keys, events, reconciles and requests), more than a step's budget of {}: fewer keys, a shorter run or a shorter window",
                work_units(n),
                work_units(budget)
            ),
        )
    };
    let mut total = 0.0;
    if step.setup.is_some() {
        let keys = cost::scene_keys(setup);
        if keys > cost::MAX_SCENE_KEYS {
            return (
                total,
                Some(refuse(
                    step.line,
                    "setup",
                    format!(
                        "the scene has {keys} keys: the page runs at most {} (fewer keys)",
                        cost::MAX_SCENE_KEYS
                    ),
                )),
            );
        }
        let n = cost::scene(setup);
        total += n;
        if n > budget {
            return (total, Some(over("setup", "the scene", n)));
        }
    }
    let queries = step
        .question
        .iter()
        .map(|q| ("question.query", &q.query))
        .chain(step.goal.iter().flat_map(|g| {
            g.conditions
                .iter()
                .map(|c| ("goal.conditions.query", &c.query))
        }));
    for (field, q) in queries {
        let n = cost::question(setup, q);
        total += n;
        if n > budget {
            return (total, Some(over(field, "answering it", n)));
        }
    }
    (total, None)
}

/// A count of work units as people read it: `2.5e7` is "25 million".
fn work_units(n: f64) -> String {
    if !n.is_finite() {
        "no end of".to_string()
    } else if n >= 1e9 {
        format!("{:.0} billion", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.0} million", n / 1e6)
    } else {
        format!("{:.0}", n)
    }
}

/// Adds a block of prose to the current step, or to the intro before any.
fn prose(drafts: &mut [Draft], intro: &mut Vec<String>, source: &str) {
    let source = source.trim_end().to_string();
    match drafts.last_mut() {
        Some(step) => step.prose.push(source),
        None => intro.push(source),
    }
}

fn step(draft: Draft) -> Result<Step, LessonError> {
    let Draft {
        title,
        line,
        prose,
        block,
        notes,
    } = draft;
    let Some((at, json)) = block else {
        return Err(refuse(
            line,
            "focus",
            format!("step \"{title}\" needs a ```step block with at least its focus"),
        ));
    };
    let doc: StepDoc = workqueue_core::document::from_str(&json).map_err(|e| {
        let l = e.line.unwrap_or(1);
        refuse(at + l.saturating_sub(1), e.field, e.reason)
    })?;
    // A field refused after reading: the line where its value is written,
    // found by walking its path through the block (the same name may stand
    // in several places: two controllers' `workers`).
    let line_of = |field: &str| {
        workqueue_core::document::line_of(&json, field).map_or(at, |l| at + l.saturating_sub(1))
    };
    let checked = |field: String, reason: String| refuse(line_of(&field), field, reason);
    if doc.focus.lanes.is_empty() {
        return Err(checked(
            "focus.lanes".into(),
            "name at least one lane".into(),
        ));
    }
    let setup = match doc.setup {
        None => None,
        Some(s) => Some(
            s.checked()
                .map_err(|e| checked(format!("setup.{}", e.field), e.reason))?,
        ),
    };
    if let Some(Wait::Time(t)) = &doc.wait {
        if !(Instant::T0..=Instant::T0 + MAX_RUN).contains(t) {
            return Err(checked(
                "wait.time".into(),
                format!(
                    "{} is out of range: use 0s to a year",
                    workqueue_core::format_go_duration(t.since_t0())
                ),
            ));
        }
    }
    if let Some(q) = &doc.question {
        if !(0.0..=1.0).contains(&q.tolerance) {
            return Err(checked(
                "question.tolerance".into(),
                format!(
                    "{} is out of range: a fraction from 0 (exact) to 1",
                    q.tolerance
                ),
            ));
        }
    }
    if let Some(q) = &doc.question {
        q.query
            .check()
            .map_err(|(field, reason)| checked(format!("question.query.{field}"), reason))?;
    }
    if let Some(g) = &doc.goal {
        for (i, c) in g.conditions.iter().enumerate() {
            c.query.check().map_err(|(field, reason)| {
                checked(format!("goal.conditions[{i}].query.{field}"), reason)
            })?;
        }
        if g.conditions.is_empty() {
            return Err(checked(
                "goal.conditions".into(),
                "a goal has at least one condition".into(),
            ));
        }
        for (i, c) in g.conditions.iter().enumerate() {
            c.check_units().map_err(|(field, reason)| {
                checked(format!("goal.conditions[{i}].{field}"), reason)
            })?;
        }
        if let Some(i) = g
            .conditions
            .iter()
            .position(|c| c.at_most.is_none() && c.at_least.is_none())
        {
            return Err(checked(
                format!("goal.conditions[{i}]"),
                "give at_most, at_least or both".into(),
            ));
        }
    }
    if doc.question.is_some() && doc.goal.is_some() {
        return Err(checked(
            "goal".into(),
            "a step asks a question or sets a goal, not both".into(),
        ));
    }
    if let Some(act) = &doc.act {
        for (i, input) in act.inputs.iter().enumerate() {
            validate::input(input)
                .map_err(|e| checked(format!("act.inputs[{i}].{}", e.field), e.reason))?;
        }
    }
    Ok(Step {
        title,
        text: prose.join("\n\n"),
        line,
        focus: doc.focus,
        setup,
        wait: doc.wait,
        question: doc.question,
        goal: doc.goal,
        act: doc.act,
        show: doc.show,
        notes: notes.map(|(_, n)| n.trim().to_string()).unwrap_or_default(),
    })
}

/// A lesson's id from its file's name: `lessons/mine.md` is `mine`.
pub fn id_of(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let stem = base.strip_suffix(".md").unwrap_or(base);
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    if id.is_empty() {
        "lesson".into()
    } else {
        id
    }
}
