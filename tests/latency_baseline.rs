//! Latency against the baseline (#16 §4) end to end: `baseline` pins the sampled tools'
//! p50/p95, `run` and `diff` compare, and a slowed server (`--delay-ms`) is caught while an
//! unchanged one never is. The thresholds are what is tested, not the machine's speed:
//! stdio calls to the fixture take about a millisecond, far below `min_ms`.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

const CHECKS: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 5000\n  run_ms: 60000\nchecks:\n  compliance: false\n  schema: false\n  security: false\n  errors: false\n  collision:\n    enabled: false\n";
const LATENCY: &str = "  latency:\n    samples: 3\n";

/// A config for the `clean` table (one read-only tool, `get-status`), recording calls.
fn config(tag: &str, record: &Path, delay_ms: u64, latency: bool) -> String {
    let rec = record.display().to_string();
    let mut args = vec!["--tools", "clean", "--record", &rec];
    let delay = delay_ms.to_string();
    if delay_ms > 0 {
        args.extend(["--delay-ms", &delay]);
    }
    let extra = format!("{CHECKS}{}", if latency { LATENCY } else { "" });
    stdio_config(&args, tag, &extra)
}

/// How many `tools/call`s of `tool` the fixture received (and forgets them).
fn calls_of(record: &Path, tool: &str) -> usize {
    let n = std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| {
            v["message"]["method"] == "tools/call" && v["message"]["params"]["name"] == tool
        })
        .count();
    let _ = std::fs::remove_file(record);
    n
}

fn lockfile(w: &Workdir) -> Value {
    let text = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn regression(report: &Value) -> Vec<(String, String, String)> {
    triples(report)
        .into_iter()
        .filter(|(id, _, _)| id == "latency/regression")
        .collect()
}

fn baseline(w: &Workdir) {
    let o = w.run(&["baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_slowed_server_fails_latency_regression_in_run_and_diff() {
    let w = Workdir::new();
    let tag = unique_tag("latency-baseline");
    let rec = w.path().join("rec.jsonl");
    w.write("mcpward.yaml", &config(&tag, &rec, 0, true));
    let o = w.run(&["baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("✓ Pinned latency of 1 tool(s)"));
    // Two warmup calls, then the three samples.
    assert_eq!(calls_of(&rec, "get-status"), 5);
    let pinned = &lockfile(&w)["latency"];
    assert_eq!(pinned.as_object().unwrap().len(), 1, "{pinned}");
    assert_eq!(pinned["get-status"]["samples"], 3);
    assert!(pinned["get-status"]["p95Ms"].as_f64().unwrap() < 50.0);

    w.write("mcpward.yaml", &config(&tag, &rec, 200, true));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = json_report(&o);
    let found = regression(&report);
    assert_eq!(
        found,
        [(
            "latency/regression".to_string(),
            "fail".to_string(),
            "get-status".to_string()
        )]
    );
    let msg = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "latency/regression")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.starts_with("Tool \"get-status\" latency regressed: p95 2")
            && msg.contains("over 3 call(s), baseline p95 ")
            && msg.ends_with("over 3 call(s) (more than 2× and 50ms slower)"),
        "{msg}"
    );
    // The absolute budget (1000 ms) still passes: only the comparison fails.
    assert!(triples(&report).contains(&("latency/summary".into(), "pass".into(), String::new())));
    assert_eq!(calls_of(&rec, "get-status"), 5);

    // `diff` samples too when latency is on, and fails the same way.
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = json_report(&o);
    assert_eq!(regression(&report).len(), 1);
    assert_eq!(regression(&report)[0].1, "fail");
    // Only the comparison: diff judges change, the absolute budgets are run's.
    assert!(!triples(&report)
        .iter()
        .any(|(id, _, _)| id == "latency/summary"));
    assert_eq!(calls_of(&rec, "get-status"), 5);
}

#[test]
fn an_unchanged_server_never_raises_a_false_alarm_in_20_runs() {
    let w = Workdir::new();
    let tag = unique_tag("latency-quiet");
    let rec = w.path().join("rec.jsonl");
    w.write("mcpward.yaml", &config(&tag, &rec, 0, true));
    baseline(&w);
    for i in 0..20 {
        let o = w.run(&["run", "--json"]);
        let report = json_report(&o);
        // Compared every time (a pass), never a failure.
        assert_eq!(
            regression(&report),
            [(
                "latency/regression".to_string(),
                "pass".to_string(),
                "get-status".to_string()
            )],
            "run {i}: {report:#}"
        );
        assert_eq!(o.status.code(), Some(0), "run {i}: {}", stderr(&o));
    }
    // The diff of an unchanged server passes as well.
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(regression(&json_report(&o))[0].1, "pass");
}

#[test]
fn a_lockfile_without_latency_means_no_comparison_and_no_warmup() {
    let w = Workdir::new();
    let tag = unique_tag("latency-none");
    let rec = w.path().join("rec.jsonl");
    // Baseline with latency off: no member, and no tool is called.
    w.write("mcpward.yaml", &config(&tag, &rec, 0, false));
    baseline(&w);
    assert_eq!(calls_of(&rec, "get-status"), 0);
    assert!(lockfile(&w).get("latency").is_none());
    // A slowed server with latency on: absolute budgets only, the samples and no warmup.
    w.write("mcpward.yaml", &config(&tag, &rec, 200, true));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = json_report(&o);
    assert_eq!(regression(&report), []);
    assert!(triples(&report)
        .iter()
        .any(|(id, s, _)| id == "latency/summary" && s == "pass"));
    assert_eq!(calls_of(&rec, "get-status"), 3);
    // diff: nothing to compare, so no call at all.
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(regression(&json_report(&o)), []);
    assert_eq!(calls_of(&rec, "get-status"), 0);
}

#[test]
fn the_latency_member_is_purely_additive() {
    let w = Workdir::new();
    let tag = unique_tag("latency-additive");
    let rec = w.path().join("rec.jsonl");
    w.write("mcpward.yaml", &config(&tag, &rec, 0, false));
    baseline(&w);
    let off = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
    w.write("mcpward.yaml", &config(&tag, &rec, 0, true));
    baseline(&w);
    let mut on = lockfile(&w);
    assert!(on.get("latency").is_some());
    on.as_object_mut().unwrap().remove("latency");
    let mut off: Value = serde_json::from_str(&off).unwrap();
    for l in [&mut on, &mut off] {
        l["meta"]["capturedAt"] = Value::Null;
    }
    assert_eq!(on, off);
}

/// A fleet member running the `clean` table over stdio.
fn member(name: &str, tag: &str, delay_ms: u64) -> String {
    let mut args = vec!["\"--tools\"".to_string(), "\"clean\"".to_string()];
    if delay_ms > 0 {
        args.extend(["\"--delay-ms\"".to_string(), format!("\"{delay_ms}\"")]);
    }
    format!(
        "  {name}:\n    transport: stdio\n    command: {:?}\n    args: [{}]\n    env:\n      MCPWARD_TEST_TAG: {tag:?}\n    protocol_era: legacy\n",
        fixture().display().to_string(),
        args.join(", ")
    )
}

#[test]
fn fleet_members_pin_and_compare_their_own_latency() {
    let w = Workdir::new();
    let tag = unique_tag("latency-fleet");
    let fleet = |slow: u64| {
        format!(
            "servers:\n{}{}{CHECKS}{LATENCY}  drift:\n    baseline: ./locks/{{server}}.json\n",
            member("steady", &tag, 0),
            member("slowed", &tag, slow)
        )
    };
    w.write("mcpward.yaml", &fleet(0));
    baseline(&w);
    for name in ["steady", "slowed"] {
        let text = std::fs::read_to_string(w.path().join(format!("locks/{name}.json"))).unwrap();
        let l: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(l["latency"]["get-status"]["samples"], 3, "{name}: {l}");
    }
    w.write("mcpward.yaml", &fleet(200));
    for cmd in ["run", "diff"] {
        let o = w.run(&[cmd, "--json"]);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {}", stderr(&o));
        let doc = json_report(&o);
        let status = |name: &str| {
            let m = doc["servers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["name"] == name)
                .unwrap();
            regression(&m["report"])
                .into_iter()
                .map(|(_, s, _)| s)
                .collect::<Vec<_>>()
        };
        assert_eq!(status("steady"), ["pass"], "{cmd}");
        assert_eq!(status("slowed"), ["fail"], "{cmd}");
    }
}

/// Without `checks.drift`, each member's lockfile is `./mcpward.lock.<name>.json`: `run`
/// compares with that one too (not with `./mcpward.lock.json`).
#[test]
fn fleet_members_without_drift_compare_with_their_default_lockfiles() {
    let w = Workdir::new();
    let tag = unique_tag("latency-fleet-default");
    let fleet = |slow: u64| {
        format!(
            "servers:\n{}{}{CHECKS}{LATENCY}",
            member("steady", &tag, 0),
            member("slowed", &tag, slow)
        )
    };
    w.write("mcpward.yaml", &fleet(0));
    baseline(&w);
    assert!(w.path().join("mcpward.lock.slowed.json").is_file());
    w.write("mcpward.yaml", &fleet(200));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_report(&o);
    let status = |name: &str| {
        let m = doc["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap();
        regression(&m["report"])
            .into_iter()
            .map(|(_, s, _)| s)
            .collect::<Vec<_>>()
    };
    assert_eq!(status("steady"), ["pass"]);
    assert_eq!(status("slowed"), ["fail"]);
}
