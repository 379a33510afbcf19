use super::*;
use crate::time::{Duration, Instant, WideInstant};

#[test]
fn a_record_takes_16_bytes_and_an_entry_32() {
    // What a key costs in the live run and in every rewind checkpoint.
    assert_eq!(std::mem::size_of::<Order>(), 16);
    assert_eq!(std::mem::size_of::<Entry>(), 32);
    // The latest readyAt a queue computes: now and after both i64::MAX.
    let latest = WideInstant::from_nanos(i64::MAX as i128 * 2);
    let r = Record::new(3, 9, Some(latest));
    assert_eq!(r.ready_at(), Some(latest));
    let e = Entry::new(r.ready, 3, 9, ItemId(1));
    assert_eq!(e.ready().get(), latest);
    assert!(Entry::new(None, 3, 9, ItemId(1)) < e);
    assert_eq!(Record::new(3, 9, None).ready_at(), None);
}

#[test]
fn a_key_without_a_record_keeps_the_priority_it_was_handed_out_with() {
    let (mut q, a, _, _) = q();
    assert_eq!(q.last_priority(a), 0, "never queued");
    let high = AddOpts {
        priority: Some(7),
        ..AddOpts::default()
    };
    q.add_with_opts(Instant::T0, high, &[a]);
    assert_eq!(
        q.get(Instant::T0),
        PqGot::Item {
            item: a,
            priority: 7
        }
    );
    assert_eq!((q.record(a), q.last_priority(a)), (None, 7));
    // Added again while in flight: the new record's priority shows...
    q.add(Instant::T0, a);
    assert_eq!((q.record(a), q.last_priority(a)), (Some((0, None)), 0));
    q.done(Instant::T0, a);
    // ...and once it is handed out, it is the one kept.
    assert_eq!(
        q.get(Instant::T0),
        PqGot::Item {
            item: a,
            priority: 0
        }
    );
    q.done(Instant::T0, a);
    assert_eq!((q.record(a), q.last_priority(a)), (None, 0));
}

fn q() -> (PriorityQueue, ItemId, ItemId, ItemId) {
    let mut q = PriorityQueue::new(&default_limiter(), Some(usize::MAX));
    let (a, b, c) = (q.key("a"), q.key("b"), q.key("c"));
    (q, a, b, c)
}

fn prio(p: i64) -> AddOpts {
    AddOpts {
        priority: Some(p),
        ..AddOpts::default()
    }
}

fn got(q: &mut PriorityQueue, now: Instant) -> Option<(String, i64)> {
    match q.get(now) {
        PqGot::Item { item, priority } => Some((q.key_name(item).to_string(), priority)),
        _ => None,
    }
}

#[test]
fn priority_first_then_fifo() {
    let (mut q, a, b, c) = q();
    q.add_with_opts(Instant::T0, prio(LOW_PRIORITY), &[a]);
    q.add(Instant::T0, b);
    q.add_with_opts(Instant::T0, prio(LOW_PRIORITY), &[c]);
    assert_eq!(got(&mut q, Instant::T0), Some(("b".into(), 0)));
    assert_eq!(got(&mut q, Instant::T0), Some(("a".into(), -100)));
    assert_eq!(got(&mut q, Instant::T0), Some(("c".into(), -100)));
    assert_eq!(q.get(Instant::T0), PqGot::Empty);
}

#[test]
fn a_raise_goes_to_the_tail_of_its_new_class_and_a_nil_priority_raises_a_resync() {
    let (mut q, a, b, c) = q();
    q.add(Instant::T0, a);
    q.add_with_opts(Instant::T0, prio(LOW_PRIORITY), &[b]);
    q.add(Instant::T0, c);
    let added = q.add(Instant::T0, b); // nil counts as 0: -100 → 0
    assert_eq!(added.unwrap().raised, Some((-100, 0)));
    let order: Vec<_> = (0..3)
        .filter_map(|_| got(&mut q, Instant::T0))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(order, ["a", "c", "b"]);
    assert_eq!(q.metrics().unwrap().depth.get(-100), Some(0));
}

#[test]
fn one_record_per_key_immediate_beats_delayed_and_earlier_wins() {
    let (mut q, a, _, _) = q();
    q.add_after(Instant::T0, a, 10 * SECOND);
    let r = q.add_after(Instant::T0, a, 5 * SECOND);
    assert_eq!(
        r.unwrap().placed,
        Placed::MovedEarlier {
            from: (Instant::T0 + 10 * SECOND).wide(),
            ready_at: (Instant::T0 + 5 * SECOND).wide()
        }
    );
    let r = q.add_after(Instant::T0, a, 8 * SECOND);
    assert_eq!(
        r.unwrap().placed,
        Placed::KeptEarlier {
            ready_at: (Instant::T0 + 5 * SECOND).wide()
        }
    );
    assert_eq!((q.len(), q.waiting_len()), (0, 1));
    let r = q.add(Instant::T0 + MILLISECOND, a);
    assert_eq!(
        r.unwrap().placed,
        Placed::DelayCancelled {
            was: (Instant::T0 + 5 * SECOND).wide()
        }
    );
    assert_eq!(
        (q.len(), q.waiting_len()),
        (1, 0),
        "the pending delay is gone"
    );
    let r = q.add_after(Instant::T0 + MILLISECOND, a, SECOND);
    assert_eq!(r.unwrap().placed, Placed::StayedReady);
    assert_eq!(q.len(), 1);
}

#[test]
fn rate_limited_with_after_takes_the_smaller_and_always_counts_a_failure() {
    let (mut q, a, b, _) = q();
    let opts = AddOpts {
        after: 30 * SECOND,
        rate_limited: true,
        priority: None,
    };
    let r = q.add_with_opts(Instant::T0, opts, &[a]);
    assert_eq!(r[0].effective, 5 * MILLISECOND);
    assert_eq!(q.num_requeues(a), 1);
    let negative = AddOpts {
        after: Duration::from_nanos(-1),
        rate_limited: true,
        priority: None,
    };
    let r = q.add_with_opts(Instant::T0, negative, &[b]);
    assert_eq!(
        (r[0].effective, r[0].placed),
        (-Duration::NANOSECOND, Placed::NewReady)
    );
    assert_eq!(q.num_requeues(b), 1, "When was asked even so");
    assert_eq!(
        q.metrics().unwrap().retries_total,
        1,
        "only positive delays count"
    );
}

#[test]
fn a_locked_key_is_skipped_without_blocking_others() {
    let (mut q, a, b, _) = q();
    q.add_with_opts(Instant::T0, prio(10), &[a]);
    assert_eq!(got(&mut q, Instant::T0), Some(("a".into(), 10)));
    q.add_with_opts(Instant::T0, prio(10), &[a]); // re-added while being processed
    q.add(Instant::T0, b);
    assert_eq!(q.len(), 2, "Len counts the locked key's record");
    assert_eq!(got(&mut q, Instant::T0), Some(("b".into(), 0)));
    assert_eq!(q.get(Instant::T0), PqGot::Empty);
    q.done(Instant::T0, a);
    assert_eq!(got(&mut q, Instant::T0), Some(("a".into(), 10)));
}

#[test]
fn waiting_records_become_ready_with_fresh_counters_in_waiting_order() {
    let (mut q, a, b, c) = q();
    q.add(Instant::T0, c);
    q.add_after(Instant::T0, b, 2 * MILLISECOND);
    q.add_after(Instant::T0, a, MILLISECOND);
    q.advance(Instant::T0 + 3 * MILLISECOND);
    let order: Vec<_> = (0..3)
        .filter_map(|_| got(&mut q, Instant::T0 + 3 * MILLISECOND))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(order, ["c", "a", "b"]);
    let m = q.metrics().unwrap();
    assert_eq!(m.adds_total, 3);
    // Their wait in the queue counts from when they became ready (3ms).
    assert_eq!(
        m.queue_duration.recent().collect::<Vec<_>>(),
        vec![0.003, 0.0, 0.0]
    );
}

#[test]
fn shutdown_abandons_everything_and_a_second_one_is_refused() {
    let (mut q, a, _, _) = q();
    q.add(Instant::T0, a);
    assert_eq!(q.shutdown(), Ok(()));
    assert_eq!(q.get(Instant::T0), PqGot::ShutDown);
    assert_eq!(q.len(), 1, "the abandoned record still counts");
    assert!(q.add_rate_limited(Instant::T0, a).is_none());
    assert_eq!(
        q.num_requeues(a),
        0,
        "the limiter is not asked after shutdown"
    );
    assert_eq!(q.shutdown(), Err(AlreadyShutDown));
}
