//! No-config runs (#16 §1): the server on the command line (`-- command…`, `npx:`,
//! `stdio:`, `--url`), `--header`/`--env` as secrets, `--check`, a config that supplies
//! the rest, conflicts as usage errors, and `init` for a given server.

mod common;
use common::*;
use serde_json::Value;

fn fx() -> String {
    fixture().display().to_string()
}

fn families(report: &Value) -> Vec<String> {
    let mut v: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["family"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn a_command_after_the_double_dash_is_the_server() {
    let w = Workdir::new();
    let f = fx();
    let o = w.run(&["run", "--json", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_report(&o);
    assert_eq!(r["server"]["name"], "mcpward-fixture-clean");
    // The defaults of a config with only `server:`.
    assert_eq!(
        families(&r),
        ["collision", "compliance", "errors", "schema", "security"]
    );
    // The same server written as stdio:<command>, without `--`.
    let stdio = format!("stdio:{f}");
    let o = w.run(&["run", "--json", &stdio, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["server"]["name"], "mcpward-fixture-clean");
}

#[test]
fn check_chooses_the_families() {
    let w = Workdir::new();
    let table = format!(
        "{}/fixtures/tables/poisoned.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let f = fx();
    let o = w.run(&[
        "run",
        "--json",
        "--check",
        "security",
        "--",
        &f,
        "--tools-file",
        &table,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_report(&o);
    assert_eq!(families(&r), ["security"]);
    assert!(non_pass(&r).iter().any(|l| l.starts_with("security/")));
    // Two families, comma-separated or repeated.
    let o = w.run(&[
        "run",
        "--json",
        "--check",
        "schema,collision",
        "--",
        &f,
        "--tools",
        "clean",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(families(&json_report(&o)), ["collision", "schema"]);
    // A typo is a usage error with the nearest family.
    let o = w.run(&["run", "--check", "securty", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean security"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn url_and_header_reach_an_http_server_and_the_header_value_never_shows() {
    let srv = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let secret = "sk-shorthand-very-secret-4242";
    let header = format!("Authorization: Bearer {secret}");
    for reporter in ["console", "json", "sarif", "markdown"] {
        let o = w.run(&[
            "run",
            "-v",
            "-r",
            reporter,
            "--url",
            &srv.url,
            "--header",
            &header,
            "--check",
            "schema,security",
        ]);
        assert_eq!(o.status.code(), Some(0), "{reporter}: {}", stderr(&o));
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
        assert!(!all.contains(secret), "{reporter} printed the header value");
        assert!(all.contains("mcpward-fixture-clean") || reporter == "sarif");
    }
    // A header for a stdio server, or env for an HTTP one, is a usage error.
    let f = fx();
    let o = w.run(&["run", "--header", "X-A: b", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--header needs an HTTP server"),
        "{}",
        stderr(&o)
    );
    let o = w.run(&["run", "--url", &srv.url, "--env", "A=b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--env needs a stdio server"),
        "{}",
        stderr(&o)
    );
    // The server given twice.
    let o = w.run(&["run", "--url", &srv.url, "--", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give the server once"),
        "{}",
        stderr(&o)
    );
    let o = w.run(&["run", "--url", "ftp://x"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn env_values_reach_the_server_and_stay_secret() {
    let w = Workdir::new();
    let f = fx();
    let secret = "env-secret-value-918273";
    let env = format!("MCPWARD_SHORTHAND_VAR={secret}");
    // The server starts only when the variable reached it.
    let script = format!("test \"$MCPWARD_SHORTHAND_VAR\" = {secret} && exec {f:?} --tools clean");
    let o = w.run(&[
        "run", "-v", "--check", "schema", "--env", &env, "--", "sh", "-c", &script,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(!all.contains(secret));
    let o = w.run(&["run", "--check", "schema", "--", "sh", "-c", &script]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "without --env the server must not start"
    );
    let cfg = w.write(
        "with-env.yaml",
        &stdio_config(&["--tools", "clean"], "tag-x", ""),
    );
    let o = w.run(&[
        "run",
        "-c",
        cfg.to_str().unwrap(),
        "--env",
        "MCPWARD_TEST_TAG=other",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("already sets server.env.MCPWARD_TEST_TAG"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_config_file_supplies_the_rest_and_conflicts_are_usage_errors() {
    let w = Workdir::new();
    let f = fx();
    // Checks only, no server: the command line gives it.
    let checks = w.write(
        "checks.yaml",
        "checks:\n  compliance: false\n  schema: false\n  security: true\n  errors: false\n  collision:\n    enabled: false\n",
    );
    let o = w.run(&[
        "run",
        "--json",
        "-c",
        checks.to_str().unwrap(),
        "--",
        &f,
        "--tools",
        "clean",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(families(&json_report(&o)), ["security"]);
    // --check and `checks:` both.
    let o = w.run(&[
        "run",
        "-c",
        checks.to_str().unwrap(),
        "--check",
        "schema",
        "--",
        &f,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has `checks:` too"), "{}", stderr(&o));
    // A server in the file and on the command line.
    let full = w.write("full.yaml", &stdio_config(&["--tools", "clean"], "t", ""));
    let o = w.run(&["run", "-c", full.to_str().unwrap(), "--", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has `server:` too"), "{}", stderr(&o));
    // --check on a config with a server and no checks: the file's server, these families.
    let o = w.run(&[
        "run",
        "--json",
        "-c",
        full.to_str().unwrap(),
        "--check",
        "schema",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(families(&json_report(&o)), ["schema"]);
    // Without -c, a (broken) ./mcpward.yaml is not read when the server is on the line.
    w.write("mcpward.yaml", "server: [not, valid\n");
    let o = w.run(&["run", "--json", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A fleet config takes no server flags.
    let fleet = w.write(
        "fleet.yaml",
        &format!(
            "servers:\n  a:\n    transport: stdio\n    command: {:?}\n    args: [\"--tools\", \"clean\"]\n",
            f
        ),
    );
    let o = w.run(&["run", "-c", fleet.to_str().unwrap(), "--", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("names several servers"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn header_merges_into_the_files_http_server() {
    let srv = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let cfg = w.write(
        "http.yaml",
        &http_config(&srv.url, "checks:\n  compliance: false\n  errors: false\n"),
    );
    let o = w.run(&[
        "run",
        "--json",
        "-c",
        cfg.to_str().unwrap(),
        "--header",
        "X-Api-Key: from-the-command-line-123",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("from-the-command-line-123"));
    let with_header = w.write(
        "http2.yaml",
        &format!(
            "server:\n  transport: http\n  url: {:?}\n  headers:\n    x-api-key: \"k\"\n",
            srv.url
        ),
    );
    let o = w.run(&[
        "run",
        "-c",
        with_header.to_str().unwrap(),
        "--header",
        "X-Api-Key: other",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("already sets server.headers"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn baseline_and_diff_take_the_shorthand() {
    let w = Workdir::new();
    let f = fx();
    let o = w.run(&["baseline", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(w.path().join("mcpward.lock.json").is_file());
    let o = w.run(&["diff", "--json", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(triples(&json_report(&o))
        .iter()
        .any(|(id, s, _)| id == "drift/no-changes" && s == "pass"));
    let o = w.run(&["diff", "--json", "--", &f, "--tools", "paginated"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn first_run_without_a_baseline_says_so_plainly() {
    let w = Workdir::new();
    let cfg = w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], "t", "checks:\n  drift: {}\n"),
    );
    let o = w.run(&["run", "-c", cfg.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("No baseline yet: run `mcpward baseline`"),
        "{}",
        stderr(&o)
    );
    // Not when the baseline exists.
    assert_eq!(w.run(&["baseline"]).status.code(), Some(0));
    let o = w.run(&["run"]);
    assert!(!stderr(&o).contains("No baseline yet"), "{}", stderr(&o));
}

#[test]
fn init_writes_a_config_for_the_given_server_that_runs_as_written() {
    let w = Workdir::new();
    let f = fx();
    let o = w.run(&["init", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap();
    assert!(text.contains("surface: all"), "{text}");
    assert!(text.contains("probe: safe"), "{text}");
    // Latency sampling is offered, not on.
    assert!(text.contains("# latency:"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("  latency:")), "{text}");
    // Every section says what it is for.
    for family in [
        "compliance:",
        "schema:",
        "security:",
        "errors:",
        "drift:",
        "collision:",
    ] {
        let at = text.find(&format!("  {family}")).unwrap();
        let before = &text[..at];
        assert!(
            before
                .trim_end()
                .lines()
                .last()
                .unwrap()
                .trim_start()
                .starts_with('#'),
            "{family} has no comment"
        );
    }
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).is_empty() || !stderr(&o).contains("Warning: Unknown config key"),
        "{}",
        stderr(&o)
    );
    let fams = families(&json_report(&o));
    for f in [
        "compliance",
        "schema",
        "security",
        "errors",
        "drift",
        "collision",
    ] {
        assert!(fams.iter().any(|x| x == f), "{f} missing: {fams:?}");
    }
    // Never over an existing file (and, asked for a server, not writing it is exit 2).
    let o = w.run(&["init", "--", &f, "--tools", "paginated"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap(),
        text
    );
}

#[test]
fn init_with_a_url_never_writes_a_header_value() {
    let srv = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let secret = "init-secret-token-55555";
    let header = format!("Authorization: Bearer {secret}");
    let o = w.run(&["init", "--url", &srv.url, "--header", &header]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap();
    assert!(!text.contains(secret));
    assert!(
        text.contains("\"Authorization\": \"Bearer ${MCP_HEADER_AUTHORIZATION}\""),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("MCP_HEADER_AUTHORIZATION"));
    assert!(!String::from_utf8_lossy(&o.stdout).contains(secret));
    // It runs once the variable is set.
    let o = std::process::Command::new(mcpward())
        .args(["run", "--json", "--check", "schema"])
        .current_dir(w.path())
        .env("MCP_HEADER_AUTHORIZATION", secret)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "--check conflicts with the written checks"
    );
    let o = std::process::Command::new(mcpward())
        .args(["run", "--json"])
        .current_dir(w.path())
        .env("MCP_HEADER_AUTHORIZATION", secret)
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains(secret));
}

#[test]
fn plain_init_template_runs_without_paths_that_may_not_exist() {
    let w = Workdir::new();
    let o = w.run(&["init"]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(w.path().join("mcpward.yaml")).unwrap();
    assert!(!text.contains("/tmp/"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("  latency:")), "{text}");
}

#[test]
fn snapshot_takes_the_shorthand_and_from_refuses_a_second_server() {
    let w = Workdir::new();
    let f = fx();
    let o = w.run(&["snapshot", "-o", "snap.json", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let snap: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("snap.json")).unwrap())
            .unwrap();
    assert_eq!(snap["tools"].as_array().unwrap().len(), 4);
    let o = w.run(&["run", "--json", "--from", "snap.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["server"]["name"], "mcpward-fixture-clean");
    for extra in [
        vec!["--", f.as_str()],
        vec!["--url", "http://127.0.0.1:9/mcp"],
        vec!["--check", "security"],
    ] {
        let mut args = vec!["run", "--from", "snap.json"];
        args.extend(extra.iter().copied());
        let o = w.run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(
            stderr(&o).contains("--from FILE replaces the server"),
            "{}",
            stderr(&o)
        );
    }
    let o = w.run(&["baseline", "--name", "x", "--from", "snap.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Review of #16: init refuses what run refuses, and a server it cannot write is exit 2.
#[test]
fn init_refuses_flags_that_do_not_fit_and_an_existing_file() {
    let w = Workdir::new();
    let f = fx();
    let o = w.run(&["init", "--header", "X-K: vvvvvvvv", "--", &f]);
    assert_eq!(o.status.code(), Some(2));
    let o = w.run(&[
        "init",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--env",
        "A=bbbbbbbb",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!w.path().join("mcpward.yaml").exists());
    assert_eq!(w.run(&["init", "--", &f]).status.code(), Some(0));
    let o = w.run(&["init", "--", &f, "--tools", "clean"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    // The plain init keeps the original's answer.
    assert_eq!(w.run(&["init"]).status.code(), Some(0));
}
