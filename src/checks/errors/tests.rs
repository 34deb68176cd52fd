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

const STRICT: ErrorsConfig = ErrorsConfig {
    enabled: true,
    unknown_tool: P,
    invalid_params: InvalidParamsPolicy::Strict,
    probe: crate::checks::errors::ProbePolicy::All,
    skip: Vec::new(),
};

// DECISIONS #29 as corrected by #12 §6: by default a succeeding call is a warn at every
// version (as in the original), and the summary does not count it.
#[test]
fn success_with_missing_params_warns_by_default() {
    for v in [OLD, NEW, "2026-07-28"] {
        let fs = judge(&[(invalid_probe("t"), success())], v, P);
        assert_eq!(
            fs,
            judge_with(
                &[(invalid_probe("t"), success())],
                v,
                &ErrorsConfig::default()
            )
        );
        assert_is(
            &fs[0],
            ID_SUMMARY,
            Status::Pass,
            Severity::Info,
            "Error contract checks passed",
        );
        assert_is(
            &fs[1],
            ID_INVALID,
            Status::Warn,
            Severity::Warning,
            "Tool \"t\" did not fail with missing required params",
        );
        assert!(fs[1].message.contains(&format!("[judged by protocol {v}]")));
        assert_eq!(fs[1].actual, Some(json!("Call succeeded")));
    }
}

// `invalid_params: strict`: success fails in both eras, and the summary counts it (this was
// the default before #12 §6).
#[test]
fn success_with_missing_params_fails_when_strict() {
    for v in [OLD, NEW, "2026-07-28"] {
        let fs = judge_with(&[(invalid_probe("t"), success())], v, &STRICT);
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
    let fs = judge_with(&probes, OLD, &STRICT);
    assert_eq!(fs[0].message, "Error contract: 3 violation(s) found");
    // By default the succeeding calls warn: only the unknown-tool probe counts.
    let fs = judge(&probes, OLD, P);
    assert_eq!(fs[0].message, "Error contract: 1 violation(s) found");
}

// Strict changes only the succeeding call: every other outcome is judged as by default.
#[test]
fn strict_changes_only_a_succeeding_call() {
    for v in [OLD, NEW] {
        for outcome in [
            rpc(-32602, "bad"),
            rpc(-32000, "other"),
            Err(RpcError::plain("no code")),
            tool_error("missing message"),
        ] {
            let probe = [(invalid_probe("t"), outcome)];
            assert_eq!(
                judge(&probe, v, P),
                judge_with(&probe, v, &STRICT),
                "{v} {:?}",
                probe[0].1
            );
        }
    }
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

fn mixed_probes() -> Vec<(Probe, CallOutcome)> {
    vec![
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
    ]
}

/// Full output for a mixed run, to review every template at once (strict, so the
/// succeeding call shows as the failure it was before #12 §6).
#[test]
fn snapshot_mixed_run() {
    insta::assert_json_snapshot!(judge_with(&mixed_probes(), NEW, &STRICT));
}

/// The same run with the default policy: the succeeding call `c` warns.
#[test]
fn snapshot_mixed_run_default() {
    insta::assert_json_snapshot!(judge(&mixed_probes(), NEW, P));
}

#[test]
fn modern_http_blocks_invalid_params_probes_of_tools_with_broken_x_mcp_header() {
    use crate::observed::Era;
    let listing: Listing = Ok(vec![
        json!({"name": "good", "inputSchema": {"type": "object", "required": ["a"],
            "properties": {"a": {"type": "string", "x-mcp-header": "A"}}}}),
        json!({"name": "broken", "inputSchema": {"type": "object", "required": ["x"],
            "properties": {"x": {"type": "number", "x-mcp-header": "X"}}}}),
    ]);
    let p = plan_for(&listing, Era::Modern, true, &ErrorsConfig::default()).unwrap();
    let calls: Vec<&str> = p.calls.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(calls, [UNKNOWN_TOOL_PROBE, "good"]);
    assert_eq!(p.blocked.len(), 1);
    let skip = &p.blocked[0];
    assert_eq!(skip.id, "errors/invalid-params");
    assert_eq!(skip.status, Status::Skip);
    assert_eq!(skip.location.as_deref(), Some("broken"));
    assert_eq!(skip.message, "tool \"broken\" is not called over HTTP because its inputSchema has an invalid x-mcp-header: x-mcp-header \"X\" at #/properties/x is on a property whose type is not string, integer or boolean");
    // stdio and the legacy era call every planned tool.
    for (era, http) in [(Era::Modern, false), (Era::Legacy, true)] {
        let p = plan_for(&listing, era, http, &ErrorsConfig::default()).unwrap();
        assert_eq!(p.calls, plan(&listing).unwrap());
        assert!(p.blocked.is_empty());
    }
    // The skips follow the judged results.
    let recorded: Vec<(Probe, CallOutcome)> = p_calls_failing(&p.calls);
    let fs = judge_plan(&p, &recorded, "2025-06-18", &ErrorsConfig::default());
    assert_eq!(fs.last().unwrap(), skip);
    assert_eq!(fs.len(), 4);
    assert_eq!(fs[0].id, "errors/summary");
}

fn p_calls_failing(calls: &[Probe]) -> Vec<(Probe, CallOutcome)> {
    calls
        .iter()
        .map(|c| {
            (
                c.clone(),
                Err(RpcError::protocol(-32602, "Invalid params", None)),
            )
        })
        .collect()
}

// --- probes that cannot hurt (#16 §6) ---

fn probe_listing() -> Listing {
    let req =
        json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}});
    Ok(vec![
        json!({"name": "read", "inputSchema": req, "annotations": {"readOnlyHint": true}}),
        json!({"name": "delete_item", "inputSchema": req, "annotations": {"destructiveHint": true}}),
        json!({"name": "plain", "inputSchema": req}),
        json!({"name": "both", "inputSchema": req, "annotations": {"readOnlyHint": true, "destructiveHint": true}}),
        json!({"name": "read_secret", "inputSchema": req, "annotations": {"readOnlyHint": true}}),
        json!({"name": "no_required", "inputSchema": {"type": "object"}}),
    ])
}

fn probed(cfg: &ErrorsConfig) -> (Vec<String>, Vec<(String, String)>) {
    let p = plan_for(&probe_listing(), crate::observed::Era::Legacy, false, cfg).unwrap();
    (
        p.calls.iter().map(|c| c.tool.clone()).collect(),
        p.blocked
            .iter()
            .map(|f| {
                assert_eq!((f.id.as_str(), f.status), (ID_INVALID, Status::Skip));
                (f.location.clone().unwrap(), f.message.clone())
            })
            .collect(),
    )
}

#[test]
fn probe_all_is_the_original_and_the_default() {
    let (calls, skipped) = probed(&ErrorsConfig::default());
    assert_eq!(
        calls,
        [
            UNKNOWN_TOOL_PROBE,
            "read",
            "delete_item",
            "plain",
            "both",
            "read_secret"
        ]
    );
    assert!(skipped.is_empty());
    assert_eq!(ErrorsConfig::default().probe, ProbePolicy::All);
}

#[test]
fn probe_safe_calls_only_read_only_tools_and_says_why_for_the_rest() {
    let cfg = ErrorsConfig {
        probe: ProbePolicy::Safe,
        ..ErrorsConfig::default()
    };
    let (calls, skipped) = probed(&cfg);
    // The unknown-tool probe names no real tool: always made.
    assert_eq!(calls, [UNKNOWN_TOOL_PROBE, "read", "read_secret"]);
    let names: Vec<&str> = skipped.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["delete_item", "plain", "both"]);
    assert_eq!(
        skipped[0].1,
        "Tool \"delete_item\" not called with {}: checks.errors.probe is safe and it is not annotated readOnlyHint: true, so it may have side effects"
    );
    assert_eq!(
        skipped[2].1,
        "Tool \"both\" not called with {}: checks.errors.probe is safe and it is annotated both readOnlyHint and destructiveHint"
    );
}

#[test]
fn probe_skip_globs_apply_under_both_policies() {
    for probe in ProbePolicy::ALL {
        let cfg = ErrorsConfig {
            probe,
            skip: vec!["read_*".into(), "pla?n".into(), UNKNOWN_TOOL_PROBE.into()],
            ..ErrorsConfig::default()
        };
        let (calls, skipped) = probed(&cfg);
        assert!(calls.contains(&UNKNOWN_TOOL_PROBE.to_string()));
        assert!(!calls.iter().any(|c| c == "read_secret" || c == "plain"));
        let (_, msg) = skipped.iter().find(|(n, _)| n == "read_secret").unwrap();
        assert_eq!(
            msg,
            "Tool \"read_secret\" not called with {}: it matches checks.errors.skip entry \"read_*\""
        );
        assert!(calls.contains(&"read".to_string()));
    }
}

#[test]
fn glob_matching() {
    for (p, n, m) in [
        ("*", "", true),
        ("*", "anything", true),
        ("delete_*", "delete_item", true),
        ("delete_*", "undelete_item", false),
        ("*_item", "delete_item", true),
        ("a?c", "abc", true),
        ("a?c", "ac", false),
        ("exact", "exact", true),
        ("exact", "exactly", false),
        ("*a*b*", "xxaxxbxx", true),
        ("*a*b*", "xxbxxaxx", false),
        ("é*", "été", true),
        ("", "", true),
        ("", "x", false),
    ] {
        assert_eq!(glob_match(p, n), m, "{p:?} vs {n:?}");
    }
    // Many stars over a long name stay fast (no exponential backtracking).
    let name = "a".repeat(5000);
    assert!(!glob_match(&format!("{}b", "*a".repeat(50)), &name));
}

/// Planned from each tool's text, a tool at a time, the plan is the one the parsed listing
/// gives: in every era and transport, under the safe probe policy and skip entries, with
/// broken headers, tools that are not objects or have no name, and repeated names.
#[test]
fn a_plan_from_text_is_the_plan_from_the_tree() {
    use crate::observed::{Era, TextListing};
    let tools = vec![
        json!({"name": "good", "description": "long text", "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true},
            "inputSchema": {"type": "object", "required": ["a"],
            "properties": {"a": {"type": "string", "x-mcp-header": "A"}}}}),
        json!({"name": "broken", "inputSchema": {"type": "object", "required": ["x"],
            "properties": {"x": {"type": "number", "x-mcp-header": "X"}}}}),
        json!({"name": "writer", "annotations": {"readOnlyHint": true, "destructiveHint": true},
            "inputSchema": {"type": "object", "required": ["p"]}}),
        json!({"name": "skipped_one", "inputSchema": {"type": "object", "required": ["q"]}}),
        json!({"name": "none", "inputSchema": {"type": "object"}}),
        json!({"name": "odd", "inputSchema": "not a schema"}),
        json!({"inputSchema": {"required": ["z"]}}),
        json!("a string, not a tool"),
        json!(null),
        json!({"name": "good", "inputSchema": {"type": "object", "required": []}}),
    ];
    let listing: Listing = Ok(tools.clone());
    let text: TextListing = Ok(tools
        .iter()
        .map(|t| serde_json::value::to_raw_value(t).unwrap())
        .collect());
    let safe = ErrorsConfig {
        probe: ProbePolicy::Safe,
        skip: vec!["skipped_*".into()],
        ..ErrorsConfig::default()
    };
    for cfg in [ErrorsConfig::default(), safe] {
        for (era, http) in [
            (Era::Modern, true),
            (Era::Modern, false),
            (Era::Legacy, true),
            (Era::Legacy, false),
        ] {
            assert_eq!(
                plan_for_text(&text, era, http, &cfg),
                plan_for(&listing, era, http, &cfg),
                "{era:?} http={http}"
            );
        }
    }
    let failed: TextListing = Err("boom".into());
    assert_eq!(
        plan_for_text(&failed, Era::Modern, true, &ErrorsConfig::default()),
        plan_for(
            &Err("boom".into()),
            Era::Modern,
            true,
            &ErrorsConfig::default()
        )
    );
}
