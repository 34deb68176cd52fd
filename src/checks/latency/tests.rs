use super::*;
use crate::model::Status;
use serde_json::json;

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn allow(name: &str, args: Map<String, Value>) -> crate::checks::tool_args::ToolArgs {
    crate::checks::tool_args::ToolArgs {
        name: name.into(),
        args,
    }
}

fn tool(name: &str, ann: Value) -> Value {
    let mut t = json!({"name": name, "inputSchema": {"type": "object"}});
    if !ann.is_null() {
        t["annotations"] = ann;
    }
    t
}

fn calls(p: &LatencyPlan) -> Vec<&str> {
    p.calls.iter().map(|(n, _)| n.as_str()).collect()
}

fn ids(fs: &[Finding]) -> Vec<(&str, Status)> {
    fs.iter().map(|f| (f.id.as_str(), f.status)).collect()
}

#[test]
fn percentile_definition() {
    assert_eq!(percentile(&[], 50.0), 0.0);
    assert_eq!(percentile(&[7.0], 95.0), 7.0);
    assert_eq!(percentile(&[100.0, 200.0], 50.0), 150.0);
    assert!((percentile(&[100.0, 200.0], 95.0) - 195.0).abs() < 1e-9);
    let five = [10.0, 20.0, 30.0, 40.0, 50.0];
    assert_eq!(percentile(&five, 50.0), 30.0);
    assert!((percentile(&five, 95.0) - 48.0).abs() < 1e-9);
    assert_eq!(percentile(&five, 0.0), 10.0);
    assert_eq!(percentile(&five, 100.0), 50.0);
    assert_eq!(
        percentile(&five, 250.0),
        50.0,
        "clamped, never out of bounds"
    );
    assert_eq!(percentile(&five, f64::NAN), 10.0);
}

#[test]
fn decision_truth_table() {
    let d = LatencyConfig::default();
    let allow = LatencyConfig {
        tools: vec![allow("t", obj(json!({"x": 1})))],
        ..d.clone()
    };
    let all = LatencyConfig {
        call_all: true,
        ..d.clone()
    };
    let no_ro = LatencyConfig {
        call_readonly: false,
        ..d.clone()
    };
    let rows: Vec<(Value, &LatencyConfig, bool)> = vec![
        (Value::Null, &d, false),
        (json!({"readOnlyHint": false}), &d, false),
        (json!({"destructiveHint": true}), &d, false),
        (json!({"readOnlyHint": true}), &d, true),
        (
            json!({"readOnlyHint": true, "destructiveHint": true}),
            &d,
            false,
        ),
        (json!({"readOnlyHint": true}), &no_ro, false),
        (Value::Null, &allow, true),
        (json!({"destructiveHint": true}), &allow, true),
        (Value::Null, &all, true),
        (json!({"destructiveHint": true}), &all, true),
        // Non-boolean hints are not `true`.
        (json!({"readOnlyHint": "true"}), &d, false),
    ];
    for (i, (ann, policy, measured)) in rows.into_iter().enumerate() {
        match decide(&tool("t", ann), policy) {
            Decision::Call(_) => assert!(measured, "row {i}"),
            Decision::Refuse(r) => {
                assert!(!measured, "row {i}: {r}");
                assert!(!r.trim().is_empty(), "row {i}");
            }
        }
    }
    assert_eq!(
        decide(&tool("t", Value::Null), &allow),
        Decision::Call(obj(json!({"x": 1})))
    );
}

#[test]
fn allowlisted_args_are_used_verbatim_and_generated_args_are_minimal() {
    let t = json!({"name": "get_order", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}});
    let policy = LatencyConfig {
        tools: vec![allow("get_order", obj(json!({"id": "abc"})))],
        ..Default::default()
    };
    assert_eq!(
        decide(&t, &policy),
        Decision::Call(obj(json!({"id": "abc"})))
    );
    let mut ro = t.clone();
    ro["annotations"] = json!({"readOnlyHint": true});
    assert_eq!(
        decide(&ro, &LatencyConfig::default()),
        Decision::Call(obj(json!({"id": ""})))
    );
}

#[test]
fn destructive_tools_are_never_planned_without_consent() {
    let schemas = [json!({"type": "object"}), Value::Null, json!("garbage")];
    let anns = [
        Value::Null,
        json!({"destructiveHint": true}),
        json!({"readOnlyHint": true, "destructiveHint": true}),
        json!({"readOnlyHint": false}),
        json!(5),
    ];
    for schema in &schemas {
        for ann in &anns {
            for call_readonly in [true, false] {
                let mut t = json!({"name": "wipe", "inputSchema": schema});
                t["annotations"] = ann.clone();
                let policy = LatencyConfig {
                    call_readonly,
                    ..Default::default()
                };
                let p = plan(&Ok(vec![t]), &policy);
                assert!(p.calls.is_empty(), "{ann} {schema}");
                assert_eq!(p.refused.len(), 1);
            }
        }
    }
}

fn surface(with_status: bool) -> Vec<Value> {
    let mut v = vec![];
    if with_status {
        v.push(tool("get_status", json!({"readOnlyHint": true})));
    }
    v.push(tool("delete_all", json!({"destructiveHint": true})));
    v.push(tool("send_email", Value::Null));
    v
}

#[test]
fn default_policy_measures_only_read_only_tools() {
    let policy = LatencyConfig {
        samples: 2,
        ..Default::default()
    };
    let p = plan(&Ok(surface(true)), &policy);
    assert_eq!(calls(&p), vec!["get_status"]);
    let samples = vec![("get_status".to_string(), vec![Ok(3.0), Ok(5.0)])];
    let out = judge(&p, &samples, &policy);
    assert_eq!(
        ids(&out),
        vec![
            ("latency/summary", Status::Pass),
            ("latency/tool", Status::Pass),
            ("latency/sampling", Status::Skip)
        ]
    );
    assert_eq!(out[0].message, "Latency p50=4ms p95=5ms (budget: 1000ms)");
    assert_eq!(out[0].expected, Some(json!("p95 <= 1000ms")));
    assert_eq!(out[0].actual, Some(json!("p95 = 5ms")));
    assert_eq!(out[0].location, None);
    assert_eq!(
        out[1].message,
        "Tool \"get_status\" latency: min=3ms p50=4ms p95=5ms max=5ms"
    );
    assert_eq!(out[1].location.as_deref(), Some("get_status"));
    assert_eq!(out[2].message, "Latency: 2 tool(s) not measured: delete_all, send_email. Add tools to checks.latency.tools (with args) to measure them.");
    assert_eq!(out[2].severity, Severity::Info);
    let refused = &out[2].actual.as_ref().unwrap()["refused"];
    assert_eq!(refused[0]["tool"], json!("delete_all"));
    assert!(!refused[1]["reason"].as_str().unwrap().is_empty());
}

#[test]
fn nothing_measurable_warns_without_failing() {
    let policy = LatencyConfig::default();
    let p = plan(&Ok(surface(false)), &policy);
    assert!(p.calls.is_empty());
    let out = judge(&p, &[], &policy);
    assert_eq!(
        ids(&out),
        vec![
            ("latency/summary", Status::Warn),
            ("latency/sampling", Status::Skip)
        ]
    );
    assert_eq!(out[0].message, "Latency not measured: no tool is annotated readOnlyHint: true or allowlisted in checks.latency.tools");
    assert_eq!(crate::model::exit_code_of(&out), 0);
    assert!(crate::model::Summary::of(&out).warnings > 0);
}

#[test]
fn call_all_measures_everything() {
    let policy = LatencyConfig {
        call_all: true,
        ..Default::default()
    };
    assert_eq!(
        calls(&plan(&Ok(surface(true)), &policy)),
        vec!["get_status", "delete_all", "send_email"]
    );
}

#[test]
fn allowlisted_names_missing_from_the_server() {
    let policy = LatencyConfig {
        tools: vec![allow("get_order", Map::new())],
        ..Default::default()
    };
    let p = plan(&Ok(vec![]), &policy);
    let out = judge(&p, &[], &policy);
    assert_eq!(
        ids(&out),
        vec![
            ("latency/no-tools", Status::Pass),
            ("latency/sampling", Status::Warn)
        ]
    );
    assert_eq!(out[0].message, "No tools to test latency");
    assert!(
        out[1]
            .message
            .contains("allowlisted but not on the server: get_order"),
        "{}",
        out[1].message
    );

    let policy = LatencyConfig {
        tools: vec![allow("no_such_tool", Map::new())],
        ..Default::default()
    };
    let p = plan(&Ok(surface(true)), &policy);
    let out = judge(&p, &[("get_status".into(), vec![Ok(1.0)])], &policy);
    let s = out.last().unwrap();
    assert_eq!(
        (s.id.as_str(), s.status, s.severity),
        ("latency/sampling", Status::Warn, Severity::Warning)
    );
    assert_eq!(s.message, "Latency: 2 tool(s) not measured: delete_all, send_email; allowlisted but not on the server: no_such_tool. Add tools to checks.latency.tools (with args) to measure them.");
    assert_eq!(
        s.actual.as_ref().unwrap()["unknownAllowlisted"],
        json!(["no_such_tool"])
    );
}

#[test]
fn listing_failure_stops_the_family() {
    let policy = LatencyConfig::default();
    let p = plan(&Err("connection reset".into()), &policy);
    assert!(p.calls.is_empty());
    let out = judge(&p, &[], &policy);
    assert_eq!(ids(&out), vec![("latency/list-tools", Status::Fail)]);
    assert_eq!(out[0].message, "Failed to list tools: connection reset");
}

#[test]
fn budget_is_enforced_on_the_pooled_p95() {
    let policy = |b: f64| LatencyConfig {
        p95_budget_ms: b,
        tools: vec![allow("slow", Map::new())],
        ..Default::default()
    };
    let samples = vec![("slow".to_string(), vec![Ok(300.0), Ok(300.2), Ok(299.8)])];
    let p = plan(&Ok(vec![tool("slow", Value::Null)]), &policy(100.0));
    let out = judge(&p, &samples, &policy(100.0));
    assert_eq!(
        (out[0].status, out[0].severity),
        (Status::Fail, Severity::Error)
    );
    assert_eq!(
        out[0].message,
        "Latency p50=300ms p95=300ms (budget: 100ms)"
    );
    let out = judge(&p, &samples, &policy(1000.0));
    assert_eq!(out[0].status, Status::Pass);
    // Equality passes; fractional budgets print as written.
    let out = judge(&p, &[("slow".into(), vec![Ok(2.5)])], &policy(2.5));
    assert_eq!(
        (out[0].status, out[0].message.as_str()),
        (Status::Pass, "Latency p50=3ms p95=3ms (budget: 2.5ms)")
    );
    // Pooled, not averaged per tool: 1 x 10ms tool + 19 x 1ms tool.
    let pooled = vec![
        ("a".to_string(), vec![Ok(10.0)]),
        ("b".to_string(), vec![Ok(1.0); 19]),
    ];
    let out = judge(&p, &pooled, &policy(5.0));
    assert_eq!(out[0].status, Status::Pass, "{}", out[0].message);
}

#[test]
fn sample_classification() {
    let own = RpcError::plain("Timeout: tool call \"slow\" (25ms)");
    assert_eq!(sample_of(&Err(own), 30.0), Ok(30.0));
    assert_eq!(sample_of(&Ok(json!({"content": []})), 4.0), Ok(4.0));
    assert_eq!(
        sample_of(&Ok(json!({"content": [], "isError": false})), 4.0),
        Ok(4.0)
    );
    let e = sample_of(
        &Ok(json!({"content": [{"type": "text", "text": "nope"}], "isError": true})),
        4.0,
    )
    .unwrap_err();
    assert_eq!(e, "the tool returned isError: true: nope");
    let e = sample_of(
        &Err(RpcError::protocol(-32602, "Invalid params", None)),
        1.0,
    )
    .unwrap_err();
    assert_eq!(e, "MCP error -32602: Invalid params");
    // The server's -32001 is a rejection, not our timeout, even with "Timeout: " text.
    assert!(sample_of(
        &Err(RpcError::protocol(-32001, "Request timed out", None)),
        1.0
    )
    .is_err());
    assert!(sample_of(&Err(RpcError::protocol(-32001, "Timeout: x", None)), 1.0).is_err());
    assert!(sample_of(&Err(RpcError::request_timeout()), 1.0).is_err());
    assert!(sample_of(&Err(RpcError::plain("Connection closed")), 1.0).is_err());
}

fn judge_outcomes(outcomes: Vec<(CallOutcome, f64)>, budget: f64) -> Vec<Finding> {
    let policy = LatencyConfig {
        p95_budget_ms: budget,
        tools: vec![allow("t", Map::new())],
        ..Default::default()
    };
    let p = plan(&Ok(vec![tool("t", Value::Null)]), &policy);
    let s: Vec<Result<f64, String>> = outcomes.iter().map(|(o, ms)| sample_of(o, *ms)).collect();
    judge(&p, &[("t".into(), s)], &policy)
}

#[test]
fn failed_calls_are_not_samples() {
    let invalid = || (Err(RpcError::protocol(-32602, "Invalid params", None)), 1.0);
    let out = judge_outcomes(vec![invalid(), invalid()], 1000.0);
    assert_eq!(
        ids(&out),
        vec![
            ("latency/summary", Status::Warn),
            ("latency/tool", Status::Warn)
        ]
    );
    assert_eq!(out[1].message, "Tool \"t\" latency not measured: all 2 call(s) failed — first error: MCP error -32602: Invalid params");
    assert_eq!(
        out[0].message,
        "Latency not measured: every measured call failed"
    );

    let rejected = || {
        (
            Err(RpcError::protocol(-32001, "Request timed out", None)),
            0.1,
        )
    };
    assert_eq!(
        judge_outcomes(vec![rejected(), rejected()], 1000.0)[0].status,
        Status::Warn
    );
    let is_err = || (Ok(json!({"content": [], "isError": true})), 0.1);
    let out = judge_outcomes(vec![is_err()], 1000.0);
    assert_eq!(out[0].status, Status::Warn);
    assert!(out[1].message.contains("isError: true"));

    let timeout = || {
        (
            Err(RpcError::plain("Timeout: tool call \"t\" (25ms)")),
            30.0,
        )
    };
    let out = judge_outcomes(vec![timeout(), timeout()], 5.0);
    assert_eq!(out[0].status, Status::Fail);

    // Partial failures: the tool still passes and says how many were excluded.
    let out = judge_outcomes(vec![(Ok(json!({})), 2.0), invalid()], 1000.0);
    assert_eq!(out[1].status, Status::Pass);
    assert!(
        out[1].message.ends_with("(1 failed call(s) excluded)"),
        "{}",
        out[1].message
    );
    assert_eq!(
        out[1].actual,
        Some(
            json!({"min": 2.0, "p50": 2.0, "p95": 2.0, "max": 2.0, "samples": [2.0], "failed": 1})
        )
    );
}

#[test]
fn tool_actual_holds_sorted_unrounded_samples() {
    let out = judge_outcomes(
        vec![
            (Ok(json!({})), 30.5),
            (Ok(json!({})), 10.25),
            (Ok(json!({})), 20.0),
        ],
        1000.0,
    );
    let a = out[1].actual.clone().unwrap();
    assert_eq!(
        (a["min"].clone(), a["p50"].clone(), a["max"].clone()),
        (json!(10.25), json!(20.0), json!(30.5))
    );
    assert!(
        (a["p95"].as_f64().unwrap() - 29.45).abs() < 1e-9,
        "unrounded: {a}"
    );
    assert_eq!(a["samples"], json!([10.25, 20.0, 30.5]));
    assert_eq!(
        out[1].message,
        "Tool \"t\" latency: min=10ms p50=20ms p95=29ms max=31ms"
    );
}

#[test]
fn unnamed_and_duplicate_tools() {
    let policy = LatencyConfig {
        call_all: true,
        ..Default::default()
    };
    let p = plan(
        &Ok(vec![
            json!({"inputSchema": {}}),
            tool("a", Value::Null),
            tool("a", Value::Null),
        ]),
        &policy,
    );
    assert_eq!(calls(&p), vec!["a"]);
    assert_eq!(p.refused.len(), 1);
    assert_eq!(p.refused[0].0, "<tool #1>");
}

// ---- minimal arguments -------------------------------------------------------------

/// Generates, then checks the result independently with the validator.
fn gen_valid(schema: Value) -> Map<String, Value> {
    let args = minimal_args(&schema)
        .unwrap_or_else(|| panic!("no args for {schema}: {:?}", generate_args(&schema)));
    let v = crate::checks::common::compile_schema(&schema).unwrap();
    assert!(
        v.is_valid(&Value::Object(args.clone())),
        "{schema} -> {args:?}"
    );
    assert_eq!(minimal_args(&schema), Some(args.clone()), "deterministic");
    args
}

#[test]
fn minimal_args_spec_defaults() {
    let s = json!({"type": "object", "properties": {
        "s": {"type": "string"}, "n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"},
        "a": {"type": "array"}, "o": {"type": "object"}, "z": {"type": "null"}, "opt": {"type": "string"}
    }, "required": ["s", "n", "i", "b", "a", "o", "z", "undeclared"]});
    assert_eq!(
        gen_valid(s),
        obj(
            json!({"s": "", "n": 0, "i": 0, "b": false, "a": [], "o": {}, "z": null, "undeclared": null})
        )
    );
    assert_eq!(gen_valid(json!({"type": "object"})), Map::new());
    assert_eq!(gen_valid(json!({})), Map::new());
    assert_eq!(minimal_args(&Value::Null), Some(Map::new()));
}

#[test]
fn minimal_args_nested_enum_const() {
    let s = json!({"type": "object", "required": ["filter", "mode", "kind"], "properties": {
        "filter": {"type": "object", "required": ["range"], "properties": {
            "range": {"type": "object", "required": ["from"], "properties": {"from": {"type": "string", "format": "date"}}}}},
        "mode": {"type": "string", "enum": ["fast", "slow"]},
        "kind": {"const": "report"}
    }});
    assert_eq!(
        gen_valid(s),
        obj(json!({"filter": {"range": {"from": "1970-01-01"}}, "mode": "fast", "kind": "report"}))
    );
}

#[test]
fn minimal_args_numeric_bounds() {
    let s = json!({"type": "object", "required": ["a", "b", "c", "d", "e", "f"], "properties": {
        "a": {"type": "integer", "minimum": 1, "maximum": 10},
        "b": {"type": "integer", "exclusiveMinimum": 5},
        "c": {"type": "number", "maximum": -2.5},
        "d": {"type": "integer", "minimum": 3, "multipleOf": 5},
        "e": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "f": {"type": "integer", "minimum": -5, "maximum": 5}
    }});
    assert_eq!(
        gen_valid(s),
        obj(json!({"a": 1, "b": 6, "c": -2.5, "d": 5, "e": 0.5, "f": 0}))
    );
    // Draft 4 boolean exclusivity.
    let s = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["n"],
        "properties": {"n": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}});
    assert_eq!(gen_valid(s), obj(json!({"n": 1})));
    // Impossible bounds: refused, not guessed.
    let s = json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}});
    assert_eq!(minimal_args(&s), None);
}

#[test]
fn minimal_args_strings_and_patterns() {
    let s = json!({"type": "object", "required": ["code", "name", "email", "id", "slug"], "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2,}$"},
        "name": {"type": "string", "minLength": 3},
        "email": {"type": "string", "format": "email"},
        "id": {"type": "string", "format": "uuid"},
        "slug": {"type": "string", "pattern": "^(foo|bar)+[a-z]*$", "minLength": 2}
    }});
    assert_eq!(
        gen_valid(s),
        obj(
            json!({"code": "AAA-00", "name": "aaa", "email": "a@example.com",
        "id": "00000000-0000-0000-0000-000000000000", "slug": "foo"})
        )
    );
}

#[test]
fn minimal_args_arrays() {
    let s = json!({"type": "object", "required": ["tags", "pairs", "ids"], "properties": {
        "tags": {"type": "array", "minItems": 2, "items": {"type": "string", "enum": ["x", "y"]}, "uniqueItems": true},
        "pairs": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}], "minItems": 2},
        "ids": {"type": "array", "minItems": 3, "items": {"type": "integer"}, "uniqueItems": true}
    }});
    assert_eq!(
        gen_valid(s),
        obj(json!({"tags": ["x", "y"], "pairs": [0, false], "ids": [0, 1, 2]}))
    );
}

#[test]
fn minimal_args_combinators_and_refs() {
    let s = json!({"type": "object", "required": ["target", "choice", "both", "ref"], "properties": {
        "target": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "integer"}]},
        "choice": {"oneOf": [{"type": "number"}, {"type": "integer", "minimum": 1}]},
        "both": {"allOf": [{"type": "object", "required": ["a"], "properties": {"a": {"type": "boolean"}}},
                            {"required": ["b"], "properties": {"b": {"const": 1}}}]},
        "ref": {"$ref": "#/$defs/point"}
    }, "$defs": {"point": {"type": "object", "required": ["x"], "properties": {"x": {"type": "number", "minimum": 2}}}}});
    // oneOf: 0 would match only the first branch... and it does (0 < 1), so it is chosen.
    assert_eq!(
        gen_valid(s),
        obj(json!({"target": "aa", "choice": 0, "both": {"a": false, "b": 1}, "ref": {"x": 2}}))
    );
    // oneOf where the first candidate matches both branches: the next distinct one wins.
    let s = json!({"type": "object", "required": ["v"], "properties": {"v": {"oneOf": [{"type": "number"}, {"type": "integer"}, {"type": "string"}]}}});
    assert_eq!(gen_valid(s), obj(json!({"v": ""})));
    // Nullable type arrays take the first listed type.
    let s = json!({"type": "object", "required": ["v"], "properties": {"v": {"type": ["string", "null"]}}});
    assert_eq!(gen_valid(s), obj(json!({"v": ""})));
}

#[test]
fn minimal_args_refuses_what_it_cannot_satisfy() {
    for s in [
        json!({"type": "object", "required": ["x"], "additionalProperties": false}),
        json!({"type": "object", "required": ["x"], "properties": {"x": false}}),
        json!({"type": "object", "required": ["x"], "properties": {"x": {"$ref": "#/$defs/loop"}}, "$defs": {"loop": {"$ref": "#/$defs/loop"}}}),
        json!({"type": "object", "required": ["x"], "properties": {"x": {"type": "string", "pattern": "(?=a)b"}}}),
        json!({"type": "object", "required": ["x"], "properties": {"x": {"type": "array", "minItems": 100000}}}),
        json!("garbage"),
        json!({"type": 12}),
    ] {
        assert_eq!(minimal_args(&s), None, "{s}");
        assert!(!generate_args(&s).unwrap_err().is_empty());
    }
}

/// Pins what fixtures/tables/suites.README.md promises the fixture and test authors.
#[test]
fn suites_fixture_table_default_plan() {
    let tools: Vec<Value> =
        serde_json::from_str(include_str!("../../../fixtures/tables/suites.json")).unwrap();
    let p = plan(&Ok(tools), &LatencyConfig::default());
    assert_eq!(
        p.calls,
        vec![
            ("echo".to_string(), obj(json!({"message": ""}))),
            ("get_forecast".to_string(), obj(json!({"city": "a"}))),
            ("get_item".to_string(), obj(json!({"id": "item-0"}))),
            ("slow_echo".to_string(), obj(json!({"message": ""}))),
            ("get_status".to_string(), Map::new()),
        ]
    );
    let refused: Vec<&str> = p.refused.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        refused,
        vec!["add_numbers", "may_fail", "never_answers", "delete_all"]
    );
}

// --- latency against the baseline (#16 §4) ---

fn ok_calls(ms: &[f64]) -> Vec<Result<f64, String>> {
    ms.iter().map(|x| Ok(*x)).collect()
}

fn base(entries: &[(&str, f64, u64)]) -> crate::surface::latency::PinnedLatency {
    crate::surface::latency::pinned(entries.iter().map(|(n, p95, s)| (*n, *p95, *p95, *s)))
}

#[test]
fn regression_needs_both_the_ratio_and_the_margin() {
    let cfg = RegressionConfig::default();
    // Twice and 50 ms are the limits themselves: not regressions.
    assert!(!regressed(100.0, 200.0, &cfg));
    assert!(regressed(100.0, 200.1, &cfg));
    // Ten times slower but only 9 ms: noise on a fast tool.
    assert!(!regressed(1.0, 10.0, &cfg));
    // 60 ms slower but only 1.2×: a slow tool's ordinary jitter.
    assert!(!regressed(300.0, 360.0, &cfg));
    assert!(regressed(1.0, 201.0, &cfg));
    let strict = RegressionConfig {
        ratio: 1.0,
        min_ms: 0.0,
        warmup: 0,
    };
    assert!(regressed(1.0, 1.01, &strict));
    assert!(!regressed(1.0, 1.0, &strict));
}

#[test]
fn compare_fails_a_slowed_tool_and_passes_the_rest() {
    let pinned = base(&[("fast", 2.0, 5), ("slow", 2.0, 5)]);
    let samples = vec![
        ("fast".to_string(), ok_calls(&[2.0, 3.0, 2.5])),
        ("slow".to_string(), ok_calls(&[201.0, 203.0, 202.0])),
    ];
    let out = compare(&pinned, &samples, &RegressionConfig::default());
    assert_eq!(
        ids(&out),
        [
            ("latency/regression", Status::Pass),
            ("latency/regression", Status::Fail)
        ]
    );
    assert_eq!(
        out[1].message,
        "Tool \"slow\" latency regressed: p95 202.9ms over 3 call(s), baseline p95 2ms over 5 call(s) (more than 2× and 50ms slower)"
    );
    assert_eq!(out[1].location.as_deref(), Some("slow"));
    assert_eq!(
        out[0].message,
        "Tool \"fast\" latency: p95 3ms over 3 call(s), baseline p95 2ms over 5 call(s)"
    );
}

#[test]
fn compare_skips_a_tool_on_one_side_only() {
    let pinned = base(&[("gone", 5.0, 5), ("both", 5.0, 5)]);
    let samples = vec![
        ("new".to_string(), ok_calls(&[1.0])),
        ("both".to_string(), ok_calls(&[5.0])),
        // Every call failed: not measured now, so compared with nothing.
        ("broken".to_string(), vec![Err("boom".into())]),
    ];
    let out = compare(&pinned, &samples, &RegressionConfig::default());
    assert_eq!(
        ids(&out),
        [
            ("latency/regression", Status::Skip),
            ("latency/regression", Status::Pass),
            ("latency/regression", Status::Skip)
        ]
    );
    assert!(out[0]
        .message
        .contains("\"new\" has no latency in the baseline"));
    assert!(out[2]
        .message
        .contains("\"gone\" is in the latency baseline"));
    assert_eq!(
        compare(&Vec::new(), &[], &RegressionConfig::default()),
        vec![]
    );
}

#[test]
fn pin_keeps_measured_tools_sorted_and_rounded() {
    let samples = vec![
        ("z".to_string(), ok_calls(&[1.04, 3.0, 2.0])),
        ("a".to_string(), vec![Err("x".into()), Ok(7.26)]),
        ("failed".to_string(), vec![Err("x".into())]),
    ];
    let p = pin(&samples);
    let names: Vec<&str> = p.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "z"]);
    assert_eq!(
        (p[0].1.p50_ms, p[0].1.p95_ms, p[0].1.samples),
        (7.3, 7.3, 1)
    );
    assert_eq!(
        (p[1].1.p50_ms, p[1].1.p95_ms, p[1].1.samples),
        (2.0, 2.9, 3)
    );
}
