//! The playground's charts. Each module draws one chart into any plotters
//! [`DrawingArea`], so the same code paints a `<canvas>` in the page and an
//! SVG string in native tests.
//!
//! Inputs are plain data ([`Points`], [`Theme`]): the charts know nothing of
//! the simulation, which keeps them cheap to test.
// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

pub mod backoff;
pub mod bucket;
pub mod depth;
pub mod requeues;

use plotters::chart::{ChartContext, MeshStyle};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;

/// What went wrong while drawing (a backend error, as text).
pub type ChartResult = Result<(), String>;

/// Colours and sizes, so light, dark and projector modes share one drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// Series colours (Okabe–Ito, safe for colour-blind readers).
    pub series: [RGBColor; 4],
    pub font_px: u32,
    /// Draw the caption and axis titles inside the chart. A page that shows
    /// them as HTML turns this off: in a browser plotters measures every
    /// piece of text with a DOM layout, so fewer texts mean faster frames.
    pub titles: bool,
}

/// A colour written as designers write it: `0x0072b2` is `#0072B2`.
const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: rgb(0xffffff),
        text: rgb(0x282c34),
        grid: rgb(0xe2e6ec),
        series: [rgb(0x0072b2), rgb(0xe69f00), rgb(0x009e73), rgb(0xcc79a7)],
        font_px: 12,
        titles: true,
    };
    /// The light theme's sizes in darker colours, the series lightened.
    pub const DARK: Theme = Theme {
        background: rgb(0x161a21),
        text: rgb(0xdce0e6),
        grid: rgb(0x343a44),
        series: [rgb(0x56b4e9), rgb(0xf0be3c), rgb(0x3cc896), rgb(0xdc96be)],
        ..Theme::LIGHT
    };

    pub fn scaled(mut self, font_px: u32) -> Theme {
        self.font_px = font_px;
        self
    }

    pub fn without_titles(mut self) -> Theme {
        self.titles = false;
        self
    }
}

/// A y tick label people read at a glance: 400000 → "400k", 2.5 → "2.5", 10 → "10".
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.1}M", v / 1e6).replace(".0M", "M")
    } else if a >= 1e3 {
        format!("{:.1}k", v / 1e3).replace(".0k", "k")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// `(x, y)` points, x in seconds.
pub type Points = Vec<(f64, f64)>;

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// The y range that shows every value with a little headroom (never empty).
fn y_range(series: &[&Points], floor_zero: bool) -> (f64, f64) {
    let values = series.iter().flat_map(|p| p.iter().map(|(_, y)| *y));
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if floor_zero {
        lo = lo.min(0.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    (lo, hi + (hi - lo) * 0.08)
}

fn x_range(series: &[&Points], min_width: f64) -> (f64, f64) {
    let xs = series.iter().flat_map(|p| p.iter().map(|(x, _)| *x));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if !lo.is_finite() {
        return (0.0, min_width);
    }
    (lo, hi.max(lo + min_width))
}

/// The charts' one font. Named by its family, not by the string
/// "sans-serif": plotters' string-to-family match weighed 3.5 KB of the page.
fn sans_serif<'a>(px: u32) -> FontDesc<'a> {
    FontDesc::new(FontFamily::SansSerif, px.into(), FontStyle::Normal)
}

/// A chart frame in the theme: background, caption, margins and label areas.
pub(crate) fn frame<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    theme: &Theme,
    caption: &str,
) -> Result<ChartBuilder<'a, 'b, DB>, String> {
    area.fill(&theme.background).map_err(err)?;
    let mut b = ChartBuilder::on(area);
    if theme.titles {
        b.caption(caption, sans_serif(theme.font_px + 2).color(&theme.text));
    }
    let x_area = if theme.titles {
        theme.font_px * 3 + 2
    } else {
        theme.font_px * 2
    };
    // Room for a tick label ("400k") and, with titles, the axis title beside it.
    let y_area = if theme.titles {
        theme.font_px * 4 + 6
    } else {
        theme.font_px * 3 + 4
    };
    b.margin(8)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    Ok(b)
}

/// The grid, axes and labels every chart shares.
pub(crate) fn mesh<'a, 'b, DB, X, Y>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    theme: &Theme,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut m = chart.configure_mesh();
    m.light_line_style(theme.grid)
        .bold_line_style(theme.grid)
        .axis_style(theme.grid)
        .label_style(sans_serif(theme.font_px).color(&theme.text))
        // Five labels at most: they stay apart on a short plot at projector type.
        .y_labels(5)
        .max_light_lines(2);
    if theme.titles {
        m.x_desc(x_desc.to_string()).y_desc(y_desc.to_string());
    }
    m
}

/// The legend box, drawn when a chart has more than one series (and titles are on).
pub(crate) fn legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    theme: &Theme,
    position: SeriesLabelPosition,
) -> ChartResult
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    if !theme.titles {
        return Ok(()); // the page shows the legend as HTML
    }
    chart
        .configure_series_labels()
        .label_font(sans_serif(theme.font_px).color(&theme.text))
        .background_style(theme.background.mix(0.85))
        .border_style(theme.grid)
        .position(position)
        .draw()
        .map_err(err)
}

/// A line chart of one or more series with a caption and axis labels: the
/// shape three of the four charts share.
pub(crate) fn line_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    caption: &str,
    y_label: &str,
    series: &[(&str, &Points)],
    floor_zero: bool,
    axes_from: &[&Points],
) -> ChartResult {
    // The axes fit the drawn series, and any others the caller names (a
    // scale shared by several charts).
    let all: Vec<&Points> = series
        .iter()
        .map(|(_, p)| *p)
        .chain(axes_from.iter().copied())
        .collect();
    let (x0, x1) = x_range(&all, 1.0);
    let (y0, y1) = y_range(&all, floor_zero);
    let mut chart = frame(area, theme, caption)?
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    mesh(&mut chart, theme, "virtual time (s)", y_label)
        .x_labels(6)
        .y_labels(5)
        .y_label_formatter(&|v| tick(*v))
        .draw()
        .map_err(err)?;
    for (i, (name, points)) in series.iter().enumerate() {
        let color = theme.series[i % theme.series.len()];
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(err)?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 14, y)], color.stroke_width(2))
            });
    }
    if series.len() > 1 {
        legend(&mut chart, theme, SeriesLabelPosition::UpperRight)?;
    }
    area.present().map_err(err)
}

#[cfg(test)]
mod tick_tests {
    #[test]
    fn without_titles_only_the_numbers_remain() {
        let p: super::Points = vec![(0.0, 1.0), (1.0, 2.0)];
        let out = super::test_support::svg(|a| {
            super::requeues::draw(a, &super::Theme::LIGHT.without_titles(), &[("x", &p)])
        });
        assert!(!out.contains("Requeues per second") && !out.contains("virtual time (s)"));
        assert!(out.matches("<text").count() >= 8, "the tick labels stay");
    }

    #[test]
    fn colours_read_as_written_and_dark_keeps_the_sizes() {
        use plotters::style::RGBColor;
        assert_eq!(super::rgb(0x0072b2), RGBColor(0, 114, 178));
        assert_eq!(super::rgb(0xe69f00), RGBColor(230, 159, 0));
        let dark = super::Theme::DARK;
        assert_eq!((dark.font_px, dark.titles), (12, true));
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(super::tick(400_000.0), "400k");
        assert_eq!(super::tick(1_500.0), "1.5k");
        assert_eq!(super::tick(10.0), "10");
        assert_eq!(super::tick(0.5), "0.5");
        assert_eq!(super::tick(-50.0), "-50");
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use plotters::prelude::*;
    use plotters_svg::SVGBackend;

    /// Renders with `draw` into an SVG string.
    pub(crate) fn svg(
        draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> super::ChartResult,
    ) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (480, 240)).into_drawing_area();
            draw(&area).expect("chart draws");
        }
        out
    }
}
