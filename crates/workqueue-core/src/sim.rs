//! The discrete-event driver: a controller (workers, reconcile durations,
//! outcome scripts, controller-runtime's result handling, optional Crossplane
//! middleware) over a [`Workqueue`], fed by event sources.
//!
//! Time only moves through [`Simulation::step`] (to the next event) and
//! [`Simulation::run_until`]; both jump from event to event. Events due at the
//! same instant are handled in a fixed order: the waiting heap's releases,
//! then finished reconciles by worker number, then scheduled adds and sources
//! in order, then idle workers (by number) take items. So a run depends only
//! on the scenario, its seed and the inputs, never on how time was sliced.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

use crate::controller::{
    decide, ControllerMetrics, Gate, Middleware, Outcome, Requeue, ResultLabel, Script,
};
use crate::item::{ItemId, ItemMap};
use crate::limiter::LimiterConfig;
use crate::priority::{Placed, LOW_PRIORITY};
use crate::queue::{ControllerQueue, Handed, QueueKind};
use crate::rate::TokenBucket;
use crate::rng::Rng;
use crate::scenario::{ControllerSpec, Scenario, ScenarioError, Source, MAX_ITEMS};
use crate::time::{after, format_go_duration, Nanos, SECOND};
use crate::validate;
use crate::workqueue::{AddEffect, AfterEffect, QueueEvent};

/// Passes over one instant in which no key moved on (left the queue, or
/// left this instant for a later one) before the run is declared stuck: a
/// zero-delay retry loop with instant reconciles never lets time move. A
/// crowd is not a loop: a million keys that each succeed once move on at
/// every pass. The limit grows with the keys (see [`StallGuard`]), so a
/// crowd retried a few times at zero delay is not mistaken for one either.
pub const MAX_PASSES_WITHOUT_PROGRESS: u64 = 1_000_000;
/// Work units (keys added, items handed out, instants) one input may spend
/// at once; what is left is carried out by the next `run_until_bounded`.
pub const APPLY_BUDGET: u64 = 200_000;
pub use crate::events::{Input, LogEntry, SimError, SimEvent, WorkerState};
pub use crate::records::{
    Details, ItemInfo, KeyDetail, Retry, RetryHistory, DETAILED_KEYS, HISTORY_PER_ITEM,
};
pub use crate::series::{Sample, Series, MAX_SAMPLES};

#[derive(Clone, Debug)]
struct SourceState {
    source: Source,
    /// A watch source's key, interned when it first fires.
    key_id: Option<ItemId>,
    next: Option<Nanos>,
    interval: Nanos,
    end: Nanos,
    /// Keys already handled by an add-many or resync that ran out of budget
    /// mid-way (it resumes there, at the same instant).
    cursor: u64,
}

/// Tells a zero-delay loop from a crowd: passes over one instant are
/// counted only while no key moves on.
#[derive(Clone, Copy, Debug, Default)]
struct StallGuard {
    at: Nanos,
    /// Passes at `at` since a key last moved on.
    idle_passes: u64,
    /// Keys that moved on, ever; compared with the count at the last pass.
    moved_on: u64,
    seen: u64,
}

impl StallGuard {
    /// Counts a pass at `t`; whether the run is stuck there (`keys` known).
    fn pass(&mut self, t: Nanos, keys: u64) -> bool {
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

#[derive(Clone, Debug)]
pub struct Simulation {
    /// This controller's part of the scenario.
    spec: ControllerSpec,
    /// How long the scenario's run lasts.
    duration_ns: Nanos,
    queue: ControllerQueue,
    /// When each busy worker's reconcile ends, soonest first: the next
    /// reconcile end without a scan of the workers.
    ends: BinaryHeap<Reverse<(Nanos, u32)>>,
    /// Idle workers, lowest first: a hand-out finds one without a scan.
    idle: BinaryHeap<Reverse<u32>>,
    workers: Vec<WorkerState>,
    /// The priority each worker's key was handed out with: its requeue
    /// reuses it. (A key not in flight: see [`ControllerQueue::last_priority`].)
    worker_priority: Vec<i64>,
    /// Each worker's outcome, decided when its reconcile started (only
    /// where errors write nothing: whether it sends its requests depends
    /// on it).
    decided: Vec<Option<Outcome>>,
    active: u32,
    items: ItemMap<ItemInfo>,
    /// How long each key's latest reconcile waited for the API client, and
    /// the draw (in `client`) it waited longest on.
    last_client_wait: ItemMap<(Nanos, usize)>,
    details: Details,
    scripts: ItemMap<Option<Script>>,
    reconcile_ns: ItemMap<Option<Nanos>>,
    rng: Rng,
    now: Nanos,
    initial_adds: Vec<(Nanos, ItemId)>,
    initial_cursor: usize,
    /// Every source ever started, in the order it started (a slot is never
    /// reused; a finished source keeps its slot with `next: None`).
    sources: Vec<SourceState>,
    /// The sources' timer table: `(next firing, slot)` for each scheduled
    /// source, soonest first. The next firing comes from here, not from a
    /// scan, so a thousand quiet sources cost nothing per instant.
    source_timers: BinaryHeap<Reverse<(Nanos, u32)>>,
    /// Sources still scheduled (the cap on sources counts these).
    live_sources: usize,
    /// The slots due at the instant in progress (reused buffer).
    due_sources: Vec<u32>,
    middleware: Option<Middleware>,
    metrics: ControllerMetrics,
    log: VecDeque<LogEntry>,
    log_capacity: usize,
    log_total: u64,
    series: Series,
    requeues_total: u64,
    watch_events_total: u64,
    /// The API client's buckets this controller's reconcile draws from, its
    /// own kind's first (empty: no client limit).
    client: Vec<ClientDraw>,
    /// What one reconcile sends, by kind (counted with or without a limit).
    requests_by_kind: Vec<(String, u32)>,
    /// Reconciles that sent their requests.
    api_calls: u64,
    client_waited: Nanos,
    /// When a reconcile last succeeded (how long the keys took to converge).
    last_success_at: Option<Nanos>,
    /// Time keys spent in the waiting heap, by what set the wait: the
    /// limiter's own backoff, a token bucket, a `RequeueAfter`.
    heap_waited: [Nanos; 3],
    /// The most keys the queue held at once.
    deepest_queue: usize,
    /// Calls of the user's Reconcile so far.
    inner_reconciles: u64,
    /// Most keys this run may hold (the page sets a lower limit than the core's).
    key_limit: u64,
    /// The latest watch events and what the queue did with each (for the
    /// stage's particles); a small fixed ring.
    arrivals: VecDeque<crate::events::Arrival>,
    /// The queue's event buffer, swapped out and back so it is allocated once.
    event_buf: Vec<(Nanos, QueueEvent)>,
    inputs: Vec<(Nanos, Input)>,
    stalled: Option<String>,
    stall_guard: StallGuard,
    /// Work units left in the current call (see [`Simulation::run_until_bounded`]).
    work_left: u64,
    resume: Option<Resume>,
}

/// A scrape of every metric at one instant, under its Prometheus name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsSnapshot {
    pub at: Nanos,
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

/// One API client bucket a reconcile draws from.
#[derive(Clone, Debug)]
struct ClientDraw {
    /// The manager's index of the bucket (the one it lends).
    bucket: usize,
    /// The kinds whose requests share the bucket.
    kinds: Vec<String>,
    /// Requests each reconcile sends through it.
    requests: u32,
    limiter: TokenBucket,
}

impl Simulation {
    /// Validates a scenario of one controller and builds its run at `T0 = 0`
    /// (a scenario of several runs as a [`crate::Manager`]).
    pub fn new(scenario: &Scenario) -> Result<Simulation, ScenarioError> {
        scenario.validate()?;
        if scenario.controllers.len() > 1 {
            return Err(ScenarioError {
                field: "controllers".into(),
                reason: format!(
                    "{} controllers share this manager: run it as a Manager (wqsim does)",
                    scenario.controllers.len()
                ),
            });
        }
        Ok(Simulation::controller(scenario, 0))
    }

    /// Controller `i` of a validated scenario, at `T0 = 0`, with its own
    /// copies of what the manager shares (the manager lends it the real ones).
    pub(crate) fn controller(scenario: &Scenario, i: usize) -> Simulation {
        let spec = &scenario.controllers[i];
        let limiter = scenario.queue_limiter(spec);
        let queue = ControllerQueue::new(spec.queue, &limiter, 256, 0);
        let workers = match &scenario.crossplane {
            Some(cp) => cp.derived().workers,
            None => spec.controller.workers,
        };
        let mut sim = Simulation {
            spec: spec.clone(),
            duration_ns: scenario.duration_ns,
            queue,
            workers: vec![WorkerState::Idle; workers as usize],
            worker_priority: vec![0; workers as usize],
            decided: vec![None; workers as usize],
            ends: BinaryHeap::new(),
            idle: (0..workers).map(Reverse).collect(),
            active: 0,
            items: ItemMap::new(ItemInfo::default()),
            last_client_wait: ItemMap::new((0, 0)),
            details: Details::default(),
            scripts: ItemMap::new(None),
            reconcile_ns: ItemMap::new(None),
            rng: Rng::new(scenario.controller_seed(i)),
            now: 0,
            initial_adds: Vec::new(),
            initial_cursor: 0,
            sources: Vec::new(),
            source_timers: BinaryHeap::new(),
            live_sources: 0,
            due_sources: Vec::new(),
            middleware: scenario.crossplane.as_ref().map(Middleware::new),
            metrics: ControllerMetrics {
                max_concurrent_reconciles: workers,
                ..Default::default()
            },
            log: VecDeque::new(),
            log_capacity: 20_000,
            log_total: 0,
            series: Series::new(scenario.sample_ns),
            requeues_total: 0,
            watch_events_total: 0,
            client: {
                let plan = scenario.client_plan();
                let limit = scenario.client_limit();
                plan.draws
                    .get(i)
                    .into_iter()
                    .flatten()
                    .filter_map(|d| {
                        let limit = limit?;
                        Some(ClientDraw {
                            bucket: d.bucket,
                            kinds: plan.kinds.get(d.bucket).cloned().unwrap_or_default(),
                            requests: d.requests,
                            limiter: TokenBucket::new(limit.qps, limit.burst),
                        })
                    })
                    .collect()
            },
            requests_by_kind: scenario.requests_by_kind(i),
            api_calls: 0,
            client_waited: 0,
            last_success_at: None,
            heap_waited: [0; 3],
            deepest_queue: 0,
            inner_reconciles: 0,
            key_limit: MAX_ITEMS,
            arrivals: VecDeque::with_capacity(crate::events::ARRIVALS_KEPT),
            event_buf: Vec::new(),
            inputs: Vec::new(),
            stalled: None,
            stall_guard: StallGuard::default(),
            work_left: 0,
            resume: None,
        };
        for item in &spec.items {
            let id = sim.queue.key(&item.key);
            sim.scripts.set(id, item.script.clone());
            sim.reconcile_ns.set(id, item.reconcile_ns);
            if let Some(at) = item.add_at_ns {
                sim.initial_adds.push((at, id));
            }
        }
        sim.initial_adds.sort_by_key(|(at, _)| *at); // stable: file order within an instant
        for s in &spec.sources {
            sim.add_source(s.clone(), 0);
        }
        sim
    }

    fn add_source(&mut self, source: Source, now: Nanos) {
        let (next, interval, end) = match &source {
            Source::WatchEvents {
                per_second,
                start_ns,
                duration_ns,
                ..
            } => {
                // `as` saturates: a validated rate gives at most 1000s.
                let interval = ((SECOND as f64 / per_second).round() as Nanos).max(1);
                let start = after(now, *start_ns);
                (Some(start), interval, after(start, *duration_ns))
            }
            Source::AddMany { at_ns, .. } => (Some(after(now, *at_ns)), 0, Nanos::MAX),
            Source::Resync { period_ns } => (
                Some(after(now, *period_ns)),
                (*period_ns).max(1),
                Nanos::MAX,
            ),
        };
        let slot = self.sources.len() as u32;
        if let Some(at) = next {
            self.source_timers.push(Reverse((at, slot)));
            self.live_sources += 1;
        }
        self.sources.push(SourceState {
            source,
            key_id: None,
            next,
            interval,
            end,
            cursor: 0,
        });
    }

    // ----- driving -----

    /// The instant of the next event, if any.
    pub fn next_event_at(&self) -> Option<Nanos> {
        if self.stalled.is_some() {
            return None;
        }
        if self.resume.is_some() {
            return Some(self.now);
        }
        let sources = self.source_timers.peek().map(|Reverse((at, _))| *at);
        let next = match (self.next_non_source_at(), sources) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        next.map(|t| t.max(self.now))
    }

    /// The next release from the heap, reconcile end or scheduled add: every
    /// kind of event but the sources'.
    fn next_non_source_at(&self) -> Option<Nanos> {
        let reconciles = self.ends.peek().map(|Reverse((until, _))| *until);
        let scheduled = self
            .initial_adds
            .get(self.initial_cursor)
            .map(|(at, _)| *at);
        reconciles
            .into_iter()
            .chain(self.queue.next_ready_at())
            .chain(scheduled)
            .min()
    }

    /// Whether the next event comes from event sources alone (watch events,
    /// a resync, an add-many): nothing is released from the heap and no
    /// reconcile ends then. Pacing plays such stretches at the chosen speed.
    pub fn next_is_sources_only(&self) -> bool {
        match self.next_event_at() {
            Some(next) if self.resume.is_none() => self
                .next_non_source_at()
                .is_none_or(|t| t.max(self.now) > next),
            _ => false,
        }
    }

    /// Handles everything due at the next event's instant. Returns that
    /// instant, or `None` when nothing is scheduled (or the run is stuck).
    pub fn step(&mut self) -> Option<Nanos> {
        self.step_bounded(u64::MAX)
    }

    /// Like [`Simulation::step`], spending at most `budget` work units: a
    /// pass that runs out is finished by the next call, at the same instant.
    pub fn step_bounded(&mut self, budget: u64) -> Option<Nanos> {
        let t = self.next_event_at()?;
        self.work_left = budget;
        self.process_instant(t);
        Some(t)
    }

    /// Handles every event due up to and including `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: Nanos) {
        while !self.run_until_bounded(t, u64::MAX) && self.stalled.is_none() {}
    }

    /// Like [`Simulation::run_until`], but spends at most `budget` work units
    /// (an instant, a key added, an item handed to a worker: each one unit),
    /// so a caller with a frame to render is never stuck behind a storm. Every
    /// loop inside the call draws on the same budget. Returns whether `t` was
    /// reached; if not, a later call carries on exactly where this one stopped.
    pub fn run_until_bounded(&mut self, t: Nanos, budget: u64) -> bool {
        self.work_left = budget;
        loop {
            if self.stalled.is_some() {
                // A stuck run stays at the instant it got stuck at.
                return false;
            }
            match self.next_event_at() {
                Some(next) if next <= t => {
                    if self.work_left == 0 {
                        return false;
                    }
                    self.process_instant(next);
                }
                _ => {
                    if t > self.now {
                        self.set_time(t);
                    }
                    return true;
                }
            }
        }
    }

    /// Work units the last bounded call left unspent.
    pub fn budget_left(&self) -> u64 {
        self.work_left
    }

    /// Takes one work unit; false when the call's budget is spent.
    fn spend(&mut self) -> bool {
        if self.work_left == 0 {
            return false;
        }
        self.work_left -= 1;
        true
    }

    /// The event sources with the instant each fires next (`None`: done).
    pub fn sources(&self) -> impl Iterator<Item = (&Source, Option<Nanos>)> {
        self.sources
            .iter()
            .filter(|s| s.next.is_some())
            .map(|s| (&s.source, s.next))
    }

    /// Runs until the scenario's duration (or until nothing more can happen).
    pub fn run_to_end(&mut self) {
        self.run_until(self.duration_ns);
    }

    fn set_time(&mut self, t: Nanos) {
        // Close every sample that ended by `t` with the state as it stands (the
        // state is constant between events).
        loop {
            let end = after(self.series.closed_until, self.series.width);
            // `end == closed_until` only at the saturated end of time.
            if end > t || end == self.series.closed_until {
                break;
            }
            let tokens = self.bucket_tokens_at(end).unwrap_or(0.0) as f32;
            let (depth, waiting, processing) = (
                self.queue.len() as u32,
                self.queue.waiting_len() as u32,
                self.queue.processing_count() as u32,
            );
            let last = self.series.current(end - 1);
            last.depth = depth;
            last.waiting = waiting;
            last.processing = processing;
            last.tokens = tokens;
            self.series.closed_until = end;
            if self.series.samples.len() >= MAX_SAMPLES {
                self.series.compact();
            }
            self.series.samples.push(Sample {
                depth,
                waiting,
                processing,
                tokens,
                ..Default::default()
            });
        }
        self.now = t;
    }

    fn process_instant(&mut self, t: Nanos) {
        let resume = self.resume.take();
        // A fresh instant costs a unit; a resumed one was paid for, so all
        // of a small budget goes to the work left (it always moves on).
        if resume.is_none() {
            self.spend();
            if !self.begin_instant(t) {
                return;
            }
        }
        if matches!(resume, None | Some(Resume::Settle)) && !self.settle_instant(t) {
            self.resume = Some(Resume::Settle);
            return;
        }
        if resume != Some(Resume::Dispatch) && !self.fire_due_sources(t) {
            self.resume = Some(Resume::Sources);
            return;
        }
        if !self.dispatch() {
            self.resume = Some(Resume::Dispatch);
        }
    }

    /// The first part of an instant: the stall guard and the clock. False if
    /// the run is stuck.
    fn begin_instant(&mut self, t: Nanos) -> bool {
        let keys = self.queue.keys().len() as u64;
        if self.stall_guard.pass(t, keys) {
            let reason = format!(
                "{} passes at {} in which no key moved on: a zero-delay retry loop with instant reconciles",
                crate::time::format_count(self.stall_guard.idle_passes - 1),
                format_go_duration(t)
            );
            self.push_log(SimEvent::Stalled {
                reason: reason.clone(),
            });
            self.stalled = Some(reason);
            return false;
        }
        self.set_time(t);
        true
    }

    /// The waiting heap's releases, finished reconciles and scheduled adds,
    /// a unit per key released or added (a storm of a quarter of a million
    /// keys due at one instant is released over several frames, not in one).
    /// False if the budget ran out: the next call carries on, and since each
    /// part resumes from its own cursor (the heap, the reconcile ends, the
    /// list of adds), in the same order.
    fn settle_instant(&mut self, t: Nanos) -> bool {
        // One bounded call: it stops early only once nothing due is left
        // (a release never makes another key due).
        let max = usize::try_from(self.work_left).unwrap_or(usize::MAX);
        let released = self.queue.advance_bounded(t, max);
        self.work_left -= released as u64;
        self.collect_queue_events();
        if self.queue.next_ready_at().is_some_and(|at| at <= t) {
            return false;
        }
        // Reconciles that end now, in worker order: `t` is the next event,
        // so every due end is at `t` and the heap yields them by worker.
        while let Some(Reverse((until, w))) = self.ends.peek().copied() {
            if until > t {
                break;
            }
            self.ends.pop();
            self.finish(w as usize);
        }
        while let Some(&(at, id)) = self.initial_adds.get(self.initial_cursor) {
            if at > t {
                break;
            }
            if !self.spend() {
                return false;
            }
            self.initial_cursor += 1;
            self.queue.add(t, id, initial_list_priority(t));
            self.collect_queue_events();
        }
        true
    }

    /// Fires every source due by `t`, in the order they started. Only the
    /// due ones are visited (taken from the timer table); each event or key
    /// a source makes is one work unit. False if the budget ran out: the
    /// source in progress keeps its cursor, and it and those after it go
    /// back in the table.
    fn fire_due_sources(&mut self, t: Nanos) -> bool {
        let mut due = std::mem::take(&mut self.due_sources);
        due.clear();
        while let Some(&Reverse((at, slot))) = self.source_timers.peek() {
            if at > t {
                break;
            }
            self.source_timers.pop();
            // A stopped source's entry is stale: dropped here, not searched
            // for when it stops.
            if self.sources[slot as usize].next == Some(at) {
                due.push(slot);
            }
        }
        // The next event is `t` itself, so every due source is due at `t`:
        // the table hands them out by slot, the order they started in.
        debug_assert!(due.windows(2).all(|w| w[0] < w[1]));
        let mut complete = true;
        'due: for &slot in &due {
            let s = slot as usize;
            while self.sources[s].next.is_some_and(|n| n <= t) {
                if !self.fire_source(s) {
                    complete = false;
                    break 'due;
                }
            }
        }
        for &slot in &due {
            match self.sources[slot as usize].next {
                Some(at) => self.source_timers.push(Reverse((at, slot))),
                None => self.live_sources -= 1,
            }
        }
        self.due_sources = due;
        self.drop_stale_timers();
        complete
    }

    /// Stops every source that `stop` picks (a resync replaced or turned off).
    fn stop_sources(&mut self, stop: impl Fn(&Source) -> bool) {
        for state in &mut self.sources {
            if state.next.is_some() && stop(&state.source) {
                state.next = None;
                self.live_sources -= 1;
            }
        }
        self.drop_stale_timers();
    }

    /// Drops stopped sources' entries from the top of the timer table, so
    /// the next firing it shows is a real one (deeper stale entries are
    /// dropped when they surface: after each pop).
    fn drop_stale_timers(&mut self) {
        while let Some(&Reverse((at, slot))) = self.source_timers.peek() {
            if self.sources[slot as usize].next == Some(at) {
                break;
            }
            self.source_timers.pop();
        }
    }

    /// Fires source `s` once. False if the budget ran out part-way through
    /// an add-many or a resync (it resumes from its cursor).
    fn fire_source(&mut self, s: usize) -> bool {
        // A watch event is one unit; add-many and resync pay per key below.
        if matches!(self.sources[s].source, Source::WatchEvents { .. }) && !self.spend() {
            return false;
        }
        let now = self.now;
        let state = &mut self.sources[s];
        match &state.source {
            Source::WatchEvents { key, .. } => {
                let next = after(state.next.unwrap_or(now), state.interval);
                state.next = (next < state.end).then_some(next);
                // Interned on first use (not when added) so key ids keep their order.
                let id = match state.key_id {
                    Some(id) => id,
                    None => {
                        let id = self.queue.key(key);
                        self.sources[s].key_id = Some(id);
                        id
                    }
                };
                self.watch_events_total += 1;
                let effect = self.queue.add(now, id, None);
                if self.arrivals.len() == crate::events::ARRIVALS_KEPT {
                    self.arrivals.pop_front();
                }
                self.arrivals.push_back(crate::events::Arrival {
                    seq: self.watch_events_total,
                    at: now,
                    item: id,
                    effect,
                });
            }
            Source::AddMany {
                prefix,
                count,
                script,
                ..
            } => {
                let (prefix, count, script) = (prefix.clone(), *count, script.clone());
                let room = self
                    .key_limit
                    .saturating_sub(self.queue.keys().len() as u64);
                let end = count.min(self.sources[s].cursor.saturating_add(room));
                while self.sources[s].cursor < end {
                    if !self.spend() {
                        self.collect_queue_events();
                        return false;
                    }
                    let i = self.sources[s].cursor;
                    self.sources[s].cursor += 1;
                    let id = self.intern(&format!("{prefix}{i}"));
                    if script.is_some() {
                        self.scripts.set(id, script.clone());
                    }
                    self.queue.add(now, id, initial_list_priority(now));
                }
                self.sources[s].next = None;
            }
            Source::Resync { .. } => {
                let keys = self.queue.keys().len() as u64;
                while self.sources[s].cursor < keys {
                    if !self.spend() {
                        self.collect_queue_events();
                        return false;
                    }
                    let i = self.sources[s].cursor;
                    self.sources[s].cursor += 1;
                    // A resync is an update with an unchanged resourceVersion.
                    self.queue.add(now, ItemId(i as u32), Some(LOW_PRIORITY));
                }
                let state = &mut self.sources[s];
                state.cursor = 0;
                // At the saturated end of time there is no later instant:
                // the resync is over (it would otherwise fire for ever).
                state.next = state
                    .next
                    .map(|n| (n, after(n, state.interval)))
                    .and_then(|(n, later)| (later > n).then_some(later));
            }
        }
        self.collect_queue_events();
        true
    }

    fn intern(&mut self, key: &str) -> ItemId {
        self.queue.key(key)
    }

    /// Idle workers take items, in worker order. A worker whose request the
    /// Crossplane middleware deferred is idle again at once and takes the next.
    /// False if the budget ran out (a later pass picks up where this stopped:
    /// the workers before are busy, so the order is the same).
    fn dispatch(&mut self) -> bool {
        self.queue.advance(self.now);
        // The lowest idle worker takes the next item (a worker the
        // middleware turned back is idle again at once, and goes again).
        while let Some(&Reverse(w)) = self.idle.peek() {
            let w = w as usize;
            if !self.queue.can_hand_out() {
                return true;
            }
            if !self.spend() {
                return false;
            }
            let item = match self.queue.get(self.now) {
                Handed::Item(item, priority) => {
                    self.worker_priority[w] = priority;
                    item
                }
                Handed::Empty | Handed::ShutDown => return true,
            };
            self.collect_queue_events();
            self.active += 1;
            self.metrics.active_workers = self.active;
            self.push_log(SimEvent::ReconcileStart {
                worker: w as u32,
                item,
            });
            if let Some(mw) = &mut self.middleware {
                let gate = mw.gate(item, self.now);
                self.push_log(SimEvent::Gate {
                    worker: w as u32,
                    item,
                    gate,
                });
                if let Gate::Defer { delay } = gate {
                    // The inner reconciler is not called: an instant RequeueAfter.
                    self.idle.pop(); // w, the lowest idle worker
                    self.workers[w] = WorkerState::AwaitingDecision {
                        item,
                        started: self.now,
                    };
                    self.conclude(w, item, Outcome::RequeueAfter { after_ns: delay }, false);
                    continue;
                }
            }
            let base = self
                .reconcile_ns
                .get(item)
                .unwrap_or(self.spec.controller.reconcile_ns);
            let duration = match self.spec.controller.reconcile_jitter_ns {
                Some(j) if j > 0 => {
                    base.saturating_add((self.rng.next_u64() % (j as u64 + 1)) as Nanos)
                }
                _ => base,
            };
            // Where errors write nothing, the script decides now, for the
            // instant the reconcile's own work ends: a failure sends nothing.
            self.decided[w] = None;
            if self.spec.errors_write_nothing {
                let attempt = self.items.get(item).reconciles;
                let script = self
                    .scripts
                    .get(item)
                    .clone()
                    .unwrap_or_else(|| self.spec.default_script.clone());
                self.decided[w] = script.outcome(attempt, after(self.now, duration), &mut self.rng);
            }
            let fails = self.decided[w]
                .is_some_and(|o| o.result().error != crate::controller::ErrorKind::None);
            let waited = if fails { 0 } else { self.call_api(w, item) };
            let busy = waited.saturating_add(duration);
            // The context's deadline ends a reconcile that would run past it.
            let deadline = self
                .spec
                .controller
                .reconcile_timeout_ns
                .filter(|t| busy > *t);
            let times_out = deadline.is_some();
            let until = after(self.now, deadline.unwrap_or(busy));
            self.idle.pop(); // w, the lowest idle worker
            self.ends.push(Reverse((until, w as u32)));
            self.workers[w] = WorkerState::Reconciling {
                item,
                started: self.now,
                until,
                times_out,
            };
        }
        true
    }

    /// A reconcile's time is up: its script decides, or the caller must.
    fn finish(&mut self, w: usize) {
        let WorkerState::Reconciling {
            item,
            started,
            times_out,
            ..
        } = self.workers[w]
        else {
            return;
        };
        if times_out {
            // A reconciler that honours its context returns ctx.Err(): an
            // error, whatever its script would have said.
            self.metrics.reconcile_timeouts_total += 1;
            self.push_log(SimEvent::TimedOut {
                worker: w as u32,
                item,
                after: self.now - started,
            });
            self.workers[w] = WorkerState::AwaitingDecision { item, started };
            self.conclude(w, item, Outcome::Error, true);
            return;
        }
        // The attempt's number: the reconciles that ran before it.
        let attempt = self.items.get(item).reconciles;
        let script = self
            .scripts
            .get(item)
            .as_ref()
            .unwrap_or(&self.spec.default_script);
        let decided = match self.decided[w].take() {
            Some(o) => Some(o),
            None => script.outcome(attempt, self.now, &mut self.rng),
        };
        match decided {
            Some(outcome) => {
                self.workers[w] = WorkerState::AwaitingDecision { item, started };
                self.conclude(w, item, outcome, true);
            }
            None => {
                self.workers[w] = WorkerState::AwaitingDecision { item, started };
                self.push_log(SimEvent::AwaitingDecision {
                    worker: w as u32,
                    item,
                });
            }
        }
    }

    /// Reconciles held for a person's decision whose key now follows a script
    /// that decides (the default script changed): the script decides them.
    fn decide_waiting_by_script(&mut self) {
        for w in 0..self.workers.len() {
            let WorkerState::AwaitingDecision { item, .. } = self.workers[w] else {
                continue;
            };
            if self.scripts.get(item).is_some() {
                continue;
            }
            let attempt = self.items.get(item).reconciles;
            if let Some(outcome) =
                self.spec
                    .default_script
                    .outcome(attempt, self.now, &mut self.rng)
            {
                self.conclude(w, item, outcome, true);
            }
        }
    }

    /// The reconcile's API requests through the client's rate limiter, with
    /// x/time/rate's `Wait`: each waits for its reservation, one after the
    /// other, while the worker is held. Returns the whole wait.
    fn call_api(&mut self, w: usize, item: ItemId) -> Nanos {
        self.api_calls += 1;
        let requests: u32 = self
            .requests_by_kind
            .iter()
            .fold(0, |n, (_, r)| n.saturating_add(*r));
        let now = self.now;
        // Each bucket's requests are reserved at one instant, in order: the
        // last reservation's delay is when that bucket's last request goes
        // out. Requests to different buckets wait side by side (a request
        // reserved later would find the other bucket refilled by as much),
        // so the reconcile waits for the slowest bucket.
        let (waited, slowest) = self
            .client
            .iter_mut()
            .enumerate()
            .map(|(d, draw)| {
                let delay = (0..draw.requests)
                    .map(|_| draw.limiter.reserve_delay(now))
                    .max()
                    .unwrap_or(0);
                (delay, d)
            })
            .fold(
                (0, 0),
                |best, next| if next.0 > best.0 { next } else { best },
            );
        // Each reservation is work: a thousand requests per reconcile cost
        // a thousand units of the caller's budget, not one.
        self.work_left = self.work_left.saturating_sub(requests as u64);
        // Written only once a key has waited: without an API client limit
        // (or before its bucket runs dry) the map stays empty.
        if waited > 0 || self.last_client_wait.get(item).0 > 0 {
            self.last_client_wait.set(item, (waited, slowest));
        }
        if waited > 0 {
            self.client_waited = self.client_waited.saturating_add(waited);
            self.push_log(SimEvent::ClientThrottled {
                worker: w as u32,
                item,
                requests,
                waited,
            });
        }
        waited
    }

    /// controller-runtime's `reconcileHandler` after `Reconcile` returned, then `Done`.
    fn conclude(&mut self, w: usize, item: ItemId, outcome: Outcome, inner_ran: bool) {
        let now = self.now;
        let decision = decide(outcome.result());
        let mut requeue = decision.requeue;
        if decision.label == ResultLabel::Error && requeue == Requeue::RateLimited {
            if let Some(limit) = self.spec.controller.give_up_after {
                let n = self.queue.num_requeues(item);
                if n >= limit {
                    requeue = Requeue::None;
                    self.queue.forget(item);
                    self.metrics.gave_up_total += 1;
                    self.items.get_mut(item).gave_up = true;
                    self.push_log(SimEvent::GaveUp { item, requeues: n });
                }
            }
        }
        {
            let info = self.items.get_mut(item);
            info.reconciles += inner_ran as u64;
            if decision.label == ResultLabel::Error {
                info.errors += 1;
            }
            if decision.terminal {
                info.gave_up = true;
            }
        }
        self.metrics.count(&decision);
        self.inner_reconciles += inner_ran as u64;
        let ran = &mut self.series.current(now).ran;
        *ran = ran.saturating_add(inner_ran as u32);
        if inner_ran && decision.label == ResultLabel::Success {
            self.last_success_at = Some(now);
            self.items.get_mut(item).last_success = Some(now);
        }
        self.push_log(SimEvent::ReconcileEnd {
            worker: w as u32,
            item,
            outcome,
            decision,
        });
        if decision.forget {
            self.queue.forget(item);
        }
        // Every re-add carries Result.Priority, else the priority the key
        // was handed out with.
        let priority = Some(outcome.result().priority.unwrap_or(self.worker_priority[w]));
        // Whether the key leaves this instant: done, or back later.
        let mut moved_on = true;
        match requeue {
            Requeue::None => {}
            Requeue::RateLimited => {
                let failures_before = self.queue.num_requeues(item);
                // None: a shut-down priority queue ignores the add
                // before asking the limiter.
                if let Some((answer, delay)) = self.queue.add_rate_limited(now, item, priority) {
                    moved_on = delay > 0;
                    let info = self.items.get_mut(item);
                    info.gave_up = false;
                    info.bucket_bound = delay == answer.delay && answer.decided_by_bucket();
                    info.waits_after = false;
                    info.retries_total += 1;
                    let retry = Retry {
                        at: now,
                        failures_before,
                        delay,
                    };
                    self.details.record(item, retry, answer);
                }
            }
            Requeue::After { delay } => {
                moved_on = delay > 0;
                let info = self.items.get_mut(item);
                // Crossplane's global bucket defers a key with a RequeueAfter
                // before the reconciler runs: that wait is the bucket's.
                info.bucket_bound = !inner_ran;
                info.waits_after = inner_ran;
                self.queue.add_after(now, item, delay, priority);
            }
        }
        self.stall_guard.moved_on += moved_on as u64;
        self.queue.done(now, item);
        self.collect_queue_events();
        self.workers[w] = WorkerState::Idle;
        self.idle.push(Reverse(w as u32));
        self.active -= 1;
        self.metrics.active_workers = self.active;
    }

    fn collect_queue_events(&mut self) {
        let mut events = std::mem::take(&mut self.event_buf);
        self.queue.swap_events(&mut events);
        // The priority queue's waiting loop moves records itself (no `Add`
        // follows a release): a release is an add there.
        let priority_queue = self.queue.kind() == QueueKind::Priority;
        for (at, e) in events.drain(..) {
            if let Some(item) = e.item() {
                let info = self.items.get_mut(item);
                info.first_added.get_or_insert(at);
                // A wait in the heap ends: released, or cut short by an add.
                let ended = matches!(&e, QueueEvent::Released { .. })
                    || matches!(&e, QueueEvent::AddWithOpts(c) if matches!(c.placed, Placed::DelayCancelled { .. }));
                if ended {
                    let cause = if info.waits_after {
                        2
                    } else {
                        info.bucket_bound as usize
                    };
                    let waited = at.saturating_sub(info.wait_from);
                    self.heap_waited[cause] = self.heap_waited[cause].saturating_add(waited);
                }
            }
            match &e {
                QueueEvent::Add {
                    item,
                    effect: AddEffect::Deduplicated,
                } => self.items.get_mut(*item).absorbed += 1,
                QueueEvent::AddWithOpts(call) if call.placed == Placed::StayedReady => {
                    self.items.get_mut(call.item).absorbed += 1
                }
                QueueEvent::Get { item } | QueueEvent::GetWithPriority { item, .. } => {
                    self.items.get_mut(*item).absorbed = 0
                }
                QueueEvent::AddAfter {
                    item,
                    effect: AfterEffect::Waiting { .. } | AfterEffect::MovedEarlier { .. },
                    ..
                } => self.items.get_mut(*item).wait_from = at,
                QueueEvent::AddWithOpts(call)
                    if matches!(
                        call.placed,
                        Placed::NewWaiting { .. } | Placed::MovedEarlier { .. }
                    ) =>
                {
                    self.items.get_mut(call.item).wait_from = at
                }
                _ => {}
            }
            let sample = self.series.current(at);
            let (requeue, retry, add) = match &e {
                QueueEvent::Released { .. } => (true, false, priority_queue),
                QueueEvent::AddAfter { effect, .. } => (
                    *effect == AfterEffect::Immediate,
                    *effect != AfterEffect::Ignored,
                    false,
                ),
                QueueEvent::Add { effect, .. } => (
                    false,
                    false,
                    matches!(effect, AddEffect::Queued | AddEffect::MarkedDirty),
                ),
                QueueEvent::AddWithOpts(call) => {
                    let became_ready = matches!(
                        call.placed,
                        Placed::NewReady | Placed::DelayCancelled { .. }
                    );
                    let delayed = call.opts.rate_limited || call.opts.after != 0;
                    (
                        delayed && call.effective <= 0 && became_ready,
                        call.effective > 0,
                        became_ready,
                    )
                }
                _ => (false, false, false),
            };
            if requeue {
                sample.requeues = sample.requeues.saturating_add(1);
                self.requeues_total += 1;
            }
            if retry {
                sample.retries = sample.retries.saturating_add(1);
            }
            if add {
                sample.adds = sample.adds.saturating_add(1);
            }
            if self.log_capacity > 0 {
                self.push_log(SimEvent::Queue(e));
            } else {
                self.log_total += 1;
            }
        }
        self.deepest_queue = self.deepest_queue.max(self.queue.len());
        self.event_buf = events;
    }

    fn push_log(&mut self, event: SimEvent) {
        if let SimEvent::ReconcileEnd { decision, item, .. } = &event {
            let i = decision.label.index();
            let n = &mut self.series.current(self.now).reconciles[i];
            *n = n.saturating_add(1);
            // A reconcile cut by its timeout: its story starts at the firing.
            let timed_out = self.log.back().is_some_and(|e| {
                e.seq + 1 == self.log_total
                    && matches!(&e.event, SimEvent::TimedOut { item: i, .. } if i == item)
            });
            let seq = self.log_total - timed_out as u64;
            self.items.get_mut(*item).last_end_seq = std::num::NonZeroU64::new(seq);
        }
        if self.log_capacity == 0 {
            self.log_total += 1;
            return;
        }
        if self.log.len() == self.log_capacity {
            self.log.pop_front();
        }
        self.log.push_back(LogEntry {
            seq: self.log_total,
            at: self.now,
            event,
        });
        self.log_total += 1;
    }

    // ----- inputs -----

    /// Applies an input at the current instant and records it for replay.
    /// The input passes the validation gate first; a refused input changes
    /// nothing. Work it starts (a thousand keys to add) is bounded by
    /// [`APPLY_BUDGET`]; the rest is done by the next `run_until_bounded`.
    pub fn apply(&mut self, input: Input) -> Result<(), SimError> {
        self.apply_bounded(input, APPLY_BUDGET)
    }

    /// Like [`Simulation::apply`], starting at most `budget` work units of
    /// what the input sets off ([`Simulation::budget_left`] tells what is
    /// left); the rest is done by the next `run_until_bounded`.
    pub fn apply_bounded(&mut self, input: Input, budget: u64) -> Result<(), SimError> {
        if let Some(reason) = &self.stalled {
            return Err(SimError::Stalled(reason.clone()));
        }
        validate::input(&input).map_err(SimError::Invalid)?;
        if self.resume.is_some() {
            // Finish the instant in progress first, so the input lands after it.
            self.run_until_bounded(self.now, u64::MAX);
        }
        self.work_left = budget;
        let now = self.now;
        match &input {
            Input::Add { key } => {
                self.ensure_key_room(key)?;
                let id = self.intern(key);
                self.queue.add(now, id, None);
                self.collect_queue_events();
            }
            Input::AddMany { prefix, count } => {
                self.ensure_room(*count)?;
                self.ensure_source_room()?;
                self.add_source(
                    Source::AddMany {
                        prefix: prefix.clone(),
                        count: *count,
                        at_ns: 0,
                        script: None,
                    },
                    now,
                );
                self.process_instant(now);
            }
            Input::WatchEvents {
                key,
                per_second,
                duration_ns,
            } => {
                let source = Source::WatchEvents {
                    key: key.clone(),
                    per_second: *per_second,
                    start_ns: 0,
                    duration_ns: *duration_ns,
                };
                self.ensure_room(1)?;
                self.ensure_source_room()?;
                self.add_source(source, now);
                self.process_instant(now);
            }
            Input::Resync { period_ns } => {
                self.stop_sources(|s| matches!(s, Source::Resync { .. }));
                if let Some(p) = period_ns {
                    self.add_source(Source::Resync { period_ns: *p }, now);
                }
            }
            Input::Decide { key, outcome } => {
                let id = self.queue.keys().get(key);
                let w = id.and_then(|id| {
                    self.workers.iter().position(
                        |w| matches!(w, WorkerState::AwaitingDecision { item, .. } if *item == id),
                    )
                });
                let (Some(id), Some(w)) = (id, w) else {
                    return Err(SimError::NotAwaiting { key: key.clone() });
                };
                self.conclude(w, id, *outcome, true);
            }
            Input::SetScript { key, script } => {
                self.ensure_key_room(key)?;
                let id = self.intern(key);
                self.scripts.set(id, Some(script.clone()));
            }
            Input::DefaultScript { script } => {
                self.spec.default_script = script.clone();
                self.decide_waiting_by_script();
            }
            Input::Shutdown => {
                self.queue
                    .shutdown(now)
                    .map_err(|e| SimError::AlreadyShutDown(e.to_string()))?;
                self.collect_queue_events();
            }
        }
        if self.resume.is_none() && !self.dispatch() {
            self.resume = Some(Resume::Dispatch);
        }
        self.inputs.push((now, input));
        Ok(())
    }

    /// Room for `key` unless it already exists.
    fn ensure_key_room(&self, key: &str) -> Result<(), SimError> {
        match self.find(key) {
            Some(_) => Ok(()),
            None => self.ensure_room(1),
        }
    }

    /// Room for one more source under the same cap as a file's.
    fn ensure_source_room(&self) -> Result<(), SimError> {
        if self.live_sources >= validate::MAX_SOURCES {
            return Err(SimError::Invalid(ScenarioError {
                field: "sources".into(),
                reason: format!(
                    "{} sources are running: at most {} at once",
                    self.live_sources,
                    validate::MAX_SOURCES
                ),
            }));
        }
        Ok(())
    }

    fn ensure_room(&self, extra: u64) -> Result<(), SimError> {
        let have = self.queue.keys().len() as u64;
        if have.saturating_add(extra) > self.key_limit {
            return Err(SimError::Invalid(ScenarioError {
                field: "count".into(),
                reason: format!(
                    "{have} keys exist; {extra} more would pass the limit of {}",
                    self.key_limit
                ),
            }));
        }
        Ok(())
    }

    /// Rebuilds a run from its scenario and recorded inputs, up to `until`.
    pub fn replay(
        scenario: &Scenario,
        inputs: &[(Nanos, Input)],
        until: Nanos,
    ) -> Result<Simulation, SimError> {
        let mut sim = Simulation::new(scenario).map_err(SimError::Invalid)?;
        validate::tape(inputs).map_err(SimError::Invalid)?;
        for (at, input) in inputs.iter().filter(|(at, _)| *at <= until) {
            sim.run_until(*at);
            sim.apply(input.clone())?;
        }
        sim.run_until(until);
        Ok(sim)
    }

    // ----- reading -----

    pub fn now(&self) -> Nanos {
        self.now
    }

    /// This controller's part of the scenario.
    pub fn spec(&self) -> &ControllerSpec {
        &self.spec
    }

    /// Lowers the most keys this run may hold (never above the core's
    /// [`MAX_ITEMS`]): the page keeps what it can draw and rewind.
    pub fn set_key_limit(&mut self, limit: u64) {
        self.key_limit = limit.min(MAX_ITEMS);
    }

    /// Time keys spent in the waiting heap, by cause: `[backoff, bucket,
    /// requeue_after]`.
    pub fn heap_waited(&self) -> [Nanos; 3] {
        self.heap_waited
    }

    /// The most keys the queue held at once.
    pub fn deepest_queue(&self) -> usize {
        self.deepest_queue
    }

    /// API requests sent through the client, and the time they waited in all.
    pub fn client_totals(&self) -> (u64, Nanos) {
        let sent = self
            .requests_by_kind()
            .iter()
            .fold(0u64, |n, (_, r)| n.saturating_add(*r));
        (sent, self.client_waited)
    }

    /// API requests sent so far, by kind, own kind first.
    pub fn requests_by_kind(&self) -> Vec<(String, u64)> {
        self.requests_by_kind
            .iter()
            .map(|(k, n)| (k.clone(), self.api_calls.saturating_mul(*n as u64)))
            .collect()
    }

    /// The kinds whose requests share the client bucket `id`'s latest
    /// reconcile waited longest on (else this controller's own kind's).
    pub fn client_kinds(&self, id: ItemId) -> &[String] {
        let d = self.last_client_wait.get(id).1;
        self.client
            .get(d)
            .or(self.client.first())
            .map_or(&[], |c| c.kinds.as_slice())
    }

    /// The client buckets this controller draws from, by the manager's
    /// index, to lend it the manager's.
    pub fn client_buckets_mut(&mut self) -> impl Iterator<Item = (usize, &mut TokenBucket)> {
        self.client.iter_mut().map(|c| (c.bucket, &mut c.limiter))
    }

    /// Crossplane's global bucket, to lend a manager's shared one.
    pub fn global_bucket_mut(&mut self) -> Option<&mut TokenBucket> {
        self.middleware.as_mut().map(|m| &mut m.global)
    }

    /// The queue limiter's shared bucket, when this controller shares one.
    pub fn shared_bucket_mut(&mut self) -> Option<&mut TokenBucket> {
        if !self.spec.shares_bucket {
            return None;
        }
        self.queue.limiter_mut().bucket_mut()
    }

    /// Calls of the user's `Reconcile` (with Crossplane, only those the
    /// global bucket let through).
    pub fn inner_reconciles(&self) -> u64 {
        self.inner_reconciles
    }

    /// When the last key converged: the last success, if nothing is left
    /// to do (no key queued, waiting or in flight).
    pub fn converged_at(&self) -> Option<Nanos> {
        let idle = self.queue.is_empty()
            && self.queue.waiting_len() == 0
            && self.queue.processing_count() == 0;
        idle.then_some(self.last_success_at).flatten()
    }

    /// The priority `id` was last handed out with (0 on a client-go queue).
    pub fn handed_priority(&self, id: ItemId) -> i64 {
        let in_flight = self.workers.iter().position(|s| s.item() == Some(id));
        match in_flight {
            Some(w) => self.worker_priority(w),
            None => self.queue.last_priority(id),
        }
    }

    /// The priority worker `w`'s key was handed out with.
    pub fn worker_priority(&self, w: usize) -> i64 {
        self.worker_priority[w]
    }

    pub fn queue(&self) -> &ControllerQueue {
        &self.queue
    }

    pub fn workers(&self) -> &[WorkerState] {
        &self.workers
    }

    /// How long `id`'s latest reconcile waited for the API client.
    pub fn last_client_wait(&self, id: ItemId) -> Nanos {
        self.last_client_wait.get(id).0
    }

    pub fn item(&self, id: ItemId) -> &ItemInfo {
        self.items.get(id)
    }

    /// The key's retry history and latest answer, if still held (see
    /// [`DETAILED_KEYS`]).
    pub fn details(&self, id: ItemId) -> Option<&KeyDetail> {
        self.details.get(id)
    }

    pub fn key(&self, id: ItemId) -> &str {
        self.queue.key_name(id)
    }

    pub fn find(&self, key: &str) -> Option<ItemId> {
        self.queue.keys().get(key)
    }

    pub fn script_of(&self, id: ItemId) -> &Script {
        self.scripts
            .get(id)
            .as_ref()
            .unwrap_or(&self.spec.default_script)
    }

    pub fn controller_metrics(&self) -> &ControllerMetrics {
        &self.metrics
    }

    pub fn middleware(&self) -> Option<&Middleware> {
        self.middleware.as_ref()
    }

    /// The effective limiter (Crossplane's per-object one when that preset is on).
    pub fn limiter_config(&self) -> &LimiterConfig {
        self.queue.limiter_config()
    }

    /// Tokens in the bucket that gates this controller (the queue limiter's,
    /// or Crossplane's global one) at `t`.
    pub fn bucket_tokens_at(&self, t: Nanos) -> Option<f64> {
        match &self.middleware {
            Some(mw) => Some(mw.global.tokens_at(t)),
            None => self.queue.limiter().bucket().map(|b| b.tokens_at(t)),
        }
    }

    pub fn log(&self) -> &VecDeque<LogEntry> {
        &self.log
    }

    pub fn log_total(&self) -> u64 {
        self.log_total
    }

    /// How many log entries to keep (0 keeps none; counting goes on).
    pub fn set_log_capacity(&mut self, capacity: usize) {
        self.log_capacity = capacity;
        while self.log.len() > capacity {
            self.log.pop_front();
        }
    }

    pub fn series(&self) -> &Series {
        &self.series
    }

    pub fn requeues_total(&self) -> u64 {
        self.requeues_total
    }

    /// Watch events delivered by all sources so far.
    pub fn watch_events_total(&self) -> u64 {
        self.watch_events_total
    }

    /// The latest watch events, oldest first (at most [`crate::events::ARRIVALS_KEPT`]).
    pub fn arrivals(&self) -> impl DoubleEndedIterator<Item = &crate::events::Arrival> + '_ {
        self.arrivals.iter()
    }

    pub fn inputs(&self) -> &[(Nanos, Input)] {
        &self.inputs
    }

    pub fn stalled(&self) -> Option<&str> {
        self.stalled.as_deref()
    }

    pub fn metrics_snapshot(&self) -> MetricsSnapshot {
        let m = self.queue.metrics();
        let m = m.as_ref();
        let (unfinished, longest) = self.queue.work_gauges(self.now);
        MetricsSnapshot {
            at: self.now,
            workqueue_depth: m.map_or(0, |m| m.depth),
            workqueue_depth_by_priority: m.map_or(Vec::new(), |m| m.depth_by_priority.clone()),
            workqueue_adds_total: m.map_or(0, |m| m.adds_total),
            workqueue_retries_total: m.map_or(0, |m| m.retries_total),
            workqueue_queue_duration_seconds_count: m.map_or(0, |m| m.queue_duration.count),
            workqueue_queue_duration_seconds_sum: m.map_or(0.0, |m| m.queue_duration.sum),
            workqueue_work_duration_seconds_count: m.map_or(0, |m| m.work_duration.count),
            workqueue_work_duration_seconds_sum: m.map_or(0.0, |m| m.work_duration.sum),
            workqueue_unfinished_work_seconds: unfinished,
            workqueue_longest_running_processor_seconds: longest,
            controller: self.metrics.clone(),
            requeues_total: self.requeues_total,
            len: self.queue.len(),
            waiting: self.queue.waiting_len(),
        }
    }

    /// A fingerprint of the whole observable run: every metric, the time
    /// series and the retained log, hashed with FNV-1a. Equal digests on two
    /// platforms mean the same run.
    pub fn digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= *b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(serde_json::to_string(&self.metrics_snapshot())
            .unwrap_or_default()
            .as_bytes());
        eat(serde_json::to_string(&self.series)
            .unwrap_or_default()
            .as_bytes());
        eat(&self.log_total.to_le_bytes());
        // The data, not the words the page says it in: the keys once (an
        // event names its key by id), then each event as it is recorded.
        for (_, key) in self.queue.keys().iter() {
            eat(key.as_bytes());
            eat(&[0]);
        }
        for e in &self.log {
            eat(serde_json::to_string(e).unwrap_or_default().as_bytes());
        }
        h
    }
}

/// controller-runtime's handlers enqueue creates from the informer's initial
/// list with `LowPriority`: here, keys that exist when the run starts (t=0).
fn initial_list_priority(now: Nanos) -> Option<i64> {
    (now == 0).then_some(LOW_PRIORITY)
}
