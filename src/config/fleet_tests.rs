//! Fleet configs (#15): `servers:`, `servers_from:` (one fixture file per client format
//! under tests/fixtures/clients/), overrides, per-server baselines, secrets.

use super::*;
use crate::protocol::versions::EraChoice;
use std::path::PathBuf;

fn clients_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clients")
}

type Vars = Vec<(String, String)>;

fn vars(pairs: &[(&str, &str)]) -> Vars {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Load `yaml` as if it were `tests/fixtures/clients/mcpward.yaml`.
fn any_in(yaml: &str, dir: &Path, env: &Vars) -> Result<LoadedAny, ConfigError> {
    let env = env.clone();
    load_any_str(yaml, &dir.join("mcpward.yaml"), &move |name: &str| {
        env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    })
}

fn any(yaml: &str, env: &Vars) -> Result<LoadedAny, ConfigError> {
    any_in(yaml, &clients_dir(), env)
}

fn fleet_env(yaml: &str, env: &[(&str, &str)]) -> Fleet {
    match any(yaml, &vars(env)) {
        Ok(LoadedAny::Fleet(f)) => f,
        Ok(LoadedAny::Single(_)) => panic!("expected a fleet for {yaml:?}, got a single server"),
        Err(e) => panic!("expected {yaml:?} to load, got: {e}"),
    }
}

fn fleet(yaml: &str) -> Fleet {
    fleet_env(yaml, &[])
}

fn fail_env(yaml: &str, env: &[(&str, &str)]) -> String {
    match any(yaml, &vars(env)) {
        Ok(l) => panic!("expected {yaml:?} to fail, loaded {l:?}"),
        Err(e) => e.to_string(),
    }
}

fn fail(yaml: &str) -> String {
    fail_env(yaml, &[])
}

fn names(f: &Fleet) -> Vec<&str> {
    f.members.iter().map(|m| m.name.as_str()).collect()
}

fn member<'a>(f: &'a Fleet, name: &str) -> &'a Loaded {
    &f.members
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no member {name} in {:?}", names(f)))
        .loaded
}

fn stdio(l: &Loaded) -> (&str, &[String], &BTreeMap<String, String>) {
    match &l.config.server.transport {
        Transport::Stdio { command, args, env } => (command, args, env),
        other => panic!("expected stdio, got {other:?}"),
    }
}

fn http(l: &Loaded) -> (&str, &BTreeMap<String, String>) {
    match &l.config.server.transport {
        Transport::Http { url, headers, .. } => (url, headers),
        other => panic!("expected http, got {other:?}"),
    }
}

const TWO: &str = "\
servers:
  api:
    transport: stdio
    command: mcpward-fixture
    args: [--tools, clean]
  web:
    transport: http
    url: http://127.0.0.1:9/mcp
    protocol_era: both
";

// ------------------------------------------------------------------ shape

#[test]
fn a_single_server_config_loads_through_load_any_exactly_as_through_load() {
    let yaml = "server: {transport: stdio, command: node}\nchecks: {complience: true}\n";
    let path = clients_dir().join("mcpward.yaml");
    let single = load_str(yaml, &path, &|_| None).unwrap();
    match load_any_str(yaml, &path, &|_| None).unwrap() {
        LoadedAny::Single(l) => assert_eq!(l, single),
        other => panic!("expected a single server, got {other:?}"),
    }
    // And its errors are the same text.
    let bad = "server: {transport: stdio}\n";
    assert_eq!(
        load_any_str(bad, &path, &|_| None).unwrap_err().to_string(),
        load_str(bad, &path, &|_| None).unwrap_err().to_string()
    );
}

#[test]
fn load_on_a_fleet_config_says_it_is_a_fleet() {
    let e = load_str(TWO, Path::new("fleet.yaml"), &|_| None).unwrap_err();
    assert!(matches!(e, ConfigError::Fleet { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "fleet.yaml names several servers (servers: / servers_from:), not one server:; it must be loaded as a fleet"
    );
    let e = load_str("servers_from: x.json\n", Path::new("f.yaml"), &|_| None).unwrap_err();
    assert!(matches!(e, ConfigError::Fleet { .. }), "{e:?}");
    // A single config is not a fleet.
    assert!(load_str(
        "server: {transport: stdio, command: x}\n",
        Path::new("f.yaml"),
        &|_| None
    )
    .is_ok());
}

#[test]
fn server_and_servers_together_are_a_config_error() {
    let both = format!("server: {{transport: stdio, command: x}}\n{TWO}");
    let expected = "Invalid config:\nserver: cannot be combined with servers or servers_from (a config tests one `server:` or names its servers under `servers:`)";
    assert_eq!(fail(&both), expected);
    assert_eq!(
        load_str(&both, Path::new("m.yaml"), &|_| None)
            .unwrap_err()
            .to_string(),
        expected
    );
    let with_from = "server: {transport: stdio, command: x}\nservers_from: cursor-mcp.json\n";
    assert_eq!(fail(with_from), expected);
    // Each alone loads.
    assert_eq!(names(&fleet(TWO)), ["api", "web"]);
}

// ------------------------------------------------------------------ servers

#[test]
fn each_member_is_a_complete_single_server_config_in_config_order() {
    let f = fleet(TWO);
    assert_eq!(names(&f), ["api", "web"]);
    let api = member(&f, "api");
    assert_eq!(
        stdio(api),
        (
            "mcpward-fixture",
            &["--tools".to_string(), "clean".into()][..],
            &BTreeMap::new()
        )
    );
    assert_eq!(api.config.server.protocol_era, EraChoice::Auto);
    // Every default applies as for a single server.
    let single = load_str(
        "server: {transport: stdio, command: mcpward-fixture, args: [--tools, clean]}\n",
        Path::new("x.yaml"),
        &|_| None,
    )
    .unwrap();
    assert_eq!(api.config, single.config);
    let web = member(&f, "web");
    assert_eq!(http(web).0, "http://127.0.0.1:9/mcp");
    assert_eq!(web.config.server.protocol_era, EraChoice::Both);
    assert_eq!(api.path, clients_dir().join("mcpward.yaml"));
    assert_eq!(api.dir, clients_dir());
    assert_eq!(f.dir, clients_dir());
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert_eq!(f.checks, Checks::default());
}

#[test]
fn server_names_are_checked() {
    for bad in [
        "\"my server\"",
        "\"a/b\"",
        "\"..\"",
        "\".\"",
        "\"\"",
        "\"é\"",
    ] {
        let e = fail(&format!(
            "servers:\n  {bad}: {{transport: stdio, command: x}}\n"
        ));
        assert!(
            e.contains("server names use only letters, digits, '_', '.' and '-'"),
            "{bad}: {e}"
        );
    }
    let f = fleet("servers:\n  a.b_C-9: {transport: stdio, command: x}\n  \"1\": {transport: stdio, command: y}\n");
    assert_eq!(names(&f), ["a.b_C-9", "1"]);
    assert!(valid_name("x.y") && !valid_name("x y") && !valid_name(".."));
}

#[test]
fn malformed_servers_blocks_are_config_errors_with_real_paths() {
    assert_eq!(
        fail("servers: [a, b]\n"),
        "Invalid config:\nservers: expected a mapping of server names to server blocks, got a list"
    );
    assert_eq!(
        fail("servers:\n  api:\n"),
        "Invalid config:\nservers.api: expected a mapping with a transport, got null"
    );
    assert_eq!(
        fail("servers:\n  api: {transport: stdio}\n  web: {transport: http, url: \"ftp://x\"}\n"),
        "Invalid config:\nservers.api.command: required (a string)\nservers.web.url: URL scheme must be http or https, got \"ftp\""
    );
    assert_eq!(
        fail("servers:\n  api: {transport: stdio, command: x, protocol_era: sideways}\n"),
        "Invalid config:\nservers.api.protocol_era: must be \"auto\", \"modern\", \"legacy\" or \"both\", got \"sideways\""
    );
    assert_eq!(
        fail("servers: {transport: stdio, command: x}\n"),
        "Invalid config:\nservers.transport: expected a mapping with a transport, got a string (\"stdio\") (one server is written under `server:`; `servers:` maps names to servers)\nservers.command: expected a mapping with a transport, got a string (\"x\") (one server is written under `server:`; `servers:` maps names to servers)"
    );
    assert_eq!(
        fail("servers: {}\n"),
        "Invalid config:\nservers: the fleet names no server to test"
    );
}

#[test]
fn unknown_keys_in_a_fleet_have_real_paths_and_suggestions() {
    let f = fleet(
        "sevrers_from: x\nservers:\n  api:\n    transport: stdio\n    command: x\n    url: http://a\n    chekcs: {}\n    timeout: {}\n",
    );
    assert_eq!(
        f.warnings,
        [
            "Unknown config key \"sevrers_from\" ignored (did you mean \"servers_from\"?)",
            "Config key \"servers.api.url\" ignored: it only applies to transport \"http\"",
            "Unknown config key \"servers.api.chekcs\" ignored (did you mean \"checks\"?)",
            "Unknown config key \"servers.api.timeout\" ignored (did you mean \"timeouts\"?)",
        ]
    );
    // A typo that leaves a required key missing is listed with the issue.
    assert_eq!(
        fail("servers:\n  api: {transport: stdio, comand: x}\n"),
        "Invalid config:\nservers.api.command: required (a string)\nservers.api.comand: unknown key, ignored (did you mean \"command\"?)"
    );
    // `server` / `servers` typos at the root of a config that names no server.
    let e = load_str(
        "sevrers:\n  api: {transport: stdio, command: x}\n",
        Path::new("m.yaml"),
        &|_| None,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "Invalid config:\nserver: required (a mapping with a transport)\nsevrers: unknown key, ignored (did you mean \"servers\"?)"
    );
    // A known key is never warned about.
    assert!(fleet(TWO).warnings.is_empty());
}

#[test]
fn top_level_issues_and_warnings_are_reported_once_for_the_whole_fleet() {
    let e = fail(&format!("{TWO}checks: {{schema: maybe}}\n"));
    assert_eq!(
        e,
        "Invalid config:\nchecks.schema: expected a boolean (true or false), got a string (\"maybe\")"
    );
    let f = fleet(&format!("{TWO}checks: {{complience: true}}\n"));
    assert_eq!(
        f.warnings,
        ["Unknown config key \"checks.complience\" ignored (did you mean \"compliance\"?)"]
    );
    // Each member still carries its own copy.
    assert_eq!(member(&f, "api").warnings, f.warnings);
    assert_eq!(member(&f, "web").warnings, f.warnings);
}

// ------------------------------------------------------------------ overrides

const OVERRIDES: &str = "\
checks:
  schema: false
  collision: {threshold: 0.5, fail: true}
  latency:
    samples: 3
    tools: [{name: a}, {name: b}]
  drift: {fail_on: low}
timeouts: {connect_ms: 1000, call_ms: 2000}
servers:
  plain: {transport: stdio, command: x}
  tuned:
    transport: stdio
    command: y
    checks:
      collision: {threshold: 0.9}
      latency:
        tools: [{name: c}]
      drift: null
      errors: false
    timeouts: {call_ms: 50}
";

#[test]
fn overrides_merge_over_the_top_level_key_by_key() {
    let f = fleet(OVERRIDES);
    let plain = &member(&f, "plain").config;
    let tuned = &member(&f, "tuned").config;
    // Untouched member: the top level as written.
    assert!(!plain.checks.schema);
    assert_eq!(plain.checks.collision.threshold, 0.5);
    assert!(plain.checks.collision.fail);
    assert!(plain.checks.errors.enabled);
    assert!(plain.checks.drift.is_some());
    let lat = plain.checks.latency.as_ref().unwrap();
    assert_eq!(
        lat.tools
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(
        (plain.timeouts.connect_ms, plain.timeouts.call_ms),
        (1000, 2000)
    );
    // Overridden member: mappings merge, scalars and lists replace, null removes.
    assert!(!tuned.checks.schema);
    assert_eq!(tuned.checks.collision.threshold, 0.9);
    assert!(tuned.checks.collision.fail, "kept from the top level");
    assert!(!tuned.checks.errors.enabled);
    let lat = tuned.checks.latency.as_ref().unwrap();
    assert_eq!(lat.samples, 3);
    assert_eq!(
        lat.tools
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>(),
        ["c"]
    );
    assert_eq!(tuned.checks.drift, None, "drift: null turns drift off");
    assert_eq!(
        (
            tuned.timeouts.connect_ms,
            tuned.timeouts.call_ms,
            tuned.timeouts.run_ms
        ),
        (1000, 50, Timeouts::default().run_ms)
    );
    // The fleet's own checks are the top level's, no override.
    assert_eq!(f.checks.collision.threshold, 0.5);
    assert!(f.checks.drift.is_some());
    assert!(f.checks.errors.enabled);
}

#[test]
fn an_override_issue_names_the_member_and_a_top_level_one_the_top_level() {
    let yaml = "checks: {latency: {samples: 2}}\nservers:\n  api:\n    transport: stdio\n    command: x\n    checks: {latency: {samples: 0, p95_budget_ms: -1}}\n  web: {transport: stdio, command: y}\n";
    assert_eq!(
        fail(yaml),
        "Invalid config:\nservers.api.checks.latency.samples: must be greater than 0, got 0\nservers.api.checks.latency.p95_budget_ms: must be greater than 0, got -1"
    );
    let yaml = "checks: {latency: {samples: 0}}\nservers:\n  api:\n    transport: stdio\n    command: x\n    checks: {latency: {call_all: true}}\n";
    assert_eq!(
        fail(yaml),
        "Invalid config:\nchecks.latency.samples: must be greater than 0, got 0"
    );
    // A list from the override owns everything under it.
    let yaml = "checks: {latency: {tools: [{name: a}]}}\nservers:\n  api:\n    transport: stdio\n    command: x\n    checks: {latency: {tools: [{args: {}}]}}\n";
    assert_eq!(
        fail(yaml),
        "Invalid config:\nservers.api.checks.latency.tools.0.name: required (a string)"
    );
    // An empty override changes nothing; a mistyped one is named.
    let f = fleet(
        "checks: {schema: false}\nservers:\n  api: {transport: stdio, command: x, checks: }\n",
    );
    assert!(!member(&f, "api").config.checks.schema);
    assert_eq!(
        fail("servers:\n  api: {transport: stdio, command: x, timeouts: 5}\n"),
        "Invalid config:\nservers.api.timeouts: expected a mapping, got a number (5)"
    );
}

#[test]
fn members_may_override_suites_expect_and_limits() {
    let yaml = "\
suites: [{tool: echo, cases: []}]
limits: {tools: 10}
servers:
  a: {transport: stdio, command: x}
  b:
    transport: stdio
    command: y
    suites: [{tool: add_numbers, cases: []}]
    expect: {protocol_version: \"2025-06-18\"}
    limits: {message_bytes: 1024}
";
    let f = fleet(yaml);
    let a = &member(&f, "a").config;
    let b = &member(&f, "b").config;
    assert_eq!(a.suites[0].tool, "echo");
    assert_eq!(b.suites.len(), 1);
    assert_eq!(b.suites[0].tool, "add_numbers");
    assert_eq!(a.expect.protocol_version, None);
    assert_eq!(b.expect.protocol_version.as_deref(), Some("2025-06-18"));
    assert_eq!((b.limits.tools, b.limits.message_bytes), (10, 1024));
}

// ------------------------------------------------------------------ baselines

#[test]
fn the_fleet_default_baseline_is_one_lockfile_per_server() {
    let f = fleet(&format!("checks: {{drift: {{fail_on: low}}}}\n{TWO}"));
    let b = |n: &str| {
        member(&f, n)
            .config
            .checks
            .drift
            .as_ref()
            .unwrap()
            .baseline
            .clone()
    };
    assert_eq!(b("api"), "./mcpward.lock.api.json");
    assert_eq!(b("web"), "./mcpward.lock.web.json");
    assert_eq!(f.members[0].baseline(), "./mcpward.lock.api.json");
    // Without drift configured, `baseline` still has one file per member.
    let f = fleet(TWO);
    assert_eq!(member(&f, "api").config.checks.drift, None);
    assert_eq!(f.members[1].baseline(), "./mcpward.lock.web.json");
    assert_eq!(FLEET_BASELINE, "./mcpward.lock.{server}.json");
}

#[test]
fn server_in_the_baseline_is_the_member_name() {
    let f = fleet(&format!(
        "checks: {{drift: {{baseline: \"locks/{{server}}/lock-{{server}}.json\"}}}}\n{TWO}"
    ));
    assert_eq!(f.members[0].baseline(), "locks/api/lock-api.json");
    assert_eq!(f.members[1].baseline(), "locks/web/lock-web.json");
    // The fleet's checks keep the template.
    assert_eq!(
        f.checks.drift.unwrap().baseline,
        "locks/{server}/lock-{server}.json"
    );
    // A single server keeps `{server}` literally, as before.
    let l = load_str(
        "server: {transport: stdio, command: x}\nchecks: {drift: {baseline: \"a-{server}.json\"}}\n",
        Path::new("m.yaml"),
        &|_| None,
    )
    .unwrap();
    assert_eq!(l.config.checks.drift.unwrap().baseline, "a-{server}.json");
}

#[test]
fn a_fixed_baseline_shared_by_members_is_a_config_error() {
    assert_eq!(
        fail(&format!("checks: {{drift: {{baseline: ./lock.json}}}}\n{TWO}")),
        "Invalid config:\nchecks.drift.baseline: servers api, web would all write lock.json; put {server} in the path (the fleet default is ./mcpward.lock.{server}.json)"
    );
    // `./a.json` and `a.json` are one file.
    let yaml = "servers:\n  a: {transport: stdio, command: x, checks: {drift: {baseline: ./same.json}}}\n  b: {transport: stdio, command: x, checks: {drift: {baseline: same.json}}}\n";
    assert!(fail(yaml).contains("servers a, b would all write same.json"));
    // A fixed path used by one member only is fine.
    let f = fleet("servers:\n  a: {transport: stdio, command: x, checks: {drift: {baseline: ./mine.json}}}\n  b: {transport: stdio, command: x}\n");
    assert_eq!(f.members[0].baseline(), "./mine.json");
    assert_eq!(f.members[1].baseline(), "./mcpward.lock.b.json");
}

// ------------------------------------------------------------------ secrets

#[test]
fn each_member_has_its_own_secrets_and_the_fleet_their_union() {
    let yaml = "\
suites: [{tool: echo, cases: [{name: x, args: {k: \"${SHARED}\"}}]}]
servers:
  a:
    transport: http
    url: http://127.0.0.1:9/mcp
    headers: {Authorization: \"Bearer ${TOKEN_A}\", X-Api-Key: literal-key-aaaa}
  b:
    transport: stdio
    command: x
    env: {B_SECRET: \"${TOKEN_B}\"}
";
    let f = fleet_env(
        yaml,
        &[
            ("TOKEN_A", "token-a-1234"),
            ("TOKEN_B", "token-b-5678"),
            ("SHARED", "shared-9999"),
        ],
    );
    // A member's own block first, then the shared keys, then literal credentials.
    assert_eq!(
        member(&f, "a").secrets,
        ["token-a-1234", "shared-9999", "literal-key-aaaa"]
    );
    assert_eq!(member(&f, "b").secrets, ["token-b-5678", "shared-9999"]);
    assert_eq!(
        f.secrets,
        [
            "shared-9999",
            "token-a-1234",
            "token-b-5678",
            "literal-key-aaaa"
        ]
    );
}

#[test]
fn secrets_are_redacted_in_fleet_errors() {
    let yaml = "servers:\n  a: {transport: stdio, command: x, protocol_era: \"${ERA}\"}\n  b: {transport: stdio, command: y}\n";
    let e = fail_env(yaml, &[("ERA", "hunter2-secret-era")]);
    assert_eq!(
        e,
        "Invalid config:\nservers.a.protocol_era: must be \"auto\", \"modern\", \"legacy\" or \"both\", got \"[REDACTED]\""
    );
    // An unset variable names its real path.
    assert_eq!(
        fail("servers:\n  a: {transport: stdio, command: \"${NOPE}\"}\n"),
        "Environment variable \"NOPE\" is not set (used by servers.a.command)"
    );
}

// ------------------------------------------------------------------ servers_from

#[test]
fn claude_desktop_config_entries_become_members() {
    let f = fleet("servers_from: claude_desktop_config.json\n");
    assert_eq!(names(&f), ["fixture-clean", "fixture-poisoned"]);
    let clean = member(&f, "fixture-clean");
    let (command, args, env) = stdio(clean);
    assert_eq!(command, "mcpward-fixture");
    assert_eq!(args, ["--tools", "clean"]);
    assert_eq!(
        env.get("FIXTURE_API_KEY").map(String::as_str),
        Some("claude-literal-key-1234")
    );
    assert_eq!(clean.secrets, ["claude-literal-key-1234"]);
    assert!(member(&f, "fixture-poisoned").secrets.is_empty());
    assert_eq!(f.secrets, ["claude-literal-key-1234"]);
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    // `server` anchors to the servers_from key.
    assert_eq!(clean.key_lines.get("server"), Some(&1));
}

#[test]
fn vscode_mcp_json_is_read_as_jsonc_with_inputs() {
    let f = fleet_env(
        "servers_from: [vscode-mcp.json]\n",
        &[
            ("MCPWARD_INPUT_API_KEY", "vs-input-secret-42"),
            ("FIXTURE_PORT", "4321"),
        ],
    );
    assert_eq!(names(&f), ["fixture", "fixture-http"]);
    let fx = member(&f, "fixture");
    let (_, args, env) = stdio(fx);
    // `${input:region}` is unset: the input's declared default answers.
    assert_eq!(args, ["--tools", "clean", "--server-name", "eu-west"]);
    assert_eq!(env["FIXTURE_TOKEN"], "vs-input-secret-42");
    // The workspace is the folder holding the file (not a `.vscode` folder here).
    let ws = std::fs::canonicalize(clients_dir()).unwrap();
    assert_eq!(env["WORKSPACE"], ws.display().to_string());
    assert!(fx.secrets.contains(&"vs-input-secret-42".to_string()));
    assert!(
        fx.secrets.contains(&"eu-west".to_string()),
        "a resolved input is a secret"
    );
    // Every env value of an imported entry is a secret, a path too.
    assert!(fx.secrets.contains(&ws.display().to_string()));
    let web = member(&f, "fixture-http");
    let (url, headers) = http(web);
    assert_eq!(url, "http://127.0.0.1:4321/mcp");
    assert_eq!(headers["Authorization"], "Bearer vs-input-secret-42");
    assert!(web.secrets.contains(&"vs-input-secret-42".to_string()));
    assert!(web
        .secrets
        .contains(&"Bearer vs-input-secret-42".to_string()));
    let file = clients_dir().join("vscode-mcp.json");
    assert_eq!(
        f.warnings,
        [format!(
            "{}: servers.old-sse skipped: type \"sse\" is the legacy HTTP+SSE transport, which mcpward does not test (name the server's Streamable HTTP endpoint under servers:)",
            file.display()
        )]
    );
}

#[test]
fn an_unset_input_is_a_config_error_naming_file_entry_and_variable() {
    let e = fail_env("servers_from: vscode-mcp.json\n", &[("FIXTURE_PORT", "1")]);
    let file = clients_dir().join("vscode-mcp.json");
    assert_eq!(
        e,
        format!(
            "Environment variable \"MCPWARD_INPUT_API_KEY\" is not set (used by {}: servers.fixture.env.FIXTURE_TOKEN, ${{input:api-key}})",
            file.display()
        )
    );
    assert_eq!(input_env_name("api-key"), "MCPWARD_INPUT_API_KEY");
    assert_eq!(input_env_name("gh.token"), "MCPWARD_INPUT_GH_TOKEN");
}

#[test]
fn cursor_mcp_json_with_env_references_and_a_disabled_entry() {
    let f = fleet_env(
        "servers_from: cursor-mcp.json\n",
        &[("CURSOR_FIXTURE_TOKEN", "cursor-env-token-77")],
    );
    assert_eq!(names(&f), ["fixture", "remote"]);
    assert_eq!(
        stdio(member(&f, "fixture")).2["CURSOR_TOKEN"],
        "cursor-env-token-77"
    );
    let remote = member(&f, "remote");
    assert_eq!(http(remote).1["X-Api-Key"], "cursor-literal-header-5678");
    assert_eq!(remote.secrets, ["cursor-literal-header-5678"]);
    assert_eq!(
        f.secrets,
        ["cursor-env-token-77", "cursor-literal-header-5678"]
    );
    let file = clients_dir().join("cursor-mcp.json");
    assert_eq!(
        f.warnings,
        [format!(
            "{}: mcpServers.paused skipped: disabled in the client config",
            file.display()
        )]
    );
    let e = fail("servers_from: cursor-mcp.json\n");
    assert_eq!(
        e,
        format!(
            "Environment variable \"CURSOR_FIXTURE_TOKEN\" is not set (used by {}: mcpServers.fixture.env.CURSOR_TOKEN, ${{env:CURSOR_FIXTURE_TOKEN}})",
            file.display()
        )
    );
}

#[test]
fn the_generic_mcp_servers_shape_with_names_and_types_mcpward_adapts_or_skips() {
    let f = fleet("servers_from: mcp-servers.json\n");
    assert_eq!(names(&f), ["My-Fixture", "streamable"]);
    assert_eq!(
        stdio(member(&f, "My-Fixture")).1,
        ["--tools", "clean", "--page-size", "2"]
    );
    assert_eq!(http(member(&f, "streamable")).0, "http://127.0.0.1:9/mcp");
    let file = clients_dir().join("mcp-servers.json").display().to_string();
    assert_eq!(
        f.warnings,
        [
            format!("{file}: mcpServers[\"My Fixture\"] is named \"My-Fixture\" (server names use only letters, digits, '_', '.' and '-')"),
            format!("{file}: mcpServers.websocket skipped: type \"ws\" is not a transport mcpward tests (stdio, http, streamable-http)"),
            format!("{file}: mcpServers.typo skipped: has neither \"command\" nor \"url\" (\"comand\": did you mean \"command\"?)"),
            format!("{file}: mcpServers[\"My Fixture\"].cwd ignored: the server is started in mcpward's working directory"),
        ]
    );
}

#[test]
fn servers_come_first_then_each_file_in_order_and_names_stay_unique() {
    let yaml = "\
servers:
  fixture: {transport: stdio, command: mine}
servers_from:
  - cursor-mcp.json
  - claude_desktop_config.json
";
    let f = fleet_env(yaml, &[]);
    assert_eq!(
        names(&f),
        ["fixture", "remote", "fixture-clean", "fixture-poisoned"]
    );
    // The `servers:` entry wins over the imported one (which is never resolved).
    assert_eq!(stdio(member(&f, "fixture")).0, "mine");
    let cursor = clients_dir().join("cursor-mcp.json");
    assert!(f.warnings.contains(&format!(
        "{}: mcpServers.fixture skipped: a server named \"fixture\" is already in the fleet",
        cursor.display()
    )));
    // servers_from[1] anchors its members' `server` key.
    assert_eq!(
        member(&f, "fixture-clean").key_lines.get("server"),
        Some(&5)
    );
    assert_eq!(member(&f, "remote").key_lines.get("server"), Some(&4));
    assert_eq!(member(&f, "fixture").key_lines.get("server"), Some(&2));
}

#[test]
fn imported_members_take_the_top_level_checks_and_baseline_template() {
    let f = fleet("checks: {drift: {}, schema: false}\nservers_from: claude_desktop_config.json\n");
    assert_eq!(f.members[0].baseline(), "./mcpward.lock.fixture-clean.json");
    assert_eq!(
        f.members[1].baseline(),
        "./mcpward.lock.fixture-poisoned.json"
    );
    assert!(!f.members[1].loaded.config.checks.schema);
}

fn temp_client(name: &str, text: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let p = dir.path().to_path_buf();
    (dir, p)
}

fn fail_in(dir: &Path, yaml: &str) -> String {
    match any_in(yaml, dir, &vec![]) {
        Ok(l) => panic!("expected failure, got {l:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_missing_client_file_names_the_path() {
    let e = fail("servers_from: [claude_desktop_config.json, nowhere/mcp.json]\n");
    assert_eq!(
        e,
        format!(
            "Invalid config:\nservers_from.1: client config file not found: {}",
            clients_dir().join("nowhere/mcp.json").display()
        )
    );
    assert_eq!(
        fail("servers_from: 7\n"),
        "Invalid config:\nservers_from: expected a path to an MCP client config file, got a number (7)"
    );
}

#[test]
fn a_malformed_client_file_names_the_file_and_the_json_path() {
    let (_t, dir) = temp_client(
        "bad.json",
        b"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",,}\n  }\n}\n",
    );
    let file = dir.join("bad.json").display().to_string();
    let e = fail_in(&dir, "servers_from: bad.json\n");
    assert!(
        e.starts_with(&format!(
            "Invalid config:\nservers_from: {file}: invalid JSON: "
        )),
        "{e}"
    );
    assert!(e.contains("line 3"), "{e}");
    let cases: [(&[u8], String); 6] = [
        (
            b"[1]",
            format!("{file}: expected a JSON object at the top level"),
        ),
        (
            b"{\"other\": 1}",
            format!("{file}: no \"mcpServers\" or \"servers\" object (not an MCP client config)"),
        ),
        (
            b"{\"mcpServers\": []}",
            format!("{file}: mcpServers: expected an object"),
        ),
        (
            b"{\"mcpServers\": {\"a\": 5}}",
            format!("{file}: mcpServers.a: expected an object, got a number"),
        ),
        (
            b"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": 5}}}",
            format!("{file}: mcpServers.a.args: expected an array of strings, got a number"),
        ),
        (
            b"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"K\": [1]}}}}",
            format!("{file}: mcpServers.a.env.K: expected a string, got an array"),
        ),
    ];
    for (text, want) in cases {
        std::fs::write(dir.join("bad.json"), text).unwrap();
        let e = fail_in(&dir, "servers_from: bad.json\n");
        assert!(e.ends_with(&want), "{e}\nwanted …{want}");
    }
    // A well-formed entry mcpward cannot test is skipped; the rest still load.
    std::fs::write(
        dir.join("bad.json"),
        br#"{"mcpServers": {"a": {"url": "ftp://x"}, "b": {"command": "x", "env": {"A=B": "v"}}, "c": {"command": "ok"}}}"#,
    )
    .unwrap();
    let Ok(LoadedAny::Fleet(f)) = any_in("servers_from: bad.json\n", &dir, &vec![]) else {
        panic!("expected a fleet")
    };
    assert_eq!(names(&f), ["c"]);
    assert_eq!(
        f.warnings,
        [
            format!("{file}: mcpServers.a skipped: url: URL scheme must be http or https, got \"ftp\""),
            format!("{file}: mcpServers.b skipped: env.A=B: not a valid environment variable name (empty, or contains '=' or NUL)"),
        ]
    );
}

#[test]
fn a_client_file_of_only_untestable_entries_is_an_error_that_lists_them() {
    let (_t, dir) = temp_client(
        "c.json",
        br#"{"servers": {"x": {"type": "sse", "url": "http://a"}}}"#,
    );
    let e = fail_in(&dir, "servers_from: c.json\n");
    let file = dir.join("c.json").display().to_string();
    assert_eq!(
        e,
        format!("Invalid config:\nservers_from: no server to test, every entry was skipped:\n  {file}: servers.x skipped: type \"sse\" is the legacy HTTP+SSE transport, which mcpward does not test (name the server's Streamable HTTP endpoint under servers:)")
    );
}

#[test]
fn an_oversized_client_file_is_refused_unread() {
    let mut big = b"{\"mcpServers\": {}, \"pad\": \"".to_vec();
    big.resize(MAX_CLIENT_FILE_BYTES as usize + 10, b'a');
    big.extend_from_slice(b"\"}");
    let (_t, dir) = temp_client("big.json", &big);
    let e = fail_in(&dir, "servers_from: big.json\n");
    assert!(
        e.ends_with("big.json: larger than 1024 KiB, not a client config file"),
        "{e}"
    );
    // Deep nesting is a parse error, not a stack overflow.
    let deep = format!(
        "{{\"mcpServers\": {{\"a\": {}{}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    std::fs::write(dir.join("big.json"), deep).unwrap();
    assert!(fail_in(&dir, "servers_from: big.json\n").contains("invalid JSON"));
}

#[test]
fn vscode_settings_nest_servers_under_mcp_and_a_vscode_folder_is_the_workspace() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join(".vscode")).unwrap();
    std::fs::write(
        t.path().join(".vscode/settings.json"),
        "{ // settings\n \"mcp\": { \"servers\": { \"w\": { \"command\": \"x\", \"args\": [\"${workspaceFolder}/a\", \"${workspaceFolderBasename}\"], }, }, }, }\n",
    )
    .unwrap();
    let Ok(LoadedAny::Fleet(f)) =
        any_in("servers_from: .vscode/settings.json\n", t.path(), &vec![])
    else {
        panic!("expected a fleet")
    };
    let ws = std::fs::canonicalize(t.path()).unwrap();
    let base = ws.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        stdio(member(&f, "w")).1,
        [format!("{}/a", ws.display()), base]
    );
    // Predefined path variables are not secrets (only env and input values are).
    assert!(
        member(&f, "w").secrets.is_empty(),
        "{:?}",
        member(&f, "w").secrets
    );
}

#[test]
fn unsupported_variables_and_home_paths() {
    let (_t, dir) = temp_client(
        "c.json",
        br#"{"mcpServers": {"a": {"command": "x", "args": ["${command:pick}"]}}}"#,
    );
    let file = dir.join("c.json").display().to_string();
    assert_eq!(
        fail_in(&dir, "servers_from: c.json\n"),
        format!("Invalid config:\n{file}: mcpServers.a.args[0]: variable ${{command:pick}} is not supported (use ${{env:NAME}} or ${{input:ID}})")
    );
    // `~/` is the home directory.
    let env = vars(&[("HOME", dir.to_str().unwrap())]);
    std::fs::write(
        dir.join("c.json"),
        br#"{"mcpServers": {"a": {"command": "x", "args": ["${userHome}", "$HOME", "${"]}}}"#,
    )
    .unwrap();
    let Ok(LoadedAny::Fleet(f)) =
        any_in("servers_from: ~/c.json\n", Path::new("/nonexistent"), &env)
    else {
        panic!("expected a fleet")
    };
    assert_eq!(
        stdio(member(&f, "a")).1,
        [dir.to_str().unwrap(), "$HOME", "${"]
    );
}

#[test]
fn jsonc_comments_and_trailing_commas_are_blanked_in_place() {
    let text = "{ // c\n \"a\": \"http://x//y\", /* b\n c */ \"b\": [1, 2,], \"c\": \"a,}\",\n}";
    let plain = clients::strip_jsonc(text);
    assert_eq!(plain.len(), text.len());
    assert_eq!(plain.lines().count(), text.lines().count());
    let v: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"a": "http://x//y", "b": [1, 2], "c": "a,}"})
    );
    // Escaped quotes do not end a string; an unterminated comment blanks to the end.
    let v: serde_json::Value =
        serde_json::from_str(&clients::strip_jsonc("{\"a\": \"q\\\"//\"} /* x")).unwrap();
    assert_eq!(v, serde_json::json!({"a": "q\"//"}));
    // A comma between values stays.
    assert!(serde_json::from_str::<serde_json::Value>(&clients::strip_jsonc("[1,,]")).is_err());
}

#[test]
fn fleet_key_lines_are_in_single_server_terms() {
    let yaml = "\
checks:
  drift: {}
  latency: {samples: 2}
servers:
  api:
    transport: stdio
    command: x
    checks:
      latency: {samples: 3}
    suites:
      - tool: echo
        cases: []
";
    let f = fleet(yaml);
    let l = &member(&f, "api").key_lines;
    assert_eq!(l.get("checks.drift"), Some(&2));
    assert_eq!(l.get("server"), Some(&5));
    assert_eq!(l.get("server.command"), Some(&7));
    assert_eq!(l.get("checks.latency"), Some(&9), "the override's own line");
    assert_eq!(l.get("suites.echo"), Some(&11));
    assert!(!l.keys().any(|k| k.starts_with("servers")), "{l:?}");
}

#[test]
fn load_any_reads_the_file_from_disk() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("mcpward.yaml");
    std::fs::write(&p, TWO).unwrap();
    assert!(matches!(load_any(&p), Ok(LoadedAny::Fleet(f)) if f.members.len() == 2));
    std::fs::write(&p, "server: {transport: stdio, command: x}\n").unwrap();
    assert!(matches!(load_any(&p), Ok(LoadedAny::Single(_))));
    assert!(matches!(
        load_any(&t.path().join("none.yaml")),
        Err(ConfigError::NotFound { .. })
    ));
}

#[test]
fn a_large_client_file_loads_every_entry_once() {
    // 10,000 entries: names, secrets and warnings are hashed, not compared pairwise.
    let mut text = String::from("{\"mcpServers\": {");
    for i in 0..10_000 {
        if i > 0 {
            text.push(',');
        }
        if i % 2 == 0 {
            text.push_str(&format!(
                "\"s{i}\": {{\"command\": \"x\", \"env\": {{\"K\": \"value-{i}\"}}}}"
            ));
        } else {
            text.push_str(&format!(
                "\"s{i}\": {{\"command\": \"x\", \"disabled\": true}}"
            ));
        }
    }
    text.push_str("}}");
    let (_t, dir) = temp_client("big.json", text.as_bytes());
    let Ok(LoadedAny::Fleet(f)) = any_in("servers_from: [big.json, big.json]\n", &dir, &vec![])
    else {
        panic!("expected a fleet")
    };
    assert_eq!(f.members.len(), 5_000);
    assert_eq!(f.secrets.len(), 5_000);
    // 5,000 disabled entries, then 5,000 names already taken (the file listed twice).
    assert_eq!(f.warnings.len(), 10_000);
}

#[test]
fn odd_fleets_are_config_errors_never_panics() {
    let cases = [
        (
            "servers:\n  a: {transport: stdio, command: x, checks: [1]}\n",
            "servers.a.checks: expected a mapping, got a list",
        ),
        (
            "servers:\n  a: {transport: stdio, command: x, checks: {drift: {baseline: 5}}}\n",
            "servers.a.checks.drift.baseline: expected a string, got a number (5)",
        ),
        // A bad top-level value is an error even when every member overrides it.
        (
            "checks: [1]\nservers:\n  a: {transport: stdio, command: x, checks: {schema: false}}\n",
            "Invalid config:\nchecks: expected a mapping, got a list",
        ),
        (
            "servers:\n  a: {transport: stdio, command: x, suites: {}}\n",
            "servers.a.suites: expected a list, got a mapping",
        ),
        (
            "servers: 5\nservers_from: []\n",
            "servers: expected a mapping of server names to server blocks, got a number (5)",
        ),
        (
            "servers_from: [[a]]\n",
            "servers_from.0: expected a path to an MCP client config file, got a list",
        ),
        ("servers_from: \"\"\n", "servers_from: must not be empty"),
    ];
    for (yaml, want) in cases {
        let e = fail(yaml);
        assert!(e.contains(want), "{yaml}: {e}");
    }
    assert!(fail("servers_from: []\n").contains("servers: the fleet names no server to test"));
}
