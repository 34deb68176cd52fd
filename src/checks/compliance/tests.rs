use super::*;
use crate::model::Status;
use serde_json::json;

fn hello() -> ServerHello {
    ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-11-25".into(),
        server_info: json!({"name": "demo", "version": "1.2.3"}),
        capabilities: json!({"tools": {"listChanged": true}, "logging": {}, "prompts": null}),
        instructions: None,
        supported_versions: vec![],
        discover: None,
    }
}

fn ok() -> Result<(), RpcError> {
    Ok(())
}

fn find<'a>(fs: &'a [Finding], id: &str) -> &'a Finding {
    fs.iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no {id} in {fs:#?}"))
}

fn assert_is(f: &Finding, status: Status, severity: Severity, needle: &str) {
    assert_eq!(f.status, status, "{f:?}");
    assert_eq!(f.severity, severity, "{f:?}");
    assert!(
        f.message.contains(needle),
        "{:?} lacks {needle:?}",
        f.message
    );
}

// Edge case 1.
#[test]
fn all_valid_gives_five_passes_in_order() {
    let fs = check(&hello(), Some(&ok()), None);
    let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            ID_HANDSHAKE,
            ID_PROTOCOL_VERSION,
            ID_SERVER_INFO,
            ID_CAPABILITIES,
            ID_PING
        ]
    );
    assert!(fs.iter().all(|f| f.status == Status::Pass));
    assert!(fs.iter().all(|f| f.family == "compliance"));
    let hs = &fs[0];
    assert_is(
        hs,
        Status::Pass,
        Severity::Error,
        "Protocol handshake completed successfully",
    );
    assert_eq!(
        hs.actual,
        Some(
            json!({"serverName": "demo", "serverVersion": "1.2.3", "protocolVersion": "2025-11-25"})
        )
    );
    assert_eq!(fs[1].message, "Negotiated protocol version: 2025-11-25");
    assert_eq!(fs[1].severity, Severity::Info);
    assert_eq!(fs[2].message, "Server: demo v1.2.3");
    assert_eq!(
        fs[2].actual,
        Some(json!({"name": "demo", "version": "1.2.3"}))
    );
    // null-valued capabilities are not listed; received order is kept.
    assert_eq!(
        fs[3].message,
        "Server declares capabilities: tools, logging"
    );
    assert_eq!(fs[4].message, "Server responds to ping");
    assert_eq!(fs[4].actual, None);
}

// Edge case 2.
#[test]
fn empty_server_name_fails() {
    let mut h = hello();
    h.server_info = json!({"name": "", "version": "1"});
    let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
    assert_is(&f, Status::Fail, Severity::Error, "did not provide a name");
    assert_eq!(f.expected, Some(json!("Non-empty server name")));
    assert_eq!(f.actual, Some(json!("")));
}

#[test]
fn whitespace_and_missing_and_non_string_names_fail() {
    for (info, actual) in [
        (
            json!({"name": " \u{FEFF}\u{3000}\t", "version": "1"}),
            Some(json!(" \u{FEFF}\u{3000}\t")),
        ),
        (json!({"version": "1"}), None),
        (Value::Null, None),
        (json!({"name": 7, "version": "1"}), Some(json!(7))),
    ] {
        let mut h = hello();
        h.server_info = info;
        let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
        assert_is(&f, Status::Fail, Severity::Error, "did not provide a name");
        assert_eq!(f.actual, actual);
    }
    let mut h = hello();
    h.server_info = json!({"name": 7});
    let f = find(&check(&h, None, None), ID_SERVER_INFO).clone();
    assert!(
        f.message.contains("(it is a number, not a string)"),
        "{f:?}"
    );
}

#[test]
fn zero_width_space_is_not_blank() {
    let mut h = hello();
    h.server_info = json!({"name": "\u{200B}", "version": "1"});
    let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
    assert_eq!(f.status, Status::Pass);
}

// Edge case 3.
#[test]
fn empty_server_version_warns() {
    for info in [
        json!({"name": "demo", "version": ""}),
        json!({"name": "demo"}),
    ] {
        let mut h = hello();
        h.server_info = info;
        let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
        assert_is(
            &f,
            Status::Warn,
            Severity::Warning,
            "did not provide a version",
        );
        assert_eq!(f.expected, Some(json!("Non-empty server version")));
    }
}

#[test]
fn modern_era_without_server_info_warns() {
    let mut h = hello();
    h.era = Era::Modern;
    h.protocol_version = "2026-07-28".into();
    h.server_info = Value::Null;
    let fs = check(&h, None, None);
    assert_is(
        find(&fs, ID_SERVER_INFO),
        Status::Warn,
        Severity::Warning,
        "did not identify itself (io.modelcontextprotocol/serverInfo missing)",
    );
    let hs = find(&fs, ID_HANDSHAKE);
    assert_is(
        hs,
        Status::Pass,
        Severity::Error,
        "Stateless discovery completed (server/discover)",
    );
    assert_eq!(hs.actual, Some(json!({"protocolVersion": "2026-07-28"})));
}

// Edge cases 4 and 5.
#[test]
fn missing_protocol_version_fails() {
    for v in ["", "unknown"] {
        let mut h = hello();
        h.protocol_version = v.into();
        let f = find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).clone();
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "did not negotiate a protocol version",
        );
        assert_eq!(f.expected, Some(json!("A valid protocol version string")));
        assert_eq!(f.actual, Some(json!(v)));
    }
}

// Edge case 6.
#[test]
fn unusual_protocol_version_warns() {
    let mut h = hello();
    h.protocol_version = "contains spaces or $pecial".into();
    let f = find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).clone();
    assert_is(
        &f,
        Status::Warn,
        Severity::Warning,
        "Protocol version has unusual format: contains spaces or $pecial",
    );
    assert_eq!(f.actual, Some(json!("contains spaces or $pecial")));
    let mut h = hello();
    h.protocol_version = "1.0.0".into();
    assert_eq!(
        find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).status,
        Status::Pass
    );
}

// Edge case 7.
#[test]
fn missing_or_non_object_capabilities_fail() {
    for caps in [Value::Null, json!("tools"), json!(3), json!(["tools"])] {
        let mut h = hello();
        h.capabilities = caps.clone();
        let f = find(&check(&h, Some(&ok()), None), ID_CAPABILITIES).clone();
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "did not declare capabilities",
        );
        assert_eq!(f.expected, Some(json!("Capabilities object")));
        assert_eq!(f.actual, Some(caps));
    }
}

#[test]
fn empty_capabilities_say_none() {
    let mut h = hello();
    h.capabilities = json!({"x": null});
    let f = find(&check(&h, Some(&ok()), None), ID_CAPABILITIES).clone();
    assert_is(
        &f,
        Status::Pass,
        Severity::Info,
        "Server declares capabilities: none",
    );
}

// Edge case 8.
#[test]
fn ping_error_fails_with_error_text() {
    let err: Result<(), RpcError> = Err(RpcError::plain("Connection refused"));
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_is(
        &f,
        Status::Fail,
        Severity::Error,
        "failed to respond to ping",
    );
    assert!(f.message.contains("Connection refused"));
    assert_eq!(f.expected, Some(json!("Successful ping response")));
    assert_eq!(f.actual, Some(json!("Connection refused")));

    let err: Result<(), RpcError> = Err(RpcError::protocol(-32601, "Method not found", None));
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_eq!(
        f.message,
        "Server failed to respond to ping: MCP error -32601: Method not found"
    );
}

#[test]
fn local_ping_timeout_says_it_was_local() {
    let err: Result<(), RpcError> = Err(RpcError::request_timeout());
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_eq!(f.status, Status::Fail);
    assert!(f.message.contains("-32001"), "{}", f.message);
    assert!(f.message.contains("raised locally"), "{}", f.message);
}

#[test]
fn ping_not_sent_in_modern_era_is_skipped() {
    let mut h = hello();
    h.era = Era::Modern;
    h.protocol_version = "2026-07-28".into();
    let fs = check(&h, None, None);
    assert_eq!(fs.len(), 5);
    let f = find(&fs, ID_PING);
    assert_is(
        f,
        Status::Skip,
        Severity::Info,
        "ping is not part of protocol 2026-07-28 (ping was removed in 2026-07-28)",
    );
}

// Edge case 9.
#[test]
fn expected_version_mismatch_fails() {
    let mut h = hello();
    h.protocol_version = "2024-01-01".into();
    let fs = check(&h, Some(&ok()), Some("2025-11-25"));
    assert_eq!(fs.len(), 6);
    let f = &fs[5];
    assert_eq!(f.id, ID_EXPECTED);
    assert_is(f, Status::Fail, Severity::Error, "mismatch");
    assert_eq!(f.expected, Some(json!("2025-11-25")));
    assert_eq!(f.actual, Some(json!("2024-01-01")));
}

// Edge case 10.
#[test]
fn expected_version_match_passes() {
    let fs = check(&hello(), Some(&ok()), Some("2025-11-25"));
    assert_eq!(fs.len(), 6);
    assert_is(
        &fs[5],
        Status::Pass,
        Severity::Info,
        "Protocol version matches expected: 2025-11-25",
    );
}

// Edge case 11.
#[test]
fn no_or_empty_expected_version_gives_no_result() {
    for e in [None, Some("")] {
        let fs = check(&hello(), Some(&ok()), e);
        assert_eq!(fs.len(), 5);
        assert!(fs.iter().all(|f| f.id != ID_EXPECTED));
    }
}

/// Full output for a misbehaving legacy server, to review every template at once.
#[test]
fn snapshot_misbehaving_server() {
    let h = ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-06-18".into(),
        server_info: json!({"name": "demo", "version": ""}),
        capabilities: json!({"tools": {}, "resources": null}),
        instructions: None,
        supported_versions: vec![],
        discover: None,
    };
    let ping: Result<(), RpcError> = Err(RpcError::closed());
    insta::assert_json_snapshot!(check(&h, Some(&ping), Some("2025-11-25")));
}

#[test]
fn run_level_results_exist_only_in_the_modern_era() {
    use crate::observed::Chatter;
    let mut h = hello();
    h.era = Era::Legacy;
    assert!(run_level(&h, &Chatter::default(), &[]).is_empty());
    h.era = Era::Modern;
    let fs = run_level(&h, &Chatter::default(), &[]);
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].id, "compliance/server-messages");
    assert_eq!(fs[0].status, Status::Pass);
}

#[test]
fn jsonrpc_framing_is_silent_when_clean_and_first_in_the_run_level_results_otherwise() {
    use crate::observed::{Chatter, FramingFault};
    let mut h = hello();
    let mut c = Chatter::default();
    assert!(jsonrpc_framing(&c.framing).is_none());
    c.framing.count = 3;
    c.framing.first = Some(FramingFault {
        fault: "\"jsonrpc\" is missing or not \"2.0\"".into(),
        text: format!("{{\"id\":1,\"result\":\"{}\"}}", "x".repeat(500)),
    });
    // Every request still got a valid answer: a warning.
    let fs = run_level(&h, &c, &[]);
    assert_eq!(fs.len(), 1);
    assert_is(
        &fs[0],
        Status::Warn,
        Severity::Warning,
        "Server sent 3 invalid JSON-RPC 2.0 messages; every request still got a valid answer. First: \"jsonrpc\" is missing or not \"2.0\" — {\"id\":1,",
    );
    assert!(
        fs[0].message.chars().count() < 400,
        "cut: {}",
        fs[0].message
    );
    assert_eq!(
        fs[0].actual,
        Some(json!({"invalidMessages": 3, "failedRequests": 0}))
    );
    // A request answered only by an invalid message: a fail, before server-messages.
    c.framing.failed_requests = 1;
    h.era = Era::Modern;
    let fs = run_level(&h, &c, &[]);
    let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["compliance/jsonrpc-framing", "compliance/server-messages"]
    );
    assert_is(
        &fs[0],
        Status::Fail,
        Severity::Error,
        "1 request was answered only by an invalid message and failed.",
    );
}
