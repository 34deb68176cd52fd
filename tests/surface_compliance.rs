//! #14 compliance over the whole surface, through the CLI against the fixture's
//! `--surface-file`: `compliance/capabilities-served`, `compliance/surface-stable` and
//! `compliance/spurious-list-changed` give the same findings over stdio, HTTP (JSON and
//! SSE) and the 2026-07-28 era (except where the era itself decides: surface-stable fails
//! only in that era).

mod common;
use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const RULES: [&str; 3] = [
    "compliance/capabilities-served",
    "compliance/surface-stable",
    "compliance/spurious-list-changed",
];

/// Fewer families: only compliance matters here (and the run is quicker).
const EXTRA: &str =
    "checks:\n  schema: false\n  security: false\n  errors: false\n  collision: {enabled: false}\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wire {
    Stdio,
    HttpJson,
    HttpSse,
}

const WIRES: [Wire; 3] = [Wire::Stdio, Wire::HttpJson, Wire::HttpSse];

/// A surface file of tests/fixtures/surface/.
fn surface(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/surface")
        .join(name)
}

fn full() -> PathBuf {
    surface("full.json")
}

/// The report of `mcpward run` against the fixture serving `surface` on `wire` in `era`
/// (`legacy` / `modern`), with `extra` config.
fn run(w: &Workdir, surface: &Path, wire: Wire, era: &str, extra: &str) -> Value {
    let surface = surface.to_string_lossy().into_owned();
    let mut args = vec!["--tools", "clean", "--surface-file", &surface, "--era", era];
    if wire == Wire::HttpSse {
        args.extend(["--behavior", "sse"]);
    }
    let set_era =
        |cfg: String| cfg.replace("protocol_era: legacy", &format!("protocol_era: {era}"));
    let tag = unique_tag("surface");
    let _http;
    let cfg = match wire {
        Wire::Stdio => stdio_config(&args, &tag, extra),
        Wire::HttpJson | Wire::HttpSse => {
            let f = HttpFixture::start(&args);
            let cfg = http_config(&f.url, extra);
            _http = f;
            cfg
        }
    };
    w.write("mcpward.yaml", &set_era(cfg));
    let o = w.run(&["run", "--json"]);
    let report = json_report(&o);
    assert!(
        processes_with_tag(&tag).is_empty(),
        "a server process outlived the run ({wire:?} {era})"
    );
    report
}

/// `(id, status, message)` of the results of this issue's rules, in report order.
fn surface_results(report: &Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| RULES.contains(&r["id"].as_str().unwrap()))
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn statuses(results: &[(String, String, String)]) -> Vec<(String, String)> {
    results
        .iter()
        .map(|(i, s, _)| (i.clone(), s.clone()))
        .collect()
}

fn surface_file(w: &Workdir, name: &str, v: Value) -> PathBuf {
    w.write(name, &v.to_string())
}

/// Every (wire, era) the findings must agree on.
fn each_wire_and_era(mut f: impl FnMut(Wire, &str)) {
    for era in ["legacy", "modern"] {
        for wire in WIRES {
            f(wire, era);
        }
    }
}

#[test]
fn a_complete_surface_is_served_and_stable_everywhere() {
    let w = Workdir::new();
    each_wire_and_era(|wire, era| {
        let r = surface_results(&run(&w, &full(), wire, era, EXTRA));
        let what = format!("{wire:?} {era}: {r:#?}");
        let mut expected: Vec<(String, String)> = (0..5)
            .map(|_| ("compliance/capabilities-served".into(), "pass".into()))
            .collect();
        expected.push(("compliance/surface-stable".into(), "pass".into()));
        assert_eq!(statuses(&r), expected, "{what}");
        assert!(r[2].2.contains("capability \"prompts\""), "{what}");
        assert!(r[2].2.contains("(2 items)"), "{what}");
        assert!(r[0].2.contains("(3 items)"), "{what}");
        if era == "modern" {
            assert!(r[3].2.contains("removed in 2026-07-28"), "{what}");
        }
        assert!(
            r[5].2
                .contains("2 prompts, 3 resources, 1 resource templates"),
            "{what}"
        );
    });
}

#[test]
fn undeclared_but_served_warns_and_declared_but_failing_fails() {
    let w = Workdir::new();
    // Nothing declared besides tools, yet prompts/list and completion/complete answer.
    let undeclared = surface("undeclared-served.json");
    // prompts and resources declared; prompts/list and resources/templates/list fail.
    let failing = surface("declared-failing.json");
    let silent = surface_file(&w, "silent.json", json!({}));
    each_wire_and_era(|wire, era| {
        let r = surface_results(&run(&w, &undeclared, wire, era, EXTRA));
        let what = format!("{wire:?} {era}: {r:#?}");
        let got: Vec<&str> = r.iter().take(5).map(|(_, s, _)| s.as_str()).collect();
        assert_eq!(got, ["pass", "pass", "warn", "pass", "warn"], "{what}");
        assert!(
            r[2].2.contains(
                "Capability \"prompts\" is not declared, yet the server serves prompts/list"
            ),
            "{what}"
        );
        assert!(r[4].2.contains("\"completions\""), "{what}");

        let r = surface_results(&run(&w, &failing, wire, era, EXTRA));
        let what = format!("{wire:?} {era}: {r:#?}");
        let got: Vec<&str> = r.iter().take(5).map(|(_, s, _)| s.as_str()).collect();
        assert_eq!(got, ["pass", "fail", "fail", "pass", "pass"], "{what}");
        assert!(
            r[1].2.contains(
                "Capability \"resources\" is declared but resources/templates/list failed"
            ),
            "{what}"
        );
        assert!(r[2].2.contains("-32603"), "{what}");

        // Nothing declared, nothing served: every method answers -32601.
        let r = surface_results(&run(&w, &silent, wire, era, EXTRA));
        let what = format!("{wire:?} {era}: {r:#?}");
        assert!(r.iter().all(|(_, s, _)| s == "pass"), "{what}");
        assert_eq!(r.len(), 6, "{what}");
    });
}

#[test]
fn a_per_connection_surface_fails_in_the_modern_era_and_warns_before() {
    let w = Workdir::new();
    let per = surface("per-connection.json");
    each_wire_and_era(|wire, era| {
        let r = surface_results(&run(&w, &per, wire, era, EXTRA));
        let what = format!("{wire:?} {era}: {r:#?}");
        let stable = r
            .iter()
            .find(|(i, _, _)| i == "compliance/surface-stable")
            .unwrap_or_else(|| panic!("no surface-stable result: {what}"));
        let want = if era == "modern" { "fail" } else { "warn" };
        assert_eq!(stable.1, want, "{what}");
        assert!(
            stable
                .2
                .contains("tools: `echo` changed on a second connection"),
            "{what}"
        );
        // Same session, same listing (the nonce is the connection's).
        if wire == Wire::Stdio {
            assert!(!stable.2.contains("same session"), "{what}");
        }
    });
}

#[test]
fn stability_can_be_turned_off_and_the_second_server_process_is_gone() {
    let w = Workdir::new();
    let rec = w.path().join("record.jsonl");
    let rec_s = rec.to_string_lossy().into_owned();
    let started = |rec: &Path| {
        std::fs::read_to_string(rec)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("\"started\""))
            .count()
    };
    let full_s = full().to_string_lossy().into_owned();
    for (extra, processes, results) in [
        (EXTRA.to_string(), 2, 6),
        (
            EXTRA.replace("checks:\n", "checks:\n  compliance: {stability: false}\n"),
            1,
            5,
        ),
        (
            EXTRA.replace(
                "checks:\n",
                "checks:\n  compliance: {enabled: true, stability: true}\n",
            ),
            2,
            6,
        ),
    ] {
        let _ = std::fs::remove_file(&rec);
        let tag = unique_tag("surface-off");
        let cfg = stdio_config(
            &[
                "--tools",
                "clean",
                "--surface-file",
                &full_s,
                "--record",
                &rec_s,
            ],
            &tag,
            &extra,
        );
        w.write("mcpward.yaml", &cfg);
        let report = json_report(&w.run(&["run", "--json"]));
        let r = surface_results(&report);
        assert_eq!(r.len(), results, "{extra}: {r:#?}");
        assert_eq!(started(&rec), processes, "{extra}");
        assert!(processes_with_tag(&tag).is_empty(), "{extra}");
    }
    // A typo is named with a suggestion and changes nothing.
    let tag = unique_tag("surface-typo");
    let cfg = stdio_config(
        &["--tools", "clean", "--surface-file", &full_s],
        &tag,
        &EXTRA.replace("checks:\n", "checks:\n  compliance: {stabilty: false}\n"),
    );
    w.write("mcpward.yaml", &cfg);
    let o = w.run(&["run", "--json"]);
    assert!(
        stderr(&o).contains("did you mean \"stability\""),
        "{}",
        stderr(&o)
    );
    assert_eq!(surface_results(&json_report(&o)).len(), 6);
}

#[test]
fn spurious_list_changed_is_reported_as_info() {
    let w = Workdir::new();
    let noisy = surface("list-changed.json");
    each_wire_and_era(|wire, era| {
        let report = run(&w, &noisy, wire, era, EXTRA);
        let what = format!("{wire:?} {era}: {:#?}", surface_results(&report));
        let f = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "compliance/spurious-list-changed")
            .unwrap_or_else(|| panic!("no spurious-list-changed: {what}"));
        assert_eq!(f["status"], "warn", "{what}");
        assert_eq!(f["severity"], "info", "{what}");
        assert_eq!(
            f["actual"],
            json!([
                "notifications/prompts/list_changed (once)",
                "notifications/tools/list_changed (once)"
            ]),
            "{what}"
        );
        assert_eq!(report["summary"]["failed"], 0, "{what}");
    });
}

#[test]
fn every_page_of_every_list_is_read_with_page_size() {
    let w = Workdir::new();
    let surface = full().to_string_lossy().into_owned();
    for era in ["legacy", "modern"] {
        let tag = unique_tag("surface-pages");
        let args = [
            "--tools",
            "clean",
            "--surface-file",
            &surface,
            "--page-size",
            "1",
            "--era",
            era,
        ];
        let cfg = stdio_config(&args, &tag, EXTRA)
            .replace("protocol_era: legacy", &format!("protocol_era: {era}"));
        w.write("mcpward.yaml", &cfg);
        let r = surface_results(&json_report(&w.run(&["run", "--json"])));
        let what = format!("{era}: {r:#?}");
        assert!(r.iter().all(|(_, s, _)| s == "pass"), "{what}");
        assert!(r[0].2.contains("(3 items)"), "{what}");
        assert!(r[2].2.contains("(2 items)"), "{what}");
        assert!(r[5].2.contains("4 tools, 2 prompts, 3 resources"), "{what}");
    }
}

/// The fixture's handshake carries the surface's instructions in both eras (absent member:
/// no `instructions` at all).
#[test]
fn instructions_are_in_the_handshake_of_both_eras() {
    use std::io::{BufRead, BufReader, Write};
    let ask = |surface: &Path, era: &str, request: Value| -> Value {
        let mut child = std::process::Command::new(fixture())
            .args(["--tools", "empty", "--surface-file"])
            .arg(surface)
            .args(["--era", era])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{request}").unwrap();
        drop(stdin);
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        child.wait().unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let w = Workdir::new();
    let none = w.write("none.json", "{}");
    let empty = w.write("empty.json", r#"{"instructions": ""}"#);
    for (era, req) in [("legacy", &initialize), ("modern", &discover)] {
        let r = ask(&full(), era, req.clone());
        assert!(
            r["result"]["instructions"]
                .as_str()
                .is_some_and(|s| s.starts_with("Use the echo tool")),
            "{era}: {r}"
        );
        assert_eq!(
            r["result"]["capabilities"],
            json!({"tools": {}, "prompts": {}, "resources": {}, "logging": {}, "completions": {}}),
            "{era}: {r}"
        );
        let r = ask(&none, era, req.clone());
        assert!(r["result"].get("instructions").is_none(), "{era}: {r}");
        let r = ask(&empty, era, req.clone());
        assert_eq!(r["result"]["instructions"], "", "{era}: {r}");
    }
}
