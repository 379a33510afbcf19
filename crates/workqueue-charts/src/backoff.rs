//! Per-key delay against failure number, on a log scale: the exponential
//! backoff curve and where the cap (or the bucket) takes over.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{err, ChartResult, Theme};

/// `(failure number from 1, delay in seconds)` per series; delays ≤ 0 are
/// drawn at the floor of the log axis.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    series: &[(&str, &[(u64, f64)])],
) -> ChartResult {
    const FLOOR: f64 = 1e-4;
    let max_n = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|(n, _)| *n))
        .max()
        .unwrap_or(1)
        .max(5);
    let max_d = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|(_, d)| *d))
        .fold(1.0_f64, f64::max);
    let mut chart = crate::frame(area, theme, "Delay per failure (log scale)")?
        .build_cartesian_2d(
            0.5f64..(max_n as f64 + 0.5),
            (FLOOR..max_d * 2.0).log_scale(),
        )
        .map_err(err)?;
    crate::mesh(&mut chart, theme, "failure number", "delay (s)")
        .y_label_formatter(&|v| format_seconds(*v))
        .x_labels(8)
        .draw()
        .map_err(err)?;
    for (i, (name, points)) in series.iter().enumerate() {
        let color = theme.series[i % theme.series.len()];
        let pts: Vec<(f64, f64)> = points
            .iter()
            .map(|(n, d)| (*n as f64, d.max(FLOOR)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(err)?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], color.stroke_width(2))
            });
        chart
            .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled())))
            .map_err(err)?;
    }
    if series.len() > 1 {
        crate::legend(&mut chart, theme, SeriesLabelPosition::UpperLeft)?;
    }
    area.present().map_err(err)
}

/// `0.005` → `5ms`, `160` → `2m40s`: tick labels people read at a glance.
pub(crate) fn format_seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.0}µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.0}ms", s * 1e3)
    } else if s < 60.0 {
        format!("{s:.0}s")
    } else if s < 3600.0 {
        format!("{:.0}m", s / 60.0)
    } else {
        format!("{:.0}h", s / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    #[test]
    fn draws_points_for_every_failure() {
        let curve: Vec<(u64, f64)> = (1..=20)
            .map(|n| (n, (0.005 * 2f64.powi(n as i32 - 1)).min(1000.0)))
            .collect();
        let out = svg(|area| draw(area, &Theme::LIGHT, &[("exponential 5ms→16m40s", &curve)]));
        assert_eq!(out.matches("<circle").count(), 20);
        assert!(out.contains("failure number"));
    }

    #[test]
    fn tick_labels_read_as_durations() {
        assert_eq!(format_seconds(0.005), "5ms");
        assert_eq!(format_seconds(1000.0), "17m");
        assert_eq!(format_seconds(0.0001), "100µs");
    }
}
