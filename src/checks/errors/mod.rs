//! Error-contract family (checks-core.md §5, DECISIONS #29/#30/#37): does the server answer
//! bad calls on the right layer — a JSON-RPC error (protocol layer) or a result with
//! `isError: true` (tool layer)?
//!
//! Split in two pure halves: `plan` says which calls to make (the lead makes them, strictly
//! in order, arguments always `{}`), `judge` turns the recorded outcomes into findings.
//! `plan_for` / `judge_plan` add what the wire allows: over modern HTTP a tool with invalid
//! `x-mcp-header` annotations is never called, and its probe is reported as a skip; and what
//! the config allows (#16 §6): `checks.errors.probe: safe` and `checks.errors.skip` keep the
//! invalid-params probe away from tools that may have side effects.

use crate::model::{Finding, Severity, Status};
use crate::observed::{CallOutcome, Era, Listing, RpcError};
use crate::protocol::headers::blocked_call_reason;
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

use crate::protocol::versions::version_at_least;
pub mod rules;
pub use rules::RULES;

mod config;

pub use config::{ErrorsConfig, InvalidParamsPolicy, ProbePolicy, UnknownToolPolicy};

#[cfg(test)]
const ID_SUMMARY: &str = rules::SUMMARY.id;
#[cfg(test)]
const ID_LIST_TOOLS: &str = rules::LIST_TOOLS.id;
#[cfg(test)]
const ID_UNKNOWN: &str = rules::UNKNOWN_TOOL.id;
#[cfg(test)]
const ID_INVALID: &str = rules::INVALID_PARAMS.id;

/// The name called to provoke an unknown-tool error; fixed so reports are deterministic. It
/// is used even if the server happens to expose a tool with this name.
pub const UNKNOWN_TOOL_PROBE: &str = "__mcpward_unknown_tool__";

/// First revision where input validation failures are tool errors (SEP-1303, DECISIONS #29).
const SEP_1303_VERSION: &str = "2025-11-25";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeKind {
    UnknownTool,
    InvalidParams,
}

/// One `tools/call` to make, with arguments `{}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub tool: String,
    pub kind: ProbeKind,
}

/// The calls to make, in order: the unknown-tool probe, then every listed tool whose
/// `inputSchema.required` has at least one entry (listing order, duplicates once per entry).
/// `Err` is the family's only finding when the listing failed.
// The signature is the runner's contract; the error path runs once per run, so its size is moot.
#[allow(clippy::result_large_err)]
pub fn plan(listing: &Listing) -> Result<Vec<Probe>, Finding> {
    let tools = super::common::listed_tools(listing, &rules::LIST_TOOLS)?;
    let mut probes = vec![Probe {
        tool: UNKNOWN_TOOL_PROBE.to_string(),
        kind: ProbeKind::UnknownTool,
    }];
    for tool in tools {
        // A tool without a string name cannot be called by name; schema/tool-name reports it.
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let has_required = tool
            .get("inputSchema")
            .and_then(|s| s.get("required"))
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty());
        if has_required {
            probes.push(Probe {
                tool: name.to_string(),
                kind: ProbeKind::InvalidParams,
            });
        }
    }
    Ok(probes)
}

/// The calls of [`plan`] split by what the wire allows: modern HTTP never calls a tool whose
/// `x-mcp-header` annotations are invalid (§7.3), so those invalid-params probes become skips.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub calls: Vec<Probe>,
    /// `errors/invalid-params` skips, emitted after the judged results.
    pub blocked: Vec<Finding>,
}

/// [`plan`] for a connection in `era`, over HTTP or not, under `cfg`'s probe policy.
// Same contract as `plan`.
#[allow(clippy::result_large_err)]
pub fn plan_for(
    listing: &Listing,
    era: Era,
    http: bool,
    cfg: &ErrorsConfig,
) -> Result<Plan, Finding> {
    let probes = plan(listing)?;
    let tools: &[Value] = listing.as_deref().unwrap_or_default();
    let mut out = Plan {
        calls: Vec::with_capacity(probes.len()),
        blocked: Vec::new(),
    };
    for probe in probes {
        let invalid_params = probe.kind == ProbeKind::InvalidParams;
        let reason = invalid_params
            .then(|| not_probed(tools, &probe.tool, cfg))
            .flatten()
            .or_else(|| {
                (era == Era::Modern && http && invalid_params)
                    .then(|| schema_of(tools, &probe.tool))
                    .flatten()
                    .and_then(|schema| blocked_call_reason(&probe.tool, schema))
            });
        match reason {
            Some(reason) => out.blocked.push(
                rules::INVALID_PARAMS
                    .skip(reason)
                    .location(probe.tool.clone()),
            ),
            None => out.calls.push(probe),
        }
    }
    Ok(out)
}

/// [`plan_for`] over a listing held as each tool's text. Each tool is parsed alone and kept
/// as what the plan reads: its `name`, its `annotations`, and its `inputSchema` (whole where
/// modern HTTP reads its `x-mcp-header` annotations, otherwise only its `required`). A
/// long listing is then never one tree (#12's memory bound). Same plan as [`plan_for`].
#[allow(clippy::result_large_err)]
pub fn plan_for_text(
    listing: &crate::observed::TextListing,
    era: Era,
    http: bool,
    cfg: &ErrorsConfig,
) -> Result<Plan, Finding> {
    let whole_schema = era == Era::Modern && http;
    let slim: Listing = match listing {
        Ok(tools) => Ok(tools
            .iter()
            .map(|t| plan_view(crate::surface::json::raw_to_value(t), whole_schema))
            .collect()),
        Err(e) => Err(e.clone()),
    };
    plan_for(&slim, era, http, cfg)
}

/// The parts of one tool [`plan_for`] reads.
fn plan_view(tool: Value, whole_schema: bool) -> Value {
    let Value::Object(mut t) = tool else {
        // Not callable by name: the plan passes it over.
        return Value::Null;
    };
    let mut view = serde_json::Map::new();
    for key in ["name", "annotations"] {
        if let Some(v) = t.remove(key) {
            view.insert(key.to_string(), v);
        }
    }
    if let Some(schema) = t.remove("inputSchema") {
        let schema = match schema {
            Value::Object(mut o) if !whole_schema => {
                let mut kept = serde_json::Map::new();
                if let Some(r) = o.remove("required") {
                    kept.insert("required".to_string(), r);
                }
                Value::Object(kept)
            }
            other => other,
        };
        view.insert("inputSchema".to_string(), schema);
    }
    Value::Object(view)
}

/// Why the config keeps the invalid-params probe from calling `name` (#16 §6): a
/// `checks.errors.skip` entry matches it, or `probe: safe` and a listed tool of that name
/// may have side effects (not annotated read-only, or also destructive: the one
/// side-effect gate of output sampling and latency).
fn not_probed(tools: &[Value], name: &str, cfg: &ErrorsConfig) -> Option<String> {
    if let Some(entry) = cfg.skip.iter().find(|g| glob_match(g, name)) {
        return Some(format!(
            "Tool \"{name}\" not called with {{}}: it matches checks.errors.skip entry \"{entry}\""
        ));
    }
    if cfg.probe != ProbePolicy::Safe {
        return None;
    }
    use crate::surface::shape::{side_effect_gate, CallRefusal};
    let refusal = tools
        .iter()
        .filter(|t| t.get("name").and_then(Value::as_str) == Some(name))
        .find_map(|t| side_effect_gate(t, true).err())?;
    let why = match refusal {
        CallRefusal::Contradictory => "it is annotated both readOnlyHint and destructiveHint",
        // `call_readonly` is always on here, so only a missing read-only hint is left.
        CallRefusal::NotReadOnly | CallRefusal::Disabled => {
            "it is not annotated readOnlyHint: true, so it may have side effects"
        }
    };
    Some(format!(
        "Tool \"{name}\" not called with {{}}: checks.errors.probe is safe and {why}"
    ))
}

/// `*` (any run of characters) and `?` (one character), the one matcher of the checks.
pub use crate::checks::common::glob_match;

/// The `inputSchema` of the first listed tool of that name that has one (the one the wire
/// remembers for the tool's headers).
fn schema_of<'a>(tools: &'a [Value], name: &str) -> Option<&'a Value> {
    tools
        .iter()
        .filter(|t| t.get("name").and_then(Value::as_str) == Some(name))
        .find_map(|t| t.get("inputSchema"))
}

/// [`judge`] for a [`Plan`]'s recorded calls, then its blocked probes' skips.
pub fn judge_plan(
    plan: &Plan,
    recorded: &[(Probe, CallOutcome)],
    protocol_version: &str,
    cfg: &ErrorsConfig,
) -> Vec<Finding> {
    let mut out = judge_with(recorded, protocol_version, cfg);
    out.extend(plan.blocked.iter().cloned());
    out
}

/// [`judge_with`] with the default `invalid_params` policy (a succeeding call warns).
pub fn judge(
    probes: &[(Probe, CallOutcome)],
    protocol_version: &str,
    policy: UnknownToolPolicy,
) -> Vec<Finding> {
    let cfg = ErrorsConfig {
        unknown_tool: policy,
        ..ErrorsConfig::default()
    };
    judge_with(probes, protocol_version, &cfg)
}

/// Findings for the recorded probe outcomes: `errors/summary`, then `errors/unknown-tool`,
/// then `errors/invalid-params` in probe order. `protocol_version` is the negotiated version
/// (DECISIONS #29 judges invalid-params by it).
pub fn judge_with(
    probes: &[(Probe, CallOutcome)],
    protocol_version: &str,
    cfg: &ErrorsConfig,
) -> Vec<Finding> {
    let policy = cfg.unknown_tool;
    let strict = cfg.invalid_params == InvalidParamsPolicy::Strict;
    let unknown = probes
        .iter()
        .filter(|(p, _)| p.kind == ProbeKind::UnknownTool)
        .map(|(_, outcome)| unknown_tool(outcome, policy));
    let sep1303 = version_at_least(protocol_version, SEP_1303_VERSION);
    let invalid = probes
        .iter()
        .filter(|(p, _)| p.kind == ProbeKind::InvalidParams)
        .map(|(p, outcome)| invalid_params(&p.tool, outcome, protocol_version, sep1303, strict));
    let results: Vec<Finding> = unknown.chain(invalid).collect();

    let failures = results.iter().filter(|f| f.status == Status::Fail).count();
    let summary = if failures == 0 {
        rules::SUMMARY.pass("Error contract checks passed")
    } else {
        rules::SUMMARY.fail(format!("Error contract: {failures} violation(s) found"))
    };
    std::iter::once(summary).chain(results).collect()
}

/// A standard protocol error code (checks-core.md §5.1). The range includes the client's own
/// -32000 (closed) and -32001 (timed out), faithfully; messages mark those as local.
fn accepted_code(code: i64) -> bool {
    matches!(code, -32700 | -32600 | -32601 | -32602 | -32603) || (-32099..=-32000).contains(&code)
}

/// Says that an error shown with its code was raised by mcpward, not sent by the server
/// (DECISIONS #37).
fn local_note(e: &RpcError) -> &'static str {
    match (e.local, e.code) {
        (true, Some(-32000)) => {
            " (raised locally by mcpward: the connection closed; not sent by the server)"
        }
        (true, Some(-32001)) => {
            " (raised locally by mcpward: the request timed out; not sent by the server)"
        }
        (true, Some(_)) => " (raised locally by mcpward, not sent by the server)",
        _ => "",
    }
}

/// The 2026-07-28 codes sit inside the accepted range but point at a client/header problem
/// rather than at the tool (protocol-2026-07-28.md §12.3), so the message names them.
fn modern_code_note(code: i64) -> &'static str {
    match code {
        -32020 => {
            "; -32020 is HeaderMismatch: the server rejected mcpward's request headers, which is \
             a client-side problem rather than the tool's"
        }
        -32021 => {
            "; -32021 is MissingRequiredClientCapability: the server requires a client \
             capability mcpward does not declare"
        }
        -32022 => {
            "; -32022 is UnsupportedProtocolVersion: the request's protocol version was refused, \
             which says nothing about the tool"
        }
        _ => "",
    }
}

fn is_error_result(result: &Value) -> bool {
    result.get("isError") == Some(&Value::Bool(true))
}

/// The text item of an `isError` result that carries a JSON-RPC error, e.g.
/// "MCP error -32602: Tool x not found" — a protocol error wrapped in a tool result.
fn wrapped_protocol_error(result: &Value) -> Option<String> {
    static MCP_ERROR: OnceLock<Option<Regex>> = OnceLock::new();
    static RPC_CODE: OnceLock<Option<Regex>> = OnceLock::new();
    static NOT_FOUND: OnceLock<Option<Regex>> = OnceLock::new();
    let mcp_error = MCP_ERROR
        .get_or_init(|| Regex::new(r"(?i)\bMCP error -326\d\d\b").ok())
        .as_ref()?;
    let rpc_code = RPC_CODE
        .get_or_init(|| Regex::new(r"-3260[12]\b").ok())
        .as_ref()?;
    let not_found = NOT_FOUND
        .get_or_init(|| Regex::new(r"(?i)not found|unknown tool").ok())
        .as_ref()?;
    result
        .get("content")
        .and_then(Value::as_array)?
        .iter()
        .filter_map(|item| item.get("text").and_then(Value::as_str))
        .find(|t| mcp_error.is_match(t) || (rpc_code.is_match(t) && not_found.is_match(t)))
        .map(|t| snippet(t, 120))
}

/// At most `max` characters of `s` on one line, with an ellipsis when cut.
fn snippet(s: &str, max: usize) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = one_line.trim();
    if trimmed.chars().count() <= max {
        trimmed.to_string()
    } else {
        let cut: String = trimmed.chars().take(max).collect();
        format!("{cut}…")
    }
}

fn unknown_tool(outcome: &CallOutcome, policy: UnknownToolPolicy) -> Finding {
    let either = policy == UnknownToolPolicy::Either;
    let expected_layer = if either {
        "Protocol error or tool error (isError: true)"
    } else {
        "Protocol error (code -32601 or -32602)"
    };
    let f = match outcome {
        Err(e) => match e.code {
            Some(c) if accepted_code(c) => rules::UNKNOWN_TOOL.pass(format!(
                "Unknown tool correctly returned protocol error (code {c}){}{}",
                local_note(e),
                modern_code_note(c)
            )),
            Some(c) => rules::UNKNOWN_TOOL
                .fail(format!("Unknown tool returned wrong error type: {e}"))
                .expected("Protocol error with standard JSON-RPC code")
                .actual(format!("Code {c}")),
            None => rules::UNKNOWN_TOOL
                .fail(format!("Unknown tool returned wrong error type: {e}"))
                .expected("Protocol error with standard JSON-RPC code")
                .actual("Unknown error type"),
        },
        Ok(result) if is_error_result(result) => {
            let wrapped = wrapped_protocol_error(result);
            match (either, wrapped) {
                (true, Some(text)) => rules::UNKNOWN_TOOL.pass(
                    format!(
                        "Unknown tool returned a tool error (isError: true) wrapping a protocol \
                         error (\"{text}\"); accepted by unknown_tool: either"
                    ),
                ),
                (true, None) => rules::UNKNOWN_TOOL.pass(
                    "Unknown tool returned a tool error (isError: true); accepted by \
                     unknown_tool: either",
                ),
                (false, Some(text)) => rules::UNKNOWN_TOOL.fail(
                    format!(
                        "Unknown tool did not return protocol error: the protocol error was \
                         wrapped in a tool result with isError: true (\"{text}\"); return it as \
                         a JSON-RPC error instead"
                    ),
                )
                .expected(expected_layer)
                .actual("Protocol error wrapped in a tool result (isError: true)"),
                (false, None) => rules::UNKNOWN_TOOL.fail(
                    "Unknown tool did not return protocol error (it returned a tool result with \
                     isError: true)",
                )
                .expected(expected_layer)
                .actual("Tool error (isError: true)"),
            }
        }
        Ok(_) => rules::UNKNOWN_TOOL
            .fail("Unknown tool did not return protocol error")
            .expected(expected_layer)
            .actual("No error returned"),
    };
    f.location(UNKNOWN_TOOL_PROBE)
}

fn invalid_params(
    name: &str,
    outcome: &CallOutcome,
    version: &str,
    sep1303: bool,
    strict: bool,
) -> Finding {
    let judged = format!(" [judged by protocol {version}]");
    // A call that succeeds without its required arguments: a warn unless strict (#12 §6).
    let succeeded = |expected: &str| {
        let message = format!("Tool \"{name}\" did not fail with missing required params{judged}");
        // `strict` is the one override of this rule's default: a failure at error severity.
        let f = if strict {
            rules::INVALID_PARAMS.finding(Status::Fail, Severity::Error, message)
        } else {
            rules::INVALID_PARAMS.warn(message)
        };
        f.expected(expected).actual("Call succeeded")
    };
    let f = if sep1303 {
        // From 2025-11-25 on: a tool error is the answer SEP-1303 asks for.
        let expected = "Tool error (isError: true) for invalid params";
        match outcome {
            Ok(r) if is_error_result(r) => rules::INVALID_PARAMS.pass(format!(
                "Tool \"{name}\" reported invalid params as a tool error (isError: true), as \
                     SEP-1303 asks{judged}"
            )),
            Ok(_) => succeeded(expected),
            Err(e) if e.code == Some(-32602) => rules::INVALID_PARAMS
                .warn(format!(
                    "Tool \"{name}\" returned protocol error -32602 for invalid params{}, which \
                     predates SEP-1303 (input validation failures are tool errors with isError: \
                     true){judged}",
                    local_note(e)
                ))
                .expected(expected)
                .actual("Code -32602"),
            Err(e) => rules::INVALID_PARAMS
                .warn(format!(
                    "Tool \"{name}\" error for invalid params is not a tool error (isError: \
                     true): {e}{}{judged}",
                    e.code.map_or("", modern_code_note)
                ))
                .expected(expected)
                .actual(code_or_unknown(e)),
        }
    } else {
        // Before 2025-11-25: the original's protocol-layer expectation.
        let expected = "Protocol error (-32602) for invalid params";
        match outcome {
            Err(e) => match e.code {
                Some(c) if accepted_code(c) => rules::INVALID_PARAMS.pass(format!(
                    "Tool \"{name}\" correctly returned protocol error for invalid params \
                         (code {c}){}{}{judged}",
                    local_note(e),
                    modern_code_note(c)
                )),
                _ => rules::INVALID_PARAMS
                    .warn(format!(
                        "Tool \"{name}\" error for invalid params not a standard protocol error: \
                         {e}{judged}"
                    ))
                    .expected("Protocol error (-32602)")
                    .actual(code_or_unknown(e)),
            },
            Ok(r) if is_error_result(r) => rules::INVALID_PARAMS
                .warn(format!(
                    "Tool \"{name}\" did not fail with missing required params (it returned a \
                     tool error, isError: true, instead of a protocol error){judged}"
                ))
                .expected(expected)
                .actual("Call succeeded"),
            Ok(_) => succeeded(expected),
        }
    };
    f.location(name)
}

fn code_or_unknown(e: &RpcError) -> String {
    e.code
        .map_or_else(|| "Unknown error".to_string(), |c| format!("Code {c}"))
}

/// No live server to ask (`--from FILE`, #16 §2): the family is one skip saying so.
pub fn offline(source: &str) -> Finding {
    rules::SUMMARY.skip(format!(
        "Not run on an offline snapshot ({source}): the error-contract probes call tools on a live server"
    ))
}

#[cfg(test)]
mod tests;
