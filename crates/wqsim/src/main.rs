//! `wqsim`: the playground's core from a terminal.
//!
//! * `wqsim SCENARIO.json [--csv OUT.csv] [--json OUT.json] [--no-limit]`
//!   runs a scenario and prints its figures ([`run`]). A file whose
//!   estimated work is above the default cap is refused with the estimate;
//!   `--no-limit` runs it anyway, with progress on stderr every second.
//! * `wqsim lesson FILE.md...` checks lesson files and prints every answer
//!   ([`lesson`]).
//! * `wqsim import FILE.go|DIR...` reads a controller's Go set-up into a
//!   scenario, printed as JSON ([`import`]); `wqsim export FILE.json` writes
//!   a scenario's Go set-up, which `import` reads back to the same set-up.
//! * `wqsim schema [run] [--markdown]` prints the JSON Schema of scenario
//!   (or run) files, or the reference page written from it ([`schema`]).
//!
//! Exit codes:
//!
//! | code | meaning                                                        |
//! |------|----------------------------------------------------------------|
//! | 0    | the run finished (every lesson file checked out)               |
//! | 1    | refused: the file is invalid, or asks for more than the cap    |
//! | 2    | a file could not be read or written, or the command line is wrong |
//! | 3    | the run stalled (a zero-delay loop); the figures so far are printed |
//! | 130  | stopped by Ctrl-C; the figures so far are printed              |

use std::process::ExitCode;

mod import;
mod lesson;
mod run;
mod schema;

/// What a verb's `--help` (or `-h`) prints.
fn usage(verb: Option<&str>) -> &'static str {
    match verb {
        Some("import") => import::USAGE,
        Some("export") => "usage: wqsim export SCENARIO-or-RUN.json\n  prints the Go set-up of the scenario (controller-runtime, client-go or a Crossplane provider), which `wqsim import` reads back to the same set-up; for Crossplane core since v2.1, Crossplane's own program, the Helm values of its flags",
        Some("schema") => "usage: wqsim schema [run] [--markdown]\n  prints the JSON Schema of scenario files (`run`: of run files), or with --markdown the reference page written from it",
        Some("lesson") => "usage: wqsim lesson [--views DIR] FILE.md...\n  reads lesson files as the playground does, prints `answer LESSON/STEP: VALUE UNIT` for every question and a `goal` line for every exercise; --views writes each lesson's views as JSON into DIR",
        _ => run::USAGE,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verb = args
        .first()
        .map(String::as_str)
        .filter(|v| ["lesson", "import", "export", "schema"].contains(v));
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", usage(verb));
        return ExitCode::SUCCESS;
    }
    match args.first().map(String::as_str) {
        Some("lesson") => lesson::main(&args[1..]),
        Some("import") => import::main(&args[1..]),
        Some("export") => import::export(&args[1..]),
        Some("schema") => schema::main(&args[1..]),
        _ => run::main(&args),
    }
}
