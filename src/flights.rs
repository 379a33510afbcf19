//! Watch events in flight on the stage. The core hands out the latest
//! arrivals (by number); this keeps each one flying for [`FLIGHT_MS`] of real
//! time from when the page first saw it, so a storm draws as a stream of
//! dots spread along the path, not a clump. Plain Rust, tested natively.

use std::collections::VecDeque;

use workqueue_core::{ArrivalView, Landing};

/// How long one event takes from the sources to the queue (real ms); the
/// stage's CSS animation lasts as long.
pub const FLIGHT_MS: f64 = 900.0;
/// Most events drawn in flight at once (the newest).
pub const MAX_FLYING: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    pub seq: u64,
    pub landing: Landing,
    /// Real time (ms) the flight began.
    pub start_ms: f64,
    /// Its animation's delay, fixed when it first appears (≤ 0: it may have
    /// begun a little before the frame that shows it).
    pub delay_ms: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Flights {
    /// The newest event number launched so far.
    seen: u64,
    last_ms: Option<f64>,
    flying: VecDeque<Flight>,
}

impl Flights {
    /// Takes the arrivals of this frame (oldest first) at real time `now_ms`,
    /// and returns the flights to draw, oldest first.
    pub fn update(&mut self, arrivals: &[ArrivalView], now_ms: f64) -> &VecDeque<Flight> {
        let newest = arrivals.last().map_or(0, |a| a.seq);
        if newest < self.seen {
            // The run went back (restart, rewind): nothing new to launch.
            self.seen = newest;
            self.flying.clear();
        }
        let fresh: Vec<&ArrivalView> = arrivals.iter().filter(|a| a.seq > self.seen).collect();
        // Several new events in one frame start spread over that frame.
        let since = self.last_ms.unwrap_or(now_ms).min(now_ms);
        let n = fresh.len() as f64;
        for (i, a) in fresh.iter().enumerate() {
            let start_ms = since + (now_ms - since) * (i as f64 + 1.0) / n;
            self.flying.push_back(Flight {
                seq: a.seq,
                landing: a.landing,
                start_ms,
                delay_ms: start_ms - now_ms,
            });
        }
        self.seen = self.seen.max(newest);
        self.last_ms = Some(now_ms);
        while self
            .flying
            .front()
            .is_some_and(|f| now_ms - f.start_ms >= FLIGHT_MS)
            || self.flying.len() > MAX_FLYING
        {
            self.flying.pop_front();
        }
        &self.flying
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::Instant;

    fn arrivals(seqs: std::ops::RangeInclusive<u64>) -> Vec<ArrivalView> {
        seqs.map(|seq| ArrivalView {
            seq,
            at: Instant::T0,
            key: "k".into(),
            landing: Landing::Merged,
        })
        .collect()
    }

    #[test]
    fn each_event_flies_once_for_its_whole_flight() {
        let mut f = Flights::default();
        assert_eq!(f.update(&arrivals(1..=1), 0.0).len(), 1);
        // The same arrival on later frames is not launched again.
        assert_eq!(f.update(&arrivals(1..=1), 16.0).len(), 1);
        assert_eq!(f.update(&arrivals(1..=2), 500.0).len(), 2);
        // The first lands at 900ms; the second is still flying.
        let left: Vec<u64> = f
            .update(&arrivals(1..=2), 950.0)
            .iter()
            .map(|x| x.seq)
            .collect();
        assert_eq!(left, vec![2]);
        assert!(f.update(&arrivals(1..=2), 1500.0).is_empty());
    }

    #[test]
    fn a_storm_is_a_stream_spread_along_the_path() {
        let mut f = Flights::default();
        // 50 events a second at 1x: about one new event every 20ms.
        let mut t = 0.0;
        for seq in 1..=100u64 {
            let from = seq.saturating_sub(15).max(1);
            f.update(&arrivals(from..=seq), t);
            t += 20.0;
        }
        let flying = f.update(&arrivals(85..=100), t);
        assert!(
            flying.len() >= 40,
            "a stream, not a clump: {}",
            flying.len()
        );
        let ages: Vec<f64> = flying.iter().map(|x| t - x.start_ms).collect();
        assert!(
            ages.iter().cloned().fold(0.0, f64::max) > 700.0,
            "some are near the queue"
        );
        assert!(
            ages.iter().cloned().fold(f64::INFINITY, f64::min) < 50.0,
            "some just left"
        );
    }

    #[test]
    fn a_rewind_launches_nothing_and_clears_the_sky() {
        let mut f = Flights::default();
        f.update(&arrivals(1..=30), 0.0);
        assert!(f.update(&arrivals(1..=3), 10.0).is_empty());
        assert_eq!(f.update(&arrivals(1..=4), 20.0).len(), 1);
    }

    #[test]
    fn events_arriving_together_start_spread_over_the_frame() {
        let mut f = Flights::default();
        f.update(&[], 0.0);
        let starts: Vec<f64> = f
            .update(&arrivals(1..=4), 16.0)
            .iter()
            .map(|x| x.start_ms)
            .collect();
        assert_eq!(starts, vec![4.0, 8.0, 12.0, 16.0]);
        let delays: Vec<f64> = f
            .update(&arrivals(1..=4), 20.0)
            .iter()
            .map(|x| x.delay_ms)
            .collect();
        assert_eq!(
            delays,
            vec![-12.0, -8.0, -4.0, 0.0],
            "fixed when first shown"
        );
    }
}
