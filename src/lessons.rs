//! Guided lessons. Each step may set up a fresh, deterministic run (so going
//! back a step replays it exactly), may wait for something to happen in the
//! simulation before "Next" opens, and may ask for a prediction whose answer
//! the core computes once, from a fresh replay of the step's own set-up, so
//! it never depends on what was played since and never changes once shown.

use workqueue_core::controller::{Outcome, Script};
use workqueue_core::sim::WorkerState;
use workqueue_core::{Input, Nanos, ResultLabel, Simulation, MILLISECOND, SECOND};

use crate::format;
use crate::provider::Provider;
use crate::settings::{Field, Preset, ScriptChoice, Settings};
use workqueue_core::sim::SimEvent;
use workqueue_core::Manager;
use workqueue_core::QueueKind;

#[derive(Clone)]
pub struct Lesson {
    pub id: &'static str,
    pub title: &'static str,
    pub steps: Vec<Step>,
}

/// A part of the stage a step talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Sources,
    Queue,
    Workers,
    Waiting,
    Bucket,
    /// A manager's controllers side by side, with what they share.
    Manager,
}

impl Lane {
    /// The stage's name for the lane (its `data-lane`).
    pub fn id(self) -> &'static str {
        match self {
            Lane::Sources => "sources",
            Lane::Queue => "queue",
            Lane::Workers => "workers",
            Lane::Waiting => "waiting",
            Lane::Bucket => "bucket",
            Lane::Manager => "manager",
        }
    }
}

/// What a step is about: the lanes the stage shows in full where space is
/// short (a projector, an embed), and the key its text follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Focus {
    pub lanes: &'static [Lane],
    pub key: Option<&'static str>,
}

#[derive(Clone)]
pub struct Step {
    pub title: &'static str,
    pub focus: Focus,
    pub text: &'static str,
    pub setup: Option<Setup>,
    pub wait: Option<Wait>,
    pub predict: Option<Predict>,
    /// What the step asks you to do, as a button in the lesson itself (so
    /// it works in workshop mode and embeds, where the forms are hidden).
    pub act: Option<Act>,
    /// Something the text refers to that the stage does not show.
    pub show: Option<Show>,
}

#[derive(Clone)]
pub struct Act {
    pub label: &'static str,
    pub inputs: Vec<Input>,
    /// Runs several controllers in one manager instead.
    pub provider: Option<fn() -> Provider>,
}

/// Extra pictures a step brings into the lesson panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// The same 10,000 failing keys under three limiters, side by side.
    CompareLimiters,
}

/// A fresh run: settings, inputs applied at t=0, `later` inputs at their
/// instants, then run to `run_to`, paused.
#[derive(Clone)]
pub struct Setup {
    pub settings: Settings,
    pub inputs: Vec<Input>,
    pub later: Vec<(Nanos, Input)>,
    pub run_to: Nanos,
}

/// What must happen before the lesson moves on.
#[derive(Clone)]
pub enum Wait {
    /// A worker holds this key and waits for you to choose a result.
    Deciding(&'static str),
    /// At least `n` reconciles ended with this result label.
    Results(ResultLabel, u64),
    /// Virtual time reached this instant.
    Time(Nanos),
}

#[derive(Clone)]
pub struct Predict {
    pub question: &'static str,
    pub unit: &'static str,
    /// The answer, computed by the core from the step's set-up.
    pub answer: fn(&Simulation) -> String,
    /// How far off a guess may be and still count, as a fraction of the
    /// answer (0 for an exact question; "about" questions state theirs).
    pub tolerance: f64,
}

impl Setup {
    /// The scene this set-up describes, built exactly as the playground
    /// builds it (inputs at t=0, later inputs at their instants).
    /// Runs on the page's engine; the answers read its controller.
    pub fn run(&self) -> Option<Simulation> {
        let mut run = Manager::new(&self.settings.to_scenario().ok()?).ok()?;
        for input in &self.inputs {
            run.apply(0, input.clone()).ok()?;
        }
        for (at, input) in &self.later {
            run.run_until(*at);
            run.apply(0, input.clone()).ok()?;
        }
        run.run_until(self.run_to);
        run.controller(0).cloned()
    }
}

impl Lesson {
    /// The answer to step `step`'s prediction, from the nearest set-up at or
    /// before it: the same whatever was played, however often it is asked.
    pub fn answer(&self, step: usize) -> Option<String> {
        let predict = self.steps.get(step)?.predict.as_ref()?;
        let setup = (0..=step)
            .rev()
            .find_map(|i| self.steps[i].setup.as_ref())?;
        Some((predict.answer)(&setup.run()?))
    }
}

/// Whether a guess matches an answer by value: durations in any unit
/// (`1000s` = `16m40s`, `0.1s` = `100ms`), numbers with or without thousands
/// separators, within `tolerance` (a fraction of the answer); other text
/// compares without case or spaces.
pub fn same_answer(guess: &str, answer: &str, tolerance: f64) -> bool {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != ',' && *c != '_')
            .collect::<String>()
            // Units and numbers are ASCII: no Unicode case tables needed.
            .to_ascii_lowercase()
    };
    let (g, a) = (clean(guess), clean(answer));
    if g.is_empty() {
        return false;
    }
    let close = |g: f64, a: f64| (g - a).abs() <= tolerance * a.abs();
    if let (Ok(g), Ok(a)) = (
        workqueue_core::parse_go_duration(&g),
        workqueue_core::parse_go_duration(&a),
    ) {
        return close(g as f64, a as f64);
    }
    let number = |s: &str| -> Option<f64> {
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(s.len());
        s[..end].parse::<f64>().ok().filter(|x| x.is_finite())
    };
    match (number(&g), number(&a)) {
        (Some(g), Some(a)) => close(g, a),
        _ => g == a,
    }
}

impl Wait {
    pub fn met(&self, sim: &Simulation) -> bool {
        match self {
            Wait::Deciding(key) => sim.workers().iter().any(|w| matches!(w, WorkerState::AwaitingDecision { item, .. } if sim.key(*item) == *key)),
            Wait::Results(label, n) => sim.controller_metrics().total(*label) >= *n,
            Wait::Time(t) => sim.now() >= *t,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Wait::Deciding(key) => format!("Waiting until a worker asks you about {key}"),
            Wait::Results(label, n) => format!(
                "Waiting for {n} reconcile(s) with result {}",
                label.as_str()
            ),
            Wait::Time(t) => format!("Waiting until {}", format::at(*t)),
        }
    }
}

fn settings(preset: Preset, script: ScriptChoice, fields: &[(Field, &str)]) -> Settings {
    let mut s = Settings::default();
    s.preset = preset;
    s.script = script;
    for (f, v) in fields {
        s.set(*f, v.to_string());
    }
    s
}

/// The same settings on controller-runtime's priority queue (v0.23+).
fn on_priority_queue(preset: Preset, script: ScriptChoice, fields: &[(Field, &str)]) -> Settings {
    let mut s = settings(preset, script, fields);
    s.queue = QueueKind::Priority;
    s
}

/// How long `key` waited, from `since` to a worker taking it, in a copy of the run.
fn wait_for_worker(sim: &Simulation, key: &str, since: Nanos) -> String {
    let mut c = sim.clone();
    c.set_log_capacity(100_000);
    c.run_until(60 * SECOND);
    let Some(id) = c.find(key) else {
        return String::new();
    };
    c.log()
        .iter()
        .find(|e| {
            e.at >= since && matches!(e.event, SimEvent::ReconcileStart { item, .. } if item == id)
        })
        .map(|e| format::dur(e.at - since))
        .unwrap_or_default()
}

/// Reconciles of `key` in the first minute of a copy of the run.
fn reconciles_in_a_minute(sim: &Simulation, key: &str) -> String {
    let mut c = sim.clone();
    c.run_until(60 * SECOND);
    c.find(key)
        .map(|id| c.item(id).reconciles.to_string())
        .unwrap_or_default()
}

/// A Crossplane provider at R = 10 with `kinds` kinds of 1,000 objects,
/// each reconcile making `requests` API requests.
fn provider(kinds: usize, requests: u32) -> Provider {
    let mut p = Provider::default();
    p.kinds.truncate(kinds);
    p.requests_per_reconcile = requests;
    p.failures = 0;
    p
}

/// The provider's reconciles per second between 10s and 60s: what it
/// sustains once the burst is spent.
fn sustained_rate(p: &Provider) -> String {
    let Ok(mut m) = p
        .to_scenario()
        .and_then(|s| Manager::new(&s).map_err(|e| e.to_string()))
    else {
        return String::new();
    };
    let total = |m: &Manager| {
        m.controllers()
            .map(|(_, c)| c.inner_reconciles())
            .sum::<u64>()
    };
    m.set_log_capacity(0);
    m.run_until(10 * SECOND);
    let before = total(&m);
    m.run_until(60 * SECOND);
    format!("{:.1}", (total(&m) - before) as f64 / 50.0)
}

/// The herd: 10,000 keys that fail at once, with `settings`.
fn ten_thousand_failing(settings: Settings) -> Setup {
    Setup {
        settings,
        inputs: vec![Input::AddMany {
            prefix: "default/pod-".into(),
            count: 10_000,
        }],
        later: vec![],
        run_to: 0,
    }
}

/// "About how many requeues in the first second?", within 10%.
fn requeues_in_first_second(question: &'static str) -> Predict {
    Predict {
        question,
        unit: "requeues",
        answer: |sim| format::count(requeues_within(sim, SECOND)),
        tolerance: 0.1,
    }
}

fn add(key: &str) -> Input {
    Input::Add {
        key: key.to_string(),
    }
}

fn set_script(key: &str, script: Script) -> Input {
    Input::SetScript {
        key: key.to_string(),
        script,
    }
}

/// Requeues (re-adds after a delay) in the first `secs` seconds of a copy of the run.
fn requeues_within(sim: &Simulation, until: Nanos) -> u64 {
    let mut c = sim.clone();
    c.set_log_capacity(0);
    c.run_until(until);
    let s = c.series();
    (0..s.samples.len())
        .filter(|i| s.start_of(*i) < until)
        .map(|i| s.samples[i].requeues as u64)
        .sum()
}

/// The delay the next failure of `key` would get, without touching the run.
fn next_delay(sim: &Simulation, key: &str) -> String {
    sim.next_delay(key).map_or_else(|| "?".into(), format::dur)
}

thread_local! {
    /// Built once: a render asks for the lessons every frame.
    static LESSONS: std::rc::Rc<Vec<Lesson>> = std::rc::Rc::new(build());
}

/// Every lesson, in order (built once per thread).
pub fn all() -> std::rc::Rc<Vec<Lesson>> {
    LESSONS.with(std::rc::Rc::clone)
}

fn build() -> Vec<Lesson> {
    let ms = MILLISECOND;
    vec![
        Lesson {
            id: "sets",
            title: "1. Three sets and deduplication",
            steps: vec![
                Step {
                    act: Some(Act { label: "queue.Add(\"default/web-1\")", inputs: vec![add("default/web-1")], provider: None }),
                    show: None,
                    title: "A key enters the queue",
                    focus: Focus { lanes: &[Lane::Queue, Lane::Workers], key: Some("default/web-1") },
                    text: "A work queue holds keys, not events. Press the queue.Add button below: default/web-1 goes to the FIFO and is marked dirty. A worker takes it at once (Get moves it from dirty to processing) and reconciles it for one second.",
                    setup: Some(Setup { settings: settings(Preset::ClientGoDefault, ScriptChoice::Success, &[(Field::Reconcile, "1s")]), inputs: vec![], later: vec![], run_to: 0 }),
                    wait: Some(Wait::Results(ResultLabel::Success, 1)),
                    predict: None,
                },
                Step {
                    act: None,
                    show: None,
                    title: "Fifty events, how many reconciles?",
                    focus: Focus { lanes: &[Lane::Sources, Lane::Queue, Lane::Workers], key: Some("default/web-1") },
                    text: "Now the informer fires 50 watch events per second on that key for two seconds, while each reconcile takes one second. Each event flies in from the sources and lands on the key: the first is queued, one that arrives during a reconcile marks the key dirty, and every later one merges into that one copy (its +N badge). Done puts the key back once. Predict, then press play.",
                    setup: Some(Setup {
                        settings: settings(Preset::ClientGoDefault, ScriptChoice::Success, &[(Field::Reconcile, "1s")]),
                        inputs: vec![Input::WatchEvents { key: "default/web-1".into(), per_second: 50.0, duration_ns: 2 * SECOND }],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: Some(Wait::Time(4 * SECOND)),
                    predict: Some(Predict {
                        question: "How many times will Reconcile run for these 100 events?",
                        unit: "reconciles",
                        answer: |sim| {
                            let mut c = sim.clone();
                            c.run_until(10 * SECOND);
                            c.controller_metrics().total(ResultLabel::Success).to_string()
                        },
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "results",
            title: "2. Requeue, RequeueAfter and errors",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "An error is rate limited",
                    focus: Focus { lanes: &[Lane::Workers, Lane::Waiting], key: Some("default/web-1") },
                    text: "Each reconcile below waits for you. Choose Error: controller-runtime calls AddRateLimited, so the limiter decides the delay, and the failure count (NumRequeues) goes up. The key's panel (Why is default/web-1 here?) lists the queue calls it caused.",
                    setup: Some(Setup { settings: settings(Preset::ClientGoDefault, ScriptChoice::Live, &[]), inputs: vec![add("default/web-1")], later: vec![], run_to: 200 * ms }),
                    wait: Some(Wait::Results(ResultLabel::Error, 1)),
                    predict: None,
                },
                Step {
                    act: None,
                    show: None,
                    title: "RequeueAfter forgets the failures",
                    focus: Focus { lanes: &[Lane::Workers, Lane::Waiting], key: None },
                    text: "Now choose RequeueAfter (30s). controller-runtime first calls Forget, wiping the backoff history, then AddAfter with exactly your delay: no limiter is asked. That is why a poll interval is not slowed down by earlier failures.",
                    setup: None,
                    wait: Some(Wait::Results(ResultLabel::RequeueAfter, 1)),
                    predict: None,
                },
                Step {
                    act: None,
                    show: None,
                    title: "An error wins over RequeueAfter",
                    focus: Focus { lanes: &[Lane::Workers, Lane::Waiting], key: None },
                    text: "Returning an error together with RequeueAfter does not do both: the error takes the rate-limited path and the RequeueAfter is ignored (controller-runtime logs a warning). Terminal errors are neither requeued nor forgotten. Requeue: true (deprecated) is rate limited like an error but counted as 'requeue'. Try them on the next reconcile.",
                    setup: None,
                    wait: None,
                    predict: None,
                },
            ],
        },
        Lesson {
            id: "backoff",
            title: "3. Per-item backoff and the first second",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "Doubling delays",
                    focus: Focus { lanes: &[Lane::Waiting], key: Some("default/flaky") },
                    text: "With the per-item limiter every failure doubles the key's delay: 5ms, 10ms, 20ms… up to 1000s. This key fails every time and reconciles instantly: watch the ring on it in the waiting heap run down, each wait twice as long as the one before. Its panel lists every requeue.",
                    setup: Some(Setup {
                        settings: settings(Preset::PerItem, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]),
                        inputs: vec![add("default/flaky")],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "How many times is the key requeued within its first second?",
                        unit: "requeues",
                        answer: |sim| requeues_within(sim, SECOND).to_string(),
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "The long tail",
                    focus: Focus { lanes: &[Lane::Waiting], key: Some("default/flaky") },
                    text: "After about eighteen failures the delay reaches its 1000s cap, and the key is tried about every sixteen minutes. Raise the speed (+) to 1000× to watch it get there.",
                    setup: None,
                    wait: Some(Wait::Time(SECOND)),
                    predict: Some(Predict {
                        question: "What delay does the 19th failure get?",
                        unit: "",
                        answer: |_| format::dur(workqueue_core::limiter::Exponential::delay_for(5 * MILLISECOND, 1000 * SECOND, 18)),
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "herd",
            title: "4. The token bucket and 10,000 failing keys",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "A thundering herd",
                    focus: Focus { lanes: &[Lane::Waiting], key: None },
                    text: "Ten thousand keys start failing at the same instant. With per-item backoff alone, nothing slows them down together: they all come back at 5ms, 15ms, 35ms… Predict, then press play and watch the whole crowd leave the waiting heap and come back, again and again.",
                    setup: Some(ten_thousand_failing(settings(Preset::PerItem, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]))),
                    wait: None,
                    predict: Some(requeues_in_first_second("About how many requeues happen in the first second (within 10%)?")),
                },
                Step {
                    act: None,
                    show: None,
                    title: "One bucket for the whole controller",
                    focus: Focus { lanes: &[Lane::Bucket, Lane::Waiting], key: None },
                    text: "The token bucket holds 100 tokens and refills 10 per second. When ten thousand keys fail at the same instant, the first 100 take a token and go back at once; every one after that reserves a token that does not exist yet, so the level goes below zero: a debt, drawn in red on its own scale, repaid at 10 per second.",
                    setup: Some(ten_thousand_failing(settings(Preset::BucketOnly, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]))),
                    wait: None,
                    predict: Some(Predict {
                        question: "How long does the 101st failing key wait?",
                        unit: "",
                        answer: |_| {
                            let mut b = workqueue_core::TokenBucket::new(10.0, 100);
                            (0..100).for_each(|_| {
                                b.reserve_delay(0);
                            });
                            format::dur(b.reserve_delay(0))
                        },
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "Empty, then refill",
                    focus: Focus { lanes: &[Lane::Bucket], key: None },
                    text: "Now 200 keys fail once each, then succeed; each reconcile takes 5ms. Press play and watch the bucket: every failure takes a token, so the level falls from 100, goes into debt, and once the failures stop it climbs back at 10 tokens per second. A key waiting for its token wears a green ring; the bucket counts them.",
                    setup: Some(Setup {
                        settings: settings(Preset::BucketOnly, ScriptChoice::FailThenSucceed, &[(Field::Reconcile, "5ms"), (Field::FailN, "1")]),
                        inputs: vec![Input::AddMany { prefix: "default/pod-".into(), count: 200 }],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: Some(Wait::Time(3 * SECOND)),
                    predict: Some(Predict {
                        question: "How deep does the debt get, at its lowest (in tokens, within 10%)?",
                        unit: "tokens",
                        answer: |sim| {
                            let mut c = sim.clone();
                            let mut lowest = f64::INFINITY;
                            let mut t = 0;
                            while t <= 5 * SECOND {
                                c.run_until(t);
                                lowest = lowest.min(c.bucket_view().map_or(0.0, |b| b.tokens));
                                t += MILLISECOND;
                            }
                            format!("{:.0}", (-lowest).max(0.0))
                        },
                        tolerance: 0.1,
                    }),
                },
                Step {
                    act: None,
                    show: Some(Show::CompareLimiters),
                    title: "Side by side",
                    focus: Focus { lanes: &[Lane::Waiting, Lane::Bucket], key: None },
                    text: "Here are the same 10,000 failing keys under per-item only, bucket only and client-go's default (max-of both), side by side: per-item alone sends tens of thousands of requeues in the first second, the bucket holds the whole controller to 10 per second after its burst.",
                    setup: None,
                    wait: None,
                    predict: None,
                },
            ],
        },
        Lesson {
            id: "max-of",
            title: "5. Max-of: who wins?",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "The larger delay wins",
                    focus: Focus { lanes: &[Lane::Waiting, Lane::Bucket], key: Some("default/flaky") },
                    text: "client-go's default asks both limiters and keeps the larger answer, and every call takes a token, even when the key's own backoff wins. Here default/flaky has failed at 0, 5, 15, 35 and 75ms, and its sixth try is due at 155ms. A microsecond before, 97 other keys fail once and empty the bucket. Predict, then step once (→) and read every limiter's answer in the key's panel.",
                    setup: Some(Setup {
                        settings: settings(Preset::ClientGoDefault, ScriptChoice::FailThenSucceed, &[(Field::Reconcile, "0s"), (Field::FailN, "1")]),
                        inputs: vec![set_script("default/flaky", Script::Always { outcome: Outcome::Error }), add("default/flaky")],
                        later: vec![(155 * MILLISECOND - 1_000, Input::AddMany { prefix: "default/pod-".into(), count: 97 })],
                        run_to: 155 * MILLISECOND - 1_000,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "After its 5 failures, how long will default/flaky wait on its next one?",
                        unit: "",
                        answer: |sim| next_delay(sim, "default/flaky"),
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "forget-done",
            title: "6. Forget, Done, and giving up",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "Requeue never forgets",
                    focus: Focus { lanes: &[Lane::Workers, Lane::Waiting], key: Some("default/web-1") },
                    text: "Forget is what resets a key's backoff. controller-runtime calls it on success and on RequeueAfter, never on errors or Requeue: true. A reconciler that keeps returning Requeue: true (never an error) still climbs the backoff, as if it had forgotten to Forget.",
                    setup: Some(Setup {
                        settings: settings(Preset::PerItem, ScriptChoice::Success, &[(Field::Reconcile, "0s")]),
                        inputs: vec![set_script("default/web-1", Script::Always { outcome: Outcome::Requeue }), add("default/web-1")],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: Some(Wait::Time(200 * MILLISECOND)),
                    predict: Some(Predict {
                        question: "What is NumRequeues after 200ms of Requeue: true?",
                        unit: "",
                        answer: |sim| {
                            let mut c = sim.clone();
                            c.run_until(200 * MILLISECOND);
                            c.find("default/web-1").map(|id| c.queue().num_requeues(id).to_string()).unwrap_or_default()
                        },
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "Done is not optional",
                    focus: Focus { lanes: &[Lane::Queue, Lane::Workers], key: None },
                    text: "Done is what lets a key out of the processing set. A worker that forgets it leaves the key processing for ever: every later Add only marks it dirty, and it is never handed out again. controller-runtime calls Done for you, deferred, even when Reconcile panics.",
                    setup: None,
                    wait: None,
                    predict: None,
                },
                Step {
                    act: None,
                    show: None,
                    title: "Giving up after N requeues",
                    focus: Focus { lanes: &[Lane::Waiting, Lane::Workers], key: Some("default/broken") },
                    text: "A common pattern in hand-written workers: after N rate-limited retries, Forget the key and drop it. This run gives up after 5 requeues of a key that always fails.",
                    setup: Some(Setup {
                        settings: settings(Preset::PerItem, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s"), (Field::GiveUp, "5")]),
                        inputs: vec![add("default/broken")],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: Some(Wait::Time(SECOND)),
                    predict: Some(Predict {
                        question: "How many reconciles does default/broken get in total?",
                        unit: "reconciles",
                        answer: |sim| {
                            let mut c = sim.clone();
                            c.run_until(60 * SECOND);
                            c.find("default/broken").map(|id| c.item(id).reconciles.to_string()).unwrap_or_default()
                        },
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "fast-slow",
            title: "7. Fast/slow and with-max-wait",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "Fast, then slow",
                    focus: Focus { lanes: &[Lane::Waiting], key: Some("default/web-1") },
                    text: "The fast/slow limiter retries quickly a few times (5ms, three attempts here), then settles on a fixed slow delay (10s). It counts a failure before comparing, so the 4th failure is the first slow one. Predict, then press play.",
                    setup: Some(Setup {
                        settings: settings(Preset::FastSlow, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]),
                        inputs: vec![add("default/web-1")],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "When is the 5th reconcile of default/web-1?",
                        unit: "",
                        answer: |sim| {
                            let mut c = sim.clone();
                            c.set_log_capacity(100_000);
                            c.run_until(60 * SECOND);
                            let starts: Vec<Nanos> = c
                                .log()
                                .iter()
                                .filter(|e| matches!(e.event, workqueue_core::sim::SimEvent::ReconcileStart { .. }))
                                .map(|e| e.at)
                                .collect();
                            starts.get(4).map(|t| format::at(*t)).unwrap_or_default()
                        },
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "A cap on any delay",
                    focus: Focus { lanes: &[Lane::Waiting, Lane::Bucket], key: Some("default/web-1") },
                    text: "With-max-wait wraps another limiter and caps its answer, while the wrapped limiter still counts every failure. This run uses client-go's default capped at 10s: play it fast (+) and watch the key's waits stop growing at 10s while its failure count keeps climbing.",
                    setup: Some(Setup {
                        settings: settings(Preset::WithMaxWait, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s"), (Field::MaxWait, "10s")]),
                        inputs: vec![add("default/web-1")],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "What delay does the 20th failure get?",
                        unit: "",
                        answer: |_| format::dur(workqueue_core::limiter::Exponential::delay_for(5 * MILLISECOND, 1000 * SECOND, 19).min(10 * SECOND)),
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "crossplane",
            title: "8. Crossplane's two layers",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "A global bucket in front",
                    focus: Focus { lanes: &[Lane::Bucket, Lane::Workers], key: None },
                    text: "Crossplane derives everything from --max-reconcile-rate R: a bucket of R per second with a burst of 10R shared by all controllers, R workers, and a per-object backoff from 1s to 60s in the queue. The bucket sits in a middleware reconciler: with no token, it answers RequeueAfter without calling your reconciler. Here R = 1 and 20 objects arrive at once.",
                    setup: Some(Setup {
                        settings: settings(Preset::Crossplane, ScriptChoice::Success, &[(Field::Rate, "1"), (Field::Reconcile, "0s")]),
                        inputs: vec![Input::AddMany { prefix: "mr-".into(), count: 20 }],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "How many of the 20 reach the inner reconciler at once?",
                        unit: "objects",
                        answer: |sim| sim.controller_metrics().total(ResultLabel::Success).to_string(),
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "The backoff reset",
                    focus: Focus { lanes: &[Lane::Waiting, Lane::Bucket], key: Some("mr-flaky") },
                    text: "A failing object normally backs off 1s, 2s, 4s… But when the global bucket defers it, the RequeueAfter path calls Forget, and its backoff starts again at 1s. The deferred request also comes back with a free pass: it already paid for its token.",
                    setup: Some(Setup {
                        settings: settings(Preset::Crossplane, ScriptChoice::Success, &[(Field::Rate, "1"), (Field::Reconcile, "0s")]),
                        inputs: vec![set_script("mr-flaky", Script::Always { outcome: Outcome::Requeue }), add("mr-flaky"), Input::AddMany { prefix: "mr-".into(), count: 12 }],
                        later: vec![],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "mr-flaky backed off 1s, then the bucket deferred it. How long does it wait after its next failure?",
                        unit: "",
                        answer: |sim| {
                            let mut c = sim.clone();
                            c.set_log_capacity(100_000);
                            let Some(id) = c.find("mr-flaky") else { return String::new() };
                            let deferred = |c: &Simulation| {
                                c.log().iter().any(|e| matches!(&e.event, workqueue_core::sim::SimEvent::Gate { item, gate: workqueue_core::controller::Gate::Defer { .. }, .. } if *item == id))
                            };
                            while !deferred(&c) && c.step().is_some() {}
                            let seen = c.item(id).retries.total();
                            while c.item(id).retries.total() == seen && c.step().is_some() {}
                            c.item(id).retries.back().map(|r| format::dur(r.delay)).unwrap_or_default()
                        },
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "v023",
            title: "9. What changed in controller-runtime v0.23",
            steps: vec![
                Step {
                    act: None,
                    show: None,
                    title: "No global bucket by default",
                    focus: Focus { lanes: &[Lane::Waiting], key: None },
                    text: "Since v0.23 every controller runs on controller-runtime's priority queue unless it sets UsePriorityQueue: false, and when it passes no RateLimiter the default is per-item backoff alone (5ms doubling to 1000s): the 10 per second bucket is gone. The switch on the stage says which version you are watching. Here 10,000 keys fail at once on v0.23's defaults.",
                    setup: Some(ten_thousand_failing(on_priority_queue(Preset::PerItem, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]))),
                    wait: None,
                    predict: Some(requeues_in_first_second("About how many requeues happen in the first second (within 10%)?")),
                },
                Step {
                    act: None,
                    show: None,
                    title: "Bringing a global limit back",
                    focus: Focus { lanes: &[Lane::Bucket, Lane::Waiting], key: None },
                    text: "A controller that relied on the bucket now has to pass it: RateLimiter: workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](), the max of per-item backoff and a 10 qps bucket with a burst of 100. The priority queue asks that limiter just as the old queue did. Same 10,000 failing keys.",
                    setup: Some(ten_thousand_failing(on_priority_queue(Preset::ClientGoDefault, ScriptChoice::AlwaysError, &[(Field::Reconcile, "0s")]))),
                    wait: None,
                    predict: Some(requeues_in_first_second("About how many requeues happen in the first second now (within 10%)?")),
                },
                Step {
                    act: None,
                    show: None,
                    title: "A resync storm waits its turn",
                    focus: Focus { lanes: &[Lane::Queue, Lane::Workers], key: Some("default/fresh") },
                    text: "The informer's initial list and every resync are enqueued at priority -100; a real change has priority 0 and goes first. Here 300 keys from the initial list take 10ms each on one worker, and at t=100ms a fresh change to default/fresh arrives. On a client-go queue it would wait behind the other 290 keys, about 2.9s.",
                    setup: Some(Setup {
                        settings: on_priority_queue(Preset::PerItem, ScriptChoice::Success, &[(Field::Reconcile, "10ms")]),
                        inputs: vec![Input::AddMany { prefix: "default/pod-".into(), count: 300 }],
                        later: vec![(100 * MILLISECOND, add("default/fresh"))],
                        run_to: 100 * MILLISECOND,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "How long does default/fresh wait for a worker?",
                        unit: "",
                        answer: |sim| wait_for_worker(sim, "default/fresh", 100 * MILLISECOND),
                        tolerance: 0.0,
                    }),
                },
                Step {
                    act: None,
                    show: None,
                    title: "An event during a RequeueAfter",
                    focus: Focus { lanes: &[Lane::Sources, Lane::Waiting], key: Some("default/web-1") },
                    text: "default/web-1's first reconcile returns RequeueAfter: 30s; its second succeeds. At t=5s a watch event arrives for it. The priority queue keeps one record per key, and an immediate add beats a delayed one: the event is reconciled at once and the pending 30s requeue is gone. client-go's queue keeps both: it reconciles the event, then again at 30s.",
                    setup: Some(Setup {
                        settings: on_priority_queue(Preset::PerItem, ScriptChoice::Success, &[(Field::Reconcile, "0s")]),
                        inputs: vec![
                            set_script("default/web-1", Script::Sequence { outcomes: vec![Outcome::RequeueAfter { after_ns: 30 * SECOND }], then: Outcome::Success }),
                            add("default/web-1"),
                        ],
                        later: vec![(5 * SECOND, add("default/web-1"))],
                        run_to: 0,
                    }),
                    wait: None,
                    predict: Some(Predict {
                        question: "How many times does default/web-1 reconcile in the first minute?",
                        unit: "reconciles",
                        answer: |sim| reconciles_in_a_minute(sim, "default/web-1"),
                        tolerance: 0.0,
                    }),
                },
            ],
        },
        Lesson {
            id: "provider",
            title: "10. One provider, three kinds",
            steps: vec![
                Step {
                    act: Some(Act { label: "Run the provider (one kind)", inputs: vec![], provider: Some(|| provider(1, 1)) }),
                    show: None,
                    title: "One kind",
                    focus: Focus { lanes: &[Lane::Manager], key: None },
                    text: "A Crossplane provider with --max-reconcile-rate R = 10 reconciles 1,000 objects of one kind. Its global bucket lets 100 reconciles through at once, then 10 a second; a request without a token is answered RequeueAfter by the middleware, and comes back later with its token already paid: it travels through the queue twice. Predict, then run it and watch the global bucket.",
                    setup: Some(Setup { settings: settings(Preset::Crossplane, ScriptChoice::Success, &[]), inputs: vec![], later: vec![], run_to: 0 }),
                    wait: None,
                    predict: Some(Predict {
                        question: "About how many reconciles per second does it sustain after the first 10 seconds (within 20%)?",
                        unit: "per second",
                        answer: |_| sustained_rate(&provider(1, 1)),
                        tolerance: 0.2,
                    }),
                },
                Step {
                    act: Some(Act { label: "Run the provider (three kinds)", inputs: vec![], provider: Some(|| provider(3, 1)) }),
                    show: None,
                    title: "Three kinds",
                    focus: Focus { lanes: &[Lane::Manager], key: None },
                    text: "Now the provider has three managed-resource kinds of 1,000 objects each. Each kind is a controller with its own queue, its own 1s-to-60s backoff and R workers, but the global bucket is one object for the whole provider.",
                    setup: None,
                    wait: None,
                    predict: Some(Predict {
                        question: "About how many reconciles per second does the whole provider sustain now (within 20%)?",
                        unit: "per second",
                        answer: |_| sustained_rate(&provider(3, 1)),
                        tolerance: 0.2,
                    }),
                },
                Step {
                    act: Some(Act { label: "Run it with 10 requests per reconcile", inputs: vec![], provider: Some(|| provider(3, 10)) }),
                    show: None,
                    title: "When the client is the bottleneck",
                    focus: Focus { lanes: &[Lane::Manager], key: None },
                    text: "Every controller of the provider talks to the API server through one client, limited to 5R = 50 requests per second with a burst of 10R = 100. When each reconcile makes 10 requests, a reconcile waits for its client tokens while holding its worker; the log says 'Waited for … due to client-side throttling'.",
                    setup: None,
                    wait: None,
                    predict: Some(Predict {
                        question: "About how many reconciles per second now (within 20%)?",
                        unit: "per second",
                        answer: |_| sustained_rate(&provider(3, 10)),
                        tolerance: 0.2,
                    }),
                },
            ],
        },
    ]
}

pub fn find(id: &str) -> Option<(usize, Lesson)> {
    all().iter().cloned().enumerate().find(|(_, l)| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step names its focus, and what it names is in its scene: each
    /// lane is on the stage (a bucket lane only where the limiter has a
    /// bucket, the manager lane only for a manager), and the key is in the
    /// run, or is added by the step's own action.
    #[test]
    fn every_step_focus_exists_in_its_scene() {
        for l in all().iter() {
            let mut scene = None;
            for (i, step) in l.steps.iter().enumerate() {
                if let Some(setup) = &step.setup {
                    scene = Some(play(setup));
                }
                let sim = scene.as_ref().expect("the first step sets the scene");
                let at = format!("{} step {}", l.id, i + 1);
                assert!(!step.focus.lanes.is_empty(), "{at}: no focus");
                let manager = step.act.as_ref().is_some_and(|a| a.provider.is_some());
                for lane in step.focus.lanes {
                    match lane {
                        Lane::Manager => assert!(manager, "{at}: a manager lane without a manager"),
                        Lane::Bucket => assert!(
                            sim.stage_view(1, 1).bucket.is_some(),
                            "{at}: the bucket lane, but the limiter has no bucket"
                        ),
                        _ => assert!(!manager, "{at}: a one-controller lane in a manager"),
                    }
                }
                if let Some(key) = step.focus.key {
                    let added = step.act.iter().flat_map(|a| &a.inputs).any(
                        |i| matches!(i, Input::Add { key: k } | Input::WatchEvents { key: k, .. } if k == key),
                    );
                    assert!(
                        sim.find(key).is_some() || added,
                        "{at}: the focus key {key} is not in the scene"
                    );
                }
            }
        }
    }

    fn play(setup: &Setup) -> Simulation {
        setup.run().expect("a valid set-up")
    }

    #[test]
    fn answers_compare_by_value_whatever_the_unit() {
        assert!(same_answer("1000s", "16m40s", 0.0));
        assert!(same_answer("0.1s", "100ms", 0.0));
        assert!(same_answer(" 160 ms", "160ms", 0.0));
        assert!(!same_answer("320ms", "160ms", 0.0));
        assert!(same_answer("70000", "73,123", 0.1));
        assert!(!same_answer("50000", "73,123", 0.1));
        assert!(same_answer("7", "7", 0.0));
        assert!(!same_answer("", "7", 0.0));
        assert!(same_answer("3 reconciles", "3", 0.0));
    }

    #[test]
    fn every_answer_is_computed_from_its_own_set_up_and_never_changes() {
        for l in all().iter() {
            for (i, step) in l.steps.iter().enumerate() {
                if step.predict.is_some() {
                    let first = l.answer(i).unwrap_or_else(|| panic!("{} step {i}", l.id));
                    assert_eq!(l.answer(i).as_ref(), Some(&first), "{} step {i}", l.id);
                }
            }
        }
    }

    #[test]
    fn every_setup_is_valid_and_every_prediction_has_an_answer() {
        let lessons = all();
        assert_eq!(lessons.len(), 10);
        for l in lessons.iter() {
            assert!(
                l.steps[0].setup.is_some(),
                "{}: the first step sets the scene",
                l.id
            );
            for (i, s) in l.steps.iter().enumerate() {
                if let Some(setup) = &s.setup {
                    if let Err(e) = setup.settings.to_scenario() {
                        panic!("{} step {i}: {e:?}", l.id);
                    }
                    let sim = play(setup);
                    if let Some(p) = &s.predict {
                        assert!(!(p.answer)(&sim).is_empty(), "{} step {i}", l.id);
                    }
                }
            }
        }
    }

    /// The v0.23 lesson's numbers, and what the classic queue does instead
    /// (the texts state both).
    #[test]
    fn the_v023_lesson_answers_differ_from_the_classic_queue() {
        let (_, l) = find("v023").unwrap();
        let answer = |i: usize| {
            (l.steps[i].predict.as_ref().unwrap().answer)(&play(l.steps[i].setup.as_ref().unwrap()))
        };
        let count = |s: String| s.replace(',', "").parse::<u64>().unwrap();
        let no_bucket = count(answer(0));
        assert_eq!(
            no_bucket, 70_000,
            "per-item alone: seven requeues each (5ms, 15ms … 635ms)"
        );
        let with_bucket = count(answer(1));
        assert!(
            (100..=111).contains(&with_bucket),
            "a bucket passed back in: {with_bucket}"
        );
        assert_eq!(answer(2), "10ms", "the fresh change goes next");
        assert_eq!(answer(3), "2", "the pending requeue is cancelled");
        // The same set-ups on client-go's queue.
        let classic = |i: usize| {
            let setup = l.steps[i].setup.as_ref().unwrap();
            let mut settings = setup.settings.clone();
            settings.queue = QueueKind::ClientGo;
            let setup = Setup {
                settings,
                inputs: setup.inputs.clone(),
                later: setup.later.clone(),
                run_to: setup.run_to,
            };
            (l.steps[i].predict.as_ref().unwrap().answer)(&play(&setup))
        };
        assert_eq!(classic(2), "2.9s", "behind the 290 other keys");
        assert_eq!(classic(3), "3", "the event, then the 30s requeue");
    }

    #[test]
    fn the_provider_lesson_shows_one_shared_bucket_and_then_the_client() {
        let (_, l) = find("provider").unwrap();
        let rate = |i: usize| -> f64 {
            (l.steps[i].predict.as_ref().unwrap().answer)(&play(l.steps[0].setup.as_ref().unwrap()))
                .parse()
                .unwrap()
        };
        let (one, three, chatty) = (rate(0), rate(1), rate(2));
        assert!((9.0..=11.0).contains(&one), "R = 10: {one}/s");
        assert!(
            (9.0..=11.0).contains(&three),
            "three kinds share the same 10/s: {three}/s"
        );
        assert!(
            (4.0..=5.5).contains(&chatty),
            "50 requests/s at 10 per reconcile: {chatty}/s"
        );
    }

    #[test]
    fn the_bucket_step_starts_full_drains_and_refills() {
        let (_, herd) = find("herd").unwrap();
        let step = herd
            .steps
            .iter()
            .find(|s| s.title == "Empty, then refill")
            .unwrap();
        let mut sim = play(step.setup.as_ref().unwrap());
        let mut level = |t| {
            sim.run_until(t);
            sim.bucket_view().unwrap().tokens
        };
        let (start, draining, lowest, refilling, later) = (
            level(0),
            level(300 * MILLISECOND),
            level(SECOND),
            level(3 * SECOND),
            level(15 * SECOND),
        );
        assert_eq!(start, 100.0, "the scene opens on a full bucket");
        assert!(
            draining < 100.0 && draining > 0.0,
            "it drains over time, not at once: {draining}"
        );
        assert!(lowest < 0.0, "then goes into debt: {lowest}");
        assert!(
            refilling > lowest && later > refilling,
            "and refills: {lowest} → {refilling} → {later}"
        );
        let answer = (step.predict.as_ref().unwrap().answer)(&play(step.setup.as_ref().unwrap()));
        let depth: f64 = answer.parse().unwrap();
        assert!(
            depth >= -lowest - 1.0,
            "the answer is the lowest point: {depth} vs {lowest}"
        );
    }

    #[test]
    fn the_seeds_numbers_come_out_of_the_lessons() {
        let herd = &all()[3];
        let setup = herd.steps[0].setup.as_ref().unwrap();
        let mut sim = Simulation::new(&setup.settings.to_scenario().unwrap()).unwrap();
        for i in &setup.inputs {
            sim.apply(i.clone()).unwrap();
        }
        let per_item: u64 = (herd.steps[0].predict.as_ref().unwrap().answer)(&sim)
            .replace(',', "")
            .parse()
            .unwrap();
        assert!((70_000..=80_000).contains(&per_item));
        assert_eq!(
            (herd.steps[1].predict.as_ref().unwrap().answer)(&sim),
            "100ms"
        );
        let backoff = &all()[2];
        let setup = backoff.steps[0].setup.as_ref().unwrap();
        let mut sim = Simulation::new(&setup.settings.to_scenario().unwrap()).unwrap();
        sim.apply(setup.inputs[0].clone()).unwrap();
        assert_eq!(
            (backoff.steps[0].predict.as_ref().unwrap().answer)(&sim),
            "7"
        );
        assert_eq!(
            (backoff.steps[1].predict.as_ref().unwrap().answer)(&sim),
            "16m40s"
        );
        let run = |lesson: usize, step: usize| {
            let l = &all()[lesson];
            (l.steps[step].predict.as_ref().unwrap().answer)(&play(
                l.steps[step].setup.as_ref().unwrap(),
            ))
        };
        assert_eq!(
            run(4, 0),
            "160ms",
            "max-of: the key's 160ms beats the bucket"
        );
        assert_eq!(
            run(7, 1),
            "1s",
            "Crossplane: the deferral reset the backoff"
        );
        assert_eq!(
            run(0, 1),
            "3",
            "100 watch events, 1s reconciles: three reconciles"
        );
    }
}
