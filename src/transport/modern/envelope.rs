//! How a normal request is shaped in the 2026-07-28 era: the `_meta` envelope in its
//! params and, over HTTP, the modern headers (with `Mcp-Param-*` from the tool's
//! remembered schema). Deliberate probes bypass this (`Client::raw_request`).

use super::state::ModernState;
use crate::protocol::envelope::{envelope, with_envelope};
use crate::protocol::headers::modern_headers;
use crate::transport::http::ExtraHeaders;
use crate::transport::rpc::request_message;
use serde_json::Value;

/// The message and HTTP headers of request `id`.
pub fn shape(
    state: &ModernState,
    http: bool,
    id: u64,
    method: &str,
    params: Option<Value>,
) -> (Value, ExtraHeaders) {
    let version = &state.version;
    let params = with_envelope(params, &envelope(version));
    let headers = if http {
        let schema = match method {
            "tools/call" => params
                .get("name")
                .and_then(Value::as_str)
                .and_then(|n| state.schema_of(n)),
            _ => None,
        };
        modern_headers(version, method, &params, schema.as_ref())
    } else {
        Vec::new()
    };
    (request_message(id, method, Some(params)), headers)
}
