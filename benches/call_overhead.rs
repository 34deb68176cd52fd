//! `cargo bench --bench call_overhead`: what mcpward's client adds to one `tools/call`.
//!
//! The fixture server (`mcpward-fixture --tools suites`, tool `get_status`, answers at
//! once) is called CALLS times in sequence through `mcpward::transport::Client`, over stdio
//! and over HTTP, and the same calls are made by a minimal raw client: line-delimited
//! JSON-RPC on the child's pipes with blocking std I/O (stdio), a reqwest POST loop with
//! the session header (HTTP). Rounds alternate between the clients so that machine load
//! drifts hit both alike; percentiles are over every call of every round.

use mcpward::transport::http::HttpSpec;
use mcpward::transport::stdio::StdioSpec;
use mcpward::transport::{Client, ConnectOptions, Endpoint, EraChoice};
use serde_json::{json, Map, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CALLS: usize = 1000;
const WARMUP: usize = 50;
const ROUNDS: usize = 5;
const TOOL: &str = "get_status";

/// The integration tests' fixture helpers (HTTP fixture start-up and teardown).
#[path = "../tests/common/mod.rs"]
mod common;

fn fixture() -> PathBuf {
    common::fixture()
}

fn call_msg(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": TOOL, "arguments": {}}})
}

fn init_msg() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}})
}

/// Asserts the answer is a successful tool result, so both clients do the same work.
fn check_answer(v: &Value) {
    assert_eq!(
        v.pointer("/result/content/0/text").and_then(Value::as_str),
        Some("status: ok"),
        "unexpected answer: {v}"
    );
}

// ---- stdio ----------------------------------------------------------------------------

struct RawStdio {
    child: Child,
    stdin: std::process::ChildStdin,
    out: BufReader<std::process::ChildStdout>,
    next: u64,
}

impl RawStdio {
    fn start() -> Self {
        let mut child = Command::new(fixture())
            .args(["--tools", "suites"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut raw = RawStdio {
            child,
            stdin,
            out,
            next: 1,
        };
        raw.send(&init_msg());
        raw.wait_for(0);
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        raw
    }

    fn send(&mut self, v: &Value) {
        let mut line = serde_json::to_vec(v).unwrap();
        line.push(b'\n');
        self.stdin.write_all(&line).unwrap();
        self.stdin.flush().unwrap();
    }

    fn wait_for(&mut self, id: u64) -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                if v.get("id").and_then(Value::as_u64) == Some(id) {
                    return v;
                }
            }
        }
    }

    fn call(&mut self) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&call_msg(id));
        self.wait_for(id)
    }

    fn stop(self) {
        let RawStdio {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let _ = child.wait();
    }
}

fn raw_stdio_round(samples: &mut Vec<Duration>) {
    let mut raw = RawStdio::start();
    check_answer(&raw.call());
    for _ in 0..WARMUP {
        raw.call();
    }
    for _ in 0..CALLS {
        let t = Instant::now();
        let v = raw.call();
        samples.push(t.elapsed());
        std::hint::black_box(v);
    }
    raw.stop();
}

fn stdio_options() -> ConnectOptions {
    ConnectOptions {
        endpoint: Endpoint::Stdio(StdioSpec {
            command: fixture().display().to_string(),
            args: vec!["--tools".into(), "suites".into()],
            env: std::env::vars_os().collect(),
            sweep_all_descendants: false,
        }),
        connect_ms: 10_000,
        call_ms: 10_000,
        era: EraChoice::Legacy,
        guard: Default::default(),
    }
}

// ---- both clients through mcpward ---------------------------------------------------------

async fn ours_round(opts: ConnectOptions, samples: &mut Vec<Duration>) {
    let client = Client::connect(opts).await.map_err(|e| e.message).unwrap();
    let first = client.call_tool(TOOL, Map::new()).await.unwrap();
    check_answer(&json!({ "result": first }));
    for _ in 0..WARMUP {
        client.call_tool(TOOL, Map::new()).await.unwrap();
    }
    for _ in 0..CALLS {
        let t = Instant::now();
        let v = client.call_tool(TOOL, Map::new()).await;
        samples.push(t.elapsed());
        std::hint::black_box(v.unwrap());
    }
    client.close().await;
}

// ---- HTTP -----------------------------------------------------------------------------

async fn raw_post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    msg: &Value,
) -> reqwest::Response {
    let mut req = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(serde_json::to_vec(msg).unwrap());
    if let Some(sid) = session {
        req = req
            .header("mcp-session-id", sid)
            .header("mcp-protocol-version", "2025-11-25");
    }
    req.send().await.unwrap()
}

async fn raw_http_round(url: &str, samples: &mut Vec<Duration>) {
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let resp = raw_post(&http, url, None, &init_msg()).await;
    let sid = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .expect("session id")
        .to_string();
    resp.bytes().await.unwrap();
    raw_post(
        &http,
        url,
        Some(&sid),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let call = |id: u64| {
        let http = &http;
        let sid = &sid;
        async move {
            let resp = raw_post(http, url, Some(sid), &call_msg(id)).await;
            let ctype = resp
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            assert!(ctype.contains("application/json"), "content type {ctype}");
            serde_json::from_slice::<Value>(&resp.bytes().await.unwrap()).unwrap()
        }
    };
    check_answer(&call(1).await);
    for i in 0..WARMUP as u64 {
        call(2 + i).await;
    }
    for i in 0..CALLS as u64 {
        let t = Instant::now();
        let v = call(100 + i).await;
        samples.push(t.elapsed());
        std::hint::black_box(v);
    }
}

// ---- report ---------------------------------------------------------------------------

fn pct(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn report(wire: &str, mut raw: Vec<Duration>, mut ours: Vec<Duration>) {
    raw.sort();
    ours.sort();
    let (r50, r95) = (pct(&raw, 0.5), pct(&raw, 0.95));
    let (o50, o95) = (pct(&ours, 0.5), pct(&ours, 0.95));
    println!(
        "{wire:5} raw     p50 {:8.1} µs  p95 {:8.1} µs  ({} calls)",
        us(r50),
        us(r95),
        raw.len()
    );
    println!(
        "{wire:5} mcpward p50 {:8.1} µs  p95 {:8.1} µs  ({} calls)",
        us(o50),
        us(o95),
        ours.len()
    );
    println!(
        "{wire:5} added   p50 {:+8.1} µs  p95 {:+8.1} µs",
        us(o50) - us(r50),
        us(o95) - us(r95)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter we do not support.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut raw, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        raw_stdio_round(&mut raw);
        rt.block_on(ours_round(stdio_options(), &mut ours));
    }
    report("stdio", raw, ours);

    let server = common::HttpFixture::start(&["--tools", "suites"]);
    let (mut raw, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        rt.block_on(raw_http_round(&server.url, &mut raw));
        let opts = ConnectOptions {
            endpoint: Endpoint::Http(HttpSpec {
                url: server.url.clone(),
                headers: Vec::new(),
                auth: None,
            }),
            connect_ms: 10_000,
            call_ms: 10_000,
            era: EraChoice::Legacy,
            guard: Default::default(),
        };
        rt.block_on(ours_round(opts, &mut ours));
    }
    report("http", raw, ours);
}
