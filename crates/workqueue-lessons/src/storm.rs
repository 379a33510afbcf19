//! The articles' storm: 10,000 keys failing at t=0 with instant reconciles,
//! under client-go's three limiters and controller-runtime v0.23's default,
//! as requeues per second. A step that compares limiters carries the four
//! plots, computed where the lesson is read (the build, or the lesson
//! worker for a trainer's file): the page never runs four 10,000-key
//! simulations on its main thread while a room waits for the next step.

use serde::{Deserialize, Serialize};
use workqueue_core::Span;
use workqueue_core::{Burst, KeyCount, Qps};
use workqueue_core::{
    Instant, LimiterConfig, QueueKind, Scenario, Simulation, MILLISECOND, SECOND,
};

/// Seconds of the storm the plots show.
pub const STORM_SECONDS: i64 = 4;

/// One limiter's plot: its name and requeues per second, sample by sample
/// (seconds since t=0, requeues/s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plot {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// The four limiters compared, by name.
pub fn limiters() -> [(&'static str, QueueKind, LimiterConfig); 4] {
    [
        (
            "per-item only",
            QueueKind::ClientGo,
            LimiterConfig::Exponential {
                base_ns: Span::lit(5 * MILLISECOND),
                max_ns: Span::lit(1000 * SECOND),
            },
        ),
        (
            "bucket only",
            QueueKind::ClientGo,
            LimiterConfig::Bucket {
                qps: Qps::lit(10.0),
                burst: Burst::lit(100),
            },
        ),
        (
            "max-of (default to v0.22)",
            QueueKind::ClientGo,
            LimiterConfig::DefaultController,
        ),
        (
            "v0.23 default: priority queue, per-item only",
            QueueKind::Priority,
            QueueKind::Priority.default_limiter(),
        ),
    ]
}

/// The storm under each of the four limiters.
pub fn articles() -> Vec<Plot> {
    limiters()
        .into_iter()
        .map(|(name, queue, limiter)| Plot {
            name: name.to_string(),
            points: herd(queue, limiter, STORM_SECONDS),
        })
        .collect()
}

/// Requeues per second over `secs` seconds for 10,000 always-failing keys.
pub(crate) fn herd(queue: QueueKind, limiter: LimiterConfig, secs: i64) -> Vec<(f64, f64)> {
    let mut s = Scenario::failing_keys(limiter, KeyCount::lit(10_000));
    s.controllers[0].queue = queue;
    s.sample_ns = Span::lit(100 * MILLISECOND);
    s.duration_ns = Span::lit(secs * SECOND);
    let Ok(mut sim) = Simulation::new(&s) else {
        return Vec::new();
    };
    sim.set_log_capacity(0);
    sim.run_to_end();
    per_second(&sim, Instant::T0 + secs * SECOND)
}

/// Requeues per second, sample by sample, up to `until`.
pub fn per_second(sim: &workqueue_core::Controller, until: Instant) -> Vec<(f64, f64)> {
    let series = sim.series();
    let w = series.width.as_nanos() as f64 / SECOND.as_nanos() as f64;
    series
        .samples
        .iter()
        .enumerate()
        .take_while(|(i, _)| series.start_of(*i) < until)
        .map(|(i, x)| {
            (
                series.start_of(i).as_nanos() as f64 / 1e9,
                x.requeues as f64 / w,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requeues in the first second, from a plot of per-second rates.
    fn first_second(p: &[(f64, f64)]) -> f64 {
        p.windows(2)
            .filter(|w| w[0].0 < 1.0)
            .map(|w| w[0].1 * (w[1].0 - w[0].0))
            .sum()
    }

    /// The figure the lesson asks about: per-item alone sends each key back
    /// 7 times in the first second (5, 10, … 320 ms), 70,000 in all; the
    /// bucket's burst of 100 then 10/s lets about 109 through; max-of looks
    /// like the bucket; v0.23's per-item default looks like per-item.
    #[test]
    fn the_articles_storm_under_four_limiters() {
        let plots = articles();
        let names: Vec<&str> = plots.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "per-item only",
                "bucket only",
                "max-of (default to v0.22)",
                "v0.23 default: priority queue, per-item only"
            ]
        );
        let first: Vec<f64> = plots
            .iter()
            .map(|p| first_second(&p.points).round())
            .collect();
        assert_eq!(first[0], 70_000.0, "{first:?}");
        assert!((100.0..=120.0).contains(&first[1]), "{first:?}");
        assert_eq!(first[2], first[1], "{first:?}");
        assert!(first[3] > 60_000.0, "{first:?}");
        for p in &plots {
            assert_eq!(p.points.len(), 40, "{}: 4 s in 100 ms samples", p.name);
        }
    }
}
