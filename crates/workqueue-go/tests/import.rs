//! Go set-ups as real projects write them, read into scenarios.

use workqueue_core::ClientScope;
use workqueue_core::Span;
use workqueue_core::Workers;
use workqueue_core::{LimiterConfig, QueueKind, MILLISECOND, SECOND};
use workqueue_go::{import, ImportError};

mod common;
use common::{backoff_and_bucket, fixture};

fn says(list: &[workqueue_go::Found], file: &str, line: usize, text: &str) -> bool {
    list.iter()
        .any(|f| f.file == file && f.line == line && f.text.contains(text))
}

/// Requires that `list` says each `(file, line, text)`, showing the list
/// where it does not.
#[track_caller]
fn assert_says(list: &[workqueue_go::Found], expected: &[(&str, usize, &str)]) {
    for &(file, line, text) in expected {
        assert!(says(list, file, line, text), "{list:#?}");
    }
}

/// Whether any of `list` says `text`, wherever.
fn mentions(list: &[workqueue_go::Found], text: &str) -> bool {
    list.iter().any(|f| f.text.contains(text))
}

/// Requires that some of `list` says `text`, showing the list where none does.
#[track_caller]
fn assert_mentions(list: &[workqueue_go::Found], text: &str) {
    assert!(mentions(list, text), "{list:#?}");
}

/// A kubebuilder operator: flags for the client, the manager's timeout, two
/// controllers in their own files, one with its own limiter and client-go's queue.
#[test]
fn an_operator_reads_with_its_flags_limiters_and_controllers() {
    let got = import(&fixture("operator")).unwrap();
    let s = &got.scenario;
    let client = s.client.unwrap();
    assert_eq!(
        (client.qps.get(), client.burst.get(), client.per),
        (20.0, 30, ClientScope::Kind)
    );
    assert_eq!(s.controllers.len(), 2);
    let widget = s.controllers.iter().find(|c| c.kind == "Widget").unwrap();
    assert_eq!(widget.controller.workers, Workers::lit(4));
    assert_eq!(
        widget.queue,
        QueueKind::ClientGo,
        "UsePriorityQueue: ptr.To(false)"
    );
    assert_eq!(
        widget.limiter,
        Some(backoff_and_bucket(
            250 * MILLISECOND,
            300 * SECOND,
            20.0,
            200
        ))
    );
    assert_eq!(
        widget.controller.reconcile_timeout_ns,
        Some(Span::lit(30 * SECOND)),
        "the manager's default"
    );
    let gadget = s.controllers.iter().find(|c| c.name == "gadgets").unwrap();
    assert_eq!(
        (
            gadget.queue,
            gadget.limiter.clone(),
            gadget.controller.workers.get()
        ),
        (QueueKind::Priority, None, 1)
    );
    assert_says(
        &got.taken,
        &[
            ("main.go", 17, "flag --kube-api-qps: its default, 20"),
            ("main.go", 19, "flag --reconcile-timeout: its default, 30s"),
            ("widget_controller.go", 27, "MaxConcurrentReconciles 4"),
        ],
    );
    assert_mentions(&got.unread, "UsePriorityQueue is not set");
}

/// A Crossplane provider: kingpin flags, LimitRESTConfig, the global bucket,
/// one controller per kind's Setup.
#[test]
fn a_crossplane_provider_reads_with_its_rate_and_kinds() {
    let got = import(&fixture("provider")).unwrap();
    let s = &got.scenario;
    assert_eq!(s.crossplane.map(|c| c.max_reconcile_rate.get()), Some(10));
    let client = s.client.unwrap();
    assert_eq!(
        (client.qps.get(), client.burst.get(), client.per),
        (50.0, 100, ClientScope::Kind)
    );
    let kinds: Vec<_> = s.controllers.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(kinds, vec!["Bucket", "Topic"]);
    assert_says(
        &got.taken,
        &[
            ("main.go", 21, "flag --max-reconcile-rate: its default, 10"),
            ("main.go", 26, "LimitRESTConfig"),
        ],
    );
    assert!(s.validate().is_ok());
}

/// client-go on its own: a rate-limiting queue with fast/slow, a clientset's
/// one limiter.
#[test]
fn a_client_go_controller_reads_with_its_queue_and_clientset() {
    let got = import(&fixture("clientgo")).unwrap();
    let s = &got.scenario;
    let c = &s.controllers[0];
    assert_eq!(c.queue, QueueKind::ClientGo);
    assert_eq!(
        c.limiter,
        Some(LimiterConfig::FastSlow {
            fast_ns: Span::lit(100 * MILLISECOND),
            slow_ns: Span::lit(10 * SECOND),
            max_fast_attempts: 5
        })
    );
    let client = s.client.unwrap();
    assert_eq!(
        (client.qps.get(), client.burst.get(), client.per),
        (50.0, 100, ClientScope::Clientset)
    );
    assert_mentions(&got.unread, "workers");
}

/// Broken Go is refused with its file and line; so is a nesting no parser
/// should recurse into, and a set-up without a controller.
#[test]
fn broken_go_is_refused_with_its_line() {
    let broken = vec![(
        "main.go".to_string(),
        "package main\n\nfunc main() {\n\tx := (1 +\n}\n".to_string(),
    )];
    match import(&broken) {
        Err(ImportError::Parse { file, line, reason }) => {
            // The unfinished expression's line, and the parser's words.
            assert_eq!((file.as_str(), line), ("main.go", 4));
            assert_eq!(reason, "expect expression");
        }
        other => panic!("{other:?}"),
    }
    let deep = format!(
        "package main\n\nvar x = {}1{}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    match import(&[("deep.go".into(), deep)]) {
        Err(ImportError::Parse { line, reason, .. }) => {
            assert_eq!(line, 3);
            assert!(reason.contains("nested"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let none = vec![(
        "main.go".to_string(),
        "package main\n\nfunc main() {}\n".to_string(),
    )];
    assert_eq!(import(&none), Err(ImportError::NoController));
    let big = vec![("big.go".to_string(), "// x\n".repeat(1_000_000))];
    assert!(matches!(import(&big), Err(ImportError::TooBig { .. })));
}

/// A program's main alone, its controller built in a package of its own
/// whose files were not given: the error names each call the reader could
/// not follow, where, and its package (not the standard library's nor a
/// library's), at most ten, then how many more.
#[test]
fn main_alone_names_the_calls_into_packages_not_given() {
    let main = r#"package main

import (
	"flag"
	"os"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"example.com/lanterns/internal/wick"
	"example.com/lanterns/internal/globe"
)

func main() {
	flag.Parse()
	cfg, _ := clientcmd.BuildConfigFromFlags("", "")
	client := kubernetes.NewForConfigOrDie(cfg)
	w := wick.New(client, globe.Limiter())
	if err := w.Run(); err != nil {
		os.Exit(1)
	}
}
"#;
    match import(&[("main.go".to_string(), main.to_string())]) {
        Err(e @ ImportError::NotGiven { .. }) => {
            let ImportError::NotGiven { calls, more } = &e else {
                unreachable!()
            };
            assert_eq!(
                calls,
                &vec![
                    r#"wick.New at main.go:18 from package "example.com/lanterns/internal/wick": its files were not given"#.to_string(),
                    r#"globe.Limiter at main.go:18 from package "example.com/lanterns/internal/globe": its files were not given"#.to_string(),
                ]
            );
            assert_eq!(*more, 0);
            let text = e.to_string();
            assert!(
                text.starts_with("no controller found")
                    && text.contains("wick.New at main.go:18")
                    && !text.contains("clientcmd")
                    && !text.contains("os.Exit"),
                "{text}"
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // Fourteen calls: ten named, and 4 more.
    let mut many = String::from(
        "package main\n\nimport \"example.com/lanterns/internal/wick\"\n\nfunc main() {\n",
    );
    for i in 0..14 {
        many += &format!("\twick.Light{i}()\n");
    }
    many += "}\n";
    match import(&[("main.go".to_string(), many)]) {
        Err(e @ ImportError::NotGiven { .. }) => {
            let ImportError::NotGiven { calls, more } = &e else {
                unreachable!()
            };
            assert_eq!(calls.len(), 10, "{calls:#?}");
            assert!(
                calls[9].starts_with("wick.Light9 at main.go:15"),
                "{calls:#?}"
            );
            assert_eq!(*more, 4);
            assert!(e.to_string().contains("; and 4 more."), "{e}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}

/// What an author pastes: a bare SetupWithManager (no package clause), or
/// two files in one box; a go.mod says which controller-runtime; a worker
/// count passed through a struct field from a flag.
#[test]
fn pasted_pieces_a_go_mod_and_a_field_from_a_flag() {
    let setup = "func (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Widget{}).\n\t\tWithOptions(controller.Options{MaxConcurrentReconciles: 2}).\n\t\tComplete(r)\n}\n";
    let got = import(&[("pasted.go".into(), setup.into())]).unwrap();
    assert_eq!(
        got.scenario.controllers[0].controller.workers,
        Workers::lit(2)
    );
    assert_says(
        &got.taken,
        &[("pasted.go", 2, "controller \"widget\" for Widget")],
    );

    let main = "package main\n\nfunc main() {\n\tvar n int\n\tflag.IntVar(&n, \"workers\", 5, \"\")\n\t_ = (&R{Workers: n}).SetupWithManager(mgr)\n}\n";
    let ctl = "package controller\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Gadget{}).\n\t\tWithOptions(controller.Options{MaxConcurrentReconciles: r.Workers}).\n\t\tComplete(r)\n}\n";
    let gomod = "module example.com/x\n\ngo 1.22\n\nrequire (\n\tsigs.k8s.io/controller-runtime v0.19.0\n)\n";
    let files = vec![
        ("go.mod".to_string(), gomod.to_string()),
        ("paste.go".to_string(), format!("{main}{ctl}")),
    ];
    let got = import(&files).unwrap();
    let c = &got.scenario.controllers[0];
    assert_eq!(
        c.controller.workers,
        Workers::lit(5),
        "r.Workers is the flag's default"
    );
    assert_eq!(
        c.queue,
        QueueKind::ClientGo,
        "controller-runtime v0.19: client-go's queue"
    );
    assert_says(&got.taken, &[("go.mod", 6, "controller-runtime v0.19")]);
    // The second file's chain is named at its line in the paste.
    assert_says(
        &got.taken,
        &[("paste.go", 11, "controller \"gadget\" for Gadget")],
    );
    assert!(!mentions(&got.unread, "UsePriorityQueue is not set"));

    // The go.mod pasted into the same box, after the Go: its version is
    // read at its line in the paste, and it is not taken for Go.
    let pasted = format!("{main}{ctl}{gomod}");
    let got = import(&[("pasted.go".to_string(), pasted)]).unwrap();
    assert_eq!(got.scenario.controllers[0].queue, QueueKind::ClientGo);
    let line = main.lines().count() + ctl.lines().count() + 6;
    assert_says(
        &got.taken,
        &[("pasted.go", line, "controller-runtime v0.19")],
    );

    // A field that cannot be read is said, never guessed silently.
    let unknown = "package c\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Thing{}).\n\t\tWithOptions(controller.Options{MaxConcurrentReconciles: r.Pool()}).\n\t\tComplete(r)\n}\n";
    let got = import(&[("c.go".into(), unknown.into())]).unwrap();
    assert_mentions(&got.unread, "MaxConcurrentReconciles");
}

/// A file cut short is refused at a line the file has.
#[test]
fn a_file_cut_short_is_refused_within_its_lines() {
    let text = "package main\n\nfunc main() {\n\tx := foo(1,\n";
    match import(&[("cut.go".into(), text.into())]) {
        Err(ImportError::Parse { line, .. }) => assert!((1..=4).contains(&line), "{line}"),
        other => panic!("{other:?}"),
    }
}

/// A limiter built in a helper function (no parameters, one `return`) is
/// read as what it returns.
#[test]
fn a_limiter_from_a_helper_function_is_read() {
    let text = "package c\n\nconst base = 2 * time.Second\n\nfunc brokerRateLimiter() workqueue.TypedRateLimiter[reconcile.Request] {\n\treturn workqueue.NewTypedMaxOfRateLimiter(\n\t\tworkqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, 5*time.Minute),\n\t\t&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(5, 20)},\n\t)\n}\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Queue{}).\n\t\tWithOptions(controller.Options{RateLimiter: brokerRateLimiter()}).\n\t\tComplete(r)\n}\n";
    let got = import(&[("c.go".into(), text.into())]).unwrap();
    assert_eq!(
        got.scenario.controllers[0].limiter,
        Some(backoff_and_bucket(2 * SECOND, 300 * SECOND, 5.0, 20))
    );
}

/// Kubebuilder's layout: each reconciler struct has a `MaxConcurrentReconciles`
/// field that main.go fills (one from a flag, one with a literal) and its
/// `SetupWithManager` passes on as `r.MaxConcurrentReconciles`: each
/// controller gets its own struct's value, not the last one written.
#[test]
fn a_field_each_reconciler_struct_fills_is_read_per_struct() {
    let main = r#"package main

import (
	"flag"
	ctrl "sigs.k8s.io/controller-runtime"
	"example.com/acme/internal/controller"
)

func main() {
	var workers int
	flag.IntVar(&workers, "max-concurrent-reconciles", 4, "workers")
	flag.Parse()
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err := (&controller.CacheReconciler{Client: mgr.GetClient(), MaxConcurrentReconciles: workers}).SetupWithManager(mgr); err != nil {
		panic(err)
	}
	if err := (&controller.HookReconciler{Client: mgr.GetClient(), MaxConcurrentReconciles: 2}).SetupWithManager(mgr); err != nil {
		panic(err)
	}
}
"#;
    let setup = |kind: &str| {
        format!(
            r#"package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	acmev1 "example.com/acme/api/v1"
)

type {kind}Reconciler struct {{
	MaxConcurrentReconciles int
}}

func (r *{kind}Reconciler) SetupWithManager(mgr ctrl.Manager) error {{
	return ctrl.NewControllerManagedBy(mgr).
		For(&acmev1.{kind}{{}}).
		WithOptions(controller.Options{{MaxConcurrentReconciles: r.MaxConcurrentReconciles}}).
		Complete(r)
}}
"#
        )
    };
    // The controllers' files come before main.go, as a directory lists them.
    let files = vec![
        ("cache_controller.go".to_string(), setup("Cache")),
        ("hook_controller.go".to_string(), setup("Hook")),
        ("main.go".to_string(), main.to_string()),
    ];
    let got = import(&files).unwrap();
    let workers = |kind: &str| {
        got.scenario
            .controllers
            .iter()
            .find(|c| c.kind == kind)
            .unwrap()
            .controller
            .workers
            .get()
    };
    assert_eq!((workers("Cache"), workers("Hook")), (4, 2));
    // A receiver's field that no literal of its type fills, while others
    // disagree, is said, not guessed.
    let mut files = files;
    files.push(("extra_controller.go".into(), setup("Extra")));
    files[2].1 = files[2].1.replace(
        "\tif err := (&controller.HookReconciler",
        "\tif err := (&controller.ExtraReconciler{}).SetupWithManager(mgr); err != nil {\n\t\tpanic(err)\n\t}\n\tif err := (&controller.HookReconciler",
    );
    let got = import(&files).unwrap();
    let extra = got
        .scenario
        .controllers
        .iter()
        .find(|c| c.kind == "Extra")
        .unwrap();
    assert_eq!(extra.controller.workers, Workers::lit(1));
    // Its field is Go's zero value: controller-runtime takes 0 as unset.
    assert!(
        got.unread.iter().any(|f| f.text.contains("\"extra\"")
            && f.text.contains("0 is not a count of workers")),
        "{:?}",
        got.unread
    );
}

/// crossplane-runtime's global bucket gates only a reconciler wrapped in
/// `ratelimiter.NewReconciler`: a provider that forgets the wrapper is told,
/// at the line of its `Complete`.
#[test]
fn a_crossplane_reconciler_without_the_global_wrapper_is_said() {
    let wrapped = import(&fixture("provider")).unwrap();
    assert!(!mentions(&wrapped.unread, "not wrapped"));
    let files: Vec<(String, String)> = fixture("provider")
        .into_iter()
        .map(|(name, text)| {
            let text = match name.as_str() {
                "topic.go" => text.replace(
                    "Complete(ratelimiter.NewReconciler(name, r, o.GlobalRateLimiter))",
                    "Complete(r)",
                ),
                _ => text,
            };
            (name, text)
        })
        .collect();
    let got = import(&files).unwrap();
    assert_says(
        &got.unread,
        &[("topic.go", 20, "not wrapped in ratelimiter.NewReconciler")],
    );
    assert!(!says(&got.unread, "bucket.go", 20, "not wrapped"));
}

/// `Owns` and `Watches` are met and said: an owned object's events come
/// back as the owner's key, which the playground does not feed back.
#[test]
fn owned_kinds_are_said_not_skipped() {
    let setup = "package c\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Database{}).\n\t\tOwns(&corev1.Secret{}).\n\t\tComplete(r)\n}\n";
    let got = import(&[("c.go".into(), setup.into())]).unwrap();
    assert_says(
        &got.unread,
        &[(
            "c.go",
            6,
            "Owns(Secret): events of owned Secrets enqueue the owner again",
        )],
    );
}

/// go.mod says which Crossplane: the provider's code on crossplane-runtime
/// and controller-runtime v0.23 is a provider of today; the same code on
/// v0.22 is the 2021 design as it ran; core's own module without a global
/// bucket is core since v2.1.
#[test]
fn go_mod_says_which_crossplane_profile() {
    use workqueue_core::CrossplaneProfile;
    let with = |gomod: &str| {
        let mut files = fixture("provider");
        files.push(("go.mod".to_string(), gomod.to_string()));
        import(&files).unwrap()
    };
    let today = "module github.com/acme/provider-x\n\ngo 1.24\n\nrequire (\n\tgithub.com/crossplane/crossplane-runtime/v2 v2.4.0\n\tsigs.k8s.io/controller-runtime v0.23.1\n)\n";
    let got = with(today);
    let cp = got.scenario.crossplane.unwrap();
    assert_eq!(
        (cp.max_reconcile_rate.get(), cp.profile),
        (10, CrossplaneProfile::Provider)
    );
    assert_says(&got.taken, &[("go.mod", 6, "profile provider")]);

    let got = with(&today.replace("v0.23.1", "v0.22.4"));
    assert_eq!(
        got.scenario.crossplane.unwrap().profile,
        CrossplaneProfile::Note2021
    );
    assert_says(&got.taken, &[("go.mod", 6, "the 2021 design as it ran")]);

    let core = "module github.com/crossplane/crossplane/v2\n\nrequire sigs.k8s.io/controller-runtime v0.23.1\n";
    let setup = "package c\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Composite{}).\n\t\tWithOptions(controller.Options{MaxConcurrentReconciles: 7}).\n\t\tComplete(r)\n}\n";
    let got = import(&[
        ("go.mod".to_string(), core.to_string()),
        ("c.go".to_string(), setup.to_string()),
    ])
    .unwrap();
    let cp = got.scenario.crossplane.unwrap();
    assert_eq!(
        (cp.max_reconcile_rate.get(), cp.profile),
        (7, CrossplaneProfile::Core)
    );
    assert_says(&got.taken, &[("go.mod", 1, "core since v2.1")]);
    assert!(got.scenario.validate().is_ok());
}

/// A delay written out of its range in Go (a negative backoff) is named at
/// its controller's line, with the option it was given to, in the words a
/// scenario file gets, and the reader goes on with the default it says.
#[test]
fn a_delay_out_of_range_in_go_is_named_with_its_controller() {
    let text = "package c\n\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Queue{}).\n\t\tWithOptions(controller.Options{RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](-5*time.Millisecond, time.Minute)}).\n\t\tComplete(r)\n}\n";
    let got = import(&[("c.go".into(), text.into())]).unwrap();
    let said = got
        .unread
        .iter()
        .find(|f| f.text.contains("out of range"))
        .unwrap_or_else(|| panic!("{:?}", got.unread));
    assert_eq!((said.file.as_str(), said.line), ("c.go", 4), "{said}");
    assert!(
        said.text.contains(
            "RateLimiter: -5ms is out of range: use 0s to 87600h0m0s: the default is used"
        ),
        "{said}"
    );
}
