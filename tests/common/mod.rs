//! Shared helpers for integration tests: run the mcpward binary against fixture servers,
//! and prove that no server process outlives a command.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn mcpward() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mcpward"))
}

mod fixture_bin;

/// The fixture server (built on first use; see `fixture_bin.rs`).
pub fn fixture() -> PathBuf {
    fixture_bin::fixture_bin(&mcpward())
}

/// A unique value put in the server's environment; every process of the server's tree
/// inherits it, so /proc tells whether any of them survived.
pub fn unique_tag(name: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

/// Pids whose environment carries `MCPWARD_TEST_TAG=<tag>`.
pub fn processes_with_tag(tag: &str) -> Vec<i32> {
    let needle = format!("MCPWARD_TEST_TAG={tag}");
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            })
            .unwrap_or(true);
        if !zombie && env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            out.push(pid);
        }
    }
    out
}

/// A config file in a fresh temp dir.
pub struct Workdir {
    pub dir: tempfile::TempDir,
}

impl Workdir {
    pub fn new() -> Self {
        Workdir {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
    /// Run mcpward in this directory with the given args.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(mcpward())
            .args(args)
            .current_dir(self.dir.path())
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
    pub fn run_timed(&self, args: &[&str]) -> (Output, Duration) {
        let t = Instant::now();
        let o = self.run(args);
        (o, t.elapsed())
    }
}

/// YAML for a stdio config running the fixture with the given arguments.
pub fn stdio_config(fixture_args: &[&str], tag: &str, extra: &str) -> String {
    let args: Vec<String> = fixture_args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "server:\n  transport: stdio\n  command: {:?}\n  args: [{}]\n  env:\n    MCPWARD_TEST_TAG: {tag:?}\n  protocol_era: legacy\n{extra}",
        fixture().display().to_string(),
        args.join(", ")
    )
}

pub fn http_config(url: &str, extra: &str) -> String {
    format!("server:\n  transport: http\n  url: {url:?}\n  protocol_era: legacy\n{extra}")
}

/// A fixture server on HTTP, killed on drop.
pub struct HttpFixture {
    pub child: Child,
    pub url: String,
}

impl HttpFixture {
    pub fn start(args: &[&str]) -> Self {
        let mut child = Command::new(fixture())
            .args(args)
            .args(["--http", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected fixture banner: {line:?}"))
            .to_string();
        HttpFixture { child, url }
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn json_report(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not a JSON report ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// `(id, status, location)` of every result, for compact assertions.
pub fn triples(report: &Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["location"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Results that are not `pass`, as `id status location` lines, sorted.
pub fn non_pass(report: &Value) -> Vec<String> {
    let mut v: Vec<String> = triples(report)
        .into_iter()
        .filter(|(_, s, _)| s != "pass")
        .map(|(i, s, l)| format!("{i} {s} {l}"))
        .collect();
    v.sort();
    v
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file the real-server tests need (installed by `.ci/run`), relative to `tests/real`.
/// Missing: a loud skip (`None`), or a failure when `MCPWARD_REQUIRE_REAL_SERVERS` is set.
pub fn real_install(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/real")
        .join(rel);
    if p.exists() {
        return Some(p);
    }
    if std::env::var_os("MCPWARD_REQUIRE_REAL_SERVERS").is_some() {
        panic!("{} is missing: see .ci/run", p.display());
    }
    eprintln!("skipping: {} not installed (see .ci/run)", p.display());
    None
}
