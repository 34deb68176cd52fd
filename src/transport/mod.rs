//! The MCP client: one interface (connect, list, call, ping, close) over two wires (stdio,
//! Streamable HTTP) and two protocol eras. Checks only ever see the types in this file.

use serde_json::Value;
use std::fmt;

/// Protocol versions of the stateful era we accept, newest first. The first is offered.
pub const LEGACY_VERSIONS: &[&str] = &[
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "2024-10-07",
];

/// Which handshake family the connection used. Data for reports and the lockfile only;
/// no check branches on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize` handshake, sessions (2024-11-05 … 2025-11-25).
    Legacy,
    /// Stateless 2026-07-28 revision: `server/discover`, `_meta` on every request.
    Modern,
}

impl Era {
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }
}

/// What the connection learned about the server, as the server sent it. Raw values are
/// kept (DECISIONS #5): a malformed `serverInfo` is a compliance finding, not a crash.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerHello {
    pub era: Era,
    /// The negotiated (legacy) or chosen (modern) protocol version.
    pub protocol_version: String,
    /// `serverInfo` as received; `Value::Null` when absent.
    pub server_info: Value,
    /// `capabilities` as received; `Value::Null` when absent.
    pub capabilities: Value,
    pub instructions: Option<Value>,
    /// Versions the server said it supports (modern discover); empty for legacy.
    pub supported_versions: Vec<String>,
    /// The raw `server/discover` result (modern era); `None` for legacy, or when the
    /// server does not implement discover.
    pub discover: Option<Value>,
}

impl ServerHello {
    pub fn server_name(&self) -> String {
        self.server_info
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }
    pub fn server_version(&self) -> String {
        self.server_info
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }
}

/// The failure of one request. `code` is present for JSON-RPC error responses and for the
/// codes the client synthesises itself (-32000 closed, -32001 timed out, output-schema
/// rejections); `local` marks the latter so messages never blame the server (DECISIONS #37).
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: Option<i64>,
    pub message: String,
    pub data: Option<Value>,
    pub local: bool,
}

impl RpcError {
    pub fn protocol(code: i64, message: impl Into<String>, data: Option<Value>) -> Self {
        RpcError {
            code: Some(code),
            message: message.into(),
            data,
            local: false,
        }
    }
    /// An error with no JSON-RPC code: our own timeout, a transport failure, a bad result.
    pub fn plain(message: impl Into<String>) -> Self {
        RpcError {
            code: None,
            message: message.into(),
            data: None,
            local: true,
        }
    }
    pub fn closed() -> Self {
        RpcError {
            code: Some(-32000),
            message: "Connection closed".into(),
            data: None,
            local: true,
        }
    }
    pub fn request_timeout() -> Self {
        RpcError {
            code: Some(-32001),
            message: "Request timed out".into(),
            data: None,
            local: true,
        }
    }
    pub fn not_connected() -> Self {
        Self::plain("Not connected")
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.code, self.local) {
            (Some(c), false) => write!(f, "MCP error {c}: {}", self.message),
            (Some(c), true) => write!(
                f,
                "MCP error {c}: {} (raised locally by mcpward, not sent by the server)",
                self.message
            ),
            (None, _) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RpcError {}

/// The outcome of `tools/call`: the raw result object (including `isError: true` results)
/// or the error.
pub type CallOutcome = Result<Value, RpcError>;

/// The outcome of a complete `tools/list` (every page): the raw tool objects in listing
/// order, duplicates kept, or the error text.
pub type Listing = Result<Vec<Value>, String>;

/// A listing whose tools are still their JSON text (`Client::list_tools_text`).
pub type TextListing = Result<Vec<Box<serde_json::value::RawValue>>, String>;

pub mod client;
pub mod http;
pub mod modern;
pub mod procs;
pub mod rpc;
pub mod sse;
pub mod stdio;

pub use client::{Client, ConnectError, ConnectOptions, Endpoint, EraChoice};
pub use modern::{ModernObservations, ProbeRecord};
