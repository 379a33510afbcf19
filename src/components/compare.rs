//! Four limiters side by side, requeues per second on one scale: the
//! articles' figure (10,000 failing keys) or the scenario on the stage,
//! replayed with what was done under each limiter.

use std::rc::Rc;
use workqueue_core::Span;

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use workqueue_charts::{requeues, Points};
use workqueue_core::{Instant, LimiterConfig, QueueKind, Simulation, MILLISECOND, SECOND};
use workqueue_lessons::storm::{self, limiters, per_second, Plot, STORM_SECONDS};
use yew::prelude::*;

use crate::share::Shared;

/// Work units one limiter's replay of the stage's run may spend: a few
/// hundred milliseconds in the page at most, then the plot stops there.
pub const OWN_BUDGET: u64 = 2_000_000;

/// The stage's run when the comparison was opened (compared by identity:
/// it is a snapshot, never rebuilt while the dialog is open).
#[derive(Clone)]
pub struct OwnRun(pub Rc<Shared>);

impl PartialEq for OwnRun {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// One limiter's replay of the stage's run.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnPlot {
    pub points: Points,
    /// The instant the replay reached (the run's instant, unless the budget
    /// ran out first).
    pub reached: Instant,
    /// Recorded inputs this limiter's run could not take (a decision for a
    /// key that was not waiting for one at that instant).
    pub skipped: usize,
}

/// The window a replay of `run` plots: to the run's instant, at least 4 s.
pub fn own_window(run: &Shared) -> Instant {
    run.run.run_to.max(Instant::T0 + 4 * SECOND)
}

/// The stage's one-controller run under `queue` and `limiter`: its
/// scenario, its recorded inputs at their instants, to [`own_window`],
/// within `budget` work units.
pub fn own_storm(run: &Shared, queue: QueueKind, limiter: LimiterConfig, budget: u64) -> OwnPlot {
    let window = own_window(run);
    let mut s = run.run.scenario.clone();
    s.controllers[0].queue = queue;
    s.controllers[0].limiter = Some(limiter);
    // About 400 samples over the window, never finer than 100 ms.
    s.sample_ns = Span::saturating((window.since_t0() / 400).max(100 * MILLISECOND));
    s.duration_ns = s.duration_ns.max(Span::saturating(window.since_t0()));
    let empty = OwnPlot {
        points: Vec::new(),
        reached: Instant::T0,
        skipped: 0,
    };
    let Ok(mut sim) = Simulation::new(&s) else {
        return empty;
    };
    sim.set_log_capacity(0);
    let mut left = budget;
    let mut skipped = 0;
    let mut spent = false;
    for (at, input) in run.run.inputs.iter().filter(|(at, _)| *at <= window) {
        if !sim.run_until_bounded(*at, left) {
            spent = true;
            break;
        }
        left = sim.budget_left();
        if sim.apply_bounded(input.clone(), left).is_err() {
            skipped += 1;
        }
        left = sim.budget_left().min(left.saturating_sub(1));
    }
    if !spent {
        sim.run_until_bounded(window, left);
    }
    let reached = sim.now();
    OwnPlot {
        points: per_second(&sim, reached),
        reached,
        skipped,
    }
}

/// Which storm the four limiters run.
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// The stage's run (the toolbar's comparison): offered first when it
    /// has keys. Lessons show the articles' figure alone.
    #[prop_or_default]
    pub own: Option<OwnRun>,
    /// The articles' storm as the lesson was read with it (see
    /// [`storm`]); computed here, once, where none came.
    #[prop_or_default]
    pub articles: Vec<Plot>,
}

/// Whether a run has anything to compare: keys in its scenario or its inputs.
fn has_keys(run: &Shared) -> bool {
    let c = &run.run.scenario.controllers;
    c.len() == 1
        && (!c[0].items.is_empty() || !c[0].sources.is_empty() || !run.run.inputs.is_empty())
}

#[function_component(Compare)]
pub fn compare(props: &CompareProps) -> Html {
    let canvases = [
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
    ];
    let own = props.own.clone().filter(|o| has_keys(&o.0));
    // The stage's run first when there is one; the articles' storm otherwise.
    let yours = use_state(|| own.is_some());
    let use_own = *yours && own.is_some();
    let runs = use_memo(
        (own.clone(), use_own, props.articles.clone()),
        |(own, use_own, articles)| match own.as_ref().filter(|_| *use_own) {
            Some(run) => limiters()
                .into_iter()
                .map(|(name, queue, limiter)| {
                    (
                        name.to_string(),
                        own_storm(&run.0, queue, limiter, OWN_BUDGET),
                    )
                })
                .collect::<Vec<_>>(),
            None => {
                let articles = if articles.is_empty() {
                    storm::articles()
                } else {
                    articles.clone()
                };
                articles
                    .into_iter()
                    .map(|p| {
                        let plot = OwnPlot {
                            points: p.points,
                            reached: Instant::T0 + STORM_SECONDS * SECOND,
                            skipped: 0,
                        };
                        (p.name, plot)
                    })
                    .collect()
            }
        },
    );
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
            // In a room the page is zoomed to the screen: the plots are
            // drawn at that scale (crisp), their words at the room's type
            // floor (16 px at 768 lines), not the desktop's 12 px.
            let room = room_zoom();
            let ratio = ratio * room.unwrap_or(1.0);
            let mut theme = super::charts::theme();
            theme.titles = true;
            if room.is_some() {
                theme.font_px = theme.font_px.max(16);
            }
            for (i, node) in canvases.iter().enumerate() {
                let Some(c) = node.cast::<web_sys::HtmlCanvasElement>() else {
                    continue;
                };
                c.set_width((c.client_width().max(200) as f64 * ratio) as u32);
                c.set_height((c.client_height().max(160) as f64 * ratio) as u32);
                let mut t = theme.scaled((theme.font_px as f64 * ratio) as u32);
                t.series[0] = theme.series[i];
                if let Some(b) = CanvasBackend::with_canvas_object(c) {
                    let (name, plot) = &runs[i];
                    let points = &plot.points;
                    let scale: Vec<&Points> = if shared {
                        runs.iter().map(|(_, p)| &p.points).collect()
                    } else {
                        Vec::new()
                    };
                    if let Err(e) = requeues::draw_on_scale(
                        &b.into_drawing_area(),
                        &t,
                        &[(name.as_str(), points)],
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
            .map(|(t, y)| y * step_of(p, *t))
            .sum::<f64>()
    };
    let total = |p: &Points| {
        p.windows(2)
            .map(|w| w[0].1 * (w[1].0 - w[0].0))
            .sum::<f64>()
    };
    let choose = |own: bool| {
        let yours = yours.clone();
        Callback::from(move |_| yours.set(own))
    };
    let window = own.as_ref().map(|o| own_window(&o.0));
    let intro = match (use_own, window) {
        (true, Some(w)) => format!(
            "Your scenario, with everything you did replayed at its instant, from 0 to {}, under client-go's three limiters (default settings) and controller-runtime v0.23's default.",
            crate::format::clock(w)
        ),
        _ => "The same input, 10,000 keys failing at t=0 with instant reconciles, under client-go's three limiters and under controller-runtime v0.23's default.".to_string(),
    };
    let caption = |plot: &OwnPlot| {
        if use_own {
            let mut text = format!(
                ": {} requeues",
                crate::format::count(total(&plot.points).round() as u64)
            );
            if window.is_some_and(|w| plot.reached < w) {
                text += &format!(
                    ", stopped at {} (the rest is more than the page computes at once)",
                    crate::format::clock(plot.reached)
                );
            }
            if plot.skipped > 0 {
                text += &format!(
                    "; {} of your decisions did not apply (the key was not waiting then)",
                    plot.skipped
                );
            }
            text
        } else {
            format!(
                ": {} requeues in the first second",
                crate::format::count(first_second(&plot.points).round() as u64)
            )
        }
    };
    html! {
        <section class="compare" aria-label="The same storm under four limiters" data-testid="compare" data-pages="">
            { if own.is_some() { html! {
                <div class="segmented" role="radiogroup" aria-label="Which storm">
                    <button role="radio" aria-checked={use_own.to_string()} class={classes!(use_own.then_some("on"))} onclick={choose(true)} data-testid="compare-yours">{"Your scenario"}</button>
                    <button role="radio" aria-checked={(!use_own).to_string()} class={classes!((!use_own).then_some("on"))} onclick={choose(false)} data-testid="compare-articles">{"The articles' 10,000 keys"}</button>
                </div>
            } } else { html! {} } }
            <p class="hint" data-testid="compare-intro">{ intro }</p>
            <label class="check"><input type="checkbox" checked={*shared} data-testid="compare-shared-scale"
                onchange={let s = shared.clone(); Callback::from(move |_| s.set(!*s))} />{" one scale for all four plots"}</label>
            <div class="multiples" data-pages="">
                { for runs.iter().enumerate().map(|(i, (name, plot))| html! {
                    // Each plot's name over it (four plots with one title
                    // and their names under them read against the wrong row).
                    <figure>
                        <figcaption><strong>{ name.clone() }</strong>{ caption(plot) }</figcaption>
                        <canvas ref={canvases[i].clone()} role="img" aria-label={format!("Requeues per second, {name}")}></canvas>
                    </figure>
                }) }
            </div>
            { if let Some(e) = &*error { html! { <p class="error" role="alert">{ e.clone() }</p> } } else { html! {} } }
            { if use_own { html! {} } else { html! {
                <p class="hint" data-testid="compare-totals">{ format!(
                    "Requeues in the first second: per-item only {}, bucket only {}, max-of {}, v0.23 default {}.",
                    crate::format::count(first_second(&runs[0].1.points).round() as u64),
                    crate::format::count(first_second(&runs[1].1.points).round() as u64),
                    crate::format::count(first_second(&runs[2].1.points).round() as u64),
                    crate::format::count(first_second(&runs[3].1.points).round() as u64)
                ) }</p>
            } } }
        </section>
    }
}

/// The width (s) of the sample starting at `t` in `p`.
fn step_of(p: &Points, t: f64) -> f64 {
    p.iter()
        .position(|(x, _)| *x == t)
        .and_then(|i| p.get(i + 1).map(|(next, _)| next - t))
        .unwrap_or(0.1)
}

/// The room's zoom (`--room` on `body.room`), where the page is a room.
fn room_zoom() -> Option<f64> {
    let w = web_sys::window()?;
    let body = w.document()?.body()?;
    if !body.class_list().contains("room") {
        return None;
    }
    let zoom = w
        .get_computed_style(&body)
        .ok()??
        .get_property_value("--room")
        .ok()?;
    Some(
        zoom.trim()
            .parse::<f64>()
            .ok()
            .filter(|z| *z > 0.0)
            .unwrap_or(1.0)
            .clamp(0.25, 4.0),
    )
}

#[cfg(test)]
mod tests {
    use workqueue_core::KeyCount;
    use workqueue_core::{Input, Scenario};

    use super::*;

    fn run_of(scenario: Scenario, inputs: Vec<(Instant, Input)>, at: Instant) -> Shared {
        Shared {
            run: workqueue_core::Run {
                scenario,
                inputs,
                run_to: at,
            },
            lesson: None,
            selected: None,
        }
    }

    /// The stage's own keys are what the limiters run: a failing key added
    /// by hand at 1 s requeues under every limiter, none before it.
    #[test]
    fn the_stage_run_is_replayed_under_each_limiter() {
        let mut s = Scenario::new("mine");
        s.controllers[0].default_script = workqueue_core::Script::Always {
            outcome: workqueue_core::Outcome::Error,
        };
        let inputs = vec![(
            Instant::T0 + SECOND,
            Input::AddMany {
                prefix: "k".into(),
                count: KeyCount::lit(50),
            },
        )];
        let run = run_of(s, inputs, Instant::T0 + 6 * SECOND);
        assert_eq!(own_window(&run), Instant::T0 + 6 * SECOND);
        for (name, queue, limiter) in limiters() {
            let plot = own_storm(&run, queue, limiter, OWN_BUDGET);
            assert_eq!(plot.reached, Instant::T0 + 6 * SECOND, "{name}");
            assert_eq!(plot.skipped, 0);
            let before: f64 = plot
                .points
                .iter()
                .filter(|(t, _)| *t < 1.0)
                .map(|(_, y)| y)
                .sum();
            let after: f64 = plot
                .points
                .iter()
                .filter(|(t, _)| *t >= 1.0)
                .map(|(_, y)| y)
                .sum();
            assert_eq!(before, 0.0, "{name}: nothing before the keys");
            assert!(after > 0.0, "{name}: the keys requeue");
        }
    }

    /// A run too big for the page stops at its budget and says where.
    #[test]
    fn a_replay_stops_at_its_budget() {
        let run = run_of(
            Scenario::failing_keys(LimiterConfig::DefaultController, KeyCount::lit(100_000)),
            vec![],
            Instant::T0 + 60 * SECOND,
        );
        let plot = own_storm(
            &run,
            QueueKind::ClientGo,
            LimiterConfig::DefaultController,
            10_000,
        );
        assert!(
            plot.reached < Instant::T0 + 60 * SECOND,
            "stopped at {:?}",
            plot.reached
        );
    }
}
