//! The questions a lesson may ask of a run, answered by the core. Each query
//! runs on a copy of the step's scene (its set-up, at its instant), so an
//! answer never depends on what was played since.

use serde::Deserialize;
use workqueue_core::{
    format_go_duration, Duration, Instant, Manager, ResultLabel, Simulation, MILLISECOND,
};
use workqueue_core::{SimEvent, WorkerState};

/// Work units one step's scene, or one question on it, may take (the
/// lesson files' cost model holds each step to it).
pub const STEP_BUDGET: u64 = 5_000_000;

/// Virtual time a query may run its copy of the scene to, at most.
pub const HORIZON: Instant = Instant::from_nanos(7 * 24 * 3600 * 1_000_000_000);

/// A question with a unit and how far off a guess may be.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub ask: String,
    #[serde(default)]
    pub unit: String,
    /// A fraction of the answer (0.1 is within 10%); 0 asks for the exact value.
    #[serde(default)]
    pub tolerance: f64,
    pub query: Query,
}

/// An exercise: conditions the learner's own settings must meet.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The goal in words, shown above the figures.
    pub describe: String,
    pub conditions: Vec<Condition>,
}

/// One figure of a goal and its bound: `at_most` and/or `at_least`, in the
/// query's own unit (a duration as `"40s"`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub query: Query,
    #[serde(default, deserialize_with = "bound")]
    pub at_most: Option<Bound>,
    #[serde(default, deserialize_with = "bound")]
    pub at_least: Option<Bound>,
}

/// A goal's bound as written: a plain number (a count, a rate), or a Go
/// duration with its unit (`"40s"`), kept in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    Number(f64),
    Duration(f64),
}

impl Bound {
    /// The bound in the query's own unit (nanoseconds for a time).
    pub fn value(self) -> f64 {
        match self {
            Bound::Number(n) | Bound::Duration(n) => n,
        }
    }
}

/// A bound: a number, or a Go duration string read as nanoseconds.
fn bound<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Bound>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(f64),
        Text(String),
    }
    match Written::deserialize(d)? {
        Written::Number(n) if n.is_finite() => Ok(Some(Bound::Number(n))),
        Written::Number(n) => Err(serde::de::Error::custom(format!("{n} is not a bound"))),
        Written::Text(t) => workqueue_core::parse_go_duration(&t)
            .map(|d| Some(Bound::Duration(d.as_nanos() as f64)))
            .map_err(serde::de::Error::custom),
    }
}

impl Condition {
    /// A bound written without a unit where the figure is a time (`35`
    /// where `"35s"` was meant, read as 35 ns: an exercise no one could
    /// pass), or with one where it is a count: the field at fault and why.
    pub fn check_units(&self) -> Result<(), (&'static str, String)> {
        let time = self.query.gives_time();
        for (field, b) in [("at_most", self.at_most), ("at_least", self.at_least)] {
            match (b, time) {
                (Some(Bound::Number(n)), true) => {
                    return Err((
                        field,
                        format!("{n} has no unit, and this figure is a time: write it with one, as \"{n}s\" or \"{n}ms\""),
                    ))
                }
                (Some(Bound::Duration(_)), false) => {
                    return Err((
                        field,
                        "this figure is a count or a rate, not a time: write a plain number".into(),
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The vocabulary. Instants are virtual time from the start of the run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Query {
    /// Keys re-entering the queue after a delay, in `[from, until)`.
    Requeues {
        #[serde(default)]
        from: Instant,
        until: Instant,
    },
    /// Reconciles that ended with `label` up to `until` (default: the
    /// set-up's instant), every controller together.
    Results {
        label: ResultLabel,
        #[serde(default)]
        until: Option<Instant>,
    },
    /// The wait `key` gets after its `failure`-th failure (1 is the first).
    WaitAfterFailure { key: String, failure: u64 },
    /// The wait `key`'s next failure would get, asked at the set-up's instant.
    NextWait { key: String },
    /// The deepest the controller's bucket goes below zero up to `until`
    /// (sampled every millisecond), in tokens.
    DeepestDebt { until: Instant },
    /// `NumRequeues(key)` at `at`.
    NumRequeues { key: String, at: Instant },
    /// Reconciles of `key` up to `until`.
    Reconciles { key: String, until: Instant },
    /// The instant the `n`-th reconcile starts (1 is the first).
    NthReconcile { n: u64 },
    /// How long `key` waits from `since` until a worker takes it.
    WaitForWorker { key: String, since: Instant },
    /// Reconciles that ran per second in `[from, until)`, every controller
    /// together (Crossplane's deferrals do not count: they never ran).
    ReconcilesPerSecond { from: Instant, until: Instant },
    /// The instant every key of every controller has converged (its last
    /// reconcile succeeded and nothing is scheduled), looked for up to `until`.
    ConvergedAt { until: Instant },
    /// API requests sent through the client up to `until`, per second.
    RequestsPerSecond { until: Instant },
    /// How long reconciles waited for the API client's limiter, in all, up to `until`.
    ClientWait { until: Instant },
}

impl Query {
    /// Whether the figure is a time (a duration or an instant), so a bound
    /// on it is written with a unit.
    pub fn gives_time(&self) -> bool {
        matches!(
            self,
            Query::WaitAfterFailure { .. }
                | Query::NextWait { .. }
                | Query::NthReconcile { .. }
                | Query::WaitForWorker { .. }
                | Query::ConvergedAt { .. }
                | Query::ClientWait { .. }
        )
    }
}

/// An answer: a number in a unit of its own, shown as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Count(u64),
    Duration(Duration),
    Instant(Instant),
    PerSecond(f64),
    Tokens(f64),
}

impl Value {
    /// The number goals compare (durations and instants in nanoseconds).
    pub fn number(self) -> f64 {
        match self {
            Value::Count(n) => n as f64,
            Value::Duration(d) => d.as_nanos() as f64,
            Value::Instant(t) => t.as_nanos() as f64,
            Value::PerSecond(x) | Value::Tokens(x) => x,
        }
    }

    /// `x` in this value's unit (a goal's bound, shown beside the figure).
    pub fn like(self, x: f64) -> Value {
        match self {
            Value::Count(_) => Value::Count(x.max(0.0) as u64),
            Value::Duration(_) => Value::Duration(Duration::from_nanos(x as i64)),
            Value::Instant(_) => Value::Instant(Instant::from_nanos(x as i64)),
            Value::PerSecond(_) => Value::PerSecond(x),
            Value::Tokens(_) => Value::Tokens(x),
        }
    }

    pub fn text(self) -> String {
        match self {
            Value::Count(n) => workqueue_core::format_count(n),
            Value::Duration(d) => format_go_duration(d),
            Value::Instant(t) => format!("t={}", format_go_duration(t.since_t0())),
            Value::PerSecond(x) => format!("{x:.1}"),
            Value::Tokens(x) => format!("{x:.0}"),
        }
    }
}

/// Samples [`Query::DeepestDebt`] may take (one a millisecond): ten minutes.
pub(crate) const MAX_DEBT_SAMPLES: i64 = 600_000;
/// The largest count a query may ask for (a failure's or a reconcile's number).
pub const MAX_COUNT: u64 = 1_000_000;

impl Query {
    /// Refuses what no answer could be computed for in bounded work: an
    /// instant outside the first week, a window that ends before it starts,
    /// more debt samples or a larger count than the limits above. Returns
    /// the field at fault and why. Every instant is then small enough that
    /// no arithmetic on it overflows.
    pub fn check(&self) -> Result<(), (String, String)> {
        let week = format_go_duration(HORIZON.since_t0());
        let instant = |field: &str, t: Instant| {
            if (Instant::T0..=HORIZON).contains(&t) {
                Ok(())
            } else {
                Err((
                    field.to_string(),
                    format!(
                        "{} is out of range: use 0s to {week}",
                        format_go_duration(t.since_t0())
                    ),
                ))
            }
        };
        let window = |from: Instant, until: Instant| {
            instant("from", from)?;
            instant("until", until)?;
            if until <= from {
                return Err(("until".to_string(), "must come after from".to_string()));
            }
            Ok(())
        };
        let count = |field: &str, n: u64| {
            if (1..=MAX_COUNT).contains(&n) {
                Ok(())
            } else {
                Err((
                    field.to_string(),
                    format!("{n} is out of range: use 1 to {MAX_COUNT}"),
                ))
            }
        };
        match self {
            Query::Requeues { from, until } | Query::ReconcilesPerSecond { from, until } => {
                window(*from, *until)
            }
            Query::Results { until, .. } => until.map_or(Ok(()), |t| instant("until", t)),
            Query::WaitAfterFailure { failure, .. } => count("failure", *failure),
            Query::NextWait { .. } => Ok(()),
            Query::DeepestDebt { until } => {
                instant("until", *until)?;
                if until.since_t0() / MILLISECOND > MAX_DEBT_SAMPLES {
                    return Err((
                        "until".to_string(),
                        format!(
                            "the debt is sampled every millisecond: use at most {}",
                            format_go_duration(MAX_DEBT_SAMPLES * MILLISECOND)
                        ),
                    ));
                }
                Ok(())
            }
            Query::NumRequeues { at, .. } => instant("at", *at),
            Query::Reconciles { until, .. }
            | Query::ConvergedAt { until }
            | Query::ClientWait { until } => instant("until", *until),
            Query::RequestsPerSecond { until } => {
                instant("until", *until)?;
                if *until == Instant::T0 {
                    return Err(("until".to_string(), "must be after the start".to_string()));
                }
                Ok(())
            }
            Query::NthReconcile { n } => count("n", *n),
            Query::WaitForWorker { since, .. } => instant("since", *since),
        }
    }

    /// The answer on a copy of `scene`, which stays as it is, within a
    /// step's budget ([`STEP_BUDGET`]).
    pub fn answer(&self, scene: &Manager) -> Result<Value, String> {
        self.answer_within(scene, STEP_BUDGET)
    }

    /// The answer, refused once it has taken `budget` work units.
    pub fn answer_within(&self, scene: &Manager, budget: u64) -> Result<Value, String> {
        self.check()
            .map_err(|(field, reason)| format!("{field}: {reason}"))?;
        let mut run = scene.clone();
        run.set_log_capacity(0);
        let mut b = Budget {
            left: budget,
            total: budget,
        };
        let now = run.now();
        let first = |run: &Manager| -> Result<Simulation, String> {
            run.controller_alone(0)
                .ok_or_else(|| "the scene has no controller".to_string())
        };
        let find = |sim: &Simulation, key: &str| {
            sim.find(key)
                .ok_or_else(|| format!("no key {key:?} in the scene"))
        };
        Ok(match self {
            Query::Requeues { from, until } => {
                b.run(&mut run, *until)?;
                let total = run
                    .controllers()
                    .map(|(_, c)| c.series().requeues_between(*from, *until))
                    .sum();
                Value::Count(total)
            }
            Query::Results { label, until } => {
                b.run(&mut run, until.unwrap_or(now))?;
                Value::Count(
                    run.controllers()
                        .map(|(_, c)| c.controller_metrics().total(*label))
                        .sum(),
                )
            }
            Query::WaitAfterFailure { key, failure } => {
                let mut sim = first(&run)?;
                let id = find(&sim, key)?;
                while sim.item(id).retries_total < *failure {
                    match b.step(&mut sim)? {
                        Some(t) if t <= HORIZON => {}
                        _ => {
                            return Err(format!(
                                "{key} does not fail {failure} time(s) within a week"
                            ))
                        }
                    }
                }
                let retry = sim
                    .details(id)
                    .and_then(|d| d.retries.back())
                    .ok_or("no failure")?;
                Value::Duration(retry.delay)
            }
            Query::NextWait { key } => {
                let sim = first(&run)?;
                Value::Duration(
                    sim.next_delay(key)
                        .ok_or_else(|| format!("no key {key:?} in the scene"))?,
                )
            }
            Query::DeepestDebt { until } => {
                let mut sim = first(&run)?;
                let mut lowest = f64::INFINITY;
                // (From the scene's instant: at most MAX_DEBT_SAMPLES + 1 samples.)
                let mut t = now.min(*until);
                while t <= *until {
                    b.run_sim(&mut sim, t)?;
                    lowest = lowest.min(sim.bucket_view().map_or(0.0, |v| v.tokens));
                    t += MILLISECOND;
                }
                Value::Tokens((-lowest).max(0.0))
            }
            Query::NumRequeues { key, at } => {
                let mut sim = first(&run)?;
                b.run_sim(&mut sim, *at)?;
                let id = find(&sim, key)?;
                Value::Count(sim.queue().num_requeues(id))
            }
            Query::Reconciles { key, until } => {
                let mut sim = first(&run)?;
                b.run_sim(&mut sim, *until)?;
                let id = find(&sim, key)?;
                Value::Count(sim.item(id).reconciles)
            }
            Query::NthReconcile { n } => {
                // Reconciles started since the run began: ended ones and
                // the ones workers hold now.
                let started = |sim: &Simulation| -> u64 {
                    let ended: u64 = ResultLabel::ALL
                        .iter()
                        .map(|l| sim.controller_metrics().total(*l))
                        .sum();
                    let busy = sim
                        .workers()
                        .iter()
                        .filter(|w| !matches!(w, WorkerState::Idle))
                        .count() as u64;
                    ended + busy
                };
                let mut sim = first(&run)?;
                while started(&sim) < *n {
                    match b.step(&mut sim)? {
                        Some(t) if t <= HORIZON => {}
                        _ => return Err(format!("fewer than {n} reconciles within a week")),
                    }
                }
                Value::Instant(sim.now())
            }
            Query::WaitForWorker { key, since } => {
                let mut sim = first(&run)?;
                sim.set_log_capacity(1024);
                loop {
                    let before = sim.log_total();
                    match b.step(&mut sim)? {
                        Some(t) if t <= HORIZON => {}
                        _ => return Err(format!("no worker takes {key} within a week")),
                    }
                    let new = (sim.log_total() - before) as usize;
                    let id = sim.find(key);
                    let taken = sim.log().iter().rev().take(new).find(|e| {
                        e.at >= *since
                            && matches!(e.event, SimEvent::ReconcileStart { item, .. } if Some(item) == id)
                    });
                    if let Some(e) = taken {
                        return Ok(Value::Duration(e.at - *since));
                    }
                }
            }
            Query::ReconcilesPerSecond { from, until } => {
                if until <= from {
                    return Err("until must come after from".into());
                }
                let ran = |m: &Manager| -> u64 {
                    m.controllers().map(|(_, c)| c.inner_reconciles()).sum()
                };
                b.run(&mut run, *from)?;
                let before = ran(&run);
                b.run(&mut run, *until)?;
                let secs = (*until - *from).as_nanos() as f64 / 1e9;
                Value::PerSecond((ran(&run) - before) as f64 / secs)
            }
            Query::ConvergedAt { until } => {
                b.run(&mut run, *until)?;
                let mut last = Instant::T0;
                for (name, c) in run.controllers() {
                    let at = c.converged_at().ok_or_else(|| {
                        format!(
                            "{name} has not converged by {}",
                            format_go_duration(until.since_t0())
                        )
                    })?;
                    last = last.max(at);
                }
                Value::Instant(last)
            }
            Query::RequestsPerSecond { until } => {
                if *until <= Instant::T0 {
                    return Err("until must be after the start".into());
                }
                b.run(&mut run, *until)?;
                let (requests, _) = run.client_totals();
                Value::PerSecond(requests as f64 / (until.as_nanos() as f64 / 1e9))
            }
            Query::ClientWait { until } => {
                b.run(&mut run, *until)?;
                Value::Duration(run.client_totals().1)
            }
        })
    }
}

/// Work spent answering, out of what a question may take.
struct Budget {
    left: u64,
    total: u64,
}

impl Budget {
    fn over(&self) -> String {
        format!(
            "answering it takes more than {} work units (the budget of one step): ask about a shorter window or a smaller scene",
            self.total
        )
    }

    /// The run on to `t`; a run that is stuck stays where it got stuck.
    fn run(&mut self, run: &mut Manager, t: Instant) -> Result<(), String> {
        let reached = run.run_until_bounded(t, self.left);
        self.left = run.budget_left();
        if reached || run.stalled() {
            Ok(())
        } else {
            Err(self.over())
        }
    }

    fn run_sim(&mut self, sim: &mut Simulation, t: Instant) -> Result<(), String> {
        let reached = sim.run_until_bounded(t, self.left);
        self.left = sim.budget_left();
        if reached || sim.stalled().is_some() {
            Ok(())
        } else {
            Err(self.over())
        }
    }

    /// The next instant anything happens, handled; every step costs a unit.
    fn step(&mut self, sim: &mut Simulation) -> Result<Option<Instant>, String> {
        if self.left == 0 {
            return Err(self.over());
        }
        let t = sim.step_bounded(self.left);
        self.left = sim.budget_left().min(self.left - 1);
        Ok(t)
    }
}

/// A goal checked on a scene: each condition's figure and whether it holds.
pub fn check(goal: &Goal, scene: &Manager) -> Vec<(Result<Value, String>, bool)> {
    goal.conditions
        .iter()
        .map(|c| {
            let v = c.query.answer(scene);
            let met = v.as_ref().is_ok_and(|v| c.met_by(*v));
            (v, met)
        })
        .collect()
}

impl Condition {
    /// Whether `value` is within the bounds.
    pub fn met_by(&self, value: Value) -> bool {
        let x = value.number();
        self.at_most.is_none_or(|m| x <= m.value()) && self.at_least.is_none_or(|m| x >= m.value())
    }
}

/// A guess or an answer as it is compared: without spaces, thousands
/// separators or case, and without the `t=` of an instant.
fn cleaned(s: &str) -> String {
    let s = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != '_')
        .collect::<String>()
        // Units and numbers are ASCII: no Unicode case tables needed.
        .to_ascii_lowercase();
    match s.strip_prefix("t=") {
        Some(rest) => rest.to_string(),
        None => s,
    }
}

/// The number a cleaned text starts with (`10requeues` is 10).
fn leading_number(s: &str) -> Option<f64> {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(s.len());
    s[..end].parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Whether an answer (or a guess) is a time: a duration or an instant
/// (`16m40s`, `t=19s`), which a guess may write in any unit.
pub fn is_time(s: &str) -> bool {
    workqueue_core::parse_go_duration(&cleaned(s)).is_ok()
}

/// Whether a cleaned text has a value to compare: a time or a number.
fn valued(s: &str) -> bool {
    workqueue_core::parse_go_duration(s).is_ok() || leading_number(s).is_some()
}

/// Whether a guess can be compared with an answer: any guess where the
/// answer is words; where it is a number or a time, a guess that reads as
/// one (`abc` for a count is a slip, not a prediction), and below zero only
/// where the answer is (no count or time here is). An empty guess is no
/// guess: the answer is shown without one.
pub fn readable_guess(guess: &str, answer: &str) -> bool {
    let (g, a) = (cleaned(guess), cleaned(answer));
    g.is_empty() || !valued(&a) || (valued(&g) && (!negative(&g) || negative(&a)))
}

/// Whether a cleaned value is below zero (`-5`, `-1s`).
pub fn negative(s: &str) -> bool {
    s.starts_with('-')
}

/// Whether a guess matches an answer by value: durations in any unit
/// (`1000s` = `16m40s`, `0.1s` = `100ms`), numbers with or without thousands
/// separators, within `tolerance` (a fraction of the answer); other text
/// compares without case or spaces.
pub fn same_answer(guess: &str, answer: &str, tolerance: f64) -> bool {
    let (g, a) = (cleaned(guess), cleaned(answer));
    if g.is_empty() {
        return false;
    }
    let close = |g: f64, a: f64| (g - a).abs() <= tolerance * a.abs();
    if let (Ok(g), Ok(a)) = (
        workqueue_core::parse_go_duration(&g),
        workqueue_core::parse_go_duration(&a),
    ) {
        return close(g.as_nanos() as f64, a.as_nanos() as f64);
    }
    match (leading_number(&g), leading_number(&a)) {
        (Some(g), Some(a)) => close(g, a),
        _ => g == a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guess_below_zero_is_a_slip_where_the_answer_is_not() {
        assert!(!readable_guess("-5", "70,000"));
        assert!(!readable_guess("-1s", "t=10.015s"));
        assert!(readable_guess("5", "70,000"));
        assert!(readable_guess("-5", "-3"));
        assert!(readable_guess("-5", "the informer"));
    }

    #[test]
    fn guesses_match_by_value() {
        assert!(same_answer("1000s", "16m40s", 0.0));
        assert!(same_answer("0.1s", "100ms", 0.0));
        assert!(same_answer("65000", "70,000", 0.1));
        assert!(!same_answer("60000", "70,000", 0.1));
        assert!(same_answer("10.015s", "t=10.015s", 0.0));
        assert!(!same_answer("", "7", 0.0));
    }

    #[test]
    fn a_guess_for_a_number_or_a_time_must_read_as_one() {
        assert!(readable_guess("6", "6"));
        assert!(readable_guess("70,000", "70,000"));
        assert!(readable_guess("20s", "t=19s"));
        assert!(readable_guess("t=20s", "t=19s"));
        assert!(
            readable_guess("10 requeues", "10.0"),
            "a number first, words after"
        );
        assert!(
            !readable_guess("about 10", "10.0"),
            "compared by its leading number, so it must lead"
        );
        assert!(readable_guess("", "6"), "no guess: the answer alone");
        assert!(!readable_guess("abc", "6"));
        assert!(!readable_guess("soon", "t=19s"));
        assert!(!readable_guess("-", "6"));
        assert!(
            readable_guess("requeue", "requeue_after"),
            "words answer words"
        );
    }

    #[test]
    fn values_read_as_the_page_shows_them() {
        assert_eq!(Value::Count(70_000).text(), "70,000");
        assert_eq!(
            Value::Duration(Duration::from_nanos(1000 * 1_000_000_000)).text(),
            "16m40s"
        );
        assert_eq!(
            Value::Instant(Instant::T0 + 10_015 * MILLISECOND).text(),
            "t=10.015s"
        );
        assert_eq!(Value::PerSecond(10.0).text(), "10.0");
    }
}
