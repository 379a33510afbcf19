//! Checks a layout fixture's reading against its `expected.json`: the
//! controllers, workers, limiters, queues, clients and what must not run.
//! Used by `layouts.rs`; kept apart so the tests read as the layouts.

use std::path::Path;
use workqueue_core::Span;
use workqueue_core::{Burst, Qps, Workers};

use serde_json::Value as Json;
use workqueue_core::{ClientScope, LimiterConfig, QueueKind};
use workqueue_go::{import, ImportError, Imported};

use super::layout;

pub fn expected(name: &str) -> Json {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layouts")
        .join(name)
        .join("expected.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// `exponential 2s..3m`, `bucket 25/s burst 150`, `max-of(a, b)`, with the
/// `default: ` and `(… default)` the fixtures write around a default.
pub fn limiter_of(text: &str) -> LimiterConfig {
    let t = text.trim().trim_start_matches("default:").trim();
    let t = match t.find(" (") {
        Some(at) => &t[..at],
        None => t,
    };
    if let Some(inner) = t.strip_prefix("max-of(").and_then(|r| r.strip_suffix(')')) {
        let (a, b) = inner
            .split_once("), ")
            .map_or_else(|| inner.split_once(", ").unwrap(), |(a, b)| (a, b));
        return LimiterConfig::MaxOf {
            limiters: vec![limiter_of(a), limiter_of(b)],
        };
    }
    if let Some(r) = t.strip_prefix("exponential ") {
        let (a, b) = r.split_once("..").unwrap();
        let d = |s: &str| workqueue_core::parse_go_duration(s.trim()).unwrap();
        return LimiterConfig::Exponential {
            base_ns: Span::lit(d(a)),
            max_ns: Span::lit(d(b)),
        };
    }
    if let Some(r) = t.strip_prefix("bucket ") {
        let (q, b) = r.split_once("/s burst ").unwrap();
        return LimiterConfig::Bucket {
            qps: Qps::new(q.parse().unwrap()).unwrap(),
            burst: Burst::new(b.trim().parse().unwrap()).unwrap(),
        };
    }
    panic!("a limiter the test does not read: {text}")
}

/// A limiter as it runs: the queue's default when none is set.
pub fn effective(l: &Option<LimiterConfig>, q: QueueKind) -> LimiterConfig {
    let l = l.clone().unwrap_or_else(|| q.default_limiter());
    match l {
        LimiterConfig::DefaultController => LimiterConfig::default_controller_parts(),
        l => l,
    }
}

pub fn scope(per: &str) -> &'static str {
    match per {
        "kind" => "kind",
        "shared" => "shared",
        "clientset" => "clientset",
        "group-version" => "group-version",
        other => panic!("{other}"),
    }
}

/// Imports the layout and checks it against its expected reading.
pub fn check(name: &str) -> Imported {
    let files = layout(name);
    let want = expected(name);
    let controllers = want["controllers"].as_array().cloned().unwrap_or_default();
    let client_go = files_are_client_go(&want);
    let got = match import(&files) {
        Err(ImportError::NoController) if controllers.is_empty() => return empty(),
        Err(e) => panic!("{name}: {e}"),
        Ok(got) => got,
    };
    assert!(
        !controllers.is_empty(),
        "{name}: read controllers where none run: {:?}",
        got.scenario
            .controllers
            .iter()
            .map(|c| &c.name)
            .collect::<Vec<_>>()
    );
    let s = &got.scenario;
    assert_eq!(
        s.controllers.len(),
        controllers.len(),
        "{name}: controllers {:?}",
        s.controllers.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    for want in &controllers {
        let wname = want["name"].as_str().unwrap();
        let kind = want["kind"].as_str().unwrap();
        let file = want["file"].as_str().unwrap();
        // Crossplane's names carry a group the files do not declare: the
        // controller is the one of that kind set up in that file.
        let c = s
            .controllers
            .iter()
            .find(|c| c.name == wname)
            .or_else(|| {
                let (prefix, _) = wname.split_once('/')?;
                s.controllers.iter().find(|c| {
                    c.name
                        .starts_with(&format!("{prefix}/{}", kind.to_lowercase()))
                        && got.taken.iter().any(|f| {
                            f.file == file
                                && f.text.starts_with(&format!("controller {:?}", c.name))
                        })
                })
            })
            .unwrap_or_else(|| {
                panic!(
                    "{name}: no controller {wname}: {:?}",
                    s.controllers.iter().map(|c| &c.name).collect::<Vec<_>>()
                )
            });
        let queue = match want["queue"].as_str().unwrap() {
            "client-go" => QueueKind::ClientGo,
            _ => QueueKind::Priority,
        };
        assert_eq!(c.queue, queue, "{name}: {wname}'s queue");
        if !client_go {
            assert_eq!(c.kind, kind, "{name}: {wname}'s kind");
        }
        match want["workers"].as_u64() {
            Some(w) => assert_eq!(
                c.controller.workers.get() as u64,
                w,
                "{name}: {wname}'s workers"
            ),
            // Not in the Go (a CPU count): one assumed, and said.
            None => {
                assert_eq!(
                    c.controller.workers,
                    Workers::lit(1),
                    "{name}: {wname}'s workers"
                );
                assert!(
                    got.unread
                        .iter()
                        .any(|f| f.text.contains(&format!("controller {:?}", c.name))
                            && f.text.contains("CPU")),
                    "{name}: {wname}'s unreadable workers are not said: {:#?}",
                    got.unread
                );
            }
        }
        let limiter = limiter_of(want["limiter"].as_str().unwrap());
        // A controller sharing the manager's bucket runs max-of(shared, own).
        let runs = match c.shares_bucket {
            true => Some(s.queue_limiter(c)),
            false => c.limiter.clone(),
        };
        if let Some(shares) = want["shares_bucket"].as_bool() {
            assert_eq!(c.shares_bucket, shares, "{name}: {wname} shares the bucket");
        }
        assert_eq!(
            effective(&runs, c.queue),
            effective(&Some(limiter), c.queue),
            "{name}: {wname}'s limiter"
        );
    }
    for gone in want["not_running"].as_array().into_iter().flatten() {
        let n = gone.as_str().or(gone["name"].as_str()).unwrap();
        assert!(
            s.controllers.iter().all(|c| c.name != n),
            "{name}: {n} does not run by default"
        );
    }
    // The controllers' client.
    match &want["client"] {
        Json::Null if want["clientsets"].is_array() => {
            let mut wanted: Vec<String> = want["clientsets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    format!(
                        "{} {} {}",
                        c["qps"],
                        c["burst"],
                        scope(c["per"].as_str().unwrap())
                    )
                })
                .collect();
            let mut clients: Vec<String> = got
                .clients
                .iter()
                .map(|c| {
                    format!(
                        "{} {} {}",
                        c.qps.unwrap_or(-1.0),
                        c.burst.unwrap_or(-1),
                        c.per
                    )
                })
                .collect();
            wanted.sort();
            clients.sort();
            // Clients of one config with its RateLimiter share one bucket.
            clients.dedup_by(|a, b| a == b && a.ends_with("shared"));
            assert_eq!(clients, wanted, "{name}: clients {:#?}", got.clients);
        }
        Json::Null => assert_eq!(s.client, None, "{name}: client"),
        c => {
            let limit = s
                .client
                .unwrap_or_else(|| panic!("{name}: no client limit: {:#?}", got.unread));
            assert_eq!(
                (limit.qps.get(), limit.burst.get()),
                (c["qps"].as_f64().unwrap(), c["burst"].as_i64().unwrap()),
                "{name}: client"
            );
            let per = match c["per"].as_str().unwrap() {
                "shared" => ClientScope::Shared,
                _ => ClientScope::Kind,
            };
            assert_eq!(limit.per, per, "{name}: client scope");
        }
    }
    match &want["crossplane"] {
        Json::Null => assert_eq!(s.crossplane, None, "{name}: crossplane"),
        cp => {
            let r = cp["max_reconcile_rate"].as_u64().unwrap();
            assert_eq!(
                s.crossplane.map(|c| c.max_reconcile_rate.get() as u64),
                Some(r),
                "{name}"
            );
            let buckets = cp["global_buckets"].as_array().map_or(1, Vec::len);
            if buckets > 1 {
                assert!(
                    got.unread.iter().any(|f| f
                        .text
                        .contains(&format!("{buckets} Crossplane global buckets"))),
                    "{name}: {buckets} global buckets not said"
                );
            }
        }
    }
    got
}

/// Whether the fixture is a client-go program (its queues' kinds are not in
/// the Go: the reader may name them after their holder).
pub fn files_are_client_go(want: &Json) -> bool {
    want["controller_runtime_used"] == Json::Bool(false)
}

pub fn empty() -> Imported {
    Imported {
        scenario: workqueue_core::Scenario::new("none"),
        taken: Vec::new(),
        unread: Vec::new(),
        clients: Vec::new(),
    }
}
