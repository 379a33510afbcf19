//! The published JSON Schema and reference page: current, and true to the
//! files the readers take (every example scenario, every lesson step's
//! set-up, the page's run files, generated scenarios) and refuse.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};
use workqueue_core::Span;

fn root(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

mod common;

fn wqsim(args: &[&str]) -> String {
    common::wqsim_ok_str(args)
}

#[test]
fn the_published_schemas_and_reference_are_what_wqsim_writes() {
    for (file, args) in [
        ("docs/scenario.schema.json", vec!["schema"]),
        ("docs/run.schema.json", vec!["schema", "run"]),
        ("docs/scenario-reference.md", vec!["schema", "--markdown"]),
    ] {
        let published = std::fs::read_to_string(root(file)).unwrap();
        let now = wqsim(&args);
        assert!(
            published.trim_end() == now.trim_end(),
            "{file} is out of date: run `cargo run -p wqsim -- {} > {file}`",
            args.join(" ")
        );
    }
}

/// A validator for one published schema.
struct Validator {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Validator {
    fn of(file: &str) -> Validator {
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(root(file)).unwrap()).unwrap();
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler.add_resource(file, schema).unwrap();
        let index = compiler.compile(file, &mut schemas).unwrap();
        Validator { schemas, index }
    }

    fn check(&self, v: &Value) -> Result<(), String> {
        self.schemas
            .validate(v, self.index)
            .map_err(|e| format!("{e:#}"))
    }
}

#[test]
fn every_example_scenario_and_lesson_set_up_fits_the_schema() {
    let scenario = Validator::of("docs/scenario.schema.json");
    let run = Validator::of("docs/run.schema.json");
    let mut checked = 0;
    for entry in std::fs::read_dir(root("scenarios")).unwrap() {
        let path = entry.unwrap().path();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        scenario
            .check(&v)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        checked += 1;
    }
    assert!(checked >= 4, "{checked} scenarios");
    // Each lesson step's set-up is a run file, as the page writes it.
    let mut setups = 0;
    for id in workqueue_lessons::BUILT_IN {
        let text = std::fs::read_to_string(root(&format!("lessons/{id}.md"))).unwrap();
        let lesson = workqueue_lessons::lesson(id, &text).unwrap();
        for step in &lesson.steps {
            if let Some(setup) = &step.setup {
                let v: Value = serde_json::from_str(&setup.to_json()).unwrap();
                run.check(&v)
                    .unwrap_or_else(|e| panic!("{} step {}: {e}", lesson.id, step.title));
                setups += 1;
            }
        }
    }
    assert!(setups >= 10, "{setups} set-ups");
}

#[test]
fn what_the_reader_refuses_for_its_shape_the_schema_refuses_too() {
    let scenario = Validator::of("docs/scenario.schema.json");
    let good = json!({"version": 2, "controllers": [{"limiter": {"type": "bucket", "qps": 10, "burst": 100}, "controller": {"workers": 2, "reconcile_ns": "50ms"}, "writes": {"Secret": 1}}]});
    scenario.check(&good).unwrap();
    let bad = [
        json!({"version": 2}),
        json!({"version": 2, "controllers": [{"workerz": 2}]}),
        json!({"version": 2, "controllers": [{"limiter": {"type": "bucket", "qps": 10}}]}),
        json!({"version": 2, "controllers": [{"limiter": {"type": "token_bucket", "qps": 10, "burst": 1}}]}),
        json!({"version": 2, "controllers": [{"controller": {"reconcile_ns": true}}]}),
        json!({"version": 2, "controllers": [{"writes": {"Secret": "one"}}]}),
        json!({"version": 2, "controllers": [{"queue": "fifo"}]}),
    ];
    for b in bad {
        assert!(scenario.check(&b).is_err(), "the schema took {b}");
        let text = b.to_string();
        assert!(
            workqueue_core::Scenario::from_json(&text).is_err(),
            "the reader took {b}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Scenarios the playground writes fit the schema it publishes.
    #[test]
    fn written_scenarios_fit_the_schema(
        workers in 1u32..64,
        qps in 0.5f64..500.0,
        burst in 1i64..1000,
        writes in proptest::collection::btree_map("[A-Z][a-z]{2,8}", 0u32..5, 0..3),
        priority in any::<bool>(),
        timeout_ms in proptest::option::of(1i64..10_000),
    ) {
        let mut s = workqueue_core::Scenario::new("generated");
        s.client = Some(workqueue_core::ClientLimit::per_kind(
            workqueue_core::ClientQps::lit(qps),
            workqueue_core::Burst::lit(burst),
        ));
        let c = &mut s.controllers[0];
        c.controller.workers = workqueue_core::Workers::lit(workers);
        c.controller.reconcile_timeout_ns = timeout_ms.map(|t| Span::lit(t * workqueue_core::MILLISECOND));
        c.writes = writes.into_iter().map(|(k, n)| (k, workqueue_core::Requests::lit(n))).collect();
        if priority {
            c.queue = workqueue_core::QueueKind::Priority;
        }
        let v: Value = serde_json::from_str(&s.to_json()).unwrap();
        let validator = Validator::of("docs/scenario.schema.json");
        prop_assert!(validator.check(&v).is_ok(), "{:?}", validator.check(&v));
    }
}

/// Each variant's fields the schema calls required are those the reader
/// cannot do without: a variant written with only its required fields
/// reads, and without any one of them is refused.
#[test]
fn the_schema_requires_exactly_what_the_reader_requires() {
    let schema: Value = serde_json::from_str(&wqsim(&["schema"])).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    // A minimal value for a property, from its schema.
    fn sample(p: &Value, defs: &serde_json::Map<String, Value>) -> Value {
        if let Some(r) = p.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap();
            return match name {
                "Duration" => json!("1s"),
                "Outcome" => json!({"kind": "success"}),
                "Script" => json!({"type": "always", "outcome": {"kind": "success"}}),
                "LimiterConfig" => json!({"type": "default_controller"}),
                _ => sample(&defs[name], defs),
            };
        }
        if let Some(c) = p.get("const") {
            return c.clone();
        }
        match p.get("type").and_then(Value::as_str) {
            Some("string") => json!("k"),
            Some("integer") => json!(2),
            Some("number") => json!(0.5),
            Some("boolean") => json!(false),
            Some("array") => json!([sample(&p["items"], defs)]),
            _ => json!({}),
        }
    }
    let mut checked = 0;
    for (name, wrap) in [
        ("Script", "default_script"),
        ("Outcome", "outcome"),
        ("LimiterConfig", "limiter"),
        ("Source", "source"),
    ] {
        for variant in defs[name]["oneOf"].as_array().unwrap() {
            let props = variant["properties"].as_object().unwrap();
            let required: Vec<&str> = variant["required"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let minimal: serde_json::Map<String, Value> = required
                .iter()
                .map(|k| match *k {
                    // Validation wants an outage to end after it starts.
                    "until_ns" => (k.to_string(), json!("2s")),
                    _ => (k.to_string(), sample(&props[*k], defs)),
                })
                .collect();
            let file = |v: Value| {
                let controller = match wrap {
                    "default_script" => json!({"default_script": v}),
                    "outcome" => json!({"default_script": {"type": "always", "outcome": v}}),
                    "limiter" => json!({"limiter": v}),
                    _ => json!({"sources": [v]}),
                };
                json!({"version": 2, "controllers": [controller]}).to_string()
            };
            let read = |v: Value| workqueue_core::Scenario::from_json(&file(v));
            assert!(
                read(Value::Object(minimal.clone())).is_ok(),
                "{name} {:?}: only the required fields: {:?}",
                variant["properties"],
                read(Value::Object(minimal.clone()))
            );
            for k in required
                .iter()
                .filter(|k| props[**k].get("const").is_none())
            {
                let mut without = minimal.clone();
                without.remove(*k);
                assert!(
                    read(Value::Object(without)).is_err(),
                    "{name}: the reader does without {k}, the schema requires it"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "{checked} required fields checked");
}
