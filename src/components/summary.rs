//! The numbers a controller author asks of a run: how long until every key
//! converged, where the time went, the rates and their peaks, what held
//! the run back and the deepest queue (the
//! core's [`Summary`], also printed by `wqsim --summary`).

use workqueue_core::Duration;
use workqueue_core::Summary;
use yew::prelude::*;

use crate::format;

#[derive(Properties, PartialEq)]
pub struct RunSummaryProps {
    pub summary: Summary,
}

#[function_component(RunSummary)]
pub fn run_summary(props: &RunSummaryProps) -> Html {
    let s = &props.summary;
    let row = |label: &str, value: String, id: &str| {
        html! {
            <tr><th scope="row">{ label.to_string() }</th><td class="mono num" data-summary={id.to_string()}>{ value }</td></tr>
        }
    };
    let t = s.time_spent;
    let spent = [
        ("queued, waiting for a worker", t.queued, "queued"),
        ("backing off (per-key limiter)", t.backoff, "backoff"),
        ("waiting for a token bucket", t.bucket, "bucket"),
        (
            "waiting out a RequeueAfter",
            t.requeue_after,
            "requeue_after",
        ),
        ("waiting for the API client's limit", t.client, "client"),
        ("reconciling", t.reconciling, "reconciling"),
    ];
    let total: Duration = spent.iter().map(|(_, d, _)| *d).sum();
    html! {
        <section class="panel summary" aria-label="Summary of the run" data-testid="summary">
            <h2>{ format!("The run at {}", format::clock(s.at)) }</h2>
            <table>
                <tbody>
                    { row("Keys converged", format!("{} of {}", format::count(s.converged_keys), format::count(s.keys)), "converged") }
                    { match s.time_to_converge {
                        Some(c) => row("Time to converge (p50 · p95 · max)", format!("{} · {} · {}", format::about(c.p50), format::about(c.p95), format::about(c.max)), "time-to-converge"),
                        None => row("Time to converge", "no key yet".into(), "time-to-converge"),
                    } }
                    { row("Last key converged", s.last_converged_at.map_or_else(|| "not yet".to_string(), |t| format::about(t.since_t0())), "last-converged") }
                    { row("Reconciles per second", format!("{:.2}", s.reconciles_per_second), "reconciles-per-second") }
                    { for s.requests.iter().filter(|k| k.requests > 0).map(|k| html! { <>
                        { row(&format!("API requests, {}", workqueue_core::shown(&k.kind)), format!("{} ({:.2}/s)", format::count(k.requests), k.per_second), "requests") }
                        // The rate a limit meets is the peak, not the mean.
                        { row(&format!("Peak rate, {} ({} samples)", workqueue_core::shown(&k.kind), format::about(s.request_series.width)), format!("{:.2}/s at {}", k.peak_per_second, format::about(k.peak_at.since_t0())), "peak") }
                    </> }) }
                    { match &s.held_back_by {
                        // (A sentence: it wraps, unlike the figures.)
                        Some(h) => html! {
                            <tr><th scope="row">{"What held the run back"}</th><td class="held-back" data-summary="held-back">{ format!("{}: {}", h.limit, workqueue_core::shown(&h.what)) }</td></tr>
                        },
                        None => html! {},
                    } }
                    { row("Deepest queue", format::count(s.deepest_queue), "deepest-queue") }
                </tbody>
            </table>
            <h3>{"Where the keys' time went (all keys together)"}</h3>
            <table class="spent">
                <tbody>
                    { for spent.iter().map(|(label, d, id)| {
                        let share = if total > Duration::ZERO { d.as_nanos() as f64 / total.as_nanos() as f64 * 100.0 } else { 0.0 };
                        html! {
                            <tr><th scope="row">{ *label }</th><td class="mono num" data-summary={*id}>{ format::about(*d) }</td><td class="mono num">{ format!("{share:.0}%") }</td></tr>
                        }
                    }) }
                </tbody>
            </table>
        </section>
    }
}
