//! The stateful era (2024-11-05 … 2025-11-25): the `initialize` handshake. After it, normal
//! requests go out unchanged; HTTP carries the negotiated `MCP-Protocol-Version` and the
//! session the server issued.

use super::conn::{Conn, UNBOUNDED};
use crate::observed::{Era, ServerHello};
use crate::protocol::versions::LEGACY_VERSIONS;
use crate::surface::text::truncate;
use serde_json::{json, Value};

/// `initialize` offering `offer`, then `notifications/initialized`.
pub async fn handshake(conn: &Conn, offer: &str) -> Result<ServerHello, String> {
    let params = json!({
        "protocolVersion": offer,
        "capabilities": {},
        "clientInfo": {"name": "mcpward", "version": crate::VERSION},
    });
    let result = conn
        .request_raw("initialize", Some(params), Vec::new(), UNBOUNDED, None)
        .await
        .1
        .map_err(|e| format!("initialize failed: {e}"))?;
    let Value::Object(obj) = result else {
        return Err(format!(
            "initialize result is not an object: {}",
            short(&result)
        ));
    };
    let version = match obj.get("protocolVersion") {
        Some(Value::String(v)) => v.clone(),
        other => {
            return Err(format!(
                "initialize result has no protocolVersion string (got {})",
                other.map(short).unwrap_or_else(|| "nothing".into())
            ))
        }
    };
    if !LEGACY_VERSIONS.contains(&version.as_str()) {
        return Err(format!(
            "Server's protocol version is not supported: {version}"
        ));
    }
    if let Some(w) = conn.http() {
        w.set_protocol_version(&version);
    }
    conn.notify("notifications/initialized", None)
        .await
        .map_err(|e| format!("notifications/initialized failed: {e}"))?;
    if let Some(w) = conn.http() {
        w.open_event_stream();
    }
    Ok(ServerHello {
        era: Era::Legacy,
        protocol_version: version,
        server_info: obj.get("serverInfo").cloned().unwrap_or(Value::Null),
        capabilities: obj.get("capabilities").cloned().unwrap_or(Value::Null),
        instructions: obj.get("instructions").cloned(),
        supported_versions: Vec::new(),
        discover: None,
    })
}

fn short(v: &Value) -> String {
    truncate(&v.to_string(), 200)
}
