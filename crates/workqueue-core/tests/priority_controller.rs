//! controller-runtime's reconcile handling over the priority queue
//! (SEMANTICS.md 6.1, 6.3, 6.4): the priority a key was handed out with is
//! reused on every re-add unless `Result.Priority` says otherwise; the
//! informer's initial list and resyncs are low priority; shutdown stops the
//! workers at once instead of draining.

use workqueue_core::Instant;
use workqueue_core::Span;
use workqueue_core::Workers;
use workqueue_core::LOW_PRIORITY;
use workqueue_core::{ErrorKind, Outcome, ReconcileResult, Script};
use workqueue_core::{Input, QueueKind, Scenario, Simulation, MILLISECOND, SECOND};
use workqueue_core::{ItemSpec, Source};

fn priority_scenario() -> Scenario {
    let mut s = Scenario::new("pq");
    s.controllers[0].queue = QueueKind::Priority;
    s.controllers[0].controller.reconcile_ns = Span::lit(10 * MILLISECOND);
    s
}

fn item(key: &str, script: Script) -> ItemSpec {
    ItemSpec {
        script: Some(script),
        ..ItemSpec::new(key)
    }
}

#[test]
fn a_failing_initial_list_key_is_requeued_at_its_handed_out_priority() {
    let mut s = priority_scenario();
    s.controllers[0].items.push(item(
        "a",
        Script::Always {
            outcome: Outcome::Error,
        },
    ));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + 10 * MILLISECOND);
    let a = sim.find("a").unwrap();
    assert_eq!(
        sim.handed_priority(a),
        LOW_PRIORITY,
        "the initial list is low priority"
    );
    assert_eq!(
        sim.queue().priority_of(a),
        Some(LOW_PRIORITY),
        "and so is its requeue"
    );
    assert_eq!(
        sim.queue().waiting_until(a),
        Some((Instant::T0 + 15 * MILLISECOND).wide())
    );
}

#[test]
fn result_priority_overrides_the_handed_out_one() {
    let mut s = priority_scenario();
    let raised = Outcome::Custom {
        result: ReconcileResult {
            requeue: false,
            requeue_after_ns: Span::lit(SECOND),
            error: ErrorKind::None,
            priority: Some(10),
        },
    };
    s.controllers[0].items.push(item(
        "a",
        Script::Sequence {
            outcomes: vec![raised],
            then: Outcome::Success,
        },
    ));
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + 10 * MILLISECOND);
    let a = sim.find("a").unwrap();
    assert_eq!(sim.queue().priority_of(a), Some(10));
    assert!(raised.go_return().contains("Priority: ptr.To(10)"));
}

#[test]
fn a_resync_is_low_priority_and_a_watch_event_raises_it() {
    let mut s = priority_scenario();
    s.controllers[0].controller.workers = Workers::lit(1);
    s.controllers[0].controller.reconcile_ns = Span::lit(SECOND);
    s.controllers[0].default_script = Script::Always {
        outcome: Outcome::Success,
    };
    s.controllers[0].items.push(item(
        "busy",
        Script::Always {
            outcome: Outcome::Success,
        },
    ));
    s.controllers[0].items.push(item(
        "other",
        Script::Always {
            outcome: Outcome::Success,
        },
    ));
    s.controllers[0].sources.push(Source::Resync {
        period_ns: Span::lit(3 * SECOND),
    });
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(Instant::T0 + 3 * SECOND);
    let other = sim.find("other").unwrap();
    assert_eq!(
        sim.queue().priority_of(other),
        Some(LOW_PRIORITY),
        "the resync's record"
    );
    sim.apply(Input::Add {
        key: "other".into(),
    })
    .unwrap();
    assert_eq!(
        sim.queue().priority_of(other),
        Some(0),
        "a nil priority counts as 0 and raises it"
    );
}

#[test]
fn shutdown_stops_the_workers_at_once_on_the_priority_queue_but_drains_on_client_go() {
    for (queue, reconciled_after_shutdown) in [(QueueKind::Priority, 1), (QueueKind::ClientGo, 3)] {
        let mut s = priority_scenario();
        s.controllers[0].queue = queue;
        s.controllers[0].controller.reconcile_ns = Span::lit(SECOND);
        s.controllers[0].default_script = Script::Always {
            outcome: Outcome::Success,
        };
        for k in ["a", "b", "c"] {
            s.controllers[0].items.push(item(
                k,
                Script::Always {
                    outcome: Outcome::Success,
                },
            ));
        }
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_until(Instant::T0 + 500 * MILLISECOND);
        sim.apply(Input::Shutdown).unwrap();
        sim.run_until(Instant::T0 + 10 * SECOND);
        let done: u64 = ["a", "b", "c"]
            .iter()
            .map(|k| sim.item(sim.find(k).unwrap()).reconciles)
            .sum();
        assert_eq!(
            done, reconciled_after_shutdown,
            "{queue:?}: only the reconcile in flight finishes, or all drain"
        );
        if queue == QueueKind::Priority {
            let again = sim.apply(Input::Shutdown).unwrap_err().to_string();
            assert!(again.contains("already shut down"), "{again}");
        }
    }
}
