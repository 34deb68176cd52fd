//! Security scan of an arbitrary tool object (injection phrases, poisoning shapes, hidden
//! Unicode, secret-soliciting schemas, annotation mismatch). Input that parses as a JSON
//! object is the tool; any other text is cut at NUL bytes into a name, a description, a
//! parameter name and a parameter description (so the fuzzer's bytes reach the regexes
//! directly), with `readOnlyHint: true` so the mutation patterns run too, and the same texts
//! as titles, enum/default values, an extension and an output field so the #13 walker,
//! normalizer and signals see them. The time bound
//! is the point: a regex or scan that blows up on some text is a finding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
use serde_json::{json, Value};
// Crate API used (re-point here after a move):
use mcpward::checks::security::{check, warm};

fn tool_of(data: &[u8]) -> Option<Value> {
    if let Ok(v @ Value::Object(_)) = serde_json::from_slice::<Value>(data) {
        return Some(v);
    }
    let text = std::str::from_utf8(data).ok()?;
    let mut parts = text.split('\0');
    let description = parts.next().unwrap_or("");
    let name = parts.next().unwrap_or("tool");
    let param = parts.next().unwrap_or("p");
    let param_description = parts.next().unwrap_or(description);
    Some(json!({
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": { param: { "type": "string", "description": param_description,
                "title": description, "enum": [param_description, name], "default": description,
                "x-note": param_description } },
            "$defs": { "d": { "description": param_description } }
        },
        "title": param_description,
        "outputSchema": { "type": "object", "properties": { param: { "description": description } } },
        "annotations": { "readOnlyHint": true, "title": name }
    }))
}

fuzz_target!(|data: &[u8]| {
    // Compiling the ~80 patterns is a one-time cost, not a per-input one.
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(warm);
    let Some(tool) = tool_of(data) else { return };
    bounded("security scan", || {
        let findings = check(&Ok(vec![tool]));
        assert!(!findings.is_empty(), "no summary finding");
    });
});
