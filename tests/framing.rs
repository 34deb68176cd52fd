//! #12 §1: only valid JSON-RPC 2.0 answers a request. Against the fixture's `frame=<fault>`
//! behaviours over stdio, Streamable HTTP (JSON body and SSE event) and both eras: the
//! request a bad message claimed fails at once, `errors/unknown-tool` never passes on it,
//! and `compliance/jsonrpc-framing` reports it (silent for a valid server). Also #12 §2b:
//! a server that exits at start-up is started once and reported once, and the listen probe
//! ends on its acknowledgment.

mod common;
use common::*;
use serde_json::Value;

/// Compliance and the error contract only; bounded so a regression to waiting shows as a
/// call timeout in the message instead of a hang.
const CHECKS: &str = "timeouts: {connect_ms: 5000, call_ms: 3000, run_ms: 30000}\nchecks:\n  compliance: true\n  schema: false\n  security: false\n  collision: {enabled: false}\n  errors: true\n";

#[derive(Clone, Copy, Debug)]
enum Wire {
    Stdio,
    HttpJson,
    HttpSse,
}

const WIRES: [Wire; 3] = [Wire::Stdio, Wire::HttpJson, Wire::HttpSse];
const ERAS: [&str; 2] = ["legacy", "modern"];

/// Run mcpward against the `clean` fixture in `era` with these extra behaviours.
fn run(wire: Wire, era: &str, behaviors: &[&str]) -> Value {
    let mut args = vec!["--tools", "clean", "--era", era];
    for b in behaviors {
        args.extend(["--behavior", b]);
    }
    if matches!(wire, Wire::HttpSse) {
        args.extend(["--behavior", "sse"]);
    }
    let w = Workdir::new();
    let _server;
    let config = match wire {
        Wire::Stdio => stdio_config(&args, &unique_tag("framing"), CHECKS),
        Wire::HttpJson | Wire::HttpSse => {
            let s = HttpFixture::start(&args);
            let c = http_config(&s.url, CHECKS);
            _server = s;
            c
        }
    };
    w.write(
        "mcpward.yaml",
        &config.replace("protocol_era: legacy", &format!("protocol_era: {era}")),
    );
    let o = w.run(&["run", "--json"]);
    json_report(&o)
}

fn result<'a>(r: &'a Value, id: &str) -> Option<&'a Value> {
    r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id)
}

fn status(r: &Value, id: &str) -> String {
    result(r, id)
        .map(|x| x["status"].as_str().unwrap().to_string())
        .unwrap_or_else(|| "absent".into())
}

fn message(r: &Value, id: &str) -> String {
    result(r, id)
        .map(|x| x["message"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

const FRAMING: &str = "compliance/jsonrpc-framing";
const UNKNOWN: &str = "errors/unknown-tool";

/// The original report: the unknown-tool probe answered by a message without
/// `"jsonrpc": "2.0"` made `errors/unknown-tool` pass. Now that call fails, naming the fault,
/// and the framing rule fails; a valid server keeps both as before (framing silent).
/// Every wire, both eras.
#[test]
fn framing_rule_fails_and_is_silent_over_every_wire_and_era() {
    for era in ERAS {
        for wire in WIRES {
            let ctx = format!("{wire:?} {era}");
            let clean = run(wire, era, &[]);
            assert_eq!(status(&clean, FRAMING), "absent", "{ctx}: {clean:#}");
            assert_eq!(status(&clean, UNKNOWN), "pass", "{ctx}");

            let bad = run(wire, era, &["frame=no-jsonrpc"]);
            assert_eq!(status(&bad, UNKNOWN), "fail", "{ctx}: {bad:#}");
            let m = message(&bad, UNKNOWN);
            assert!(
                m.contains(
                    "Invalid JSON-RPC response from server: \"jsonrpc\" is missing or not \"2.0\""
                ),
                "{ctx}: {m}"
            );
            assert!(!m.contains("Timeout"), "at once, not at call_ms: {m}");
            assert_eq!(status(&bad, FRAMING), "fail", "{ctx}: {bad:#}");
            let f = message(&bad, FRAMING);
            assert!(
                f.contains("answered only by an invalid message and failed. First: \"jsonrpc\" is missing or not \"2.0\""),
                "{ctx}: {f}"
            );
            assert!(f.contains("__mcpward_unknown_tool__"), "{ctx}: {f}");
            // Run-level: after every per-tool result, before server-messages (modern).
            let ids: Vec<&str> = bad["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["id"].as_str().unwrap())
                .collect();
            let at = ids.iter().position(|i| *i == FRAMING).unwrap();
            let mut tail: Vec<&str> = if era == "modern" {
                vec![FRAMING, "compliance/server-messages"]
            } else {
                vec![FRAMING]
            };
            // Over HTTP the transport-posture family runs after everything (#17).
            if !matches!(wire, Wire::Stdio) {
                tail.push("http/origin-validation");
            }
            assert_eq!(&ids[at..], tail.as_slice(), "{ctx}");
        }
    }
}

/// Under `auto` over HTTP a legacy server answers the era probe with a 400 whose error body
/// has `"id": null`: that is the POST's answer, not a framing fault (#12 §1).
#[test]
fn an_http_error_body_with_a_null_id_to_the_era_probe_is_not_a_framing_fault() {
    for sse in [false, true] {
        let mut args = vec!["--tools", "clean", "--era", "legacy"];
        if sse {
            args.extend(["--behavior", "sse"]);
        }
        let server = HttpFixture::start(&args);
        let w = Workdir::new();
        w.write(
            "mcpward.yaml",
            &http_config(&server.url, CHECKS).replace("protocol_era: legacy", "protocol_era: auto"),
        );
        let o = w.run(&["run", "--json"]);
        let r = json_report(&o);
        assert_eq!(status(&r, FRAMING), "absent", "sse {sse}: {r:#}");
        assert_eq!(status(&r, UNKNOWN), "pass", "sse {sse}");
    }
    // The probe really got such a body.
    let server = HttpFixture::start(&["--tools", "clean", "--era", "legacy"]);
    let body = post_discover(&server.url);
    assert!(body.contains("\"id\":null"), "{body}");
}

/// POST a `server/discover` without a session with a plain TCP client (loopback only).
fn post_discover(url: &str) -> String {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let body = r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}"#;
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// Every framing fault fails the call it claimed to answer (never a pass on it), over
/// stdio in both eras; the faults that fit one HTTP message over HTTP JSON, and the
/// two-message one over SSE.
#[test]
fn each_framing_fault_fails_the_request_it_claimed() {
    let faults = [
        ("no-jsonrpc", "\"jsonrpc\" is missing or not \"2.0\""),
        ("other-jsonrpc", "\"jsonrpc\" is missing or not \"2.0\""),
        (
            "string-id",
            "is not an integer, but mcpward's request ids are integers",
        ),
        ("both", "it has both \"result\" and \"error\""),
        ("neither", "it has neither \"result\" nor \"error\""),
        (
            "bad-error",
            "its \"error\" is not an object with an integer \"code\"",
        ),
        // The first message claiming the id is the answer; the later valid one is a
        // duplicate.
        ("bad-then-good", "\"jsonrpc\" is missing or not \"2.0\""),
    ];
    for (fault, text) in faults {
        let behavior = format!("frame={fault}");
        let mut wires = vec![(Wire::Stdio, "legacy"), (Wire::Stdio, "modern")];
        wires.push(match fault {
            "bad-then-good" => (Wire::HttpSse, "legacy"),
            _ => (Wire::HttpJson, "modern"),
        });
        for (wire, era) in wires {
            let ctx = format!("{fault} {wire:?} {era}");
            let r = run(wire, era, &[&behavior]);
            assert_eq!(status(&r, UNKNOWN), "fail", "{ctx}: {r:#}");
            assert!(
                message(&r, UNKNOWN).contains(text),
                "{ctx}: {}",
                message(&r, UNKNOWN)
            );
            assert_eq!(status(&r, FRAMING), "fail", "{ctx}");
            assert!(
                message(&r, FRAMING).contains(text),
                "{ctx}: {}",
                message(&r, FRAMING)
            );
        }
    }
}

/// An invalid message that answers nothing (a notification without `jsonrpc`) while every
/// request gets a valid answer: a warning, and the checks judge the valid answers.
#[test]
fn an_invalid_message_beside_valid_answers_is_a_warning() {
    for era in ERAS {
        for wire in [Wire::Stdio, Wire::HttpSse] {
            let ctx = format!("{wire:?} {era}");
            let r = run(wire, era, &["frame=bad-notification"]);
            assert_eq!(status(&r, FRAMING), "warn", "{ctx}: {r:#}");
            let m = message(&r, FRAMING);
            assert!(
                m.contains("every request still got a valid answer"),
                "{ctx}: {m}"
            );
            assert!(m.contains("notifications/progress"), "{ctx}: {m}");
            assert_eq!(status(&r, UNKNOWN), "pass", "{ctx}");
        }
    }
}

/// #12 §2b: a server that exits at start-up is started once (also under `auto`, whose era
/// probe would otherwise restart it) and the message says once what happened, with the
/// exit status and the stderr tail.
#[test]
fn a_server_that_exits_at_start_up_is_started_once_and_reported_once() {
    for era in ["auto", "legacy", "modern"] {
        let w = Workdir::new();
        let record = w.path().join("record.jsonl");
        let record_arg = record.display().to_string();
        let args = [
            "--tools",
            "clean",
            "--behavior",
            "exit-at-start=3",
            "--record",
            &record_arg,
        ];
        w.write(
            "mcpward.yaml",
            &stdio_config(&args, &unique_tag("exit-at-start"), CHECKS)
                .replace("protocol_era: legacy", &format!("protocol_era: {era}")),
        );
        let o = w.run(&["run"]);
        assert_eq!(o.status.code(), Some(2), "{era}");
        let err = stderr(&o);
        assert!(
            err.starts_with(
                "Failed to connect: the server exited at start-up (exit status: 3) before reading any request\nServer stderr (last lines):\nmcpward-fixture: fatal: missing FIXTURE_API_KEY"
            ),
            "{era}: {err}"
        );
        assert!(!err.contains("-32000"), "{era}: {err}");
        assert!(!err.contains("restart"), "{era}: {err}");
        let text = std::fs::read_to_string(&record).unwrap();
        assert_eq!(text.matches("\"started\"").count(), 1, "{era}: {text}");
    }
}

/// A server that reads the era probe and dies is restarted (§3.2 step 5); when the
/// restarted one dies too, the message says so once, with the exit status, and does not
/// repeat the -32000 clause of each process.
#[test]
fn a_server_that_dies_on_every_first_request_is_restarted_once_and_reported_once() {
    let w = Workdir::new();
    let record = w.path().join("record.jsonl");
    let record_arg = record.display().to_string();
    let args = [
        "--tools",
        "clean",
        "--behavior",
        "exit-on-request=4",
        "--record",
        &record_arg,
    ];
    w.write(
        "mcpward.yaml",
        &stdio_config(&args, &unique_tag("exit-on-request"), CHECKS)
            .replace("protocol_era: legacy", "protocol_era: auto"),
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "Failed to connect: the server exited (exit status: 4) before answering initialize, also after a restart (the first process ended before answering server/discover)\nServer stderr (last lines):\nmcpward-fixture: exiting on the first request"
        ),
        "{err}"
    );
    assert!(!err.contains("-32000"), "{err}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.matches("\"started\"").count(), 2, "{text}");
}

/// #12 §2b: the listen probe ends as soon as the acknowledgment is in. Shown by the
/// mechanism, not a clock: the probe's cancellation gives the reason the acknowledgment
/// path sends ("acknowledged"), never the reason of the 2 s wait running out.
#[test]
fn the_listen_probe_ends_on_its_acknowledgment() {
    let w = Workdir::new();
    let record = w.path().join("record.jsonl");
    let record_arg = record.display().to_string();
    let args = [
        "--tools",
        "clean",
        "--era",
        "modern",
        "--behavior",
        "list-changed",
        "--behavior",
        "listen-stays-open",
        "--record",
        &record_arg,
    ];
    w.write(
        "mcpward.yaml",
        &stdio_config(&args, &unique_tag("listen"), CHECKS)
            .replace("protocol_era: legacy", "protocol_era: modern"),
    );
    let r = json_report(&w.run(&["run", "--json"]));
    assert_eq!(status(&r, "compliance/subscriptions"), "pass", "{r:#}");
    let cancels: Vec<Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["message"]["method"] == "notifications/cancelled")
        .collect();
    assert_eq!(cancels.len(), 1, "{cancels:?}");
    // The server was ended by stdin EOF, not by the kill after the grace: no second handle
    // on its stdin (the start-up exit check's) outlives the close.
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("\"stdin-eof\""), "{text}");
    assert_eq!(
        cancels[0]["message"]["params"]["reason"],
        "acknowledged; the probe is done"
    );
    // Over HTTP (no cancellation in the modern era there) the open stream is left behind
    // and the rule still passes.
    let server = HttpFixture::start(&args[..8]);
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        &http_config(&server.url, CHECKS).replace("protocol_era: legacy", "protocol_era: modern"),
    );
    let r = json_report(&w.run(&["run", "--json"]));
    assert_eq!(status(&r, "compliance/subscriptions"), "pass", "{r:#}");
}
