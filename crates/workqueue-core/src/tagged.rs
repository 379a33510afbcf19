//! Internally tagged enums (`{"kind": "requeue_after", "after_ns": 5}`)
//! whose mistakes keep their place.
//!
//! serde's own `#[serde(tag = "kind")]` buffers the object and reads the
//! variant from the buffer, so a mistake inside it loses its field's path and
//! line (serde-rs/serde#1621, dtolnay/path-to-error#1). Instead each enum
//! derives serde's externally tagged form with `#[serde(remote = "Self")]`
//! (the derive stays the one schema; schemars reads `#[schemars(tag)]`), and
//! [`internally_tagged!`] implements the traits by moving the tag: reading,
//! the variant's fields come straight from the document, path tracked;
//! writing, the tag is written first, as serde writes it.

use serde::de::value::StringDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::ser::{self, Impossible, SerializeStruct, Serializer};
use serde::Deserialize;
use std::fmt;
use std::marker::PhantomData;

/// Implements `Serialize` and `Deserialize` for an enum that derives them
/// with `#[serde(remote = "Self")]`, written with its tag in the field `$tag`.
macro_rules! internally_tagged {
    ($ty:ty, $tag:literal) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$ty>::serialize(
                    self,
                    $crate::tagged::TagFirst {
                        inner: s,
                        tag: $tag,
                    },
                )
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::tagged::read(d, $tag)
            }
        }
        impl $crate::tagged::Derived for $ty {
            fn derived<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$ty>::deserialize(d)
            }
        }
    };
}
pub(crate) use internally_tagged;

/// The externally tagged reader serde derived (`remote = "Self"`).
pub(crate) trait Derived: Sized {
    fn derived<'de, D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// Reads an object with its tag in the field `tag`, then its variant with
/// the derived reader.
pub(crate) fn read<'de, D: de::Deserializer<'de>, T: Derived>(
    d: D,
    tag: &'static str,
) -> Result<T, D::Error> {
    d.deserialize_map(TagVisitor {
        tag,
        marker: PhantomData,
    })
}

struct TagVisitor<T> {
    tag: &'static str,
    marker: PhantomData<T>,
}

impl<'de, T: Derived> Visitor<'de> for TagVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with a `{}` field", self.tag)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        // Fields written before the tag wait as JSON values; files written
        // by serde have the tag first, so this is usually empty.
        let mut before = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == self.tag {
                // The tag's value is read by the derived reader, in place,
                // so an unknown variant is said at the tag's own path.
                return T::derived(Variant {
                    name: String::new(),
                    before: before.into_iter(),
                    waiting: None,
                    rest: map,
                });
            }
            let value: serde_json::Value = map.next_value()?;
            before.push((key, value));
        }
        Err(de::Error::missing_field(self.tag))
    }
}

/// The rest of a tagged object, handed to the derived reader as an enum:
/// the tag names the variant, the other fields are its fields.
struct Variant<A> {
    /// The tag's value, once read.
    name: String,
    before: std::vec::IntoIter<(String, serde_json::Value)>,
    waiting: Option<(String, serde_json::Value)>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> de::Deserializer<'de> for Variant<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged object is read as an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> de::EnumAccess<'de> for Variant<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<(S::Value, Self), A::Error> {
        let variant = self.rest.next_value_seed(Named {
            seed,
            name: &mut self.name,
        })?;
        Ok((variant, self))
    }
}

/// Reads the tag's value with the derived seed, keeping it for messages.
struct Named<'a, S> {
    seed: S,
    name: &'a mut String,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Named<'_, S> {
    type Value = S::Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let name = String::deserialize(d)?;
        *self.name = name.clone();
        let name: StringDeserializer<D::Error> = name.into_deserializer();
        self.seed.deserialize(name)
    }
}

impl<'de, A: MapAccess<'de>> de::VariantAccess<'de> for Variant<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        match self.next_key::<String>()? {
            Some(field) => Err(de::Error::custom(format_args!(
                "{AT}{field}`: unknown field `{field}`: `{}` does not have it",
                self.name
            ))),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value, A::Error> {
        Err(de::Error::custom("a tagged variant has named fields"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged variant has named fields"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Variant<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.before.next() {
            Some((key, value)) => {
                let name: StringDeserializer<A::Error> = key.clone().into_deserializer();
                let read = seed.deserialize(name)?;
                self.waiting = Some((key, value));
                Ok(Some(read))
            }
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.waiting.take() {
            // A reader of its own build's files only: they write the tag
            // first, so a field before it is refused by name, and the
            // buffered reader below is left out of its module.
            #[cfg(feature = "tag-first-only")]
            Some((key, _)) => Err(de::Error::custom(format_args!(
                "{AT}{key}`: written before the tag, which this reader reads first"
            ))),
            // A field written before the tag: read from its buffered value,
            // so the path the document's reader tracks stops at the enum;
            // its path inside leads the message (serde's errors carry text
            // only), and `document` moves it into the path (`within`).
            #[cfg(not(feature = "tag-first-only"))]
            Some((key, value)) => {
                let mut track = serde_path_to_error::Track::new();
                seed.deserialize(serde_path_to_error::Deserializer::new(value, &mut track))
                    .map_err(|e| {
                        let inner = track.path().to_string();
                        let mut at = if inner == "." {
                            key
                        } else {
                            format!("{key}.{inner}")
                        };
                        // A tagged enum inside the value said its own part.
                        let text = e.to_string();
                        let (deeper, reason) = within(&text);
                        if let Some(deeper) = deeper {
                            at = format!("{at}.{deeper}");
                        }
                        let at = at.replace(".[", "[");
                        de::Error::custom(format_args!("{AT}{at}`: {reason}"))
                    })
            }
            None => self.rest.next_value_seed(seed),
        }
    }
}

/// How a message starts when it names the path inside a tagged enum.
const AT: &str = "at `";

/// A refusal's message naming the path inside the value refused (a field
/// written before a tagged enum's tag, one a document's reader refuses
/// once it has read the whole object): `document` moves it into the path.
pub(crate) fn at(path: &str, reason: impl std::fmt::Display) -> String {
    format!("{AT}{path}`: {reason}")
}

/// The path inside a value that a refusal's message leads with (see
/// `AT`), and the reason after it: the one reader of this reader's own
/// prefix, never of serde's words.
pub(crate) fn within(message: &str) -> (Option<&str>, &str) {
    message
        .strip_prefix(AT)
        .and_then(|rest| rest.split_once("`: "))
        .map_or((None, message), |(path, reason)| (Some(path), reason))
}

/// Writes an externally tagged variant as an object whose first field is
/// the tag, as serde's `#[serde(tag)]` does.
pub(crate) struct TagFirst<S> {
    pub(crate) inner: S,
    pub(crate) tag: &'static str,
}

fn not_a_variant<E: ser::Error>() -> E {
    ser::Error::custom("an internally tagged enum writes unit or struct variants only")
}

/// The written object, tag first.
pub(crate) struct Fields<S: Serializer>(S::SerializeStruct);

impl<S: Serializer> ser::SerializeStructVariant for Fields<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_field<T: ser::Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        self.0.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        self.0.skip_field(key)
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<S::Ok, S::Error> { Err(not_a_variant()) })*
    };
}

impl<S: Serializer> Serializer for TagFirst<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Fields<S>;

    fn serialize_unit_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let mut out = self.inner.serialize_struct(name, 1)?;
        out.serialize_field(self.tag, variant)?;
        out.end()
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<S>, S::Error> {
        let mut out = self.inner.serialize_struct(name, len + 1)?;
        out.serialize_field(self.tag, variant)?;
        Ok(Fields(out))
    }

    refuse! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str);
    }

    fn serialize_some<T: ser::Serialize + ?Sized>(self, _: &T) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_newtype_struct<T: ser::Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_newtype_variant<T: ser::Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Err(not_a_variant())
    }
}
