//! The XR circuit breaker's worked examples of docs/crossplane-today.md,
//! event by event: when it opens, what it drops, which events probe it
//! half-open, when it closes (crossplane/crossplane `internal/circuit` at
//! 2d040d2; defaults of v2.1.1 and later, and of v2.1.0).

use workqueue_core::{
    BreakerConfig, CircuitBreaker, Duration, Instant, Transition, UpdateAdmission, Verdict, Watch,
    MILLISECOND, SECOND,
};

type Breaker = CircuitBreaker<&'static str, &'static str>;

fn at(d: Duration) -> Instant {
    Instant::T0 + d
}

/// An Update of the XR seen by its own watch (two map-function calls).
fn update(b: &mut Breaker, now: Instant) -> UpdateAdmission {
    b.admit_update(now, Watch::Own, "xr", "XR/xr", false, false)
}

/// Example 1: something updates the XR once a second, for ever (another
/// controller fighting Crossplane over a field).
#[test]
fn example_1_an_update_every_second() {
    let mut b = Breaker::new(BreakerConfig::crossplane());
    let mut opened = Vec::new();
    let mut closed = Vec::new();
    let mut probes = Vec::new();
    let mut enqueued = 0;
    for s in 0..=399i64 {
        let u = update(&mut b, at(s * SECOND));
        if s < 99 {
            // Two tokens per update, one back per second: 98 − s left.
            assert_eq!(u.old.verdict, Verdict::Allowed, "t={s}s");
            assert_eq!(u.new.verdict, Verdict::Allowed, "t={s}s");
            assert_eq!(b.tokens(&"xr"), Some(98.0 - s as f64), "t={s}s");
        }
        for a in [u.old, u.new] {
            match a.transition {
                Transition::Opened => opened.push(s),
                Transition::Closed => closed.push(s),
                Transition::Unchanged => {}
                Transition::Reopened => panic!("reopened at {s}s"),
            }
            if a.verdict == Verdict::HalfOpenAllowed {
                probes.push(s);
            }
        }
        if u.enqueues() {
            enqueued += 1;
        }
        if (100..=129).contains(&s) {
            assert!(!u.enqueues(), "dropped at t={s}s");
        }
    }
    // At 99 s the old call takes the last token and the new call, finding
    // none, opens the circuit: that update is still enqueued.
    assert_eq!(opened, vec![99]);
    // One probe a little more than 30 s after the last one let through.
    assert_eq!(probes, vec![130, 161, 192, 223, 254, 285, 316, 347, 378]);
    // 300 s after the opening: the old call is dropped (the last probe was
    // 21 s before) but closes the circuit and takes a token of the full
    // bucket; the new call finds it closed.
    assert_eq!(closed, vec![399]);
    assert!(!b.state(&"xr").open);
    assert_eq!(b.tokens(&"xr"), Some(98.0), "as after the update at 0 s");
    // 100 updates closed (0–99 s), 9 probes, and the one at 399 s.
    assert_eq!(enqueued, 110);
    let m = b.metrics();
    assert_eq!(
        (m.opens, m.closes, m.allowed, m.half_open_allowed, m.dropped),
        (1, 1, 201, 9, 590)
    );
}

#[test]
fn example_1_repeats_every_399_seconds() {
    let mut b = Breaker::new(BreakerConfig::crossplane());
    let mut opened = Vec::new();
    let mut closed = Vec::new();
    for s in 0..1200i64 {
        let u = update(&mut b, at(s * SECOND));
        for a in [u.old, u.new] {
            match a.transition {
                Transition::Opened => opened.push(s),
                Transition::Closed => closed.push(s),
                _ => {}
            }
        }
    }
    assert_eq!(opened, vec![99, 498, 897]);
    assert_eq!(closed, vec![399, 798, 1197]);
}

/// Example 2: an XR's initialisation, 30 updates 250 ms apart.
#[test]
fn example_2_initialisation_opened_v2_1_0_and_not_since() {
    let mut old = Breaker::new(BreakerConfig::crossplane_v2_1_0());
    let mut verdicts = Vec::new();
    for k in 0..30i64 {
        let u = update(&mut old, at(k * 250 * MILLISECOND));
        verdicts.push((k, u.old.verdict, u.new.verdict, u.new.transition));
        match k {
            // 48 − 1.875·25
            25 => assert_eq!(old.tokens(&"xr"), Some(1.125)),
            26 => assert_eq!(old.tokens(&"xr"), Some(0.25)),
            _ => {}
        }
    }
    // Update 27 (k = 26, 6.5 s): 1.25 tokens; the old call takes one, the
    // new call opens the circuit with 0.25 left.
    assert_eq!(
        verdicts[26],
        (26, Verdict::Allowed, Verdict::Allowed, Transition::Opened)
    );
    // Dropped events refill the bucket and take nothing: 0.25 + 3·0.125.
    assert_eq!(old.tokens(&"xr"), Some(0.625));
    for v in &verdicts[27..] {
        assert_eq!(
            (v.1, v.2),
            (Verdict::Dropped, Verdict::Dropped),
            "k={}",
            v.0
        );
    }
    let m = old.metrics();
    assert_eq!((m.opens, m.allowed, m.dropped), (1, 54, 6));

    let mut now = Breaker::new(BreakerConfig::crossplane());
    for k in 0..30i64 {
        assert!(update(&mut now, at(k * 250 * MILLISECOND)).enqueues());
    }
    assert_eq!(now.metrics().opens, 0);
    // 98 − 1.75·29
    assert_eq!(now.tokens(&"xr"), Some(47.25));
}

/// Example 3: the same updates going on: today's defaults open at the 58th.
#[test]
fn example_3_the_58th_update_opens_todays_breaker() {
    let mut b = Breaker::new(BreakerConfig::crossplane());
    for k in 0..57i64 {
        let u = update(&mut b, at(k * 250 * MILLISECOND));
        assert_eq!(u.new.verdict, Verdict::Allowed, "k={k}");
    }
    assert_eq!(b.tokens(&"xr"), Some(0.0));
    let u = update(&mut b, at(57 * 250 * MILLISECOND));
    // 0.25 tokens: the old call finds less than one and opens the circuit,
    // still enqueued; the new call is dropped.
    assert_eq!(u.old.verdict, Verdict::Allowed);
    assert_eq!(u.old.transition, Transition::Opened);
    assert_eq!(u.new.verdict, Verdict::Dropped);
    assert!(u.enqueues());
    assert_eq!(
        b.state(&"xr").next_allowed_at,
        Some(at(14_250 * MILLISECOND + 30 * SECOND))
    );
}

/// Example 4: while open, a probe is the first event more than 30 s after
/// the last one let through: with an event every 20 s, every other one.
#[test]
fn example_4_probes_follow_the_events_not_a_timer() {
    let mut b = Breaker::new(BreakerConfig::crossplane());
    for _ in 0..100 {
        b.admit(Instant::T0, Watch::Mapped, "xr", "Rev/r1", false);
    }
    let first = b.admit(Instant::T0, Watch::Own, "xr", "XR/xr", false);
    assert_eq!(first.transition, Transition::Opened);
    assert_eq!(b.state(&"xr").triggered_by, Some("Rev/r1"));
    let mut seen = Vec::new();
    for i in 1..=15i64 {
        let a = b.admit(at(i * 20 * SECOND), Watch::Own, "xr", "XR/xr", false);
        seen.push((i * 20, a.verdict, a.transition));
    }
    use Transition::*;
    use Verdict::*;
    assert_eq!(
        seen,
        vec![
            (20, Dropped, Unchanged),
            (40, HalfOpenAllowed, Unchanged),
            (60, Dropped, Unchanged),
            (80, HalfOpenAllowed, Unchanged),
            (100, Dropped, Unchanged),
            (120, HalfOpenAllowed, Unchanged),
            (140, Dropped, Unchanged),
            (160, HalfOpenAllowed, Unchanged),
            (180, Dropped, Unchanged),
            (200, HalfOpenAllowed, Unchanged),
            (220, Dropped, Unchanged),
            (240, HalfOpenAllowed, Unchanged),
            (260, Dropped, Unchanged),
            (280, HalfOpenAllowed, Unchanged),
            (300, Dropped, Closed),
        ]
    );
    assert_eq!(b.tokens(&"xr"), Some(99.0));
}

/// Example 5: state is per XR: one XR's open circuit drops nothing of
/// another's, even from the same composition revision.
#[test]
fn example_5_each_xr_has_its_own_circuit() {
    let mut b = Breaker::new(BreakerConfig::crossplane());
    for _ in 0..51 {
        b.admit_update(Instant::T0, Watch::Own, "hot", "XR/hot", false, false);
    }
    assert!(b.state(&"hot").open);
    let t = at(SECOND);
    let hot = b.admit(t, Watch::Mapped, "hot", "Rev/r1", false);
    let calm = b.admit(t, Watch::Mapped, "calm", "Rev/r1", false);
    assert_eq!(hot.verdict, Verdict::Dropped);
    assert_eq!(calm.verdict, Verdict::Allowed);
    assert_eq!(b.tokens(&"calm"), Some(99.0));
}
