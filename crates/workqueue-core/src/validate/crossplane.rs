//! The gate for Crossplane's part of a scenario: `--max-reconcile-rate`
//! within the worker limit, and core's breaker flags only where there is a
//! breaker, as numbers the model's figures mean something for.

use super::*;

pub fn crossplane(cp: &CrossplaneConfig) -> Result<(), ScenarioError> {
    let r = cp.max_reconcile_rate;
    if r > MAX_WORKERS {
        return Err(bad(
            "crossplane.max_reconcile_rate",
            format!("R = {r} would start {r} workers: use 0 to {MAX_WORKERS} (the worker limit)"),
        ));
    }
    let Some(b) = cp.breaker else { return Ok(()) };
    if cp.profile != crate::CrossplaneProfile::Core {
        return Err(bad(
            "crossplane.breaker",
            format!(
                "only Crossplane core (profile \"core\") has the XR circuit breaker; this scenario's profile is \"{}\"",
                cp.profile.name()
            ),
        ));
    }
    // Go takes any float64; past these the model's figures mean nothing.
    for (field, v, max) in [
        ("crossplane.breaker.burst", b.burst, 1e9),
        (
            "crossplane.breaker.refill_per_second",
            b.refill_per_second,
            1e9,
        ),
    ] {
        if !(v.is_finite() && (0.0..=max).contains(&v)) {
            return Err(bad(field, format!("{v} is out of range: use 0 to {max:e}")));
        }
    }
    if b.cooldown < Duration::ZERO || b.cooldown > MAX_DELAY {
        return Err(bad(
            "crossplane.breaker.cooldown",
            format!(
                "{} is out of range: use 0s to {}",
                go(b.cooldown),
                go(MAX_DELAY)
            ),
        ));
    }
    Ok(())
}
