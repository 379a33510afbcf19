//! The layouts real controllers are written in (issue 48), each as a
//! fixture in our own words (`tests/fixtures/layouts/<name>/`, with the
//! faithful reading in its `expected.json` and the projects it stands for
//! in its README line): every one is imported and its reading checked —
//! controllers and where they are built, workers, limiters, queues, the
//! clients and their limits, Crossplane's rate, what must not run.

use workqueue_core::SECOND;
use workqueue_core::{KeyCount, Span, Workers};
use workqueue_go::import;

mod common;
use common::layout;
use common::reading::*;

// Issue 48, item 1: values that travel (arguments, parameters, fields,
// variables held before they are passed, embedded structs).

/// `--concurrent` → a function's parameter → `ctrl.Options.Controller`;
/// the limiter through a reconciler-options struct's field; the client's
/// QPS through `BindFlags` and a config helper.
#[test]
fn manager_defaults_travel_through_a_parameter_and_option_structs() {
    check("manager-defaults-param-bindflags");
}

/// `workers(n)` returns `controller.Options`, passed as a parameter into a
/// project's own builder wrapper; a gated controller is off.
#[test]
fn options_from_a_helper_travel_through_a_wrapper_builder() {
    check("options-helper-param-wrapper");
}

/// `opts := ctrl.Options{…}` then `ctrl.NewManager(cfg, opts)`;
/// `controller.New` with an options variable.
#[test]
fn options_held_in_a_variable_before_they_are_passed() {
    check("options-variable-remote-config");
}

/// Setups called from a slice of functions; upjet's options embedding
/// crossplane-runtime's; `co := o.ForControllerRuntime(); co.RateLimiter = rl`.
#[test]
fn embedded_options_and_setups_in_a_slice() {
    check("upjet-setup-slice");
}

/// A `ControllerOptions(n)` helper building a limiter from locals, with
/// UsePriorityQueue false; a builder held in a variable; a cobra
/// subcommand (another process) not read as this one.
#[test]
fn a_cobra_root_and_an_options_builder() {
    check("cobra-subcommands-options-builder");
}

// Issue 48, item 2: client-go programs read as client-go.

/// `Run(ctx, 3)` → `for i := 0; i < workers; i++ { go wait.UntilWithContext(…) }`;
/// two clientsets on an unset QPS: client-go's 5/10 each.
#[test]
fn client_go_workers_from_a_run_loop_and_two_clientsets() {
    let got = check("clientgo-run-workers-param");
    assert!(
        !got.unread
            .iter()
            .any(|f| f.text.contains("turns client-side limiting off")),
        "controller-runtime's loader rule applied to a client-go program"
    );
}

/// Untyped `workqueue.NewNamedRateLimitingQueue`; flags on a cobra
/// command with defaults from other packages; threadiness forwarded.
#[test]
fn untyped_named_queues_and_forwarded_threadiness() {
    check("cobra-untyped-named-queues");
}

/// Limiters passed as constructor arguments; one loop starting the workers
/// of two queues; a leader-election clientset behind a false flag.
#[test]
fn constructor_limiters_and_one_loop_for_two_queues() {
    check("clientgo-constructor-limiters-shared-loop");
}

// Issue 48, item 3: real sizes and names.

/// Component-config defaults, controllers registered in `init()` and run
/// when enabled, one constructor making three controllers, `for range
/// workers`, one shared `cfg.RateLimiter`.
#[test]
fn an_init_registry_with_enabled_controllers() {
    check("configdefaults-init-registry");
}

/// cert-manager's set-up as it is written (issue 48, session 5): the
/// settings' wire type defaulted through a scheme (`scheme.Default` runs
/// the files' `SetDefaults_<Type>`) and converted into the program's own
/// type; the enabled list an apimachinery set; a list behind a
/// component-base feature gate that is off by default. Three of four run,
/// three workers each, and the gate is said with where its default is.
#[test]
fn scheme_defaults_an_enabled_set_and_a_gate_off() {
    let got = check("scheme-defaults-sets-gates");
    assert!(
        got.taken.iter().any(|f| f.file == "main.go"
            && f.text
                .contains("feature gate TunnelControllers: off by default (features/features.go:")),
        "the gate that keeps tunnels off is not said: {:#?}",
        got.taken
    );
    assert!(
        got.taken.iter().any(|f| f
            .text
            .contains("SetDefaults_TollSettings (settings/v1beta1/defaults.go:")),
        "the defaulting function is not named: {:#?}",
        got.taken
    );
}

/// cluster-api's core set-up (issue 48, session 5): component-base feature
/// gates added in `init()`, setups behind `Gates.Enabled(…)` (one gate off
/// by default: its controller does not run, and that is said with where
/// the default is), a set written as a literal and filled with `Insert`
/// deciding whether a controller is set up, and a wrapper that puts a
/// limiter type of the project's own in the options (said, not modelled).
#[test]
fn feature_gates_decide_which_setups_run() {
    let got = check("featuregate-gated-setups-own-limiter");
    assert!(
        got.taken.iter().any(|f| f.file == "main.go"
            && f.text
                .contains("feature gate Lighthouses: off by default (gates/gates.go:21)")),
        "the gate that keeps lighthouses off is not said: {:#?}",
        got.taken
    );
    for c in ["manifest", "pier", "ferry"] {
        assert!(
            got.unread
                .iter()
                .any(|f| f.text.contains(&format!("controller {c:?}"))
                    && f.text
                        .contains("pacedLimiter, a limiter type the project declares")),
            "{c}'s own limiter type is not said: {:#?}",
            got.unread
        );
    }
}

/// A Crossplane provider's cluster and namespaced Setup packages with the
/// same kinds: six controllers, never refused for a name collision; two
/// option variables, two global buckets.
#[test]
fn crossplane_cluster_and_namespaced_scopes() {
    check("crossplane-two-scopes");
}

// Issue 48, item 4: names by scope; controllers where they run.

/// One generic reconciler type with two queues, built by each operator
/// that runs: four queues, not two; clients made inside each operator.
#[test]
fn controllers_are_counted_where_they_run() {
    check("generic-reconciler-per-operator");
}

// The rest of the layouts met in real controllers.

#[test]
fn a_plain_scaffold_on_v022() {
    check("scaffold-plain-v022");
}

#[test]
fn a_config_file_default_unless_the_flag_is_given() {
    check("configfile-flag-override-visit");
}

#[test]
fn a_ticker_loop_is_no_workqueue_controller() {
    check("ticker-loop-no-queue");
}

#[test]
fn controllers_in_a_slice_with_workers_scaled_by_cpus() {
    check("controller-slice-cpu-scaled");
}

#[test]
fn the_typed_builder_with_raw_sources_and_group_kind_concurrency() {
    check("typed-builder-rawsource-groupkind");
}

#[test]
fn the_config_loader_before_v021() {
    check("cr-loader-before-v021");
}

/// Issue 48, item 3: as many controllers as real programs have. An init()
/// registry of eighteen client-go controllers, all enabled (cert-manager's
/// count), each started with `for range workers`: eighteen read, five
/// workers each.
#[test]
fn eighteen_controllers_in_an_init_registry() {
    let names: Vec<String> = (0..18).map(|i| format!("ledger-{i:02}")).collect();
    let list = names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let main = format!(
        r#"package main

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/workqueue"
)

var known = map[string]func() *runner{{}}

type runner struct {{
	queue workqueue.TypedRateLimitingInterface[string]
}}

func (r *runner) Run(workers int, ctx context.Context) {{
	for range workers {{
		go wait.Until(func() {{ r.drain() }}, time.Second, ctx.Done())
	}}
}}

func (r *runner) drain() {{
	for {{
		key, done := r.queue.Get()
		if done {{
			return
		}}
		r.queue.Done(key)
	}}
}}

func init() {{
	for _, name := range []string{{{list}}} {{
		known[name] = func() *runner {{
			return &runner{{queue: workqueue.NewTypedRateLimitingQueueWithConfig(
				workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
				workqueue.TypedRateLimitingQueueConfig[string]{{Name: name}})}}
		}}
	}}
}}

func main() {{
	ctx := context.Background()
	for _, build := range known {{
		go build().Run(5, ctx)
	}}
	<-ctx.Done()
}}
"#
    );
    let got = import(&[("main.go".into(), main)]).unwrap();
    let s = &got.scenario;
    let mut read: Vec<(String, u32)> = s
        .controllers
        .iter()
        .map(|c| (c.name.clone(), c.controller.workers.get()))
        .collect();
    read.sort();
    let want: Vec<(String, u32)> = names.iter().map(|n| (n.clone(), 5)).collect();
    assert_eq!(read, want);
}

/// Issue 48, item 4: names are looked up by scope. A provider's `o` is the
/// options its Setup is given, never another file's local `o` (an item of
/// a list in an unrelated function); a workload cluster's `.QPS =` on a
/// config of its own is not the manager's.
#[test]
fn a_name_is_never_read_from_another_files_locals() {
    let other = r#"package provider

func pick(ol List) {
	for i := range ol.Items {
		o := ol.Items[i]
		o.MaxConcurrentReconciles = 1
		cfg := &rest.Config{}
		cfg.QPS = 3
		cfg.Burst = 6
		_ = o
	}
}
"#;
    let main = r#"package main

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	ctrl "sigs.k8s.io/controller-runtime"
)

func setup(mgr ctrl.Manager, o controller.Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("managed/kiln").
		WithOptions(o.ForControllerRuntime()).
		For(&v1.Kiln{}).
		Complete(ratelimiter.NewReconciler("managed/kiln", r, o.GlobalRateLimiter))
}

func main() {
	cfg := ctrl.GetConfigOrDie()
	mgr, _ := ctrl.NewManager(ratelimiter.LimitRESTConfig(cfg, 30), ctrl.Options{})
	o := controller.Options{MaxConcurrentReconciles: 30, GlobalRateLimiter: ratelimiter.NewGlobal(30)}
	_ = setup(mgr, o)
}
"#;
    let got = import(&[
        ("other.go".into(), other.into()),
        ("main.go".into(), main.into()),
    ])
    .unwrap();
    let s = &got.scenario;
    assert_eq!(s.controllers[0].controller.workers, Workers::lit(30));
    let client = s.client.unwrap();
    assert_eq!((client.qps.get(), client.burst.get()), (150.0, 300));
    assert_eq!(s.crossplane.map(|c| c.max_reconcile_rate.get()), Some(30));
}

/// The same provider with its `apis` packages among the files (a whole
/// repository read): each kind named as its package declares it,
/// `reflect.TypeOf(Firing{}).Name()` in a `schema.GroupKind{…}.String()`,
/// so the names are crossplane-runtime's own (`providerconfig/` or
/// `managed/` + the lower-case `Kind.group`) and the two scopes' controllers,
/// same kinds in two groups, never collide.
#[test]
fn crossplane_kinds_declared_in_the_files_name_the_controllers() {
    let mut files = layout("crossplane-two-scopes");
    for (scope, group) in [
        ("cluster", "kiln.crossplane.io"),
        ("namespaced", "kiln.m.crossplane.io"),
    ] {
        files.push((
            format!("apis/{scope}/v1alpha1/register.go"),
            format!(
                "package v1alpha1\n\nimport (\n\t\"reflect\"\n\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n)\n\n\
                 const Group = \"{group}\"\n\n\
                 type ProviderConfig struct{{}}\ntype Firing struct{{}}\ntype Inventory struct{{}}\n\n\
                 var (\n\tProviderConfigKind      = reflect.TypeOf(ProviderConfig{{}}).Name()\n\
                 \tProviderConfigGroupKind = schema.GroupKind{{Group: Group, Kind: ProviderConfigKind}}.String()\n\
                 \tFiringKind              = reflect.TypeOf(Firing{{}}).Name()\n\
                 \tFiringGroupKind         = schema.GroupKind{{Group: Group, Kind: FiringKind}}.String()\n\
                 \tInventoryKind           = reflect.TypeOf(Inventory{{}}).Name()\n\
                 \tInventoryGroupKind      = schema.GroupKind{{Group: Group, Kind: InventoryKind}}.String()\n)\n"
            ),
        ));
    }
    let got = import(&files).unwrap_or_else(|e| panic!("{e}"));
    let mut names: Vec<&str> = got
        .scenario
        .controllers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    names.sort_unstable();
    for want in [
        "providerconfig/providerconfig.kiln.crossplane.io",
        "providerconfig/providerconfig.kiln.m.crossplane.io",
        "managed/firing.kiln.crossplane.io",
        "managed/firing.kiln.m.crossplane.io",
        "managed/inventory.kiln.crossplane.io",
        "managed/inventory.kiln.m.crossplane.io",
    ] {
        assert!(names.contains(&want), "{want} not in {names:?}");
    }
}

/// client-go workers that give up on a key after N requeues: the limit is
/// read whichever way the comparison is written, and the run gives up
/// where Go does (a key that always fails is reconciled N + 1 times); a
/// limit the reader cannot compute is said with its file and line.
#[test]
fn client_go_retry_limits_give_up_where_go_does() {
    let name = "clientgo-retry-limits-informer-kinds";
    let got = check(name);
    let want = expected(name);
    for w in want["controllers"].as_array().unwrap() {
        let wname = w["name"].as_str().unwrap();
        let c = got
            .scenario
            .controllers
            .iter()
            .find(|c| c.name == wname)
            .unwrap();
        assert_eq!(
            c.controller.give_up_after,
            w["give_up_after"].as_u64(),
            "{name}: {wname}'s give_up_after"
        );
    }
    assert!(
        got.taken.iter().any(|f| f.file.ends_with("kettle.go")
            && f.line == 63
            && f.text.contains("give_up_after 6")),
        "the limit's line is not said: {:#?}",
        got.taken
    );
    assert!(
        got.unread.iter().any(|f| f.file.ends_with("lid.go")
            && f.line == 38
            && f.text.contains("retriesFromEnv")
            && f.text.contains("give_up_after")),
        "a limit not computed is not said: {:#?}",
        got.unread
    );
    // Every reconcile fails: each key is reconciled once, then requeued
    // while NumRequeues < 6, and forgotten at the failure that finds 6.
    let mut s = got.scenario.clone();
    for c in &mut s.controllers {
        c.default_script = workqueue_core::Script::Always {
            outcome: workqueue_core::Outcome::Error,
        };
        c.sources = vec![workqueue_core::Source::add_many("ns/k-", KeyCount::lit(3))];
    }
    s.duration_ns = Span::lit(3600 * SECOND);
    let mut m = workqueue_core::Manager::new(&s).unwrap();
    m.run_to_end();
    let runs: Vec<(String, u64, bool)> = m
        .controllers()
        .map(|(n, sim)| {
            let id = sim.find("ns/k-0").unwrap();
            let item = sim.item(id);
            (n.to_string(), item.reconciles, item.gave_up)
        })
        .collect();
    assert_eq!(
        runs,
        vec![
            ("kettle-boil".to_string(), 7, true),
            ("spout-pour".to_string(), 5, true),
            // No limit read: retried for as long as the run lasts.
            ("lid-seal".to_string(), runs[2].1.max(8), false),
            ("whistle-blow".to_string(), runs[3].1.max(8), false),
        ]
    );
}

/// A client-go queue's kind is the kind of the informer whose event
/// handlers add to it (a shared factory's `Core().V1().ConfigMaps()`, a
/// generated clientset's `Kitchen().V1alpha1().Teapots()`), not a guess
/// from the queue's name; a queue no handler feeds is still guessed, and
/// said. The informer's resync is a resync source where a handler's
/// UpdateFunc adds (the factory's period, or the handler's own), and
/// nothing where the handler has no UpdateFunc.
#[test]
fn client_go_kinds_and_resyncs_come_from_the_informers_feeding_the_queue() {
    let name = "clientgo-retry-limits-informer-kinds";
    let got = check(name);
    let by_name = |n: &str| {
        got.scenario
            .controllers
            .iter()
            .find(|c| c.name == n)
            .unwrap_or_else(|| panic!("no controller {n}"))
    };
    let want = expected(name);
    for w in want["controllers"].as_array().unwrap() {
        let n = w["name"].as_str().unwrap();
        assert_eq!(by_name(n).kind, w["kind"].as_str().unwrap(), "{n}'s kind");
    }
    let resyncs = |n: &str| -> Vec<workqueue_core::Duration> {
        by_name(n)
            .sources
            .iter()
            .filter_map(|s| match s {
                workqueue_core::Source::Resync { period_ns } => Some(period_ns.get()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(resyncs("spout-pour"), vec![300 * SECOND]);
    assert_eq!(resyncs("whistle-blow"), vec![45 * SECOND]);
    assert_eq!(resyncs("kettle-boil"), vec![]);
    assert_eq!(resyncs("lid-seal"), vec![]);
    let said = |file: &str, line: usize, text: &str| {
        got.taken
            .iter()
            .any(|f| f.file.ends_with(file) && f.line == line && f.text.contains(text))
    };
    assert!(
        said("kettle.go", 27, "kind ConfigMap, the informer")
            && said("kettle.go", 27, "Core().V1().ConfigMaps().Informer() whose handler (AddFunc) adds to its queue (kettle.go:30)")
            && said("whistle.go", 27, "Kitchen().V1alpha1().Teapots()")
            && said("kettle.go", 85, "resync every 5m0s: every object is added to the queue again")
            && said("kettle.go", 30, "resync every 5m0s adds nothing to the queue"),
        "the kinds' informers and resyncs are not said: {:#?}",
        got.taken
    );
    let guessed: Vec<&workqueue_go::Found> = got
        .unread
        .iter()
        .filter(|f| f.text.contains("is guessed from"))
        .collect();
    assert!(
        guessed.len() == 1
            && guessed[0].file.ends_with("lid.go")
            && guessed[0]
                .text
                .contains("\"lid-seal\": its kind LidSeal is guessed"),
        "only lid-seal's kind is a guess, said: {guessed:#?}"
    );
}

/// One limiter value passed to two controllers is one Go object: its
/// bucket is shared (and its per-item map, which the scenario cannot say:
/// said); equal figures from two calls are two objects, shared by none.
#[test]
fn one_limiter_value_in_two_controllers_shares_its_bucket() {
    let name = "one-limiter-value-two-controllers";
    let got = check(name);
    let b = got.scenario.shared_bucket.expect("no shared bucket");
    assert_eq!((b.qps.get(), b.burst.get()), (40.0, 400));
    assert!(
        got.unread.iter().any(|f| f.file.ends_with("main.go")
            && f.line == 34
            && f.text.contains("per-item failure counts are one map")),
        "the shared per-item map is not said: {:#?}",
        got.unread
    );
}
