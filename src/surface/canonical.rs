//! Description canonicalization (version 2) and schema canonicalization, lockfile.md §5–§7.
//! Canonical forms feed only the drift hash and the stored text; security checks read the
//! raw server text.

use super::json::{escape_into, js_string_form, utf16_cmp, write_compact, JsonStr};
use super::schema_text::SchemaText;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// The canonicalization rules this build writes (`meta.canonicalVersion`).
pub const CANONICAL_VERSION: u64 = 2;

/// Nesting limit for schemas and inferred output (untrusted input protection).
pub const MAX_DEPTH: usize = 64;

pub const DEPTH_ERROR: &str = "Schema exceeds maximum depth of 64 (untrusted input protection)";

/// Hash of the empty description.
pub const EMPTY_HASH: &str =
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// ASCII-only trim: exactly SPACE, TAB and LF. A Unicode-aware trim would strip U+FEFF and
/// hide an invisible rug-pull at the edge of a description (the canonicalization v2 fix).
fn ascii_trim(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\n'])
}

/// Canonical form of a tool or parameter description (lockfile.md §5.1).
pub fn canonicalize_description(raw: &str) -> String {
    if raw.is_empty() {
        return String::new();
    }
    // ASCII is always NFC, and text without CR needs no line-ending pass: the common case
    // (10,000 plain descriptions) allocates only the result.
    let nfc: Cow<str> = if raw.is_ascii() {
        Cow::Borrowed(raw)
    } else {
        Cow::Owned(raw.nfc().collect())
    };
    let lf: Cow<str> = if nfc.contains('\r') {
        Cow::Owned(nfc.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        nfc
    };
    let mut out = String::with_capacity(lf.len());
    let mut line_buf = String::new();
    for (i, line) in lf.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        line_buf.clear();
        let mut in_run = false;
        for c in line.chars() {
            if c == ' ' || c == '\t' {
                if !in_run {
                    line_buf.push(' ');
                }
                in_run = true;
            } else {
                line_buf.push(c);
                in_run = false;
            }
        }
        out.push_str(ascii_trim(&line_buf));
    }
    ascii_trim(&out).to_string()
}

/// `sha256:` + lowercase hex of the UTF-8 bytes of `text`.
pub fn sha256_tag(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(71);
    out.push_str("sha256:");
    for b in digest {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 0xf)] as char);
    }
    out
}

/// The `descriptionHash` of a raw description (missing counts as empty).
pub fn description_hash(raw: Option<&str>) -> String {
    sha256_tag(&canonicalize_description(raw.unwrap_or("")))
}

/// Canonical schema (lockfile.md §6) as a tree: string values NFC, object keys sorted by
/// UTF-16 code units (then JavaScript index-key order), `required` arrays sorted,
/// depth-limited. One canonicalizer serves every form: this is its text, read back.
pub fn canonicalize_schema(v: &Value) -> Result<Value, String> {
    canonical_schema_text(v).map(|t| t.to_value())
}

/// Canonical schema of a parsed value, as compact text (`JSON.stringify` of the tree).
pub fn canonical_schema_text(v: &Value) -> Result<SchemaText, String> {
    let raw = serde_json::value::to_raw_value(v).map_err(|e| format!("unreadable schema: {e}"))?;
    canonical_schema_text_raw(&raw)
}

/// Canonical schema of a value still in its JSON text. The text is read once into a light
/// tree (strings borrowed, members as a list), which is sorted in place and written: no
/// `serde_json` map or owned key is built, which matters for 10,000-tool surfaces.
pub fn canonical_schema_text_raw(raw: &RawValue) -> Result<SchemaText, String> {
    // Validated JSON fails to read past the reader's nesting limit (128, beyond ours) or
    // with a number out of range.
    let node: Node = serde_json::from_str(raw.get()).map_err(|e| {
        if e.to_string().contains("recursion limit") {
            DEPTH_ERROR.to_string()
        } else {
            format!("unreadable schema: {e}")
        }
    })?;
    let mut out = String::new();
    canon_node(node, 0, &mut out)?;
    Ok(SchemaText::from_compact(out))
}

/// A JSON value as read for canonicalization.
enum Node<'a> {
    Null,
    Bool(bool),
    Num(serde_json::Number),
    Str(Cow<'a, str>),
    Arr(Vec<Node<'a>>),
    Obj(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl Node<'_> {
    fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Num(n) => Value::Number(n),
            Node::Str(s) => Value::String(s.into_owned()),
            Node::Arr(a) => Value::Array(a.into_iter().map(Node::into_value).collect()),
            Node::Obj(m) => Value::Object(
                m.into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_value()))
                    .collect(),
            ),
        }
    }
}

impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
                Ok(Node::Bool(b))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
                Ok(Node::Num(n.into()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
                Ok(Node::Num(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
                Ok(serde_json::Number::from_f64(n).map_or(Node::Null, Node::Num))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Node::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Node::Str(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(Node::Str(Cow::Owned(s)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = a.next_element::<Node<'de>>()? {
                    out.push(e);
                }
                Ok(Node::Arr(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<JsonStr<'de>, Node<'de>>()? {
                    out.push((k.0, v));
                }
                Ok(Node::Obj(out))
            }
        }
        d.deserialize_any(V)
    }
}

fn canon_node(node: Node, depth: usize, out: &mut String) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(DEPTH_ERROR.to_string());
    }
    match node {
        Node::Str(s) if s.is_ascii() => escape_into(&s, out),
        Node::Str(s) => escape_into(&s.nfc().collect::<String>(), out),
        Node::Arr(items) => {
            out.push('[');
            for (i, e) in items.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canon_node(e, depth + 1, out)?;
            }
            out.push(']');
        }
        Node::Obj(mut members) => {
            // Stable sort: among repeated keys the last written stays last and wins, as in
            // a parsed map (JSON.parse keeps the last value too).
            members.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
            // Of repeated keys (now adjacent, in written order) only the last is kept.
            let mut unique = Vec::with_capacity(members.len());
            let mut drain = members.into_iter().peekable();
            while let Some(m) = drain.next() {
                if drain.peek().is_some_and(|next| next.0 == m.0) {
                    continue;
                }
                unique.push(m);
            }
            // JavaScript own-key order: index keys ascending first, then the sorted rest.
            if unique
                .iter()
                .any(|(k, _)| super::json::array_index(k).is_some())
            {
                let (mut index, rest): (Vec<_>, Vec<_>) = unique
                    .into_iter()
                    .partition(|(k, _)| super::json::array_index(k).is_some());
                index.sort_by_key(|(k, _)| super::json::array_index(k));
                index.extend(rest);
                unique = index;
            }
            out.push('{');
            for (i, (k, v)) in unique.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                escape_into(&k, out);
                out.push(':');
                match v {
                    Node::Arr(items) if k == "required" => {
                        if depth + 1 > MAX_DEPTH {
                            return Err(DEPTH_ERROR.to_string());
                        }
                        let mut items: Vec<Value> =
                            items.into_iter().map(Node::into_value).collect();
                        items.sort_by(|a, b| utf16_cmp(&js_string_form(a), &js_string_form(b)));
                        write_compact(&Value::Array(items), out);
                    }
                    other => canon_node(other, depth + 1, out)?,
                }
            }
            out.push('}');
        }
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Node::Num(n) => out.push_str(&super::json::js_number(super::json::as_f64(&n))),
    }
    Ok(())
}

/// The stderr warning of lockfile.md §7.1, when the baseline used other rules.
pub fn canonical_version_warning(baseline_version: u64) -> Option<String> {
    (baseline_version != CANONICAL_VERSION).then(|| {
        format!(
            "Warning: Baseline was captured with canonicalization v{baseline_version}, current uses v{CANONICAL_VERSION}. Some changes may be artifacts of the canonicalization change. Recommend re-running 'mcpward baseline' to update."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// lockfile.md §5.5, every worked example.
    #[test]
    fn worked_hash_examples() {
        let table: &[(&str, &str, &str)] = &[
            (
                "",
                "",
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ),
            (
                "Reads a file.",
                "Reads a file.",
                "2ea6be57cad299955a905c64a6a0689d31192cdb6715fc98e61970138019cd3d",
            ),
            (
                "  Reads   a file.\r\n\tNever writes.  \r\n",
                "Reads a file.\nNever writes.",
                "3b17b047e56a289d7da802a8788c0f533600ca156de4a8ec74dfb0d060114706",
            ),
            (
                "Cafe\u{301} menu",
                "Caf\u{e9} menu",
                "d3bd7b817298938372293328f74ab0b6c203469170fca8f26bbc846084e6c9bd",
            ),
            (
                "Caf\u{e9} menu",
                "Caf\u{e9} menu",
                "d3bd7b817298938372293328f74ab0b6c203469170fca8f26bbc846084e6c9bd",
            ),
            (
                "Reads a\u{200b} file.",
                "Reads a\u{200b} file.",
                "607a7360b02e82e222e1636a562c7fe464fd630d183c1a69532b034f292c32db",
            ),
            (
                "\u{feff}Reads a file.",
                "\u{feff}Reads a file.",
                "8786997675143822a6ea8ee9a3db7a3c92292345f5a357badbdd9fd3ceabc109",
            ),
            (
                "\u{a0}Reads a file.",
                "\u{a0}Reads a file.",
                "3395a08d4eb06fa808d2aba646bdf5f1b8131f23744dcd8459bc7dd5906c4d42",
            ),
            (
                "Reads a file.\u{2028}",
                "Reads a file.\u{2028}",
                "b28a84c88cfdc0325e21adf5cbe7f21e92758ce4ea482978f0b523951237a217",
            ),
            (
                "\u{b}Reads a file.\u{c}",
                "\u{b}Reads a file.\u{c}",
                "9047734de942ac788efc6a221fc2d498fb8d78a977be0c7a0d81edd8f9d0e3bb",
            ),
            (
                "Line one.\n\n\n  Line two.  ",
                "Line one.\n\n\nLine two.",
                "50793f68e4547761b5300f14549688c83b9c9f3e9f2b9491f8424ec51362f355",
            ),
            (
                "a\rb",
                "a\nb",
                "7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78",
            ),
            (
                "  Cafe\u{301}\u{200b}  test  \r\n  line 2  ",
                "Caf\u{e9}\u{200b} test\nline 2",
                "67a4fa87602af7ac0987ef6aa51f2d5526eb90c7fbde27f10707ffa5f24a2b67",
            ),
            (
                "Original description: echoes back the message.",
                "Original description: echoes back the message.",
                "40d8aee68a2ba778eca24d09bcdb733114d321532c6a94cd3620f5b2ad51d0ac",
            ),
            (
                "Modified description: now it also logs the message internally.",
                "Modified description: now it also logs the message internally.",
                "2af96f3cd658aa92f259655f01b6fd1789a5628922f3c38cd6451cc1edc2081a",
            ),
            (
                "This tool exists in v1 but will be removed in v2.",
                "This tool exists in v1 but will be removed in v2.",
                "146c1091fd2bf29e67d58c514c355e50d77c30b61523237b459de48d2d805ff8",
            ),
            (
                "Performs a computation.",
                "Performs a computation.",
                "f7a3f6568dd486595e4d78f803bb3c051146123eb25d7de177a166d3aca1916e",
            ),
            (
                "Queries data from the system.",
                "Queries data from the system.",
                "d57b5bfb773a62fe4b7dd920811c35747cff52f2edb54e5af0e18ff332f88842",
            ),
            (
                "Reads data without modifying anything.",
                "Reads data without modifying anything.",
                "405ef34966d12a6d1a86c5aed4b332524e0e61db9c23906322fd0e12979a8605",
            ),
            (
                "This tool remains unchanged between versions.",
                "This tool remains unchanged between versions.",
                "6a22635d1850334b9cc05d5215e9687afa7d23d92ec083a65af20f30e641be23",
            ),
            (
                "A test tool for canonicalization.\nCaf\u{e9} with NFC \u{e9}.",
                "A test tool for canonicalization.\nCaf\u{e9} with NFC \u{e9}.",
                "365afa7875d441c9545a975d98557f0e69400633e97b8b8b0662d702c11732de",
            ),
            (
                "A test tool for canonicalization.\r\nCafe\u{301} with NFC e\u{301}.",
                "A test tool for canonicalization.\nCaf\u{e9} with NFC \u{e9}.",
                "365afa7875d441c9545a975d98557f0e69400633e97b8b8b0662d702c11732de",
            ),
            (
                "A test\u{200b} tool for canonicalization.\nCaf\u{e9} with NFC \u{e9}.",
                "A test\u{200b} tool for canonicalization.\nCaf\u{e9} with NFC \u{e9}.",
                "2d146d17111d7041c35fdae90357011841f4ed32b7425d42d304d70d438f7685",
            ),
        ];
        for (i, (raw, canonical, hex)) in table.iter().enumerate() {
            assert_eq!(
                canonicalize_description(raw),
                *canonical,
                "example {}",
                i + 1
            );
            assert_eq!(
                description_hash(Some(raw)),
                format!("sha256:{hex}"),
                "example {}",
                i + 1
            );
        }
        assert_eq!(description_hash(None), EMPTY_HASH);
    }

    #[test]
    fn ascii_only_trim_edges() {
        let base = "Read a file";
        for c in ['\u{feff}', '\u{a0}'] {
            assert_ne!(canonicalize_description(&format!("{c}{base}")), base);
        }
        assert_ne!(canonicalize_description(&format!("{base}\u{feff}")), base);
        assert_ne!(canonicalize_description(&format!("{base}\u{2028}")), base);
        assert_ne!(
            canonicalize_description("Line\n\u{feff}Read a file"),
            "Line\nRead a file"
        );
        assert_eq!(canonicalize_description(" \t Read a file \n "), base);
        assert_eq!(
            canonicalize_description("Test\u{200B} text"),
            "Test\u{200B} text"
        );
        assert_eq!(canonicalize_description("a\u{202E}b"), "a\u{202E}b");
        let para = "Paragraph 1\n\nParagraph 2\n\n\nParagraph 3";
        assert_eq!(canonicalize_description(para), para);
        assert_eq!(canonicalize_description("a\r\r\nb"), "a\n\nb");
    }

    #[test]
    fn schema_canonical_form() {
        let input: Value = serde_json::from_str(
            r#"{"type":"object","required":["z","a"],"properties":{"z":{"type":"string"},"a":{"type":"number"}},"title":"Cafe\u0301","nullable":null}"#,
        )
        .unwrap();
        let out = canonicalize_schema(&input).unwrap();
        assert_eq!(
            serde_json::to_string(&out).unwrap(),
            r#"{"nullable":null,"properties":{"a":{"type":"number"},"z":{"type":"string"}},"required":["a","z"],"title":"Café","type":"object"}"#
        );
        // Index-key order inside properties, and the `required` sort by UTF-16 string form.
        let v = json!({"properties": {"b":{}, "10":{}, "2":{}, "B":{}, "é":{}, "_x":{}}, "required": ["b","10","2","B"]});
        let out = canonicalize_schema(&v).unwrap();
        let keys: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["2", "10", "B", "_x", "b", "é"]);
        assert_eq!(out["required"], json!(["10", "2", "B", "b"]));
        // enum order kept, required elements not normalized, __proto__ kept.
        let v = json!({"enum": ["b", "a"], "required": ["e\u{301}"], "properties": {"__proto__": {"type": "string"}}});
        let out = canonicalize_schema(&v).unwrap();
        assert_eq!(out["enum"], json!(["b", "a"]));
        assert_eq!(out["required"], json!(["e\u{301}"]));
        assert!(out["properties"].get("__proto__").is_some());
    }

    #[test]
    fn canonical_text_of_awkward_schemas() {
        let deep = (0..70).fold(json!("leaf"), |v, _| json!({ "x": v }));
        let cases = [
            (json!(null), "null"),
            (
                json!({"type":"object","required":["z","a",3,null,{"b":1,"a":2}],"properties":{"z":{"type":"string","enum":["Cafe\u{301}", 1.50, 1e21]},"10":{},"2":[]}}),
                // `required`: sorted by JavaScript string form ("3" < "[object Object]" <
                // "a" < "null" < "z"), elements as written; index keys first.
                r#"{"properties":{"2":[],"10":{},"z":{"enum":["Café",1.5,1e+21],"type":"string"}},"required":[3,{"b":1,"a":2},"a",null,"z"],"type":"object"}"#,
            ),
            (
                json!({"enum": ["b", "a"], "required": ["e\u{301}"], "nested": [[{"y": 1, "x": [true, "ü"]}]]}),
                "{\"enum\":[\"b\",\"a\"],\"nested\":[[{\"x\":[true,\"ü\"],\"y\":1}]],\"required\":[\"e\u{301}\"]}",
            ),
            (json!(["top", "level", {"k": -0.0}]), r#"["top","level",{"k":0}]"#),
            (
                json!({"required": "not an array", "anyOf": [{"required": []}]}),
                r#"{"anyOf":[{"required":[]}],"required":"not an array"}"#,
            ),
        ];
        for (v, want) in cases {
            assert_eq!(canonical_schema_text(&v).unwrap().as_str(), want, "{v}");
            // The tree form is the same text read back, in the same member order.
            assert_eq!(
                crate::surface::json::to_compact(&canonicalize_schema(&v).unwrap()),
                want
            );
        }
        assert_eq!(canonical_schema_text(&deep).unwrap_err(), DEPTH_ERROR);
    }

    #[test]
    fn canonical_text_from_raw_json_is_the_same() {
        let deep = (0..70).fold(json!("leaf"), |v, _| json!({ "x": v }));
        let values = [
            json!(null),
            json!({"type":"object","required":["z","a",3,null,{"b":1,"a":2}],"properties":{"z":{"type":"string","enum":["Cafe\u{301}", 1.50, 1e21, -0.0]},"10":{},"2":[]}}),
            json!({"properties": {"b":{}, "10":{}, "2":{}, "B":{}, "é":{}, "_x":{}, "\u{1F600}": {}, "\u{FFFD}": {}}, "required": ["b","10","2","B"]}),
            json!({"enum": ["b", "a"], "required": ["e\u{301}"], "nested": [[{"y": 1, "x": [true, "ü"]}]]}),
            json!(["top", "level", {"k": -0.0, "esc\"aped\n": "tab\tand \u{1}"}]),
            json!({"required": "not an array", "anyOf": [{"required": []}]}),
            deep,
        ];
        for v in values {
            let text = serde_json::to_string(&v).unwrap();
            let raw: &RawValue = serde_json::from_str(&text).unwrap();
            match (canonical_schema_text(&v), canonical_schema_text_raw(raw)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("disagree on {text}: {a:?} vs {b:?}"),
            }
        }
        // Text a parsed map cannot show: repeated keys (the last wins), escaped keys,
        // whitespace, numbers spelled differently.
        let text = r#" { "b" : 1 , "a" : { "y" : [ 1.0 , 2e0 ] } , "b" : { "z" : "\u0041" } , "\u0063" : null } "#;
        let raw: &RawValue = serde_json::from_str(text).unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            canonical_schema_text_raw(raw).unwrap(),
            canonical_schema_text(&parsed).unwrap()
        );
        assert_eq!(
            canonical_schema_text_raw(raw).unwrap().as_str(),
            r#"{"a":{"y":[1,2]},"b":{"z":"A"},"c":null}"#
        );
    }

    #[test]
    fn schema_depth_limit() {
        let mut v = json!({"type": "string"});
        for _ in 0..70 {
            v = json!({ "properties": { "a": v } });
        }
        let err = canonicalize_schema(&v).unwrap_err();
        assert!(err.contains("maximum depth"), "{err}");
        // Exactly 64 levels is fine (root object at depth 0, scalar at depth 64).
        let mut ok = json!(1);
        for _ in 0..64 {
            ok = json!([ok]);
        }
        assert!(canonicalize_schema(&ok).is_ok());
        assert!(canonicalize_schema(&json!([ok])).is_err());
    }

    #[test]
    fn version_warning_text() {
        assert_eq!(canonical_version_warning(2), None);
        assert_eq!(
            canonical_version_warning(0).unwrap(),
            "Warning: Baseline was captured with canonicalization v0, current uses v2. Some changes may be artifacts of the canonicalization change. Recommend re-running 'mcpward baseline' to update."
        );
    }
}
