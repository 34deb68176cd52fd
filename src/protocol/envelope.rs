//! The per-request `_meta` envelope of the 2026-07-28 era (protocol-2026-07-28.md §4) and
//! the modern error codes (§11).

use serde_json::{Map, Value};

pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

pub const CODE_HEADER_MISMATCH: i64 = -32020;
pub const CODE_MISSING_CAPABILITY: i64 = -32021;
pub const CODE_UNSUPPORTED_VERSION: i64 = -32022;

/// The `_meta` envelope mcpward puts on every modern request.
pub fn envelope(version: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(META_PROTOCOL_VERSION.into(), Value::String(version.into()));
    m.insert(META_CLIENT_CAPABILITIES.into(), Value::Object(Map::new()));
    let mut info = Map::new();
    info.insert("name".into(), Value::String("mcpward".into()));
    info.insert("version".into(), Value::String(crate::VERSION.into()));
    m.insert(META_CLIENT_INFO.into(), Value::Object(info));
    m
}

/// `params` with the envelope merged into `params._meta` (appended last, keeping other
/// `_meta` keys such as `progressToken`). No params ⇒ `{_meta}`.
pub fn with_envelope(params: Option<Value>, meta: &Map<String, Value>) -> Value {
    let mut obj = match params {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let entry = obj
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    if let Value::Object(m) = entry {
        for (k, v) in meta {
            m.insert(k.clone(), v.clone());
        }
    }
    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn envelope_shapes() {
        let meta = envelope("2026-07-28");
        let p1 = with_envelope(None, &meta);
        assert_eq!(
            p1.to_string(),
            format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"mcpward","version":"{}"}}}}}}"#,
                crate::VERSION
            )
        );
        let call = with_envelope(
            Some(json!({"name":"t","arguments":{},"_meta":{"progressToken":3}})),
            &meta,
        );
        let keys: Vec<&String> = call.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "arguments", "_meta"]);
        assert_eq!(call["_meta"]["progressToken"], 3);
        assert_eq!(call["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
        let page2 = with_envelope(Some(json!({"cursor": ""})), &meta);
        let keys: Vec<&String> = page2.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["cursor", "_meta"]);
        // A non-object _meta is replaced, not crashed on.
        let odd = with_envelope(Some(json!({"_meta": 5})), &meta);
        assert!(odd["_meta"][META_CLIENT_CAPABILITIES].is_object());
    }
}
