//! The discrete-event driver: a controller (workers, reconcile durations,
//! outcome scripts, controller-runtime's result handling, optional Crossplane
//! middleware) over a [`Workqueue`], fed by event sources.
//!
//! Time only moves through [`Controller::step`] (to the next event) and
//! [`Controller::run_until`]; both jump from event to event. Events due at the
//! same instant are handled in a fixed order: the waiting heap's releases,
//! then finished reconciles by worker number, then scheduled adds and sources
//! in order, then idle workers (by number) take items. So a run depends only
//! on the scenario, its seed and the inputs, never on how time was sliced.
//!
//! A [`Controller`] holds the ids of the token buckets it uses; the calls
//! that move it are handed the run's [`BucketStore`], owned by its
//! [`crate::Manager`] or, when it runs alone, by its [`Simulation`].

use crate::spans::Delay;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

use crate::buckets::{BucketId, BucketStore};
use crate::circuit::{CircuitBreaker, Transition, Watch};
use crate::controller::{
    decide, ControllerMetrics, Gate, Middleware, Outcome, Requeue, ResultLabel, Script,
};
use crate::item::{ItemId, ItemMap};
use crate::limiter::LimiterConfig;
use crate::limits::MAX_ITEMS;
use crate::priority::LOW_PRIORITY;
use crate::queue::{ControllerQueue, Handed, QueueKind};
use crate::queue_calls::Placed;
use crate::queue_calls::{AddEffect, AfterEffect, QueueEvent};
use crate::rng::Rng;
use crate::scenario::{ControllerSpec, Scenario, ScenarioError, Source};
use crate::shared::Shared;
use crate::time::go::format_go_duration;
use crate::time::{after, Duration, Instant, NANOSECOND, SECOND};
use crate::validate;

pub(crate) mod alone;
mod clock;
mod inputs;
mod read;
mod reconcile;
mod timers;

use timers::Timers;

/// Passes over one instant in which no key moved on (left the queue, or
/// left this instant for a later one) before the run is declared stuck: a
/// zero-delay retry loop with instant reconciles never lets time move. A
/// crowd is not a loop: a million keys that each succeed once move on at
/// every pass. The limit grows with the keys (see [`StallGuard`]), so a
/// crowd retried a few times at zero delay is not mistaken for one either.
pub(crate) const MAX_PASSES_WITHOUT_PROGRESS: u64 = 1_000_000;
/// Work units (keys added, items handed out, instants) one input may spend
/// at once; what is left is carried out by the next `run_until_bounded`.
pub(crate) const APPLY_BUDGET: u64 = 200_000;
use crate::events::{Input, LogEntry, SimError, SimEvent, WorkerState};
use crate::records::{Details, ItemInfo, KeyDetail, Retry};
use crate::series::{Sample, Series, MAX_SAMPLES};

#[derive(Clone, Debug)]
struct SourceState {
    source: Source,
    /// A watch source's key, interned when it first fires.
    key_id: Option<ItemId>,
    next: Option<Instant>,
    interval: Duration,
    end: Instant,
    /// Keys already handled by an add-many or resync that ran out of budget
    /// mid-way (it resumes there, at the same instant).
    cursor: u64,
}

/// Tells a zero-delay loop from a crowd: passes over one instant are
/// counted only while no key moves on.
#[derive(Clone, Copy, Debug, Default)]
struct StallGuard {
    at: Instant,
    /// Passes at `at` since a key last moved on.
    idle_passes: u64,
    /// Keys that moved on, ever; compared with the count at the last pass.
    moved_on: u64,
    seen: u64,
}

impl StallGuard {
    /// Counts a pass at `t`; whether the run is stuck there (`keys` known).
    fn pass(&mut self, t: Instant, keys: u64) -> bool {
        if t != self.at || self.moved_on != self.seen {
            self.at = t;
            self.seen = self.moved_on;
            self.idle_passes = 0;
        }
        self.idle_passes += 1;
        self.idle_passes > MAX_PASSES_WITHOUT_PROGRESS.max(keys.saturating_mul(3))
    }
}

/// Where an instant that ran out of budget resumes. Resuming finishes the
/// same work in the same order, so a run never depends on how it was sliced.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Resume {
    /// Releases from the waiting heap and scheduled adds.
    Settle,
    Sources,
    Dispatch,
}

/// One controller of a run: its queue, workers, sources and what it has
/// counted. Its token buckets are in the run's store (see the module's
/// doc).
#[derive(Clone, Debug)]
pub struct Controller {
    /// This controller's part of the scenario.
    spec: ControllerSpec,
    /// How long the scenario's run lasts.
    duration_ns: Duration,
    queue: ControllerQueue,
    /// The workers and what each holds.
    pool: Pool,
    items: ItemMap<ItemInfo>,
    /// How long each key's latest reconcile waited for the API client, and
    /// the draw (in `client`) it waited longest on.
    last_client_wait: ItemMap<(Duration, usize)>,
    details: Details,
    scripts: ItemMap<Option<Script>>,
    reconcile_ns: ItemMap<Option<Duration>>,
    rng: Rng,
    now: Instant,
    /// Every source ever started, in the order it started (a slot is never
    /// reused; a finished source keeps its slot with `next: None`).
    sources: Vec<SourceState>,
    /// Every instant the run has promised itself: reconcile ends, the
    /// sources' next firings, the scenario's adds (see [`Timers`]).
    timers: Timers,
    /// Sources still scheduled (the cap on sources counts these).
    live_sources: usize,
    /// The slots due at the instant in progress (reused buffer).
    due_sources: Vec<u32>,
    middleware: Option<Middleware>,
    /// Crossplane core's XR circuit breaker: one per XR controller, a state
    /// per XR, fed by the watch events that would enqueue it.
    breaker: Option<CircuitBreaker<ItemId, ()>>,
    metrics: ControllerMetrics,
    log: VecDeque<LogEntry>,
    log_capacity: usize,
    log_total: u64,
    series: Series,
    /// API requests by the sample they are sent in, and kind.
    sent: crate::series::Sent,
    /// The API client's buckets this controller's reconcile draws from, its
    /// own kind's first (empty: no client limit); shared with every
    /// controller whose requests go through the same REST client.
    client: Vec<ClientDraw>,
    /// What one reconcile sends, by kind (counted with or without a limit).
    requests_by_kind: Vec<(String, u32)>,
    /// Their sum: the requests one reconcile sends.
    requests_per_call: u32,
    /// What a failing reconcile still sends, by kind (as `requests_by_kind`).
    failure_by_kind: Vec<(String, u32)>,
    /// What the run has counted so far (the summary reads them).
    totals: Totals,
    /// Most keys this run may hold (the page sets a lower limit than the core's).
    key_limit: u64,
    /// The latest watch events and what the queue did with each (for the
    /// stage's particles); a small fixed ring.
    arrivals: VecDeque<crate::events::Arrival>,
    /// The queue's event buffer, swapped out and back so it is allocated once.
    event_buf: Vec<(Instant, QueueEvent)>,
    inputs: Vec<(Instant, Input)>,
    stalled: Option<String>,
    stall_guard: StallGuard,
    /// Work units left in the current call (see [`Controller::run_until_bounded`]).
    work_left: u64,
    resume: Option<Resume>,
}

/// A scrape of every metric at one instant, under its Prometheus name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsSnapshot {
    pub at: Instant,
    pub workqueue_depth: i64,
    /// The priority queue's depth per priority (empty on a client-go queue).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workqueue_depth_by_priority: Vec<(i64, i64)>,
    pub workqueue_adds_total: u64,
    pub workqueue_retries_total: u64,
    pub workqueue_queue_duration_seconds_count: u64,
    pub workqueue_queue_duration_seconds_sum: f64,
    pub workqueue_work_duration_seconds_count: u64,
    pub workqueue_work_duration_seconds_sum: f64,
    pub workqueue_unfinished_work_seconds: f64,
    pub workqueue_longest_running_processor_seconds: f64,
    pub controller: ControllerMetrics,
    pub requeues_total: u64,
    pub len: usize,
    pub waiting: usize,
}

/// The workers: which are idle, what each holds.
#[derive(Clone, Debug)]
struct Pool {
    states: Vec<WorkerState>,
    /// Idle workers, lowest first: a hand-out finds one without a scan.
    idle: BinaryHeap<Reverse<u32>>,
    /// Workers not idle.
    active: u32,
    /// The priority each worker's key was handed out with: its requeue
    /// reuses it. (A key not in flight: see [`ControllerQueue::last_priority`].)
    priority: Vec<i64>,
    /// Each worker's outcome, decided when its reconcile started (only
    /// where errors write nothing: whether it sends its requests depends
    /// on it).
    decided: Vec<Option<Outcome>>,
}

impl Pool {
    fn new(workers: u32) -> Pool {
        Pool {
            states: vec![WorkerState::Idle; workers as usize],
            idle: (0..workers).map(Reverse).collect(),
            active: 0,
            priority: vec![0; workers as usize],
            decided: vec![None; workers as usize],
        }
    }
}

/// What a run counts as it goes.
#[derive(Clone, Debug, Default)]
struct Totals {
    requeues: u64,
    watch_events: u64,
    /// Reconciles that sent their requests.
    api_calls: u64,
    /// Reconciles that failed and sent only their `failure_writes`.
    failed_api_calls: u64,
    /// Time reconciles waited for the API client.
    client_waited: Duration,
    /// When a reconcile last succeeded (how long the keys took to converge).
    last_success_at: Option<Instant>,
    /// Time keys spent in the waiting heap, by what set the wait: the
    /// limiter's own backoff, a token bucket, a `RequeueAfter`.
    heap_waited: [Duration; 3],
    /// The most keys the queue held at once.
    deepest_queue: usize,
    /// Calls of the user's Reconcile so far.
    inner_reconciles: u64,
}

/// One API client bucket a reconcile draws from.
#[derive(Clone, Debug)]
struct ClientDraw {
    /// The bucket, in the run's store.
    bucket: BucketId,
    /// The kinds whose requests share the bucket.
    kinds: Vec<String>,
    /// Requests each reconcile sends through it.
    requests: u32,
    /// Those a failing reconcile still sends through it.
    failure_requests: u32,
}

impl Controller {
    /// Controller `i` of a validated scenario, at `T0 = 0`, holding the
    /// run's `shared` buckets; its own buckets are put in `buckets`.
    pub(crate) fn new(
        scenario: &Scenario,
        i: usize,
        shared: &Shared,
        buckets: &mut BucketStore,
    ) -> Controller {
        let requests_by_kind = scenario.requests_by_kind(i);
        let failure_by_kind = scenario.failure_requests_by_kind(i);
        let spec = &scenario.controllers[i];
        let (config, limiter) = shared.queue_limiter(scenario, spec, buckets);
        let queue = ControllerQueue::new(
            scenario.queue_kind(spec),
            &config,
            limiter,
            256,
            Instant::T0,
        );
        let workers = match &scenario.crossplane {
            Some(cp) => cp.derived().workers,
            None => spec.controller.workers.get(),
        };
        let mut sim = Controller {
            spec: spec.clone(),
            duration_ns: scenario.duration_ns.get(),
            queue,
            pool: Pool::new(workers),
            items: ItemMap::new(ItemInfo::default()),
            last_client_wait: ItemMap::new((Duration::ZERO, 0)),
            details: Details::default(),
            scripts: ItemMap::new(None),
            reconcile_ns: ItemMap::new(None),
            rng: Rng::new(scenario.controller_seed(i)),
            now: Instant::T0,
            sources: Vec::new(),
            timers: Timers::default(),
            live_sources: 0,
            due_sources: Vec::new(),
            middleware: shared.global.map(Middleware::new),
            breaker: scenario
                .crossplane
                .as_ref()
                .filter(|cp| cp.derived().breaker)
                .map(|cp| CircuitBreaker::new(cp.breaker_flags().config())),
            metrics: ControllerMetrics {
                max_concurrent_reconciles: workers,
                ..Default::default()
            },
            log: VecDeque::new(),
            log_capacity: 20_000,
            log_total: 0,
            series: Series::new(scenario.sample_ns.get()),
            sent: Default::default(),
            client: {
                let plan = &shared.plan;
                let draws = plan.draws.get(i).into_iter().flatten();
                draws
                    .map(|d| {
                        let kinds = plan.kinds.get(d.bucket).cloned().unwrap_or_default();
                        let failure_requests = failure_by_kind
                            .iter()
                            .filter(|(k, _)| kinds.contains(k))
                            .fold(0u32, |n, (_, r)| n.saturating_add(*r));
                        ClientDraw {
                            bucket: shared.client[d.bucket],
                            kinds,
                            requests: d.requests,
                            failure_requests,
                        }
                    })
                    .collect()
            },
            requests_per_call: requests_by_kind
                .iter()
                .fold(0, |n, (_, r)| n.saturating_add(*r)),
            requests_by_kind,
            failure_by_kind,
            totals: Totals::default(),
            key_limit: MAX_ITEMS,
            arrivals: VecDeque::with_capacity(crate::events::ARRIVALS_KEPT),
            event_buf: Vec::new(),
            inputs: Vec::new(),
            stalled: None,
            stall_guard: StallGuard::default(),
            work_left: 0,
            resume: None,
        };
        let mut adds = Vec::new();
        for item in &spec.items {
            let id = sim.queue.key(&item.key);
            sim.scripts.set(id, item.script.clone());
            sim.reconcile_ns.set(id, item.reconcile_ns.map(Delay::get));
            if let Some(at) = item.add_at_ns {
                adds.push((at.get(), id));
            }
        }
        sim.timers = Timers::with_adds(adds);
        for s in &spec.sources {
            sim.add_source(s.clone(), Instant::T0);
        }
        sim
    }
}

/// controller-runtime's handlers enqueue creates from the informer's initial
/// list with `LowPriority`: here, keys that exist when the run starts (t=0).
fn initial_list_priority(now: Instant) -> Option<i64> {
    (now == Instant::T0).then_some(LOW_PRIORITY)
}
