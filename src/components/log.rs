//! The event log: Go-like calls with virtual timestamps, filterable by key.
//! The simulation keeps the latest entries only, so memory stays bounded.

use yew::prelude::*;

use crate::format;
use crate::store::RunRef;

const SHOWN: usize = 150;
/// While the run plays, the log is rebuilt at most this often (ms): a list
/// that changes every frame costs the browser a layout every frame.
const REFRESH_MS: f64 = 250.0;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub run: RunRef,
    pub playing: bool,
}

#[function_component(EventLog)]
pub fn event_log(props: &EventLogProps) -> Html {
    let filter = use_state(String::new);
    let cache = use_mut_ref(|| (f64::NEG_INFINITY, String::new(), Html::default()));
    let t = crate::hooks::now_ms();
    {
        let c = cache.borrow();
        if props.playing && t - c.0 < REFRESH_MS && c.1 == *filter {
            return c.2.clone();
        }
    }
    let needle = filter.trim().to_string();
    let (lines, total): (Vec<(u64, String, String)>, u64) = props.run.sim(|sim| {
        let lines = sim
            .log()
            .iter()
            .rev()
            .map(|e| {
                (
                    e.seq,
                    format::dur(e.at.since_t0()),
                    workqueue_core::shown(&sim.describe(e)).into_owned(),
                )
            })
            .filter(|(_, _, text)| needle.is_empty() || text.contains(&needle))
            .take(SHOWN)
            .collect();
        (lines, sim.log_total())
    });
    let on_filter = super::keep_typed(&filter);
    let view = html! {
        <section class="panel log" aria-label="Event log">
            <div class="panel-head">
                <h2>{"Event log "}<small>{ format!("{} events", format::count(total)) }</small></h2>
                <label class="filter">{"filter "}
                    <input type="search" value={(*filter).clone()} oninput={on_filter} placeholder="key or call" data-testid="log-filter" />
                </label>
            </div>
            <ol class="entries mono" data-testid="log" reversed=true>
                { for lines.into_iter().map(|(seq, at, text)| html! {
                    <li key={seq}><span class="t">{ at }</span>{ text }</li>
                }) }
            </ol>
        </section>
    };
    *cache.borrow_mut() = (t, (*filter).clone(), view.clone());
    view
}
