//! The four live charts, drawn with plotters on `<canvas>` by the same
//! functions the native tests render to SVG (crate `workqueue-charts`).

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use workqueue_charts::{backoff, bucket, depth, requeues, Points, Theme};
use workqueue_core::{BucketStore, Controller, Duration, Instant, ItemId, SECOND};
use yew::prelude::*;

use crate::hooks::now_ms;
use crate::store::RunRef;

/// While the run plays, one chart is redrawn at a time, round-robin, at most
/// this often (ms): a frame never pays for all four.
const REDRAW_ONE_MS: f64 = 100.0;

pub fn theme() -> Theme {
    // An embed's `theme=` (on the root element, see index.html) wins over
    // the reader's system setting.
    let chosen = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|r| r.get_attribute("data-theme"));
    let dark = match chosen.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    let projector = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .is_some_and(|b| b.class_name().split_whitespace().any(|c| c == "workshop"));
    // Captions, axis titles and legends are HTML around the canvases (see `Charts`).
    let t = if dark { Theme::DARK } else { Theme::LIGHT }.without_titles();
    if projector {
        t.scaled(16)
    } else {
        t
    }
}

fn window_size() -> (f64, f64) {
    let w = web_sys::window();
    let num = |v: Option<Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>>| {
        v.and_then(|r| r.ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    (
        num(w.as_ref().map(|w| w.inner_width())),
        num(w.as_ref().map(|w| w.inner_height())),
    )
}

/// Sizes the canvas to its box at the device's pixel ratio (only when the
/// window was `resized`, and only if the size changed: assigning a canvas's
/// size clears it and costs a layout) and returns a backend.
fn backend(node: &NodeRef, font_px: u32, resized: bool) -> Option<(CanvasBackend, u32)> {
    let canvas: web_sys::HtmlCanvasElement = node.cast()?;
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    // A canvas keeps its default 300px width until measured once.
    let stale = resized || canvas.width() == 300;
    if stale {
        let (w, h) = (
            canvas.client_width().max(200) as f64,
            canvas.client_height().max(120) as f64,
        );
        let (pw, ph) = ((w * ratio) as u32, (h * ratio) as u32);
        if canvas.width() != pw {
            canvas.set_width(pw);
        }
        if canvas.height() != ph {
            canvas.set_height(ph);
        }
    }
    Some((
        CanvasBackend::with_canvas_object(canvas)?,
        (font_px as f64 * ratio) as u32,
    ))
}

fn series_points(sim: &Controller, f: impl Fn(&workqueue_core::Sample) -> f64) -> Points {
    let s = sim.series();
    let complete = (sim.now().since_t0() / s.width) as usize;
    s.samples
        .iter()
        .enumerate()
        .take(complete.max(1))
        .map(|(i, x)| {
            (
                s.start_of(i).as_nanos() as f64 / SECOND.as_nanos() as f64,
                f(x),
            )
        })
        .collect()
}

/// The delays one key failing over and over would get from this limiter.
fn fresh_curve(sim: &Controller) -> Vec<(u64, f64)> {
    // A freshly built limiter has seen no key: any id is a first-time key.
    let mut buckets = BucketStore::new();
    let mut limiter = sim.limiter_config().build(&mut buckets);
    let probe = ItemId(0);
    (1..=20)
        .map(|n| {
            let d = limiter.when(probe, Instant::T0, &mut buckets);
            (n, d.as_nanos() as f64 / 1e9)
        })
        .collect()
}

/// What the four charts show: one preparation for the canvas and for the
/// data tables beside it.
struct ChartData {
    requeues: Points,
    depth: Points,
    waiting: Points,
    tokens: Points,
    burst: f64,
    curve: Vec<(u64, f64)>,
    observed: Vec<(u64, f64)>,
    /// The limiter the curve is drawn for, as the legend names it.
    limiter: String,
}

impl ChartData {
    /// What chart `which` shows, in two numbers: a chart whose fingerprint
    /// did not change is not redrawn. Only complete samples are drawn, so a
    /// series' last point is settled.
    fn fingerprint(&self, which: usize) -> (usize, u64) {
        let last = |p: &Points| {
            p.last()
                .map_or(0, |(x, y)| x.to_bits() ^ y.to_bits().rotate_left(17))
        };
        match which {
            0 => (self.requeues.len(), last(&self.requeues)),
            1 => (
                self.depth.len(),
                last(&self.depth) ^ last(&self.waiting).rotate_left(7),
            ),
            2 => (self.tokens.len(), last(&self.tokens) ^ self.burst.to_bits()),
            _ => (
                self.observed.len() << 8 | self.curve.len(),
                self.observed.last().map_or(0, |o| o.1.to_bits())
                    ^ self
                        .curve
                        .last()
                        .map_or(0, |c| c.1.to_bits())
                        .rotate_left(3),
            ),
        }
    }

    fn of(sim: &Controller, buckets: &BucketStore, selected: Option<&str>) -> ChartData {
        let secs = sim.series().width.as_nanos() as f64 / SECOND.as_nanos() as f64;
        ChartData {
            requeues: series_points(sim, |s| s.requeues as f64 / secs),
            depth: series_points(sim, |s| s.depth as f64),
            waiting: series_points(sim, |s| s.waiting as f64),
            tokens: series_points(sim, |s| s.tokens as f64),
            burst: sim.bucket_view(buckets).map_or(0, |b| b.burst) as f64,
            curve: fresh_curve(sim),
            observed: selected
                .and_then(|k| sim.find(k))
                .and_then(|id| sim.details(id))
                .map(|d| {
                    d.retries
                        .iter()
                        .map(|r| (r.failures_before + 1, r.delay.as_nanos() as f64 / 1e9))
                        .collect()
                })
                .unwrap_or_default(),
            limiter: sim.limiter_config().label(),
        }
    }
}

/// Draws chart `which`; a failed draw says why (it is shown under the chart).
fn draw_one(
    data: &ChartData,
    selected: Option<&str>,
    nodes: &[NodeRef; 4],
    which: usize,
    resized: bool,
) -> Result<(), String> {
    let base = theme();
    let Some((b, px)) = backend(&nodes[which], base.font_px, resized) else {
        return Ok(()); // not on the page (yet)
    };
    let area = b.into_drawing_area();
    let theme = base.scaled(px);
    match which {
        0 => requeues::draw(&area, &theme, &[("requeues/s", &data.requeues)]),
        1 => depth::draw(&area, &theme, &data.depth, &data.waiting),
        2 => bucket::draw(&area, &theme, &data.tokens, data.burst),
        _ => {
            let label = format!("one key, {}", data.limiter);
            let mut series: Vec<(&str, &[(u64, f64)])> = vec![(label.as_str(), &data.curve)];
            let observed_label = format!("{} (observed)", selected.unwrap_or(""));
            if !data.observed.is_empty() {
                series.push((observed_label.as_str(), &data.observed));
            }
            backoff::draw(&area, &theme, &series)
        }
    }
    .map_err(|e| format!("this chart could not be drawn: {e}"))
}

/// One chart: its caption, its canvas, what went wrong drawing it, and its
/// data as a table.
fn figure(
    caption: Html,
    node: &NodeRef,
    id: &'static str,
    words: &'static str,
    error: Html,
    table: Html,
) -> Html {
    html! {
        <figure class="chart">
            <figcaption>{ caption }</figcaption>
            <canvas ref={node.clone()} data-testid={id} role="img" aria-label={words}></canvas>
            { error }
            { table }
        </figure>
    }
}

/// Rows shown in a chart's data table: the latest samples.
const TABLE_ROWS: usize = 10;

/// A chart's data as a table (the alternative to the picture).
fn table(caption: &str, head: &[&str], rows: Vec<Vec<String>>) -> Html {
    html! {
        <details class="data-table">
            <summary>{ format!("{caption}: data table") }</summary>
            <table>
                <thead><tr>{ for head.iter().map(|h| html! { <th scope="col">{ *h }</th> }) }</tr></thead>
                <tbody>{ for rows.into_iter().map(|r| html! { <tr>{ for r.into_iter().map(|c| html! { <td class="num">{ c }</td> }) }</tr> }) }</tbody>
            </table>
        </details>
    }
}

fn num(v: f64) -> String {
    workqueue_charts::tick(v)
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub run: RunRef,
    /// The key whose observed delays are drawn beside the limiter's curve.
    pub selected: Option<String>,
    pub playing: bool,
}

#[function_component(Charts)]
pub fn charts(props: &ChartsProps) -> Html {
    let nodes: [NodeRef; 4] = [
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
    ];
    let errors = use_state(|| [None::<String>, None, None, None]);
    // The last draw: when, for which selection, the next chart in the
    // round-robin, and what each chart showed then.
    let last = use_mut_ref(|| {
        (
            f64::NEG_INFINITY,
            None::<String>,
            0usize,
            [None::<(usize, u64)>; 4],
        )
    });
    // The window size the canvases were last measured at: reading a canvas's
    // box forces a layout, so it happens only when the window changed.
    let measured_for = use_mut_ref(|| (0.0, 0.0));
    let data = std::rc::Rc::new(
        props
            .run
            .sim_and_buckets(|sim, b| ChartData::of(sim, b, props.selected.as_deref())),
    );
    {
        let nodes = nodes.clone();
        let errors = errors.clone();
        let data = data.clone();
        let (selected, playing) = (props.selected.clone(), props.playing);
        use_effect(move || {
            let t = now_ms();
            let mut last = last.borrow_mut();
            let window = window_size();
            let resized = *measured_for.borrow() != window;
            let everything = !playing || last.1 != selected || resized;
            if !everything && t - last.0 < REDRAW_ONE_MS {
                return;
            }
            // Charts whose data changed (all of them after a resize or a new
            // selection); while playing, one per turn.
            let stale: Vec<usize> = (0..4)
                .map(|k| (last.2 + k) % 4)
                .filter(|&w| {
                    resized || last.1 != selected || last.3[w] != Some(data.fingerprint(w))
                })
                .take(if everything { 4 } else { 1 })
                .collect();
            let mut found = (*errors).clone();
            for &w in &stale {
                found[w] = draw_one(&data, selected.as_deref(), &nodes, w, resized).err();
                last.3[w] = Some(data.fingerprint(w));
            }
            if resized {
                *measured_for.borrow_mut() = window;
            }
            let next = stale.last().map_or(last.2, |w| (w + 1) % 4);
            *last = (t, selected, next, last.3);
            if found != *errors {
                errors.set(found);
            }
        });
    }
    let error = |i: usize| match &errors[i] {
        Some(e) => {
            html! { <p class="error" role="alert" data-testid="chart-error">{ e.clone() }</p> }
        }
        None => html! {},
    };
    // The time series' latest rows.
    let time_rows = |points: &[&Points]| -> Vec<Vec<String>> {
        let skip = points[0].len().saturating_sub(TABLE_ROWS);
        points[0]
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(i, (x, _))| {
                std::iter::once(format!("{x:.1}"))
                    .chain(
                        points
                            .iter()
                            .map(|p| p.get(i).map_or(String::new(), |(_, y)| num(*y))),
                    )
                    .collect()
            })
            .collect()
    };
    let backoff_rows: Vec<Vec<String>> = data
        .curve
        .iter()
        .map(|(n, d)| {
            let seen = data
                .observed
                .iter()
                .find(|(m, _)| m == n)
                .map_or(String::new(), |(_, o)| {
                    workqueue_core::format_go_duration(Duration::from_nanos((o * 1e9) as i64))
                });
            vec![
                n.to_string(),
                workqueue_core::format_go_duration(Duration::from_nanos((d * 1e9) as i64)),
                seen,
            ]
        })
        .collect();
    let save_png = {
        let node = nodes[0].clone();
        Callback::from(move |_| {
            let doc = web_sys::window().and_then(|w| w.document());
            if let (Some(doc), Some(c)) = (doc, node.cast::<web_sys::HtmlCanvasElement>()) {
                if let Ok(url) = c.to_data_url() {
                    super::download::download_url(&doc, "requeues-per-second.png", &url);
                }
            }
        })
    };
    html! {
        <section class="charts" aria-label="Charts">
            <p class="chart-actions"><button onclick={save_png} data-testid="save-png">{"Chart as PNG"}</button></p>
            { figure(html! { <>{"Requeues per second "}<small>{"keys re-entering the queue after a delay · x: virtual time (s)"}</small></> },
                &nodes[0], "chart-requeues", "Requeues per second over virtual time", error(0),
                table("Requeues per second", &["time (s)", "requeues/s"], time_rows(&[&data.requeues]))) }
            { figure(html! { <>{"Queue depth and waiting "}<small><span class="swatch s0"></span>{"Len() "}<span class="swatch s1"></span>{"waiting heap"}</small></> },
                &nodes[1], "chart-depth", "Queue depth and waiting keys over virtual time", error(1),
                table("Queue depth and waiting", &["time (s)", "Len()", "waiting"], time_rows(&[&data.depth, &data.waiting]))) }
            { figure(html! { <>{"Token bucket "}<small>{"green: tokens · red: debt, on its own log scale · dashed: burst"}</small></> },
                &nodes[2], "chart-bucket", "Token bucket level over virtual time", error(2),
                table("Token bucket", &["time (s)", "tokens"], time_rows(&[&data.tokens]))) }
            { figure(html! { <>{"Delay per failure "}<small>{"log scale · x: failure number · "}<span class="swatch s0"></span>{"one key failing every time "}<span class="swatch s1"></span>{"the selected key"}</small></> },
                &nodes[3], "chart-backoff", "Delay per failure number, log scale", error(3),
                table("Delay per failure", &["failure", "When", "selected key"], backoff_rows)) }
        </section>
    }
}
