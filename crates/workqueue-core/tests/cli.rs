//! The headless CLI on the example scenarios in `scenarios/`.

#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn scenario(name: &str) -> String {
    format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn wqsim_runs_a_scenario_and_writes_its_series() {
    let dir = std::env::temp_dir().join(format!("wqsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("series.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_wqsim"))
        .arg(scenario("fail-three-times.json"))
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reconcile_total{result=\"error\"} 3"),
        "{text}"
    );
    assert!(
        text.contains("reconcile_total{result=\"success\"} 1"),
        "{text}"
    );
    let series = std::fs::read_to_string(&csv).unwrap();
    assert!(series.starts_with("start_ns,requeues,retries"));
    assert_eq!(series.lines().count(), 1 + 50, "5s in 100ms samples");
}

#[test]
fn wqsim_refuses_a_malformed_scenario_and_names_the_field() {
    let dir = std::env::temp_dir().join(format!("wqsim-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"version": 1, "controller": {"workers": 0}}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wqsim"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("controller.workers"));
}

#[test]
fn the_example_herd_scenario_is_valid_and_bounded_by_the_bucket() {
    let text = std::fs::read_to_string(scenario("thundering-herd.json")).unwrap();
    let s = workqueue_core::Scenario::from_json(&text).unwrap();
    let mut sim = workqueue_core::Simulation::new(&s).unwrap();
    sim.set_log_capacity(0);
    sim.run_to_end();
    // 100 at 5ms, then about 10 per second for the rest of the 10s.
    assert!(
        (190..=210).contains(&sim.requeues_total()),
        "{}",
        sim.requeues_total()
    );
}
