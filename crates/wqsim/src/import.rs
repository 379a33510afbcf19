//! `wqsim import FILE.go|DIR...`: a controller's Go set-up read into a
//! scenario (see `workqueue-go`), printed as JSON on stdout; what was taken
//! and what was not understood go to stderr, each with its file and line.
//! `wqsim import … > mine.json && wqsim mine.json --summary` runs it.

use std::path::Path;
use std::process::ExitCode;

/// The `.go` files (and `go.mod`) below `dir`, as a Go project lays them
/// out (`cmd/`, `internal/controller/`…): tests, `vendor/`, `testdata/` and
/// hidden folders left out.
fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if p.is_dir() {
            if !(name.starts_with('.') || name == "vendor" || name == "testdata") {
                walk(&p, out)?;
            }
        } else if (name.ends_with(".go") && !name.ends_with("_test.go")) || name == "go.mod" {
            out.push(p);
        }
    }
    Ok(())
}

/// Go files named, and those below directories named.
fn gather(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut paths = Vec::new();
    for a in args {
        let p = Path::new(a);
        if p.is_dir() {
            walk(p, &mut paths)?;
        } else {
            paths.push(p.to_path_buf());
        }
    }
    let mut total = 0usize;
    paths
        .into_iter()
        .map(|p| {
            let len = std::fs::metadata(&p).map(|m| m.len() as usize).unwrap_or(0);
            total = total.saturating_add(len);
            if total > workqueue_go::MAX_BYTES {
                return Err(format!(
                    "the files hold more than {} bytes: at most that is read",
                    workqueue_go::MAX_BYTES
                ));
            }
            let text = std::fs::read_to_string(&p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            Ok((p.display().to_string(), text))
        })
        .collect()
}

/// `wqsim export SCENARIO-or-RUN.json`: the Go set-up of a scenario (see
/// `workqueue_go::export`), which `wqsim import` reads back to the same set-up.
pub fn export(args: &[String]) -> ExitCode {
    let [path] = args else {
        eprintln!("usage: wqsim export SCENARIO-or-RUN.json");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let read = match workqueue_core::run_file::Run::is_run_file(&text) {
        true => workqueue_core::run_file::Run::from_json(&text).map(|r| r.scenario),
        false => workqueue_core::Scenario::from_json(&text),
    };
    match read {
        Ok(s) => {
            print!("{}", workqueue_go::export::go(&s));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {}", workqueue_core::document::explain(&text, &e));
            ExitCode::from(1)
        }
    }
}

pub fn main(args: &[String]) -> ExitCode {
    if args.is_empty() {
        eprintln!("usage: wqsim import FILE.go|DIR...");
        return ExitCode::from(2);
    }
    let files = match gather(args) {
        Ok(f) if f.is_empty() => {
            eprintln!("no .go files in {} (nor in its folders)", args.join(" "));
            return ExitCode::from(2);
        }
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match workqueue_go::import(&files) {
        Ok(got) => {
            for f in &got.taken {
                eprintln!("took    {f}");
            }
            for f in &got.unread {
                eprintln!("note    {f}");
            }
            println!("{}", got.scenario.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
