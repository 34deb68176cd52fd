//! Both protocol eras through the CLI: the same tool table served legacy-only, modern-only
//! and dual gives the same non-compliance findings; era selection and its errors.

mod common;
use common::*;
use serde_json::Value;
use std::time::Duration;

const FAST: &str = "timeouts:\n  connect_ms: 3000\n  call_ms: 3000\n  run_ms: 30000\n";

fn cfg(fixture_args: &[&str], era: &str, tag: &str) -> String {
    stdio_config(fixture_args, tag, FAST)
        .replace("protocol_era: legacy", &format!("protocol_era: {era}"))
}

/// Findings of every family except compliance, normalised for comparison.
fn non_compliance(report: &Value) -> Vec<String> {
    let mut v: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] != "compliance")
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}",
                r["id"], r["status"], r["severity"], r["location"], r["message"]
            )
        })
        .collect();
    v.sort();
    v
}

fn run(fixture_args: &[&str], era: &str) -> (Value, String) {
    let w = Workdir::new();
    let tag = unique_tag("era");
    w.write("mcpward.yaml", &cfg(fixture_args, era, &tag));
    let o = w.run(&["run", "--json"]);
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{era}: {}",
        stderr(&o)
    );
    assert!(processes_with_tag(&tag).is_empty());
    (json_report(&o), stderr(&o))
}

#[test]
fn same_table_same_findings_in_every_era() {
    for table in ["clean", "malformed", "wrong-errors"] {
        let (legacy, _) = run(&["--tools", table, "--era", "legacy"], "legacy");
        let (modern, _) = run(&["--tools", table, "--era", "modern"], "modern");
        let (dual_auto, _) = run(&["--tools", table, "--era", "dual"], "auto");
        let (dual_legacy, _) = run(&["--tools", table, "--era", "dual"], "legacy");
        assert_eq!(legacy["server"]["protocolVersion"], "2025-11-25");
        assert_eq!(modern["server"]["protocolVersion"], "2026-07-28");
        assert_eq!(dual_auto["server"]["protocolVersion"], "2026-07-28");
        assert_eq!(dual_legacy["server"]["protocolVersion"], "2025-11-25");
        let base = non_compliance(&legacy);
        assert!(!base.is_empty());
        // The error contract is judged by the version in use; both are >= 2025-11-25, so the
        // messages only differ in the "[judged by protocol …]" suffix.
        let strip = |v: Vec<String>| -> Vec<String> {
            v.into_iter()
                .map(|s| s.replace("2026-07-28", "V").replace("2025-11-25", "V"))
                .collect()
        };
        assert_eq!(
            strip(non_compliance(&modern)),
            strip(base.clone()),
            "{table} modern"
        );
        assert_eq!(
            strip(non_compliance(&dual_auto)),
            strip(base.clone()),
            "{table} dual/auto"
        );
        assert_eq!(non_compliance(&dual_legacy), base, "{table} dual/legacy");
    }
}

#[test]
fn compliance_rule_sets_differ_by_era_only_as_specified() {
    let (legacy, _) = run(&["--tools", "clean", "--era", "legacy"], "legacy");
    let (modern, _) = run(&["--tools", "clean", "--era", "modern"], "modern");
    let ids = |r: &Value| -> Vec<(String, String)> {
        r["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["family"] == "compliance")
            .map(|x| {
                (
                    x["id"].as_str().unwrap().to_string(),
                    x["status"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let l = ids(&legacy);
    let m = ids(&modern);
    assert!(l.contains(&("compliance/ping".into(), "pass".into())));
    assert!(
        m.contains(&("compliance/ping".into(), "skip".into())),
        "{m:?}"
    );
    assert!(m.iter().any(|(i, _)| i == "compliance/discover"), "{m:?}");
    assert!(!l.iter().any(|(i, _)| i == "compliance/discover"));
    // A well-behaved modern fixture fails no compliance rule.
    assert!(!m.iter().any(|(_, s)| s == "fail"), "{m:?}");
}

#[test]
fn misbehaving_modern_servers_fail_modern_rules() {
    for (behavior, rule) in [
        ("no-result-type", "compliance/result-type"),
        ("ignore-meta", "compliance/meta-required"),
    ] {
        let (r, _) = run(
            &[
                "--tools",
                "clean",
                "--era",
                "modern",
                "--behavior",
                behavior,
            ],
            "modern",
        );
        let hit = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == rule && (x["status"] == "fail" || x["status"] == "warn"));
        assert!(
            hit,
            "{behavior}: {}",
            serde_json::to_string_pretty(&r["results"]).unwrap()
        );
    }
}

/// Over HTTP, a 404 + -32601 to server/discover is a modern server without discover
/// (protocol-2026-07-28.md §3.3): the run goes on and compliance/discover fails. On stdio the
/// same answer is a legacy signal.
#[test]
fn modern_http_server_without_discover_fails_compliance_discover() {
    let server = HttpFixture::start(&[
        "--tools",
        "clean",
        "--era",
        "modern",
        "--behavior",
        "no-discover",
    ]);
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        &http_config(&server.url, FAST).replace("protocol_era: legacy", "protocol_era: modern"),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_report(&o);
    assert!(r["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == "compliance/discover" && x["status"] == "fail"));
}

#[test]
fn auto_against_silent_legacy_server_respawns_once() {
    let w = Workdir::new();
    let tag = unique_tag("silent");
    // `hang` never answers anything on the first spawn... and the respawn hangs too, so use a
    // server that only ignores unknown pre-initialize requests: the legacy fixture answers
    // discover with -32601 (in place). For silence we rely on the transport's unit/integration
    // tests (tests/modern_era.rs); here: a legacy-only fixture under auto connects in place.
    w.write(
        "mcpward.yaml",
        &cfg(&["--tools", "clean", "--era", "legacy"], "auto", &tag),
    );
    let (o, took) = w.run_timed(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(took < Duration::from_secs(6));
    assert_eq!(json_report(&o)["server"]["protocolVersion"], "2025-11-25");
}

#[test]
fn modern_against_legacy_only_server_exits_2_naming_the_answer() {
    let w = Workdir::new();
    let tag = unique_tag("modernonly");
    w.write(
        "mcpward.yaml",
        &cfg(&["--tools", "clean", "--era", "legacy"], "modern", &tag),
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("-32601"), "names what the server answered: {e}");
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn protocol_era_flag_overrides_config() {
    let w = Workdir::new();
    let tag = unique_tag("flag");
    w.write(
        "mcpward.yaml",
        &cfg(&["--tools", "clean", "--era", "dual"], "legacy", &tag),
    );
    let o = w.run(&["run", "--json", "--protocol-era", "modern"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["server"]["protocolVersion"], "2026-07-28");
}

#[test]
fn legacy_era_sends_initialize_first() {
    let w = Workdir::new();
    let tag = unique_tag("first");
    let rec = w.path().join("rec.jsonl");
    let recs = rec.display().to_string();
    w.write(
        "mcpward.yaml",
        &cfg(
            &["--tools", "clean", "--era", "dual", "--record", &recs],
            "legacy",
            &tag,
        ),
    );
    assert_eq!(w.run(&["run"]).status.code(), Some(0));
    let first = std::fs::read_to_string(&rec).unwrap();
    let first: Value = first
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("message").is_some() || v.get("method").is_some())
        .expect("a recorded message");
    let text = first.to_string();
    assert!(text.contains("\"initialize\""), "first message: {text}");
    assert!(!text.contains("server/discover"));
}

/// compliance/server-messages is the last result in the modern era and fails on a server
/// that sends a request and a log message during a call.
#[test]
fn server_messages_rule_is_last_and_catches_forbidden_messages() {
    let (quiet, _) = run(&["--tools", "clean", "--era", "modern"], "modern");
    let last = quiet["results"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["id"], "compliance/server-messages");
    assert_eq!(last["status"], "pass");
    let (noisy, _) = run(
        &[
            "--tools",
            "clean",
            "--era",
            "modern",
            "--behavior",
            "notify",
        ],
        "modern",
    );
    let last = noisy["results"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["id"], "compliance/server-messages");
    assert_eq!(last["status"], "fail", "{last}");
    // The legacy era has no such rule.
    let (legacy, _) = run(
        &[
            "--tools",
            "clean",
            "--era",
            "legacy",
            "--behavior",
            "notify",
        ],
        "legacy",
    );
    assert!(!legacy["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["id"] == "compliance/server-messages"));
}

/// compliance/subscriptions: skipped without tools.listChanged, passes when the server
/// acknowledges subscriptions/listen, fails when it advertises but does not implement it;
/// over stdio and HTTP.
#[test]
fn subscriptions_rule() {
    let status = |r: &Value| -> String {
        r["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == "compliance/subscriptions")
            .map(|x| x["status"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    for (behavior, want) in [
        (None, "skip"),
        (Some("list-changed"), "pass"),
        (Some("list-changed-broken"), "fail"),
    ] {
        let mut args = vec!["--tools", "clean", "--era", "modern"];
        if let Some(b) = behavior {
            args.extend(["--behavior", b]);
        }
        let (r, _) = run(&args, "modern");
        assert_eq!(status(&r), want, "stdio {behavior:?}");
        let server = HttpFixture::start(&args);
        let w = Workdir::new();
        w.write(
            "mcpward.yaml",
            &http_config(&server.url, FAST).replace("protocol_era: legacy", "protocol_era: modern"),
        );
        let r = json_report(&w.run(&["run", "--json"]));
        assert_eq!(status(&r), want, "http {behavior:?}");
    }
}
