use crate::lesson_state::Press;
use crate::lessons;
use crate::state::{Action, Playground};
use crate::state::{LessonAction, RunAction};

fn reduce(mut p: Playground, a: Action) -> Playground {
    p.apply(a);
    p
}

#[test]
fn a_revealed_answer_never_shifts_and_back_keeps_predictions() {
    // The max-of lesson: the answer (160ms) depends on the run, which
    // moves on when the step is played.
    let mut p = Playground::from_url("?lesson=max-of&step=1", "");
    let answer = p.lessons.open().answer().cloned();
    assert_eq!(answer.as_deref(), Some("160ms"));
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    let l = p.lessons.open();
    assert_eq!(
        (l.step, l.guess(), l.visit.asked),
        (0, None, true),
        "the first press asks for the prediction"
    );
    assert_eq!(p.lessons.focus_guess, 1, "and puts the field in front");
    p = reduce(p, Action::Lesson(LessonAction::Reveal("0.16s".into(), 0.0)));
    for _ in 0..5 {
        p = reduce(p, Action::Run(RunAction::Step));
    }
    p = reduce(p, Action::Run(RunAction::TogglePlay));
    p = reduce(p, Action::Run(RunAction::Tick(200.0)));
    let l = p.lessons.open();
    assert_eq!(
        l.answer().cloned(),
        answer,
        "unchanged after stepping and playing"
    );
    assert!(workqueue_lessons::same_answer(
        l.guess().unwrap(),
        l.answer().unwrap(),
        0.0
    ));

    let mut p = Playground::from_url("?lesson=backoff&step=1", "");
    p = reduce(p, Action::Lesson(LessonAction::Reveal("7".into(), 0.0)));
    let mut t = 0.0;
    while p.lessons.open().step == 0 && t < 60_000.0 {
        t += 1000.0;
        p = reduce(p, Action::Lesson(LessonAction::Next(t)));
        p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    }
    assert_eq!(p.lessons.open().step, 1);
    p = reduce(p, Action::Lesson(LessonAction::Back));
    let l = p.lessons.open();
    assert_eq!(
        (l.step, l.guess().map(String::as_str)),
        (0, Some("7")),
        "back keeps the prediction"
    );
}

/// A press while the step is still being shown is not lost: it is kept,
/// and carried out once the dwell is over, never before, and only once.
#[test]
fn a_press_during_the_dwell_moves_on_when_the_dwell_ends() {
    use crate::lesson_state::MIN_DWELL_MS;
    for link in [
        "?workshop=1&lesson=backoff&step=1",
        "?workshop=1&lesson=herd&step=2",
        "?embed=1&lesson=sets&step=1",
    ] {
        let mut p = Playground::from_url(link, "");
        let mut t = 0.0;
        // Press until the step is shown and dwelling.
        while p.next_press(t) != Press::Dwelling {
            assert!(t < 60_000.0, "{link}: never dwelt");
            p = reduce(p, Action::Lesson(LessonAction::Next(t)));
            p = reduce(p, Action::Run(RunAction::Tick(100.0)));
            t += 100.0;
        }
        // (A moment later: a press right after another is the same press.)
        for _ in 0..4 {
            p = reduce(p, Action::Run(RunAction::Tick(100.0)));
        }
        t += 400.0;
        let step = p.lessons.at().unwrap();
        p = reduce(p, Action::Lesson(LessonAction::Next(t)));
        assert!(p.lessons.open().visit.kept.is_some(), "{link}: kept");
        let pressed = t;
        let mut moved_at = None;
        for _ in 0..600 {
            p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
            t += 1000.0 / 60.0;
            let now = p.lessons.at().unwrap();
            if now != step {
                moved_at.get_or_insert(t);
                assert_eq!(now, (step.0, step.1 + 1), "{link}: one step on, once");
            }
        }
        let moved_at = moved_at.unwrap_or_else(|| panic!("{link}: the kept press was lost"));
        let after = moved_at - pressed;
        assert!(
            after < MIN_DWELL_MS + 50.0,
            "{link}: it moved {after}ms after the press"
        );
    }
}

/// A trainer with a clicker: PageDown alone walks the lessons, asking for
/// each prediction and revealing it, playing each scene, never leaving a
/// step before its scene has played for the minimum dwell, and crossing
/// into the next lesson; PageUp walks back across lessons.

#[test]
fn a_clicker_alone_walks_through_lessons() {
    use crate::lesson_state::MIN_DWELL_MS;
    let mut p = Playground::from_url("?workshop=1&lesson=backoff&step=1", "");
    let start = p.lessons.current.as_ref().map(|l| l.index).unwrap();
    let mut t = 0.0;
    let mut seen = vec![(start, 0)];
    let mut presses = Vec::new();
    let mut last_show = None;
    while seen.len() < 8 && presses.len() < 200 {
        let press = p.next_press(t);
        presses.push(press);
        let before = p.lessons.at().unwrap();
        p = reduce(p, Action::Lesson(LessonAction::Next(t)));
        match press {
            Press::Played | Press::Revealed => last_show = Some(t),
            Press::Moved => {
                let now = p.lessons.at().unwrap();
                assert_ne!(now, before, "a move moves");
            }
            _ => {}
        }
        // Real time passes between presses; the scene plays meanwhile
        // (and a press kept through the dwell moves on when it ends).
        for _ in 0..30 {
            p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
        }
        t += 500.0;
        let now = p.lessons.at().unwrap();
        if seen.last() != Some(&now) {
            if let Some(shown) = last_show.take() {
                assert!(
                    t - shown >= MIN_DWELL_MS,
                    "left {before:?} {}ms after it was shown",
                    t - shown
                );
            }
            seen.push(now);
        }
    }
    assert!(seen.len() >= 8, "walked {seen:?} with {presses:?}");
    assert!(
        seen.iter().any(|(i, _)| *i == start + 1),
        "crossed into the next lesson: {seen:?}"
    );
    assert!(presses.contains(&Press::Asked) && presses.contains(&Press::Revealed));
    assert!(presses.contains(&Press::Played) && presses.contains(&Press::Dwelling));
    // PageUp walks back across the lesson boundary.
    while p.lessons.current.as_ref().map(|l| l.index).unwrap() > start {
        p = reduce(p, Action::Lesson(LessonAction::Back));
    }
    let l = p.lessons.open();
    let last = lessons::Library::default().get(start).unwrap().steps.len() - 1;
    assert_eq!(
        (l.index, l.step),
        (start, last),
        "back lands on the last step"
    );
}

/// A step whose text asks for an action (its button) gets it from the
/// clicker too; a step whose scene is a manager opens on it and plays it.
#[test]
fn the_clicker_does_what_a_step_asks() {
    let mut p = Playground::from_url("?workshop=1&lesson=provider&step=2", "");
    assert!(p.is_manager(), "three kinds: a manager on the stage");
    let mut t = 0.0;
    // Ask and reveal the prediction first, then the press plays it.
    while !p.run.playback.playing && t < 10_000.0 {
        p = reduce(p, Action::Lesson(LessonAction::Next(t)));
        t += 100.0;
    }
    assert!(
        p.is_manager() && p.run.playback.playing,
        "the press plays the provider"
    );
    let mut p = Playground::from_url("?lesson=sets&step=1", "");
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    assert!(
        p.sim().find("default/web-1").is_some(),
        "the press added the key the step talks about"
    );
}

/// PageDown alone, from the first step of the first lesson, reaches the
/// end of the course: every step that waits for something (a time, a
/// reconcile's result the room would choose) lets the clicker on.
#[test]
fn the_clicker_alone_reaches_the_end_of_the_course() {
    let total: usize = lessons::Library::default()
        .entries()
        .iter()
        .map(|e| e.lesson.as_ref().unwrap().steps.len())
        .sum();
    let (at_end, visited) = clicker_alone("?workshop=1&lesson=sets&step=1");
    assert!(at_end, "stuck at {:?}", visited.last());
    let seen: std::collections::BTreeSet<_> = visited.into_iter().collect();
    assert_eq!(seen.len(), total, "every step visited");
}

/// PageDown alone from `link`, a press every half second: whether it
/// reached the end, and every (lesson, step) it showed, in order.
fn clicker_alone(link: &str) -> (bool, Vec<(usize, usize)>) {
    let mut p = Playground::from_url(link, "");
    let mut t = 0.0;
    let mut visited = Vec::new();
    for _ in 0..5000 {
        let l = p.lessons.current.clone().expect("a lesson is open");
        visited.push((l.index, l.step));
        if p.next_press(t) == Press::AtEnd {
            return (true, visited);
        }
        p = reduce(p, Action::Lesson(LessonAction::Next(t)));
        for _ in 0..30 {
            p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
        }
        t += 500.0;
    }
    (false, visited)
}

/// A room's own course (`?lessons=`): the clicker walks the chosen
/// lessons in the chosen order, every step of each, and no other; Back
/// from the first step of one goes to the last of the one before it.
#[test]
fn the_clicker_walks_the_rooms_own_course_and_no_other_lesson() {
    for course in [
        ["herd", "forget-done", "provider"],
        ["provider", "sets", "v023"],
    ] {
        let link = format!("?workshop=1&lessons={}", course.join(","));
        let (at_end, visited) = clicker_alone(&link);
        assert!(at_end, "{link}: stuck at {:?}", visited.last());
        let mut order: Vec<String> = Vec::new();
        for (index, _) in &visited {
            let id = lessons::Library::default().entries()[*index].id.clone();
            if order.last() != Some(&id) {
                order.push(id);
            }
        }
        assert_eq!(order, course, "{link}");
        let seen: std::collections::BTreeSet<_> = visited.into_iter().collect();
        let steps: usize = course
            .iter()
            .map(|id| {
                lessons::Library::default()
                    .get(lessons::Library::default().index_of(id).unwrap())
                    .unwrap()
                    .steps
                    .len()
            })
            .sum();
        assert_eq!(seen.len(), steps, "{link}: every step of the course");
        // Back from the second lesson's first step: the first's last step.
        let second = lessons::Library::default().index_of(course[1]).unwrap();
        let first = lessons::Library::default().index_of(course[0]).unwrap();
        let mut p = Playground::from_url(&format!("{link}&lesson={}&step=1", course[1]), "");
        assert_eq!(p.lessons.open().index, second);
        p = reduce(p, Action::Lesson(LessonAction::Back));
        let l = p.lessons.current.clone().unwrap();
        assert_eq!(
            (l.index, l.step + 1),
            (
                first,
                lessons::Library::default().get(first).unwrap().steps.len()
            )
        );
        // And no further back than the course's first lesson.
        let mut p = Playground::from_url(&link, "");
        p = reduce(p, Action::Lesson(LessonAction::Back));
        assert_eq!(p.lessons.open().index, first);
    }
    // An id that is not a lesson is named, and the rest of the course holds.
    let p = Playground::from_url("?workshop=1&lessons=herd,nope,provider", "");
    assert!(
        p.ui.notice
            .as_ref()
            .is_some_and(|n| n.text.contains("nope")),
        "{:?}",
        p.ui.notice
    );
    assert_eq!(p.lessons.course.as_deref().map(Vec::len), Some(2));
}

/// However a step with a question is entered, the virtual clock holds
/// until the prediction is revealed, and runs after it.
#[test]
fn no_scene_moves_before_the_room_predicts() {
    let mut checked = 0;
    for (index, entry) in lessons::Library::default().entries().iter().enumerate() {
        let lesson = entry.lesson.clone().unwrap();
        for (step, s) in lesson.steps.iter().enumerate() {
            if s.question.is_none() {
                continue;
            }
            checked += 1;
            // A link that asks to play, and the press into it from the
            // step before (its scene playing), across lessons too.
            let link = format!(
                "?workshop=1&autoplay=1&lesson={}&step={}",
                entry.id,
                step + 1
            );
            let mut ways = vec![Playground::from_url(&link, "")];
            let mut p = Playground::from_url(&link, "");
            p = reduce(p, Action::Lesson(LessonAction::Back));
            p = reduce(p, Action::Run(RunAction::Play));
            for _ in 0..10 {
                p = reduce(p, Action::Run(RunAction::Tick(16.0)));
            }
            let mut t = 1e6;
            for _ in 0..400 {
                if p.lessons.at() == Some((index, step)) {
                    break;
                }
                p = reduce(p, Action::Lesson(LessonAction::Next(t)));
                t += 5000.0;
                for _ in 0..30 {
                    p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
                }
            }
            assert_eq!(
                p.lessons.at(),
                Some((index, step)),
                "the clicker reached {} step {}",
                entry.id,
                step + 1
            );
            ways.push(p);
            for mut p in ways {
                let at = p.now();
                for _ in 0..60 {
                    p = reduce(p, Action::Run(RunAction::Tick(16.0)));
                }
                p = reduce(p, Action::Run(RunAction::Play));
                p = reduce(p, Action::Run(RunAction::Step));
                assert_eq!(
                    p.now(),
                    at,
                    "{} step {}: the clock moved before the prediction",
                    entry.id,
                    step + 1
                );
                assert!(!p.run.playback.playing);
                p = reduce(p, Action::Lesson(LessonAction::Reveal("1".into(), 0.0)));
                p = reduce(p, Action::Run(RunAction::Play));
                for _ in 0..60 {
                    p = reduce(p, Action::Run(RunAction::Tick(16.0)));
                }
                let runs = p.now() > at || p.run.timeline.next_instant().is_none() || p.deciding();
                assert!(
                    runs,
                    "{} step {}: the scene runs once predicted",
                    entry.id,
                    step + 1
                );
            }
        }
    }
    assert!(checked >= 10, "{checked} questions");
}

/// Two presses a moment apart (a nervous double press) are one press:
/// the revealed answer is not played past at once.
#[test]
fn a_double_press_is_one_press() {
    let mut p = Playground::from_url("?workshop=1&lesson=backoff&step=1", "");
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(1)));
    let first = p.next_press(0.0);
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    let after_one = p.lessons.current.clone();
    p = reduce(p, Action::Lesson(LessonAction::Next(120.0)));
    assert_eq!(
        p.lessons.current, after_one,
        "the second press of {first:?} did nothing"
    );
    p = reduce(p, Action::Lesson(LessonAction::Next(500.0)));
    assert_ne!(p.lessons.current, after_one, "a press later is a press");
}

/// A narration longer than the panel: the clicker turns its pages
/// first, and back turns them back before leaving the step.
#[test]
fn the_clicker_turns_the_narrations_pages_first() {
    let mut p = Playground::from_url("?workshop=1&lesson=backoff&step=1", "");
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(3)));
    assert_eq!(p.next_press(0.0), Press::Page);
    p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
    p = reduce(p, Action::Lesson(LessonAction::Next(400.0)));
    let l = p.lessons.current.clone().unwrap();
    assert_eq!((l.visit.pages.at, l.visit.pages.of), (2, 3));
    assert_ne!(
        p.next_press(0.0),
        Press::Page,
        "then the step's own presses"
    );
    p = reduce(p, Action::Lesson(LessonAction::Back));
    assert_eq!(p.lessons.open().visit.pages.at, 1, "back turns a page back");
    assert_eq!(p.lessons.open().step, 0);
    // A panel that grew: the page on screen stays within the narration.
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(1)));
    assert_eq!(p.lessons.open().visit.pages.at, 0);
}

/// The hint to predict, shown when a press asks for the prediction, goes
/// when the next press reveals the answer: it never stays over the answer.
/// For every built-in step that asks.
#[test]
fn the_hint_to_predict_goes_when_the_answer_is_revealed() {
    let library = lessons::Library::default();
    let mut asked = 0;
    for entry in library.entries() {
        let steps = entry.lesson.as_ref().unwrap().steps.len();
        for step in 1..=steps {
            let mut p = Playground::from_url(&format!("?lesson={}&step={step}", entry.id), "");
            // Through the narration's pages to the question, if it asks one.
            let mut presses = 0;
            while !p.lessons.open().visit.asked && presses < 12 {
                p = reduce(
                    p,
                    Action::Lesson(LessonAction::Next(presses as f64 * 5000.0)),
                );
                presses += 1;
            }
            let l = p.lessons.open();
            if !l.visit.asked || l.step + 1 != step {
                continue; // a step without a question
            }
            asked += 1;
            assert!(
                p.ui.notice
                    .as_ref()
                    .is_some_and(|n| n.text.contains("Type a prediction")),
                "{}/{step}: {:?}",
                entry.id,
                p.ui.notice
            );
            p = reduce(
                p,
                Action::Lesson(LessonAction::Next(presses as f64 * 5000.0)),
            );
            assert!(
                p.lessons.open().visit.revealed_at.is_some(),
                "{}/{step}: revealed",
                entry.id
            );
            assert!(
                p.ui.notice
                    .as_ref()
                    .is_none_or(|n| !n.text.contains("Type a prediction")),
                "{}/{step}: the hint stayed over the answer",
                entry.id
            );
        }
    }
    assert!(asked >= 10, "{asked} steps ask");
}

/// The presenter's clock asks what the press does as time goes on, from
/// one [`Playground::press_from`]: the same as asking the state each time.
#[test]
fn the_press_from_an_instant_is_the_press_at_each_later_one() {
    use crate::lesson_state::MIN_DWELL_MS;
    for link in [
        "?workshop=1&lesson=backoff&step=1",
        "?embed=1&lesson=sets&step=1",
    ] {
        let mut p = Playground::from_url(link, "");
        let mut t = 0.0;
        let mut dwelt = false;
        while t < 30_000.0 {
            let from = p.press_from(t);
            dwelt |= from.press == Press::Dwelling;
            for later in [
                0.0,
                1.0,
                MIN_DWELL_MS / 2.0,
                MIN_DWELL_MS,
                10.0 * MIN_DWELL_MS,
            ] {
                assert_eq!(
                    from.at(t + later),
                    p.next_press(t + later),
                    "{link} at {t}+{later}"
                );
            }
            p = reduce(p, Action::Lesson(LessonAction::Next(t)));
            for _ in 0..6 {
                p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
            }
            t += 100.0;
        }
        assert!(dwelt, "{link}: never dwelt");
    }
}

/// A step opened to play by itself (a snippet's `autoplay=1`) plays as its
/// own Play does: to where its scene ends, and pauses there. The clock does
/// not count on under a finished scene.
#[test]
fn a_step_that_plays_on_opening_stops_where_its_scene_ends() {
    let mut checked = 0;
    for entry in lessons::Library::default().entries() {
        let lesson = entry.lesson.clone().unwrap();
        for (step, s) in lesson.steps.iter().enumerate() {
            if s.question.is_some() || s.wait.is_none() {
                continue;
            }
            let link = format!("?embed=1&autoplay=1&lesson={}&step={}", entry.id, step + 1);
            let mut p = Playground::from_url(&link, "");
            assert!(p.run.playback.playing, "{link}: plays on opening");
            for _ in 0..20_000 {
                if !p.run.playback.playing || p.deciding() {
                    break;
                }
                p = reduce(p, Action::Run(RunAction::Tick(100.0)));
            }
            // (A scene that waits for the reader's choice holds for it.)
            if p.deciding() {
                continue;
            }
            assert!(
                !p.run.playback.playing,
                "{link}: still playing after its scene"
            );
            let wait = s.wait.clone().unwrap();
            assert!(
                wait.met(p.run.timeline.sim()),
                "{link}: paused before {}",
                wait.describe()
            );
            let at = p.now();
            for _ in 0..30 {
                p = reduce(p, Action::Run(RunAction::Tick(100.0)));
            }
            assert_eq!(p.now(), at, "{link}: the clock moved on after the scene");
            checked += 1;
        }
    }
    // (forget-done 2 and sets 1, with its act, at least: results 1 and 2
    // wait for the reader's choice.)
    assert!(checked >= 2, "only {checked} steps wait without a question");
}
