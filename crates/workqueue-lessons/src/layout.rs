//! What no screen can show. A step's focus names the lanes and the key its
//! text is about, and the stage keeps them on screen at every size; some
//! asks cannot be met by any layout: a key the step's scene never has, the
//! bucket of a run without one, a manager's row for a single controller.
//! `wqsim lesson` names each such step with its line.

use workqueue_core::Source;
use workqueue_core::{Input, LimiterConfig, Scenario};

use crate::model::LessonError;
use crate::model::{Lane, Lesson};

/// Every step whose focus no layout can satisfy, in file order.
pub(crate) fn unshowable(lesson: &Lesson) -> Vec<LessonError> {
    let mut found = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let Some(setup) = lesson.setup_for(i) else {
            continue;
        };
        let mut refuse = |field: &str, reason: String| {
            found.push(LessonError {
                line: step.line,
                field: field.to_string(),
                reason: format!("step \"{}\": {reason}", step.title),
            })
        };
        if let Some(key) = &step.focus.key {
            // The set-up's inputs, and what the steps' buttons do up to here.
            let acts = lesson.steps[..=i].iter().filter_map(|s| s.act.as_ref());
            let named = named_in(&setup.scenario, key)
                || setup.inputs.iter().any(|(_, input)| names(input, key))
                || acts.flat_map(|a| &a.inputs).any(|input| names(input, key));
            if !named {
                refuse(
                    "focus.key",
                    format!("{key} is never added in this step's scene, so no screen can show it"),
                );
            }
        }
        let scene = &setup.scenario;
        if step.focus.lanes.contains(&Lane::Bucket) && !has_bucket(scene) {
            refuse(
                "focus.lanes",
                "the bucket lane is in focus, but this run's limiters have no token bucket to draw"
                    .to_string(),
            );
        }
        if step.focus.lanes.contains(&Lane::Manager) && scene.controllers.len() < 2 {
            refuse(
                "focus.lanes",
                "the manager lane is in focus, but this run has one controller: the manager's row is drawn for two or more"
                    .to_string(),
            );
        }
    }
    found
}

/// Whether any bucket is drawn for `scene`: a controller's, Crossplane's
/// global one, a shared limiter's or the API client's. Read from the
/// scenario, nothing run.
fn has_bucket(scene: &Scenario) -> bool {
    fn in_limiter(l: &LimiterConfig) -> bool {
        match l {
            LimiterConfig::Bucket { .. } | LimiterConfig::DefaultController => true,
            LimiterConfig::MaxOf { limiters } => limiters.iter().any(in_limiter),
            LimiterConfig::WithMaxWait { limiter, .. } => in_limiter(limiter),
            LimiterConfig::Exponential { .. } | LimiterConfig::FastSlow { .. } => false,
        }
    }
    scene.crossplane.is_some()
        || scene.shared_bucket.is_some()
        || scene.client_limit().is_some()
        || scene
            .controllers
            .iter()
            .any(|c| in_limiter(&scene.queue_limiter(c)))
}

/// Whether the scenario itself adds `key` (its items or its sources).
fn named_in(scenario: &Scenario, key: &str) -> bool {
    scenario.controllers.iter().any(|c| {
        c.items.iter().any(|i| i.key == key)
            || c.sources.iter().any(|s| match s {
                Source::WatchEvents { key: k, .. } => k == key,
                Source::AddMany { prefix, count, .. } => one_of_many(key, prefix, count.get()),
                Source::Resync { .. } => false,
            })
    })
}

/// Whether an input names or adds `key`.
fn names(input: &Input, key: &str) -> bool {
    match input {
        Input::Add { key: k }
        | Input::WatchEvents { key: k, .. }
        | Input::Decide { key: k, .. }
        | Input::SetScript { key: k, .. } => k == key,
        Input::AddMany { prefix, count } => one_of_many(key, prefix, count.get()),
        Input::Resync { .. } | Input::DefaultScript { .. } | Input::Shutdown => false,
    }
}

/// Whether `key` is one of `prefix0` … `prefix{count-1}`.
fn one_of_many(key: &str, prefix: &str, count: u64) -> bool {
    key.strip_prefix(prefix)
        .filter(|n| !n.is_empty() && (n == &"0" || !n.starts_with('0')))
        .and_then(|n| n.parse::<u64>().ok())
        .is_some_and(|n| n < count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading a one-step lesson says is unshowable (reading runs the
    /// check: a file with such a step is refused).
    fn unshowable_in(step: &str) -> Vec<LessonError> {
        let text = format!("# T\n\n## S\n\nText.\n\n```step\n{step}\n```\n");
        crate::lesson_or_mistakes("t", &text)
            .err()
            .unwrap_or_default()
    }

    const SCENARIO: &str = r#""scenario": {"version": 2, "controllers": [{"limiter": {"type": "exponential", "base_ns": "5ms", "max_ns": "1s"}}]}"#;

    #[test]
    fn a_key_the_scene_never_has_is_named_with_its_step_and_line() {
        let found = unshowable_in(&format!(
            r#"{{"focus": {{"lanes": ["waiting"], "key": "default/ghost"}}, "setup": {{{SCENARIO}, "inputs": [{{"do": {{"input": "add_many", "prefix": "default/pod-", "count": 10}}}}]}}}}"#
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].field.as_str()), (3, "focus.key"));
        assert!(
            found[0].reason.contains("default/ghost"),
            "{}",
            found[0].reason
        );
    }

    #[test]
    fn keys_added_many_at_once_are_found_and_the_bucket_of_a_bucketless_run_is_not() {
        let fields: Vec<_> = unshowable_in(&format!(
            r#"{{"focus": {{"lanes": ["bucket", "manager"], "key": "default/pod-9"}}, "setup": {{{SCENARIO}, "inputs": [{{"do": {{"input": "add_many", "prefix": "default/pod-", "count": 10}}}}]}}}}"#
        ))
        .into_iter()
        .map(|e| e.reason)
        .collect();
        assert_eq!(fields.len(), 2, "{fields:?}");
        assert!(
            fields[0].contains("bucket") && fields[1].contains("manager"),
            "{fields:?}"
        );
    }

    #[test]
    fn numbered_keys_match_exactly() {
        assert!(one_of_many("p-0", "p-", 1));
        assert!(one_of_many("p-9", "p-", 10));
        assert!(!one_of_many("p-10", "p-", 10));
        assert!(!one_of_many("p-01", "p-", 10));
        assert!(!one_of_many("p-", "p-", 10));
        assert!(!one_of_many("q-1", "p-", 10));
    }

    #[test]
    fn every_built_in_lesson_can_be_shown() {
        for (id, text) in crate::BUILT_IN_FILES {
            let l = crate::lesson(id, text).unwrap();
            assert_eq!(unshowable(&l), Vec::new(), "{id}");
        }
    }
}
