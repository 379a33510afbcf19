//! Every query driven with extreme values (the smallest and largest 64-bit
//! instants, zero, 2^64-1, just past a week): the file is refused naming the
//! query's field and its line, or answered, never a panic (these tests run
//! in debug builds, where an overflow panics) and never unbounded work.

use proptest::prelude::*;
use workqueue_core::{Instant, Manager, Scenario};
use workqueue_lessons::lesson;
use workqueue_lessons::query::{Query, HORIZON, MAX_COUNT};

fn lesson_with(query: &str) -> String {
    format!(
        r#"# Extremes

## One key

```step
{{
  "focus": {{"lanes": ["waiting"]}},
  "setup": {{
    "scenario": {{"version": 2, "controllers": [{{"default_script": {{"type": "fail_then_succeed", "failures": 3}}}}]}},
    "inputs": [{{"do": {{"input": "add", "key": "a"}}}}]
  }},
  "question": {{
    "ask": "What?",
    "query": {query}
  }}
}}
```
"#
    )
}

const INSTANTS: [i64; 9] = [
    i64::MIN,
    i64::MIN + 1,
    -1,
    0,
    1,
    HORIZON.as_nanos(),
    HORIZON.as_nanos() + 1,
    i64::MAX - 1,
    i64::MAX,
];
const COUNTS: [u64; 6] = [0, 1, MAX_COUNT + 1, 1 << 63, u64::MAX - 1, u64::MAX];

/// Each query's JSON with `t` for its instants (and `u` for a second one).
fn instant_queries(t: i64, u: i64) -> Vec<String> {
    vec![
        format!(r#"{{"requeues": {{"from": {t}, "until": {u}}}}}"#),
        format!(r#"{{"reconciles_per_second": {{"from": {t}, "until": {u}}}}}"#),
        format!(r#"{{"results": {{"label": "error", "until": {t}}}}}"#),
        format!(r#"{{"deepest_debt": {{"until": {t}}}}}"#),
        format!(r#"{{"num_requeues": {{"key": "a", "at": {t}}}}}"#),
        format!(r#"{{"reconciles": {{"key": "a", "until": {t}}}}}"#),
        format!(r#"{{"wait_for_worker": {{"key": "a", "since": {t}}}}}"#),
        format!(r#"{{"converged_at": {{"until": {t}}}}}"#),
        format!(r#"{{"requests_per_second": {{"until": {t}}}}}"#),
        format!(r#"{{"client_wait": {{"until": {t}}}}}"#),
    ]
}

fn count_queries(n: u64) -> Vec<String> {
    vec![
        format!(r#"{{"wait_after_failure": {{"key": "a", "failure": {n}}}}}"#),
        format!(r#"{{"nth_reconcile": {{"n": {n}}}}}"#),
    ]
}

/// Refused by field and line, or read and answered (an answer may itself
/// be a refusal in words, such as "does not fail 7 times within a week").
fn refused_or_answered(query: &str) {
    let text = lesson_with(query);
    match lesson("extremes", &text) {
        Err(e) => {
            let line = text.lines().nth(e.line - 1).unwrap_or("");
            let name = e.field.rsplit('.').next().unwrap_or("");
            assert!(
                e.field.contains("query")
                    || e.field.contains("until")
                    || e.field.contains("at")
                    || e.field.contains("since"),
                "{query}: {e}"
            );
            assert!(
                line.contains(&format!("\"{name}\"")) || line.contains("query"),
                "{query}: line {} is {line:?}: {e}",
                e.line
            );
        }
        Ok(l) => {
            let _ = l.answer(0).expect("a question");
        }
    }
}

#[test]
fn every_instant_query_refuses_or_answers_extreme_instants() {
    for t in INSTANTS {
        for u in INSTANTS {
            for q in instant_queries(t, u) {
                refused_or_answered(&q);
            }
        }
    }
}

#[test]
fn every_count_query_refuses_or_answers_extreme_counts() {
    for n in COUNTS {
        for q in count_queries(n) {
            refused_or_answered(&q);
        }
    }
}

#[test]
fn out_of_range_values_are_refused_with_the_field_named() {
    let e = lesson(
        "x",
        &lesson_with(
            r#"{"requeues": {"from": -9223372036854775808, "until": 9223372036854775807}}"#,
        ),
    )
    .unwrap_err();
    assert!(e.field.ends_with("from"), "{e}");
    assert!(e.reason.contains("out of range"), "{e}");
    let e = lesson("x", &lesson_with(r#"{"deepest_debt": {"until": "168h"}}"#)).unwrap_err();
    assert!(
        e.field.ends_with("until") && e.reason.contains("every millisecond"),
        "{e}"
    );
    let e = lesson(
        "x",
        &lesson_with(r#"{"wait_after_failure": {"key": "a", "failure": 18446744073709551615}}"#),
    )
    .unwrap_err();
    assert!(e.field.ends_with("failure"), "{e}");
}

fn scene() -> Manager {
    let s = Scenario::from_json(r#"{"version": 2, "controllers": [{"default_script": {"type": "fail_then_succeed", "failures": 3}, "items": [{"key": "a"}]}]}"#).unwrap();
    Manager::new(&s).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    // Any window: checked and refused, or answered, on the run itself.
    #[test]
    fn any_window_is_refused_or_answered(from in any::<i64>(), until in any::<i64>(), near in 0..HORIZON.as_nanos()) {
        let m = scene();
        for (from, until) in [(from, until), (near, until), (from, near), (near / 2, near)] {
            let q = Query::Requeues { from: Instant::from_nanos(from), until: Instant::from_nanos(until) };
            let checked = q.check();
            let answered = q.answer(&m);
            prop_assert_eq!(checked.is_ok(), answered.is_ok(), "{:?}", q);
            let q = Query::ReconcilesPerSecond { from: Instant::from_nanos(from), until: Instant::from_nanos(until) };
            if q.check().is_ok() { prop_assert!(q.answer(&m).is_ok()); } else { prop_assert!(q.answer(&m).is_err()); }
        }
    }
}
