//! A lesson as a blog's reader meets it in an embed: the version switch a
//! step points at, and the hint to predict first.

use crate::state::{Action, Playground};
use crate::state::{LessonAction, RunAction};

fn reduce(mut p: Playground, a: Action) -> Playground {
    p.apply(a);
    p
}

/// A step that points at the version switch: pressing it replays the scene
/// on the other queue and the lesson goes on, at the same step and page,
/// with the prediction made (a blogger's reader lost the lesson for good).
#[test]
fn the_version_switch_keeps_the_lesson_where_it_was() {
    use workqueue_core::QueueKind;
    let mut p = Playground::from_url("?lesson=v023&step=1&embed=1", "");
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    p = reduce(p, Action::Lesson(LessonAction::Reveal("70000".into(), 0.0)));
    p = reduce(p, Action::Run(RunAction::Step));
    let before = p
        .lessons
        .current
        .as_ref()
        .map(|l| (l.index, l.step, l.guess().cloned()));
    assert!(before.is_some());
    p = reduce(p, Action::Run(RunAction::SwitchQueue(QueueKind::ClientGo)));
    assert_eq!(
        p.sim().spec().queue,
        QueueKind::ClientGo,
        "the run switched"
    );
    assert!(
        p.run.other_run.is_some(),
        "with the other run's figures beside it"
    );
    let after = p
        .lessons
        .current
        .as_ref()
        .map(|l| (l.index, l.step, l.guess().cloned()));
    assert_eq!(after, before, "and the lesson is where it was");
}

/// Play on a step that holds for a prediction says to predict first; the
/// hint goes once the prediction is revealed (it stayed over the stage).
#[test]
fn the_hint_to_predict_first_goes_with_the_prediction() {
    let mut p = Playground::from_url("?lesson=max-of&step=1&embed=1", "");
    p = reduce(p, Action::Run(RunAction::TogglePlay));
    let hint =
        p.ui.notice
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default();
    assert!(
        hint.starts_with(crate::lesson_state::PREDICT_FIRST),
        "{hint}"
    );
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    let asked =
        p.ui.notice
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default();
    assert!(
        asked.starts_with(crate::lesson_state::PREDICT_FIRST),
        "asking keeps it: the prediction is still open"
    );
    assert_ne!(asked, hint, "and it says what to press now: {asked}");
    assert_eq!(asked, p.predict_first_hint());
    p = reduce(
        p,
        Action::Lesson(LessonAction::Reveal("160ms".into(), 1000.0)),
    );
    assert_eq!(p.ui.notice, None, "revealed: the hint is gone");
}

/// ← in a lesson rewinds the step's own scene, never past where the step
/// opened (before it is another step's scene, or an empty stage): on every
/// built-in step that opens after the run's start.
#[test]
fn stepping_back_stops_where_the_step_opened() {
    use workqueue_core::Instant;
    let mut later = 0;
    for id in workqueue_lessons::BUILT_IN {
        for step in 1..=8 {
            let mut p = Playground::from_url(&format!("?lesson={id}&step={step}&embed=1"), "");
            let Some(ls) = p.lessons.current.as_ref().filter(|l| l.step + 1 == step) else {
                break; // past the lesson's last step
            };
            let start = ls.visit.start;
            if start == Instant::T0 || p.run.timeline.pending().is_some() {
                continue;
            }
            later += 1;
            assert_eq!(p.now(), start, "{id} {step} opens at its start");
            for _ in 0..3 {
                p = reduce(p, Action::Run(RunAction::Step));
            }
            for _ in 0..6 {
                p = reduce(p, Action::Run(RunAction::StepBack));
                assert!(
                    p.now() >= start,
                    "{id} {step}: back to {:?}, before the step's start {:?}",
                    p.now(),
                    start
                );
            }
            assert_eq!(p.now(), start, "{id} {step}: back at the step's start");
        }
    }
    assert!(later >= 3, "steps that open after the run's start: {later}");
}

/// A slip typed for a number (`abc` for a count) is not revealed as a
/// prediction: the field stays with what was typed, and says what to type.
#[test]
fn a_guess_that_is_not_a_number_is_refused_in_the_readers_words() {
    let mut p = Playground::from_url("?lesson=forget-done&step=1&embed=1", "");
    let press = |p: &Playground| p.next_press(1e9);
    let mut now = 0.0;
    while press(&p) != crate::lesson_state::Press::Asked {
        now += 1000.0;
        p = reduce(p, Action::Lesson(LessonAction::Next(now)));
        assert!(now < 10_000.0, "the question is reached");
    }
    now += 1000.0;
    p = reduce(p, Action::Lesson(LessonAction::Next(now)));
    p = reduce(p, Action::Lesson(LessonAction::Draft("abc".into())));
    now += 1000.0;
    p = reduce(p, Action::Lesson(LessonAction::Next(now)));
    let l = p
        .lessons
        .current
        .as_ref()
        .map(|l| (l.guess().cloned(), l.visit.draft.clone(), l.visit.asked));
    assert_eq!(
        l,
        Some((None, "abc".to_string(), true)),
        "not revealed, the field kept"
    );
    // Said beside the field, not over the stage.
    let said = |p: &Playground| {
        p.lessons
            .current
            .as_ref()
            .and_then(|l| l.visit.refused.clone())
            .unwrap_or_default()
    };
    assert!(
        said(&p).contains("“abc” is not a prediction") && said(&p).contains("a number"),
        "{}",
        said(&p)
    );
    assert!(p.ui.notice.is_none(), "{:?}", p.ui.notice);
    // Typing again takes the refusal away.
    p = reduce(p, Action::Lesson(LessonAction::Draft("ab".into())));
    assert_eq!(said(&p), "");
    // The same through the field's own Reveal, and below zero.
    p = reduce(p, Action::Lesson(LessonAction::Reveal("soon".into(), now)));
    assert!(p
        .lessons
        .current
        .as_ref()
        .is_some_and(|l| l.guess().is_none()));
    p = reduce(p, Action::Lesson(LessonAction::Reveal("-6".into(), now)));
    assert!(said(&p).contains("below zero"), "{}", said(&p));
    assert!(p
        .lessons
        .current
        .as_ref()
        .is_some_and(|l| l.guess().is_none()));
    // A guess it can read is taken, and the refusal goes with it.
    p = reduce(p, Action::Lesson(LessonAction::Reveal("6".into(), now)));
    assert_eq!(
        p.lessons.current.as_ref().and_then(|l| l.guess().cloned()),
        Some("6".to_string())
    );
    assert_eq!(said(&p), "");
}
