use super::*;
use crate::model::Status;
use crate::observed::RpcError;
use serde_json::json;

fn text_result(t: &str) -> Value {
    json!({"content": [{"type": "text", "text": t}]})
}

fn case(name: &str, expect: Option<CaseExpect>) -> SuiteCase {
    SuiteCase {
        name: name.into(),
        args: Map::new(),
        expect,
    }
}

fn expect() -> CaseExpect {
    CaseExpect::default()
}

fn judge(c: &SuiteCase, listed: Option<&Value>, outcome: CallOutcome) -> Vec<Finding> {
    let v = judge_case("t", c, listed, &outcome, &GoldenState::NotRead, false);
    assert_eq!(v.golden_write, None);
    v.findings
}

/// (id, status, message) of each finding, for exact assertions.
fn brief(fs: &[Finding]) -> Vec<(String, Status, String)> {
    fs.iter()
        .map(|f| (f.id.clone(), f.status, f.message.clone()))
        .collect()
}

fn one(fs: Vec<Finding>) -> Finding {
    assert_eq!(fs.len(), 1, "{fs:#?}");
    fs.into_iter().next().unwrap()
}

fn timeout() -> RpcError {
    RpcError::plain("Timeout: tool call \"t\" (30000ms)")
}

#[test]
fn smoke_case_passes_on_any_result_and_fails_on_throw() {
    let c = case("basic echo", None);
    let f = one(judge(&c, None, Ok(text_result("hello"))));
    assert_eq!(
        (
            f.id.as_str(),
            f.status,
            f.message.as_str(),
            f.location.as_deref()
        ),
        (
            "behavioral/case",
            Status::Pass,
            "Case \"basic echo\" completed without error",
            Some("t/basic echo")
        )
    );
    let f = one(judge(&c, None, Ok(json!({"content": [], "isError": true}))));
    assert_eq!(f.status, Status::Pass);
    let f = one(judge(
        &c,
        None,
        Err(RpcError::protocol(-32602, "Invalid params", None)),
    ));
    assert_eq!(f.status, Status::Fail);
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(
        f.message,
        "Case \"basic echo\" threw unexpected error: MCP error -32602: Invalid params"
    );
}

#[test]
fn timed_out_case_fails_naming_the_timeout() {
    let c = case("slow", Some(expect()));
    let f = one(judge(&c, None, Err(timeout())));
    assert_eq!(f.id, "behavioral/case");
    assert_eq!(f.status, Status::Fail);
    assert_eq!(
        f.message,
        "Case \"slow\" threw unexpected protocol error: Timeout: tool call \"t\" (30000ms)"
    );
    assert_eq!(f.expected, Some(json!("Successful tool call")));
    assert_eq!(f.actual, Some(json!("Timeout: tool call \"t\" (30000ms)")));
    // Smoke cases too.
    let f = one(judge(&case("slow", None), None, Err(timeout())));
    assert!(
        f.message.contains("Timeout: tool call \"t\" (30000ms)"),
        "{}",
        f.message
    );
}

#[test]
fn empty_expect_only_requires_success() {
    let c = case(
        "c",
        Some(CaseExpect {
            output_matches_schema: Some(false),
            ..expect()
        }),
    );
    let f = one(judge(&c, None, Ok(json!({"content": [], "isError": true}))));
    assert_eq!(
        (f.id.as_str(), f.status, f.message.as_str()),
        ("behavioral/case", Status::Pass, "Case \"c\" completed")
    );
}

#[test]
fn tool_is_error() {
    let c = |want: bool| {
        case(
            "c",
            Some(CaseExpect {
                tool_is_error: Some(want),
                ..expect()
            }),
        )
    };
    let ok = json!({"content": [{"type": "text", "text": "Success"}]});
    let err =
        json!({"content": [{"type": "text", "text": "Intentional tool failure"}], "isError": true});
    assert_eq!(
        one(judge(&c(false), None, Ok(ok.clone()))).status,
        Status::Pass
    );
    let f = one(judge(&c(true), None, Ok(err)));
    assert_eq!(
        (f.id.as_str(), f.status, f.message.as_str()),
        (
            "behavioral/tool-is-error",
            Status::Pass,
            "Case \"c\" tool_is_error as expected"
        )
    );
    let f = one(judge(&c(true), None, Ok(ok)));
    assert_eq!(
        (f.status, f.message.as_str()),
        (Status::Fail, "Case \"c\" tool_is_error mismatch")
    );
    assert_eq!(
        (f.expected, f.actual),
        (Some(json!(true)), Some(json!(false)))
    );
    // Only the boolean true counts.
    let f = one(judge(
        &c(false),
        None,
        Ok(json!({"content": [], "isError": "true"})),
    ));
    assert_eq!(f.status, Status::Pass);
}

#[test]
fn protocol_error_code() {
    let c = case(
        "bad",
        Some(CaseExpect {
            protocol_error_code: Some(-32602),
            tool_is_error: Some(true), // ignored in protocol-error mode
            ..expect()
        }),
    );
    let f = one(judge(
        &c,
        None,
        Err(RpcError::protocol(-32602, "Invalid params", None)),
    ));
    assert_eq!(
        (f.id.as_str(), f.status, f.message.as_str()),
        (
            "behavioral/protocol-error",
            Status::Pass,
            "Case \"bad\" got expected protocol error -32602"
        )
    );
    let f = one(judge(&c, None, Ok(json!({"content": [], "isError": true}))));
    assert_eq!(
        (f.status, f.message.as_str()),
        (
            Status::Fail,
            "Case \"bad\" expected protocol error -32602 but call succeeded"
        )
    );
    assert_eq!(
        (f.expected, f.actual),
        (
            Some(json!("Protocol error code -32602")),
            Some(json!("No error"))
        )
    );
    let f = one(judge(
        &c,
        None,
        Err(RpcError::protocol(-32601, "Method not found", None)),
    ));
    assert_eq!(f.status, Status::Fail);
    assert!(
        f.message
            .starts_with("Case \"bad\" wrong protocol error code"),
        "{}",
        f.message
    );
    assert_eq!(
        (f.expected, f.actual),
        (Some(json!(-32602)), Some(json!(-32601)))
    );
    let f = one(judge(&c, None, Err(timeout())));
    assert_eq!(f.actual, Some(json!("unknown")));
}

#[test]
fn jsonpath_pass_fail_and_invalid() {
    let result = json!({"content": [{"type": "text", "text": "hello"}], "isError": false});
    let c = |m: Value| {
        case(
            "c",
            Some(CaseExpect {
                jsonpath: m.as_object().cloned(),
                ..expect()
            }),
        )
    };
    let f = one(judge(
        &c(
            json!({"$.content[0].type": "text", "$.content[0].text": "hello", "$.content": [{"text": "hello", "type": "text"}]}),
        ),
        None,
        Ok(result.clone()),
    ));
    assert_eq!(
        (
            f.id.as_str(),
            f.status,
            f.message.as_str(),
            f.location.as_deref()
        ),
        (
            "behavioral/jsonpath",
            Status::Pass,
            "Case \"c\" JSONPath assertions passed",
            Some("t/c")
        )
    );

    let fs = judge(
        &c(json!({"$.content[0].type": "image", "$.isError": true})),
        None,
        Ok(result.clone()),
    );
    assert_eq!(fs.len(), 2);
    assert_eq!(
        fs[0].message,
        "Case \"c\" JSONPath $.content[0].type mismatch"
    );
    assert_eq!(fs[0].location.as_deref(), Some("t/c:$.content[0].type"));
    assert_eq!(
        (fs[0].expected.clone(), fs[0].actual.clone()),
        (Some(json!("image")), Some(json!("text")))
    );
    assert_eq!(
        (fs[1].expected.clone(), fs[1].actual.clone()),
        (Some(json!(true)), Some(json!(false)))
    );

    // Absent values fail and have no `actual`; invalid paths fail and the run goes on.
    let fs = judge(
        &c(
            json!({"$.missing": null, "$.content[-1]": "x", "nope": 1, "$.content[0].type": "text"}),
        ),
        None,
        Ok(result),
    );
    assert_eq!(brief(&fs), vec![
        ("behavioral/jsonpath".into(), Status::Fail, "Case \"c\" JSONPath $.missing mismatch".into()),
        ("behavioral/jsonpath".into(), Status::Fail, "Case \"c\" JSONPath $.content[-1] is invalid: Negative array indices are not supported: -1".into()),
        ("behavioral/jsonpath".into(), Status::Fail, "Case \"c\" JSONPath nope is invalid: JSONPath must start with $, got: nope".into()),
    ]);
    assert_eq!(fs[0].actual, None);
    assert!(!serde_json::to_string(&fs[0])
        .unwrap()
        .contains("\"actual\""));
}

#[test]
fn deep_equality_rules() {
    assert!(deep_equal(&json!(1), &json!(1.0), 0));
    assert!(!deep_equal(&json!(1), &json!("1"), 0));
    assert!(!deep_equal(&json!(true), &json!("true"), 0));
    assert!(deep_equal(&json!(null), &json!(null), 0));
    assert!(!deep_equal(&json!(null), &json!(0), 0));
    assert!(deep_equal(
        &json!({"a": 1, "b": [1, 2]}),
        &json!({"b": [1, 2.0], "a": 1}),
        0
    ));
    assert!(!deep_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2}), 0));
    assert!(!deep_equal(&json!([1, 2]), &json!([2, 1]), 0));
    assert!(!deep_equal(&json!([1]), &json!([1, 1]), 0));
}

fn schema_tool() -> Value {
    json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 0}, "label": {"type": "string"}},
        "required": ["count"],
        "additionalProperties": false
    }})
}

#[test]
fn output_schema_validates_structured_content() {
    let c = case(
        "c",
        Some(CaseExpect {
            output_matches_schema: Some(true),
            ..expect()
        }),
    );
    let tool = schema_tool();
    let good = json!({"content": [{"type": "text", "text": "{\"count\":3}"}], "structuredContent": {"count": 3}});
    let f = one(judge(&c, Some(&tool), Ok(good)));
    assert_eq!(
        (f.id.as_str(), f.status, f.message.as_str()),
        (
            "behavioral/output-schema",
            Status::Pass,
            "Case \"c\" output matches schema"
        )
    );

    let bad = json!({"content": [], "structuredContent": {"count": -1, "extra": true}});
    let f = one(judge(&c, Some(&tool), Ok(bad)));
    assert_eq!(f.status, Status::Fail);
    assert!(
        f.message
            .starts_with("Case \"c\" output does not match schema: "),
        "{}",
        f.message
    );
    assert_eq!(f.expected, Some(json!("Valid output schema")));
    let errs = f.actual.unwrap();
    let paths: Vec<&str> = errs
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 2, "{errs}");
    assert!(
        paths.contains(&"/count") && paths.contains(&"$"),
        "{paths:?}"
    );

    // DECISIONS #12: declared schema, no structuredContent.
    let f = one(judge(&c, Some(&tool), Ok(text_result("3"))));
    assert_eq!(f.status, Status::Fail);
    assert_eq!(f.message, "Case \"c\" output does not match schema: the result has no structuredContent although the tool declares an outputSchema");

    // DECISIONS #31: skipped on isError results.
    let f = one(judge(
        &c,
        Some(&tool),
        Ok(json!({"content": [], "isError": true})),
    ));
    assert_eq!(f.status, Status::Skip);
    assert!(f.message.contains("isError: true"), "{}", f.message);

    // No outputSchema: nothing to validate against.
    let plain = json!({"name": "t", "inputSchema": {"type": "object"}});
    let f = one(judge(&c, Some(&plain), Ok(text_result("x"))));
    assert_eq!(f.status, Status::Pass);
    assert!(f.message.contains("declares no outputSchema"));
}

#[test]
fn invalid_output_schema_is_a_failure_not_a_panic() {
    let c = case(
        "c",
        Some(CaseExpect {
            output_matches_schema: Some(true),
            ..expect()
        }),
    );
    for schema in [
        json!({"type": 12}),
        json!("nope"),
        json!({"$ref": "https://example.com/x.json"}),
        json!({"pattern": "("}),
    ] {
        let tool = json!({"name": "t", "outputSchema": schema});
        let f = one(judge(&c, Some(&tool), Ok(json!({"structuredContent": {}}))));
        assert_eq!(f.status, Status::Fail, "{schema}");
        assert!(
            f.message.contains("Schema compilation error: "),
            "{}",
            f.message
        );
        assert_eq!(f.actual.as_ref().unwrap()[0]["path"], json!("$"));
    }
}

#[test]
fn expectations_run_in_order_and_all_are_checked() {
    let tool = schema_tool();
    let c = case(
        "c",
        Some(CaseExpect {
            tool_is_error: Some(true),
            output_matches_schema: Some(true),
            jsonpath: json!({"$.structuredContent.count": 2}).as_object().cloned(),
            golden: Some("g.json".into()),
            protocol_error_code: None,
        }),
    );
    let r = json!({"content": [], "structuredContent": {"count": 3}});
    let v = judge_case("t", &c, Some(&tool), &Ok(r), &GoldenState::Missing, false);
    let ids: Vec<(&str, Status)> = v
        .findings
        .iter()
        .map(|f| (f.id.as_str(), f.status))
        .collect();
    assert_eq!(
        ids,
        vec![
            ("behavioral/tool-is-error", Status::Fail),
            ("behavioral/output-schema", Status::Pass),
            ("behavioral/jsonpath", Status::Fail),
            ("behavioral/golden", Status::Fail),
        ]
    );
}

fn golden_case() -> SuiteCase {
    case(
        "echoes hello",
        Some(CaseExpect {
            golden: Some("golden/echo.json".into()),
            ..expect()
        }),
    )
}

fn run_golden(result: &Value, state: GoldenState, update: bool) -> (Finding, Option<String>) {
    let v = judge_case(
        "echo",
        &golden_case(),
        None,
        &Ok(result.clone()),
        &state,
        update,
    );
    (one(v.findings), v.golden_write)
}

#[test]
fn golden_lifecycle() {
    let hello = json!({"content": [{"type": "text", "text": "hello"}], "_meta": {"t": 1}});
    // Missing: fails, nothing to write.
    let (f, w) = run_golden(&hello, GoldenState::Missing, false);
    assert_eq!((f.status, w), (Status::Fail, None));
    assert_eq!(f.message, "Case \"echoes hello\" golden file not found: golden/echo.json (run with --update-golden to create it)");
    assert_eq!(
        (f.expected.clone(), f.actual.clone()),
        (
            Some(json!("golden/echo.json")),
            Some(json!("file not found"))
        )
    );
    // Update mode: pass and the text to write.
    let (f, w) = run_golden(&hello, GoldenState::NotRead, true);
    assert_eq!(
        (f.status, f.message.as_str()),
        (
            Status::Pass,
            "Case \"echoes hello\" golden snapshot written to golden/echo.json"
        )
    );
    let text = w.expect("update mode returns the text");
    assert_eq!(text, "{\n  \"content\": [\n    {\n      \"text\": \"hello\",\n      \"type\": \"text\"\n    }\n  ],\n  \"isError\": false\n}\n");
    // Normal run against the written text: pass.
    let (f, w) = run_golden(&hello, GoldenState::Present(text.clone()), false);
    assert_eq!(
        (f.status, f.message.as_str(), w),
        (
            Status::Pass,
            "Case \"echoes hello\" matches golden snapshot",
            None
        )
    );
    // The tool's output changes: fail, expected = file, actual = pinned result.
    let bye = json!({"content": [{"type": "text", "text": "goodbye"}]});
    let (f, _) = run_golden(&bye, GoldenState::Present(text.clone()), false);
    assert_eq!(f.status, Status::Fail);
    assert_eq!(f.message, "Case \"echoes hello\" output differs from golden snapshot golden/echo.json (re-run with --update-golden if the change is intended)");
    assert!(f.expected.unwrap().to_string().contains("hello"));
    assert!(f.actual.unwrap().to_string().contains("goodbye"));
    // Update, then pass again.
    let (_, w) = run_golden(&bye, GoldenState::NotRead, true);
    let (f, _) = run_golden(&bye, GoldenState::Present(w.unwrap()), false);
    assert_eq!(f.status, Status::Pass);
}

#[test]
fn golden_ignores_key_order_and_formatting_only() {
    let hello = json!({"content": [{"type": "text", "text": "hello"}]});
    let reversed = r#"{"isError":false,"content":[{"type":"text","text":"hello"}]}"#;
    assert_eq!(
        run_golden(&hello, GoldenState::Present(reversed.into()), false)
            .0
            .status,
        Status::Pass
    );
    let edited = r#"{"isError":false,"content":[{"type":"text","text":"goodbye"}]}"#;
    let (f, _) = run_golden(&hello, GoldenState::Present(edited.into()), false);
    assert_eq!(f.status, Status::Fail);
    assert!(f.expected.unwrap().to_string().contains("goodbye"));
    assert!(f.actual.unwrap().to_string().contains("hello"));
    let is_err = json!({"content": [{"type": "text", "text": "hello"}], "isError": true});
    assert_eq!(
        run_golden(&is_err, GoldenState::Present(reversed.into()), false)
            .0
            .status,
        Status::Fail
    );
    let numbers = json!({"content": [], "structuredContent": {"n": 1.0}});
    let file = r#"{"content":[],"isError":false,"structuredContent":{"n":1}}"#;
    assert_eq!(
        run_golden(&numbers, GoldenState::Present(file.into()), false)
            .0
            .status,
        Status::Pass
    );
}

#[test]
fn golden_invalid_or_unreadable_file() {
    let hello = text_result("hello");
    let (f, _) = run_golden(&hello, GoldenState::Present("not json".into()), false);
    assert_eq!(f.status, Status::Fail);
    assert_eq!(
        f.message,
        "Case \"echoes hello\" golden file is not valid JSON: golden/echo.json"
    );
    assert!(f.actual.unwrap().as_str().unwrap().contains("expected"));
    let (f, _) = run_golden(
        &hello,
        GoldenState::Unreadable("Permission denied".into()),
        false,
    );
    assert_eq!(
        (f.status, f.actual),
        (Status::Fail, Some(json!("Permission denied")))
    );
}

#[test]
fn golden_write_failure_replacement() {
    let f = golden_write_failed("echo", &golden_case(), "Read-only file system");
    assert_eq!(
        (f.id.as_str(), f.status),
        ("behavioral/golden", Status::Fail)
    );
    assert_eq!(f.message, "Case \"echoes hello\" golden snapshot could not be written to golden/echo.json: Read-only file system");
    assert_eq!(f.location.as_deref(), Some("echo/echoes hello"));
}

#[test]
fn golden_paths_resolve_against_the_config_dir() {
    assert_eq!(
        golden_path(Some(Path::new("/cfg")), "golden/a.json"),
        PathBuf::from("/cfg/golden/a.json")
    );
    assert_eq!(
        golden_path(Some(Path::new("/cfg")), "/abs/a.json"),
        PathBuf::from("/abs/a.json")
    );
    assert_eq!(
        golden_path(None, "golden/a.json"),
        PathBuf::from("golden/a.json")
    );
}

#[test]
fn plan_and_finish() {
    let listing: Listing = Ok(vec![
        json!({"name": "echo", "description": "old"}),
        json!({"name": 5}),
        json!({"name": "echo", "description": "new"}),
    ]);
    let suites = vec![
        Suite {
            tool: "nonexistent_tool".into(),
            cases: vec![case("x", None)],
        },
        Suite {
            tool: "echo".into(),
            cases: vec![case("a", None), case("b", None)],
        },
    ];
    let steps = plan(&listing, &suites).unwrap();
    assert_eq!(steps.len(), 3);
    match &steps[0] {
        Step::Report(f) => {
            assert_eq!(
                (
                    f.id.as_str(),
                    f.status,
                    f.message.as_str(),
                    f.location.as_deref()
                ),
                (
                    "behavioral/tool-exists",
                    Status::Fail,
                    "Tool \"nonexistent_tool\" not found on server",
                    Some("nonexistent_tool")
                )
            );
        }
        other => panic!("{other:?}"),
    }
    match &steps[2] {
        Step::Call { tool, case, listed } => {
            assert_eq!((*tool, case.name.as_str()), ("echo", "b"));
            assert_eq!(listed["description"], json!("new"), "last duplicate wins");
        }
        other => panic!("{other:?}"),
    }
    // Empty suites: nothing at all, not even for a failed listing.
    assert!(plan(&Err("boom".into()), &[]).unwrap().is_empty());
    assert!(finish(Vec::new()).is_empty());
    let err = plan(&Err("boom".into()), &suites).unwrap_err();
    assert_eq!(
        (err.id.as_str(), err.message.as_str()),
        ("behavioral/list-tools", "Failed to list tools: boom")
    );

    let out = finish(vec![
        Finding::pass("behavioral/case", "a"),
        Finding::skip("behavioral/output-schema", "b"),
    ]);
    assert_eq!(
        (out[0].id.as_str(), out[0].status, out[0].message.as_str()),
        (
            "behavioral/summary",
            Status::Pass,
            "All 2 behavioral tests passed"
        )
    );
    let out = finish(vec![
        Finding::pass("behavioral/case", "a"),
        Finding::fail("behavioral/case", "b"),
        Finding::fail("behavioral/jsonpath", "c"),
    ]);
    assert_eq!(
        (out[0].status, out[0].severity, out[0].message.as_str()),
        (
            Status::Fail,
            Severity::Error,
            "2 of 3 behavioral tests failed"
        )
    );
    assert_eq!(out.len(), 4);
}

#[test]
fn hostile_results_never_panic() {
    let mut deep = json!(1);
    for _ in 0..300 {
        deep = json!([deep]);
    }
    let c = case(
        "c",
        Some(CaseExpect {
            tool_is_error: Some(false),
            output_matches_schema: Some(true),
            jsonpath: json!({"$..x": 1, "$[0][0][0]": [1], "$.content[*]": []})
                .as_object()
                .cloned(),
            golden: Some("g".into()),
            protocol_error_code: None,
        }),
    );
    let tool = json!({"name": "t", "outputSchema": {"type": "object"}});
    for r in [
        json!("str"),
        json!(null),
        json!({"content": "x", "isError": 1}),
        json!({"structuredContent": deep.clone()}),
        deep,
    ] {
        let v = judge_case(
            "t",
            &c,
            Some(&tool),
            &Ok(r.clone()),
            &GoldenState::Present("[]".into()),
            false,
        );
        assert_eq!(v.findings[0].id, "behavioral/tool-is-error", "{r}");
        assert_eq!(v.findings.last().unwrap().id, "behavioral/golden", "{r}");
        let _ = golden_text(&r);
    }
}

#[test]
fn schema_dialect_follows_dollar_schema() {
    // Draft 4 boolean exclusiveMinimum compiles only when $schema is honoured.
    let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": 0, "exclusiveMinimum": true});
    let v = compile_schema(&d4).unwrap();
    assert!(!v.is_valid(&json!(0)) && v.is_valid(&json!(1)));
    // No $schema: 2020-12 (prefixItems applies). Unknown $schema: 2020-12 too.
    for s in [
        json!({"prefixItems": [{"type": "string"}]}),
        json!({"$schema": "https://example.com/custom", "prefixItems": [{"type": "string"}]}),
    ] {
        let v = compile_schema(&s).unwrap();
        assert!(!v.is_valid(&json!([1])), "{s}");
    }
}

/// The committed golden files of fixtures/configs/suites.yaml are exactly what
/// `--update-golden` writes for the replies fixtures/tables/suites.README.md describes.
#[test]
fn example_golden_files_match_the_fixture_replies() {
    let echo = json!({"content": [{"type": "text", "text": "hello"}]});
    assert_eq!(
        golden_text(&echo),
        include_str!("../../../fixtures/configs/golden/echo-hello.json")
    );
    let forecast = json!({
        "content": [{"type": "text", "text": "{\"city\":\"Oslo\",\"temperatureC\":21,\"conditions\":\"sunny\"}"}],
        "structuredContent": {"city": "Oslo", "temperatureC": 21, "conditions": "sunny"}
    });
    assert_eq!(
        golden_text(&forecast),
        include_str!("../../../fixtures/configs/golden/forecast-oslo.json")
    );
    // And the forecast reply satisfies the table's outputSchema.
    let tools: Vec<Value> =
        serde_json::from_str(include_str!("../../../fixtures/tables/suites.json")).unwrap();
    let listed = tools.iter().find(|t| t["name"] == "get_forecast").unwrap();
    let c = case(
        "c",
        Some(CaseExpect {
            output_matches_schema: Some(true),
            ..expect()
        }),
    );
    assert_eq!(
        one(judge(&c, Some(listed), Ok(forecast))).status,
        Status::Pass
    );
    let wrong = json!({"content": [], "structuredContent": {"city": "Oslo", "temperatureC": "warm", "conditions": "sunny"}});
    assert_eq!(one(judge(&c, Some(listed), Ok(wrong))).status, Status::Fail);
}
