//! Offline snapshots (#16 §2): a file that stands in for a live server (`--from FILE`), read
//! into the observed types the families take (`ServerHello`, `Listing`, `OtherSurface`), and
//! the whole-surface document `mcpward snapshot` writes. Pure except [`load`] (one bounded
//! read of a regular file).
//!
//! Accepted forms, told apart by shape in this order (docs/snapshots.md):
//! 1. an object with `mcpward_snapshot` — the whole-surface snapshot;
//! 2. an object whose `tools` is an object (tools keyed by name) — an mcpward lockfile, v1 or
//!    v2, read by [`super::lockfile::parse`];
//! 3. an object with `jsonrpc`, `result` or `error` — one JSON-RPC response to `tools/list`;
//! 4. an object with `tools` (an array) — a saved `tools/list` result;
//! 5. an array whose first item is an object with `jsonrpc`, `result` or `error` — the
//!    responses of every page, concatenated in order;
//! 6. any other array (also an empty one) — a plain array of tool objects.
//!
//! The envelope is checked (a problem is named by its JSON path); tool, prompt and resource
//! items are kept as they are, like a live listing (DECISIONS #5): a malformed tool is the
//! schema family's finding, so a run from a file and a live run agree.

use super::json::{path_segment, type_name};
use super::lockfile::{AuthContext, Lockfile, Target};
use super::other::Described;
use crate::observed::{Era, Listing, OtherSurface, ServerHello, OTHER_LISTS};
use crate::protocol::versions::MODERN_VERSIONS;
use serde_json::{Map, Value};
use std::io::Read;
use std::path::Path;

/// The format marker member and the version this build reads and writes.
pub const MARKER: &str = "mcpward_snapshot";
pub const FORMAT_VERSION: u64 = 1;

/// The largest file `--from` reads: a snapshot holds a whole surface (up to `limits.tools`
/// tools per list, each a message of up to `limits.message_bytes`), so it may be far larger
/// than one message; 256 MiB is far beyond any published listing and still bounded.
pub const MAX_SNAPSHOT_BYTES: u64 = 256 * 1024 * 1024;

/// Which accepted form a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Snapshot,
    Lockfile,
    Response,
    ToolsResult,
    Pages,
    ToolArray,
}

impl Form {
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Snapshot => "mcpward snapshot",
            Form::Lockfile => "mcpward lockfile",
            Form::Response => "JSON-RPC response",
            Form::ToolsResult => "tools/list result",
            Form::Pages => "JSON-RPC responses (pages)",
            Form::ToolArray => "array of tools",
        }
    }
}

/// What a file says about the server, in the types a live run produces.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub form: Form,
    /// The handshake as recorded; fields the file does not hold are empty (`""`, `null`).
    pub hello: ServerHello,
    /// Raw tool objects in listing order.
    pub tools: Vec<Value>,
    /// Lists the file holds; `None` where it holds none (as a server that did not declare it).
    pub other: OtherSurface,
    /// Where the capture came from (a snapshot's `server`; a lockfile's `meta.target`).
    pub target: Option<Target>,
    pub auth_context: Option<AuthContext>,
    /// A lockfile source: the pinned surface itself (drift compares it as it is, so a
    /// description stored only as a hash is still compared by hash).
    pub pinned: Option<Box<Lockfile>>,
    /// Stderr notices (a migrated v1 lockfile).
    pub warnings: Vec<String>,
}

/// A file that is not an accepted snapshot: where (a JSON path, `$` for the root) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotError {
    pub path: String,
    pub reason: String,
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

fn err(path: impl Into<String>, reason: impl Into<String>) -> SnapshotError {
    SnapshotError {
        path: path.into(),
        reason: reason.into(),
    }
}

/// An optional array of strings at `path` (absent: empty).
fn strings(v: Option<&Value>, path: &str) -> Result<Vec<String>, SnapshotError> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(expected(&format!("{path}[{i}]"), "a string", other)),
            })
            .collect(),
        Some(other) => Err(expected(path, "an array", other)),
    }
}

fn expected(path: &str, want: &str, got: &Value) -> SnapshotError {
    err(path, format!("expected {want}, found {}", a_type(got)))
}

fn a_type(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
        other => format!("a {}", type_name(other)),
    }
}

fn child(path: &str, key: &str) -> String {
    format!("{path}{}", path_segment(key))
}

/// Reads `path` (a regular file of at most [`MAX_SNAPSHOT_BYTES`]) and parses it. The
/// error is the whole message after the file name.
pub fn load(path: &Path) -> Result<Snapshot, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_SNAPSHOT_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SNAPSHOT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_SNAPSHOT_BYTES {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("$: not UTF-8 text ({e})"))?;
    parse(&text).map_err(|e| e.to_string())
}

fn too_large() -> String {
    format!("larger than {} MiB; not read", MAX_SNAPSHOT_BYTES >> 20)
}

fn is_response(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("jsonrpc") || m.contains_key("result") || m.contains_key("error")
    })
}

/// Parses snapshot text in any accepted form (module docs).
pub fn parse(text: &str) -> Result<Snapshot, SnapshotError> {
    let root: Value = serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(text))
        .map_err(|e| err("$", format!("not JSON ({e})")))?;
    match &root {
        Value::Object(m) if m.contains_key(MARKER) => from_snapshot(m),
        Value::Object(m) if m.get("tools").is_some_and(Value::is_object) => from_lockfile(text),
        Value::Object(_) if is_response(&root) => {
            let mut tools = Vec::new();
            response_tools(&root, "$", &mut tools)?;
            Ok(tools_only(Form::Response, tools))
        }
        Value::Object(m) if m.contains_key("tools") => {
            let mut tools = Vec::new();
            result_tools(m, "$", &mut tools)?;
            Ok(tools_only(Form::ToolsResult, tools))
        }
        Value::Object(_) => Err(err(
            "$",
            "not a snapshot: expected a tools/list result ({\"tools\": […]}), a JSON-RPC response, an array, an mcpward snapshot or a lockfile",
        )),
        Value::Array(items) if items.first().is_some_and(is_response) => {
            let mut tools = Vec::new();
            for (i, page) in items.iter().enumerate() {
                response_tools(page, &format!("$[{i}]"), &mut tools)?;
            }
            Ok(tools_only(Form::Pages, tools))
        }
        Value::Array(items) => Ok(tools_only(Form::ToolArray, items.clone())),
        other => Err(expected("$", "an object or an array", other)),
    }
}

fn tools_only(form: Form, tools: Vec<Value>) -> Snapshot {
    Snapshot {
        form,
        hello: ServerHello::empty(),
        tools,
        other: OtherSurface::default(),
        target: None,
        auth_context: None,
        pinned: None,
        warnings: Vec::new(),
    }
}

/// One JSON-RPC response's tools (`path`: where the response is).
fn response_tools(v: &Value, path: &str, out: &mut Vec<Value>) -> Result<(), SnapshotError> {
    let Value::Object(m) = v else {
        return Err(expected(path, "a JSON-RPC response object", v));
    };
    if let Some(e) = m.get("error") {
        let what = e
            .get("message")
            .and_then(Value::as_str)
            .map(|s| format!(" ({})", super::text::truncate(s, 200)))
            .unwrap_or_default();
        return Err(err(
            child(path, "error"),
            format!("a JSON-RPC error response{what}, not a tools/list result"),
        ));
    }
    match m.get("result") {
        Some(Value::Object(r)) => result_tools(r, &child(path, "result"), out),
        Some(other) => Err(expected(&child(path, "result"), "an object", other)),
        None => Err(err(path, "a JSON-RPC response without a \"result\"")),
    }
}

/// A `tools/list` result's tools, with its `nextCursor` checked as the client checks it.
fn result_tools(
    m: &Map<String, Value>,
    path: &str,
    out: &mut Vec<Value>,
) -> Result<(), SnapshotError> {
    match m.get("nextCursor") {
        None | Some(Value::String(_)) => {}
        Some(other) => return Err(expected(&child(path, "nextCursor"), "a string", other)),
    }
    match m.get("tools") {
        Some(Value::Array(items)) => {
            out.extend(items.iter().cloned());
            Ok(())
        }
        Some(other) => Err(expected(&child(path, "tools"), "an array", other)),
        None => Err(err(path, "no \"tools\" array")),
    }
}

fn opt_string(
    m: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>, SnapshotError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(expected(&child(path, key), "a string", other)),
    }
}

fn from_snapshot(m: &Map<String, Value>) -> Result<Snapshot, SnapshotError> {
    let marker = &m[MARKER];
    if marker.as_u64() != Some(FORMAT_VERSION) {
        return Err(err(
            child("$", MARKER),
            format!(
                "snapshot format {} is not supported (this mcpward reads {FORMAT_VERSION})",
                super::json::to_compact(marker)
            ),
        ));
    }
    let protocol_version = opt_string(m, "protocolVersion", "$")?.unwrap_or_default();
    let era = match opt_string(m, "era", "$")?.as_deref() {
        Some("modern") => Era::Modern,
        Some("legacy") => Era::Legacy,
        Some(other) => {
            return Err(err(
                "$.era",
                format!("expected \"legacy\" or \"modern\", found \"{other}\""),
            ))
        }
        None if MODERN_VERSIONS.contains(&protocol_version.as_str()) => Era::Modern,
        None => Era::Legacy,
    };
    let supported_versions = strings(m.get("supportedVersions"), "$.supportedVersions")?;
    let target = match m.get("server") {
        None => None,
        Some(Value::Object(s)) => Some(Target {
            transport: opt_string(s, "transport", "$.server")?.unwrap_or_default(),
            identity: opt_string(s, "identity", "$.server")?.unwrap_or_default(),
        }),
        Some(other) => return Err(expected("$.server", "an object", other)),
    };
    let auth_context = match m.get("authContext") {
        None => None,
        Some(Value::Object(a)) => Some(AuthContext {
            kind: opt_string(a, "kind", "$.authContext")?.unwrap_or_else(|| "none".into()),
            keys: strings(a.get("keys"), "$.authContext.keys")?,
            fingerprint: opt_string(a, "fingerprint", "$.authContext")?,
            label: opt_string(a, "label", "$.authContext")?,
        }),
        Some(other) => return Err(expected("$.authContext", "an object", other)),
    };
    let tools = match m.get("tools") {
        Some(Value::Array(t)) => t.clone(),
        Some(other) => return Err(expected("$.tools", "an array", other)),
        None => return Err(err("$", "no \"tools\" array")),
    };
    let mut other = OtherSurface::default();
    for (_, member, _) in OTHER_LISTS {
        let listing = match m.get(member) {
            None => None,
            Some(v) => Some(list_member(v, &child("$", member))?),
        };
        match member {
            "prompts" => other.prompts = listing,
            "resources" => other.resources = listing,
            _ => other.resource_templates = listing,
        }
    }
    Ok(Snapshot {
        form: Form::Snapshot,
        hello: ServerHello {
            era,
            protocol_version,
            server_info: m.get("serverInfo").cloned().unwrap_or(Value::Null),
            capabilities: m.get("capabilities").cloned().unwrap_or(Value::Null),
            instructions: m.get("instructions").cloned(),
            supported_versions,
            discover: None,
        },
        tools,
        other,
        target,
        auth_context,
        pinned: None,
        warnings: Vec::new(),
    })
}

/// A list member of a snapshot: the items, or `{"error": "…"}` when listing it failed.
fn list_member(v: &Value, path: &str) -> Result<Listing, SnapshotError> {
    match v {
        Value::Array(items) => Ok(Ok(items.clone())),
        Value::Object(o) => match o.get("error") {
            Some(Value::String(e)) => Ok(Err(e.clone())),
            Some(other) => Err(expected(&child(path, "error"), "a string", other)),
            None => Err(err(path, "expected an array, or {\"error\": \"…\"}")),
        },
        other => Err(expected(path, "an array", other)),
    }
}

fn from_lockfile(text: &str) -> Result<Snapshot, SnapshotError> {
    use super::lockfile::LockfileError;
    let loaded = super::lockfile::parse(text).map_err(|e| match e {
        LockfileError::Invalid { path, reason } => err(path, format!("lockfile: {reason}")),
        other => err("$", format!("lockfile: {other}")),
    })?;
    let l = loaded.lockfile;
    let mut warnings = loaded.warnings;
    let hashed = l
        .tools
        .iter()
        .filter(|(_, t)| t.description.is_none())
        .count();
    if hashed > 0 {
        warnings.push(format!(
            "Warning: the lockfile stores only the hash of {hashed} tool description(s) (v1, or checks.drift.full_text: false): schema and security see those tools without a description; drift compares the hashes"
        ));
    }
    let tools = l.tools.iter().map(|(n, t)| tool_of(n, t)).collect();
    let mut other = OtherSurface::default();
    let described = |m: &mut Map<String, Value>, d: &Described| {
        if let Some(t) = &d.text {
            m.insert("description".into(), t.clone().into());
        }
    };
    let put = |m: &mut Map<String, Value>, k: &str, v: &Option<String>| {
        if let Some(v) = v {
            m.insert(k.into(), v.clone().into());
        }
    };
    if let Some(prompts) = &l.other.prompts {
        other.prompts = Some(Ok(prompts
            .iter()
            .map(|(name, p)| {
                let mut m = Map::new();
                m.insert("name".into(), name.clone().into());
                put(&mut m, "title", &p.title);
                described(&mut m, &p.description);
                let args = p
                    .arguments
                    .iter()
                    .map(|(an, a)| {
                        let mut am = Map::new();
                        am.insert("name".into(), an.clone().into());
                        put(&mut am, "title", &a.title);
                        described(&mut am, &a.description);
                        am.insert("required".into(), a.required.into());
                        Value::Object(am)
                    })
                    .collect();
                m.insert("arguments".into(), Value::Array(args));
                Value::Object(m)
            })
            .collect()));
    }
    if let Some(resources) = &l.other.resources {
        other.resources = Some(Ok(resources
            .iter()
            .map(|(uri, r)| {
                let mut m = Map::new();
                m.insert("uri".into(), uri.clone().into());
                put(&mut m, "name", &r.name);
                put(&mut m, "title", &r.title);
                described(&mut m, &r.description);
                put(&mut m, "mimeType", &r.mime_type);
                if let Some(s) = &r.size {
                    m.insert("size".into(), s.clone());
                }
                if let Some(a) = &r.annotations {
                    m.insert("annotations".into(), Value::Object(a.clone()));
                }
                Value::Object(m)
            })
            .collect()));
    }
    if let Some(templates) = &l.other.resource_templates {
        other.resource_templates = Some(Ok(templates
            .iter()
            .map(|(uri, t)| {
                let mut m = Map::new();
                m.insert("uriTemplate".into(), uri.clone().into());
                put(&mut m, "name", &t.name);
                put(&mut m, "title", &t.title);
                described(&mut m, &t.description);
                put(&mut m, "mimeType", &t.mime_type);
                Value::Object(m)
            })
            .collect()));
    }
    let instructions = match &l.other.instructions {
        Some(Some(d)) => d.text.clone().map(Value::String),
        _ => None,
    };
    let mut info = Map::new();
    info.insert("name".into(), l.meta.server_name.clone().into());
    info.insert("version".into(), l.meta.server_version.clone().into());
    let mut caps = Map::new();
    caps.insert("tools".into(), l.capabilities.tools.clone());
    caps.insert("resources".into(), l.capabilities.resources.clone());
    caps.insert("prompts".into(), l.capabilities.prompts.clone());
    let (era, supported_versions) = match &l.meta.protocol {
        Some(p) if p.era == "modern" => (Era::Modern, p.supported_versions.clone()),
        _ => (Era::Legacy, Vec::new()),
    };
    Ok(Snapshot {
        form: Form::Lockfile,
        hello: ServerHello {
            era,
            protocol_version: l.protocol_version.clone(),
            server_info: Value::Object(info),
            capabilities: Value::Object(caps),
            instructions,
            supported_versions,
            discover: None,
        },
        tools,
        other,
        target: Some(l.meta.target.clone()),
        auth_context: Some(l.meta.auth_context.clone()),
        pinned: Some(Box::new(l)),
        warnings,
    })
}

/// A tool object rebuilt from its lockfile entry: the canonical description when the text
/// was stored (none when only its hash was), the canonical schemas, the recorded hints.
fn tool_of(name: &str, t: &super::lockfile::ToolEntry) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), name.into());
    if let Some(d) = &t.description {
        m.insert("description".into(), d.clone().into());
    }
    if !t.input_schema.is_null() {
        m.insert("inputSchema".into(), t.input_schema.to_value());
    }
    if !t.output_schema.is_null() {
        m.insert("outputSchema".into(), t.output_schema.to_value());
    }
    if let Some(a) = &t.annotations {
        m.insert("annotations".into(), Value::Object(a.clone()));
    }
    Value::Object(m)
}

// ---------------------------------------------------------------------------------------
// Writing (`mcpward snapshot`)

/// The whole-surface document, members in a fixed order; items as the server sent them.
/// `target` and `auth_context` must already be free of secrets (the lockfile's forms are).
pub fn document(
    hello: &ServerHello,
    tools: &[Value],
    other: &OtherSurface,
    target: &Target,
    auth_context: &AuthContext,
) -> Value {
    let mut m = Map::new();
    m.insert(MARKER.into(), FORMAT_VERSION.into());
    let mut s = Map::new();
    s.insert("transport".into(), target.transport.clone().into());
    s.insert("identity".into(), target.identity.clone().into());
    m.insert("server".into(), Value::Object(s));
    let mut a = Map::new();
    a.insert("kind".into(), auth_context.kind.clone().into());
    a.insert("keys".into(), auth_context.keys.clone().into());
    let opt = |v: &Option<String>| v.clone().map_or(Value::Null, Value::String);
    a.insert("fingerprint".into(), opt(&auth_context.fingerprint));
    a.insert("label".into(), opt(&auth_context.label));
    m.insert("authContext".into(), Value::Object(a));
    m.insert("era".into(), hello.era.as_str().into());
    m.insert(
        "protocolVersion".into(),
        hello.protocol_version.clone().into(),
    );
    if hello.era == Era::Modern {
        m.insert(
            "supportedVersions".into(),
            hello.supported_versions.clone().into(),
        );
    }
    m.insert("serverInfo".into(), hello.server_info.clone());
    m.insert("capabilities".into(), hello.capabilities.clone());
    if let Some(i) = &hello.instructions {
        m.insert("instructions".into(), i.clone());
    }
    m.insert("tools".into(), Value::Array(tools.to_vec()));
    for (listing, member) in [
        (&other.prompts, "prompts"),
        (&other.resources, "resources"),
        (&other.resource_templates, "resourceTemplates"),
    ] {
        match listing {
            None => {}
            Some(Ok(items)) => {
                m.insert(member.into(), Value::Array(items.clone()));
            }
            Some(Err(e)) => {
                let mut o = Map::new();
                o.insert("error".into(), e.clone().into());
                m.insert(member.into(), Value::Object(o));
            }
        }
    }
    Value::Object(m)
}

/// The file's bytes: two-space JSON and a final newline.
pub fn render(doc: &Value) -> String {
    let mut s = serde_json::to_string_pretty(doc).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// Every string and object key of `v` passed through `f` (the caller's redaction of config
/// values; member names a server chose are redacted too, as any server text is).
pub fn map_strings(v: &mut Value, f: &dyn Fn(&str) -> String) {
    match v {
        Value::String(s) => *s = f(s),
        Value::Array(items) => items.iter_mut().for_each(|i| map_strings(i, f)),
        Value::Object(m) => {
            let old = std::mem::take(m);
            for (k, mut val) in old {
                map_strings(&mut val, f);
                m.insert(f(&k), val);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests;
