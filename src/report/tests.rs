//! Cross-reporter tests: the spec's golden examples byte for byte, insta snapshots of every
//! reporter over one shared fixture, schema validation (SARIF via `jsonschema`, JUnit via
//! `xmllint`), redaction canaries, and the routing helpers.

use std::path::Path;

use serde_json::Value;

use super::test_report::{fixed_report, shared_report};
use super::*;
use crate::model::{Finding, Report, Severity, Status};
use crate::redact::Redactor;

fn plain() -> RenderContext {
    RenderContext::default()
}

fn verbose() -> RenderContext {
    RenderContext::new(false, true)
}

fn data_file(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

// ---- the spec's examples, exactly -------------------------------------------------------

const SPEC_JSON: &str = r#"{
  "schemaVersion": 1,
  "version": "0.1.0",
  "timestamp": "2024-01-15T10:30:00.000Z",
  "server": {
    "name": "test-server",
    "version": "1.0.0",
    "protocolVersion": "2025-11-25"
  },
  "summary": {
    "total": 7,
    "passed": 3,
    "failed": 2,
    "warnings": 1,
    "skipped": 1
  },
  "results": [
    {
      "id": "compliance/handshake",
      "family": "compliance",
      "status": "pass",
      "severity": "info",
      "message": "Protocol handshake completed successfully",
      "location": "server"
    },
    {
      "id": "schema/tool-name",
      "family": "schema",
      "status": "fail",
      "severity": "error",
      "message": "Tool name \"invalid name\" contains invalid characters",
      "expected": "Name matching ^[a-zA-Z0-9_-]+$",
      "actual": "invalid name",
      "location": "invalid name"
    },
    {
      "id": "security/injection-pattern",
      "family": "security",
      "status": "fail",
      "severity": "error",
      "message": "Tool \"evil_tool\" description contains injection-like pattern",
      "actual": [
        "Ignore all previous instructions"
      ],
      "location": "evil_tool"
    },
    {
      "id": "drift/tool_added",
      "family": "drift",
      "status": "warn",
      "severity": "warning",
      "message": "New tool \"new_feature\" was added",
      "location": "new_feature"
    },
    {
      "id": "behavioral/case",
      "family": "behavioral",
      "status": "pass",
      "severity": "info",
      "message": "Test case \"echo test\" passed",
      "location": "echo"
    },
    {
      "id": "errors/unknown-tool",
      "family": "errors",
      "status": "pass",
      "severity": "info",
      "message": "Unknown tool correctly returned protocol error",
      "location": "__unknown__"
    },
    {
      "id": "latency/summary",
      "family": "latency",
      "status": "skip",
      "severity": "info",
      "message": "Latency checks skipped (no budget configured)"
    }
  ]
}"#;

#[test]
fn json_matches_spec_example_byte_for_byte() {
    assert_eq!(
        render(ReporterKind::Json, &fixed_report(), &plain()),
        SPEC_JSON
    );
    // And it round-trips to the same model.
    let back: Report = serde_json::from_str(SPEC_JSON).unwrap();
    assert_eq!(back, fixed_report());
}

const SPEC_CONSOLE: &str = "
mcpward v0.1.0
──────────────────────────────────────────────────
Server: test-server v1.0.0
Protocol: 2025-11-25

COMPLIANCE (1 passed)
  1 check(s) passed

SCHEMA (1 failed)
  ✗ Tool name \"invalid name\" contains invalid characters
    at invalid name
    expected: \"Name matching ^[a-zA-Z0-9_-]+$\"
    actual:   \"invalid name\"

SECURITY (1 failed)
  ✗ Tool \"evil_tool\" description contains injection-like pattern
    at evil_tool
    actual:   [\"Ignore all previous instructions\"]

DRIFT (1 warnings)
  ⚠ New tool \"new_feature\" was added
    at new_feature

BEHAVIORAL (1 passed)
  1 check(s) passed

ERRORS (1 passed)
  1 check(s) passed

LATENCY (0 passed)
  0 check(s) passed


Summary: 3 passed | 2 failed | 1 warnings | 1 skipped
Total: 7 checks

2 check(s) failed";

#[test]
fn console_matches_spec_example() {
    assert_eq!(
        render(ReporterKind::Console, &fixed_report(), &plain()),
        SPEC_CONSOLE
    );
    let v = render(ReporterKind::Console, &fixed_report(), &verbose());
    assert!(
        v.contains("  ✓ Protocol handshake completed successfully\n    at server\n"),
        "{v}"
    );
    assert!(
        v.contains("\n  ○ Latency checks skipped (no budget configured)\n"),
        "{v}"
    );
    assert!(v.contains("3 passed") && v.contains("2 failed"));
}

#[test]
fn markdown_matches_spec_example() {
    let want = format!(
        "<!-- mcpward-report -->
## ❌ mcpward: 2 check(s) failed

**Server:** `test-server` v1.0.0 · **Protocol:** 2025-11-25 · **mcpward** v0.1.0

| Passed | Failed | Warnings | Skipped | Total |
|---:|---:|---:|---:|---:|
| 3 | 2 | 1 | 1 | 7 |

### Schema (1 failed)

- ❌ **schema/tool-name** — `invalid name`: Tool name \"invalid name\" contains invalid characters

### Security (1 failed)

- ❌ **security/injection-pattern** — `evil_tool`: Tool \"evil\\_tool\" description contains injection-like pattern

### Drift (1 warning(s))

- ⚠️ **drift/tool_added** — `new_feature`: New tool \"new\\_feature\" was added

<sub>Generated by [mcpward]({PROJECT_URL}) — black-box security & contract testing for MCP servers.</sub>
"
    );
    assert_eq!(
        render(ReporterKind::Markdown, &fixed_report(), &plain()),
        want
    );
}

#[test]
fn junit_matches_spec_structure() {
    let xml = render(ReporterKind::Junit, &fixed_report(), &plain());
    let schema_suite = r#"  <testsuite name="schema" tests="1" failures="1" errors="0" skipped="0" time="0.001">
    <testcase name="Tool name &quot;invalid name&quot; contains invalid characters" classname="schema/tool-name" time="0.001">
      <failure message="Tool name &quot;invalid name&quot; contains invalid characters" type="AssertionError"><![CDATA[Location: invalid name
Expected: "Name matching ^[a-zA-Z0-9_-]+$"
Actual: "invalid name"]]></failure>
    </testcase>
  </testsuite>"#;
    assert!(xml.contains(schema_suite), "{xml}");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcpward\" tests=\"7\" failures=\"2\" errors=\"0\" skipped=\"1\" time=\"0.001\">\n  <testsuite name=\"compliance\""));
    assert!(xml.ends_with("  </testsuite>\n</testsuites>"));
    assert_eq!(xml.matches("<testcase ").count(), 7);
    assert_eq!(xml.matches("</testcase>").count(), 7);
    assert!(
        xml.contains("<failure")
            && xml.contains("invalid characters")
            && xml.contains("injection-like pattern")
    );
    // Warn: message XML-escaped inside CDATA; pass: empty body; skip: <skipped/> (DECISIONS #13).
    assert!(xml.contains("      <system-out><![CDATA[WARNING: New tool &quot;new_feature&quot; was added]]></system-out>\n"));
    assert!(xml.contains("<testcase name=\"Protocol handshake completed successfully\" classname=\"compliance/handshake\" time=\"0.001\">\n    </testcase>"));
    assert!(xml.contains("  <testsuite name=\"latency\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.001\">\n    <testcase name=\"Latency checks skipped (no budget configured)\" classname=\"latency/summary\" time=\"0.001\">\n      <skipped message=\"Latency checks skipped (no budget configured)\"/>\n    </testcase>"), "{xml}");
}

// ---- golden snapshots of every reporter over the shared fixture --------------------------

#[test]
fn snapshots() {
    let r = shared_report();
    let ctx = plain();
    insta::assert_snapshot!("console", render(ReporterKind::Console, &r, &ctx));
    insta::assert_snapshot!(
        "console_verbose",
        render(ReporterKind::Console, &r, &verbose())
    );
    insta::assert_snapshot!("json", render(ReporterKind::Json, &r, &ctx));
    insta::assert_snapshot!("junit", render(ReporterKind::Junit, &r, &ctx));
    insta::assert_snapshot!("sarif", render(ReporterKind::Sarif, &r, &ctx));
    insta::assert_snapshot!("markdown", render(ReporterKind::Markdown, &r, &ctx));
    insta::assert_snapshot!("github", render(ReporterKind::Github, &r, &ctx));
    insta::assert_snapshot!("gitlab", render(ReporterKind::Gitlab, &r, &ctx));
}

#[test]
fn machine_renderings_have_no_ansi_even_with_colour_on() {
    let ctx = RenderContext::new(true, true);
    for kind in ReporterKind::ALL {
        let out = render(kind, &shared_report(), &ctx);
        assert_eq!(
            out.contains('\u{1b}'),
            kind == ReporterKind::Console,
            "{kind}"
        );
    }
}

// ---- §12 structural checks -----------------------------------------------------------------

#[test]
fn json_structure() {
    let v: Value =
        serde_json::from_str(&render(ReporterKind::Json, &fixed_report(), &plain())).unwrap();
    for k in [
        "schemaVersion",
        "version",
        "timestamp",
        "server",
        "summary",
        "results",
    ] {
        assert!(v.get(k).is_some(), "{k}");
    }
    assert_eq!(v["results"].as_array().unwrap().len(), 7);
}

#[test]
fn sarif_structure() {
    let v: Value =
        serde_json::from_str(&render(ReporterKind::Sarif, &shared_report(), &plain())).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "mcpward");
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "compliance-handshake",
            "schema-tool-name",
            "security-injection-pattern",
            "drift-tool_added",
            "behavioral-case",
            "errors-unknown-tool",
            "latency-summary",
            "drift-description_changed"
        ]
    );
    for r in rules {
        let name = r["name"].as_str().unwrap();
        assert_eq!(
            r["helpUri"],
            format!("{RULES_DOC_URL}#{}", crate::rules::anchor(name))
        );
    }
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "only fail and warn results");
    for r in results {
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
    }
    assert_eq!(
        results[1],
        serde_json::json!({
            "ruleId": "security-injection-pattern",
            "level": "error",
            "message": { "text": "Tool \"evil_tool\" description contains injection-like pattern" },
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": { "uri": "mcpward.yaml", "uriBaseId": "%SRCROOT%" },
                    "region": { "startLine": 1 }
                },
                "logicalLocations": [ { "name": "evil_tool", "kind": "tool" } ]
            }],
            "partialFingerprints": { "primaryLocationLineHash": "1d310140a58d1088:1" },
            "properties": { "actual": ["Ignore all previous instructions"], "family": "security" }
        })
    );
    assert_eq!(runs[0]["invocations"][0]["executionSuccessful"], false);
    assert_eq!(
        runs[0]["invocations"][0]["endTimeUtc"],
        "2024-01-15T10:30:00.000Z"
    );
}

/// GitHub code scanning's ingestion rules, shared with the integration tests.
#[path = "../../tests/sarif_github/mod.rs"]
mod sarif_github;

#[test]
fn github_rules_can_fail() {
    // Positive control for the validator: the shapes GitHub rejects are caught.
    let doc = render(ReporterKind::Sarif, &fixed_report(), &plain());
    assert!(sarif_github::github_problems(&doc).is_empty());
    let mut v: Value = serde_json::from_str(&doc).unwrap();
    let results = v["runs"][0]["results"].as_array_mut().unwrap();
    results[0]["locations"] = serde_json::json!([]);
    results[1]["ruleId"] = serde_json::json!("not-a-rule");
    let twin = results[2].clone();
    results.push(twin);
    results[2]["locations"][0]["physicalLocation"]["region"] = serde_json::json!({});
    let problems = sarif_github::github_problems(&v.to_string());
    for want in [
        "expected at least one location",
        "is not in tool.driver.rules",
        "no region.startLine",
        "GitHub merges them into one alert",
    ] {
        assert!(
            problems.iter().any(|p| p.contains(want)),
            "{want}: {problems:#?}"
        );
    }
}

#[test]
fn sarif_regions_point_at_the_key_a_finding_is_about() {
    let lines: std::collections::BTreeMap<String, usize> = [
        ("server", 2),
        ("checks", 9),
        ("checks.security", 10),
        ("checks.drift", 11),
        ("suites", 20),
        ("suites.echo", 21),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let ctx = plain().with_config_lines(lines);
    let line = |id: &str, loc: Option<&str>| {
        let f = Finding::new(id, Status::Fail, Severity::Error, "m");
        let f = match loc {
            Some(l) => f.location(l),
            None => f,
        };
        ctx.config_line(&f)
    };
    assert_eq!(line("security/summary", None), 10);
    assert_eq!(line("security/injection-pattern", Some("t")), 10);
    assert_eq!(line("compliance/handshake", None), 2);
    // Not spelled out: the server block.
    assert_eq!(line("errors/unknown-tool", Some("t")), 2);
    assert_eq!(line("compliance/expected-protocol-version", None), 2);
    assert_eq!(line("drift/baseline-missing", None), 11);
    assert_eq!(line("behavioral/case", Some("echo")), 21);
    assert_eq!(line("behavioral/case", Some("other")), 20);
    assert_eq!(line("future/thing", None), 2);
    assert_eq!(
        plain().config_line(&Finding::new("a/b", Status::Fail, Severity::Error, "m")),
        1
    );
    let doc: Value =
        serde_json::from_str(&render(ReporterKind::Sarif, &fixed_report(), &ctx)).unwrap();
    for r in doc["runs"][0]["results"].as_array().unwrap() {
        let start = r["locations"][0]["physicalLocation"]["region"]["startLine"]
            .as_u64()
            .unwrap();
        assert!(start > 1, "{r}");
    }
}

fn sarif_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(data_file("sarif-schema-2.1.0.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft4::new(&schema).expect("SARIF schema compiles")
}

fn assert_valid_sarif(validator: &jsonschema::Validator, doc: &str) {
    let v: Value = serde_json::from_str(doc).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF: {errors:#?}");
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let validator = sarif_validator();
    for report in [fixed_report(), shared_report(), hostile_report()] {
        for path in [
            "mcpward.yaml",
            "my checks/ci#prod.yaml",
            "../outside/x.yaml",
        ] {
            let ctx = plain().with_artifact_path(path);
            let doc = render(ReporterKind::Sarif, &report, &ctx);
            assert_valid_sarif(&validator, &doc);
            let problems = sarif_github::github_problems(&doc);
            assert!(problems.is_empty(), "GitHub would reject it: {problems:#?}");
        }
    }
    let empty = Report::new(
        fixed_report().server,
        vec![],
        "2024-01-15T10:30:00.000Z".into(),
    );
    assert_valid_sarif(&validator, &render(ReporterKind::Sarif, &empty, &plain()));
    // The validator can fail: a broken document is rejected.
    let broken =
        render(ReporterKind::Sarif, &fixed_report(), &plain()).replace("\"2.1.0\"", "\"9.9\"");
    let v: Value = serde_json::from_str(&broken).unwrap();
    assert!(!validator.is_valid(&v));
}

fn xmllint_validate(xml: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.xml");
    std::fs::write(&file, xml).unwrap();
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(data_file("junit.xsd"))
        .arg(&file)
        .output();
    match out {
        Err(e) => panic!(
            "xmllint is required for the JUnit schema test but could not be run ({e}); \
             install it with `apt-get install -y libxml2-utils`"
        ),
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(String::from_utf8_lossy(&o.stderr).into_owned()),
    }
}

#[test]
fn junit_validates_against_the_xsd() {
    // .ci/run installs xmllint and sets MCPWARD_REQUIRE_REAL_SERVERS; elsewhere a missing
    // xmllint is a loud skip so `cargo test` works on a fresh machine.
    let have = std::process::Command::new("xmllint")
        .arg("--version")
        .output()
        .is_ok();
    if !have && std::env::var_os("MCPWARD_REQUIRE_REAL_SERVERS").is_none() {
        eprintln!(
            "skipping JUnit XSD validation: xmllint not found (apt-get install -y libxml2-utils)"
        );
        return;
    }
    for report in [fixed_report(), shared_report(), hostile_report()] {
        let xml = render(ReporterKind::Junit, &report, &plain());
        if let Err(e) = xmllint_validate(&xml) {
            panic!("JUnit XML does not validate: {e}\n{xml}");
        }
    }
    // The check can fail: an element the schema does not allow is rejected.
    let bad = render(ReporterKind::Junit, &fixed_report(), &plain()).replacen(
        "</testcase>",
        "<bogus/></testcase>",
        1,
    );
    assert!(xmllint_validate(&bad).is_err());
}

/// Results carrying everything a hostile server could put in text.
fn hostile_report() -> Report {
    let nasty = "]]> <img src=x onerror=alert(1)> \u{0}\u{1b}[31m \u{FFFE} & \"' \n::error::x @octocat `` [a](https://evil) \u{200B}";
    let mut r = fixed_report();
    r.results = vec![
        Finding::fail("security/injection-pattern", nasty)
            .actual(nasty)
            .location(nasty),
        Finding::warn("drift/tool_added", nasty).location(nasty),
        Finding::skip("latency/summary", nasty),
        Finding::fail("drift/description_changed", nasty)
            .expected(nasty)
            .actual(format!("{nasty}!"))
            .location(nasty),
    ];
    r.summary = crate::model::Summary::of(&r.results);
    r
}

// ---- redaction canaries through every reporter ---------------------------------------------

#[test]
fn registered_secret_never_reaches_any_rendering() {
    let canary = "canary-7f3a9c2e-secret";
    let mut report = shared_report();
    report.results.push(
        Finding::fail(
            "security/secret-in-schema",
            format!("Tool leaked {canary} in its description"),
        )
        .expected(serde_json::json!({"header": format!("Bearer {canary}"), "apiKey": canary}))
        .actual(serde_json::json!([canary, {"nested": format!("x{canary}x")}]))
        .location(format!("https://api.example.com/mcp?token={canary}")),
    );
    report.results.push(
        Finding::warn("drift/description_changed", "m")
            .expected(format!("old {canary}"))
            .actual(format!("new {canary} text"))
            .location(canary),
    );
    report.summary = crate::model::Summary::of(&report.results);
    let mut redactor = Redactor::new();
    redactor.register(canary);
    redactor.redact_report(&mut report);
    for kind in ReporterKind::ALL {
        for ctx in [plain(), verbose(), RenderContext::new(true, true)] {
            let out = render(kind, &report, &ctx);
            assert!(!out.contains(canary), "{kind} leaked the canary:\n{out}");
            assert!(
                !out.contains("7f3a9c2e"),
                "{kind} leaked part of the canary"
            );
        }
    }
    let json = render(ReporterKind::Json, &report, &plain());
    assert!(json.contains("[REDACTED]"));
}

// ---- routing helpers ----------------------------------------------------------------------

#[test]
fn reporter_kind_parsing_is_exact() {
    for k in ReporterKind::ALL {
        assert_eq!(k.name().parse::<ReporterKind>(), Ok(k));
        assert_eq!(k.to_string(), k.name());
    }
    assert_eq!(
        "xml".parse::<ReporterKind>(),
        Err(UnknownReporter("xml".into()))
    );
    assert!("JSON".parse::<ReporterKind>().is_err());
    // clap sees the same names.
    use clap::ValueEnum;
    let names: Vec<String> = ReporterKind::value_variants()
        .iter()
        .map(|v| v.to_possible_value().unwrap().get_name().to_string())
        .collect();
    assert_eq!(names, ReporterKind::ALL.map(|k| k.name().to_string()));
}

#[test]
fn written_lines() {
    let p = Path::new("out/r.json");
    assert_eq!(
        written_line(ReporterKind::Json, p).as_deref(),
        Some("Report written to out/r.json")
    );
    assert_eq!(
        written_line(ReporterKind::Junit, p).as_deref(),
        Some("JUnit report written to out/r.json")
    );
    assert_eq!(
        written_line(ReporterKind::Sarif, p).as_deref(),
        Some("SARIF report written to out/r.json")
    );
    assert_eq!(
        written_line(ReporterKind::Markdown, p).as_deref(),
        Some("Markdown report written to out/r.json")
    );
    assert_eq!(
        written_line(ReporterKind::Gitlab, p).as_deref(),
        Some("GitLab Code Quality report written to out/r.json")
    );
    assert_eq!(written_line(ReporterKind::Console, p), None);
    assert_eq!(written_line(ReporterKind::Github, p), None);
    assert!(!ReporterKind::Console.writes_out_file() && !ReporterKind::Github.writes_out_file());
    assert!(ReporterKind::Sarif.writes_out_file() && ReporterKind::Github.is_machine());
    assert!(!ReporterKind::Console.is_machine());
    assert_eq!(console::dim("x", true), "\x1b[2mx\x1b[22m");
    assert_eq!(console::dim("x", false), "x");
}

#[test]
fn colour_rules() {
    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }
    assert!(!colour_enabled(env(&[]), false));
    assert!(colour_enabled(env(&[]), true));
    assert!(!colour_enabled(env(&[("TERM", "dumb")]), true));
    // #18: a CI log is not a TTY, so no colour unless asked.
    assert!(!colour_enabled(env(&[("CI", "true")]), false));
    assert!(colour_enabled(env(&[("FORCE_COLOR", "1")]), false));
    assert!(colour_enabled(env(&[("CLICOLOR_FORCE", "1")]), false));
    assert!(!colour_enabled(env(&[("FORCE_COLOR", "0")]), false));
    assert!(!colour_enabled(
        env(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1"), ("CI", "1")]),
        true
    ));
    assert!(colour_enabled(env(&[("NO_COLOR", "")]), true));
    // --color always|never wins over the environment.
    assert!(!colour_choice(
        env(&[("FORCE_COLOR", "1")]),
        true,
        Some(false)
    ));
    assert!(colour_choice(env(&[]), false, Some(true)));
    assert!(colour_choice(env(&[("NO_COLOR", "1")]), false, Some(true)));
}

#[test]
fn artifact_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    let sub = root.join("sub dir");
    std::fs::create_dir_all(sub.join("ci")).unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();

    // Nearest .git above the working directory.
    assert_eq!(
        artifact_path(Path::new("mcpward.yaml"), &root, None),
        "mcpward.yaml"
    );
    assert_eq!(
        artifact_path(Path::new("ci/mcp.yaml"), &sub, None),
        "sub dir/ci/mcp.yaml"
    );
    assert_eq!(
        artifact_path(Path::new("./ci/../mcp.yaml"), &sub, None),
        "sub dir/mcp.yaml"
    );
    // GITHUB_WORKSPACE wins; empty is ignored.
    assert_eq!(
        artifact_path(Path::new("ci/mcp.yaml"), &sub, Some(sub.to_str().unwrap())),
        "ci/mcp.yaml"
    );
    assert_eq!(
        artifact_path(Path::new("ci/mcp.yaml"), &sub, Some("")),
        "sub dir/ci/mcp.yaml"
    );
    // A .git *file* (worktree/submodule) marks a root too.
    std::fs::write(sub.join(".git"), "gitdir: elsewhere").unwrap();
    assert_eq!(
        artifact_path(Path::new("ci/mcp.yaml"), &sub, None),
        "ci/mcp.yaml"
    );
    // Absolute config path.
    assert_eq!(
        artifact_path(&root.join("x.yaml"), &sub, Some(root.to_str().unwrap())),
        "x.yaml"
    );
    // No .git anywhere: relative to the working directory.
    let bare = tempfile::tempdir().unwrap();
    let cwd = bare.path().join("w");
    std::fs::create_dir_all(&cwd).unwrap();
    if !bare.path().ancestors().any(|d| d.join(".git").exists()) {
        assert_eq!(artifact_path(Path::new("a/b.yaml"), &cwd, None), "a/b.yaml");
    }

    // Per-segment encodeURIComponent.
    assert_eq!(
        encode_uri_path("ci/checks#prod.yaml"),
        "ci/checks%23prod.yaml"
    );
    assert_eq!(
        encode_uri_path("my checks/mcp.yaml"),
        "my%20checks/mcp.yaml"
    );
    assert_eq!(
        encode_uri_path("a?b%c/ü/(x)!~*'.yaml"),
        "a%3Fb%25c/%C3%BC/(x)!~*'.yaml"
    );
    let sarif = render(
        ReporterKind::Sarif,
        &fixed_report(),
        &plain().with_artifact_path("ci/mcp-checks.yaml"),
    );
    let v: Value = serde_json::from_str(&sarif).unwrap();
    for r in v["runs"][0]["results"].as_array().unwrap() {
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "ci/mcp-checks.yaml"
        );
    }
}

// ---- fleet documents (#15) ------------------------------------------------------------------

use super::test_report::{fixed_fleet, hostile_fleet, NASTY};
use crate::model::FleetReport;

#[test]
fn fleet_snapshots() {
    let f = fixed_fleet();
    let ctx = plain();
    insta::assert_snapshot!(
        "fleet_console",
        render_fleet(ReporterKind::Console, &f, &ctx)
    );
    insta::assert_snapshot!(
        "fleet_console_verbose",
        render_fleet(ReporterKind::Console, &f, &verbose())
    );
    insta::assert_snapshot!("fleet_json", render_fleet(ReporterKind::Json, &f, &ctx));
    insta::assert_snapshot!("fleet_junit", render_fleet(ReporterKind::Junit, &f, &ctx));
    insta::assert_snapshot!("fleet_sarif", render_fleet(ReporterKind::Sarif, &f, &ctx));
    insta::assert_snapshot!(
        "fleet_markdown",
        render_fleet(ReporterKind::Markdown, &f, &ctx)
    );
    insta::assert_snapshot!("fleet_github", render_fleet(ReporterKind::Github, &f, &ctx));
    insta::assert_snapshot!("fleet_gitlab", render_fleet(ReporterKind::Gitlab, &f, &ctx));
}

#[test]
fn fleet_json_reads_back_as_the_same_document() {
    for f in [fixed_fleet(), hostile_fleet()] {
        let text = render_fleet(ReporterKind::Json, &f, &plain());
        assert_eq!(FleetReport::from_json(&text).unwrap(), f);
    }
    let v: Value =
        serde_json::from_str(&render_fleet(ReporterKind::Json, &fixed_fleet(), &plain())).unwrap();
    let names: Vec<&str> = v["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["files", "api", "db"], "member order as given");
    assert_eq!(v["summary"]["exitCode"], 2);
}

#[test]
fn fleet_exit_code_is_explained_in_every_summary() {
    let f = fixed_fleet();
    let console = render_fleet(ReporterKind::Console, &f, &plain());
    assert!(
        console.ends_with(
            "Exit code 2 — 1 server not fully tested: db (connect: connection refused (http://127.0.0.1:9/mcp))"
        ),
        "{console}"
    );
    let mut failing = f.clone();
    failing.servers.pop();
    failing.order.pop();
    let failing = FleetReport::new(
        failing.order,
        None,
        failing.servers,
        failing.results,
        failing.timestamp,
    );
    let console = render_fleet(ReporterKind::Console, &failing, &plain());
    assert!(
        console.ends_with(
            "Exit code 1 — checks failed on 1 server: api (2); 1 cross-server check failed"
        ),
        "{console}"
    );
    let md = render_fleet(ReporterKind::Markdown, &failing, &plain());
    assert!(md.contains("\n**Exit code 1** — checks failed on 1 server: `api` (2); 1 cross-server check failed\n"), "{md}");
    let gh = render_fleet(ReporterKind::Github, &failing, &plain());
    assert!(gh.ends_with("\nmcpward: exit code 1 — checks failed on 1 server: api (2); 1 cross-server check failed"), "{gh}");
    let passing = FleetReport::new(
        vec!["files".into()],
        None,
        vec![f.servers[0].clone()],
        vec![],
        f.timestamp.clone(),
    );
    let console = render_fleet(ReporterKind::Console, &passing, &plain());
    assert!(
        console.ends_with("Exit code 0 — 1 server fully tested, no check failed"),
        "{console}"
    );
    // Many incomplete servers: five are named, the rest counted; long reasons are cut.
    let gone: Vec<crate::model::FleetMember> = (0..7)
        .map(|i| crate::model::FleetMember::incomplete(format!("s{i}"), "r".repeat(300), None))
        .collect();
    let many = FleetReport::new(vec![], None, gone, vec![], f.timestamp.clone());
    let console = render_fleet(ReporterKind::Console, &many, &plain());
    let last = console.lines().last().unwrap();
    assert!(
        last.starts_with("Exit code 2 — 7 servers not fully tested: s0 ("),
        "{last}"
    );
    assert!(
        last.ends_with(&format!("s4 ({}…), and 2 more", "r".repeat(100))),
        "{last}"
    );
}

#[test]
fn fleet_console_groups_by_server_and_colours_only_when_enabled() {
    let f = fixed_fleet();
    let plain_out = render_fleet(ReporterKind::Console, &f, &plain());
    let files = plain_out.find("━━ files ━").unwrap();
    let api = plain_out.find("━━ api ━").unwrap();
    let db = plain_out.find("━━ db ━").unwrap();
    let cross = plain_out.find("━━ cross-server ━").unwrap();
    assert!(files < api && api < db && db < cross, "{plain_out}");
    assert!(plain_out[db..].contains("Not fully tested: connect: connection refused"));
    // The single rendering of a member, reused as is.
    let single = render(
        ReporterKind::Console,
        &f.servers[1].clone().report.unwrap(),
        &plain(),
    );
    let body = &single[single.find("Server:").unwrap()..];
    assert!(plain_out[api..db].contains(body), "{plain_out}");
    // Era suffix on the legacy lane's result only.
    assert!(
        plain_out.contains("  ⚠ New tool \"search\" was added [legacy]\n"),
        "{plain_out}"
    );
    let coloured = render_fleet(ReporterKind::Console, &f, &RenderContext::new(true, false));
    assert!(coloured.contains('\u{1b}'));
    let stripped = regex::Regex::new("\x1b\\[[0-9]+m")
        .unwrap()
        .replace_all(&coloured, "");
    assert_eq!(stripped, plain_out);
    for kind in ReporterKind::ALL {
        let out = render_fleet(kind, &f, &RenderContext::new(true, true));
        assert_eq!(
            out.contains('\u{1b}'),
            kind == ReporterKind::Console,
            "{kind}"
        );
    }
}

#[test]
fn fleet_sarif_is_one_run_github_accepts() {
    let validator = sarif_validator();
    for f in [fixed_fleet(), hostile_fleet()] {
        for path in ["mcpward.yaml", "my checks/ci#prod.yaml"] {
            let ctx = plain().with_artifact_path(path);
            let doc = render_fleet(ReporterKind::Sarif, &f, &ctx);
            assert_valid_sarif(&validator, &doc);
            let problems = sarif_github::github_problems(&doc);
            assert!(problems.is_empty(), "GitHub would reject it: {problems:#?}");
            let v: Value = serde_json::from_str(&doc).unwrap();
            assert_eq!(v["runs"].as_array().unwrap().len(), 1);
        }
    }
    let v: Value =
        serde_json::from_str(&render_fleet(ReporterKind::Sarif, &fixed_fleet(), &plain())).unwrap();
    let run = &v["runs"][0];
    let results = run["results"].as_array().unwrap();
    // files: 1 warning; api: 2 failures + 1 warning; cross-server: 1 warning + 1 failure.
    assert_eq!(results.len(), 6);
    assert_eq!(
        results[0]["message"]["text"],
        "[files] New tool \"search\" was added [legacy]"
    );
    assert_eq!(
        results[0]["locations"][0]["logicalLocations"],
        serde_json::json!([{"name": "files", "kind": "server"}, {"name": "search", "kind": "tool"}])
    );
    assert_eq!(results[0]["properties"]["era"], "legacy");
    assert_eq!(
        results[4]["locations"][0]["logicalLocations"],
        serde_json::json!([{"name": "cross-server", "kind": "fleet"}, {"name": "api, files", "kind": "servers"}])
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    let note = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert_eq!(
        note["message"]["text"],
        "[db] not fully tested: connect: connection refused (http://127.0.0.1:9/mcp)"
    );
}

/// The fingerprint of every SARIF result of a rendering.
fn sarif_prints(doc: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(doc).unwrap();
    v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn the_same_finding_on_two_servers_or_two_eras_is_two_alerts() {
    let finding = Finding::fail("security/injection-pattern", "bad").location("t");
    let report = |era: Option<&str>| {
        let mut f = finding.clone();
        f.era = era.map(str::to_string);
        Report::new(
            fixed_report().server,
            vec![f],
            "2024-01-15T10:30:00.000Z".into(),
        )
    };
    let member = |name: &str| crate::model::FleetMember::tested(name, report(None), vec![]);
    let fleet = FleetReport::new(
        vec!["a".into(), "b".into()],
        None,
        vec![member("a"), member("b")],
        vec![],
        "2024-01-15T10:30:00.000Z".into(),
    );
    let sarif = sarif_prints(&render_fleet(ReporterKind::Sarif, &fleet, &plain()));
    assert_eq!(sarif.len(), 2);
    assert_ne!(sarif[0], sarif[1]);
    assert!(
        sarif[0].ends_with(":1") && sarif[1].ends_with(":1"),
        "{sarif:?}"
    );
    let single = sarif_prints(&render(ReporterKind::Sarif, &report(None), &plain()));
    assert!(
        !sarif.contains(&single[0]),
        "a fleet result hashes its server"
    );
    // Eras: same finding in two lanes, two alerts; no era: the fingerprint of before.
    let legacy = sarif_prints(&render(
        ReporterKind::Sarif,
        &report(Some("legacy")),
        &plain(),
    ));
    let modern = sarif_prints(&render(
        ReporterKind::Sarif,
        &report(Some("modern")),
        &plain(),
    ));
    assert!(legacy[0] != modern[0] && legacy[0] != single[0] && modern[0] != single[0]);
    // GitLab likewise.
    let gl = |doc: String| -> Vec<String> {
        let v: Value = serde_json::from_str(&doc).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap().to_string())
            .collect()
    };
    let prints = gl(render_fleet(ReporterKind::Gitlab, &fleet, &plain()));
    assert_eq!(prints.len(), 2);
    assert_ne!(prints[0], prints[1]);
    let single = gl(render(ReporterKind::Gitlab, &report(None), &plain()));
    assert_eq!(
        single[0],
        gitlab::fingerprint("security/injection-pattern", "t", "bad", 1)
    );
    assert!(!prints.contains(&single[0]));
    let legacy = gl(render(
        ReporterKind::Gitlab,
        &report(Some("legacy")),
        &plain(),
    ));
    assert_ne!(legacy[0], single[0]);
}

#[test]
fn era_suffix_in_single_reports_and_absent_without_era() {
    let mut f = Finding::fail("schema/tool-name", "bad name").location("t");
    f.era = Some("legacy".into());
    let r = Report::new(
        fixed_report().server,
        vec![f],
        "2024-01-15T10:30:00.000Z".into(),
    );
    let console = render(ReporterKind::Console, &r, &plain());
    assert!(console.contains("  ✗ bad name [legacy]\n"), "{console}");
    let junit = render(ReporterKind::Junit, &r, &plain());
    assert!(
        junit.contains("<testcase name=\"bad name [legacy]\" classname=\"schema/tool-name\""),
        "{junit}"
    );
    let sarif = render(ReporterKind::Sarif, &r, &plain());
    assert!(sarif.contains("\"text\": \"bad name [legacy]\""), "{sarif}");
    // The shared fixture has no era: none of its renderings says one.
    for kind in ReporterKind::ALL {
        assert!(!render(kind, &shared_report(), &plain()).contains("[legacy]"));
    }
}

#[test]
fn fleet_junit_has_a_suite_per_server_and_family_and_validates() {
    let xml = render_fleet(ReporterKind::Junit, &fixed_fleet(), &plain());
    let suites: Vec<&str> = xml
        .lines()
        .filter_map(|l| l.strip_prefix("  <testsuite name=\""))
        .map(|l| &l[..l.find('"').unwrap()])
        .collect();
    assert_eq!(
        suites,
        [
            "files / compliance",
            "files / drift",
            "files / latency",
            "api / compliance",
            "api / schema",
            "api / security",
            "api / drift",
            "api / behavioral",
            "api / errors",
            "api / latency",
            "db",
            "cross-server / collision",
            "cross-server / security"
        ]
    );
    assert!(
        xml.contains(
            "<testsuites name=\"mcpward\" tests=\"14\" failures=\"3\" errors=\"1\" skipped=\"2\""
        ),
        "{xml}"
    );
    assert!(xml.contains("    <testcase name=\"db: not fully tested\" classname=\"fleet/incomplete\" time=\"0.001\">\n      <error message=\"connect: connection refused (http://127.0.0.1:9/mcp)\" type=\"Incomplete\">"), "{xml}");
    assert!(
        xml.contains("<testcase name=\"New tool &quot;search&quot; was added [legacy]\""),
        "{xml}"
    );
    let have = std::process::Command::new("xmllint")
        .arg("--version")
        .output()
        .is_ok();
    if !have && std::env::var_os("MCPWARD_REQUIRE_REAL_SERVERS").is_none() {
        eprintln!("skipping JUnit XSD validation: xmllint not found");
        return;
    }
    for f in [fixed_fleet(), hostile_fleet()] {
        let xml = render_fleet(ReporterKind::Junit, &f, &plain());
        if let Err(e) = xmllint_validate(&xml) {
            panic!("fleet JUnit XML does not validate: {e}\n{xml}");
        }
    }
}

#[test]
fn hostile_fleet_cannot_inject_in_any_format() {
    let f = hostile_fleet();
    // Console and GitHub: no escape sequence, no line a runner would take for a command.
    for kind in [ReporterKind::Console, ReporterKind::Github] {
        let out = render_fleet(kind, &f, &verbose());
        assert!(!out.contains('\u{1b}') && !out.contains('\u{0}'), "{kind}");
        for line in out.lines() {
            let t = line.trim_start();
            let ours = kind == ReporterKind::Github
                && (t.starts_with("::error file=") || t.starts_with("::warning file="));
            assert!(ours || !t.starts_with("::"), "{kind}: {line:?}");
        }
    }
    let gh = render_fleet(ReporterKind::Github, &f, &plain());
    // 1 incomplete + 1 failure + 1 warning + 1 cross warning, then two summary lines.
    assert_eq!(gh.lines().count(), 6, "{gh}");
    // JUnit: well-formed whatever the names.
    let xml = render_fleet(ReporterKind::Junit, &f, &plain());
    assert!(!xml.contains('\u{0}') && !xml.contains('\u{1b}'));
    let mut reader = quick_xml::Reader::from_str(&xml);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{xml}"),
        }
    }
    // GitLab: valid JSON, every description names its server.
    let gl: Value =
        serde_json::from_str(&render_fleet(ReporterKind::Gitlab, &f, &plain())).unwrap();
    assert_eq!(gl.as_array().unwrap().len(), 4);
    for i in gl.as_array().unwrap() {
        assert!(i["description"].as_str().unwrap().starts_with('['), "{i}");
    }
    // Markdown: nothing server-supplied is live outside code spans, tables keep their shape.
    let md = render_fleet(ReporterKind::Markdown, &f, &plain());
    for line in md.lines() {
        if line.starts_with("<sub>Generated by [mcpward](")
            || line == crate::report::markdown::MARKER
        {
            continue;
        }
        let live = strip_code_spans(line);
        for bad in ["<img", "<script", "](", "https://", "@octocat"] {
            assert!(!live.contains(bad), "{bad:?} live in {line:?}");
        }
        if line.starts_with('|') {
            let cells = unescaped_pipes(line);
            let want = if line.starts_with("| Passed")
                || line.starts_with("|---:")
                || line.chars().nth(2).is_some_and(|c| c.is_ascii_digit())
            {
                6
            } else {
                7
            };
            assert_eq!(cells, want, "{line:?}");
        }
        assert!(
            !line.starts_with('#')
                || line.starts_with("## ⚠️ mcpward fleet")
                || line.starts_with("### ")
                || line.starts_with("#### "),
            "{line:?}"
        );
    }
    assert!(!md.contains(NASTY));
}

fn unescaped_pipes(line: &str) -> usize {
    let mut n = 0;
    let mut prev = ' ';
    for c in line.chars() {
        if c == '|' && prev != '\\' {
            n += 1;
        }
        prev = c;
    }
    n
}

/// Removes inline code spans (single backticks) from a rendered line.
fn strip_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    let mut prev_backslash = false;
    for c in line.chars() {
        if c == '`' && !prev_backslash {
            inside = !inside;
        } else if !inside {
            out.push(c);
        }
        prev_backslash = c == '\\' && !prev_backslash;
    }
    out
}

#[test]
fn registered_secret_never_reaches_any_fleet_rendering() {
    let canary = "canary-51be0d7a-secret";
    let mut f = fixed_fleet();
    f.servers[2].reason = Some(format!("401 with token {canary}"));
    f.servers[0]
        .tools
        .push(serde_json::json!({"name": "t", "description": canary}));
    f.servers[1].report.as_mut().unwrap().results[1].message = format!("leaked {canary}");
    f.results[0].location = Some(format!("a, {canary}"));
    let mut redactor = Redactor::new();
    redactor.register(canary);
    redactor.redact_fleet(&mut f);
    for kind in ReporterKind::ALL {
        for ctx in [plain(), verbose()] {
            let out = render_fleet(kind, &f, &ctx);
            assert!(
                !out.contains("51be0d7a"),
                "{kind} leaked the canary:\n{out}"
            );
        }
    }
    assert!(render_fleet(ReporterKind::Json, &f, &plain()).contains("[REDACTED]"));
}

#[test]
fn fleet_regions_point_at_the_member_block() {
    let lines: std::collections::BTreeMap<String, usize> = [
        ("servers", 3),
        ("servers.api", 4),
        ("servers.api.checks.security", 8),
        ("checks.security", 20),
        ("checks", 19),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let ctx = plain().with_config_lines(lines);
    let f = |id: &str| Finding::new(id, Status::Fail, Severity::Error, "m");
    assert_eq!(
        ctx.member_config_line("api", &f("security/injection-pattern")),
        8
    );
    assert_eq!(
        ctx.member_config_line("files", &f("security/injection-pattern")),
        20
    );
    assert_eq!(ctx.member_config_line("api", &f("compliance/handshake")), 4);
    assert_eq!(
        ctx.member_config_line("files", &f("compliance/handshake")),
        1
    );
    assert_eq!(ctx.cross_config_line(&f("security/tool-shadowing")), 20);
    // checks.collision is not spelled out: the servers block.
    assert_eq!(
        ctx.cross_config_line(&f("collision/description-collision")),
        3
    );
    assert_eq!(plain().cross_config_line(&f("a/b")), 1);
}

// ---- suppressed results (#16 §3) ---------------------------------------------------------

/// The fixed report with its first failing result accepted by a suppression.
fn suppressed_report() -> Report {
    let mut r = fixed_report();
    let i = r
        .results
        .iter()
        .position(|f| f.status == Status::Fail)
        .expect("a failing result");
    r.results[i].status = Status::Suppressed;
    r.results[i].suppression = Some(crate::model::Suppression {
        reason: "accepted <in> review".into(),
        expires: Some("2027-01-31".into()),
    });
    r.summary = crate::model::Summary::of(&r.results);
    r
}

#[test]
fn every_reporter_renders_a_suppressed_result() {
    let r = suppressed_report();
    assert_eq!(r.summary.suppressed, 1);
    let console = render(ReporterKind::Console, &r, &plain());
    assert!(console.contains("1 suppressed"), "{console}");
    assert!(
        console.contains("    suppressed: accepted <in> review (until 2027-01-31)"),
        "{console}"
    );
    let json: Value = serde_json::from_str(&render(ReporterKind::Json, &r, &plain())).unwrap();
    assert_eq!(json["summary"]["suppressed"], 1);
    assert!(json["results"].as_array().unwrap().iter().any(
        |f| f["status"] == "suppressed" && f["suppression"]["reason"] == "accepted <in> review"
    ));
    let junit = render(ReporterKind::Junit, &r, &plain());
    assert!(
        junit.contains("<skipped message=\"suppressed: accepted &lt;in&gt; review\"/>"),
        "{junit}"
    );
    let sarif: Value = serde_json::from_str(&render(ReporterKind::Sarif, &r, &plain())).unwrap();
    let sup: Vec<&Value> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x.get("suppressions").is_some())
        .collect();
    assert_eq!(sup.len(), 1, "{sarif:#}");
    assert_eq!(
        sup[0]["suppressions"][0]["justification"],
        "accepted <in> review"
    );
    let md = render(ReporterKind::Markdown, &r, &plain());
    assert!(md.contains("🔕 1 accepted finding(s) suppressed"), "{md}");
    assert!(md.contains("suppressed: accepted"), "{md}");
    // Annotation formats keep an accepted finding in its place, as a notice / info issue
    // with the reason.
    let plain_github = render(ReporterKind::Github, &fixed_report(), &plain());
    let github = render(ReporterKind::Github, &r, &plain());
    assert_eq!(
        github.lines().filter(|l| l.starts_with("::")).count(),
        plain_github.lines().filter(|l| l.starts_with("::")).count(),
        "{github}"
    );
    assert!(
        github.contains("::notice file=mcpward.yaml,title=mcpward schema/tool-name::Suppressed (accepted <in> review): "),
        "{github}"
    );
    assert!(github.ends_with(", 1 suppressed"), "{github}");
    let gl = |rep: &Report| -> Vec<Value> {
        serde_json::from_str::<Value>(&render(ReporterKind::Gitlab, rep, &plain()))
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    };
    assert_eq!(gl(&r).len(), gl(&fixed_report()).len());
    let accepted: Vec<Value> = gl(&r)
        .into_iter()
        .filter(|i| {
            i["description"]
                .as_str()
                .unwrap()
                .starts_with("[suppressed: ")
        })
        .collect();
    assert_eq!(accepted.len(), 1);
    assert_eq!(accepted[0]["severity"], "info");
}
