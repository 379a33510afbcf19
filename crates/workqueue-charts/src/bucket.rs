//! The token bucket's level over time: it can go below zero (debt).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{err, ChartResult, Points, Theme};

/// `burst` draws the bucket's capacity as a dashed ceiling; zero is marked
/// so debt below it stands out.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    tokens: &Points,
    burst: f64,
) -> ChartResult {
    let (x0, x1) = crate::x_range(&[tokens], 1.0);
    let lo = tokens.iter().map(|(_, y)| *y).fold(0.0_f64, f64::min);
    let hi = burst.max(tokens.iter().map(|(_, y)| *y).fold(1.0_f64, f64::max));
    let pad = (hi - lo).max(1.0) * 0.08;
    let mut chart = crate::frame(area, theme, "Token bucket")?
        .build_cartesian_2d(x0..x1, (lo - pad)..(hi + pad))
        .map_err(err)?;
    crate::mesh(&mut chart, theme, "virtual time (s)", "tokens")
        .x_labels(6)
        .y_labels(5)
        .y_label_formatter(&|v| crate::tick(*v))
        .draw()
        .map_err(err)?;
    let fill = theme.series[2];
    chart
        .draw_series(
            AreaSeries::new(tokens.iter().copied(), 0.0, fill.mix(0.25))
                .border_style(fill.stroke_width(2)),
        )
        .map_err(err)?;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x0, burst), (x1, burst)],
            6,
            4,
            theme.text.mix(0.6).stroke_width(1),
        ))
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(
            vec![(x0, 0.0), (x1, 0.0)],
            theme.text.mix(0.8).stroke_width(1),
        ))
        .map_err(err)?;
    area.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    #[test]
    fn debt_below_zero_is_inside_the_plot() {
        let t: Points = vec![(0.0, 100.0), (0.5, -50.0), (1.0, -40.0)];
        let out = svg(|area| draw(area, &Theme::LIGHT, &t, 100.0));
        assert!(out.contains("Token bucket"));
        assert!(
            out.contains("-40") || out.contains("-50") || out.contains("-20"),
            "negative ticks shown"
        );
    }
}
