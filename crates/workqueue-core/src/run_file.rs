//! A run as a file: a scenario, inputs at their instants, and the instant
//! the run was left at. It is exactly a lesson step's `setup` block, so a
//! run downloaded from the page pastes into a lesson as it is, and a
//! lesson's set-up loads into the page.
//!
//! ```json
//! {"scenario": {"version": 2, "controllers": [{}]},
//!  "inputs": [{"at": "5s", "do": {"input": "add", "key": "ours/late"}}],
//!  "run_to": "7s"}
//! ```

use crate::spans::{At, Delay, RunLength};
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::events::Input;
use crate::limits::MAX_RUN;
use crate::manager::Manager;
use crate::scenario::{ItemSpec, Scenario, ScenarioError, Source};
use crate::time::go::format_go_duration;
use crate::time::Instant;
use crate::validate;

/// A scenario, the inputs made while it ran, and the instant it reached.
// The run file as written and read; once `checked`, replaying `inputs` (to
// the first controller, at their instants) to `run_to` reproduces it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The scenario the run started from.
    pub scenario: Scenario,
    /// What was done to the run, in order, each at its instant.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "timed")]
    #[schemars(with = "Vec<TimedInput>")]
    pub inputs: Vec<(Instant, Input)>,
    /// The instant the run reached.
    #[serde(default)]
    pub run_to: Instant,
}

/// An input at an instant of the run: `{"at": "5s", "do": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TimedInput {
    /// The instant it was done.
    #[serde(default)]
    pub at: Instant,
    /// What was done.
    #[serde(rename = "do")]
    pub input: Input,
}

/// A run's inputs as the file writes them, each a [`TimedInput`].
mod timed {
    use super::*;

    pub(super) fn serialize<S: serde::Serializer>(
        inputs: &[(Instant, Input)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(inputs.iter().map(|(at, input)| TimedInput {
            at: *at,
            input: input.clone(),
        }))
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(Instant, Input)>, D::Error> {
        let read = Vec::<TimedInput>::deserialize(d)?;
        Ok(read.into_iter().map(|t| (t.at, t.input)).collect())
    }
}

fn out_of_range(field: String, t: Instant) -> ScenarioError {
    ScenarioError {
        field,
        reason: format!(
            "{} is out of range: use 0s to {}",
            format_go_duration(t.since_t0()),
            format_go_duration(MAX_RUN)
        ),
        line: None,
    }
}

impl Run {
    /// The run, every field checked, its inputs in time order (written in
    /// any order, applied in time order; two at one instant keep theirs); a
    /// refusal names its field from the run's top
    /// (`scenario.controllers[0].limiter`, `inputs[2].at`).
    pub fn checked(mut self) -> Result<Run, ScenarioError> {
        self.scenario.validate().map_err(|e| ScenarioError {
            field: format!("scenario.{}", e.field),
            ..e
        })?;
        for (i, (at, input)) in self.inputs.iter().enumerate() {
            if !(Instant::T0..=Instant::T0 + MAX_RUN).contains(at) {
                return Err(out_of_range(format!("inputs[{i}].at"), *at));
            }
            validate::input(input).map_err(|e| ScenarioError {
                field: format!("inputs[{i}].do.{}", e.field),
                ..e
            })?;
        }
        self.inputs.sort_by_key(|(at, _)| *at);
        validate::tape(&self.inputs)?;
        if !(Instant::T0..=Instant::T0 + MAX_RUN).contains(&self.run_to) {
            return Err(out_of_range("run_to".into(), self.run_to));
        }
        Ok(self)
    }
}

/// A run file or a bare scenario file, read in one pass: its first field
/// says which (a run's fields and a scenario's share no name).
struct RunOrScenario;

/// What [`RunOrScenario`] read: a run, or a bare scenario made a run.
struct Either {
    run: Run,
    bare: bool,
}

impl<'de> Visitor<'de> for RunOrScenario {
    type Value = Either;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a run (scenario, inputs, run_to) or a scenario")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Either, A::Error> {
        let first: Option<String> = map.next_key()?;
        let bare = !matches!(first.as_deref(), Some("scenario" | "inputs" | "run_to"));
        let rest = MapAccessDeserializer::new(FirstKey { first, map });
        Ok(match bare {
            false => Either {
                run: Run::deserialize(rest)?,
                bare,
            },
            true => Either {
                run: Run {
                    scenario: <Scenario as Deserialize>::deserialize(rest)?,
                    inputs: Vec::new(),
                    run_to: Instant::T0,
                },
                bare,
            },
        })
    }
}

impl<'de> Deserialize<'de> for Either {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Either, D::Error> {
        d.deserialize_map(RunOrScenario)
    }
}

/// An object's fields with its first key, already read, handed on first.
struct FirstKey<A> {
    first: Option<String>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for FirstKey<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(key) => {
                let key: de::value::StringDeserializer<A::Error> = key.into_deserializer();
                seed.deserialize(key).map(Some)
            }
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

impl Run {
    /// Reads a run file, naming the field at fault.
    pub fn from_json(text: &str) -> Result<Run, ScenarioError> {
        crate::document::from_str::<Run>(text)?.checked()
    }

    /// Reads a run file or a bare scenario file (a run at 0s with nothing
    /// done), in one pass, naming the field at fault from the file's top.
    pub fn from_file(text: &str) -> Result<Run, ScenarioError> {
        let Either { run, bare } = crate::document::from_str::<Either>(text)?;
        match bare {
            true => run.scenario.validate().map(|()| run),
            false => run.checked(),
        }
    }

    /// The file: pretty JSON, durations as integer nanoseconds (exact).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The run built: the scenario, each input at its instant (to the first
    /// controller), then on to `run_to`.
    pub fn scene(&self) -> Result<Manager, String> {
        self.scene_within(u64::MAX)
    }

    /// The scene, refused if building it takes more than `budget` units of
    /// the core's work (a file from anyone cannot hold a page or a tool).
    pub fn scene_within(&self, budget: u64) -> Result<Manager, String> {
        let mut run = Manager::new(&self.scenario).map_err(|e| e.to_string())?;
        let mut left = budget;
        let mut reach = |run: &mut Manager, t| {
            let reached = run.run_until_bounded(t, left);
            left = run.budget_left();
            match reached {
                true => Ok(()),
                false => Err(run.stall_reason().map_or_else(
                    || format!("setting the scene up takes more than {budget} steps of work"),
                    str::to_string,
                )),
            }
        };
        for (at, input) in &self.inputs {
            reach(&mut run, *at)?;
            run.apply(0, input.clone()).map_err(|e| e.to_string())?;
        }
        reach(&mut run, self.run_to)?;
        Ok(run)
    }

    /// Keys a list of inputs adds (an `add_many` its count, an add or a watch
    /// storm its one key).
    pub fn keys_added(inputs: &[(Instant, Input)]) -> u64 {
        inputs.iter().fold(0u64, |n, (_, i)| {
            n.saturating_add(match i {
                Input::AddMany { count, .. } => count.get(),
                Input::Add { .. } | Input::WatchEvents { .. } => 1,
                _ => 0,
            })
        })
    }

    /// The estimated work of the run to `until`: its scenario with its inputs
    /// as the sources they start, costed by `estimate::work`.
    pub fn work_to(&self, until: Instant) -> f64 {
        let mut s: Scenario = self.scenario.clone();
        s.duration_ns = RunLength::saturating(until.since_t0());
        let Some(first) = s.controllers.first_mut() else {
            return 0.0;
        };
        for (at, input) in &self.inputs {
            match input {
                Input::Add { key } => first.items.push(ItemSpec {
                    key: key.clone(),
                    script: None,
                    reconcile_ns: None,
                    add_at_ns: Some(At::saturating(*at)),
                }),
                Input::AddMany { prefix, count } => first.sources.push(Source::AddMany {
                    prefix: prefix.clone(),
                    count: *count,
                    at_ns: Delay::saturating(at.since_t0()),
                    script: None,
                }),
                Input::WatchEvents {
                    key,
                    per_second,
                    duration_ns,
                } => first.sources.push(Source::WatchEvents {
                    key: key.clone(),
                    per_second: *per_second,
                    start_ns: Delay::saturating(at.since_t0()),
                    duration_ns: *duration_ns,
                }),
                Input::Resync {
                    period_ns: Some(period_ns),
                } => first.sources.push(Source::Resync {
                    period_ns: *period_ns,
                }),
                // A script for a key, a decision: no more work than the key's.
                Input::Resync { period_ns: None }
                | Input::Decide { .. }
                | Input::SetScript { .. }
                | Input::DefaultScript { .. }
                | Input::Shutdown => {}
            }
        }
        crate::estimate::work(&s)
    }
}

/// The JSON Schema of scenario files (`{"version": 2, "controllers": …}`),
/// derived from the types serde reads them into.
pub fn scenario_schema() -> serde_json::Value {
    serde_json::to_value(schema_for::<Scenario>()).unwrap_or_default()
}

/// The JSON Schema of run files (`{"scenario": …, "inputs": …, "run_to": …}`).
pub fn run_schema() -> serde_json::Value {
    serde_json::to_value(schema_for::<Run>()).unwrap_or_default()
}

/// Schemas of what a file holds: the reading contract, every field's
/// default from `#[serde(default)]`.
fn schema_for<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranges::KeyCount;
    use crate::{Duration, SECOND};

    fn run() -> Run {
        let mut scenario = Scenario::new("typed");
        scenario.seed = 3;
        Run {
            scenario,
            inputs: vec![
                (
                    Instant::T0,
                    Input::Add {
                        key: "default/a".into(),
                    },
                ),
                (
                    Instant::T0 + 2 * SECOND,
                    Input::AddMany {
                        prefix: "ns/obj-".into(),
                        count: KeyCount::lit(40),
                    },
                ),
            ],
            run_to: Instant::T0 + 5 * SECOND + Duration::from_nanos(7),
        }
    }

    #[test]
    fn a_run_round_trips_exactly() {
        let text = run().to_json();
        assert_eq!(Run::from_json(&text), Ok(run()));
        assert_eq!(Run::from_file(&text), Ok(run()));
        // A bare scenario is a run at 0s with nothing done.
        let bare = Run::from_file(&run().scenario.to_json()).unwrap();
        assert_eq!((bare.scenario, bare.inputs.len()), (run().scenario, 0));
    }

    #[test]
    fn a_lesson_setup_block_is_a_run_file() {
        let text = r#"{"scenario": {"version": 2, "controllers": [{}]},
            "inputs": [{"do": {"input": "add_many", "count": 5, "prefix": "o-"}},
                       {"at": "5s", "do": {"input": "add", "key": "ours/late"}}],
            "run_to": "7s"}"#;
        let r = Run::from_json(text).unwrap();
        assert_eq!(r.inputs[1].0, Instant::T0 + 5 * SECOND);
        assert_eq!(r.run_to, Instant::T0 + 7 * SECOND);
    }

    #[test]
    fn refusals_name_the_field_from_the_top() {
        let field = |text: &str| Run::from_json(text).unwrap_err().field;
        let base = r#"{"scenario": {"version": 2, "controllers": [{}]}"#;
        assert_eq!(field(&format!(r#"{base}, "run_to": "-1s"}}"#)), "run_to");
        assert_eq!(
            field(&format!(
                r#"{base}, "inputs": [{{"at": "-2s", "do": {{"input": "add", "key": "a"}}}}]}}"#
            )),
            "inputs[0].at"
        );
        assert_eq!(
            field(&format!(
                r#"{base}, "inputs": [{{"do": {{"input": "add", "key": ""}}}}]}}"#
            )),
            "inputs[0].do.key"
        );
        assert_eq!(
            field(
                r#"{"scenario": {"version": 2, "controllers": [{"controller": {"workers": 0}}]}}"#
            ),
            "scenario.controllers[0].controller.workers"
        );
        assert_eq!(field(&format!(r#"{base}, "at": 5}}"#)), "at");
    }
}
