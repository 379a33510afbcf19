//! `wqsim SCENARIO.json [--csv OUT.csv] [--json OUT.json]`: runs a scenario
//! headlessly and prints a summary; optionally writes the time series.

use std::process::ExitCode;

use workqueue_core::{format_go_duration, Manager, ResultLabel, Scenario};

pub fn main(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("usage: wqsim SCENARIO.json [--csv OUT.csv] [--json OUT.json]\n       wqsim lesson FILE.md...");
        return ExitCode::from(2);
    };
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let scenario = match Scenario::from_json(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut manager = match Manager::new(&scenario) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    manager.set_log_capacity(0);
    manager.run_to_end();
    // The first controller's figures, as for a one-controller file; then
    // one line per controller and one for the shared client.
    let (_, sim) = manager
        .controllers()
        .next()
        .expect("a manager has a controller");
    let m = sim.metrics_snapshot();
    println!(
        "scenario          {}",
        if scenario.name.is_empty() {
            path
        } else {
            &scenario.name
        }
    );
    println!("virtual time      {}", format_go_duration(sim.now()));
    println!("keys              {}", sim.queue().keys().len());
    for label in ResultLabel::ALL {
        println!(
            "reconcile_total{{result={:?}}} {}",
            label.as_str(),
            m.controller.total(label)
        );
    }
    println!("requeues          {}", m.requeues_total);
    println!("workqueue_adds_total    {}", m.workqueue_adds_total);
    println!("workqueue_retries_total {}", m.workqueue_retries_total);
    println!("workqueue_depth         {}", m.workqueue_depth);
    for (name, c) in manager.controllers() {
        let cm = c.metrics_snapshot();
        let converged = c
            .converged_at()
            .map_or_else(|| "no".to_string(), format_go_duration);
        println!(
            "controller {name} reconciles={} errors={} requeues={} converged={converged}",
            c.inner_reconciles(),
            cm.controller.reconcile_errors_total,
            cm.requeues_total
        );
        if let Some(reason) = c.stalled() {
            println!("stalled           {name}: {reason}");
        }
    }
    let (requests, waited) = manager.client_totals();
    println!(
        "client requests={requests} waited={}",
        format_go_duration(waited)
    );
    let series = sim.series();
    if let Some(out) = flag("--csv") {
        let mut csv = String::from("start_ns,requeues,retries,adds,reconcile_error,reconcile_requeue_after,reconcile_requeue,reconcile_success,depth,waiting,processing,tokens\n");
        // Only samples inside the run (the last one opens at its end instant).
        for (i, s) in series
            .samples
            .iter()
            .enumerate()
            .filter(|(i, _)| series.start_of(*i) < sim.now())
        {
            let r = s.reconciles;
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                series.start_of(i),
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
            eprintln!("cannot write {out}: {e}");
            return ExitCode::from(2);
        }
    }
    if let Some(out) = flag("--json") {
        let doc = serde_json::json!({ "metrics": m, "series": series });
        if let Err(e) = std::fs::write(out, serde_json::to_string(&doc).unwrap_or_default()) {
            eprintln!("cannot write {out}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
