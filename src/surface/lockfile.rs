//! Lockfile v2: the model, its byte-exact rendering, reading (v2 as is, legacy v1 migrated),
//! and an atomic write (lockfile.md §2, §4, §9; DECISIONS #18–#20, #39).

use super::canonical::{canonical_schema_text, canonical_version_warning};
use super::json::{
    escape_into, js_key_order, js_number, path_segment, raw_to_value, type_name, write_pretty_at,
    RawMembers,
};
use super::other::OtherPinned;
use super::schema_text::SchemaText;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::path::Path;

/// The lockfile format this build reads and writes.
pub const SCHEMA_VERSION: u64 = 2;

/// Printed (by the caller) when a legacy v1 file is migrated in memory (lockfile.md §9.2).
pub const LEGACY_WARNING: &str = "Warning: Loading v1 lockfile (pre-M1). Provenance fields unavailable.\n         Recommend running \"mcpward baseline\" to update to v2 format.";

#[derive(Debug, Clone, PartialEq)]
pub struct Lockfile {
    pub protocol_version: String,
    pub capabilities: Capabilities,
    /// Tools in file (JavaScript key) order; names are unique.
    pub tools: Vec<(String, ToolEntry)>,
    /// Prompts, resources, templates, instructions: written only when pinned (#14).
    pub other: OtherPinned,
    /// Sampled latency (#16 §4): written only when `baseline` ran with `checks.latency` on.
    pub latency: Option<super::latency::PinnedLatency>,
    pub meta: Meta,
}

/// The three recorded capability objects, each as received (`{}` when not declared).
#[derive(Debug, Clone, PartialEq)]
pub struct Capabilities {
    pub tools: Value,
    pub resources: Value,
    pub prompts: Value,
}

impl Default for Capabilities {
    fn default() -> Self {
        let empty = || Value::Object(Map::new());
        Capabilities {
            tools: empty(),
            resources: empty(),
            prompts: empty(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    pub description_hash: String,
    /// Canonical text; `None` is written as `null` (full_text off, or a legacy baseline).
    pub description: Option<String>,
    /// Canonical schema (as stored, for a loaded v2 file), `null` when the tool has none.
    pub input_schema: SchemaText,
    pub output_schema: SchemaText,
    /// `None` is written as `null`; members in stored order.
    pub annotations: Option<Map<String, Value>>,
    /// Inferred output shape (`lockfile.md` §2.2.1); omitted from the file when `None`.
    pub output_shape: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub mcpward_version: String,
    pub canonical_version: u64,
    pub captured_at: String,
    pub server_name: String,
    pub server_version: String,
    pub target: Target,
    pub auth_context: AuthContext,
    pub environment: Environment,
    /// Only for modern-era captures (DECISIONS #39); omitted otherwise.
    pub protocol: Option<ProtocolMeta>,
    /// Only for named contracts (`baseline --name`, #16 §5); omitted otherwise.
    pub contract: Option<ContractMeta>,
}

/// What a named contract records besides the surface: how to reach the server again
/// (the endpoint as typed, never a header or env value) and the reviewer's notes.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractMeta {
    pub name: String,
    pub endpoint: String,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub transport: String,
    pub identity: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AuthContext {
    pub kind: String,
    pub keys: Vec<String>,
    pub fingerprint: Option<String>,
    pub label: Option<String>,
}

impl AuthContext {
    pub fn none() -> Self {
        AuthContext {
            kind: "none".into(),
            keys: vec![],
            fingerprint: None,
            label: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Environment {
    pub ci: bool,
    pub node_version: String,
    pub platform: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolMeta {
    pub era: String,
    pub supported_versions: Vec<String>,
}

impl Lockfile {
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.tools.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// Tool entries by name, for lookups across large surfaces.
    pub fn index(&self) -> std::collections::HashMap<&str, &ToolEntry> {
        self.tools.iter().map(|(n, t)| (n.as_str(), t)).collect()
    }

    /// The era a lockfile was captured over: `meta.protocol.era`, absent ⇒ legacy.
    pub fn era(&self) -> &str {
        self.meta
            .protocol
            .as_ref()
            .map(|p| p.era.as_str())
            .unwrap_or("legacy")
    }

    /// The JSON value in the exact member order of lockfile.md §2.
    pub fn to_value(&self) -> Value {
        let mut root = Map::new();
        root.insert(
            "protocolVersion".into(),
            self.protocol_version.clone().into(),
        );
        let mut caps = Map::new();
        caps.insert("tools".into(), self.capabilities.tools.clone());
        caps.insert("resources".into(), self.capabilities.resources.clone());
        caps.insert("prompts".into(), self.capabilities.prompts.clone());
        root.insert("capabilities".into(), Value::Object(caps));
        let mut tools = Map::new();
        for (name, t) in &self.tools {
            tools.insert(name.clone(), t.to_value());
        }
        root.insert("tools".into(), Value::Object(tools));
        for (member, v) in self.other.members() {
            root.insert(member.into(), v);
        }
        if let Some(l) = &self.latency {
            root.insert(super::latency::MEMBER.into(), super::latency::to_value(l));
        }
        root.insert("meta".into(), self.meta.to_value());
        Value::Object(root)
    }

    /// The file's bytes: `JSON.stringify(lockfile, null, 2)`, no trailing newline. Written
    /// straight from the model (the same bytes as `to_pretty(&self.to_value())`, which a
    /// test holds equal): a 10,000-tool surface is never copied into a tree.
    pub fn render(&self) -> String {
        let schema_bytes: usize = self
            .tools
            .iter()
            .map(|(_, t)| t.input_schema.as_str().len() + t.output_schema.as_str().len())
            .sum();
        let mut out = String::with_capacity(4096 + schema_bytes * 3);
        out.push_str("{\n  \"protocolVersion\": ");
        escape_into(&self.protocol_version, &mut out);
        out.push_str(",\n  \"capabilities\": ");
        let mut caps = Map::new();
        caps.insert("tools".into(), self.capabilities.tools.clone());
        caps.insert("resources".into(), self.capabilities.resources.clone());
        caps.insert("prompts".into(), self.capabilities.prompts.clone());
        write_pretty_at(&Value::Object(caps), 1, &mut out);
        out.push_str(",\n  \"tools\": ");
        if self.tools.is_empty() {
            out.push_str("{}");
        } else {
            let slot: std::collections::HashMap<&str, &ToolEntry> =
                self.tools.iter().map(|(n, t)| (n.as_str(), t)).collect();
            let names = js_key_order(self.tools.iter().map(|(n, _)| n.as_str()));
            // Entries are independent text: large surfaces render them in parallel chunks.
            let chunks = super::parallel_chunks(&names, |names| {
                let mut part = String::new();
                for name in names {
                    part.push_str(",\n    ");
                    escape_into(name, &mut part);
                    part.push_str(": ");
                    slot[name].write_pretty(&mut part);
                }
                part
            });
            out.push('{');
            for (i, part) in chunks.iter().enumerate() {
                // Each chunk starts with a separator; the first entry has none.
                out.push_str(if i == 0 { &part[1..] } else { part });
            }
            out.push_str("\n  }");
        }
        for (member, v) in self.other.members() {
            out.push_str(",\n  ");
            escape_into(member, &mut out);
            out.push_str(": ");
            write_pretty_at(&v, 1, &mut out);
        }
        if let Some(l) = &self.latency {
            out.push_str(",\n  ");
            escape_into(super::latency::MEMBER, &mut out);
            out.push_str(": ");
            write_pretty_at(&super::latency::to_value(l), 1, &mut out);
        }
        out.push_str(",\n  \"meta\": ");
        write_pretty_at(&self.meta.to_value(), 1, &mut out);
        out.push_str("\n}");
        out
    }
}

impl ToolEntry {
    /// The entry as `to_value` would render at its place in the file (two levels deep).
    fn write_pretty(&self, out: &mut String) {
        const MEMBER: &str = "\n      ";
        out.push('{');
        out.push_str(MEMBER);
        out.push_str("\"descriptionHash\": ");
        escape_into(&self.description_hash, out);
        out.push(',');
        out.push_str(MEMBER);
        out.push_str("\"description\": ");
        match &self.description {
            Some(d) => escape_into(d, out),
            None => out.push_str("null"),
        }
        out.push(',');
        out.push_str(MEMBER);
        out.push_str("\"inputSchema\": ");
        self.input_schema.write_pretty(3, out);
        out.push(',');
        out.push_str(MEMBER);
        out.push_str("\"outputSchema\": ");
        self.output_schema.write_pretty(3, out);
        out.push(',');
        out.push_str(MEMBER);
        out.push_str("\"annotations\": ");
        match &self.annotations {
            Some(a) => write_pretty_at(&Value::Object(a.clone()), 3, out),
            None => out.push_str("null"),
        }
        if let Some(shape) = &self.output_shape {
            out.push(',');
            out.push_str(MEMBER);
            out.push_str("\"outputShape\": ");
            write_pretty_at(shape, 3, out);
        }
        out.push_str("\n    }");
    }

    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "descriptionHash".into(),
            self.description_hash.clone().into(),
        );
        m.insert(
            "description".into(),
            self.description.clone().map_or(Value::Null, Value::String),
        );
        m.insert("inputSchema".into(), self.input_schema.to_value());
        m.insert("outputSchema".into(), self.output_schema.to_value());
        m.insert(
            "annotations".into(),
            self.annotations.clone().map_or(Value::Null, Value::Object),
        );
        if let Some(shape) = &self.output_shape {
            m.insert("outputShape".into(), shape.clone());
        }
        Value::Object(m)
    }
}

fn opt_string(v: &Option<String>) -> Value {
    v.clone().map_or(Value::Null, Value::String)
}

impl Meta {
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("schemaVersion".into(), SCHEMA_VERSION.into());
        m.insert("mcpwardVersion".into(), self.mcpward_version.clone().into());
        m.insert("canonicalVersion".into(), self.canonical_version.into());
        m.insert("capturedAt".into(), self.captured_at.clone().into());
        m.insert("serverName".into(), self.server_name.clone().into());
        m.insert("serverVersion".into(), self.server_version.clone().into());
        let mut t = Map::new();
        t.insert("transport".into(), self.target.transport.clone().into());
        t.insert("identity".into(), self.target.identity.clone().into());
        m.insert("target".into(), Value::Object(t));
        let a = &self.auth_context;
        let mut am = Map::new();
        am.insert("kind".into(), a.kind.clone().into());
        am.insert("keys".into(), a.keys.clone().into());
        am.insert("fingerprint".into(), opt_string(&a.fingerprint));
        am.insert("label".into(), opt_string(&a.label));
        m.insert("authContext".into(), Value::Object(am));
        let e = &self.environment;
        let mut em = Map::new();
        em.insert("ci".into(), e.ci.into());
        em.insert("nodeVersion".into(), e.node_version.clone().into());
        em.insert("platform".into(), e.platform.clone().into());
        m.insert("environment".into(), Value::Object(em));
        if let Some(p) = &self.protocol {
            let mut pm = Map::new();
            pm.insert("era".into(), p.era.clone().into());
            pm.insert(
                "supportedVersions".into(),
                p.supported_versions.clone().into(),
            );
            m.insert("protocol".into(), Value::Object(pm));
        }
        if let Some(c) = &self.contract {
            let mut cm = Map::new();
            cm.insert("name".into(), c.name.clone().into());
            cm.insert("endpoint".into(), c.endpoint.clone().into());
            if let Some(n) = &c.notes {
                cm.insert("notes".into(), n.clone().into());
            }
            m.insert("contract".into(), Value::Object(cm));
        }
        Value::Object(m)
    }
}

// ---------------------------------------------------------------------------------------
// Reading

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LockfileError {
    #[error("cannot read {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("invalid JSON: {0}")]
    Json(String),
    /// A member with the wrong type, or a required member missing (DECISIONS #20).
    #[error("invalid lockfile at {path}: {reason}")]
    Invalid { path: String, reason: String },
    #[error("Invalid lockfile: missing meta field")]
    MissingMeta,
    /// DECISIONS #19: a newer format is refused, not migrated as legacy.
    #[error("lockfile schemaVersion {0} is newer than this mcpward supports (2)")]
    TooNew(String),
}

impl LockfileError {
    /// `diff` exits 2 on this one instead of reporting `drift/baseline-invalid` (DECISIONS #19).
    pub fn is_too_new(&self) -> bool {
        matches!(self, LockfileError::TooNew(_))
    }
}

/// A lockfile read from disk, with the stderr warnings it produced (legacy migration,
/// canonicalization version mismatch) for the caller to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub lockfile: Lockfile,
    pub warnings: Vec<String>,
}

fn invalid(path: &str, reason: impl Into<String>) -> LockfileError {
    LockfileError::Invalid {
        path: path.to_string(),
        reason: reason.into(),
    }
}

fn wrong_type(path: &str, want: &str, got: &Value) -> LockfileError {
    invalid(path, format!("expected {want}, found {}", type_name(got)))
}

/// Typed member access with a JSON path for errors. `strict = false` (legacy files) turns
/// wrong types into the default instead of an error, like the original's migration.
struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
    strict: bool,
}

impl<'a> Obj<'a> {
    fn child(&self, key: &str) -> String {
        format!("{}{}", self.path, path_segment(key))
    }
    fn string(&self, key: &str, default: &str) -> Result<String, LockfileError> {
        match self.map.get(key) {
            None => Ok(default.to_string()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) if !self.strict => Ok(default.to_string()),
            Some(v) => Err(wrong_type(&self.child(key), "a string", v)),
        }
    }
    fn string_or_null(&self, key: &str) -> Result<Option<String>, LockfileError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) if !self.strict => Ok(None),
            Some(v) => Err(wrong_type(&self.child(key), "a string or null", v)),
        }
    }
    fn object(&self, key: &str) -> Result<Option<Obj<'a>>, LockfileError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(Obj {
                map: m,
                path: self.child(key),
                strict: self.strict,
            })),
            Some(_) if !self.strict => Ok(None),
            Some(v) => Err(wrong_type(&self.child(key), "an object", v)),
        }
    }
    fn strings(&self, key: &str) -> Result<Vec<String>, LockfileError> {
        match self.map.get(key) {
            None => Ok(vec![]),
            Some(Value::Array(a)) => {
                let mut out = Vec::new();
                for (i, e) in a.iter().enumerate() {
                    match e {
                        Value::String(s) => out.push(s.clone()),
                        _ if !self.strict => {}
                        other => {
                            return Err(wrong_type(
                                &format!("{}[{i}]", self.child(key)),
                                "a string",
                                other,
                            ))
                        }
                    }
                }
                Ok(out)
            }
            Some(_) if !self.strict => Ok(vec![]),
            Some(v) => Err(wrong_type(&self.child(key), "an array", v)),
        }
    }
}

/// Where the tool entries come from: a parsed tree, or (v2 fast path) the `tools` member
/// as text, so a 10,000-tool file never becomes a tree of schemas.
#[derive(Clone, Copy)]
enum ToolsSource<'a> {
    Tree,
    Raw(Option<&'a RawValue>),
}

/// The v2 fast path: every root member except `tools` parsed as usual, tool schemas kept as
/// text. `None` when the text is not a v2 object; the tree path then decides (and reports
/// syntax errors exactly as before).
fn parse_v2_fast(text: &str) -> Option<Result<Lockfile, LockfileError>> {
    let raw_root: RawMembers = serde_json::from_str(text).ok()?;
    let mut root = Map::new();
    for (k, v) in &raw_root {
        if k != "tools" {
            root.insert(k.clone(), raw_to_value(v));
        }
    }
    let version = root.get("meta").and_then(|m| m.get("schemaVersion"));
    if version.and_then(Value::as_f64) != Some(2.0) {
        return None;
    }
    let tools = raw_root.get("tools").copied();
    Some(parse_v2(&root, ToolsSource::Raw(tools)))
}

/// Parses lockfile text (lockfile.md §9.1): v2 as is, anything else below 2 as legacy v1.
pub fn parse(text: &str) -> Result<Loaded, LockfileError> {
    if let Some(lockfile) = parse_v2_fast(text) {
        return Ok(with_version_warning(lockfile?, Vec::new()));
    }
    let root: Value = serde_json::from_str(text).map_err(|e| LockfileError::Json(e.to_string()))?;
    let Value::Object(map) = &root else {
        return Err(wrong_type("$", "an object", &root));
    };
    let schema_version = map.get("meta").and_then(|m| m.get("schemaVersion"));
    let mut warnings = Vec::new();
    let lockfile = match schema_version {
        Some(Value::Number(n)) if n.as_f64() == Some(2.0) => parse_v2(map, ToolsSource::Tree)?,
        Some(Value::Number(n)) if n.as_f64().is_some_and(|x| x > 2.0) => {
            return Err(LockfileError::TooNew(js_number(n.as_f64().unwrap_or(0.0))))
        }
        _ => {
            warnings.push(LEGACY_WARNING.to_string());
            parse_legacy(map)?
        }
    };
    Ok(with_version_warning(lockfile, warnings))
}

fn with_version_warning(lockfile: Lockfile, mut warnings: Vec<String>) -> Loaded {
    if let Some(w) = canonical_version_warning(lockfile.meta.canonical_version) {
        warnings.push(w);
    }
    Loaded { lockfile, warnings }
}

fn parse_capabilities(root: &Obj) -> Result<Capabilities, LockfileError> {
    let mut caps = Capabilities::default();
    if let Some(c) = root.object("capabilities")? {
        for (key, slot) in [
            ("tools", &mut caps.tools),
            ("resources", &mut caps.resources),
            ("prompts", &mut caps.prompts),
        ] {
            match c.map.get(key) {
                None | Some(Value::Null) => {}
                Some(v) => *slot = v.clone(),
            }
        }
    }
    Ok(caps)
}

fn parse_tools(
    root: &Obj,
    source: ToolsSource,
    legacy: bool,
) -> Result<Vec<(String, ToolEntry)>, LockfileError> {
    let tools_path = root.child("tools");
    if let ToolsSource::Raw(raw) = source {
        return parse_tools_raw(&tools_path, raw);
    }
    let tools = match root.map.get("tools") {
        None => return Err(invalid(&tools_path, "missing")),
        Some(Value::Object(m)) => m,
        Some(v) => return Err(wrong_type(&tools_path, "an object", v)),
    };
    let mut out = Vec::new();
    // JSON.parse yields JavaScript key order: index-like names first.
    for name in js_key_order(tools.keys().map(String::as_str)) {
        let path = format!("{tools_path}{}", path_segment(name));
        let entry = match tools.get(name) {
            Some(Value::Object(m)) => Obj {
                map: m,
                path: path.clone(),
                strict: true,
            },
            Some(v) => return Err(wrong_type(&path, "an object", v)),
            None => continue,
        };
        let schema = |key: &str| match entry.map.get(key) {
            None => SchemaIn::Missing,
            Some(v) => SchemaIn::Tree(v),
        };
        let (input, output) = (schema("inputSchema"), schema("outputSchema"));
        out.push((
            name.to_string(),
            parse_entry(&entry, input, output, legacy)?,
        ));
    }
    Ok(out)
}

/// `tools` of the v2 fast path: same checks and messages as the tree path.
fn parse_tools_raw(
    tools_path: &str,
    raw: Option<&RawValue>,
) -> Result<Vec<(String, ToolEntry)>, LockfileError> {
    let raw = raw.ok_or_else(|| invalid(tools_path, "missing"))?;
    let tools: RawMembers = serde_json::from_str(raw.get())
        .map_err(|_| wrong_type(tools_path, "an object", &raw_to_value(raw)))?;
    let mut out = Vec::with_capacity(tools.len());
    for name in js_key_order(tools.keys().map(String::as_str)) {
        let path = format!("{tools_path}{}", path_segment(name));
        let entry_raw = tools[name];
        let members: RawMembers = serde_json::from_str(entry_raw.get())
            .map_err(|_| wrong_type(&path, "an object", &raw_to_value(entry_raw)))?;
        let mut small = Map::new();
        let (mut input, mut output) = (SchemaIn::Missing, SchemaIn::Missing);
        for (k, v) in &members {
            match k.as_str() {
                "inputSchema" => input = SchemaIn::Raw(v),
                "outputSchema" => output = SchemaIn::Raw(v),
                _ => {
                    small.insert(k.clone(), raw_to_value(v));
                }
            }
        }
        let entry = Obj {
            map: &small,
            path,
            strict: true,
        };
        out.push((name.to_string(), parse_entry(&entry, input, output, false)?));
    }
    Ok(out)
}

/// A tool entry's schema member as found.
#[derive(Clone, Copy)]
enum SchemaIn<'a> {
    Missing,
    Tree(&'a Value),
    Raw(&'a RawValue),
}

fn parse_entry(
    e: &Obj,
    input: SchemaIn,
    output: SchemaIn,
    legacy: bool,
) -> Result<ToolEntry, LockfileError> {
    let description_hash = match e.map.get("descriptionHash") {
        Some(Value::String(s)) => s.clone(),
        None => return Err(invalid(&e.child("descriptionHash"), "missing")),
        Some(v) => return Err(wrong_type(&e.child("descriptionHash"), "a string", v)),
    };
    let description = e.string_or_null("description")?;
    let schema = |key: &str, found: SchemaIn| -> Result<SchemaText, LockfileError> {
        match found {
            SchemaIn::Missing if legacy => Ok(SchemaText::null()),
            SchemaIn::Missing => Err(invalid(&e.child(key), "missing")),
            // v2 files are used as written; legacy schemas were stored raw (§9.2).
            SchemaIn::Tree(v) if legacy => {
                canonical_schema_text(v).map_err(|m| invalid(&e.child(key), m))
            }
            SchemaIn::Tree(v) => Ok(SchemaText::from_value(v)),
            SchemaIn::Raw(r) => Ok(SchemaText::from_json_text(r.get())),
        }
    };
    let input_schema = schema("inputSchema", input)?;
    let output_schema = schema("outputSchema", output)?;
    let annotations = match e.map.get("annotations") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m.clone()),
        Some(v) => return Err(wrong_type(&e.child("annotations"), "an object or null", v)),
    };
    let output_shape = match e.map.get("outputShape") {
        None => None,
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(v) => return Err(wrong_type(&e.child("outputShape"), "an object", v)),
    };
    Ok(ToolEntry {
        description_hash,
        description,
        input_schema,
        output_schema,
        annotations,
        output_shape,
    })
}

fn parse_v2(map: &Map<String, Value>, source: ToolsSource) -> Result<Lockfile, LockfileError> {
    let root = Obj {
        map,
        path: "$".into(),
        strict: true,
    };
    let protocol_version = root.string("protocolVersion", "")?;
    let capabilities = parse_capabilities(&root)?;
    let tools = parse_tools(&root, source, false)?;
    let meta = root
        .object("meta")?
        .ok_or_else(|| invalid("$.meta", "missing"))?;
    let canonical_version = match meta.map.get("canonicalVersion") {
        None => 0,
        Some(v) => match v.as_u64() {
            Some(n) => n,
            None => {
                return Err(wrong_type(
                    &meta.child("canonicalVersion"),
                    "a non-negative integer",
                    v,
                ))
            }
        },
    };
    let target = match meta.object("target")? {
        Some(t) => Target {
            transport: t.string("transport", "stdio")?,
            identity: t.string("identity", "unknown")?,
        },
        None => Target {
            transport: "stdio".into(),
            identity: "unknown".into(),
        },
    };
    let auth_context = match meta.object("authContext")? {
        Some(a) => AuthContext {
            kind: a.string("kind", "none")?,
            keys: a.strings("keys")?,
            fingerprint: a.string_or_null("fingerprint")?,
            label: a.string_or_null("label")?,
        },
        None => AuthContext::none(),
    };
    let environment = match meta.object("environment")? {
        Some(e) => Environment {
            ci: match e.map.get("ci") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(v) => return Err(wrong_type(&e.child("ci"), "a boolean", v)),
            },
            node_version: e.string("nodeVersion", "unknown")?,
            platform: e.string("platform", "unknown")?,
        },
        None => legacy_environment(),
    };
    let protocol = match meta.object("protocol")? {
        Some(p) => Some(ProtocolMeta {
            era: p.string("era", "legacy")?,
            supported_versions: p.strings("supportedVersions")?,
        }),
        None => None,
    };
    let contract = match meta.object("contract")? {
        Some(c) => Some(ContractMeta {
            name: c.string("name", "")?,
            endpoint: c.string("endpoint", "")?,
            notes: c.string_or_null("notes")?,
        }),
        None => None,
    };
    let other = OtherPinned::parse(map).map_err(|e| LockfileError::Invalid {
        path: e.path,
        reason: e.reason,
    })?;
    let latency = super::latency::parse(map).map_err(|e| LockfileError::Invalid {
        path: e.path,
        reason: e.reason,
    })?;
    Ok(Lockfile {
        protocol_version,
        capabilities,
        tools,
        other,
        latency,
        meta: Meta {
            mcpward_version: meta.string("mcpwardVersion", "unknown")?,
            canonical_version,
            captured_at: meta.string("capturedAt", "1970-01-01T00:00:00.000Z")?,
            server_name: meta.string("serverName", "unknown")?,
            server_version: meta.string("serverVersion", "unknown")?,
            target,
            auth_context,
            environment,
            protocol,
            contract,
        },
    })
}

fn legacy_environment() -> Environment {
    Environment {
        ci: false,
        node_version: "unknown".into(),
        platform: "unknown".into(),
    }
}

/// Legacy v1 migration (lockfile.md §9.2).
fn parse_legacy(map: &Map<String, Value>) -> Result<Lockfile, LockfileError> {
    let root = Obj {
        map,
        path: "$".into(),
        strict: false,
    };
    let meta = match map.get("meta") {
        Some(Value::Object(m)) => Obj {
            map: m,
            path: "$.meta".into(),
            strict: false,
        },
        _ => return Err(LockfileError::MissingMeta),
    };
    let non_empty = |key: &str, default: &str| -> String {
        match meta.map.get(key) {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => default.to_string(),
        }
    };
    let tools = parse_tools(&root, ToolsSource::Tree, true)?;
    Ok(Lockfile {
        protocol_version: root.string("protocolVersion", "")?,
        capabilities: parse_capabilities(&root)?,
        tools,
        other: OtherPinned::default(),
        latency: None,
        meta: Meta {
            mcpward_version: non_empty("mcpwardVersion", "unknown"),
            canonical_version: meta
                .map
                .get("canonicalVersion")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            captured_at: non_empty("capturedAt", "1970-01-01T00:00:00.000Z"),
            server_name: non_empty("serverName", "unknown"),
            server_version: non_empty("serverVersion", "unknown"),
            target: Target {
                transport: "stdio".into(),
                identity: "unknown (v1 lockfile)".into(),
            },
            auth_context: AuthContext {
                kind: "unknown".into(),
                keys: vec![],
                fingerprint: None,
                label: None,
            },
            environment: legacy_environment(),
            protocol: None,
            contract: None,
        },
    })
}

/// What the drift check gets to know about the baseline file.
#[derive(Debug, Clone, PartialEq)]
pub enum BaselineState {
    /// No file at `path` (as configured, for the message).
    Missing {
        path: String,
    },
    /// The file exists but cannot be used.
    Invalid(LockfileError),
    Loaded(Box<Loaded>),
}

/// Reads the baseline at `path`. A BOM is not stripped: the original rejects it too.
pub fn load(path: &Path) -> BaselineState {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => BaselineState::Missing {
            path: path.display().to_string(),
        },
        Err(e) => BaselineState::Invalid(LockfileError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        }),
        Ok(bytes) => match String::from_utf8(bytes) {
            Err(e) => BaselineState::Invalid(LockfileError::Json(format!(
                "file is not valid UTF-8 ({e})"
            ))),
            Ok(text) => match parse(&text) {
                Ok(l) => BaselineState::Loaded(Box::new(l)),
                Err(e) => BaselineState::Invalid(e),
            },
        },
    }
}

// ---------------------------------------------------------------------------------------
// Writing

/// Writes the lockfile atomically: a temp file in the same directory, fsync, rename. An
/// interrupted write leaves the previous file untouched, never a truncated one.
pub fn write(path: &Path, lockfile: &Lockfile) -> std::io::Result<()> {
    crate::fsutil::write_atomic(path, lockfile.render().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) const EXAMPLE: &str =
        include_str!("../../fixtures/tables/lockfile-example.lock.json");

    #[test]
    fn full_example_round_trips_byte_for_byte() {
        assert!(EXAMPLE.ends_with('}'));
        let loaded = parse(EXAMPLE).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(loaded.lockfile.render(), EXAMPLE);
        let names: Vec<&str> = loaded
            .lockfile
            .tools
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(names, ["echo", "read_data"]);
        assert_eq!(loaded.lockfile.era(), "legacy");
    }

    /// A surface with the awkward cases: index-like names, empty and absent schemas, Unicode,
    /// annotations, an output shape.
    fn varied() -> Lockfile {
        use crate::observed::{Era, ServerHello};
        use crate::surface::capture::{capture, CaptureOptions};
        let tools = vec![
            json!({"name": "b", "description": "B\u{301}", "inputSchema": {"type": "object", "properties": {"10": {}, "2": {"enum": [1.5, -0.0, 1e21]}}, "required": ["2", "10"]}}),
            json!({"name": "10", "inputSchema": {}, "outputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true, "idempotentHint": false}}),
            json!({"name": "2", "description": "quote \" and \\ and \n", "inputSchema": {"anyOf": [[], {}, [[]]]}}),
            json!({"name": "é", "inputSchema": {"type": "object"}, "annotations": {}}),
        ];
        let hello = ServerHello {
            era: Era::Modern,
            protocol_version: "2026-07-28".into(),
            server_info: json!({"name": "s", "version": "1"}),
            capabilities: json!({"tools": {"listChanged": true}}),
            instructions: None,
            supported_versions: vec!["2026-07-28".into()],
            discover: None,
        };
        let mut opts = CaptureOptions::new("2026-01-01T00:00:00.000Z");
        opts.output_shapes = vec![("é".into(), json!({"type": "object", "fields": {}}))];
        capture(&hello, &tools, &opts).unwrap()
    }

    #[test]
    fn latency_member_round_trips_before_meta() {
        let mut lf = varied();
        lf.latency = Some(crate::surface::latency::pinned([
            ("b", 1.25, 40.0, 5),
            ("10", 0.0, 0.3, 3),
        ]));
        let text = lf.render();
        assert_eq!(text, crate::surface::json::to_pretty(&lf.to_value()));
        assert!(text.contains(
            "  \"latency\": {\n    \"10\": {\n      \"p50Ms\": 0,\n      \"p95Ms\": 0.3,\n      \"samples\": 3\n    },\n    \"b\": {\n      \"p50Ms\": 1.3,\n      \"p95Ms\": 40,\n      \"samples\": 5\n    }\n  },\n  \"meta\": "
        ), "{text}");
        let back = parse(&text).unwrap().lockfile;
        assert_eq!(back, lf);
        assert_eq!(back.render(), text);
        // Without the member, nothing of it is written.
        assert!(!varied().render().contains("latency"));
    }

    #[test]
    fn streamed_rendering_is_the_tree_rendering() {
        use crate::surface::json::to_pretty;
        let lf = varied();
        assert_eq!(lf.render(), to_pretty(&lf.to_value()));
        let empty = Lockfile {
            tools: vec![],
            ..lf.clone()
        };
        assert_eq!(empty.render(), to_pretty(&empty.to_value()));
        // A surface large enough to render in parallel chunks.
        let mut large = lf.clone();
        large.tools = (0..3000)
            .rev()
            .map(|i| (format!("{i}"), lf.tools[i % lf.tools.len()].1.clone()))
            .collect();
        assert_eq!(large.render(), to_pretty(&large.to_value()));
        // Tools out of JavaScript key order (a hand-built model) still render in it.
        let mut reversed = lf.clone();
        reversed.tools.reverse();
        assert_eq!(reversed.render(), to_pretty(&reversed.to_value()));
    }

    #[test]
    fn fast_and_tree_paths_read_the_same_lockfile() {
        let text = varied().render();
        let fast = parse(&text).unwrap().lockfile;
        let root: Value = serde_json::from_str(&text).unwrap();
        let tree = parse_v2(root.as_object().unwrap(), ToolsSource::Tree).unwrap();
        assert_eq!(fast, tree);
        assert_eq!(fast, varied());
        assert_eq!(fast.render(), text);
        // A hand-formatted file: other whitespace, same values.
        let compact = serde_json::to_string(&root).unwrap();
        let reread = parse(&compact).unwrap().lockfile;
        for ((n1, a), (n2, b)) in reread.tools.iter().zip(&fast.tools) {
            assert_eq!(n1, n2);
            assert_eq!(a.input_schema.to_value(), b.input_schema.to_value());
        }
    }

    #[test]
    fn fast_and_tree_paths_read_the_same_surface_members() {
        use crate::surface::drift_vocab::SurfaceSet;
        use crate::surface::other::tests::{surface_lock, V1, V1_TOOLS};
        let lf = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        let text = lf.render();
        let fast = parse(&text).unwrap().lockfile;
        let root: Value = serde_json::from_str(&text).unwrap();
        let tree = parse_v2(root.as_object().unwrap(), ToolsSource::Tree).unwrap();
        assert_eq!(fast, tree);
        assert_eq!(fast, lf);
        // A corrupt member is the same error on both paths.
        let mut bad = root.clone();
        bad["resources"]["mem://config"]["name"] = json!(1);
        let fast_err = parse(&bad.to_string()).unwrap_err();
        let tree_err = parse_v2(bad.as_object().unwrap(), ToolsSource::Tree).unwrap_err();
        assert_eq!(fast_err, tree_err);
        assert_eq!(
            fast_err.to_string(),
            "invalid lockfile at $.resources[\"mem://config\"].name: expected a string or null, found number"
        );
    }

    #[test]
    fn modern_protocol_member_is_last() {
        let mut lf = parse(EXAMPLE).unwrap().lockfile;
        lf.meta.protocol = Some(ProtocolMeta {
            era: "modern".into(),
            supported_versions: vec!["2026-07-28".into()],
        });
        let text = lf.render();
        assert!(text.ends_with(
            "    \"environment\": {\n      \"ci\": true,\n      \"nodeVersion\": \"v22.11.0\",\n      \"platform\": \"linux\"\n    },\n    \"protocol\": {\n      \"era\": \"modern\",\n      \"supportedVersions\": [\n        \"2026-07-28\"\n      ]\n    }\n  }\n}"
        ), "{text}");
        let back = parse(&text).unwrap().lockfile;
        assert_eq!(back, lf);
        assert_eq!(back.era(), "modern");
    }

    /// The lockfile.md §9.3 legacy v1 example, as committed for the end-to-end test too.
    const LEGACY: &str = include_str!("../../fixtures/lockfiles/legacy-v1.lock.json");

    #[test]
    fn legacy_v1_migrates() {
        let loaded = parse(LEGACY).unwrap();
        assert_eq!(
            loaded.warnings,
            vec![
                LEGACY_WARNING.to_string(),
                canonical_version_warning(0).unwrap()
            ]
        );
        assert!(loaded.warnings[1].contains("canonicalization v0, current uses v2"));
        let lf = loaded.lockfile;
        assert_eq!(lf.meta.canonical_version, 0);
        assert_eq!(lf.meta.mcpward_version, "0.1.0");
        assert_eq!(lf.meta.target.identity, "unknown (v1 lockfile)");
        assert_eq!(lf.meta.auth_context.kind, "unknown");
        assert_eq!(lf.meta.environment.node_version, "unknown");
        let t = lf.tool("read_data").unwrap();
        assert_eq!(t.description, None);
        // Schema canonicalized on migration: keys sorted.
        let keys: Vec<String> = t
            .input_schema
            .to_value()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["properties", "required", "type"]);
    }

    #[test]
    fn legacy_without_meta_is_invalid() {
        let err = parse(r#"{"tools":{}}"#).unwrap_err();
        assert_eq!(err.to_string(), "Invalid lockfile: missing meta field");
        let err = parse(r#"{"meta":{"mcpwardVersion":"0.1.0"}}"#).unwrap_err();
        assert_eq!(err.to_string(), "invalid lockfile at $.tools: missing");
    }

    #[test]
    fn newer_schema_version_refused() {
        let err = parse(r#"{"tools":{},"meta":{"schemaVersion":3}}"#).unwrap_err();
        assert!(err.is_too_new());
        assert_eq!(
            err.to_string(),
            "lockfile schemaVersion 3 is newer than this mcpward supports (2)"
        );
        // Anything not above 2 (and not 2) still takes the legacy path, as the original.
        let ok = parse(r#"{"tools":{},"meta":{"schemaVersion":1}}"#).unwrap();
        assert_eq!(ok.warnings[0], LEGACY_WARNING);
    }

    #[test]
    fn malformed_files_name_the_json_path() {
        let mut v: Value = serde_json::from_str(EXAMPLE).unwrap();
        type Mutation = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(Mutation, &str)> = vec![
            (
                Box::new(|v| {
                    v.as_object_mut().unwrap().remove("tools");
                }),
                "invalid lockfile at $.tools: missing",
            ),
            (
                Box::new(|v| v["tools"] = json!([])),
                "invalid lockfile at $.tools: expected an object, found array",
            ),
            (
                Box::new(|v| v["tools"]["echo"] = json!("x")),
                "invalid lockfile at $.tools.echo: expected an object, found string",
            ),
            (
                Box::new(|v| v["tools"]["echo"]["descriptionHash"] = json!(5)),
                "invalid lockfile at $.tools.echo.descriptionHash: expected a string, found number",
            ),
            (
                Box::new(|v| {
                    v["tools"]["read_data"]
                        .as_object_mut()
                        .unwrap()
                        .remove("inputSchema");
                }),
                "invalid lockfile at $.tools.read_data.inputSchema: missing",
            ),
            (
                Box::new(|v| v["tools"]["echo"]["annotations"] = json!([true])),
                "invalid lockfile at $.tools.echo.annotations: expected an object or null, found array",
            ),
            (
                Box::new(|v| v["meta"]["canonicalVersion"] = json!("2")),
                "invalid lockfile at $.meta.canonicalVersion: expected a non-negative integer, found string",
            ),
            (
                Box::new(|v| v["meta"]["authContext"]["keys"] = json!(["A", 1])),
                "invalid lockfile at $.meta.authContext.keys[1]: expected a string, found number",
            ),
            (
                Box::new(|v| {
                    let t = v["tools"]["echo"].clone();
                    v["tools"]["my tool"] = t;
                    v["tools"]["my tool"]["description"] = json!({});
                }),
                "invalid lockfile at $.tools[\"my tool\"].description: expected a string or null, found object",
            ),
        ];
        for (mutate, msg) in cases {
            let mut doc = v.clone();
            mutate(&mut doc);
            let err = parse(&doc.to_string()).unwrap_err();
            assert_eq!(err.to_string(), msg);
        }
        v = json!([1]);
        assert_eq!(
            parse(&v.to_string()).unwrap_err().to_string(),
            "invalid lockfile at $: expected an object, found array"
        );
        let err = parse("{\"tools\": ").unwrap_err();
        assert!(matches!(err, LockfileError::Json(_)), "{err}");
        assert!(matches!(
            parse(&format!("\u{feff}{EXAMPLE}")),
            Err(LockfileError::Json(_))
        ));
    }

    #[test]
    fn load_missing_and_invalid() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("nope.json");
        assert!(matches!(load(&p), BaselineState::Missing { .. }));
        std::fs::write(&p, "not json").unwrap();
        assert!(matches!(
            load(&p),
            BaselineState::Invalid(LockfileError::Json(_))
        ));
        std::fs::write(&p, EXAMPLE).unwrap();
        assert!(matches!(load(&p), BaselineState::Loaded(_)));
    }

    #[test]
    fn atomic_write_replaces_and_never_truncates() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("mcpward.lock.json");
        std::fs::write(&p, "OLD CONTENT").unwrap();
        let lf = parse(EXAMPLE).unwrap().lockfile;
        // A failure between writing the temp file and the rename keeps the old file.
        let err = crate::fsutil::write_atomic_with(&p, lf.render().as_bytes(), |_| {
            Err(std::io::Error::other("simulated crash"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "simulated crash");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "OLD CONTENT");
        let entries = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(entries, 1, "temp file left behind");
        // A temp file that cannot be created (missing directory) fails before touching anything.
        assert!(write(&dir.path().join("missing/dir/lock.json"), &lf).is_err());
        // Read-only directory: effective only when not running as root.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let ro = dir.path().join("ro");
            std::fs::create_dir(&ro).unwrap();
            let target = ro.join("mcpward.lock.json");
            std::fs::write(&target, "OLD").unwrap();
            std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
            let probe = std::fs::write(ro.join("probe"), "x");
            if probe.is_err() {
                assert!(write(&target, &lf).is_err());
                assert_eq!(std::fs::read_to_string(&target).unwrap(), "OLD");
            }
            std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        write(&p, &lf).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), EXAMPLE);
    }
}
