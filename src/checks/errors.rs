//! Error-contract family (checks-core.md §5, DECISIONS #29/#30/#37): does the server answer
//! bad calls on the right layer — a JSON-RPC error (protocol layer) or a result with
//! `isError: true` (tool layer)?
//!
//! Split in two pure halves: `plan` says which calls to make (the lead makes them, strictly
//! in order, arguments always `{}`), `judge` turns the recorded outcomes into findings.

use crate::model::{Finding, Severity, Status};
use crate::rules::Rule;
use crate::transport::{CallOutcome, Listing, RpcError};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

use super::schema::version_at_least;

pub const RULES: &[Rule] = &[
    Rule {
        id: "errors/summary",
        severity: Severity::Error,
        short: "Error contract summary",
        description: "Counts the error-contract violations (failed unknown-tool and \
            invalid-params probes); it fails when there is at least one.",
        fix: "Fix the errors/unknown-tool and errors/invalid-params findings it counts.",
    },
    Rule {
        id: "errors/list-tools",
        severity: Severity::Error,
        short: "Tool listing",
        description:
            "The complete `tools/list` listing could not be obtained, so no error-contract \
            probe was sent.",
        fix: "Make `tools/list` answer with a valid result on every page: a `tools` array and an \
            optional string `nextCursor`.",
    },
    Rule {
        id: "errors/unknown-tool",
        severity: Severity::Error,
        short: "Unknown tool error layer",
        description: "Calling a tool that does not exist must be answered with a JSON-RPC error \
            (protocol layer, e.g. -32602 or -32601), not with a tool result: clients and models \
            treat `isError` results as the tool's own output and may retry or hallucinate. With \
            `checks.errors.unknown_tool: either` a tool error is accepted too.",
        fix: "Look up the tool name before dispatching and return a JSON-RPC error (-32602, \
            \"Unknown tool: <name>\") instead of a result; do not wrap protocol errors in a \
            result with `isError: true`.",
    },
    Rule {
        id: "errors/invalid-params",
        severity: Severity::Error,
        short: "Invalid params error layer",
        description: "Calling a tool without its required arguments must be rejected. Before \
            protocol 2025-11-25 the expected answer is a JSON-RPC -32602 error; from 2025-11-25 on \
            (SEP-1303) it is a tool result with `isError: true` so the model can correct itself. \
            A call that succeeds fails this rule.",
        fix: "Validate arguments against the tool's inputSchema before running it and reject \
            missing required arguments on the layer the negotiated protocol version expects.",
    },
];

const ID_SUMMARY: &str = "errors/summary";
const ID_LIST_TOOLS: &str = "errors/list-tools";
const ID_UNKNOWN: &str = "errors/unknown-tool";
const ID_INVALID: &str = "errors/invalid-params";

/// The name called to provoke an unknown-tool error; fixed so reports are deterministic. It
/// is used even if the server happens to expose a tool with this name.
pub const UNKNOWN_TOOL_PROBE: &str = "__mcpward_unknown_tool__";

/// First revision where input validation failures are tool errors (SEP-1303, DECISIONS #29).
const SEP_1303_VERSION: &str = "2025-11-25";

/// Which layer `errors/unknown-tool` accepts (DECISIONS #30). The config module has its own
/// enum; the runner maps it onto this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownToolPolicy {
    /// Only a JSON-RPC error passes (the original's rule).
    #[default]
    ProtocolError,
    /// A JSON-RPC error or a tool result with `isError: true` passes (ready for SEP-2145).
    Either,
}

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
    let tools = super::listed_tools(listing, ID_LIST_TOOLS)?;
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

/// Findings for the recorded probe outcomes: `errors/summary`, then `errors/unknown-tool`,
/// then `errors/invalid-params` in probe order. `protocol_version` is the negotiated version
/// (DECISIONS #29 judges invalid-params by it).
pub fn judge(
    probes: &[(Probe, CallOutcome)],
    protocol_version: &str,
    policy: UnknownToolPolicy,
) -> Vec<Finding> {
    let unknown = probes
        .iter()
        .filter(|(p, _)| p.kind == ProbeKind::UnknownTool)
        .map(|(_, outcome)| unknown_tool(outcome, policy));
    let sep1303 = version_at_least(protocol_version, SEP_1303_VERSION);
    let invalid = probes
        .iter()
        .filter(|(p, _)| p.kind == ProbeKind::InvalidParams)
        .map(|(p, outcome)| invalid_params(&p.tool, outcome, protocol_version, sep1303));
    let results: Vec<Finding> = unknown.chain(invalid).collect();

    let failures = results.iter().filter(|f| f.status == Status::Fail).count();
    let summary = if failures == 0 {
        Finding::pass(ID_SUMMARY, "Error contract checks passed")
    } else {
        Finding::fail(
            ID_SUMMARY,
            format!("Error contract: {failures} violation(s) found"),
        )
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
            Some(c) if accepted_code(c) => Finding::pass(
                ID_UNKNOWN,
                format!(
                    "Unknown tool correctly returned protocol error (code {c}){}{}",
                    local_note(e),
                    modern_code_note(c)
                ),
            ),
            Some(c) => Finding::fail(
                ID_UNKNOWN,
                format!("Unknown tool returned wrong error type: {e}"),
            )
            .expected("Protocol error with standard JSON-RPC code")
            .actual(format!("Code {c}")),
            None => Finding::fail(
                ID_UNKNOWN,
                format!("Unknown tool returned wrong error type: {e}"),
            )
            .expected("Protocol error with standard JSON-RPC code")
            .actual("Unknown error type"),
        },
        Ok(result) if is_error_result(result) => {
            let wrapped = wrapped_protocol_error(result);
            match (either, wrapped) {
                (true, Some(text)) => Finding::pass(
                    ID_UNKNOWN,
                    format!(
                        "Unknown tool returned a tool error (isError: true) wrapping a protocol \
                         error (\"{text}\"); accepted by unknown_tool: either"
                    ),
                ),
                (true, None) => Finding::pass(
                    ID_UNKNOWN,
                    "Unknown tool returned a tool error (isError: true); accepted by \
                     unknown_tool: either",
                ),
                (false, Some(text)) => Finding::fail(
                    ID_UNKNOWN,
                    format!(
                        "Unknown tool did not return protocol error: the protocol error was \
                         wrapped in a tool result with isError: true (\"{text}\"); return it as \
                         a JSON-RPC error instead"
                    ),
                )
                .expected(expected_layer)
                .actual("Protocol error wrapped in a tool result (isError: true)"),
                (false, None) => Finding::fail(
                    ID_UNKNOWN,
                    "Unknown tool did not return protocol error (it returned a tool result with \
                     isError: true)",
                )
                .expected(expected_layer)
                .actual("Tool error (isError: true)"),
            }
        }
        Ok(_) => Finding::fail(ID_UNKNOWN, "Unknown tool did not return protocol error")
            .expected(expected_layer)
            .actual("No error returned"),
    };
    f.location(UNKNOWN_TOOL_PROBE)
}

fn invalid_params(name: &str, outcome: &CallOutcome, version: &str, sep1303: bool) -> Finding {
    let judged = format!(" [judged by protocol {version}]");
    let f = if sep1303 {
        // From 2025-11-25 on: a tool error is the answer SEP-1303 asks for.
        let expected = "Tool error (isError: true) for invalid params";
        match outcome {
            Ok(r) if is_error_result(r) => Finding::pass(
                ID_INVALID,
                format!(
                    "Tool \"{name}\" reported invalid params as a tool error (isError: true), as \
                     SEP-1303 asks{judged}"
                ),
            ),
            Ok(_) => Finding::fail(
                ID_INVALID,
                format!("Tool \"{name}\" did not fail with missing required params{judged}"),
            )
            .expected(expected)
            .actual("Call succeeded"),
            Err(e) if e.code == Some(-32602) => Finding::warn(
                ID_INVALID,
                format!(
                    "Tool \"{name}\" returned protocol error -32602 for invalid params{}, which \
                     predates SEP-1303 (input validation failures are tool errors with isError: \
                     true){judged}",
                    local_note(e)
                ),
            )
            .expected(expected)
            .actual("Code -32602"),
            Err(e) => Finding::warn(
                ID_INVALID,
                format!(
                    "Tool \"{name}\" error for invalid params is not a tool error (isError: \
                     true): {e}{}{judged}",
                    e.code.map_or("", modern_code_note)
                ),
            )
            .expected(expected)
            .actual(code_or_unknown(e)),
        }
    } else {
        // Before 2025-11-25: the original's protocol-layer expectation.
        let expected = "Protocol error (-32602) for invalid params";
        match outcome {
            Err(e) => match e.code {
                Some(c) if accepted_code(c) => Finding::pass(
                    ID_INVALID,
                    format!(
                        "Tool \"{name}\" correctly returned protocol error for invalid params \
                         (code {c}){}{}{judged}",
                        local_note(e),
                        modern_code_note(c)
                    ),
                ),
                _ => Finding::warn(
                    ID_INVALID,
                    format!(
                        "Tool \"{name}\" error for invalid params not a standard protocol error: \
                         {e}{judged}"
                    ),
                )
                .expected("Protocol error (-32602)")
                .actual(code_or_unknown(e)),
            },
            Ok(r) if is_error_result(r) => Finding::warn(
                ID_INVALID,
                format!(
                    "Tool \"{name}\" did not fail with missing required params (it returned a \
                     tool error, isError: true, instead of a protocol error){judged}"
                ),
            )
            .expected(expected)
            .actual("Call succeeded"),
            Ok(_) => Finding::fail(
                ID_INVALID,
                format!("Tool \"{name}\" did not fail with missing required params{judged}"),
            )
            .expected(expected)
            .actual("Call succeeded"),
        }
    };
    f.location(name)
}

fn code_or_unknown(e: &RpcError) -> String {
    e.code
        .map_or_else(|| "Unknown error".to_string(), |c| format!("Code {c}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const OLD: &str = "2025-06-18";
    const NEW: &str = "2025-11-25";
    const P: UnknownToolPolicy = UnknownToolPolicy::ProtocolError;

    fn unknown_probe() -> Probe {
        Probe {
            tool: UNKNOWN_TOOL_PROBE.into(),
            kind: ProbeKind::UnknownTool,
        }
    }

    fn invalid_probe(name: &str) -> Probe {
        Probe {
            tool: name.into(),
            kind: ProbeKind::InvalidParams,
        }
    }

    fn rpc(code: i64, msg: &str) -> CallOutcome {
        Err(RpcError::protocol(code, msg, None))
    }

    fn tool_error(text: &str) -> CallOutcome {
        Ok(json!({"content": [{"type": "text", "text": text}], "isError": true}))
    }

    fn success() -> CallOutcome {
        Ok(json!({"content": [{"type": "text", "text": "ok"}]}))
    }

    fn judge_unknown(outcome: CallOutcome, policy: UnknownToolPolicy) -> Vec<Finding> {
        judge(&[(unknown_probe(), outcome)], OLD, policy)
    }

    fn judge_invalid(outcome: CallOutcome, version: &str) -> Finding {
        let fs = judge(&[(invalid_probe("t"), outcome)], version, P);
        assert_eq!(fs.len(), 2);
        fs[1].clone()
    }

    fn assert_is(f: &Finding, id: &str, status: Status, severity: Severity, needle: &str) {
        assert_eq!(f.id, id, "{f:?}");
        assert_eq!(f.status, status, "{f:?}");
        assert_eq!(f.severity, severity, "{f:?}");
        assert!(
            f.message.contains(needle),
            "{:?} lacks {needle:?}",
            f.message
        );
    }

    fn tools(v: Value) -> Listing {
        Ok(v.as_array().cloned().unwrap_or_default())
    }

    // Edge cases 29 and 30, plus probe order.
    #[test]
    fn plan_probes_only_tools_with_required_params() {
        let listing = tools(json!([
            {"name": "a", "inputSchema": {"type": "object", "required": ["x"]}},
            {"name": "b", "inputSchema": {"type": "object", "required": []}},
            {"name": "c", "inputSchema": {"type": "object"}},
            {"name": "d"},
            {"name": 5, "inputSchema": {"required": ["x"]}},
            "garbage",
            {"name": "e", "inputSchema": {"required": "x"}},
            {"name": "a", "inputSchema": {"type": "object", "required": ["y"]}},
            {"name": UNKNOWN_TOOL_PROBE, "inputSchema": {"required": ["z"]}}
        ]));
        let probes = plan(&listing).unwrap();
        assert_eq!(
            probes,
            vec![
                unknown_probe(),
                invalid_probe("a"),
                invalid_probe("a"),
                invalid_probe(UNKNOWN_TOOL_PROBE)
            ]
        );
        assert_eq!(plan(&Ok(vec![])).unwrap(), vec![unknown_probe()]);
    }

    #[test]
    fn listing_failure_is_the_only_finding() {
        let f = plan(&Err("Connection closed".into())).unwrap_err();
        assert_is(
            &f,
            ID_LIST_TOOLS,
            Status::Fail,
            Severity::Error,
            "Failed to list tools: Connection closed",
        );
        assert_eq!(f.family, "errors");
        assert_eq!(f.actual, None);
    }

    // Edge case 24.
    #[test]
    fn compliant_server_passes() {
        let probes = vec![
            (unknown_probe(), rpc(-32601, "Unknown tool")),
            (invalid_probe("a"), rpc(-32602, "Invalid params")),
            (invalid_probe("b"), tool_error("x is required")),
        ];
        let fs = judge(&probes, OLD, P);
        let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, [ID_SUMMARY, ID_UNKNOWN, ID_INVALID, ID_INVALID]);
        assert_is(
            &fs[0],
            ID_SUMMARY,
            Status::Pass,
            Severity::Info,
            "Error contract checks passed",
        );
        assert_eq!(
            fs[1].message,
            "Unknown tool correctly returned protocol error (code -32601)"
        );
        assert_eq!(fs[1].status, Status::Pass);
        assert_eq!(fs[1].location.as_deref(), Some(UNKNOWN_TOOL_PROBE));
        assert_eq!(
            fs[2].message,
            "Tool \"a\" correctly returned protocol error for invalid params (code -32602) \
             [judged by protocol 2025-06-18]"
        );
        assert_eq!(fs[2].location.as_deref(), Some("a"));
        assert_eq!(fs[3].status, Status::Warn);
        assert_eq!(fs[3].location.as_deref(), Some("b"));
    }

    #[test]
    fn every_accepted_code_passes_unknown_tool() {
        for c in [
            -32700, -32600, -32601, -32602, -32603, -32099, -32050, -32000,
        ] {
            let fs = judge_unknown(rpc(c, "x"), P);
            assert_is(
                &fs[1],
                ID_UNKNOWN,
                Status::Pass,
                Severity::Info,
                &format!("protocol error (code {c})"),
            );
        }
    }

    // Edge case 25.
    #[test]
    fn tool_error_for_unknown_tool_fails() {
        let fs = judge_unknown(tool_error("no such tool, sorry"), P);
        assert_is(
            &fs[0],
            ID_SUMMARY,
            Status::Fail,
            Severity::Error,
            "Error contract: 1 violation(s) found",
        );
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Fail,
            Severity::Error,
            "Unknown tool did not return protocol error",
        );
        assert_eq!(
            fs[1].expected,
            Some(json!("Protocol error (code -32601 or -32602)"))
        );
        assert_eq!(fs[1].actual, Some(json!("Tool error (isError: true)")));
        assert_eq!(fs[1].location.as_deref(), Some(UNKNOWN_TOOL_PROBE));
    }

    #[test]
    fn plain_result_for_unknown_tool_fails_under_both_policies() {
        for policy in [P, UnknownToolPolicy::Either] {
            let fs = judge_unknown(success(), policy);
            assert_eq!(fs[0].status, Status::Fail);
            assert_is(
                &fs[1],
                ID_UNKNOWN,
                Status::Fail,
                Severity::Error,
                "Unknown tool did not return protocol error",
            );
            assert_eq!(fs[1].actual, Some(json!("No error returned")));
        }
        // A result that is not even an object is still "a result".
        let fs = judge_unknown(Ok(json!("weird")), P);
        assert_eq!(fs[1].status, Status::Fail);
    }

    // DECISIONS #30: a protocol error wrapped in a tool result.
    #[test]
    fn wrapped_protocol_error_is_named() {
        for text in [
            "MCP error -32602: Tool __mcpward_unknown_tool__ not found",
            "Error: mcp error -32601: Method not found",
            "{\"code\": -32601, \"message\": \"Unknown tool\"}",
            "-32602 tool not found",
        ] {
            let fs = judge_unknown(tool_error(text), P);
            assert_is(
                &fs[1],
                ID_UNKNOWN,
                Status::Fail,
                Severity::Error,
                "the protocol error was wrapped in a tool result with isError: true",
            );
            assert!(fs[1].message.contains(text), "{}", fs[1].message);
            assert_eq!(
                fs[1].actual,
                Some(json!(
                    "Protocol error wrapped in a tool result (isError: true)"
                ))
            );
        }
        // A code alone, or "not found" alone, is not a wrapped protocol error.
        for text in ["error -32602", "file not found", "MCP error -32000: boom"] {
            let fs = judge_unknown(tool_error(text), P);
            assert!(
                !fs[1].message.contains("wrapped"),
                "{text}: {}",
                fs[1].message
            );
        }
    }

    #[test]
    fn either_policy_accepts_tool_errors() {
        let e = UnknownToolPolicy::Either;
        let fs = judge_unknown(tool_error("Unknown tool: x"), e);
        assert_is(
            &fs[0],
            ID_SUMMARY,
            Status::Pass,
            Severity::Info,
            "Error contract checks passed",
        );
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Pass,
            Severity::Info,
            "tool error (isError: true); accepted by unknown_tool: either",
        );
        let fs = judge_unknown(tool_error("MCP error -32602: Tool x not found"), e);
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Pass,
            Severity::Info,
            "wrapping a protocol error",
        );
        let fs = judge_unknown(rpc(-32602, "Unknown tool"), e);
        assert_eq!(fs[1].status, Status::Pass);
        let fs = judge_unknown(Err(RpcError::plain("timed out")), e);
        assert_eq!(fs[1].status, Status::Fail);
        assert_eq!(UnknownToolPolicy::default(), P);
    }

    #[test]
    fn non_standard_code_for_unknown_tool_fails() {
        let fs = judge_unknown(rpc(-1, "nope"), P);
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Fail,
            Severity::Error,
            "Unknown tool returned wrong error type",
        );
        assert_eq!(
            fs[1].expected,
            Some(json!("Protocol error with standard JSON-RPC code"))
        );
        assert_eq!(fs[1].actual, Some(json!("Code -1")));
        for c in [-31999, -32100, -32604] {
            assert_eq!(judge_unknown(rpc(c, "x"), P)[1].status, Status::Fail, "{c}");
        }
    }

    #[test]
    fn codeless_error_for_unknown_tool_fails() {
        let fs = judge_unknown(Err(RpcError::plain("Request timed out after 50ms")), P);
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Fail,
            Severity::Error,
            "Unknown tool returned wrong error type: Request timed out after 50ms",
        );
        assert_eq!(fs[1].actual, Some(json!("Unknown error type")));
    }

    // DECISIONS #37: -32000/-32001 count, but the message says they were local.
    #[test]
    fn local_codes_are_accepted_but_marked_local() {
        let fs = judge_unknown(Err(RpcError::closed()), P);
        assert_is(
            &fs[1],
            ID_UNKNOWN,
            Status::Pass,
            Severity::Info,
            "(code -32000) (raised locally by mcpward: the connection closed; not sent by the server)",
        );
        let f = judge_invalid(Err(RpcError::request_timeout()), OLD);
        assert_is(
            &f,
            ID_INVALID,
            Status::Pass,
            Severity::Info,
            "(code -32001) (raised locally by mcpward: the request timed out; not sent by the server)",
        );
        // A genuine server -32000 is not marked.
        let fs = judge_unknown(rpc(-32000, "server said"), P);
        assert!(!fs[1].message.contains("locally"));
    }

    #[test]
    fn modern_codes_are_named() {
        let fs = judge_unknown(rpc(-32020, "header mismatch"), P);
        assert_eq!(fs[1].status, Status::Pass);
        assert!(
            fs[1].message.contains("-32020 is HeaderMismatch"),
            "{}",
            fs[1].message
        );
    }

    // Edge case 26 (before 2025-11-25).
    #[test]
    fn old_protocol_tool_error_warns() {
        let f = judge_invalid(tool_error("x is required"), OLD);
        assert_is(
            &f,
            ID_INVALID,
            Status::Warn,
            Severity::Warning,
            "Tool \"t\" did not fail with missing required params",
        );
        assert!(f.message.ends_with("[judged by protocol 2025-06-18]"));
        assert_eq!(
            f.expected,
            Some(json!("Protocol error (-32602) for invalid params"))
        );
        assert_eq!(f.actual, Some(json!("Call succeeded")));
        assert_eq!(f.location.as_deref(), Some("t"));
    }

    // DECISIONS #29: success fails in both eras, and the summary counts it.
    #[test]
    fn success_with_missing_params_fails() {
        for v in [OLD, NEW, "2026-07-28"] {
            let fs = judge(&[(invalid_probe("t"), success())], v, P);
            assert_is(
                &fs[0],
                ID_SUMMARY,
                Status::Fail,
                Severity::Error,
                "Error contract: 1 violation(s) found",
            );
            assert_is(
                &fs[1],
                ID_INVALID,
                Status::Fail,
                Severity::Error,
                "Tool \"t\" did not fail with missing required params",
            );
            assert!(fs[1].message.contains(&format!("[judged by protocol {v}]")));
            assert_eq!(fs[1].actual, Some(json!("Call succeeded")));
        }
    }

    #[test]
    fn summary_counts_every_failure() {
        let probes = vec![
            (unknown_probe(), success()),
            (invalid_probe("a"), success()),
            (invalid_probe("b"), success()),
            (invalid_probe("c"), rpc(-32602, "bad")),
        ];
        let fs = judge(&probes, OLD, P);
        assert_eq!(fs[0].message, "Error contract: 3 violation(s) found");
    }

    // Edge case 27.
    #[test]
    fn codeless_error_for_invalid_params_warns() {
        let f = judge_invalid(Err(RpcError::plain("Request timed out after 50ms")), OLD);
        assert_is(
            &f,
            ID_INVALID,
            Status::Warn,
            Severity::Warning,
            "Tool \"t\" error for invalid params not a standard protocol error",
        );
        assert_eq!(f.expected, Some(json!("Protocol error (-32602)")));
        assert_eq!(f.actual, Some(json!("Unknown error")));
        let f = judge_invalid(rpc(42, "odd"), OLD);
        assert_eq!(f.status, Status::Warn);
        assert_eq!(f.actual, Some(json!("Code 42")));
    }

    // DECISIONS #29, from 2025-11-25 on.
    #[test]
    fn new_protocol_prefers_tool_errors() {
        for v in [NEW, "2026-07-28"] {
            let f = judge_invalid(tool_error("q is required"), v);
            assert_is(
                &f,
                ID_INVALID,
                Status::Pass,
                Severity::Info,
                "reported invalid params as a tool error (isError: true), as SEP-1303 asks",
            );
            assert!(f.message.contains(&format!("[judged by protocol {v}]")));

            let f = judge_invalid(rpc(-32602, "Invalid params"), v);
            assert_is(
                &f,
                ID_INVALID,
                Status::Warn,
                Severity::Warning,
                "predates SEP-1303",
            );
            assert_eq!(
                f.expected,
                Some(json!("Tool error (isError: true) for invalid params"))
            );
            assert_eq!(f.actual, Some(json!("Code -32602")));

            let f = judge_invalid(rpc(-32603, "Internal error"), v);
            assert_is(
                &f,
                ID_INVALID,
                Status::Warn,
                Severity::Warning,
                "is not a tool error",
            );
            assert_eq!(f.actual, Some(json!("Code -32603")));

            let f = judge_invalid(Err(RpcError::plain("Request timed out after 50ms")), v);
            assert_eq!(f.status, Status::Warn);
            assert_eq!(f.actual, Some(json!("Unknown error")));
        }
    }

    #[test]
    fn snippets_are_bounded() {
        let long = format!("MCP error -32602: {}", "x".repeat(500));
        let fs = judge_unknown(tool_error(&long), P);
        assert!(fs[1].message.chars().count() < 400);
        assert!(fs[1].message.contains('…'));
    }

    #[test]
    fn no_probes_gives_only_a_passing_summary() {
        let fs = judge(&[], OLD, P);
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].status, Status::Pass);
    }

    /// Full output for a mixed run, to review every template at once.
    #[test]
    fn snapshot_mixed_run() {
        let probes = vec![
            (
                unknown_probe(),
                tool_error("MCP error -32602: Tool __mcpward_unknown_tool__ not found"),
            ),
            (invalid_probe("a"), tool_error("a is required")),
            (invalid_probe("b"), rpc(-32602, "Invalid params")),
            (invalid_probe("c"), success()),
            (
                invalid_probe("d"),
                Err(RpcError::plain("Request timed out after 50ms")),
            ),
        ];
        insta::assert_json_snapshot!(judge(&probes, NEW, P));
    }
}
