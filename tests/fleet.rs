//! A fleet in one run (#15): several servers per config, in parallel, shards, merge,
//! cross-server findings, and both protocol eras in one run.

mod common;
use common::*;
use serde_json::Value;
use std::time::Duration;

/// A single-server config that asks for both eras, against the fixture in `era`.
fn both_config(era: &str, tag: &str) -> String {
    stdio_config(&["--tools", "clean", "--era", era], tag, "")
        .replace("protocol_era: legacy", "protocol_era: both")
}

fn eras_of(report: &Value) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["era"].as_str().unwrap_or("-").to_string(),
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.dedup();
    v
}

#[test]
fn both_eras_run_every_family_once_per_era_on_a_dual_server() {
    let w = Workdir::new();
    let tag = unique_tag("both-dual");
    w.write("mcpward.yaml", &both_config("dual", &tag));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_report(&o);
    let rows = eras_of(&r);
    // Every result names its lane; the modern lane comes first, then the legacy lane.
    assert!(
        rows.iter().all(|(e, _, _)| e == "modern" || e == "legacy"),
        "{rows:?}"
    );
    let first_legacy = rows.iter().position(|(e, _, _)| e == "legacy").unwrap();
    assert!(rows[..first_legacy].iter().all(|(e, _, _)| e == "modern"));
    assert!(rows[first_legacy..].iter().all(|(e, _, _)| e == "legacy"));
    for era in ["modern", "legacy"] {
        for id in [
            "compliance/handshake",
            "schema/tool-name",
            "security/summary",
        ] {
            assert!(
                rows.iter().any(|(e, i, _)| e == era && i == id),
                "{id} missing in the {era} lane: {rows:?}"
            );
        }
    }
    // Legacy-only ping ran in the legacy lane only.
    assert!(rows
        .iter()
        .any(|(e, i, s)| e == "legacy" && i == "compliance/ping" && s == "pass"));
    assert!(!rows.iter().any(|(_, i, _)| i == "compliance/era-lane"));
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn a_server_of_one_era_gets_the_other_lane_as_one_skip() {
    for (speaks, missing) in [("legacy", "modern"), ("modern", "legacy")] {
        let w = Workdir::new();
        let tag = unique_tag("both-one");
        w.write("mcpward.yaml", &both_config(speaks, &tag));
        let o = w.run(&["run", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{speaks}: {}", stderr(&o));
        let r = json_report(&o);
        let lanes: Vec<&Value> = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["era"] == missing)
            .collect();
        assert_eq!(lanes.len(), 1, "{speaks}: {lanes:?}");
        assert_eq!(lanes[0]["id"], "compliance/era-lane");
        assert_eq!(lanes[0]["status"], "skip");
        let msg = lanes[0]["message"].as_str().unwrap();
        assert!(
            msg.starts_with(&format!("The {missing} protocol era was not tested: ")),
            "{msg}"
        );
        assert!(!msg.contains("Failed to connect"), "{msg}");
        assert!(
            !msg.contains("protocol_era is"),
            "names a setting not written: {msg}"
        );
        assert!(r["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["era"] == speaks
                && f["id"] == "compliance/handshake"
                && f["status"] == "pass"));
        assert!(processes_with_tag(&tag).is_empty());
    }
}

#[test]
fn single_era_reports_carry_no_era_and_the_flag_asks_for_both() {
    let w = Workdir::new();
    let tag = unique_tag("one-era");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean", "--era", "dual"], &tag, ""),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("\"era\""));
    let o = w.run(&["run", "--json", "--protocol-era", "both"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = eras_of(&json_report(&o));
    assert!(rows.iter().any(|(e, _, _)| e == "modern"));
    assert!(rows.iter().any(|(e, _, _)| e == "legacy"));
}

#[test]
fn a_server_that_speaks_neither_era_is_not_tested() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: mcpward-no-such-server-binary\n  protocol_era: both\n",
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("Failed to connect"), "{}", stderr(&o));
}

// ---------------------------------------------------------------- fleets

/// A `servers:` entry running the fixture over stdio with these arguments.
fn member(name: &str, fixture_args: &[&str], tag: &str) -> String {
    let args: Vec<String> = fixture_args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "  {name}:\n    transport: stdio\n    command: {:?}\n    args: [{}]\n    env:\n      MCPWARD_TEST_TAG: {tag:?}\n    protocol_era: legacy\n",
        fixture().display().to_string(),
        args.join(", ")
    )
}

fn http_member(name: &str, url: &str) -> String {
    format!("  {name}:\n    transport: http\n    url: {url:?}\n    protocol_era: legacy\n")
}

/// The fleet document without what legitimately differs between two runs.
fn stable(mut doc: Value) -> Value {
    doc["timestamp"] = Value::Null;
    for m in doc["servers"].as_array_mut().unwrap() {
        if let Some(r) = m.get_mut("report") {
            r["timestamp"] = Value::Null;
        }
    }
    doc
}

fn names(doc: &Value) -> Vec<String> {
    doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

fn member_of<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no member {name} in {doc}"))
}

#[test]
fn a_fleet_of_stdio_and_http_members_reports_each_in_config_order() {
    let http = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let tag = unique_tag("fleet-mixed");
    let cfg = format!(
        "servers:\n{}{}{}",
        member("zeta", &["--tools", "clean"], &tag),
        http_member("alpha", &http.url),
        member("mid", &["--tools", "paginated"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json", "--jobs", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(doc["fleetSchemaVersion"], 1);
    assert_eq!(names(&doc), ["zeta", "alpha", "mid"]);
    assert_eq!(doc["order"], serde_json::json!(["zeta", "alpha", "mid"]));
    assert_eq!(member_of(&doc, "zeta")["status"], "passed");
    assert_eq!(member_of(&doc, "alpha")["status"], "passed");
    assert_eq!(member_of(&doc, "mid")["status"], "failed");
    assert_eq!(doc["summary"]["exitCode"], 1);
    assert_eq!(doc["summary"]["servers"], 3);
    assert!(processes_with_tag(&tag).is_empty());

    // Each member's report is what a single-server run of it reports.
    let single = Workdir::new();
    single.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "paginated"], &tag, ""),
    );
    let one = json_report(&single.run(&["run", "--json"]));
    let mut from_fleet = member_of(&doc, "mid")["report"].clone();
    from_fleet["timestamp"] = Value::Null;
    let mut alone = one.clone();
    alone["timestamp"] = Value::Null;
    assert_eq!(from_fleet, alone);

    // Whatever the concurrency, the same document.
    let o1 = w.run(&["run", "--json", "--jobs", "1"]);
    assert_eq!(stable(json_report(&o1)), stable(doc));
}

#[test]
fn an_unreachable_member_is_incomplete_and_the_others_still_run() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-down");
    let cfg = format!(
        "servers:\n{}  down:\n    transport: stdio\n    command: mcpward-no-such-server-binary\n{}",
        member("up", &["--tools", "clean"], &tag),
        member("also-up", &["--tools", "clean"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(names(&doc), ["up", "down", "also-up"]);
    let down = member_of(&doc, "down");
    assert_eq!(down["status"], "incomplete");
    assert!(down.get("report").is_none());
    assert!(
        down["reason"]
            .as_str()
            .unwrap()
            .contains("mcpward-no-such-server-binary"),
        "{down}"
    );
    assert_eq!(member_of(&doc, "up")["status"], "passed");
    assert_eq!(member_of(&doc, "also-up")["status"], "passed");
    assert_eq!(doc["summary"]["incomplete"], 1);
    assert_eq!(doc["summary"]["exitCode"], 2);
    // The console says why the run exits 2.
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("down"), "{out}");
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn server_flags_select_members_and_an_unknown_name_is_a_usage_error() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-select");
    let cfg = format!(
        "servers:\n{}{}{}",
        member("one", &["--tools", "clean"], &tag),
        member("two", &["--tools", "paginated"], &tag),
        member("three", &["--tools", "clean"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json", "--server", "three", "--server", "one"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Config order, not flag order.
    assert_eq!(names(&json_report(&o)), ["one", "three"]);
    let o = w.run(&["run", "--json", "--server", "thre"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("\"thre\"") && e.contains("did you mean \"three\""),
        "{e}"
    );
    assert!(o.stdout.is_empty());
    // On a single-server config the fleet flags are an error, not ignored.
    let single = Workdir::new();
    single.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, ""),
    );
    let o = single.run(&["run", "--server", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--server selects servers of a fleet"),
        "{}",
        stderr(&o)
    );
    for bad in ["0/2", "3/2", "x", "1/0", "1-2"] {
        let o = w.run(&["run", "--shard", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("--shard"), "{bad}: {}", stderr(&o));
    }
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn shards_partition_the_fleet_and_merge_equals_the_unsharded_run() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-shards");
    let all = ["k", "b", "x", "a", "m"];
    let mut cfg = "servers:\n".to_string();
    for (i, n) in all.iter().enumerate() {
        let table = if i == 2 { "paginated" } else { "clean" };
        cfg.push_str(&member(n, &["--tools", table], &tag));
    }
    w.write("mcpward.yaml", &cfg);
    let whole = w.run(&["run", "--json"]);
    assert_eq!(whole.status.code(), Some(1), "{}", stderr(&whole));
    let whole = json_report(&whole);
    let mut seen = Vec::new();
    let mut files = Vec::new();
    for i in 1..=3 {
        let out = format!("shard-{i}.json");
        let o = w.run(&["run", "--json", "--shard", &format!("{i}/3"), "--out", &out]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(w.path().join(&out)).unwrap()).unwrap();
        assert_eq!(doc["shard"], serde_json::json!({"index": i, "count": 3}));
        assert_eq!(doc["order"], whole["order"]);
        seen.extend(names(&doc));
        files.push(out);
    }
    // Sorted names dealt round-robin: a, b, k, m, x → {a, m}, {b, x}, {k}.
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(sorted, ["a", "b", "k", "m", "x"], "exactly once each");
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = w.run(&args);
    assert_eq!(merged.status.code(), Some(1), "{}", stderr(&merged));
    assert_eq!(stable(json_report(&merged)), stable(whole.clone()));
    // A missing shard leaves its servers not tested.
    let merged = w.run(&["merge", "--json", &files[0], &files[1]]);
    assert_eq!(merged.status.code(), Some(2), "{}", stderr(&merged));
    let doc = json_report(&merged);
    assert_eq!(member_of(&doc, "k")["status"], "incomplete");
    // The same shard twice is an error naming the server.
    let o = w.run(&["merge", "--json", &files[0], &files[0]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn baseline_and_diff_run_per_member_with_their_own_lockfiles() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-drift");
    let cfg = format!(
        "servers:\n{}{}",
        member("api", &["--tools", "clean"], &tag),
        member("docs", &["--tools", "paginated"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(2), "no baselines yet: {}", stderr(&o));
    let doc = json_report(&o);
    assert!(member_of(&doc, "api")["reason"]
        .as_str()
        .unwrap()
        .contains("mcpward.lock.api.json"));
    let o = w.run(&["baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("── api ──") && out.contains("── docs ──"),
        "{out}"
    );
    for n in ["api", "docs"] {
        let lock = w.path().join(format!("mcpward.lock.{n}.json"));
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&lock).unwrap()).unwrap();
        assert_eq!(v["meta"]["schemaVersion"], 2, "{n}");
    }
    let api: Value = serde_json::from_str(
        &std::fs::read_to_string(w.path().join("mcpward.lock.api.json")).unwrap(),
    )
    .unwrap();
    assert!(api["tools"].get("echo").is_some());
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(member_of(&doc, "docs")["status"], "passed");
    // Drift on one member fails that member only.
    std::fs::copy(
        w.path().join("mcpward.lock.api.json"),
        w.path().join("mcpward.lock.docs.json"),
    )
    .unwrap();
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(member_of(&doc, "api")["status"], "passed");
    assert_eq!(member_of(&doc, "docs")["status"], "failed");
    assert!(processes_with_tag(&tag).is_empty());
}

// ---------------------------------------------------------------- client config files

/// mcpward in `w` with the fixture server on PATH as `mcpward-fixture` (the client files
/// name it so) and `env` set.
fn run_with(w: &Workdir, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let dir = fixture().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = std::process::Command::new(mcpward());
    c.args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env("PATH", path)
        .env_remove("CI")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn client_file(w: &Workdir, name: &str) {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/clients")
        .join(name);
    std::fs::copy(src, w.path().join(name)).unwrap();
}

fn statuses(doc: &Value) -> Vec<(String, String)> {
    doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every reporter's output and stderr, for secret checks.
fn every_rendering(w: &Workdir, env: &[(&str, &str)]) -> String {
    let mut all = String::new();
    for r in [
        "console", "json", "junit", "sarif", "markdown", "github", "gitlab",
    ] {
        let o = run_with(w, &["run", "-r", r, "-v"], env);
        all.push_str(&String::from_utf8_lossy(&o.stdout));
        all.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    all
}

#[test]
fn claude_desktop_config_entries_become_members_and_their_env_values_stay_secret() {
    let w = Workdir::new();
    client_file(&w, "claude_desktop_config.json");
    w.write("mcpward.yaml", "servers_from: claude_desktop_config.json\n");
    let o = run_with(&w, &["run", "--json"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(
        statuses(&doc),
        [
            ("fixture-clean".to_string(), "passed".to_string()),
            ("fixture-poisoned".to_string(), "failed".to_string())
        ]
    );
    let all = every_rendering(&w, &[]);
    assert!(!all.contains("claude-literal-key-1234"), "secret leaked");
    assert!(all.contains("fixture-poisoned"));
}

#[test]
fn vscode_mcp_json_with_inputs_env_references_and_http() {
    let http = HttpFixture::start(&["--tools", "clean"]);
    let port = http
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/mcp");
    let w = Workdir::new();
    client_file(&w, "vscode-mcp.json");
    w.write("mcpward.yaml", "servers_from: vscode-mcp.json\n");
    let env = [
        ("FIXTURE_PORT", port),
        ("MCPWARD_INPUT_API_KEY", "vscode-input-secret-9876"),
    ];
    let o = run_with(&w, &["run", "--json"], &env);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc = json_report(&o);
    assert_eq!(
        statuses(&doc),
        [
            ("fixture".to_string(), "passed".to_string()),
            ("fixture-http".to_string(), "passed".to_string())
        ]
    );
    // `${input:region}` fell back to the input's default (the server was named with it);
    // a resolved reference is a secret, so the report shows it redacted.
    assert_eq!(
        member_of(&doc, "fixture")["report"]["server"]["name"],
        "[REDACTED]"
    );
    // The legacy SSE entry is skipped with a warning, not tested.
    assert!(stderr(&o).contains("old-sse"), "{}", stderr(&o));
    let all = every_rendering(&w, &env);
    assert!(!all.contains("vscode-input-secret-9876"), "secret leaked");
    // An unset variable is a config error naming it.
    let o = run_with(&w, &["run", "--json"], &[("FIXTURE_PORT", port)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("MCPWARD_INPUT_API_KEY"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn cursor_and_generic_mcp_servers_files_with_unreachable_and_skipped_entries() {
    let w = Workdir::new();
    client_file(&w, "cursor-mcp.json");
    client_file(&w, "mcp-servers.json");
    w.write(
        "mcpward.yaml",
        "servers_from: [cursor-mcp.json, mcp-servers.json]\ntimeouts: {connect_ms: 3000}\n",
    );
    let env = [("CURSOR_FIXTURE_TOKEN", "cursor-env-secret-4321")];
    let o = run_with(&w, &["run", "--json"], &env);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let doc = json_report(&o);
    let got = statuses(&doc);
    let want: Vec<(String, String)> = [
        ("fixture", "passed"),
        ("remote", "incomplete"),
        ("My-Fixture", "passed"),
        ("streamable", "incomplete"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(got, want);
    let e = stderr(&o);
    for skipped in ["paused", "websocket", "typo"] {
        assert!(e.contains(skipped), "{skipped} not reported: {e}");
    }
    // The client's own spelling of a renamed entry points at its fleet name.
    let o = run_with(&w, &["run", "--server", "My Fixture"], &env);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean \"My-Fixture\""),
        "{}",
        stderr(&o)
    );
    let all = every_rendering(&w, &env);
    for secret in ["cursor-env-secret-4321", "cursor-literal-header-5678"] {
        assert!(!all.contains(secret), "{secret} leaked");
    }
}

#[test]
fn a_fleet_sarif_is_one_run_naming_each_server_at_its_block() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-sarif");
    let cfg = format!(
        "servers:\n{}{}",
        member("api", &["--tools", "paginated"], &tag),
        member("docs", &["--tools", "paginated"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "-r", "sarif"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let sarif: Value = serde_json::from_slice(&o.stdout).unwrap();
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let results = runs[0]["results"].as_array().unwrap();
    let mut prints = std::collections::BTreeSet::new();
    for r in results {
        let server = r["locations"][0]["logicalLocations"][0]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        prints.insert(r["partialFingerprints"].to_string());
        if server == "cross-server" {
            // The two servers list the same tools: the fleet's own results, same run.
            assert_eq!(r["ruleId"], "collision-cross-server-name", "{r}");
            continue;
        }
        assert!(server == "api" || server == "docs", "{r}");
        // Each result points at its member's block of the config.
        let line = r["locations"][0]["physicalLocation"]["region"]["startLine"]
            .as_u64()
            .unwrap();
        let want = if server == "api" { 2 } else { 9 };
        assert_eq!(line, want, "{server}: {r}");
    }
    // The same finding on two servers is two alerts.
    assert_eq!(prints.len(), results.len());
    assert!(processes_with_tag(&tag).is_empty());
}

// ---------------------------------------------------------------- cross-server findings

fn fleet_file(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fleet")
        .join(name)
        .display()
        .to_string()
}

/// `(id, status, location)` of the cross-server results.
fn cross(doc: &Value) -> Vec<(String, String, String)> {
    triples(&serde_json::json!({"results": doc["results"]}))
}

/// Whether `got` holds a result `id` with `status` at a location that contains `loc`.
fn has(got: &[(String, String, String)], id: &str, status: &str, loc: &str) -> bool {
    got.iter()
        .any(|(i, s, l)| i == id && s == status && l.contains(loc))
}

#[test]
fn cross_server_names_shadowing_and_toxic_flow_across_the_fleet() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-cross");
    let mut cfg = "servers:\n".to_string();
    for (name, file) in [
        ("web", "reader.json"),
        ("chat", "sender.json"),
        ("notes", "shadow.json"),
        ("a", "dup-a.json"),
        ("b", "dup-b.json"),
    ] {
        cfg.push_str(&member(name, &["--tools-file", &fleet_file(file)], &tag));
    }
    cfg.push_str("checks:\n  toxic_flow: warn\n");
    w.write("mcpward.yaml", &cfg);
    let names_and_shadowing = |got: &[(String, String, String)], ctx: &str| {
        assert!(
            has(
                got,
                "collision/cross-server-name",
                "warn",
                "a:search, b:search"
            ),
            "{ctx}{got:?}"
        );
        assert!(
            has(got, "security/tool-shadowing", "fail", "notes:add_note"),
            "{ctx}{got:?}"
        );
    };
    let o = w.run(&["run", "--json"]);
    let doc = json_report(&o);
    let got = cross(&doc);
    names_and_shadowing(&got, "");
    assert!(has(&got, "security/toxic-flow", "warn", "web"), "{got:?}");
    // A failing cross-server result fails the run.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(doc["summary"]["exitCode"], 1);
    // Whichever family reads the listing last (here not schema, which is off), the members'
    // tools reach the cross-server findings (#12 holds a listing as text between families).
    for families in [
        "  schema: false\n",
        "  schema: false\n  errors: false\n  compliance: false\n",
    ] {
        w.write(
            "mcpward.yaml",
            &cfg.replace(
                "  toxic_flow: warn\n",
                &format!("  toxic_flow: warn\n{families}"),
            ),
        );
        let got = cross(&json_report(&w.run(&["run", "--json"])));
        names_and_shadowing(&got, families);
    }
    // With the default level toxic flow is information only.
    w.write(
        "mcpward.yaml",
        &cfg.replace("  toxic_flow: warn\n", "  security: true\n"),
    );
    let doc = json_report(&w.run(&["run", "--json"]));
    let got = cross(&doc);
    assert!(
        got.iter()
            .any(|(i, s, _)| i == "security/toxic-flow" && s == "pass"),
        "{got:?}"
    );
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn clean_counterparts_give_no_cross_server_finding() {
    for files in [
        ["mention.json", "sender.json"],
        ["reader-sender.json", "local.json"],
        ["unique.json", "dup-a.json"],
        ["reader.json", "local.json"],
    ] {
        let w = Workdir::new();
        let tag = unique_tag("fleet-clean");
        let mut cfg = "servers:\n".to_string();
        for (i, f) in files.iter().enumerate() {
            cfg.push_str(&member(
                &format!("s{i}"),
                &["--tools-file", &fleet_file(f)],
                &tag,
            ));
        }
        w.write("mcpward.yaml", &cfg);
        let o = w.run(&["run", "--json"]);
        let doc = json_report(&o);
        assert_eq!(
            cross(&doc),
            Vec::<(String, String, String)>::new(),
            "{files:?}"
        );
        assert!(processes_with_tag(&tag).is_empty());
    }
}

#[test]
fn an_interrupted_fleet_ends_every_member_and_exits_130() {
    use nix::sys::signal::Signal::SIGTERM;
    let w = Workdir::new();
    let tag = unique_tag("fleet-sigterm");
    let cfg = format!(
        "servers:\n{}{}{}timeouts:\n  connect_ms: 60000\n  call_ms: 60000\n  run_ms: 60000\n",
        member(
            "hangs",
            &["--tools", "clean", "--behavior", "hang-after-init"],
            &tag
        ),
        member(
            "escapes",
            &[
                "--tools",
                "clean",
                "--behavior",
                "hang",
                "--behavior",
                "fork"
            ],
            &tag
        ),
        member("fine", &["--tools", "clean"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let child = std::process::Command::new(mcpward())
        .args(["run", "--json", "--jobs", "3"])
        .current_dir(w.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while processes_with_tag(&tag).len() < 3 && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), SIGTERM).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "no report after an interrupt");
    let gone = std::time::Instant::now();
    while !processes_with_tag(&tag).is_empty() && gone.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        processes_with_tag(&tag).is_empty(),
        "a member's server survived"
    );
}

#[test]
fn a_member_whose_child_escapes_leaves_nothing_behind() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-fork");
    let cfg = format!(
        "servers:\n{}{}",
        member("forks", &["--tools", "clean", "--behavior", "fork"], &tag),
        member("plain", &["--tools", "clean"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let gone = std::time::Instant::now();
    while !processes_with_tag(&tag).is_empty() && gone.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn per_server_checks_merge_over_the_top_level_ones() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-overrides");
    let quiet = member("quiet", &["--tools", "paginated"], &tag)
        + "    checks:\n      security: false\n      errors: true\n";
    let cfg = format!(
        "servers:\n{}{quiet}checks:\n  errors: false\n  collision: {{enabled: false}}\n",
        member("loud", &["--tools", "paginated"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    let families = |n: &str| -> std::collections::BTreeSet<String> {
        member_of(&doc, n)["report"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["family"].as_str().unwrap().to_string())
            .collect()
    };
    let loud = families("loud");
    let quiet = families("quiet");
    assert!(
        loud.contains("security") && !loud.contains("errors"),
        "{loud:?}"
    );
    assert!(
        !quiet.contains("security") && quiet.contains("errors"),
        "{quiet:?}"
    );
    assert!(!loud.contains("collision") && !quiet.contains("collision"));
    assert_eq!(member_of(&doc, "loud")["status"], "failed");
    assert_eq!(member_of(&doc, "quiet")["status"], "passed");
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn user_facing_edges_of_a_fleet() {
    let w = Workdir::new();
    let tag = unique_tag("fleet-edges");
    // A baseline template with a folder of its own: the folder is made.
    let cfg = format!(
        "servers:\n{}  crashes:\n    transport: stdio\n    command: sh\n    args: [\"-c\", \"echo boom-on-stderr >&2; exit 7\"]\nchecks:\n  drift: {{baseline: \"./locks/{{server}}.json\"}}\n",
        member("api", &["--tools", "clean"], &tag),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["baseline"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(w.path().join("locks/api.json").is_file());
    let out = String::from_utf8_lossy(&o.stdout);
    // The crashed member's reason carries its stderr, and says `Error:` once at most.
    assert!(out.contains("boom-on-stderr"), "{out}");
    assert!(!out.contains("written: Error:"), "{out}");
    let o = w.run(&["run", "--json"]);
    let doc = json_report(&o);
    assert!(member_of(&doc, "crashes")["reason"]
        .as_str()
        .unwrap()
        .contains("boom-on-stderr"));
    // Fleet selection flags belong to the runs that write shards, not to merge.
    std::fs::write(w.path().join("all.json"), &o.stdout).unwrap();
    let o = w.run(&["merge", "all.json", "--server", "api"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--server applies to the runs"),
        "{}",
        stderr(&o)
    );
    let o = w.run(&["merge", "all.json", "--json"]);
    assert_eq!(o.status.code(), Some(2), "one member is incomplete");
    assert!(processes_with_tag(&tag).is_empty());
}
