use super::*;
use crate::time::{Duration, Instant, WideInstant, MILLISECOND, SECOND};
use crate::Span;

fn q() -> Workqueue {
    Workqueue::new(
        &LimiterConfig::DefaultController,
        QueueOptions::with_metrics(),
    )
}

/// A queue as [`q`] makes, and the ids of `keys`.
fn q_with<const N: usize>(keys: [&str; N]) -> (Workqueue, [ItemId; N]) {
    let mut q = q();
    let ids = keys.map(|k| q.key(k));
    (q, ids)
}

#[test]
fn fifo_dedup_and_readd_while_processing() {
    let (mut q, [a, b]) = q_with(["a", "b"]);
    assert_eq!(q.add(Instant::T0, a), AddEffect::Queued);
    assert_eq!(q.add(Instant::T0, b), AddEffect::Queued);
    assert_eq!(q.add(Instant::T0, a), AddEffect::Deduplicated);
    assert_eq!(q.len(), 2);
    assert_eq!(q.get(Instant::T0), Got::Item(a));
    assert_eq!(q.add(Instant::T0, a), AddEffect::MarkedDirty);
    assert_eq!(q.len(), 1);
    q.done(Instant::T0, a);
    assert_eq!(
        q.queued().collect::<Vec<_>>(),
        vec![b, a],
        "position is set at Done time"
    );
    assert_eq!(q.metrics().unwrap().adds_total, 3);
}

#[test]
fn shutdown_hands_out_what_is_queued_then_stops() {
    let (mut q, [a, c]) = q_with(["a", "c"]);
    q.add(Instant::T0, a);
    q.add_after(Instant::T0, c, SECOND);
    q.shutdown(Instant::T0);
    assert_eq!(q.add(Instant::T0, c), AddEffect::Ignored);
    assert_eq!(q.get(Instant::T0 + 2 * SECOND), Got::Item(a));
    assert_eq!(q.get(Instant::T0 + 2 * SECOND), Got::ShutDown);
    assert_eq!(q.metrics().unwrap().retries_total, 1);
}

#[test]
fn drain_waits_only_for_in_flight_items() {
    let (mut q, [a, b]) = q_with(["a", "b"]);
    q.add(Instant::T0, a);
    q.add(Instant::T0, b);
    assert_eq!(q.get(Instant::T0), Got::Item(a));
    assert!(!q.shutdown_with_drain(Instant::T0));
    assert_eq!(q.get(Instant::T0), Got::Item(b));
    q.done(Instant::T0, a);
    assert!(!q.drained());
    q.done(Instant::T0, b);
    assert!(q.drained());
}

#[test]
fn rapid_rate_limited_adds_coalesce_but_count() {
    let mut q = Workqueue::new(
        &LimiterConfig::Exponential {
            base_ns: Span::lit(5 * MILLISECOND),
            max_ns: Span::lit(1000 * SECOND),
        },
        QueueOptions::with_metrics(),
    );
    let x = q.key("x");
    q.add_rate_limited(Instant::T0, x);
    assert_eq!(
        q.add_rate_limited(Instant::T0, x).1,
        AfterEffect::KeptEarlier {
            ready_at: WideInstant::from_nanos(5_000_000)
        }
    );
    assert_eq!(q.next_ready_at(), Some(Instant::T0 + 5 * MILLISECOND));
    assert_eq!(q.get(Instant::T0 + 5 * MILLISECOND), Got::Item(x));
    q.done(Instant::T0 + 5 * MILLISECOND, x);
    assert_eq!(q.get(Instant::T0 + SECOND), Got::Empty);
    assert_eq!(q.num_requeues(x), 2);
    assert_eq!(q.metrics().unwrap().retries_total, 2);
}

#[test]
fn the_soonest_waiting_keys_match_a_full_sort() {
    let mut q = q();
    for i in 0..200i64 {
        let id = q.key(&format!("k{i}"));
        q.add_after(Instant::T0, id, Duration::from_nanos(1 + (i * 7919) % 97));
    }
    let full = q.waiting_sorted();
    assert_eq!(q.waiting_soonest(24), full[..24].to_vec());
    assert_eq!(q.waiting_soonest(500), full);
}

#[test]
fn time_never_goes_backwards() {
    let (mut q, [a]) = q_with(["a"]);
    q.add_after(Instant::from_nanos(10), a, Duration::from_nanos(5));
    assert_eq!(q.advance(Instant::from_nanos(3)), Instant::from_nanos(10));
    assert_eq!(q.len(), 0);
    q.advance(Instant::from_nanos(15));
    assert_eq!(q.len(), 1);
}
