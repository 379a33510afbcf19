//! How big anything in a scenario may be: the bounds the validation gate
//! checks, each a value no real set-up needs to pass.

use crate::time::{Duration, HOUR, MILLISECOND};

/// Most distinct keys a run may create.
pub const MAX_ITEMS: u64 = 1_000_000;
/// Longest virtual run.
pub const MAX_RUN: Duration = Duration::from_nanos(7 * 24 * HOUR.as_nanos());
/// Longest delay anywhere in a configuration (client-go itself allows more;
/// past ten years a value is a typo, not a setting).
pub(crate) const MAX_DELAY: Duration = Duration::from_nanos(10 * 365 * 24 * HOUR.as_nanos());
pub(crate) const MAX_WORKERS: u32 = 1_000;
pub(crate) const MAX_BURST: i64 = 1_000_000;
pub(crate) const MAX_QPS: f64 = 1e9;
/// Slowest refill a bucket may have (besides 0, "never"): one token in
/// about 17 minutes. Slower is a typo, and would print as years of waiting.
pub(crate) const MIN_QPS: f64 = 0.001;
pub(crate) const MAX_EVENTS_PER_SOURCE: u64 = 1_000_000;
pub const MIN_EVENTS_PER_SECOND: f64 = 0.001;
pub const MAX_EVENTS_PER_SECOND: f64 = 1e6;
pub(crate) const MAX_SCRIPT_FAILURES: u64 = 1_000_000;
pub(crate) const MAX_SEQUENCE: usize = 1_000;
pub(crate) const MAX_LIMITERS: usize = 32;
pub const MAX_SOURCES: usize = 1_000;
pub(crate) const MIN_RESYNC: Duration = Duration::from_nanos(10 * MILLISECOND.as_nanos());
pub(crate) const MAX_KEY_LEN: usize = 253;
/// Controllers in one manager.
pub(crate) const MAX_CONTROLLERS: usize = 64;
/// API requests one reconcile makes.
pub const MAX_REQUESTS_PER_RECONCILE: u32 = 1_000;
/// Other kinds one controller's reconcile writes.
pub(crate) const MAX_WRITE_KINDS: usize = 32;
/// A Kubernetes kind's name is a DNS label: at most 63 characters.
pub(crate) const MAX_KIND_LEN: usize = 63;
/// Largest burst or refill of Crossplane core's circuit breaker.
pub(crate) const MAX_BREAKER_AMOUNT: f64 = 1e9;
