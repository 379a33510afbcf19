use super::*;
use crate::notice::NoticeKind;
use crate::share;
use crate::state::{LessonAction, RunAction, UiAction};
use workqueue_core::Span;
use workqueue_core::{EventRate, KeyCount};
use workqueue_core::{Input, Instant};
use workqueue_core::{Outcome, MILLISECOND};

use super::fixtures::{crowd, failing, reduce};

#[test]
fn a_paused_tick_changes_nothing_and_a_hidden_tab_cannot_leap() {
    let p = Playground::default();
    let p = reduce(p, Action::Run(RunAction::Pause));
    let rev = p.rev;
    let p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    assert_eq!((p.rev, p.now()), (rev, Instant::T0));
    let p = reduce(p, Action::Run(RunAction::TogglePlay));
    let p = reduce(p, Action::Run(RunAction::TogglePacing));
    let p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "k".into() })),
    );
    let p = reduce(p, Action::Run(RunAction::Tick(60_000.0)));
    assert_eq!(p.now(), Instant::from_nanos((MAX_TICK_MS * 1e6) as i64));
}

#[test]
fn a_first_visit_waits_for_the_first_key() {
    let mut p = Playground::default();
    for _ in 0..30 {
        p = reduce(p, Action::Run(RunAction::Tick(16.7)));
    }
    assert_eq!(
        p.now(),
        Instant::T0,
        "no clock running while nothing happens"
    );
    assert!(p.run.playback.idle);
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "k".into() })),
    );
    for _ in 0..30 {
        p = reduce(p, Action::Run(RunAction::Tick(16.7)));
    }
    assert!(
        p.now() > Instant::T0 && !p.run.playback.idle,
        "time runs once something happened"
    );
}

#[test]
fn rewinding_and_replaying_gives_the_same_run() {
    let mut p = Playground::default();
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "ns/a".into() })),
    );
    for _ in 0..20 {
        p = reduce(p, Action::Run(RunAction::Step));
        let waiting = p
            .sim()
            .workers()
            .iter()
            .any(|w| matches!(w, workqueue_core::WorkerState::AwaitingDecision { .. }));
        if waiting {
            p = reduce(
                p,
                Action::Run(RunAction::Input(Input::Decide {
                    key: "ns/a".into(),
                    outcome: Outcome::Error,
                })),
            );
        }
    }
    let end = p.now();
    let log_then: Vec<String> = {
        let s = p.sim();
        s.log().iter().map(|e| s.describe(e)).collect()
    };
    p = reduce(
        p,
        Action::Run(RunAction::Seek(Instant::T0 + 3 * MILLISECOND)),
    );
    assert!(p.now() == Instant::T0 + 3 * MILLISECOND);
    p = reduce(p, Action::Run(RunAction::Seek(end)));
    let log_now: Vec<String> = {
        let s = p.sim();
        s.log().iter().map(|e| s.describe(e)).collect()
    };
    assert_eq!(log_then, log_now);
}

#[test]
fn a_share_link_reopens_exactly_what_was_shared() {
    let mut p = Playground::default();
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "ns/a".into() })),
    );
    p = reduce(p, Action::Run(RunAction::Step));
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Decide {
            key: "ns/a".into(),
            outcome: Outcome::Error,
        })),
    );
    p = reduce(p, Action::Run(RunAction::Step));
    let link = share::encode(&p.shared());
    let q = Playground::from_url("", &format!("#{link}"));
    assert_eq!(q.now(), p.now());
    assert_eq!(q.sim().digest(), p.sim().digest());
    assert_eq!(q.run.selected, p.run.selected);
    let bad = Playground::from_url("", "#v1.@@@");
    assert!(matches!(
        bad.ui.notice,
        Some(Notice {
            kind: NoticeKind::Error,
            ..
        })
    ));
    assert_eq!(bad.now(), Instant::T0);
}

/// A manager's link keeps what was done to it and the lesson it was in:
/// reopened, the same inputs, the same instant, the same run.
#[test]
fn a_manager_link_keeps_its_inputs_and_its_lesson() {
    let mut p = Playground::from_url("?lesson=provider&step=2", "");
    assert!(p.is_manager() && p.lessons.current.is_some());
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add {
            key: "ns/extra".into(),
        })),
    );
    p = reduce(
        p,
        Action::Run(RunAction::Seek(Instant::T0 + 3 * workqueue_core::SECOND)),
    );
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::WatchEvents {
            key: "ns/extra".into(),
            per_second: EventRate::lit(20.0),
            duration_ns: Span::lit(workqueue_core::SECOND),
        })),
    );
    p = reduce(
        p,
        Action::Run(RunAction::Seek(Instant::T0 + 5 * workqueue_core::SECOND)),
    );
    let shared = p.shared();
    assert_eq!(shared.run.inputs.len(), 2, "{:?}", shared.run.inputs);
    let q = Playground::from_url("", &format!("#{}", share::encode(&shared)));
    assert_eq!(q.ui.notice, None);
    assert!(q.is_manager());
    assert_eq!(q.shared().run.inputs, shared.run.inputs);
    assert_eq!(q.now(), p.now());
    assert_eq!(q.engine().digest(), p.engine().digest());
    let (ql, pl) = (q.lessons.open(), p.lessons.open());
    assert_eq!((ql.index, ql.step), (pl.index, pl.step));
}

#[test]
fn a_refused_link_stays_said_beside_a_refused_lesson() {
    let p = Playground::from_url("?lesson=no-such-lesson", "#hello");
    let text = p.ui.notice.map(|n| n.text).unwrap_or_default();
    assert!(text.contains("the prefix: "), "{text}");
    assert!(
        text.contains("There is no lesson \"no-such-lesson\""),
        "{text}"
    );
}

/// A reconcile that waits for the person's choice holds the virtual
/// clock: it lasts its set duration however long they think, and time
/// runs again once they have chosen.
#[test]
fn the_clock_holds_while_a_reconcile_waits_for_a_choice() {
    let mut p = Playground::default();
    let reconcile = p.current_scenario().controllers[0].controller.reconcile_ns;
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "ns/a".into() })),
    );
    for _ in 0..600 {
        p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    }
    assert!(p.deciding(), "the reconcile ended and waits for a choice");
    let held = p.now();
    assert!(
        held >= Instant::T0 + reconcile.get(),
        "it ran its {reconcile:?} ns first"
    );
    for _ in 0..120 {
        p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    }
    assert_eq!(
        p.now(),
        held,
        "two seconds of thinking cost no virtual time"
    );
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Decide {
            key: "ns/a".into(),
            outcome: Outcome::Error,
        })),
    );
    for _ in 0..60 {
        p = reduce(p, Action::Run(RunAction::Tick(16.0)));
    }
    assert!(p.now() > held, "time runs again once chosen");
}

#[test]
fn at_1x_a_failing_keys_5ms_backoff_is_on_screen_for_over_half_a_second() {
    let mut p = failing(Some("0s"), None);
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "ns/a".into() })),
    );
    // 60 Hz frames; count the frames in which ns/a sits in the waiting
    // heap with its first (5ms) backoff.
    let mut frames_waiting_5ms = 0;
    // Frames in which the key is out of the heap between two waits: a
    // busy instant is shown pass by pass, so the room sees it leave.
    let mut frames_out_between_waits = 0;
    for _ in 0..120 {
        p = reduce(p, Action::Run(RunAction::Tick(1000.0 / 60.0)));
        let sim = p.sim();
        let id = sim.find("ns/a").unwrap();
        let retries = sim.item(id).retries_total;
        let waiting = sim.queue().waiting_until(id).is_some();
        if retries == 1 && waiting {
            frames_waiting_5ms += 1;
        }
        if retries >= 1 && !waiting {
            frames_out_between_waits += 1;
        }
    }
    assert!(
        frames_waiting_5ms >= 36,
        "visible for {frames_waiting_5ms} frames"
    );
    assert!(
        frames_out_between_waits >= 1,
        "the key left the heap on screen"
    );
    assert_eq!(p.run.playback.cue, Cue::SlowMotion);
    assert!(
        p.sim().now() < Instant::T0 + 100 * MILLISECOND,
        "slow motion, not a leap"
    );
}

#[test]
fn the_checkpoint_ring_stays_bounded_and_spread_and_seeks_exactly() {
    // Keys that fail by themselves: nothing waits for a person's choice.
    let mut p = crowd(failing(None, None), 50);
    p = reduce(p, Action::Run(RunAction::SetSpeed(100.0)));
    for _ in 0..600 {
        p = reduce(p, Action::Run(RunAction::Tick(250.0)));
    }
    let times: Vec<Instant> = p
        .run
        .timeline
        .checkpoints()
        .iter()
        .map(|c| c.now())
        .collect();
    assert_eq!(times.len(), crate::timeline::MAX_CHECKPOINTS, "{times:?}");
    assert_eq!(times[0], Instant::T0, "the start is always kept");
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    let end = p.now();
    assert!(
        times[1] < Instant::T0 + end.since_t0() / 2,
        "spread over the timeline, not bunched at the end: {times:?}"
    );
    let digest = p.sim().digest();
    p = reduce(
        p,
        Action::Run(RunAction::Seek(Instant::T0 + end.since_t0() / 3)),
    );
    p = reduce(p, Action::Run(RunAction::Seek(end)));
    assert_eq!(p.sim().digest(), digest);
}

#[test]
fn a_scenario_too_big_for_the_page_is_refused_by_name() {
    let s = Scenario::failing_keys(
        workqueue_core::LimiterConfig::DefaultController,
        KeyCount::lit(300_000),
    );
    let shared = Shared {
        run: workqueue_core::Run {
            scenario: s,
            inputs: Vec::new(),
            run_to: Instant::T0,
        },
        lesson: None,
        selected: None,
    };
    let p = Playground::from_shared(shared);
    let text = p.ui.notice.clone().map(|n| n.text).unwrap_or_default();
    assert!(
        text.contains("items: 300000 keys is too many for the page: at most 250000"),
        "{text}"
    );
    assert_eq!(p.sim().queue().keys().len(), 0, "a working default instead");
}

#[test]
fn the_herd_lessons_link_is_shorter_than_in_the_first_format() {
    let p = Playground::from_url("?lesson=herd&step=1", "");
    let shared = p.shared();
    let v2 = share::encode(&shared);
    let v1 = format!(
        "v1.{}",
        base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            serde_json::to_string(&shared).unwrap()
        )
    );
    println!(
        "herd lesson link: v1 {} chars, v2 {} chars",
        v1.len(),
        v2.len()
    );
    assert!(v2.len() < v1.len(), "{} vs {}", v2.len(), v1.len());
    let mut q = Playground::from_url("", &format!("#{v1}"));
    // A link bigger than one frame's budget finishes over later frames.
    while q.run.timeline.pending().is_some() {
        q.run.timeline.catch_up();
    }
    assert_eq!(q.sim().digest(), p.sim().digest());
}

#[test]
fn lessons_open_from_the_url_and_step_back_exactly() {
    let p = Playground::from_url("?embed=1&lesson=herd&step=2", "");
    assert!(p.workshop.mode.embed && !p.run.playback.playing);
    assert_eq!(p.lessons.at(), Some((3, 1)));
    let mut p = Playground::from_url("?lesson=results", "");
    let first = p.sim().digest();
    p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Decide {
            key: "default/web-1".into(),
            outcome: Outcome::Error,
        })),
    );
    p = reduce(p, Action::Lesson(LessonAction::Step(1)));
    p = reduce(p, Action::Lesson(LessonAction::Step(0)));
    assert_eq!(p.sim().digest(), first, "back replays the step's set-up");
}

#[test]
fn invalid_settings_leave_the_run_alone() {
    let p = Playground::default();
    let p = reduce(
        p,
        Action::Run(RunAction::Input(Input::Add { key: "k".into() })),
    );
    let mut bad = Settings::default();
    bad.set(crate::settings::Field::Burst, "-1".into());
    let p = reduce(p, Action::Run(RunAction::Apply(bad)));
    assert!(matches!(
        p.ui.notice,
        Some(Notice {
            kind: NoticeKind::Error,
            ..
        })
    ));
    assert!(p.sim().find("k").is_some(), "the run was kept");
}

#[test]
fn what_draws_the_run_draws_again_when_the_run_changes_not_when_the_page_does() {
    use crate::store::PlaygroundContext;
    let ctx = PlaygroundContext::new(crowd(failing(None, None), 20));
    let before = ctx.run();
    // A notice is the page's, not the run's.
    ctx.dispatch(Action::Ui(UiAction::Notify(Notice::info(
        "hello".to_string(),
    ))));
    assert!(ctx.read().ui.notice.is_some());
    assert!(
        before == ctx.run(),
        "the charts and the log keep their drawing"
    );
    ctx.dispatch(Action::Run(RunAction::Step));
    assert!(before != ctx.run(), "a step of the run draws them again");
}

#[test]
fn a_chip_is_a_button_only_where_the_inspector_answers_it() {
    // An embed's lesson has the side to itself: no inspector, so no press.
    assert!(!Playground::from_url("?embed=1&lesson=herd&step=2", "").inspector_shown());
    // An embed of a run without a lesson shows the inspector beside the stage.
    assert!(Playground::from_url("?embed=1", "").inspector_shown());
    // The playground's own page always has it.
    assert!(Playground::from_url("?lesson=herd&step=2", "").inspector_shown());
}
