//! The published JSON Schemas (`schemas/`, reporters.md §11): the committed config schema
//! is the generated one, real reports/configs/lockfiles validate, malformed ones do not, and
//! the config schema agrees with the parser on `server.url` (config.md §3.3, §12).
//!
//! `MCPWARD_BLESS=1 cargo test --test schemas` rewrites `schemas/config.v1.schema.json`.

mod common;
use common::*;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas").join(name)).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{name}"
    );
    assert_eq!(
        v["$id"],
        format!("https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/{name}")
    );
    jsonschema::options()
        .should_validate_formats(true)
        .build(&v)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn assert_valid(v: &jsonschema::Validator, instance: &Value, what: &str) {
    let e = errors(v, instance);
    assert!(e.is_empty(), "{what}: {e:#?}");
}

fn yaml(text: &str) -> Value {
    serde_norway::from_str(text).unwrap()
}

// ---------------------------------------------------------------- config

#[test]
fn committed_config_schema_is_the_generated_one() {
    let path = root().join("schemas/config.v1.schema.json");
    let generated = mcpward::config::config_schema_text();
    if std::env::var("MCPWARD_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schemas/config.v1.schema.json is stale: run `MCPWARD_BLESS=1 cargo test --test schemas`"
    );
    assert_eq!(
        mcpward::config::CONFIG_SCHEMA_ID,
        "https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/config.v1.schema.json"
    );
}

fn env_for_urls(name: &str) -> Option<String> {
    let v = match name {
        "MCP_URL" => "https://mcp.example.com/mcp",
        "MCP_HOST" => "example.com",
        "MCP_PATH" => "/etc/passwd",
        "S" => "s",
        "SCHEME" => "https",
        "PORT" => "8080",
        "TOKEN" => "t0ken-value",
        "LEVEL" => "medium",
        "ERA" => "legacy",
        _ => return None,
    };
    Some(v.to_string())
}

/// (parser accepts, schema accepts) for a config text.
fn verdicts(v: &jsonschema::Validator, text: &str) -> (bool, bool) {
    let parser = mcpward::config::load_str(text, Path::new("mcpward.yaml"), &env_for_urls);
    (parser.is_ok(), v.is_valid(&yaml(text)))
}

fn http_with(url: &str) -> String {
    format!(
        "server:\n  transport: http\n  url: {}\n",
        serde_json::to_string(url).unwrap()
    )
}

#[test]
fn url_rules_agree_with_the_parser() {
    let v = schema("config.v1.schema.json");
    // config.md §3.3 and reporters.md §11.2: (url, accepted).
    let pinned = [
        ("https://mcp.example.com/mcp", true),
        ("http://localhost:3000/mcp", true),
        ("${MCP_URL}", true),
        ("https://${MCP_HOST}/mcp", true),
        ("file:///etc/passwd", false),
        ("ftp://example.com/mcp", false),
        ("ftp://${MCP_HOST}/mcp", false),
        ("file://${MCP_PATH}", false),
        ("HTTPS://example.com/mcp", true),
        ("https://example.com:abc/mcp", false),
        ("https://exa mple.com/mcp", false),
        ("http://[::1]:8080/mcp", true),
        ("https://user:pass@example.com/mcp", true),
        ("https://example.com:65535/mcp", true),
        ("https://example.com:99999/mcp", false),
        ("https://example.com?mode=ci", true),
        ("https://example.com", true),
        ("https://bücher.example/mcp", true),
        ("https://example.com:00080/mcp", true),
        ("mcp.example.com/mcp", false),
        ("javascript:alert(1)", false),
        ("https://[zz]/mcp", false),
        ("https://", false),
    ];
    for (url, accepted) in pinned {
        assert_eq!(
            verdicts(&v, &http_with(url)),
            (accepted, accepted),
            "{url:?}: (parser, schema)"
        );
    }
    // WHATWG leniency: whatever the parser accepts, the schema must accept too.
    let lenient = [
        "http:example.com",
        "https:///example.com/mcp",
        "https://example.com:/mcp",
        "  https://example.com/mcp  ",
        "https:\\\\example.com\\mcp",
        "http://0x7f.1/",
        "https://ex%61mple.com/",
        "http${S}://example.com/mcp",
        "${SCHEME}://example.com/mcp",
        "https://example.com:${PORT}/mcp",
        "HtTpS://EXAMPLE.com#frag",
        "https://[::ffff:192.168.0.1]/",
        "https://example.com/mcp?token=${TOKEN}",
        "http://user@example.com",
        "https://example.com:0/",
    ];
    for url in lenient {
        let (parser, schema) = verdicts(&v, &http_with(url));
        assert!(parser, "{url:?}: the parser should accept it");
        assert!(
            schema,
            "{url:?}: the schema rejects a URL the parser accepts"
        );
    }
}

#[test]
fn shipped_configs_validate() {
    let v = schema("config.v1.schema.json");
    let template = mcpward::config::init_template();
    assert!(template.starts_with(
        "# yaml-language-server: $schema=https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/config.v1.schema.json\n"
    ));
    assert_valid(&v, &yaml(&template), "init template");
    for rel in ["examples/mcpward.yaml", "fixtures/configs/suites.yaml"] {
        let text = std::fs::read_to_string(root().join(rel)).unwrap();
        assert_valid(&v, &yaml(&text), rel);
        assert!(
            mcpward::config::load_str(&text, Path::new(rel), &env_for_urls).is_ok(),
            "{rel}"
        );
    }
}

/// Configs the parser accepts, written the way users do: the schema accepts every one.
#[test]
fn parser_accepted_configs_validate() {
    let v = schema("config.v1.schema.json");
    let stdio = "server:\n  transport: stdio\n  command: node\n";
    let cases = [
        "server: {transport: stdio, command: node, args: [], env: {}}\n".to_string(),
        "server: {transport: stdio, command: \"\", protocol_era: modern}\n".into(),
        "server: {transport: http, url: \"https://x.example/mcp\", headers: {Authorization: \"Bearer ${TOKEN}\"}, protocol_era: auto}\n".into(),
        "server: {transport: stdio, command: node, protocol_era: \"${ERA}\"}\n".into(),
        format!("{stdio}expect: {{protocol_version: \"\"}}\n"),
        format!("{stdio}checks: {{}}\ntimeouts: {{}}\nsuites: []\n"),
        format!("{stdio}checks: {{errors: false, compliance: false, schema: false, security: false}}\n"),
        format!("{stdio}checks: {{errors: {{}}}}\n"),
        format!("{stdio}checks: {{errors: {{enabled: false, unknown_tool: either}}}}\n"),
        format!("{stdio}checks: {{drift: {{}}}}\n"),
        format!("{stdio}checks: {{drift: {{fail_on: high}}}}\n"),
        format!("{stdio}checks: {{drift: {{fail_on: \"${{LEVEL}}\"}}}}\n"),
        format!("{stdio}checks: {{drift: {{fail_on: []}}}}\n"),
        format!("{stdio}checks: {{drift: {{fail_on: [tool_added, nonbreaking_output_shape_change], severity: {{tool_added: high, description_changed: low}}, full_text: false, baseline: x.json}}}}\n"),
        format!("{stdio}checks: {{drift: {{output: {{}}}}}}\n"),
        format!("{stdio}checks: {{drift: {{output: {{enabled: true, shape_samples: 2, call_readonly: false, tools: [{{name: a}}, {{name: b, args: {{x: [1, null]}}}}]}}}}}}\n"),
        format!("{stdio}checks: {{latency: {{}}}}\n"),
        format!("{stdio}checks: {{latency: {{samples: 1, p95_budget_ms: 0.5, call_readonly: false, tools: [{{name: t}}], call_all: true}}}}\n"),
        format!("{stdio}checks: {{collision: {{enabled: false, threshold: 0, max_tools: 1, fail: true}}}}\n"),
        format!("{stdio}checks: {{collision: {{threshold: 1}}}}\n"),
        format!("{stdio}timeouts: {{connect_ms: 1, call_ms: 9007199254740991, run_ms: 1.0}}\n"),
        format!("{stdio}suites: [{{tool: t, cases: []}}]\n"),
        format!("{stdio}suites: [{{tool: t, cases: [{{name: c, args: {{a: 1}}, expect: {{tool_is_error: true, protocol_error_code: -32602, output_matches_schema: false, jsonpath: {{\"$.a\": 1}}, golden: g.json}}}}]}}]\n"),
        // Unknown keys are warnings, never errors.
        format!("{stdio}chekcs: {{}}\nextra: 1\n"),
        "server: {transport: stdio, command: node, url: \"ftp://ignored\"}\n".into(),
    ];
    for text in &cases {
        assert_eq!(verdicts(&v, text), (true, true), "{text}");
    }
}

#[test]
fn malformed_configs_are_rejected_by_both() {
    let v = schema("config.v1.schema.json");
    let stdio = "server:\n  transport: stdio\n  command: node\n";
    let cases = [
        "server: {transport: ftp, command: node}\n".to_string(),
        "server: {command: node}\n".into(),
        "server: {transport: stdio}\n".into(),
        "server: {transport: http}\n".into(),
        "checks: {}\n".into(),
        "server: {transport: stdio, command: node, args: [8080]}\n".into(),
        "server: {transport: stdio, command: node, env: {PORT: 8080}}\n".into(),
        "server: {transport: stdio, command: node, protocol_era: ancient}\n".into(),
        format!("{stdio}checks: {{drift: {{fail_on: critical}}}}\n"),
        format!("{stdio}checks: {{drift: {{fail_on: [tool_vanished]}}}}\n"),
        format!("{stdio}checks: {{drift: {{severity: {{tool_vanished: high}}}}}}\n"),
        format!("{stdio}checks: {{drift: {{severity: {{tool_added: critical}}}}}}\n"),
        format!("{stdio}checks: {{drift: {{output: {{shape_samples: 0}}}}}}\n"),
        format!("{stdio}checks: {{errors: {{unknown_tool: never}}}}\n"),
        format!("{stdio}checks: {{errors: \"true\"}}\n"),
        format!("{stdio}checks: {{compliance: \"yes\"}}\n"),
        format!("{stdio}checks:\n"),
        format!("{stdio}checks: {{collision: {{threshold: 1.5}}}}\n"),
        format!("{stdio}checks: {{latency: {{p95_budget_ms: 0}}}}\n"),
        format!("{stdio}checks: {{latency: {{tools: [{{args: {{}}}}]}}}}\n"),
        format!("{stdio}timeouts: {{call_ms: 0}}\n"),
        format!("{stdio}timeouts: {{call_ms: 1.5}}\n"),
        format!("{stdio}timeouts: {{call_ms: 9007199254740992}}\n"),
        format!("{stdio}suites: [{{tool: t}}]\n"),
        format!("{stdio}suites: [{{tool: t, cases: [{{args: {{}}}}]}}]\n"),
        format!("{stdio}suites: [{{tool: t, cases: [{{name: c, expect: {{protocol_error_code: 1.5}}}}]}}]\n"),
    ];
    for text in &cases {
        assert_eq!(verdicts(&v, text), (false, false), "{text}");
    }
}

// ---------------------------------------------------------------- report

const FAST: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 3000\n  run_ms: 30000\n";

fn fixture_report(tools: &str) -> (Value, Option<i32>) {
    let w = Workdir::new();
    let tag = unique_tag("schemas");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", tools], &tag, FAST),
    );
    let o = w.run(&["run", "--json"]);
    (json_report(&o), o.status.code())
}

#[test]
fn real_reports_validate_and_malformed_ones_do_not() {
    let v = schema("report.v1.schema.json");
    let (clean, code) = fixture_report("clean");
    assert_eq!(code, Some(0));
    assert_valid(&v, &clean, "clean report");
    assert_eq!(clean["schemaVersion"], 1);
    let (failing, code) = fixture_report("malformed");
    assert_eq!(code, Some(1));
    assert_valid(&v, &failing, "failing report");
    assert!(!failing["results"].as_array().unwrap().is_empty());

    let mut bad = clean.clone();
    bad.as_object_mut().unwrap().remove("schemaVersion");
    assert!(!v.is_valid(&bad), "schemaVersion missing");
    let mut bad = clean.clone();
    bad["schemaVersion"] = json!(2);
    assert!(!v.is_valid(&bad), "schemaVersion 2");
    let mut bad = clean.clone();
    bad["results"][0]["status"] = json!("ok");
    assert!(!v.is_valid(&bad), "status ok");
    let mut bad = clean.clone();
    bad["results"][0]["severity"] = json!("critical");
    assert!(!v.is_valid(&bad), "severity critical");
    let mut bad = clean.clone();
    bad["results"][0]["id"] = json!("Compliance Handshake");
    assert!(!v.is_valid(&bad), "bad id");
    let mut bad = clean.clone();
    bad["summary"]["failed"] = json!(-1);
    assert!(!v.is_valid(&bad), "negative count");
    let mut bad = clean.clone();
    bad["timestamp"] = json!("yesterday");
    assert!(!v.is_valid(&bad), "timestamp");
    let mut bad = clean;
    bad["results"][0].as_object_mut().unwrap().remove("message");
    assert!(!v.is_valid(&bad), "message missing");
}

// ---------------------------------------------------------------- lockfile

fn example_lockfile() -> Value {
    let text =
        std::fs::read_to_string(root().join("fixtures/tables/lockfile-example.lock.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn lockfiles_validate_and_malformed_ones_do_not() {
    let v = schema("lockfile.v2.schema.json");
    let good = example_lockfile();
    assert_valid(&v, &good, "lockfile-example");

    let mut modern = good.clone();
    modern["meta"]["protocol"] = json!({"era": "modern", "supportedVersions": ["2026-07-28"]});
    assert_valid(&v, &modern, "meta.protocol");
    let mut shaped = good.clone();
    shaped["tools"]["echo"]["outputShape"] = json!({
        "source": "structured", "samples": 2,
        "shape": {"types": ["object"], "objectCount": 2, "properties": {
            "items": {"seen": 2, "shape": {"types": ["array"], "items": {"types": ["null", "string"]}}}
        }}
    });
    assert_valid(&v, &shaped, "outputShape");
    let mut timed = good.clone();
    timed["latency"] = json!({"echo": {"p50Ms": 1.2, "p95Ms": 3, "samples": 5}});
    assert_valid(&v, &timed, "latency");

    type Mutation = Box<dyn Fn(&mut Value)>;
    let bad_cases: Vec<(&str, Mutation)> = vec![
        (
            "missing tools",
            Box::new(|l| {
                l.as_object_mut().unwrap().remove("tools");
            }),
        ),
        (
            "md5 hash",
            Box::new(|l| l["tools"]["echo"]["descriptionHash"] = json!("md5:abc")),
        ),
        (
            "credential fingerprint",
            Box::new(|l| {
                l["meta"]["authContext"]["fingerprint"] = json!("sk-live-THIS-IS-A-REAL-SECRET")
            }),
        ),
        (
            "schemaVersion 3",
            Box::new(|l| l["meta"]["schemaVersion"] = json!(3)),
        ),
        (
            "transport ftp",
            Box::new(|l| l["meta"]["target"]["transport"] = json!("ftp")),
        ),
        (
            "annotation not boolean",
            Box::new(|l| l["tools"]["read_data"]["annotations"]["readOnlyHint"] = json!("yes")),
        ),
        (
            "shape type",
            Box::new(|l| {
                l["tools"]["echo"]["outputShape"] =
                    json!({"source": "structured", "samples": 1, "shape": {"types": ["integer"]}})
            }),
        ),
        (
            "zero samples",
            Box::new(|l| {
                l["tools"]["echo"]["outputShape"] =
                    json!({"source": "content", "samples": 0, "shape": {"types": ["object"]}})
            }),
        ),
        (
            "latency without samples",
            Box::new(|l| l["latency"] = json!({"echo": {"p50Ms": 1, "p95Ms": 2}})),
        ),
        (
            "latency negative",
            Box::new(|l| l["latency"] = json!({"echo": {"p50Ms": -1, "p95Ms": 2, "samples": 1}})),
        ),
        (
            "meta missing",
            Box::new(|l| {
                l.as_object_mut().unwrap().remove("meta");
            }),
        ),
    ];
    for (what, f) in bad_cases {
        let mut l = good.clone();
        f(&mut l);
        assert!(!v.is_valid(&l), "{what} should be rejected");
    }
    // A v1 lockfile is not a v2 one (it is migrated in memory, not described here).
    let legacy =
        std::fs::read_to_string(root().join("fixtures/lockfiles/legacy-v1.lock.json")).unwrap();
    assert!(!v.is_valid(&serde_json::from_str(&legacy).unwrap()));
}

fn table(name: &str) -> String {
    root()
        .join("fixtures/tables")
        .join(name)
        .display()
        .to_string()
}

/// Baselines written by the binary validate, with and without output shapes.
#[test]
fn real_baselines_validate() {
    let v = schema("lockfile.v2.schema.json");
    for (file, output, want_shape) in [
        ("drift-v1.json", "", false),
        (
            "output-v1.json",
            "    output:\n      enabled: true\n      shape_samples: 2\n",
            true,
        ),
    ] {
        let w = Workdir::new();
        let tag = unique_tag("schemas-baseline");
        w.write(
            "mcpward.yaml",
            &stdio_config(
                &["--tools-file", &table(file)],
                &tag,
                &format!("checks:\n  drift:\n    baseline: ./mcpward.lock.json\n{output}"),
            ),
        );
        let o = w.run(&["baseline"]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let text = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
        let lock: Value = serde_json::from_str(&text).unwrap();
        assert_valid(&v, &lock, file);
        let shapes = lock["tools"]
            .as_object()
            .unwrap()
            .values()
            .filter(|t| t.get("outputShape").is_some())
            .count();
        assert_eq!(shapes > 0, want_shape, "{file}");
    }
}

// #12 §6: `checks.errors.invalid_params` agrees between the schema and the parser.
#[test]
fn errors_invalid_params_agrees_with_the_parser() {
    let v = schema("config.v1.schema.json");
    let with = |errors: &str| {
        format!("server: {{transport: stdio, command: node}}\nchecks:\n  errors: {errors}\n")
    };
    for (errors, accepted) in [
        ("{invalid_params: warn}", true),
        ("{invalid_params: strict}", true),
        ("{unknown_tool: either, invalid_params: strict}", true),
        ("{invalid_params: fail}", false),
        ("{invalid_params: true}", false),
    ] {
        assert_eq!(
            verdicts(&v, &with(errors)),
            (accepted, accepted),
            "{errors}: (parser, schema)"
        );
    }
}

// ---------------------------------------------------------------- fleet report

/// The fleet schema, its `$ref`s to report.v1 resolved from `schemas/` (never fetched).
fn fleet_schema() -> jsonschema::Validator {
    struct Local;
    impl jsonschema::Retrieve for Local {
        fn retrieve(
            &self,
            uri: &jsonschema::Uri<String>,
        ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
            let name = uri
                .as_str()
                .strip_prefix("https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/")
                .ok_or_else(|| format!("not one of ours: {}", uri.as_str()))?;
            let text = std::fs::read_to_string(root().join("schemas").join(name))?;
            Ok(serde_json::from_str(&text)?)
        }
    }
    let name = "fleet-report.v1.schema.json";
    let text = std::fs::read_to_string(root().join("schemas").join(name)).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(
        v["$id"],
        format!("https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/{name}")
    );
    jsonschema::options()
        .should_validate_formats(true)
        .with_retriever(Local)
        .build(&v)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A fleet document rendered from real runs: the clean and the malformed fixture, one
/// result of the legacy lane, an unreachable member and a cross-server result.
fn rendered_fleet() -> Value {
    use mcpward::model::{FleetMember, FleetReport, Report};
    let (clean, _) = fixture_report("clean");
    let (failing, _) = fixture_report("malformed");
    let mut clean: Report = serde_json::from_value(clean).unwrap();
    clean.results[0].era = Some("legacy".into());
    let failing: Report = serde_json::from_value(failing).unwrap();
    let cross = serde_json::from_value(json!([{
        "id": "collision/description-collision", "family": "collision", "status": "warn",
        "severity": "warning", "message": "near-identical descriptions", "location": "a, b"
    }]))
    .unwrap();
    let fleet = FleetReport::new(
        vec!["a".into(), "b".into(), "gone".into()],
        Some(mcpward::model::Shard { index: 1, count: 1 }),
        vec![
            FleetMember::tested("a", clean, vec![json!({"name": "echo"})]),
            FleetMember::tested("b", failing, vec![]),
            FleetMember::incomplete("gone", "connect: connection refused", None),
        ],
        cross,
        mcpward::model::timestamp_now(),
    );
    let text = mcpward::report::render_fleet(
        mcpward::report::ReporterKind::Json,
        &fleet,
        &mcpward::report::RenderContext::default(),
    );
    serde_json::from_str(&text).unwrap()
}

#[test]
fn rendered_fleets_validate_and_malformed_ones_do_not() {
    let v = fleet_schema();
    let good = rendered_fleet();
    assert_valid(&v, &good, "fleet document");
    assert_eq!(good["summary"]["exitCode"], 2);
    // The era of a result is part of report.v1 too.
    assert_valid(
        &schema("report.v1.schema.json"),
        &good["servers"][0]["report"],
        "member report",
    );

    type Mutation = Box<dyn Fn(&mut Value)>;
    let bad_cases: Vec<(&str, Mutation)> = vec![
        (
            "fleetSchemaVersion 2",
            Box::new(|f| f["fleetSchemaVersion"] = json!(2)),
        ),
        (
            "no order",
            Box::new(|f| {
                f.as_object_mut().unwrap().remove("order");
            }),
        ),
        (
            "exit code 3",
            Box::new(|f| f["summary"]["exitCode"] = json!(3)),
        ),
        ("shard 0", Box::new(|f| f["shard"]["index"] = json!(0))),
        (
            "status fine",
            Box::new(|f| f["servers"][0]["status"] = json!("fine")),
        ),
        (
            "incomplete without reason",
            Box::new(|f| {
                f["servers"][2].as_object_mut().unwrap().remove("reason");
            }),
        ),
        (
            "tested without report",
            Box::new(|f| {
                f["servers"][0].as_object_mut().unwrap().remove("report");
            }),
        ),
        (
            "reason on a passed member",
            Box::new(|f| f["servers"][0]["reason"] = json!("x")),
        ),
        // The member report is checked against report.v1 (the $ref is followed).
        (
            "member report without schemaVersion",
            Box::new(|f| {
                f["servers"][1]["report"]
                    .as_object_mut()
                    .unwrap()
                    .remove("schemaVersion");
            }),
        ),
        (
            "member result severity critical",
            Box::new(|f| f["servers"][1]["report"]["results"][0]["severity"] = json!("critical")),
        ),
        (
            "era with markup",
            Box::new(|f| f["servers"][0]["report"]["results"][0]["era"] = json!("<b>")),
        ),
        (
            "cross result status ok",
            Box::new(|f| f["results"][0]["status"] = json!("ok")),
        ),
        (
            "summary count negative",
            Box::new(|f| f["summary"]["results"]["failed"] = json!(-1)),
        ),
    ];
    for (what, f) in bad_cases {
        let mut doc = good.clone();
        f(&mut doc);
        assert!(!v.is_valid(&doc), "{what} should be rejected");
    }
    // A single-server report is not a fleet document.
    let (single, _) = fixture_report("clean");
    assert!(!v.is_valid(&single));
}

/// Fleet configs (#15): (parser accepts, schema accepts), through `load_any_str`; client
/// files are the fixtures under tests/fixtures/clients/.
fn fleet_verdicts(v: &jsonschema::Validator, text: &str) -> (bool, bool) {
    let path = root().join("tests/fixtures/clients/mcpward.yaml");
    let parser = mcpward::config::load_any_str(text, &path, &|name: &str| match name {
        "FIXTURE_PORT" => Some("1234".into()),
        "MCPWARD_INPUT_API_KEY" => Some("secret-input".into()),
        "CURSOR_FIXTURE_TOKEN" => Some("cursor-token".into()),
        other => env_for_urls(other),
    });
    (parser.is_ok(), v.is_valid(&yaml(text)))
}

#[test]
fn fleet_configs_agree_with_the_parser() {
    let v = schema("config.v1.schema.json");
    let accepted = [
        "servers:\n  api: {transport: stdio, command: node}\n  web: {transport: http, url: \"http://127.0.0.1:1/mcp\", protocol_era: both}\n",
        "servers:\n  a.b_C-9: {transport: stdio, command: node, checks: {latency: {samples: 2}, drift: null}, timeouts: {call_ms: 5}, suites: [{tool: t, cases: []}]}\n",
        "servers:\n  a: {transport: stdio, command: node, checks: }\n",
        "servers_from: claude_desktop_config.json\n",
        "servers_from: [vscode-mcp.json, cursor-mcp.json, mcp-servers.json]\nchecks: {drift: {baseline: \"locks/{server}.json\"}}\n",
        "servers: {x: {transport: stdio, command: y}}\nservers_from: [claude_desktop_config.json]\n",
    ];
    for text in accepted {
        assert_eq!(fleet_verdicts(&v, text), (true, true), "{text}");
    }
    let rejected = [
        "server: {transport: stdio, command: node}\nservers:\n  api: {transport: stdio, command: node}\n",
        "server: {transport: stdio, command: node}\nservers_from: claude_desktop_config.json\n",
        "servers:\n  \"a b\": {transport: stdio, command: node}\n",
        "servers:\n  \"..\": {transport: stdio, command: node}\n",
        "servers:\n  api: {transport: stdio}\n",
        "servers:\n  api: {transport: ftp, command: node}\n",
        "servers: [a]\n",
        "servers_from: 5\n",
        "servers_from: [\"\"]\n",
        "servers:\n  api: {transport: stdio, command: node, suites: 5}\n",
    ];
    for text in rejected {
        assert_eq!(fleet_verdicts(&v, text), (false, false), "{text}");
    }
}
