//! Reading what users write (scenario files, the state inside share links)
//! through serde, the one schema: the types' derives say every name, default
//! and tag once, and `serde_path_to_error` names the field at fault.
//!
//! The internally tagged enums (a limiter, a script, a source) are read
//! through `tagged`, so a mistake inside them keeps its path too.
//! Ranges are checked afterwards by [`crate::validate`], which always names
//! the innermost field.
//!
//! A refusal is built from serde's structured parts, never from its
//! message's text: the path from `serde_path_to_error`, the line and kind
//! from `serde_json::Error`.

use serde::de::DeserializeOwned;

use crate::scenario::bad;
use crate::scenario::{Scenario, ScenarioError};

/// The field a refusal of the whole document names (it is not JSON, or
/// not the kind of value a document is).
pub const WHOLE: &str = "(document)";

/// Deserializes a whole JSON document, naming the field at fault and the
/// line (from 1) where the reader stopped: a document inside another file
/// (a lesson's step block) reports it in file lines.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(path_error)?;
    de.end().map_err(|e| not_json(&e))?;
    Ok(value)
}

/// A document that is not JSON: serde's reason, and its line.
fn not_json(e: &serde_json::Error) -> ScenarioError {
    ScenarioError {
        line: Some(e.line()),
        ..bad(WHOLE, format!("not JSON: {}", message(e)))
    }
}

/// serde_json's message without the position its `Display` appends: the
/// line is carried as a number (serde_json has no accessor for the bare
/// message, so the suffix it wrote from these same numbers is taken off).
fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&position) {
        Some(bare) if e.line() > 0 => bare.to_string(),
        _ => text,
    }
}

fn path_error(e: serde_path_to_error::Error<serde_json::Error>) -> ScenarioError {
    let path = match e.path().to_string() {
        p if p == "." || p == "?" => String::new(),
        p => p,
    };
    let inner = e.into_inner();
    if inner.is_syntax() || inner.is_eof() {
        return not_json(&inner);
    }
    // A field written before its tagged enum's tag: its path inside the
    // enum, as that reader put it.
    let text = message(&inner);
    let (within, reason) = crate::tagged::within(&text);
    let field = match (path.as_str(), within) {
        ("", None) => WHOLE.to_string(),
        ("", Some(within)) => within.to_string(),
        (p, Some(within)) => format!("{p}.{within}").replace(".[", "["),
        (p, None) => p.to_string(),
    };
    ScenarioError {
        line: Some(inner.line()),
        ..bad(field, reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ItemSpec;

    #[test]
    fn errors_name_the_path() {
        let e = from_str::<Vec<ItemSpec>>(r#"[{"key": "a"}, {"key": 5}]"#).unwrap_err();
        assert_eq!(e.field, "[1].key");
        assert!(e.reason.contains("expected a string"), "{}", e.reason);
        let e = from_str::<Vec<ItemSpec>>(r#"[{"key": "a", "kye": 1}]"#).unwrap_err();
        assert_eq!(e.field, "[0].kye");
        let e = from_str::<Vec<ItemSpec>>("[{\"key\": \"a\"}] tail").unwrap_err();
        assert_eq!(e.field, "(document)");
        assert!(e.reason.starts_with("not JSON"), "{}", e.reason);
        // serde names a missing field at its parent (its name only in words).
        let e = from_str::<Vec<ItemSpec>>(r#"[{"script": null}]"#).unwrap_err();
        assert_eq!(e.field, "[0]");
        assert_eq!(e.reason, "missing field `key`");
        let e = from_str::<ItemSpec>(r#"{"key": "a", "key": "b"}"#).unwrap_err();
        assert!(e.reason.contains("duplicate field"), "{e}");
        // A number out of its type's range is refused where it is written.
        let e = from_str::<Vec<crate::ranges::Probability>>("[0.5,\n 1.5]").unwrap_err();
        assert_eq!(e.field, "[1]");
        assert_eq!(e.reason, "1.5 is not a probability: use 0 to 1");
        assert_eq!(e.line, Some(2));
    }

    /// Inputs, outcomes and sources are tagged enums: a field of another
    /// variant, a missing one and an unknown tag are each named at their own
    /// path, nested ones included. (Some write fields before the tag,
    /// which a build that reads tags first only refuses: see `tagged`.)
    #[test]
    #[cfg(not(feature = "tag-first-only"))]
    fn tagged_documents_name_their_fields() {
        use crate::events::Input;
        use crate::ranges::EventRate;
        use crate::scenario::Source;
        use crate::time::Duration;
        use crate::Span;
        let e =
            from_str::<Vec<Input>>(r#"[{"input": "add", "key": "a", "count": 3}]"#).unwrap_err();
        assert_eq!(e.field, "[0].count");
        assert!(e.reason.contains("unknown field `count`"), "{e}");
        let e = from_str::<Vec<Input>>(r#"[{"input": "add_many", "prefix": "p"}]"#).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.reason.as_str()),
            ("[0]", "missing field `count`")
        );
        let e = from_str::<Input>(
            r#"{"input": "decide", "key": "a", "outcome": {"kind": "requeue_after"}}"#,
        )
        .unwrap_err();
        assert_eq!(e.field, "outcome");
        assert_eq!(e.reason, "missing field `after_ns`");
        let e = from_str::<Input>(r#"{"input": "jump"}"#).unwrap_err();
        assert_eq!(e.field, "input");
        assert!(e.reason.contains("unknown variant `jump`"), "{e}");
        let e = from_str::<Input>(r#"{"input": "add", "key": "a", "wat": 1}"#).unwrap_err();
        assert_eq!(e.field, "wat");
        let e =
            from_str::<Source>(r#"{"type": "resync", "period_ns": "1s", "key": "a"}"#).unwrap_err();
        assert_eq!(e.field, "key");
        use crate::limiter::LimiterConfig;
        let e = from_str::<LimiterConfig>(
            r#"{"type": "max_of", "limiters": [{"type": "default_controller"}, {"type": "bucket", "burst": 5}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.field, "limiters[1]");
        assert_eq!(e.reason, "missing field `qps`");
        let e = from_str::<LimiterConfig>(
            r#"{"type": "bucket", "qps": 1, "burst": 5, "base_ns": "5ms"}"#,
        )
        .unwrap_err();
        assert_eq!(e.field, "base_ns");
        let e = from_str::<crate::controller::Script>(r#"{"type": "live", "failures": 3}"#)
            .unwrap_err();
        assert_eq!(e.field, "failures");
        assert!(e.reason.contains("`live` does not have it"), "{e}");
        // A mistake inside a tagged enum inside another keeps its whole path
        // and its line; so does one written before its tag.
        let e = from_str::<crate::controller::Script>(
            "{\"type\": \"outage\", \"from_ns\": \"1s\", \"until_ns\": \"2s\",\n \"otherwise\": {\"kind\": \"requeue_after\", \"after_ns\": true}}",
        )
        .unwrap_err();
        assert_eq!(e.field, "otherwise.after_ns");
        assert_eq!(e.line, Some(2), "{e}");
        let e = from_str::<crate::controller::Script>(
            r#"{"outcomes": [{"after_ns": "5s", "kind": "requeue_after"}, {"kind": "requeu"}], "type": "sequence"}"#,
        )
        .unwrap_err();
        assert_eq!(e.field, "outcomes[1].kind");
        assert!(e.reason.contains("unknown variant `requeu`"), "{e}");
        let e =
            from_str::<crate::controller::Outcome>(r#"{"after_ns": [], "kind": "requeue_after"}"#)
                .unwrap_err();
        assert_eq!(e.field, "after_ns");
        assert!(e.reason.starts_with("invalid type: sequence"), "{e}");
        // Written back, the tag comes first.
        let written = serde_json::to_string(&crate::controller::Outcome::RequeueAfter {
            after_ns: Span::lit(Duration::from_nanos(5)),
        })
        .unwrap();
        assert_eq!(written, r#"{"kind":"requeue_after","after_ns":5}"#);
        assert_eq!(
            serde_json::to_string(&crate::controller::Outcome::Success).unwrap(),
            r#"{"kind":"success"}"#
        );
        // A resync written with `null` stops it; written without, it is refused.
        let stop = from_str::<Input>(r#"{"input": "resync", "period_ns": null}"#).unwrap();
        assert_eq!(stop, Input::Resync { period_ns: None });
        let e = from_str::<Input>(r#"{"input": "resync"}"#).unwrap_err();
        assert_eq!(e.field, WHOLE);
        assert_eq!(e.reason, "missing field `period_ns`");
        let read = from_str::<Source>(
            r#"{"type": "watch_events", "key": "k", "per_second": 2.5, "duration_ns": "3s"}"#,
        )
        .unwrap();
        assert_eq!(
            read,
            Source::WatchEvents {
                key: "k".into(),
                per_second: EventRate::lit(2.5),
                start_ns: Span::ZERO,
                duration_ns: Span::lit(Duration::from_nanos(3_000_000_000))
            }
        );
    }
}

/// Reading a scenario file.
impl crate::scenario::Scenario {
    /// Parses (either version, in one pass: see `scenario/doc.rs`) and
    /// validates a scenario document.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s = from_str::<Scenario>(text)?;
        s.validate()?;
        Ok(s)
    }
}

/// The line (from 1) in `text` where the value at `field` (a path such as
/// `controllers[1].writes.Secret`, as [`ScenarioError`] names it) starts:
/// the field a check refused after reading, pointed at in the file. Walks
/// the path through the JSON's objects and arrays, strings skipped whole;
/// where the path cannot be followed, the deepest part found.
pub fn line_of(text: &str, field: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = value_start(bytes, 0)?;
    let mut found = None;
    'path: for part in field.split('.') {
        let (name, indices) = match part.split_once('[') {
            Some((n, rest)) => (n, Some(rest)),
            None => (part, None),
        };
        if !name.is_empty() {
            match member(bytes, at, name) {
                Some(v) => at = v,
                None => break 'path,
            }
            found = Some(at);
        }
        for index in indices.into_iter().flat_map(|r| r.split('[')) {
            let next = index
                .trim_end_matches(']')
                .parse::<usize>()
                .ok()
                .and_then(|i| element(bytes, at, i));
            match next {
                Some(v) => at = v,
                None => break 'path,
            }
            found = Some(at);
        }
    }
    let at = found?;
    Some(1 + bytes[..at].iter().filter(|b| **b == b'\n').count())
}

/// The first non-space byte at or after `at`.
fn value_start(bytes: &[u8], at: usize) -> Option<usize> {
    (at..bytes.len()).find(|i| !bytes[*i].is_ascii_whitespace())
}

/// The end (one past the closing quote) of the string starting at `at`.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Visits the direct children of the object or array at `open`: calls
/// `each(start)` at every byte at depth one outside strings, and stops
/// when it returns a position.
fn children(
    bytes: &[u8],
    open: usize,
    mut each: impl FnMut(usize) -> Option<usize>,
) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                if depth == 1 {
                    if let Some(v) = each(i) {
                        return Some(v);
                    }
                }
                i = string_end(bytes, i)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            _ => {}
        }
        if depth == 1 && i > open {
            if let Some(v) = each(i) {
                return Some(v);
            }
        }
        i += 1;
    }
    None
}

/// Where the value of member `name` of the object at `at` starts.
fn member(bytes: &[u8], at: usize, name: &str) -> Option<usize> {
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let key = format!("\"{name}\"");
    children(bytes, at, |i| {
        if bytes[i] != b'"' || !bytes[i..].starts_with(key.as_bytes()) {
            return None;
        }
        let colon = value_start(bytes, i + key.len())?;
        (bytes[colon] == b':')
            .then(|| value_start(bytes, colon + 1))
            .flatten()
    })
}

/// Where element `index` of the array at `at` starts.
fn element(bytes: &[u8], at: usize, index: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    if index == 0 {
        return value_start(bytes, at + 1).filter(|i| bytes[*i] != b']');
    }
    let mut commas = 0;
    children(bytes, at, |i| {
        if bytes[i] == b',' {
            commas += 1;
            if commas == index {
                return value_start(bytes, i + 1);
            }
        }
        None
    })
}

/// A refusal as the person who wrote `text` reads it: the line first (where
/// the reader stopped, or where the refused field is written), then the
/// field and why.
pub fn explain(text: &str, e: &ScenarioError) -> String {
    match e.line.or_else(|| line_of(text, &e.field)) {
        Some(line) => format!("line {line}: {e}"),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod locate {
    use super::line_of;

    const FILE: &str = r#"{
  "version": 2,
  "name": "a \"quoted\" name, with [brackets] and {braces}",
  "controllers": [
    {"name": "a", "writes": {"Secret": 1}},
    {
      "name": "b",
      "writes": {
        "ConfigMap": 5000
      },
      "controller": {"workers": 0}
    }
  ]
}"#;

    /// What this crate writes (tag first) reads back in either build; a
    /// field before the tag is read, or refused by name where the build
    /// reads tags first only (`tag-first-only`, the embed's entry).
    #[test]
    fn a_field_before_the_tag_is_read_or_named() {
        use crate::controller::Outcome;
        use crate::spans::SignedDelay;
        use crate::time::SECOND;
        let outcome = Outcome::RequeueAfter {
            after_ns: SignedDelay::new(SECOND * 5).unwrap(),
        };
        let written = serde_json::to_string(&outcome).unwrap();
        assert!(
            written.starts_with(r#"{"kind":"requeue_after""#),
            "{written}"
        );
        assert_eq!(serde_json::from_str::<Outcome>(&written).unwrap(), outcome);
        let after_first = r#"{"after_ns": 5000000000, "kind": "requeue_after"}"#;
        let read = serde_json::from_str::<Outcome>(after_first);
        if cfg!(feature = "tag-first-only") {
            let e = read.unwrap_err().to_string();
            assert!(
                e.contains("after_ns") && e.contains("before the tag"),
                "{e}"
            );
        } else {
            assert_eq!(read.unwrap(), outcome);
        }
    }

    #[test]
    fn a_field_path_leads_to_the_line_of_its_value() {
        assert_eq!(line_of(FILE, "version"), Some(2));
        assert_eq!(line_of(FILE, "controllers[0].writes.Secret"), Some(5));
        assert_eq!(line_of(FILE, "controllers[1].writes.ConfigMap"), Some(9));
        assert_eq!(line_of(FILE, "controllers[1].controller.workers"), Some(11));
        assert_eq!(line_of(FILE, "controllers[1]"), Some(6));
    }

    #[test]
    fn a_path_that_cannot_be_followed_stops_at_its_deepest_part() {
        // controllers[1] has no `sources`: the controller's line.
        assert_eq!(line_of(FILE, "controllers[1].sources[3].count"), Some(6));
        assert_eq!(line_of(FILE, "controllers[7].name"), Some(4));
        assert_eq!(line_of(FILE, "nothing"), None);
        assert_eq!(line_of("not json", "version"), None);
        assert_eq!(line_of("", "version"), None);
        assert_eq!(line_of("{\"a\": \"unterminated", "a.b"), Some(1));
    }
}
