//! `wqsim import FILE.go|DIR... [OPTIONS]`: a controller's Go set-up read
//! into a scenario (see `workqueue-go`), printed as JSON on stdout; what was
//! taken and what was not understood go to stderr, each with its file and
//! line. The options say what Go does not (see [`USAGE`]).
//! `wqsim import … > mine.json && wqsim mine.json --summary` runs it.

/// The import's usage: the author's figures, as the page's dialog asks them.
pub const USAGE: &str = "usage: wqsim import FILE.go|DIR... [--objects N] [--reconcile 50ms] [--outage 10s..100s]
                    [--writes [CONTROLLER:]KIND=N,...] [--own-writes [CONTROLLER:]N] [--errors-write-nothing]
                    [--failure-writes [CONTROLLER:]KIND=N,...]
  --objects N             objects per controller (default 100)
  --reconcile D           how long one reconcile takes (default 50ms)
  --outage FROM..TO       every reconcile fails from FROM until TO (a webhook or an external API down);
                          a single D is 0..D
  --writes KIND=N,...     writes each reconcile sends to other kinds (reads from the cache send none);
                          CONTROLLER:KIND=N for one controller only (instead of those for all)
  --own-writes N          writes to the controller's own kind (default 1, a status update)
  --errors-write-nothing  a reconcile that fails sends none of its requests
  --failure-writes KIND=N,...  the writes a reconcile that fails still sends (some of its writes; the
                          others are not sent); CONTROLLER:KIND=N for one controller only";

/// The options given, as typed (for the note that says what they replaced).
fn given_options(args: &[String]) -> String {
    let mut out = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        if a.starts_with("--") {
            match it.peek() {
                Some(v) if !v.starts_with("--") && a != "--errors-write-nothing" => {
                    out.push(format!("{a} {v}"));
                    it.next();
                }
                _ => out.push(a.clone()),
            }
        }
    }
    out.join(" ")
}

/// The options after the files: the author's figures.
fn assumptions(
    args: &[String],
) -> Result<(Vec<String>, workqueue_go::assume::Assumptions), String> {
    use workqueue_go::assume::{duration_of, objects_of, window_of, writes_of};
    let mut a = workqueue_go::assume::Assumptions::default();
    let mut files = Vec::new();
    let mut it = args.iter();
    // `CONTROLLER:rest` names one controller; a bare value is for all.
    let split = |v: &str| match v.split_once(':') {
        Some((c, rest)) if !c.is_empty() && !c.contains('=') && !c.contains(' ') => {
            (c.to_string(), rest.to_string())
        }
        _ => (String::new(), v.to_string()),
    };
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--objects" => {
                let v = value("--objects")?;
                a.objects = Some(
                    objects_of(&v)
                        .map_err(|e| format!("--objects {}: {e}", workqueue_core::shown(&v)))?,
                );
            }
            "--reconcile" => {
                let v = value("--reconcile")?;
                a.reconcile_ns = Some(
                    duration_of(&v)
                        .map_err(|e| format!("--reconcile {}: {e}", workqueue_core::shown(&v)))?,
                )
            }
            "--outage" => {
                let v = value("--outage")?;
                a.outage = Some(
                    window_of(&v)
                        .map_err(|e| format!("--outage {}: {e}", workqueue_core::shown(&v)))?,
                )
            }
            "--writes" => {
                // Each item may name its controller: `a:Secret=2,b:Secret=3`.
                for item in value("--writes")?
                    .split(',')
                    .filter(|i| !i.trim().is_empty())
                {
                    let (controller, kinds) = split(item);
                    let kinds = writes_of(&kinds).map_err(|e| format!("--writes: {e}"))?;
                    match a.writes.iter_mut().find(|(c, ..)| *c == controller) {
                        Some((_, _, w)) => {
                            for (k, n) in kinds {
                                let m = w.entry(k).or_default();
                                *m = m.saturating_add(n);
                            }
                        }
                        None => a.writes.push((controller, None, kinds)),
                    }
                }
            }
            "--own-writes" => {
                let (controller, n) = split(&value("--own-writes")?);
                let n: u32 = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("--own-writes: {n:?} is not a whole number"))?;
                match a.writes.iter_mut().find(|(c, ..)| *c == controller) {
                    Some((_, own, _)) => *own = Some(n),
                    None => a.writes.push((controller, Some(n), Default::default())),
                }
            }
            "--errors-write-nothing" => a.errors_write_nothing = true,
            "--failure-writes" => {
                for item in value("--failure-writes")?
                    .split(',')
                    .filter(|i| !i.trim().is_empty())
                {
                    let (controller, kinds) = split(item);
                    let kinds = writes_of(&kinds).map_err(|e| format!("--failure-writes: {e}"))?;
                    match a.failure_writes.iter_mut().find(|(c, _)| *c == controller) {
                        Some((_, w)) => w.extend(kinds),
                        None => a.failure_writes.push((controller, kinds)),
                    }
                }
            }
            flag if flag.starts_with("--") => {
                return Err(format!("{flag} is not an option of wqsim import\n{USAGE}"))
            }
            _ => files.push(arg.clone()),
        }
    }
    // Writes for every controller come first, so one controller's own
    // figures, said after, are kept.
    a.writes.sort_by_key(|(c, ..)| !c.is_empty());
    Ok((files, a))
}

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::run::shown;

/// The `.go` files (and `go.mod`) below `dir`, as a Go project lays them
/// out (`cmd/`, `internal/controller/`…): tests, `vendor/`, `testdata/` and
/// hidden folders left out. A folder reached twice (a symbolic link back
/// up the tree) is read once.
fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let real = std::fs::canonicalize(dir)
        .map_err(|e| format!("cannot read {}: {e}", shown(&dir.display().to_string())))?;
    if !seen.insert(real) {
        return Ok(());
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", shown(&dir.display().to_string())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    // A project is a few thousand files: a walk of the whole disk stops
    // at once with what to do instead.
    if seen.len() + out.len() + entries.len() > MAX_ENTRIES {
        return Err(format!(
            "{}: more than {MAX_ENTRIES} files and folders below it: point wqsim import at the controller's own folder (cmd/, internal/controller/) or its files",
            shown(&dir.display().to_string())
        ));
    }
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if p.is_dir() {
            if !(name.starts_with('.') || name == "vendor" || name == "testdata") {
                walk(&p, seen, out)?;
            }
        } else if (name.ends_with(".go") && !name.ends_with("_test.go")) || name == "go.mod" {
            out.push(p);
        }
    }
    Ok(())
}

/// Files and folders a walk looks at, at most.
const MAX_ENTRIES: usize = 20_000;

/// Go files named, and those below directories named: regular files only
/// (a device, a pipe or a socket named `x.go` is refused before it is
/// opened), each once however many links reach it, and never more than
/// [`workqueue_go::MAX_BYTES`] in all (a file is read to one byte past
/// what is left, so a file that grows while read is refused too).
fn gather(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut paths = Vec::new();
    let mut dirs = HashSet::new();
    for a in args {
        let p = Path::new(a);
        if p.is_dir() {
            walk(p, &mut dirs, &mut paths)?;
        } else {
            paths.push(p.to_path_buf());
        }
    }
    let limit = workqueue_go::MAX_BYTES;
    let mut files_seen = HashSet::new();
    let mut total = 0usize;
    let mut out = Vec::new();
    for p in paths {
        let name = shown(&p.display().to_string()).into_owned();
        let meta = std::fs::metadata(&p).map_err(|e| format!("cannot read {name}: {e}"))?;
        if !meta.is_file() {
            return Err(format!(
                "{name}: not a regular file (a device, a pipe or a socket): only Go files are read"
            ));
        }
        let real = std::fs::canonicalize(&p).map_err(|e| format!("cannot read {name}: {e}"))?;
        if !files_seen.insert(real) {
            continue;
        }
        let left = limit - total;
        let mut bytes = Vec::new();
        std::fs::File::open(&p)
            .and_then(|f| f.take(left as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if bytes.len() > left {
            return Err(format!(
                "{name}: the files hold more than {limit} bytes: at most that is read (a set-up is a few hundred kilobytes)"
            ));
        }
        total += bytes.len();
        let text = String::from_utf8(bytes).map_err(|e| {
            format!(
                "{name}: line {}: not UTF-8 text, as Go source is",
                line_of(e.as_bytes(), e.utf8_error().valid_up_to())
            )
        })?;
        out.push((p.display().to_string(), text));
    }
    Ok(out)
}

/// The line (from 1) of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at.min(bytes.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
}

/// `wqsim export SCENARIO-or-RUN.json`: the Go set-up of a scenario (see
/// `workqueue_go::export`), which `wqsim import` reads back to the same set-up.
pub fn export(args: &[String]) -> ExitCode {
    // Options before anything is read: export has none but --help.
    if let Some(opt) = args.iter().find(|a| a.starts_with('-') && a.len() > 1) {
        eprintln!(
            "wqsim export: unknown option {}: its only option is --help (-h)\nusage: wqsim export SCENARIO-or-RUN.json",
            shown(opt)
        );
        return ExitCode::from(2);
    }
    let [path] = args else {
        eprintln!("usage: wqsim export SCENARIO-or-RUN.json");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}: {e}", shown(path));
            return ExitCode::from(2);
        }
    };
    match workqueue_core::Run::from_file(&text).map(|r| r.scenario) {
        Ok(s) => {
            print!("{}", workqueue_go::export::go(&s));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "{}: {}",
                shown(path),
                shown(&workqueue_core::document::explain(&text, &e))
            );
            ExitCode::from(1)
        }
    }
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (paths, figures) = match assumptions(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if paths.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let args_all = args;
    let args = &paths[..];
    let files = match gather(args) {
        Ok(f) if f.is_empty() => {
            eprintln!(
                "no .go files in {} (nor in its folders)",
                shown(&args.join(" "))
            );
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
                eprintln!("took    {}", shown(&f.to_string()));
            }
            // With the author's figures, the import's own assumption about
            // them is said as what it became.
            let given = figures != workqueue_go::assume::Assumptions::default();
            for f in &got.unread {
                if given && f.text.starts_with("not in the code, assumed") {
                    let mut kept = Vec::new();
                    if figures.objects.is_none() {
                        kept.push("100 objects per controller");
                    }
                    if figures.reconcile_ns.is_none() {
                        kept.push("a 50ms reconcile");
                    }
                    if figures.outage.is_none() {
                        kept.push("every reconcile succeeds");
                    }
                    if figures.writes.iter().all(|(_, own, _)| own.is_none()) {
                        kept.push("one write to its own kind");
                    }
                    let kept = match kept.is_empty() {
                        true => String::new(),
                        false => format!("; still assumed: {}", kept.join(", ")),
                    };
                    eprintln!(
                        "note    {}:{}: your figures: {}{kept}",
                        shown(&f.file),
                        f.line,
                        shown(&given_options(args_all))
                    );
                    continue;
                }
                eprintln!("note    {}", shown(&f.to_string()));
            }
            match figures.apply(&got.scenario) {
                Ok(s) => {
                    println!("{}", s.to_json());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("the options give a scenario that cannot run: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("{}", shown(&e.to_string()));
            ExitCode::from(1)
        }
    }
}
