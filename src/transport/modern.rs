//! The stateless 2026-07-28 protocol era (protocol-2026-07-28.md) as a strategy behind the
//! one client interface: era selection (`server/discover` probe, classification, fallback),
//! the per-request `_meta` envelope, the modern HTTP headers, `resultType` / MRTR handling,
//! and the deliberate compliance probes of §12. The pure parts (classification, envelope,
//! header encoding, `x-mcp-header` rules) are free functions so they are tested without a
//! server.

use super::client::{Client, EraChoice, Wire, PROTOCOL_TIMEOUT};
use super::http::{Exchange, ExtraHeaders};
use super::rpc::{request_message, truncate};
use super::{Era, RpcError, ServerHello, LEGACY_VERSIONS};
use base64::Engine as _;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// Modern versions mcpward implements, newest first. The first is sent in the envelope.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

pub const CODE_HEADER_MISMATCH: i64 = -32020;
pub const CODE_MISSING_CAPABILITY: i64 = -32021;
pub const CODE_UNSUPPORTED_VERSION: i64 = -32022;

/// The version the compliance probes deliberately send (§12.2).
pub const PROBE_VERSION: &str = "1900-01-01";
/// MRTR: attempts in total for one `tools/call` (§10.3).
pub const MAX_MRTR_ATTEMPTS: usize = 5;
/// Bound on recursion into hostile schemas.
const MAX_DEPTH: usize = 64;

// ---------------------------------------------------------------------------------------
// Envelope and headers (§4, §7)
// ---------------------------------------------------------------------------------------

/// The `_meta` envelope mcpward puts on every modern request.
pub fn envelope(version: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(META_PROTOCOL_VERSION.into(), Value::String(version.into()));
    m.insert(META_CLIENT_CAPABILITIES.into(), Value::Object(Map::new()));
    let mut info = Map::new();
    info.insert("name".into(), Value::String("mcpward".into()));
    info.insert("version".into(), Value::String(crate::VERSION.into()));
    m.insert(META_CLIENT_INFO.into(), Value::Object(info));
    m
}

/// `params` with the envelope merged into `params._meta` (appended last, keeping other
/// `_meta` keys such as `progressToken`). No params ⇒ `{_meta}`.
pub fn with_envelope(params: Option<Value>, meta: &Map<String, Value>) -> Value {
    let mut obj = match params {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let entry = obj
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    if let Value::Object(m) = entry {
        for (k, v) in meta {
            m.insert(k.clone(), v.clone());
        }
    }
    Value::Object(obj)
}

/// §7.2: plain when every character is printable ASCII, no leading/trailing space and not
/// sentinel-shaped; otherwise `=?base64?<standard Base64 of UTF-8>?=`.
pub fn encode_header_value(s: &str) -> String {
    let printable = s.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = s.starts_with(' ') || s.ends_with(' ');
    let sentinel = s.starts_with("=?base64?") && s.ends_with("?=");
    if printable && !padded && !sentinel {
        s.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(s.as_bytes())
        )
    }
}

/// Text of an argument for a header: string as-is, integer in decimal, boolean;
/// anything else (null, fractional numbers, objects) sends no header.
pub fn header_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(i.to_string())
            } else if let Some(u) = n.as_u64() {
                Some(u.to_string())
            } else {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0)
                    .map(|f| (f as i64).to_string())
            }
        }
        _ => None,
    }
}

/// The headers of one modern POST (§7.1). `input_schema` is the tool's remembered schema
/// (for `Mcp-Param-*` on `tools/call`).
pub fn modern_headers(
    version: &str,
    method: &str,
    params: &Value,
    input_schema: Option<&Value>,
) -> ExtraHeaders {
    let mut h: ExtraHeaders = vec![
        ("MCP-Protocol-Version".into(), version.into()),
        ("Mcp-Method".into(), method.into()),
    ];
    let name = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        _ => None,
    };
    if let Some(text) = name.and_then(header_text) {
        h.push(("Mcp-Name".into(), encode_header_value(&text)));
    }
    if method == "tools/call" {
        if let Some(schema) = input_schema {
            let args = params.get("arguments");
            for (path, header) in x_mcp_header_params(schema) {
                let mut v = args;
                for key in &path {
                    v = v.and_then(|a| a.get(key));
                }
                if let Some(text) = v.and_then(header_text) {
                    h.push((format!("Mcp-Param-{header}"), encode_header_value(&text)));
                }
            }
        }
    }
    h
}

// ---------------------------------------------------------------------------------------
// x-mcp-header annotations (§7.3)
// ---------------------------------------------------------------------------------------

const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
const ONE_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
const LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

struct Annotation<'a> {
    location: String,
    /// Reachable from the root through `properties` keys alone.
    placed: bool,
    value: &'a Value,
    schema: &'a Value,
}

fn collect<'a>(
    node: &'a Value,
    location: String,
    chain: bool,
    is_prop: bool,
    depth: usize,
    out: &mut Vec<Annotation<'a>>,
) {
    let Value::Object(obj) = node else { return };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(v) = obj.get("x-mcp-header") {
        out.push(Annotation {
            location: location.clone(),
            placed: chain && is_prop,
            value: v,
            schema: node,
        });
    }
    for kw in MAP_KEYWORDS {
        if let Some(Value::Object(m)) = obj.get(*kw) {
            for (k, sub) in m {
                let via_props = *kw == "properties";
                collect(
                    sub,
                    format!("{location}/{kw}/{k}"),
                    chain && via_props,
                    via_props,
                    depth + 1,
                    out,
                );
            }
        }
    }
    for kw in ONE_KEYWORDS {
        if let Some(sub @ Value::Object(_)) = obj.get(*kw) {
            collect(
                sub,
                format!("{location}/{kw}"),
                false,
                false,
                depth + 1,
                out,
            );
        }
    }
    for kw in LIST_KEYWORDS {
        if let Some(Value::Array(items)) = obj.get(*kw) {
            for (i, sub) in items.iter().enumerate() {
                collect(
                    sub,
                    format!("{location}/{kw}/{i}"),
                    false,
                    false,
                    depth + 1,
                    out,
                );
            }
        }
    }
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn header_type_ok(schema: &Value) -> bool {
    let ok = |t: &str| matches!(t, "string" | "integer" | "boolean");
    match schema.get("type") {
        Some(Value::String(t)) => ok(t),
        Some(Value::Array(ts)) => {
            let named: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            named.len() == ts.len()
                && named.iter().any(|t| ok(t))
                && named.iter().all(|t| ok(t) || *t == "null")
        }
        _ => false,
    }
}

/// The first broken §7.3 constraint of a tool's `inputSchema`, or `None` when every
/// `x-mcp-header` annotation is valid (or there is none).
pub fn x_mcp_header_problem(input_schema: &Value) -> Option<String> {
    let mut found = Vec::new();
    collect(input_schema, "#".into(), true, false, 0, &mut found);
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for a in &found {
        let at = &a.location;
        if !a.placed {
            return Some(format!(
                "x-mcp-header at {at} is not on a property reachable from the root through \"properties\" alone"
            ));
        }
        let Some(name) = a.value.as_str() else {
            return Some(format!("x-mcp-header at {at} is not a string"));
        };
        if !is_token(name) {
            return Some(format!(
                "x-mcp-header \"{}\" at {at} is not a non-empty HTTP token",
                name.escape_default()
            ));
        }
        if !header_type_ok(a.schema) {
            return Some(format!(
                "x-mcp-header \"{name}\" at {at} is on a property whose type is not string, integer or boolean"
            ));
        }
        if let Some(first) = seen.insert(name.to_ascii_lowercase(), at.clone()) {
            return Some(format!(
                "x-mcp-header \"{name}\" at {at} repeats the name used at {first} (names compare case-insensitively)"
            ));
        }
    }
    None
}

/// `(property path from the arguments root, header name)` for every well-placed string
/// annotation, in schema order.
pub fn x_mcp_header_params(input_schema: &Value) -> Vec<(Vec<String>, String)> {
    fn walk(node: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        if path.len() > MAX_DEPTH {
            return;
        }
        let Some(Value::Object(props)) = node.get("properties") else {
            return;
        };
        for (k, sub) in props {
            path.push(k.clone());
            if let Some(h) = sub.get("x-mcp-header").and_then(Value::as_str) {
                out.push((path.clone(), h.to_string()));
            }
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(input_schema, &mut Vec::new(), &mut out);
    out
}

// ---------------------------------------------------------------------------------------
// Era classification (§3.2, §3.3, §3.4, §11)
// ---------------------------------------------------------------------------------------

/// What the stdio probe got.
#[derive(Debug, Clone, PartialEq)]
pub enum StdioProbe {
    Answered(Result<Value, RpcError>),
    /// No answer within `connect_ms`.
    Silent,
}

/// The verdict on a `server/discover` answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A result with a `supportedVersions` array.
    Modern(Value),
    /// `-32022` (or an error shaped like it): the versions the server listed.
    UnsupportedVersion(Vec<String>),
    /// `-32020` / `-32021`: a modern server rejected mcpward's request; no fallback.
    Rejected(String),
    /// HTTP 404 + `-32601`: modern server without `server/discover`.
    ModernWithoutDiscover(RpcError),
    /// Legacy evidence; the text says what the server answered.
    Legacy(String),
    /// stdio: silence or exit before answering; fall back on a fresh process.
    Respawn(String),
    /// Neither era: connection error.
    Fatal(String),
}

/// What a probe answer looked like, for messages.
pub fn describe_outcome(outcome: &Result<Value, RpcError>) -> String {
    match outcome {
        Ok(v) if v.get("supportedVersions").is_some() => format!(
            "a result whose supportedVersions is not an array: {}",
            truncate(&v.to_string(), 200)
        ),
        Ok(v) => format!(
            "a result without supportedVersions: {}",
            truncate(&v.to_string(), 200)
        ),
        Err(RpcError {
            code: Some(code),
            message,
            local: false,
            ..
        }) => format!("error {code} \"{}\"", truncate(message, 200)),
        Err(e) => e.to_string(),
    }
}

fn string_list(v: Option<&Value>) -> Option<Vec<String>> {
    let items = v?.as_array()?;
    items
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// The modern errors of §11 ("recognized modern error"), any status, any wire.
fn modern_error(e: &RpcError) -> Option<Verdict> {
    if e.local {
        return None;
    }
    let supported = e
        .data
        .as_ref()
        .and_then(|d| string_list(d.get("supported")));
    match (e.code, supported) {
        (_, Some(list)) => Some(Verdict::UnsupportedVersion(list)),
        (Some(CODE_UNSUPPORTED_VERSION), None) => Some(Verdict::UnsupportedVersion(Vec::new())),
        (Some(CODE_HEADER_MISMATCH | CODE_MISSING_CAPABILITY), _) => Some(Verdict::Rejected(
            format!("the server rejected mcpward's server/discover request: {e}"),
        )),
        _ => None,
    }
}

fn result_verdict(v: &Value) -> Verdict {
    if v.get("supportedVersions").is_some_and(Value::is_array) {
        Verdict::Modern(v.clone())
    } else {
        Verdict::Legacy(describe_outcome(&Ok(v.clone())))
    }
}

/// §3.2 step 3.
pub fn classify_stdio(probe: &StdioProbe) -> Verdict {
    match probe {
        StdioProbe::Silent => Verdict::Respawn("no answer to server/discover".into()),
        StdioProbe::Answered(Ok(v)) => result_verdict(v),
        StdioProbe::Answered(Err(e)) if e.local => Verdict::Respawn(format!(
            "the server closed the connection before answering server/discover ({e})"
        )),
        StdioProbe::Answered(Err(e)) => {
            modern_error(e).unwrap_or_else(|| Verdict::Legacy(describe_outcome(&Err(e.clone()))))
        }
    }
}

/// §3.3 step 2. `status` is the HTTP status of the answer (`None`: no HTTP answer).
pub fn classify_http(status: Option<u16>, outcome: &Result<Value, RpcError>) -> Verdict {
    let Some(status) = status else {
        return Verdict::Fatal(format!(
            "server/discover got no HTTP answer: {}",
            describe_outcome(outcome)
        ));
    };
    if status == 401 || status == 403 {
        return Verdict::Fatal(format!(
            "server/discover was refused with HTTP {status} (authentication): {}",
            describe_outcome(outcome)
        ));
    }
    if status >= 500 {
        return Verdict::Fatal(format!(
            "server/discover failed with HTTP {status}: {}",
            describe_outcome(outcome)
        ));
    }
    match outcome {
        Ok(v) => result_verdict(v),
        Err(e) => {
            if let Some(v) = modern_error(e) {
                return v;
            }
            if status == 404 && e.code == Some(-32601) && !e.local {
                return Verdict::ModernWithoutDiscover(e.clone());
            }
            Verdict::Legacy(format!("HTTP {status} with {}", describe_outcome(outcome)))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum VersionChoice {
    Modern(String),
    Legacy(String),
    None,
}

/// §3.4: the newest modern version in common, else the newest legacy one, else none.
/// Versions compare as dates (ISO strings order lexically).
pub fn choose_version(list: &[String]) -> VersionChoice {
    let newest = |set: &[&str]| {
        list.iter()
            .filter(|v| set.contains(&v.as_str()))
            .max()
            .cloned()
    };
    if let Some(v) = newest(MODERN_VERSIONS) {
        VersionChoice::Modern(v)
    } else if let Some(v) = newest(LEGACY_VERSIONS) {
        VersionChoice::Legacy(v)
    } else {
        VersionChoice::None
    }
}

/// DECISIONS #33: `auto` means `legacy` when the config expects a legacy version.
pub fn effective_era(choice: EraChoice, expected_protocol_version: Option<&str>) -> EraChoice {
    match (choice, expected_protocol_version) {
        (EraChoice::Auto, Some(v)) if LEGACY_VERSIONS.contains(&v) => EraChoice::Legacy,
        (c, _) => c,
    }
}

// ---------------------------------------------------------------------------------------
// Results (§6.1, §10.2, §10.3)
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
pub enum CallStep {
    /// `resultType` absent or `"complete"` (or not an object: the caller reports it).
    Complete,
    /// `input_required` with only `requestState`: retry with it.
    Retry(Value),
    /// `input_required` asking for client input; the methods asked for, sorted.
    InputRequests(Vec<String>),
    /// Error text without code.
    Invalid(String),
}

/// How to proceed with a modern `tools/call` result.
pub fn classify_call_result(r: &Value) -> CallStep {
    let Value::Object(o) = r else {
        return CallStep::Complete;
    };
    match o.get("resultType") {
        None => CallStep::Complete,
        Some(Value::String(t)) if t == "complete" => CallStep::Complete,
        Some(Value::String(t)) if t == "input_required" => {
            let requests = o.get("inputRequests");
            if let Some(Value::Object(reqs)) = requests {
                if !reqs.is_empty() {
                    let mut methods: Vec<String> = reqs
                        .values()
                        .map(|r| {
                            r.get("method")
                                .and_then(Value::as_str)
                                .unwrap_or("unknown")
                                .to_string()
                        })
                        .collect();
                    methods.sort();
                    methods.dedup();
                    return CallStep::InputRequests(methods);
                }
            } else if requests.is_some_and(|v| !v.is_null()) {
                return CallStep::Invalid("invalid result: inputRequests is not an object".into());
            }
            match o.get("requestState") {
                Some(s) if !s.is_null() => CallStep::Retry(s.clone()),
                _ => CallStep::Invalid(
                    "invalid result: input_required without inputRequests or requestState".into(),
                ),
            }
        }
        Some(Value::String(t)) => CallStep::Invalid(format!(
            "invalid result: unexpected resultType \"{}\"",
            t.escape_default()
        )),
        Some(other) => CallStep::Invalid(format!(
            "invalid result: resultType is not a string ({})",
            truncate(&other.to_string(), 100)
        )),
    }
}

/// The cache/result metadata of one result, for the compliance judgement: the keys
/// present on the result, as received.
pub fn result_meta(r: &Map<String, Value>) -> Value {
    let mut m = Map::new();
    for k in ["resultType", "ttlMs", "cacheScope"] {
        if let Some(v) = r.get(k) {
            m.insert(k.into(), v.clone());
        }
    }
    Value::Object(m)
}

// ---------------------------------------------------------------------------------------
// Per-connection state and the Client side of the strategy
// ---------------------------------------------------------------------------------------

/// One deliberate compliance request and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeRecord {
    /// HTTP status of the answer (HTTP only; `None` on stdio or without an HTTP answer).
    pub status: Option<u16>,
    pub outcome: Result<Value, RpcError>,
}

/// Wait at most this long for a `subscriptions/listen` acknowledgment (§12.2).
const LISTEN_WAIT: Duration = Duration::from_secs(2);

/// The `subscriptions/listen` probe of `compliance/subscriptions`.
#[derive(Debug, Clone, PartialEq)]
pub struct ListenProbe {
    pub id: Option<u64>,
    pub outcome: Result<Value, RpcError>,
    /// The first notification tagged with the listen request's id.
    pub first: Option<Value>,
}

/// What the modern compliance rules judge (§12.2), gathered by
/// [`Client::modern_observations`]. Fields are `None` when the probe was not made.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModernObservations {
    pub http: bool,
    /// HTTP status of the connect-time `server/discover` answer.
    pub discover_status: Option<u16>,
    /// The error the connect-time `server/discover` got (e.g. 404 + -32601).
    pub discover_error: Option<RpcError>,
    /// `{resultType?, ttlMs?, cacheScope?}` of each page of one `tools/list` listing.
    pub pages: Vec<Value>,
    /// Why that listing failed, if it did.
    pub listing_error: Option<String>,
    /// `server/discover` with envelope (and header) version `1900-01-01`.
    pub unsupported_version: Option<ProbeRecord>,
    /// `tools/list` whose envelope lacks `clientCapabilities`.
    pub meta_required: Option<ProbeRecord>,
    /// `ping` with a valid envelope.
    pub unknown_method: Option<ProbeRecord>,
    /// HTTP: `server/discover`, header `2026-07-28`, envelope `1900-01-01`.
    pub header_mismatch: Option<ProbeRecord>,
    /// HTTP: `server/discover` without `Mcp-Method`.
    pub header_missing_method: Option<ProbeRecord>,
    /// HTTP: status of GET / DELETE on the endpoint, or the transport error.
    pub get_status: Option<Result<u16, String>>,
    pub delete_status: Option<Result<u16, String>>,
    /// HTTP: `Mcp-Session-Id` values on responses to modern requests so far.
    pub session_ids: Vec<String>,
    /// Server input requests seen in `input_required` results (for server-messages).
    pub input_requests: Vec<Value>,
    /// `compliance/subscriptions`: whether discover advertised `tools.listChanged`, and
    /// when it did, the listen probe.
    pub listen_advertised: bool,
    pub listen: Option<ListenProbe>,
}

/// Modern-era state of one connection. Empty (and inert) in the legacy era.
#[derive(Default)]
pub struct State {
    version: Mutex<Option<String>>,
    /// inputSchema of each tool of the last successful listing (for `Mcp-Param-*`).
    tools: Mutex<BTreeMap<String, Value>>,
    listings: Mutex<Vec<Vec<Value>>>,
    notes: Mutex<Vec<String>>,
    discover_status: Mutex<Option<u16>>,
    discover_error: Mutex<Option<RpcError>>,
    input_requests: Mutex<Vec<Value>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    pub fn version(&self) -> Option<String> {
        lock(&self.version).clone()
    }
    pub fn is_modern(&self) -> bool {
        lock(&self.version).is_some()
    }
    pub fn notes(&self) -> Vec<String> {
        lock(&self.notes).clone()
    }
    pub fn add_note(&self, n: String) {
        lock(&self.notes).push(n);
    }
    pub fn begin_listing(&self) {
        if self.is_modern() {
            lock(&self.listings).push(Vec::new());
        }
    }
    /// Record one `tools/list` page; in the modern era a `resultType` other than
    /// absent/`complete` makes the listing fail (§6.1).
    pub fn on_page(&self, page: &Map<String, Value>) -> Result<(), String> {
        if !self.is_modern() {
            return Ok(());
        }
        let n = {
            let mut l = lock(&self.listings);
            if l.is_empty() {
                l.push(Vec::new());
            }
            let last = l.last_mut().expect("pushed above");
            last.push(result_meta(page));
            last.len()
        };
        match page.get("resultType") {
            None => Ok(()),
            Some(Value::String(t)) if t == "complete" => Ok(()),
            Some(Value::String(t)) => Err(format!(
                "tools/list page {n}: invalid result: unexpected resultType \"{}\"",
                t.escape_default()
            )),
            Some(other) => Err(format!(
                "tools/list page {n}: invalid result: resultType is not a string ({})",
                truncate(&other.to_string(), 100)
            )),
        }
    }
    pub fn remember_tools(&self, tools: impl IntoIterator<Item = Value>) {
        if !self.is_modern() {
            return;
        }
        let mut map = BTreeMap::new();
        for t in tools {
            if let (Some(name), Some(schema)) =
                (t.get("name").and_then(Value::as_str), t.get("inputSchema"))
            {
                map.entry(name.to_string())
                    .or_insert_with(|| schema.clone());
            }
        }
        *lock(&self.tools) = map;
    }
    fn schema_of(&self, tool: &str) -> Option<Value> {
        lock(&self.tools).get(tool).cloned()
    }
    pub fn page_meta(&self) -> Vec<Value> {
        lock(&self.listings).last().cloned().unwrap_or_default()
    }
}

/// How a modern handshake ended.
pub(super) enum Handshake {
    Done(Box<ServerHello>),
    Fail(String),
    /// stdio `auto`: start over on a fresh process with the plain legacy handshake
    /// offering this version.
    Respawn {
        offer: String,
        why: String,
    },
}

fn http_status_of(wire: &Wire, id: Option<u64>) -> Option<u16> {
    match (wire, id) {
        (Wire::Http(w), Some(id)) => w.status_of(id),
        _ => None,
    }
}

impl Client {
    /// Every `inputRequests` a server sent so far (modern era), for
    /// `compliance/server-messages`.
    pub fn input_requests(&self) -> Vec<Value> {
        lock(&self.m.input_requests).clone()
    }

    pub(super) fn is_http(&self) -> bool {
        matches!(&*self.wire, Wire::Http(_))
    }

    /// Build the message and HTTP headers of one request for the current era.
    /// `raw`: send `params` exactly as given, with exactly these headers (probes).
    pub(super) fn shape(
        &self,
        id: u64,
        method: &str,
        params: Option<Value>,
        raw: Option<ExtraHeaders>,
    ) -> (Value, ExtraHeaders) {
        if let Some(h) = raw {
            return (request_message(id, method, params), h);
        }
        let Some(version) = self.m.version() else {
            return (request_message(id, method, params), Vec::new());
        };
        let params = with_envelope(params, &envelope(&version));
        let headers = if self.is_http() {
            let schema = match method {
                "tools/call" => params
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|n| self.m.schema_of(n)),
                _ => None,
            };
            modern_headers(&version, method, &params, schema.as_ref())
        } else {
            Vec::new()
        };
        (request_message(id, method, Some(params)), headers)
    }

    /// No `notifications/cancelled` over HTTP in the modern era (§7.5).
    pub(super) fn may_send_cancel(&self) -> bool {
        !(self.m.is_modern() && self.is_http())
    }

    /// stdio `auto` may fall back on a fresh process (§3.2 step 5).
    pub(super) fn may_respawn(&self, choice: EraChoice) -> bool {
        choice == EraChoice::Auto && !self.is_http()
    }

    fn set_probing(&self, on: bool) {
        self.d.set_modern(on);
        if let Wire::Http(w) = &*self.wire {
            w.set_stateless(on);
        }
    }

    /// `server/discover` with the full envelope at `version`; no per-request deadline
    /// (the connect budget bounds it).
    async fn discover_at(&self, version: &str) -> (Option<u64>, Result<Value, RpcError>) {
        let params = with_envelope(None, &envelope(version));
        let headers = modern_headers(version, "server/discover", &params, None);
        let raw = if self.is_http() { headers } else { Vec::new() };
        self.request_as(
            "server/discover",
            Some(params),
            Some(raw),
            Duration::from_secs(u64::MAX / 4),
            None,
        )
        .await
    }

    /// Era selection for `auto` / `modern` (§3.2–§3.4).
    pub(super) async fn era_handshake(&self, choice: EraChoice) -> Handshake {
        self.set_probing(true);
        let mut version = MODERN_VERSIONS[0].to_string();
        let mut retried = false;
        loop {
            let (id, outcome) = self.discover_at(&version).await;
            let status = http_status_of(&self.wire, id);
            let verdict = if self.is_http() {
                classify_http(status, &outcome)
            } else {
                classify_stdio(&StdioProbe::Answered(outcome.clone()))
            };
            let no_fallback = |what: &str| {
                format!(
                    "protocol_era is modern, but the server did not answer server/discover as a {} server; it answered {what}",
                    MODERN_VERSIONS[0]
                )
            };
            let list_versions = |l: &[String]| format!("[{}]", l.join(", "));
            match verdict {
                Verdict::Modern(result) => {
                    // All strings when well-formed; otherwise the string members.
                    let supported = string_list(result.get("supportedVersions"))
                        .unwrap_or_else(|| crate::surface::json::strings(result.get("supportedVersions")));
                    return match choose_version(&supported) {
                        VersionChoice::Modern(v) => {
                            *lock(&self.m.discover_status) = status;
                            self.settle_modern(v, Some(result), supported)
                        }
                        VersionChoice::Legacy(v) => self
                            .legacy_after_modern(
                                choice,
                                v,
                                format!(
                                    "the server lists only legacy versions {}",
                                    list_versions(&supported)
                                ),
                            )
                            .await,
                        VersionChoice::None => Handshake::Fail(format!(
                            "no mutually supported protocol version; server supports {}",
                            list_versions(&supported)
                        )),
                    };
                }
                Verdict::UnsupportedVersion(list) => match choose_version(&list) {
                    VersionChoice::Modern(v) if !retried => {
                        retried = true;
                        version = v;
                    }
                    VersionChoice::Modern(_) => {
                        return Handshake::Fail(format!(
                            "the server rejected protocol version {version} with -32022 twice; server supports {}",
                            list_versions(&list)
                        ))
                    }
                    VersionChoice::Legacy(v) => {
                        return self
                            .legacy_after_modern(
                                choice,
                                v,
                                format!(
                                    "the server lists only legacy versions {}",
                                    list_versions(&list)
                                ),
                            )
                            .await
                    }
                    VersionChoice::None => {
                        return Handshake::Fail(format!(
                            "no mutually supported protocol version; server supports {}",
                            list_versions(&list)
                        ))
                    }
                },
                Verdict::Rejected(msg) | Verdict::Fatal(msg) => return Handshake::Fail(msg),
                Verdict::ModernWithoutDiscover(e) => {
                    *lock(&self.m.discover_status) = status;
                    *lock(&self.m.discover_error) = Some(e);
                    return self.settle_modern(version, None, Vec::new());
                }
                Verdict::Legacy(what) => {
                    if choice == EraChoice::Modern {
                        return Handshake::Fail(no_fallback(&what));
                    }
                    // In place (stdio §3.2 step 4, HTTP §3.3): the server saw only an
                    // error-answered probe, so the plain legacy handshake follows.
                    self.set_probing(false);
                    return match self.legacy_handshake_offering(LEGACY_VERSIONS[0]).await {
                        Ok(hello) => Handshake::Done(Box::new(hello)),
                        Err(e) if self.may_respawn(choice) => Handshake::Respawn {
                            offer: LEGACY_VERSIONS[0].into(),
                            why: format!("the legacy handshake after the probe failed ({e})"),
                        },
                        Err(e) => Handshake::Fail(e),
                    };
                }
                Verdict::Respawn(why) => {
                    if choice == EraChoice::Modern {
                        return Handshake::Fail(no_fallback(&why));
                    }
                    return Handshake::Respawn {
                        offer: LEGACY_VERSIONS[0].into(),
                        why,
                    };
                }
            }
        }
    }

    /// A modern server that only shares a legacy version: `auto` speaks legacy (on a
    /// fresh process for stdio, which has already seen modern traffic).
    async fn legacy_after_modern(
        &self,
        choice: EraChoice,
        offer: String,
        why: String,
    ) -> Handshake {
        if choice == EraChoice::Modern {
            return Handshake::Fail(format!(
                "protocol_era is modern, but {why}; no mutually supported modern protocol version"
            ));
        }
        if !self.is_http() {
            return Handshake::Respawn { offer, why };
        }
        self.set_probing(false);
        match self.legacy_handshake_offering(&offer).await {
            Ok(hello) => Handshake::Done(Box::new(hello)),
            Err(e) => Handshake::Fail(e),
        }
    }

    fn settle_modern(
        &self,
        version: String,
        discover: Option<Value>,
        supported: Vec<String>,
    ) -> Handshake {
        *lock(&self.m.version) = Some(version.clone());
        let d = discover.as_ref();
        let server_info = d
            .and_then(|r| r.get("_meta"))
            .and_then(|m| m.get(META_SERVER_INFO))
            .or_else(|| d.and_then(|r| r.get("serverInfo")))
            .cloned()
            .unwrap_or(Value::Null);
        let capabilities = match d {
            Some(r) => r.get("capabilities").cloned().unwrap_or(Value::Null),
            None => Value::Object(Map::new()),
        };
        Handshake::Done(Box::new(ServerHello {
            era: Era::Modern,
            protocol_version: version,
            server_info,
            capabilities,
            instructions: d.and_then(|r| r.get("instructions")).cloned(),
            supported_versions: supported,
            discover,
        }))
    }

    /// `tools/call`: legacy as before; modern with `resultType` handling and MRTR retries
    /// within the one `call_ms` budget (§10.3).
    pub(super) async fn tools_call(
        &self,
        params: Value,
        timeout: Duration,
        timeout_msg: String,
    ) -> Result<Value, RpcError> {
        if !self.m.is_modern() {
            return self
                .request("tools/call", Some(params), timeout, Some(timeout_msg))
                .await;
        }
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if let Some(reason) = self.call_blocked_reason(&name) {
            return Err(RpcError::plain(reason));
        }
        let start = Instant::now();
        let mut p = params;
        for _ in 0..MAX_MRTR_ATTEMPTS {
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(RpcError::plain(timeout_msg));
            }
            let r = self
                .request(
                    "tools/call",
                    Some(p.clone()),
                    left,
                    Some(timeout_msg.clone()),
                )
                .await?;
            match classify_call_result(&r) {
                CallStep::Complete => return Ok(r),
                CallStep::Retry(state) => {
                    if let Value::Object(o) = &mut p {
                        o.insert("requestState".into(), state);
                    }
                }
                CallStep::InputRequests(methods) => {
                    let mut rec = lock(&self.m.input_requests);
                    if rec.len() < 50 {
                        rec.push(r.get("inputRequests").cloned().unwrap_or(Value::Null));
                    }
                    return Err(RpcError::plain(format!(
                        "server requested client input ({}) although mcpward declared no client capabilities",
                        methods.join(", ")
                    )));
                }
                CallStep::Invalid(msg) => return Err(RpcError::plain(msg)),
            }
        }
        Err(RpcError::plain(format!(
            "tool call \"{name}\" still required input after {MAX_MRTR_ATTEMPTS} attempts"
        )))
    }

    /// Modern HTTP never calls a tool whose `x-mcp-header` annotations are invalid
    /// (§7.3); the reason, naming the broken constraint. `None` elsewhere.
    pub fn call_blocked_reason(&self, tool: &str) -> Option<String> {
        if !(self.m.is_modern() && self.is_http()) {
            return None;
        }
        let schema = self.m.schema_of(tool)?;
        x_mcp_header_problem(&schema).map(|p| {
            format!("tool \"{tool}\" is not called over HTTP because its inputSchema has an invalid x-mcp-header: {p}")
        })
    }

    /// Lines the library would have printed (e.g. the stdio respawn hint); the CLI shows
    /// them on stderr.
    pub fn notes(&self) -> Vec<String> {
        self.m.notes()
    }

    /// `{resultType?, ttlMs?, cacheScope?}` of each page of the last modern listing
    /// (empty in the legacy era).
    pub fn page_meta(&self) -> Vec<Value> {
        self.m.page_meta()
    }

    /// HTTP exchanges of the modern era (status, content type, session header per POST).
    pub fn http_exchanges(&self) -> Vec<Exchange> {
        match &*self.wire {
            Wire::Http(w) => w.exchanges(),
            Wire::Stdio(_) => Vec::new(),
        }
    }

    async fn probe(&self, method: &str, params: Value, headers: ExtraHeaders) -> ProbeRecord {
        let headers = if self.is_http() { headers } else { Vec::new() };
        let (id, outcome) = self
            .request_as(method, Some(params), Some(headers), PROTOCOL_TIMEOUT, None)
            .await;
        ProbeRecord {
            status: http_status_of(&self.wire, id),
            outcome,
        }
    }

    /// One short `subscriptions/listen` request (§10.4): its id, how it ended (a timeout
    /// means it was still open after the wait and was cancelled) and the first notification
    /// the server tagged with that id.
    async fn listen_probe(&self, version: &str) -> ListenProbe {
        let params = with_envelope(
            Some(serde_json::json!({"notifications": {"toolsListChanged": true}})),
            &envelope(version),
        );
        let headers = modern_headers(version, "subscriptions/listen", &params, None);
        let headers = if self.is_http() { headers } else { Vec::new() };
        let seen = self.d.chatter().notifications.len();
        let (id, outcome) = self
            .request_as(
                "subscriptions/listen",
                Some(params),
                Some(headers),
                LISTEN_WAIT,
                Some("no answer within 2 s".into()),
            )
            .await;
        let first = id.and_then(|id| {
            self.d
                .chatter()
                .notifications
                .into_iter()
                .skip(seen)
                .find(|n| {
                    n.pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId")
                        .and_then(Value::as_u64)
                        == Some(id)
                })
        });
        ListenProbe { id, outcome, first }
    }

    /// Send the deliberate compliance requests of §12.2 (never as the first message) and
    /// gather what the modern rules judge. `None` in the legacy era: the rules do not
    /// exist there.
    pub async fn modern_observations(&self) -> Option<ModernObservations> {
        let version = self.m.version()?;
        let http = self.is_http();
        let mut obs = ModernObservations {
            http,
            discover_status: *lock(&self.m.discover_status),
            discover_error: lock(&self.m.discover_error).clone(),
            ..Default::default()
        };
        // One listing of this family's own, for resultType / cache hints.
        let listing = self.list_tools().await;
        obs.pages = self.page_meta();
        obs.listing_error = listing.err();

        let bad = with_envelope(None, &envelope(PROBE_VERSION));
        obs.unsupported_version = Some(
            self.probe(
                "server/discover",
                bad.clone(),
                modern_headers(PROBE_VERSION, "server/discover", &bad, None),
            )
            .await,
        );

        let mut partial = envelope(&version);
        partial.remove(META_CLIENT_CAPABILITIES);
        let no_caps = with_envelope(None, &partial);
        obs.meta_required = Some(
            self.probe(
                "tools/list",
                no_caps.clone(),
                modern_headers(&version, "tools/list", &no_caps, None),
            )
            .await,
        );

        let ping = with_envelope(None, &envelope(&version));
        obs.unknown_method = Some(
            self.probe(
                "ping",
                ping.clone(),
                modern_headers(&version, "ping", &ping, None),
            )
            .await,
        );

        if let Wire::Http(w) = &*self.wire {
            // Header says the version in use, the envelope says otherwise.
            obs.header_mismatch = Some(
                self.probe(
                    "server/discover",
                    bad.clone(),
                    modern_headers(&version, "server/discover", &bad, None),
                )
                .await,
            );
            let good = with_envelope(None, &envelope(&version));
            let without_method: ExtraHeaders =
                modern_headers(&version, "server/discover", &good, None)
                    .into_iter()
                    .filter(|(k, _)| !k.eq_ignore_ascii_case("mcp-method"))
                    .collect();
            obs.header_missing_method =
                Some(self.probe("server/discover", good, without_method).await);
            let vh: ExtraHeaders = vec![("MCP-Protocol-Version".into(), version.clone())];
            obs.get_status = Some(w.probe_method(reqwest::Method::GET, &vh).await);
            obs.delete_status = Some(w.probe_method(reqwest::Method::DELETE, &vh).await);
            let mut ids: Vec<String> = w
                .exchanges()
                .into_iter()
                .filter_map(|e| e.session_id)
                .collect();
            ids.dedup();
            obs.session_ids = ids;
        }
        obs.listen_advertised = self
            .hello()
            .capabilities
            .pointer("/tools/listChanged")
            .and_then(Value::as_bool)
            == Some(true);
        if obs.listen_advertised {
            obs.listen = Some(self.listen_probe(&version).await);
        }
        obs.input_requests = lock(&self.m.input_requests).clone();
        Some(obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(code: i64, data: Option<Value>) -> RpcError {
        RpcError::protocol(code, "m", data)
    }

    #[test]
    fn header_encoding_rules() {
        assert_eq!(
            encode_header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_header_value("echo"), "echo");
        assert_eq!(encode_header_value("a b"), "a b");
        assert_eq!(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_header_value("x "), "=?base64?eCA=?=");
        assert_eq!(encode_header_value("tab\there"), "=?base64?dGFiCWhlcmU=?=");
        // Sentinel-shaped values are wrapped so the server does not decode them.
        assert_eq!(
            encode_header_value("=?base64?ZWNobw==?="),
            "=?base64?PT9iYXNlNjQ/WldOb2J3PT0/PQ==?="
        );
        assert_eq!(encode_header_value("=?base64?abc"), "=?base64?abc");
        assert_eq!(encode_header_value(""), "");
        assert_eq!(
            encode_header_value("__mcpward_unknown_tool__"),
            "__mcpward_unknown_tool__"
        );
    }

    #[test]
    fn header_text_conversions() {
        assert_eq!(header_text(&json!("s")), Some("s".into()));
        assert_eq!(header_text(&json!(42)), Some("42".into()));
        assert_eq!(header_text(&json!(-7)), Some("-7".into()));
        assert_eq!(header_text(&json!(3.0)), Some("3".into()));
        assert_eq!(header_text(&json!(true)), Some("true".into()));
        assert_eq!(header_text(&json!(1.5)), None);
        assert_eq!(header_text(&Value::Null), None);
        assert_eq!(header_text(&json!({"a":1})), None);
    }

    #[test]
    fn envelope_shapes() {
        let meta = envelope("2026-07-28");
        let p1 = with_envelope(None, &meta);
        assert_eq!(
            p1.to_string(),
            format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"mcpward","version":"{}"}}}}}}"#,
                crate::VERSION
            )
        );
        let call = with_envelope(
            Some(json!({"name":"t","arguments":{},"_meta":{"progressToken":3}})),
            &meta,
        );
        let keys: Vec<&String> = call.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "arguments", "_meta"]);
        assert_eq!(call["_meta"]["progressToken"], 3);
        assert_eq!(call["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
        let page2 = with_envelope(Some(json!({"cursor": ""})), &meta);
        let keys: Vec<&String> = page2.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["cursor", "_meta"]);
        // A non-object _meta is replaced, not crashed on.
        let odd = with_envelope(Some(json!({"_meta": 5})), &meta);
        assert!(odd["_meta"][META_CLIENT_CAPABILITIES].is_object());
    }

    #[test]
    fn modern_headers_for_calls() {
        let schema = json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "n":{"type":"integer","x-mcp-header":"Count"},
            "nested":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}},
            "gone":{"type":"string","x-mcp-header":"Gone"}
        }});
        let params = json!({"name":"wetter/ä","arguments":{"region":" padded ","n":5,"nested":{"flag":false},"gone":null}});
        let h = modern_headers("2026-07-28", "tools/call", &params, Some(&schema));
        assert_eq!(
            h,
            vec![
                ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
                ("Mcp-Method".into(), "tools/call".into()),
                ("Mcp-Name".into(), "=?base64?d2V0dGVyL8Ok?=".into()),
                ("Mcp-Param-Region".into(), "=?base64?IHBhZGRlZCA=?=".into()),
                ("Mcp-Param-Count".into(), "5".into()),
                ("Mcp-Param-Flag".into(), "false".into()),
            ]
        );
        let h = modern_headers("2026-07-28", "tools/list", &json!({}), None);
        assert_eq!(h.len(), 2);
    }

    #[test]
    fn x_mcp_header_validity() {
        let ok = json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":["integer","null"],"x-mcp-header":"B"}}});
        assert_eq!(x_mcp_header_problem(&ok), None);
        assert_eq!(x_mcp_header_problem(&json!({"type":"object"})), None);
        let cases = [
            (
                json!({"properties":{"a":{"type":"number","x-mcp-header":"A"}}}),
                "x-mcp-header \"A\" at #/properties/a is on a property whose type is not string, integer or boolean",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":""}}}),
                "x-mcp-header \"\" at #/properties/a is not a non-empty HTTP token",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}}),
                "x-mcp-header \"Bad Name\" at #/properties/a is not a non-empty HTTP token",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":7}}}),
                "x-mcp-header at #/properties/a is not a string",
            ),
            (
                json!({"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}),
                "x-mcp-header \"x\" at #/properties/b repeats the name used at #/properties/a (names compare case-insensitively)",
            ),
            (
                json!({"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"I"}}}}),
                "x-mcp-header at #/properties/a/items is not on a property reachable from the root through \"properties\" alone",
            ),
            (
                json!({"anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}),
                "x-mcp-header at #/anyOf/0/properties/a is not on a property reachable from the root through \"properties\" alone",
            ),
            (
                json!({"x-mcp-header":"Root","type":"string"}),
                "x-mcp-header at # is not on a property reachable from the root through \"properties\" alone",
            ),
        ];
        for (schema, msg) in cases {
            assert_eq!(
                x_mcp_header_problem(&schema).as_deref(),
                Some(msg),
                "{schema}"
            );
        }
        // Deep hostile nesting does not overflow the stack.
        let mut deep = json!({"type":"string"});
        for _ in 0..10_000 {
            let mut props = Map::new();
            props.insert("a".into(), deep);
            let mut node = Map::new();
            node.insert("properties".into(), Value::Object(props));
            deep = Value::Object(node);
        }
        assert_eq!(x_mcp_header_problem(&deep), None);
        assert!(x_mcp_header_params(&deep).is_empty());
        std::mem::forget(deep); // dropping 10k nested maps recursively is serde's problem, not ours
    }

    #[test]
    fn stdio_classification() {
        use Verdict::*;
        let modern = json!({"supportedVersions":["2026-07-28"],"capabilities":{}});
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Ok(modern.clone()))),
            Modern(modern)
        );
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Err(err(
                -32022,
                Some(json!({"supported":["2026-07-28"],"requested":"x"}))
            )))),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        // Pre-release drafts used -32004: recognised by the shape of data.supported.
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Err(err(
                -32004,
                Some(json!({"supported":["2026-07-28"]}))
            )))),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(err(-32020, None)))),
            Rejected(_)
        ));
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(err(-32021, None)))),
            Rejected(_)
        ));
        for code in [-32601, -32602, -32600, -32000, -32001] {
            assert_eq!(
                classify_stdio(&StdioProbe::Answered(Err(err(code, None)))),
                Legacy(format!("error {code} \"m\""))
            );
        }
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Ok(json!({"supportedVersions":"2026-07-28"})))),
            Legacy("a result whose supportedVersions is not an array: {\"supportedVersions\":\"2026-07-28\"}".into())
        );
        assert_eq!(
            classify_stdio(&StdioProbe::Silent),
            Respawn("no answer to server/discover".into())
        );
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(RpcError::closed()))),
            Respawn(m) if m.starts_with("the server closed the connection")
        ));
    }

    #[test]
    fn http_classification() {
        use Verdict::*;
        let modern = json!({"supportedVersions":["2026-07-28"]});
        assert_eq!(
            classify_http(Some(200), &Ok(modern.clone())),
            Modern(modern)
        );
        assert_eq!(
            classify_http(
                Some(400),
                &Err(err(-32022, Some(json!({"supported":["2026-07-28"]}))))
            ),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        assert!(matches!(
            classify_http(Some(400), &Err(err(-32020, None))),
            Rejected(_)
        ));
        assert!(matches!(
            classify_http(Some(404), &Err(err(-32601, None))),
            ModernWithoutDiscover(e) if e.code == Some(-32601)
        ));
        assert_eq!(
            classify_http(Some(200), &Err(err(-32601, None))),
            Legacy("HTTP 200 with error -32601 \"m\"".into())
        );
        assert_eq!(
            classify_http(Some(400), &Err(err(-32000, None))),
            Legacy("HTTP 400 with error -32000 \"m\"".into())
        );
        for s in [400, 404, 405, 406, 415] {
            assert!(matches!(
                classify_http(Some(s), &Err(RpcError::plain(format!("HTTP {s}: ")))),
                Legacy(_)
            ));
        }
        assert!(matches!(
            classify_http(Some(200), &Ok(json!({}))),
            Legacy(_)
        ));
        for s in [401, 403, 500, 503] {
            assert!(matches!(
                classify_http(Some(s), &Err(RpcError::plain("x"))),
                Fatal(_)
            ));
        }
        // 401 even with a JSON-RPC body: auth, no fallback.
        assert!(matches!(
            classify_http(Some(401), &Err(err(-32601, None))),
            Fatal(_)
        ));
        assert!(matches!(
            classify_http(None, &Err(RpcError::plain("connection refused"))),
            Fatal(_)
        ));
    }

    #[test]
    fn version_choice() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            choose_version(&v(&["2025-11-25", "2026-07-28", "2099-01-01"])),
            VersionChoice::Modern("2026-07-28".into())
        );
        assert_eq!(
            choose_version(&v(&["2025-06-18", "2025-11-25"])),
            VersionChoice::Legacy("2025-11-25".into())
        );
        assert_eq!(choose_version(&v(&["1999-01-01"])), VersionChoice::None);
        assert_eq!(choose_version(&[]), VersionChoice::None);
        assert_eq!(
            effective_era(EraChoice::Auto, Some("2025-06-18")),
            EraChoice::Legacy
        );
        assert_eq!(
            effective_era(EraChoice::Auto, Some("2026-07-28")),
            EraChoice::Auto
        );
        assert_eq!(
            effective_era(EraChoice::Modern, Some("2025-06-18")),
            EraChoice::Modern
        );
    }

    #[test]
    fn call_result_steps() {
        assert_eq!(
            classify_call_result(&json!({"content":[]})),
            CallStep::Complete
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"complete"})),
            CallStep::Complete
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"input_required","requestState":"s1"})),
            CallStep::Retry(json!("s1"))
        );
        assert_eq!(
            classify_call_result(
                &json!({"resultType":"input_required","requestState":"s","inputRequests":{
                "b":{"method":"sampling/createMessage"},"a":{"method":"elicitation/create"}}})
            ),
            CallStep::InputRequests(vec![
                "elicitation/create".into(),
                "sampling/createMessage".into()
            ])
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"input_required"})),
            CallStep::Invalid(
                "invalid result: input_required without inputRequests or requestState".into()
            )
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"task"})),
            CallStep::Invalid("invalid result: unexpected resultType \"task\"".into())
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":1})),
            CallStep::Invalid("invalid result: resultType is not a string (1)".into())
        );
    }
}
