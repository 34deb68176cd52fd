//! The hostile ladder of #12 §2: each fixture behaviour tries to make mcpward hold or wait
//! for too much. Each test asserts the outcome (a finding, or exit 2 with a clear
//! message), that no server process survives, and mcpward's peak RSS (`VmHWM` in
//! /proc, read until it exits: a measurement, not a timing) stayed ≤ 64 MiB. Linux only.
#![cfg(target_os = "linux")]

mod common;

use common::*;
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};

/// The bound of #12 §2, on the release binary `.ci/run` builds (MCPWARD_RELEASE_BIN). A debug
/// build's own code and data pages are several times a release build's (the 200,000-tool
/// listing peaks at 66-70 MiB in debug on this project's 2-core machines), so without the
/// release binary the bound is loosened by the difference, not dropped.
const RSS_BOUND_KIB: i64 = 64 * 1024;
const DEBUG_RSS_BOUND_KIB: i64 = 96 * 1024;

/// The binary measured: the release build when `.ci/run` names it, else the one under test.
fn measured_bin() -> (std::path::PathBuf, i64) {
    match std::env::var_os("MCPWARD_RELEASE_BIN") {
        Some(p) => (std::path::PathBuf::from(p), RSS_BOUND_KIB),
        None => (mcpward(), DEBUG_RSS_BOUND_KIB),
    }
}

#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

struct Measured {
    code: i32,
    stdout: String,
    stderr: String,
    peak_kib: i64,
}

impl Measured {
    fn report(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not a JSON report ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// The `compliance/limits` result's message, if any.
    fn limits(&self) -> Option<String> {
        self.report()["results"]
            .as_array()?
            .iter()
            .find(|r| r["id"] == "compliance/limits")
            .map(|r| r["message"].as_str().unwrap_or("").to_string())
    }

    fn assert_bounded(&self, what: &str) {
        let (bin, bound) = measured_bin();
        eprintln!("{what}: peak RSS {} KiB ({})", self.peak_kib, bin.display());
        assert!(
            self.peak_kib > 0 && self.peak_kib <= bound,
            "{what}: peak RSS {} KiB over {bound} KiB ({})\nstderr:\n{}",
            self.peak_kib,
            bin.display(),
            self.stderr
        );
        assert_ne!(self.code, 101, "{what} panicked:\n{}", self.stderr);
    }
}

/// Run mcpward in `w` and reap it with `wait4`, keeping its own peak RSS.
fn run_measured(w: &Workdir, args: &[&str]) -> Measured {
    // Reaped by wait4 below, not by `Child::wait`.
    #[allow(clippy::zombie_processes)]
    let mut child = Command::new(measured_bin().0)
        .args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    // VmHWM of mcpward itself (ru_maxrss of wait4 would include the server it reaped),
    // read until it exits: a high-water mark, so the last read holds the peak so far.
    let pid = child.id() as i32;
    let mut peak_kib = 0i64;
    let mut status = 0i32;
    let mut ru = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    loop {
        if let Some(kib) = vm_hwm(pid) {
            peak_kib = peak_kib.max(kib);
        }
        // SAFETY: the pid is our own unreaped child; both pointers are valid for the call.
        let r = unsafe {
            wait4(pid, &mut status, 1 /* WNOHANG */, &mut ru)
        };
        if r == pid {
            break;
        }
        assert_eq!(r, 0, "wait4 failed");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let code = if status & 0x7f == 0 {
        (status >> 8) & 0xff
    } else {
        128 + (status & 0x7f)
    };
    Measured {
        code,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
        peak_kib,
    }
}

fn vm_hwm(pid: i32) -> Option<i64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn stdio_run(behavior: &[&str], extra: &str) -> (Measured, String) {
    let w = Workdir::new();
    let tag = unique_tag("hostile");
    let mut args = vec!["--tools", "clean"];
    for b in behavior {
        args.extend(["--behavior", b]);
    }
    let cfg = stdio_config(&args, &tag, extra);
    w.write("mcpward.yaml", &cfg);
    let m = run_measured(&w, &["run", "--json"]);
    assert!(
        processes_with_tag(&tag).is_empty(),
        "a server process survived {behavior:?}"
    );
    (m, tag)
}

fn http_run(fixture_args: &[&str], extra: &str) -> Measured {
    let fx = HttpFixture::start(fixture_args);
    let w = Workdir::new();
    w.write("mcpward.yaml", &http_config(&fx.url, extra));
    let m = run_measured(&w, &["run", "--json"]);
    drop(fx);
    m
}

const QUICK: &str = "timeouts: {connect_ms: 5000, call_ms: 500, run_ms: 60000}\n";

#[test]
fn a_gib_of_stdout_lines_is_counted_not_kept() {
    let (m, _) = stdio_run(&["flood-stdout-1g"], QUICK);
    m.assert_bounded("flood-stdout-1g");
    assert!(matches!(m.code, 0 | 1), "exit {}:\n{}", m.code, m.stderr);
    // The run was judged as usual, amid the flood.
    let r = m.report();
    assert!(r["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == "compliance/handshake"));
}

#[test]
fn one_endless_512_mib_line_ends_in_exit_2_naming_the_cap() {
    let (m, _) = stdio_run(&["huge-line"], QUICK);
    m.assert_bounded("huge-line");
    assert_eq!(m.code, 2, "{}", m.stderr);
    assert!(
        m.stderr.contains("limits.message_bytes (16 MiB)"),
        "{}",
        m.stderr
    );
}

#[test]
fn the_cap_is_configurable() {
    let (m, _) = stdio_run(
        &["huge-line"],
        &format!("{QUICK}limits: {{message_bytes: 1048576}}\n"),
    );
    m.assert_bounded("huge-line, 1 MiB cap");
    assert_eq!(m.code, 2);
    assert!(
        m.stderr.contains("limits.message_bytes (1 MiB)"),
        "{}",
        m.stderr
    );
}

#[test]
fn a_gib_on_stderr_keeps_a_bounded_tail() {
    // With `hang` the connect fails, so the tail is shown.
    let (m, _) = stdio_run(
        &["stderr-flood", "hang"],
        "timeouts: {connect_ms: 1500, call_ms: 500, run_ms: 60000}\n",
    );
    m.assert_bounded("stderr-flood");
    assert_eq!(m.code, 2);
    let tail = m
        .stderr
        .split("Server stderr (last lines):\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no stderr tail:\n{}", &m.stderr[..m.stderr.len().min(2000)]));
    assert!(tail.contains("eeee"));
    assert!(tail.len() <= 17 * 1024, "tail of {} bytes", tail.len());
}

#[test]
fn endless_notifications_cannot_stretch_a_call_beyond_the_progress_bound() {
    let (m, _) = stdio_run(
        &["notify-flood"],
        "timeouts: {connect_ms: 5000, call_ms: 300, run_ms: 60000}\nlimits: {progress_resets: 3}\n",
    );
    m.assert_bounded("notify-flood");
    // Not the run deadline (exit 2): every call ended within call_ms × (1 + 3).
    assert!(matches!(m.code, 0 | 1), "exit {}:\n{}", m.code, m.stderr);
    let limits = m.limits().expect("compliance/limits reported");
    assert!(limits.contains("limits.progress_resets (3)"), "{limits}");
}

#[test]
fn deeply_nested_json_fails_the_listing_with_a_clear_message() {
    let (m, _) = stdio_run(&["deep-json"], QUICK);
    m.assert_bounded("deep-json");
    // The listing failed: schema and security report it as a failure.
    assert_eq!(m.code, 1, "{}", m.stderr);
    let all = format!("{}{}", m.stdout, m.stderr);
    assert!(all.contains("nested more than 128 levels"), "{all}");
}

#[test]
fn a_50_mib_description_is_discarded_naming_the_cap() {
    let (m, _) = stdio_run(&["huge-description"], QUICK);
    m.assert_bounded("huge-description");
    let limits = m.limits().expect("compliance/limits reported");
    assert!(limits.contains("limits.message_bytes (16 MiB)"), "{limits}");
}

#[test]
fn a_200k_tool_listing_is_cut_at_limits_tools() {
    // A tools file, not `generated:200000`: the debug fixture takes longer to build
    // that table than a test should run. One page of 200,000 small tools (≈ 10 MB).
    let w = Workdir::new();
    let tools: Vec<String> = (0..200_000)
        .map(|i| format!(r#"{{"name":"tool_{i:06}","inputSchema":{{"type":"object"}}}}"#))
        .collect();
    let file = w.write("tools.json", &format!("[{}]", tools.join(",")));
    let tag = unique_tag("hostile");
    let cfg = stdio_config(
        &["--tools-file", file.to_str().unwrap()],
        &tag,
        "timeouts: {connect_ms: 20000, call_ms: 2000, run_ms: 120000}\nchecks: {errors: false}\nlimits: {tools: 2000}\n",
    );
    w.write("mcpward.yaml", &cfg);
    let m = run_measured(&w, &["run", "--json"]);
    assert!(processes_with_tag(&tag).is_empty());
    m.assert_bounded("200,000 tools");
    let limits = m.limits().expect("compliance/limits reported");
    assert!(
        limits
            .contains("more than limits.tools (2000) tools; the listing was cut to the first 2000"),
        "{limits}"
    );
}

#[test]
fn an_endless_http_body_is_cut_at_the_cap() {
    let m = http_run(&["--tools", "clean", "--behavior", "endless-body"], QUICK);
    m.assert_bounded("endless-body");
    assert_eq!(m.code, 2, "{}", m.stderr);
    assert!(
        m.stderr
            .contains("HTTP response body over limits.message_bytes (16 MiB)"),
        "{}",
        m.stderr
    );
}

#[test]
fn a_10_gib_content_length_is_refused_unread() {
    let m = http_run(
        &["--tools", "clean", "--behavior", "huge-content-length"],
        QUICK,
    );
    m.assert_bounded("huge-content-length");
    assert_eq!(m.code, 2, "{}", m.stderr);
    assert!(
        m.stderr
            .contains("of 10737418240 bytes (Content-Length) over limits.message_bytes"),
        "{}",
        m.stderr
    );
}

#[test]
fn a_redirect_loop_is_named() {
    let m = http_run(&["--tools", "clean", "--behavior", "redirect-loop"], QUICK);
    m.assert_bounded("redirect-loop");
    assert_eq!(m.code, 2, "{}", m.stderr);
    assert!(m.stderr.contains("redirect loop"), "{}", m.stderr);
}

#[test]
fn sse_streams_of_comments_or_retry_lines_end_at_call_ms() {
    for b in ["sse-comments-only", "sse-retry-only"] {
        let m = http_run(&["--tools", "clean", "--behavior", b], QUICK);
        m.assert_bounded(b);
        // Calls time out at call_ms and are judged; the run is not cut by run_ms.
        assert!(
            matches!(m.code, 0 | 1),
            "{b}: exit {}:\n{}",
            m.code,
            m.stderr
        );
        assert!(
            m.stdout.contains("500ms"),
            "{b}: no call timeout in the report"
        );
    }
}

#[test]
fn rate_limited_answers_are_retried_not_judged() {
    let plain = http_run(&["--tools", "clean"], QUICK);
    let limited = http_run(&["--tools", "clean", "--behavior", "rate-limit:8"], QUICK);
    limited.assert_bounded("rate-limit");
    assert_eq!(limited.code, plain.code, "{}", limited.stderr);
    assert_eq!(
        non_pass(&limited.report()),
        non_pass(&plain.report()),
        "rate limiting changed the verdicts"
    );
}

#[test]
fn baseline_refuses_a_cut_listing_and_writes_no_lockfile() {
    let w = Workdir::new();
    let tag = unique_tag("hostile");
    let cfg = stdio_config(
        &["--tools", "generated:30", "--page-size", "10"],
        &tag,
        "limits: {tools: 15}\n",
    );
    w.write("mcpward.yaml", &cfg);
    let m = run_measured(&w, &["baseline"]);
    assert!(processes_with_tag(&tag).is_empty());
    m.assert_bounded("baseline of a cut listing");
    assert_eq!(m.code, 2, "{}", m.stderr);
    assert!(
        m.stderr.contains("limits.tools (15)") && m.stderr.contains("baseline was not written"),
        "{}",
        m.stderr
    );
    assert!(!w.path().join("mcpward.lock.json").exists());
    // Within the limit the baseline is written as before.
    w.write("mcpward.yaml", &cfg.replace("tools: 15", "tools: 30"));
    let m = run_measured(&w, &["baseline"]);
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(w.path().join("mcpward.lock.json").exists());
}
