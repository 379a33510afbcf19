//! A step's scene: where it opens however it is reached, stepping back
//! through it, the frames it asks for, and the instant it stops at.

use crate::lesson_state::Press;
use crate::lessons;
use crate::state::{Action, Playground};
use crate::state::{LessonAction, RunAction};

fn reduce(mut p: Playground, a: Action) -> Playground {
    p.apply(a);
    p
}

/// The room walks every built-in lesson with a clicker (a press, then half
/// a second of frames): each step it enters opens at the same instant, to
/// the nanosecond, and with the same run, as the same step opened by its
/// link, whichever way it was reached (the press that ends a dwell carried
/// out inside a frame included).
#[test]
fn every_step_opens_at_its_set_up_instant_however_it_is_reached() {
    use std::collections::HashSet;
    let link = |id: &str, step: usize| {
        let mut p = Playground::from_url(&format!("?workshop=1&lesson={id}&step={}", step + 1), "");
        while p.run.timeline.pending().is_some() {
            p.run.timeline.catch_up();
        }
        // A step with a set-up of its own opens at that set-up's instant,
        // whatever inputs it has later.
        let lesson = p.lessons.library.get(p.lessons.open().index).unwrap();
        if let Some(setup) =
            lessons::setup_for(&lesson, step).filter(|_| lesson.steps[step].setup.is_some())
        {
            assert_eq!(
                p.now(),
                setup.run.run_to,
                "{id} step {}: the link opens at its run_to",
                step + 1
            );
        }
        (p.now(), p.engine().digest())
    };
    let mut checked = 0;
    for id in workqueue_lessons::BUILT_IN {
        let mut p = Playground::from_url(&format!("?workshop=1&lesson={id}&step=1"), "");
        let start = p.lessons.open().index;
        let mut seen = HashSet::new();
        let mut t = 0.0;
        for _ in 0..400 {
            let l = p.lessons.open();
            let (index, step) = (l.index, l.step);
            if seen.insert((index, step)) {
                let lesson = p.lessons.library.get(index).unwrap();
                assert_eq!(
                    (p.now(), p.engine().digest()),
                    link(&lesson.id, step),
                    "{} step {} entered by the clicker",
                    lesson.id,
                    step + 1
                );
                checked += 1;
            }
            if index != start || p.next_press(t) == Press::AtEnd {
                break;
            }
            p = reduce(p, Action::Lesson(LessonAction::Next(t)));
            for _ in 0..30 {
                t += 1000.0 / 60.0;
                p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
            }
        }
    }
    assert!(checked >= 30, "{checked} steps checked");
}

/// Scrubbing by event on a projector: → steps to each next event and ←
/// comes back through the very same instants and runs, in every built-in
/// lesson's first scene with a set-up.
#[test]
fn stepping_back_retraces_every_event_exactly() {
    for id in workqueue_lessons::BUILT_IN {
        let mut p = Playground::from_url(&format!("?workshop=1&lesson={id}&step=1"), "");
        // Past the prediction: the scene may move.
        p = reduce(p, Action::Lesson(LessonAction::Reveal(String::new(), 0.0)));
        let mut seen = vec![(p.now(), p.engine().digest())];
        for _ in 0..12 {
            p = reduce(p, Action::Run(RunAction::Step));
            let here = (p.now(), p.engine().digest());
            if Some(&here) == seen.last() {
                break;
            }
            seen.push(here);
        }
        seen.pop();
        while let Some(expected) = seen.pop() {
            p = reduce(p, Action::Run(RunAction::StepBack));
            assert_eq!(
                (p.now(), p.engine().digest()),
                expected,
                "{id}: back from {} events on",
                seen.len() + 1
            );
        }
    }
}

#[test]
fn frames_only_while_something_moves_and_a_held_step_names_the_buttons_shown() {
    let mut p = Playground::from_url("?embed=1&lesson=max-of&step=1", "");
    assert!(!p.wants_frames(), "a paused step asks for no frame");
    p = reduce(p, Action::Run(RunAction::TogglePlay));
    assert!(
        !p.run.playback.playing && !p.wants_frames(),
        "the prediction holds the clock"
    );
    let hint = p.ui.notice.clone().unwrap().text;
    // The lesson's one button reads "Predict…", then "Reveal": never "Next".
    assert!(
        hint.contains("press Predict…") && !hint.contains("Next"),
        "{hint}"
    );
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    p = reduce(p, Action::Run(RunAction::TogglePlay));
    let hint = p.ui.notice.clone().unwrap().text;
    assert!(
        hint.contains("press Reveal") && !hint.contains("Next"),
        "{hint}"
    );
    p = reduce(p, Action::Lesson(LessonAction::Reveal(String::new(), 0.0)));
    p = reduce(p, Action::Run(RunAction::TogglePlay));
    assert!(
        p.run.playback.playing && p.wants_frames(),
        "a playing run wants frames"
    );
    p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    p = reduce(p, Action::Run(RunAction::Pause));
    assert!(!p.wants_frames(), "paused again: none");
}

/// A scene that waits for an instant stops there to the nanosecond, however
/// long a frame is (max-of step 1 names 155ms in its narration).
#[test]
fn a_scene_stops_at_the_instant_it_waits_for() {
    for frame_ms in [16.7, 40.0, 250.0] {
        let mut p = Playground::from_url("?lesson=max-of&step=1", "");
        p = reduce(p, Action::Lesson(LessonAction::Reveal("160ms".into(), 0.0)));
        p = reduce(p, Action::Lesson(LessonAction::Next(5_000.0)));
        assert!(p.run.playback.playing, "the press plays the scene");
        for _ in 0..2_000 {
            if !p.run.playback.playing {
                break;
            }
            p = reduce(p, Action::Run(RunAction::Tick(frame_ms)));
        }
        assert!(
            !p.run.playback.playing,
            "frames of {frame_ms} ms: still playing"
        );
        assert_eq!(
            p.now(),
            workqueue_core::Instant::T0 + 155 * workqueue_core::MILLISECOND,
            "frames of {frame_ms} ms"
        );
    }
}
