//! `wqsim schema`: the JSON Schema of scenario files (and, with `run`, of
//! run files), derived by schemars from the types serde reads; with
//! `--markdown`, the reference page `docs/scenario-reference.md` written
//! from that schema. CI checks both published copies are current.

use std::fmt::Write;
use std::process::ExitCode;

use serde_json::{Map, Value};
use workqueue_core::{run_schema, scenario_schema};

pub fn main(args: &[String]) -> ExitCode {
    let arg = |a: &str| args.iter().any(|x| x == a);
    if let Some(other) = args
        .iter()
        .find(|a| !["run", "--markdown"].contains(&a.as_str()))
    {
        eprintln!("wqsim schema: {other:?} is not an option: use `wqsim schema`, `wqsim schema run` or `wqsim schema --markdown`");
        return ExitCode::from(2);
    }
    if arg("--markdown") {
        print!("{}", reference());
    } else {
        let schema = if arg("run") {
            run_schema()
        } else {
            scenario_schema()
        };
        println!("{}", pretty(&schema));
    }
    ExitCode::SUCCESS
}

/// The schema as published: pretty JSON.
pub fn pretty(schema: &Value) -> String {
    serde_json::to_string_pretty(schema).unwrap_or_default()
}

/// The reference page: the run file, the scenario, then every type it
/// uses, each a table of fields with type, default and meaning.
pub fn reference() -> String {
    let scenario = scenario_schema();
    let run = run_schema();
    let mut out = String::from(
        "# Scenario and run files: reference\n\n\
         <!-- Written by `cargo run -p wqsim -- schema --markdown`; CI checks it is current. Edit the doc comments of the types in crates/workqueue-core, not this page. -->\n\n\
         A **scenario file** describes a manager and its controllers. A **run file** (what the page's *Download run* writes, and a lesson step's `setup`) holds a scenario, the inputs made while it ran, and the instant it reached. The JSON Schemas are [`scenario.schema.json`](scenario.schema.json) and [`run.schema.json`](run.schema.json) (`wqsim schema`, `wqsim schema run`).\n\n\
         **Durations** (every field ending in `_ns`, and `at`) are integer nanoseconds or a Go duration string: `\"750ms\"`, `\"1m30s\"`. Files are written back with integers. Rates (`qps`, `per_second`) are per second.\n\n\
         A field marked *required* must be written; every other field may be left out and takes its default.\n\n",
    );
    let defs = |s: &Value| {
        s.get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let mut all = defs(&scenario);
    all.extend(defs(&run));
    section(&mut out, "Run file", &run, &all);
    section(&mut out, "Scenario file", &scenario, &all);
    for (name, def) in &all {
        if name == "Scenario" || name == "Duration" {
            continue;
        }
        section(&mut out, name, def, &all);
    }
    out
}

fn section(out: &mut String, title: &str, def: &Value, defs: &Map<String, Value>) {
    let _ = writeln!(out, "## {title}\n");
    if let Some(d) = description(def) {
        let _ = writeln!(out, "{d}\n");
    }
    if let Some(props) = def.get("properties").and_then(Value::as_object) {
        fields(out, def, props, defs);
    }
    let variants = def
        .get("oneOf")
        .or_else(|| def.get("anyOf"))
        .and_then(Value::as_array);
    for v in variants.into_iter().flatten() {
        let Some(props) = v.get("properties").and_then(Value::as_object) else {
            // A plain string variant.
            let value = v
                .get("const")
                .or_else(|| v.get("enum").and_then(|e| e.get(0)));
            if let Some(c) = value {
                let _ = writeln!(out, "- `{c}`: {}", description(v).unwrap_or_default());
            }
            continue;
        };
        // The tag: the one property whose value is a constant.
        let tag = props.iter().find_map(|(k, p)| Some((k, p.get("const")?)));
        match tag {
            Some((k, c)) => {
                let _ = writeln!(out, "### `{k}: {c}`\n");
            }
            None => {
                let _ = writeln!(out, "### (variant)\n");
            }
        }
        if let Some(d) = description(v) {
            let _ = writeln!(out, "{d}\n");
        }
        let rest: Map<String, Value> = props
            .iter()
            .filter(|(_, p)| p.get("const").is_none())
            .map(|(k, p)| (k.clone(), p.clone()))
            .collect();
        if !rest.is_empty() {
            fields(out, v, &rest, defs);
        }
    }
    if variants.is_some_and(|v| v.iter().all(|v| v.get("properties").is_none())) {
        out.push('\n');
    }
}

fn fields(out: &mut String, def: &Value, props: &Map<String, Value>, defs: &Map<String, Value>) {
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "| field | type | default | meaning |\n|---|---|---|---|"
    );
    for (name, p) in props {
        let default = match (p.get("default"), required.contains(&name.as_str())) {
            (_, true) => "*required*".to_string(),
            (Some(d), false) => format!("`{}`", serde_json::to_string(d).unwrap_or_default()),
            (None, false) => "optional".to_string(),
        };
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {} |",
            type_of(p, defs),
            cell(&default),
            cell(&description(p).unwrap_or_default())
        );
    }
    out.push('\n');
}

/// A schema's type as a reader says it: `integer`, `duration`, `list of
/// [Source](#source)`, `[LimiterConfig](#limiterconfig) or null`.
fn type_of(p: &Value, defs: &Map<String, Value>) -> String {
    if let Some(r) = p.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r);
        return match name {
            "Duration" => "duration".into(),
            // A type whose values are plain strings reads as its values.
            _ if is_string_choice(defs.get(name)) => {
                format!("[{name}](#{}) (a string)", name.to_lowercase())
            }
            _ => format!("[{name}](#{})", name.to_lowercase()),
        };
    }
    if let Some(alts) = p.get("anyOf").and_then(Value::as_array) {
        return alts
            .iter()
            .map(|a| type_of(a, defs))
            .collect::<Vec<_>>()
            .join(" or ");
    }
    let ty = match p.get("type") {
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(|t| scalar(t, p, defs))
            .collect::<Vec<_>>()
            .join(" or "),
        Some(Value::String(t)) => scalar(t, p, defs),
        _ => "any".into(),
    };
    match (p.get("minimum"), p.get("maximum")) {
        (Some(min), Some(max)) => format!("{ty} ({min} to {max})"),
        (Some(min), None) if min.as_f64() != Some(0.0) => format!("{ty} (from {min})"),
        _ => ty,
    }
}

fn scalar(t: &str, p: &Value, defs: &Map<String, Value>) -> String {
    match t {
        "array" => format!(
            "list of {}",
            p.get("items").map_or("any".into(), |i| type_of(i, defs))
        ),
        "object" => match p.get("additionalProperties") {
            Some(v) if v.is_object() => format!("map of name → {}", type_of(v, defs)),
            _ => "object".into(),
        },
        "number" => "number".into(),
        other => other.into(),
    }
}

fn is_string_choice(def: Option<&Value>) -> bool {
    def.and_then(|d| d.get("oneOf").or_else(|| d.get("enum")))
        .and_then(Value::as_array)
        .is_some_and(|alts| {
            alts.iter()
                .all(|a| a.get("type").and_then(Value::as_str) == Some("string") || a.is_string())
        })
}

/// A doc comment as one paragraph.
fn description(v: &Value) -> Option<String> {
    let d = v.get("description")?.as_str()?;
    Some(d.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Text that stays inside one table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}
