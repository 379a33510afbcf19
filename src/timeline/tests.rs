use super::*;
use workqueue_core::Span;
use workqueue_core::{BucketSpec, ControllerSpec, Source};
use workqueue_core::{Burst, KeyCount, Qps};
use workqueue_core::{LimiterConfig, Outcome, Script, MILLISECOND};

fn failing(count: u64) -> Scenario {
    Scenario::failing_keys(
        LimiterConfig::DefaultController,
        KeyCount::new(count).unwrap(),
    )
}

/// Two controllers passed one bucket, each with a storm of failing keys.
fn two_controllers(keys: u64) -> Scenario {
    let mut s = Scenario::of("two", Vec::new());
    s.shared_bucket = Some(BucketSpec {
        qps: Qps::lit(10.0),
        burst: Burst::lit(100),
    });
    for name in ["a", "b"] {
        let mut c = ControllerSpec::new(name);
        c.shares_bucket = true;
        c.default_script = Script::Always {
            outcome: Outcome::Error,
        };
        c.sources.push(Source::AddMany {
            prefix: format!("{name}-"),
            count: KeyCount::new(keys).unwrap(),
            at_ns: Span::lit(Duration::ZERO),
            script: None,
        });
        s.controllers.push(c);
    }
    s.duration_ns = Span::lit(30 * SECOND);
    s
}

fn run_to(t: &mut Timeline, at: Instant) {
    while !t.advance_to(at) {}
}

#[test]
fn the_run_revision_moves_with_the_run_and_only_with_it() {
    let mut t = Timeline::new(failing(40)).unwrap();
    let other = Timeline::new(failing(40)).unwrap();
    assert_ne!(
        t.rev(),
        other.rev(),
        "a new run is never the run it replaced"
    );
    // The first instant's sources are work: the run changes.
    let fresh = t.rev();
    run_to(&mut t, Instant::T0);
    assert_ne!(t.rev(), fresh);
    let start = t.rev();
    // Asking again for where the run already is changes nothing.
    run_to(&mut t, Instant::T0);
    assert_eq!(t.rev(), start);
    t.set_playing(true);
    t.fit_budget(1.0);
    assert_eq!(t.rev(), start, "the frame's bookkeeping is not the run");
    run_to(&mut t, Instant::T0 + 50 * MILLISECOND);
    let played = t.rev();
    assert_ne!(played, start);
    run_to(&mut t, Instant::T0 + 50 * MILLISECOND);
    assert_eq!(t.rev(), played);
    t.seek(Instant::T0 + 10 * MILLISECOND);
    assert_ne!(t.rev(), played, "a rewind is a changed run");
    let rewound = t.rev();
    t.record(Input::Add { key: "x".into() }).unwrap();
    assert_ne!(t.rev(), rewound, "an input is a changed run");
}

#[test]
fn rewinding_and_replaying_gives_the_same_run_for_one_controller_or_two() {
    for scenario in [failing(40), two_controllers(40)] {
        let mut t = Timeline::new(scenario).unwrap();
        run_to(&mut t, Instant::T0 + 2 * SECOND);
        t.record(Input::Add { key: "late".into() }).unwrap();
        run_to(&mut t, Instant::T0 + 9 * SECOND);
        let digest = t.engine().digest();
        assert!(t.seek(Instant::T0 + 1500 * MILLISECOND));
        assert_eq!(t.now(), Instant::T0 + 1500 * MILLISECOND);
        run_to(&mut t, Instant::T0 + 9 * SECOND);
        assert_eq!(t.engine().digest(), digest, "replayed through the input");
        // Step back lands on an earlier event, step forward on a later one.
        t.step_back();
        assert!(t.now() < Instant::T0 + 9 * SECOND);
        let before = t.now();
        assert!(t.step().is_some_and(|at| at > before));
    }
}

/// A run played into quiet (its last event before where it stopped):
/// back steps retrace the events, and forward steps come back to the
/// very instant it had reached, not only to its last event.
#[test]
fn stepping_forward_after_a_rewind_reaches_where_the_run_had_been() {
    let mut s = Scenario::of("one key", Vec::new());
    let mut c = ControllerSpec::new("c");
    c.sources.push(Source::AddMany {
        prefix: "k-".into(),
        count: KeyCount::lit(1),
        at_ns: Span::lit(Duration::ZERO),
        script: None,
    });
    s.controllers.push(c);
    s.duration_ns = Span::lit(30 * SECOND);
    let mut t = Timeline::new(s).unwrap();
    let end = Instant::T0 + 4 * SECOND;
    run_to(&mut t, end);
    assert!(t.next_instant().is_none_or(|n| n > end), "quiet at the end");
    let mut back = vec![t.now()];
    while t.now() > Instant::T0 {
        t.step_back();
        back.push(t.now());
    }
    let mut forward = vec![t.now()];
    while let Some(at) = t.step().filter(|at| *at <= end) {
        forward.push(at);
    }
    forward.reverse();
    assert_eq!(forward, back, "forward retraces back, to {end:?}");
    assert_eq!(t.now(), end);
}

#[test]
fn the_frame_budget_fits_what_a_frame_costs_and_leaves_the_run_as_it_is() {
    let scenario = failing(60_000);
    let mut whole = Timeline::new(scenario.clone()).unwrap();
    run_to(&mut whole, Instant::T0 + 3 * SECOND);
    let mut t = Timeline::new(scenario).unwrap();
    assert_eq!(t.budget(), FRAME_BUDGET);
    // 60,000 keys added at t=0 take more than a frame: slow frames
    // (40 ms of work each) halve the budget, down to the floor at most.
    assert!(!t.advance_to(Instant::T0 + 3 * SECOND));
    t.fit_budget(40.0);
    assert_eq!(t.budget(), FRAME_BUDGET / 2);
    for _ in 0..20 {
        t.catch_up();
        t.fit_budget(40.0);
    }
    assert_eq!(t.budget(), MIN_FRAME_BUDGET);
    // Quick frames win it back, a quarter at a time.
    t.catch_up();
    t.fit_budget(2.0);
    assert_eq!(t.budget(), MIN_FRAME_BUDGET * 5 / 4);
    while t.budget() < FRAME_BUDGET && t.pending().is_some() {
        t.catch_up();
        t.fit_budget(2.0);
    }
    // A frame with budget to spare says nothing of a unit's cost.
    while t.pending().is_some() {
        t.catch_up();
    }
    let before = t.budget();
    t.fit_budget(40.0);
    assert_eq!(t.budget(), before);
    // Nonsense timings change nothing either.
    for bad in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
        t.fit_budget(bad);
        assert_eq!(t.budget(), before);
    }
    assert_eq!(t.now(), Instant::T0 + 3 * SECOND);
    assert_eq!(t.engine().digest(), whole.engine().digest());
}

#[test]
fn a_big_manager_moves_one_frame_at_a_time() {
    let mut t = Timeline::new(two_controllers(40_000)).unwrap();
    // 80,000 keys added at t=0 cannot fit one frame: each call returns.
    let mut frames = 0;
    while !t.advance_to(Instant::T0 + 10 * SECOND) {
        frames += 1;
        assert!(frames < 10_000, "no progress");
    }
    assert!(frames > 1, "the work was spread over {frames} frames");
    assert_eq!(t.now(), Instant::T0 + 10 * SECOND);
    // Seeking back replays one frame at a time too, and the frames
    // after the seek go on towards it.
    t.seek(Instant::T0 + 5 * SECOND);
    let mut frames = 0;
    while t.pending().is_some() {
        t.catch_up();
        frames += 1;
        assert!(frames < 10_000, "no progress");
    }
    assert_eq!(t.now(), Instant::T0 + 5 * SECOND);
}

#[test]
fn a_new_input_after_a_rewind_cuts_off_the_old_future() {
    let mut t = Timeline::new(failing(3)).unwrap();
    t.record(Input::Add { key: "x".into() }).unwrap();
    run_to(&mut t, Instant::T0 + 5 * SECOND);
    t.record(Input::Add { key: "y".into() }).unwrap();
    assert_eq!(t.tape().len(), 2);
    t.seek(Instant::T0 + SECOND);
    t.record(Input::Add { key: "z".into() }).unwrap();
    let keys: Vec<String> = t
        .tape()
        .iter()
        .map(|(_, i)| match i {
            Input::Add { key } => key.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(keys, ["x", "z"]);
    assert!(t
        .checkpoints()
        .iter()
        .all(|c| c.now() <= Instant::T0 + SECOND));
}

#[test]
fn the_checkpoint_ring_stays_bounded_for_big_runs() {
    assert_eq!(checkpoints_for(0), MAX_CHECKPOINTS);
    assert_eq!(checkpoints_for(10_000), MAX_CHECKPOINTS);
    assert_eq!(checkpoints_for(100_000), 2);
    let mut s = failing(100_000);
    s.duration_ns = Span::lit(600 * SECOND);
    let mut t = Timeline::new(s).unwrap();
    for i in 1..=5 {
        run_to(&mut t, Instant::T0 + i * 2 * SECOND);
        t.checkpoint_now();
    }
    let held = timeline_keys(t.checkpoints());
    assert!(held <= CHECKPOINT_KEY_BUDGET, "{held} key copies");
    assert!(t.checkpoints().len() >= 2);
    // The largest run the page takes still keeps two (one to seek from,
    // one being replaced): two copies, past the budget only by that.
    assert_eq!(checkpoints_for(PAGE_MAX_KEYS as usize), 2);
}

#[test]
fn a_scenario_too_big_for_the_page_is_refused_by_name() {
    let e = Timeline::new(failing(300_000)).unwrap_err();
    assert_eq!(e.field, "items");
    assert!(e.reason.contains("at most 250000"), "{e}");
}
