//! `cargo bench --bench drift_stages`: mcpward's own work in `baseline` + `diff` of a
//! 10,000-tool surface, stage by stage and in process, so no server time is included:
//! parse the `tools/list` answer, capture (canonicalize), render + write the lockfile,
//! read + parse it back, capture the changed surface, compare. Needs
//! `cargo build --release` (it asks the fixture server for the two listings once).
//!
//! Then the whole surface (#14): the same pipeline with 10,000 resources and 1,000 prompts
//! (and instructions) pinned beside the tools (`checks.drift.surface: all`), against the
//! tools-only pipeline, each as capture + compare and as the whole baseline + diff.

use mcpward::checks::drift::{check, DriftConfig};
use mcpward::observed::OtherSurface;
use mcpward::surface::capture::{capture, CaptureOptions};
use mcpward::surface::drift_vocab::SurfaceSet;
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

/// `n` resources and `n / 10` prompts with arguments; `v2` changes one in 50 of each.
fn other_surface(n: usize, v2: bool) -> OtherSurface {
    let changed = |i: usize| v2 && i % 50 == 7;
    let resources = (0..n)
        .map(|i| {
            let extra = if changed(i) { " Now also writable." } else { "" };
            serde_json::json!({
                "uri": format!("file:///data/{i:05}.txt"),
                "name": format!("data-{i}"),
                "title": format!("Data file {i}"),
                "description": format!("Measurements of station {i}, one line per hour, comma separated.{extra}"),
                "mimeType": "text/plain",
                "size": 1000 + i,
                "annotations": {"audience": ["user", "assistant"], "priority": 0.5}
            })
        })
        .collect();
    let prompts = (0..n / 10)
        .map(|i| {
            let required = changed(i);
            serde_json::json!({
                "name": format!("prompt_{i}"),
                "title": format!("Prompt {i}"),
                "description": format!("Summarise station {i}'s measurements for a given day and flag outliers."),
                "arguments": [
                    {"name": "day", "description": "The day, YYYY-MM-DD", "required": true},
                    {"name": "style", "title": "Style", "description": "bullet or prose", "required": required}
                ]
            })
        })
        .collect();
    OtherSurface {
        prompts: Some(Ok(prompts)),
        resources: Some(Ok(resources)),
        resource_templates: Some(Ok(vec![serde_json::json!({
            "uriTemplate": "file:///data/{id}.txt", "name": "data", "description": "One data file by id."
        })])),
    }
}

/// Best / median of 7 of (capture + compare, whole baseline + diff) for one surface setting.
fn surface_pipeline(
    v1: &str,
    v2: &str,
    set: SurfaceSet,
    n: usize,
    path: &std::path::Path,
) -> [(Duration, Duration); 2] {
    let mut hello_v1 = hello();
    hello_v1.capabilities = serde_json::json!({"tools": {}, "prompts": {}, "resources": {}});
    hello_v1.instructions = Some(serde_json::json!(
        "Stations report hourly; use the prompts to summarise a day."
    ));
    let mut hello_v2 = hello_v1.clone();
    hello_v2.instructions = Some(serde_json::json!(
        "Stations report hourly; use the prompts to summarise one day."
    ));
    let mut o1 = CaptureOptions::new("2026-01-01T00:00:00.000Z");
    o1.surface = set;
    let mut o2 = o1.clone();
    if set.needs_lists() {
        o1.other = other_surface(n, false);
        o2.other = other_surface(n, true);
    }
    let policy = DriftConfig::default();
    let (mut cc, mut all) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let (t1, t2) = (tools_of(v1), tools_of(v2));
        let start = Instant::now();
        let base = capture(&hello_v1, &t1, &o1).unwrap();
        let capture1 = start.elapsed();
        lockfile::write(path, &base).unwrap();
        let loaded = lockfile::load(path);
        let io = start.elapsed() - capture1;
        let curr = capture(&hello_v2, &t2, &o2).unwrap();
        let findings = check(&loaded, &curr, &policy);
        assert!(findings.len() > 1);
        drop((base, loaded, curr, findings));
        let total = start.elapsed();
        cc.push(total - io);
        all.push(total);
    }
    let stat = |mut v: Vec<Duration>| {
        v.sort();
        (v[0], v[v.len() / 2])
    };
    [stat(cc), stat(all)]
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
    let count: usize = n.parse().unwrap_or(10_000);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let tools_only = surface_pipeline(&v1, &v2, SurfaceSet::default(), count, &path);
    let whole = surface_pipeline(&v1, &v2, SurfaceSet::ALL, count, &path);
    println!(
        "whole surface: {n} tools + {count} resources + {} prompts vs tools only, best / median of 7:",
        count / 10
    );
    for (i, name) in ["capture + compare", "baseline + diff"].iter().enumerate() {
        println!(
            "  {name:<18} tools only {:>7.1} / {:>7.1} ms   whole {:>7.1} / {:>7.1} ms   ratio {:.2} (median)",
            ms(tools_only[i].0),
            ms(tools_only[i].1),
            ms(whole[i].0),
            ms(whole[i].1),
            whole[i].1.as_secs_f64() / tools_only[i].1.as_secs_f64()
        );
    }
}
