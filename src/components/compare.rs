//! The articles' figure, live: the same 10,000 failing keys under per-item
//! only, bucket only and client-go's default, requeues per second side by side.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use workqueue_charts::{requeues, Points};
use workqueue_core::{LimiterConfig, QueueKind, Scenario, Simulation, MILLISECOND, SECOND};
use yew::prelude::*;

/// Requeues per second over `secs` seconds for 10,000 always-failing keys.
pub fn herd(queue: QueueKind, limiter: LimiterConfig, secs: i64) -> Points {
    let mut s = Scenario::failing_keys(limiter, 10_000);
    s.controllers[0].queue = queue;
    s.sample_ns = 100 * MILLISECOND;
    s.duration_ns = secs * SECOND;
    let Ok(mut sim) = Simulation::new(&s) else {
        return Vec::new();
    };
    sim.set_log_capacity(0);
    sim.run_to_end();
    let series = sim.series();
    let w = series.width as f64 / SECOND as f64;
    series
        .samples
        .iter()
        .enumerate()
        .take((secs * SECOND / series.width) as usize)
        .map(|(i, x)| (series.start_of(i) as f64 / 1e9, x.requeues as f64 / w))
        .collect()
}

#[function_component(Compare)]
pub fn compare() -> Html {
    let canvases = [
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
    ];
    let runs = use_memo((), |_| {
        let per_item = LimiterConfig::Exponential {
            base_ns: 5 * MILLISECOND,
            max_ns: 1000 * SECOND,
        };
        let bucket = LimiterConfig::Bucket {
            qps: 10.0,
            burst: 100,
        };
        vec![
            ("per-item only", herd(QueueKind::ClientGo, per_item, 4)),
            ("bucket only", herd(QueueKind::ClientGo, bucket, 4)),
            (
                "max-of (default to v0.22)",
                herd(QueueKind::ClientGo, LimiterConfig::DefaultController, 4),
            ),
            (
                "v0.23 default: priority queue, per-item only",
                herd(
                    QueueKind::Priority,
                    QueueKind::Priority.default_limiter(),
                    4,
                ),
            ),
        ]
    });
    let error = use_state(|| None::<String>);
    // One scale for the four plots (the default: the difference is the
    // point), or each its own (the shape of each).
    let shared = use_state(|| true);
    {
        let canvases = canvases.clone();
        let runs = runs.clone();
        let error = error.clone();
        let shared = *shared;
        use_effect(move || {
            let mut failed = None;
            let ratio = web_sys::window()
                .map_or(1.0, |w| w.device_pixel_ratio())
                .clamp(1.0, 3.0);
            let mut theme = super::charts::theme();
            theme.titles = true;
            for (i, node) in canvases.iter().enumerate() {
                let Some(c) = node.cast::<web_sys::HtmlCanvasElement>() else {
                    continue;
                };
                c.set_width((c.client_width().max(200) as f64 * ratio) as u32);
                c.set_height((c.client_height().max(160) as f64 * ratio) as u32);
                let mut t = theme.scaled((theme.font_px as f64 * ratio) as u32);
                t.series[0] = theme.series[i];
                if let Some(b) = CanvasBackend::with_canvas_object(c) {
                    let (name, points) = &runs[i];
                    let scale: Vec<&Points> = if shared {
                        runs.iter().map(|(_, p)| p).collect()
                    } else {
                        Vec::new()
                    };
                    if let Err(e) = requeues::draw_on_scale(
                        &b.into_drawing_area(),
                        &t,
                        &[(name, points)],
                        &scale,
                    ) {
                        failed.get_or_insert(format!("the {name} chart could not be drawn: {e}"));
                    }
                }
            }
            if failed != *error {
                error.set(failed);
            }
        });
    }
    let first_second = |p: &Points| {
        p.iter()
            .filter(|(t, _)| *t < 1.0)
            .map(|(_, y)| y * 0.1)
            .sum::<f64>()
    };
    html! {
        <section class="compare" aria-label="10,000 failing keys under four limiters" data-testid="compare" data-pages="">
            <p class="hint">{"The same input, 10,000 keys failing at t=0 with instant reconciles, under client-go's three limiters and under controller-runtime v0.23's default."}</p>
            <label class="check"><input type="checkbox" checked={*shared} data-testid="compare-shared-scale"
                onchange={let s = shared.clone(); Callback::from(move |_| s.set(!*s))} />{" one scale for all four plots"}</label>
            <div class="multiples" data-pages="">
                { for runs.iter().enumerate().map(|(i, (name, points))| html! {
                    <figure>
                        <canvas ref={canvases[i].clone()} role="img" aria-label={format!("Requeues per second, {name}")}></canvas>
                        <figcaption><strong>{ *name }</strong>{ format!(": {} requeues in the first second", crate::format::count(first_second(points).round() as u64)) }</figcaption>
                    </figure>
                }) }
            </div>
            { if let Some(e) = &*error { html! { <p class="error" role="alert">{ e.clone() }</p> } } else { html! {} } }
            <p class="hint" data-testid="compare-totals">{ format!(
                "Requeues in the first second: per-item only {}, bucket only {}, max-of {}, v0.23 default {}.",
                crate::format::count(first_second(&runs[0].1).round() as u64),
                crate::format::count(first_second(&runs[1].1).round() as u64),
                crate::format::count(first_second(&runs[2].1).round() as u64),
                crate::format::count(first_second(&runs[3].1).round() as u64)
            ) }</p>
        </section>
    }
}
