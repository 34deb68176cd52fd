//! `security` family: offline tool-poisoning heuristics over the raw `tools/list` surface
//! (security.md). Never calls a tool, never canonicalises text before scanning it.

mod annotation;
mod engine;
pub mod patterns;
pub mod poisoning;
mod secrets;
pub mod unicode;

use crate::model::Finding;
use crate::observed::Listing;
use serde_json::Value;
pub mod rules;
#[cfg(test)]
use crate::model::Severity;
pub use rules::RULES;

pub const SUMMARY: &str = rules::SUMMARY.id;
pub const LIST_TOOLS: &str = rules::LIST_TOOLS.id;
#[cfg(test)]
pub const INJECTION: &str = rules::INJECTION_PATTERN.id;
pub const HIDDEN_UNICODE: &str = rules::HIDDEN_UNICODE.id;
pub const SECRET_IN_SCHEMA: &str = rules::SECRET_IN_SCHEMA.id;
pub const ANNOTATION_MISMATCH: &str = rules::ANNOTATION_MISMATCH.id;

/// Parameter-walk depth guard (security.md §8 step 1).
const MAX_WALK_DEPTH: usize = 32;

/// Runs the family over one listing (security.md §2, §9).
pub fn check(listing: &Listing) -> Vec<Finding> {
    let tools = match super::common::listed_tools(listing, &rules::LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => return vec![f],
    };
    let mut out = Vec::new();
    for tool in tools {
        check_tool(tool, &mut out);
    }
    let summary = if out.is_empty() {
        rules::SUMMARY.pass(format!(
            "Security scan passed: {} tool(s) checked, no issues found",
            tools.len()
        ))
    } else {
        rules::SUMMARY.fail(format!(
            "Security scan found {} issue(s) in {} tool(s)",
            out.len(),
            tools.len()
        ))
    };
    out.insert(0, summary);
    out
}

fn non_empty_str(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn check_tool(tool: &Value, out: &mut Vec<Finding>) {
    let Some(obj) = tool.as_object() else {
        return;
    };
    let name_value = obj.get("name").and_then(Value::as_str);
    let name = name_value.unwrap_or("");
    let description = non_empty_str(obj.get("description"));

    if let Some(d) = description {
        injection(d, name, None, out);
    }
    if let Some(n) = name_value {
        hidden(n, name, Place::Name, out);
    }
    if let Some(d) = description {
        hidden(d, name, Place::Description, out);
    }
    let schema = obj.get("inputSchema");
    secrets::secrets(schema, name, out);
    let mut params = Vec::new();
    if let Some(s) = schema {
        walk(s, String::new(), 0, &mut params);
    }
    for (path, text) in params {
        hidden(text, name, Place::Param(&path), out);
        injection(text, name, Some(&path), out);
    }
    annotation::annotation(obj, name, description.unwrap_or(""), out);
}

enum Place<'a> {
    Name,
    Description,
    Param(&'a str),
}

fn location(name: &str, path: Option<&str>) -> String {
    match path {
        Some(p) => format!("{name}.{p}"),
        None => name.to_string(),
    }
}

fn hidden(text: &str, name: &str, place: Place, out: &mut Vec<Finding>) {
    let found = unicode::scan(text);
    if found.is_empty() {
        return;
    }
    let described = unicode::describe(&found);
    let (message, path) = match place {
        Place::Name => (format!("Tool \"{name}\" name contains hidden unicode: {described}"), None),
        Place::Description => (
            format!("Tool \"{name}\" description contains hidden unicode: {described}"),
            None,
        ),
        Place::Param(p) => (
            format!("Tool \"{name}\" parameter \"{p}\" description contains hidden unicode: {described}"),
            Some(p),
        ),
    };
    out.push(
        rules::HIDDEN_UNICODE
            .fail(message)
            .actual(unicode::occurrences_json(&found))
            .location(location(name, path)),
    );
}

/// The original's twelve phrases (one finding, exact message), then the poisoning shapes
/// (one finding per shape, same rule id, the shape named in the message). A shape whose
/// evidence overlaps an original match or an earlier shape's evidence is dropped, so one
/// sentence is reported once.
fn injection(text: &str, name: &str, path: Option<&str>, out: &mut Vec<Finding>) {
    let original = patterns::injection_matches(text);
    let quote = |(a, b): (usize, usize)| text.get(a..b).unwrap_or("").to_string();
    if let Some(&first) = original.first() {
        let message = match path {
            None => format!(
                "Tool \"{name}\" description contains injection-like pattern: \"{}\"",
                quote(first)
            ),
            Some(p) => format!(
                "Tool \"{name}\" parameter \"{p}\" description contains injection pattern: \"{}\"",
                quote(first)
            ),
        };
        let actual: Vec<Value> = original.iter().map(|&s| Value::String(quote(s))).collect();
        out.push(
            rules::INJECTION_PATTERN
                .fail(message)
                .actual(actual)
                .location(location(name, path)),
        );
    }
    let overlaps = |a: (usize, usize), b: (usize, usize)| a.0 < b.1 && b.0 < a.1;
    let mut used: Vec<(usize, usize)> = original;
    for shape in poisoning::detect(text) {
        let Some(&primary) = shape.evidence.first() else {
            continue;
        };
        if used
            .iter()
            .any(|&u| shape.evidence.iter().any(|&e| overlaps(u, e)))
        {
            continue;
        }
        used.extend(shape.evidence.iter().copied());
        let message = match path {
            None => format!(
                "Tool \"{name}\" description contains injection-like pattern ({}): \"{}\"",
                shape.label,
                quote(primary)
            ),
            Some(p) => format!(
                "Tool \"{name}\" parameter \"{p}\" description contains injection pattern ({}): \"{}\"",
                shape.label,
                quote(primary)
            ),
        };
        let actual: Vec<Value> = shape
            .evidence
            .iter()
            .map(|&s| Value::String(quote(s)))
            .collect();
        out.push(
            rules::INJECTION_PATTERN
                .fail(message)
                .actual(actual)
                .location(location(name, path)),
        );
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Collects `(path, description)` of every parameter description (security.md §8), then —
/// beyond the original, because a model reads them too — `prefixItems` (`[]`),
/// `patternProperties` (`{}`), `not`/`if`/`then`/`else`/`dependentSchemas` (same path), and
/// `$defs`/`definitions` entries (`$defs.<name>` from the schema they sit in).
fn walk<'a>(node: &'a Value, path: String, depth: usize, out: &mut Vec<(String, &'a str)>) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    let Some(obj) = node.as_object() else {
        return;
    };
    if !path.is_empty() {
        if let Some(d) = non_empty_str(obj.get("description")) {
            out.push((path.clone(), d));
        }
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            walk(v, join(&path, k), depth + 1, out);
        }
    }
    match obj.get("items") {
        Some(Value::Array(items)) => {
            for it in items {
                walk(it, format!("{path}[]"), depth + 1, out);
            }
        }
        Some(it) => walk(it, format!("{path}[]"), depth + 1, out),
        None => {}
    }
    if let Some(ap) = obj.get("additionalProperties") {
        walk(ap, format!("{path}{{}}"), depth + 1, out);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = obj.get(key).and_then(Value::as_array) {
            for b in branches {
                walk(b, path.clone(), depth + 1, out);
            }
        }
    }
    // Additions (not in the original).
    if let Some(items) = obj.get("prefixItems").and_then(Value::as_array) {
        for it in items {
            walk(it, format!("{path}[]"), depth + 1, out);
        }
    }
    if let Some(pp) = obj.get("patternProperties").and_then(Value::as_object) {
        for v in pp.values() {
            walk(v, format!("{path}{{}}"), depth + 1, out);
        }
    }
    for key in ["not", "if", "then", "else"] {
        if let Some(v) = obj.get(key) {
            walk(v, path.clone(), depth + 1, out);
        }
    }
    if let Some(ds) = obj.get("dependentSchemas").and_then(Value::as_object) {
        for v in ds.values() {
            walk(v, path.clone(), depth + 1, out);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(defs) = obj.get(key).and_then(Value::as_object) {
            for (k, v) in defs {
                walk(v, join(&path, &format!("{key}.{k}")), depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests;
