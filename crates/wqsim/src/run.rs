//! `wqsim SCENARIO-or-RUN.json [--summary] [--summary-json OUT.json] [--csv OUT.csv] [--json OUT.json] [--no-limit]`:
//! runs a scenario headlessly and prints a summary; optionally writes the
//! time series. The work is estimated first, and a file that asks for more
//! than [`DEFAULT_WORK_CAP`] is refused (with the estimate) unless
//! `--no-limit` is given. A run that takes longer than a second reports its
//! progress on stderr every second; Ctrl-C stops it with the figures so far.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use workqueue_core::Run;
use workqueue_core::Summary;
use workqueue_core::{format_count, format_go_duration, Manager, ResultLabel};
// The run's virtual instants, beside the wall clock's std ones.
use workqueue_core::Instant as At;

/// What `wqsim` does, verb by verb (`wqsim --help`).
pub const USAGE: &str = "usage: wqsim SCENARIO-or-RUN.json [--summary] [--summary-json OUT.json] [--csv OUT.csv] [--json OUT.json] [--no-limit]
       wqsim import FILE.go|DIR... [--objects N] [--outage 5m] [--writes KIND=N] ...   (a controller's Go set-up, as a scenario)
       wqsim export SCENARIO.json    (a scenario's set-up, as Go; Crossplane core's as Helm values)
       wqsim schema [run] [--markdown]  (the files' JSON Schema, or its reference page)
       wqsim lesson [--views DIR] FILE.md...  (check lesson files, print every answer)
--no-limit runs a file whose estimated work is above the default cap.
`wqsim VERB --help` says more of one verb.";

/// Estimated work units above which a run is refused without `--no-limit`:
/// about ten seconds of work (the core does some ten million units a
/// second on one core of the CI machine).
pub const DEFAULT_WORK_CAP: f64 = 1e8;
/// Work units between two looks at the clock and at Ctrl-C (a few ms).
const CHUNK: u64 = 200_000;
/// Stalled runs exit with this code (see `main.rs`).
const EXIT_STALLED: u8 = 3;
/// Runs stopped by Ctrl-C exit with the shell's code for SIGINT.
const EXIT_INTERRUPTED: u8 = 130;

/// A name from a file, printed so that it cannot forge lines or colours
/// nor read in another order (`workqueue_core::shown`).
pub(crate) fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    workqueue_core::shown(name)
}

/// A work figure as a person reads it: 123,456 or 3.2e13.
fn figure(x: f64) -> String {
    if x < 1e12 {
        format_count(x as u64)
    } else {
        format!("{x:.1e}")
    }
}

pub fn main(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let no_limit = args.iter().any(|a| a == "--no-limit");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}: {e}", shown(path));
            return ExitCode::from(2);
        }
    };
    // A run file (the page's *Download run*, a lesson step's set-up) or a
    // bare scenario; a run's inputs are applied at their instants.
    let run = match Run::from_file(&text) {
        Ok(r) => r,
        Err(e) => {
            let said = workqueue_core::document::explain(&text, &e);
            eprintln!("{}: {}", shown(path), shown(&said));
            return ExitCode::from(1);
        }
    };
    // The inputs' keys and storms are costed as the sources they start.
    let estimate = run.work_to(At::T0 + run.scenario.duration_ns.get());
    let Run {
        scenario, inputs, ..
    } = run;
    if estimate > DEFAULT_WORK_CAP && !no_limit {
        eprintln!(
            "{}: this run asks for about {} work units (keys, events, reconciles, client requests), more than the {} wqsim runs by default (about ten seconds). Shorten duration_ns, or run it anyway with --no-limit (progress is shown every second; Ctrl-C stops it with the figures so far).",
            shown(path),
            figure(estimate),
            figure(DEFAULT_WORK_CAP)
        );
        return ExitCode::from(1);
    }
    let mut manager = match Manager::new(&scenario) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: {}", shown(path), shown(&e.to_string()));
            return ExitCode::from(1);
        }
    };
    manager.set_log_capacity(0);
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // Without a handler (another one is set) Ctrl-C simply ends the run.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let mut finished = true;
    for (at, input) in inputs {
        finished = at > At::T0 + scenario.duration_ns.get()
            || (run_with_progress(&mut manager, at, estimate, &interrupted)
                && manager.apply(0, input).is_ok());
        if !finished {
            break;
        }
    }
    finished = finished
        && run_with_progress(
            &mut manager,
            At::T0 + scenario.duration_ns.get(),
            estimate,
            &interrupted,
        );
    if !finished && !manager.stalled() {
        eprintln!(
            "interrupted at {} of {} virtual: the figures so far",
            format_go_duration(virtual_now(&manager).since_t0()),
            format_go_duration(scenario.duration_ns.get())
        );
    }
    // The first controller's figures, as for a one-controller file; then
    // one line per controller and one for the shared client.
    let (first, sim) = manager
        .controllers()
        .next()
        .expect("a manager has a controller");
    let m = sim.metrics_snapshot();
    println!(
        "scenario          {}",
        shown(if scenario.name.is_empty() {
            path
        } else {
            &scenario.name
        })
    );
    println!(
        "virtual time      {}",
        format_go_duration(sim.now().since_t0())
    );
    if manager.len() > 1 {
        println!(
            "figures of        {} (the first of {} controllers; a line for each below)",
            shown(first),
            manager.len()
        );
    }
    println!("keys              {}", sim.queue().keys().len());
    for label in ResultLabel::ALL {
        println!(
            "reconcile_total{{result={:?}}} {}",
            label.as_str(),
            m.controller.total(label)
        );
    }
    if m.controller.reconcile_timeouts_total > 0 {
        println!(
            "reconcile_timeouts_total {}",
            m.controller.reconcile_timeouts_total
        );
    }
    println!("requeues          {}", m.requeues_total);
    println!("workqueue_adds_total    {}", m.workqueue_adds_total);
    println!("workqueue_retries_total {}", m.workqueue_retries_total);
    println!("workqueue_depth         {}", m.workqueue_depth);
    for (name, c) in manager.controllers() {
        let cm = c.metrics_snapshot();
        // (The last success with nothing left to do: a resync's round moves
        // it; the summary's "last converged" is where keys converged.)
        let quiet = c
            .converged_at()
            .map_or_else(|| "no".to_string(), |t| format_go_duration(t.since_t0()));
        println!(
            "controller {} reconciles={} errors={} requeues={} quiet={quiet}",
            shown(name),
            c.inner_reconciles(),
            cm.controller.reconcile_errors_total,
            cm.requeues_total
        );
        if let Some(reason) = c.stalled() {
            println!("stalled           {}: {}", shown(name), shown(reason));
        }
    }
    let (requests, waited) = manager.client_totals();
    println!(
        "client requests={requests} waited={}",
        format_go_duration(waited)
    );
    let series = sim.series();
    let summary = Summary::of(&manager);
    if let Some(out) = flag("--csv") {
        let rs = &summary.request_series;
        // The API requests per second of each kind, in the sample each row's
        // instant falls in (the run's series by kind).
        let kinds: String = rs
            .kinds
            .iter()
            .map(|k| {
                format!(
                    ",requests_per_s:{}",
                    shown(&k.kind).replace([',', '"', '\n'], "_")
                )
            })
            .collect();
        let mut csv = format!("start_ns,requeues,retries,adds,reconcile_error,reconcile_requeue_after,reconcile_requeue,reconcile_success,depth,waiting,processing,tokens{kinds}\n");
        // Only samples inside the run (the last one opens at its end instant).
        for (i, s) in series
            .samples
            .iter()
            .enumerate()
            .filter(|(i, _)| series.start_of(*i) < sim.now())
        {
            let r = s.reconciles;
            let start = series.start_of(i).as_nanos();
            let j = (start / rs.width.as_nanos().max(1)) as usize;
            let rates: String = rs
                .kinds
                .iter()
                .map(|k| format!(",{}", k.per_second.get(j).copied().unwrap_or(0.0)))
                .collect();
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}{rates}\n",
                start,
                s.requeues,
                s.retries,
                s.adds,
                r[0],
                r[1],
                r[2],
                r[3],
                s.depth,
                s.waiting,
                s.processing,
                s.tokens
            ));
        }
        if let Err(e) = std::fs::write(out, csv) {
            eprintln!("cannot write {}: {e}", shown(out));
            return ExitCode::from(2);
        }
    }
    if args.iter().any(|a| a == "--summary") {
        print!("{}", summary_text(&summary));
    }
    if let Some(out) = flag("--summary-json") {
        let text = serde_json::to_string_pretty(&summary).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text) {
            eprintln!("cannot write {}: {e}", shown(out));
            return ExitCode::from(2);
        }
    }
    if let Some(out) = flag("--json") {
        let doc = serde_json::json!({ "metrics": m, "series": series, "summary": summary });
        if let Err(e) = std::fs::write(out, serde_json::to_string(&doc).unwrap_or_default()) {
            eprintln!("cannot write {}: {e}", shown(out));
            return ExitCode::from(2);
        }
    }
    if manager.stalled() {
        ExitCode::from(EXIT_STALLED)
    } else if !finished {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The summary as a person reads it (`--summary`).
fn summary_text(s: &Summary) -> String {
    // Rounded to the millisecond (the microsecond under a second): sums of
    // x/time/rate's waits end in …999ns. `--summary-json` keeps them exact.
    // A sum that reached the largest duration (292 years) is at least that.
    let d = |n: workqueue_core::Duration| {
        if n == workqueue_core::Duration::MAX {
            return "over 292 years".to_string();
        }
        let n = n.as_nanos();
        let step: i64 = if n >= 1_000_000_000 { 1_000_000 } else { 1_000 };
        format_go_duration(workqueue_core::Duration::from_nanos(
            n.saturating_add(step / 2) / step * step,
        ))
    };
    let mut out = format!("summary at {}\n", d(s.at.since_t0()));
    out += &format!(
        "  keys              {} ({} converged)\n",
        format_count(s.keys),
        format_count(s.converged_keys)
    );
    if let Some(t) = s.time_to_converge {
        out += &format!(
            "  time to converge  p50 {} · p95 {} · max {}\n",
            d(t.p50),
            d(t.p95),
            d(t.max)
        );
    }
    let t = s.time_spent;
    out += &format!(
        "  time spent        (all keys together) queued {} · backoff {} · bucket {} · requeue_after {} · client limit {} · reconciling {}\n",
        d(t.queued),
        d(t.backoff),
        d(t.bucket),
        d(t.requeue_after),
        d(t.client),
        d(t.reconciling)
    );
    out += &format!("  reconciles/s      {:.2}\n", s.reconciles_per_second);
    for k in s.requests.iter().filter(|k| k.requests > 0) {
        out += &format!(
            "  requests          {}: {} ({:.2}/s, peak {:.2}/s at {} in samples of {})\n",
            shown(&k.kind),
            format_count(k.requests),
            k.per_second,
            k.peak_per_second,
            d(k.peak_at.since_t0()),
            d(s.request_series.width)
        );
    }
    if let Some(h) = &s.held_back_by {
        out += &format!("  held back by      {}: {}\n", h.limit, shown(&h.what));
    }
    out += &format!("  deepest queue     {}\n", format_count(s.deepest_queue));
    out += &format!(
        "  last converged    {}\n",
        s.last_converged_at
            .map_or_else(|| "not yet".to_string(), |t| d(t.since_t0()))
    );
    out
}

/// How far the run has got: its furthest controller (the manager's own
/// clock moves only when a whole call reaches its target).
fn virtual_now(manager: &Manager) -> At {
    manager
        .controllers()
        .map(|(_, c)| c.now())
        .max()
        .unwrap_or(At::T0)
}

/// Runs to `end` in chunks, printing progress to stderr once a second after
/// the first second. Whether the end was reached (false: stalled, or
/// stopped by Ctrl-C).
fn run_with_progress(manager: &mut Manager, end: At, estimate: f64, stop: &AtomicBool) -> bool {
    let started = Instant::now();
    let mut last_report = started;
    let mut done: u64 = 0;
    loop {
        let reached = manager.run_until_bounded(end, CHUNK);
        done += CHUNK - manager.budget_left().min(CHUNK);
        if reached {
            return true;
        }
        if manager.stalled() || stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now - last_report >= Duration::from_secs(1) {
            last_report = now;
            let secs = (now - started).as_secs_f64();
            eprintln!(
                "wqsim: {} of {} virtual, {} events of about {}, {}/s",
                format_go_duration(virtual_now(manager).since_t0()),
                format_go_duration(end.since_t0()),
                format_count(done),
                figure(estimate),
                figure(done as f64 / secs)
            );
        }
    }
}
