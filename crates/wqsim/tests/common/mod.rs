//! What the CLI's tests share: running wqsim and requiring success.

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Runs wqsim with `args`, whatever it answers.
#[allow(dead_code)] // (not every test file uses each)
pub fn wqsim<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wqsim"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs wqsim with `args` and requires success (showing stderr where not).
#[allow(dead_code)] // (not every test file uses each)
pub fn wqsim_success<S: AsRef<OsStr>>(args: &[S]) -> Output {
    let out = wqsim(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs wqsim with `args`, requires success, and returns what it printed.
#[allow(dead_code)] // (not every test file uses each)
pub fn wqsim_ok(args: &[&OsStr]) -> String {
    String::from_utf8_lossy(&wqsim_success(args).stdout).into_owned()
}

/// The same, with plain text arguments.
#[allow(dead_code)] // (each test file uses one of the two)
pub fn wqsim_ok_str(args: &[&str]) -> String {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    wqsim_ok(&args)
}
