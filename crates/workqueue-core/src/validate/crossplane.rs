//! The gate for Crossplane's part of a scenario: core's breaker flags only
//! where there is a breaker (R and the breaker's numbers are in range by
//! their types: `ranges`).

use super::*;

pub fn crossplane(cp: &CrossplaneConfig) -> Result<(), ScenarioError> {
    // R, and the breaker's burst and refill, are in range by their types.
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
