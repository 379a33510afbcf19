//! The token bucket's level over time: it can go below zero (debt).

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{err, ChartResult, Points, Theme};

/// Height of one decade of debt, in bursts of tokens.
const DEBT_SCALE: f64 = 0.9;

/// The bucket's scale: tokens from 0 to `burst` are linear (0 to 1), debt
/// below zero is logarithmic (about -0.9 at one burst of debt, -1.8 at ten,
/// -2.7 at a hundred). So a debt a hundred times the burst still leaves the
/// burst line and the tokens over a quarter of the height.
pub fn level(tokens: f64, burst: f64) -> f64 {
    let burst = burst.max(1.0);
    if tokens >= 0.0 {
        tokens / burst
    } else {
        -(1.0 + (-tokens) / burst * 9.0).log10() * DEBT_SCALE
    }
}

/// The inverse of [`level`], for tick labels.
pub(crate) fn tokens_at_level(level: f64, burst: f64) -> f64 {
    let burst = burst.max(1.0);
    if level >= 0.0 {
        level * burst
    } else {
        -((10f64.powf(-level / DEBT_SCALE) - 1.0) / 9.0) * burst
    }
}

/// `points` filled down to zero in `colour`, edged in it: tokens above the
/// line and debt below it are drawn alike.
fn fill_to_zero<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: impl Iterator<Item = (f64, f64)>,
    colour: RGBColor,
) -> ChartResult {
    let series = AreaSeries::new(points, 0.0, colour.mix(0.3)).border_style(colour.stroke_width(2));
    chart.draw_series(series).map(|_| ()).map_err(err)
}

/// `burst` draws the bucket's capacity as a dashed ceiling; tokens are
/// green, debt below zero is red on its own logarithmic scale (see [`level`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    tokens: &Points,
    burst: f64,
) -> ChartResult {
    let (x0, x1) = crate::x_range(&[tokens], 1.0);
    let scaled: Points = tokens.iter().map(|(x, y)| (*x, level(*y, burst))).collect();
    let lo = scaled.iter().map(|(_, y)| *y).fold(0.0_f64, f64::min);
    let hi = 1.0_f64.max(scaled.iter().map(|(_, y)| *y).fold(0.0, f64::max));
    let pad = (hi - lo).max(1.0) * 0.08;
    let mut chart = crate::frame(area, theme, "Token bucket")?
        .build_cartesian_2d(x0..x1, (lo - pad)..(hi + pad))
        .map_err(err)?;
    crate::mesh(&mut chart, theme, "virtual time (s)", "tokens")
        .x_labels(6)
        .y_labels(6)
        .y_label_formatter(&|v| crate::tick(tokens_at_level(*v, burst).round()))
        .draw()
        .map_err(err)?;
    let above = scaled.iter().map(|(x, y)| (*x, y.max(0.0)));
    fill_to_zero(&mut chart, above, theme.series[2])?;
    if lo < 0.0 {
        let below = scaled.iter().map(|(x, y)| (*x, y.min(0.0)));
        fill_to_zero(&mut chart, below, DEBT)?;
    }
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x0, 1.0), (x1, 1.0)],
            6,
            4,
            theme.text.mix(0.7).stroke_width(1),
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

/// Debt's colour (vermillion in Okabe–Ito): never the tokens' green.
pub(crate) const DEBT: RGBColor = RGBColor(213, 94, 0);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    #[test]
    fn debt_below_zero_is_inside_the_plot() {
        let t: Points = vec![(0.0, 100.0), (0.5, -50.0), (1.0, -40.0)];
        let out = svg(|area| draw(area, &Theme::LIGHT, &t, 100.0));
        assert!(out.contains("Token bucket"));
        assert!(out.contains("fill=\"#D55E00\""), "debt has its own colour");
        assert!(
            out.contains("100") && out.contains("-"),
            "tick labels in tokens"
        );
    }

    #[test]
    fn the_burst_stays_a_quarter_of_the_height_at_a_hundred_times_the_debt() {
        let burst = 100.0;
        assert_eq!(level(0.0, burst), 0.0);
        assert_eq!(level(100.0, burst), 1.0);
        let deep = level(-100.0 * burst, burst);
        assert!((1.0 / (1.0 - deep)) > 0.25, "{deep}");
        assert!(level(-1.0, burst) < 0.0 && level(-1.0, burst) > level(-2.0, burst));
        for t in [-10_000.0, -150.0, -1.0, 0.0, 37.5, 100.0] {
            assert!(
                (tokens_at_level(level(t, burst), burst) - t).abs() < 1e-6 * t.abs().max(1.0),
                "{t}"
            );
        }
    }
}
