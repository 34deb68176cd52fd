//! End-to-end tests of `mcpward run` against the project's fixture servers: exit codes,
//! hostile servers, process cleanup, config errors, and stdio/HTTP parity.

mod common;
use common::*;
use std::time::Duration;

const FAST: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 3000\n  run_ms: 30000\n";

fn run_json(w: &Workdir) -> std::process::Output {
    w.run(&["run", "--json"])
}

#[test]
fn clean_fixture_passes_over_stdio() {
    let w = Workdir::new();
    let tag = unique_tag("clean");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, FAST),
    );
    let o = run_json(&w);
    let report = json_report(&o);
    assert_eq!(non_pass(&report), Vec::<String>::new(), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(report["schemaVersion"], 1);
    assert_eq!(report["server"]["name"], "mcpward-fixture-clean");
    assert_eq!(report["server"]["protocolVersion"], "2025-11-25");
    let ids: Vec<String> = triples(&report).into_iter().map(|t| t.0).collect();
    for id in [
        "compliance/handshake",
        "compliance/protocol-version",
        "compliance/server-info",
        "compliance/capabilities",
        "compliance/ping",
        "schema/summary",
        "errors/summary",
        "errors/unknown-tool",
    ] {
        assert!(ids.iter().any(|i| i == id), "missing {id} in {ids:?}");
    }
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn clean_fixture_passes_over_http_with_the_same_findings() {
    let server = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    w.write("mcpward.yaml", &http_config(&server.url, FAST));
    let http = json_report(&run_json(&w));

    let w2 = Workdir::new();
    let tag = unique_tag("parity");
    w2.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, FAST),
    );
    let stdio = json_report(&run_json(&w2));
    assert_eq!(non_pass(&http), Vec::<String>::new());
    assert_eq!(without_http_family(&http), normalized(&stdio));
}

/// Parity on a server that fails many rules: both transports give the same findings.
#[test]
fn malformed_and_wrong_errors_parity() {
    for table in ["malformed", "wrong-errors"] {
        let server = HttpFixture::start(&["--tools", table]);
        let w = Workdir::new();
        w.write("mcpward.yaml", &http_config(&server.url, FAST));
        let http = json_report(&run_json(&w));
        let w2 = Workdir::new();
        let tag = unique_tag("parity2");
        w2.write(
            "mcpward.yaml",
            &stdio_config(&["--tools", table], &tag, FAST),
        );
        let stdio = json_report(&run_json(&w2));
        assert!(!non_pass(&stdio).is_empty(), "{table} should fail rules");
        assert_eq!(without_http_family(&http), normalized(&stdio), "{table}");
    }
}

/// An HTTP report's results but the one HTTP-only result, `http/origin-validation` (#17):
/// the fixture refuses a foreign Origin, so it passes; stdio has no `http` family.
fn without_http_family(report: &serde_json::Value) -> Vec<String> {
    let (http, rest): (Vec<String>, Vec<String>) = normalized(report)
        .into_iter()
        .partition(|r| r.contains("|\"http\"|"));
    assert_eq!(http.len(), 1, "{http:?}");
    assert!(
        http[0].starts_with("\"http/origin-validation\"|\"http\"|\"pass\""),
        "{http:?}"
    );
    rest
}

fn normalized(report: &serde_json::Value) -> Vec<String> {
    let mut v: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}",
                r["id"], r["family"], r["status"], r["severity"], r["location"], r["message"]
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn malformed_fixture_fails_schema_rules() {
    let w = Workdir::new();
    let tag = unique_tag("malformed");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "malformed"], &tag, FAST),
    );
    let o = run_json(&w);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_report(&o);
    let np = non_pass(&r);
    let has = |prefix: &str| np.iter().any(|l| l.starts_with(prefix));
    assert!(has("schema/tool-description fail"), "{np:#?}");
    assert!(
        has("schema/tool-name fail invalid name with spaces"),
        "{np:#?}"
    );
    assert!(has("schema/tool-name fail invalid@name!"), "{np:#?}");
    assert!(has("schema/tool-input-schema fail"), "{np:#?}");
    assert!(has("schema/tool-input-schema warn"), "{np:#?}");
    assert!(has("schema/unique-names fail valid_tool"), "{np:#?}");
    assert!(has("schema/tool-annotations fail"), "{np:#?}");
    assert!(!np.iter().any(|l| l.starts_with("schema/summary")));
}

#[test]
fn wrong_error_layers_fail_the_error_contract() {
    let w = Workdir::new();
    let tag = unique_tag("wrong");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "wrong-errors"], &tag, FAST),
    );
    let o = run_json(&w);
    assert_eq!(o.status.code(), Some(1));
    let np = non_pass(&json_report(&o));
    assert!(
        np.contains(&"errors/unknown-tool fail __mcpward_unknown_tool__".to_string()),
        "{np:#?}"
    );
    assert!(
        np.iter().any(|l| l.starts_with("errors/summary fail")),
        "{np:#?}"
    );
    // A call that succeeds without its required arguments warns, as in the original
    // (#12 §6; it failed before); `invalid_params: strict` fails it (tests/invalid_params.rs).
    assert!(
        np.contains(&"errors/invalid-params warn lenient_tool".to_string()),
        "{np:#?}"
    );
}

#[test]
fn paginated_listing_reads_every_page_including_empty_cursor() {
    let w = Workdir::new();
    let tag = unique_tag("pages");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "paginated"], &tag, FAST),
    );
    let o = run_json(&w);
    let r = json_report(&o);
    let names: std::collections::BTreeSet<String> = triples(&r)
        .into_iter()
        .filter(|t| t.0 == "schema/tool-name")
        .map(|t| t.2)
        .collect();
    assert!(names.len() >= 3, "all pages listed: {names:?}");
}

#[test]
fn pagination_loop_is_a_list_tools_failure() {
    let w = Workdir::new();
    let tag = unique_tag("loop");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "paginated", "--behavior", "cursor-loop"],
            &tag,
            FAST,
        ),
    );
    let o = run_json(&w);
    assert_eq!(o.status.code(), Some(1));
    let r = json_report(&o);
    let list = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "schema/list-tools")
        .expect("schema/list-tools");
    assert!(list["message"]
        .as_str()
        .unwrap()
        .contains("pagination loop"));
}

#[test]
fn hanging_server_exits_2_within_connect_ms_and_leaves_no_process() {
    let w = Workdir::new();
    let tag = unique_tag("hang");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean", "--behavior", "hang"],
            &tag,
            "timeouts:\n  connect_ms: 1000\n",
        ),
    );
    let (o, took) = w.run_timed(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("Timeout: connection to server (1000ms)"),
        "{}",
        stderr(&o)
    );
    // connect_ms + 1 s; the shutdown grace is part of the budget only when the server
    // ignores stdin EOF, which this one does not.
    assert!(took < Duration::from_millis(2000 + 2500), "took {took:?}");
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn hang_after_initialize_ends_at_run_ms() {
    let w = Workdir::new();
    let tag = unique_tag("hangrun");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean", "--behavior", "hang-after-init"],
            &tag,
            "timeouts:\n  connect_ms: 5000\n  call_ms: 120000\n  run_ms: 1500\n",
        ),
    );
    let (o, took) = w.run_timed(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("run_ms"), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "no report when results are incomplete");
    assert!(took < Duration::from_secs(8), "took {took:?}");
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn crash_after_initialize_is_a_failed_run_not_a_hang() {
    let w = Workdir::new();
    let tag = unique_tag("crash");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean", "--behavior", "crash-after-init"],
            &tag,
            FAST,
        ),
    );
    let (o, took) = w.run_timed(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let np = non_pass(&json_report(&o));
    assert!(
        np.iter().any(|l| l.starts_with("compliance/ping fail")),
        "{np:#?}"
    );
    assert!(took < Duration::from_secs(10));
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn forking_server_tree_is_gone_after_a_normal_run() {
    let w = Workdir::new();
    let tag = unique_tag("fork");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean", "--behavior", "fork"], &tag, FAST),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        processes_with_tag(&tag).is_empty(),
        "survivors: {:?}",
        processes_with_tag(&tag)
    );
}

#[test]
fn garbage_and_banner_lines_do_not_break_the_session() {
    let w = Workdir::new();
    let tag = unique_tag("garbage");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &[
                "--tools",
                "clean",
                "--behavior",
                "banner",
                "--behavior",
                "garbage",
                "--behavior",
                "notify",
            ],
            &tag,
            FAST,
        ),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn unsupported_protocol_version_is_a_connection_error() {
    let w = Workdir::new();
    let tag = unique_tag("badinit");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean", "--behavior", "bad-init"], &tag, FAST),
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not supported: 1999-01-01"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn http_bearer_header_is_required_and_sent() {
    let server = HttpFixture::start(&[
        "--tools",
        "clean",
        "--behavior",
        "require-auth=s3cr3t-token",
    ]);
    let w = Workdir::new();
    w.write("mcpward.yaml", &http_config(&server.url, FAST));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "no header: connect fails");
    let cfg = format!(
        "server:\n  transport: http\n  url: {:?}\n  protocol_era: legacy\n  headers:\n    Authorization: \"Bearer ${{FIXTURE_TOKEN}}\"\n{FAST}",
        server.url
    );
    w.write("mcpward.yaml", &cfg);
    let o = std::process::Command::new(mcpward())
        .args(["run", "--json"])
        .current_dir(w.path())
        .env("FIXTURE_TOKEN", "s3cr3t-token")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("s3cr3t-token"));
}

#[test]
fn http_sse_answers_and_resume_work() {
    for behavior in ["sse", "sse-resume"] {
        let server = HttpFixture::start(&["--tools", "clean", "--behavior", behavior]);
        let w = Workdir::new();
        w.write("mcpward.yaml", &http_config(&server.url, FAST));
        let o = w.run(&["run", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{behavior}: {}", stderr(&o));
    }
}

#[test]
fn github_tokens_are_withheld_from_the_server() {
    let w = Workdir::new();
    let tag = unique_tag("env");
    let rec = w.path().join("env.json");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean", "--behavior", "fork"], &tag, FAST),
    );
    let _ = rec;
    let o = std::process::Command::new(mcpward())
        .args(["run", "--json"])
        .current_dir(w.path())
        .env("GITHUB_TOKEN", "ghp_should_not_leak")
        .env("mcpward_github_token", "also_not")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    // The child's environment is checked by the config unit tests of server_env; here we
    // check that nothing of it reaches the report.
    assert!(!String::from_utf8_lossy(&o.stdout).contains("ghp_should_not_leak"));
}

#[test]
fn config_errors_exit_2_naming_the_key() {
    let w = Workdir::new();
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Config file not found"));

    // Each broken config exits 2 with a message naming the key or variable.
    let cases = [
        (
            "server:\n  transport: http\n  url: file:///etc/passwd\n",
            "server.url",
        ),
        (
            "server:\n  transport: stdio\n  command: x\ntimeouts:\n  call_ms: fast\n",
            "timeouts.call_ms",
        ),
        (
            "server:\n  transport: stdio\n  command: ${MCPWARD_SURELY_UNSET_VAR}\n",
            "Environment variable \"MCPWARD_SURELY_UNSET_VAR\" is not set",
        ),
    ];
    for (config, named) in cases {
        w.write("mcpward.yaml", config);
        let o = w.run(&["run"]);
        assert_eq!(o.status.code(), Some(2), "{config}");
        assert!(stderr(&o).contains(named), "{named}: {}", stderr(&o));
    }

    // A typo'd key is a warning naming it (DECISIONS #10); the run goes on.
    let tag = unique_tag("typo");
    let cfg = stdio_config(
        &["--tools", "clean"],
        &tag,
        &format!("{FAST}chekcs:\n  schema: false\n"),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert!(stderr(&o).contains("chekcs"), "{}", stderr(&o));
    assert!(stderr(&o).contains("checks"), "suggestion: {}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn usage_errors_and_version() {
    let w = Workdir::new();
    let o = w.run(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    // #18: the version first (as the original prints it), then the commit.
    let line = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(
        line.split(' ').next(),
        Some(env!("CARGO_PKG_VERSION")),
        "{line}"
    );
    assert!(line.contains("(commit "), "{line}");
    assert_eq!(w.run(&["-V"]).status.code(), Some(0));
    assert_eq!(w.run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(w.run(&["run", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(w.run(&["run", "--reporter", "xml"]).status.code(), Some(2));
    assert_eq!(w.run(&[]).status.code(), Some(2));
}

#[test]
fn unspawnable_command_exits_2() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: /nonexistent/mcp-server\n",
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Failed to connect"), "{}", stderr(&o));
}

#[test]
fn init_writes_once() {
    let w = Workdir::new();
    let o = w.run(&["init"]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap();
    assert!(text.starts_with("# yaml-language-server: $schema="));
    std::fs::write(w.path().join("mcpward.yaml"), "keep me").unwrap();
    let o = w.run(&["init"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap(),
        "keep me"
    );
}

#[test]
fn out_file_and_reporter_routing() {
    let w = Workdir::new();
    let tag = unique_tag("out");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, FAST),
    );
    let o = w.run(&["run", "--reporter", "json", "--out", "r.json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "Report written to r.json"
    );
    let text = std::fs::read_to_string(w.path().join("r.json")).unwrap();
    assert!(!text.ends_with('\n'));
    let _: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Console ignores --out.
    let o = w.run(&["run", "--reporter", "console", "--out", "c.txt"]);
    assert!(!w.path().join("c.txt").exists());
    assert!(String::from_utf8_lossy(&o.stdout).contains("Summary:"));
    // --json wins over --reporter.
    let o = w.run(&["run", "--json", "--reporter", "console"]);
    let _ = json_report(&o);
    // Writing into a missing directory is an error, exit 2.
    let o = w.run(&["run", "--json", "--out", "no/such/dir/r.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Ctrl-C (SIGINT) or SIGTERM during a run: the server tree is shut down and mcpward exits
/// 130 without a report.
#[cfg(unix)]
#[test]
fn interrupt_cleans_up_and_exits_130() {
    use nix::sys::signal::Signal::{SIGINT, SIGTERM};
    // The last case interrupts while still connecting, to a server whose child escaped
    // into its own session and ignores SIGTERM.
    for (sig, behaviors) in [
        (SIGINT, &["hang-after-init"][..]),
        (SIGTERM, &["hang-after-init"][..]),
        (SIGINT, &["hang", "fork"][..]),
    ] {
        let w = Workdir::new();
        let tag = unique_tag("sigint");
        let mut args = vec!["--tools", "clean"];
        for b in behaviors {
            args.extend(["--behavior", b]);
        }
        w.write(
            "mcpward.yaml",
            &stdio_config(
                &args,
                &tag,
                "timeouts:\n  connect_ms: 60000\n  call_ms: 60000\n  run_ms: 60000\n",
            ),
        );
        let child = std::process::Command::new(mcpward())
            .args(["run", "--json"])
            .current_dir(w.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the server is up (its tagged process exists), then interrupt.
        let start = std::time::Instant::now();
        while processes_with_tag(&tag).is_empty() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!processes_with_tag(&tag).is_empty(), "server never seen");
        std::thread::sleep(Duration::from_millis(300));
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(130), "{sig:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "no report after an interrupt");
        // A process mcpward killed on its way out may take a moment to be gone from /proc
        // (SIGKILL is delivered asynchronously, and a loaded machine once took over half a
        // second); a survivor would stay for the fixture's 300 s cap, so 5 s tells the two
        // apart.
        let gone = std::time::Instant::now();
        while !processes_with_tag(&tag).is_empty() && gone.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let left: Vec<String> = processes_with_tag(&tag)
            .iter()
            .map(|p| std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default())
            .collect();
        assert!(
            left.is_empty(),
            "{sig:?} {behaviors:?}: server survived: {left:?}"
        );
    }
}

/// `mcpward run | head -c 1`: a closed stdout is not an error.
#[test]
fn broken_pipe_on_stdout_is_not_an_error() {
    let w = Workdir::new();
    let tag = unique_tag("pipe");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, FAST),
    );
    let mut child = std::process::Command::new(mcpward())
        .args(["run", "--json"])
        .current_dir(w.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before anything is written
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(processes_with_tag(&tag).is_empty());
}

/// `mcpward run -v … 2>&1 | true` (#12 §2b): both streams closed before anything is
/// written, verbose progress and warnings included; the run still ends normally (it used
/// to panic with exit 101 on the first progress line).
#[test]
fn closed_stderr_and_stdout_are_not_a_panic() {
    let w = Workdir::new();
    let tag = unique_tag("pipe2");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "wrong-errors"],
            &tag,
            &format!("{FAST}typo_key: 1\n"),
        ),
    );
    for args in [
        &["run", "-v"][..],
        &["run", "-v", "--json"],
        &["baseline", "-v"],
    ] {
        let mut child = std::process::Command::new(mcpward())
            .args(args)
            .current_dir(w.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        assert!(
            matches!(status.code(), Some(0 | 1)),
            "{args:?}: exit {:?}",
            status.code()
        );
        assert!(processes_with_tag(&tag).is_empty());
    }
}

/// Compliance rules that a live fixture can make fail: missing serverInfo, null
/// capabilities, and a protocol version other than the expected one.
#[test]
fn compliance_rules_fail_on_live_fixtures() {
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["--behavior", "no-server-info"],
            "",
            "compliance/server-info",
        ),
        (&["--capabilities", "null"], "", "compliance/capabilities"),
        (
            &[],
            "expect:\n  protocol_version: \"2025-06-18\"\n",
            "compliance/expected-protocol-version",
        ),
    ];
    for (extra_args, extra_cfg, rule) in cases {
        let w = Workdir::new();
        let tag = unique_tag("compliance");
        let mut args = vec!["--tools", "clean"];
        args.extend_from_slice(extra_args);
        w.write(
            "mcpward.yaml",
            &stdio_config(&args, &tag, &format!("{FAST}{extra_cfg}")),
        );
        let o = w.run(&["run", "--json"]);
        assert_eq!(o.status.code(), Some(1), "{rule}: {}", stderr(&o));
        let np = non_pass(&json_report(&o));
        assert!(
            np.iter().any(|l| l.starts_with(&format!("{rule} fail"))),
            "{rule}: {np:#?}"
        );
    }
}

/// A redirect to another origin is not followed: the configured headers (an API key here)
/// never reach the host the server names, and the run ends in exit 2 naming the status.
#[test]
fn cross_origin_redirect_is_not_followed_with_the_headers() {
    use std::io::{Read, Write};
    use std::net::TcpListener;
    let elsewhere = TcpListener::bind("127.0.0.1:0").unwrap();
    elsewhere.set_nonblocking(true).unwrap();
    let target = format!("http://{}/mcp", elsewhere.local_addr().unwrap());
    let server = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", server.local_addr().unwrap());
    std::thread::spawn(move || {
        for conn in server.incoming().flatten() {
            let mut conn = conn;
            let mut buf = [0u8; 4096];
            let _ = conn.read(&mut buf);
            let _ = write!(
                conn,
                "HTTP/1.1 307 Temporary Redirect\r\nLocation: {target}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        &format!("server:\n  transport: http\n  url: {url:?}\n  protocol_era: legacy\n  headers:\n    X-Api-Key: literal-key-value\n{FAST}"),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("307"), "{}", stderr(&o));
    assert!(
        elsewhere.accept().is_err(),
        "the other origin was contacted"
    );
}
