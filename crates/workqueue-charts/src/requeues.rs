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
    draw_on_scale(area, theme, runs, &[])
}

/// The same chart on axes that also fit `scale` (series drawn in other
/// charts), so several charts side by side share one scale.
pub fn draw_on_scale<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    runs: &[(&str, &Points)],
    scale: &[&Points],
) -> ChartResult {
    line_chart(
        area,
        theme,
        "Requeues per second",
        "requeues/s",
        runs,
        true,
        scale,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    /// Two charts on one scale label the same top tick, whatever their own
    /// series reach; each on its own scale they do not.
    #[test]
    fn charts_can_share_one_scale() {
        let small: Points = (0..10).map(|i| (i as f64, 10.0)).collect();
        let big: Points = (0..10).map(|i| (i as f64, 40_000.0)).collect();
        let theme = Theme::LIGHT;
        let own = svg(|a| draw(a, &theme, &[("small", &small)]));
        let shared = svg(|a| draw_on_scale(a, &theme, &[("small", &small)], &[&big]));
        let big_alone = svg(|a| draw(a, &theme, &[("big", &big)]));
        assert!(
            !own.contains("40k") && !own.contains("40000"),
            "its own scale stops near 10"
        );
        let top =
            |svg: &str| svg.contains("40k") || svg.contains("40000") || svg.contains("40,000");
        assert!(top(&big_alone), "the big series reaches 40k");
        assert!(
            top(&shared),
            "on the shared scale the small series' chart reaches 40k too"
        );
    }

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
