//! Fuzzing the Go reader: the fixtures and the export's own files, mutated
//! token by token, with chains of operators, selectors, calls and brackets
//! thousands long spliced in, numbers at the edges of 64 bits, and one
//! case in eight of arbitrary bytes. On a 1 MiB stack (the page worker's),
//! for every case:
//!
//! * nothing panics and nothing overflows the stack (the fuzz build keeps
//!   overflow checks on);
//! * a refusal names a file that was given and a line within it.
//!
//! Each case comes from its number (`WQ_FUZZ_FROM=N WQ_FUZZ_CASES=1`
//! replays one). CI runs a few thousand; `bash scripts/fuzz.sh` a million.

#![cfg(not(target_arch = "wasm32"))]

use std::panic::{catch_unwind, AssertUnwindSafe};

use workqueue_core::{Rng, Scenario};
use workqueue_go::{import, ImportError};

mod common;

/// What a mutation writes: Go's tokens, hostile characters, edge numbers.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "^",
    "-",
    "+",
    "*",
    "&",
    "!",
    "<-",
    ".",
    ",",
    ";",
    ":=",
    "=",
    "\n",
    "\"",
    "`",
    "'",
    "/*",
    "*/",
    "//",
    "\\",
    "\u{feff}",
    "\u{202e}",
    "\0",
    "\r",
    "package main\n",
    "module x\n",
    "func",
    "return",
    "var",
    "const",
    "go ",
    "for ",
    "if ",
    "chan ",
    "map[",
    "struct{",
    "interface{",
    "1e308",
    "-1e308",
    "1e-300",
    "9223372036854775807",
    "18446744073709551616",
    "0x",
    "0b2",
    "1_",
    "-(-1e30*time.Second)",
    "time.Duration(9.3e18)",
    "ratelimiter.LimitRESTConfig(cfg, 1e30)",
    "ratelimiter.NewGlobal(-1)",
    "MaxConcurrentReconciles: -5",
    "flag.IntVar(&x, \"\\x1b[2K\", 1, \"\")",
    "f()",
    "h0()",
    "ctrl.NewControllerManagedBy(mgr).Named(\"\\n\").For(&v1.X{}).Complete(r)",
    "workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())",
    "\"sigs.k8s.io/controller-runtime\"",
    "sigs.k8s.io/controller-runtime v0.",
];

/// A chain `n` long of one shape.
fn chain(rng: &mut Rng, n: usize) -> String {
    match rng.next_u64() % 6 {
        0 => format!("{}1", "^".repeat(n)),
        1 => format!("1{}", "+1".repeat(n)),
        2 => format!("a{}", ".b".repeat(n)),
        3 => format!("f{}", "()".repeat(n)),
        4 => format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        _ => format!("{}x", "*".repeat(n)),
    }
}

fn mutate(rng: &mut Rng, base: &str) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    let edits = 1 + rng.next_u64() % 8;
    for _ in 0..edits {
        let at = (rng.next_u64() % (chars.len() as u64 + 1)) as usize;
        match rng.next_u64() % 6 {
            0 | 1 => {
                let t = TOKENS[(rng.next_u64() % TOKENS.len() as u64) as usize];
                chars.splice(at..at, t.chars());
            }
            2 => {
                // Chains from a few to thousands long.
                let n = 1 + ((rng.next_u64() % 5000) as usize >> (rng.next_u64() % 8));
                let c = chain(rng, n);
                chars.splice(at..at, c.chars());
            }
            3 => {
                let len = (rng.next_u64() % 40) as usize;
                let to = (at + len).min(chars.len());
                chars.drain(at..to);
            }
            4 => {
                // A stretch of the file again (a helper, a controller twice).
                let len = (rng.next_u64() % 400) as usize;
                let to = (at + len).min(chars.len());
                let copy: Vec<char> = chars[at..to].to_vec();
                let there = (rng.next_u64() % (chars.len() as u64 + 1)) as usize;
                chars.splice(there..there, copy);
            }
            _ => {
                if at < chars.len() {
                    chars[at] = char::from_u32((rng.next_u64() % 0x3000) as u32).unwrap_or('?');
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// The files of every fixture, and the export of every example scenario.
fn bases() -> Vec<Vec<(String, String)>> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    for dir in ["operator", "provider", "clientgo"] {
        out.push(common::fixture(dir));
    }
    let scenarios = format!("{root}/../../scenarios");
    for e in std::fs::read_dir(scenarios).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        if let Ok(s) = Scenario::from_json(&text) {
            out.push(vec![("main.go".into(), workqueue_go::export::go(&s))]);
        }
    }
    out
}

fn one_case(n: u64, bases: &[Vec<(String, String)>]) -> Result<(), String> {
    let mut rng = Rng::new(n);
    let mut files = bases[(rng.next_u64() % bases.len() as u64) as usize].clone();
    if n % 8 == 0 {
        let len = rng.next_u64() % 4096;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        files = vec![(
            "bytes.go".into(),
            String::from_utf8_lossy(&bytes).into_owned(),
        )];
    } else {
        let which = (rng.next_u64() % files.len() as u64) as usize;
        files[which].1 = mutate(&mut rng, &files[which].1);
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| import(&files)));
    let lines = |file: &str| {
        files
            .iter()
            .filter(|(name, _)| name == file)
            .map(|(_, t)| t.lines().count() + 1)
            .sum::<usize>()
    };
    match outcome {
        Err(p) => Err(format!(
            "panicked: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
        Ok(Err(
            ref e @ (ImportError::Parse { ref file, line, .. }
            | ImportError::Budget { ref file, line, .. }),
        )) => {
            if line == 0 || line > lines(file) {
                Err(format!("a refusal at a line the file does not have: {e}"))
            } else {
                Ok(())
            }
        }
        Ok(Err(ImportError::Unusable { file, .. })) if lines(&file) == 0 => {
            Err(format!("a refusal naming a file not given: {file}"))
        }
        Ok(_) => Ok(()),
    }
}

/// The numbers of the cases to run: `WQ_FUZZ_CASES` of them (3,000 unless
/// set), from `WQ_FUZZ_FROM` (0 unless set).
fn case_numbers() -> std::ops::Range<u64> {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let from = var("WQ_FUZZ_FROM").unwrap_or(0);
    from..from + var("WQ_FUZZ_CASES").unwrap_or(3_000)
}

#[test]
fn the_go_reader_survives_garbage_and_chains() {
    let numbers = case_numbers();
    let cases = numbers.end - numbers.start;
    let bases = bases();
    assert!(bases.len() >= 6);
    std::panic::set_hook(Box::new(|_| {}));
    // The page worker's stack: a case that would overflow it aborts the run.
    let failed = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            numbers
                .filter_map(|n| one_case(n, &bases).err().map(|e| format!("case {n}: {e}")))
                .collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .unwrap();
    let _ = std::panic::take_hook();
    println!("fuzz go reader: {cases} cases ran, {} failed", failed.len());
    assert!(
        failed.is_empty(),
        "{}",
        failed[..failed.len().min(5)].join("\n")
    );
}
