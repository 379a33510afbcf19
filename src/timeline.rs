//! The run on the page as a tape: one engine (a [`Manager`], of one
//! controller or of several), a ring of rewind checkpoints, and the inputs a
//! person recorded with their instants. Rewinding restores the nearest
//! checkpoint and replays the tape; a new input after a rewind cuts off the
//! old future. Every call that moves time spends at most a frame's budget of
//! work, for one controller or for sixteen, so nothing here can freeze the
//! page. Plain Rust: tested natively.

use workqueue_core::{
    Controller, Deadline, Duration, Input, Instant, Manager, Scenario, ScenarioError, SimError,
    Timer, SECOND,
};

/// Most work units (instants, keys added or released, items handed out) per
/// animation frame, shared by everything one frame does; past it, virtual
/// time lags behind the clock rather than freezing the page. A slower device
/// or a costlier queue gets fewer (see [`Timeline::fit_budget`]).
pub const FRAME_BUDGET: u64 = 20_000;
/// The fewest work units a frame gets, however slow the device.
pub const MIN_FRAME_BUDGET: u64 = 500;
/// What a frame's work aims to take, in milliseconds: the rest of a 60 Hz
/// frame is the stage's to draw.
pub const FRAME_WORK_TARGET_MS: f64 = 8.0;
const CHECKPOINT_EVERY: Duration = SECOND;
/// Once the ring is full, a new checkpoint (a clone of the whole run) also
/// waits this long in real time, so a large run never pays for one every frame.
pub const CHECKPOINT_REAL_MS: f64 = 1000.0;
/// Rewind checkpoints kept: a fixed ring, so memory stays flat however long
/// the run; seeking restores the nearest one and replays the rest.
pub const MAX_CHECKPOINTS: usize = 8;
/// Copies of keys the rewind checkpoints may hold in all (keys × checkpoints):
/// a big run keeps fewer checkpoints and replays further, so the timeline's
/// memory does not grow with keys × checkpoints (the ring keeps two at
/// least: the largest page run holds two copies).
pub const CHECKPOINT_KEY_BUDGET: usize = 200_000;
/// Most keys the page runs (the core takes up to a million: `wqsim`): at
/// ~260 bytes a key, live and in each of two checkpoints, some 160 MB.
pub const PAGE_MAX_KEYS: u64 = workqueue_lessons::cost::MAX_SCENE_KEYS;

/// The controller a person's inputs go to (the stage's own).
const INPUT_CONTROLLER: usize = 0;

/// The next run revision: unique across every timeline of the page, so a
/// new run never compares equal to the one it replaced.
fn next_rev() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[derive(Clone, Debug)]
pub struct Timeline {
    scenario: Scenario,
    engine: Manager,
    checkpoints: Vec<Manager>,
    /// Every input with its instant, including those ahead of `now` after a rewind.
    tape: Vec<(Instant, Input)>,
    /// The furthest instant reached: the end of the timeline.
    horizon: Instant,
    /// Real milliseconds played since the last checkpoint.
    real_since_checkpoint: f64,
    /// Whether time is running (a full ring then takes a checkpoint at most
    /// once per [`CHECKPOINT_REAL_MS`]).
    playing: bool,
    /// A taped input the run refused on replay.
    refused: Option<SimError>,
    /// An instant asked for (a seek, a link's) that one frame did not reach:
    /// the next frames go on towards it.
    pending: Option<Instant>,
    /// Work units a frame may spend, fitted to what they cost here.
    budget: u64,
    /// See [`Timeline::keys_planned`].
    keys_planned: u64,
    /// See [`Timeline::rev`].
    rev: u64,
}

impl Timeline {
    /// A run of `scenario` at its start, under the page's key limit.
    pub fn new(scenario: Scenario) -> Result<Timeline, ScenarioError> {
        let engine = page_engine(&scenario)?;
        let scenario_keys = scenario.key_count();
        Ok(Timeline {
            scenario,
            checkpoints: vec![engine.clone()],
            engine,
            tape: Vec::new(),
            horizon: Instant::T0,
            real_since_checkpoint: 0.0,
            playing: false,
            refused: None,
            pending: None,
            budget: FRAME_BUDGET,
            keys_planned: scenario_keys,
            rev: next_rev(),
        })
    }

    /// A run of `scenario` with `tape` replayed up to `at`, as far as one
    /// frame's budget goes (the rest plays on with [`Timeline::advance_to`]).
    pub fn replayed(
        scenario: Scenario,
        tape: Vec<(Instant, Input)>,
        at: Instant,
    ) -> Result<Timeline, ScenarioError> {
        workqueue_core::validate::tape(&tape)?;
        let mut t = Timeline::new(scenario)?;
        t.tape = tape;
        t.count_planned();
        t.advance_to(at);
        Ok(t)
    }

    /// The run's revision: it moves when, and only when, the run does (an
    /// instant played, an input applied, a rewind), so what draws the run
    /// (the charts, the log) draws again exactly then, not on every change
    /// of the page.
    pub fn rev(&self) -> u64 {
        self.rev
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Keys the run will have met once its recorded inputs are played: the
    /// scenario's and those the tape adds (a lane that must not move keeps
    /// room for them from the first frame, while a set-up still plays).
    /// Counted when the tape changes, not each frame.
    pub fn keys_planned(&self) -> u64 {
        self.keys_planned
    }

    fn count_planned(&mut self) {
        self.keys_planned = self
            .scenario
            .key_count()
            .saturating_add(workqueue_core::Run::keys_added(&self.tape));
    }

    pub fn engine(&self) -> &Manager {
        &self.engine
    }

    /// The stage's controller: the first (a one-controller run's only one).
    pub fn sim(&self) -> &Controller {
        self.engine
            .controller(INPUT_CONTROLLER)
            .expect("a validated scenario has a controller")
    }

    pub fn now(&self) -> Instant {
        self.engine.now()
    }

    pub fn horizon(&self) -> Instant {
        self.horizon
    }

    /// Inputs recorded so far, with their instants.
    pub fn tape(&self) -> &[(Instant, Input)] {
        &self.tape
    }

    /// The rewind checkpoints held (for the soak benchmark's memory figures).
    pub fn checkpoints(&self) -> &[Manager] {
        &self.checkpoints
    }

    pub fn set_playing(&mut self, playing: bool) {
        self.playing = playing;
    }

    /// Work units a frame may spend now.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Fits the frame budget to this device and this run, from what the
    /// last frame's work took (`work_ms`). Only a frame that spent its whole
    /// budget tells what the units cost: the budget then scales towards
    /// [`FRAME_WORK_TARGET_MS`], by half at most (one odd frame does not
    /// stall the run) and by a quarter up at most (a storm's next frames
    /// are never much heavier than its last). A frame that had budget to
    /// spare changes nothing. Results never depend on it: a run is the same
    /// however it is sliced.
    pub fn fit_budget(&mut self, work_ms: f64) {
        if !(work_ms.is_finite() && work_ms > 0.0) || self.engine.budget_left() > 0 {
            return;
        }
        let scale = (FRAME_WORK_TARGET_MS / work_ms).clamp(0.5, 1.25);
        let fitted = (self.budget as f64 * scale) as u64;
        self.budget = fitted.clamp(MIN_FRAME_BUDGET, FRAME_BUDGET);
    }

    /// Real time played, for the checkpoint pace.
    pub fn played(&mut self, real_ms: f64) {
        self.real_since_checkpoint += real_ms;
    }

    /// The next instant something happens: an event of the run, or a taped
    /// input ahead of the clock (after a rewind). The core's timer table
    /// decides, with the next taped input as one of its deadlines.
    pub fn next_instant(&self) -> Option<Instant> {
        let input = self
            .tape
            .get(self.engine.inputs_applied())
            .map(|(at, _)| Deadline {
                at: *at,
                timer: Timer::Input,
                controller: INPUT_CONTROLLER,
            });
        self.engine.next_deadline(input).map(|d| d.at)
    }

    /// Whether the next instant is an event of the run itself (not only a
    /// taped input).
    pub fn next_is_event(&self, at: Instant) -> bool {
        self.engine.next_event_at() == Some(at)
    }

    /// Advances to `target`, replaying taped inputs on the way, within one
    /// frame's budget. Returns whether the target was reached.
    pub fn advance_to(&mut self, target: Instant) -> bool {
        let mut reached = true;
        let mut left = self.budget;
        let mut next_input = self.engine.inputs_applied();
        let before = (self.engine.now(), next_input);
        while let Some((at, input)) = self.tape.get(next_input) {
            if *at > target {
                break;
            }
            let done = self.engine.run_until_bounded(*at, left);
            left = self.engine.budget_left();
            if !done || left == 0 {
                reached = false;
                break;
            }
            // The input's own work draws on the frame's budget too, and
            // each input costs at least one unit.
            let applied = self
                .engine
                .apply_bounded(INPUT_CONTROLLER, input.clone(), left);
            left = self.engine.budget_left().min(left - 1);
            if let Err(e) = applied {
                // Replay is exact, so an input that passed once passes again;
                // should one not (a link's tape), it is passed over in place,
                // so what follows still lines up, and the refusal is kept
                // for the page to show.
                self.engine.skip_input();
                self.refused = Some(e);
            }
            next_input += 1;
        }
        if reached {
            reached = self.engine.run_until_bounded(target, left);
        }
        // Any unit of work spent, or time moved, is a changed run.
        let spent = self.engine.budget_left() < self.budget;
        if spent || before != (self.engine.now(), self.engine.inputs_applied()) {
            self.rev = next_rev();
        }
        self.horizon = self.horizon.max(self.engine.now());
        self.checkpoint();
        self.pending = (!reached && !self.engine.stalled()).then_some(target);
        reached
    }

    /// The instant a seek is still on its way to, if one frame was not enough.
    pub fn pending(&self) -> Option<Instant> {
        self.pending
    }

    /// One more frame towards a pending instant; whether it is reached.
    pub fn catch_up(&mut self) -> bool {
        match self.pending {
            Some(t) => self.advance_to(t),
            None => true,
        }
    }

    /// A taped input the run refused on replay, once.
    pub fn take_refusal(&mut self) -> Option<SimError> {
        self.refused.take()
    }

    /// One pass over the next instant (the stage's slow motion shows a busy
    /// instant pass by pass). A taped input due then is applied the ordinary
    /// way instead.
    pub fn one_pass(&mut self, at: Instant) {
        if self.next_is_event(at) {
            self.engine.step_bounded(self.budget);
            self.rev = next_rev();
            self.horizon = self.horizon.max(at);
            self.checkpoint();
        } else {
            self.advance_to(at);
        }
    }

    fn checkpoint(&mut self) {
        let keys = self.engine.key_total();
        let last = self.checkpoints.last().map_or(Instant::T0, Manager::now);
        let full = self.checkpoints.len() >= checkpoints_for(keys);
        let real_ok = !self.playing || !full || self.real_since_checkpoint >= CHECKPOINT_REAL_MS;
        if self.engine.now() >= last + CHECKPOINT_EVERY && real_ok {
            self.real_since_checkpoint = 0.0;
            // Make room first: the peak is the ring, never the ring plus one
            // (wasm memory, once grown, is never given back).
            while self.checkpoints.len() >= checkpoints_for(keys) && self.checkpoints.len() > 1 {
                evict_most_crowded(&mut self.checkpoints);
            }
            self.checkpoints.push(self.engine.clone());
        }
    }

    /// Forces a checkpoint at the next chance (tests and benchmarks).
    pub fn checkpoint_now(&mut self) {
        self.real_since_checkpoint = CHECKPOINT_REAL_MS;
        self.checkpoint();
    }

    /// Moves to instant `t`: forward by playing on, backward by restoring
    /// the nearest checkpoint and replaying. Within one frame's budget;
    /// returns whether `t` was reached.
    pub fn seek(&mut self, t: Instant) -> bool {
        let t = t.max(Instant::T0);
        if t >= self.now() {
            return self.advance_to(t);
        }
        let restored = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.now() <= t)
            .cloned();
        // The first checkpoint is the start, so there always is one; a fresh
        // engine is the fallback that cannot fail for a validated scenario.
        self.engine = match restored {
            Some(c) => c,
            None => match page_engine(&self.scenario) {
                Ok(e) => e,
                Err(_) => return false,
            },
        };
        self.rev = next_rev();
        // Checkpoints of the future we are leaving stay valid for seeking
        // forward until a new input changes that future.
        self.advance_to(t)
    }

    /// Records a person's input at the current instant and applies it. The
    /// old future (taped inputs and checkpoints past now) is cut off.
    pub fn record(&mut self, input: Input) -> Result<(), SimError> {
        let now = self.now();
        let applied = self.engine.inputs_applied();
        self.tape.truncate(applied);
        self.checkpoints.retain(|c| c.now() <= now);
        self.horizon = now;
        self.rev = next_rev();
        self.engine.apply(INPUT_CONTROLLER, input.clone())?;
        self.tape.push((now, input));
        self.count_planned();
        Ok(())
    }

    /// Plays to the next instant anything happens; that instant, if any.
    /// After a rewind, the furthest instant the run had reached counts as
    /// one: a scene that ended in quiet (played to 4s, its last event at
    /// 3s) is reached again by stepping forward, as stepping back left it.
    pub fn step(&mut self) -> Option<Instant> {
        let rewound = self.now() < self.horizon;
        let t = match self.next_instant() {
            Some(t) if rewound => t.min(self.horizon),
            None if rewound => self.horizon,
            next => next?,
        };
        // The whole instant, however many keys it holds: a step lands on
        // an event, never within one (and back retraces it exactly).
        while !self.advance_to(t) {}
        Some(t)
    }

    /// Back to the previous event (or the start): the very instant, and
    /// the very run, that [`Timeline::step`] reached there going forward.
    /// The log keeps only some keys' events, so the instant is found by
    /// replaying event by event from the checkpoint before it.
    pub fn step_back(&mut self) {
        let now = self.now();
        let mut from = now;
        loop {
            // The latest checkpoint strictly before `from`.
            let start = self
                .checkpoints
                .iter()
                .map(Manager::now)
                .filter(|t| *t < from)
                .max()
                .unwrap_or(Instant::T0);
            self.seek(start);
            while self.pending.is_some() {
                self.catch_up();
            }
            let mut prev = None;
            while let Some(t) = self.next_instant().filter(|t| *t < now) {
                while !self.advance_to(t) {}
                prev = Some(t);
            }
            match prev {
                // Forward stepping lands where `advance_to` lands: here.
                Some(_) => return,
                None if start == Instant::T0 => {
                    self.seek(Instant::T0);
                    return;
                }
                None => from = start,
            }
        }
    }

    /// Why the run is stuck, if it is.
    pub fn stall_reason(&self) -> Option<String> {
        self.engine.stall_reason().map(str::to_string)
    }

    /// Keys queued, waiting or being processed, over every controller.
    pub fn in_motion(&self) -> usize {
        self.engine.in_motion()
    }

    /// Whether the next instant holds events of sources alone.
    pub fn next_is_sources_only(&self) -> bool {
        self.engine.next_is_sources_only()
    }
}

/// The page's engine for a scenario: the core's, under the page's key limit.
fn page_engine(scenario: &Scenario) -> Result<Manager, ScenarioError> {
    page_limit(scenario)?;
    let mut engine = Manager::new(scenario)?;
    engine.set_key_limit(PAGE_MAX_KEYS);
    Ok(engine)
}

/// The page's limit on a scenario's keys (all controllers').
pub fn page_limit(scenario: &Scenario) -> Result<(), ScenarioError> {
    let keys = scenario.key_count();
    if keys <= PAGE_MAX_KEYS {
        return Ok(());
    }
    Err(ScenarioError {
        field: "items".into(),
        reason: format!(
            "{keys} keys is too many for the page: at most {PAGE_MAX_KEYS} (wqsim runs up to {})",
            workqueue_core::limits::MAX_ITEMS
        ),
        line: None,
    })
}

/// Checkpoints a run of `keys` keys may keep: at most [`MAX_CHECKPOINTS`],
/// within [`CHECKPOINT_KEY_BUDGET`] key copies, and always 2 (the start and
/// one more).
pub fn checkpoints_for(keys: usize) -> usize {
    (CHECKPOINT_KEY_BUDGET / keys.max(1)).clamp(2, MAX_CHECKPOINTS)
}

/// Key copies the rewind checkpoints hold (the timeline's memory).
pub fn timeline_keys(cps: &[Manager]) -> usize {
    cps.iter().map(Manager::key_total).sum()
}

/// Drops the checkpoint closest to its predecessor (never the first, the
/// run's start), so the ring stays spread over the timeline.
fn evict_most_crowded(cps: &mut Vec<Manager>) {
    let victim = (1..cps.len()).min_by_key(|&i| (cps[i].now() - cps[i - 1].now(), i));
    if let Some(i) = victim {
        cps.remove(i);
    }
}

#[cfg(test)]
mod tests;
