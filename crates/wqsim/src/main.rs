//! `wqsim`: the playground's core from a terminal.
//!
//! * `wqsim SCENARIO.json [--csv OUT.csv] [--json OUT.json]` runs a scenario
//!   and prints its figures ([`run`]).
//! * `wqsim lesson FILE.md...` checks lesson files and prints every answer
//!   ([`lesson`]).
//!
//! Exit codes: 0 done, 1 a file was refused, 2 a file could not be read or
//! written, or the command line is wrong.

use std::process::ExitCode;

mod lesson;
mod run;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("lesson") => lesson::main(&args[1..]),
        _ => run::main(&args),
    }
}
