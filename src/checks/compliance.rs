//! Compliance family (checks-core.md §3): judges the handshake data and one `ping`.
//!
//! Pure: the lead sends the ping and hands us its outcome. Emission order is fixed:
//! handshake, protocol-version, server-info, capabilities, ping, expected-protocol-version.

use crate::model::{Finding, Severity};
use crate::rules::Rule;
use crate::transport::{Era, RpcError, ServerHello};
use serde_json::{Map, Value};

use super::schema::{is_blank, js_type};

pub const RULES: &[Rule] = &[
    Rule {
        id: "compliance/handshake",
        severity: Severity::Error,
        short: "Protocol handshake check",
        description: "The connection handshake (initialize, or server/discover in the 2026-07-28 \
            era) completed. Always a pass when reported: a failed handshake stops the run with exit 2.",
        fix: "Nothing to fix when this result is present. If the run stops before it, make the \
            server answer `initialize` (or `server/discover`) with a valid result for a protocol \
            version mcpward supports.",
    },
    Rule {
        id: "compliance/protocol-version",
        severity: Severity::Error,
        short: "Protocol version check",
        description: "The server negotiated a protocol version and it has the usual shape \
            (a date like 2025-11-25 or a dotted version).",
        fix: "Return a `protocolVersion` from the MCP specification in the initialize result, \
            ideally the version the client offered.",
    },
    Rule {
        id: "compliance/server-info",
        severity: Severity::Error,
        short: "Server info check",
        description: "The server identifies itself with a non-empty `serverInfo.name` (required) \
            and `serverInfo.version` (a missing version is a warning). Clients show these to users \
            and use them in logs.",
        fix: "Fill `serverInfo: { name, version }` in the initialize result (in the 2026-07-28 era, \
            `_meta[\"io.modelcontextprotocol/serverInfo\"]` of the discover result).",
    },
    Rule {
        id: "compliance/capabilities",
        severity: Severity::Error,
        short: "Capabilities check",
        description: "The server declares a `capabilities` object, which clients read to learn \
            which features (tools, resources, prompts, logging…) they may use.",
        fix: "Return `capabilities` as a JSON object, e.g. `{\"tools\": {}}`; use `{}` when the \
            server offers nothing optional.",
    },
    Rule {
        id: "compliance/ping",
        severity: Severity::Error,
        short: "Ping check",
        description: "The server answers a `ping` request with an empty result, which clients use \
            as a liveness check. Skipped in the 2026-07-28 era, which removed `ping`.",
        fix: "Handle the `ping` method and answer it with `{}`; most MCP SDKs do this for you.",
    },
    Rule {
        id: "compliance/expected-protocol-version",
        severity: Severity::Error,
        short: "Expected protocol version check",
        description: "The negotiated protocol version equals `expect.protocol_version` from the \
            config, so an unintended protocol upgrade or downgrade is caught in CI.",
        fix: "Either make the server negotiate the expected version, or update \
            `expect.protocol_version` in mcpward.yaml after an intended upgrade.",
    },
];

const ID_HANDSHAKE: &str = "compliance/handshake";
const ID_PROTOCOL_VERSION: &str = "compliance/protocol-version";
const ID_SERVER_INFO: &str = "compliance/server-info";
const ID_CAPABILITIES: &str = "compliance/capabilities";
const ID_PING: &str = "compliance/ping";
const ID_EXPECTED: &str = "compliance/expected-protocol-version";

/// `ping`: `None` means it was not sent (the modern era has no ping). `expected_version`:
/// `expect.protocol_version`; absent or empty means no expected-protocol-version result.
pub fn check(
    hello: &ServerHello,
    ping: Option<&Result<(), RpcError>>,
    expected_version: Option<&str>,
) -> Vec<Finding> {
    let mut out = vec![
        handshake(hello),
        protocol_version(&hello.protocol_version),
        server_info(hello),
        capabilities(&hello.capabilities),
        ping_result(hello, ping),
    ];
    if let Some(e) = expected_version.filter(|e| !e.is_empty()) {
        out.push(expected(e, &hello.protocol_version));
    }
    out
}

fn handshake(hello: &ServerHello) -> Finding {
    let message = match hello.era {
        Era::Legacy => "Protocol handshake completed successfully",
        Era::Modern => "Stateless discovery completed (server/discover)",
    };
    // Members whose value the server did not send are left out (as JSON.stringify drops
    // `undefined`), so a report shows what was really received.
    let mut actual = Map::new();
    if let Some(n) = hello.server_info.get("name") {
        actual.insert("serverName".into(), n.clone());
    }
    if let Some(v) = hello.server_info.get("version") {
        actual.insert("serverVersion".into(), v.clone());
    }
    actual.insert(
        "protocolVersion".into(),
        Value::String(hello.protocol_version.clone()),
    );
    // The original's quirk: a pass carrying severity `error` (checks-core.md §3.1).
    Finding::pass(ID_HANDSHAKE, message)
        .severity(Severity::Error)
        .actual(Value::Object(actual))
}

fn protocol_version(v: &str) -> Finding {
    if v.is_empty() || v == "unknown" {
        return Finding::fail(
            ID_PROTOCOL_VERSION,
            "Server did not negotiate a protocol version",
        )
        .expected("A valid protocol version string")
        .actual(v);
    }
    let usual = v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if !usual {
        return Finding::warn(
            ID_PROTOCOL_VERSION,
            format!("Protocol version has unusual format: {v}"),
        )
        .expected("Version string like \"2025-11-25\" or \"1.0.0\"")
        .actual(v);
    }
    Finding::pass(
        ID_PROTOCOL_VERSION,
        format!("Negotiated protocol version: {v}"),
    )
    .actual(v)
}

/// Why a `serverInfo` member does not count as provided, or `None` when it is a non-blank
/// string. A non-string value is reported as not provided, naming its type.
fn blank_reason(v: Option<&Value>) -> Option<String> {
    match v {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) if is_blank(s) => Some(String::new()),
        Some(Value::String(_)) => None,
        Some(other) => Some(format!(" (it is a {}, not a string)", js_type(other))),
    }
}

fn server_info(hello: &ServerHello) -> Finding {
    let info = &hello.server_info;
    // A modern server's serverInfo is only a SHOULD (protocol-2026-07-28.md §12.1).
    if hello.era == Era::Modern && info.is_null() {
        return Finding::warn(
            ID_SERVER_INFO,
            "Server did not identify itself (io.modelcontextprotocol/serverInfo missing)",
        )
        .expected("Non-empty server name");
    }
    let name = info.get("name");
    let version = info.get("version");
    if let Some(why) = blank_reason(name) {
        let mut f = Finding::fail(
            ID_SERVER_INFO,
            format!("Server did not provide a name{why}"),
        )
        .expected("Non-empty server name");
        f.actual = name.cloned();
        return f;
    }
    if let Some(why) = blank_reason(version) {
        let mut f = Finding::warn(
            ID_SERVER_INFO,
            format!("Server did not provide a version{why}"),
        )
        .expected("Non-empty server version");
        f.actual = version.cloned();
        return f;
    }
    let n = name.and_then(Value::as_str).unwrap_or_default();
    let v = version.and_then(Value::as_str).unwrap_or_default();
    Finding::pass(ID_SERVER_INFO, format!("Server: {n} v{v}"))
        .actual(serde_json::json!({ "name": n, "version": v }))
}

fn capabilities(caps: &Value) -> Finding {
    // Arrays are rejected too: a JSON array is not a capabilities object.
    let Some(obj) = caps.as_object() else {
        return Finding::fail(ID_CAPABILITIES, "Server did not declare capabilities")
            .expected("Capabilities object")
            .actual(caps.clone());
    };
    let keys: Vec<&str> = obj
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, _)| k.as_str())
        .collect();
    let list = if keys.is_empty() {
        "none".to_string()
    } else {
        keys.join(", ")
    };
    Finding::pass(
        ID_CAPABILITIES,
        format!("Server declares capabilities: {list}"),
    )
    .actual(caps.clone())
}

fn ping_result(hello: &ServerHello, ping: Option<&Result<(), RpcError>>) -> Finding {
    match ping {
        None => {
            let message = match hello.era {
                Era::Modern => format!(
                    "ping is not part of protocol {} (ping was removed in 2026-07-28); liveness \
                     is shown by server/discover",
                    hello.protocol_version
                ),
                Era::Legacy => "ping was not sent".to_string(),
            };
            Finding::skip(ID_PING, message)
        }
        Some(Ok(())) => Finding::pass(ID_PING, "Server responds to ping"),
        Some(Err(e)) => {
            // RpcError's Display renders `MCP error <code>: <message>` and marks errors that
            // mcpward raised itself (DECISIONS #37).
            let text = e.to_string();
            Finding::fail(ID_PING, format!("Server failed to respond to ping: {text}"))
                .expected("Successful ping response")
                .actual(text)
        }
    }
}

fn expected(e: &str, v: &str) -> Finding {
    if e == v {
        Finding::pass(
            ID_EXPECTED,
            format!("Protocol version matches expected: {e}"),
        )
    } else {
        Finding::fail(ID_EXPECTED, "Protocol version mismatch")
    }
    .expected(e)
    .actual(v)
}

#[cfg(test)]
mod tests {
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
}
