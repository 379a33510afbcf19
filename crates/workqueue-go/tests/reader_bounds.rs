//! Go from anyone is read within bounds: no shape of expression or
//! statement exhausts the stack, no evaluation runs without a budget, and
//! every refusal names the file, the line and the limit.

use workqueue_core::Workers;
use workqueue_go::{import, ImportError};

/// The stack the page's worker has (wasm32's default, 1 MiB); these tests
/// are built without optimisation, whose frames are larger than the page's.
const SMALL_STACK: usize = 1 << 20;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("the reader returned")
}

fn main_go(expr: &str) -> Vec<(String, String)> {
    let src = format!(
        "package main\n\nvar x = {expr}\n\nfunc main() {{\n\ty := {expr}\n\t_ = y\n\tif true {{\n\t\tz := {expr}\n\t\t_ = z\n\t}}\n}}\n"
    );
    vec![("main.go".to_string(), src)]
}

/// A shape of nesting: its name, and its Go `n` deep.
type Shape = (&'static str, fn(usize) -> String);

/// Every way an expression, a type or a statement nests, `n` deep.
fn shapes() -> Vec<Shape> {
    vec![
        ("unary operators", |n| format!("{}1", "^".repeat(n))),
        ("negations", |n| format!("{}1", "-".repeat(n))),
        ("a sum", |n| format!("1{}", "+1".repeat(n))),
        ("a product of sums", |n| format!("1{}", "*1+1".repeat(n))),
        ("brackets", |n| {
            format!("{}1{}", "(".repeat(n), ")".repeat(n))
        }),
        ("selectors", |n| format!("a{}", ".b".repeat(n))),
        ("calls", |n| format!("f{}", "()".repeat(n))),
        ("a builder chain", |n| {
            format!("b{}", ".Named(\"x\")".repeat(n))
        }),
        ("indexes", |n| format!("a{}", "[0]".repeat(n))),
        ("nested calls", |n| {
            format!("{}1{}", "f(".repeat(n), ")".repeat(n))
        }),
        ("negated brackets", |n| {
            format!("{}1{}", "-(".repeat(n), ")".repeat(n))
        }),
        ("composite literals", |n| {
            format!("{}{}", "T{".repeat(n), "}".repeat(n))
        }),
        ("function literals", |n| {
            format!("{}1{}", "func() int { return ".repeat(n), " }()".repeat(n))
        }),
        ("pointer types", |n| format!("new({}int)", "*".repeat(n))),
        ("channel types", |n| {
            format!("make({}int)", "chan ".repeat(n))
        }),
        ("slice types", |n| format!("[]{}int{{}}", "[]".repeat(n))),
        ("address and deref", |n| format!("{}x", "&*".repeat(n))),
        // A deep first link, then a chain whose nodes sit above it.
        ("a chain after a deep call", |n| {
            format!("f({}1){}", "^".repeat(150), ".g()".repeat(n))
        }),
        ("a chain of deep calls", |n| {
            format!("b{}", ".g(^^^^^^^^^^^^^^^^^^^^1)".repeat(n))
        }),
    ]
}

/// Each shape, from one level until the reader refuses it, is read or
/// refused by its limit on a 1 MiB stack: never a crash.
#[test]
fn every_shape_is_read_or_refused_on_a_small_stack() {
    for (name, shape) in shapes() {
        let refused_at = on_small_stack(move || {
            (1..=400).find(|n| {
                matches!(import(&main_go(&shape(*n))),
                    Err(ImportError::Parse { reason, .. }) if reason.contains("nested too deep"))
            })
        });
        let n = refused_at.unwrap_or_else(|| panic!("{name}: 400 deep was read"));
        assert!(n > 1, "{name}: refused at one level");
    }
}

/// The hostile files of the report: thousands of operators or terms, long
/// chains. Each is refused at its line, with the limit.
#[test]
fn long_chains_are_refused_with_their_line_and_limit() {
    let cases = [
        format!("{}1", "^".repeat(2000)),
        format!("1{}", "+1".repeat(5000)),
        format!("a{}", ".b".repeat(5000)),
        format!("f{}", "()".repeat(5000)),
        format!("{}1{}", "(".repeat(3000), ")".repeat(3000)),
    ];
    for expr in cases {
        let files = main_go(&expr);
        let got = on_small_stack(move || import(&files));
        match got {
            Err(e @ ImportError::Parse { .. }) => {
                let said = e.to_string();
                assert!(said.starts_with("main.go: line 3:"), "{said}");
                assert!(said.contains("200"), "{said}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}

/// Real code nests far less than the limit: a builder chain of fifty
/// links, a composite literal four deep, a sum of forty terms.
#[test]
fn ordinary_nesting_is_read() {
    let src = format!(
        r#"package main

var help = {}

func main() {{
	mgr, _ := ctrl.NewManager(cfg, ctrl.Options{{Metrics: server.Options{{TLSOpts: []func(*tls.Config){{func(c *tls.Config) {{ c.NextProtos = []string{{"http/1.1"}} }}}}}}}})
	if err := ctrl.NewControllerManagedBy(mgr).
		Named("widget").
		For(&v1.Widget{{}}){}.
		WithOptions(controller.Options{{MaxConcurrentReconciles: 4}}).
		Complete(r); err != nil {{
		panic(err)
	}}
}}
"#,
        vec!["\"x\""; 40].join(" +\n\t"),
        ".\n\t\tOwns(&v1.Part{})".repeat(50)
    );
    let got = on_small_stack(move || import(&[("main.go".into(), src)])).expect("read");
    assert_eq!(
        got.scenario.controllers[0].controller.workers,
        Workers::lit(4)
    );
}

/// Helper functions that call each other many times: the evaluation
/// budget stops them at the line where it ran out.
#[test]
fn evaluation_has_a_budget() {
    // Each helper calls the next `calls` times: calls^levels evaluations.
    let helpers = |levels: usize, calls: usize| {
        let mut src = format!("package main\n\nfunc h{levels}() int {{ return 1 }}\n");
        for i in (0..levels).rev() {
            let next = vec![format!("h{}()", i + 1); calls].join(" + ");
            src += &format!("func h{i}() int {{ return {next} }}\n");
        }
        src + "\nvar workers = h0()\n\nfunc main() {\n\tx := h0()\n\t_ = x\n}\n"
    };
    for (levels, calls) in [(25, 4), (8, 10)] {
        let src = helpers(levels, calls);
        let got = on_small_stack(move || import(&[("main.go".into(), src)]));
        match got {
            Err(e @ ImportError::Budget { .. }) => {
                let said = e.to_string();
                // The first line that asked for it: `var workers = h0()`.
                assert!(
                    said.starts_with(&format!("main.go: line {}:", levels + 5)),
                    "{said}"
                );
                assert!(said.contains("1000000"), "{said}");
            }
            other => panic!("{levels}x{calls}: {:?}", other.map(|_| ())),
        }
    }
    // The same helpers a few levels deep are read, to their value.
    let src = helpers(3, 4).replace("func main() {", "func main() {\n\tctrl.NewControllerManagedBy(mgr).Named(\"w\").WithOptions(controller.Options{MaxConcurrentReconciles: h0()}).Complete(r)");
    let got = import(&[("main.go".into(), src)]).expect("read");
    assert_eq!(
        got.scenario.controllers[0].controller.workers,
        Workers::lit(64)
    );
}

/// Tens of thousands of flags read in linear time: each note is said once.
#[test]
fn many_flags_are_read() {
    let mut src = String::from("package main\n\nfunc main() {\n");
    for i in 0..80_000 {
        src += &format!("\tflag.IntVar(&v{i}, \"flag-{i}\", {i}, \"\")\n");
    }
    src += "}\n";
    match import(&[("main.go".into(), src)]) {
        Err(ImportError::NoController) => {}
        Err(e @ ImportError::Budget { .. }) => panic!("{e}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
