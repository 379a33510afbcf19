//! `wqsim` given what is not a Go file, or Go and scenarios written to
//! fool a terminal: every such input is refused at once with a message
//! naming the file, or printed with its control and bidi characters
//! escaped.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::wqsim;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wqsim-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const CONTROLLER: &str = "package main\n\nfunc main() {\n\tctrl.NewControllerManagedBy(mgr).Named(\"w\").For(&v1.Widget{}).Complete(r)\n}\n";

/// Runs wqsim with `args`, killing it after 20 s: a read that blocks
/// fails the test instead of hanging it.
fn wqsim_bounded(args: &[&Path]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wqsim"))
        .arg("import")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("wqsim import {args:?} did not return");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused(out: &Output, names: &str, says: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(names) && err.contains(says), "{err}");
}

/// A device, a pipe or a link to one is refused before it is opened.
#[test]
fn files_that_are_not_files_are_refused_by_name() {
    let dir = temp_dir("devices");
    std::fs::write(dir.join("main.go"), CONTROLLER).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.go")).unwrap();
    refused(
        &wqsim_bounded(&[Path::new("/dev/zero")]),
        "/dev/zero",
        "not a regular file",
    );
    refused(&wqsim_bounded(&[&dir]), "zero.go", "not a regular file");

    let pipes = temp_dir("pipes");
    std::fs::write(pipes.join("main.go"), CONTROLLER).unwrap();
    let made = Command::new("mkfifo")
        .arg(pipes.join("pipe.go"))
        .status()
        .unwrap();
    assert!(made.success());
    refused(&wqsim_bounded(&[&pipes]), "pipe.go", "not a regular file");
    refused(
        &wqsim_bounded(&[&pipes.join("pipe.go")]),
        "pipe.go",
        "not a regular file",
    );
}

/// A folder that links back up the tree, and two links to one file: each
/// file is read once.
#[test]
fn links_read_each_file_once() {
    let dir = temp_dir("loops");
    std::fs::write(dir.join("main.go"), CONTROLLER).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("again")).unwrap();
    std::os::unix::fs::symlink(dir.join("main.go"), dir.join("copy.go")).unwrap();
    let out = wqsim_bounded(&[&dir, &dir.join("main.go")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let controllers = err
        .lines()
        .filter(|l| l.contains("controller \"w\""))
        .count();
    assert_eq!(controllers, 1, "{err}");
}

/// Files past the size limit are refused with the file and the limit.
#[test]
fn a_file_past_the_limit_is_refused_with_the_limit() {
    let dir = temp_dir("big");
    let big = dir.join("big.go");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(64 * 1024 * 1024).unwrap();
    refused(&wqsim_bounded(&[&big]), "big.go", "4194304 bytes");
}

/// A flag name, a controller name or a kind with a newline, escapes or a
/// direction override reaches the terminal escaped: it forges no line and
/// paints nothing.
#[test]
fn strings_from_go_reach_the_terminal_escaped() {
    let dir = temp_dir("escapes");
    let forged = r#"package main

func main() {
	flag.IntVar(&n, "x\n\x1b[2Ktook    main.go:1: rest.Config.QPS 100000", 1, "")
	flag.IntVar(&m, "abc\u202efed", 1, "")
	ctrl.NewControllerManagedBy(mgr).Named("w\r\x1b[31m").For(&v1.Widget{}).Complete(r)
}
"#;
    std::fs::write(dir.join("main.go"), forged).unwrap();
    let out = wqsim_bounded(&[&dir]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for c in ['\u{1b}', '\r', '\u{202e}'] {
        assert!(!err.contains(c), "{c:?} in {err:?}");
    }
    assert!(
        !err.lines().any(|l| l.starts_with("took    main.go:1:")),
        "{err}"
    );
    assert!(err.contains(r"abc\u{202e}fed"), "{err}");
}

/// A kind with a direction override, in the run's summary.
#[test]
fn the_summary_shows_kinds_escaped() {
    let dir = temp_dir("summary");
    let path = dir.join("s.json");
    std::fs::write(
        &path,
        serde_json::json!({"version": 2, "duration_ns": "1s", "controllers": [
            {"name": "c", "kind": "abc\u{202e}fed", "requests_per_reconcile": 1, "items": [{"key": "k"}]}
        ]})
        .to_string(),
    )
    .unwrap();
    let out = wqsim(&[path.as_os_str(), "--summary".as_ref()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains('\u{202e}'), "{text}");
    assert!(text.contains(r"abc\u{202e}fed"), "{text}");
}

/// Every verb answers `--help` and `-h` with its usage.
#[test]
fn every_verb_has_help() {
    for verb in [
        None,
        Some("import"),
        Some("export"),
        Some("schema"),
        Some("lesson"),
    ] {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = verb.into_iter().chain([flag]).collect();
            let out = wqsim(&args);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{args:?}");
            let expected = format!("usage: wqsim {}", verb.unwrap_or(""));
            assert!(text.starts_with(expected.trim_end()), "{args:?}: {text}");
        }
    }
}

/// Write counts that are not a whole number of writes are refused by name,
/// never glued onto the kind; each item of a list names its own controller.
#[test]
fn writes_are_read_whole_or_refused() {
    let dir = temp_dir("writes");
    let go = dir.join("main.go");
    std::fs::write(&go, CONTROLLER).unwrap();
    for bad in ["Secret=1e3", "Secret=-1", "Secret=99999999999999999999"] {
        let out = wqsim(&[
            "import".as_ref(),
            go.as_os_str(),
            "--writes".as_ref(),
            bad.as_ref(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("is not a number of writes"), "{bad}: {err}");
    }
    let out = wqsim(&[
        "import".as_ref(),
        go.as_os_str(),
        "--writes".as_ref(),
        "w:Secret=2,w:ConfigMap=3".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        s["controllers"][0]["writes"],
        serde_json::json!({"ConfigMap": 3, "Secret": 2})
    );
}

/// A walk of a whole disk stops at once, saying where to point instead.
#[test]
fn a_walk_of_everything_is_refused_at_once() {
    let out = wqsim_bounded(&[Path::new("/usr")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("files and folders below it") || err.contains("bytes"),
        "{err}"
    );
}
