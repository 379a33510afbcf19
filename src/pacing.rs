//! Adaptive playback: time you can see. At the chosen speed, a 5 ms backoff
//! would flash by in a third of a frame and a 30 s RequeueAfter would be 30 s
//! of dead air. With pacing on, each stretch of virtual time up to the next
//! event is played at its own speed, fixed when the stretch begins (so a
//! countdown runs at one steady rate, never slowing as it nears zero):
//!
//! * a stretch that would take less than [`MIN_REAL_MS`] of real time at the
//!   chosen speed is slowed down to last that long (slow motion);
//! * one that would take more than [`MAX_REAL_MS`] is crossed in
//!   [`SKIP_REAL_MS`] (skipping ahead);
//! * anything in between plays at the chosen speed.
//!
//! Several things can happen at one instant (a key is released, handed to a
//! worker, reconciled in zero time, and sent back to wait). With pacing on,
//! each pass over an instant gets its own frame and a short dwell
//! ([`DWELL_MS`]), so a key visibly visits each place it passes through.
//!
//! Pacing follows individual keys; with more than [`CROWD`] keys in motion
//! the stage shows piles, and time runs at the chosen speed.

use workqueue_core::{Duration, Instant};

/// Real time the shortest visible stretch lasts.
pub const MIN_REAL_MS: f64 = 600.0;
/// Longest stretch played at the chosen speed.
pub const MAX_REAL_MS: f64 = 2_000.0;
/// Real time a long empty stretch is crossed in.
pub const SKIP_REAL_MS: f64 = 1_200.0;
/// Keys in motion (queued, waiting, processing) beyond which pacing is off.
pub const CROWD: usize = 50;
/// Real time between two passes over one instant.
pub const DWELL_MS: f64 = 300.0;
/// Passes over one instant shown one by one; past them (a zero-delay retry
/// loop goes round for ever at one instant) time runs at the chosen speed,
/// so the run's stall guard can see the loop.
pub const PASSES_SHOWN: u32 = 6;
/// Slow motion never goes below this fraction of the chosen speed.
const MAX_SLOWDOWN: f64 = 1e-4;

/// How the current stretch is being played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cue {
    /// At the chosen speed.
    Normal,
    /// Slowed down so a short wait can be seen.
    SlowMotion,
    /// Sped up through a long stretch where nothing happens.
    SkippingAhead,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Stretch {
    from: Instant,
    until: Instant,
    speed: f64,
    cue: Cue,
}

/// The pacing state: on or off, the stretch being played, and the real time
/// spent on the current instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacing {
    pub on: bool,
    stretch: Option<Stretch>,
    dwell_ms: f64,
    /// The instant being shown pass by pass, and how many passes so far.
    passes: (Instant, u32),
}

impl Default for Pacing {
    fn default() -> Self {
        Pacing {
            on: true,
            stretch: None,
            dwell_ms: 0.0,
            passes: (Instant::MIN, 0),
        }
    }
}

/// What one frame does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Frame {
    /// Move virtual time at `speed`. With `land`, stop at the next event
    /// and handle just one pass of it (pacing is following keys).
    Run { speed: f64, cue: Cue, land: bool },
    /// Handle one more pass over the current instant.
    Pass,
    /// Stay on the current instant a little longer.
    Hold,
}

impl Pacing {
    /// What this frame of `real_ms` does. `next` is the next event's instant,
    /// `in_motion` the keys queued, waiting or being processed.
    pub fn frame(
        &mut self,
        chosen: f64,
        now: Instant,
        next: Option<Instant>,
        in_motion: usize,
        real_ms: f64,
        sources_only: bool,
    ) -> Frame {
        let following = self.on && in_motion > 0 && in_motion <= CROWD;
        if sources_only && next.is_some_and(|n| n > now) {
            // Watch events merging into a queued key move nothing: play them
            // at the chosen speed (a 50/s storm at 1x takes one real second),
            // only skipping ahead through long silences.
            let (speed, cue) = self.speed(chosen, now, next, in_motion);
            let (speed, cue) = if cue == Cue::SlowMotion {
                (chosen, Cue::Normal)
            } else {
                (speed, cue)
            };
            return Frame::Run {
                speed,
                cue,
                land: false,
            };
        }
        if self.passes.0 != now {
            self.passes = (now, 0);
        }
        match next {
            Some(next) if following && next <= now && self.passes.1 < PASSES_SHOWN => {
                self.dwell_ms += real_ms;
                if self.dwell_ms >= DWELL_MS {
                    self.dwell_ms = 0.0;
                    self.passes.1 += 1;
                    Frame::Pass
                } else {
                    Frame::Hold
                }
            }
            Some(next) if next <= now => Frame::Run {
                speed: chosen,
                cue: Cue::Normal,
                land: false,
            },
            _ => {
                let (speed, cue) = self.speed(chosen, now, next, in_motion);
                Frame::Run {
                    speed,
                    cue,
                    land: following && next.is_some(),
                }
            }
        }
    }

    /// A pass was just handled: the dwell on this instant starts now.
    pub fn landed(&mut self) {
        self.dwell_ms = 0.0;
    }

    /// The speed (virtual per real) for this frame, and its cue. `next` is
    /// the next event's instant, `in_motion` the keys queued, waiting or
    /// being processed.
    pub fn speed(
        &mut self,
        chosen: f64,
        now: Instant,
        next: Option<Instant>,
        in_motion: usize,
    ) -> (f64, Cue) {
        let Some(next) = next else {
            self.stretch = None;
            return (chosen, Cue::Normal);
        };
        if !self.on || in_motion > CROWD || in_motion == 0 {
            self.stretch = None;
            return (chosen, Cue::Normal);
        }
        if next <= now {
            // Something is due at this very instant: handle it this frame and
            // let the next frame plan the stretch after it.
            self.stretch = None;
            return (0.0, Cue::SlowMotion);
        }
        match self.stretch {
            // The same stretch: keep its speed, so a countdown runs steadily.
            Some(s) if s.until == next && s.from <= now => (s.speed, s.cue),
            _ => {
                let s = Self::plan(chosen, now, next);
                self.stretch = Some(s);
                (s.speed, s.cue)
            }
        }
    }

    fn plan(chosen: f64, now: Instant, next: Instant) -> Stretch {
        let gap_ms = (next - now).as_nanos() as f64 / 1e6;
        let real_ms = gap_ms / chosen;
        let (speed, cue) = if real_ms < MIN_REAL_MS {
            (
                (gap_ms / MIN_REAL_MS).max(chosen * MAX_SLOWDOWN),
                Cue::SlowMotion,
            )
        } else if real_ms > MAX_REAL_MS {
            (gap_ms / SKIP_REAL_MS, Cue::SkippingAhead)
        } else {
            (chosen, Cue::Normal)
        };
        Stretch {
            from: now,
            until: next,
            speed,
            cue,
        }
    }

    /// Forget the stretch (after a seek or a new input).
    pub fn reset(&mut self) {
        self.stretch = None;
        self.dwell_ms = 0.0;
    }
}

/// Virtual nanoseconds for `real_ms` at `speed`, whole microseconds (so the
/// clock never shows float noise like 68.899998ms), at least 1ns.
pub fn virtual_step(real_ms: f64, speed: f64) -> Duration {
    let us = (real_ms * speed * 1e3).round();
    if us >= 1.0 {
        Duration::from_nanos((us as i64).saturating_mul(1_000))
    } else {
        Duration::from_nanos((real_ms * speed * 1e6).round() as i64).max(Duration::NANOSECOND)
    }
}

pub const MIN_SPEED: f64 = 0.01;
pub const MAX_SPEED: f64 = 1000.0;

/// The next speed up or down the logarithmic scale (×√10 per press… in
/// steps of 1, 2, 5 per decade, which people read more easily).
pub fn speed_step(speed: f64, up: bool) -> f64 {
    const STEPS: [f64; 16] = [
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
        1000.0,
    ];
    let next = if up {
        STEPS.iter().copied().find(|s| *s > speed * 1.0001)
    } else {
        STEPS.iter().rev().copied().find(|s| *s < speed * 0.9999)
    };
    next.unwrap_or(if up { MAX_SPEED } else { MIN_SPEED })
}

#[cfg(test)]
mod tests {
    #[test]
    fn speed_steps_are_1_2_5_and_clamped() {
        assert_eq!(speed_step(1.0, true), 2.0);
        assert_eq!(speed_step(2.0, false), 1.0);
        assert_eq!(speed_step(1000.0, true), 1000.0);
        assert_eq!(speed_step(0.01, false), 0.01);
        assert_eq!(speed_step(3.0, true), 5.0);
    }

    use super::*;
    use workqueue_core::{Instant, MILLISECOND, SECOND};

    /// Plays from `now` to `next` in 60 Hz frames; returns the real ms it took.
    fn real_time_to_cross(p: &mut Pacing, chosen: f64, now: Instant, next: Instant) -> f64 {
        let (mut t, mut real) = (now, 0.0);
        while t < next {
            let (speed, _) = p.speed(chosen, t, Some(next), 1);
            t += virtual_step(16.7, speed);
            real += 16.7;
        }
        real
    }

    #[test]
    fn a_5ms_backoff_lasts_long_enough_to_read_at_1x() {
        let mut p = Pacing::default();
        let real = real_time_to_cross(&mut p, 1.0, Instant::T0, Instant::T0 + 5 * MILLISECOND);
        assert!((MIN_REAL_MS..MIN_REAL_MS + 50.0).contains(&real), "{real}");
        assert_eq!(
            p.speed(1.0, Instant::T0, Some(Instant::T0 + 5 * MILLISECOND), 1)
                .1,
            Cue::SlowMotion
        );
    }

    #[test]
    fn a_30s_requeue_after_is_crossed_quickly_with_a_cue() {
        let mut p = Pacing::default();
        assert_eq!(
            p.speed(1.0, Instant::T0, Some(Instant::T0 + 30 * SECOND), 1)
                .1,
            Cue::SkippingAhead
        );
        let real = real_time_to_cross(&mut p, 1.0, Instant::T0, Instant::T0 + 30 * SECOND);
        assert!(
            (SKIP_REAL_MS..SKIP_REAL_MS + 50.0).contains(&real),
            "{real}"
        );
        let real = real_time_to_cross(
            &mut Pacing::default(),
            1.0,
            Instant::T0,
            Instant::T0 + 1000 * SECOND,
        );
        assert!(real < SKIP_REAL_MS + 50.0, "a 16m40s backoff too: {real}");
    }

    #[test]
    fn a_stretch_keeps_one_speed_and_middling_gaps_play_as_chosen() {
        let mut p = Pacing::default();
        let (first, _) = p.speed(1.0, Instant::T0, Some(Instant::T0 + 10 * MILLISECOND), 1);
        let (later, _) = p.speed(
            1.0,
            Instant::T0 + 9 * MILLISECOND,
            Some(Instant::T0 + 10 * MILLISECOND),
            1,
        );
        assert_eq!(first, later, "no slowing down as the countdown nears zero");
        let mut p = Pacing::default();
        assert_eq!(
            p.speed(1.0, Instant::T0, Some(Instant::T0 + SECOND), 1),
            (1.0, Cue::Normal)
        );
    }

    #[test]
    fn an_event_due_now_is_handled_before_time_moves() {
        let mut p = Pacing::default();
        let (speed, _) = p.speed(1.0, Instant::from_nanos(7), Some(Instant::from_nanos(7)), 1);
        assert_eq!(virtual_step(16.7, speed), Duration::from_nanos(1));
    }

    /// `n` frames of 16.7 ms at 1x while the run stays at one instant.
    fn at_one_instant(p: &mut Pacing, n: usize) -> Vec<Frame> {
        let at = Instant::from_nanos(5);
        (0..n)
            .map(|_| p.frame(1.0, at, Some(at), 1, 16.7, false))
            .collect()
    }

    #[test]
    fn passes_over_one_instant_are_spaced_by_the_dwell() {
        let mut p = Pacing::default();
        let frames = at_one_instant(&mut p, 40);
        let passes = frames.iter().filter(|f| **f == Frame::Pass).count();
        assert_eq!(passes, (40.0 * 16.7 / DWELL_MS) as usize);
        // A loop at one instant: after a few passes shown, time runs.
        let mut p = Pacing::default();
        let frames = at_one_instant(&mut p, 400);
        let passes = frames.iter().filter(|f| **f == Frame::Pass).count();
        assert_eq!(passes, PASSES_SHOWN as usize);
        assert!(matches!(frames[399], Frame::Run { land: false, .. }));
        assert!(matches!(
            p.frame(
                1.0,
                Instant::from_nanos(5),
                Some(Instant::from_nanos(5)),
                CROWD + 1,
                16.7,
                false
            ),
            Frame::Run { land: false, .. }
        ));
    }

    #[test]
    fn watch_events_alone_play_at_the_chosen_speed() {
        let mut p = Pacing::default();
        let f = p.frame(
            1.0,
            Instant::T0,
            Some(Instant::T0 + 20 * MILLISECOND),
            1,
            16.7,
            true,
        );
        assert_eq!(
            f,
            Frame::Run {
                speed: 1.0,
                cue: Cue::Normal,
                land: false
            }
        );
    }

    #[test]
    fn crowds_and_pacing_off_run_at_the_chosen_speed() {
        let mut p = Pacing::default();
        assert_eq!(
            p.speed(10.0, Instant::T0, Some(Instant::from_nanos(1)), CROWD + 1),
            (10.0, Cue::Normal)
        );
        p.on = false;
        assert_eq!(
            p.speed(1.0, Instant::T0, Some(Instant::T0 + 5 * MILLISECOND), 1),
            (1.0, Cue::Normal)
        );
    }

    #[test]
    fn steps_are_whole_microseconds() {
        assert_eq!(
            virtual_step(16.699999, 1.0),
            Duration::from_nanos(16_700 * 1_000)
        );
        assert_eq!(virtual_step(16.7, 0.0001), Duration::from_nanos(2_000));
        assert_eq!(virtual_step(0.0, 1.0), Duration::from_nanos(1));
    }
}
