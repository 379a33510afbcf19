use crate::lesson_state::{Press, MIN_DWELL_MS};
use crate::state::{Action, Playground};
use crate::state::{LessonAction, RunAction, WorkshopAction};

/// The projector's window shows what the presenter's window holds, on its
/// own clock (the two windows' real clocks start at different instants):
/// every press there says what the presenter's press does, a press kept
/// through the dwell says so at once and is carried out by the presenter's
/// window alone, and the step that follows opens where it opens there.
#[test]
fn an_audience_window_says_its_presenters_press_on_its_own_clock() {
    // The presenter's window opened 10 s before the projector's.
    const OFFSET: f64 = 10_000.0;
    let mut presenter = Playground::from_url("?presenter=room&lesson=herd&step=2", "");
    let mut audience = Playground::from_url("?audience=room", "");
    let follow = |p: &Playground, a: &mut Playground, t: f64| {
        a.apply(Action::Workshop(WorkshopAction::Follow(
            Box::new(p.mirror(t + OFFSET)),
            t,
        )));
    };
    let step = |p: &Playground| p.lessons.at();
    let mut t = 0.0;
    follow(&presenter, &mut audience, t);
    assert_eq!(step(&audience), step(&presenter), "the same step");
    // Press until the scene dwells, the projector saying each press first.
    while presenter.next_press(t + OFFSET) != Press::Dwelling {
        assert!(t < 60_000.0, "the step never dwelt");
        assert_eq!(
            audience.next_press(t),
            presenter.next_press(t + OFFSET),
            "at {t} ms"
        );
        presenter.apply(Action::Lesson(LessonAction::NextRemote(t + OFFSET)));
        presenter.apply(Action::Run(RunAction::Tick(100.0)));
        t += 100.0;
        follow(&presenter, &mut audience, t);
    }
    let entered = step(&presenter);
    // Its dwell ends on the projector when it ends in the presenter's window.
    let ends = (0..=MIN_DWELL_MS as u32)
        .map(|ms| t + f64::from(ms))
        .find(|&at| presenter.next_press(at + OFFSET) != Press::Dwelling)
        .expect("the dwell ends");
    assert_eq!(audience.next_press(ends - 1.0), Press::Dwelling);
    assert_eq!(
        audience.next_press(ends),
        presenter.next_press(ends + OFFSET)
    );
    // A press during the dwell: kept in the presenter's window, said at
    // once on the projector, and never carried out there.
    presenter.apply(Action::Lesson(LessonAction::NextRemote(t + OFFSET)));
    follow(&presenter, &mut audience, t);
    assert!(presenter.lessons.open().visit.kept.is_some());
    assert!(audience.lessons.open().visit.kept.is_some());
    for _ in 0..200 {
        audience.apply(Action::Run(RunAction::Tick(1000.0 / 60.0)));
        assert_eq!(
            audience.next_press(t),
            Press::Dwelling,
            "Moving on… until told"
        );
    }
    assert_eq!(step(&audience), entered, "the projector moved by itself");
    // The presenter's window carries it out; the projector follows.
    while step(&presenter) == entered {
        assert!(t < 120_000.0, "the kept press was lost");
        presenter.apply(Action::Run(RunAction::Tick(1000.0 / 60.0)));
        t += 1000.0 / 60.0;
    }
    follow(&presenter, &mut audience, t);
    assert_eq!(step(&audience), step(&presenter));
    assert_eq!(
        audience.sim().now(),
        presenter.sim().now(),
        "at the step's instant"
    );
    assert_eq!(audience.next_press(t), presenter.next_press(t + OFFSET));
}

/// The projector's blank key answers at once there, and a state its
/// presenter's window sent before the key does not undo it.
#[test]
fn a_blank_key_on_the_projector_holds_until_the_presenter_agrees() {
    let link = "?presenter=room&lesson=sets&step=1";
    let presenter = Playground::from_url(link, "");
    let mut audience = Playground::from_url("?audience=room", "");
    let before = presenter.mirror(0.0);
    audience.apply(Action::Workshop(WorkshopAction::Follow(
        Box::new(before.clone()),
        0.0,
    )));
    audience.apply(Action::Workshop(WorkshopAction::Blank));
    assert!(audience.workshop.blank, "blank at once");
    audience.apply(Action::Workshop(WorkshopAction::Follow(
        Box::new(before.clone()),
        10.0,
    )));
    assert!(
        audience.workshop.blank,
        "a state sent before the key does not undo it"
    );
    let mut agreed = Playground::from_url(link, "");
    agreed.apply(Action::Workshop(WorkshopAction::Blank));
    audience.apply(Action::Workshop(WorkshopAction::Follow(
        Box::new(agreed.mirror(20.0)),
        20.0,
    )));
    assert!(audience.workshop.blank);
    audience.apply(Action::Workshop(WorkshopAction::Blank));
    assert!(!audience.workshop.blank, "the same key shows it again");
    audience.apply(Action::Workshop(WorkshopAction::Follow(
        Box::new(agreed.mirror(30.0)),
        30.0,
    )));
    assert!(
        !audience.workshop.blank,
        "until the presenter's window says so too"
    );
    audience.apply(Action::Workshop(WorkshopAction::Follow(
        Box::new(before),
        40.0,
    )));
    assert!(!audience.workshop.blank, "then its state rules again");
}

/// On a blank screen the clicker's Next or Back shows the screen again and
/// moves nothing: the room never misses a step it could not see.
#[test]
fn next_on_a_blank_screen_shows_it_and_moves_nothing() {
    for link in [
        "?workshop=1&lesson=sets&step=2",
        "?presenter=room&lesson=herd&step=2",
    ] {
        let mut p = Playground::from_url(link, "");
        let at = |p: &Playground| {
            let l = p.lessons.open();
            (l.step, l.visit.asked, l.visit.pages.at)
        };
        let before = at(&p);
        for press in [
            Action::Lesson(LessonAction::Next(1000.0)),
            Action::Lesson(LessonAction::NextRemote(2000.0)),
            Action::Lesson(LessonAction::Back),
        ] {
            p.apply(Action::Workshop(WorkshopAction::Blank));
            assert!(p.workshop.blank, "{link}");
            p.apply(press);
            assert!(!p.workshop.blank, "{link}: shown again");
            assert_eq!(at(&p), before, "{link}: nothing moved");
        }
        p.apply(Action::Lesson(LessonAction::Next(3000.0)));
        assert_ne!(at(&p), before, "{link}: then Next moves on");
    }
}

/// A workshop reloaded after its question's scene was played (the answer
/// lost with the page) asks the question again at its set-up's instant, not
/// over the scene that answers it; a free page's link keeps its run.
#[test]
fn a_reloaded_question_opens_at_its_set_up_instant_in_a_room() {
    let link = "?workshop=1&lesson=herd&step=2";
    let mut p = Playground::from_url(link, "");
    let opened = p.now();
    p.apply(Action::Run(RunAction::Play));
    for _ in 0..60 {
        p.apply(Action::Run(RunAction::Tick(1000.0 / 60.0)));
    }
    p.apply(Action::Run(RunAction::Seek(
        opened + 2 * workqueue_core::SECOND,
    )));
    assert!(p.now() > opened);
    let saved = Ok(p.shared());
    let room = Playground::from_url(link, "").reloaded(saved.clone());
    assert_eq!(
        room.now(),
        opened,
        "the room's reload asks at the set-up instant"
    );
    assert!(room.holds_for_prediction());
    let free = Playground::from_url("?lesson=herd&step=2", "").reloaded(saved);
    assert_eq!(free.now(), p.now(), "a free page keeps the run as it was");
}

/// The version switch in the presenter's window reaches the projector:
/// the same run on the other queue, with the comparison both show.
#[test]
fn the_version_switch_reaches_the_projector() {
    use workqueue_core::QueueKind;
    let mut presenter = Playground::from_url("?presenter=room&lesson=v023&step=1", "");
    let mut audience = Playground::from_url("?audience=room", "");
    let follow = |p: &Playground, a: &mut Playground| {
        a.apply(Action::Workshop(WorkshopAction::Follow(
            Box::new(p.mirror(0.0)),
            0.0,
        )));
    };
    follow(&presenter, &mut audience);
    let queue = |p: &Playground| p.run.settings.queue;
    assert_eq!(queue(&audience), queue(&presenter));
    let other = match queue(&presenter) {
        QueueKind::Priority => QueueKind::ClientGo,
        QueueKind::ClientGo => QueueKind::Priority,
    };
    presenter.apply(Action::Run(RunAction::SwitchQueue(other)));
    assert_eq!(queue(&presenter), other, "the presenter's window switched");
    assert!(
        presenter.lessons.pending.is_none(),
        "the lesson stays open, not on its way"
    );
    assert!(presenter.workshop.mode.presenter);
    follow(&presenter, &mut audience);
    assert_eq!(audience.ui.notice, None, "{:?}", audience.ui.notice);
    assert_eq!(queue(&audience), other, "the projector switched too");
    assert_eq!(
        audience.run.other_run.is_some(),
        presenter.run.other_run.is_some(),
        "both show the comparison"
    );
}
