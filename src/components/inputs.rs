//! What happens to the controller from outside: adds, many keys at once, a
//! watch-event storm on one key, periodic resync.

use workqueue_core::{parse_go_duration, Input};
use yew::prelude::*;

use super::{event_value, use_playground};
use crate::state::{Action, Notice, NoticeKind};

#[function_component(Inputs)]
pub fn inputs() -> Html {
    let state = use_playground();
    let key = use_state(|| "default/web-1".to_string());
    let count = use_state(|| "100".to_string());
    let storm_key = use_state(|| "default/web-1".to_string());
    let rate = use_state(|| "50".to_string());
    let storm_for = use_state(|| "2s".to_string());
    let resync = use_state(|| "30s".to_string());
    let bind = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: InputEvent| h.set(event_value(&e)))
    };
    let d = state.dispatcher();
    let fail = {
        let d = d.clone();
        move |text: String| {
            d.dispatch(Action::Notify(Some(Notice {
                kind: NoticeKind::Error,
                text,
            })))
        }
    };

    let add = {
        let (d, key) = (d.clone(), key.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            d.dispatch(Action::Input(Input::Add {
                key: key.trim().to_string(),
            }));
        })
    };
    let add_many = {
        let (d, count, fail) = (d.clone(), count.clone(), fail.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match count.trim().parse::<u64>() {
                Ok(n) if n > 0 => d.dispatch(Action::Input(Input::AddMany {
                    prefix: "default/pod-".into(),
                    count: n,
                })),
                _ => fail(format!(
                    "{:?} is not a number of keys (1 to 50,000)",
                    *count
                )),
            }
        })
    };
    let storm = {
        let (d, k, rate, dur, fail) = (
            d.clone(),
            storm_key.clone(),
            rate.clone(),
            storm_for.clone(),
            fail.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let per_second = rate.trim().parse::<f64>();
            let duration = parse_go_duration(&dur);
            match (per_second, duration) {
                (Ok(per_second), Ok(duration_ns)) => {
                    d.dispatch(Action::Input(Input::WatchEvents {
                        key: k.trim().to_string(),
                        per_second,
                        duration_ns,
                    }))
                }
                (Err(_), _) => fail(format!("{:?} is not a number of events per second", *rate)),
                (_, Err(e)) => fail(e.to_string()),
            }
        })
    };
    let resync_active = state
        .sim
        .borrow()
        .sources()
        .any(|(s, _)| matches!(s, workqueue_core::scenario::Source::Resync { .. }));
    let toggle_resync = {
        let (d, period, fail) = (d.clone(), resync.clone(), fail.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if resync_active {
                d.dispatch(Action::Input(Input::Resync { period_ns: None }));
            } else {
                match parse_go_duration(&period) {
                    Ok(p) => d.dispatch(Action::Input(Input::Resync { period_ns: Some(p) })),
                    Err(e) => fail(e.to_string()),
                }
            }
        })
    };
    html! {
        <section class="panel inputs" aria-label="Inputs">
            <h2>{"Events"}</h2>
            <form class="row" onsubmit={add}>
                <label for="in-key" class="sr-only">{"Key to add"}</label>
                <input id="in-key" data-testid="key" type="text" value={(*key).clone()} oninput={bind(&key)} spellcheck="false" />
                <button type="submit" class="primary" data-testid="add">{"queue.Add"}</button>
            </form>
            <form class="row" onsubmit={add_many}>
                <label for="in-count">{"Add"}</label>
                <input id="in-count" data-testid="count" class="num" type="text" inputmode="numeric" value={(*count).clone()} oninput={bind(&count)} />
                <button type="submit" data-testid="add-many">{"distinct keys"}</button>
            </form>
            <form class="row wrap" onsubmit={storm}>
                <label for="in-storm-key">{"Watch storm on"}</label>
                <input id="in-storm-key" type="text" value={(*storm_key).clone()} oninput={bind(&storm_key)} spellcheck="false" />
                <label for="in-rate" class="sr-only">{"events per second"}</label>
                <input id="in-rate" class="num" type="text" value={(*rate).clone()} oninput={bind(&rate)} />
                <span class="unit">{"/s for"}</span>
                <label for="in-storm-for" class="sr-only">{"storm duration"}</label>
                <input id="in-storm-for" class="num" type="text" value={(*storm_for).clone()} oninput={bind(&storm_for)} />
                <button type="submit" data-testid="storm">{"Fire"}</button>
            </form>
            <form class="row" onsubmit={toggle_resync}>
                <label for="in-resync">{"Resync every"}</label>
                <input id="in-resync" class="num" type="text" value={(*resync).clone()} oninput={bind(&resync)} disabled={resync_active} />
                <button type="submit">{ if resync_active { "Stop resync" } else { "Start resync" } }</button>
            </form>
        </section>
    }
}
