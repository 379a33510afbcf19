//! The prediction field in a frame and on a projector: where the keyboard
//! goes, what a slip in it says, and the page a goal's result is shown on.

use crate::lesson_state::Press;
use crate::lessons;
use crate::state::fixtures::reduce;
use crate::state::LessonAction;
use crate::state::{Action, Playground};

/// In a frame, the press that reaches the question's page takes the
/// keyboard to the field it shows (not to the Predict button); on a
/// projector the field waits for the trainer. For every built-in step
/// that asks, with its narration on two pages.
#[test]
fn reading_on_to_the_question_focuses_its_field_in_a_frame_only() {
    let library = lessons::Library::default();
    let mut asked = 0;
    for entry in library.entries() {
        let lesson = entry.lesson.as_ref().unwrap();
        for (i, step) in lesson.steps.iter().enumerate() {
            if step.question.is_none() {
                continue;
            }
            asked += 1;
            for (venue, focuses) in [("embed", true), ("workshop", false)] {
                let url = format!("?{venue}=1&lesson={}&step={}", entry.id, i + 1);
                let mut p = Playground::from_url(&url, "");
                p = reduce(p, Action::Lesson(LessonAction::NarrationPages(2)));
                assert_eq!(p.next_press(0.0), Press::Page, "{url}");
                let before = p.lessons.focus_guess;
                p = reduce(p, Action::Lesson(LessonAction::Next(0.0)));
                assert_eq!(
                    p.lessons.focus_guess > before,
                    focuses,
                    "{url}: the field's focus"
                );
                // Asked for at once in a frame: the next press reveals.
                let next = if focuses {
                    Press::Revealed
                } else {
                    Press::Asked
                };
                assert_eq!(p.next_press(1e6), next, "{url}");
            }
        }
    }
    assert!(asked >= 10, "{asked} questions");
}

/// A goal's result closes the narration: where it is paged, the last
/// page is shown, and stays shown as the panel measures the longer text;
/// the reader's own page turn takes it back.
#[test]
fn a_goals_result_shows_its_page() {
    let mut p = Playground::from_url("?workshop=1&lesson=herd&step=5", "");
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(2)));
    let (index, step) = p.lessons.at().unwrap();
    p = reduce(
        p,
        Action::Lesson(LessonAction::GoalFigures(index, step, Vec::new())),
    );
    assert_eq!(p.lessons.open().visit.pages.at, 1);
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(3)));
    assert_eq!(p.lessons.open().visit.pages.at, 2, "the result's new page");
    p = reduce(p, Action::Lesson(LessonAction::Back));
    p = reduce(p, Action::Lesson(LessonAction::NarrationPages(4)));
    assert_eq!(p.lessons.open().visit.pages.at, 1, "the reader's page");
}

/// Enter in an empty prediction field is a slip, said beside the field;
/// the Reveal press still shows the answer without a guess.
#[test]
fn enter_in_an_empty_field_asks_for_a_guess_and_reveal_still_reveals() {
    let mut p = Playground::from_url("?embed=1&lesson=fast-slow&step=1", "");
    p = reduce(p, Action::Lesson(LessonAction::EnterWithoutGuess));
    let refused = p
        .lessons
        .current
        .as_ref()
        .and_then(|l| l.visit.refused.clone());
    assert!(refused.is_some_and(|r| r.contains("Type what you expect")));
    assert!(p
        .lessons
        .current
        .as_ref()
        .is_some_and(|l| l.guess().is_none()));
    p = reduce(p, Action::Lesson(LessonAction::Reveal(String::new(), 0.0)));
    let l = p.lessons.open();
    assert_eq!(
        (l.guess().cloned(), l.visit.refused.clone()),
        (Some(String::new()), None)
    );
}
