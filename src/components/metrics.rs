//! The metrics a Prometheus scrape would see, under their real names.

use workqueue_core::MetricsSnapshot;
use workqueue_core::ResultLabel;
use yew::prelude::*;

use super::breakable::{breakable, METRIC};

use crate::format;

#[derive(Properties, PartialEq)]
pub struct MetricsProps {
    /// The scrape to show.
    pub snapshot: MetricsSnapshot,
    /// Whose it is, when the run has several controllers.
    #[prop_or_default]
    pub controller: Option<AttrValue>,
}

#[function_component(Metrics)]
pub fn metrics(props: &MetricsProps) -> Html {
    let m = &props.snapshot;
    let row = |name: &str, value: String, help: &str| {
        html! {
            <tr title={help.to_string()}><td class="mono">{ breakable(name, METRIC) }</td><td class="mono num" data-metric={name.to_string()}>{ value }</td></tr>
        }
    };
    let c = &m.controller;
    html! {
        <section class="panel metrics" aria-label="Metrics">
            <h2>{ match &props.controller { Some(name) => format!("Metrics of {name}"), None => "Metrics".to_string() } }</h2>
            <table>
                <tbody>
                    { row("workqueue_depth", m.workqueue_depth.to_string(), "+1 when a key becomes dirty (priority queue: ready), −1 per Get") }
                    { for m.workqueue_depth_by_priority.iter().map(|(p, v)| row(&format!("workqueue_depth{{priority=\"{p}\"}}"), v.to_string(), "the priority queue's depth, per priority")) }
                    { row("workqueue_adds_total", format::count(m.workqueue_adds_total), "adds that made a key dirty") }
                    { row("workqueue_retries_total", format::count(m.workqueue_retries_total), "every accepted AddAfter / AddRateLimited") }
                    { row("workqueue_queue_duration_seconds (count / sum)", format!("{} / {}", format::count(m.workqueue_queue_duration_seconds_count), format::seconds(m.workqueue_queue_duration_seconds_sum)), "from dirty to Get") }
                    { row("workqueue_work_duration_seconds (count / sum)", format!("{} / {}", format::count(m.workqueue_work_duration_seconds_count), format::seconds(m.workqueue_work_duration_seconds_sum)), "from Get to Done") }
                    { row("workqueue_unfinished_work_seconds", format::seconds(m.workqueue_unfinished_work_seconds), "sum of the ages of in-flight reconciles") }
                    { row("workqueue_longest_running_processor_seconds", format::seconds(m.workqueue_longest_running_processor_seconds), "age of the oldest in-flight reconcile") }
                    { for ResultLabel::ALL.iter().map(|l| row(&format!("controller_runtime_reconcile_total{{result=\"{}\"}}", l.as_str()), format::count(c.total(*l)), "reconciles by result")) }
                    { row("controller_runtime_reconcile_errors_total", format::count(c.reconcile_errors_total), "") }
                    { row("controller_runtime_terminal_reconcile_errors_total", format::count(c.terminal_reconcile_errors_total), "") }
                    { row("controller_runtime_reconcile_timeouts_total", format::count(c.reconcile_timeouts_total), "v0.23+: reconciles whose ReconciliationTimeout fired") }
                    { row("controller_runtime_active_workers", c.active_workers.to_string(), "") }
                    { row("controller_runtime_max_concurrent_reconciles", c.max_concurrent_reconciles.to_string(), "") }
                </tbody>
            </table>
        </section>
    }
}
