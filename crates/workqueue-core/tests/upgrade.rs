//! Version 1 scenario files (kept in `tests/v1/` as they were written) open
//! to the same run as the version 2 files in `scenarios/`: the same
//! scenario once upgraded, and the same digest once run to the end.

#![cfg(not(target_arch = "wasm32"))]

use workqueue_core::SCENARIO_VERSION;
use workqueue_core::{Manager, Scenario};

fn read(path: &str) -> Scenario {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_old_scenario_file_runs_as_its_new_form() {
    let old_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/v1");
    let new_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    let mut compared = 0;
    for entry in std::fs::read_dir(old_dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"version\": 1"),
            "{name} is a version 1 file"
        );
        let old = read(path.to_str().unwrap());
        let new = read(&format!("{new_dir}/{name}"));
        assert_eq!(
            new.version, SCENARIO_VERSION,
            "{name} in scenarios/ is current"
        );
        assert_eq!(old, new, "{name}: the upgrade gives the new file");
        let digest = |s: &Scenario| {
            let mut m = Manager::new(s).unwrap();
            m.run_to_end();
            m.digest()
        };
        assert_eq!(digest(&old), digest(&new), "{name}: the same run");
        compared += 1;
    }
    assert!(compared >= 3, "only {compared} old files");
}

#[test]
fn every_example_scenario_is_version_2() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["version"], 2, "{}", path.display());
    }
}
