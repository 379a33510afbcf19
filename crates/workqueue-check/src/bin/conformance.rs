//! `cargo run --release --bin conformance -- PATH...`: replays conformance
//! cases (files, or folders of them) and prints one line per failing case,
//! then `N passed, M failed`. Exits non-zero on any failure.

use std::path::PathBuf;
use std::process::ExitCode;

use workqueue_check::conformance;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if args.is_empty() {
        eprintln!("usage: conformance PATH...   (case files or folders of *.json cases)");
        return ExitCode::from(2);
    }
    let files = match conformance::collect(&args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let verdict = conformance::load(file)
            .and_then(|case| conformance::run(&case).map(|m| (case.name, m)));
        match verdict {
            Ok((_, None)) => passed += 1,
            Ok((name, Some(m))) => {
                failed += 1;
                println!("FAIL {name} ({}): {m}", file.display());
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {}: {e}", file.display());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
