//! Reading the documents the page accepts (scenario files and share links)
//! without serde's derived decoders: a small JSON tree and a [`Decode`]
//! trait whose errors name the field at fault (`items[0].key`).
//!
//! Why by hand: the derived decoders, one per type and per deserializer,
//! were a sixth of the page's wasm. The format is serde's own (the derives
//! stay for writing and for the conformance files), and a test decodes every
//! fuzzed document both ways and requires the same answer.

use crate::scenario::ScenarioError;
use crate::time::{parse_go_duration, Nanos};
use crate::validate::bad;

/// Deepest nesting accepted: serde_json's own limit, so a hostile document
/// cannot exhaust the stack.
const MAX_DEPTH: usize = 128;

/// A JSON value. Object fields keep their order, duplicates included (a
/// decoder refuses them, as serde does).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// A number as serde_json reads it: an integer literal that fits stays an
/// integer; anything else (a fraction, an exponent, a huge integer) is a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Unsigned(u64),
    Negative(i64),
    Float(f64),
}

/// Parses a whole document (whitespace around it allowed, nothing else).
pub fn parse(text: &str) -> Result<Json, ScenarioError> {
    let mut p = Parser {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = p.value()?;
    p.skip_space();
    if p.at < p.bytes.len() {
        return Err(p.fail("trailing characters after the document"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    /// A syntax error, placed by line and column like serde_json's.
    fn fail(&self, what: &str) -> ScenarioError {
        let done = &self.bytes[..self.at.min(self.bytes.len())];
        let line = 1 + done.iter().filter(|b| **b == b'\n').count();
        let column = 1 + done.iter().rev().take_while(|b| **b != b'\n').count();
        bad(
            "(document)",
            format!("not valid JSON: {what} at line {line} column {column}"),
        )
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, ScenarioError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.fail("expected a value"))
        }
    }

    fn value(&mut self) -> Result<Json, ScenarioError> {
        match self.peek() {
            None => Err(self.fail("EOF while parsing a value")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(open @ (b'[' | b'{')) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(self.fail("nested too deeply"));
                }
                self.at += 1;
                let value = if open == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                value
            }
            Some(_) => Err(self.fail("expected a value")),
        }
    }

    /// After `[`: values separated by commas, then `]`.
    fn array(&mut self) -> Result<Json, ScenarioError> {
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                None => return Err(self.fail("EOF while parsing a list")),
                Some(_) => return Err(self.fail("expected `,` or `]`")),
            }
        }
    }

    /// After `{`: `"key": value` pairs separated by commas, then `}`.
    fn object(&mut self) -> Result<Json, ScenarioError> {
        let mut fields = Vec::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(fields));
        }
        loop {
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.fail("EOF while parsing an object")),
                Some(_) => return Err(self.fail("key must be a string")),
            }
            let key = self.string()?;
            if self.peek() != Some(b':') {
                return Err(self.fail("expected `:`"));
            }
            self.at += 1;
            fields.push((key, self.value()?));
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(fields));
                }
                None => return Err(self.fail("EOF while parsing an object")),
                Some(_) => return Err(self.fail("expected `,` or `}`")),
            }
        }
    }

    /// At `"`: the string's text, escapes resolved.
    fn string(&mut self) -> Result<String, ScenarioError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The input is a &str, and the run stops only at ASCII bytes, so
            // it is whole characters.
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default());
            match self.bytes.get(self.at) {
                None => return Err(self.fail("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self.escape()?;
                    out.push(c);
                }
                Some(_) => return Err(self.fail("control character in a string")),
            }
        }
    }

    /// After `\`: one escape (a `\u` pair of surrogates counts as one).
    fn escape(&mut self) -> Result<char, ScenarioError> {
        let Some(&b) = self.bytes.get(self.at) else {
            return Err(self.fail("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                if (0xD800..0xDC00).contains(&high) {
                    if !self.bytes[self.at..].starts_with(b"\\u") {
                        return Err(self.fail("lone leading surrogate in hex escape"));
                    }
                    self.at += 2;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.fail("lone leading surrogate in hex escape"));
                    }
                    let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    char::from_u32(c).ok_or_else(|| self.fail("invalid unicode code point"))?
                } else {
                    char::from_u32(high).ok_or_else(|| self.fail("invalid unicode code point"))?
                }
            }
            _ => return Err(self.fail("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, ScenarioError> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| {
                u32::from_str_radix(d, 16)
                    .ok()
                    .filter(|_| d.bytes().all(|b| b.is_ascii_hexdigit()))
            });
        match digits {
            Some(v) => {
                self.at += 4;
                Ok(v)
            }
            None => Err(self.fail("invalid escape")),
        }
    }

    /// JSON's number grammar; the value as serde_json would hold it.
    fn number(&mut self) -> Result<Json, ScenarioError> {
        let start = self.at;
        let negative = self.bytes[self.at] == b'-';
        if negative {
            self.at += 1;
        }
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.bytes.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at - from
        };
        let int_start = self.at;
        let int_digits = digits(self);
        if int_digits == 0 {
            return Err(self.fail("invalid number"));
        }
        if int_digits > 1 && self.bytes[int_start] == b'0' {
            return Err(self.fail("invalid number"));
        }
        let mut float = false;
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            float = true;
            if digits(self) == 0 {
                return Err(self.fail("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            float = true;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.fail("invalid number"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default();
        if !float {
            if negative {
                if let Ok(v) = text.parse::<i64>() {
                    return Ok(Json::Number(Number::Negative(v)));
                }
            } else if let Ok(v) = text.parse::<u64>() {
                return Ok(Json::Number(Number::Unsigned(v)));
            }
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Json::Number(Number::Float(v))),
            _ => Err(self.fail("number out of range")),
        }
    }
}

/// Compact JSON (serde_json's `to_string`) laid out as serde_json's
/// `to_string_pretty` lays it out: two-space indents, `": "`, empty `[]` and
/// `{}` kept on one line. Writing compact and indenting after keeps a single
/// copy of every type's serializer in the page.
pub fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '[' | '{' => {
                out.push(c);
                if matches!(chars.peek(), Some(']' | '}')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            ']' | '}' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// What a value is, for "invalid type" messages.
fn kind(v: &Json) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("boolean `{b}`"),
        Json::Number(Number::Unsigned(n)) => format!("integer `{n}`"),
        Json::Number(Number::Negative(n)) => format!("integer `{n}`"),
        Json::Number(Number::Float(f)) => format!("floating point `{f}`"),
        Json::String(s) => format!("string {s:?}"),
        Json::Array(_) => "a list".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// `invalid type: <what it is>, expected <what>` at `path`.
pub fn invalid(path: &str, v: &Json, expected: &str) -> ScenarioError {
    bad(
        path,
        format!("invalid type: {}, expected {expected}", kind(v)),
    )
}

/// A type read from a [`Json`] value at `path` (the field name used in errors).
pub trait Decode: Sized {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError>;
}

/// Parses `text` and decodes it as `T`.
pub fn from_str<T: Decode>(text: &str) -> Result<T, ScenarioError> {
    T::decode(&parse(text)?, "(document)")
}

/// `parent.key`, or `key` at the top.
pub fn child(parent: &str, key: &str) -> String {
    if parent == "(document)" {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

impl Decode for bool {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::Bool(b) => Ok(*b),
            _ => Err(invalid(path, v, "a boolean")),
        }
    }
}

impl Decode for String {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::String(s) => Ok(s.clone()),
            _ => Err(invalid(path, v, "a string")),
        }
    }
}

impl Decode for f64 {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::Number(Number::Unsigned(n)) => Ok(*n as f64),
            Json::Number(Number::Negative(n)) => Ok(*n as f64),
            Json::Number(Number::Float(f)) => Ok(*f),
            _ => Err(invalid(path, v, "a number")),
        }
    }
}

/// Integers: only integer literals, in the type's range (as serde reads them).
macro_rules! decode_integer {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
                let out_of_range = |n: &dyn std::fmt::Display| {
                    bad(path, format!("invalid value: integer `{n}`, expected {}", stringify!($t)))
                };
                match v {
                    Json::Number(Number::Unsigned(n)) => <$t>::try_from(*n).map_err(|_| out_of_range(n)),
                    Json::Number(Number::Negative(n)) => <$t>::try_from(*n).map_err(|_| out_of_range(n)),
                    _ => Err(invalid(path, v, concat!("an integer (", stringify!($t), ")"))),
                }
            }
        }
    )*};
}
decode_integer!(u32, u64, i64, usize);

impl<T: Decode> Decode for Option<T> {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::Null => Ok(None),
            _ => T::decode(v, path).map(Some),
        }
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        let Json::Array(items) = v else {
            return Err(invalid(path, v, "a list"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| T::decode(item, &format!("{path}[{i}]")))
            .collect()
    }
}

impl<A: Decode, B: Decode> Decode for (A, B) {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::Array(items) if items.len() == 2 => Ok((
                A::decode(&items[0], &format!("{path}[0]"))?,
                B::decode(&items[1], &format!("{path}[1]"))?,
            )),
            Json::Array(items) => Err(bad(
                path,
                format!("invalid length {}, expected a pair", items.len()),
            )),
            _ => Err(invalid(path, v, "a pair")),
        }
    }
}

/// A duration: integer nanoseconds, a whole float, or a Go duration string
/// such as `"1m30s"` (what `serde_duration` reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duration(pub Nanos);

impl Decode for Duration {
    fn decode(v: &Json, path: &str) -> Result<Self, ScenarioError> {
        match v {
            Json::Number(Number::Negative(n)) => Ok(Duration(*n)),
            Json::Number(Number::Unsigned(n)) => i64::try_from(*n).map(Duration).map_err(|_| {
                bad(
                    path,
                    format!("{n} ns is out of range (about 292 years at most)"),
                )
            }),
            Json::Number(Number::Float(f)) if f.fract() == 0.0 && f.abs() < 9.2e18 => {
                Ok(Duration(*f as i64))
            }
            Json::Number(Number::Float(f)) => Err(bad(
                path,
                format!("{f} is not a whole number of nanoseconds"),
            )),
            Json::String(s) => parse_go_duration(s)
                .map(Duration)
                .map_err(|e| bad(path, e.to_string())),
            _ => Err(invalid(
                path,
                v,
                "a duration: integer nanoseconds or a string like \"5ms\"",
            )),
        }
    }
}

/// The fields of one JSON object being decoded: each is taken at most once,
/// and [`Fields::finish`] refuses the ones nobody took when the type denies
/// unknown fields.
pub struct Fields<'a> {
    path: &'a str,
    fields: &'a [(String, Json)],
    taken: Vec<bool>,
}

impl<'a> Fields<'a> {
    /// The object at `path`; refuses any other value.
    pub fn of(v: &'a Json, path: &'a str) -> Result<Fields<'a>, ScenarioError> {
        let Json::Object(fields) = v else {
            return Err(invalid(path, v, "an object"));
        };
        Ok(Fields {
            path,
            fields,
            taken: vec![false; fields.len()],
        })
    }

    /// The value of a known field, refusing it twice (as serde does; an
    /// unknown key twice is only unknown). One pass per known field, so an
    /// object with a hundred thousand keys costs a hundred thousand steps
    /// per field, not their square.
    fn take(&mut self, key: &str) -> Result<Option<&'a Json>, ScenarioError> {
        let mut found = None;
        for (i, (k, _)) in self.fields.iter().enumerate() {
            if k == key {
                if found.is_some() {
                    return Err(bad(self.path, format!("duplicate field `{key}`")));
                }
                found = Some(i);
            }
        }
        Ok(found.map(|i| {
            self.taken[i] = true;
            &self.fields[i].1
        }))
    }

    /// A field that must be there.
    pub fn required<T: Decode>(&mut self, key: &str) -> Result<T, ScenarioError> {
        match self.take(key)? {
            Some(v) => T::decode(v, &child(self.path, key)),
            None => Err(bad(self.path, format!("missing field `{key}`"))),
        }
    }

    /// A field that may be missing: then `default()`.
    pub fn or_else<T: Decode>(
        &mut self,
        key: &str,
        default: impl FnOnce() -> T,
    ) -> Result<T, ScenarioError> {
        match self.take(key)? {
            Some(v) => T::decode(v, &child(self.path, key)),
            None => Ok(default()),
        }
    }

    /// A field that may be missing: then `T::default()`.
    pub fn or_default<T: Decode + Default>(&mut self, key: &str) -> Result<T, ScenarioError> {
        self.or_else(key, T::default)
    }

    /// A duration field that must be there.
    pub fn duration(&mut self, key: &str) -> Result<Nanos, ScenarioError> {
        self.required::<Duration>(key).map(|d| d.0)
    }

    /// A duration field that may be missing: then `default`.
    pub fn duration_or(&mut self, key: &str, default: Nanos) -> Result<Nanos, ScenarioError> {
        self.or_else(key, || Duration(default)).map(|d| d.0)
    }

    /// An optional duration (`null` is `None`) that may be missing: then `default`.
    pub fn optional_duration(
        &mut self,
        key: &str,
        default: Option<Nanos>,
    ) -> Result<Option<Nanos>, ScenarioError> {
        self.or_else(key, || default.map(Duration))
            .map(|d| d.map(|d| d.0))
    }

    /// Ends the object: with `deny_unknown`, a field nobody took is refused,
    /// naming the ones that are known.
    pub fn finish(self, deny_unknown: bool, known: &[&str]) -> Result<(), ScenarioError> {
        if !deny_unknown {
            return Ok(());
        }
        match self.fields.iter().zip(&self.taken).find(|(_, t)| !**t) {
            None => Ok(()),
            Some(((key, _), _)) => Err(bad(
                child(self.path, key),
                format!(
                    "unknown field `{key}`, expected one of {}",
                    known.join(", ")
                ),
            )),
        }
    }
}

/// An internally tagged enum's object: its tag (the variant's name) and
/// the remaining fields. The tag must be a name: serde also takes a
/// variant's index there, but only in some nestings, which no document the
/// playground writes relies on.
pub fn tagged<'a>(
    v: &'a Json,
    path: &'a str,
    tag: &str,
    names: &[&str],
) -> Result<(String, Fields<'a>), ScenarioError> {
    let mut fields = Fields::of(v, path)?;
    let tag_path = child(path, tag);
    let name = match fields.take(tag)? {
        None => return Err(bad(path, format!("missing field `{tag}`"))),
        Some(v @ Json::String(_)) => String::decode(v, &tag_path)?,
        Some(v) => return Err(invalid(&tag_path, v, "variant identifier")),
    };
    if !names.contains(&name.as_str()) {
        return Err(unknown_variant(&tag_path, &name, names));
    }
    Ok((name, fields))
}

/// "unknown variant" for a tag or a string enum.
pub fn unknown_variant(path: &str, name: &str, known: &[&str]) -> ScenarioError {
    bad(
        path,
        format!(
            "unknown variant `{name}`, expected one of {}",
            known.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_value() {
        let v = parse(r#" {"a": [1, -2, 3.5, 1e2, 18446744073709551616], "b": "x\"\u00e9\ud83d\ude00", "c": null, "d": true} "#).unwrap();
        let Json::Object(f) = v else { panic!() };
        assert_eq!(
            f[0].1,
            Json::Array(vec![
                Json::Number(Number::Unsigned(1)),
                Json::Number(Number::Negative(-2)),
                Json::Number(Number::Float(3.5)),
                Json::Number(Number::Float(100.0)),
                Json::Number(Number::Float(18446744073709551616.0)),
            ])
        );
        assert_eq!(f[1].1, Json::String("x\"é😀".into()));
        assert_eq!(
            (f[2].1.clone(), f[3].1.clone()),
            (Json::Null, Json::Bool(true))
        );
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for doc in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "-",
            "1e",
            "\"\\x\"",
            "\"a",
            "nul",
            "{} x",
            "1e400",
            "{\"a\":1,}",
            "\"\\ud800\"",
            "[\"\t\"]",
        ] {
            let err = parse(doc).expect_err(doc);
            assert_eq!(err.field, "(document)", "{doc}");
            assert!(
                err.reason.starts_with("not valid JSON"),
                "{doc}: {}",
                err.reason
            );
            assert!(
                serde_json::from_str::<serde_json::Value>(doc).is_err(),
                "{doc}"
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).is_err(), "a stack-deep document is refused");
    }

    #[test]
    fn fields_name_the_path_and_refuse_duplicates_and_strangers() {
        let v = parse(r#"{"a": {"n": "x"}}"#).unwrap();
        let mut top = Fields::of(&v, "(document)").unwrap();
        let inner = top.take("a").unwrap().unwrap();
        let mut f = Fields::of(inner, "a").unwrap();
        let err = f.required::<u32>("n").unwrap_err();
        assert_eq!(err.field, "a.n");
        assert!(
            err.reason.contains("invalid type: string \"x\""),
            "{}",
            err.reason
        );
        let dup = parse(r#"{"n": 1, "n": 2, "m": 1, "m": 2}"#).unwrap();
        let mut f = Fields::of(&dup, "x").unwrap();
        assert!(f.required::<u32>("n").is_err(), "a known field twice");
        assert!(
            f.finish(false, &["n"]).is_ok(),
            "an unknown one twice is only unknown"
        );
        let extra = parse(r#"{"n": 1, "m": 2}"#).unwrap();
        let mut f = Fields::of(&extra, "x").unwrap();
        assert_eq!(f.required::<u32>("n").unwrap(), 1);
        assert_eq!(f.finish(true, &["n"]).unwrap_err().field, "x.m");
    }

    /// The same value as serde_json's tree (objects without duplicate keys).
    fn as_serde(v: &Json) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(Number::Unsigned(n)) => Value::from(*n),
            Json::Number(Number::Negative(n)) => Value::from(*n),
            Json::Number(Number::Float(f)) => Value::from(*f),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(items.iter().map(as_serde).collect()),
            Json::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), as_serde(v)))
                    .collect(),
            ),
        }
    }

    fn has_duplicate_keys(v: &Json) -> bool {
        match v {
            Json::Array(items) => items.iter().any(has_duplicate_keys),
            Json::Object(fields) => {
                fields
                    .iter()
                    .enumerate()
                    .any(|(i, (k, _))| fields[..i].iter().any(|(j, _)| j == k))
                    || fields.iter().any(|(_, v)| has_duplicate_keys(v))
            }
            _ => false,
        }
    }

    /// Byte-level fuzzing of the parser against serde_json: documents built
    /// from JSON's own alphabet, mutated by inserting, deleting and replacing
    /// characters. Both must accept (with the same tree) or both refuse, and
    /// nothing panics.
    #[test]
    fn the_parser_agrees_with_serde_json_on_mangled_documents() {
        const PIECES: [&str; 24] = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            "\\u00e9",
            "\\ud83d\\ude00",
            "0",
            "-",
            "1",
            "9",
            ".",
            "e",
            "E",
            "+",
            "true",
            "null",
            " ",
            "\"k\"",
            "é",
            "\n",
        ];
        let seed = r#"{"version": 1, "a": [1, -2.5e3, "x\"y", null, true, {"b": {}}], "c": 18446744073709551615}"#;
        let mut rng = crate::rng::Rng::new(0x5EED);
        let (mut both_ok, mut both_err) = (0, 0);
        for _ in 0..20_000 {
            let mut text: Vec<String> = seed.chars().map(String::from).collect();
            for _ in 0..1 + rng.next_u64() % 4 {
                let at = (rng.next_u64() % (text.len() as u64 + 1)) as usize;
                let piece = PIECES[(rng.next_u64() % PIECES.len() as u64) as usize].to_string();
                match rng.next_u64() % 3 {
                    0 => text.insert(at, piece),
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ if at < text.len() => text[at] = piece,
                    _ => text.push(piece),
                }
            }
            let text: String = text.concat();
            let ours = parse(&text);
            let theirs = serde_json::from_str::<serde_json::Value>(&text);
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => {
                    both_ok += 1;
                    if !has_duplicate_keys(a) {
                        assert_eq!(&as_serde(a), b, "{text}");
                    }
                }
                (Err(_), Err(_)) => both_err += 1,
                _ => panic!("{text}: ours {ours:?}, serde_json {theirs:?}"),
            }
        }
        assert!(
            both_ok > 1000 && both_err > 1000,
            "{both_ok} accepted, {both_err} refused"
        );
    }

    /// A hostile object with a hundred thousand keys is refused (or read)
    /// in linear time: every known field is one pass, unknown ones one more.
    #[test]
    fn an_object_with_a_hundred_thousand_keys_is_read_in_linear_time() {
        let keys: Vec<String> = (0..100_000).map(|i| format!("\"k{i}\": {i}")).collect();
        let doc = format!("{{\"version\": 1, {}}}", keys.join(", "));
        let err = crate::Scenario::from_json(&doc).unwrap_err();
        assert_eq!(err.field, "k0");
        assert!(err.reason.starts_with("unknown field"), "{}", err.reason);
        let doubled = format!(
            "{{\"version\": 1, {}, {}}}",
            keys.join(", "),
            keys.join(", ")
        );
        assert!(crate::Scenario::from_json(&doubled).is_err());
    }

    #[test]
    fn durations_read_integers_whole_floats_and_go_strings() {
        let d = |s: &str| Duration::decode(&parse(s).unwrap(), "d").map(|d| d.0);
        assert_eq!(d("5"), Ok(5));
        assert_eq!(d("-5"), Ok(-5));
        assert_eq!(d("5e3"), Ok(5000));
        assert_eq!(d("\"1m30s\""), Ok(90_000_000_000));
        assert!(d("1.5").is_err());
        assert!(d("9223372036854775808").is_err());
        assert!(d("true").is_err());
    }
}
