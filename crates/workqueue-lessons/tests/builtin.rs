//! The ten built-in lessons, read from `lessons/` as the page reads them:
//! every one is accepted, every step names its focus, and every question is
//! answered as the lessons answered it when they were Rust code (recorded
//! in `recorded_answers.txt` before they became files).

use std::path::PathBuf;
use workqueue_core::Duration;
use workqueue_core::Span;
use workqueue_core::{Burst, Qps};

use workqueue_lessons::{lesson, Lesson, BUILT_IN};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

/// Every built-in lesson, in the menu's order.
fn builtin() -> Vec<Lesson> {
    // Every file in lessons/ is a built-in lesson, and each is listed.
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = BUILT_IN.iter().map(|id| format!("{id}.md")).collect();
    listed.sort();
    assert_eq!(files, listed, "lessons/ holds exactly the built-in lessons");
    BUILT_IN
        .iter()
        .map(|id| {
            let text = std::fs::read_to_string(dir().join(format!("{id}.md")))
                .unwrap_or_else(|e| panic!("{id}.md: {e}"));
            lesson(id, &text).unwrap_or_else(|e| panic!("{id}.md {e}"))
        })
        .collect()
}

#[test]
fn every_built_in_lesson_is_accepted_and_focused() {
    let all = builtin();
    assert_eq!(all.len(), 10);
    for l in &all {
        for (i, s) in l.steps.iter().enumerate() {
            assert!(!s.focus.lanes.is_empty(), "{}/{}", l.id, i + 1);
            let scene = l.setup_for(i).expect("a scene").scene().expect("it runs");
            // A focused key is in the scene, or the step's act adds it.
            if let Some(key) = &s.focus.key {
                let added = s.act.iter().flat_map(|a| &a.inputs).any(
                    |input| matches!(input, workqueue_core::Input::Add { key: k } if k == key),
                );
                let known = scene.controllers().any(|(_, c)| c.find(key).is_some());
                assert!(
                    known || added,
                    "{}/{}: {key} is not in the scene",
                    l.id,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn every_answer_is_what_the_coded_lessons_said() {
    let recorded = include_str!("recorded_answers.txt");
    let all = builtin();
    let mut checked = 0;
    for line in recorded.lines().filter(|l| !l.starts_with('#')) {
        let (id_step, rest) = line.split_once(' ').unwrap();
        let (answer, unit) = rest.split_once(" | ").unwrap();
        let (id, step) = id_step.split_once('/').unwrap();
        let step: usize = step.parse().unwrap();
        let l = all
            .iter()
            .find(|l| l.id == id)
            .unwrap_or_else(|| panic!("{id}"));
        let q = l.steps[step - 1]
            .question
            .as_ref()
            .unwrap_or_else(|| panic!("{id_step} asks"));
        let got = l
            .answer(step - 1)
            .unwrap()
            .unwrap_or_else(|e| panic!("{id_step}: {e}"));
        assert_eq!(got.text(), answer, "{id_step}: {}", q.ask);
        assert_eq!(q.unit, unit.trim(), "{id_step}");
        checked += 1;
    }
    let asked: usize = all
        .iter()
        .map(|l| l.steps.iter().filter(|s| s.question.is_some()).count())
        .sum();
    assert_eq!(checked, asked, "every question has a recorded answer");
}

/// The exercise in the herd lesson fails with its own set-up, fails when
/// the bucket is simply removed, and is met by a faster bucket: the goal
/// asks for understanding, not for switching limiting off.
#[test]
fn the_herd_exercise_is_solvable_and_not_by_removing_the_bucket() {
    use workqueue_core::LimiterConfig;
    use workqueue_lessons::check;
    let herd = builtin().into_iter().find(|l| l.id == "herd").unwrap();
    let (i, step) = herd
        .steps
        .iter()
        .enumerate()
        .find(|(_, s)| s.goal.is_some())
        .expect("an exercise");
    let goal = step.goal.as_ref().unwrap();
    let with = |limiter: LimiterConfig| {
        let mut setup = herd.setup_for(i).unwrap().clone();
        setup.scenario.controllers[0].limiter = Some(limiter);
        let figures = check(goal, &setup.scene().unwrap());
        figures.iter().map(|(_, met)| *met).collect::<Vec<_>>()
    };
    let own = check(goal, &herd.setup_for(i).unwrap().scene().unwrap());
    assert_eq!(
        own.iter().map(|(_, m)| *m).collect::<Vec<_>>(),
        [false, true],
        "too slow as set up"
    );
    let per_item = LimiterConfig::Exponential {
        base_ns: Span::lit(Duration::from_nanos(5_000_000)),
        max_ns: Span::lit(Duration::from_nanos(1000 * 1_000_000_000)),
    };
    assert_eq!(
        with(per_item.clone()),
        [true, false],
        "fast, but the crowd comes back at once"
    );
    let faster_bucket = LimiterConfig::MaxOf {
        limiters: vec![
            per_item,
            LimiterConfig::Bucket {
                qps: Qps::lit(50.0),
                burst: Burst::lit(100),
            },
        ],
    };
    assert_eq!(
        with(faster_bucket),
        [true, true],
        "a faster bucket meets the goal"
    );
}

/// An embed's first paint (scripts/first_words.py) draws a step's first
/// paragraph before any wasm; a longer paragraph after it, drawn by the app
/// seconds later, would be the page's largest paint instead (Lighthouse's
/// LCP then waits for the module), and one as long can be larger by a
/// pixel. So each later paragraph of a built-in step is clearly shorter
/// than its first (by more than a line of its five or so).
#[test]
fn a_built_in_steps_first_paragraph_is_its_longest_by_a_line() {
    for l in builtin() {
        for (i, step) in l.steps.iter().enumerate() {
            let paragraphs: Vec<u32> = step
                .text
                .split("\n\n")
                .map(|p| p.trim())
                .filter(|p| !p.is_empty())
                .map(drawn_width)
                .collect();
            let first = paragraphs.first().copied().unwrap_or(0);
            assert!(
                paragraphs.iter().skip(1).all(|&n| n * 100 <= first * 85),
                "{} step {}: paragraphs {paragraphs:?} wide (tenths of a character): each after the first must be a good line shorter (at most 85%)",
                l.id,
                i + 1
            );
        }
    }
}

/// A paragraph's drawn width in tenths of a plain character: bold and
/// inline code are drawn wider (by about a fifth), their marks not at all.
fn drawn_width(paragraph: &str) -> u32 {
    let (mut width, mut bold, mut code) = (0, false, false);
    let mut chars = paragraph.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => code = !code,
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                bold = !bold;
            }
            '*' | '_' if !code => {}
            _ => width += if bold || code { 12 } else { 10 },
        }
    }
    width
}

/// Every built-in question says why its answer is what it is, beside the
/// answer once revealed (an embed's reader has no trainer to say it), as
/// text the lesson wrote, escaped.
#[test]
fn every_built_in_question_says_why_once_answered() {
    for l in builtin() {
        let view = workqueue_lessons::view::view(&l);
        for (i, s) in view.steps.iter().enumerate() {
            let Some(q) = &s.question else { continue };
            assert!(
                q.why.starts_with("<p>Often guessed: ") && q.why.len() > 60,
                "{} step {}: {:?}",
                l.id,
                i + 1,
                q.why
            );
            assert!(!q.why.contains("<script"), "{}: escaped", l.id);
        }
    }
}
