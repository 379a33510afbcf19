//! The manager form: how many controllers, what they share, the API
//! client's limit, and what each reconcile does. A bad value is named under
//! the form; nothing reaches the run until it parses and validates.

use yew::prelude::*;

use super::event_value;
use crate::provider::{ClientChoice, Kind, Provider, Sharing, MAX_KINDS};
use workqueue_core::ClientScope;
use workqueue_core::QueueKind;

const KIND_NAMES: [&str; MAX_KINDS] = [
    "buckets",
    "queues",
    "topics",
    "databases",
    "clusters",
    "networks",
];

#[derive(Clone, PartialEq)]
struct Form {
    kinds: String,
    objects: String,
    sharing: String,
    r: String,
    qps: String,
    burst: String,
    client: String,
    /// "kind" (a bucket per kind) or "shared" (one for all).
    client_per: String,
    client_qps: String,
    client_burst: String,
    requests: String,
    failures: String,
    reconcile_ms: String,
    /// Per controller: not passed the shared bucket.
    opted_out: [bool; MAX_KINDS],
}

impl Default for Form {
    fn default() -> Self {
        let f = |s: &str| s.to_string();
        Form {
            kinds: f("3"),
            objects: f("1000"),
            sharing: f("crossplane"),
            r: f("10"),
            qps: f("10"),
            burst: f("100"),
            client: f("crossplane"),
            client_per: f("kind"),
            client_qps: f("20"),
            client_burst: f("30"),
            requests: f("3"),
            failures: f("3"),
            reconcile_ms: f("50"),
            opted_out: [false; MAX_KINDS],
        }
    }
}

fn number<T: std::str::FromStr>(field: &str, text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{field}: {text:?} is not {what}"))
}

impl Form {
    /// The form showing `p`, when its fields can: kinds named as the form
    /// names them, the same number of objects each.
    fn of(p: &Provider) -> Option<Form> {
        let objects = p.kinds.first()?.objects;
        let named = p.kinds.len() <= MAX_KINDS
            && p.kinds.iter().zip(KIND_NAMES).all(|(k, n)| k.name == n)
            && p.kinds.iter().all(|k| k.objects == objects)
            && p.seconds == 60
            && p.client_per != ClientScope::Clientset;
        if !named {
            return None;
        }
        let d = Form::default();
        let mut opted_out = [false; MAX_KINDS];
        for (o, k) in opted_out.iter_mut().zip(&p.kinds) {
            *o = !k.shares_bucket;
        }
        let (sharing, r, qps, burst) = match p.sharing {
            Sharing::Crossplane { r } => ("crossplane", r.to_string(), d.qps, d.burst),
            Sharing::Bucket { qps, burst } => ("bucket", d.r, qps.to_string(), burst.to_string()),
            Sharing::Nothing => ("nothing", d.r, d.qps, d.burst),
        };
        let (client, client_qps, client_burst) = match p.client {
            ClientChoice::Off => ("off", d.client_qps, d.client_burst),
            ClientChoice::V020 => ("v020", d.client_qps, d.client_burst),
            ClientChoice::Crossplane => ("crossplane", d.client_qps, d.client_burst),
            ClientChoice::Custom { qps, burst } => ("custom", qps.to_string(), burst.to_string()),
        };
        Some(Form {
            kinds: p.kinds.len().to_string(),
            objects: objects.to_string(),
            sharing: sharing.into(),
            r,
            qps,
            burst,
            client: client.into(),
            client_per: match p.client_per {
                ClientScope::Kind => "kind",
                _ => "shared",
            }
            .into(),
            client_qps,
            client_burst,
            requests: p.requests_per_reconcile.to_string(),
            failures: p.failures.to_string(),
            reconcile_ms: p.reconcile_ms.to_string(),
            opted_out,
        })
    }

    fn provider(&self) -> Result<Provider, String> {
        let kinds: usize = number("Controllers", &self.kinds, "a whole number")?;
        if !(1..=MAX_KINDS).contains(&kinds) {
            return Err(format!(
                "Controllers: {kinds} is out of range: use 1 to {MAX_KINDS}"
            ));
        }
        let objects: u64 = number("Objects each", &self.objects, "a whole number of objects")?;
        let sharing = match self.sharing.as_str() {
            "crossplane" => Sharing::Crossplane {
                r: number(
                    "--max-reconcile-rate R",
                    &self.r,
                    "a whole number of reconciles per second",
                )?,
            },
            "bucket" => Sharing::Bucket {
                qps: number("Bucket qps", &self.qps, "a rate")?,
                burst: number("Bucket burst", &self.burst, "a whole number of tokens")?,
            },
            _ => Sharing::Nothing,
        };
        let client = match self.client.as_str() {
            "off" => ClientChoice::Off,
            "v020" => ClientChoice::V020,
            "crossplane" => ClientChoice::Crossplane,
            _ => ClientChoice::Custom {
                qps: number("Client qps", &self.client_qps, "a rate")?,
                burst: number(
                    "Client burst",
                    &self.client_burst,
                    "a whole number of requests",
                )?,
            },
        };
        Ok(Provider {
            kinds: KIND_NAMES[..kinds]
                .iter()
                .zip(self.opted_out)
                .map(|(n, out)| Kind {
                    name: n.to_string(),
                    objects,
                    shares_bucket: !out,
                })
                .collect(),
            sharing,
            client,
            client_per: if self.client_per == "shared" {
                ClientScope::Shared
            } else {
                ClientScope::Kind
            },
            requests_per_reconcile: number(
                "API requests per reconcile",
                &self.requests,
                "a whole number",
            )?,
            failures: number("Failures before success", &self.failures, "a whole number")?,
            reconcile_ms: number(
                "Reconcile takes (ms)",
                &self.reconcile_ms,
                "a whole number of milliseconds",
            )?,
            seconds: 60,
            // (Set from the stage's version when the manager runs.)
            queue: Default::default(),
        })
    }
}

#[derive(Properties, PartialEq)]
pub struct ProviderProps {
    /// The manager the run was made from (a reopened run shows its form).
    pub provider: Provider,
    /// The queue the stage runs: a manager runs on the same version.
    pub queue: QueueKind,
    /// The stage runs a manager this form cannot show (one from a file, a
    /// link or a controller's Go): the form keeps its own values.
    pub other_manager: bool,
    /// Run the manager the form describes.
    pub on_run: Callback<Provider>,
}

#[function_component(ProviderPanel)]
pub fn provider_panel(props: &ProviderProps) -> Html {
    let form = use_state(|| Form::of(&props.provider).unwrap_or_default());
    {
        // A run reopened (a reload, a link, a file) shows the form it was run from.
        let form = form.clone();
        use_effect_with(props.provider.clone(), move |p| {
            if let Some(f) = Form::of(p) {
                form.set(f);
            }
        });
    }
    let error = use_state(|| None::<String>);
    // Typing updates the form at once: the page re-renders every frame,
    // and a field that waited for `change` would be reset under the fingers.
    let bind = |set: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            set(&mut f, event_value(&e));
            form.set(f);
        })
    };
    let bind_input = |set: fn(&mut Form, String)| {
        let bound = bind(set);
        Callback::from(move |e: InputEvent| bound.emit(e.into()))
    };
    let text = |id: &'static str, label: &'static str, value: &str, set: fn(&mut Form, String)| {
        html! {
            <div class="field">
                <label for={id}>{ label }</label>
                <input id={id} type="text" value={value.to_string()} oninput={bind_input(set)} data-testid={id} />
            </div>
        }
    };
    // A field of choices: (value, words) each, the form's value selected.
    let choice = |id: &'static str,
                  label: &'static str,
                  value: &str,
                  options: &[(&'static str, &'static str)],
                  set: fn(&mut Form, String)| {
        html! {
            <div class="field">
                <label for={id}>{ label }</label>
                <select id={id} onchange={bind(set)} data-testid={id}>
                    { for options.iter().map(|(v, words)| html! { <option value={*v} selected={value == *v}>{ *words }</option> }) }
                </select>
            </div>
        }
    };
    let run = {
        let (form, error, on_run) = (form.clone(), error.clone(), props.on_run.clone());
        let queue = props.queue;
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // The manager runs on the version the stage shows.
            let built = form.provider().map(|p| Provider { queue, ..p });
            match built.and_then(|p| p.to_scenario().map(|_| p)) {
                Ok(p) => {
                    error.set(None);
                    on_run.emit(p);
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    html! {
        <form class="panel provider" onsubmit={run} aria-label="Several controllers">
            <h2>{"Several controllers (a manager)"}</h2>
            <p class="blurb">{"One process, several controllers: each has its own queue and backoff; what they share (a bucket, Crossplane's global bucket, the API client) is one object for all."}</p>
            if props.other_manager {
                <p class="hint" data-testid="pv-other-manager">{"The manager on the stage came from a file, a link or your Go code, and this form cannot show it. Running the form starts a new manager from the values below."}</p>
            }
            <div class="grid2">
                { text("pv-kinds", "Controllers", &form.kinds, |f, v| f.kinds = v) }
                { text("pv-objects", "Objects each", &form.objects, |f, v| f.objects = v) }
            </div>
            { choice("pv-sharing", "They share", &form.sharing, &[
                ("crossplane", "Crossplane's global bucket (a provider today; Crossplane core since v2.1 has none)"),
                ("bucket", "one BucketRateLimiter passed to each"),
                ("nothing", "nothing but the API client"),
            ], |f, v| f.sharing = v) }
            { match form.sharing.as_str() {
                "crossplane" => text("pv-r", "--max-reconcile-rate R", &form.r, |f, v| f.r = v),
                "bucket" => {
                    let count = form.kinds.trim().parse::<usize>().unwrap_or(0).min(MAX_KINDS);
                    let toggle = |i: usize| {
                        let form = form.clone();
                        Callback::from(move |_: Event| {
                            let mut f = (*form).clone();
                            f.opted_out[i] = !f.opted_out[i];
                            form.set(f);
                        })
                    };
                    html! {
                        <>
                            <div class="grid2">{ text("pv-qps", "Bucket qps", &form.qps, |f, v| f.qps = v) }{ text("pv-burst", "Bucket burst", &form.burst, |f, v| f.burst = v) }</div>
                            <fieldset class="shares"><legend>{"Passed the shared bucket"}</legend>
                                { for (0..count).map(|i| html! {
                                    <label><input type="checkbox" checked={!form.opted_out[i]} onchange={toggle(i)} data-testid={format!("pv-share-{i}")} />{ KIND_NAMES[i] }</label>
                                }) }
                            </fieldset>
                        </>
                    }
                }
                _ => html! {},
            } }
            { choice("pv-client", "API client limit", &form.client, &[
                ("crossplane", "Crossplane provider: 5R qps, burst 10R (core since v2.1: off)"),
                ("off", "off (controller-runtime v0.21+)"),
                ("v020", "20 qps, burst 30 (v0.20 and earlier)"),
                ("custom", "custom"),
            ], |f, v| f.client = v) }
            { if form.client != "off" { choice("pv-client-per", "Client buckets", &form.client_per, &[
                ("kind", "one per kind (controller-runtime's client)"),
                ("shared", "one for all (a clientset, or Config.RateLimiter)"),
            ], |f, v| f.client_per = v) } else { html! {} } }
            { if form.client == "custom" { html! { <div class="grid2">{ text("pv-client-qps", "Client qps", &form.client_qps, |f, v| f.client_qps = v) }{ text("pv-client-burst", "Client burst", &form.client_burst, |f, v| f.client_burst = v) }</div> } } else { html! {} } }
            <div class="grid2">
                { text("pv-requests", "API requests per reconcile", &form.requests, |f, v| f.requests = v) }
                { text("pv-failures", "Failures before success", &form.failures, |f, v| f.failures = v) }
            </div>
            { text("pv-reconcile", "Reconcile takes (ms)", &form.reconcile_ms, |f, v| f.reconcile_ms = v) }
            { if let Some(e) = &*error { html! { <p class="field-error" role="alert" data-testid="pv-error">{ e.clone() }</p> } } else { html! {} } }
            <div class="apply-row"><button type="submit" class="primary" data-testid="run-manager">{"Run the manager"}</button></div>
        </form>
    }
}
