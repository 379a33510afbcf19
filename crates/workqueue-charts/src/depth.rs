//! Queue depth (`Len()`) and the number of keys in the waiting heap.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{line_chart, ChartResult, Points, Theme};

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    depth: &Points,
    waiting: &Points,
) -> ChartResult {
    line_chart(
        area,
        theme,
        "Queue depth and waiting",
        "keys",
        &[("queued (Len)", depth), ("waiting (heap)", waiting)],
        true,
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::svg;

    #[test]
    fn both_series_are_drawn() {
        let d: Points = vec![(0.0, 5.0), (1.0, 2.0)];
        let w: Points = vec![(0.0, 0.0), (1.0, 3.0)];
        let out = svg(|area| draw(area, &Theme::LIGHT, &d, &w));
        assert!(out.contains("queued (Len)") && out.contains("waiting (heap)"));
        assert!(out.matches("<polyline").count() >= 2);
    }
}
