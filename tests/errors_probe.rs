//! Probes that cannot hurt (#16 §6) end to end: under `checks.errors.probe: safe` (and for a
//! `checks.errors.skip` glob) the destructive `delete_all` of the `suites` fixture never
//! receives the error-contract probe's `{}` call (the fixture's call log proves it), and it
//! is reported as a skip; under `all` (the default) it is called, as in the original.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

const CHECKS: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 3000\n  run_ms: 60000\nchecks:\n  compliance: false\n  schema: false\n  security: false\n  collision:\n    enabled: false\n";

/// The names of every `tools/call` the fixture received.
fn called(record: &Path) -> Vec<String> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["message"]["method"] == "tools/call")
        .map(|v| {
            v["message"]["params"]["name"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

fn run(errors: &str) -> (Value, Vec<String>) {
    let w = Workdir::new();
    let tag = unique_tag("errors-probe");
    let rec = w.path().join("rec.jsonl");
    let recs = rec.display().to_string();
    let cfg = stdio_config(
        &["--tools", "suites", "--record", &recs],
        &tag,
        &format!("{CHECKS}{errors}"),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    (json_report(&o), called(&rec))
}

fn skip_of<'a>(report: &'a Value, tool: &str) -> Option<&'a Value> {
    report["results"].as_array().unwrap().iter().find(|r| {
        r["id"] == "errors/invalid-params" && r["location"] == tool && r["status"] == "skip"
    })
}

#[test]
fn probe_all_calls_the_destructive_tool_as_the_original_does() {
    for errors in ["", "  errors: {probe: all}\n"] {
        let (report, calls) = run(errors);
        assert!(calls.iter().any(|c| c == "delete_all"), "{calls:?}");
        assert!(skip_of(&report, "delete_all").is_none());
    }
}

#[test]
fn probe_safe_never_calls_a_tool_that_may_have_side_effects() {
    let (report, calls) = run("  errors: {probe: safe}\n");
    assert!(!calls.iter().any(|c| c == "delete_all"), "{calls:?}");
    // Not annotated read-only: kept away too.
    assert!(!calls.iter().any(|c| c == "add_numbers"), "{calls:?}");
    // Read-only tools and the unknown-tool probe are still called.
    assert!(calls.iter().any(|c| c == "echo"), "{calls:?}");
    assert!(calls.iter().any(|c| c == "__mcpward_unknown_tool__"));
    let skip = skip_of(&report, "delete_all").expect("a skip for delete_all");
    assert_eq!(
        skip["message"],
        "Tool \"delete_all\" not called with {}: checks.errors.probe is safe and it is not annotated readOnlyHint: true, so it may have side effects"
    );
}

#[test]
fn a_skip_glob_keeps_the_probe_away_under_all() {
    let (report, calls) = run("  errors: {skip: [\"delete_*\"]}\n");
    assert!(!calls.iter().any(|c| c == "delete_all"), "{calls:?}");
    assert!(calls.iter().any(|c| c == "add_numbers"), "{calls:?}");
    let skip = skip_of(&report, "delete_all").expect("a skip for delete_all");
    assert!(skip["message"]
        .as_str()
        .unwrap()
        .ends_with("matches checks.errors.skip entry \"delete_*\""));
}
