//! Per-key scripts: how this key's reconciles turn out, for hands-off runs.

use workqueue_core::Outcome;
use workqueue_core::Script;
use yew::prelude::*;

use super::event_value;
use crate::settings::outcome_list::parse_outcomes;

#[derive(Properties, PartialEq)]
pub struct KeyScriptProps {
    pub key_name: String,
    /// Called with the script chosen for the key.
    pub on_set: Callback<Script>,
}

#[function_component(KeyScript)]
pub fn key_script(props: &KeyScriptProps) -> Html {
    let kind = use_state(|| "fail".to_string());
    let arg = use_state(|| "3".to_string());
    let parsed: Result<Script, String> = match kind.as_str() {
        "live" => Ok(Script::Live),
        "success" => Ok(Script::Always {
            outcome: Outcome::Success,
        }),
        "fail" => arg
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("{:?} is not a number of failures", *arg))
            .and_then(|n| workqueue_core::Failures::new(n).map_err(|e| e.to_string()))
            .map(|failures| Script::FailThenSucceed { failures }),
        "list" => parse_outcomes(&arg).map(|outcomes| Script::Sequence {
            outcomes,
            then: Outcome::Success,
        }),
        _ => match arg.trim().parse::<f64>() {
            Ok(p) => workqueue_core::Probability::new(p)
                .map(|error_probability| Script::Random {
                    error_probability,
                    otherwise: Outcome::Success,
                })
                .map_err(|_| format!("{:?} is not a probability between 0 and 1", *arg)),
            _ => Err(format!("{:?} is not a probability between 0 and 1", *arg)),
        },
    };
    let on_kind = {
        let (kind, arg) = (kind.clone(), arg.clone());
        Callback::from(move |e: Event| {
            let k = event_value(&e);
            arg.set(match k.as_str() {
                "list" => "error, error, success".into(),
                "random" => "0.5".into(),
                _ => "3".into(),
            });
            kind.set(k);
        })
    };
    let on_arg = super::keep_typed(&arg);
    let submit = {
        let on_set = props.on_set.clone();
        let script = parsed.clone().ok();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(script) = script.clone() {
                on_set.emit(script);
            }
        })
    };
    let needs_arg = matches!(kind.as_str(), "fail" | "list" | "random");
    html! {
        <form class="key-script" onsubmit={submit} aria-label={format!("Script for {}", props.key_name)}>
            <label for="ks-kind">{"This key's reconciles"}</label>
            <div class="row">
                <select id="ks-kind" onchange={on_kind} data-testid="key-script">
                    <option value="fail" selected={*kind == "fail"}>{"fail N times, then succeed"}</option>
                    <option value="list" selected={*kind == "list"}>{"follow a list"}</option>
                    <option value="random" selected={*kind == "random"}>{"fail with probability"}</option>
                    <option value="success" selected={*kind == "success"}>{"always succeed"}</option>
                    <option value="live" selected={*kind == "live"}>{"I decide"}</option>
                </select>
                { if needs_arg { html! {
                    <input type="text" value={(*arg).clone()} oninput={on_arg} aria-label="script parameter" data-testid="key-script-arg" spellcheck="false" />
                } } else { html! {} } }
                <button type="submit" disabled={parsed.is_err()} data-testid="key-script-set">{"Set"}</button>
            </div>
            { if let Err(e) = &parsed { html! { <small class="error">{ e.clone() }</small> } } else { html! {} } }
        </form>
    }
}
