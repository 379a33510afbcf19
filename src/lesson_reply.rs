//! The lesson worker's replies, read from `serde_json::Value`. serde's
//! derived decoder for a reply weighed 13.6 KB gzipped of the page's first
//! load (over its budget); reading the worker's own JSON field by field
//! costs a fraction of that. A round-trip test against the worker's
//! `Serialize` output keeps the two in step.

use serde_json::Value;
use workqueue_core::ResultLabel;
use workqueue_lessons::view::{Figure, GoalView, LessonView, QuestionView, Reply, StepView};
use workqueue_lessons::{Focus, Lane, Wait};

fn text(v: &Value, name: &str) -> Option<String> {
    v.get(name)?.as_str().map(str::to_string)
}

fn number(v: &Value, name: &str) -> Option<u64> {
    v.get(name)?.as_u64()
}

/// A field that may be `null` or absent: `Some(None)` then; `None` when it
/// is there but unreadable.
fn optional<T>(v: &Value, name: &str, read: impl Fn(&Value) -> Option<T>) -> Option<Option<T>> {
    match v.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(x) => read(x).map(Some),
    }
}

fn lane(v: &Value) -> Option<Lane> {
    Some(match v.as_str()? {
        "sources" => Lane::Sources,
        "queue" => Lane::Queue,
        "workers" => Lane::Workers,
        "waiting" => Lane::Waiting,
        "bucket" => Lane::Bucket,
        "manager" => Lane::Manager,
        _ => return None,
    })
}

fn wait(v: &Value) -> Option<Wait> {
    if let Some(key) = v.get("deciding") {
        return Some(Wait::Deciding(key.as_str()?.to_string()));
    }
    if let Some(t) = v.get("time") {
        return Some(Wait::Time(t.as_i64()?));
    }
    let r = v.get("results")?;
    let name = r.get("label")?.as_str()?;
    let label = ResultLabel::ALL.into_iter().find(|l| l.as_str() == name)?;
    Some(Wait::Results {
        label,
        count: number(r, "count")?,
    })
}

fn step(v: &Value) -> Option<StepView> {
    let focus = v.get("focus")?;
    Some(StepView {
        title: text(v, "title")?,
        text: text(v, "text")?,
        line: number(v, "line")? as usize,
        focus: Focus {
            lanes: focus
                .get("lanes")?
                .as_array()?
                .iter()
                .map(lane)
                .collect::<Option<_>>()?,
            key: optional(focus, "key", |k| k.as_str().map(str::to_string))?,
        },
        setup: optional(v, "setup", |s| s.as_str().map(str::to_string))?,
        wait: optional(v, "wait", wait)?,
        question: optional(v, "question", |q| {
            Some(QuestionView {
                ask: text(q, "ask")?,
                unit: text(q, "unit")?,
                tolerance: q.get("tolerance")?.as_f64()?,
                answer: text(q, "answer")?,
            })
        })?,
        goal: optional(v, "goal", |g| {
            Some(GoalView {
                describe: text(g, "describe")?,
            })
        })?,
        act: optional(v, "act", |a| a.as_str().map(str::to_string))?,
        compare_limiters: v.get("compare_limiters")?.as_bool()?,
    })
}

pub fn lesson(v: &Value) -> Option<LessonView> {
    Some(LessonView {
        id: text(v, "id")?,
        title: text(v, "title")?,
        intro: text(v, "intro")?,
        steps: v
            .get("steps")?
            .as_array()?
            .iter()
            .map(step)
            .collect::<Option<_>>()?,
    })
}

/// A reply as the worker wrote it (serde's externally tagged enum).
pub fn reply(json: &str) -> Option<Reply> {
    let v: Value = serde_json::from_str(json).ok()?;
    let (tag, body) = v.as_object()?.iter().next()?;
    let seq = number(body, "seq")?;
    Some(match tag.as_str() {
        "Lesson" => Reply::Lesson {
            seq,
            lesson: lesson(body.get("lesson")?)?,
        },
        "Refused" => Reply::Refused {
            seq,
            file: text(body, "file")?,
            line: number(body, "line")? as usize,
            field: text(body, "field")?,
            reason: text(body, "reason")?,
        },
        "Figures" => Reply::Figures {
            seq,
            figures: body
                .get("figures")?
                .as_array()?
                .iter()
                .map(|f| {
                    Some(Figure {
                        text: text(f, "text")?,
                        met: f.get("met")?.as_bool()?,
                    })
                })
                .collect::<Option<_>>()?,
        },
        "Failed" => Reply::Failed {
            seq,
            reason: text(body, "reason")?,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in lesson, as the worker sends it, reads back exactly;
    /// so do the other replies.
    #[test]
    fn what_the_worker_writes_reads_back_the_same() {
        for e in crate::lessons::all().iter() {
            let sent = Reply::Lesson {
                seq: 3,
                lesson: (*e.lesson.clone().unwrap()).clone(),
            };
            let json = serde_json::to_string(&sent).unwrap();
            assert_eq!(reply(&json), Some(sent), "{}", e.id);
        }
        for sent in [
            Reply::Refused {
                seq: 1,
                file: "a.md".into(),
                line: 4,
                field: "focus".into(),
                reason: "no".into(),
            },
            Reply::Figures {
                seq: 2,
                figures: vec![Figure {
                    text: "t=1s".into(),
                    met: true,
                }],
            },
            Reply::Failed {
                seq: 5,
                reason: "x".into(),
            },
        ] {
            let json = serde_json::to_string(&sent).unwrap();
            assert_eq!(reply(&json), Some(sent));
        }
        assert_eq!(reply("{\"Lesson\": {\"seq\": 1}}"), None);
        assert_eq!(reply("nonsense"), None);
    }
}
