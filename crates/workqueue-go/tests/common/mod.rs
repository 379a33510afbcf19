//! What the Go reader's tests share: the fixtures' files, and limiters of
//! every kind for the export to carry.

#![allow(dead_code)] // (each test file uses what it needs)

pub mod reading;

use workqueue_core::Span;
use workqueue_core::{Burst, Qps};
use workqueue_core::{Duration, LimiterConfig, MILLISECOND, SECOND};

/// The files of `tests/fixtures/{dir}`, by name, in order.
pub fn fixture(dir: &str) -> Vec<(String, String)> {
    let root = format!("{}/tests/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// `NewTypedMaxOfRateLimiter(exponential(base, max), bucket(qps, burst))`,
/// the limiter most controllers write by hand.
pub fn backoff_and_bucket(base: Duration, max: Duration, qps: f64, burst: i64) -> LimiterConfig {
    LimiterConfig::MaxOf {
        limiters: vec![
            LimiterConfig::Exponential {
                base_ns: Span::lit(base),
                max_ns: Span::lit(max),
            },
            LimiterConfig::Bucket {
                qps: Qps::lit(qps),
                burst: Burst::lit(burst),
            },
        ],
    }
}

/// A limiter of every kind client-go has (and none: the queue's default).
pub fn limiters() -> Vec<Option<LimiterConfig>> {
    vec![
        None,
        Some(LimiterConfig::DefaultController),
        Some(LimiterConfig::Exponential {
            base_ns: Span::lit(7 * MILLISECOND),
            max_ns: Span::lit(90 * SECOND),
        }),
        Some(LimiterConfig::FastSlow {
            fast_ns: Span::lit(20 * MILLISECOND),
            slow_ns: Span::lit(3 * SECOND),
            max_fast_attempts: 4,
        }),
        Some(LimiterConfig::Bucket {
            qps: Qps::lit(7.5),
            burst: Burst::lit(12),
        }),
        Some(backoff_and_bucket(
            1500 * MILLISECOND,
            1000 * SECOND,
            0.5,
            1,
        )),
        Some(LimiterConfig::WithMaxWait {
            limiter: Box::new(LimiterConfig::DefaultController),
            max_wait_ns: Span::lit(10 * SECOND),
        }),
    ]
}

/// A fixture's files, named by their path inside it (as `wqsim import DIR`
/// names them under DIR).
pub fn layout(name: &str) -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layouts")
        .join(name);
    let mut out = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "go") || p.ends_with("go.mod") {
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}
