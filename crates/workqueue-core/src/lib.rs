//! # workqueue-core
//!
//! A faithful, deterministic, sans-IO port of the machinery between a
//! Kubernetes watch event and a successful reconcile:
//!
//! * client-go's `util/workqueue`: the queue with its dirty and processing
//!   sets ([`Workqueue`]), the delaying queue's waiting heap, the
//!   rate-limiting queue, the five rate limiters ([`LimiterConfig`]) and the
//!   queue metrics ([`QueueMetrics`]);
//! * `golang.org/x/time/rate`'s token bucket ([`TokenBucket`]), with its exact
//!   float64 arithmetic;
//! * controller-runtime's handling of reconcile results and its workers
//!   ([`Outcome`], [`Script`]); Crossplane's two-layer rate
//!   limiting ([`CrossplaneConfig`]), and the XR circuit breaker that
//!   Crossplane core runs since v2.1 ([`CircuitBreaker`]);
//! * a discrete-event [`Simulation`] that drives all of it from a
//!   [`Scenario`], with event sources, an event log and time series; a
//!   [`Manager`] runs several [`Controller`]s, and every token bucket of a
//!   run lives once in its [`BucketStore`] (a shared bucket is one bucket
//!   that several controllers hold by [`BucketId`], as in Go one
//!   `*rate.Limiter` is passed to several).
//!
//! Time is integer nanoseconds: the current [`Instant`] is passed into every
//! call, and spans are [`Duration`]s; nothing
//! here reads a clock or spawns a timer, and the only randomness comes from a
//! seeded generator in the scenario. The same scenario and seed give the same
//! run on every platform, natively and in wasm.
//!
//! ```
//! use workqueue_core::{Got, Instant, LimiterConfig, QueueOptions, Workqueue, MILLISECOND};
//!
//! let mut q = Workqueue::new(&LimiterConfig::DefaultController, QueueOptions::default());
//! let pod = q.key("default/pod-1");
//! let t0 = Instant::T0;
//! q.add_rate_limited(t0, pod); // first failure: 5ms
//! assert_eq!(q.get(t0 + 4 * MILLISECOND), Got::Empty);
//! assert_eq!(q.get(t0 + 5 * MILLISECOND), Got::Item(pod));
//! ```

// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

mod buckets;
mod circuit;
mod controller;
pub mod document;
mod estimate;
mod events;
mod held_back;
mod item;
mod limiter;
pub mod limits;
mod log_text;
mod manager;
mod metrics;
mod priority;
mod queue;
mod queue_calls;
mod ranges;
mod rate;
mod records;
mod rng;
mod run_file;
mod scenario;
mod series;
mod shared;
mod shown;
mod sim;
mod spans;
mod summary;
mod tagged;
mod time;
mod timer;
pub mod validate;
mod view;
mod waiting;
mod workqueue;

// The core's API, each item once, here.
pub use buckets::{BucketId, BucketStore};
pub use circuit::{
    Admission, BreakerConfig, BreakerMetrics, CircuitBreaker, CircuitState, Transition,
    UpdateAdmission, Verdict, Watch,
};
pub use controller::{
    BreakerFlags, CrossplaneConfig, CrossplaneProfile, ErrorKind, Gate, Outcome, ReconcileResult,
    ResultLabel, Script,
};
pub use events::{Input, SimError, SimEvent, WorkerState};
pub use held_back::{HeldBack, RequestSeries};
pub use item::{Interner, ItemId};
pub use limiter::{Answer, AnswerKind, Limiter, LimiterConfig};
pub use manager::Manager;
pub use metrics::{Histogram, QueueMetrics};
pub use priority::{PriorityQueue, LOW_PRIORITY};
pub use queue::{ControllerQueue, QueueKind};
pub use queue_calls::{AddEffect, AddOpts, AddWithOptsCall, AfterEffect, PqGot, QueueEvent};
pub use ranges::{
    brief, BreakerAmount, Burst, ClientQps, EventRate, Failures, KeyCount, OutOfRange, Probability,
    Qps, ReconcileRate, Requests, Workers,
};
pub use rate::TokenBucket;
pub use records::DETAILED_KEYS;
pub use rng::Rng;
pub use run_file::{run_schema, scenario_schema, Run};
pub use scenario::{
    BucketSpec, ClientLimit, ClientRate, ClientScope, ControllerConfig, ControllerSpec, ItemSpec,
    Scenario, ScenarioError, Source, SCENARIO_VERSION,
};
pub use series::Sample;
pub use shared::{ClientPlan, Draw};
pub use shown::shown;
pub use sim::alone::Simulation;
pub use sim::{Controller, MetricsSnapshot};
pub use spans::{At, Delay, Period, ResyncPeriod, RunLength, SampleWidth, SignedDelay, Span};
pub use summary::{KindRequests, Spread, Summary, TimeSpent};
pub use time::go::{format_go_duration, parse_go_duration, DurationError};
pub use time::*;
pub use timer::{Deadline, Timer};
pub use view::{
    ArrivalView, BreakerTargetView, BreakerView, BucketOwner, BucketView, Holder, KeyReport,
    KeyView, Landing, LaneView, Place, SourceView, StageView, WaitingView, WorkerView,
};
pub use workqueue::{Got, QueueOptions, Workqueue};
