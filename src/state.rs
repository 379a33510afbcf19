//! The playground's state and its reducer, shared through a context.
//!
//! The simulation sits behind `Rc<RefCell<_>>`: the reducer advances it in
//! place and bumps `rev`, so a frame never clones ten thousand keys. Time
//! moves like a tape: user inputs are recorded with their instant, rewinding
//! restores a checkpoint and replays the tape, and a new input after a
//! rewind cuts off the old future.

use std::cell::RefCell;
use std::rc::Rc;

use workqueue_core::sim::SimEvent;
use workqueue_core::{Input, Manager, Nanos, Scenario, Simulation, SECOND};
use yew::prelude::*;

use crate::lessons;
use crate::pacing::{self, Cue, Pacing};
use crate::provider::Provider;
use crate::settings::Settings;
use crate::share::{self, LessonPosition, Shared};

/// Most work units (instants, keys added, items handed out) per animation
/// frame, shared by everything one frame does; past it, virtual time lags
/// behind the clock rather than freezing the page.
pub const FRAME_BUDGET: u64 = 20_000;
/// Longest real time one tick may account for (a hidden tab's throttled
/// timer must not become a leap).
pub const MAX_TICK_MS: f64 = 250.0;
pub const MIN_SPEED: f64 = 0.01;
pub const MAX_SPEED: f64 = 1000.0;
const CHECKPOINT_EVERY: Nanos = SECOND;
/// Once the ring is full, a new checkpoint (a clone of the whole run) also
/// waits this long in real time, so a large run never pays for one every frame.
const CHECKPOINT_REAL_MS: f64 = 1000.0;
/// Rewind checkpoints kept: a fixed ring, so memory stays flat however long
/// the run; seeking restores the nearest one and replays the rest.
pub const MAX_CHECKPOINTS: usize = 8;
/// Copies of keys the rewind checkpoints may hold in all (keys × checkpoints):
/// a big run keeps fewer checkpoints and replays further, so the timeline's
/// memory does not grow with keys × checkpoints.
pub const CHECKPOINT_KEY_BUDGET: usize = 200_000;
/// Most keys the page runs (the core takes up to a million: `wqsim`).
pub const PAGE_MAX_KEYS: u64 = 100_000;

#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    Info,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
}

pub enum Action {
    /// Real time passed (ms); advances virtual time when playing.
    Tick(f64),
    TogglePlay,
    Play,
    Pause,
    /// Jump to the next event.
    Step,
    /// Back to the previous event in the log.
    StepBack,
    Seek(Nanos),
    SetSpeed(f64),
    /// One step up or down the 1-2-5 speed scale, from the current speed.
    Faster,
    Slower,
    /// Starts over with the same settings and no inputs.
    Restart,
    /// New settings: a new run.
    Apply(Settings),
    Input(Input),
    Select(Option<String>),
    Notify(Option<Notice>),
    /// Open lesson `index` at its first step.
    StartLesson(usize),
    /// Go to a step of the current lesson (replaying its set-up).
    LessonStep(usize),
    ExitLesson,
    /// The next or previous lesson step (keyboard: n / p, PageDown / PageUp).
    LessonNext,
    LessonBack,
    /// Record a prediction and show the core's answer.
    Reveal(String),
    ToggleWorkshop,
    /// Adaptive playback on or off (see [`crate::pacing`]).
    TogglePacing,
    /// Open shared state (a link or an uploaded scenario).
    Load(Box<Shared>),
    /// Run several controllers in one manager (see [`crate::provider`]).
    RunManager(Provider),
    /// Back to the one controller.
    ExitManager,
}

/// Where a lesson is, and what was predicted and answered at each step.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonState {
    pub index: usize,
    pub step: usize,
    /// Per step, the prediction made there (kept when going back and forth).
    pub guesses: Vec<Option<String>>,
    /// Per step, the core's answer: computed once, from the step's own
    /// set-up, when the step is first entered; never recomputed.
    pub answers: Vec<Option<String>>,
}

impl LessonState {
    fn new(index: usize, step: usize, steps: usize) -> LessonState {
        LessonState {
            index,
            step,
            guesses: vec![None; steps],
            answers: vec![None; steps],
        }
    }

    /// The prediction made at the current step, if any.
    pub fn guess(&self) -> Option<&String> {
        self.guesses.get(self.step).and_then(Option::as_ref)
    }

    /// The core's answer to the current step's prediction.
    pub fn answer(&self) -> Option<&String> {
        self.answers.get(self.step).and_then(Option::as_ref)
    }
}

/// How the page was opened (`?embed=1`, `?workshop=1`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Mode {
    pub embed: bool,
    pub workshop: bool,
}

pub struct Playground {
    pub settings: Settings,
    pub scenario: Scenario,
    pub sim: Rc<RefCell<Simulation>>,
    checkpoints: Rc<RefCell<Vec<Simulation>>>,
    /// Every input with its instant, including those ahead of `now` after a rewind.
    tape: Rc<RefCell<Vec<(Nanos, Input)>>>,
    /// The furthest instant reached: the end of the timeline.
    pub horizon: Nanos,
    pub playing: bool,
    pub speed: f64,
    pub selected: Option<String>,
    pub notice: Option<Notice>,
    /// A sentence for the aria-live region, updated on user actions only.
    pub narration: String,
    pub rev: u64,
    /// Real milliseconds played since the last checkpoint.
    real_since_checkpoint: f64,
    /// Adaptive playback (see [`crate::pacing`]), and how the last frame ran.
    pub pacing: Pacing,
    pub effective_speed: f64,
    pub cue: Cue,
    /// A fresh run with nothing scheduled: the clock is waiting for a first key.
    pub idle: bool,
    pub lesson: Option<LessonState>,
    pub mode: Mode,
    /// Several controllers in one manager: the stage shows them side by
    /// side. Time runs forward; a seek rebuilds the run and replays it.
    pub manager: Option<Rc<RefCell<Manager>>>,
    /// The manager form's values.
    pub provider: Provider,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev
    }
}

pub type PlaygroundContext = UseReducerHandle<Playground>;

impl Default for Playground {
    fn default() -> Self {
        let settings = Settings::default();
        let scenario = settings
            .to_scenario()
            .unwrap_or_else(|_| Scenario::new("playground"));
        Playground::with(settings, scenario)
    }
}

impl Playground {
    pub fn with(settings: Settings, scenario: Scenario) -> Playground {
        // The settings were validated; an empty run is the fallback that cannot fail.
        let sim = page_sim(&scenario)
            .or_else(|_| page_sim(&Scenario::new("playground")))
            .expect("the empty scenario is valid");
        // A fresh run with nothing scheduled waits for its first key from
        // the first frame on (not only after a tick noticed it).
        let idle = sim.next_event_at().is_none();
        Playground {
            settings,
            scenario,
            checkpoints: Rc::new(RefCell::new(vec![sim.clone()])),
            sim: Rc::new(RefCell::new(sim)),
            tape: Rc::new(RefCell::new(Vec::new())),
            horizon: 0,
            playing: true,
            speed: 1.0,
            selected: None,
            notice: None,
            narration: String::new(),
            rev: 0,
            real_since_checkpoint: 0.0,
            pacing: Pacing::default(),
            effective_speed: 1.0,
            cue: Cue::Normal,
            idle,
            lesson: None,
            mode: Mode::default(),
            manager: None,
            provider: Provider::default(),
        }
    }

    /// The page's initial state from its URL: `?embed=1&workshop=1&lesson=ID&step=N&autoplay=1`
    /// and a share fragment. A bad link opens the default with a message.
    pub fn from_url(search: &str, hash: &str) -> Playground {
        let param = |name: &str| {
            search
                .trim_start_matches('?')
                .split('&')
                .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        };
        let flag = |name: &str| param(name).is_some_and(|v| v != "0" && v != "false");
        let mode = Mode {
            embed: flag("embed"),
            workshop: flag("workshop"),
        };
        let mut p = match share::decode(hash) {
            Ok(shared) => Playground::from_shared(shared),
            Err(share::ShareError::Empty) => Playground::default(),
            Err(e) => Playground {
                notice: Some(Notice {
                    kind: NoticeKind::Error,
                    text: format!(
                        "This link could not be opened: {e}. Here is a fresh playground instead."
                    ),
                }),
                ..Playground::default()
            },
        };
        p.mode = mode;
        if let Some(id) = param("lesson") {
            match lessons::find(&id) {
                Some((index, lesson)) => {
                    let step: usize = param("step")
                        .and_then(|s| s.parse::<usize>().ok())
                        .unwrap_or(1)
                        .clamp(1, lesson.steps.len())
                        - 1;
                    p.enter_step(index, step);
                }
                None => {
                    p.notice = Some(Notice {
                        kind: NoticeKind::Error,
                        text: format!("There is no lesson {id:?}."),
                    })
                }
            }
        }
        // Embedded and lesson pages start paused unless asked to play.
        if mode.embed || p.lesson.is_some() {
            p.playing = flag("autoplay");
        }
        p
    }

    pub fn from_shared(shared: Shared) -> Playground {
        if let Err(e) = page_limit(&shared.scenario) {
            return Playground {
                notice: Some(Notice {
                    kind: NoticeKind::Error,
                    text: format!("This scenario cannot run here: {e}"),
                }),
                ..Playground::default()
            };
        }
        if shared.scenario.controllers.len() > 1 {
            // A manager file or link: its controllers side by side.
            let mut p = Playground::default();
            if let Ok(mut m) = Manager::new(&shared.scenario) {
                m.run_until(shared.at.min(shared.scenario.duration_ns));
                p.horizon = m.now();
                p.manager = Some(Rc::new(RefCell::new(m)));
            }
            p.playing = false;
            p.selected = shared.selected;
            return p;
        }
        let settings = Settings::from_scenario(&shared.scenario);
        let mut p = Playground::with(settings, shared.scenario);
        p.idle = false; // opened from a link or a file: not a first visit
        *p.tape.borrow_mut() = shared.inputs;
        p.advance_to(shared.at);
        p.playing = false;
        p.selected = shared.selected;
        if let Some(pos) = shared.lesson {
            if let Some((index, lesson)) = lessons::find(&pos.id) {
                let step = pos.step.min(lesson.steps.len().saturating_sub(1));
                let mut ls = LessonState::new(index, step, lesson.steps.len());
                ls.answers[step] = lesson.answer(step);
                p.lesson = Some(ls);
            }
        }
        p
    }

    /// The scenario on the stage: the manager's, or the one controller's.
    pub fn current_scenario(&self) -> Scenario {
        match &self.manager {
            Some(m) => m.borrow().scenario().clone(),
            None => self.scenario.clone(),
        }
    }

    /// Everything needed to reopen exactly this view.
    pub fn shared(&self) -> Shared {
        Shared {
            scenario: self.current_scenario(),
            // A manager run has no taped inputs: its scenario is all of it.
            inputs: match self.manager {
                Some(_) => Vec::new(),
                None => self
                    .tape()
                    .into_iter()
                    .filter(|(at, _)| *at <= self.now())
                    .collect(),
            },
            at: self.now(),
            lesson: self.lesson.as_ref().map(|l| LessonPosition {
                id: lessons::all()[l.index].id.to_string(),
                step: l.step,
            }),
            selected: self.selected.clone(),
        }
    }

    /// Moves a lesson to `step`, rebuilding the run from the nearest step at
    /// or before it that sets one up, so "back" is exact.
    pub fn enter_step(&mut self, index: usize, step: usize) {
        let all = lessons::all();
        let Some(lesson) = all.get(index) else { return };
        self.idle = false; // a lesson's scene is never a first visit
        let step = step.min(lesson.steps.len().saturating_sub(1));
        let here = self.lesson.as_ref().is_some_and(|l| l.index == index);
        let from = (0..=step).rev().find(|i| lesson.steps[*i].setup.is_some());
        let rebuild = match from {
            Some(i) => {
                !here
                    || i == step
                    || self
                        .lesson
                        .as_ref()
                        .is_some_and(|l| l.step > step || l.step < i)
            }
            None => false,
        };
        if let (true, Some(i)) = (rebuild, from) {
            let setup = lesson.steps[i].setup.as_ref().expect("found above");
            if let Ok(scenario) = setup.settings.to_scenario() {
                let mut fresh = Playground::with(setup.settings.clone(), scenario);
                for input in &setup.inputs {
                    fresh.record(input.clone());
                }
                for (at, input) in &setup.later {
                    fresh.advance_to(*at);
                    fresh.record(input.clone());
                }
                fresh.advance_to(setup.run_to);
                fresh.selected = setup.inputs.iter().rev().find_map(|i| match i {
                    Input::Add { key } => Some(key.clone()),
                    _ => None,
                });
                self.settings = fresh.settings;
                self.scenario = fresh.scenario;
                self.sim = fresh.sim;
                self.checkpoints = fresh.checkpoints;
                self.tape = fresh.tape;
                self.horizon = fresh.horizon;
                self.selected = fresh.selected;
            }
        }
        self.playing = false;
        let mut ls = match self.lesson.take() {
            Some(mut l) if l.index == index => {
                l.step = step;
                l
            }
            _ => LessonState::new(index, step, lesson.steps.len()),
        };
        if ls.answers[step].is_none() {
            ls.answers[step] = lesson.answer(step);
        }
        self.lesson = Some(ls);
    }

    /// One pass over instant `at` (with pacing: one hop per frame). A taped
    /// input due then is applied the ordinary way instead.
    fn one_pass(&mut self, at: Nanos) {
        let due = self.sim.borrow().next_event_at() == Some(at);
        if due {
            self.sim.borrow_mut().step();
            self.horizon = self.horizon.max(at);
            self.checkpoint();
        } else {
            self.advance_to(at);
        }
        self.pacing.landed();
    }

    /// The next instant something happens: an event of the run, or a taped
    /// input ahead of the clock (after a rewind).
    pub fn next_instant(&self) -> Option<Nanos> {
        let sim = self.sim.borrow();
        let at = sim.next_event_at();
        let taped = self
            .tape
            .borrow()
            .get(sim.inputs().len())
            .map(|(at, _)| *at);
        match (at, taped) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the lesson may move on from its current step (the keyboard
    /// shortcuts ask this; the lesson panel asks [`Playground::step_done`]
    /// with the step it already has).
    pub fn can_advance(&self) -> bool {
        let Some(l) = &self.lesson else { return false };
        let all = lessons::all();
        all.get(l.index)
            .and_then(|x| x.steps.get(l.step))
            .is_some_and(|step| self.step_done(step))
    }

    /// The one rule for leaving a lesson step, for the Next buttons and the
    /// keys alike: what the step waits for has happened, and its prediction
    /// was made.
    pub fn step_done(&self, step: &lessons::Step) -> bool {
        let waited = step.wait.as_ref().is_none_or(|w| w.met(&self.sim.borrow()));
        let predicted =
            step.predict.is_none() || self.lesson.as_ref().is_some_and(|l| l.guess().is_some());
        waited && predicted
    }

    pub fn now(&self) -> Nanos {
        match &self.manager {
            Some(m) => m.borrow().now(),
            None => self.sim.borrow().now(),
        }
    }

    /// The rewind checkpoints held (for the soak benchmark's memory figures).
    pub fn checkpoints(&self) -> std::cell::Ref<'_, Vec<Simulation>> {
        self.checkpoints.borrow()
    }

    /// Inputs recorded so far (for sharing and export).
    pub fn tape(&self) -> Vec<(Nanos, Input)> {
        self.tape.borrow().clone()
    }

    fn next(&self) -> Playground {
        Playground {
            settings: self.settings.clone(),
            scenario: self.scenario.clone(),
            sim: self.sim.clone(),
            checkpoints: self.checkpoints.clone(),
            tape: self.tape.clone(),
            horizon: self.horizon,
            playing: self.playing,
            speed: self.speed,
            selected: self.selected.clone(),
            notice: self.notice.clone(),
            narration: self.narration.clone(),
            rev: self.rev + 1,
            real_since_checkpoint: self.real_since_checkpoint,
            pacing: self.pacing,
            effective_speed: self.effective_speed,
            cue: self.cue,
            idle: self.idle,
            lesson: self.lesson.clone(),
            mode: self.mode,
            manager: self.manager.clone(),
            provider: self.provider.clone(),
        }
    }

    /// Rebuilds the manager run and plays it to `t` (it is small: a few
    /// thousand keys replay in milliseconds).
    fn seek_manager(&mut self, t: Nanos) {
        let Some(m) = &self.manager else { return };
        let scenario = m.borrow().scenario().clone();
        if let Ok(mut fresh) = Manager::new(&scenario) {
            fresh.run_until(t.min(scenario.duration_ns));
            self.manager = Some(Rc::new(RefCell::new(fresh)));
        }
    }

    /// One frame of a manager run: forward at the chosen speed.
    fn tick_manager(&mut self, real_ms: f64) {
        let Some(m) = self.manager.clone() else {
            return;
        };
        let (now, end, stalled) = {
            let mut m = m.borrow_mut();
            let end = m.scenario().duration_ns;
            let target = m
                .now()
                .saturating_add(pacing::virtual_step(real_ms, self.speed))
                .min(end);
            // A frame's worth of work at most: a big manager lags, never freezes.
            m.run_until_bounded(target, FRAME_BUDGET);
            let stalled = m
                .controllers()
                .find_map(|(_, c)| c.stalled().map(str::to_string));
            (m.now(), end, stalled)
        };
        self.horizon = self.horizon.max(now);
        self.effective_speed = self.speed;
        self.cue = Cue::Normal;
        if now >= end {
            self.playing = false;
        }
        if let Some(reason) = stalled {
            self.playing = false;
            self.notice = Some(Notice {
                kind: NoticeKind::Error,
                text: format!("Paused: {reason}"),
            });
        }
    }

    /// Advances to `target`, replaying taped inputs on the way. Returns
    /// whether the target was reached within the frame budget.
    fn advance_to(&mut self, target: Nanos) -> bool {
        let mut sim = self.sim.borrow_mut();
        let tape = self.tape.borrow();
        let mut reached = true;
        let mut budget = FRAME_BUDGET;
        let applied = sim.inputs().len();
        for (at, input) in tape.iter().skip(applied) {
            if *at > target {
                break;
            }
            let done = sim.run_until_bounded(*at, budget);
            budget = sim.budget_left();
            if !done || budget == 0 {
                reached = false;
                break;
            }
            // A taped input already passed validation once; a failure now means
            // the run diverged, which replay makes impossible. Report, don't panic.
            if let Err(e) = sim.apply(input.clone()) {
                self.notice = Some(Notice {
                    kind: NoticeKind::Error,
                    text: e.to_string(),
                });
            }
        }
        if reached {
            reached = sim.run_until_bounded(target, budget);
        }
        let now = sim.now();
        drop(sim);
        drop(tape);
        self.horizon = self.horizon.max(now);
        self.checkpoint();
        reached
    }

    fn checkpoint(&mut self) {
        let sim = self.sim.borrow();
        let mut cps = self.checkpoints.borrow_mut();
        let last = cps.last().map_or(0, |c| c.now());
        let full = cps.len() >= checkpoints_for(sim.queue().keys().len());
        let real_ok = !self.playing || !full || self.real_since_checkpoint >= CHECKPOINT_REAL_MS;
        if sim.now() >= last + CHECKPOINT_EVERY && real_ok {
            self.real_since_checkpoint = 0.0;
            // Make room first: the peak is the ring, never the ring plus one
            // (wasm memory, once grown, is never given back).
            while cps.len() >= checkpoints_for(sim.queue().keys().len()) && cps.len() > 1 {
                evict_most_crowded(&mut cps);
            }
            cps.push(sim.clone());
        }
    }

    fn seek(&mut self, t: Nanos) {
        let t = t.max(0);
        if t >= self.now() {
            self.advance_to(t);
            return;
        }
        let restored = {
            let cps = self.checkpoints.borrow();
            cps.iter().rev().find(|c| c.now() <= t).cloned()
        };
        let base =
            restored.unwrap_or_else(|| page_sim(&self.scenario).expect("validated scenario"));
        // Drop checkpoints from the future we are leaving only when it changes
        // (a new input); until then they stay valid for seeking forward.
        *self.sim.borrow_mut() = base;
        self.advance_to(t);
    }

    fn record(&mut self, input: Input) {
        let now = self.now();
        {
            let mut tape = self.tape.borrow_mut();
            tape.retain(|(at, _)| *at <= now);
            let applied = self.sim.borrow().inputs().len();
            tape.truncate(applied);
        }
        // The old future is gone: so are its checkpoints.
        self.checkpoints.borrow_mut().retain(|c| c.now() <= now);
        self.horizon = now;
        let result = self.sim.borrow_mut().apply(input.clone());
        match result {
            Ok(()) => {
                self.tape.borrow_mut().push((now, input));
                self.narration = self.narrate();
            }
            Err(e) => {
                self.notice = Some(Notice {
                    kind: NoticeKind::Error,
                    text: e.to_string(),
                })
            }
        }
    }

    /// The latest reconcile result, in words.
    fn narrate(&self) -> String {
        let sim = self.sim.borrow();
        let entry = sim.log().iter().rev().find(|e| {
            matches!(
                e.event,
                SimEvent::ReconcileEnd { .. }
                    | SimEvent::AwaitingDecision { .. }
                    | SimEvent::GaveUp { .. }
            )
        });
        entry.map(|e| sim.describe(e)).unwrap_or_default()
    }
}

/// Drops the checkpoint closest to its predecessor (never the first, the
/// run's start), so the ring stays spread over the timeline.
/// A run of the page: the core's, under the page's key limit.
fn page_sim(scenario: &Scenario) -> Result<Simulation, workqueue_core::ScenarioError> {
    page_limit(scenario)?;
    let mut sim = Simulation::new(scenario)?;
    sim.set_key_limit(PAGE_MAX_KEYS);
    Ok(sim)
}

/// The page's limit on a scenario's keys (a manager's, all controllers').
fn page_limit(scenario: &Scenario) -> Result<(), workqueue_core::ScenarioError> {
    let keys = scenario.key_count();
    if keys <= PAGE_MAX_KEYS {
        return Ok(());
    }
    Err(workqueue_core::ScenarioError {
        field: "items".into(),
        reason: format!(
            "{keys} keys is too many for the page: at most {PAGE_MAX_KEYS} (wqsim runs up to {})",
            workqueue_core::validate::MAX_ITEMS
        ),
    })
}

/// Checkpoints a run of `keys` keys may keep: at most [`MAX_CHECKPOINTS`],
/// within [`CHECKPOINT_KEY_BUDGET`] key copies, and always 2 (the start and
/// one more).
pub fn checkpoints_for(keys: usize) -> usize {
    (CHECKPOINT_KEY_BUDGET / keys.max(1)).clamp(2, MAX_CHECKPOINTS)
}

/// Key copies the rewind checkpoints hold (the timeline's memory).
pub fn timeline_keys(cps: &[Simulation]) -> usize {
    cps.iter().map(|c| c.queue().keys().len()).sum()
}

fn evict_most_crowded(cps: &mut Vec<Simulation>) {
    let victim = (1..cps.len()).min_by_key(|&i| (cps[i].now() - cps[i - 1].now(), i));
    if let Some(i) = victim {
        cps.remove(i);
    }
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = self.next();
        match action {
            Action::Tick(real_ms) => {
                if !self.playing {
                    return self;
                }
                let real_ms = real_ms.clamp(0.0, MAX_TICK_MS);
                if next.manager.is_some() {
                    next.tick_manager(real_ms);
                    return Rc::new(next);
                }
                next.real_since_checkpoint += real_ms;
                let (now, upcoming, in_motion, sources_only) = {
                    let sim = next.sim.borrow();
                    let q = sim.queue();
                    let in_motion = q.len() + q.waiting_len() + q.processing_count();
                    (
                        sim.now(),
                        next.next_instant(),
                        in_motion,
                        sim.next_is_sources_only(),
                    )
                };
                // A fresh run with nothing to do: the clock waits for the
                // first key instead of counting up an empty stage.
                next.idle = now == 0
                    && upcoming.is_none()
                    && in_motion == 0
                    && next.sim.borrow().inputs().is_empty();
                if next.idle {
                    return Rc::new(next);
                }
                let frame =
                    next.pacing
                        .frame(self.speed, now, upcoming, in_motion, real_ms, sources_only);
                match frame {
                    pacing::Frame::Hold => {}
                    pacing::Frame::Pass => next.one_pass(now),
                    pacing::Frame::Run { speed, cue, land } => {
                        next.effective_speed = speed;
                        next.cue = cue;
                        let target = now.saturating_add(pacing::virtual_step(real_ms, speed));
                        match upcoming {
                            // Land on the event and show its first pass alone.
                            Some(at)
                                if land
                                    && at <= target
                                    && next.sim.borrow().next_event_at() == Some(at) =>
                            {
                                next.advance_to(at - 1);
                                next.one_pass(at);
                            }
                            _ => {
                                next.advance_to(target);
                            }
                        }
                    }
                }
                if let Some(reason) = next.sim.borrow().stalled() {
                    next.playing = false;
                    next.notice = Some(Notice {
                        kind: NoticeKind::Error,
                        text: format!("Paused: {reason}"),
                    });
                }
            }
            Action::Seek(t) if next.manager.is_some() => next.seek_manager(t),
            Action::Step if next.manager.is_some() => {
                next.playing = false;
                let upcoming = next
                    .manager
                    .as_ref()
                    .and_then(|m| m.borrow().next_event_at());
                if let Some(t) = upcoming {
                    next.seek_manager(t.max(next.now()));
                }
            }
            Action::StepBack if next.manager.is_some() => {
                next.playing = false;
                let back = next.now().saturating_sub(100 * workqueue_core::MILLISECOND);
                next.seek_manager(back);
            }
            Action::Restart if next.manager.is_some() => {
                next.seek_manager(0);
                next.horizon = 0;
            }
            Action::RunManager(provider) => match provider
                .to_scenario()
                .and_then(|s| Manager::new(&s).map_err(|e| e.to_string()))
            {
                Ok(m) => {
                    next.manager = Some(Rc::new(RefCell::new(m)));
                    next.provider = provider;
                    next.horizon = 0;
                    next.playing = true;
                    next.idle = false;
                    next.selected = None;
                    next.notice = Some(Notice {
                        kind: NoticeKind::Info,
                        text: "A manager: its controllers side by side, sharing what they share."
                            .into(),
                    });
                }
                Err(text) => {
                    next.notice = Some(Notice {
                        kind: NoticeKind::Error,
                        text,
                    })
                }
            },
            Action::ExitManager => {
                next.manager = None;
                next.horizon = next.sim.borrow().now();
            }
            Action::TogglePlay => next.playing = !next.playing,
            Action::Play => next.playing = true,
            Action::Pause => next.playing = false,
            Action::Step => {
                next.playing = false;
                match next.next_instant() {
                    Some(t) => {
                        next.advance_to(t);
                        next.narration = next.narrate();
                    }
                    None => {
                        next.notice = Some(Notice {
                            kind: NoticeKind::Info,
                            text: "Nothing is scheduled: add a key to see something happen.".into(),
                        })
                    }
                }
            }
            Action::StepBack => {
                next.playing = false;
                let now = next.now();
                let prev = next
                    .sim
                    .borrow()
                    .log()
                    .iter()
                    .rev()
                    .map(|e| e.at)
                    .find(|at| *at < now);
                next.seek(prev.unwrap_or(0));
                next.narration = next.narrate();
            }
            Action::Seek(t) => next.seek(t),
            Action::SetSpeed(s) => next.speed = s.clamp(MIN_SPEED, MAX_SPEED),
            Action::Faster => next.speed = crate::hooks::speed_step(next.speed, true),
            Action::Slower => next.speed = crate::hooks::speed_step(next.speed, false),
            Action::Restart => {
                let mut fresh = Playground::with(next.settings.clone(), next.scenario.clone());
                fresh.rev = next.rev;
                fresh.speed = next.speed;
                fresh.playing = next.playing;
                fresh.mode = next.mode;
                return Rc::new(fresh);
            }
            Action::Apply(settings) => match settings.to_scenario() {
                Ok(scenario) => {
                    let mut fresh = Playground::with(settings, scenario);
                    fresh.rev = next.rev;
                    fresh.speed = next.speed;
                    fresh.playing = next.playing;
                    fresh.notice = Some(Notice {
                        kind: NoticeKind::Info,
                        text: "New settings applied: the run starts over.".into(),
                    });
                    return Rc::new(fresh);
                }
                Err(errors) => {
                    let text = errors
                        .iter()
                        .map(|(f, e)| format!("{}: {e}", f.label()))
                        .collect::<Vec<_>>()
                        .join("; ");
                    next.notice = Some(Notice {
                        kind: NoticeKind::Error,
                        text,
                    });
                }
            },
            Action::Input(input) => {
                if let Input::Add { key } | Input::Decide { key, .. } = &input {
                    next.selected = Some(key.clone());
                }
                next.record(input);
                next.idle = false; // something happened
            }
            Action::Select(key) => next.selected = key,
            Action::Notify(n) => next.notice = n,
            Action::StartLesson(index) => next.enter_step(index, 0),
            Action::LessonStep(step) => {
                if let Some(index) = next.lesson.as_ref().map(|l| l.index) {
                    next.enter_step(index, step);
                }
            }
            Action::ExitLesson => next.lesson = None,
            Action::LessonNext | Action::LessonBack => {
                if let Some(l) = next.lesson.clone() {
                    let forward = matches!(action, Action::LessonNext);
                    if forward && !next.can_advance() {
                        next.notice = Some(Notice {
                            kind: NoticeKind::Info,
                            text: "Not yet: this step is waiting for something, or for your prediction.".into(),
                        });
                        return Rc::new(next);
                    }
                    let count = lessons::all().get(l.index).map_or(0, |x| x.steps.len());
                    if forward && l.step + 1 < count {
                        next.enter_step(l.index, l.step + 1);
                    } else if forward && l.index + 1 < lessons::all().len() {
                        next.enter_step(l.index + 1, 0);
                    } else if !forward && l.step > 0 {
                        next.enter_step(l.index, l.step - 1);
                    }
                }
            }
            Action::Reveal(guess) => {
                if let Some(l) = &mut next.lesson {
                    let step = l.step;
                    if let Some(g) = l.guesses.get_mut(step) {
                        g.get_or_insert(guess);
                    }
                }
            }
            Action::ToggleWorkshop => next.mode.workshop = !next.mode.workshop,
            Action::TogglePacing => {
                next.pacing.on = !next.pacing.on;
                next.pacing.reset();
            }
            Action::Load(shared) => {
                let mode = next.mode;
                let mut fresh = Playground::from_shared(*shared);
                fresh.rev = next.rev;
                fresh.mode = mode;
                fresh.speed = next.speed;
                fresh.notice = Some(Notice {
                    kind: NoticeKind::Info,
                    text: "Scenario loaded.".into(),
                });
                return Rc::new(fresh);
            }
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::{Outcome, MILLISECOND};

    fn reduce(p: Rc<Playground>, a: Action) -> Rc<Playground> {
        p.reduce(a)
    }

    #[test]
    fn a_paused_tick_changes_nothing_and_a_hidden_tab_cannot_leap() {
        let p = Rc::new(Playground::default());
        let p = reduce(p, Action::Pause);
        let rev = p.rev;
        let p = reduce(p, Action::Tick(16.0));
        assert_eq!((p.rev, p.now()), (rev, 0));
        let p = reduce(p, Action::TogglePlay);
        let p = reduce(p, Action::TogglePacing);
        let p = reduce(p, Action::Input(Input::Add { key: "k".into() }));
        let p = reduce(p, Action::Tick(60_000.0));
        assert_eq!(p.now(), (MAX_TICK_MS * 1e6) as Nanos);
    }

    #[test]
    fn a_first_visit_waits_for_the_first_key() {
        let mut p = Rc::new(Playground::default());
        for _ in 0..30 {
            p = reduce(p, Action::Tick(16.7));
        }
        assert_eq!(p.now(), 0, "no clock running while nothing happens");
        assert!(p.idle);
        p = reduce(p, Action::Input(Input::Add { key: "k".into() }));
        for _ in 0..30 {
            p = reduce(p, Action::Tick(16.7));
        }
        assert!(p.now() > 0 && !p.idle, "time runs once something happened");
    }

    #[test]
    fn rewinding_and_replaying_gives_the_same_run() {
        let mut p = Rc::new(Playground::default());
        p = reduce(p, Action::Input(Input::Add { key: "ns/a".into() }));
        for _ in 0..20 {
            p = reduce(p, Action::Step);
            let waiting =
                p.sim.borrow().workers().iter().any(|w| {
                    matches!(w, workqueue_core::sim::WorkerState::AwaitingDecision { .. })
                });
            if waiting {
                p = reduce(
                    p,
                    Action::Input(Input::Decide {
                        key: "ns/a".into(),
                        outcome: Outcome::Error,
                    }),
                );
            }
        }
        let end = p.now();
        let log_then: Vec<String> = {
            let s = p.sim.borrow();
            s.log().iter().map(|e| s.describe(e)).collect()
        };
        p = reduce(p, Action::Seek(3 * MILLISECOND));
        assert!(p.now() == 3 * MILLISECOND);
        p = reduce(p, Action::Seek(end));
        let log_now: Vec<String> = {
            let s = p.sim.borrow();
            s.log().iter().map(|e| s.describe(e)).collect()
        };
        assert_eq!(log_then, log_now);
    }

    #[test]
    fn a_share_link_reopens_exactly_what_was_shared() {
        let mut p = Rc::new(Playground::default());
        p = reduce(p, Action::Input(Input::Add { key: "ns/a".into() }));
        p = reduce(p, Action::Step);
        p = reduce(
            p,
            Action::Input(Input::Decide {
                key: "ns/a".into(),
                outcome: Outcome::Error,
            }),
        );
        p = reduce(p, Action::Step);
        let link = share::encode(&p.shared());
        let q = Playground::from_url("", &format!("#{link}"));
        assert_eq!(q.now(), p.now());
        assert_eq!(q.sim.borrow().digest(), p.sim.borrow().digest());
        assert_eq!(q.selected, p.selected);
        let bad = Playground::from_url("", "#v1.@@@");
        assert!(matches!(
            bad.notice,
            Some(Notice {
                kind: NoticeKind::Error,
                ..
            })
        ));
        assert_eq!(bad.now(), 0);
    }

    #[test]
    fn a_revealed_answer_never_shifts_and_back_keeps_predictions() {
        // The max-of lesson: the answer (160ms) depends on the run, which
        // moves on when the step is played.
        let mut p = Rc::new(Playground::from_url("?lesson=max-of&step=1", ""));
        let answer = p.lesson.as_ref().unwrap().answer().cloned();
        assert_eq!(answer.as_deref(), Some("160ms"));
        p = reduce(p, Action::LessonNext);
        assert_eq!(
            p.lesson.as_ref().unwrap().step,
            0,
            "n cannot skip a prediction"
        );
        p = reduce(p, Action::Reveal("0.16s".into()));
        for _ in 0..5 {
            p = reduce(p, Action::Step);
        }
        p = reduce(p, Action::TogglePlay);
        p = reduce(p, Action::Tick(200.0));
        let l = p.lesson.as_ref().unwrap();
        assert_eq!(
            l.answer().cloned(),
            answer,
            "unchanged after stepping and playing"
        );
        assert!(lessons::same_answer(
            l.guess().unwrap(),
            l.answer().unwrap(),
            0.0
        ));

        let mut p = Rc::new(Playground::from_url("?lesson=backoff&step=1", ""));
        p = reduce(p, Action::Reveal("7".into()));
        p = reduce(p, Action::LessonNext);
        assert_eq!(p.lesson.as_ref().unwrap().step, 1);
        p = reduce(p, Action::LessonBack);
        let l = p.lesson.as_ref().unwrap();
        assert_eq!(
            (l.step, l.guess().map(String::as_str)),
            (0, Some("7")),
            "back keeps the prediction"
        );
    }

    #[test]
    fn at_1x_a_failing_keys_5ms_backoff_is_on_screen_for_over_half_a_second() {
        let mut settings = Settings::default();
        settings.script = crate::settings::ScriptChoice::AlwaysError;
        settings.set(crate::settings::Field::Reconcile, "0s".into());
        let scenario = settings.to_scenario().unwrap();
        let mut p = Rc::new(Playground::with(settings, scenario));
        p = reduce(p, Action::Input(Input::Add { key: "ns/a".into() }));
        // 60 Hz frames; count the frames in which ns/a sits in the waiting
        // heap with its first (5ms) backoff.
        let mut frames_waiting_5ms = 0;
        for _ in 0..120 {
            p = reduce(p, Action::Tick(1000.0 / 60.0));
            let sim = p.sim.borrow();
            let id = sim.find("ns/a").unwrap();
            let first = sim.item(id).retries.total() == 1;
            if first && sim.queue().waiting_until(id).is_some() {
                frames_waiting_5ms += 1;
            }
        }
        assert!(
            frames_waiting_5ms >= 36,
            "visible for {frames_waiting_5ms} frames"
        );
        assert_eq!(p.cue, Cue::SlowMotion);
        assert!(
            p.sim.borrow().now() < 100 * MILLISECOND,
            "slow motion, not a leap"
        );
    }

    #[test]
    fn the_checkpoint_ring_stays_bounded_and_spread_and_seeks_exactly() {
        let mut p = Rc::new(Playground::default());
        p = reduce(
            p,
            Action::Input(Input::AddMany {
                prefix: "ns/p-".into(),
                count: 50,
            }),
        );
        p = reduce(p, Action::SetSpeed(100.0));
        for _ in 0..600 {
            p = reduce(p, Action::Tick(250.0));
        }
        let times: Vec<Nanos> = p.checkpoints().iter().map(|c| c.now()).collect();
        assert_eq!(times.len(), MAX_CHECKPOINTS, "{times:?}");
        assert_eq!(times[0], 0, "the start is always kept");
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
        let end = p.now();
        assert!(
            times[1] < end / 2,
            "spread over the timeline, not bunched at the end: {times:?}"
        );
        let digest = p.sim.borrow().digest();
        p = reduce(p, Action::Seek(end / 3));
        p = reduce(p, Action::Seek(end));
        assert_eq!(p.sim.borrow().digest(), digest);
    }

    #[test]
    fn the_timeline_keeps_fewer_checkpoints_for_bigger_runs() {
        assert_eq!(checkpoints_for(0), MAX_CHECKPOINTS);
        assert_eq!(checkpoints_for(10_000), MAX_CHECKPOINTS);
        assert_eq!(checkpoints_for(100_000), 2);
        // 100,000 failing keys: the timeline holds at most the budget.
        let mut s =
            Scenario::failing_keys(workqueue_core::LimiterConfig::DefaultController, 100_000);
        s.duration_ns = 600 * SECOND;
        let mut p = Playground::with(Settings::default(), s);
        for t in 1..=5 {
            // Frame by frame, as the page does (each frame has a budget).
            while !p.advance_to(t * 2 * SECOND) {}
            p.real_since_checkpoint = CHECKPOINT_REAL_MS;
            p.checkpoint();
        }
        let held = timeline_keys(&p.checkpoints());
        assert!(held <= CHECKPOINT_KEY_BUDGET, "{held} key copies");
        assert!(p.checkpoints().len() >= 2);
    }

    #[test]
    fn a_scenario_too_big_for_the_page_is_refused_by_name() {
        let s = Scenario::failing_keys(workqueue_core::LimiterConfig::DefaultController, 200_000);
        let shared = Shared {
            scenario: s,
            inputs: Vec::new(),
            at: 0,
            lesson: None,
            selected: None,
        };
        let p = Playground::from_shared(shared);
        let text = p.notice.map(|n| n.text).unwrap_or_default();
        assert!(
            text.contains("items: 200000 keys is too many for the page: at most 100000"),
            "{text}"
        );
        assert_eq!(
            p.sim.borrow().queue().keys().len(),
            0,
            "a working default instead"
        );
    }

    #[test]
    fn the_herd_lessons_link_is_shorter_than_in_the_first_format() {
        let p = Playground::from_url("?lesson=herd&step=1", "");
        let shared = p.shared();
        let v2 = share::encode(&shared);
        let v1 = format!(
            "v1.{}",
            base64::Engine::encode(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                serde_json::to_string(&shared).unwrap()
            )
        );
        println!(
            "herd lesson link: v1 {} chars, v2 {} chars",
            v1.len(),
            v2.len()
        );
        assert!(v2.len() < v1.len(), "{} vs {}", v2.len(), v1.len());
        let q = Playground::from_url("", &format!("#{v1}"));
        assert_eq!(q.sim.borrow().digest(), p.sim.borrow().digest());
    }

    #[test]
    fn lessons_open_from_the_url_and_step_back_exactly() {
        let p = Playground::from_url("?embed=1&lesson=herd&step=2", "");
        assert!(p.mode.embed && !p.playing);
        assert_eq!(p.lesson.as_ref().map(|l| (l.index, l.step)), Some((3, 1)));
        let mut p = Rc::new(Playground::from_url("?lesson=results", ""));
        let first = p.sim.borrow().digest();
        p = reduce(
            p,
            Action::Input(Input::Decide {
                key: "default/web-1".into(),
                outcome: Outcome::Error,
            }),
        );
        p = reduce(p, Action::LessonStep(1));
        p = reduce(p, Action::LessonStep(0));
        assert_eq!(
            p.sim.borrow().digest(),
            first,
            "back replays the step's set-up"
        );
    }

    #[test]
    fn invalid_settings_leave_the_run_alone() {
        let p = Rc::new(Playground::default());
        let p = reduce(p, Action::Input(Input::Add { key: "k".into() }));
        let mut bad = Settings::default();
        bad.set(crate::settings::Field::Burst, "-1".into());
        let p = reduce(p, Action::Apply(bad));
        assert!(matches!(
            p.notice,
            Some(Notice {
                kind: NoticeKind::Error,
                ..
            })
        ));
        assert!(p.sim.borrow().find("k").is_some(), "the run was kept");
    }
}
