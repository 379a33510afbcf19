use super::*;
use crate::ranges::{Failures, ReconcileRate};
use crate::time::Instant;
use crate::time::MINUTE;
use crate::Span;

#[test]
fn labels_index_in_all_order() {
    for (i, l) in ResultLabel::ALL.iter().enumerate() {
        assert_eq!(l.index(), i);
    }
}

#[test]
fn decision_table_in_evaluation_order() {
    let err = decide(Outcome::Error.result());
    assert_eq!(
        (err.label, err.forget, err.requeue),
        (ResultLabel::Error, false, Requeue::RateLimited)
    );
    let both = decide(
        Outcome::ErrorWithRequeueAfter {
            after_ns: Span::lit(MINUTE),
        }
        .result(),
    );
    assert_eq!(both.requeue, Requeue::RateLimited);
    assert!(both.result_ignored);
    let term = decide(Outcome::TerminalError.result());
    assert_eq!(
        (term.requeue, term.forget, term.terminal),
        (Requeue::None, false, true)
    );
    let after = decide(
        Outcome::RequeueAfter {
            after_ns: Span::lit(30 * SECOND),
        }
        .result(),
    );
    assert_eq!(
        (after.forget, after.requeue),
        (true, Requeue::After { delay: 30 * SECOND })
    );
    let requeue = decide(Outcome::Requeue.result());
    assert_eq!(
        (requeue.label, requeue.forget),
        (ResultLabel::Requeue, false)
    );
    let negative = decide(
        Outcome::RequeueAfter {
            after_ns: Span::lit(-5 * SECOND),
        }
        .result(),
    );
    assert_eq!(
        (negative.label, negative.forget, negative.requeue),
        (ResultLabel::Success, true, Requeue::None)
    );
    let neg_requeue = decide(ReconcileResult {
        requeue: true,
        requeue_after_ns: Span::lit(-5 * SECOND),
        error: ErrorKind::None,
        priority: None,
    });
    assert_eq!(neg_requeue.requeue, Requeue::RateLimited);
}

#[test]
fn scripts() {
    let mut rng = Rng::new(1);
    let s = Script::FailThenSucceed {
        failures: Failures::lit(2),
    };
    let got: Vec<_> = (0..3)
        .map(|a| s.outcome(a, Instant::T0, &mut rng).unwrap())
        .collect();
    assert_eq!(got, vec![Outcome::Error, Outcome::Error, Outcome::Success]);
    let p = Script::Random {
        error_probability: crate::Probability::new(0.25).unwrap(),
        otherwise: Outcome::Success,
    };
    let errors = (0..10_000)
        .filter(|a| p.outcome(*a, Instant::T0, &mut rng) == Some(Outcome::Error))
        .count();
    assert!((2_300..2_700).contains(&errors), "{errors}");
    assert_eq!(Script::Live.outcome(0, Instant::T0, &mut rng), None);
    assert_eq!(
        Outcome::ErrorWithRequeueAfter {
            after_ns: Span::lit(MINUTE)
        }
        .go_return(),
        "return ctrl.Result{RequeueAfter: 1m0s}, err"
    );
}

#[test]
fn crossplane_derivations_for_r_10_and_0() {
    let d = CrossplaneConfig::note_2021(ReconcileRate::lit(10)).derived();
    assert_eq!(
        (
            d.rest_qps,
            d.rest_burst,
            d.global_qps,
            d.global_burst,
            d.workers
        ),
        (50.0, 100, 10.0, 100, 10)
    );
    let z = CrossplaneConfig::note_2021(ReconcileRate::lit(0)).derived();
    assert_eq!((z.global_burst, z.workers), (0, 1));
    let mut b = BucketStore::new();
    let mut m =
        Middleware::new(b.add(CrossplaneConfig::note_2021(ReconcileRate::lit(0)).global_bucket()));
    assert_eq!(
        m.gate(ItemId(0), Instant::T0, &mut b),
        Gate::Defer {
            delay: crate::time::INF_DURATION
        }
    );
}

#[test]
fn middleware_free_pass_is_used_once() {
    let mut b = BucketStore::new();
    let mut m =
        Middleware::new(b.add(CrossplaneConfig::note_2021(ReconcileRate::lit(1)).global_bucket()));
    for i in 0..10 {
        assert_eq!(m.gate(ItemId(i), Instant::T0, &mut b), Gate::Pass);
    }
    assert_eq!(
        m.gate(ItemId(10), Instant::T0, &mut b),
        Gate::Defer { delay: SECOND }
    );
    assert_eq!(
        m.gate(ItemId(11), Instant::T0, &mut b),
        Gate::Defer { delay: 2 * SECOND }
    );
    assert_eq!(
        m.gate(ItemId(10), Instant::T0, &mut b),
        Gate::FreePass,
        "even with an empty bucket"
    );
    assert!(
        matches!(m.gate(ItemId(10), Instant::T0, &mut b), Gate::Defer { .. }),
        "a third reconcile consults the bucket"
    );
}
