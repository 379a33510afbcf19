//! The headless CLI on the example scenarios in `scenarios/`.

#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;
use workqueue_core::At;

fn scenario(name: &str) -> String {
    format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh temporary directory for one test (`name` keeps tests that run
/// at once apart).
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wqsim-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

mod common;
use common::{wqsim_ok, wqsim_ok_str};

#[test]
fn wqsim_runs_a_scenario_and_writes_its_series() {
    let dir = std::env::temp_dir().join(format!("wqsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("series.csv");
    let text = wqsim_ok(&[
        scenario("fail-three-times.json").as_ref(),
        "--csv".as_ref(),
        csv.as_os_str(),
    ]);
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
    let dir = temp_dir("bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"version": 1, "controller": {"workers": 0}}"#).unwrap();
    let out = common::wqsim(&[&bad]);
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

#[test]
fn wqsim_prints_each_controller_of_a_provider_and_its_client() {
    let text = wqsim_ok(&[scenario("crossplane-provider.json").as_ref()]);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("controller "))
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    let reconciles: u64 = lines
        .iter()
        .map(|l| {
            assert!(l.contains(" errors=") && l.contains(" requeues="), "{l}");
            l.split("reconciles=")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    // One global bucket of 10/s (burst 100) for the whole provider: about
    // 100 + 10 x 60 reconciles in the minute, across the three kinds.
    assert!((600..=700).contains(&reconciles), "{reconciles}: {text}");
    let client = text.lines().find(|l| l.starts_with("client ")).unwrap();
    let requests: u64 = client
        .split("requests=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // Three API requests per reconcile, those still in flight at 60s included
    // (30 workers at most).
    assert!(
        (3 * reconciles..=3 * (reconciles + 30)).contains(&requests),
        "{client}"
    );
    assert!(client.contains("waited="), "{client}");
}

fn lessons_dir() -> String {
    format!("{}/../../lessons", env!("CARGO_MANIFEST_DIR"))
}

/// `wqsim lesson lessons/*`: every built-in lesson is accepted, every
/// question answered, the exercise's goal checked on its own set-up.
#[test]
fn wqsim_lesson_answers_every_built_in_question() {
    let mut files: Vec<String> = std::fs::read_dir(lessons_dir())
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let args: Vec<&std::ffi::OsStr> = std::iter::once("lesson".as_ref())
        .chain(files.iter().map(|f| f.as_ref()))
        .collect();
    let text = wqsim_ok(&args);
    let answers: Vec<&str> = text.lines().filter(|l| l.starts_with("answer ")).collect();
    assert_eq!(answers.len(), 29, "{text}");
    assert!(text.contains("answer crossplane/5: t=3s\n"), "{text}");
    assert!(
        text.contains("answer crossplane/7: 122 reconciles\n"),
        "{text}"
    );
    assert!(text.contains("answer provider/5: t=39s\n"), "{text}");
    assert!(text.contains("answer results/4: 5 reconciles\n"), "{text}");
    assert!(text.contains("answer backoff/1: 7 requeues"), "{text}");
    assert!(text.contains("answer backoff/2: 16m40s\n"), "{text}");
    assert!(text.contains("answer herd/1: 70,000 requeues"), "{text}");
    assert!(text.contains("answer v023/2: 109 requeues"), "{text}");
    assert!(
        text.contains("goal herd/5: all 300 keys converge within 40s"),
        "{text}"
    );
    assert!(
        text.contains(": not met with the step's own set-up"),
        "{text}"
    );
}

/// A refused lesson names its file, line and field, and the exit code is 1;
/// the good files given with it are still answered.
#[test]
fn wqsim_lesson_refuses_a_bad_file_with_its_line() {
    let good = format!("{}/backoff.md", lessons_dir());
    let (err, out) = lesson_refused(
        "lesson",
        "bad.md",
        "# Bad\n\n## Step\n\n```step\n{\"focus\": {\"lanes\": [\"queue\"]},\n \"setup\": {\"scenario\": {\"version\": 2, \"controllers\": [{}]}},\n \"question\": {\"ask\": \"?\", \"query\": {\"mood\": {}}}}\n```\n",
        Some(&good),
    );
    assert!(
        err.contains("bad.md: line 8: question.query: unknown variant `mood`"),
        "{err}"
    );
    assert!(out.contains("answer backoff/1: 7 requeues"));
}

/// A step no screen can show (a key its scene never has, the bucket of a
/// run without one) is named with its step and line; the answers still print.
#[test]
fn wqsim_lesson_names_a_step_no_screen_can_show() {
    let (err, _) = lesson_refused(
        "unshowable",
        "ghost.md",
        "# Ghost\n\n## First\n\nText.\n\n```step\n{\"focus\": {\"lanes\": [\"waiting\"]},\n \"setup\": {\"scenario\": {\"version\": 2, \"controllers\": [{\"limiter\": {\"type\": \"exponential\", \"base_ns\": \"5ms\", \"max_ns\": \"1s\"}}]},\n  \"inputs\": [{\"do\": {\"input\": \"add\", \"key\": \"a\"}}]}}\n```\n\n## Second\n\nMore.\n\n```step\n{\"focus\": {\"lanes\": [\"bucket\"], \"key\": \"b\"}}\n```\n",
        None,
    );
    assert!(
        err.contains("ghost.md: line 13: focus.key: step \"Second\": b is never added"),
        "{err}"
    );
    assert!(
        err.contains("ghost.md: line 13: focus.lanes: step \"Second\": the bucket lane"),
        "{err}"
    );
}

/// `wqsim lesson` on `text`, saved as `file` in a fresh temporary directory
/// (`dir`, removed after), then on the lesson file `more` where one is
/// given: refused with exit code 1. What it printed: stderr, stdout.
fn lesson_refused(dir: &str, file: &str, text: &str, more: Option<&str>) -> (String, String) {
    let dir = temp_dir(dir);
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    let mut args = vec![std::ffi::OsStr::new("lesson"), path.as_os_str()];
    args.extend(more.map(std::ffi::OsStr::new));
    let out = common::wqsim(&args);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(1));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (text(&out.stderr), text(&out.stdout))
}

/// A scenario file written to a fresh temporary directory.
fn temp_file(name: &str, json: &serde_json::Value) -> std::path::PathBuf {
    let path = temp_dir(name).join(format!("{name}.json"));
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

#[test]
fn a_file_asking_for_a_billion_events_is_refused_at_once_with_its_estimate() {
    // 800 watch sources of 1.25 million events each (within every limit of
    // a source: 2,500 a second for 500 s), for a week.
    let sources: Vec<_> = (0..800)
        .map(|i| serde_json::json!({"type": "watch_events", "key": format!("ns/obj-{i}"), "per_second": 2000, "duration_ns": "500s"}))
        .collect();
    let path = temp_file(
        "billion",
        &serde_json::json!({"version": 2, "duration_ns": "168h", "controllers": [{"sources": sources}]}),
    );
    let started = std::time::Instant::now();
    let out = common::wqsim(&[&path]);
    let took = started.elapsed();
    println!("refused in {took:?}");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("work units") && err.contains("--no-limit"),
        "{err}"
    );
    assert!(
        err.contains("1,6") || err.contains("2,4"),
        "an estimate: {err}"
    );
    assert!(out.stdout.is_empty(), "nothing ran");
    assert!(took < std::time::Duration::from_secs(1), "{took:?}");
}

#[test]
fn with_no_limit_a_long_run_shows_progress_and_ctrl_c_prints_the_figures_so_far() {
    use std::io::{BufRead, BufReader};
    // A requeue every 2 microseconds for three days.
    let path = temp_file(
        "long",
        &serde_json::json!({"version": 2, "duration_ns": "72h", "controllers": [{"controller": {"reconcile_ns": 0}, "items": [{"key": "hot", "script": {"type": "always", "outcome": {"kind": "requeue_after", "after_ns": "2us"}}}]}]}),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_wqsim"))
        .arg(&path)
        .arg("--no-limit")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut progress = Vec::new();
    while progress.len() < 2 {
        let line = lines.next().expect("progress before the end").unwrap();
        assert!(line.starts_with("wqsim: "), "{line}");
        progress.push(line);
    }
    assert!(progress[1].contains("of 72h0m0s virtual"), "{progress:?}");
    assert!(progress[1].contains("/s"), "a rate: {progress:?}");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{rest:?}");
    assert!(
        rest.iter().any(|l| l.starts_with("interrupted at")),
        "{rest:?}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reconcile_total{result=\"requeue_after\"}"),
        "{text}"
    );
}

#[test]
fn a_stalled_run_exits_with_3_and_says_why() {
    let path = temp_file(
        "stall",
        &serde_json::json!({"version": 2, "duration_ns": "1s", "controllers": [{"limiter": {"type": "exponential", "base_ns": 0, "max_ns": 0}, "controller": {"reconcile_ns": 0, "workers": 3}, "items": [{"key": "a", "script": {"type": "always", "outcome": {"kind": "error"}}}, {"key": "b"}]}]}),
    );
    let out = common::wqsim(&[&path]);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("stalled"), "{text}");
}

#[test]
fn names_with_newlines_and_escapes_cannot_forge_output_lines() {
    let path = temp_file(
        "forge",
        &serde_json::json!({"version": 2, "name": "real\nclient requests=999 waited=1h", "duration_ns": "1s", "controllers": [
            {"name": "web\u{1b}[2K\rcontroller fake reconciles=0", "items": [{"key": "k"}]}
        ]}),
    );
    let text = wqsim_ok(&[path.as_os_str()]);
    assert!(!text.contains('\u{1b}') && !text.contains('\r'), "{text:?}");
    let client_lines = text.lines().filter(|l| l.starts_with("client ")).count();
    assert_eq!(client_lines, 1, "{text}");
    let controller_lines = text
        .lines()
        .filter(|l| l.starts_with("controller "))
        .count();
    assert_eq!(controller_lines, 1, "{text}");
    assert!(text.contains(r"real\nclient requests=999"), "{text}");
}

/// A run downloaded from the page (a scenario, the keys typed on it at
/// their instants) runs as the page ran it; its inputs are costed before
/// anything runs.
#[test]
fn wqsim_runs_a_downloaded_run_with_its_typed_keys() {
    let path = temp_file(
        "run",
        &serde_json::json!({
            "scenario": {"version": 2, "duration_ns": "5s", "controllers": [{"default_script": {"type": "fail_then_succeed", "failures": 2}}]},
            "inputs": [{"at": "1s", "do": {"input": "add", "key": "default/typed"}},
                       {"at": "2s", "do": {"input": "add_many", "prefix": "default/many-", "count": 4}}],
            "run_to": "3s"
        }),
    );
    let text = wqsim_ok(&[path.as_os_str()]);
    // Five keys, each failing twice, then succeeding.
    assert!(
        text.contains("reconcile_total{result=\"error\"} 10"),
        "{text}"
    );
    assert!(
        text.contains("reconcile_total{result=\"success\"} 5"),
        "{text}"
    );
    let heavy = temp_file(
        "heavy-run",
        &serde_json::json!({
            "scenario": {"version": 2, "duration_ns": "168h", "controllers": [{"default_script": {"type": "always", "outcome": {"kind": "requeue_after", "after_ns": "1ms"}}}]},
            "inputs": [{"do": {"input": "add_many", "prefix": "k-", "count": 1000}}]
        }),
    );
    let out = common::wqsim(&[&heavy]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("work units"), "the inputs were costed: {err}");
    assert!(out.stdout.is_empty(), "nothing ran");
}

/// `--summary` prints the numbers an author asks for; `--summary-json` the
/// same value, exact, for a script.
#[test]
fn wqsim_summarises_a_run_in_words_and_in_json() {
    let dir = temp_dir("summary");
    let json = dir.join("summary.json");
    let text = wqsim_ok(&[
        scenario("fail-three-times.json").as_ref(),
        "--summary".as_ref(),
        "--summary-json".as_ref(),
        json.as_os_str(),
    ]);
    assert!(text.contains("summary at 5s"), "{text}");
    assert!(text.contains("keys              1 (1 converged)"), "{text}");
    assert!(text.contains("time to converge  p50 "), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["converged_keys"], 1);
    assert!(doc["time_spent"]["backoff"].as_i64().unwrap() > 0, "{doc}");
}

/// `wqsim import DIR` prints the scenario a Go set-up describes, with what it
/// took on stderr; the scenario then runs as any other file.
#[test]
fn wqsim_imports_a_go_set_up_and_runs_it() {
    let dir = format!(
        "{}/../workqueue-go/tests/fixtures/provider",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::wqsim_success(&["import", &dir]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("main.go:21: flag --max-reconcile-rate: its default, 10"),
        "{err}"
    );
    let json = String::from_utf8_lossy(&out.stdout).into_owned();
    let s = workqueue_core::Scenario::from_json(&json).unwrap();
    assert_eq!(s.controllers.len(), 2);
    let path = temp_file("imported", &serde_json::from_str(&json).unwrap());
    let text = wqsim_ok(&[path.as_os_str(), "--summary".as_ref()]);
    assert!(
        text.contains("keys              200 (200 converged)"),
        "{text}"
    );
    // Broken Go: its file and line, exit 1.
    let broken = std::env::temp_dir().join(format!("wqsim-broken-{}.go", std::process::id()));
    std::fs::write(&broken, "package main\n\nfunc main() {\n\tx := (1 +\n}\n").unwrap();
    let out = common::wqsim(&[std::ffi::OsStr::new("import"), broken.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(": line 4: not Go this reader can parse: expect expression"));
}

/// `wqsim export` writes the set-up as Go; `wqsim import` reads it back.
#[test]
fn wqsim_exports_go_that_imports_back() {
    let go = wqsim_ok_str(&["export", &scenario("shared-bucket.json")]);
    assert!(
        go.contains("shared := &workqueue.TypedBucketRateLimiter"),
        "{go}"
    );
    let dir = temp_dir("export");
    std::fs::write(dir.join("main.go"), &go).unwrap();
    let back =
        workqueue_core::Scenario::from_json(&wqsim_ok_str(&["import", dir.to_str().unwrap()]))
            .unwrap();
    // One controller alone holds the bucket: in Go it is that controller's
    // max-of(bucket, own), shared with none, and read so (the run is the same).
    assert_eq!(back.shared_bucket, None);
    let s = workqueue_core::Scenario::from_json(
        &std::fs::read_to_string(scenario("shared-bucket.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        workqueue_go::export::SetUp::of(&back),
        workqueue_go::export::SetUp::of(&s)
    );
    assert_eq!(
        back.queue_limiter(&back.controllers[0]),
        s.queue_limiter(&s.controllers[0])
    );
}

/// The author's figures as import options: objects, an outage, writes per
/// kind (for all controllers, or one), failures that write nothing; the
/// scenario printed carries them, and a mistake names the option.
#[test]
fn wqsim_import_takes_the_authors_figures_as_options() {
    let dir = format!(
        "{}/../workqueue-go/tests/fixtures/operator",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = wqsim_ok_str(&[
        "import",
        &dir,
        "--objects",
        "250",
        "--outage",
        "5m",
        "--reconcile",
        "20ms",
        "--writes",
        "Secret=1",
        "--writes",
        "widget:ConfigMap=2",
        "--errors-write-nothing",
    ]);
    let s = workqueue_core::Scenario::from_json(&out).unwrap();
    for c in &s.controllers {
        assert!(matches!(
            c.sources[0],
            workqueue_core::Source::AddMany { count, .. } if count.get() == 250
        ));
        assert!(
            matches!(c.default_script, workqueue_core::Script::Outage { until_ns, .. } if until_ns == At::lit(workqueue_core::Instant::T0 + 300 * workqueue_core::SECOND))
        );
        assert_eq!(c.controller.reconcile_ns, 20 * workqueue_core::MILLISECOND);
        assert!(c.errors_write_nothing);
        let want: Vec<(&str, u32)> = if c.kind == "Widget" {
            vec![("ConfigMap", 2)]
        } else {
            vec![("Secret", 1)]
        };
        let got: Vec<(&str, u32)> = c
            .writes
            .iter()
            .map(|(k, n)| (k.as_str(), n.get()))
            .collect();
        assert_eq!(got, want, "{}", c.name);
    }
    let bad = common::wqsim(&["import", &dir, "--outage", "five minutes"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("--outage five minutes: \"five minutes\" is not a duration"));
    // A number without its unit is refused as Go's ParseDuration does; an
    // empty window is said to be empty; a count of objects is 1 or more.
    for (args, said) in [
        (
            ["--outage", "20..80"],
            "--outage 20..80: \"20\" has no unit (write 20s or 20ms)",
        ),
        (
            ["--reconcile", "200"],
            "--reconcile 200: \"200\" has no unit (write 200s or 200ms)",
        ),
        (
            ["--outage", "20s..20s"],
            "--outage 20s..20s: \"20s..20s\": the outage is empty, it ends where it starts",
        ),
        (
            ["--objects", "-5"],
            "--objects -5: \"-5\": the number of objects must be 1 or more",
        ),
    ] {
        let bad = common::wqsim(&["import", &dir, args[0], args[1]]);
        assert_eq!(bad.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
    }
    let help = wqsim_ok(&["import".as_ref(), "--help".as_ref()]);
    assert!(help.contains("--errors-write-nothing"), "{help}");
}

/// Issue 48, item 5: the author's question whole. An outage anywhere in the
/// run (`--outage 10s..100s`); the summary's peak rate per kind and what held
/// the run back; the per-second series in `--summary-json` and the CSV.
#[test]
fn an_outage_window_peaks_a_series_and_what_held_the_run_back() {
    let dir = format!(
        "{}/../workqueue-go/tests/fixtures/layouts/clientgo-run-workers-param",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = wqsim_ok_str(&[
        "import",
        &dir,
        "--outage",
        "10s..100s",
        "--writes",
        "Secret=2",
    ]);
    let s = workqueue_core::Scenario::from_json(&out).unwrap();
    let t0 = workqueue_core::Instant::T0;
    let sec = workqueue_core::SECOND;
    assert!(matches!(
        s.controllers[0].default_script,
        workqueue_core::Script::Outage { from_ns, until_ns, .. } if from_ns.get() == t0 + 10 * sec && until_ns.get() == t0 + 100 * sec
    ));
    let tmp = std::env::temp_dir().join(format!("wqsim-answers-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let scenario = tmp.join("s.json");
    std::fs::write(&scenario, &out).unwrap();
    let (sum, csv) = (tmp.join("sum.json"), tmp.join("run.csv"));
    let text = wqsim_ok_str(&[
        scenario.to_str().unwrap(),
        "--summary",
        "--summary-json",
        sum.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        text.contains("held back by      client: the clientset's limit of 5 qps, burst 10 for each API group-version"),
        "{text}"
    );
    assert!(
        text.contains("Secret: ") && text.contains("peak "),
        "{text}"
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sum).unwrap()).unwrap();
    assert_eq!(j["held_back_by"]["limit"], "client");
    assert_eq!(j["request_series"]["width_ns"], 1_000_000_000i64);
    let kinds = j["request_series"]["kinds"].as_array().unwrap();
    assert!(kinds
        .iter()
        .any(|k| k["kind"] == "Secret" && k["per_second"].as_array().unwrap().len() > 100));
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",requests_per_s:Lantern,requests_per_s:Secret"),
        "{csv}"
    );
    let bad = common::wqsim(&["import", &dir, "--outage", "100s..10s"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("ends before it starts"));
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `wqsim export` with an option it does not have says so and lists its
/// options (not "cannot read --frob"); `wqsim` alone prints its usage to
/// stderr and exits 2.
#[test]
fn wqsim_export_refuses_an_unknown_option_and_wqsim_alone_shows_usage() {
    let out = common::wqsim(&["export", "--frob"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown option --frob") && err.contains("--help"),
        "{err}"
    );
    assert!(!err.contains("cannot read"), "{err}");
    let none: [&str; 0] = [];
    let out = common::wqsim(&none);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: wqsim"));
}
