//! Share links: the whole state (scenario, recorded inputs, the instant, the
//! lesson step, the selected key) in the URL fragment as
//! `#v2.<base64url(deflate(JSON))>`. Links made in the first format
//! (`#v1.<base64url(JSON)>`) keep opening. A garbled, truncated, over-long or
//! future-version link is refused with a message that says which, and
//! everything it carries passes the core's validation gate before use.

use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use workqueue_core::Run;
use workqueue_core::{limits, validate, Input, Instant, Scenario, ScenarioError};

/// The format this build writes.
pub const SHARE_VERSION: u32 = 2;
/// Longest fragment accepted (a browser keeps far more; this bounds parsing work).
pub const MAX_FRAGMENT: usize = 64 * 1024;
/// Largest JSON a link may inflate to: a deflate bomb stops here.
pub const MAX_INFLATED: usize = 1024 * 1024;

/// URL-safe base64; writes no padding and reads it either way.
const B64: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Everything a link holds: the run (its scenario, the inputs recorded
/// and the instant reached) and where its reader was (a lesson's step, the
/// selected key).
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub run: Run,
    pub lesson: Option<LessonPosition>,
    pub selected: Option<String>,
}

/// A link's state as written: the run's fields at the top, its inputs as
/// `[instant, input]` pairs and its instant as `at` (as links have always
/// written them), then the reader's place. Borrowed to write, owned when
/// read; the scenario is read as a scenario file is, either version.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Link<'a> {
    scenario: Cow<'a, Scenario>,
    #[serde(default, skip_serializing_if = "no_inputs")]
    inputs: Cow<'a, [(Instant, Input)]>,
    #[serde(default)]
    at: Instant,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lesson: Option<Cow<'a, LessonPosition>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    selected: Option<Cow<'a, str>>,
}

// serde hands `skip_serializing_if` the field as it is.
#[allow(clippy::ptr_arg)]
fn no_inputs(inputs: &Cow<'_, [(Instant, Input)]>) -> bool {
    inputs.is_empty()
}

impl Serialize for Shared {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Link {
            scenario: Cow::Borrowed(&self.run.scenario),
            inputs: Cow::Borrowed(&self.run.inputs),
            at: self.run.run_to,
            lesson: self.lesson.as_ref().map(Cow::Borrowed),
            selected: self.selected.as_deref().map(Cow::Borrowed),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Shared {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shared, D::Error> {
        let link = Link::deserialize(d)?;
        Ok(Shared {
            run: Run {
                scenario: link.scenario.into_owned(),
                inputs: link.inputs.into_owned(),
                run_to: link.at,
            },
            lesson: link.lesson.map(Cow::into_owned),
            selected: link.selected.map(Cow::into_owned),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonPosition {
    pub id: String,
    pub step: usize,
    /// A lesson that is not built in travels as its file's text (deflated
    /// with the rest of the link), so the link opens it anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Why a link was refused, by the part of it that failed: its prefix, its
/// base64, its compressed data, its JSON, or a field of the state (by path).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShareError {
    #[error("the link has no playground state in it")]
    Empty,
    #[error("its format v{0} is newer than this playground reads (up to v{SHARE_VERSION})")]
    FutureVersion(u32),
    #[error("the prefix: not a playground format (v1. to v{SHARE_VERSION}. before the state)")]
    Prefix,
    #[error("the link is too long: {0} characters, at most {MAX_FRAGMENT}")]
    TooLong(usize),
    #[error("the base64: the state is not URL-safe base64")]
    Base64,
    #[error("the compressed data: {0}")]
    Inflate(String),
    /// Why the state is not JSON, in the reader's words ("not JSON: …").
    #[error("{0}")]
    Json(String),
    #[error("the field {}: {}", .0.field, .0.reason)]
    Invalid(ScenarioError),
}

pub fn encode(shared: &Shared) -> String {
    let json = compact_json(shared);
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 10);
    format!("v{SHARE_VERSION}.{}", B64.encode(packed))
}

/// JSON with no indentation, written by serde_json's pretty printer: the
/// page then holds one serializer per type (scenario files are pretty),
/// and the line breaks cost a link next to nothing once deflated.
fn compact_json(shared: &Shared) -> Vec<u8> {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"");
    let mut writer = serde_json::Serializer::with_formatter(&mut out, formatter);
    // Serializing plain data into a Vec cannot fail.
    let _ = shared.serialize(&mut writer);
    out
}

/// The state as the JSON a link packs (a run file, a saved session).
pub fn to_json(shared: &Shared) -> String {
    // serde_json writes UTF-8 only.
    String::from_utf8(compact_json(shared)).unwrap_or_default()
}

pub fn decode(fragment: &str) -> Result<Shared, ShareError> {
    let f = fragment.trim().trim_start_matches('#');
    if f.is_empty() {
        return Err(ShareError::Empty);
    }
    if f.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong(f.len()));
    }
    let (version, body) = f.split_once('.').ok_or(ShareError::Prefix)?;
    let version: u32 = version
        .strip_prefix('v')
        .and_then(|v| v.parse().ok())
        .ok_or(ShareError::Prefix)?;
    if version > SHARE_VERSION {
        return Err(ShareError::FutureVersion(version));
    }
    let bytes = B64.decode(body).map_err(|_| ShareError::Base64)?;
    let json = match version {
        1 => bytes,
        2 => miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_INFLATED).map_err(
            |e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::Inflate(format!(
                    "it unpacks to more than {} KiB",
                    MAX_INFLATED / 1024
                )),
                _ => ShareError::Inflate("damaged or cut short: it does not unpack".into()),
            },
        )?,
        _ => return Err(ShareError::Prefix),
    };
    let json = String::from_utf8(json)
        .map_err(|_| ShareError::Json("not JSON: the state is not UTF-8 text".into()))?;
    let shared = read_state(&json).map_err(|e| match e.field.as_str() {
        workqueue_core::document::WHOLE => ShareError::Json(e.reason),
        _ => ShareError::Invalid(e),
    })?;
    shared.check().map_err(ShareError::Invalid)?;
    Ok(shared)
}

/// The state a link carries. Its scenario is read by the same reader as a
/// scenario file, so a version 1 scenario is upgraded and old links open to
/// the same run; its mistakes are named under `scenario.`.
fn read_state(json: &str) -> Result<Shared, ScenarioError> {
    read_document(json)
}

/// A JSON document the page reads (a state, a step's act), its mistakes
/// named by their field's path ([`workqueue_core::document::from_str`]).
#[cfg(not(feature = "built-in-only"))]
pub(crate) fn read_document<T: serde::de::DeserializeOwned>(
    json: &str,
) -> Result<T, ScenarioError> {
    workqueue_core::document::from_str(json)
}

/// An embed's own entry reads only the documents of its build's lessons,
/// which the build read and checked: serde's own reader, without the
/// field paths (their reader is a sixth of the embed's module).
#[cfg(feature = "built-in-only")]
pub(crate) fn read_document<T: serde::de::DeserializeOwned>(
    json: &str,
) -> Result<T, ScenarioError> {
    serde_json::from_str(json).map_err(|e| ScenarioError {
        field: workqueue_core::document::WHOLE.into(),
        reason: e.to_string(),
        line: Some(e.line()),
    })
}

/// A state written as JSON (a link's, once unpacked, or a lesson step's
/// set-up), read and checked.
pub fn read(json: &str) -> Result<Shared, ScenarioError> {
    let shared = read_state(json)?;
    shared.check()?;
    Ok(shared)
}

/// A run file ([`Run`]: what *Download run* writes, a lesson step's set-up)
/// or a bare scenario file, read and checked.
pub fn from_file(text: &str) -> Result<Shared, ScenarioError> {
    let shared = Shared::of(Run::from_file(text)?);
    shared.check()?;
    Ok(shared)
}

/// The run file of a state: its run (the lesson and the selected key stay
/// with links).
pub fn to_file(shared: &Shared) -> String {
    shared.run.to_json()
}

impl Shared {
    /// A run, with no lesson and no key selected.
    pub fn of(run: Run) -> Shared {
        Shared {
            run,
            lesson: None,
            selected: None,
        }
    }

    /// The validation gate for everything a link carries: the scenario, the
    /// recorded inputs and the instant, named as the link writes them.
    pub fn check(&self) -> Result<(), ScenarioError> {
        let run = &self.run;
        run.scenario.validate()?;
        validate::tape(&run.inputs)?;
        if run.run_to < Instant::T0 || run.run_to > Instant::T0 + limits::MAX_RUN {
            return Err(ScenarioError {
                field: "at".into(),
                reason: format!(
                    "{} is out of range: use 0s to {}",
                    workqueue_core::format_go_duration(run.run_to.since_t0()),
                    workqueue_core::format_go_duration(limits::MAX_RUN)
                ),
                line: None,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::{Outcome, SECOND};

    fn sample() -> Shared {
        let mut scenario = crate::settings::Settings::default().to_scenario().unwrap();
        scenario.seed = 7;
        Shared {
            run: workqueue_core::Run {
                scenario,
                inputs: vec![
                    (
                        Instant::T0,
                        Input::Add {
                            key: "default/web-1".into(),
                        },
                    ),
                    (
                        Instant::from_nanos(200_000_000),
                        Input::Decide {
                            key: "default/web-1".into(),
                            outcome: Outcome::Error,
                        },
                    ),
                ],
                run_to: Instant::T0 + 3 * SECOND,
            },
            lesson: Some(LessonPosition {
                text: None,
                id: "backoff".into(),
                step: 2,
            }),
            selected: Some("default/web-1".into()),
        }
    }

    /// A link in the first format: base64url of the plain JSON.
    fn v1_link(s: &Shared) -> String {
        format!("v1.{}", B64.encode(serde_json::to_string(s).unwrap()))
    }

    /// A downloaded run loads back with everything it had: the scenario,
    /// the keys typed on the page, and the instant.
    #[test]
    fn a_run_file_loads_back_whole() {
        let run = Shared {
            lesson: None,
            selected: None,
            ..sample()
        };
        assert_eq!(from_file(&to_file(&run)), Ok(run.clone()));
        // A bare scenario file still loads, at 0s with nothing done.
        let bare = from_file(&run.run.scenario.to_json()).unwrap();
        assert_eq!(
            (bare.run.scenario, bare.run.inputs.len(), bare.run.run_to),
            (run.run.scenario, 0, Instant::T0)
        );
        // A mistake is named from the file's top.
        let e = from_file(&to_file(&sample()).replace("3000000000", "-1")).unwrap_err();
        assert_eq!(e.field, "run_to");
    }

    #[test]
    fn first_format_links_keep_opening() {
        let s = sample();
        assert_eq!(decode(&format!("#{}", v1_link(&s))).unwrap(), s);
        // A v1 link written by the old hand-rolled encoder (no padding).
        let old = "v1.eyJzY2VuYXJpbyI6eyJ2ZXJzaW9uIjoxfX0";
        assert!(decode(old).is_ok(), "{:?}", decode(old));
    }

    /// A link whose scenario was written in version 1 (one controller's
    /// fields at the top level), as links made before version 2 carry it.
    fn link_with_v1_scenario(s: &Shared, packed: bool) -> String {
        let mut doc = serde_json::to_value(s).unwrap();
        let scenario = doc["scenario"].as_object_mut().unwrap();
        let controllers = scenario.remove("controllers").unwrap();
        let serde_json::Value::Array(mut list) = controllers else {
            panic!("controllers is a list")
        };
        assert_eq!(list.len(), 1);
        let serde_json::Value::Object(own) = list.remove(0) else {
            panic!("a controller is an object")
        };
        scenario.extend(own);
        scenario.insert("version".into(), 1.into());
        let json = serde_json::to_string(&doc).unwrap();
        if packed {
            let bytes = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 10);
            format!("v2.{}", B64.encode(bytes))
        } else {
            format!("v1.{}", B64.encode(json))
        }
    }

    #[test]
    fn links_with_a_version_1_scenario_open_to_the_same_state() {
        let s = sample();
        for packed in [false, true] {
            let link = link_with_v1_scenario(&s, packed);
            assert_eq!(decode(&link).unwrap(), s, "{link}");
        }
    }

    #[test]
    fn compression_shortens_links() {
        let s = sample();
        let (v2, v1) = (encode(&s).len(), v1_link(&s).len());
        assert!(v2 * 10 < v1 * 6, "{v2} vs {v1}");
    }

    #[test]
    fn a_deflate_bomb_is_refused() {
        let json = format!(
            r#"{{"scenario":{{"version":1,"name":"{}"}}}}"#,
            "a".repeat(2 * MAX_INFLATED)
        );
        let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 10);
        let link = format!("v2.{}", B64.encode(packed));
        assert!(
            link.len() < MAX_FRAGMENT,
            "the bomb fits in a link: {}",
            link.len()
        );
        match decode(&link) {
            Err(ShareError::Inflate(m)) => assert!(m.contains("unpacks to more than"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn recorded_inputs_pass_the_gate() {
        let mut state = serde_json::to_value(sample()).unwrap();
        state["inputs"].as_array_mut().unwrap().push(serde_json::json!([
            4_000_000_000u64,
            {"input": "watch_events", "key": "k", "per_second": 1e-10, "duration_ns": 1_000_000_000}
        ]));
        let packed = miniz_oxide::deflate::compress_to_vec(state.to_string().as_bytes(), 10);
        match decode(&format!("v2.{}", B64.encode(packed))) {
            // Refused as it is read: the path of the number in the state.
            Err(ShareError::Invalid(e)) => assert_eq!(e.field, "inputs[2][1].per_second"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_link_round_trips_exactly() {
        let s = sample();
        let link = encode(&s);
        assert!(link.starts_with("v2."));
        assert!(
            link.len() < 2_000,
            "compact enough to paste: {}",
            link.len()
        );
        assert_eq!(decode(&format!("#{link}")).unwrap(), s);
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let link = encode(&sample());
        assert_eq!(decode(""), Err(ShareError::Empty));
        assert_eq!(decode("#hello"), Err(ShareError::Prefix));
        assert_eq!(decode("#v2.***"), Err(ShareError::Base64));
        assert!(matches!(decode("#v2.AAAA"), Err(ShareError::Inflate(_))));
        let not_json = miniz_oxide::deflate::compress_to_vec(b"{nope", 10);
        assert!(matches!(
            decode(&format!("v2.{}", B64.encode(not_json))),
            Err(ShareError::Json(_))
        ));
        let unknown = miniz_oxide::deflate::compress_to_vec(
            br#"{"scenario": {"version": 1}, "selcted": "a"}"#,
            10,
        );
        match decode(&format!("v2.{}", B64.encode(unknown))) {
            Err(ShareError::Invalid(e)) => assert_eq!(e.field, "selcted"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            decode(&link.replacen("v2.", "v9.", 1)),
            Err(ShareError::FutureVersion(9))
        );
        // Cut short at a whole base64 quantum: the deflate stream ends early.
        let cut = "v2.".len() + (link.len() - "v2.".len()) / 8 * 4;
        assert!(
            matches!(decode(&link[..cut]), Err(ShareError::Inflate(_))),
            "truncated"
        );
        assert!(
            matches!(decode(&link.replace('A', "*")), Err(ShareError::Base64)),
            "garbled"
        );
        let bad = miniz_oxide::deflate::compress_to_vec(
            br#"{"scenario": {"version": 2, "controllers": [{"controller": {"workers": 0}}]}}"#,
            10,
        );
        assert!(matches!(
            decode(&format!("v2.{}", B64.encode(bad))),
            Err(ShareError::Invalid(_))
        ));
    }

    /// What a person reads: each refusal starts with the part that failed,
    /// and a field is named by its path in the state.
    #[test]
    fn each_refusal_names_the_part_that_failed() {
        let packed = |json: &str| {
            let bytes = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 10);
            format!("v2.{}", B64.encode(bytes))
        };
        let said = |link: &str| decode(link).unwrap_err().to_string();
        for (link, part) in [
            ("#hello".to_string(), "the prefix: "),
            ("#x2.abc".to_string(), "the prefix: "),
            ("#v2.%%".to_string(), "the base64: "),
            ("#v2.AAAA".to_string(), "the compressed data: "),
            (packed("{\"scenario\": "), "not JSON: "),
            (
                packed(r#"{"scenario": {"version": 2, "controllers": [{}]}, "selcted": "a"}"#),
                "the field selcted: ",
            ),
            (
                packed(
                    r#"{"scenario": {"version": 2, "controllers": [{"controller": {"workers": -1}}]}}"#,
                ),
                "the field scenario.controllers[0].controller.workers: ",
            ),
        ] {
            let text = said(&link);
            assert!(text.starts_with(part), "{link}: {text}");
            assert!(!text.contains("should start with"), "{text}");
        }
        assert!(said(&packed("{\"scenario\": ")).contains("EOF"));
    }

    /// The decoder fed arbitrary bytes and damaged links: truncated,
    /// bit-flipped, over-long, future versions. It never panics; a refusal
    /// says what is wrong, and an invalid setup names its field.
    #[test]
    fn the_link_decoder_survives_garbage() {
        use std::panic::{catch_unwind, AssertUnwindSafe};
        use workqueue_core::Rng;
        let cases: u64 = std::env::var("WQ_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3_000);
        let valid = encode(&sample()).into_bytes();
        let mut rng = Rng::new(0x5EED);
        let (mut failures, mut opened) = (0u64, 0u64);
        for n in 0..cases {
            let mut link = match n % 4 {
                0 => (0..rng.next_u64() % 300)
                    .map(|_| rng.next_u64() as u8)
                    .collect(),
                1 => {
                    let mut l = valid.clone();
                    l.extend(std::iter::repeat_n(
                        b'A',
                        (rng.next_u64() % 70_000) as usize,
                    ));
                    l
                }
                _ => valid.clone(),
            };
            for _ in 0..rng.next_u64() % 3 {
                if link.is_empty() {
                    break;
                }
                let i = (rng.next_u64() % link.len() as u64) as usize;
                match rng.next_u64() % 4 {
                    0 => link[i] ^= 1 << (rng.next_u64() % 8),
                    1 => link.truncate(i),
                    2 if link.len() > 1 => link[1] = b'0' + (rng.next_u64() % 10) as u8,
                    _ => link.insert(i, b"-_=.#"[(rng.next_u64() % 5) as usize]),
                }
            }
            let text = String::from_utf8_lossy(&link).into_owned();
            let ok = catch_unwind(AssertUnwindSafe(|| match decode(&text) {
                Ok(shared) => {
                    opened += 1;
                    shared.check().is_ok()
                }
                Err(ShareError::Invalid(e)) => !e.field.is_empty() && !e.reason.is_empty(),
                Err(e) => !e.to_string().is_empty(),
            }))
            .unwrap_or(false);
            failures += u64::from(!ok);
        }
        println!("fuzz share links: {cases} cases ran ({opened} opened), {failures} failed");
        assert_eq!(failures, 0);
        assert!(
            opened > 0,
            "no mutated link survived: the mutations are too crude"
        );
    }
}
