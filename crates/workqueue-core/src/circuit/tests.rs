use super::*;
use crate::time::NANOSECOND;

const T0: Instant = Instant::T0;
const NS: Duration = NANOSECOND;

type Breaker = CircuitBreaker<&'static str, &'static str>;

fn at(d: Duration) -> Instant {
    T0 + d
}

fn small(burst: f64, refill: f64) -> Breaker {
    CircuitBreaker::new(BreakerConfig {
        burst,
        refill_per_second: refill,
        ..BreakerConfig::crossplane()
    })
}

/// One event on the XR's own watch, from the XR itself.
fn hit(b: &mut Breaker, now: Instant) -> Admission {
    b.admit(now, Watch::Own, "xr", "XR/xr", false)
}

fn admitted(verdict: Verdict, transition: Transition) -> Admission {
    Admission {
        verdict,
        transition,
    }
}

/// Burst 2 and no refill: the third event at T0 opens the circuit.
fn opened_at_t0() -> Breaker {
    let mut b = small(2.0, 0.0);
    hit(&mut b, T0);
    hit(&mut b, T0);
    assert_eq!(
        hit(&mut b, T0),
        admitted(Verdict::Allowed, Transition::Opened)
    );
    b
}

#[test]
fn the_defaults_are_crossplanes() {
    let c = BreakerConfig::default();
    assert_eq!((c.burst, c.refill_per_second), (100.0, 1.0));
    assert_eq!(c.cooldown, 300 * SECOND);
    assert_eq!(c.half_open_interval, 30 * SECOND);
    assert_eq!(c.expire_after, 86_400 * SECOND);
    let old = BreakerConfig::crossplane_v2_1_0();
    assert_eq!((old.burst, old.refill_per_second), (50.0, 0.5));
    assert_eq!(old.cooldown, c.cooldown);
    assert!(c.is_valid() && old.is_valid());
    assert!(!BreakerConfig {
        burst: f64::NAN,
        ..c
    }
    .is_valid());
}

#[test]
fn a_new_target_starts_with_a_full_bucket_and_takes_one_token() {
    let mut b = small(100.0, 1.0);
    assert_eq!(b.tokens(&"xr"), None);
    assert!(!b.state(&"xr").open);
    assert_eq!(
        hit(&mut b, at(7 * SECOND)),
        admitted(Verdict::Allowed, Transition::Unchanged)
    );
    assert_eq!(b.tokens(&"xr"), Some(99.0));
    assert_eq!(b.tracked(), 1);
}

#[test]
fn the_event_that_empties_the_bucket_is_enqueued_and_opens_it() {
    let mut b = opened_at_t0();
    let s = b.state(&"xr");
    assert!(s.open);
    assert_eq!(s.next_allowed_at, Some(at(30 * SECOND)));
    assert_eq!(s.triggered_by, Some("XR/xr"));
    assert_eq!(b.tokens(&"xr"), Some(0.0));
    assert_eq!(
        hit(&mut b, T0),
        admitted(Verdict::Dropped, Transition::Unchanged)
    );
    let m = b.metrics();
    assert_eq!((m.opens, m.allowed, m.dropped), (1, 3, 1));
}

#[test]
fn fractional_tokens_do_not_count_until_a_whole_one_is_there() {
    // Burst 2, half a token per second: 2 → 1 → 0 at T0; at 1 s the bucket
    // holds 0.5, less than a token, and the circuit opens.
    let mut b = small(2.0, 0.5);
    hit(&mut b, T0);
    hit(&mut b, T0);
    assert_eq!(
        hit(&mut b, at(SECOND)),
        admitted(Verdict::Allowed, Transition::Opened)
    );
    assert_eq!(b.tokens(&"xr"), Some(0.5));
}

#[test]
fn a_probe_needs_strictly_more_than_the_half_open_interval() {
    let mut b = opened_at_t0();
    assert_eq!(hit(&mut b, at(30 * SECOND)).verdict, Verdict::Dropped);
    assert_eq!(
        hit(&mut b, at(30 * SECOND + NS)),
        admitted(Verdict::HalfOpenAllowed, Transition::Unchanged)
    );
    // The probe moves the next one 30 s on; a dropped event does not.
    assert_eq!(b.state(&"xr").next_allowed_at, Some(at(60 * SECOND + NS)));
    assert_eq!(hit(&mut b, at(60 * SECOND + NS)).verdict, Verdict::Dropped);
    assert_eq!(
        hit(&mut b, at(60 * SECOND + 2 * NS)).verdict,
        Verdict::HalfOpenAllowed
    );
    let m = b.metrics();
    assert_eq!((m.half_open_allowed, m.dropped, m.closes), (2, 2, 0));
}

#[test]
fn the_first_event_at_the_cooldown_closes_it_and_takes_a_token() {
    let mut b = small(2.0, 1.0);
    hit(&mut b, T0);
    hit(&mut b, T0);
    hit(&mut b, T0); // opens, 0 tokens
    assert_eq!(
        hit(&mut b, at(300 * SECOND - NS)),
        admitted(Verdict::HalfOpenAllowed, Transition::Unchanged)
    );
    // Refilled while open, never past the burst; no token was taken.
    assert_eq!(b.tokens(&"xr"), Some(2.0));
    assert!(b.state(&"xr").open, "no timer closes it: an event does");
    // 1 ns later: within 30 s of the probe, so this event is dropped, and
    // it is the one that closes the circuit, taking a token.
    assert_eq!(
        hit(&mut b, at(300 * SECOND)),
        admitted(Verdict::Dropped, Transition::Closed)
    );
    assert!(!b.state(&"xr").open);
    assert_eq!(b.tokens(&"xr"), Some(1.0));
    assert_eq!(
        hit(&mut b, at(300 * SECOND)),
        admitted(Verdict::Allowed, Transition::Unchanged)
    );
    let m = b.metrics();
    assert_eq!((m.opens, m.closes, m.dropped), (1, 1, 1));
}

#[test]
fn without_refill_a_closing_circuit_opens_again_and_keeps_its_trigger() {
    let mut b = opened_at_t0();
    assert_eq!(
        b.admit(at(300 * SECOND), Watch::Mapped, "xr", "Rev/r1", false),
        admitted(Verdict::HalfOpenAllowed, Transition::Reopened)
    );
    let s = b.state(&"xr");
    assert!(s.open);
    assert_eq!(s.triggered_by, Some("XR/xr"), "the ring was just cleared");
    assert_eq!(s.next_allowed_at, Some(at(330 * SECOND)));
    let m = b.metrics();
    assert_eq!((m.opens, m.closes), (2, 1));
}

#[test]
fn the_trigger_is_the_most_frequent_recent_source_ties_to_the_later() {
    let mut b = small(3.0, 0.0);
    b.admit(T0, Watch::Mapped, "xr", "Rev/a", false);
    b.admit(T0, Watch::Mapped, "xr", "Rev/b", false);
    b.admit(T0, Watch::Mapped, "xr", "Rev/a", false);
    b.admit(T0, Watch::Mapped, "xr", "Rev/b", false);
    // a, b, a, b: both reach 2, b later.
    assert_eq!(b.state(&"xr").triggered_by, Some("Rev/b"));

    let mut b = small(17.0, 0.0);
    for _ in 0..3 {
        b.admit(T0, Watch::Mapped, "xr", "Rev/a", false);
    }
    for _ in 0..15 {
        b.admit(T0, Watch::Mapped, "xr", "Rev/b", false);
    }
    // The ring keeps the last 16: b ×15 and one a (slot 2 was never
    // overwritten); b wins though a came first overall.
    assert!(b.state(&"xr").open);
    assert_eq!(b.state(&"xr").triggered_by, Some("Rev/b"));
}

#[test]
fn a_deleting_object_bypasses_the_breaker() {
    let mut b = opened_at_t0();
    let before = b.metrics();
    let by = b.admit(T0, Watch::Mapped, "xr", "Rev/r1", true);
    assert_eq!(by, admitted(Verdict::Bypassed, Transition::Unchanged));
    assert!(by.verdict.enqueues());
    assert!(b.state(&"xr").open, "a mapped watch leaves the state alone");
    assert_eq!(b.metrics(), before, "no metric");

    // On the XR's own watch the deletion resets the state: the next event
    // starts with a full bucket.
    assert_eq!(
        b.admit(T0, Watch::Own, "xr", "XR/xr", true).verdict,
        Verdict::Bypassed
    );
    assert_eq!(b.tracked(), 0);
    assert_eq!(hit(&mut b, T0).verdict, Verdict::Allowed);
    assert_eq!(b.tokens(&"xr"), Some(1.0));
    assert_eq!(b.metrics().closes, 0, "a reset is not a close");
}

#[test]
fn an_update_costs_two_tokens_and_is_enqueued_if_either_call_keeps_it() {
    let mut b = small(3.0, 0.0);
    let u = b.admit_update(T0, Watch::Own, "xr", "XR/xr", false, false);
    assert_eq!(u.old.verdict, Verdict::Allowed);
    assert_eq!(u.new.verdict, Verdict::Allowed);
    assert_eq!(b.tokens(&"xr"), Some(1.0));
    // 1 token: the old call takes it, the new call opens the circuit.
    let u = b.admit_update(T0, Watch::Own, "xr", "XR/xr", false, false);
    assert_eq!(u.old, admitted(Verdict::Allowed, Transition::Unchanged));
    assert_eq!(u.new, admitted(Verdict::Allowed, Transition::Opened));
    assert!(u.enqueues());
    let u = b.admit_update(T0, Watch::Own, "xr", "XR/xr", false, false);
    assert!(!u.enqueues());
    // An update that sets the deletion timestamp: the old object goes
    // through the breaker, the new one resets it and passes.
    let u = b.admit_update(T0, Watch::Own, "xr", "XR/xr", false, true);
    assert_eq!(u.old.verdict, Verdict::Dropped);
    assert_eq!(u.new.verdict, Verdict::Bypassed);
    assert!(u.enqueues());
    assert_eq!(b.tracked(), 0);
}

#[test]
fn a_new_target_forgets_targets_idle_for_more_than_a_day() {
    let mut b = small(2.0, 0.0);
    b.admit(T0, Watch::Own, "a", "XR/a", false);
    b.admit(at(HOUR), Watch::Own, "b", "XR/b", false);
    let day = 24 * HOUR;
    // Exactly a day idle: kept.
    b.admit(at(day), Watch::Own, "c", "XR/c", false);
    assert_eq!(b.tracked(), 3);
    // A day and a nanosecond: a goes, b stays; an event for a known target
    // collects nothing.
    b.admit(at(day + NS), Watch::Own, "c", "XR/c", false);
    assert_eq!(b.tracked(), 3);
    b.admit(at(day + NS), Watch::Own, "d", "XR/d", false);
    assert_eq!(b.tracked(), 3);
    assert_eq!(b.tokens(&"a"), None);
    assert_eq!(b.tokens(&"b"), Some(1.0));
}

#[test]
fn a_forgotten_target_starts_afresh_a_kept_one_does_not() {
    // No refill: only forgetting gives tokens back.
    let mut b = opened_at_t0();
    let day = 24 * HOUR;
    b.admit(at(day + NS), Watch::Own, "other", "XR/other", false);
    assert_eq!(b.tokens(&"xr"), None);
    assert_eq!(hit(&mut b, at(day + NS)).verdict, Verdict::Allowed);
    assert_eq!(b.tokens(&"xr"), Some(1.0));

    let mut kept = opened_at_t0();
    // Still tracked after the cooldown: it closes, then opens again at once.
    assert_eq!(
        hit(&mut kept, at(day + NS)),
        admitted(Verdict::HalfOpenAllowed, Transition::Reopened)
    );
}

#[test]
fn verdicts_say_what_reaches_the_queue_and_which_label_they_count_under() {
    assert!(Verdict::Allowed.enqueues());
    assert!(Verdict::HalfOpenAllowed.enqueues());
    assert!(Verdict::Bypassed.enqueues());
    assert!(!Verdict::Dropped.enqueues());
    assert_eq!(Verdict::HalfOpenAllowed.label(), Some("HalfOpenAllowed"));
    assert_eq!(Verdict::Dropped.label(), Some("Dropped"));
    assert_eq!(Verdict::Bypassed.label(), None);
}
