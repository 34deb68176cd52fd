//! `cargo bench --bench drift_stages`: mcpward's own work in `baseline` + `diff` of a
//! 10,000-tool surface, stage by stage and in process, so no server time is included:
//! parse the `tools/list` answer, capture (canonicalize), render + write the lockfile,
//! read + parse it back, capture the changed surface, compare. Needs
//! `cargo build --release` (it asks the fixture server for the two listings once).

use mcpward::checks::drift::{check, DriftConfig};
use mcpward::surface::capture::{capture, CaptureOptions};
use mcpward::surface::lockfile::{self, BaselineState};
use mcpward::transport::{Era, ServerHello};
use serde_json::value::RawValue;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn listing_line(spec: &str) -> String {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/mcpward-fixture");
    let mut child = Command::new(bin)
        .args(["--tools", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mcpward-fixture (cargo build --release)");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"raw","version":"1"}}}}}}"#).unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().nth(1).unwrap().to_string()
}

fn hello() -> ServerHello {
    ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-11-25".into(),
        server_info: serde_json::json!({"name": "bench", "version": "1"}),
        capabilities: serde_json::json!({"tools": {}}),
        instructions: None,
        supported_versions: vec![],
        discover: None,
    }
}

/// The tools of the answer as `Client::list_tools_text` hands them over: each one's text.
fn tools_of(line: &str) -> Vec<Box<RawValue>> {
    #[derive(serde::Deserialize)]
    struct Answer<'a> {
        #[serde(borrow)]
        result: &'a RawValue,
    }
    #[derive(serde::Deserialize)]
    struct Page {
        tools: Vec<Box<RawValue>>,
    }
    let answer: Answer = serde_json::from_str(line).unwrap();
    serde_json::from_str::<Page>(answer.result.get())
        .unwrap()
        .tools
}

fn main() {
    let n = std::env::var("MCPWARD_BENCH_TOOLS").unwrap_or_else(|_| "10000".into());
    let v1 = listing_line(&format!("generated:{n}"));
    let v2 = listing_line(&format!("generated:{n}:v2"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcpward.lock.json");
    let opts = CaptureOptions::new("2026-01-01T00:00:00.000Z");
    let policy = DriftConfig::default();
    let mut rows: Vec<(&str, Vec<Duration>)> = vec![
        ("baseline: parse listing", vec![]),
        ("baseline: capture", vec![]),
        ("baseline: render + write", vec![]),
        ("diff: read + parse lockfile", vec![]),
        ("diff: parse listing", vec![]),
        ("diff: capture", vec![]),
        ("diff: compare", vec![]),
        ("total", vec![]),
    ];
    for _ in 0..7 {
        let mut t = Vec::new();
        let mut lap = Instant::now();
        let mut mark = |t: &mut Vec<Duration>| {
            t.push(lap.elapsed());
            lap = Instant::now();
        };
        let tools = tools_of(&v1);
        mark(&mut t);
        let lock = capture(&hello(), &tools, &opts).unwrap();
        mark(&mut t);
        lockfile::write(&path, &lock).unwrap();
        mark(&mut t);
        let base = lockfile::load(&path);
        assert!(matches!(base, BaselineState::Loaded(_)));
        mark(&mut t);
        let tools2 = tools_of(&v2);
        mark(&mut t);
        let curr = capture(&hello(), &tools2, &opts).unwrap();
        mark(&mut t);
        let findings = check(&base, &curr, &policy);
        assert!(findings.len() > 1);
        mark(&mut t);
        // Dropping is part of the work unless the command skips it.
        drop((tools, lock, base, tools2, curr, findings));
        let total: Duration = t.iter().sum();
        t.push(total);
        for (i, d) in t.into_iter().enumerate() {
            rows[i].1.push(d);
        }
    }
    println!("{n} tools, best / median of 7 runs (in process, no server):");
    for (name, mut ds) in rows {
        ds.sort();
        println!(
            "  {name:<30} {:>8.1} ms {:>8.1} ms",
            ds[0].as_secs_f64() * 1e3,
            ds[ds.len() / 2].as_secs_f64() * 1e3
        );
    }
}
