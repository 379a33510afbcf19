use crate::lesson_state::{Press, MIN_DWELL_MS};
use crate::state::{Action, Playground};

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
        a.apply(Action::Follow(Box::new(p.mirror(t + OFFSET)), t));
    };
    let step = |p: &Playground| p.lesson.as_ref().map(|l| (l.index, l.step));
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
        presenter.apply(Action::LessonNextRemote(t + OFFSET));
        presenter.apply(Action::Tick(100.0));
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
    presenter.apply(Action::LessonNextRemote(t + OFFSET));
    follow(&presenter, &mut audience, t);
    assert!(presenter.lesson.as_ref().unwrap().visit.kept.is_some());
    assert!(audience.lesson.as_ref().unwrap().visit.kept.is_some());
    for _ in 0..200 {
        audience.apply(Action::Tick(1000.0 / 60.0));
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
        presenter.apply(Action::Tick(1000.0 / 60.0));
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
    audience.apply(Action::Follow(Box::new(before.clone()), 0.0));
    audience.apply(Action::Blank);
    assert!(audience.blank, "blank at once");
    audience.apply(Action::Follow(Box::new(before.clone()), 10.0));
    assert!(
        audience.blank,
        "a state sent before the key does not undo it"
    );
    let mut agreed = Playground::from_url(link, "");
    agreed.apply(Action::Blank);
    audience.apply(Action::Follow(Box::new(agreed.mirror(20.0)), 20.0));
    assert!(audience.blank);
    audience.apply(Action::Blank);
    assert!(!audience.blank, "the same key shows it again");
    audience.apply(Action::Follow(Box::new(agreed.mirror(30.0)), 30.0));
    assert!(!audience.blank, "until the presenter's window says so too");
    audience.apply(Action::Follow(Box::new(before), 40.0));
    assert!(!audience.blank, "then its state rules again");
}
