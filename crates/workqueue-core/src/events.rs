//! What happens in a run, as values: workers' states, the event log's
//! entries, a person's inputs and the errors a running simulation gives.

use crate::spans::{Period, ResyncPeriod};
use serde::{Deserialize, Serialize};

use crate::circuit::Transition;
use crate::controller::{Decision, Gate, Outcome, Script};
use crate::item::ItemId;
use crate::queue_calls::{AddEffect, QueueEvent};
use crate::ranges::{EventRate, KeyCount};
use crate::scenario::ScenarioError;
use crate::tagged::internally_tagged;
use crate::time::{Duration, Instant};

/// Watch events remembered for the stage's particles.
pub(crate) const ARRIVALS_KEPT: usize = 16;

/// One watch event and what the queue did with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    /// The event's number in the run (1 for the first): a stable identity.
    pub seq: u64,
    pub at: Instant,
    pub item: ItemId,
    pub effect: AddEffect,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum WorkerState {
    Idle,
    /// Running `Reconcile(item)` until `until`.
    Reconciling {
        item: ItemId,
        started: Instant,
        until: Instant,
        /// `until` is the `ReconciliationTimeout` firing, not the end of the work.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        times_out: bool,
    },
    /// Reconcile finished; waiting for the caller to choose its outcome.
    AwaitingDecision {
        item: ItemId,
        started: Instant,
    },
}

impl WorkerState {
    /// The key in this worker's hands, if any.
    pub fn item(&self) -> Option<ItemId> {
        match *self {
            WorkerState::Idle => None,
            WorkerState::Reconciling { item, .. } | WorkerState::AwaitingDecision { item, .. } => {
                Some(item)
            }
        }
    }
}

/// An entry of the event log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntry {
    /// Position in the whole run (the log itself keeps only the latest entries).
    pub seq: u64,
    pub at: Instant,
    pub event: SimEvent,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SimEvent {
    Queue(QueueEvent),
    ReconcileStart {
        worker: u32,
        item: ItemId,
    },
    ReconcileEnd {
        worker: u32,
        item: ItemId,
        outcome: Outcome,
        decision: Decision,
    },
    AwaitingDecision {
        worker: u32,
        item: ItemId,
    },
    /// Crossplane's middleware let the request through or deferred it.
    Gate {
        worker: u32,
        item: ItemId,
        gate: Gate,
    },
    GaveUp {
        item: ItemId,
        requeues: u64,
    },
    /// Crossplane core's circuit breaker for the XR `item` opened or closed
    /// on a watch event.
    Circuit {
        item: ItemId,
        transition: Transition,
    },
    /// The `ReconciliationTimeout` fired: the reconcile returns its
    /// context's error (the `ReconcileEnd` that follows).
    TimedOut {
        worker: u32,
        item: ItemId,
        after: Duration,
    },
    Stalled {
        reason: String,
    },
    /// The reconcile's API requests waited for the client's rate limiter.
    ClientThrottled {
        worker: u32,
        item: ItemId,
        requests: u32,
        waited: Duration,
    },
}

/// Something a person (or a lesson) does to a running simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(tag = "input")]
pub enum Input {
    Add {
        /// The key, as `namespace/name`.
        key: String,
    },
    AddMany {
        /// Keys are this prefix and 0, 1, 2 ….
        prefix: String,
        /// How many keys.
        count: KeyCount,
    },
    WatchEvents {
        /// The key, as `namespace/name`.
        key: String,
        /// Events per second.
        per_second: EventRate,
        /// How long events keep coming.
        duration_ns: Period,
    },
    /// Starts (or with `null`, stops) the periodic resync.
    Resync {
        /// How often every key is added again (`null`: stop).
        // Required: `null` stops it, a missing field is a mistake.
        #[serde(deserialize_with = "Option::deserialize")]
        period_ns: Option<ResyncPeriod>,
    },
    Decide {
        /// The key, as `namespace/name`.
        key: String,
        /// What the waiting reconcile returns.
        outcome: Outcome,
    },
    SetScript {
        /// The key, as `namespace/name`.
        key: String,
        /// The script from now on.
        script: Script,
    },
    /// From now on, what each reconcile returns for every key without a
    /// script of its own (a settings change applied to a running scene).
    DefaultScript {
        /// The script from now on.
        script: Script,
    },
    Shutdown,
}

internally_tagged!(Input, "input");

/// Misuse of a running simulation: the message is meant for the user.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("{key} is not waiting for a decision")]
    NotAwaiting { key: String },
    #[error("{0}")]
    Invalid(ScenarioError),
    #[error("the simulation is stuck: {0}")]
    Stalled(String),
    /// controller-runtime's priority queue panics on a second `ShutDown`.
    #[error("the priority queue is already shut down: a second ShutDown panics ({0})")]
    AlreadyShutDown(String),
}

impl SimEvent {
    /// The key this event is about, if any.
    pub fn item(&self) -> Option<ItemId> {
        match self {
            SimEvent::Queue(q) => q.item(),
            SimEvent::ReconcileStart { item, .. }
            | SimEvent::ReconcileEnd { item, .. }
            | SimEvent::AwaitingDecision { item, .. }
            | SimEvent::Gate { item, .. }
            | SimEvent::GaveUp { item, .. }
            | SimEvent::Circuit { item, .. }
            | SimEvent::TimedOut { item, .. }
            | SimEvent::ClientThrottled { item, .. } => Some(*item),
            SimEvent::Stalled { .. } => None,
        }
    }
}
