//! Behavioral suites and latency budgets end to end against the `suites` fixture table.

mod common;
use common::*;
use serde_json::Value;

const BASE: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 1500\n  run_ms: 60000\nchecks:\n  compliance: false\n  schema: false\n  security: false\n  errors: false\n  collision:\n    enabled: false\n";

fn suites_cfg(tag: &str, record: &str, extra: &str) -> String {
    stdio_config(
        &["--tools", "suites", "--record", record],
        tag,
        &format!("{BASE}{extra}"),
    )
}

fn results(r: &Value) -> Vec<Value> {
    r["results"].as_array().unwrap().clone()
}

fn find<'a>(rs: &'a [Value], id: &str, loc: &str) -> Vec<&'a Value> {
    rs.iter()
        .filter(|x| x["id"] == id && x["location"] == loc)
        .collect()
}

/// Every `tools/call` name the fixture recorded.
fn called(record: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            let m = v.get("message").cloned().unwrap_or(v);
            (m["method"] == "tools/call")
                .then(|| m["params"]["name"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn each_expectation_kind_passes_and_fails_for_the_right_reason() {
    let w = Workdir::new();
    let tag = unique_tag("suites");
    let rec = w.path().join("rec.jsonl");
    let suites = r#"suites:
  - tool: echo
    cases:
      - name: is-error-ok
        args: { message: hi }
        expect: { tool_is_error: false }
      - name: is-error-wrong
        args: { message: hi }
        expect: { tool_is_error: true }
      - name: jsonpath-ok
        args: { message: hi }
        expect: { jsonpath: { "$.content[0].text": hi } }
      - name: jsonpath-wrong
        args: { message: hi }
        expect: { jsonpath: { "$.content[0].text": bye } }
      - name: jsonpath-invalid
        args: { message: hi }
        expect: { jsonpath: { "$.content[": x } }
  - tool: get_item
    cases:
      - name: code-ok
        args: { id: nope }
        expect: { protocol_error_code: -32602 }
      - name: code-wrong
        args: { id: nope }
        expect: { protocol_error_code: -32601 }
  - tool: get_forecast
    cases:
      - name: schema-ok
        args: { city: Oslo }
        expect: { output_matches_schema: true }
      - name: schema-wrong-type
        args: { city: Oslo, mode: wrong_type }
        expect: { output_matches_schema: true }
      - name: schema-missing-structured
        args: { city: Oslo, mode: no_structured }
        expect: { output_matches_schema: true }
  - tool: never_answers
    cases:
      - name: times-out
        expect: { tool_is_error: false }
  - tool: get_status
    cases:
      - name: runs-after-timeout
        expect: { tool_is_error: false }
  - tool: no_such_tool
    cases:
      - name: x
"#;
    w.write(
        "mcpward.yaml",
        &suites_cfg(&tag, &rec.display().to_string(), suites),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let rs = results(&json_report(&o));
    let status_of = |loc: &str| -> Vec<String> {
        rs.iter()
            .filter(|x| {
                x["location"]
                    .as_str()
                    .unwrap_or("")
                    .contains(&format!("/{loc}"))
            })
            .map(|x| {
                format!(
                    "{} {}",
                    x["id"].as_str().unwrap(),
                    x["status"].as_str().unwrap()
                )
            })
            .collect()
    };
    let expect_status = |loc: &str, status: &str| {
        let s = status_of(loc);
        assert!(!s.is_empty(), "no result for {loc}: {rs:#?}");
        assert!(
            s.iter().any(|x| x.ends_with(status)),
            "{loc}: wanted a {status}, got {s:?}"
        );
        if status == "pass" {
            assert!(!s.iter().any(|x| x.ends_with("fail")), "{loc}: {s:?}");
        }
    };
    expect_status("is-error-ok", "pass");
    expect_status("is-error-wrong", "fail");
    expect_status("jsonpath-ok", "pass");
    expect_status("jsonpath-wrong", "fail");
    expect_status("jsonpath-invalid", "fail");
    expect_status("code-ok", "pass");
    expect_status("code-wrong", "fail");
    expect_status("schema-ok", "pass");
    expect_status("schema-wrong-type", "fail");
    expect_status("schema-missing-structured", "fail");
    expect_status("times-out", "fail");
    expect_status("runs-after-timeout", "pass");
    let text = serde_json::to_string(&rs).unwrap();
    assert!(
        text.contains("Timeout: tool call \\\"never_answers\\\" (1500ms)"),
        "{text}"
    );
    assert!(text.contains("$.content["), "invalid JSONPath named");
    assert!(!find(&rs, "behavioral/tool-exists", "no_such_tool").is_empty());
    assert!(called(&rec).contains(&"get_status".to_string()));
}

#[test]
fn golden_create_pass_change_fail_update_pass() {
    let w = Workdir::new();
    let tag = unique_tag("golden");
    let rec = w.path().join("rec.jsonl");
    let suite = |msg: &str| {
        format!(
            "suites:\n  - tool: echo\n    cases:\n      - name: g\n        args: {{ message: {msg} }}\n        expect: {{ golden: golden/echo.json }}\n"
        )
    };
    let recs = rec.display().to_string();
    w.write("mcpward.yaml", &suites_cfg(&tag, &recs, &suite("one")));
    // Missing golden file: fail.
    assert_eq!(w.run(&["run", "--json"]).status.code(), Some(1));
    // Create.
    let o = w.run(&["run", "--json", "--update-golden"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let golden = w.path().join("golden/echo.json");
    let first = std::fs::read_to_string(&golden).unwrap();
    assert!(first.contains("one"));
    // Pass.
    assert_eq!(w.run(&["run", "--json"]).status.code(), Some(0));
    // Change → fail, and the file is untouched.
    w.write("mcpward.yaml", &suites_cfg(&tag, &recs, &suite("two")));
    assert_eq!(w.run(&["run", "--json"]).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), first);
    // Update → pass.
    assert_eq!(
        w.run(&["run", "--json", "--update-golden"]).status.code(),
        Some(0)
    );
    assert!(std::fs::read_to_string(&golden).unwrap().contains("two"));
    assert_eq!(w.run(&["run", "--json"]).status.code(), Some(0));
}

fn latency_run(budget: u32, extra_latency: &str) -> (Value, Vec<String>) {
    let w = Workdir::new();
    let tag = unique_tag("latency");
    let rec = w.path().join("rec.jsonl");
    let cfg = suites_cfg(
        &tag,
        &rec.display().to_string(),
        &format!("  latency:\n    samples: 2\n    p95_budget_ms: {budget}\n{extra_latency}"),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{}",
        stderr(&o)
    );
    (json_report(&o), called(&rec))
}

#[test]
fn latency_budget_fails_and_passes() {
    let only_slow = "    call_readonly: false\n    tools:\n      - name: slow_echo\n        args: { message: x, delay_ms: 300 }\n";
    let (r, calls) = latency_run(100, only_slow);
    let rs = results(&r);
    // The budget is enforced by the pooled summary; latency/tool is informational.
    let tool = find(&rs, "latency/tool", "slow_echo");
    assert_eq!(tool.len(), 1, "{rs:#?}");
    let summary: Vec<&Value> = rs.iter().filter(|x| x["id"] == "latency/summary").collect();
    assert_eq!(summary[0]["status"], "fail", "{rs:#?}");
    assert_eq!(calls.iter().filter(|c| *c == "slow_echo").count(), 2);
    let (r, _) = latency_run(1000, only_slow);
    let rs = results(&r);
    assert_eq!(find(&rs, "latency/tool", "slow_echo")[0]["status"], "pass");
    let summary: Vec<&Value> = rs.iter().filter(|x| x["id"] == "latency/summary").collect();
    assert_eq!(summary[0]["status"], "pass", "{rs:#?}");
}

#[test]
fn destructive_tool_is_never_called_unless_allowed() {
    // Default policy: read-only tools only (slow_echo is read-only but slow; keep it quick).
    let (r, calls) = latency_run(5000, "");
    assert!(!calls.iter().any(|c| c == "delete_all"), "{calls:?}");
    assert!(
        !calls
            .iter()
            .any(|c| c == "never_answers" || c == "add_numbers"),
        "{calls:?}"
    );
    let text = serde_json::to_string(&r["results"]).unwrap();
    assert!(text.contains("latency/sampling"));
    assert!(text.contains("delete_all"), "the refusal names the tool");
    // Allowlisted: called.
    let (_, calls) = latency_run(
        5000,
        "    call_readonly: false\n    tools:\n      - name: delete_all\n        args: { confirm: false }\n",
    );
    assert_eq!(calls.iter().filter(|c| *c == "delete_all").count(), 2);
}
