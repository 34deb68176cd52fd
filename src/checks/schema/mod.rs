//! Schema family (checks-core.md §4): judges each listed tool's name, description,
//! inputSchema and annotations.
//!
//! Tools are raw JSON as the server sent them (DECISIONS #5), so every shape — a tool that is
//! not an object, a non-string name, a missing inputSchema — becomes a finding, never a panic.

use super::common::ToolItem;
use crate::model::{Finding, Status};
use crate::observed::{Listing, TextListing};
use crate::protocol::versions::version_at_least;
use crate::surface::json::js_type;
use crate::surface::text::is_blank;
use jsonschema::{Draft, Retrieve, Uri};
use serde_json::Value;
use std::collections::BTreeMap;
pub mod rules;
#[cfg(test)]
use crate::model::Severity;
pub use rules::RULES;

#[cfg(test)]
#[cfg(test)]
const ID_SUMMARY: &str = rules::SUMMARY.id;
#[cfg(test)]
const ID_LIST_TOOLS: &str = rules::LIST_TOOLS.id;
#[cfg(test)]
const ID_UNIQUE: &str = rules::UNIQUE_NAMES.id;
#[cfg(test)]
const ID_NAME: &str = rules::TOOL_NAME.id;
#[cfg(test)]
const ID_DESCRIPTION: &str = rules::TOOL_DESCRIPTION.id;
#[cfg(test)]
const ID_INPUT_SCHEMA: &str = rules::TOOL_INPUT_SCHEMA.id;
#[cfg(test)]
const ID_ANNOTATIONS: &str = rules::TOOL_ANNOTATIONS.id;

/// First protocol revision with the SEP-986 tool-name rule (DECISIONS #40).
const SEP_986_VERSION: &str = "2025-11-25";
const NAME_PATTERN_ORIGINAL: &str = "^[a-zA-Z0-9_-]+$";
const NAME_PATTERN_SEP_986: &str = "^[A-Za-z0-9_.-]{1,128}$";
const NAME_MAX_LEN_SEP_986: usize = 128;

const VALID_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];
const ANNOTATION_HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Nesting limit for a schema handed to the validator, whose compiler recurses per level.
/// serde_json refuses deeper documents on the wire anyway (its limit is 128).
const MAX_SCHEMA_DEPTH: usize = 128;

pub fn check(listing: &Listing, protocol_version: &str) -> Vec<Finding> {
    check_items(listing.as_deref(), protocol_version)
}

/// [`check`] on a listing still held as JSON text: each tool is parsed in turn and freed
/// before the next, so a long listing is never held parsed while its schemas are compiled
/// (#12's memory bound). Same findings in the same order.
pub fn check_text(listing: &TextListing, protocol_version: &str) -> Vec<Finding> {
    check_items(listing.as_deref(), protocol_version)
}

fn check_items<T: ToolItem>(
    listing: Result<&[T], &String>,
    protocol_version: &str,
) -> Vec<Finding> {
    let tools = match super::common::listed(listing, &rules::LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => return vec![f.actual(listing.err().map_or("", String::as_str))],
    };
    let sep986 = version_at_least(protocol_version, SEP_986_VERSION);
    let mut names = Vec::with_capacity(tools.len());
    let mut per_tool = Vec::new();
    for (i, item) in tools.iter().enumerate() {
        let tool = item.value();
        let tool = tool.as_ref();
        names.push(tool.get("name").and_then(Value::as_str).map(str::to_string));
        per_tool.extend(judge_tool(tool, i, sep986, protocol_version));
    }
    let mut out = duplicates(names.iter().flatten().map(String::as_str));
    out.extend(per_tool);
    if out.iter().all(|f| f.status == Status::Pass) {
        let summary = rules::SUMMARY.pass(format!("All {} tools have valid schemas", tools.len()));
        out.insert(0, summary);
    }
    out
}

/// Every finding about one tool, in report order.
fn judge_tool(tool: &Value, i: usize, sep986: bool, protocol_version: &str) -> Vec<Finding> {
    let mut out = Vec::with_capacity(4);
    let label = label(tool, i);
    out.push(tool_name(tool, sep986, protocol_version));
    out.push(tool_description(tool, &label));
    out.push(tool_input_schema(tool, &label));
    if let Some(ann) = tool.get("annotations") {
        out.push(tool_annotations(ann, &label));
    }
    // Only tools that use x-mcp-header get a result (§12.3); silent otherwise.
    let schema = tool.get("inputSchema");
    let problem = schema.and_then(crate::protocol::headers::x_mcp_header_problem);
    if problem.is_none() && schema.is_some_and(|s| mentions_x_mcp_header(s, 0)) {
        out.push(
            rules::X_MCP_HEADER
                .pass(format!(
                    "Tool \"{label}\" has valid x-mcp-header annotations"
                ))
                .location(label.clone()),
        );
    }
    if let Some(problem) = problem {
        out.push(
            rules::X_MCP_HEADER.fail(
                format!("Tool \"{label}\" has an invalid x-mcp-header annotation: {problem}"),
            )
            .expected("x-mcp-header values that are unique HTTP tokens on top-level string, integer or boolean properties")
            .actual(problem)
            .location(label.clone()),
        );
    }
    out
}

/// The tool's usable name: a non-blank string.
fn name_of(tool: &Value) -> Option<&str> {
    tool.get("name")
        .and_then(Value::as_str)
        .filter(|n| !is_blank(n))
}

/// How messages and locations refer to a tool: its name, or `tools[<index>]` when it has no
/// usable name (the original printed `undefined`, which does not say which entry it was).
/// Whether a schema uses `x-mcp-header` anywhere (depth-bounded for hostile input).
fn mentions_x_mcp_header(v: &Value, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| k == "x-mcp-header" || mentions_x_mcp_header(v, depth + 1)),
        Value::Array(a) => a.iter().any(|v| mentions_x_mcp_header(v, depth + 1)),
        _ => false,
    }
}

fn label(tool: &Value, index: usize) -> String {
    name_of(tool).map_or_else(|| format!("tools[{index}]"), str::to_string)
}

fn duplicates<'a>(names: impl Iterator<Item = &'a str>) -> Vec<Finding> {
    // Only string names take part: a missing or non-string name is reported by tool-name.
    let mut order: Vec<&str> = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in names {
        let n = counts.entry(name).or_insert(0);
        if *n == 0 {
            order.push(name);
        }
        *n += 1;
    }
    order
        .into_iter()
        .filter_map(|name| {
            let n = counts.get(name).copied().unwrap_or(0);
            (n > 1).then(|| {
                rules::UNIQUE_NAMES
                    .fail(format!("Duplicate tool name: \"{name}\" appears {n} times"))
                    .expected("Unique tool names")
                    .actual(format!("\"{name}\" appears {n} times"))
                    .location(name)
            })
        })
        .collect()
}

fn tool_name(tool: &Value, sep986: bool, protocol_version: &str) -> Finding {
    let pattern = if sep986 {
        NAME_PATTERN_SEP_986
    } else {
        NAME_PATTERN_ORIGINAL
    };
    let raw = tool.get("name");
    let Some(name) = name_of(tool) else {
        let why = match (tool, raw) {
            (Value::Object(_), None | Some(Value::Null | Value::String(_))) => String::new(),
            (Value::Object(_), Some(other)) => {
                format!(" (name is a {}, not a string)", js_type(other))
            }
            (other, _) => format!(
                " (the tool entry is {}, not an object)",
                describe_non_object(other)
            ),
        };
        let mut f = rules::TOOL_NAME
            .fail(format!("Tool has empty or missing name{why}"))
            .expected(format!("Non-empty tool name matching {pattern}"));
        f.actual = raw.cloned();
        return f;
    };
    let chars_ok = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || (sep986 && c == '.'));
    let rule = if sep986 {
        format!("{pattern} for protocol {protocol_version}")
    } else {
        pattern.to_string()
    };
    if !chars_ok {
        return rules::TOOL_NAME
            .fail(format!(
                "Tool name \"{name}\" contains invalid characters (must match {rule})"
            ))
            .expected(format!("Name matching {pattern}"))
            .actual(name)
            .location(name);
    }
    let len = name.chars().count();
    if sep986 && len > NAME_MAX_LEN_SEP_986 {
        return rules::TOOL_NAME
            .fail(format!(
                "Tool name \"{name}\" is too long: {len} characters (must match {rule})"
            ))
            .expected(format!("Name matching {pattern}"))
            .actual(name)
            .location(name);
    }
    rules::TOOL_NAME
        .pass(format!("Tool \"{name}\" has valid name"))
        .location(name)
}

fn describe_non_object(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn tool_description(tool: &Value, label: &str) -> Finding {
    match tool.get("description") {
        None | Some(Value::Null) => rules::TOOL_DESCRIPTION
            .fail(format!("Tool \"{label}\" has no description"))
            .expected("Non-empty description")
            .actual("undefined"),
        Some(Value::String(s)) if is_blank(s) => rules::TOOL_DESCRIPTION
            .fail(format!("Tool \"{label}\" has empty description"))
            .expected("Non-empty description")
            .actual("\"\""),
        Some(Value::String(_)) => {
            rules::TOOL_DESCRIPTION.pass(format!("Tool \"{label}\" has description"))
        }
        Some(other) => rules::TOOL_DESCRIPTION
            .fail(format!("Tool \"{label}\" has non-string description"))
            .expected("String description")
            .actual(js_type(other)),
    }
    .location(label)
}

fn tool_input_schema(tool: &Value, label: &str) -> Finding {
    let schema = match tool.get("inputSchema") {
        None => {
            return rules::TOOL_INPUT_SCHEMA
                .warn(format!("Tool \"{label}\" has no inputSchema"))
                .expected("JSON Schema object")
                .actual("undefined")
                .location(label)
        }
        // An explicit null is as good as absent, but the report shows what was sent.
        Some(Value::Null) => {
            return rules::TOOL_INPUT_SCHEMA
                .warn(format!("Tool \"{label}\" has no inputSchema (it is null)"))
                .expected("JSON Schema object")
                .actual(Value::Null)
                .location(label)
        }
        Some(s) => s,
    };
    let ty = schema.get("type");
    if ty.and_then(Value::as_str) != Some("object") {
        let why = if schema.is_object() {
            String::new()
        } else {
            format!(
                " (inputSchema is {}, not an object)",
                describe_non_object(schema)
            )
        };
        let mut f = rules::TOOL_INPUT_SCHEMA
            .fail(format!(
                "Tool \"{label}\" inputSchema.type must be \"object\"{why}"
            ))
            .expected("object")
            .location(label);
        f.actual = ty.cloned();
        return f;
    }
    if let Err(e) = validate_schema(schema) {
        return rules::TOOL_INPUT_SCHEMA
            .fail(format!("Tool \"{label}\" has invalid inputSchema: {e}"))
            .expected("Valid JSON Schema")
            .actual(e)
            .location(label);
    }
    // Defence in depth: the meta-schema already rejects these, but a dialect quirk must not
    // let an unknown type name through.
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (prop, def) in props {
            let types: Vec<&Value> = match def.get("type") {
                Some(Value::Array(items)) => items.iter().collect(),
                Some(t) => vec![t],
                None => vec![],
            };
            if let Some(bad) = types
                .into_iter()
                .find(|t| !t.as_str().is_some_and(|s| VALID_TYPES.contains(&s)))
            {
                let shown = bad.as_str().map_or_else(|| bad.to_string(), str::to_string);
                return rules::TOOL_INPUT_SCHEMA.fail(
                    format!("Tool \"{label}\" property \"{prop}\" has invalid type: \"{shown}\""),
                )
                .expected(
                    "Valid JSON Schema type (string, number, integer, boolean, array, object, null)",
                )
                .actual(bad.clone())
                .location(format!("{label}.{prop}"));
            }
        }
    }
    rules::TOOL_INPUT_SCHEMA
        .pass(format!("Tool \"{label}\" has valid inputSchema"))
        .location(label)
}

/// Refuses every external `$ref`: schemas are judged offline, so a reference that does not
/// resolve inside the schema (or to a bundled meta-schema) makes the schema invalid.
struct Offline;

impl Retrieve for Offline {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!(
            "external reference {} is not resolved (mcpward never fetches schemas)",
            uri.as_str()
        )
        .into())
    }
}

/// The dialect a `$schema` URI names (DECISIONS #6) and that dialect's canonical URI. Both
/// `http` and `https` spellings and a trailing `#` are accepted, as json-schema.org serves
/// each meta-schema under both.
fn dialect_of(uri: &str) -> Option<(Draft, &'static str)> {
    let uri = uri.trim_end_matches('#');
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    Some(match rest {
        "json-schema.org/draft/2020-12/schema" => (
            Draft::Draft202012,
            "https://json-schema.org/draft/2020-12/schema",
        ),
        "json-schema.org/draft/2019-09/schema" => (
            Draft::Draft201909,
            "https://json-schema.org/draft/2019-09/schema",
        ),
        "json-schema.org/draft-07/schema" => {
            (Draft::Draft7, "http://json-schema.org/draft-07/schema#")
        }
        "json-schema.org/draft-06/schema" => {
            (Draft::Draft6, "http://json-schema.org/draft-06/schema#")
        }
        "json-schema.org/draft-04/schema" => {
            (Draft::Draft4, "http://json-schema.org/draft-04/schema#")
        }
        _ => return None,
    })
}

fn depth_exceeds(v: &Value, limit: usize) -> bool {
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().map(|x| (x, d + 1))),
            Value::Object(map) => stack.extend(map.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    false
}

/// Is `schema` a valid JSON Schema in its dialect: valid against the meta-schema, every
/// `$ref` resolvable locally, every `pattern` a valid ECMAScript regex. Unknown keywords
/// and `format` names are ignored. The error text says what is wrong and where.
pub(crate) fn validate_schema(schema: &Value) -> Result<(), String> {
    if depth_exceeds(schema, MAX_SCHEMA_DEPTH) {
        return Err(format!(
            "schema is nested deeper than {MAX_SCHEMA_DEPTH} levels"
        ));
    }
    let mut normalized = None;
    let draft = match schema.get("$schema") {
        Some(Value::String(uri)) => {
            let (draft, canonical) = dialect_of(uri).ok_or_else(|| {
                format!(
                    "unknown $schema \"{uri}\" (supported: draft-04, draft-06, draft-07, \
                     2019-09, 2020-12)"
                )
            })?;
            // The validator only knows the canonical spelling of each meta-schema URI and
            // would try to fetch any other one.
            if uri != canonical {
                let mut copy = schema.clone();
                copy["$schema"] = Value::String(canonical.to_string());
                normalized = Some(copy);
            }
            draft
        }
        // No `$schema` means 2020-12, the MCP default since 2025-11-25; a non-string one is
        // then rejected by the 2020-12 meta-schema.
        _ => Draft::Draft202012,
    };
    jsonschema::options()
        .with_draft(draft)
        .with_retriever(Offline)
        .should_ignore_unknown_formats(true)
        .build(normalized.as_ref().unwrap_or(schema))
        .map(|_| ())
        .map_err(|e| {
            let at = e.instance_path().as_str();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{e} (at {at})")
            }
        })
}

fn tool_annotations(ann: &Value, label: &str) -> Finding {
    let Some(obj) = ann.as_object() else {
        return rules::TOOL_ANNOTATIONS
            .fail(format!(
                "Tool \"{label}\" annotations should be an object (got {})",
                describe_non_object(ann)
            ))
            .expected("object")
            .actual(js_type(ann))
            .location(label);
    };
    for key in ANNOTATION_HINTS {
        match obj.get(*key) {
            None | Some(Value::Bool(_)) => {}
            Some(other) => {
                return rules::TOOL_ANNOTATIONS
                    .fail(format!(
                        "Tool \"{label}\" annotation \"{key}\" should be boolean"
                    ))
                    .expected("boolean")
                    .actual(js_type(other))
                    .location(label)
            }
        }
    }
    rules::TOOL_ANNOTATIONS
        .pass(format!("Tool \"{label}\" has valid annotations"))
        .location(label)
}

#[cfg(test)]
mod tests;
