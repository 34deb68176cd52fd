//! Compliance family (checks-core.md §3): judges the handshake data, one `ping` and, in the
//! 2026-07-28 era, the records of the deliberate probes `plan` asks for (`modern` judges
//! them).
//!
//! Pure: the runner sends the ping and executes the probe plan, and hands us what came back.
//! Emission order is fixed: handshake, protocol-version, server-info, capabilities, ping,
//! the modern rules (modern era only), expected-protocol-version.

use crate::model::{Finding, Severity};
use crate::observed::{Chatter, Era, Framing, RpcError, ServerHello};
use serde_json::{Map, Value};

use crate::surface::json::js_type;
use crate::surface::text::{is_blank, truncate};

pub mod config;
pub mod modern;
pub mod plan;
pub mod rules;
pub mod served;
pub mod stable;
pub use config::ComplianceConfig;
pub use rules::RULES;

#[cfg(test)]
const ID_HANDSHAKE: &str = rules::HANDSHAKE.id;
#[cfg(test)]
const ID_PROTOCOL_VERSION: &str = rules::PROTOCOL_VERSION.id;
#[cfg(test)]
const ID_SERVER_INFO: &str = rules::SERVER_INFO.id;
#[cfg(test)]
const ID_CAPABILITIES: &str = rules::CAPABILITIES.id;
#[cfg(test)]
const ID_PING: &str = rules::PING.id;
#[cfg(test)]
const ID_EXPECTED: &str = rules::EXPECTED_PROTOCOL_VERSION.id;

/// `ping`: `None` means it was not sent (the modern era has no ping). `expected_version`:
/// `expect.protocol_version`; absent or empty means no expected-protocol-version result.
/// Without modern records: see [`judge`].
pub fn check(
    hello: &ServerHello,
    ping: Option<&Result<(), RpcError>>,
    expected_version: Option<&str>,
) -> Vec<Finding> {
    judge(hello, ping, None, expected_version)
}

/// Every compliance result in order. `modern`: the records of the modern probe plan
/// ([`plan::plan`]; `None` in the legacy era), judged after ping and before the expected
/// version.
pub fn judge(
    hello: &ServerHello,
    ping: Option<&Result<(), RpcError>>,
    modern: Option<&plan::ModernRecords>,
    expected_version: Option<&str>,
) -> Vec<Finding> {
    let mut out = vec![
        handshake(hello),
        protocol_version(&hello.protocol_version),
        server_info(hello),
        capabilities(&hello.capabilities),
        ping_result(hello, ping),
    ];
    if let Some(records) = modern {
        out.extend(modern::check(hello, records));
    }
    if let Some(e) = expected_version.filter(|e| !e.is_empty()) {
        out.push(expected(e, &hello.protocol_version));
    }
    out
}

/// The run-level results, emitted last (DECISIONS #36): `compliance/jsonrpc-framing` in
/// both eras when the server sent an invalid JSON-RPC message (its text already redacted
/// by the caller), then in the modern era `compliance/server-messages` over everything the
/// server sent during the whole run (`input_requests`: the `inputRequests` it asked for).
pub fn run_level(hello: &ServerHello, chatter: &Chatter, input_requests: &[Value]) -> Vec<Finding> {
    let mut out: Vec<Finding> = jsonrpc_framing(&chatter.framing).into_iter().collect();
    if hello.era == Era::Modern {
        out.push(modern::server_messages(chatter, input_requests));
    }
    out.extend(limits(chatter));
    out
}

/// How much of the first invalid message a finding shows.
const FRAMING_SHOWN: usize = 200;

/// `compliance/jsonrpc-framing` (#12 §1); `None` when every message was valid.
/// `compliance/era-lane`: the lane of `era` could not connect (`why`), so it was skipped.
pub fn era_lane_skipped(era: &str, why: &str) -> Finding {
    rules::ERA_LANE.skip(format!("The {era} protocol era was not tested: {why}"))
}

pub fn jsonrpc_framing(f: &Framing) -> Option<Finding> {
    if f.count == 0 {
        return None;
    }
    let first = f
        .first
        .as_ref()
        .map(|m| format!(" First: {} — {}", m.fault, truncate(&m.text, FRAMING_SHOWN)))
        .unwrap_or_default();
    let n = f.count;
    let messages = if n == 1 { "message" } else { "messages" };
    let finding = if f.failed_requests > 0 {
        let r = f.failed_requests;
        let requests = if r == 1 {
            "request was"
        } else {
            "requests were"
        };
        rules::JSONRPC_FRAMING.fail(format!(
            "Server sent {n} invalid JSON-RPC 2.0 {messages}; {r} {requests} answered only by \
             an invalid message and failed.{first}"
        ))
    } else {
        rules::JSONRPC_FRAMING.warn(format!(
            "Server sent {n} invalid JSON-RPC 2.0 {messages}; every request still got a valid \
             answer.{first}"
        ))
    };
    Some(
        finding
            .expected(
                "\"jsonrpc\": \"2.0\", the request's id unchanged in type and value, exactly one \
                 of result / error (error: integer code, string message)",
            )
            .actual(serde_json::json!({"invalidMessages": n, "failedRequests": f.failed_requests})),
    )
}

/// `compliance/limits`: present only when a limit cut or discarded something (#12 §2).
pub fn limits(chatter: &Chatter) -> Option<Finding> {
    let cuts = chatter.cut_messages();
    let first = cuts.first()?;
    let mut message = format!("Limit reached: {first}");
    if cuts.len() > 1 {
        message.push_str(&format!(" (and {} more)", cuts.len() - 1));
    }
    Some(
        rules::LIMITS
            .warn(message)
            .actual(Value::Array(cuts.into_iter().map(Value::String).collect())),
    )
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
    rules::HANDSHAKE
        .pass(message)
        .severity(Severity::Error)
        .actual(Value::Object(actual))
}

fn protocol_version(v: &str) -> Finding {
    if v.is_empty() || v == "unknown" {
        return rules::PROTOCOL_VERSION
            .fail("Server did not negotiate a protocol version")
            .expected("A valid protocol version string")
            .actual(v);
    }
    let usual = v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if !usual {
        return rules::PROTOCOL_VERSION
            .warn(format!("Protocol version has unusual format: {v}"))
            .expected("Version string like \"2025-11-25\" or \"1.0.0\"")
            .actual(v);
    }
    rules::PROTOCOL_VERSION
        .pass(format!("Negotiated protocol version: {v}"))
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
        return rules::SERVER_INFO
            .warn("Server did not identify itself (io.modelcontextprotocol/serverInfo missing)")
            .expected("Non-empty server name");
    }
    let name = info.get("name");
    let version = info.get("version");
    if let Some(why) = blank_reason(name) {
        let mut f = rules::SERVER_INFO
            .fail(format!("Server did not provide a name{why}"))
            .expected("Non-empty server name");
        f.actual = name.cloned();
        return f;
    }
    if let Some(why) = blank_reason(version) {
        let mut f = rules::SERVER_INFO
            .warn(format!("Server did not provide a version{why}"))
            .expected("Non-empty server version");
        f.actual = version.cloned();
        return f;
    }
    let n = name.and_then(Value::as_str).unwrap_or_default();
    let v = version.and_then(Value::as_str).unwrap_or_default();
    rules::SERVER_INFO
        .pass(format!("Server: {n} v{v}"))
        .actual(serde_json::json!({ "name": n, "version": v }))
}

fn capabilities(caps: &Value) -> Finding {
    // Arrays are rejected too: a JSON array is not a capabilities object.
    let Some(obj) = caps.as_object() else {
        return rules::CAPABILITIES
            .fail("Server did not declare capabilities")
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
    rules::CAPABILITIES
        .pass(format!("Server declares capabilities: {list}"))
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
            rules::PING.skip(message)
        }
        Some(Ok(())) => rules::PING.pass("Server responds to ping"),
        Some(Err(e)) => {
            // RpcError's Display renders `MCP error <code>: <message>` and marks errors that
            // mcpward raised itself (DECISIONS #37).
            let text = e.to_string();
            rules::PING
                .fail(format!("Server failed to respond to ping: {text}"))
                .expected("Successful ping response")
                .actual(text)
        }
    }
}

fn expected(e: &str, v: &str) -> Finding {
    if e == v {
        rules::EXPECTED_PROTOCOL_VERSION.pass(format!("Protocol version matches expected: {e}"))
    } else {
        rules::EXPECTED_PROTOCOL_VERSION.fail("Protocol version mismatch")
    }
    .expected(e)
    .actual(v)
}

/// No live server to ask (`--from FILE`, #16 §2): the family is one skip saying so.
pub fn offline(source: &str) -> Finding {
    rules::HANDSHAKE.skip(format!(
        "Not run on an offline snapshot ({source}): the compliance checks talk to a live server"
    ))
}

#[cfg(test)]
mod tests;
