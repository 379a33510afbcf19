//! A lesson with a mistake is refused, and the refusal names the line of
//! the file and the field at fault.

use workqueue_lessons::{lesson, LessonError};

/// A small, correct lesson; each test below breaks one thing in it.
const GOOD: &str = r#"# A small lesson

Some *intro* prose.

## One key

A key is added and fails.

```step
{
  "focus": {"lanes": ["waiting"], "key": "default/a"},
  "setup": {
    "scenario": {"version": 2, "controllers": [{"default_script": {"type": "always", "outcome": {"kind": "error"}}}]},
    "inputs": [{"do": {"input": "add", "key": "default/a"}}]
  },
  "question": {
    "ask": "How many requeues in the first second?",
    "unit": "requeues",
    "query": {"requeues": {"until": "1s"}}
  }
}
```
"#;

fn refused(text: &str) -> LessonError {
    lesson("small", text).expect_err("refused")
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).expect(needle) + 1
}

#[test]
fn the_good_lesson_reads_and_answers() {
    let l = lesson("small", GOOD).unwrap();
    assert_eq!(l.title, "A small lesson");
    assert_eq!(l.intro, "Some *intro* prose.");
    assert_eq!(l.steps[0].title, "One key");
    assert_eq!(l.steps[0].line, line_of(GOOD, "## One key"));
    assert_eq!(l.answer(0).unwrap().unwrap().text(), "7");
}

/// How a refusal's field must read.
enum Field {
    Is(&'static str),
    EndsWith(&'static str),
    Contains(&'static str),
}

/// One mistake made in GOOD, by replacing `[this, with]`, and its refusal:
/// `(on, field, reason)` — it names the first line holding `on`, a field
/// as `field` says and, where given, a reason with `reason` in it.
struct Mistake {
    name: &'static str,
    replace: [&'static str; 2],
    refused: (&'static str, Field, Option<&'static str>),
}

#[test]
fn each_field_mistake_is_named_on_its_line() {
    let mistakes = [
        Mistake {
            name: "an unknown field",
            replace: [r#""unit": "requeues","#, r#""unit": "requeues", "hint": "x","#],
            refused: ("\"hint\"", Field::EndsWith("hint"), Some("unknown field")),
        },
        // A field refused after reading is named on the line of its own
        // value, not on the first line where the same name stands (two
        // controllers).
        Mistake {
            name: "a refused field whose name repeats",
            replace: [
                r#""controllers": [{"default_script": {"type": "always", "outcome": {"kind": "error"}}}]"#,
                "\"controllers\": [\n      {\"name\": \"a\", \"controller\": {\"workers\": 2}},\n      {\"name\": \"b\", \"controller\": {\"workers\": 0}}\n    ]",
            ],
            refused: ("\"workers\": 0", Field::EndsWith("controllers[1].controller.workers"), None),
        },
        Mistake {
            name: "a bad duration",
            replace: [r#""until": "1s""#, r#""until": "1 sec""#],
            refused: ("1 sec", Field::Contains("until"), None),
        },
        Mistake {
            name: "a question the vocabulary lacks",
            replace: [r#"{"requeues": {"until": "1s"}}"#, r#"{"happiness": {"until": "1s"}}"#],
            refused: ("happiness", Field::Contains("query"), Some("unknown variant `happiness`")),
        },
        Mistake {
            name: "a lane the stage lacks",
            replace: [r#"["waiting"]"#, r#"["waiting", "backlog"]"#],
            refused: ("backlog", Field::Contains("lanes"), Some("backlog")),
        },
        // A time goal's bound without its unit would read as nanoseconds:
        // an exercise no one could pass. Refused where it is written.
        Mistake {
            name: "a time bound without a unit",
            replace: [
                "  \"question\": {\n    \"ask\": \"How many requeues in the first second?\",\n    \"unit\": \"requeues\",\n    \"query\": {\"requeues\": {\"until\": \"1s\"}}\n  }",
                "  \"goal\": {\"describe\": \"converge\", \"conditions\": [\n    {\"query\": {\"converged_at\": {\"until\": \"10m\"}},\n     \"at_most\": 35}\n  ]}",
            ],
            refused: ("\"at_most\": 35", Field::EndsWith("goal.conditions[0].at_most"), Some("no unit")),
        },
        Mistake {
            name: "a count bound with a unit",
            replace: [
                "  \"question\": {\n    \"ask\": \"How many requeues in the first second?\",\n    \"unit\": \"requeues\",\n    \"query\": {\"requeues\": {\"until\": \"1s\"}}\n  }",
                "  \"goal\": {\"describe\": \"few\", \"conditions\": [\n    {\"query\": {\"requeues\": {\"until\": \"1s\"}},\n     \"at_most\": \"5s\"}\n  ]}",
            ],
            refused: ("\"at_most\": \"5s\"", Field::EndsWith("goal.conditions[0].at_most"), Some("not a time")),
        },
        Mistake {
            name: "a scenario mistake, named under the setup",
            replace: [
                r#"{"version": 2, "controllers": [{"#,
                r#"{"version": 2, "controllers": [{"controller": {"workers": 0}, "#,
            ],
            refused: (
                "\"workers\"",
                Field::Is("setup.scenario.controllers[0].controller.workers"),
                None,
            ),
        },
    ];
    for Mistake {
        name,
        replace: [this, with],
        refused: (on, field, reason),
    } in mistakes
    {
        let text = GOOD.replace(this, with);
        let e = refused(&text);
        assert_eq!(e.line, line_of(&text, on), "{name}: {e}");
        match field {
            Field::Is(f) => assert_eq!(e.field, f, "{name}: {e}"),
            Field::EndsWith(f) => assert!(e.field.ends_with(f), "{name}: {e}"),
            Field::Contains(f) => assert!(e.field.contains(f), "{name}: {e}"),
        }
        if let Some(reason) = reason {
            assert!(e.reason.contains(reason), "{name}: {e}");
        }
    }
}

#[test]
fn structure_mistakes_are_named() {
    let e = refused("no title\n\n## A step\n");
    assert_eq!((e.line, e.field.as_str()), (1, "title"), "{e}");
    let e = refused("# Title\n\nJust prose.\n");
    assert_eq!(e.field, "steps", "{e}");
    let e = refused("# Title\n\n## A step\n\nNo block.\n");
    assert_eq!((e.line, e.field.as_str()), (3, "focus"), "{e}");
    let text = GOOD.replace(
        "## One key",
        "## One key\n\n```step\n{\"focus\": {\"lanes\": [\"queue\"]}}\n```\n",
    );
    let e = refused(&text);
    assert!(e.reason.contains("second step block"), "{e}");
    let e = refused(&"x".repeat(300 * 1024));
    assert_eq!(e.field, "(file)", "{e}");
    let no_setup = GOOD.replace(
        r#"  "setup": {"#,
        r#"  "wait": {"time": "1s"}, "unused": {"#,
    );
    assert!(refused(&no_setup).reason.contains("unknown field"));
}

#[test]
fn raw_html_stays_prose() {
    let text = GOOD.replace("A key is added and fails.", "<script>alert(1)</script>");
    let l = lesson("small", &text).unwrap();
    assert_eq!(l.steps[0].text, "<script>alert(1)</script>");
}

// A mistake is named on the line an editor shows, whatever the file's line
// endings: LF, CR LF, or a lone CR (old Mac files).
#[test]
fn a_mistake_is_on_its_line_whatever_the_line_endings() {
    let text = GOOD.replace(
        r#""unit": "requeues","#,
        r#""unit": "requeues", "hint": "x","#,
    );
    let want = line_of(&text, "\"hint\"");
    for (name, ending) in [("LF", "\n"), ("CR LF", "\r\n"), ("CR", "\r")] {
        let e = refused(&text.replace('\n', ending));
        assert_eq!(e.line, want, "{name}: {e}");
        assert!(e.field.ends_with("hint"), "{name}: {e}");
    }
    let l = lesson("small", &GOOD.replace('\n', "\r")).unwrap();
    assert_eq!(l.steps[0].line, line_of(GOOD, "## One key"));
}

// Bytes that are not UTF-8 are refused with their line and byte offset.
#[test]
fn bytes_that_are_not_utf8_are_named_by_line_and_offset() {
    let mut bytes = GOOD.as_bytes().to_vec();
    let at = GOOD.find("A key is added").unwrap();
    bytes[at] = 0xff;
    let e = workqueue_lessons::parse::text_of(&bytes).unwrap_err();
    assert_eq!(e.line, line_of(GOOD, "A key is added"), "{e}");
    assert!(e.reason.contains(&format!("byte {at}")), "{e}");
    // The same with old-Mac line endings.
    let cr: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    assert_eq!(
        workqueue_lessons::parse::text_of(&cr).unwrap_err().line,
        e.line
    );
    assert!(workqueue_lessons::parse::text_of(GOOD.as_bytes()).is_ok());
}

// An HTML comment left open is named on the line where it opens.
#[test]
fn an_unclosed_comment_is_named_where_it_opens() {
    let text = GOOD.replace(
        "A key is added and fails.",
        "A key is added and fails.\n\n<!-- a note for myself",
    );
    let e = refused(&text);
    assert_eq!(e.line, line_of(&text, "<!--"), "{e}");
    assert!(e.reason.contains("never closed"), "{e}");
    // A closed one, then an open one further down: the second is named.
    let text = GOOD
        .replace(
            "Some *intro* prose.",
            "Some *intro* prose. <!-- fine -->\n\n<!--\nstill fine\n-->",
        )
        .replace(
            "A key is added and fails.",
            "A key is added and fails.\n\n<!-- left open",
        );
    let e = refused(&text);
    assert_eq!(e.line, line_of(&text, "<!-- left open"), "{e}");
    assert!(lesson(
        "small",
        &GOOD.replace("Some *intro* prose.", "Some <!-- x --> prose.")
    )
    .is_ok());
}

/// Speaker notes: a ```notes block after a step's heading, anywhere in the
/// step; one per step, bounded; never part of the prose the room reads.
#[test]
fn speaker_notes_belong_to_their_step_and_stay_out_of_its_prose() {
    let text =
        format!("{GOOD}\n```notes\nAsk: how many?\nAnswer: **7**. The usual guess is 200.\n```\n");
    let l = lesson("small", &text).unwrap();
    assert_eq!(
        l.steps[0].notes,
        "Ask: how many?\nAnswer: **7**. The usual guess is 200."
    );
    assert!(!l.steps[0].text.contains("Ask"), "{}", l.steps[0].text);
    let view = workqueue_lessons::view::view(&l);
    assert!(
        view.steps[0].notes.contains("<strong>7</strong>"),
        "{}",
        view.steps[0].notes
    );
    assert!(
        view.steps[0].notes.contains("how many?<br"),
        "one line each: {}",
        view.steps[0].notes
    );
    assert!(!view.steps[0].text.contains("usual guess"));
    // Before the first step: refused on the fence's line.
    let early = GOOD.replace("## One key", "```notes\nearly\n```\n\n## One key");
    let e = refused(&early);
    assert_eq!(
        (e.line, e.field.as_str()),
        (line_of(&early, "```notes"), "notes"),
        "{e}"
    );
    // Two in one step.
    let twice = format!("{text}\n```notes\nagain\n```\n");
    let e = refused(&twice);
    assert!(e.reason.contains("second notes block"), "{e}");
    let last = twice
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "```notes")
        .last()
        .unwrap()
        .0;
    assert_eq!(e.line, last + 1);
    // Too long.
    let long = format!("{GOOD}\n```notes\n{}\n```\n", "n".repeat(5000));
    let e = refused(&long);
    assert!(e.reason.contains("at most 4000 characters"), "{e}");
    // Without notes, a step has none.
    assert_eq!(lesson("small", GOOD).unwrap().steps[0].notes, "");
}
