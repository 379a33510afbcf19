//! Reading a scenario document of either version in one pass: the
//! `version` as it comes (refused at once when this build does not read
//! it), version 1's top-level controller fields moved into version 2's
//! list, and every other field by [`Scenario`]'s own derive, so a mistake
//! anywhere keeps its path and line.

use serde::de::value::{MapAccessDeserializer, SeqDeserializer, U32Deserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, Unexpected, Visitor};

use super::*;
use crate::tagged::at;

/// Whether this build reads a document of `version`.
fn check_version(version: u32) -> Result<u32, String> {
    match version {
        1 | SCENARIO_VERSION => Ok(version),
        v => Err(format!(
            "version {v} is not supported: this playground reads versions 1 and {SCENARIO_VERSION}"
        )),
    }
}

/// Version 1's own fields (one controller's, at the top level of the
/// file), each named once: the struct that holds them as read, which keys
/// they are, and the first of them a file sets.
macro_rules! v1_fields {
    ($($name:ident: $ty:ty),* $(,)?) => {
        #[derive(Default)]
        struct V1Fields {
            $($name: Option<$ty>,)*
        }

        impl V1Fields {
            fn is_own(key: &str) -> bool {
                [$(stringify!($name)),*].contains(&key)
            }

            /// Reads the value of `key`, one of them (`null` leaves it unset).
            fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
                $(if key == stringify!($name) {
                    self.$name = map.next_value()?;
                })*
                Ok(())
            }

            /// The first of them this file sets.
            fn first(&self) -> Option<&'static str> {
                [$((stringify!($name), self.$name.is_some())),*]
                    .into_iter()
                    .find_map(|(name, set)| set.then_some(name))
            }
        }
    };
}

v1_fields! {
    queue: QueueKind,
    limiter: LimiterConfig,
    controller: ControllerConfig,
    default_script: Script,
    items: Vec<ItemSpec>,
    sources: Vec<Source>,
    requests_per_reconcile: Requests,
    shares_bucket: bool,
}

impl V1Fields {
    /// The one controller a version 1 file describes (the first
    /// controller's seed is the scenario's, as it was).
    fn into_controller(self) -> ControllerSpec {
        ControllerSpec {
            queue: self.queue.unwrap_or_default(),
            limiter: self.limiter,
            controller: self.controller.unwrap_or_default(),
            default_script: self.default_script.unwrap_or_default(),
            items: self.items.unwrap_or_default(),
            sources: self.sources.unwrap_or_default(),
            requests_per_reconcile: self.requests_per_reconcile.unwrap_or(Requests::lit(0)),
            shares_bucket: self.shares_bucket.unwrap_or_default(),
            ..ControllerSpec::new("")
        }
    }
}

const MOVED: &str = "in version 2 a controller's fields go in its entry of controllers";

/// A scenario's version, refused where it is written when this build does
/// not read it.
struct Version;

impl<'de> Visitor<'de> for Version {
    type Value = u32;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a version number ({SCENARIO_VERSION})")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
        let v = u32::try_from(v).map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))?;
        check_version(v).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u32, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Version {
    type Value = u32;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        d.deserialize_u32(self)
    }
}

/// A value refused before it is read (a version 1 field in a version 2
/// file), at its own path and line.
struct Refuse(&'static str);

impl<'de> DeserializeSeed<'de> for Refuse {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
        Err(de::Error::custom(self.0))
    }
}

/// The document's fields as [`Scenario`]'s derive reads them: the version
/// and version 1's own fields are taken out on the way (the version is
/// handed on once checked), and `controllers`, when the file has none, is
/// handed on empty (version 1 may leave it out).
struct Split<'a, A> {
    map: A,
    version: &'a mut Option<u32>,
    v1: &'a mut V1Fields,
    /// Whether the file writes `controllers`.
    listed: &'a mut bool,
    /// A value taken out and handed on: the version, or no controllers.
    replay: Option<Replay>,
    /// The file's fields are all read (and `controllers` handed on).
    ended: bool,
    handed: bool,
}

enum Replay {
    Version(u32),
    NoControllers,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Split<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let key = loop {
            let next = match self.ended {
                true => None,
                false => self.map.next_key::<String>()?,
            };
            let Some(key) = next else {
                self.ended = true;
                if self.version.is_none() {
                    let missing =
                        format!("missing: a scenario starts with \"version\": {SCENARIO_VERSION}");
                    return Err(de::Error::custom(at("version", missing)));
                }
                if *self.listed || self.handed {
                    return Ok(None);
                }
                self.handed = true;
                self.replay = Some(Replay::NoControllers);
                break "controllers".to_string();
            };
            match key.as_str() {
                "version" => {
                    let v = self.map.next_value_seed(Version)?;
                    *self.version = Some(v);
                    self.replay = Some(Replay::Version(v));
                    break key;
                }
                "controllers" => {
                    *self.listed = true;
                    break key;
                }
                own if V1Fields::is_own(own) => {
                    if *self.version == Some(SCENARIO_VERSION) {
                        self.map.next_value_seed(Refuse(MOVED))?;
                    }
                    self.v1.read(own, &mut self.map)?;
                }
                _ => break key,
            }
        };
        let name: de::value::StringDeserializer<A::Error> = key.into_deserializer();
        seed.deserialize(name).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.replay.take() {
            Some(Replay::Version(v)) => seed.deserialize(U32Deserializer::new(v)),
            Some(Replay::NoControllers) => {
                seed.deserialize(SeqDeserializer::new(std::iter::empty::<()>()))
            }
            None => self.map.next_value_seed(seed),
        }
    }
}

struct Document;

impl<'de> Visitor<'de> for Document {
    type Value = Scenario;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a scenario: an object with a version and its controllers")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scenario, A::Error> {
        let (mut version, mut v1, mut listed) = (None, V1Fields::default(), false);
        let mut s = Scenario::deserialize(MapAccessDeserializer::new(Split {
            map,
            version: &mut version,
            v1: &mut v1,
            listed: &mut listed,
            replay: None,
            ended: false,
            handed: false,
        }))?;
        // `listed` now says whether the file wrote `controllers`.
        let written = s.controllers.len();
        // Read, or the file was refused for its want.
        let version = version.unwrap_or(SCENARIO_VERSION);
        let own = v1.first();
        match (version == SCENARIO_VERSION, own) {
            // Written before the version: refused now, by name.
            (true, Some(field)) => return Err(de::Error::custom(at(field, MOVED))),
            (true, None) if !listed => {
                let missing = "missing: a scenario lists its controllers";
                return Err(de::Error::custom(at("controllers", missing)));
            }
            // A version 1 file with both forms: neither is dropped in silence.
            (false, Some(field)) if written > 0 => {
                return Err(de::Error::custom(at(
                    field,
                    format!("this file sets {field} for one controller and also lists {written} controller(s) in controllers: keep one form (put {field} in each controller's entry)"),
                )))
            }
            (false, _) if written == 0 => s.controllers = vec![v1.into_controller()],
            _ => {}
        }
        s.version = SCENARIO_VERSION;
        Ok(s)
    }
}

/// A scenario document of either version, read in one pass.
impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Scenario, D::Error> {
        d.deserialize_map(Document)
    }
}

/// Written as version 2, the version first.
impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Scenario::serialize(self, s)
    }
}
