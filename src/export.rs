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

/// A complete Go file (package, imports, a `SetupWithManager` function that
/// returns `error`) that sets up the same limiter and controller options.
pub fn go_code(s: &Scenario) -> String {
    if let Some(cp) = &s.crossplane {
        return crossplane_code(cp.max_reconcile_rate);
    }
    let chosen = s.first().limiter();
    let priority_queue = s.controllers[0].queue == QueueKind::Priority;
    // The priority queue's own default needs no RateLimiter line at all.
    let default_for_queue = priority_queue
        && s.controllers[0]
            .limiter
            .as_ref()
            .is_none_or(|l| *l == s.controllers[0].queue.default_limiter());
    let lim = limiter(&chosen, "\t");
    let uses_bucket = !default_for_queue && lim.contains("rate.NewLimiter");
    // Standard library first, then the rest, sorted: as gofmt and goimports
    // leave them.
    let timeout = s.controllers[0].controller.reconcile_timeout_ns;
    let mut imports = Vec::new();
    if timeout.is_some() || !default_for_queue && lim.contains("time.") {
        imports.push("\t\"time\"\n\n");
    }
    if uses_bucket {
        imports.push("\t\"golang.org/x/time/rate\"\n");
    }
    imports.push("\tcorev1 \"k8s.io/api/core/v1\"\n");
    if !default_for_queue {
        imports.push("\t\"k8s.io/client-go/util/workqueue\"\n");
    }
    if !priority_queue {
        imports.push("\t\"k8s.io/utils/ptr\"\n");
    }
    imports.push("\tctrl \"sigs.k8s.io/controller-runtime\"\n");
    imports.push("\t\"sigs.k8s.io/controller-runtime/pkg/controller\"\n");
    imports.push("\t\"sigs.k8s.io/controller-runtime/pkg/reconcile\"\n");
    let workers = s.controllers[0].controller.workers;
    // v0.22's deadline on each Reconcile's context, aligned as gofmt aligns it.
    let workers = match timeout {
        Some(t) => format!(
            "{workers},\n\t\t\tReconciliationTimeout:   {}",
            // A field's value at the top level: gofmt spaces the product.
            go_duration(t).replace('*', " * ")
        ),
        None => workers.to_string(),
    };
    let (limiter_decl, options) = if priority_queue {
        if default_for_queue {
            (
                String::new(),
                format!("\t\t\tMaxConcurrentReconciles: {workers},\n\t\t\t// The priority queue (v0.23+) backs off 5ms to 1000s per item.\n"),
            )
        } else {
            (
                format!("\trateLimiter := {lim}\n"),
                format!("\t\t\tMaxConcurrentReconciles: {workers},\n\t\t\tRateLimiter:             rateLimiter,\n\t\t\t// The priority queue: the default since v0.23.\n"),
            )
        }
    } else {
        (
            format!("\trateLimiter := {lim}\n"),
            format!("\t\t\tMaxConcurrentReconciles: {workers},\n\t\t\tRateLimiter:             rateLimiter,\n\t\t\t// client-go's queue, the default before v0.23.\n\t\t\tUsePriorityQueue: ptr.To(false),\n"),
        )
    };
    let give_up = match s.controllers[0].controller.give_up_after {
        Some(n) => format!(
            "\n\n// Giving up after {n} requeues is up to Reconcile:\n//\n//\tif err != nil && r.queue.NumRequeues(req) >= {n} {{\n//\t\treturn ctrl.Result{{}}, reconcile.TerminalError(err)\n//\t}}"
        ),
        None => String::new(),
    };
    format!(
        "package controllers\n\nimport (\n{}){give_up}\n\n// SetupWithManager: the playground's limiter and options.\nfunc SetupWithManager(mgr ctrl.Manager, r reconcile.Reconciler) error {{\n{limiter_decl}\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tNamed(\"my-controller\").\n\t\tFor(&corev1.Pod{{}}).\n\t\tWithOptions(controller.Options{{\n{options}\t\t}}).\n\t\tComplete(r)\n}}\n",
        imports.concat(),
    )
}

/// Crossplane's two layers for `--max-reconcile-rate=R`, with the
/// crossplane-runtime v2 import paths.
fn crossplane_code(r: u32) -> String {
    format!(
        r#"package controllers

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// --max-reconcile-rate
const maxReconcileRate = {r}

// LimitClient: {qps} qps, burst {burst}.
func LimitClient(cfg *rest.Config) *rest.Config {{
	return ratelimiter.LimitRESTConfig(cfg, maxReconcileRate)
}}

// Options: one global bucket ({r}/s, burst {burst}) for every controller.
func Options() controller.Options {{
	return controller.Options{{
		GlobalRateLimiter:       ratelimiter.NewGlobal(maxReconcileRate),
		MaxConcurrentReconciles: maxReconcileRate,
	}}
}}

// SetupWithManager: per-object backoff 1s to 60s in the queue, the global
// bucket in front of the reconciler.
func SetupWithManager(mgr ctrl.Manager, name string, obj client.Object, r reconcile.Reconciler, o controller.Options) error {{
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		For(obj).
		Complete(ratelimiter.NewReconciler(name, r, o.GlobalRateLimiter))
}}
"#,
        qps = 5 * r,
        burst = 10 * r,
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
            cp.contains("const maxReconcileRate = 10\n")
                && cp.contains("ratelimiter.NewGlobal(maxReconcileRate)")
                && cp.contains("ratelimiter.LimitRESTConfig(cfg, maxReconcileRate)")
                && cp.contains("crossplane-runtime/v2/pkg/ratelimiter")
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

    /// Every exported file for every preset, on both queues, with and
    /// without giving up: what a person pastes.
    fn every_export() -> Vec<(String, String)> {
        let mut out = Vec::new();
        for preset in Preset::ALL {
            for queue in [QueueKind::ClientGo, QueueKind::Priority] {
                let mut f = Settings::default();
                f.preset = preset;
                f.queue = queue;
                let mut s = f.to_scenario().unwrap();
                out.push((format!("{preset:?}/{queue:?}"), go_code(&s)));
                s.controllers[0].controller.give_up_after = Some(5);
                out.push((format!("{preset:?}/{queue:?}/give-up"), go_code(&s)));
                s.controllers[0].controller.reconcile_timeout_ns = Some(1_500_000_000);
                out.push((format!("{preset:?}/{queue:?}/timeout"), go_code(&s)));
            }
        }
        out
    }

    /// The imports of a Go file: (the name the code uses, the path).
    fn imports(go: &str) -> Vec<(String, String)> {
        let block = go
            .split_once("import (\n")
            .and_then(|(_, rest)| rest.split_once("\n)"))
            .map(|(block, _)| block)
            .unwrap_or_default();
        block
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (alias, path) = match l.split_once(' ') {
                    Some((alias, path)) => (Some(alias), path),
                    None => (None, l),
                };
                let path = path.trim_matches('"').to_string();
                let last = path.rsplit('/').next().unwrap_or_default().to_string();
                (alias.map_or(last, str::to_string), path)
            })
            .collect()
    }

    #[test]
    fn every_export_is_a_complete_file_whose_imports_are_used_and_present() {
        for (name, go) in every_export() {
            assert!(go.starts_with("package controllers\n"), "{name}: {go}");
            assert!(
                go.contains(") error {\n"),
                "{name}: a SetupWithManager returning error"
            );
            let imported = imports(&go);
            let body = go.split_once("\n)\n").map(|(_, b)| b).unwrap_or_default();
            // Comments do not use an import.
            let code: String = body
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for (ident, path) in &imported {
                assert!(
                    code.contains(&format!("{ident}.")),
                    "{name}: {path} is imported, not used\n{go}"
                );
            }
            for used in [
                "time",
                "rate",
                "workqueue",
                "ptr",
                "ctrl",
                "controller",
                "reconcile",
                "corev1",
                "ratelimiter",
                "client",
                "rest",
            ] {
                if code.contains(&format!("{used}.")) && !code.contains(&format!("&{used}."))
                    || code.contains(&format!("(&{used}."))
                {
                    assert!(
                        imported.iter().any(|(i, _)| i == used),
                        "{name}: {used} is used, not imported\n{go}"
                    );
                }
            }
            if code.contains("rateLimiter :=") {
                assert!(
                    code.contains("rateLimiter,"),
                    "{name}: rateLimiter is declared, not used"
                );
            }
            assert!(!code.contains("err :="), "{name}: {go}");
            assert!(
                !go.contains("v1alpha1") && !go.contains("crossplane-runtime/pkg"),
                "{name}: {go}"
            );
            let opens = go.matches(['(', '{', '[']).count();
            let closes = go.matches([')', '}', ']']).count();
            assert_eq!(opens, closes, "{name}: brackets balance\n{go}");
        }
    }

    #[test]
    fn every_export_is_gofmt_clean() {
        // scripts/setup.sh installs Go's gofmt; a machine without it still
        // runs the syntactic checks above.
        let Ok(probe) = std::process::Command::new("gofmt").arg("-h").output() else {
            println!("gofmt not installed: the syntactic checks stand alone");
            return;
        };
        let _ = probe;
        let dir = std::env::temp_dir().join(format!("wq-gofmt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (i, (name, go)) in every_export().into_iter().enumerate() {
            let path = dir.join(format!("export{i}.go"));
            std::fs::write(&path, &go).unwrap();
            let out = std::process::Command::new("gofmt")
                .arg("-d")
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: gofmt refused it: {}\n{go}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                out.stdout.is_empty(),
                "{name}: not gofmt-clean:\n{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}
