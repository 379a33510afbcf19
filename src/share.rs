//! Share links: the whole state (scenario, recorded inputs, the instant, the
//! lesson step, the selected key) in the URL fragment as `#v1.<base64url JSON>`.
//! A garbled, truncated or future-version link is refused with a message that
//! says which, and the page opens a working default instead.

use serde::{Deserialize, Serialize};
use workqueue_core::{Input, Nanos, Scenario, ScenarioError};

pub const SHARE_VERSION: u32 = 1;
/// Longest fragment accepted (a browser keeps far more; this bounds parsing work).
pub const MAX_FRAGMENT: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shared {
    pub scenario: Scenario,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<(Nanos, Input)>,
    #[serde(default)]
    pub at: Nanos,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<LessonPosition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonPosition {
    pub id: String,
    pub step: usize,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShareError {
    #[error("the link has no playground state in it")]
    Empty,
    #[error(
        "the link was made by a newer playground (format v{0}; this one reads v{SHARE_VERSION})"
    )]
    FutureVersion(u32),
    #[error("the link is not a playground link (it should start with #v1.)")]
    NotALink,
    #[error("the link is damaged or cut short: {0}")]
    Garbled(String),
    #[error("the link's setup is not valid: {0}")]
    Invalid(ScenarioError),
}

pub fn encode(shared: &Shared) -> String {
    let json = serde_json::to_string(shared).unwrap_or_default();
    format!("v{SHARE_VERSION}.{}", base64url_encode(json.as_bytes()))
}

pub fn decode(fragment: &str) -> Result<Shared, ShareError> {
    let f = fragment.trim().trim_start_matches('#');
    if f.is_empty() {
        return Err(ShareError::Empty);
    }
    if f.len() > MAX_FRAGMENT {
        return Err(ShareError::Garbled(format!(
            "{} characters is more than a link holds",
            f.len()
        )));
    }
    let (version, body) = f.split_once('.').ok_or(ShareError::NotALink)?;
    let version: u32 = version
        .strip_prefix('v')
        .and_then(|v| v.parse().ok())
        .ok_or(ShareError::NotALink)?;
    if version > SHARE_VERSION {
        return Err(ShareError::FutureVersion(version));
    }
    if version < 1 {
        return Err(ShareError::NotALink);
    }
    let bytes = base64url_decode(body).ok_or_else(|| ShareError::Garbled("not base64".into()))?;
    let json = String::from_utf8(bytes).map_err(|_| ShareError::Garbled("not text".into()))?;
    let shared: Shared =
        serde_json::from_str(&json).map_err(|e| ShareError::Garbled(e.to_string()))?;
    shared.scenario.validate().map_err(ShareError::Invalid)?;
    if shared.at < 0 || shared.at > workqueue_core::scenario::MAX_RUN {
        return Err(ShareError::Garbled(format!(
            "instant {} is out of range",
            shared.at
        )));
    }
    Ok(shared)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 base64url without padding.
pub fn base64url_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..chunk.len() + 1 {
            out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let mut vals = Vec::with_capacity(text.len());
    for c in text.bytes().filter(|c| *c != b'=') {
        vals.push(ALPHABET.iter().position(|a| *a == c)? as u32);
    }
    if vals.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(vals.len() * 3 / 4);
    for chunk in vals.chunks(4) {
        let mut n = 0u32;
        for (i, v) in chunk.iter().enumerate() {
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::{Outcome, SECOND};

    fn sample() -> Shared {
        let mut scenario = crate::settings::Settings::default().to_scenario().unwrap();
        scenario.seed = 7;
        Shared {
            scenario,
            inputs: vec![
                (
                    0,
                    Input::Add {
                        key: "default/web-1".into(),
                    },
                ),
                (
                    200_000_000,
                    Input::Decide {
                        key: "default/web-1".into(),
                        outcome: Outcome::Error,
                    },
                ),
            ],
            at: 3 * SECOND,
            lesson: Some(LessonPosition {
                id: "backoff".into(),
                step: 2,
            }),
            selected: Some("default/web-1".into()),
        }
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40 {
            let data: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64url_decode(&base64url_encode(&data)).unwrap(), data);
        }
        assert_eq!(base64url_encode(b"hi?"), "aGk_");
    }

    #[test]
    fn a_link_round_trips_exactly() {
        let s = sample();
        let link = encode(&s);
        assert!(link.starts_with("v1."));
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
        assert_eq!(decode("#hello"), Err(ShareError::NotALink));
        assert_eq!(
            decode(&link.replacen("v1.", "v9.", 1)),
            Err(ShareError::FutureVersion(9))
        );
        assert!(
            matches!(decode(&link[..link.len() / 2]), Err(ShareError::Garbled(_))),
            "truncated"
        );
        assert!(
            matches!(decode(&link.replace('A', "*")), Err(ShareError::Garbled(_))),
            "garbled"
        );
        let mut bad = sample();
        bad.scenario.controller.workers = 0;
        assert!(matches!(decode(&encode(&bad)), Err(ShareError::Invalid(_))));
    }
}
