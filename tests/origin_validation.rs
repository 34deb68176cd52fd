//! `http/origin-validation` (#17) end to end: the fixture refuses a foreign `Origin`/`Host`
//! by default (pass), answers anything with `no-origin-check` (fail) and refuses every
//! `Origin` with `reject-all-origins` (warn), in both eras; the probe goes beside the real
//! session and ends the sessions it created; stdio runs and `checks.http: false` have no
//! `http` family at all. Loopback only.

mod common;
use common::*;
use serde_json::Value;
use std::process::Output;

const RULE: &str = "http/origin-validation";
const FOREIGN: &str = "mcpward-rebinding.example";

fn config(url: &str, era: &str, extra: &str) -> String {
    format!("server:\n  transport: http\n  url: {url:?}\n  protocol_era: {era}\n{extra}")
}

fn read_record(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

struct Run {
    out: Output,
    report: Value,
    record: Vec<Value>,
    port: String,
}

/// `mcpward run` (extra args) against an HTTP fixture of `era` with these behaviours.
fn run(behaviours: &[&str], era: &str, extra: &str, args: &[&str]) -> Run {
    let w = Workdir::new();
    let rec = w.path().join("record.jsonl");
    let rec_s = rec.display().to_string();
    let mut fixture_args = vec!["--tools", "clean", "--era", era, "--record", &rec_s];
    for b in behaviours {
        fixture_args.extend(["--behavior", b]);
    }
    let server = HttpFixture::start(&fixture_args);
    let port = server
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    w.write("mcpward.yaml", &config(&server.url, era, extra));
    let mut all = vec!["run", "--json"];
    all.extend_from_slice(args);
    let out = w.run(&all);
    drop(server);
    let report = json_report(&out);
    Run {
        out,
        report,
        record: read_record(&rec),
        port,
    }
}

fn origin_results(report: &Value) -> Vec<Value> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] == "http")
        .cloned()
        .collect()
}

/// The one `http/origin-validation` result.
fn the_result(r: &Run) -> Value {
    let found = origin_results(&r.report);
    assert_eq!(found.len(), 1, "{:#}", r.report);
    assert_eq!(found[0]["id"], RULE);
    found[0].clone()
}

/// The POSTs the fixture received carrying an `Origin` (only the probe sends one).
fn probe_posts(r: &Run) -> Vec<Value> {
    r.record
        .iter()
        .filter(|e| e["kind"] == "http" && e["headers"].get("origin").is_some())
        .cloned()
        .collect()
}

fn count_events(r: &Run, event: &str) -> usize {
    r.record.iter().filter(|e| e["event"] == event).count()
}

/// Every result but the new rule's, as `(id, status, location)`.
fn others(report: &Value) -> Vec<(String, String, String)> {
    triples(report)
        .into_iter()
        .filter(|(id, _, _)| id != RULE)
        .collect()
}

#[test]
fn the_default_fixture_refuses_a_foreign_origin_and_passes_in_both_eras() {
    for (era, method) in [("legacy", "initialize"), ("modern", "server/discover")] {
        let r = run(&[], era, "", &[]);
        assert_eq!(r.out.status.code(), Some(0), "{era}: {}", stderr(&r.out));
        let f = the_result(&r);
        assert_eq!(f["status"], "pass", "{era}: {f:#}");
        let msg = f["message"].as_str().unwrap();
        assert!(
            msg.contains(&format!(
                "refused {method} sent with a foreign Origin (http://{FOREIGN}:{}",
                r.port
            )),
            "{msg}"
        );
        assert!(msg.contains("HTTP 403 with a JSON-RPC error"), "{msg}");
        assert!(
            msg.contains(&format!(
                "with its own origin http://127.0.0.1:{}: HTTP 200 with a JSON-RPC result",
                r.port
            )),
            "{msg}"
        );
        // What went on the wire: reqwest sent our Host, and neither probe carried the session.
        let posts = probe_posts(&r);
        assert_eq!(posts.len(), 2, "{era}: {posts:#?}");
        let foreign = &posts[0]["headers"];
        assert_eq!(foreign["host"], format!("{FOREIGN}:{}", r.port));
        assert_eq!(foreign["origin"], format!("http://{FOREIGN}:{}", r.port));
        let own = &posts[1]["headers"];
        assert_eq!(own["host"], format!("127.0.0.1:{}", r.port));
        assert_eq!(own["origin"], format!("http://127.0.0.1:{}", r.port));
        for p in &posts {
            assert!(p["headers"].get("mcp-session-id").is_none(), "{p}");
        }
        assert_eq!(count_events(&r, "origin-refused"), 1, "{era}");
        // The probe sent the era's handshake request, with an id of its own.
        let at = r.record.iter().position(|e| e == &posts[1]).unwrap();
        let probe = &r.record[at + 1];
        assert_eq!(probe["kind"], "message", "{probe}");
        assert_eq!(probe["message"]["method"], method, "{probe}");
        let first = r
            .record
            .iter()
            .find(|e| e["kind"] == "message" && e["message"]["method"] == method)
            .unwrap();
        assert_ne!(first["message"]["id"], probe["message"]["id"]);
    }
}

#[test]
fn a_server_without_origin_validation_fails_in_both_eras() {
    for (era, method) in [("legacy", "initialize"), ("modern", "server/discover")] {
        let r = run(&["no-origin-check"], era, "", &[]);
        assert_eq!(r.out.status.code(), Some(1), "{era}: {}", stderr(&r.out));
        let f = the_result(&r);
        assert_eq!(
            (f["status"].as_str(), f["severity"].as_str()),
            (Some("fail"), Some("error")),
            "{f:#}"
        );
        let msg = f["message"].as_str().unwrap();
        assert!(
            msg.contains(&format!("answered {method} sent with a foreign Origin")),
            "{msg}"
        );
        assert!(msg.contains("DNS rebinding"), "{msg}");
        assert_eq!(f["actual"]["foreign"]["answer"]["status"], 200);
        assert_eq!(f["actual"]["foreign"]["answer"]["body"], "result");
        assert_eq!(count_events(&r, "origin-refused"), 0);
        // Nothing else changed: every other result is what the protected server gets.
        let protected = run(&[], era, "", &[]);
        assert_eq!(others(&r.report), others(&protected.report), "{era}");
    }
}

#[test]
fn legacy_probe_sessions_are_ended_with_delete() {
    let sessions = |r: &Run, event: &str| -> Vec<String> {
        let mut v: Vec<String> = r
            .record
            .iter()
            .filter(|e| e["event"] == event)
            .map(|e| e["detail"].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    let open = run(&["no-origin-check"], "legacy", "", &[]);
    let guarded = run(&[], "legacy", "", &[]);
    for r in [&open, &guarded] {
        // Every session (the run's, the second connection's, each probe initialize's) ends.
        let created = sessions(r, "session-created");
        assert_eq!(created, sessions(r, "session-deleted"), "{:#?}", r.record);
    }
    // The foreign initialize made one more session only where it was served.
    assert_eq!(
        sessions(&open, "session-created").len(),
        sessions(&guarded, "session-created").len() + 1
    );
}

#[test]
fn refusing_the_own_origin_too_warns() {
    for era in ["legacy", "modern"] {
        let r = run(&["reject-all-origins"], era, "", &[]);
        assert_eq!(r.out.status.code(), Some(0), "{era}: {}", stderr(&r.out));
        let f = the_result(&r);
        assert_eq!(f["status"], "warn", "{f:#}");
        let msg = f["message"].as_str().unwrap();
        assert!(
            msg.contains("refuses every request a browser sends"),
            "{msg}"
        );
        assert_eq!(f["actual"]["own"]["answer"]["status"], 403);
        assert_eq!(count_events(&r, "origin-refused"), 2);
    }
}

#[test]
fn checks_http_false_sends_no_probe() {
    let r = run(
        &["no-origin-check"],
        "legacy",
        "checks:\n  http: false\n",
        &[],
    );
    assert!(origin_results(&r.report).is_empty(), "{:#}", r.report);
    assert!(probe_posts(&r).is_empty());
    assert_eq!(r.out.status.code(), Some(0));
}

#[test]
fn check_flag_chooses_the_http_family() {
    let server = HttpFixture::start(&["--tools", "clean", "--behavior", "no-origin-check"]);
    let w = Workdir::new();
    let o = w.run(&[
        "run",
        "--json",
        "--protocol-era",
        "legacy",
        "--check",
        "http",
        &server.url,
    ]);
    let r = json_report(&o);
    let fams: Vec<&str> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["family"].as_str().unwrap())
        .collect();
    assert_eq!(fams, ["http"], "{r:#}");
    assert_eq!(o.status.code(), Some(1));
    let o = w.run(&[
        "run",
        "--json",
        "--protocol-era",
        "legacy",
        "--check",
        "schema",
        &server.url,
    ]);
    let r = json_report(&o);
    assert!(origin_results(&r).is_empty(), "{r:#}");
}

#[test]
fn stdio_runs_have_no_http_family() {
    let w = Workdir::new();
    let tag = unique_tag("origin-stdio");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, ""),
    );
    let plain = w.run(&["run", "--json"]);
    let r = json_report(&plain);
    assert!(origin_results(&r).is_empty(), "{r:#}");
    // `checks.http: true` on stdio is accepted and changes nothing.
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, "checks:\n  http: true\n"),
    );
    let on = w.run(&["run", "--json"]);
    assert_eq!(triples(&json_report(&on)), triples(&r));
    let v = w.run(&["run", "-v"]);
    assert!(!stderr(&v).contains("HTTP posture"), "{}", stderr(&v));
}

#[test]
fn every_report_format_carries_the_rule() {
    let server = HttpFixture::start(&["--tools", "clean", "--behavior", "no-origin-check"]);
    let w = Workdir::new();
    w.write("mcpward.yaml", &config(&server.url, "legacy", ""));
    let console = w.run(&["run"]);
    let text = String::from_utf8_lossy(&console.stdout);
    assert!(text.contains("HTTP (1 failed)"), "{text}");
    assert!(text.contains("DNS rebinding"), "{text}");
    let junit = w.run(&["run", "-r", "junit"]);
    let text = String::from_utf8_lossy(&junit.stdout);
    assert!(text.contains(&format!("name=\"{RULE}\"")), "{text}");
    let sarif = w.run(&["run", "-r", "sarif"]);
    let s: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let run = &s["runs"][0];
    let rule = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == RULE)
        .unwrap_or_else(|| panic!("{run:#}"));
    assert_eq!(rule["properties"]["security"], true, "{rule:#}");
    assert!(run["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["ruleId"] == rule["id"] && r["level"] == "error"));
    assert_eq!(rule["id"], "http-origin-validation");
}

#[test]
fn both_eras_probe_once_per_lane() {
    let server = HttpFixture::start(&[
        "--tools",
        "clean",
        "--era",
        "dual",
        "--behavior",
        "no-origin-check",
    ]);
    let w = Workdir::new();
    w.write("mcpward.yaml", &config(&server.url, "both", ""));
    let o = w.run(&["run", "--json"]);
    let r = json_report(&o);
    let found = origin_results(&r);
    let eras: Vec<&str> = found
        .iter()
        .map(|f| f["era"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(eras, ["modern", "legacy"], "{r:#}");
    assert!(found.iter().all(|f| f["status"] == "fail"));
    assert!(found[0]["message"]
        .as_str()
        .unwrap()
        .contains("server/discover"));
    assert!(found[1]["message"].as_str().unwrap().contains("initialize"));
}

#[test]
fn a_fleet_probes_each_http_member() {
    let open = HttpFixture::start(&["--tools", "clean", "--behavior", "no-origin-check"]);
    let guarded = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let tag = unique_tag("origin-fleet");
    let f = fixture().display().to_string();
    w.write(
        "mcpward.yaml",
        &format!(
            "servers:\n  open: {{transport: http, url: {:?}, protocol_era: legacy}}\n  guarded: {{transport: http, url: {:?}, protocol_era: legacy}}\n  local: {{transport: stdio, command: {f:?}, args: [--tools, clean], env: {{MCPWARD_TEST_TAG: {tag:?}}}, protocol_era: legacy}}\n",
            open.url, guarded.url
        ),
    );
    let o = w.run(&["run", "--json"]);
    let r = json_report(&o);
    let status_of = |name: &str| -> Vec<String> {
        let m = r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{r:#}"));
        origin_results(&m["report"])
            .iter()
            .map(|x| x["status"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(status_of("open"), ["fail"]);
    assert_eq!(status_of("guarded"), ["pass"]);
    assert!(status_of("local").is_empty());
}

/// A server on a public name is not probed (no network: the classifier and the judgement).
#[test]
fn a_public_url_is_skipped() {
    use mcpward::observed::OriginProbe;
    use mcpward::transport::origin::is_local_host;
    for h in [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "10.0.0.8",
        "172.20.1.1",
        "192.168.0.9",
        "[fd00::1]",
        "[fe80::2]",
    ] {
        assert!(is_local_host(h), "{h}");
    }
    for h in [
        "mcp.example.com",
        "8.8.8.8",
        "[2606:4700::1111]",
        "172.32.0.1",
    ] {
        assert!(!is_local_host(h), "{h}");
    }
    let f = mcpward::checks::http::judge(&OriginProbe::NotLocal {
        host: "mcp.example.com".into(),
    });
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].id, RULE);
    assert_eq!(f[0].status, mcpward::model::Status::Skip);
}

/// An SSE answer is read up to the event that answers the probe.
#[test]
fn an_sse_answer_is_judged_by_its_event() {
    for era in ["legacy", "modern"] {
        let r = run(&["no-origin-check", "sse"], era, "", &[]);
        let f = the_result(&r);
        assert_eq!(f["status"], "fail", "{era}: {f:#}");
        assert_eq!(f["actual"]["foreign"]["answer"]["body"], "result", "{era}");
        let r = run(&["sse"], era, "", &[]);
        assert_eq!(the_result(&r)["status"], "pass", "{era}");
    }
}
