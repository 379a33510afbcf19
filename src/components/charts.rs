//! The four live charts, drawn with plotters on `<canvas>` by the same
//! functions the native tests render to SVG (crate `workqueue-charts`).

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use workqueue_charts::{backoff, bucket, depth, requeues, Points, Theme};
use workqueue_core::{ItemId, Simulation, SECOND};
use yew::prelude::*;

use super::use_playground;
use crate::hooks::now_ms;

/// While the run plays, one chart is redrawn at a time, round-robin, at most
/// this often (ms): a frame never pays for all four.
const REDRAW_ONE_MS: f64 = 100.0;

pub fn theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
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

thread_local! {
    /// The window size the canvases were last measured at: reading a canvas's
    /// box forces a layout, so it happens only when the window changed.
    static MEASURED_FOR: std::cell::Cell<(f64, f64)> = const { std::cell::Cell::new((0.0, 0.0)) };
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
/// window was resized, and only if the size changed: assigning a canvas's
/// size clears it and costs a layout) and returns a backend.
pub fn backend(node: &NodeRef, font_px: u32) -> Option<(CanvasBackend, u32)> {
    let canvas: web_sys::HtmlCanvasElement = node.cast()?;
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    // A canvas keeps its default 300px width until measured once.
    let stale = MEASURED_FOR.with(|m| m.get() != window_size()) || canvas.width() == 300;
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

/// Marks the canvases measured for the current window size.
fn measured() {
    MEASURED_FOR.with(|m| m.set(window_size()));
}

fn series_points(sim: &Simulation, f: impl Fn(&workqueue_core::sim::Sample) -> f64) -> Points {
    let s = sim.series();
    let complete = (sim.now() / s.width) as usize;
    s.samples
        .iter()
        .enumerate()
        .take(complete.max(1))
        .map(|(i, x)| (s.start_of(i) as f64 / SECOND as f64, f(x)))
        .collect()
}

/// The delays one key failing over and over would get from this limiter.
fn fresh_curve(sim: &Simulation) -> Vec<(u64, f64)> {
    // A freshly built limiter has seen no key: any id is a first-time key.
    let mut limiter = sim.limiter_config().build();
    let probe = ItemId(0);
    (1..=20)
        .map(|n| (n, limiter.when(probe, 0) as f64 / 1e9))
        .collect()
}

fn draw_all(sim: &Simulation, selected: Option<&str>, nodes: &[NodeRef; 4]) {
    for which in 0..4 {
        draw_one(sim, selected, nodes, which);
    }
    measured();
}

fn draw_one(sim: &Simulation, selected: Option<&str>, nodes: &[NodeRef; 4], which: usize) {
    let base = theme();
    let secs = sim.series().width as f64 / SECOND as f64;
    if which == 0 {
        let Some((b, px)) = backend(&nodes[0], base.font_px) else {
            return;
        };
        let r = series_points(sim, |s| s.requeues as f64 / secs);
        let _ = requeues::draw(
            &b.into_drawing_area(),
            &base.scaled(px),
            &[("requeues/s", &r)],
        );
    }
    if let Some((b, px)) = backend(&nodes[1], base.font_px) {
        let d = series_points(sim, |s| s.depth as f64);
        let w = series_points(sim, |s| s.waiting as f64);
        let _ = depth::draw(&b.into_drawing_area(), &base.scaled(px), &d, &w);
    }
    if which == 2 {
        let Some((b, px)) = backend(&nodes[2], base.font_px) else {
            return;
        };
        let t = series_points(sim, |s| s.tokens as f64);
        let burst = sim
            .middleware()
            .map(|m| m.global.burst())
            .or_else(|| sim.queue().limiter().bucket().map(|b| b.burst()))
            .unwrap_or(0) as f64;
        let _ = bucket::draw(&b.into_drawing_area(), &base.scaled(px), &t, burst);
    }
    if which == 3 {
        let Some((b, px)) = backend(&nodes[3], base.font_px) else {
            return;
        };
        let curve = fresh_curve(sim);
        let observed: Vec<(u64, f64)> = selected
            .and_then(|k| sim.find(k))
            .map(|id| {
                sim.item(id)
                    .retries
                    .iter()
                    .map(|r| (r.failures_before + 1, r.delay as f64 / 1e9))
                    .collect()
            })
            .unwrap_or_default();
        let label = format!("one key, {}", sim.limiter_config().label());
        let mut series: Vec<(&str, &[(u64, f64)])> = vec![(label.as_str(), &curve)];
        let observed_label = format!("{} (observed)", selected.unwrap_or(""));
        if !observed.is_empty() {
            series.push((observed_label.as_str(), &observed));
        }
        let _ = backoff::draw(&b.into_drawing_area(), &base.scaled(px), &series);
    }
}

#[function_component(Charts)]
pub fn charts() -> Html {
    let state = use_playground();
    let nodes: [NodeRef; 4] = [
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
    ];
    // (last draw time, selection then, next chart in the round-robin)
    let last = use_mut_ref(|| (f64::NEG_INFINITY, None::<String>, 0usize));
    {
        let nodes = nodes.clone();
        let state = state.clone();
        use_effect(move || {
            let t = now_ms();
            let mut last = last.borrow_mut();
            let changed_selection = last.1 != state.selected;
            if !state.playing || changed_selection {
                // Paused or a new selection: everything at once, it is one frame.
                *last = (t, state.selected.clone(), last.2);
                draw_all(&state.sim.borrow(), state.selected.as_deref(), &nodes);
            } else if t - last.0 >= REDRAW_ONE_MS {
                let which = last.2;
                *last = (t, state.selected.clone(), (which + 1) % 4);
                draw_one(
                    &state.sim.borrow(),
                    state.selected.as_deref(),
                    &nodes,
                    which,
                );
                if which == 3 {
                    measured();
                }
            }
        });
    }
    html! {
        <section class="charts" aria-label="Charts">
            <figure class="chart">
                <figcaption>{"Requeues per second "}<small>{"keys re-entering the queue after a delay · x: virtual time (s)"}</small></figcaption>
                <canvas ref={nodes[0].clone()} data-testid="chart-requeues" role="img" aria-label="Requeues per second over virtual time"></canvas>
            </figure>
            <figure class="chart">
                <figcaption>{"Queue depth and waiting "}<small><span class="swatch s0"></span>{"Len() "}<span class="swatch s1"></span>{"waiting heap"}</small></figcaption>
                <canvas ref={nodes[1].clone()} data-testid="chart-depth" role="img" aria-label="Queue depth and waiting keys over virtual time"></canvas>
            </figure>
            <figure class="chart">
                <figcaption>{"Token bucket "}<small>{"tokens (below 0: debt) · dashed: burst"}</small></figcaption>
                <canvas ref={nodes[2].clone()} data-testid="chart-bucket" role="img" aria-label="Token bucket level over virtual time"></canvas>
            </figure>
            <figure class="chart">
                <figcaption>{"Delay per failure "}<small>{"log scale · x: failure number · "}<span class="swatch s0"></span>{"one key failing every time "}<span class="swatch s1"></span>{"the selected key"}</small></figcaption>
                <canvas ref={nodes[3].clone()} data-testid="chart-backoff" role="img" aria-label="Delay per failure number, log scale"></canvas>
            </figure>
        </section>
    }
}
