//! A fleet in one run (#15): several servers per config, in parallel, shards, merge,
//! cross-server findings, and both protocol eras in one run.

mod common;
use common::*;
use serde_json::Value;

/// A single-server config that asks for both eras, against the fixture in `era`.
fn both_config(era: &str, tag: &str) -> String {
    stdio_config(&["--tools", "clean", "--era", era], tag, "")
        .replace("protocol_era: legacy", "protocol_era: both")
}

fn eras_of(report: &Value) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["era"].as_str().unwrap_or("-").to_string(),
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.dedup();
    v
}

#[test]
fn both_eras_run_every_family_once_per_era_on_a_dual_server() {
    let w = Workdir::new();
    let tag = unique_tag("both-dual");
    w.write("mcpward.yaml", &both_config("dual", &tag));
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_report(&o);
    let rows = eras_of(&r);
    // Every result names its lane; the modern lane comes first, then the legacy lane.
    assert!(
        rows.iter().all(|(e, _, _)| e == "modern" || e == "legacy"),
        "{rows:?}"
    );
    let first_legacy = rows.iter().position(|(e, _, _)| e == "legacy").unwrap();
    assert!(rows[..first_legacy].iter().all(|(e, _, _)| e == "modern"));
    assert!(rows[first_legacy..].iter().all(|(e, _, _)| e == "legacy"));
    for era in ["modern", "legacy"] {
        for id in [
            "compliance/handshake",
            "schema/tool-name",
            "security/summary",
        ] {
            assert!(
                rows.iter().any(|(e, i, _)| e == era && i == id),
                "{id} missing in the {era} lane: {rows:?}"
            );
        }
    }
    // Legacy-only ping ran in the legacy lane only.
    assert!(rows
        .iter()
        .any(|(e, i, s)| e == "legacy" && i == "compliance/ping" && s == "pass"));
    assert!(!rows.iter().any(|(_, i, _)| i == "compliance/era-lane"));
    assert!(processes_with_tag(&tag).is_empty());
}

#[test]
fn a_server_of_one_era_gets_the_other_lane_as_one_skip() {
    for (speaks, missing) in [("legacy", "modern"), ("modern", "legacy")] {
        let w = Workdir::new();
        let tag = unique_tag("both-one");
        w.write("mcpward.yaml", &both_config(speaks, &tag));
        let o = w.run(&["run", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{speaks}: {}", stderr(&o));
        let r = json_report(&o);
        let lanes: Vec<&Value> = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["era"] == missing)
            .collect();
        assert_eq!(lanes.len(), 1, "{speaks}: {lanes:?}");
        assert_eq!(lanes[0]["id"], "compliance/era-lane");
        assert_eq!(lanes[0]["status"], "skip");
        let msg = lanes[0]["message"].as_str().unwrap();
        assert!(
            msg.starts_with(&format!("The {missing} protocol era was not tested: ")),
            "{msg}"
        );
        assert!(!msg.contains("Failed to connect"), "{msg}");
        assert!(r["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["era"] == speaks
                && f["id"] == "compliance/handshake"
                && f["status"] == "pass"));
        assert!(processes_with_tag(&tag).is_empty());
    }
}

#[test]
fn single_era_reports_carry_no_era_and_the_flag_asks_for_both() {
    let w = Workdir::new();
    let tag = unique_tag("one-era");
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean", "--era", "dual"], &tag, ""),
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("\"era\""));
    let o = w.run(&["run", "--json", "--protocol-era", "both"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = eras_of(&json_report(&o));
    assert!(rows.iter().any(|(e, _, _)| e == "modern"));
    assert!(rows.iter().any(|(e, _, _)| e == "legacy"));
}

#[test]
fn a_server_that_speaks_neither_era_is_not_tested() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: mcpward-no-such-server-binary\n  protocol_era: both\n",
    );
    let o = w.run(&["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("Failed to connect"), "{}", stderr(&o));
}
