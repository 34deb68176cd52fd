//! Accepted findings that expire and go stale (#16 §3), end to end against the fixture
//! server: a tools file whose only failing result is `schema/tool-name` at `bad name`.

mod common;
mod sarif_github;

use common::*;
use serde_json::Value;
use std::process::{Command, Output, Stdio};

const ONLY_SCHEMA: &str = "checks:\n  compliance: false\n  security: false\n  errors: false\n";
const TOOLS: &str = r#"[{"name":"bad name","description":"Says hello.","inputSchema":{"type":"object","properties":{}}},{"name":"ok_tool","description":"Fine tool.","inputSchema":{"type":"object","properties":{}}}]"#;

/// A workdir whose config tests the tools file, plus `extra` YAML after the checks.
fn setup(extra: &str) -> Workdir {
    let w = Workdir::new();
    let tools = w.write("tools.json", TOOLS);
    let tag = unique_tag("suppress");
    let cfg = stdio_config(
        &["--tools-file", tools.to_str().unwrap()],
        &tag,
        &format!("{ONLY_SCHEMA}{extra}"),
    );
    w.write("mcpward.yaml", &cfg);
    w
}

/// `mcpward args…` in `w` with today's date fixed.
fn run_on(w: &Workdir, today: &str, args: &[&str]) -> Output {
    Command::new(mcpward())
        .args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env("MCPWARD_TODAY", today)
        .env_remove("CI")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn result<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {report:#}"))
}

fn has(report: &Value, id: &str) -> bool {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["id"] == id)
}

/// The report validates against schemas/report.v1.schema.json.
fn assert_report_schema(report: &Value) {
    let path = format!(
        "{}/schemas/report.v1.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

const ENTRY: &str = "suppress:\n  - rule: schema/tool-name\n    location: \"bad*\"\n    reason: \"legacy name, clients depend on it\"\n    expires: 2026-06-30\n";

#[test]
fn without_a_suppression_the_fixture_fails_and_the_report_has_no_suppressed_member() {
    let w = setup("");
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(!text.contains("suppress"), "{text}");
    assert_eq!(
        result(&json_report(&o), "schema/tool-name")["status"],
        "fail"
    );
}

#[test]
fn a_glob_entry_suppresses_the_finding_in_json_junit_and_sarif_and_the_run_passes() {
    let w = setup(ENTRY);
    let o = run_on(&w, "2026-06-30", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json_report(&o);
    let r = result(&report, "schema/tool-name");
    assert_eq!(r["status"], "suppressed");
    assert_eq!(r["severity"], "error");
    assert_eq!(r["location"], "bad name");
    assert_eq!(
        r["suppression"],
        serde_json::json!({"reason": "legacy name, clients depend on it", "expires": "2026-06-30"})
    );
    assert_eq!(report["summary"]["suppressed"], 1);
    assert_eq!(report["summary"]["failed"], 0);
    assert!(!has(&report, "config/suppression-stale"));
    assert_report_schema(&report);

    let o = run_on(&w, "2026-06-30", &["run", "--reporter", "junit"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let xml = String::from_utf8(o.stdout).unwrap();
    assert!(
        xml.contains("<skipped message=\"suppressed: legacy name, clients depend on it\"/>"),
        "{xml}"
    );
    assert!(!xml.contains("<failure"), "{xml}");

    let o = run_on(&w, "2026-06-30", &["run", "--reporter", "sarif"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc = String::from_utf8(o.stdout).unwrap();
    assert!(sarif_github::schema_problems(&doc).is_empty(), "{doc}");
    assert!(sarif_github::github_problems(&doc).is_empty(), "{doc}");
    let v: Value = serde_json::from_str(&doc).unwrap();
    let rs = v["runs"][0]["results"].as_array().unwrap();
    let alert = rs
        .iter()
        .find(|r| r["ruleId"] == "schema-tool-name")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(alert["level"], "error");
    assert_eq!(
        alert["suppressions"],
        serde_json::json!([{"kind": "external", "status": "accepted", "justification": "legacy name, clients depend on it"}])
    );

    let o = run_on(&w, "2026-06-30", &["run"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("1 suppressed"), "{out}");
    assert!(
        out.contains("suppressed: legacy name, clients depend on it (until 2026-06-30)"),
        "{out}"
    );
}

#[test]
fn an_entry_past_its_expiry_no_longer_suppresses_and_fails() {
    let w = setup(ENTRY);
    let o = run_on(&w, "2026-07-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = json_report(&o);
    assert_eq!(result(&report, "schema/tool-name")["status"], "fail");
    let e = result(&report, "config/suppression-expired");
    assert_eq!(e["status"], "fail");
    let msg = e["message"].as_str().unwrap();
    for part in ["suppress[0]", "schema/tool-name", "\"bad*\"", "2026-06-30"] {
        assert!(msg.contains(part), "{part}: {msg}");
    }
    assert!(!has(&report, "config/suppression-stale"));
    assert_report_schema(&report);
}

#[test]
fn an_entry_that_matches_nothing_is_stale_a_warning_and_fails_with_strict() {
    let stale = format!(
        "{ENTRY}  - rule: schema/tool-name\n    location: ok_tool\n    reason: was bad once\n"
    );
    let w = setup(&stale);
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json_report(&o);
    let s = result(&report, "config/suppression-stale");
    assert_eq!(s["status"], "warn");
    assert_eq!(s["location"], "suppress[1]");
    assert!(s["message"].as_str().unwrap().contains("ok_tool"), "{s}");
    let o = run_on(&w, "2026-01-01", &["run", "--json", "--strict"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        result(&json_report(&o), "config/suppression-stale")["status"],
        "fail"
    );
    // A family that did not run cannot judge its entries: `diff` runs drift only.
    w.write(
        "mcpward.yaml",
        &std::fs::read_to_string(w.path().join("mcpward.yaml"))
            .unwrap()
            .replace("checks:\n", "checks:\n  drift: {}\n"),
    );
    let o = run_on(&w, "2026-01-01", &["baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_on(&w, "2026-01-01", &["diff", "--json", "--strict"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!has(&json_report(&o), "config/suppression-stale"));
}

#[test]
fn the_committed_file_is_read_next_to_the_config_and_concatenated() {
    let w =
        setup("suppress:\n  - rule: schema/tool-description\n    location: \"*\"\n    reason: r\n");
    std::fs::create_dir(w.path().join("sub")).unwrap();
    w.write(
        "mcpward.suppress.yaml",
        "# accepted\n- rule: schema/tool-name\n  location: bad name\n  reason: exact match\n",
    );
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json_report(&o);
    assert_eq!(
        result(&report, "schema/tool-name")["suppression"]["reason"],
        "exact match"
    );
    // The config's entry comes first and matched nothing.
    assert_eq!(
        result(&report, "config/suppression-stale")["location"],
        "suppress[0]"
    );
}

#[test]
fn bad_entries_are_config_errors_naming_the_entry_and_field() {
    let cases = [
        ("suppress:\n  - rule: schema/tool-name\n    location: x\n", "suppress[0].reason: required"),
        ("suppress:\n  - rule: schema/tool-name\n    location: x\n    reason: \"  \"\n", "suppress[0].reason: must not be empty"),
        ("suppress:\n  - rule: schema/tool-name\n    location: x\n    reason: r\n    expires: 2026-02-30\n", "suppress[0].expires: expected a date YYYY-MM-DD"),
        ("suppress:\n  - rule: schema/tool-name\n    location: x\n    reason: r\n    expirse: 2026-02-01\n", "suppress[0].expirse: unknown key (did you mean \"expires\"?)"),
        ("suppress:\n  - rule: schema/tool-nam\n    location: x\n    reason: r\n", "suppress[0].rule: unknown rule id \"schema/tool-nam\" (did you mean \"schema/tool-name\"?)"),
        ("suppress:\n  - rule: schema/tool-name\n    location: x\n    reason: r\n    server: api\n", "suppress[0].server: names a fleet member"),
    ];
    for (yaml, want) in cases {
        let w = setup(yaml);
        let o = run_on(&w, "2026-01-01", &["run"]);
        assert_eq!(o.status.code(), Some(2), "{yaml}");
        assert!(stderr(&o).contains(want), "{want}: {}", stderr(&o));
    }
    let w = setup("");
    w.write(
        "mcpward.suppress.yaml",
        "- rule: schema/tool-name\n  location: x\n",
    );
    let o = run_on(&w, "2026-01-01", &["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("mcpward.suppress.yaml[0].reason: required"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_suppress_command_creates_then_appends_and_validates() {
    let w = setup("");
    let o = run_on(
        &w,
        "2026-01-01",
        &[
            "suppress",
            "schema/tool-name",
            "bad name",
            "--reason",
            "accepted in review #12",
            "--expires",
            "2027-01-31",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains("schema/tool-name") && out.contains("mcpward.suppress.yaml"),
        "{out}"
    );
    let first = std::fs::read_to_string(w.path().join("mcpward.suppress.yaml")).unwrap();
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        result(&json_report(&o), "schema/tool-name")["status"],
        "suppressed"
    );

    // A hand edit (comment, no final newline) is kept byte for byte.
    let edited = format!("{first}# keep me");
    w.write("mcpward.suppress.yaml", &edited);
    let o = run_on(
        &w,
        "2026-01-01",
        &[
            "suppress",
            "schema/tool-description",
            "ok_*",
            "--reason",
            "second",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let second = std::fs::read_to_string(w.path().join("mcpward.suppress.yaml")).unwrap();
    assert!(second.starts_with(&edited), "{second}");
    assert!(second.contains("location: \"ok_*\""), "{second}");

    for (args, want) in [
        (
            vec!["suppress", "schema/tool-nam", "x", "--reason", "r"],
            "did you mean \"schema/tool-name\"",
        ),
        (
            vec![
                "suppress",
                "schema/tool-name",
                "x",
                "--reason",
                "r",
                "--expires",
                "2027-13-01",
            ],
            "--expires",
        ),
        (
            vec!["suppress", "schema/tool-name", "x", "--reason", ""],
            "must not be empty",
        ),
    ] {
        let o = run_on(&w, "2026-01-01", &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{want}: {}", stderr(&o));
    }
    let o = run_on(&w, "2026-01-01", &["suppress", "schema/tool-name", "x"]);
    assert_eq!(o.status.code(), Some(2), "--reason is required");
    assert_eq!(
        std::fs::read_to_string(w.path().join("mcpward.suppress.yaml")).unwrap(),
        second,
        "a refused entry leaves the file alone"
    );
}

fn fleet(w: &Workdir, extra: &str) {
    let tools = w.write("tools.json", TOOLS);
    let tag = unique_tag("suppress-fleet");
    let member = |name: &str| {
        format!(
            "  {name}:\n    transport: stdio\n    command: {:?}\n    args: [\"--tools-file\", {:?}]\n    env:\n      MCPWARD_TEST_TAG: {tag:?}\n    protocol_era: legacy\n",
            fixture().display().to_string(),
            tools.display().to_string()
        )
    };
    w.write(
        "mcpward.yaml",
        &format!(
            "servers:\n{}{}checks:\n  compliance: false\n  security: false\n  errors: false\n  collision:\n    enabled: false\n{extra}",
            member("api"),
            member("db")
        ),
    );
}

fn member_result<'a>(doc: &'a Value, server: &str, id: &str) -> &'a Value {
    let m = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == server)
        .unwrap();
    result(&m["report"], id)
}

#[test]
fn a_fleet_entry_with_server_applies_to_that_member_only_and_stale_is_judged_over_the_run() {
    let w = Workdir::new();
    fleet(
        &w,
        "suppress:\n  - rule: schema/tool-name\n    location: bad name\n    reason: api keeps it\n    server: api\n  - rule: schema/tool-name\n    location: gone\n    reason: r\n  - rule: schema/tool-name\n    location: gone\n    reason: r\n    server: db\n",
    );
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        member_result(&doc, "api", "schema/tool-name")["status"],
        "suppressed"
    );
    assert_eq!(
        member_result(&doc, "db", "schema/tool-name")["status"],
        "fail"
    );
    assert_eq!(doc["summary"]["results"]["suppressed"], 1);
    let api = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "api")
        .unwrap();
    assert_eq!(api["status"], "passed");
    // The unscoped unused entry is stale at fleet level, db's in db's report.
    assert_eq!(
        result(&doc, "config/suppression-stale")["location"],
        "suppress[1]"
    );
    assert_eq!(
        member_result(&doc, "db", "config/suppression-stale")["location"],
        "suppress[2]"
    );

    // Only api tested: neither db's entry nor the unscoped one is judged.
    let o = run_on(
        &w,
        "2026-01-01",
        &["run", "--json", "--server", "api", "--strict"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(!text.contains("suppression-stale"), "{text}");

    // An entry naming no member of the fleet is a config error.
    fleet(
        &w,
        "suppress:\n  - rule: schema/tool-name\n    location: x\n    reason: r\n    server: apj\n",
    );
    let o = run_on(&w, "2026-01-01", &["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("suppress[0].server: no server \"apj\" in the fleet (did you mean \"api\"?)"),
        "{}",
        stderr(&o)
    );

    // `mcpward suppress --server` writes a scoped entry.
    fleet(&w, "");
    let o = run_on(
        &w,
        "2026-01-01",
        &[
            "suppress",
            "schema/tool-name",
            "bad name",
            "--reason",
            "db too",
            "--server",
            "db",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_on(&w, "2026-01-01", &["run", "--json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        member_result(&doc, "db", "schema/tool-name")["status"],
        "suppressed"
    );
    assert_eq!(
        member_result(&doc, "api", "schema/tool-name")["status"],
        "fail"
    );
}

#[test]
fn merge_keeps_the_shards_fleet_level_verdicts_once() {
    let w = Workdir::new();
    // Expired and unscoped: every shard reports it at fleet level.
    fleet(
        &w,
        "suppress:\n  - rule: schema/tool-name\n    location: bad name\n    reason: r\n    expires: 2025-01-01\n",
    );
    let mut files = Vec::new();
    for i in 1..=2 {
        let out = format!("shard{i}.json");
        let o = run_on(
            &w,
            "2026-01-01",
            &["run", "--json", "--shard", &format!("{i}/2"), "--out", &out],
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        files.push(out);
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let o = run_on(&w, "2026-01-01", &args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let expired: Vec<&Value> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["id"] == "config/suppression-expired")
        .collect();
    assert_eq!(expired.len(), 1, "{doc:#}");
}

/// Review of #16: accepting every finding of a family that has a summary result (security,
/// drift) makes the run pass; accepting only some keeps it failing.
#[test]
fn accepting_every_counted_finding_accepts_the_family_summary() {
    let w = Workdir::new();
    let tools = w.write(
        "sec.json",
        r#"[{"name":"connect","description":"Connects.","inputSchema":{"type":"object","properties":{"api_key":{"type":"string"}}}}]"#,
    );
    let tag = unique_tag("suppress-summary");
    let base = stdio_config(
        &["--tools-file", tools.to_str().unwrap()],
        &tag,
        "checks:\n  compliance: false\n  schema: false\n  errors: false\n",
    );
    w.write("mcpward.yaml", &base);
    let o = run_on(&w, "2026-12-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    w.write(
        "mcpward.yaml",
        &format!("{base}suppress:\n  - rule: security/secret-in-schema\n    location: connect\n    reason: test key only\n"),
    );
    let o = run_on(&w, "2026-12-01", &["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_report(&o);
    assert_eq!(result(&r, "security/summary")["status"], "suppressed");
    assert_eq!(
        result(&r, "security/secret-in-schema")["status"],
        "suppressed"
    );
}
