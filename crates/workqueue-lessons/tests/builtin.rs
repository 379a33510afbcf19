//! The ten built-in lessons, read from `lessons/` as the page reads them:
//! every one is accepted, every step names its focus, and every question is
//! answered as the lessons answered it when they were Rust code (recorded
//! in `recorded_answers.txt` before they became files).

use std::path::PathBuf;

use workqueue_lessons::{lesson, Lesson};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

/// Every built-in lesson, in the menu's order.
fn builtin() -> Vec<Lesson> {
    let order = std::fs::read_to_string(dir().join("index.txt")).expect("lessons/index.txt");
    order
        .lines()
        .filter(|l| !l.trim().is_empty())
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
