//! Golden snapshots: the pinned part of a call result and its canonical JSON text
//! (sorted keys, JavaScript number formatting), so files written by the original tool
//! and by this port compare equal.

use serde_json::{Map, Value};

/// Deeper values are written as `null`; serde_json already refuses to parse deeper input.
const MAX_DEPTH: usize = 256;

/// What a golden file pins: `isError` (true only for the boolean `true`), `content`
/// (`[]` when absent or null) and `structuredContent` when present. Nothing else.
pub fn pinned(result: &Value) -> Value {
    let mut m = Map::new();
    m.insert(
        "isError".into(),
        Value::Bool(result.get("isError") == Some(&Value::Bool(true))),
    );
    let content = match result.get("content") {
        None | Some(Value::Null) => Value::Array(Vec::new()),
        Some(c) => c.clone(),
    };
    m.insert("content".into(), content);
    if let Some(sc) = result.get("structuredContent") {
        m.insert("structuredContent".into(), sc.clone());
    }
    Value::Object(m)
}

/// Canonical text of any value: keys sorted by UTF-16 code units (JavaScript's default
/// sort), numbers as `JSON.stringify` writes them. `indent` 0 means compact.
pub fn canonical(v: &Value, indent: usize) -> String {
    let mut out = String::new();
    write_value(&mut out, v, indent, 0);
    out
}

fn write_value(out: &mut String, v: &Value, indent: usize, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("null");
        return;
    }
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_text(n)),
        Value::String(s) => out.push_str(&string_text(s)),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                write_value(out, item, indent, depth + 1);
            }
            newline(out, indent, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| crate::surface::json::utf16_cmp(a, b));
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                out.push_str(&string_text(k));
                out.push(':');
                if indent > 0 {
                    out.push(' ');
                }
                if let Some(val) = map.get(*k) {
                    write_value(out, val, indent, depth + 1);
                }
            }
            newline(out, indent, depth);
            out.push('}');
        }
    }
}

fn newline(out: &mut String, indent: usize, depth: usize) {
    if indent > 0 {
        out.push('\n');
        out.push_str(&" ".repeat(indent * depth));
    }
}

fn string_text(s: &str) -> String {
    // serde_json escapes exactly what JSON.stringify escapes (quote, backslash, controls).
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn number_text(n: &serde_json::Number) -> String {
    const SAFE: u64 = 1 << 53;
    if let Some(u) = n.as_u64() {
        if u <= SAFE {
            return u.to_string();
        }
    } else if let Some(i) = n.as_i64() {
        if i.unsigned_abs() <= SAFE {
            return i.to_string();
        }
    }
    // Beyond 2^53 JavaScript holds a double; print what it would print.
    js_number(n.as_f64().unwrap_or(0.0))
}

/// ECMAScript number formatting, shared with the lockfile and the JSON reporter.
pub use crate::surface::json::js_number;

/// What a golden file holds for a result: the pinned value, canonical, 2-space
/// indentation, one trailing newline.
pub fn golden_text(result: &Value) -> String {
    let mut s = canonical(&pinned(result), 2);
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn js_numbers() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (0.000001, "0.000001"),
            (123.456, "123.456"),
            (-0.0, "0"),
        ];
        for (x, want) in cases {
            assert_eq!(js_number(*x), *want, "{x}");
        }
        assert_eq!(js_number(f64::NAN), "null");
    }

    #[test]
    fn canonical_sorts_keys_and_normalises_numbers() {
        let a: Value =
            serde_json::from_str(r#"{"b":1.0,"a":[3,{"z":null,"__proto__":2}]}"#).unwrap();
        assert_eq!(
            canonical(&a, 0),
            r#"{"a":[3,{"__proto__":2,"z":null}],"b":1}"#
        );
        assert_eq!(
            canonical(&a, 2),
            "{\n  \"a\": [\n    3,\n    {\n      \"__proto__\": 2,\n      \"z\": null\n    }\n  ],\n  \"b\": 1\n}"
        );
        // UTF-16 order, not code-point order: U+1F600 is 0xD83D.. and sorts before U+FF5E.
        let u = json!({"\u{ff5e}": 1, "\u{1f600}": 2});
        assert_eq!(canonical(&u, 0), "{\"\u{1f600}\":2,\"\u{ff5e}\":1}");
        assert_eq!(
            canonical(&json!(18446744073709551615u64), 0),
            "18446744073709552000"
        );
        assert_eq!(canonical(&json!({}), 2), "{}");
        assert_eq!(canonical(&json!([]), 2), "[]");
    }

    #[test]
    fn pinned_keeps_only_content_structured_and_is_error() {
        let r = json!({"_meta": {"x": 1}, "content": [{"type": "text", "text": "hi"}], "isError": "yes"});
        assert_eq!(
            pinned(&r),
            json!({"isError": false, "content": [{"type": "text", "text": "hi"}]})
        );
        let r = json!({"structuredContent": {"n": 1}, "isError": true});
        assert_eq!(
            pinned(&r),
            json!({"isError": true, "content": [], "structuredContent": {"n": 1}})
        );
        assert_eq!(
            golden_text(&json!({"content": []})),
            "{\n  \"content\": [],\n  \"isError\": false\n}\n"
        );
    }
}
