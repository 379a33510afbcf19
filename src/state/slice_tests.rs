//! Each slice's reducer on its own: a transition changes its slice (and
//! at most the page's words handed to it), and says whether it shows.

use super::*;
use crate::notice::Notice;

#[test]
fn the_page_s_words_expire_only_when_they_are_still_on_screen() {
    let mut ui = UiState::default();
    assert!(ui.apply(UiAction::Notify(Notice::info("first"))));
    assert!(
        !ui.apply(UiAction::ExpireNotice("another".into())),
        "a notice that took the place of the one read stays"
    );
    assert!(ui.notice.is_some());
    assert!(ui.apply(UiAction::ExpireNotice("first".into())));
    assert!(ui.notice.is_none());
}

#[test]
fn the_workshop_s_blank_screen_and_mode_are_its_own() {
    let mut w = WorkshopState::default();
    assert!(!w.apply(WorkshopAction::Unblank), "nothing to show again");
    assert!(w.apply(WorkshopAction::Blank));
    assert!(w.blank);
    assert!(w.apply(WorkshopAction::Unblank));
    assert!(!w.blank);
    w.mode.audience = true;
    assert!(w.apply(WorkshopAction::Present));
    assert!(w.mode.presenter && !w.mode.audience && !w.mode.workshop);
}

#[test]
fn the_lessons_own_transitions_touch_only_the_lessons() {
    let mut lessons = LessonsState::default();
    let mut ui = UiState::default();
    assert!(
        !lessons.apply(LessonAction::Progress(1, 3), &mut ui),
        "no lesson on its way: nothing shows"
    );
    assert!(lessons.apply(LessonAction::Exit, &mut ui));
    assert!(lessons.current.is_none() && lessons.pending.is_none());
    assert!(ui.notice.is_none());
}

#[test]
fn the_run_s_own_transitions_change_the_run_and_say_so() {
    let mut p = Playground::default();
    let Playground { run, ui, .. } = &mut p;
    let speed = run.playback.speed;
    assert!(run.apply(RunAction::Faster, ui));
    assert!(run.playback.speed > speed);
    assert!(run.apply(RunAction::Select(Some("k".into())), ui));
    assert_eq!(run.selected.as_deref(), Some("k"));
    let rev = run.timeline.rev();
    assert!(
        !run.apply(RunAction::FrameWork(3.0), ui),
        "a frame's cost shows nothing"
    );
    assert_eq!(run.timeline.rev(), rev);
}
