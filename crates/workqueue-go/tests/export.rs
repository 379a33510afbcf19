//! The Go export is the author's set-up: gofmt-clean, and read back by the
//! importer to the same set-up, for every example scenario and generated ones.

use workqueue_core::Span;
use workqueue_core::{BreakerAmount, Burst, ClientQps, Qps, ReconcileRate, Workers};
use workqueue_core::{BucketSpec, ClientLimit, ClientScope};
use workqueue_core::{QueueKind, Scenario, MILLISECOND};
use workqueue_go::export::{go, SetUp};
use workqueue_go::import;

mod common;
use common::layout;

fn examples() -> Vec<(String, Scenario)> {
    let dir = format!("{}/../../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let s = Scenario::from_json(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), s)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A small deterministic generator of set-ups the export must carry.
fn generated() -> Vec<(String, Scenario)> {
    let limiters = common::limiters();
    let clients = [
        None,
        Some(ClientLimit {
            qps: ClientQps::lit(20.0),
            burst: Burst::lit(30),
            per: ClientScope::Kind,
        }),
        Some(ClientLimit {
            qps: ClientQps::lit(5.0),
            burst: Burst::lit(10),
            per: ClientScope::Clientset,
        }),
        Some(ClientLimit {
            qps: ClientQps::lit(12.5),
            burst: Burst::lit(25),
            per: ClientScope::Shared,
        }),
    ];
    let mut out = Vec::new();
    for (i, l) in limiters.iter().enumerate() {
        let mut s = Scenario::new("generated");
        s.client = clients[i % clients.len()];
        let mut c = s.controllers[0].clone();
        c.name = format!("ctl-{i}");
        c.kind = format!("widgets.v{i}");
        c.limiter = l.clone();
        c.queue = if i % 2 == 0 {
            QueueKind::Priority
        } else {
            QueueKind::ClientGo
        };
        c.controller.workers = Workers::new(1 + i as u32).unwrap();
        c.controller.reconcile_timeout_ns =
            (i % 3 == 0).then_some(Span::lit((i as i64 + 1) * 750 * MILLISECOND));
        let mut d = c.clone();
        d.name = format!("other-{i}");
        d.kind = "gadget".into();
        d.limiter = limiters[(i + 3) % limiters.len()].clone();
        if i % 2 == 1 {
            s.shared_bucket = Some(BucketSpec {
                qps: Qps::lit(3.0),
                burst: Burst::lit(9),
            });
            c.shares_bucket = true;
        }
        s.controllers = vec![c, d];
        out.push((format!("generated-{i}"), s));
    }
    let mut cp = Scenario::new("crossplane");
    cp.crossplane = Some(workqueue_core::CrossplaneConfig::note_2021(
        ReconcileRate::lit(7),
    ));
    cp.client = Some(ClientLimit::per_kind(ClientQps::lit(35.0), Burst::lit(70)));
    out.push(("crossplane-7".into(), cp));
    out
}

#[test]
fn every_export_reads_back_to_the_same_set_up() {
    let all: Vec<_> = examples().into_iter().chain(generated()).collect();
    assert!(all.len() >= 10);
    for (name, s) in all {
        let code = go(&s);
        let back = import(&[("main.go".into(), code.clone())])
            .unwrap_or_else(|e| panic!("{name}: {e}\n{code}"));
        assert_eq!(SetUp::of(&back.scenario), SetUp::of(&s), "{name}\n{code}");
        // The pasted code runs as the stage does: under Crossplane the
        // global bucket gates each reconciler through its wrapper.
        assert!(
            !back.unread.iter().any(|f| f.text.contains("not wrapped")),
            "{name}: {:#?}",
            back.unread
        );
    }
}

#[test]
fn every_export_is_gofmt_clean() {
    // gofmt comes with Go; where Go is not installed the round trip above
    // still parses every export with a Go parser.
    for (name, s) in examples().into_iter().chain(generated()) {
        if let Err(diff) = workqueue_go::export::gofmt_clean(&go(&s)) {
            panic!("{name}: not gofmt-clean:\n{diff}");
        }
    }
}

/// The check itself tells a badly formatted file from a clean one.
#[test]
fn the_gofmt_check_sees_a_badly_formatted_file() {
    match workqueue_go::export::gofmt_clean("package main\n\nfunc  main() {}\n") {
        Ok(false) => println!("gofmt not installed"),
        Ok(true) => panic!("a badly formatted file passed"),
        Err(diff) => assert!(diff.contains("func main()"), "{diff}"),
    }
    assert_ne!(
        workqueue_go::export::gofmt_clean("package main\n\nfunc main() {}\n"),
        Err(String::new())
    );
}

/// Issue 48, item 6: a client-go program comes back as client-go (its
/// queue, limiter, clientset config and worker loop), never as a
/// controller-runtime manager with `UsePriorityQueue: ptr.To(false)`; a
/// controller-runtime one as controller-runtime. Each reads back the same.
#[test]
fn each_program_is_exported_in_its_own_idiom() {
    for (name, client_go) in [
        ("clientgo-run-workers-param", true),
        ("cobra-untyped-named-queues", true),
        ("clientgo-constructor-limiters-shared-loop", true),
        ("options-helper-param-wrapper", false),
        ("crossplane-two-scopes", false),
    ] {
        let s = import(&layout(name)).unwrap().scenario;
        let code = go(&s);
        assert_eq!(
            code.contains("ctrl.NewManager"),
            !client_go,
            "{name}: {code}"
        );
        if client_go {
            for must in [
                "clientcmd.BuildConfigFromFlags",
                "kubernetes.NewForConfigOrDie(cfg)",
                "workqueue.NewTypedRateLimitingQueueWithConfig",
                "for i := 0; i < workers; i++",
                "go wait.UntilWithContext(ctx, c.runWorker, time.Second)",
            ] {
                assert!(code.contains(must), "{name}: no {must}: {code}");
            }
            assert!(!code.contains("UsePriorityQueue"), "{name}: {code}");
        }
        if let Err(diff) = workqueue_go::export::gofmt_clean(&code) {
            panic!("{name}: not gofmt-clean:\n{diff}\n{code}");
        }
        let back = import(&[("main.go".into(), code.clone())])
            .unwrap_or_else(|e| panic!("{name}: {e}\n{code}"))
            .scenario;
        assert_eq!(SetUp::of(&back), SetUp::of(&s), "{name}: {code}");
        if client_go {
            assert_eq!(
                back.client.map(|c| c.per),
                s.client.map(|c| c.per),
                "{name}"
            );
        }
    }
}

/// Crossplane core since v2.1 is no code its users write: its export is the
/// Helm values of its flags, with the run's workers and breaker, and nothing
/// of the 2021 design (no global bucket, no client limit).
#[test]
fn crossplane_core_exports_its_flags_as_helm_values() {
    use workqueue_core::{BreakerFlags, CrossplaneConfig, CrossplaneProfile, SECOND};
    use workqueue_go::export::Language;
    let mut s = Scenario::new("core");
    s.controllers[0].name = "x\"\n- --evil`$(rm -rf /)".into();
    s.crossplane = Some(CrossplaneConfig {
        max_reconcile_rate: ReconcileRate::lit(12),
        profile: CrossplaneProfile::Core,
        breaker: Some(BreakerFlags {
            burst: BreakerAmount::lit(40.0),
            refill_per_second: BreakerAmount::lit(0.5),
            cooldown: Span::lit(90 * SECOND),
        }),
    });
    assert_eq!(Language::of(&s), Language::HelmValues);
    let text = go(&s);
    let args: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .collect();
    assert_eq!(
        args,
        [
            "--max-concurrent-reconciles=12",
            "--circuit-breaker-burst=40",
            "--circuit-breaker-refill-rate=0.5",
            "--circuit-breaker-cooldown=1m30s",
        ],
        "{text}"
    );
    // Every line a comment, the key `args:` or one of those items.
    for line in text.lines() {
        let t = line.trim();
        assert!(
            t.is_empty() || t.starts_with('#') || t == "args:" || t.starts_with("- --"),
            "{line}"
        );
    }
    for absent in ["evil", "NewGlobal", "LimitRESTConfig", "package main"] {
        assert!(!text.contains(absent), "{absent} in\n{text}");
    }
    // The defaults when the scenario names none: v2.1.1's.
    s.crossplane = Some(CrossplaneConfig {
        breaker: None,
        ..s.crossplane.unwrap()
    });
    let text = go(&s);
    for flag in [
        "--circuit-breaker-burst=100",
        "--circuit-breaker-refill-rate=1",
        "--circuit-breaker-cooldown=5m0s",
    ] {
        assert!(text.contains(flag), "{flag} in\n{text}");
    }
    // The other two profiles stay Go.
    for profile in [CrossplaneProfile::Note2021, CrossplaneProfile::Provider] {
        s.crossplane = Some(CrossplaneConfig {
            profile,
            breaker: None,
            max_reconcile_rate: ReconcileRate::lit(12),
        });
        assert_eq!(Language::of(&s), Language::Go);
        let code = go(&s);
        assert!(code.starts_with("package main"));
        // The client limit Crossplane's rate sets, though the file names none.
        assert!(
            code.contains("cfg = ratelimiter.LimitRESTConfig(cfg, maxReconcileRate)"),
            "{code}"
        );
        assert!(!code.contains("cfg.QPS = -1"), "{code}");
    }
}
