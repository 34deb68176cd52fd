//! A lockfile schema kept as compact JSON text instead of a `serde_json::Value` tree.
//!
//! Large surfaces (10,000 tools) made the tree form the dominant cost of `baseline` and
//! `diff`: every schema was built, cloned for rendering and freed node by node. As text, a
//! captured schema is written once, rendered by re-indenting, and compared with a memory
//! compare; only a schema whose text differs is parsed back into a tree for the diff.

use serde_json::Value;

/// Compact JSON text of one schema; `null` when the tool has none. The text is always
/// well-formed JSON: it comes from our own writer or from a parsed document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaText(Box<str>);

impl Default for SchemaText {
    fn default() -> Self {
        SchemaText::null()
    }
}

impl SchemaText {
    pub fn null() -> Self {
        SchemaText("null".into())
    }

    /// `JSON.stringify(v)` form of a value (ECMAScript numbers, JavaScript key order).
    pub fn from_value(v: &Value) -> Self {
        SchemaText(super::json::to_compact(v).into_boxed_str())
    }

    /// Text already in compact `JSON.stringify` form (our canonical writer).
    pub(crate) fn from_compact(text: String) -> Self {
        SchemaText(text.into_boxed_str())
    }

    /// Well-formed JSON text as found in a file: whitespace between tokens is dropped,
    /// every token is kept as written (so key order and number spelling are the file's).
    pub fn from_json_text(raw: &str) -> Self {
        let mut out = String::with_capacity(raw.len() / 2);
        let b = raw.as_bytes();
        let mut i = 0;
        let mut start = 0;
        while i < b.len() {
            match b[i] {
                b'"' => i = string_end(b, i),
                b' ' | b'\t' | b'\n' | b'\r' => {
                    out.push_str(&raw[start..i]);
                    i += 1;
                    start = i;
                }
                _ => i += 1,
            }
        }
        out.push_str(&raw[start..]);
        SchemaText(out.into_boxed_str())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_null(&self) -> bool {
        &*self.0 == "null"
    }

    /// The schema as a tree (for the structural diff and for reports).
    pub fn to_value(&self) -> Value {
        // Always well-formed by construction; a failure would be our bug, not the input's.
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }

    /// `JSON.stringify(schema, null, 2)` layout for a value nested `level` deep: the same
    /// bytes `json::to_pretty` writes for the tree, produced by re-indenting the text.
    pub fn write_pretty(&self, level: usize, out: &mut String) {
        let text = &*self.0;
        let b = text.as_bytes();
        let newline = |out: &mut String, lvl: usize| {
            out.push('\n');
            for _ in 0..lvl {
                out.push_str("  ");
            }
        };
        let mut lvl = level;
        let mut i = 0;
        let mut start = 0;
        while i < b.len() {
            match b[i] {
                b'"' => i = string_end(b, i),
                open @ (b'{' | b'[') => {
                    let close = if open == b'{' { b'}' } else { b']' };
                    if b.get(i + 1) == Some(&close) {
                        i += 2;
                        continue;
                    }
                    out.push_str(&text[start..=i]);
                    lvl += 1;
                    newline(out, lvl);
                    i += 1;
                    start = i;
                }
                b'}' | b']' => {
                    out.push_str(&text[start..i]);
                    lvl = lvl.saturating_sub(1);
                    newline(out, lvl);
                    out.push(b[i] as char);
                    i += 1;
                    start = i;
                }
                b',' => {
                    out.push_str(&text[start..=i]);
                    newline(out, lvl);
                    i += 1;
                    start = i;
                }
                b':' => {
                    out.push_str(&text[start..=i]);
                    out.push(' ');
                    i += 1;
                    start = i;
                }
                _ => i += 1,
            }
        }
        out.push_str(&text[start..]);
    }
}

/// Index just past the string literal that starts at `b[i] == '"'` (clamped to the end).
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::json::to_pretty;
    use serde_json::json;

    fn samples() -> Vec<Value> {
        vec![
            Value::Null,
            json!({}),
            json!([]),
            json!({"type": "object", "properties": {}, "required": []}),
            json!({"a": [1, 2.5, -0.0, 1e21, 1e-7], "b": {"c": [{}, [], [[]]]}, "d": null}),
            json!({"s": "quote \" backslash \\ colon: comma, {brace} [bracket]", "t": "\u{1}\n\t"}),
            json!({"10": 1, "2": 2, "b": 3, "a": 4}),
            json!({"ü": "ñ", "emoji": "🦀", "": ""}),
            json!(["x", {"y": {"z": [true, false]}}]),
        ]
    }

    #[test]
    fn pretty_matches_tree_rendering_at_any_level() {
        for v in samples() {
            let text = SchemaText::from_value(&v);
            let mut one = String::new();
            text.write_pretty(0, &mut one);
            assert_eq!(one, to_pretty(&v), "{v}");
            // Nested: the tree rendered inside two levels of objects.
            let nested = json!({"k": {"inner": v.clone()}});
            let want = to_pretty(&nested);
            let mut got = String::from("{\n  \"k\": {\n    \"inner\": ");
            text.write_pretty(2, &mut got);
            got.push_str("\n  }\n}");
            assert_eq!(got, want);
        }
    }

    #[test]
    fn file_text_round_trips_to_the_same_compact_form() {
        for v in samples() {
            let pretty = to_pretty(&v);
            let from_file = SchemaText::from_json_text(&pretty);
            assert_eq!(from_file, SchemaText::from_value(&v), "{pretty}");
            // JSON.stringify wrote -0 as 0; the text reads back as what the file says.
            let written: Value = serde_json::from_str(&pretty).unwrap();
            assert_eq!(from_file.to_value(), written);
        }
        // Whitespace inside strings is data, outside it is layout.
        let t = SchemaText::from_json_text("{ \"a b\" :\r\n\t[ 1 , \" x \" ] }");
        assert_eq!(t.as_str(), r#"{"a b":[1," x "]}"#);
    }

    #[test]
    fn null_and_truncated_input() {
        assert!(SchemaText::null().is_null());
        assert_eq!(SchemaText::null().to_value(), Value::Null);
        // Never produced by us, but must not panic.
        let mut out = String::new();
        SchemaText(r#"{"a":"unterminated"#.into()).write_pretty(1, &mut out);
        SchemaText::from_json_text(r#"["\"#);
    }
}
