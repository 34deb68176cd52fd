//! The HTTP headers of the 2026-07-28 era (protocol-2026-07-28.md §7): value encoding, the
//! headers of one modern POST, and the `x-mcp-header` annotation rules (§7.3) that both the
//! wire (which never calls a tool with invalid annotations over HTTP) and the schema family
//! (which reports them) apply.

use base64::Engine as _;
use serde_json::Value;
use std::collections::BTreeMap;

/// Bound on recursion into hostile schemas.
const MAX_DEPTH: usize = 64;

/// §7.2: plain when every character is printable ASCII, no leading/trailing space and not
/// sentinel-shaped; otherwise `=?base64?<standard Base64 of UTF-8>?=`.
pub fn encode_header_value(s: &str) -> String {
    let printable = s.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = s.starts_with(' ') || s.ends_with(' ');
    let sentinel = s.starts_with("=?base64?") && s.ends_with("?=");
    if printable && !padded && !sentinel {
        s.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(s.as_bytes())
        )
    }
}

/// Text of an argument for a header: string as-is, integer in decimal, boolean;
/// anything else (null, fractional numbers, objects) sends no header.
pub fn header_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(i.to_string())
            } else if let Some(u) = n.as_u64() {
                Some(u.to_string())
            } else {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0)
                    .map(|f| (f as i64).to_string())
            }
        }
        _ => None,
    }
}

/// The headers of one modern POST (§7.1). `input_schema` is the tool's remembered schema
/// (for `Mcp-Param-*` on `tools/call`).
pub fn modern_headers(
    version: &str,
    method: &str,
    params: &Value,
    input_schema: Option<&Value>,
) -> Vec<(String, String)> {
    let mut h: Vec<(String, String)> = vec![
        ("MCP-Protocol-Version".into(), version.into()),
        ("Mcp-Method".into(), method.into()),
    ];
    let name = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        _ => None,
    };
    if let Some(text) = name.and_then(header_text) {
        h.push(("Mcp-Name".into(), encode_header_value(&text)));
    }
    if method == "tools/call" {
        if let Some(schema) = input_schema {
            let args = params.get("arguments");
            for (path, header) in x_mcp_header_params(schema) {
                let mut v = args;
                for key in &path {
                    v = v.and_then(|a| a.get(key));
                }
                if let Some(text) = v.and_then(header_text) {
                    h.push((format!("Mcp-Param-{header}"), encode_header_value(&text)));
                }
            }
        }
    }
    h
}

const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
const ONE_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
const LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

struct Annotation<'a> {
    location: String,
    /// Reachable from the root through `properties` keys alone.
    placed: bool,
    value: &'a Value,
    schema: &'a Value,
}

fn collect<'a>(
    node: &'a Value,
    location: String,
    chain: bool,
    is_prop: bool,
    depth: usize,
    out: &mut Vec<Annotation<'a>>,
) {
    let Value::Object(obj) = node else { return };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(v) = obj.get("x-mcp-header") {
        out.push(Annotation {
            location: location.clone(),
            placed: chain && is_prop,
            value: v,
            schema: node,
        });
    }
    for kw in MAP_KEYWORDS {
        if let Some(Value::Object(m)) = obj.get(*kw) {
            for (k, sub) in m {
                let via_props = *kw == "properties";
                collect(
                    sub,
                    format!("{location}/{kw}/{k}"),
                    chain && via_props,
                    via_props,
                    depth + 1,
                    out,
                );
            }
        }
    }
    for kw in ONE_KEYWORDS {
        if let Some(sub @ Value::Object(_)) = obj.get(*kw) {
            collect(
                sub,
                format!("{location}/{kw}"),
                false,
                false,
                depth + 1,
                out,
            );
        }
    }
    for kw in LIST_KEYWORDS {
        if let Some(Value::Array(items)) = obj.get(*kw) {
            for (i, sub) in items.iter().enumerate() {
                collect(
                    sub,
                    format!("{location}/{kw}/{i}"),
                    false,
                    false,
                    depth + 1,
                    out,
                );
            }
        }
    }
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn header_type_ok(schema: &Value) -> bool {
    let ok = |t: &str| matches!(t, "string" | "integer" | "boolean");
    match schema.get("type") {
        Some(Value::String(t)) => ok(t),
        Some(Value::Array(ts)) => {
            let named: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            named.len() == ts.len()
                && named.iter().any(|t| ok(t))
                && named.iter().all(|t| ok(t) || *t == "null")
        }
        _ => false,
    }
}

/// The first broken §7.3 constraint of a tool's `inputSchema`, or `None` when every
/// `x-mcp-header` annotation is valid (or there is none).
pub fn x_mcp_header_problem(input_schema: &Value) -> Option<String> {
    let mut found = Vec::new();
    collect(input_schema, "#".into(), true, false, 0, &mut found);
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for a in &found {
        let at = &a.location;
        if !a.placed {
            return Some(format!(
                "x-mcp-header at {at} is not on a property reachable from the root through \"properties\" alone"
            ));
        }
        let Some(name) = a.value.as_str() else {
            return Some(format!("x-mcp-header at {at} is not a string"));
        };
        if !is_token(name) {
            return Some(format!(
                "x-mcp-header \"{}\" at {at} is not a non-empty HTTP token",
                name.escape_default()
            ));
        }
        if !header_type_ok(a.schema) {
            return Some(format!(
                "x-mcp-header \"{name}\" at {at} is on a property whose type is not string, integer or boolean"
            ));
        }
        if let Some(first) = seen.insert(name.to_ascii_lowercase(), at.clone()) {
            return Some(format!(
                "x-mcp-header \"{name}\" at {at} repeats the name used at {first} (names compare case-insensitively)"
            ));
        }
    }
    None
}

/// Modern HTTP never calls a tool whose `x-mcp-header` annotations are invalid (§7.3):
/// the reason, naming the broken constraint, or `None` when the tool may be called.
pub fn blocked_call_reason(tool: &str, input_schema: &Value) -> Option<String> {
    x_mcp_header_problem(input_schema).map(|p| {
        format!("tool \"{tool}\" is not called over HTTP because its inputSchema has an invalid x-mcp-header: {p}")
    })
}

/// `(property path from the arguments root, header name)` for every well-placed string
/// annotation, in schema order.
pub fn x_mcp_header_params(input_schema: &Value) -> Vec<(Vec<String>, String)> {
    fn walk(node: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        if path.len() > MAX_DEPTH {
            return;
        }
        let Some(Value::Object(props)) = node.get("properties") else {
            return;
        };
        for (k, sub) in props {
            path.push(k.clone());
            if let Some(h) = sub.get("x-mcp-header").and_then(Value::as_str) {
                out.push((path.clone(), h.to_string()));
            }
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(input_schema, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    #[test]
    fn header_encoding_rules() {
        assert_eq!(
            encode_header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_header_value("echo"), "echo");
        assert_eq!(encode_header_value("a b"), "a b");
        assert_eq!(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_header_value("x "), "=?base64?eCA=?=");
        assert_eq!(encode_header_value("tab\there"), "=?base64?dGFiCWhlcmU=?=");
        // Sentinel-shaped values are wrapped so the server does not decode them.
        assert_eq!(
            encode_header_value("=?base64?ZWNobw==?="),
            "=?base64?PT9iYXNlNjQ/WldOb2J3PT0/PQ==?="
        );
        assert_eq!(encode_header_value("=?base64?abc"), "=?base64?abc");
        assert_eq!(encode_header_value(""), "");
        assert_eq!(
            encode_header_value("__mcpward_unknown_tool__"),
            "__mcpward_unknown_tool__"
        );
    }

    #[test]
    fn header_text_conversions() {
        assert_eq!(header_text(&json!("s")), Some("s".into()));
        assert_eq!(header_text(&json!(42)), Some("42".into()));
        assert_eq!(header_text(&json!(-7)), Some("-7".into()));
        assert_eq!(header_text(&json!(3.0)), Some("3".into()));
        assert_eq!(header_text(&json!(true)), Some("true".into()));
        assert_eq!(header_text(&json!(1.5)), None);
        assert_eq!(header_text(&Value::Null), None);
        assert_eq!(header_text(&json!({"a":1})), None);
    }

    #[test]
    fn modern_headers_for_calls() {
        let schema = json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "n":{"type":"integer","x-mcp-header":"Count"},
            "nested":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}},
            "gone":{"type":"string","x-mcp-header":"Gone"}
        }});
        let params = json!({"name":"wetter/ä","arguments":{"region":" padded ","n":5,"nested":{"flag":false},"gone":null}});
        let h = modern_headers("2026-07-28", "tools/call", &params, Some(&schema));
        assert_eq!(
            h,
            vec![
                ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
                ("Mcp-Method".into(), "tools/call".into()),
                ("Mcp-Name".into(), "=?base64?d2V0dGVyL8Ok?=".into()),
                ("Mcp-Param-Region".into(), "=?base64?IHBhZGRlZCA=?=".into()),
                ("Mcp-Param-Count".into(), "5".into()),
                ("Mcp-Param-Flag".into(), "false".into()),
            ]
        );
        let h = modern_headers("2026-07-28", "tools/list", &json!({}), None);
        assert_eq!(h.len(), 2);
    }

    #[test]
    fn x_mcp_header_validity() {
        let ok = json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":["integer","null"],"x-mcp-header":"B"}}});
        assert_eq!(x_mcp_header_problem(&ok), None);
        assert_eq!(x_mcp_header_problem(&json!({"type":"object"})), None);
        let cases = [
            (
                json!({"properties":{"a":{"type":"number","x-mcp-header":"A"}}}),
                "x-mcp-header \"A\" at #/properties/a is on a property whose type is not string, integer or boolean",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":""}}}),
                "x-mcp-header \"\" at #/properties/a is not a non-empty HTTP token",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}}),
                "x-mcp-header \"Bad Name\" at #/properties/a is not a non-empty HTTP token",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":7}}}),
                "x-mcp-header at #/properties/a is not a string",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}),
                "x-mcp-header \"x\" at #/properties/b repeats the name used at #/properties/a (names compare case-insensitively)",
            ),
            (
                json!({"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"I"}}}}),
                "x-mcp-header at #/properties/a/items is not on a property reachable from the root through \"properties\" alone",
            ),
            (
                json!({"anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}),
                "x-mcp-header at #/anyOf/0/properties/a is not on a property reachable from the root through \"properties\" alone",
            ),
            (
                json!({"x-mcp-header":"Root","type":"string"}),
                "x-mcp-header at # is not on a property reachable from the root through \"properties\" alone",
            ),
        ];
        for (schema, msg) in cases {
            assert_eq!(
                x_mcp_header_problem(&schema).as_deref(),
                Some(msg),
                "{schema}"
            );
        }
        // Deep hostile nesting does not overflow the stack.
        let mut deep = json!({"type":"string"});
        for _ in 0..10_000 {
            let mut props = Map::new();
            props.insert("a".into(), deep);
            let mut node = Map::new();
            node.insert("properties".into(), Value::Object(props));
            deep = Value::Object(node);
        }
        assert_eq!(x_mcp_header_problem(&deep), None);
        assert!(x_mcp_header_params(&deep).is_empty());
        std::mem::forget(deep); // dropping 10k nested maps recursively is serde's problem, not ours
    }
}
