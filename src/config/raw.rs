//! The YAML document as parsed, before paths and validation. serde_yaml's own `Value` cannot
//! hold an integer beyond 64 bits (the parse failed with a type error, reported as "Invalid
//! YAML"), so the document is read into this type, which keeps 128-bit integers for the
//! validator's range check (it then names the key).

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess};

/// The one place that names the YAML crate (serde_norway, the maintained fork of the
/// archived serde_yaml 0.9: same API, same libyaml-derived parser, same messages).
pub(crate) fn parse(text: &str) -> Result<Raw, String> {
    serde_norway::from_str(text).map_err(|e| e.to_string())
}

/// A float as the YAML crate spells it (messages quote keys and values this way).
pub(crate) fn float_text(f: f64) -> String {
    serde_norway::Number::from(f).to_string()
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Raw {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Raw>),
    /// Document order; duplicate keys are rejected while parsing, as serde_yaml does.
    Map(Vec<(Raw, Raw)>),
    /// A tag the parser did not resolve (`!env x`), with its `!`.
    Tagged(String, Box<Raw>),
}

/// serde_yaml's wording for a duplicate key, so messages stay as they were.
fn duplicate_message(key: &Raw) -> String {
    match key {
        Raw::Null => "duplicate entry with null key".to_string(),
        Raw::Bool(b) => format!("duplicate entry with key `{b}`"),
        Raw::Int(i) => format!("duplicate entry with key {i}"),
        Raw::Float(f) => format!("duplicate entry with key {}", float_text(*f)),
        Raw::Str(s) => format!("duplicate entry with key {s:?}"),
        Raw::Seq(_) | Raw::Map(_) | Raw::Tagged(..) => "duplicate entry in YAML map".to_string(),
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> de::Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Raw, E> {
        Ok(Raw::Int(i.into()))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Raw, E> {
        Ok(Raw::Int(u.into()))
    }

    fn visit_i128<E>(self, i: i128) -> Result<Raw, E> {
        Ok(Raw::Int(i))
    }

    fn visit_u128<E>(self, u: u128) -> Result<Raw, E> {
        // Above i128::MAX only a float can say how large it is; the range check rejects both.
        Ok(i128::try_from(u).map_or(Raw::Float(u as f64), Raw::Int))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Raw, E> {
        Ok(Raw::Float(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Raw, E> {
        Ok(Raw::Str(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Raw, E> {
        Ok(Raw::Str(s))
    }

    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries: Vec<(Raw, Raw)> = Vec::new();
        // String keys are hashed so a huge mapping stays linear; other keys are rare.
        let mut strings: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<Raw>()? {
            let duplicate = match &key {
                Raw::Str(s) => !strings.insert(s.clone()),
                other => entries.iter().any(|(k, _)| k == other),
            };
            if duplicate {
                return Err(de::Error::custom(duplicate_message(&key)));
            }
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Raw, A::Error> {
        let (tag, contents) = data.variant::<String>()?;
        let value: Raw = contents.newtype_variant()?;
        // As serde_yaml's `Tag` displays it: one leading `!`.
        let tag = format!("!{}", tag.strip_prefix('!').unwrap_or(&tag));
        Ok(Raw::Tagged(tag, Box::new(value)))
    }
}
