//! What evaluating a set-up's Go gives: plain values, the rate limiters of
//! client-go and crossplane-runtime, controller options, or the reason a
//! value is unknown.

use workqueue_core::{Duration, LimiterConfig};

/// A value the set-up computes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Num(f64),
    Dur(Duration),
    Str(String),
    Bool(bool),
    Unknown(String),
}

/// Controller options as written (`controller.Options`, the manager's
/// `config.Controller`, crossplane-runtime's `controller.Options`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Options {
    pub workers: Option<u32>,
    pub limiter: Option<LimiterConfig>,
    /// Which limiter instance it is (one passed to two controllers is one
    /// Go object, its bucket and its per-item failures shared).
    pub limiter_id: Option<usize>,
    pub priority_queue: Option<bool>,
    pub timeout: Option<Duration>,
    /// Crossplane's `--max-reconcile-rate`, from its global bucket.
    pub crossplane: Option<u32>,
    /// Fields written but not read, with why (`MaxConcurrentReconciles: r.Workers …`).
    pub unread: Vec<String>,
    /// Fields read and not modelled (crossplane-runtime's `PollInterval`).
    pub ignored: Vec<String>,
}
