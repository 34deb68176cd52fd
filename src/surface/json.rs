//! JSON the way the original's JavaScript sees it: ECMAScript number formatting, object key
//! iteration order (index-like keys first), `JSON.stringify` escaping and layout, and the
//! "canonical JSON" equality the diff uses. The lockfile bytes and every JSON fragment in a
//! drift message go through here, so both implementations write the same text.

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Members of a JSON object left as text: file order, a repeated key keeps its first
/// position and its last value (as `JSON.parse` and a parsed map do).
pub type RawMembers<'a> = indexmap::IndexMap<String, &'a RawValue>;

/// The value of JSON text that was validated when it was split off (`RawValue`): parsing
/// it again cannot fail.
pub fn raw_to_value(raw: &RawValue) -> Value {
    serde_json::from_str(raw.get()).unwrap_or(Value::Null)
}

/// `v` with every array and object at its exact size: a parsed tree keeps the spare room
/// its vectors and maps grew into, a third of a long listing held for a whole run (#12).
pub fn compact(v: Value) -> Value {
    match v {
        Value::Array(a) => {
            // Collected in place, the old buffer (and its spare room) would be kept.
            let mut a: Vec<Value> = a.into_iter().map(compact).collect();
            a.shrink_to_fit();
            Value::Array(a)
        }
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, compact(v))).collect()),
        v => v,
    }
}

/// A JSON string, borrowed from the text when it has no escapes.
pub(crate) struct JsonStr<'a>(pub Cow<'a, str>);

impl<'de> Deserialize<'de> for JsonStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonStr<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(JsonStr(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(JsonStr(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(JsonStr(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// An object's members in written order, repeats included, values left as text.
pub(crate) struct Members<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Members<'a> {
    /// The member as a parsed object would hold it: the last of repeated keys.
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<JsonStr<'de>, &'de RawValue>()? {
                    out.push((k.0, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// JavaScript `typeof` names, as the original reported them (arrays and null are `object`).
pub fn js_type(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null | Value::Array(_) | Value::Object(_) => "object",
    }
}

/// ECMAScript Number::toString for a finite double (`1`, `0.5`, `1e+21`, `1e-7`; `-0` is `0`).
pub fn js_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        // JSON cannot carry NaN/Infinity; JSON.stringify would write null for them.
        return if x.is_finite() {
            "0".into()
        } else {
            "null".into()
        };
    }
    if x < 0.0 {
        return format!("-{}", js_number(-x));
    }
    // Rust's `{:e}` gives the shortest round-tripping digits, like ECMAScript requires.
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let e: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = e + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (a, b) = digits.split_at(n as usize);
        format!("{a}.{b}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n > 0 { "+" } else { "-" };
        let ex = (n - 1).abs();
        if k == 1 {
            format!("{digits}e{sign}{ex}")
        } else {
            format!("{}.{}e{sign}{ex}", &digits[..1], &digits[1..])
        }
    }
}

/// The JSON type name of a value (`null`, `boolean`, `number`, `string`, `array`, `object`).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The string members of an array value (non-strings skipped; anything else is empty).
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The double a JSON number becomes in JavaScript.
pub fn as_f64(n: &serde_json::Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

/// A canonical array index key ("0" … "4294967294", no sign, no leading zeros).
pub fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    (n <= 4_294_967_294).then_some(n as u32)
}

/// JavaScript own-key order: index keys ascending, then the rest in their given order.
pub fn js_key_order<'a, I: IntoIterator<Item = &'a str>>(keys: I) -> Vec<&'a str> {
    let mut idx: Vec<(u32, &str)> = Vec::new();
    let mut rest = Vec::new();
    for k in keys {
        match array_index(k) {
            Some(n) => idx.push((n, k)),
            None => rest.push(k),
        }
    }
    idx.sort_by_key(|(n, _)| *n);
    idx.into_iter().map(|(_, k)| k).chain(rest).collect()
}

/// Re-orders a map into JavaScript own-key order.
pub fn js_ordered(map: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for k in js_key_order(map.keys().map(String::as_str)) {
        if let Some(v) = map.get(k) {
            out.insert(k.to_string(), v.clone());
        }
    }
    out
}

/// Ascending UTF-16 code-unit order (JavaScript's default string sort), not code-point order.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    // Without characters outside the BMP (4-byte UTF-8), UTF-8 byte order is UTF-16 order.
    let bmp = |s: &str| s.bytes().all(|x| x < 0xF0);
    if bmp(a) && bmp(b) {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// JavaScript `String(value)` for the values a JSON document can hold.
pub fn js_string_form(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(as_f64(n)),
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|e| match e {
                Value::Null => String::new(),
                other => js_string_form(other),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

pub(crate) fn escape_into(s: &str, out: &mut String) {
    out.push('"');
    // Copy runs that need no escape in one go; lockfiles are megabytes of such text.
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            b if b < 0x20 => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// `JSON.stringify(s)` for one string.
pub fn js_string(s: &str) -> String {
    let mut out = String::new();
    escape_into(s, &mut out);
    out
}

fn write(v: &Value, indent: Option<usize>, level: usize, out: &mut String) {
    let nl = |out: &mut String, lvl: usize| {
        if let Some(w) = indent {
            out.push('\n');
            out.push_str(&" ".repeat(w * lvl));
        }
    };
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&js_number(as_f64(n))),
        Value::String(s) => escape_into(s, out),
        Value::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                write(e, indent, level + 1, out);
            }
            nl(out, level);
            out.push(']');
        }
        Value::Object(m) => {
            if m.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, k) in js_key_order(m.keys().map(String::as_str))
                .into_iter()
                .enumerate()
            {
                if i > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                escape_into(k, out);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                if let Some(val) = m.get(k) {
                    write(val, indent, level + 1, out);
                }
            }
            nl(out, level);
            out.push('}');
        }
    }
}

/// `JSON.stringify(v, null, 2)`: the lockfile layout (no trailing newline).
/// `JSON.stringify(v, null, 2)` of a value nested `level` deep, appended to `out`.
pub(crate) fn write_pretty_at(v: &Value, level: usize, out: &mut String) {
    write(v, Some(2), level, out);
}

/// `JSON.stringify(v)`, appended to `out`.
pub(crate) fn write_compact(v: &Value, out: &mut String) {
    write(v, None, 0, out);
}

pub fn to_pretty(v: &Value) -> String {
    let mut out = String::new();
    write(v, Some(2), 0, &mut out);
    out
}

/// `JSON.stringify(v)`: compact JSON as drift messages print it.
pub fn to_compact(v: &Value) -> String {
    let mut out = String::new();
    write(v, None, 0, &mut out);
    out
}

/// Compact JSON of an optional value; an absent value prints as `undefined` (drift.md §5.2).
pub fn to_compact_opt(v: Option<&Value>) -> String {
    v.map(to_compact).unwrap_or_else(|| "undefined".into())
}

/// Canonical JSON text: keys sorted recursively, numbers as doubles. Two values are the
/// "same" (lockfile.md §6.1) exactly when these strings are equal.
pub fn canonical_key(v: &Value) -> String {
    fn go(v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort_by(|a, b| utf16_cmp(a, b));
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    escape_into(k, out);
                    out.push(':');
                    if let Some(val) = m.get(k.as_str()) {
                        go(val, out);
                    }
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, e) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    go(e, out);
                }
                out.push(']');
            }
            other => write(other, None, 0, out),
        }
    }
    let mut out = String::new();
    go(v, &mut out);
    out
}

/// Canonical-JSON equality: key order ignored, array order significant, numbers as doubles.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => as_f64(x) == as_f64(y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

/// `same` over optional values (absent equals only absent).
pub fn same_opt(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => same(x, y),
        _ => false,
    }
}

/// Path segment for error messages: `.name` for identifier-like keys, else `["…"]`.
pub fn path_segment(key: &str) -> String {
    let ident = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    if ident {
        format!(".{key}")
    } else {
        format!("[{}]", js_string(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Same value, same key order, and no spare room left in any array.
    #[test]
    fn compact_keeps_the_value_and_drops_spare_room() {
        let text = r#"{"z":1,"a":[1,2,3,4,5],"m":{"y":[{"k":[true,false,null]}],"b":"s"}}"#;
        let parsed: Value = serde_json::from_str(text).unwrap();
        let c = compact(parsed.clone());
        assert_eq!(c, parsed);
        assert_eq!(serde_json::to_string(&c).unwrap(), text);
        fn tight(v: &Value) -> bool {
            match v {
                Value::Array(a) => a.capacity() == a.len() && a.iter().all(tight),
                Value::Object(m) => m.values().all(tight),
                _ => true,
            }
        }
        assert!(
            !tight(&parsed),
            "serde_json leaves room: the test must be able to fail"
        );
        assert!(tight(&c));
    }

    #[test]
    fn ecmascript_numbers() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (1000.0, "1000"),
            (0.5, "0.5"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (-0.0, "0"),
            (123456789012345678901234567890.0, "1.2345678901234568e+29"),
            (1.5e300, "1.5e+300"),
            (-2.25, "-2.25"),
            (1e20, "100000000000000000000"),
            (123.456, "123.456"),
            (5e-324, "5e-324"),
        ];
        for (x, s) in cases {
            assert_eq!(js_number(*x), *s, "{x}");
        }
        let v: Value = serde_json::from_str(
            "[1.0, 1E3, -0, 123456789012345678901234567890, 18446744073709551615]",
        )
        .unwrap();
        assert_eq!(
            to_compact(&v),
            "[1,1000,0,1.2345678901234568e+29,18446744073709552000]"
        );
    }

    #[test]
    fn index_keys_first() {
        let v = json!({"b":1,"10":1,"2":1,"B":1,"é":1,"_x":1,"01":1,"4294967295":1});
        let order = js_key_order(v.as_object().unwrap().keys().map(String::as_str));
        assert_eq!(order, ["2", "10", "b", "B", "é", "_x", "01", "4294967295"]);
    }

    #[test]
    fn escaping_and_layout() {
        let v = json!({"s": "a\"b\\c\u{8}\t\n\u{c}\r\u{1f}\u{7f}\u{2028}/é", "e": {}, "a": [], "n": [1, {"x": null}]});
        assert_eq!(
            to_pretty(&v),
            "{\n  \"s\": \"a\\\"b\\\\c\\b\\t\\n\\f\\r\\u001f\u{7f}\u{2028}/é\",\n  \"e\": {},\n  \"a\": [],\n  \"n\": [\n    1,\n    {\n      \"x\": null\n    }\n  ]\n}"
        );
    }

    #[test]
    fn canonical_equality() {
        assert!(same(
            &json!({"a": 1, "b": [1.0, -0]}),
            &json!({"b": [1, 0], "a": 1e0})
        ));
        assert!(!same(&json!([1, 2]), &json!([2, 1])));
        assert!(!same(
            &json!({"__proto__": {"v": 1}, "a": 1}),
            &json!({"a": 1})
        ));
        assert_eq!(
            canonical_key(&json!({"b": 1.0, "a": [true]})),
            r#"{"a":[true],"b":1}"#
        );
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FFFD}"), Ordering::Less);
    }
}
