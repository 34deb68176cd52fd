//! What the server said, as checks and the surface read it: the handshake (`ServerHello`),
//! listings, call outcomes, errors, deliberate probe records and the chatter recorded over
//! the whole run, plus the raw request a check may ask the wire to send. The lowest layer
//! of the talk with a server: it imports nothing from `transport`, `checks` or `config`, so
//! checks never depend on the client that produced the data.

use serde_json::Value;
use std::fmt;
use std::time::Duration;

/// Which handshake family the connection used. The compliance family branches on it (the
/// 2026-07-28 rules and probes exist only in the modern era); reports and the lockfile
/// record it.
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
    /// Before (or without) a handshake: legacy era, nothing known yet.
    pub fn empty() -> Self {
        ServerHello {
            era: Era::Legacy,
            protocol_version: String::new(),
            server_info: Value::Null,
            capabilities: Value::Null,
            instructions: None,
            supported_versions: Vec::new(),
            discover: None,
        }
    }

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

/// What the server sent besides responses: kept for diagnostics and compliance checks.
#[derive(Debug, Default, Clone)]
pub struct Chatter {
    pub notifications: Vec<Value>,
    pub server_requests: Vec<Value>,
    /// Lines on stdout that were not JSON-RPC messages (first few, truncated).
    pub stray: Vec<String>,
    pub stray_count: usize,
    /// Modern HTTP: JSON-RPC error bodies whose `id` was missing or `null` (adopted by the
    /// POST they answered; recorded for `compliance/server-messages`).
    pub orphan_errors: Vec<Value>,
    /// Messages that claimed to answer a request but were not valid JSON-RPC 2.0
    /// (`compliance/jsonrpc-framing`).
    pub framing: Framing,
    /// Approximate bytes held by the recorded values above; recording stops at
    /// [`CHATTER_BYTES`] whatever the counts (#12 §2).
    pub recorded_bytes: usize,
    /// What a limit cut or discarded, in the order it happened, once per limit, each as
    /// `<limit>\0<sentence naming the limit>`; reported by `compliance/limits` (see
    /// [`Chatter::cut_messages`]).
    pub cuts: Vec<String>,
}

impl Chatter {
    /// The sentences of `cuts`, without their tags.
    pub fn cut_messages(&self) -> Vec<String> {
        self.cuts
            .iter()
            .map(|c| {
                c.split_once('\0')
                    .map_or(c.as_str(), |(_, m)| m)
                    .to_string()
            })
            .collect()
    }
}

/// Byte bound on recorded chatter (notifications, server requests, stray lines, orphan
/// errors together).
pub const CHATTER_BYTES: usize = 1024 * 1024;

/// How much the server may make mcpward hold or wait for (#12 §2), from the config's
/// `limits` section. Every limit reached is reported, never silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest server message kept: a stdio line, an HTTP body, an SSE event.
    pub message_bytes: usize,
    /// Tools kept from a listing (all pages); the rest is cut and reported.
    pub tools: usize,
    /// How often progress notifications may restart one request's timer, so `call_ms` ×
    /// (1 + this) is the longest a request can take.
    pub progress_resets: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            message_bytes: 16 * 1024 * 1024,
            tools: 10_000,
            progress_resets: 10,
        }
    }
}

/// A byte count as the limit messages show it (`16 MiB`, `512 KiB`, `100 bytes`).
pub fn show_bytes(n: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if n >= MIB && n % MIB == 0 {
        format!("{} MiB", n / MIB)
    } else if n >= 1024 && n % 1024 == 0 {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Invalid JSON-RPC 2.0 messages seen during the run (#12 §1): never taken as an answer.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Framing {
    /// How many invalid messages arrived.
    pub count: usize,
    /// Requests that failed because the message claiming to answer them was invalid.
    pub failed_requests: usize,
    /// The first invalid message.
    pub first: Option<FramingFault>,
}

/// One invalid message: what is wrong with it and its text. The text is kept up to
/// [`FRAMING_KEEP`] bytes; it is redacted and then cut for display, never cut first.
#[derive(Debug, Clone, PartialEq)]
pub struct FramingFault {
    pub fault: String,
    pub text: String,
}

/// How much of the first invalid message is kept (far more than any report shows, so a
/// secret cut at this bound is never displayed).
pub const FRAMING_KEEP: usize = 4096;

/// One request a check wants sent exactly as written (a deliberate compliance probe): no
/// era envelope or header is added or changed.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRequest {
    pub method: String,
    pub params: Value,
    /// HTTP headers sent with the POST, exactly these (ignored on stdio).
    pub headers: Vec<(String, String)>,
    /// How long to wait for the answer; `None`: the protocol-layer limit.
    pub wait: Option<Duration>,
    /// The error text when `wait` runs out (`None`: the protocol-layer -32001 error).
    pub timeout_msg: Option<String>,
    /// Also keep the first notification whose value at this JSON pointer is the request's id
    /// (e.g. a subscription acknowledgment).
    pub tagged_by: Option<String>,
}

/// A bare HTTP request on the endpoint, without a body (`Client::raw_verb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpVerb {
    Get,
    Delete,
}

/// One deliberate request and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeRecord {
    /// HTTP status of the answer (HTTP only; `None` on stdio or without an HTTP answer).
    pub status: Option<u16>,
    pub outcome: Result<Value, RpcError>,
    /// The first notification tagged with the request's id (`RawRequest::tagged_by`).
    pub tagged: Option<Value>,
}

impl ProbeRecord {
    /// A record without HTTP status or tagged notification.
    pub fn new(status: Option<u16>, outcome: Result<Value, RpcError>) -> Self {
        ProbeRecord {
            status,
            outcome,
            tagged: None,
        }
    }
}

/// How the connect-time `server/discover` was answered (modern era), for the compliance
/// judgement of a server without discover.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DiscoverAnswer {
    /// HTTP status of the answer (HTTP only).
    pub status: Option<u16>,
    /// The error it got (e.g. 404 + -32601); `None` when it returned a result.
    pub error: Option<RpcError>,
}

/// What a model reads of a server besides its tools (#14): every page of `prompts/list`,
/// `resources/list` and `resources/templates/list`, each raw item in listing order. A list
/// is `None` when the server did not declare the capability (it was not asked), `Some(Err)`
/// when asking failed. The server's instructions are [`ServerHello::instructions`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OtherSurface {
    pub prompts: Option<Listing>,
    pub resources: Option<Listing>,
    pub resource_templates: Option<Listing>,
}

/// The three lists of [`OtherSurface`]: method, result member, capability that declares it.
pub const OTHER_LISTS: [(&str, &str, &str); 3] = [
    ("prompts/list", "prompts", "prompts"),
    ("resources/list", "resources", "resources"),
    ("resources/templates/list", "resourceTemplates", "resources"),
];

/// What the OAuth flow and the auth posture probes saw of an HTTP server (#17), for the
/// `auth` family. Collected only when `server.auth` is configured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuthObservation {
    /// The server URL as configured (the resource the token is for).
    pub server_url: String,
    /// An OAuth grant is configured (not a static bearer token): only then are the challenge
    /// and the metadata judged.
    pub grant: bool,
    /// The answer to the first request, sent without a token: its HTTP status and its
    /// `WWW-Authenticate` value (`None`: the header was absent).
    pub first: Option<(u16, Option<String>)>,
    /// Protected Resource Metadata discovery (OAuth grants only).
    pub resource_metadata: Option<MetadataFetch>,
    /// Authorization server metadata discovery (only once a PRM named a server).
    pub server_metadata: Option<MetadataFetch>,
    /// `tools/list` sent without any token, after the run's own connection was set up.
    pub without_token: Option<AuthProbe>,
    /// `tools/list` sent with a well-formed token the server never issued.
    pub wrong_token: Option<AuthProbe>,
}

/// One metadata discovery: each URL tried with what came back, and the document accepted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetadataFetch {
    /// `(url, outcome)` in the order tried; the outcome is `ok` or why it was not used.
    pub tried: Vec<(String, String)>,
    /// The JSON object accepted, if any.
    pub document: Option<Value>,
}

/// The answer to one posture probe.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuthProbe {
    /// HTTP status; `None` when no HTTP answer came (the error says why).
    pub status: Option<u16>,
    /// The server returned a JSON-RPC result (it served the request).
    pub served: bool,
    pub error: Option<String>,
}
/// `http/origin-validation` (#17): how an HTTP server answered its handshake request sent
/// as a DNS-rebinding page would send it (a foreign `Host` and `Origin`) and with its own
/// origin (`Client::origin_probe`).
#[derive(Debug, Clone, PartialEq)]
pub enum OriginProbe {
    /// The URL's host is neither a loopback nor a private address, so nothing was sent:
    /// the host as the URL names it.
    NotLocal { host: String },
    Probed {
        /// The request sent each time: `initialize` (legacy) or `server/discover` (modern).
        method: String,
        /// `Origin` (and, without the scheme, `Host`) of the foreign request.
        foreign_origin: String,
        /// The server's own origin, sent as `Origin` of the second request.
        own_origin: String,
        foreign: OriginAnswer,
        own: OriginAnswer,
    },
}

/// One probe request's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct OriginAnswer {
    /// The HTTP status; `None` when there was no HTTP answer (see `error`).
    pub status: Option<u16>,
    pub body: OriginBody,
    /// Why there was no (complete) answer: a transport error or the time bound, redacted.
    pub error: Option<String>,
}

/// What an answer's body held for the probe request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OriginBody {
    /// A JSON-RPC response with a `result` for the request (JSON or an SSE event).
    Result,
    /// A JSON-RPC error response.
    Error,
    /// Nothing of the kind: empty, not JSON-RPC, or cut.
    Other,
}
