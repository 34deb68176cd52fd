//! Offline snapshots (#16 §2) end to end: `run`/`baseline`/`diff --from FILE` in every
//! accepted form, the live-only families as one skip each, malformed files as exit 2 naming
//! the JSON path, and `mcpward snapshot` whose file gives the same schema, security and
//! collision findings as the live run of the same fixture server (stdio and HTTP).

mod common;
use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read_json(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo(rel)).unwrap()).unwrap()
}

fn poisoned() -> Vec<Value> {
    read_json("fixtures/tables/poisoned.json")
        .as_array()
        .unwrap()
        .clone()
}

fn clean() -> Vec<Value> {
    read_json("fixtures/tables/lockfile-example-tools.json")
        .as_array()
        .unwrap()
        .clone()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// `(id, status, location)` of the schema, security and collision results.
fn surface_triples(report: &Value) -> Vec<(String, String, String)> {
    let mut t: Vec<_> = triples(report)
        .into_iter()
        .filter(|(id, _, _)| {
            ["schema/", "security/", "collision/"]
                .iter()
                .any(|f| id.starts_with(f))
        })
        .collect();
    t.sort();
    t
}

/// Every form that wraps a list of tool objects, for the same tools.
fn wrapped_forms(tools: &[Value]) -> Vec<(&'static str, Value)> {
    let half = tools.len() / 2;
    vec![
        ("result", json!({"tools": tools})),
        (
            "response",
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}),
        ),
        (
            "pages",
            json!([
                {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools[..half], "nextCursor": "p2"}},
                {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools[half..]}}
            ]),
        ),
        ("plain", json!(tools)),
        (
            "snapshot",
            json!({"mcpward_snapshot": 1, "protocolVersion": "2025-11-25", "tools": tools}),
        ),
    ]
}

#[test]
fn every_wrapped_form_gives_the_same_findings_without_a_config() {
    let w = Workdir::new();
    let mut seen = Vec::new();
    for (name, doc) in wrapped_forms(&poisoned()) {
        let file = format!("{name}.json");
        w.write(&file, &doc.to_string());
        let o = w.run(&["run", "--from", &file, "--json"]);
        assert_eq!(code(&o), 1, "{name}: {}", stderr(&o));
        let r = json_report(&o);
        let fails = non_pass(&r);
        assert!(
            fails.contains(&"security/injection-pattern fail injection_tool".to_string()),
            "{name}: {fails:#?}"
        );
        // No config: only the families that read a surface ran.
        let families: std::collections::BTreeSet<String> = triples(&r)
            .into_iter()
            .map(|(id, _, _)| id.split('/').next().unwrap().to_string())
            .collect();
        assert_eq!(
            families.into_iter().collect::<Vec<_>>(),
            ["collision", "schema", "security"],
            "{name}"
        );
        seen.push((name, surface_triples(&r)));
    }
    for (name, t) in &seen[1..] {
        assert_eq!(t, &seen[0].1, "{name} differs from the tools/list result");
    }
}

#[test]
fn a_clean_listing_passes_and_a_poisoned_one_fails_security() {
    let w = Workdir::new();
    w.write("clean.json", &json!({"tools": clean()}).to_string());
    let o = w.run(&["run", "--from", "clean.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_report(&o);
    assert!(
        non_pass(&r).is_empty(),
        "a clean listing has only passes: {:#?}",
        non_pass(&r)
    );
    // The report names the file when the listing records no server.
    assert_eq!(r["server"]["name"], "snapshot:clean.json");

    w.write("bad.json", &json!({"tools": poisoned()}).to_string());
    let o = w.run(&["run", "--from", "bad.json", "--json"]);
    assert_eq!(code(&o), 1);
    let r = json_report(&o);
    let security_fails = non_pass(&r)
        .into_iter()
        .filter(|l| l.starts_with("security/") && l.contains(" fail"))
        .count();
    assert!(security_fails >= 10, "{:#?}", non_pass(&r));
}

#[test]
fn lockfiles_v2_and_v1_are_read_as_their_pinned_surface() {
    let w = Workdir::new();
    let v2 = repo("fixtures/tables/lockfile-example.lock.json");
    let o = w.run(&["run", "--from", v2.to_str().unwrap(), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_report(&o);
    let pinned = read_json("fixtures/tables/lockfile-example.lock.json");
    let tools: Vec<&String> = pinned["tools"].as_object().unwrap().keys().collect();
    let locations: Vec<String> = triples(&r).into_iter().map(|(_, _, l)| l).collect();
    for t in &tools {
        assert!(
            locations.iter().any(|l| l == *t),
            "{t} judged: {locations:?}"
        );
    }
    assert_eq!(r["server"]["protocolVersion"], pinned["protocolVersion"]);
    assert_eq!(r["server"]["name"], pinned["meta"]["serverName"]);

    let v1 = repo("fixtures/lockfiles/legacy-v1.lock.json");
    let o = w.run(&["run", "--from", v1.to_str().unwrap(), "--json"]);
    assert!(
        stderr(&o).contains("Loading v1 lockfile"),
        "the migration notice is shown: {}",
        stderr(&o)
    );
    // v1 stores description hashes only: said on stderr, and the schema family sees tools
    // without a description (docs/snapshots.md); nothing else fails.
    assert!(
        stderr(&o).contains("stores only the hash of 1 tool description(s)"),
        "{}",
        stderr(&o)
    );
    let r = json_report(&o);
    let v1json = read_json("fixtures/lockfiles/legacy-v1.lock.json");
    let names: Vec<&String> = v1json["tools"].as_object().unwrap().keys().collect();
    let mut want: Vec<String> = names
        .iter()
        .map(|t| format!("schema/tool-description fail {t}"))
        .collect();
    want.sort();
    assert_eq!(non_pass(&r), want);
    assert_eq!(code(&o), 1);

    // A lockfile diffed against itself: no drift, even where only hashes are stored.
    w.write(
        "mcpward.yaml",
        &format!(
            "server:\n  transport: stdio\n  command: /nonexistent/server\nchecks:\n  drift:\n    baseline: {:?}\n",
            v1.display().to_string()
        ),
    );
    let o = w.run(&["diff", "--from", v1.to_str().unwrap(), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_report(&o);
    assert!(
        triples(&r)
            .iter()
            .any(|(id, s, _)| id == "drift/no-changes" && s == "pass"),
        "{:#?}",
        triples(&r)
    );
}

const LIVE_FAMILIES: &str = "checks:
  compliance: true
  errors: true
  latency:
    samples: 2
  drift:
    baseline: ./base.lock.json
    output:
      enabled: true
      tools:
        - name: echo
          args: { message: hi }
suites:
  - tool: echo
    cases: [{ name: says hi, args: { message: hi } }]
";

#[test]
fn live_only_families_are_one_skip_each_and_no_server_is_started() {
    let w = Workdir::new();
    // The command does not exist: any attempt to connect would fail the run.
    w.write(
        "mcpward.yaml",
        &format!("server:\n  transport: stdio\n  command: /nonexistent/server\n{LIVE_FAMILIES}"),
    );
    w.write("t.json", &json!({"tools": clean()}).to_string());
    let o = w.run(&["baseline", "--from", "t.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("output sampling: skipped"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = w.run(&["run", "--from", "t.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_report(&o);
    let skips: Vec<(String, String)> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "skip")
        .map(|f| {
            (
                f["id"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let ids: Vec<&str> = skips.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(
        ids,
        [
            "compliance/handshake",
            "drift/output-sampling",
            "behavioral/summary",
            "errors/summary",
            "latency/summary"
        ],
        "{skips:#?}"
    );
    for (id, m) in &skips {
        assert!(
            m.contains("offline snapshot (--from t.json)") && m.contains("live server"),
            "{id}: {m}"
        );
    }
    // The surface families ran as usual, drift included.
    assert!(triples(&r)
        .iter()
        .any(|(id, _, _)| id == "drift/no-changes"));
    assert!(triples(&r).iter().any(|(id, _, _)| id == "schema/summary"));

    // Families that are off give no skip.
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: /nonexistent/server\nchecks:\n  compliance: false\n  errors: false\n",
    );
    let o = w.run(&["run", "--from", "t.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_report(&o);
    assert!(
        !triples(&r).iter().any(|(_, s, _)| s == "skip"),
        "{:#?}",
        triples(&r)
    );
}

#[test]
fn baseline_from_then_diff_from_a_changed_snapshot_is_drift() {
    let w = Workdir::new();
    let a = clean();
    let mut b = a.clone();
    let removed = b.pop().unwrap();
    b[0]["description"] = json!("A rewritten description.");
    w.write("a.json", &json!({"tools": a}).to_string());
    w.write("b.json", &json!(b).to_string());
    let o = w.run(&["baseline", "--from", "a.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap();
    assert_eq!(lock["meta"]["target"]["transport"], "snapshot");
    assert_eq!(lock["meta"]["target"]["identity"], "snapshot:a.json");
    assert_eq!(lock["tools"].as_object().unwrap().len(), a.len());

    let o = w.run(&["diff", "--from", "a.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    let o = w.run(&["diff", "--from", "b.json", "--json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let fails = non_pass(&json_report(&o));
    let removed = removed["name"].as_str().unwrap();
    assert!(
        fails.contains(&format!("drift/tool_removed fail {removed}")),
        "{fails:#?}"
    );
    let first = a[0]["name"].as_str().unwrap();
    assert!(
        fails
            .iter()
            .any(|l| l.starts_with("drift/description_changed") && l.ends_with(first)),
        "{fails:#?}"
    );

    // diff --from without a baseline is exit 2, as diff is.
    std::fs::remove_file(w.path().join("mcpward.lock.json")).unwrap();
    let o = w.run(&["diff", "--from", "a.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("baseline not found"), "{}", stderr(&o));
}

#[test]
fn malformed_snapshots_are_exit_2_naming_the_json_path() {
    let w = Workdir::new();
    let cases = [
        (
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": 5}}).to_string(),
            "bad.json: $.result.tools: expected an array, found a number",
        ),
        (
            json!([{"result": {"tools": []}}, {"result": "x"}]).to_string(),
            "bad.json: $[1].result: expected an object, found a string",
        ),
        (
            json!({"mcpward_snapshot": 1, "tools": [], "resources": true}).to_string(),
            "bad.json: $.resources: expected an array, found a boolean",
        ),
        (
            json!({"mcpward_snapshot": 9, "tools": []}).to_string(),
            "bad.json: $.mcpward_snapshot: snapshot format 9 is not supported",
        ),
        ("{\"tools\": [1, 2".to_string(), "bad.json: $: not JSON"),
        (
            "42".to_string(),
            "bad.json: $: expected an object or an array",
        ),
    ];
    for (text, want) in cases {
        w.write("bad.json", &text);
        for cmd in ["run", "baseline"] {
            let o = w.run(&[cmd, "--from", "bad.json"]);
            assert_eq!(code(&o), 2, "{cmd} {text}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.contains(want), "{cmd} {text}: {e}");
            assert!(!e.contains("panicked"), "{e}");
        }
    }
    // Not a regular file.
    std::fs::create_dir(w.path().join("dir.json")).unwrap();
    let o = w.run(&["run", "--from", "dir.json"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("dir.json: not a regular file"),
        "{}",
        stderr(&o)
    );
    // Larger than the cap (a sparse file: nothing is written or read).
    let big = std::fs::File::create(w.path().join("big.json")).unwrap();
    big.set_len(256 * 1024 * 1024 + 1).unwrap();
    let o = w.run(&["run", "--from", "big.json"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("big.json: larger than 256 MiB"),
        "{}",
        stderr(&o)
    );
    // Missing.
    let o = w.run(&["run", "--from", "missing.json"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("missing.json: cannot read"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_fleet_config_needs_one_server_named() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        "servers:\n  a:\n    transport: stdio\n    command: /nonexistent/a\n  b:\n    transport: stdio\n    command: /nonexistent/b\n",
    );
    w.write("t.json", &json!({"tools": clean()}).to_string());
    let o = w.run(&["run", "--from", "t.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("pass --server NAME"), "{}", stderr(&o));
    let o = w.run(&["baseline", "--from", "t.json", "--server", "b"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The member's own lockfile.
    assert!(w.path().join("mcpward.lock.b.json").exists());
}

// ------------------------------------------------------------------ snapshot ↔ live

fn run_env(w: &Workdir, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(mcpward());
    c.args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The live run's surface findings equal those of `run --from` its snapshot.
fn round_trip(w: &Workdir, config: &str) -> Value {
    w.write("mcpward.yaml", config);
    let live = w.run(&["run", "--json"]);
    assert!(code(&live) <= 1, "{}", stderr(&live));
    let o = w.run(&["snapshot", "--out", "snap.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let offline = w.run(&["run", "--from", "snap.json", "--json"]);
    let (l, f) = (json_report(&live), json_report(&offline));
    let lt = surface_triples(&l);
    // The poisoned fixture fails security: offline too (only surface families ran).
    assert!(lt
        .iter()
        .any(|(id, s, _)| id.starts_with("security/") && s == "fail"));
    assert_eq!(code(&offline), 1, "{}", stderr(&offline));
    assert!(lt.len() > 5, "{lt:#?}");
    assert_eq!(lt, surface_triples(&f));
    // Messages too, not only ids.
    let msgs = |r: &Value| {
        let mut m: Vec<String> = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| {
                let id = x["id"].as_str().unwrap();
                id.starts_with("security/") || id.starts_with("schema/")
            })
            .map(|x| x["message"].as_str().unwrap().to_string())
            .collect();
        m.sort();
        m
    };
    assert_eq!(msgs(&l), msgs(&f));
    assert_eq!(l["server"], f["server"]);
    serde_json::from_str(&std::fs::read_to_string(w.path().join("snap.json")).unwrap()).unwrap()
}

fn fixture_args(extra: &[&str]) -> Vec<String> {
    let mut v = vec![
        "--tools-file".to_string(),
        repo("fixtures/tables/poisoned.json").display().to_string(),
        "--page-size".into(),
        "3".into(),
        "--surface-file".into(),
        repo("tests/fixtures/surface/poisoned.json")
            .display()
            .to_string(),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

#[test]
fn a_snapshot_gives_the_live_runs_findings_over_stdio() {
    let w = Workdir::new();
    let args = fixture_args(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tag = unique_tag("offline-stdio");
    let snap = round_trip(&w, &stdio_config(&args, &tag, ""));
    assert_eq!(snap["mcpward_snapshot"], 1);
    assert_eq!(
        snap["tools"].as_array().unwrap().len(),
        poisoned().len(),
        "every page"
    );
    assert!(snap.get("prompts").is_some() || snap.get("resources").is_some());
    // Deterministic: a second snapshot is byte-identical.
    let first = std::fs::read(w.path().join("snap.json")).unwrap();
    let o = w.run(&["snapshot", "-o", "snap2.json"]);
    assert_eq!(code(&o), 0);
    assert_eq!(first, std::fs::read(w.path().join("snap2.json")).unwrap());
    // Without --out: the same document on stdout.
    let o = w.run(&["snapshot"]);
    assert_eq!(code(&o), 0);
    assert_eq!(o.stdout, first);
    assert!(processes_with_tag(&tag).is_empty(), "the server was ended");
}

#[test]
fn a_modern_era_snapshot_records_its_era_and_gives_the_live_runs_findings() {
    let w = Workdir::new();
    let args = fixture_args(&["--era", "modern"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let cfg = stdio_config(&args, &unique_tag("offline-modern"), "")
        .replace("protocol_era: legacy", "protocol_era: modern");
    let snap = round_trip(&w, &cfg);
    assert_eq!(snap["era"], "modern");
    assert_eq!(snap["protocolVersion"], "2026-07-28");
    assert!(snap["supportedVersions"].is_array());
}

#[test]
fn a_snapshot_gives_the_live_runs_findings_over_http() {
    let w = Workdir::new();
    let args = fixture_args(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = HttpFixture::start(&args);
    let snap = round_trip(&w, &http_config(&server.url, ""));
    assert_eq!(snap["server"]["transport"], "http");
}

#[test]
fn secrets_never_reach_the_snapshot() {
    let w = Workdir::new();
    let secret = "sup3r-s3cret-t0ken-value";
    let cfg = format!(
        "server:\n  transport: stdio\n  command: {:?}\n  args: [\"--tools\", \"clean\", \"--server-name\", \"${{OFFLINE_TOKEN}}\"]\n  env:\n    API_KEY: \"${{OFFLINE_TOKEN}}\"\n",
        fixture().display().to_string()
    );
    w.write("mcpward.yaml", &cfg);
    let o = run_env(
        &w,
        &["snapshot", "-o", "s.json"],
        &[("OFFLINE_TOKEN", secret)],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(w.path().join("s.json")).unwrap();
    assert!(!text.contains(secret), "{text}");
    // It was there to leak: the server echoed it as its name.
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_ne!(v["serverInfo"]["name"], "mcpward-fixture-clean");
    assert_eq!(v["authContext"]["keys"], json!(["API_KEY"]));
    assert!(!Path::new(&w.path().join("s.json.tmp")).exists());
}

#[test]
fn baseline_from_a_snapshot_equals_the_live_baseline_and_surface_all_drift_works_offline() {
    let w = Workdir::new();
    let v1 = repo("tests/fixtures/surface/v1.json").display().to_string();
    let v2 = repo("tests/fixtures/surface/v2-prompt_changed.json")
        .display()
        .to_string();
    let tag = unique_tag("offline-drift");
    let drift = "checks:\n  drift:\n    surface: all\n";
    let cfg = |surface: &str| {
        stdio_config(
            &["--tools", "clean", "--surface-file", surface],
            &tag,
            drift,
        )
    };
    w.write("mcpward.yaml", &cfg(&v1));
    assert_eq!(code(&w.run(&["baseline"])), 0);
    let live = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
    assert_eq!(code(&w.run(&["snapshot", "-o", "v1.json"])), 0);
    w.write("mcpward.yaml", &cfg(&v2));
    assert_eq!(code(&w.run(&["snapshot", "-o", "v2.json"])), 0);

    let o = w.run(&["baseline", "--from", "v1.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let offline = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
    let strip = |t: &str| {
        let mut v: Value = serde_json::from_str(t).unwrap();
        v["meta"]["capturedAt"] = json!("");
        v
    };
    assert_eq!(strip(&live), strip(&offline), "same surface, same target");

    let o = w.run(&["diff", "--from", "v1.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = w.run(&["diff", "--from", "v2.json", "--json"]);
    let r = json_report(&o);
    assert!(
        triples(&r)
            .iter()
            .any(|(id, _, _)| id == "drift/prompt_changed"),
        "{:#?}",
        triples(&r)
    );
}

#[test]
fn written_snapshots_validate_against_the_published_schema_and_malformed_ones_do_not() {
    let text = std::fs::read_to_string(repo("schemas/snapshot.v1.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["$id"],
        "https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/snapshot.v1.schema.json"
    );
    let v = jsonschema::options().build(&schema).unwrap();
    let w = Workdir::new();
    let args = fixture_args(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    w.write(
        "mcpward.yaml",
        &stdio_config(&args, &unique_tag("offline-schema"), ""),
    );
    let o = w.run(&["snapshot"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let errs: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errs.is_empty(), "{errs:#?}");
    for bad in [
        json!({"mcpward_snapshot": 2, "tools": []}),
        json!({"mcpward_snapshot": 1}),
        json!({"mcpward_snapshot": 1, "tools": {}}),
        json!({"mcpward_snapshot": 1, "tools": [], "prompts": 3}),
        json!({"mcpward_snapshot": 1, "tools": [], "era": "future"}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        // The reader refuses each too.
        w.write("bad.json", &bad.to_string());
        assert_eq!(code(&w.run(&["run", "--from", "bad.json"])), 2, "{bad}");
    }
}

/// Review of #16: `--from` needs neither the server's credentials nor a `server:`.
#[test]
fn from_needs_no_server_credentials_nor_a_server() {
    let w = Workdir::new();
    let snap = w.write(
        "tools.json",
        r#"[{"name":"ok_tool","description":"Fine tool.","inputSchema":{"type":"object","properties":{}}}]"#,
    );
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: x\n  env:\n    K: \"${MCPWARD_SURELY_UNSET_VAR}\"\n",
    );
    let o = w.run(&["run", "--json", "--from", snap.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A checks-only file.
    let cfg = w.write(
        "checks.yaml",
        "checks:\n  compliance: false\n  errors: false\n",
    );
    let o = w.run(&[
        "run",
        "--json",
        "-c",
        cfg.to_str().unwrap(),
        "--from",
        snap.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A variable outside the server is still required.
    w.write(
        "other.yaml",
        "server:\n  transport: stdio\n  command: x\nchecks:\n  drift:\n    baseline: \"${MCPWARD_SURELY_UNSET_VAR}\"\n",
    );
    let o = w.run(&["run", "-c", "other.yaml", "--from", snap.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
