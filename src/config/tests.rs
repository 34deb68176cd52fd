//! config.md §14 edge cases, the URL table of §3.3 and DECISIONS #10/#30/#33/#35.

use super::*;
use crate::protocol::versions::EraChoice;
use serde_json::{json, Value};

const MINIMAL: &str = "server: {transport: stdio, command: node}\n";

fn no_env(_: &str) -> Option<String> {
    None
}

fn try_load(yaml: &str) -> Result<Loaded, ConfigError> {
    load_str(yaml, Path::new("mcpward.yaml"), &no_env)
}

fn try_load_env(yaml: &str, vars: &[(&str, &str)]) -> Result<Loaded, ConfigError> {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    load_str(yaml, Path::new("mcpward.yaml"), &move |name: &str| {
        vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    })
}

fn ok(yaml: &str) -> Loaded {
    match try_load(yaml) {
        Ok(l) => l,
        Err(e) => panic!("expected {yaml:?} to load, got: {e}"),
    }
}

fn err(yaml: &str) -> String {
    match try_load(yaml) {
        Ok(l) => panic!("expected {yaml:?} to fail, loaded {:?}", l.config),
        Err(e) => e.to_string(),
    }
}

/// The `Invalid config:` lines, without the header.
fn issues(yaml: &str) -> Vec<String> {
    match try_load(yaml) {
        Err(ConfigError::Invalid { issues }) => issues,
        Err(e) => panic!("expected a validation error for {yaml:?}, got: {e}"),
        Ok(l) => panic!("expected {yaml:?} to fail, loaded {:?}", l.config),
    }
}

fn with_checks(checks: &str) -> String {
    format!("{MINIMAL}checks:\n{checks}")
}

fn stdio(cfg: &Config) -> (&String, &Vec<String>, &BTreeMap<String, String>) {
    match &cfg.server.transport {
        Transport::Stdio { command, args, env } => (command, args, env),
        other => panic!("expected stdio, got {other:?}"),
    }
}

fn http(cfg: &Config) -> (&String, &BTreeMap<String, String>) {
    match &cfg.server.transport {
        Transport::Http { url, headers, .. } => (url, headers),
        other => panic!("expected http, got {other:?}"),
    }
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

// §14.1
#[test]
fn stdio_with_args_and_env_loads_exactly() {
    let l = ok("server:\n  transport: stdio\n  command: npx\n  args: [\"-y\", \"@mcp/server\", \"/tmp/x\"]\n  env:\n    FOO: bar\n    EMPTY: \"\"\n");
    let (command, args, env) = stdio(&l.config);
    assert_eq!(command, "npx");
    assert_eq!(args, &vec!["-y", "@mcp/server", "/tmp/x"]);
    assert_eq!(env, &map(&[("FOO", "bar"), ("EMPTY", "")]));
    assert!(l.warnings.is_empty());
}

// §14.2
#[test]
fn http_with_headers_loads_exactly() {
    let l = ok("server:\n  transport: http\n  url: https://mcp.example.com/mcp\n  headers:\n    X-Api-Key: k1\n    Authorization: Bearer abc\n");
    let (url, headers) = http(&l.config);
    assert_eq!(url, "https://mcp.example.com/mcp");
    assert_eq!(
        headers,
        &map(&[("X-Api-Key", "k1"), ("Authorization", "Bearer abc")])
    );
}

// §14.3 and §13
#[test]
fn minimal_stdio_gets_every_default() {
    let l = ok(MINIMAL);
    assert_eq!(
        l.config,
        Config {
            server: Server {
                transport: Transport::Stdio {
                    command: "node".into(),
                    args: vec![],
                    env: BTreeMap::new(),
                },
                protocol_era: EraChoice::Auto,
            },
            expect: Expect {
                protocol_version: None
            },
            checks: Checks {
                compliance: ComplianceConfig {
                    enabled: true,
                    stability: true,
                },
                schema: true,
                security: true,
                errors: ErrorsConfig {
                    enabled: true,
                    unknown_tool: UnknownToolPolicy::ProtocolError,
                    invalid_params: InvalidParamsPolicy::Warn,
                    probe: crate::checks::errors::ProbePolicy::All,
                    skip: Vec::new(),
                },
                drift: None,
                latency: None,
                collision: CollisionConfig {
                    enabled: true,
                    threshold: 0.8,
                    max_tools: 500,
                    fail: false
                },
                toxic_flow: crate::checks::security::ToxicFlow::Info,
                auth: true,
                http: true,
            },
            timeouts: Timeouts {
                connect_ms: 10000,
                call_ms: 30000,
                run_ms: 300000
            },
            limits: crate::observed::Limits::default(),
            suites: vec![],
            suppress: vec![],
        }
    );
    assert!(l.secrets.is_empty());
    assert!(l.warnings.is_empty());
    assert_eq!(l.path, PathBuf::from("mcpward.yaml"));
    assert_eq!(l.dir, PathBuf::from("."));
}

#[test]
fn dir_is_the_config_files_directory() {
    let l = load_str(MINIMAL, Path::new("conf/ci/mcpward.yaml"), &no_env).unwrap();
    assert_eq!(l.dir, PathBuf::from("conf/ci"));
}

// §14.4
#[test]
fn empty_checks_turns_families_on_and_leaves_opt_ins_off() {
    let c = ok(&format!("{MINIMAL}checks: {{}}\n")).config.checks;
    assert!(c.compliance.enabled && c.schema && c.security && c.errors.enabled);
    assert_eq!(c.drift, None);
    assert_eq!(c.latency, None);
    assert_eq!(c.collision, CollisionConfig::default());
}

#[test]
fn families_can_be_disabled() {
    let c = ok(&with_checks(
        "  compliance: false\n  schema: false\n  security: false\n  errors: false\n  collision: {enabled: false}\n",
    ))
    .config
    .checks;
    assert!(!c.compliance.enabled && !c.schema && !c.security && !c.errors.enabled);
    assert!(!c.collision.enabled);
}

// §14.5
#[test]
fn bearer_header_is_interpolated_and_registered_as_secret() {
    let l = try_load_env(
        "server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    Authorization: \"Bearer ${TEST_TOKEN}\"\n",
        &[("TEST_TOKEN", "secret123")],
    )
    .unwrap();
    let (_, headers) = http(&l.config);
    assert_eq!(headers["Authorization"], "Bearer secret123");
    assert_eq!(l.secrets, vec!["secret123".to_string()]);
}

// §14.6
#[test]
fn unset_variable_is_an_error_naming_it_and_where_it_is_used() {
    let e = try_load_env(
        "server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    Authorization: \"Bearer ${MISSING_VAR}\"\n",
        &[],
    )
    .unwrap_err();
    assert!(matches!(&e, ConfigError::EnvVar { name, .. } if name == "MISSING_VAR"));
    assert_eq!(
        e.to_string(),
        "Environment variable \"MISSING_VAR\" is not set (used by server.headers.Authorization)"
    );
}

#[test]
fn first_unset_variable_in_document_order_stops_loading() {
    let e = try_load_env(
        "server:\n  transport: stdio\n  command: ${FIRST}\n  args: [\"${SECOND}\"]\n",
        &[],
    )
    .unwrap_err();
    assert!(e
        .to_string()
        .starts_with("Environment variable \"FIRST\" is not set"));
    let e = try_load_env(
        "server:\n  transport: stdio\n  command: ${FIRST}\n  args: [\"${SECOND}\"]\n",
        &[("FIRST", "node")],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Environment variable \"SECOND\" is not set (used by server.args.0)"
    );
}

// §14.7
#[test]
fn missing_file_is_reported_with_the_init_hint() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.yaml");
    let e = load(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "Config file not found: {}\nRun \"mcpward init\" to create one.",
            path.display()
        )
    );
}

#[test]
fn unreadable_path_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    let e = load(dir.path()).unwrap_err();
    assert!(matches!(e, ConfigError::Read { .. }), "{e:?}");
    assert!(e.to_string().starts_with("Failed to read config file "));
}

#[test]
fn load_reads_a_real_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcpward.yaml");
    std::fs::write(&path, MINIMAL).unwrap();
    let l = load(&path).unwrap();
    assert_eq!(stdio(&l.config).0, "node");
    assert_eq!(l.dir, dir.path());
}

// §14.8
#[test]
fn unknown_transport_is_invalid() {
    let e = err("server: {transport: invalid, command: node}\n");
    assert!(e.starts_with("Invalid config:\n"), "{e}");
    assert!(
        e.contains("server.transport: must be \"stdio\" or \"http\""),
        "{e}"
    );
    let e = err("server: {command: node}\n");
    assert!(e.contains("server.transport: required"), "{e}");
}

// §14.9
#[test]
fn stdio_without_command_is_invalid() {
    assert_eq!(
        issues("server: {transport: stdio}\n"),
        vec!["server.command: required (a string)"]
    );
    // An empty command passes validation (fails at spawn).
    assert_eq!(
        stdio(&ok("server: {transport: stdio, command: \"\"}\n").config).0,
        ""
    );
}

#[test]
fn http_without_url_is_invalid() {
    assert_eq!(
        issues("server: {transport: http}\n"),
        vec!["server.url: required (a string)"]
    );
}

#[test]
fn missing_or_null_server_is_invalid() {
    assert_eq!(
        issues("checks: {}\n"),
        vec!["server: required (a mapping with a transport)"]
    );
    assert_eq!(
        issues("server:\n"),
        vec!["server: expected a mapping, got null"]
    );
}

// §14.10
#[test]
fn fail_on_list_and_baseline_round_trip() {
    let d = ok(&with_checks(
        "  drift:\n    baseline: ./custom.lock.json\n    fail_on: [tool_removed, description_changed]\n",
    ))
    .config
    .checks
    .drift
    .unwrap();
    assert_eq!(d.baseline, "./custom.lock.json");
    assert_eq!(
        d.fail_on,
        FailOn::Classes(vec![
            DriftClass::ToolRemoved,
            DriftClass::DescriptionChanged
        ])
    );
    assert!(d.full_text);
    assert_eq!(d.output, None);
}

#[test]
fn empty_drift_gets_defaults_and_empty_fail_on_is_allowed() {
    let d = ok(&with_checks("  drift: {}\n"))
        .config
        .checks
        .drift
        .unwrap();
    assert_eq!(d, DriftConfig::default());
    assert_eq!(d.baseline, "./mcpward.lock.json");
    assert_eq!(
        d.fail_on,
        // #14 adds the failing classes of the whole surface.
        FailOn::Classes(vec![
            DriftClass::ToolRemoved,
            DriftClass::DescriptionChanged,
            DriftClass::BreakingSchemaChange,
            DriftClass::AnnotationChanged,
            DriftClass::BreakingOutputShapeChange,
            DriftClass::ToolRenamed,
            DriftClass::PromptRemoved,
            DriftClass::PromptRenamed,
            DriftClass::PromptChanged,
            DriftClass::BreakingPromptChange,
            DriftClass::ResourceRemoved,
            DriftClass::ResourceChanged,
            DriftClass::BreakingResourceChange,
            DriftClass::ResourceTemplateRemoved,
            DriftClass::ResourceTemplateChanged,
            DriftClass::InstructionsChanged,
        ])
    );
    let d = ok(&with_checks("  drift: {fail_on: [], full_text: false}\n"))
        .config
        .checks
        .drift
        .unwrap();
    assert_eq!(d.fail_on, FailOn::Classes(vec![]));
    assert!(!d.full_text);
}

// §14.11
#[test]
fn fail_on_level_with_partial_severity_is_kept() {
    let d = ok(&with_checks(
        "  drift:\n    fail_on: high\n    severity: {tool_removed: high}\n",
    ))
    .config
    .checks
    .drift
    .unwrap();
    assert_eq!(d.fail_on, FailOn::Level(DriftSeverity::High));
    assert_eq!(
        d.severity,
        BTreeMap::from([(DriftClass::ToolRemoved, DriftSeverity::High)])
    );
}

#[test]
fn unknown_fail_on_level_or_class_is_invalid() {
    let i = issues(&with_checks("  drift: {fail_on: critical}\n"));
    assert_eq!(i.len(), 1);
    assert!(
        i[0].starts_with("checks.drift.fail_on: must be high, medium, low"),
        "{i:?}"
    );
    let i = issues(&with_checks(
        "  drift: {fail_on: [tool_removed, nope, 3]}\n",
    ));
    assert_eq!(i.len(), 2, "{i:?}");
    assert!(i[0].starts_with("checks.drift.fail_on.1: unknown drift class \"nope\""));
    assert!(i[1].starts_with("checks.drift.fail_on.2: expected a drift class name"));
}

// §14.12
#[test]
fn severity_keys_must_be_drift_classes() {
    let e = err(&with_checks(
        "  drift:\n    severity: {not_a_class: high}\n",
    ));
    assert!(e.starts_with("Invalid config:\n"));
    assert!(
        e.contains("checks.drift.severity.not_a_class: not a drift class"),
        "{e}"
    );
    let i = issues(&with_checks(
        "  drift: {severity: {tool_added: critical}}\n",
    ));
    assert_eq!(
        i,
        vec!["checks.drift.severity.tool_added: must be high, medium or low, got \"critical\""]
    );
}

#[test]
fn every_drift_class_and_level_round_trips() {
    for c in DriftClass::ALL {
        assert_eq!(DriftClass::parse(c.as_str()), Some(c));
    }
    for s in DriftSeverity::ALL {
        assert_eq!(DriftSeverity::parse(s.as_str()), Some(s));
    }
    assert_eq!(
        DriftClass::NonbreakingOutputShapeChange.as_str(),
        "nonbreaking_output_shape_change"
    );
    assert_eq!(DriftClass::parse("Tool_Removed"), None);
    let all = DriftClass::ALL.map(|c| c.as_str()).join(", ");
    let d = ok(&with_checks(&format!("  drift: {{fail_on: [{all}]}}\n")))
        .config
        .checks
        .drift
        .unwrap();
    assert_eq!(d.fail_on, FailOn::Classes(DriftClass::ALL.to_vec()));
}

// §14.13
#[test]
fn file_url_is_rejected_on_server_url() {
    let e = err("server: {transport: http, url: \"file:///etc/passwd\"}\n");
    let line = e.lines().nth(1).unwrap();
    assert!(line.starts_with("server.url"), "{e}");
    assert!(line.contains("\"file\""), "{e}");
}

/// config.md §3.3, every row, through the full loader.
#[test]
fn url_acceptance_table() {
    let table: &[(&str, bool)] = &[
        ("https://mcp.example.com/mcp", true),
        ("http://localhost:3000/mcp", true),
        ("HTTPS://example.com/mcp", true),
        ("http://[::1]:8080/mcp", true),
        ("https://user:pass@example.com/mcp", true),
        ("https://example.com:65535/mcp", true),
        ("https://example.com?mode=ci", true),
        ("https://example.com", true),
        ("https://example.com:abc/mcp", false),
        ("https://example.com:99999/mcp", false),
        ("https://exa mple.com/mcp", false),
        ("file:///etc/passwd", false),
        ("ftp://example.com/mcp", false),
        ("javascript:alert(1)", false),
        ("mcp.example.com/mcp", false),
        // reporters.md §11.2 extras and §3.3's lenient forms
        ("https://bücher.example/mcp", true),
        ("https://example.com:00080/mcp", true),
        ("http:example.com", true),
        ("https://example.com:0/mcp", true),
        ("http://", false),
        ("", false),
    ];
    for (url, accepted) in table {
        let yaml = format!("server: {{transport: http, url: {}}}\n", json!(url));
        let r = try_load(&yaml);
        assert_eq!(r.is_ok(), *accepted, "{url:?}: {r:?}");
        match r {
            Ok(l) => assert_eq!(http(&l.config).0, url, "stored unnormalised"),
            Err(e) => assert!(e.to_string().contains("\nserver.url: "), "{e}"),
        }
    }
}

#[test]
fn url_is_trimmed_and_validated_after_interpolation() {
    let l = try_load_env(
        "server: {transport: http, url: \"  ${MCP_URL}  \"}\n",
        &[("MCP_URL", "https://x.example/mcp")],
    )
    .unwrap();
    assert_eq!(http(&l.config).0, "https://x.example/mcp");
    let e = try_load_env(
        "server: {transport: http, url: \"ftp://${MCP_HOST}/mcp\"}\n",
        &[("MCP_HOST", "h.example")],
    )
    .unwrap_err();
    assert!(e
        .to_string()
        .contains("server.url: URL scheme must be http or https"));
}

// §14.14
#[test]
fn empty_output_gets_defaults() {
    let d = ok(&with_checks("  drift:\n    output: {}\n"))
        .config
        .checks
        .drift
        .unwrap();
    assert_eq!(
        d.output,
        Some(OutputDriftConfig {
            enabled: false,
            shape_samples: 3,
            call_readonly: true,
            tools: vec![]
        })
    );
}

#[test]
fn output_allowlist_keeps_names_and_args() {
    let d = ok(&with_checks(
        "  drift:\n    output:\n      enabled: true\n      shape_samples: 2\n      call_readonly: false\n      tools:\n        - name: get_order\n          args: {id: demo-1, n: 2, nested: {a: [1, null]}}\n        - name: ping\n",
    ))
    .config
    .checks
    .drift
    .unwrap();
    let o = d.output.unwrap();
    assert!(o.enabled && !o.call_readonly);
    assert_eq!(o.shape_samples, 2);
    assert_eq!(o.tools.len(), 2);
    assert_eq!(o.tools[0].name, "get_order");
    assert_eq!(
        Value::Object(o.tools[0].args.clone()),
        json!({"id": "demo-1", "n": 2, "nested": {"a": [1, null]}})
    );
    assert!(o.tools[1].args.is_empty());
    let i = issues(&with_checks(
        "  drift:\n    output:\n      tools: [{args: {}}, {name: 5}, x]\n",
    ));
    assert_eq!(
        i,
        vec![
            "checks.drift.output.tools.0.name: required (a string)",
            "checks.drift.output.tools.1.name: expected a string, got a number (5)",
            "checks.drift.output.tools.2: expected a mapping, got a string (\"x\")",
        ]
    );
}

// §14.15
#[test]
fn zero_shape_samples_names_the_key() {
    let e = err(&with_checks("  drift:\n    output: {shape_samples: 0}\n"));
    assert!(e.contains("checks.drift.output.shape_samples"), "{e}");
    assert_eq!(
        e,
        "Invalid config:\nchecks.drift.output.shape_samples: must be greater than 0, got 0"
    );
}

// §14.16
#[test]
fn empty_collision_gets_defaults() {
    let c = ok(&with_checks("  collision: {}\n"))
        .config
        .checks
        .collision;
    assert_eq!(
        c,
        CollisionConfig {
            enabled: true,
            threshold: 0.8,
            max_tools: 500,
            fail: false
        }
    );
    let c = ok(&with_checks(
        "  collision: {threshold: 1, max_tools: 20, fail: true}\n",
    ))
    .config
    .checks
    .collision;
    assert_eq!((c.threshold, c.max_tools, c.fail), (1.0, 20, true));
    assert_eq!(
        ok(&with_checks("  collision: {threshold: 0}\n"))
            .config
            .checks
            .collision
            .threshold,
        0.0
    );
    assert_eq!(
        issues(&with_checks(
            "  collision: {threshold: 1.5, max_tools: 0}\n"
        )),
        vec![
            "checks.collision.threshold: must be between 0 and 1, got 1.5",
            "checks.collision.max_tools: must be greater than 0, got 0",
        ]
    );
}

#[test]
fn latency_defaults_and_values() {
    let l = ok(&with_checks("  latency: {}\n"))
        .config
        .checks
        .latency
        .unwrap();
    assert_eq!(l, LatencyConfig::default());
    assert_eq!(
        (l.samples, l.p95_budget_ms, l.call_readonly, l.call_all),
        (5, 1000.0, true, false)
    );
    assert!(l.tools.is_empty());
    let l = ok(&with_checks(
        "  latency:\n    samples: 3\n    p95_budget_ms: 12.5\n    call_readonly: false\n    call_all: true\n    tools: [{name: read_file, args: {path: /tmp/a}}]\n",
    ))
    .config
    .checks
    .latency
    .unwrap();
    assert_eq!((l.samples, l.p95_budget_ms), (3, 12.5));
    assert!(!l.call_readonly && l.call_all);
    assert_eq!(l.tools[0].name, "read_file");
    assert_eq!(l.tools[0].args["path"], json!("/tmp/a"));
    assert_eq!(
        issues(&with_checks("  latency: {samples: 0, p95_budget_ms: 0}\n")),
        vec![
            "checks.latency.samples: must be greater than 0, got 0",
            "checks.latency.p95_budget_ms: must be greater than 0, got 0",
        ]
    );
    assert_eq!(
        issues(&with_checks("  latency: {p95_budget_ms: .inf}\n")),
        vec!["checks.latency.p95_budget_ms: must be a finite number, got .inf"]
    );
}

#[test]
fn latency_regression_defaults_values_and_errors() {
    use crate::checks::latency::RegressionConfig;
    let r = |yaml: &str| {
        ok(&with_checks(yaml))
            .config
            .checks
            .latency
            .unwrap()
            .regression
    };
    let d = RegressionConfig {
        ratio: 2.0,
        min_ms: 50.0,
        warmup: 2,
    };
    assert_eq!(r("  latency: {}\n"), d);
    assert_eq!(r("  latency: {regression: {}}\n"), d);
    assert_eq!(
        r("  latency: {regression: {ratio: 1.5, min_ms: 0, warmup: 0}}\n"),
        RegressionConfig {
            ratio: 1.5,
            min_ms: 0.0,
            warmup: 0
        }
    );
    assert_eq!(
        issues(&with_checks(
            "  latency: {regression: {ratio: 0.5, min_ms: -1, warmup: -2}}\n"
        )),
        vec![
            "checks.latency.regression.ratio: must be at least 1, got 0.5",
            "checks.latency.regression.min_ms: must be 0 or greater, got -1",
            "checks.latency.regression.warmup: must be 0 or greater, got -2",
        ]
    );
    assert_eq!(
        issues(&with_checks(
            "  latency: {regression: {ratio: x, warmup: 1.5}}\n"
        )),
        vec![
            "checks.latency.regression.ratio: expected a number, got a string (\"x\")",
            "checks.latency.regression.warmup: expected an integer, got 1.5",
        ]
    );
    assert_eq!(
        issues(&with_checks("  latency: {regression: 3}\n")),
        vec!["checks.latency.regression: expected a mapping, got a number (3)"]
    );
}

// §14.17
#[test]
fn init_template_loads_with_fail_on_high_and_needs_no_variable() {
    let template = init_template();
    assert!(template.starts_with(
        "# yaml-language-server: $schema=https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/config.v1.schema.json\n"
    ));
    // §14.25: the template's only placeholder sits in a comment.
    assert!(template.contains("${MCP_TOKEN}"));
    let l = ok(&template);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert!(l.secrets.is_empty());
    let (command, args, env) = stdio(&l.config);
    assert_eq!(command, "npx");
    assert_eq!(
        args,
        &vec!["-y", "@modelcontextprotocol/server-filesystem", "."]
    );
    assert!(env.is_empty());
    let c = &l.config.checks;
    let d = c.drift.as_ref().unwrap();
    assert_eq!(d.fail_on, FailOn::Level(DriftSeverity::High));
    assert_eq!(d.baseline, "./mcpward.lock.json");
    assert!(c.compliance.enabled && c.schema && c.security && c.errors.enabled);
    assert_eq!(c.collision.threshold, 0.8);
    // #16 §6: the template's error probe calls only tools that say they are safe.
    assert_eq!(c.errors.probe, crate::checks::errors::ProbePolicy::Safe);
    // #16 §6: latency sampling is offered commented out, never on by default.
    assert!(c.latency.is_none());
    assert!(template.contains("  # latency:\n  #   samples: 5\n  #   p95_budget_ms: 1000\n"));
    assert_eq!(d.surface, crate::surface::drift_vocab::SurfaceSet::ALL);
    assert!(l.config.suites.is_empty());
}

/// The "every option" example of the product README loads without warnings.
#[test]
fn readme_example_loads() {
    let yaml = r#"server:
  transport: stdio
  command: npx
  args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/sandbox"]
  env: {}
expect:
  protocol_version: "2025-11-25"
timeouts:
  connect_ms: 10000
  call_ms: 30000
  run_ms: 300000
checks:
  compliance: true
  schema: true
  security: true
  errors: true
  drift:
    baseline: ./mcpward.lock.json
    fail_on: high
    severity: {}
    full_text: true
    output:
      enabled: true
      shape_samples: 3
      call_readonly: true
      tools: []
  collision:
    enabled: true
    threshold: 0.8
    max_tools: 500
    fail: false
  latency:
    samples: 5
    p95_budget_ms: 1000
    call_readonly: true
    tools: []
    call_all: false
suites:
  - tool: read_file
    cases:
      - name: reads an existing file
        args: { path: "/tmp/sandbox/hello.txt" }
        expect:
          tool_is_error: false
          jsonpath:
            "$.content[0].type": "text"
      - name: returns error for missing file
        args: { path: "/nonexistent" }
        expect:
          tool_is_error: true
"#;
    let l = ok(yaml);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let c = &l.config;
    assert_eq!(c.expect.protocol_version.as_deref(), Some("2025-11-25"));
    assert!(
        c.checks
            .drift
            .as_ref()
            .unwrap()
            .output
            .as_ref()
            .unwrap()
            .enabled
    );
    assert_eq!(c.checks.collision.threshold, 0.8);
    assert_eq!(c.suites.len(), 1);
    assert_eq!(c.suites[0].tool, "read_file");
    assert_eq!(c.suites[0].cases.len(), 2);
    let case = &c.suites[0].cases[0];
    assert_eq!(case.name, "reads an existing file");
    assert_eq!(case.expect.as_ref().unwrap().tool_is_error, Some(false));
    assert_eq!(
        Value::Object(case.expect.as_ref().unwrap().jsonpath.clone().unwrap()),
        json!({"$.content[0].type": "text"})
    );
}

// §14.20 and §8
#[test]
fn server_env_withholds_credentials_and_lets_config_win() {
    let parent = vec![
        ("PATH".to_string(), "/usr/bin".to_string()),
        ("MCPWARD_GITHUB_TOKEN".to_string(), "t1".to_string()),
        ("GITHUB_TOKEN".to_string(), "t2".to_string()),
        ("github_token".to_string(), "t3".to_string()),
        ("Github_Token".to_string(), "t4".to_string()),
        ("mcpward_github_token".to_string(), "t5".to_string()),
        ("HOME".to_string(), "/home/u".to_string()),
        ("KEEP".to_string(), "parent".to_string()),
    ];
    let out = server_env(&BTreeMap::new(), parent.clone().into_iter());
    assert_eq!(
        out,
        vec![
            ("HOME".to_string(), "/home/u".to_string()),
            ("KEEP".to_string(), "parent".to_string()),
            ("PATH".to_string(), "/usr/bin".to_string()),
        ]
    );
    let extra = map(&[
        ("GITHUB_TOKEN", "explicitly-configured"),
        ("KEEP", "config"),
    ]);
    let out = server_env(&extra, parent.into_iter());
    assert_eq!(
        out,
        vec![
            (
                "GITHUB_TOKEN".to_string(),
                "explicitly-configured".to_string()
            ),
            ("HOME".to_string(), "/home/u".to_string()),
            ("KEEP".to_string(), "config".to_string()),
            ("PATH".to_string(), "/usr/bin".to_string()),
        ]
    );
}

#[test]
fn server_env_for_spawn_reads_the_process_env() {
    // PATH is set in any test environment; no token can leak through.
    let out = server_env_for_spawn(&map(&[("MCPWARD_TEST_EXTRA", "1")]));
    assert!(out.iter().any(|(k, _)| k == "PATH"));
    assert!(out
        .iter()
        .any(|(k, v)| k == "MCPWARD_TEST_EXTRA" && v == "1"));
    assert!(!out.iter().any(|(k, _)| {
        let k = k.to_string_lossy().to_ascii_uppercase();
        k == "GITHUB_TOKEN" || k == "MCPWARD_GITHUB_TOKEN"
    }));
}

// §14.21 and YAML 1.2
#[test]
fn yes_no_on_off_are_strings() {
    let i = issues(&with_checks("  compliance: yes\n  schema: off\n"));
    assert_eq!(
        i,
        vec![
            "checks.compliance: expected a boolean (true or false) or a mapping, got a string (\"yes\")",
            "checks.schema: expected a boolean (true or false), got a string (\"off\")",
        ]
    );
    // ... and stay strings where strings are expected.
    let l = ok("server: {transport: stdio, command: node, args: [yes, no, on, off]}\n");
    assert_eq!(stdio(&l.config).1, &vec!["yes", "no", "on", "off"]);
}

#[test]
fn no_coercion_of_quoted_values() {
    let i = issues(&format!(
        "{MINIMAL}checks: {{compliance: \"true\"}}\ntimeouts: {{call_ms: \"5\"}}\n"
    ));
    assert_eq!(i.len(), 2, "{i:?}");
    assert!(i[0].starts_with("checks.compliance: expected a boolean"));
    assert_eq!(
        i[1],
        "timeouts.call_ms: expected an integer, got a string (\"5\")"
    );
}

// §14.22
#[test]
fn timeouts_must_be_positive_integers() {
    assert_eq!(
        issues(&format!("{MINIMAL}timeouts: {{call_ms: 1.5}}\n")),
        vec!["timeouts.call_ms: expected an integer, got 1.5"]
    );
    assert_eq!(
        issues(&format!("{MINIMAL}timeouts: {{call_ms: 0}}\n")),
        vec!["timeouts.call_ms: must be greater than 0, got 0"]
    );
    assert_eq!(
        issues(&format!("{MINIMAL}timeouts: {{run_ms: -5}}\n")),
        vec!["timeouts.run_ms: must be greater than 0, got -5"]
    );
    let t = ok(&format!(
        "{MINIMAL}timeouts: {{connect_ms: 90000, call_ms: 1000.0}}\n"
    ))
    .config
    .timeouts;
    assert_eq!(
        t,
        Timeouts {
            connect_ms: 90000,
            call_ms: 1000,
            run_ms: 300000
        }
    );
    assert_eq!(
        ok(&format!("{MINIMAL}timeouts: {{}}\n")).config.timeouts,
        Timeouts::default()
    );
}

#[test]
fn integers_beyond_the_safe_range_are_rejected() {
    let t = ok(&format!(
        "{MINIMAL}timeouts: {{run_ms: 9007199254740991}}\n"
    ))
    .config
    .timeouts;
    assert_eq!(t.run_ms, 9_007_199_254_740_991);
    let i = issues(&format!(
        "{MINIMAL}timeouts: {{run_ms: 9007199254740992, call_ms: 1e300}}\n"
    ));
    assert_eq!(i.len(), 2, "{i:?}");
    assert!(
        i[0].starts_with(
            "timeouts.call_ms: must be between -9007199254740991 and 9007199254740991"
        ),
        "{i:?}"
    );
    assert!(i[1].starts_with("timeouts.run_ms: must be between"));
    // Beyond u64 too (#12 §6: this was "Invalid YAML"): out of range for the key.
    assert_eq!(
        issues(&format!(
            "{MINIMAL}timeouts: {{run_ms: 99999999999999999999999}}\n"
        )),
        vec![
            "timeouts.run_ms: must be between -9007199254740991 and 9007199254740991, got \
             99999999999999999999999"
        ]
    );
}

// #12 §6: integers past 64 bits name their key (they were "Invalid YAML").
#[test]
fn integers_beyond_64_bits_are_out_of_range_for_their_key() {
    let range = "must be between -9007199254740991 and 9007199254740991, got";
    let cases = [
        (
            format!("{MINIMAL}timeouts: {{call_ms: 100000000000000000000}}\n"),
            format!("timeouts.call_ms: {range} 100000000000000000000"),
        ),
        (
            format!("{MINIMAL}timeouts:\n  connect_ms: -100000000000000000000\n"),
            format!("timeouts.connect_ms: {range} -100000000000000000000"),
        ),
        (
            with_checks("  latency: {samples: 18446744073709551616}\n"),
            format!("checks.latency.samples: {range} 18446744073709551616"),
        ),
        (
            with_checks("  collision: {max_tools: 340282366920938463463374607431768211455}\n"),
            format!("checks.collision.max_tools: {range} 3.402823669209385e38"),
        ),
        (
            format!(
                "{MINIMAL}suites:\n  - tool: t\n    cases:\n      - name: c\n        \
                 expect: {{protocol_error_code: 99999999999999999999}}\n"
            ),
            format!("suites.0.cases.0.expect.protocol_error_code: {range} 99999999999999999999"),
        ),
    ];
    for (yaml, want) in cases {
        assert_eq!(issues(&yaml), vec![want], "{yaml}");
    }
    // Past 128 bits the number is a float; still a range error, never "Invalid YAML".
    let i = issues(&format!(
        "{MINIMAL}timeouts: {{call_ms: 1000000000000000000000000000000000000000000}}\n"
    ));
    assert_eq!(i.len(), 1, "{i:?}");
    assert!(
        i[0].starts_with(&format!("timeouts.call_ms: {range} ")),
        "{i:?}"
    );
    // In free-form arguments a huge integer is kept as a JSON number where it fits.
    let l = ok(&format!(
        "{MINIMAL}suites:\n  - tool: t\n    cases:\n      - name: c\n        args: {{n: 18446744073709551615}}\n"
    ));
    assert_eq!(
        l.config.suites[0].cases[0].args["n"],
        json!(18446744073709551615u64)
    );
    assert_eq!(
        issues(&format!(
            "{MINIMAL}suites:\n  - tool: t\n    cases:\n      - name: c\n        args: {{n: 18446744073709551616}}\n"
        )),
        vec!["suites.0.cases.0.args.n: integer 18446744073709551616 is out of range (at most 64 bits)"]
    );
}

#[test]
fn interpolated_numbers_stay_strings() {
    let e = try_load_env(
        &format!("{MINIMAL}timeouts: {{call_ms: \"${{MS}}\"}}\n"),
        &[("MS", "5000")],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Invalid config:\ntimeouts.call_ms: expected an integer, got a string (\"5000\")"
            .replace("\"5000\"", "\"[REDACTED]\"")
    );
}

/// A secret longer than the 60-character quote, or one with characters the quote escapes,
/// never shows in an "Invalid config" message, not even its beginning.
#[test]
fn cut_or_escaped_secrets_stay_redacted() {
    let long = "github_pat_11ABCDEFG0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let e = try_load_env(
        "server:\n  transport: stdio\n  command: srv\n  args: \"--token=${TOK}\"\n",
        &[("TOK", long)],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("server.args"), "{e}");
    assert!(e.contains("[REDACTED]"), "{e}");
    assert!(!e.contains("github_pat"), "{e}");
    let e = try_load_env(
        &format!("{MINIMAL}timeouts: {{call_ms: \"${{Q}}\"}}\n"),
        &[("Q", "quo\"te\\secret")],
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("secret"), "{e}");
}

// §14.23 and §10
#[test]
fn null_where_a_mapping_or_list_is_expected_is_invalid() {
    assert_eq!(
        issues(&with_checks("  drift:\n")),
        vec!["checks.drift: expected a mapping, got null"]
    );
    assert_eq!(
        issues(&format!("{MINIMAL}checks:\n")),
        vec!["checks: expected a mapping, got null"]
    );
    assert_eq!(
        issues(&format!("{MINIMAL}suites:\n")),
        vec!["suites: expected a list, got null"]
    );
    assert_eq!(
        issues("server: {transport: stdio, command: node, args: ~, env: ~}\n"),
        vec![
            "server.args: expected a list, got null",
            "server.env: expected a mapping, got null",
        ]
    );
}

// §14.24
#[test]
fn non_string_args_and_env_values_are_invalid() {
    assert_eq!(
        issues("server: {transport: stdio, command: node, args: [--port, 8080]}\n"),
        vec!["server.args.1: expected a string (quote numbers and booleans), got a number (8080)"]
    );
    assert_eq!(
        issues("server: {transport: stdio, command: node, env: {DEBUG: true, PORT: 1}}\n"),
        vec![
            "server.env.DEBUG: expected a string (quote numbers and booleans), got a boolean (true)",
            "server.env.PORT: expected a string (quote numbers and booleans), got a number (1)",
        ]
    );
}

#[test]
fn invalid_env_names_and_header_names_are_invalid() {
    assert_eq!(
        issues("server: {transport: stdio, command: node, env: {\"A=B\": x}}\n"),
        vec![
            "server.env.A=B: not a valid environment variable name (empty, or contains '=' or NUL)"
        ]
    );
    assert_eq!(
        issues("server: {transport: http, url: \"https://x.example\", headers: {\"Bad Name\": x, X-Ok: \"a\\nb\"}}\n"),
        vec![
            "server.headers.Bad Name: not a valid HTTP header name",
            "server.headers.X-Ok: header value must not contain control characters (e.g. newlines)",
        ]
    );
}

// §14.25
#[test]
fn placeholder_in_a_comment_is_never_evaluated() {
    let l = ok(
        "# token: ${NOT_SET_ANYWHERE}\nserver: {transport: stdio, command: node} # ${ALSO_NOT}\n",
    );
    assert!(l.secrets.is_empty());
}

// §14.26 and §6.4
#[test]
fn only_values_of_four_chars_or_more_become_secrets() {
    let l = try_load_env(
        "server: {transport: stdio, command: node, args: [\"${A}\", \"${B}\", \"${C}\", \"${B}\"], env: {X: \"${D}\"}}\n",
        &[("A", "ab"), ("B", "abcd"), ("C", "äöü"), ("D", "äöüß")],
    )
    .unwrap();
    // Characters, not bytes: "äöü" is 6 bytes but 3 characters.
    assert_eq!(l.secrets, vec!["abcd".to_string(), "äöüß".to_string()]);
}

#[test]
fn interpolation_syntax_rules() {
    let vars = [
        ("X", "val"),
        ("A:-x", "literal-name"),
        ("NESTED", "${X}"),
        ("EMPTY", ""),
        ("B", "2"),
    ];
    let cases: &[(&str, &str)] = &[
        ("pre-${X}-post", "pre-val-post"),
        ("${X}${B}", "val2"),
        ("$X", "$X"),
        ("${}", "${}"),
        ("$${X}", "$val"),
        ("${A:-x}", "literal-name"),
        ("${NESTED}", "${X}"),
        ("[${EMPTY}]", "[]"),
        ("${X", "${X"),
        ("a}b${X}c", "a}bvalc"),
        ("${}${X}", "${}val"),
    ];
    for (input, expected) in cases {
        let yaml = format!(
            "server: {{transport: stdio, command: node, args: [{}]}}\n",
            json!(input)
        );
        let l = try_load_env(&yaml, &vars).unwrap();
        assert_eq!(stdio(&l.config).1, &vec![expected.to_string()], "{input:?}");
    }
}

#[test]
fn keys_numbers_and_booleans_are_not_interpolated() {
    let l = try_load_env(
        "server: {transport: stdio, command: node, env: {\"${K}\": \"${V}\"}}\nsuites:\n  - tool: t\n    cases:\n      - name: c\n        args: {n: 5, b: true, s: \"${V}\"}\n        expect:\n          jsonpath: {\"$.x\": \"${V}\"}\n          golden: \"${V}.json\"\n",
        &[("V", "value")],
    )
    .unwrap();
    assert_eq!(stdio(&l.config).2, &map(&[("${K}", "value")]));
    let case = &l.config.suites[0].cases[0];
    assert_eq!(
        Value::Object(case.args.clone()),
        json!({"n": 5, "b": true, "s": "value"})
    );
    assert_eq!(
        case.expect.as_ref().unwrap().jsonpath.as_ref().unwrap()["$.x"],
        json!("value")
    );
    assert_eq!(
        case.expect.as_ref().unwrap().golden.as_deref(),
        Some("value.json")
    );
}

#[test]
fn enum_like_values_are_interpolated_too() {
    let l = try_load_env(
        &with_checks("  drift: {fail_on: \"${LEVEL}\"}\n"),
        &[("LEVEL", "low")],
    )
    .unwrap();
    assert_eq!(
        l.config.checks.drift.unwrap().fail_on,
        FailOn::Level(DriftSeverity::Low)
    );
}

#[test]
fn validation_errors_redact_interpolated_secrets() {
    let e = try_load_env(
        "server: {transport: \"${T}\", command: node}\n",
        &[("T", "s3cr3t-value")],
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("s3cr3t-value"), "{e}");
    assert!(e.contains("[REDACTED]"), "{e}");
}

// YAML parsing rules (§1.3)
#[test]
fn duplicate_keys_are_an_error() {
    let e =
        err("server: {transport: stdio, command: node}\nserver: {transport: stdio, command: x}\n");
    assert!(matches!(
        try_load("a: 1\na: 2\n"),
        Err(ConfigError::Yaml { .. })
    ));
    assert!(
        e.starts_with("Invalid YAML in mcpward.yaml: duplicate entry"),
        "{e}"
    );
    // Keys that collide only once stringified are caught too.
    let i = issues("server: {transport: stdio, command: node, env: {1: a, \"1\": b}}\n");
    assert_eq!(i, vec!["server.env.1: duplicate key"]);
}

#[test]
fn several_documents_are_an_error() {
    let e = err(&format!("{MINIMAL}---\n{MINIMAL}"));
    assert!(e.contains("more than one document"), "{e}");
    // A single explicit document is fine.
    ok(&format!("---\n{MINIMAL}...\n"));
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let e = err("server:\n  transport: stdio\n   command: node\n");
    assert!(e.starts_with("Invalid YAML in mcpward.yaml: "), "{e}");
    assert!(e.contains("line 3 column"), "{e}");
}

#[test]
fn empty_or_non_mapping_root_is_invalid() {
    assert_eq!(
        err(""),
        "Invalid config:\nexpected a mapping at the top level, got null"
    );
    assert_eq!(
        err("# only a comment\n"),
        "Invalid config:\nexpected a mapping at the top level, got null"
    );
    assert_eq!(
        err("- a\n- b\n"),
        "Invalid config:\nexpected a mapping at the top level, got a list"
    );
}

#[test]
fn custom_tags_are_rejected_core_tags_resolve() {
    assert_eq!(
        issues("server: {transport: stdio, command: !env NODE}\n"),
        vec![
            "server.command: YAML tag !env is not supported",
            "server.command: expected a string, got null",
        ]
    );
    let l = ok("server: {transport: stdio, command: node, args: [!!str 8080]}\n");
    assert_eq!(stdio(&l.config).1, &vec!["8080"]);
}

#[test]
fn byte_order_mark_is_ignored() {
    ok(&format!("\u{feff}{MINIMAL}"));
}

#[test]
fn unquoted_date_is_a_string_and_empty_version_means_unset() {
    let l = ok(&format!(
        "{MINIMAL}expect:\n  protocol_version: 2025-11-25\n"
    ));
    assert_eq!(
        l.config.expect.protocol_version.as_deref(),
        Some("2025-11-25")
    );
    let l = ok(&format!("{MINIMAL}expect: {{protocol_version: \"\"}}\n"));
    assert_eq!(l.config.expect.protocol_version, None);
    let l = ok(&format!("{MINIMAL}expect: {{}}\n"));
    assert_eq!(l.config.expect.protocol_version, None);
}

#[test]
fn all_issues_are_collected_in_one_error() {
    let e = err("server: {transport: http, url: \"ftp://x\", headers: {A: 1}}\nchecks: {compliance: 1, drift: {fail_on: nope}, latency: {samples: 1.5}}\ntimeouts: {connect_ms: 0}\nsuites: [{tool: t}]\n");
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines[0], "Invalid config:");
    let paths: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(
        paths,
        vec![
            "server.url",
            "server.headers.A",
            "checks.compliance",
            "checks.drift.fail_on",
            "checks.latency.samples",
            "timeouts.connect_ms",
            "suites.0.cases",
        ]
    );
}

// Suites
#[test]
fn suites_load_with_every_expectation() {
    let l = ok(&format!(
        "{MINIMAL}suites:\n  - tool: t\n    cases: []\n  - tool: u\n    cases:\n      - name: full\n        args: {{a: 1.0, b: 2.5, c: 18446744073709551615}}\n        expect:\n          tool_is_error: true\n          protocol_error_code: -32602\n          output_matches_schema: false\n          golden: golden/out.json\n          jsonpath:\n            \"$.z\": 1\n            \"$.a\": [x]\n            \"$.m\": null\n      - name: bare\n"
    ));
    let s = &l.config.suites;
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].tool.as_str(), s[0].cases.len()), ("t", 0));
    let full = &s[1].cases[0];
    assert_eq!(
        Value::Object(full.args.clone()),
        json!({"a": 1, "b": 2.5, "c": 18446744073709551615u64})
    );
    assert_eq!(full.expect.as_ref().unwrap().tool_is_error, Some(true));
    assert_eq!(
        full.expect.as_ref().unwrap().protocol_error_code,
        Some(-32602)
    );
    assert_eq!(
        full.expect.as_ref().unwrap().output_matches_schema,
        Some(false)
    );
    assert_eq!(
        full.expect.as_ref().unwrap().golden.as_deref(),
        Some("golden/out.json")
    );
    let jp = full.expect.as_ref().unwrap().jsonpath.as_ref().unwrap();
    assert_eq!(
        jp.keys().collect::<Vec<_>>(),
        vec!["$.z", "$.a", "$.m"],
        "order as written"
    );
    assert_eq!(jp["$.m"], Value::Null);
    let bare = &s[1].cases[1];
    assert!(bare.args.is_empty());
    assert_eq!(bare.expect, None);
}

#[test]
fn suite_shape_errors_name_their_paths() {
    let i = issues(&format!(
        "{MINIMAL}suites:\n  - cases: [{{args: {{}}}}, {{name: n, args: [1], expect: {{protocol_error_code: 1.5, tool_is_error: \"no\", jsonpath: []}}}}]\n  - tool: t\n    cases: ~\n  - 7\n"
    ));
    assert_eq!(
        i,
        vec![
            "suites.0.tool: required (a string)",
            "suites.0.cases.0.name: required (a string)",
            "suites.0.cases.1.args: expected a mapping, got a list",
            "suites.0.cases.1.expect.protocol_error_code: expected an integer, got 1.5",
            "suites.0.cases.1.expect.tool_is_error: expected a boolean (true or false), got a string (\"no\")",
            "suites.0.cases.1.expect.jsonpath: expected a mapping, got a list",
            "suites.1.cases: expected a list, got null",
            "suites.2: expected a mapping, got a number (7)",
        ]
    );
}

#[test]
fn non_finite_numbers_in_free_form_args_are_invalid() {
    assert_eq!(
        issues(&format!(
            "{MINIMAL}suites: [{{tool: t, cases: [{{name: n, args: {{x: .nan}}}}]}}]\n"
        )),
        vec!["suites.0.cases.0.args.x: .nan cannot be represented in JSON"]
    );
}

// DECISIONS #30
#[test]
fn errors_accepts_boolean_or_object() {
    let e = |c: &str| ok(&with_checks(c)).config.checks.errors;
    assert_eq!(e("  errors: true\n"), ErrorsConfig::default());
    assert_eq!(
        e("  errors: false\n"),
        ErrorsConfig {
            enabled: false,
            unknown_tool: UnknownToolPolicy::ProtocolError,
            invalid_params: InvalidParamsPolicy::Warn,
            probe: crate::checks::errors::ProbePolicy::All,
            skip: Vec::new(),
        }
    );
    assert_eq!(e("  errors: {}\n"), ErrorsConfig::default());
    assert_eq!(
        e("  errors: {unknown_tool: either}\n"),
        ErrorsConfig {
            enabled: true,
            unknown_tool: UnknownToolPolicy::Either,
            invalid_params: InvalidParamsPolicy::Warn,
            probe: crate::checks::errors::ProbePolicy::All,
            skip: Vec::new(),
        }
    );
    assert_eq!(
        e("  errors: {enabled: false, unknown_tool: protocol_error}\n"),
        ErrorsConfig {
            enabled: false,
            unknown_tool: UnknownToolPolicy::ProtocolError,
            invalid_params: InvalidParamsPolicy::Warn,
            probe: crate::checks::errors::ProbePolicy::All,
            skip: Vec::new(),
        }
    );
    assert_eq!(
        issues(&with_checks("  errors: {enabled: yes, unknown_tool: tool_error}\n")),
        vec![
            "checks.errors.enabled: expected a boolean (true or false), got a string (\"yes\")",
            "checks.errors.unknown_tool: must be \"protocol_error\" or \"either\", got a string (\"tool_error\")",
        ]
    );
    assert_eq!(
        issues(&with_checks("  errors: on\n")),
        vec!["checks.errors: expected a boolean or a mapping, got a string (\"on\")"]
    );
}

// DECISIONS #33
#[test]
fn protocol_era_on_both_transports() {
    assert_eq!(ok(MINIMAL).config.server.protocol_era, EraChoice::Auto);
    for era in EraChoice::ALL {
        let l = ok(&format!(
            "server: {{transport: stdio, command: node, protocol_era: {}}}\n",
            era.as_str()
        ));
        assert_eq!(l.config.server.protocol_era, era);
        let l = ok(&format!(
            "server: {{transport: http, url: \"https://x.example\", protocol_era: {}}}\n",
            era.as_str()
        ));
        assert_eq!(l.config.server.protocol_era, era);
        assert!(l.warnings.is_empty());
    }
    assert_eq!(
        issues("server: {transport: stdio, command: node, protocol_era: all}\n"),
        vec!["server.protocol_era: must be \"auto\", \"modern\", \"legacy\" or \"both\", got \"all\""]
    );
}

// DECISIONS #35
#[test]
fn reserved_mcp_headers_cannot_be_configured() {
    let i = issues("server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    mcp-protocol-version: \"2025-06-18\"\n    MCP-METHOD: a\n    Mcp-Name: b\n    mcp-param-foo: c\n    MCP-Session-Id: d\n    Authorization: fine\n    Mcp-Other: fine\n");
    let reason = "this MCP protocol header is set by mcpward itself and cannot be configured";
    assert_eq!(
        i,
        vec![
            format!("server.headers.MCP-METHOD: {reason}"),
            format!("server.headers.MCP-Session-Id: {reason}"),
            format!("server.headers.Mcp-Name: {reason}"),
            format!("server.headers.mcp-param-foo: {reason}"),
            format!("server.headers.mcp-protocol-version: {reason}"),
        ]
    );
}

// DECISIONS #10
#[test]
fn unknown_keys_warn_with_suggestions() {
    let l = ok("server: {transport: stdio, command: node, comand2: x}\ncheck: {}\ntimeout: {call_ms: 5}\nchecks:\n  drift: {fail_onn: high, baseline: x}\n  colision: {}\n  Security: false\n  latency: {p95_budget: 5}\nsuites:\n  - tool: t\n    cases:\n      - name: n\n        expct: {}\n        args: {anything: goes}\nzzz: 1\n");
    assert_eq!(
        l.warnings,
        vec![
            "Unknown config key \"check\" ignored (did you mean \"checks\"?)",
            "Unknown config key \"timeout\" ignored (did you mean \"timeouts\"?)",
            "Unknown config key \"zzz\" ignored",
            "Unknown config key \"server.comand2\" ignored (did you mean \"command\"?)",
            "Unknown config key \"checks.colision\" ignored (did you mean \"collision\"?)",
            "Unknown config key \"checks.Security\" ignored (did you mean \"security\"?)",
            "Unknown config key \"checks.drift.fail_onn\" ignored (did you mean \"fail_on\"?)",
            "Unknown config key \"checks.latency.p95_budget\" ignored (did you mean \"p95_budget_ms\"?)",
            "Unknown config key \"suites.0.cases.0.expct\" ignored (did you mean \"expect\"?)",
        ]
    );
    // Ignored really means ignored: the typo'd keys changed nothing.
    assert!(l.config.checks.security);
    assert_eq!(l.config.timeouts, Timeouts::default());
}

#[test]
fn free_form_maps_never_warn() {
    let l = ok("server: {transport: stdio, command: node, env: {chekcs: x}}\nsuites: [{tool: t, cases: [{name: n, args: {checks: 1}, expect: {jsonpath: {timeouts: 1}}}]}]\n");
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
}

#[test]
fn keys_of_the_other_transport_are_dropped_with_a_warning() {
    let l = ok("server: {transport: stdio, command: node, url: \"https://x\", headers: {A: b}}\n");
    assert_eq!(
        l.warnings,
        vec![
            "Config key \"server.url\" ignored: it only applies to transport \"http\"",
            "Config key \"server.headers\" ignored: it only applies to transport \"http\"",
        ]
    );
    let l = ok("server: {transport: http, url: \"https://x.example\", command: node, args: [1]}\n");
    assert_eq!(l.warnings.len(), 2);
    assert!(l.warnings[0].contains("\"server.command\""));
    assert!(l.warnings[0].ends_with("only applies to transport \"stdio\""));
}

#[test]
fn unknown_keys_are_listed_under_an_invalid_config() {
    assert_eq!(
        issues("server: {transport: stdio, comand: node}\n"),
        vec![
            "server.command: required (a string)",
            "server.comand: unknown key, ignored (did you mean \"command\"?)",
        ]
    );
}

#[test]
fn suggestions_stay_close() {
    use super::validate::suggest;
    let root = &["server", "expect", "checks", "timeouts", "suites"];
    assert_eq!(suggest("check", root), Some("checks"));
    assert_eq!(suggest("timeout", root), Some("timeouts"));
    assert_eq!(suggest("chekcs", root), Some("checks"));
    assert_eq!(suggest("Suites", root), Some("suites"));
    assert_eq!(suggest("servers", root), Some("server"));
    assert_eq!(suggest("banana", root), None);
    assert_eq!(suggest("x", root), None);
    assert_eq!(
        suggest("fail-on", &["baseline", "fail_on"]),
        Some("fail_on")
    );
}

#[test]
fn hostile_input_never_panics() {
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    assert!(try_load(&format!("server: {deep}\n")).is_err());
    let long_key = "k".repeat(1000);
    let l = ok(&format!("{MINIMAL}{long_key}: 1\n"));
    assert_eq!(l.warnings.len(), 1);
    for junk in [
        "{",
        "]]]",
        "\u{0}",
        "server: [",
        "? ? ?",
        "&a [*a]",
        "\t\tserver:",
    ] {
        let _ = try_load(junk);
    }
    // A complex key is reported, not a crash.
    assert_eq!(
        issues(&format!("{MINIMAL}? [1]\n: x\n")),
        vec!["mapping keys must be plain scalars"]
    );
}

// #12 §5: a header value HTTP cannot carry is a config error at load time, naming the key.
#[test]
fn non_ascii_header_values_are_invalid() {
    assert_eq!(
        issues("server: {transport: http, url: \"https://x.example\", headers: {X-Api-Key: \"clé\", X-Ok: plain}}\n"),
        vec!["server.headers.X-Api-Key: header value must be ASCII (percent-encode or base64-encode other characters)"]
    );
    // Interpolated values are checked too, and the message never shows them.
    let e = match try_load_env(
        "server: {transport: http, url: \"https://x.example\", headers: {Authorization: \"Bearer ${T}\"}}\n",
        &[("T", "geheimnisß")],
    ) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a non-ASCII header value loaded"),
    };
    assert!(
        e.contains("server.headers.Authorization: header value must be ASCII"),
        "{e}"
    );
    assert!(!e.contains("geheimnis"), "{e}");
}

// #12 §5: credentials written literally are secrets too.
#[test]
fn literal_credentials_in_headers_and_env_are_secrets() {
    let l = ok("server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    Authorization: Bearer canary123\n    Cookie: \"sid=cookie-canary; theme=dark\"\n    Proxy-Authorization: Basic cHJveHk6cHc=\n    X-Api-Key: key-canary\n    X-Request-Source: mcpward-ci\n");
    assert_eq!(
        l.secrets,
        vec![
            "Bearer canary123",
            "canary123",
            "sid=cookie-canary; theme=dark",
            "cookie-canary",
            "Basic cHJveHk6cHc=",
            "cHJveHk6cHc=",
            "key-canary",
        ]
    );
    let l = ok("server:\n  transport: stdio\n  command: node\n  env:\n    MY_API_KEY: canary456\n    GH_TOKEN: tok-canary\n    DB_PASSWORD: pw-canary\n    app_secret: sec-canary\n    LOG_LEVEL: debug\n    KEY: abc\n");
    assert_eq!(
        l.secrets,
        vec!["canary456", "tok-canary", "pw-canary", "sec-canary"]
    );
}

#[test]
fn interpolated_credentials_register_only_what_is_secret() {
    // The scheme alone is not a secret: only the substituted token is registered.
    let l = try_load_env(
        "server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    Authorization: \"Bearer ${T}\"\n    X-Api-Key: \"${K}\"\n",
        &[("T", "tok-1234"), ("K", "key-5678")],
    )
    .unwrap();
    assert_eq!(l.secrets, vec!["tok-1234", "key-5678"]);
    // Literal text beside a placeholder may be part of the credential: the whole value counts.
    let l = try_load_env(
        "server:\n  transport: stdio\n  command: node\n  env:\n    API_TOKEN: \"prefix-${T}\"\n",
        &[("T", "tail")],
    )
    .unwrap();
    assert_eq!(l.secrets, vec!["tail", "prefix-tail"]);
}

#[test]
fn validation_errors_redact_literal_credentials() {
    let e = err("server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    X-Api-Key: literal-canary\n  timeouts: literal-canary\ntimeouts: {call_ms: literal-canary}\n");
    assert!(e.contains("timeouts.call_ms: expected an integer"), "{e}");
    assert!(!e.contains("literal-canary"), "{e}");
}

// #12 §6: `checks.errors.invalid_params`, next to `unknown_tool`.
#[test]
fn errors_invalid_params_is_warn_or_strict() {
    let e = |c: &str| ok(&with_checks(c)).config.checks.errors;
    assert_eq!(
        ErrorsConfig::default().invalid_params,
        InvalidParamsPolicy::Warn
    );
    assert_eq!(
        e("  errors: {invalid_params: strict}\n"),
        ErrorsConfig {
            enabled: true,
            unknown_tool: UnknownToolPolicy::ProtocolError,
            invalid_params: InvalidParamsPolicy::Strict,
            probe: crate::checks::errors::ProbePolicy::All,
            skip: Vec::new(),
        }
    );
    assert_eq!(
        e("  errors: {unknown_tool: either, invalid_params: warn}\n"),
        ErrorsConfig {
            enabled: true,
            unknown_tool: UnknownToolPolicy::Either,
            invalid_params: InvalidParamsPolicy::Warn,
            probe: crate::checks::errors::ProbePolicy::All,
            skip: Vec::new(),
        }
    );
    assert_eq!(
        issues(&with_checks("  errors: {invalid_params: fail}\n")),
        vec![
            "checks.errors.invalid_params: must be \"warn\" or \"strict\", got a string (\"fail\")"
        ]
    );
    assert_eq!(
        issues(&with_checks("  errors: {invalid_params: true}\n")),
        vec!["checks.errors.invalid_params: must be \"warn\" or \"strict\", got a boolean (true)"]
    );
    // A typo is a warning with the key suggested.
    let l = ok(&with_checks("  errors: {invalid_param: strict}\n"));
    assert_eq!(
        l.warnings,
        vec!["Unknown config key \"checks.errors.invalid_param\" ignored (did you mean \"invalid_params\"?)"]
    );
    assert_eq!(l.config.checks.errors, ErrorsConfig::default());
}

// #16 §6: `checks.errors.probe` and `checks.errors.skip`.
#[test]
fn errors_probe_and_skip() {
    use crate::checks::errors::ProbePolicy;
    let e = |c: &str| ok(&with_checks(c)).config.checks.errors;
    // No key: the original's behaviour.
    assert_eq!(e("  errors: true\n").probe, ProbePolicy::All);
    assert_eq!(e("  errors: {}\n").probe, ProbePolicy::All);
    assert_eq!(e("  errors: {probe: all}\n").probe, ProbePolicy::All);
    let c = e("  errors: {probe: safe, skip: [delete_*, reset]}\n");
    assert_eq!(c.probe, ProbePolicy::Safe);
    assert_eq!(c.skip, ["delete_*", "reset"]);
    assert_eq!(
        issues(&with_checks("  errors: {probe: none, skip: [1]}\n")),
        vec![
            "checks.errors.probe: must be \"all\" or \"safe\", got a string (\"none\")",
            "checks.errors.skip.0: expected a string (quote numbers and booleans), got a number (1)",
        ]
    );
    assert_eq!(
        issues(&with_checks("  errors: {skip: delete_*}\n")),
        vec!["checks.errors.skip: expected a list, got a string (\"delete_*\")"]
    );
}

#[test]
fn limits_are_positive_integers_with_defaults() {
    let d = crate::observed::Limits::default();
    assert_eq!(ok(MINIMAL).config.limits, d);
    let l = ok(&format!(
        "{MINIMAL}limits: {{message_bytes: 1048576, tools: 50, progress_resets: 2}}\n"
    ))
    .config
    .limits;
    assert_eq!(
        (l.message_bytes, l.tools, l.progress_resets),
        (1_048_576, 50, 2)
    );
    assert_eq!(
        issues(&format!("{MINIMAL}limits: {{tools: 0}}\n")),
        vec!["limits.tools: must be greater than 0, got 0"]
    );
    assert_eq!(
        issues(&format!("{MINIMAL}limits: {{message_bytes: 1.5}}\n")),
        vec!["limits.message_bytes: expected an integer, got 1.5"]
    );
}

// #14: checks.compliance is a boolean or {enabled, stability}.
#[test]
fn compliance_accepts_boolean_or_object() {
    let c = |y: &str| ok(&with_checks(y)).config.checks.compliance;
    let cfg = |enabled, stability| ComplianceConfig { enabled, stability };
    assert_eq!(c("  schema: true\n"), cfg(true, true));
    assert_eq!(c("  compliance: true\n"), cfg(true, true));
    assert_eq!(c("  compliance: false\n"), cfg(false, true));
    assert_eq!(c("  compliance: {}\n"), cfg(true, true));
    assert_eq!(c("  compliance: {stability: false}\n"), cfg(true, false));
    assert_eq!(
        c("  compliance: {enabled: false, stability: false}\n"),
        cfg(false, false)
    );
    assert_eq!(
        issues(&with_checks("  compliance: {stability: \"no\"}\n")),
        vec!["checks.compliance.stability: expected a boolean (true or false), got a string (\"no\")"]
    );
    assert_eq!(
        issues(&with_checks("  compliance: [true]\n")),
        vec!["checks.compliance: expected a boolean (true or false) or a mapping, got a list"]
    );
    let l = ok(&with_checks("  compliance: {stabilty: false}\n"));
    assert_eq!(l.config.checks.compliance, cfg(true, true));
    assert!(
        l.warnings
            .iter()
            .any(|w| w.contains("did you mean \"stability\"")),
        "{:?}",
        l.warnings
    );
}

#[test]
fn drift_surface_is_a_part_or_a_list_with_did_you_mean() {
    use crate::surface::drift_vocab::SurfaceSet;
    let surface = |yaml: &str| {
        ok(&with_checks(&format!("  drift:\n    surface: {yaml}\n")))
            .config
            .checks
            .drift
            .unwrap()
            .surface
    };
    assert_eq!(surface("all"), SurfaceSet::ALL);
    assert_eq!(surface("tools"), SurfaceSet::default());
    assert_eq!(
        surface("[tools, prompts, instructions]"),
        SurfaceSet {
            prompts: true,
            instructions: true,
            ..SurfaceSet::default()
        }
    );
    assert_eq!(
        surface("[resources, resource_templates]").names(),
        ["tools", "resources", "resource_templates"]
    );
    assert_eq!(
        ok(&with_checks("  drift: {}\n"))
            .config
            .checks
            .drift
            .unwrap()
            .surface,
        SurfaceSet::default()
    );
    let i = issues(&with_checks("  drift: {surface: [prompt, 3]}\n"));
    assert_eq!(
        i,
        vec![
            "checks.drift.surface.0: unknown surface part \"prompt\" (one of tools, prompts, resources, resource_templates, instructions, all); did you mean \"prompts\"?".to_string(),
            "checks.drift.surface.1: expected a surface part name, got a number (3)".to_string(),
        ]
    );
    let i = issues(&with_checks("  drift: {surface: everything}\n"));
    assert_eq!(i.len(), 1);
    assert!(
        i[0].starts_with("checks.drift.surface: unknown surface part \"everything\""),
        "{i:?}"
    );
    assert!(!i[0].contains("did you mean"));
}

/// `checks.toxic_flow` (#15): what the fleet's toxic-flow hint reports, `info` by default.
#[test]
fn toxic_flow_is_off_info_warn_or_fail() {
    use crate::checks::security::ToxicFlow;
    assert_eq!(
        ok(&with_checks("  schema: true\n"))
            .config
            .checks
            .toxic_flow,
        ToxicFlow::Info
    );
    for (v, want) in [
        ("off", ToxicFlow::Off),
        ("info", ToxicFlow::Info),
        ("warn", ToxicFlow::Warn),
        ("fail", ToxicFlow::Fail),
    ] {
        let c = ok(&with_checks(&format!("  toxic_flow: {v}\n")));
        assert_eq!(c.config.checks.toxic_flow, want, "{v}");
    }
    assert_eq!(
        issues(&with_checks("  toxic_flow: loud\n")),
        vec![
            "checks.toxic_flow: must be \"off\", \"info\", \"warn\" or \"fail\", got a string (\"loud\")"
        ]
    );
    assert_eq!(
        issues(&with_checks("  toxic_flow: true\n")),
        vec!["checks.toxic_flow: must be \"off\", \"info\", \"warn\" or \"fail\", got a boolean (true)"]
    );
}

// #17: server.auth
fn auth_of(l: &Loaded) -> Option<crate::protocol::oauth::AuthSpec> {
    match &l.config.server.transport {
        Transport::Http { auth, .. } => auth.clone(),
        _ => None,
    }
}

const AUTH_HEAD: &str = "server:\n  transport: http\n  url: https://x.example/mcp\n  auth:\n";

#[test]
fn client_credentials_auth_loads_with_defaults_and_registers_every_value() {
    use crate::protocol::oauth::{AuthSpec, ClientAuth, Grant};
    let l = try_load_env(
        &format!("{AUTH_HEAD}    type: client_credentials\n    client_id: literal-client-id\n    client_secret: ${{CS}}\n    scope: mcp:read\n"),
        &[("CS", "canary-secret-1")],
    )
    .unwrap();
    let Some(AuthSpec::Grant(g)) = auth_of(&l) else {
        panic!("no grant")
    };
    assert_eq!(g.grant, Grant::ClientCredentials);
    assert_eq!(g.method, ClientAuth::Basic);
    assert_eq!(g.client_secret.as_deref(), Some("canary-secret-1"));
    for s in ["canary-secret-1", "literal-client-id", "mcp:read"] {
        assert!(
            l.secrets.contains(&s.to_string()),
            "{s} not a secret: {:?}",
            l.secrets
        );
    }
    assert!(!l.secrets.iter().any(|s| s == "client_credentials"));
}

#[test]
fn private_key_implies_private_key_jwt_and_drops_the_secret() {
    use crate::protocol::oauth::{AuthSpec, ClientAuth};
    let l = ok(&format!("{AUTH_HEAD}    type: client_credentials\n    client_id: c\n    client_secret: never-sent\n    private_key: \"-----BEGIN PRIVATE KEY-----\"\n"));
    let Some(AuthSpec::Grant(g)) = auth_of(&l) else {
        panic!("no grant")
    };
    assert_eq!(g.method, ClientAuth::PrivateKeyJwt);
    assert_eq!(g.client_secret, None);
}

#[test]
fn refresh_and_bearer_auth_load() {
    use crate::protocol::oauth::{AuthSpec, ClientAuth, Grant};
    let l = ok(&format!(
        "{AUTH_HEAD}    type: refresh_token\n    client_id: c\n    refresh_token: rt-1234\n"
    ));
    let Some(AuthSpec::Grant(g)) = auth_of(&l) else {
        panic!("no grant")
    };
    assert_eq!(g.grant, Grant::RefreshToken("rt-1234".into()));
    assert_eq!(g.method, ClientAuth::None);
    let l = ok(&format!(
        "{AUTH_HEAD}    type: bearer\n    token: tok-5678\n"
    ));
    assert_eq!(
        auth_of(&l),
        Some(AuthSpec::Bearer {
            token: "tok-5678".into()
        })
    );
    assert!(l.secrets.contains(&"tok-5678".to_string()));
}

#[test]
fn auth_errors_name_the_key_never_the_value() {
    let cases = [
        ("    type: magic\n", "server.auth.type: must be"),
        ("    client_id: c\n", "server.auth.type: required"),
        ("    type: client_credentials\n    client_secret: SECRETVALUE\n", "server.auth.client_id: required"),
        ("    type: client_credentials\n    client_id: c\n", "server.auth.client_secret: required with auth_method client_secret_basic"),
        ("    type: client_credentials\n    client_id: c\n    auth_method: private_key_jwt\n    client_secret: SECRETVALUE\n", "server.auth.private_key: required"),
        ("    type: client_credentials\n    client_id: c\n    client_secret: SECRETVALUE\n    token_endpoint: http://as.example/token\n", "server.auth.token_endpoint: the token endpoint http://as.example is plain HTTP"),
        ("    type: client_credentials\n    client_id: c\n    client_secret: SECRETVALUE\n    tokenendpoint: x\n", "server.auth.tokenendpoint: not a key of a client_credentials auth"),
        ("    type: refresh_token\n    client_id: c\n", "server.auth.refresh_token: required"),
        ("    type: bearer\n    token: \"has space\"\n", "server.auth.token: must be printable ASCII"),
        ("    type: bearer\n    token: \"\"\n", "server.auth.token: is empty"),
    ];
    for (body, want) in cases {
        let e = err(&format!("{AUTH_HEAD}{body}"));
        assert!(e.contains(want), "{body}\n→ {e}");
        assert!(!e.contains("SECRETVALUE"), "{e}");
    }
    let e = err(
        "server:\n  transport: stdio\n  command: x\n  auth:\n    type: bearer\n    token: abcdef\n",
    );
    assert!(
        e.contains("server.auth: OAuth is for transport http"),
        "{e}"
    );
    let e = err("server:\n  transport: http\n  url: https://x.example/mcp\n  headers:\n    Authorization: Bearer abc\n  auth:\n    type: bearer\n    token: abcdef\n");
    assert!(e.contains("keep one"), "{e}");
}

#[test]
fn a_package_runner_on_the_command_line_gets_time_to_download_the_server() {
    use super::endpoint::{parse_target, Overrides};
    let ov = |words: &[&str]| Overrides {
        target: Some(
            parse_target(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>()).unwrap(),
        ),
        ..Overrides::default()
    };
    let connect = |o: &Overrides| match load_with(None, o).unwrap() {
        super::LoadedAny::Single(l) => l.config.timeouts.connect_ms,
        _ => panic!("a fleet"),
    };
    assert_eq!(
        connect(&ov(&[
            "npx",
            "-y",
            "@modelcontextprotocol/server-everything"
        ])),
        60_000
    );
    assert_eq!(connect(&ov(&["/usr/bin/uvx", "mcp-server-time"])), 60_000);
    assert_eq!(
        connect(&ov(&["npx:@modelcontextprotocol/server-memory"])),
        60_000
    );
    assert_eq!(connect(&ov(&["python3", "-m", "server"])), 10_000);
    assert_eq!(connect(&ov(&["https://x.example/mcp"])), 10_000);
}
