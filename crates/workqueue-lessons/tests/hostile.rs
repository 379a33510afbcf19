//! Lesson files written the way such files go wrong — huge, slow, deep, at
//! the edges — each read and answered as the page's worker and `wqsim
//! lesson` do: every one is answered or refused (naming its line and
//! field), and none runs past the budget. The time each takes is printed
//! (`cargo test -p workqueue-lessons --release --test hostile -- --nocapture`),
//! never asserted: the budget in work units is what bounds it.

use std::time::Instant;

use workqueue_lessons::cost::LESSON_BUDGET;
use workqueue_lessons::query::STEP_BUDGET;
use workqueue_lessons::{lesson_or_mistakes, view::view};

/// A step block with `scenario` controllers, `inputs` and extra fields.
fn step(title: &str, body: &str) -> String {
    format!("## {title}\n\nText.\n\n```step\n{{\"focus\": {{\"lanes\": [\"waiting\"]}}, {body}}}\n```\n\n")
}

fn failing(extra: &str) -> String {
    format!(
        r#""scenario": {{"version": 2, "controllers": [{{"default_script": {{"type": "always", "outcome": {{"kind": "error"}}}}{extra}}}]}}"#
    )
}

fn setup(inputs: &str, run_to: &str) -> String {
    format!(
        r#""setup": {{{}, "inputs": [{inputs}], "run_to": "{run_to}"}}"#,
        failing("")
    )
}

/// The hostile inputs, by class, each a whole file.
fn hostile() -> Vec<(&'static str, String)> {
    let many_steps: String = (0..100)
        .map(|i| {
            step(
                &format!("Step {i}"),
                &setup(
                    r#"{"do": {"input": "add_many", "prefix": "k", "count": 250000}}"#,
                    "1s",
                ),
            )
        })
        .collect();
    vec![
        (
            "250k keys set up in each of 100 steps",
            format!("# H\n\n{many_steps}"),
        ),
        (
            "a million keys and a question",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "question": {{"ask": "?", "query": {{"requeues": {{"until": "10s"}}}}}}"#,
                        setup(
                            r#"{"do": {"input": "add_many", "prefix": "k", "count": 1000000}}"#,
                            "0s"
                        )
                    )
                )
            ),
        ),
        (
            "a window of 10^18 ns",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "question": {{"ask": "?", "query": {{"requeues": {{"until": 1000000000000000000}}}}}}"#,
                        setup(r#"{"do": {"input": "add", "key": "a"}}"#, "0s")
                    )
                )
            ),
        ),
        (
            "the deepest debt sampled every ms over a week",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "question": {{"ask": "?", "query": {{"deepest_debt": {{"until": "168h"}}}}}}"#,
                        setup(r#"{"do": {"input": "add", "key": "a"}}"#, "0s")
                    )
                )
            ),
        ),
        (
            "a failure number near 2^64",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "question": {{"ask": "?", "query": {{"wait_after_failure": {{"key": "a", "failure": 18446744073709551000}}}}}}"#,
                        setup(r#"{"do": {"input": "add", "key": "a"}}"#, "0s")
                    )
                )
            ),
        ),
        (
            "the millionth failure of a key that always fails",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "question": {{"ask": "?", "query": {{"wait_after_failure": {{"key": "k0", "failure": 1000000}}}}}}"#,
                        setup(
                            r#"{"do": {"input": "add_many", "prefix": "k", "count": 20000}}"#,
                            "0s"
                        )
                    )
                )
            ),
        ),
        (
            "a storm of a million watch events",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &setup(
                        r#"{"do": {"input": "watch_events", "key": "a", "per_second": 1000000, "duration_ns": "1h"}}"#,
                        "1h"
                    )
                )
            ),
        ),
        (
            "250k always-failing keys run to a week, no question",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &setup(
                        r#"{"do": {"input": "add_many", "prefix": "k", "count": 250000}}"#,
                        "168h"
                    )
                )
            ),
        ),
        (
            "a resync every 10ms over 250k keys",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &setup(
                        r#"{"do": {"input": "add_many", "prefix": "k", "count": 250000}}, {"do": {"input": "resync", "period_ns": "10ms"}}"#,
                        "1h"
                    )
                )
            ),
        ),
        (
            "a goal over a week of 100k keys",
            format!(
                "# H\n\n{}",
                step(
                    "S",
                    &format!(
                        r#"{}, "goal": {{"describe": "x", "conditions": [{{"query": {{"converged_at": {{"until": "168h"}}}}, "at_most": "1s"}}]}}"#,
                        setup(
                            r#"{"do": {"input": "add_many", "prefix": "k", "count": 100000}}"#,
                            "0s"
                        )
                    )
                )
            ),
        ),
    ]
}

#[test]
fn every_hostile_lesson_is_answered_or_refused_within_its_budget() {
    for (name, text) in hostile() {
        let started = Instant::now();
        let read = lesson_or_mistakes("hostile", &text);
        let answered = read.as_ref().map(view);
        let took = started.elapsed();
        match (&read, &answered) {
            (Err(mistakes), _) => {
                assert!(!mistakes.is_empty());
                for m in mistakes {
                    assert!(m.line > 0 && !m.field.is_empty(), "{name}: {m:?}");
                }
                println!("{name}: refused in {took:?}: {}", mistakes[0]);
            }
            (Ok(_), Ok(v)) => {
                println!("{name}: answered in {took:?}: {:?}", v.answers());
            }
            _ => unreachable!(),
        }
    }
}

/// The two budgets agree: a lesson admits at least one step at its budget.
const _: () = assert!(STEP_BUDGET <= LESSON_BUDGET);

/// Each class above is met as the file's author would want: the huge ones
/// refused by their cost before anything runs, naming the step.
#[test]
fn the_costliest_files_are_refused_before_they_run() {
    let refused: Vec<_> = hostile()
        .into_iter()
        // (These two are within the budget: answered, or stopped as they run.)
        .filter(|(name, _)| !name.contains("millionth") && !name.contains("a million keys"))
        .map(|(name, text)| (name, lesson_or_mistakes("hostile", &text)))
        .collect();
    for (name, read) in &refused {
        let Err(mistakes) = read else {
            panic!("{name}: accepted");
        };
        let first = &mistakes[0];
        assert!(
            ["work units", "out of range", "sampled", "too many"]
                .iter()
                .any(|w| first.reason.contains(w)),
            "{name}: {first}"
        );
    }
}

/// A question that runs until something happens cannot be costed from the
/// file: it stops at the step's budget with a message, as its answer.
#[test]
fn a_question_that_runs_until_something_happens_stops_at_the_budget() {
    let (_, text) = hostile()
        .into_iter()
        .find(|(n, _)| n.contains("millionth"))
        .unwrap();
    let l = lesson_or_mistakes("hostile", &text).expect("costed within the budget");
    let answer = l.answer(0).expect("a question");
    let reason = answer.expect_err("too much work");
    assert!(reason.contains("work units"), "{reason}");
}

/// Three independent mistakes, in three steps, come back together, in
/// file order.
#[test]
fn every_independent_mistake_is_listed_in_one_run() {
    let good = step(
        "Good",
        &setup(r#"{"do": {"input": "add", "key": "a"}}"#, "0s"),
    );
    let text = format!(
        "# H\n\n{good}{}{}{}",
        step("Bad lane", r#""focus": {"lanes": ["nowhere"]}"#).replace(
            r#"{"focus": {"lanes": ["waiting"]}, "focus""#,
            r#"{"focus""#
        ),
        step(
            "Bad tolerance",
            r#""question": {"ask": "?", "tolerance": 7, "query": {"requeues": {"until": "1s"}}}"#
        ),
        step(
            "Bad query",
            r#""question": {"ask": "?", "query": {"mood": {}}}"#
        ),
    );
    let mistakes = lesson_or_mistakes("three", &text).expect_err("refused");
    let fields: Vec<_> = mistakes.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(mistakes.len(), 3, "{mistakes:?}");
    assert!(
        fields[1] == "question.tolerance" && fields[2] == "question.query",
        "{fields:?}"
    );
    assert!(
        mistakes.windows(2).all(|w| w[0].line < w[1].line),
        "{mistakes:?}"
    );
}

/// The built-in lessons' costs, printed (the budget's headroom).
#[test]
fn built_in_costs() {
    for (id, text) in workqueue_lessons::BUILT_IN_FILES {
        let l = workqueue_lessons::lesson(id, text).unwrap();
        for (i, s) in l.steps.iter().enumerate() {
            let Some(setup) = l.setup_for(i) else {
                continue;
            };
            let scene = workqueue_lessons::cost::scene(setup);
            let q: f64 = s
                .question
                .iter()
                .map(|q| workqueue_lessons::cost::question(setup, &q.query))
                .sum();
            let g: f64 = s
                .goal
                .iter()
                .flat_map(|g| g.conditions.iter())
                .map(|c| workqueue_lessons::cost::question(setup, &c.query))
                .sum();
            let started = Instant::now();
            let answer = l.answer(i).map(|a| a.map(|v| v.text()));
            println!(
                "{id}/{}: scene {scene:.0} question {q:.0} goal {g:.0} ({:?}, {answer:?})",
                i + 1,
                started.elapsed()
            );
        }
    }
}

/// Deep Markdown (10,000 nested list levels, 100,000 nested quotes) is
/// refused at the line where it goes too deep, before anything is drawn.
#[test]
fn deep_markdown_is_refused_at_its_line() {
    let head = "# H\n\n## S\n\nText.\n\n```step\n{\"focus\": {\"lanes\": [\"waiting\"]}, \"setup\": {\"scenario\": {\"version\": 2, \"controllers\": [{}]}}}\n```\n\n";
    let lists: String = (0..10_000)
        .map(|i| format!("{}- level {i}\n", "  ".repeat(i)))
        .collect();
    let quotes = format!("{} deep\n", ">".repeat(100_000));
    for (name, body) in [("lists", lists), ("quotes", quotes)] {
        let text = format!("{head}{body}");
        let text = &text[..text.len().min(workqueue_lessons::parse::MAX_FILE_BYTES)];
        let started = Instant::now();
        let e = workqueue_lessons::lesson("deep", text).expect_err(name);
        println!("{name}: refused in {:?}: {e}", started.elapsed());
        assert!(
            e.field == "text" || e.reason.contains("larger"),
            "{name}: {e}"
        );
        assert!(e.line >= 11, "{name}: {e}");
    }
}
