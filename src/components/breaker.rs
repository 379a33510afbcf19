//! Crossplane core's XR circuit breaker on the stage, where the 2021 design
//! had its global bucket: each XR's bucket of watch events (the ones nearest
//! to trouble), whether its circuit is open and from when an event closes
//! it, and what the breaker did with every event so far. Always the same
//! rows (as many as the run can have XRs, up to three), filled or not, so
//! nothing on the stage moves as XRs come and go.

use yew::prelude::*;

use crate::format;
use workqueue_core::{BreakerTargetView, BreakerView, Instant};

pub fn breaker_panel(b: &BreakerView, now: Instant) -> Html {
    let burst = b.burst.max(f64::MIN_POSITIVE);
    let row = |t: Option<&BreakerTargetView>| match t {
        None => {
            html! { <li class="xr empty" aria-hidden="true"><span class="xr-key">{"\u{00a0}"}</span><span class="xr-bar"></span><span class="xr-state">{"\u{00a0}"}</span></li> }
        }
        Some(t) => {
            let pct = (t.tokens / burst).clamp(0.0, 1.0);
            let (class, state) = match t.closes_from {
                Some(at) if at > now => (
                    "open",
                    format!("open: drops events; closes in {}", format::short(at - now)),
                ),
                Some(_) => ("open", "open: its next event closes it".to_string()),
                None => (
                    "closed",
                    format!("closed: {:.1} of {} tokens", t.tokens, b.burst),
                ),
            };
            let state = format!("{state} · {}", format::plural(t.reconciles, "reconcile"));
            // Upstream refills an open circuit's bucket too: it is full
            // again by the time the circuit may close.
            let title = (class == "open").then_some("Tokens still refill while the circuit is open; what closes it is the cooldown, not the bucket");
            html! {
                <li class={classes!("xr", class)} data-testid="breaker-xr" data-state={class}>
                    <span class="xr-key mono" title={t.key.clone()}>{ t.key.clone() }</span>
                    <span class="xr-bar" {title} role="meter" aria-label={format!("{}'s tokens", t.key)} aria-valuemin="0" aria-valuemax={b.burst.to_string()} aria-valuenow={format!("{:.1}", t.tokens)}>
                        <span class="xr-fill" style={format!("--f:{pct:.3}")}></span>
                    </span>
                    <span class="xr-state">{ state }</span>
                </li>
            }
        }
    };
    html! {
        <div class="breaker" data-testid="breaker">
            <ul class="xrs">
                { for (0..b.rows).map(|i| row(b.targets.get(i))) }
            </ul>
            <p class="breaker-counts" data-testid="breaker-counts">
                // Counted per check, as upstream counts them: an Update is
                // checked twice (old and new object), so one watch event
                // shows as two checks.
                { format!("Checks (an Update is 2): {} let through, {}, {} dropped",
                    format::count(b.allowed), format::plural(b.probes, "probe"), format::count(b.dropped)) }
                { if b.rows > 1 { format!(" · {} of {} XRs open", format::count(b.open as u64), format::count(b.tracked as u64)) } else { String::new() } }
            </p>
            <p class="breaker-flags">
                { format!("Each XR: {} tokens, +{}/s, one a check; open for {}",
                    b.burst, b.refill_per_second, format::short(b.cooldown)) }
            </p>
        </div>
    }
}
