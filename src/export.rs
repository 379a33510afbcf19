//! The configured limiter and controller as Go, with the real client-go,
//! controller-runtime and crossplane-runtime constructors.

use workqueue_core::QueueKind;
use workqueue_core::{LimiterConfig, Nanos, Scenario};

/// `5*time.Millisecond`, `1000*time.Second`, `1500*time.Millisecond`: the
/// largest unit that divides the value exactly.
pub fn go_duration(d: Nanos) -> String {
    const UNITS: [(Nanos, &str); 6] = [
        (3_600_000_000_000, "time.Hour"),
        (60_000_000_000, "time.Minute"),
        (1_000_000_000, "time.Second"),
        (1_000_000, "time.Millisecond"),
        (1_000, "time.Microsecond"),
        (1, "time.Nanosecond"),
    ];
    if d == 0 {
        return "0".into();
    }
    let (unit, name) = UNITS
        .iter()
        .find(|(u, _)| d % u == 0)
        .copied()
        .unwrap_or((1, "time.Nanosecond"));
    if d / unit == 1 {
        name.to_string()
    } else {
        format!("{}*{name}", d / unit)
    }
}

fn go_float(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

fn limiter(l: &LimiterConfig, indent: &str) -> String {
    const T: &str = "[reconcile.Request]";
    let inner = format!("{indent}\t");
    match l {
        LimiterConfig::DefaultController => {
            format!("workqueue.DefaultTypedControllerRateLimiter{T}()")
        }
        LimiterConfig::Exponential { base_ns, max_ns } => {
            format!(
                "workqueue.NewTypedItemExponentialFailureRateLimiter{T}({}, {})",
                go_duration(*base_ns),
                go_duration(*max_ns)
            )
        }
        LimiterConfig::FastSlow {
            fast_ns,
            slow_ns,
            max_fast_attempts,
        } => format!(
            "workqueue.NewTypedItemFastSlowRateLimiter{T}({}, {}, {max_fast_attempts})",
            go_duration(*fast_ns),
            go_duration(*slow_ns)
        ),
        LimiterConfig::Bucket { qps, burst } => {
            format!("&workqueue.TypedBucketRateLimiter{T}{{Limiter: rate.NewLimiter(rate.Limit({}), {burst})}}", go_float(*qps))
        }
        LimiterConfig::MaxOf { limiters } if *l == LimiterConfig::default_controller_parts() => {
            let _ = limiters;
            format!("workqueue.DefaultTypedControllerRateLimiter{T}()")
        }
        LimiterConfig::MaxOf { limiters } => {
            let parts: Vec<String> = limiters
                .iter()
                .map(|p| format!("{inner}{},\n", limiter(p, &inner)))
                .collect();
            format!(
                "workqueue.NewTypedMaxOfRateLimiter(\n{}{indent})",
                parts.concat()
            )
        }
        LimiterConfig::WithMaxWait {
            limiter: l,
            max_wait_ns,
        } => {
            format!(
                "workqueue.NewTypedWithMaxWaitRateLimiter(\n{inner}{},\n{inner}{},\n{indent})",
                limiter(l, &inner),
                go_duration(*max_wait_ns)
            )
        }
    }
}

/// Go source that sets up the same limiter and controller options.
/// Whether the Go code builds a token bucket itself (and so imports
/// `x/time/rate`): `DefaultController` names client-go's constructor instead.
fn spells_out_a_bucket(l: &LimiterConfig) -> bool {
    match l {
        LimiterConfig::Bucket { .. } => true,
        LimiterConfig::MaxOf { limiters } => limiters.iter().any(spells_out_a_bucket),
        LimiterConfig::WithMaxWait { limiter, .. } => spells_out_a_bucket(limiter),
        _ => false,
    }
}

pub fn go_code(s: &Scenario) -> String {
    if let Some(cp) = &s.crossplane {
        let r = cp.max_reconcile_rate;
        return format!(
            r#"import (
	"github.com/crossplane/crossplane-runtime/pkg/controller"
	"github.com/crossplane/crossplane-runtime/pkg/ratelimiter"
	ctrl "sigs.k8s.io/controller-runtime"
)

// main.go: --max-reconcile-rate={r}
cfg = ratelimiter.LimitRESTConfig(cfg, {r}) // API client: {qps} qps, burst {burst}
o := controller.Options{{
	GlobalRateLimiter:       ratelimiter.NewGlobal({r}), // {r}/s, burst {burst} for every controller
	MaxConcurrentReconciles: {r},
}}

// Each controller: per-object backoff 1s→60s in the queue, the global bucket
// in front of the reconciler (it answers RequeueAfter when out of tokens).
err := ctrl.NewControllerManagedBy(mgr).
	Named(name).
	WithOptions(o.ForControllerRuntime()). // RateLimiter: ratelimiter.NewController()
	For(&v1alpha1.MyResource{{}}).
	Complete(ratelimiter.NewReconciler(name, r, o.GlobalRateLimiter))
"#,
            qps = 5 * r,
            burst = 10 * r,
        );
    }
    let chosen = s.first().limiter();
    let priority_queue = s.controllers[0].queue == QueueKind::Priority;
    // The priority queue's own default needs no RateLimiter line at all.
    let default_for_queue = priority_queue
        && s.controllers[0]
            .limiter
            .as_ref()
            .is_none_or(|l| *l == s.controllers[0].queue.default_limiter());
    let uses_bucket = !default_for_queue
        && spells_out_a_bucket(&chosen)
        && chosen != LimiterConfig::default_controller_parts();
    let mut imports = vec!["\"time\"".to_string()];
    if uses_bucket {
        imports.push("\"golang.org/x/time/rate\"".into());
    }
    imports.extend(
        [
            "\"k8s.io/client-go/util/workqueue\"",
            "\"k8s.io/utils/ptr\"",
            "ctrl \"sigs.k8s.io/controller-runtime\"",
            "\"sigs.k8s.io/controller-runtime/pkg/controller\"",
            "\"sigs.k8s.io/controller-runtime/pkg/reconcile\"",
        ]
        .map(String::from),
    );
    let lim = limiter(&chosen, "");
    if default_for_queue || !lim.contains("time.") {
        imports.retain(|i| i != "\"time\"");
    }
    if default_for_queue {
        imports.retain(|i| !i.contains("client-go/util/workqueue"));
    }
    if priority_queue {
        imports.retain(|i| !i.contains("k8s.io/utils/ptr"));
    }
    let (limiter_decl, options) = if priority_queue {
        let limiter_line = if default_for_queue {
            "\t\t// No RateLimiter: the priority queue's default is per-item backoff,\n\t\t// 5ms doubling to 1000s, with no controller-wide bucket.\n".to_string()
        } else {
            "\t\tRateLimiter:             rateLimiter,\n".to_string()
        };
        (
            if default_for_queue { String::new() } else { format!("rateLimiter := {lim}\n") },
            format!("{limiter_line}\t\t// UsePriorityQueue unset: controller-runtime v0.23+ runs the\n\t\t// priority queue by default.\n"),
        )
    } else {
        (
            format!("rateLimiter := {lim}\n"),
            "\t\tRateLimiter:             rateLimiter,\n\t\t// client-go's queue, as before controller-runtime v0.23 (which\n\t\t// defaults to its priority queue).\n\t\tUsePriorityQueue: ptr.To(false),\n".to_string(),
        )
    };
    let give_up = match s.controllers[0].controller.give_up_after {
        Some(n) => format!(
            "\n// Giving up after {n} requeues, in Reconcile (controller-runtime has no option for it):\n//\tif err != nil && r.queue.NumRequeues(req) >= {n} {{ return ctrl.Result{{}}, reconcile.TerminalError(err) }}\n"
        ),
        None => String::new(),
    };
    format!(
        "import (\n{}\n)\n\n{limiter_decl}{give_up}\nerr := ctrl.NewControllerManagedBy(mgr).\n\tNamed(\"my-controller\").\n\tFor(&corev1.Pod{{}}).\n\tWithOptions(controller.Options{{\n\t\tMaxConcurrentReconciles: {},\n{options}\t}}).\n\tComplete(r)\n",
        imports.iter().map(|i| format!("\t{i}")).collect::<Vec<_>>().join("\n"),
        s.controllers[0].controller.workers,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Field, Preset, Settings};
    use workqueue_core::{MILLISECOND, SECOND};

    fn code(preset: Preset) -> String {
        let mut f = Settings::default();
        f.preset = preset;
        f.set(Field::Slow, "3s".into());
        go_code(&f.to_scenario().unwrap())
    }

    #[test]
    fn durations_read_like_go() {
        assert_eq!(go_duration(5 * MILLISECOND), "5*time.Millisecond");
        assert_eq!(go_duration(1000 * SECOND), "1000*time.Second");
        assert_eq!(go_duration(1500 * MILLISECOND), "1500*time.Millisecond");
        assert_eq!(go_duration(SECOND), "time.Second");
        assert_eq!(go_duration(60 * SECOND), "time.Minute");
        assert_eq!(go_duration(7), "7*time.Nanosecond");
    }

    #[test]
    fn every_preset_uses_the_real_constructors() {
        assert!(code(Preset::ClientGoDefault)
            .contains("workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()"));
        assert!(code(Preset::PerItem).contains("workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)"));
        let bucket = code(Preset::BucketOnly);
        assert!(bucket.contains("&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(rate.Limit(10), 100)}"));
        assert!(bucket.contains("\"golang.org/x/time/rate\"") && !bucket.contains("\"time\""));
        assert!(code(Preset::FastSlow).contains("workqueue.NewTypedItemFastSlowRateLimiter[reconcile.Request](5*time.Millisecond, 3*time.Second, 3)"));
        let wait = code(Preset::WithMaxWait);
        assert!(
            wait.contains("workqueue.NewTypedWithMaxWaitRateLimiter(")
                && wait.contains("10*time.Second")
        );
        assert!(
            wait.contains("workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()"),
            "{wait}"
        );
        let cp = code(Preset::Crossplane);
        assert!(
            cp.contains("ratelimiter.NewGlobal(10)")
                && cp.contains("ratelimiter.LimitRESTConfig(cfg, 10)")
                && cp.contains("MaxConcurrentReconciles: 10")
        );
        assert!(code(Preset::PerItem).contains("MaxConcurrentReconciles: 1,"));
        assert!(code(Preset::PerItem).contains("UsePriorityQueue: ptr.To(false)"));
    }

    #[test]
    fn the_priority_queue_is_the_default_and_needs_no_limiter_line() {
        let mut f = Settings::default();
        f.queue = QueueKind::Priority;
        f.preset = Preset::PerItem;
        let go = go_code(&f.to_scenario().unwrap());
        assert!(
            !go.contains("UsePriorityQueue: ptr.To(false)") && !go.contains("RateLimiter:  "),
            "{go}"
        );
        assert!(
            !go.contains("client-go/util/workqueue") && !go.contains("\"time\""),
            "{go}"
        );
        // A global limit brought back: the limiter is passed.
        f.preset = Preset::ClientGoDefault;
        let go = go_code(&f.to_scenario().unwrap());
        assert!(
            go.contains("RateLimiter:             rateLimiter,")
                && go.contains("DefaultTypedControllerRateLimiter"),
            "{go}"
        );
        assert!(!go.contains("ptr.To(false)"));
    }
}
