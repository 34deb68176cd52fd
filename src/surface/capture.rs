//! Building the lockfile model from what the server said (lockfile.md §3, §8). The caller
//! does the I/O (listing every page, output sampling) and passes the results in.

use super::canonical::{
    canonical_schema_text, canonical_schema_text_raw, canonicalize_description, sha256_tag,
    CANONICAL_VERSION,
};
use super::drift_vocab::SurfaceSet;
use super::json::{js_key_order, JsonStr, Members};
use super::lockfile::{
    AuthContext, Capabilities, Environment, Lockfile, Meta, ProtocolMeta, Target, ToolEntry,
};
use super::other::capture_other;
use super::schema_text::SchemaText;
use crate::observed::{Era, OtherSurface, ServerHello};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The annotation members a lockfile records, in their fixed order.
pub const RECORDED_ANNOTATIONS: [&str; 4] = [
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

#[derive(Debug, Clone, PartialEq)]
pub struct CaptureOptions {
    /// `checks.drift.full_text`: store the canonical description text (default true).
    pub full_text: bool,
    pub target: Target,
    pub auth_context: AuthContext,
    /// Written as `meta.mcpwardVersion` (normally `crate::VERSION`).
    pub mcpward_version: String,
    /// `meta.capturedAt`, `YYYY-MM-DDTHH:MM:SS.sssZ` (normally `model::timestamp_now()`).
    pub captured_at: String,
    pub environment: Environment,
    /// Inferred output shapes (`shape::OutputShape::to_value`) by tool name.
    pub output_shapes: Vec<(String, Value)>,
    /// `checks.drift.surface`: what is pinned besides tools (default: nothing).
    pub surface: SurfaceSet,
    /// The rest of the surface as listed (read only for the parts `surface` asks for).
    pub other: OtherSurface,
}

impl CaptureOptions {
    /// Defaults for a programmatic capture (no config): stdio, "unknown (no config)".
    pub fn new(captured_at: impl Into<String>) -> Self {
        CaptureOptions {
            full_text: true,
            target: Target {
                transport: "stdio".into(),
                identity: "unknown (no config)".into(),
            },
            auth_context: AuthContext::none(),
            mcpward_version: crate::VERSION.to_string(),
            captured_at: captured_at.into(),
            environment: Environment::detect(),
            output_shapes: vec![],
            surface: SurfaceSet::default(),
            other: OtherSurface::default(),
        }
    }
}

/// A tool object of a `tools/list` answer: parsed already, or still its JSON text (then
/// read member by member, so a large surface is never held as a tree).
pub trait ToolObject: Sync {
    /// The tool as a value (output sampling reads whole tools).
    fn tool_value(&self) -> Cow<'_, Value>;
    /// What a lockfile entry records; `None` when the tool has no string name.
    fn parts(&self) -> Option<ToolParts<'_>>;
}

/// The members of a tool a lockfile entry is built from.
pub struct ToolParts<'a> {
    pub name: Cow<'a, str>,
    /// `""` when absent or not a string.
    pub description: Cow<'a, str>,
    /// `None` when absent or `null`.
    pub input_schema: Option<SchemaIn<'a>>,
    pub output_schema: Option<SchemaIn<'a>>,
    /// The recorded hints, when `annotations` is an object.
    pub annotations: Option<Map<String, Value>>,
}

pub enum SchemaIn<'a> {
    Tree(&'a Value),
    Text(&'a RawValue),
}

fn recorded_annotations(a: &Map<String, Value>) -> Map<String, Value> {
    let mut m = Map::new();
    for key in RECORDED_ANNOTATIONS {
        if let Some(v) = a.get(key) {
            m.insert(key.to_string(), v.clone());
        }
    }
    m
}

impl ToolObject for Value {
    fn tool_value(&self) -> Cow<'_, Value> {
        Cow::Borrowed(self)
    }
    fn parts(&self) -> Option<ToolParts<'_>> {
        let schema = |key: &str| match self.get(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(SchemaIn::Tree(v)),
        };
        Some(ToolParts {
            name: Cow::Borrowed(self.get("name")?.as_str()?),
            description: Cow::Borrowed(
                self.get("description")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            ),
            input_schema: schema("inputSchema"),
            output_schema: schema("outputSchema"),
            annotations: self
                .get("annotations")
                .and_then(Value::as_object)
                .map(recorded_annotations),
        })
    }
}

impl ToolObject for Box<RawValue> {
    fn tool_value(&self) -> Cow<'_, Value> {
        Cow::Owned(super::json::raw_to_value(self))
    }
    fn parts(&self) -> Option<ToolParts<'_>> {
        let members: Members = serde_json::from_str(self.get()).ok()?;
        let string = |key: &str| {
            members
                .get(key)
                .and_then(|r| serde_json::from_str::<JsonStr>(r.get()).ok())
                .map(|s| s.0)
        };
        let schema = |key: &str| match members.get(key) {
            Some(r) if r.get() != "null" => Some(SchemaIn::Text(r)),
            _ => None,
        };
        let annotations =
            members
                .get("annotations")
                .and_then(|r| match serde_json::from_str::<Value>(r.get()) {
                    Ok(Value::Object(a)) => Some(recorded_annotations(&a)),
                    _ => None,
                });
        Some(ToolParts {
            name: string("name")?,
            description: string("description").unwrap_or(Cow::Borrowed("")),
            input_schema: schema("inputSchema"),
            output_schema: schema("outputSchema"),
            annotations,
        })
    }
}

/// Builds the surface from the hello and the raw tool objects in listing order. Fails only
/// when a schema is too deep to canonicalize (the whole capture fails, lockfile.md §3).
pub fn capture<T: ToolObject>(
    hello: &ServerHello,
    tools: &[T],
    opts: &CaptureOptions,
) -> Result<Lockfile, String> {
    let shapes: std::collections::HashMap<&str, &Value> = opts
        .output_shapes
        .iter()
        .map(|(n, s)| (n.as_str(), s))
        .collect();
    let captured = super::parallel_map(tools, |tool| {
        // A tool without a string name cannot be keyed; schema checks report it.
        let parts = tool.parts()?;
        let entry = capture_tool(&parts, opts, shapes.get(&*parts.name).copied());
        Some(entry.map(|e| (parts.name.into_owned(), e)))
    });
    let mut entries: Vec<(String, ToolEntry)> = Vec::new();
    let mut slot_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for one in captured.into_iter().flatten() {
        let (name, entry) = one?;
        let name = name.as_str();
        // A repeated name: the later value wins, the key keeps its first position.
        match slot_of.get(name) {
            Some(&i) => entries[i].1 = entry,
            None => {
                slot_of.insert(name.to_string(), entries.len());
                entries.push((name.to_string(), entry));
            }
        }
    }
    // The original keys a JavaScript object by name: index-like names come first.
    let order: Vec<usize> = js_key_order(entries.iter().map(|(n, _)| n.as_str()))
        .into_iter()
        .filter_map(|n| slot_of.get(n).copied())
        .collect();
    let mut taken: Vec<Option<(String, ToolEntry)>> = entries.into_iter().map(Some).collect();
    let tools_sorted: Vec<(String, ToolEntry)> =
        order.into_iter().filter_map(|i| taken[i].take()).collect();
    let cap = |key: &str| match hello.capabilities.get(key) {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v) => v.clone(),
    };
    let info = |key: &str| {
        hello
            .server_info
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_string()
    };
    Ok(Lockfile {
        protocol_version: hello.protocol_version.clone(),
        capabilities: Capabilities {
            tools: cap("tools"),
            resources: cap("resources"),
            prompts: cap("prompts"),
        },
        tools: tools_sorted,
        other: capture_other(
            &opts.other,
            hello.instructions.as_ref(),
            opts.surface,
            opts.full_text,
        )?,
        // Added by `baseline` after sampling, when latency is on.
        latency: None,
        meta: Meta {
            mcpward_version: opts.mcpward_version.clone(),
            canonical_version: CANONICAL_VERSION,
            captured_at: opts.captured_at.clone(),
            server_name: info("name"),
            server_version: info("version"),
            target: opts.target.clone(),
            auth_context: opts.auth_context.clone(),
            environment: opts.environment.clone(),
            // DECISIONS #39: only modern captures carry it, so legacy files stay byte-identical.
            protocol: (hello.era == Era::Modern).then(|| ProtocolMeta {
                era: "modern".into(),
                supported_versions: hello.supported_versions.clone(),
            }),
            // Set by the caller for a named contract.
            contract: None,
        },
    })
}

fn capture_tool(
    parts: &ToolParts,
    opts: &CaptureOptions,
    output_shape: Option<&Value>,
) -> Result<ToolEntry, String> {
    let canonical = canonicalize_description(&parts.description);
    let name = &parts.name;
    let schema = |key: &str, found: &Option<SchemaIn>| {
        match found {
            None => Ok(SchemaText::null()),
            Some(SchemaIn::Tree(v)) => canonical_schema_text(v),
            Some(SchemaIn::Text(r)) => canonical_schema_text_raw(r),
        }
        .map_err(|e| format!("Tool \"{name}\" {key}: {e}"))
    };
    Ok(ToolEntry {
        description_hash: sha256_tag(&canonical),
        description: opts.full_text.then_some(canonical),
        input_schema: schema("inputSchema", &parts.input_schema)?,
        output_schema: schema("outputSchema", &parts.output_schema)?,
        annotations: parts.annotations.clone(),
        output_shape: output_shape.cloned(),
    })
}

impl Target {
    /// stdio: the command and every argument joined by single spaces (never the env).
    pub fn stdio(command: &str, args: &[String]) -> Self {
        let mut identity = command.to_string();
        for a in args {
            identity.push(' ');
            identity.push_str(a);
        }
        Target {
            transport: "stdio".into(),
            identity,
        }
    }

    /// http: WHATWG origin + pathname of the (already `${ENV}`-expanded) URL; query,
    /// fragment and user-info dropped.
    pub fn http(url: &str) -> Self {
        let identity = match url::Url::parse(url) {
            Ok(u) => format!("{}{}", u.origin().ascii_serialization(), u.path()),
            Err(_) => url.to_string(),
        };
        Target {
            transport: "http".into(),
            identity,
        }
    }
}

const ENV_AUTH_PREFIXES: [&str; 6] = [
    "API_KEY",
    "TOKEN",
    "AUTH",
    "SECRET",
    "PASSWORD",
    "CREDENTIAL",
];
const HEADER_AUTH_PREFIXES: [&str; 4] = ["authorization", "x-api-key", "x-auth", "bearer"];

fn has_prefix_ci(name: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| {
        name.len() >= p.len() && name.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes())
    })
}

fn auth_context(
    kind: &str,
    pairs: &[(String, String)],
    prefixes: &[&str],
    identity: &str,
) -> AuthContext {
    let matching: Vec<&(String, String)> = pairs
        .iter()
        .filter(|(k, _)| has_prefix_ci(k, prefixes))
        .collect();
    let Some((_, first_value)) = matching.first() else {
        return AuthContext::none();
    };
    let fingerprint = (!first_value.is_empty() && !identity.is_empty()).then(|| {
        let tag = sha256_tag(&format!("{first_value}{identity}"));
        tag["sha256:".len().."sha256:".len() + 16].to_string()
    });
    AuthContext {
        kind: kind.into(),
        keys: matching.iter().map(|(k, _)| k.clone()).collect(),
        fingerprint,
        label: None,
    }
}

impl AuthContext {
    /// stdio: `server.env` entries (config order, values expanded) whose name starts with
    /// an auth prefix. Only names and a salted, truncated fingerprint are kept.
    pub fn from_env(env: &[(String, String)], identity: &str) -> Self {
        auth_context("env", env, &ENV_AUTH_PREFIXES, identity)
    }
    /// http: `server.headers` entries whose name starts with an auth prefix.
    pub fn from_headers(headers: &[(String, String)], identity: &str) -> Self {
        auth_context("header", headers, &HEADER_AUTH_PREFIXES, identity)
    }
}

impl Environment {
    /// `ci` from a non-empty `CI` variable; `platform` in Node's names; `nodeVersion`
    /// "unknown" (DECISIONS #18: informational, never compared).
    pub fn detect() -> Self {
        let platform = match std::env::consts::OS {
            "macos" => "darwin",
            "windows" => "win32",
            "solaris" | "illumos" => "sunos",
            other => other,
        };
        Environment {
            ci: std::env::var_os("CI").is_some_and(|v| !v.is_empty()),
            node_version: "unknown".into(),
            platform: platform.into(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) fn hello(era: Era) -> ServerHello {
        ServerHello {
            era,
            protocol_version: "2025-11-25".into(),
            server_info: json!({"name": "drift-server", "version": "1.0.0"}),
            capabilities: json!({"tools": {}, "logging": {}}),
            instructions: None,
            discover: None,
            supported_versions: if era == Era::Modern {
                vec!["2026-07-28".into()]
            } else {
                vec![]
            },
        }
    }

    pub(crate) fn opts() -> CaptureOptions {
        CaptureOptions {
            full_text: true,
            target: Target::stdio("npx", &["tsx".into(), "fixtures/drift/v1/index.ts".into()]),
            auth_context: AuthContext::none(),
            mcpward_version: "1.2.0".into(),
            captured_at: "2026-07-21T23:33:17.604Z".into(),
            environment: Environment {
                ci: true,
                node_version: "v22.11.0".into(),
                platform: "linux".into(),
            },
            output_shapes: vec![],
            surface: SurfaceSet::default(),
            other: OtherSurface::default(),
        }
    }

    pub(crate) fn tools_of(text: &str) -> Vec<Value> {
        serde_json::from_str::<Value>(text)
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    }

    #[test]
    fn capture_reproduces_the_spec_example() {
        let tools = tools_of(include_str!(
            "../../fixtures/tables/lockfile-example-tools.json"
        ));
        let lf = capture(&hello(Era::Legacy), &tools, &opts()).unwrap();
        assert_eq!(
            lf.render(),
            include_str!("../../fixtures/tables/lockfile-example.lock.json")
        );
        // Twice the same input gives the same bytes.
        assert_eq!(
            lf.render(),
            capture(&hello(Era::Legacy), &tools, &opts())
                .unwrap()
                .render()
        );
    }

    #[test]
    fn modern_capture_records_protocol() {
        let lf = capture::<Value>(&hello(Era::Modern), &[], &opts()).unwrap();
        assert_eq!(
            lf.meta.protocol,
            Some(ProtocolMeta {
                era: "modern".into(),
                supported_versions: vec!["2026-07-28".into()]
            })
        );
        assert!(capture::<Value>(&hello(Era::Legacy), &[], &opts())
            .unwrap()
            .meta
            .protocol
            .is_none());
    }

    #[test]
    fn tool_entry_rules() {
        let tools = vec![
            json!({"name": "b", "description": "first"}),
            json!({"name": "10", "annotations": {"title": "T", "openWorldHint": false, "readOnlyHint": true}}),
            json!({"name": 5}),
            json!({"name": "2", "annotations": {"title": "only"}, "inputSchema": {"minimum": 1.0, "maximum": 1e21}}),
            json!({"name": "b", "description": "second"}),
        ];
        let mut o = opts();
        o.full_text = false;
        let lf = capture(&hello(Era::Legacy), &tools, &o).unwrap();
        let names: Vec<&str> = lf.tools.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["2", "10", "b"]);
        let b = lf.tool("b").unwrap();
        assert_eq!(b.description, None);
        assert_eq!(b.description_hash, sha256_tag("second"));
        assert_eq!(b.annotations, None);
        let ten = lf.tool("10").unwrap().to_value();
        assert_eq!(
            super::super::json::to_compact(&ten["annotations"]),
            r#"{"readOnlyHint":true,"openWorldHint":false}"#
        );
        assert_eq!(lf.tool("2").unwrap().annotations, Some(Map::new()));
        let text = lf.render();
        assert!(text.contains("\"description\": null"));
        assert!(
            text.contains("\"maximum\": 1e+21,\n        \"minimum\": 1\n"),
            "{text}"
        );
    }

    #[test]
    fn too_deep_schema_fails_the_capture() {
        let mut v = json!({"type": "string"});
        for _ in 0..70 {
            v = json!({ "properties": { "a": v } });
        }
        let err = capture(
            &hello(Era::Legacy),
            &[json!({"name": "deep", "inputSchema": v})],
            &opts(),
        )
        .unwrap_err();
        assert!(err.contains("maximum depth of 64"), "{err}");
    }

    #[test]
    fn provenance_helpers() {
        let t = Target::stdio(
            "npx",
            &[
                "-y".into(),
                "@modelcontextprotocol/server-filesystem".into(),
                "/tmp/sandbox".into(),
            ],
        );
        let env = vec![
            ("GITHUB_TOKEN".to_string(), "x".to_string()),
            ("API_KEY".to_string(), "secret123".to_string()),
            ("token_2".to_string(), "y".to_string()),
        ];
        let a = AuthContext::from_env(&env, &t.identity);
        assert_eq!(a.kind, "env");
        assert_eq!(a.keys, ["API_KEY", "token_2"]);
        assert_eq!(a.fingerprint.as_deref(), Some("4b1c76658eb25e42"));
        let h = Target::http("https://example.com/mcp");
        assert_eq!(h.identity, "https://example.com/mcp");
        let a = AuthContext::from_headers(
            &[("Authorization".into(), "Bearer abc".into())],
            &h.identity,
        );
        assert_eq!(
            (a.kind.as_str(), a.fingerprint.as_deref()),
            ("header", Some("56e3ee1a30b8a749"))
        );
        assert_eq!(
            Target::http("https://User:pw@Example.COM:443/mcp/?x=1#f").identity,
            "https://example.com/mcp/"
        );
        assert_eq!(
            Target::http("http://localhost:3000").identity,
            "http://localhost:3000/"
        );
        assert_eq!(AuthContext::from_env(&[], "x"), AuthContext::none());
        assert_eq!(
            AuthContext::from_env(&[("AUTH".into(), "".into())], "x").fingerprint,
            None
        );
    }

    #[test]
    fn tools_as_text_capture_like_parsed_tools() {
        let listing = r#"[
            {"name": "b", "description": "Cafe\u0301 \n", "inputSchema": {"type": "object", "required": ["y", "x"], "properties": {"y": {}, "x": {"enum": [1.0, 2]}}}, "outputSchema": null, "annotations": {"readOnlyHint": true, "title": "t"}},
            {"name": "10", "inputSchema": {}, "annotations": "not an object", "description": 5},
            {"name": 7, "description": "no string name: skipped"},
            "not an object",
            {"name": "dup", "description": "first", "description": "second", "inputSchema": {"a": 1, "a": {"z": 1, "y": 2}}},
            {"name": "b", "description": "a repeated name: the later one wins"}
        ]"#;
        let parsed: Vec<Value> = serde_json::from_str(listing).unwrap();
        let text: Vec<Box<RawValue>> = serde_json::from_str(listing).unwrap();
        let hello = hello(Era::Legacy);
        let a = capture(&hello, &parsed, &opts()).unwrap();
        let b = capture(&hello, &text, &opts()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.render(), b.render());
        let names: Vec<&str> = a.tools.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["10", "b", "dup"]);
        assert_eq!(
            a.tool("dup").unwrap().input_schema.as_str(),
            r#"{"a":{"y":2,"z":1}}"#
        );
    }

    #[test]
    fn large_surfaces_capture_in_parallel_with_sequential_results() {
        let items: Vec<u32> = (0..5000).collect();
        assert_eq!(
            crate::surface::parallel_map(&items, |i| i * 3),
            items.iter().map(|i| i * 3).collect::<Vec<_>>()
        );
        // A repeated name across chunks: the later entry wins at the first position.
        let mut tools: Vec<Value> = (0..3000)
            .map(|i| json!({"name": format!("t{i}"), "description": format!("tool {i}"), "inputSchema": {"type": "object"}}))
            .collect();
        tools[10] = json!({"name": "dup", "description": "first"});
        tools[2990] = json!({"name": "dup", "description": "last"});
        let lf = capture(&hello(Era::Legacy), &tools, &opts()).unwrap();
        assert_eq!(lf.tools.len(), 2999);
        assert_eq!(lf.tool("dup").unwrap().description.as_deref(), Some("last"));
        let order: Vec<&str> = lf.tools.iter().take(12).map(|(n, _)| n.as_str()).collect();
        assert_eq!(order[10], "dup");
        // The first failing tool in listing order is the one reported.
        let deep = (0..70).fold(json!({}), |v, _| json!({ "x": v }));
        tools[2500] = json!({"name": "late", "inputSchema": deep.clone()});
        tools[100] = json!({"name": "early", "inputSchema": deep});
        let err = capture(&hello(Era::Legacy), &tools, &opts()).unwrap_err();
        assert!(err.starts_with("Tool \"early\" inputSchema"), "{err}");
    }
}
