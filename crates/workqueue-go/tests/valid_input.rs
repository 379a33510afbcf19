//! Valid Go that real files contain is read as Go reads it, and numbers Go
//! would refuse are said, never a panic or a silent default.

use workqueue_core::QueueKind;
use workqueue_core::Workers;
use workqueue_go::{import, Imported};

fn one(name: &str, text: &str) -> Vec<(String, String)> {
    vec![(name.to_string(), text.to_string())]
}

const CONTROLLER: &str = "\nfunc main() {\n\tctrl.NewControllerManagedBy(mgr).Named(\"w\").For(&v1.Widget{}).WithOptions(controller.Options{MaxConcurrentReconciles: 3}).Complete(r)\n}\n";

fn read(files: Vec<(String, String)>) -> Imported {
    import(&files).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_byte_order_mark_is_go() {
    let got = read(one(
        "main.go",
        &format!("\u{feff}package main\n{CONTROLLER}"),
    ));
    assert_eq!(
        got.scenario.controllers[0].controller.workers,
        Workers::lit(3)
    );
    // The same with a go.mod that has one too, and a tab after `module`.
    let files =
        vec![
        (
            "go.mod".to_string(),
            "\u{feff}module\texample.com/op\n\nrequire sigs.k8s.io/controller-runtime v0.21.3\n"
                .to_string(),
        ),
        ("main.go".to_string(), format!("\u{feff}package\tmain\n{CONTROLLER}")),
    ];
    let got = read(files);
    assert_eq!(got.scenario.controllers[0].queue, QueueKind::ClientGo);
    assert!(got
        .taken
        .iter()
        .any(|f| f.file == "go.mod" && f.line == 3 && f.text.contains("v0.21")));
}

/// A raw string holding a line that starts with `package` (a usage text, a
/// template) is part of its file, not the start of another.
#[test]
fn package_inside_a_raw_string_starts_no_file() {
    let text = format!("package main\n\nconst usage = `\npackage docs\nmodule x\n`\n{CONTROLLER}");
    let got = read(one("paste", &text));
    assert_eq!(got.scenario.controllers.len(), 1);
    // The controller's line is counted in the whole paste.
    assert!(
        got.taken
            .iter()
            .any(|f| f.line == 9 && f.text.contains("\"w\"")),
        "{:#?}",
        got.taken
    );
}

/// A replace directive decides the version the program builds with.
#[test]
fn a_replaced_controller_runtime_is_the_replacement() {
    let gomod = "module x\n\nrequire sigs.k8s.io/controller-runtime v0.22.1\n\nreplace sigs.k8s.io/controller-runtime v0.22.1 => sigs.k8s.io/controller-runtime v0.23.1\n";
    let files = vec![
        ("go.mod".to_string(), gomod.to_string()),
        ("main.go".to_string(), format!("package main\n{CONTROLLER}")),
    ];
    let got = read(files);
    assert_eq!(got.scenario.controllers[0].queue, QueueKind::Priority);
    assert!(got
        .taken
        .iter()
        .any(|f| f.file == "go.mod" && f.line == 5 && f.text.contains("v0.23")));
}

/// Zero or fewer workers: controller-runtime takes the option as unset
/// (one worker), and the reader says so.
#[test]
fn workers_below_one_are_said_to_be_unset() {
    for n in ["-5", "0"] {
        let text = format!(
            "package main\n{}",
            CONTROLLER.replace(
                "MaxConcurrentReconciles: 3",
                &format!("MaxConcurrentReconciles: {n}")
            )
        );
        let got = read(one("main.go", &text));
        assert_eq!(
            got.scenario.controllers[0].controller.workers,
            Workers::lit(1)
        );
        assert!(
            got.unread
                .iter()
                .any(|f| f.text.contains("MaxConcurrentReconciles") && f.text.contains("unset")),
            "{:#?}",
            got.unread
        );
    }
}

/// Numbers past what Go's types hold: said where they are, no panic.
#[test]
fn overflowing_numbers_are_said_not_wrapped() {
    let cases = [
        (
            "cfg = ratelimiter.LimitRESTConfig(cfg, 1e30)",
            "LimitRESTConfig",
        ),
        ("cfg.Burst = 1e300", "Burst"),
        (
            "o := controller.Options{GlobalRateLimiter: ratelimiter.NewGlobal(1e30)}\n\t_ = o",
            "",
        ),
        ("d := -(-1e30 * time.Second)\n\t_ = d", ""),
        ("t := time.Duration(9.3e18)\n\t_ = t", ""),
    ];
    for (line, said) in cases {
        let text = format!(
            "package main\n\nfunc init() {{\n\t{line}\n}}\n{}",
            CONTROLLER.replace(
                "MaxConcurrentReconciles: 3",
                "MaxConcurrentReconciles: 3, ReconciliationTimeout: -(-1e30 * time.Second)"
            )
        );
        let got = read(one("main.go", &text));
        assert!(
            got.unread
                .iter()
                .any(|f| f.text.contains("ReconciliationTimeout")),
            "{line}: {:#?}",
            got.unread
        );
        if !said.is_empty() {
            assert!(
                got.unread
                    .iter()
                    .any(|f| f.line == 4 && f.text.contains(said)),
                "{line}: {:#?}",
                got.unread
            );
        }
    }
}
