//! Crossplane core since v2.1 as its set-up is written: core is Crossplane's
//! own program, not code its users write, so what a run of it sets is the
//! program's flags (`cmd/crossplane/core/core.go` lines 115 and 118-120),
//! given through the Helm chart's `args` (`cluster/charts/crossplane/values.yaml`
//! line 55). Only numbers go in: no text of the scenario reaches the file.

use workqueue_core::{format_go_duration, CrossplaneConfig, Scenario};

use crate::go_text::float;

/// The Helm values that run Crossplane core as `s` does.
pub(crate) fn helm_values(s: &Scenario, cp: CrossplaneConfig) -> String {
    let b = cp.breaker_flags();
    let controllers = match s.controllers.len() {
        1 => "one XR controller".to_string(),
        n => format!("{n} XR controllers"),
    };
    format!(
        "# Crossplane core since v2.1 is Crossplane's own program: this run's set-up\n\
         # is its flags, passed by the Helm chart's args:\n\
         #\n\
         #   helm upgrade --install crossplane crossplane-stable/crossplane \\\n\
         #     --namespace crossplane-system --values values.yaml\n\
         #\n\
         # The run has {controllers}; Crossplane starts one for each\n\
         # CompositeResourceDefinition, each with these workers and its own\n\
         # 1s-30s backoff per XR. Core sets no client-side limit on the API\n\
         # server and no global bucket: the API server's priority and fairness\n\
         # does that work.\n\
         args:\n\
         \x20 # Workers per controller (--max-reconcile-rate is its alias since v2.1).\n\
         \x20 - --max-concurrent-reconciles={workers}\n\
         \x20 # The XR circuit breaker: each XR's bucket of watch events, its refill\n\
         \x20 # per second, and how long the circuit stays open once it runs dry.\n\
         \x20 - --circuit-breaker-burst={burst}\n\
         \x20 - --circuit-breaker-refill-rate={refill}\n\
         \x20 - --circuit-breaker-cooldown={cooldown}\n",
        workers = cp.max_reconcile_rate,
        burst = float(b.burst.get()),
        refill = float(b.refill_per_second.get()),
        cooldown = format_go_duration(b.cooldown.get()),
    )
}
