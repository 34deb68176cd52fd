//! Schema family (checks-core.md §4): judges each listed tool's name, description,
//! inputSchema and annotations.
//!
//! Tools are raw JSON as the server sent them (DECISIONS #5), so every shape — a tool that is
//! not an object, a non-string name, a missing inputSchema — becomes a finding, never a panic.

use crate::model::{Finding, Severity, Status};
use crate::rules::Rule;
use crate::transport::Listing;
use jsonschema::{Draft, Retrieve, Uri};
use serde_json::Value;
use std::collections::BTreeMap;

const ID_X_MCP_HEADER: &str = "schema/x-mcp-header";

pub const RULES: &[Rule] = &[
    Rule {
        id: "schema/summary",
        severity: Severity::Info,
        short: "Schema validation summary",
        description: "Emitted (as a pass) only when every tool passed every schema check.",
        fix: "Nothing to fix; when it is missing, fix the other schema findings.",
    },
    Rule {
        id: ID_X_MCP_HEADER,
        severity: Severity::Error,
        short: "x-mcp-header annotations",
        description: "In the 2026-07-28 revision a tool input property may carry `x-mcp-header` to be mirrored into an `Mcp-Param-*` HTTP header. An invalid annotation (not an HTTP token, duplicated, on a non-scalar or nested property) makes HTTP clients drop the tool; mcpward keeps it in the listing but never calls it over HTTP.",
        fix: "Put `x-mcp-header` only on top-level string, integer or boolean properties, with a unique header-token value per tool.",
    },
    Rule {
        id: "schema/list-tools",
        severity: Severity::Error,
        short: "Tool listing",
        description: "The complete `tools/list` listing (all pages) could not be obtained, so no \
            tool could be checked.",
        fix: "Make `tools/list` answer with a valid result on every page: a `tools` array and an \
            optional string `nextCursor`.",
    },
    Rule {
        id: "schema/unique-names",
        severity: Severity::Error,
        short: "Unique names check",
        description: "Two or more listed tools share a name. Clients call tools by name, so all \
            but one of them are unreachable, and which one is called is undefined.",
        fix: "Give every tool a distinct name, or stop registering the same tool twice.",
    },
    Rule {
        id: "schema/tool-name",
        severity: Severity::Error,
        short: "Tool name validation",
        description: "Tool names must be non-empty and use only the characters the MCP \
            specification allows: ASCII letters, digits, `_` and `-` (from protocol 2025-11-25 \
            on also `.`, at most 128 characters). Other names break clients that map tools to \
            function names.",
        fix: "Rename the tool: replace spaces, slashes and other characters by `_` or `-`.",
    },
    Rule {
        id: "schema/tool-description",
        severity: Severity::Error,
        short: "Tool description validation",
        description: "Every tool needs a non-empty string description: it is what a model reads \
            to decide when and how to call the tool.",
        fix: "Add a `description` that says what the tool does, when to use it and what it \
            returns.",
    },
    Rule {
        id: "schema/tool-input-schema",
        severity: Severity::Error,
        short: "Input schema validation",
        description: "A tool's `inputSchema` must be a valid JSON Schema (in the dialect its \
            `$schema` names, 2020-12 by default) whose root `type` is \"object\". Clients \
            validate arguments with it and models build calls from it.",
        fix: "Declare `inputSchema` as `{\"type\": \"object\", \"properties\": {...}}`, use only \
            valid JSON Schema keywords and type names, and keep every `$ref` inside the schema.",
    },
    Rule {
        id: "schema/tool-annotations",
        severity: Severity::Error,
        short: "Annotations validation",
        description: "The behaviour hints `readOnlyHint`, `destructiveHint`, `idempotentHint` and \
            `openWorldHint` must be booleans; clients use them to decide whether to ask the user \
            before a call.",
        fix: "Send the hints as JSON booleans (`true`/`false`), not strings or numbers, or leave \
            them out.",
    },
];

const ID_SUMMARY: &str = "schema/summary";
const ID_LIST_TOOLS: &str = "schema/list-tools";
const ID_UNIQUE: &str = "schema/unique-names";
const ID_NAME: &str = "schema/tool-name";
const ID_DESCRIPTION: &str = "schema/tool-description";
const ID_INPUT_SCHEMA: &str = "schema/tool-input-schema";
const ID_ANNOTATIONS: &str = "schema/tool-annotations";

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
    let tools = match super::listed_tools(listing, ID_LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => return vec![f.actual(listing.as_ref().err().map_or("", String::as_str))],
    };
    let mut out = duplicates(tools);
    let sep986 = version_at_least(protocol_version, SEP_986_VERSION);
    for (i, tool) in tools.iter().enumerate() {
        let label = label(tool, i);
        out.push(tool_name(tool, sep986, protocol_version));
        out.push(tool_description(tool, &label));
        out.push(tool_input_schema(tool, &label));
        if let Some(ann) = tool.get("annotations") {
            out.push(tool_annotations(ann, &label));
        }
        // Only tools that use x-mcp-header get a result (§12.3); silent otherwise.
        let schema = tool.get("inputSchema");
        let problem = schema.and_then(crate::transport::modern::x_mcp_header_problem);
        if problem.is_none() && schema.is_some_and(|s| mentions_x_mcp_header(s, 0)) {
            out.push(
                Finding::pass(
                    ID_X_MCP_HEADER,
                    format!("Tool \"{label}\" has valid x-mcp-header annotations"),
                )
                .location(label.clone()),
            );
        }
        if let Some(problem) = problem {
            out.push(
                Finding::fail(
                    ID_X_MCP_HEADER,
                    format!("Tool \"{label}\" has an invalid x-mcp-header annotation: {problem}"),
                )
                .expected("x-mcp-header values that are unique HTTP tokens on top-level string, integer or boolean properties")
                .actual(problem)
                .location(label.clone()),
            );
        }
    }
    if out.iter().all(|f| f.status == Status::Pass) {
        let summary = Finding::pass(
            ID_SUMMARY,
            format!("All {} tools have valid schemas", tools.len()),
        );
        out.insert(0, summary);
    }
    out
}

/// True when `v` is a date-shaped protocol version (`YYYY-MM-DD…`) not older than `min`.
/// Revisions are dates, so string order is release order; anything that is not date-shaped
/// (only reachable with injected data) counts as older, i.e. gets the original behaviour.
pub(crate) fn version_at_least(v: &str, min: &str) -> bool {
    let b = v.as_bytes();
    let date_shaped = b.len() >= 10
        && b[..10].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        });
    date_shaped && v >= min
}

/// "Empty or whitespace-only" with the ECMAScript `String.prototype.trim` set
/// (checks-core.md §2): includes U+FEFF, excludes U+0085 and U+200B.
pub(crate) fn is_blank(s: &str) -> bool {
    s.chars().all(crate::surface::text::is_js_whitespace)
}

/// JavaScript `typeof` names, as the original reported them (arrays and null are `object`).
pub(crate) fn js_type(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null | Value::Array(_) | Value::Object(_) => "object",
    }
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

fn duplicates(tools: &[Value]) -> Vec<Finding> {
    // Only string names take part: a missing or non-string name is reported by tool-name.
    let mut order: Vec<&str> = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
    {
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
                Finding::fail(
                    ID_UNIQUE,
                    format!("Duplicate tool name: \"{name}\" appears {n} times"),
                )
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
        let mut f = Finding::fail(ID_NAME, format!("Tool has empty or missing name{why}"))
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
        return Finding::fail(
            ID_NAME,
            format!("Tool name \"{name}\" contains invalid characters (must match {rule})"),
        )
        .expected(format!("Name matching {pattern}"))
        .actual(name)
        .location(name);
    }
    let len = name.chars().count();
    if sep986 && len > NAME_MAX_LEN_SEP_986 {
        return Finding::fail(
            ID_NAME,
            format!("Tool name \"{name}\" is too long: {len} characters (must match {rule})"),
        )
        .expected(format!("Name matching {pattern}"))
        .actual(name)
        .location(name);
    }
    Finding::pass(ID_NAME, format!("Tool \"{name}\" has valid name")).location(name)
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
        None | Some(Value::Null) => Finding::fail(
            ID_DESCRIPTION,
            format!("Tool \"{label}\" has no description"),
        )
        .expected("Non-empty description")
        .actual("undefined"),
        Some(Value::String(s)) if is_blank(s) => Finding::fail(
            ID_DESCRIPTION,
            format!("Tool \"{label}\" has empty description"),
        )
        .expected("Non-empty description")
        .actual("\"\""),
        Some(Value::String(_)) => {
            Finding::pass(ID_DESCRIPTION, format!("Tool \"{label}\" has description"))
        }
        Some(other) => Finding::fail(
            ID_DESCRIPTION,
            format!("Tool \"{label}\" has non-string description"),
        )
        .expected("String description")
        .actual(js_type(other)),
    }
    .location(label)
}

fn tool_input_schema(tool: &Value, label: &str) -> Finding {
    let schema = match tool.get("inputSchema") {
        None => {
            return Finding::warn(
                ID_INPUT_SCHEMA,
                format!("Tool \"{label}\" has no inputSchema"),
            )
            .expected("JSON Schema object")
            .actual("undefined")
            .location(label)
        }
        // An explicit null is as good as absent, but the report shows what was sent.
        Some(Value::Null) => {
            return Finding::warn(
                ID_INPUT_SCHEMA,
                format!("Tool \"{label}\" has no inputSchema (it is null)"),
            )
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
        let mut f = Finding::fail(
            ID_INPUT_SCHEMA,
            format!("Tool \"{label}\" inputSchema.type must be \"object\"{why}"),
        )
        .expected("object")
        .location(label);
        f.actual = ty.cloned();
        return f;
    }
    if let Err(e) = validate_schema(schema) {
        return Finding::fail(
            ID_INPUT_SCHEMA,
            format!("Tool \"{label}\" has invalid inputSchema: {e}"),
        )
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
                return Finding::fail(
                    ID_INPUT_SCHEMA,
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
    Finding::pass(
        ID_INPUT_SCHEMA,
        format!("Tool \"{label}\" has valid inputSchema"),
    )
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
        return Finding::fail(
            ID_ANNOTATIONS,
            format!(
                "Tool \"{label}\" annotations should be an object (got {})",
                describe_non_object(ann)
            ),
        )
        .expected("object")
        .actual(js_type(ann))
        .location(label);
    };
    for key in ANNOTATION_HINTS {
        match obj.get(*key) {
            None | Some(Value::Bool(_)) => {}
            Some(other) => {
                return Finding::fail(
                    ID_ANNOTATIONS,
                    format!("Tool \"{label}\" annotation \"{key}\" should be boolean"),
                )
                .expected("boolean")
                .actual(js_type(other))
                .location(label)
            }
        }
    }
    Finding::pass(
        ID_ANNOTATIONS,
        format!("Tool \"{label}\" has valid annotations"),
    )
    .location(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const OLD: &str = "2025-06-18";
    const NEW: &str = "2025-11-25";

    fn tool(name: &str) -> Value {
        json!({
            "name": name,
            "description": "Does a thing",
            "inputSchema": {
                "type": "object",
                "properties": {"q": {"type": "string"}, "n": {"type": ["integer", "null"]}},
                "required": ["q"]
            }
        })
    }

    fn run(tools: Vec<Value>, v: &str) -> Vec<Finding> {
        check(&Ok(tools), v)
    }

    fn only<'a>(fs: &'a [Finding], id: &str) -> Vec<&'a Finding> {
        fs.iter().filter(|f| f.id == id).collect()
    }

    fn one<'a>(fs: &'a [Finding], id: &str) -> &'a Finding {
        let v = only(fs, id);
        assert_eq!(v.len(), 1, "{id} in {fs:#?}");
        v[0]
    }

    fn assert_is(f: &Finding, status: Status, severity: Severity, needle: &str) {
        assert_eq!(f.status, status, "{f:?}");
        assert_eq!(f.severity, severity, "{f:?}");
        assert!(
            f.message.contains(needle),
            "{:?} lacks {needle:?}",
            f.message
        );
    }

    fn input_schema_finding(schema: Value) -> Finding {
        let mut t = tool("t");
        t["inputSchema"] = schema;
        one(&run(vec![t], NEW), ID_INPUT_SCHEMA).clone()
    }

    // Edge case 13.
    #[test]
    fn compliant_tools_pass_with_summary_first() {
        let mut t2 = tool("b");
        t2["annotations"] = json!({"title": 5, "readOnlyHint": true, "openWorldHint": false});
        let fs = run(vec![tool("a"), t2], OLD);
        let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                ID_SUMMARY,
                ID_NAME,
                ID_DESCRIPTION,
                ID_INPUT_SCHEMA,
                ID_NAME,
                ID_DESCRIPTION,
                ID_INPUT_SCHEMA,
                ID_ANNOTATIONS
            ]
        );
        assert!(fs
            .iter()
            .all(|f| f.status == Status::Pass && f.severity == Severity::Info));
        assert_eq!(fs[0].message, "All 2 tools have valid schemas");
        assert_eq!(fs[0].location, None);
        assert_eq!(fs[1].message, "Tool \"a\" has valid name");
        assert_eq!(fs[2].message, "Tool \"a\" has description");
        assert_eq!(fs[3].message, "Tool \"a\" has valid inputSchema");
        assert_eq!(fs[7].message, "Tool \"b\" has valid annotations");
        assert_eq!(fs[7].location.as_deref(), Some("b"));
    }

    // Edge case 19.
    #[test]
    fn zero_tools_give_only_the_summary() {
        let fs = run(vec![], OLD);
        assert_eq!(fs.len(), 1);
        assert_is(
            &fs[0],
            Status::Pass,
            Severity::Info,
            "All 0 tools have valid schemas",
        );
    }

    #[test]
    fn listing_failure_is_a_single_result() {
        let fs = check(&Err("MCP error -32603: boom".into()), OLD);
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].id, ID_LIST_TOOLS);
        assert_is(
            &fs[0],
            Status::Fail,
            Severity::Error,
            "Failed to list tools: MCP error -32603: boom",
        );
        assert_eq!(fs[0].actual, Some(json!("MCP error -32603: boom")));
    }

    // Edge case 18.
    #[test]
    fn duplicate_names_fail_before_per_tool_results() {
        let fs = run(
            vec![
                tool("valid_tool"),
                tool("x"),
                tool("valid_tool"),
                tool("x"),
                tool("x"),
            ],
            OLD,
        );
        assert_eq!(fs[0].id, ID_UNIQUE);
        assert_eq!(fs[1].id, ID_UNIQUE);
        assert_is(
            &fs[0],
            Status::Fail,
            Severity::Error,
            "Duplicate tool name: \"valid_tool\" appears 2 times",
        );
        assert_eq!(fs[0].expected, Some(json!("Unique tool names")));
        assert_eq!(fs[0].actual, Some(json!("\"valid_tool\" appears 2 times")));
        assert_eq!(fs[0].location.as_deref(), Some("valid_tool"));
        assert_eq!(fs[1].message, "Duplicate tool name: \"x\" appears 3 times");
        // Every entry is still checked individually; no summary.
        assert_eq!(only(&fs, ID_NAME).len(), 5);
        assert!(only(&fs, ID_SUMMARY).is_empty());
        assert!(only(&run(vec![tool("a"), tool("b")], OLD), ID_UNIQUE).is_empty());
    }

    // Edge case 16.
    #[test]
    fn invalid_name_characters_fail() {
        for name in ["invalid name with spaces", "invalid@name!", "a/b", "naïve"] {
            for v in [OLD, NEW] {
                let fs = run(vec![tool(name)], v);
                let f = one(&fs, ID_NAME);
                assert_is(f, Status::Fail, Severity::Error, "invalid characters");
                assert!(f.message.starts_with(&format!("Tool name \"{name}\"")));
                assert_eq!(f.actual, Some(json!(name)));
                assert_eq!(f.location.as_deref(), Some(name));
                assert!(only(&fs, ID_SUMMARY).is_empty());
            }
        }
    }

    // DECISIONS #40: dots and the 128-character limit from 2025-11-25 on.
    #[test]
    fn tool_name_pattern_follows_protocol_version() {
        let f = run(vec![tool("files.read")], OLD);
        let f = one(&f, ID_NAME);
        assert_is(f, Status::Fail, Severity::Error, "^[a-zA-Z0-9_-]+$");
        assert_eq!(f.expected, Some(json!("Name matching ^[a-zA-Z0-9_-]+$")));

        for v in [NEW, "2026-07-28"] {
            let fs = run(vec![tool("files.read")], v);
            assert_is(
                one(&fs, ID_NAME),
                Status::Pass,
                Severity::Info,
                "has valid name",
            );
        }

        let long = "a".repeat(129);
        let fs = run(vec![tool(&long)], NEW);
        let f = one(&fs, ID_NAME);
        assert_is(f, Status::Fail, Severity::Error, "too long: 129 characters");
        assert!(f
            .message
            .contains("^[A-Za-z0-9_.-]{1,128}$ for protocol 2025-11-25"));
        assert_eq!(
            f.expected,
            Some(json!("Name matching ^[A-Za-z0-9_.-]{1,128}$"))
        );
        let fs = run(vec![tool(&"a".repeat(128))], NEW);
        assert_eq!(one(&fs, ID_NAME).status, Status::Pass);
        // No length limit before 2025-11-25.
        let fs = run(vec![tool(&long)], OLD);
        assert_eq!(one(&fs, ID_NAME).status, Status::Pass);

        let fs = run(vec![tool("a b")], NEW);
        assert!(one(&fs, ID_NAME)
            .message
            .contains("(must match ^[A-Za-z0-9_.-]{1,128}$ for protocol 2025-11-25)"));
    }

    #[test]
    fn version_comparison() {
        assert!(version_at_least("2025-11-25", NEW));
        assert!(version_at_least("2026-07-28", NEW));
        assert!(!version_at_least("2025-06-18", NEW));
        assert!(!version_at_least("unknown", NEW));
        assert!(!version_at_least("", NEW));
        assert!(!version_at_least("1.0.0", NEW));
    }

    #[test]
    fn missing_blank_and_non_string_names_fail() {
        let cases = [
            (
                json!({"description": "d", "inputSchema": {"type": "object"}}),
                None,
                "",
            ),
            (
                json!({"name": " \t\u{A0}", "description": "d", "inputSchema": {"type": "object"}}),
                Some(json!(" \t\u{A0}")),
                "",
            ),
            (
                json!({"name": 12, "description": "d", "inputSchema": {"type": "object"}}),
                Some(json!(12)),
                " (name is a number, not a string)",
            ),
            (
                json!("just a string"),
                None,
                " (the tool entry is a string, not an object)",
            ),
        ];
        for (t, actual, why) in cases {
            let fs = run(vec![t], OLD);
            let f = one(&fs, ID_NAME);
            assert_eq!(f.message, format!("Tool has empty or missing name{why}"));
            assert_eq!(f.status, Status::Fail);
            assert_eq!(f.severity, Severity::Error);
            assert_eq!(
                f.expected,
                Some(json!("Non-empty tool name matching ^[a-zA-Z0-9_-]+$"))
            );
            assert_eq!(f.actual, actual);
            assert_eq!(f.location, None);
        }
    }

    #[test]
    fn non_object_tools_never_panic_and_use_index_labels() {
        let fs = run(vec![tool("ok"), json!(42), json!(null), json!([1, 2])], OLD);
        let names = only(&fs, ID_NAME);
        assert_eq!(names.len(), 4);
        let desc = only(&fs, ID_DESCRIPTION);
        assert_eq!(desc[1].message, "Tool \"tools[1]\" has no description");
        assert_eq!(desc[1].location.as_deref(), Some("tools[1]"));
        let schemas = only(&fs, ID_INPUT_SCHEMA);
        assert_eq!(schemas[3].status, Status::Warn);
        assert_eq!(schemas[3].message, "Tool \"tools[3]\" has no inputSchema");
    }

    // Edge case 14.
    #[test]
    fn empty_description_fails() {
        for d in ["", "  \u{2028}\u{FEFF} "] {
            let mut t = tool("t");
            t["description"] = json!(d);
            let fs = run(vec![t], OLD);
            let f = one(&fs, ID_DESCRIPTION);
            assert_is(f, Status::Fail, Severity::Error, "empty description");
            assert_eq!(f.message, "Tool \"t\" has empty description");
            assert_eq!(f.expected, Some(json!("Non-empty description")));
            assert_eq!(f.actual, Some(json!("\"\"")));
            assert_eq!(f.location.as_deref(), Some("t"));
        }
    }

    #[test]
    fn u0085_and_zero_width_space_are_not_blank() {
        for d in ["\u{85}", "\u{200B}"] {
            let mut t = tool("t");
            t["description"] = json!(d);
            assert_eq!(one(&run(vec![t], OLD), ID_DESCRIPTION).status, Status::Pass);
        }
        assert!(is_blank(""));
        assert!(is_blank(
            "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}\u{3000}\u{0B}\u{0C}\r\n"
        ));
    }

    // Edge case 15.
    #[test]
    fn absent_or_null_description_fails() {
        for d in [None, Some(Value::Null)] {
            let mut t = tool("t");
            match d {
                None => {
                    t.as_object_mut().unwrap().remove("description");
                }
                Some(v) => t["description"] = v,
            }
            let fs = run(vec![t], OLD);
            let f = one(&fs, ID_DESCRIPTION);
            assert_is(f, Status::Fail, Severity::Error, "no description");
            assert_eq!(f.actual, Some(json!("undefined")));
        }
    }

    #[test]
    fn non_string_description_fails_with_js_type() {
        for (d, ty) in [
            (json!(5), "number"),
            (json!({"a": 1}), "object"),
            (json!(["x"]), "object"),
            (json!(true), "boolean"),
        ] {
            let mut t = tool("t");
            t["description"] = d;
            let fs = run(vec![t], OLD);
            let f = one(&fs, ID_DESCRIPTION);
            assert_is(
                f,
                Status::Fail,
                Severity::Error,
                "has non-string description",
            );
            assert_eq!(f.expected, Some(json!("String description")));
            assert_eq!(f.actual, Some(json!(ty)));
        }
    }

    // Edge case 21.
    #[test]
    fn missing_input_schema_warns_and_suppresses_summary() {
        let mut t = tool("t");
        t.as_object_mut().unwrap().remove("inputSchema");
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_INPUT_SCHEMA);
        assert_is(
            f,
            Status::Warn,
            Severity::Warning,
            "Tool \"t\" has no inputSchema",
        );
        assert_eq!(f.expected, Some(json!("JSON Schema object")));
        assert_eq!(f.actual, Some(json!("undefined")));
        assert!(only(&fs, ID_SUMMARY).is_empty());

        let f = input_schema_finding(Value::Null);
        assert_eq!(f.status, Status::Warn);
        assert_eq!(f.actual, Some(Value::Null));
    }

    #[test]
    fn root_type_must_be_object() {
        for (schema, actual, extra) in [
            (json!({"type": "string"}), Some(json!("string")), ""),
            (
                json!({"type": ["object", "null"]}),
                Some(json!(["object", "null"])),
                "",
            ),
            (json!({"properties": {}}), None, ""),
            (
                json!("object"),
                None,
                " (inputSchema is a string, not an object)",
            ),
            (json!([]), None, " (inputSchema is an array, not an object)"),
        ] {
            let f = input_schema_finding(schema);
            assert_eq!(f.status, Status::Fail);
            assert_eq!(f.severity, Severity::Error);
            assert_eq!(
                f.message,
                format!("Tool \"t\" inputSchema.type must be \"object\"{extra}")
            );
            assert_eq!(f.expected, Some(json!("object")));
            assert_eq!(f.actual, actual);
        }
    }

    // Edge case 17.
    #[test]
    fn invalid_property_type_is_an_invalid_schema() {
        let f = input_schema_finding(json!({
            "type": "object",
            "properties": {"x": {"type": "invalid_type_that_does_not_exist"}}
        }));
        assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
        assert!(f
            .message
            .starts_with("Tool \"t\" has invalid inputSchema: "));
        assert_eq!(f.expected, Some(json!("Valid JSON Schema")));
        assert!(f.actual.as_ref().and_then(Value::as_str).is_some());
        assert_eq!(f.location.as_deref(), Some("t"));
    }

    // Edge case 22, decided differently (DECISIONS #6): a declared 2020-12 is valid.
    #[test]
    fn schema_dialects_are_honoured() {
        for uri in [
            "https://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft/2019-09/schema",
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-04/schema#",
        ] {
            let f = input_schema_finding(json!({
                "$schema": uri,
                "type": "object",
                "properties": {"q": {"type": "string", "minLength": 1}},
                "required": ["q"]
            }));
            assert_eq!(f.status, Status::Pass, "{uri}: {f:?}");
        }
        for uri in ["https://example.com/my-dialect", "draft-07"] {
            let f = input_schema_finding(json!({"$schema": uri, "type": "object"}));
            assert_is(
                &f,
                Status::Fail,
                Severity::Error,
                "invalid inputSchema: unknown $schema",
            );
            assert!(f.message.contains(uri));
        }
    }

    #[test]
    fn dialect_specific_rules_apply() {
        // draft-04: exclusiveMinimum is a boolean; a number is invalid there but valid later.
        let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
            "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": 0}}});
        assert_eq!(input_schema_finding(d4).status, Status::Fail);
        let d2020 = json!({"type": "object",
            "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}});
        assert_eq!(input_schema_finding(d2020).status, Status::Pass);
    }

    #[test]
    fn meta_schema_violations_fail() {
        for schema in [
            json!({"type": "object", "required": "q"}),
            json!({"type": "object", "required": ["q", "q"]}),
            json!({"type": "object", "properties": []}),
            json!({"type": "object", "properties": {"s": {"type": "string", "minLength": -1}}}),
            json!({"type": "object", "properties": {"s": {"type": "number", "maximum": "9"}}}),
            json!({"type": "object", "$schema": 7}),
        ] {
            let f = input_schema_finding(schema.clone());
            assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
            assert_eq!(f.expected, Some(json!("Valid JSON Schema")), "{schema}");
        }
    }

    #[test]
    fn refs_must_resolve_locally() {
        let local = json!({"type": "object",
            "$defs": {"s": {"type": "string"}},
            "definitions": {"n": {"type": "number"}},
            "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/definitions/n"},
                           "c": {"$ref": "#"}}});
        assert_eq!(input_schema_finding(local).status, Status::Pass);
        for r in [
            "#/$defs/missing",
            "https://example.com/schemas/thing.json",
            "other.json#/x",
        ] {
            let f =
                input_schema_finding(json!({"type": "object", "properties": {"a": {"$ref": r}}}));
            assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
        }
    }

    #[test]
    fn patterns_must_be_valid_regexes_and_unknown_things_are_ignored() {
        let bad =
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "(["}}});
        assert_eq!(input_schema_finding(bad).status, Status::Fail);
        let good = json!({"type": "object", "x-custom": {"anything": true},
            "properties": {"s": {"type": "string", "pattern": "^\\p{L}+$", "format": "no-such-format"}}});
        assert_eq!(input_schema_finding(good).status, Status::Pass);
    }

    #[test]
    fn deep_schemas_fail_without_overflowing() {
        let mut s = json!({"type": "string"});
        for _ in 0..200 {
            s = json!({"type": "object", "properties": {"a": s}});
        }
        let f = input_schema_finding(s);
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "nested deeper than 128 levels",
        );
    }

    #[test]
    fn property_type_row_is_reported_by_the_fallback() {
        // Not reachable through the meta-schema; exercise the fallback directly.
        let tool = json!({"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"p": {"type": ["string", "bogus"]}}}});
        let f = tool_input_schema(&tool, "t");
        assert_eq!(f.status, Status::Fail);
        // The meta-schema catches it first; both are acceptable outcomes for live data.
        assert!(
            f.message.contains("invalid inputSchema") || f.message.contains("has invalid type")
        );
        let schema = json!({"type": "object", "properties": {"p": {"type": 5}}});
        assert!(validate_schema(&schema).is_err());
    }

    // Edge case 20.
    #[test]
    fn non_boolean_hints_fail() {
        for (ann, key, ty) in [
            (json!({"readOnlyHint": "true"}), "readOnlyHint", "string"),
            (
                json!({"destructiveHint": 1, "readOnlyHint": true}),
                "destructiveHint",
                "number",
            ),
            (
                json!({"idempotentHint": null, "openWorldHint": "x"}),
                "idempotentHint",
                "object",
            ),
            (json!({"openWorldHint": []}), "openWorldHint", "object"),
        ] {
            let mut t = tool("t");
            t["annotations"] = ann;
            let fs = run(vec![t], OLD);
            let f = one(&fs, ID_ANNOTATIONS);
            assert_is(
                f,
                Status::Fail,
                Severity::Error,
                &format!("Tool \"t\" annotation \"{key}\" should be boolean"),
            );
            assert_eq!(f.expected, Some(json!("boolean")));
            assert_eq!(f.actual, Some(json!(ty)));
            assert_eq!(f.location.as_deref(), Some("t"));
            assert!(only(&fs, ID_SUMMARY).is_empty());
        }
    }

    #[test]
    fn non_object_annotations_fail() {
        let mut t = tool("t");
        t["annotations"] = json!("readOnly");
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_ANNOTATIONS);
        assert_is(
            f,
            Status::Fail,
            Severity::Error,
            "annotations should be an object (got a string)",
        );
        assert_eq!(f.actual, Some(json!("string")));
    }

    #[test]
    fn no_annotations_member_means_no_annotation_result() {
        assert!(only(&run(vec![tool("t")], OLD), ID_ANNOTATIONS).is_empty());
    }

    /// Full output for a malformed listing, to review every template at once.
    #[test]
    fn snapshot_malformed_listing() {
        let listing = vec![
            tool("dup"),
            tool("dup"),
            json!({"name": "files.read", "description": 3, "inputSchema": {"type": "object",
                "properties": {"p": {"type": "invalid_type_that_does_not_exist"}}},
                "annotations": {"readOnlyHint": "true"}}),
            json!({"name": "", "description": " "}),
            json!(7),
        ];
        insta::assert_json_snapshot!(check(&Ok(listing), NEW));
    }

    #[test]
    fn x_mcp_header_rule_fails_invalid_annotations_and_is_silent_otherwise() {
        let bad = json!([{
            "name": "t", "description": "d",
            "inputSchema": {"type": "object", "properties": {
                "a": {"type": "number", "x-mcp-header": "A"}
            }}
        }]);
        let good = json!([{
            "name": "t", "description": "d",
            "inputSchema": {"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "Region"}
            }}
        }]);
        let fs = check(&Ok(bad.as_array().unwrap().clone()), "2026-07-28");
        let hit: Vec<_> = fs
            .iter()
            .filter(|f| f.id == "schema/x-mcp-header")
            .collect();
        assert_eq!(hit.len(), 1);
        assert_eq!(hit[0].status, Status::Fail);
        assert_eq!(hit[0].location.as_deref(), Some("t"));
        let fs = check(&Ok(good.as_array().unwrap().clone()), "2026-07-28");
        let hit: Vec<_> = fs
            .iter()
            .filter(|f| f.id == "schema/x-mcp-header")
            .collect();
        assert_eq!(hit.len(), 1);
        assert_eq!(hit[0].status, Status::Pass);
        assert_eq!(fs[0].id, "schema/summary");
        // Tools without the annotation get no result.
        let plain = json!([{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]);
        let fs = check(&Ok(plain.as_array().unwrap().clone()), "2026-07-28");
        assert!(!fs.iter().any(|f| f.id == "schema/x-mcp-header"));
    }
}
