//! The authoring guide (`docs/writing-lessons.md`) and its example lesson
//! stay true: the example reads, answers, and its exercise can be met; every
//! query the guide lists is one the reader knows.

use workqueue_core::Duration;
use workqueue_core::LimiterConfig;
use workqueue_core::Span;
use workqueue_core::{Burst, Qps};
use workqueue_lessons::{check, lesson};

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs");

#[test]
fn the_example_lesson_reads_answers_and_its_exercise_can_be_met() {
    let text = std::fs::read_to_string(format!("{DOCS}/example-lesson.md")).unwrap();
    let l = lesson("example-lesson", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.steps.len(), 2);
    assert!(l.intro.contains("outage"));
    let answer = l.answer(0).unwrap().unwrap();
    assert!(answer.text().starts_with("t=1m"), "{}", answer.text());
    let goal = l.steps[1].goal.as_ref().unwrap();
    let mut setup = l.setup_for(1).unwrap().clone();
    let as_given = check(goal, &setup.scene().unwrap());
    assert!(
        !as_given.iter().all(|(_, met)| *met),
        "the exercise starts unmet"
    );
    setup.scenario.controllers[0].limiter = Some(LimiterConfig::MaxOf {
        limiters: vec![
            LimiterConfig::Exponential {
                base_ns: Span::lit(Duration::from_nanos(5_000_000)),
                max_ns: Span::lit(Duration::from_nanos(1_000_000_000_000)),
            },
            LimiterConfig::Bucket {
                qps: Qps::lit(30.0),
                burst: Burst::lit(100),
            },
        ],
    });
    let solved = check(goal, &setup.scene().unwrap());
    assert!(solved.iter().all(|(_, met)| *met), "{solved:?}");
}

#[test]
fn every_query_the_guide_lists_is_one_the_reader_knows() {
    let guide = std::fs::read_to_string(format!("{DOCS}/writing-lessons.md")).unwrap();
    let table = guide
        .split("## The questions the core answers")
        .nth(1)
        .unwrap();
    let names: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    assert_eq!(names.len(), 13, "{names:?}");
    for name in names {
        let step = format!(
            "# T\n\n## S\n\n```step\n{{\"focus\": {{\"lanes\": [\"queue\"]}}, \"setup\": {{\"scenario\": {{\"version\": 2, \"controllers\": [{{}}]}}}}, \"question\": {{\"ask\": \"?\", \"query\": {{\"{name}\": {{}}}}}}}}\n```\n"
        );
        let e = lesson("t", &step).expect_err("an empty query is refused");
        assert!(!e.reason.contains("unknown variant"), "{name}: {e}");
    }
}
