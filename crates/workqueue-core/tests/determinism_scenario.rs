// Shared by the native and the wasm determinism tests (included, not a test of its own).

use workqueue_core::Instant;
use workqueue_core::{At, Span};
use workqueue_core::{EventRate, KeyCount, Workers};
use workqueue_core::{ItemSpec, Source};
use workqueue_core::{Outcome, Script};
use workqueue_core::{QueueKind, Scenario, Simulation, MILLISECOND, SECOND};

/// A run that exercises every part: random outcomes from the seed, the
/// default limiter's bucket going into debt, a watch storm, resync, several
/// workers with reconcile time, a terminal error and a RequeueAfter.
pub fn run() -> Simulation {
    run_on(QueueKind::ClientGo)
}

/// The same run on either queue.
pub fn run_on(queue: QueueKind) -> Simulation {
    let s = scenario_on(queue);
    let mut sim = Simulation::new(&s).expect("valid");
    sim.run_to_end();
    sim
}

/// The scenario of [`run_on`].
pub fn scenario_on(queue: QueueKind) -> Scenario {
    let mut s = Scenario::new("determinism");
    s.controllers[0].queue = queue;
    s.seed = 20261122;
    s.controllers[0].controller.workers = Workers::lit(3);
    s.controllers[0].controller.reconcile_ns = Span::lit(7 * MILLISECOND);
    s.controllers[0].controller.give_up_after = Some(12);
    s.controllers[0].default_script = Script::Random {
        error_probability: workqueue_core::Probability::new(0.6).unwrap(),
        otherwise: Outcome::Success,
    };
    s.controllers[0]
        .sources
        .push(Source::add_many("ns/pod-", KeyCount::lit(400)));
    s.controllers[0].sources.push(Source::WatchEvents {
        key: "ns/hot".into(),
        per_second: EventRate::lit(50.0),
        start_ns: Span::lit(SECOND),
        duration_ns: Span::lit(3 * SECOND),
    });
    s.controllers[0].sources.push(Source::Resync {
        period_ns: Span::lit(10 * SECOND),
    });
    s.controllers[0]
        .items
        .push(ItemSpec::always("ns/terminal", Outcome::TerminalError));
    s.controllers[0].items.push(ItemSpec {
        key: "ns/poll".into(),
        script: Some(Script::Always {
            outcome: Outcome::RequeueAfter {
                after_ns: Span::lit(2 * SECOND),
            },
        }),
        reconcile_ns: Some(Span::lit(MILLISECOND)),
        add_at_ns: Some(At::lit(Instant::T0 + 5 * MILLISECOND)),
    });
    s.duration_ns = Span::lit(30 * SECOND);
    s
}

pub const GOLDEN: &str = include_str!("golden/determinism.txt");
pub const GOLDEN_PRIORITY: &str = include_str!("golden/determinism_priority.txt");
