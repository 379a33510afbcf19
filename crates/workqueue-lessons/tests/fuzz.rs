//! Fuzzing the lesson reader: the built-in lessons and a small one, mutated
//! character by character, line by line and value by value (numbers at the
//! edges of 64 bits, CR LF and lone-CR line endings too). For every case:
//!
//! * nothing panics (the fuzz build keeps overflow checks on);
//! * a refusal names a line of the file and a field, and gives a reason;
//! * an accepted lesson's scenes are built within a work budget (one case
//!   in sixteen: building costs ten times reading).
//!
//! Each case comes from its number (`WQ_FUZZ_FROM=N WQ_FUZZ_CASES=1`
//! replays one). CI runs a few thousand; `bash scripts/fuzz.sh` a million.

#![cfg(not(target_arch = "wasm32"))]

use std::panic::{catch_unwind, AssertUnwindSafe};

use workqueue_core::Rng;
use workqueue_lessons::{lesson, BUILT_IN_FILES};

/// Work one accepted lesson's scenes may take, in all.
const BUDGET: u64 = 20_000;

const SMALL: &str = "# Small\n\n## Step\n\nText.\n\n```step\n{\"focus\": {\"lanes\": [\"queue\"]}, \"setup\": {\"scenario\": {\"version\": 2, \"controllers\": [{}]}, \"inputs\": [{\"at\": \"1ms\", \"do\": {\"input\": \"add\", \"key\": \"k\"}}], \"run_to\": \"5ms\"}, \"wait\": {\"time\": \"1s\"}, \"question\": {\"ask\": \"?\", \"query\": {\"results\": {\"label\": \"success\"}}}}\n```\n";

/// Tokens a mutation writes: structure, names from the vocabulary and
/// numbers at the edges.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ":",
    ",",
    "\n",
    "#",
    "## ",
    "```",
    "```step\n",
    "<b>",
    "*",
    "`",
    "0",
    "-1",
    "1e308",
    "-1e308",
    "1e-300",
    "18446744073709551616",
    "9223372036854775807",
    "NaN",
    "null",
    "true",
    "\"\"",
    "\"1ns\"",
    "\"168h\"",
    "\"-5s\"",
    "\"300000h\"",
    "\"waiting\"",
    "\"manager\"",
    "\"nope\"",
    "\"focus\"",
    "\"setup\"",
    "\"query\"",
    "\"goal\"",
    "\"requeues\"",
    "\"wait_after_failure\"",
    "\"deepest_debt\"",
    "\"nth_reconcile\"",
    "\"add_many\"",
    "\"count\"",
    "\"until\"",
    "\"at_most\"",
    "é",
    "\u{0}",
    "\u{202e}",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let rounds = 1 + rng.next_u64() % 4;
    for _ in 0..rounds {
        let len = chars.len().max(1);
        let at = (rng.next_u64() % len as u64) as usize;
        match rng.next_u64() % 6 {
            // Replace a run with a token.
            0 => {
                let end = (at + (rng.next_u64() % 8) as usize).min(chars.len());
                let token = TOKENS[(rng.next_u64() % TOKENS.len() as u64) as usize];
                chars.splice(at.min(chars.len())..end, token.chars());
            }
            // Insert a token.
            1 => {
                let token = TOKENS[(rng.next_u64() % TOKENS.len() as u64) as usize];
                let at = at.min(chars.len());
                chars.splice(at..at, token.chars());
            }
            // Cut a run.
            2 => {
                let end = (at + (rng.next_u64() % 40) as usize).min(chars.len());
                chars.drain(at.min(chars.len())..end);
            }
            // Repeat a line.
            3 => {
                let s: String = chars.iter().collect();
                let lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let i = (rng.next_u64() % lines.len() as u64) as usize;
                    let mut out = lines.clone();
                    out.insert(i, lines[i]);
                    chars = out.join("\n").chars().collect();
                }
            }
            // Line endings as other editors write them: CR LF, or a lone CR.
            4 => {
                let s: String = chars.iter().collect();
                let ending = if rng.next_u64() % 2 == 0 {
                    "\r\n"
                } else {
                    "\r"
                };
                chars = s.replace('\n', ending).chars().collect();
            }
            // Swap a number for another.
            _ => {
                let s: String = chars.iter().collect();
                let digits: Vec<usize> = s
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(i, _)| i)
                    .collect();
                if let Some(&i) = digits.get((rng.next_u64() % digits.len().max(1) as u64) as usize)
                {
                    // Ordinary values, and the edges of 64 bits and of the first week.
                    const NUMBERS: [&str; 8] = [
                        "0",
                        "99999999999",
                        "1000000",
                        "7",
                        "-9223372036854775808",
                        "9223372036854775807",
                        "18446744073709551615",
                        "604800000000001",
                    ];
                    let n = NUMBERS[(rng.next_u64() % NUMBERS.len() as u64) as usize];
                    let mut t = s.clone();
                    t.replace_range(i..i + 1, n);
                    chars = t.chars().collect();
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn one_case(n: u64, bases: &[String]) -> Result<(), String> {
    let mut rng = Rng::new(n);
    let base = &bases[(rng.next_u64() % bases.len() as u64) as usize];
    let text = mutate(&mut rng, base);
    let outcome = catch_unwind(AssertUnwindSafe(|| match lesson("fuzz", &text) {
        Err(e) => {
            // Lines as an editor counts them (a lone CR ends one too).
            let lines = text
                .replace("\r\n", "\n")
                .replace('\r', "\n")
                .lines()
                .count()
                .max(1)
                + 1;
            if e.line == 0 || e.line > lines || e.field.is_empty() || e.reason.is_empty() {
                Err(format!("a refusal that names nothing: {e:?}"))
            } else {
                Ok(())
            }
        }
        // Building scenes costs ten times reading: one case in sixteen does.
        Ok(l) if n % 16 == 0 => {
            for s in l.steps.iter().filter_map(|s| s.setup.as_ref()) {
                let _ = s.scene_within(BUDGET);
            }
            Ok(())
        }
        Ok(_) => Ok(()),
    }));
    outcome.unwrap_or_else(|p| {
        let why = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {why}"))
    })
}

/// The numbers of the cases to run: `WQ_FUZZ_CASES` of them (3,000 unless
/// set), from `WQ_FUZZ_FROM` (0 unless set).
fn case_numbers() -> std::ops::Range<u64> {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let from = var("WQ_FUZZ_FROM").unwrap_or(0);
    from..from + var("WQ_FUZZ_CASES").unwrap_or(3_000)
}

#[test]
fn the_lesson_reader_refuses_garbage_by_line_and_field() {
    let numbers = case_numbers();
    let cases = numbers.end - numbers.start;
    let mut bases: Vec<String> = BUILT_IN_FILES
        .iter()
        .map(|(_, text)| text.to_string())
        .collect();
    bases.push(SMALL.to_string());
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = Vec::new();
    for n in numbers {
        if let Err(e) = one_case(n, &bases) {
            failed.push(format!("case {n}: {e}"));
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "fuzz lesson reader: {cases} cases ran, {} failed",
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{}",
        failed
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
