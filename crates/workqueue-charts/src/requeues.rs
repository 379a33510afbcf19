//! Requeues per second: the chart of the article's thundering herd.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{line_chart, ChartResult, Points, Theme};

/// One line per run being compared (e.g. per-item only, bucket only, max-of).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    runs: &[(&str, &Points)],
) -> ChartResult {
    line_chart(area, theme, "Requeues per second", "requeues/s", runs, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    #[test]
    fn renders_one_polyline_per_run_with_a_legend() {
        let a: Points = (0..10).map(|i| (i as f64, 10.0)).collect();
        let b: Points = (0..10)
            .map(|i| (i as f64, if i == 0 { 100.0 } else { 10.0 }))
            .collect();
        let out = svg(|area| draw(area, &Theme::LIGHT, &[("bucket", &a), ("max-of", &b)]));
        // Each run is a line in its own colour, plus its legend mark.
        for colour in ["#0072B2", "#E69F00"] {
            let lines = out
                .lines()
                .filter(|l| l.contains("<polyline") && l.contains(colour))
                .count();
            assert_eq!(lines, 2, "{colour}: a data line and a legend mark");
        }
        assert!(out.contains("Requeues per second"));
        assert!(out.contains("max-of"));
    }

    #[test]
    fn empty_data_still_draws_axes() {
        let out = svg(|area| draw(area, &Theme::DARK, &[("none", &Vec::new())]));
        assert!(out.contains("virtual time (s)"));
    }
}
