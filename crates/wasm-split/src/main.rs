//! `wasm-split instrument IN OUT` writes a copy of IN that records which
//! functions run; `wasm-split split IN PROFILE PRIMARY SECONDARY` splits IN by
//! such a recording. See the library for how the two halves meet again.

use std::collections::BTreeSet;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

fn read(path: &str) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {path}"))
}

fn write(path: &str, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {path}"))
}

fn run(args: &[String]) -> Result<()> {
    match args {
        [cmd, input, output] if cmd == "instrument" => {
            write(output, &wasm_split::instrument(&read(input)?)?)
        }
        [cmd, input, profile, primary, secondary] if cmd == "split" => {
            let profile =
                std::fs::read_to_string(profile).with_context(|| format!("reading {profile}"))?;
            let ran: BTreeSet<u32> = wasm_split::read_profile(&profile)?;
            let split = wasm_split::split(&read(input)?, &ran)?;
            write(primary, &split.primary)?;
            write(secondary, &split.secondary)?;
            println!(
                "wasm-split: {} functions kept, {} moved, {} table slots; primary {} bytes, secondary {} bytes",
                split.kept,
                split.moved,
                split.slots,
                split.primary.len(),
                split.secondary.len()
            );
            Ok(())
        }
        _ => bail!(
            "usage: wasm-split instrument IN OUT | wasm-split split IN PROFILE PRIMARY SECONDARY"
        ),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wasm-split: {e:#}");
            ExitCode::FAILURE
        }
    }
}
