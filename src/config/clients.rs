//! MCP client config files read by `servers_from:` (#15): Claude Desktop
//! (`claude_desktop_config.json`, `mcpServers`), VS Code (`.vscode/mcp.json`, `servers` and
//! `inputs`, JSONC), Cursor (`.cursor/mcp.json`, `mcpServers`) and the common `mcpServers`
//! shape. Each entry becomes a `server:` block as a [`Node`] the validator reads.
//!
//! A client's file is the user's real setup, so an entry mcpward cannot test is skipped with
//! a reason (the caller warns) rather than failing the whole fleet; only a file that is not
//! a client config at all (unreadable, not JSON, wrong structure) is an error.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::tree::{quote_short, Node};
use super::validate::suggest;
use crate::redact::MIN_SECRET_CHARS;

/// A client config is a few KiB; anything far larger is not one (hostile input).
pub const MAX_CLIENT_FILE_BYTES: u64 = 1024 * 1024;

/// Prefix of the environment variable that answers a VS Code `${input:ID}`.
pub const INPUT_ENV_PREFIX: &str = "MCPWARD_INPUT_";

/// The keys an entry may use for what mcpward tests (typos of these get a hint).
const ENTRY_KEYS: &[&str] = &["command", "args", "env", "url", "headers", "type"];
/// Keys clients define that do not change what mcpward can test; ignored silently.
const IGNORED_KEYS: &[&str] = &[
    "disabled",
    "transport",
    "serverUrl",
    "description",
    "timeout",
    "alwaysAllow",
    "autoApprove",
    "disabledTools",
    "trust",
    "includeTools",
    "excludeTools",
    "dev",
    "gallery",
    "version",
    "name",
    "icon",
];
/// Keys that change how the client runs the server but that mcpward does not apply.
const UNSUPPORTED_KEYS: &[(&str, &str)] = &[
    (
        "cwd",
        "the server is started in mcpward's working directory",
    ),
    (
        "envFile",
        "mcpward does not read env files; set the variables under servers.<name>.env",
    ),
];

/// One parsed client file, before any entry is converted.
pub(crate) struct ClientFile {
    /// The path as shown in messages (the config's directory joined with the entry).
    pub display: String,
    pub entries: Vec<RawEntry>,
    /// VS Code `inputs`: id → `default`, when declared.
    inputs: Vec<(String, Option<String>)>,
    /// `${workspaceFolder}`: the folder holding `.vscode/` or `.cursor/`, else the file's.
    workspace: PathBuf,
}

pub(crate) struct RawEntry {
    pub name: String,
    /// `mcpServers.github`, `servers["my server"]`.
    pub json_path: String,
    value: Value,
}

/// What an entry became.
pub(crate) enum Converted {
    /// A `server:` block (transport, command/args/env or url/headers), every string resolved.
    Server {
        block: Node,
        /// Resolved `${env:…}` / `${input:…}` / `${VAR}` values, then every env and header
        /// value (and a credential header's value without its scheme); 4+ characters.
        secrets: Vec<String>,
        warnings: Vec<String>,
    },
    /// Not testable by mcpward; the reason completes "… skipped: ".
    Skip(String),
}

pub(crate) enum ClientError {
    /// One issue line, naming the file and the JSON path.
    Invalid(String),
    /// An unset variable: the environment variable's name and where it was used.
    Var { name: String, at: String },
}

/// Read and parse `path` (bounded to [`MAX_CLIENT_FILE_BYTES`]); `Err` is one issue line.
pub(crate) fn read(path: &Path, display: &str) -> Result<ClientFile, String> {
    // A FIFO would block at open and a device never end: only regular files are read.
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() {
            return Err(format!(
                "client config file {display} is not a regular file"
            ));
        }
    }
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("client config file not found: {display}"),
        _ => format!("cannot read client config file {display}: {e}"),
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_CLIENT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read client config file {display}: {e}"))?;
    if bytes.len() as u64 > MAX_CLIENT_FILE_BYTES {
        return Err(format!(
            "{display}: larger than {} KiB, not a client config file",
            MAX_CLIENT_FILE_BYTES / 1024
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{display}: not UTF-8 text"))?;
    parse(&text, display, &workspace_of(path))
}

/// The folder VS Code and Cursor call the workspace: the parent of `.vscode/` or `.cursor/`.
fn workspace_of(path: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    match dir.file_name().and_then(|n| n.to_str()) {
        Some(".vscode") | Some(".cursor") => dir.parent().map(Path::to_path_buf).unwrap_or(dir),
        _ => dir,
    }
}

pub(crate) fn parse(text: &str, display: &str, workspace: &Path) -> Result<ClientFile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let json = strip_jsonc(text);
    let root: Value =
        serde_json::from_str(&json).map_err(|e| format!("{display}: invalid JSON: {e}"))?;
    let Value::Object(top) = root else {
        return Err(format!(
            "{display}: expected a JSON object at the top level"
        ));
    };
    let mut entries = Vec::new();
    let mut inputs = Vec::new();
    let mut found = false;
    // VS Code's user settings nest the same shape under `mcp`.
    let nested = match top.get("mcp") {
        Some(Value::Object(m))
            if !top.contains_key("mcpServers") && !top.contains_key("servers") =>
        {
            Some(m)
        }
        _ => None,
    };
    let (sections, prefix) = match nested {
        Some(m) => (m, "mcp."),
        None => (&top, ""),
    };
    for (key, value) in sections {
        match key.as_str() {
            "mcpServers" | "servers" => {
                found = true;
                let section = format!("{prefix}{key}");
                let Value::Object(servers) = value else {
                    return Err(format!("{display}: {section}: expected an object"));
                };
                for (name, v) in servers {
                    entries.push(RawEntry {
                        name: name.clone(),
                        json_path: member_path(&section, name),
                        value: v.clone(),
                    });
                }
            }
            "inputs" => {
                let section = format!("{prefix}inputs");
                let Value::Array(items) = value else {
                    return Err(format!("{display}: {section}: expected an array"));
                };
                for (i, item) in items.iter().enumerate() {
                    let id = match item.get("id") {
                        Some(Value::String(id)) => id.clone(),
                        _ => {
                            return Err(format!(
                                "{display}: {section}[{i}]: expected an object with a string \"id\""
                            ))
                        }
                    };
                    let default = item.get("default").and_then(scalar_text);
                    inputs.push((id, default));
                }
            }
            _ => {}
        }
    }
    if !found {
        return Err(format!(
            "{display}: no \"mcpServers\" or \"servers\" object (not an MCP client config)"
        ));
    }
    Ok(ClientFile {
        display: display.to_string(),
        entries,
        inputs,
        workspace: workspace.to_path_buf(),
    })
}

fn member_path(section: &str, name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        format!("{section}.{name}")
    } else {
        format!("{section}[{}]", serde_json::Value::String(name.to_string()))
    }
}

/// A JSON scalar as the string a client would pass (clients accept numbers and booleans in
/// `args`, `env` and `headers`); `None` for null, objects and arrays.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// JSON with comments (`//`, `/* */`) and trailing commas, as VS Code writes it, made plain
/// JSON: each comment byte and each trailing comma becomes a space (newlines kept), so the
/// parser's line and column still point into the original text.
pub(crate) fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut in_string = false;
    let mut pending_comma: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if in_string {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_string = true;
                pending_comma = None;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    if b[i] != b'\r' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(b.len(), |p| i + 2 + p + 2);
                for (j, byte) in out.iter_mut().enumerate().take(end).skip(i) {
                    if b[j] != b'\n' && b[j] != b'\r' {
                        *byte = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                pending_comma = Some(i);
                i += 1;
            }
            b'}' | b']' => {
                if let Some(at) = pending_comma.take() {
                    out[at] = b' ';
                }
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => {
                pending_comma = None;
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced, each whole multi-byte sequence byte by byte with
    // spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// How `${…}` in a client file is read (decisions.md #15).
struct Vars<'a> {
    file: &'a ClientFile,
    env: &'a dyn Fn(&str) -> Option<String>,
    secrets: Vec<String>,
}

enum VarError {
    Unset { name: String, var: String },
    Unsupported(String),
}

impl Vars<'_> {
    /// The value of one placeholder's inner text (`env:NAME`, `input:ID`, a predefined
    /// VS Code / Cursor variable, or a plain environment variable name).
    fn value(&mut self, inner: &str) -> Result<String, VarError> {
        let (value, secret) = match inner {
            "workspaceFolder" => (self.file.workspace.display().to_string(), false),
            "workspaceFolderBasename" => (
                self.file
                    .workspace
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                false,
            ),
            "userHome" => (
                (self.env)("HOME")
                    .or_else(|| (self.env)("USERPROFILE"))
                    .ok_or_else(|| VarError::Unset {
                        name: "HOME".into(),
                        var: inner.into(),
                    })?,
                false,
            ),
            "pathSeparator" | "/" => (std::path::MAIN_SEPARATOR.to_string(), false),
            _ => {
                let name = if let Some(id) = inner.strip_prefix("input:") {
                    let env_name = input_env_name(id);
                    match (self.env)(&env_name) {
                        Some(v) => {
                            self.secret(&v);
                            return Ok(v);
                        }
                        None => {
                            let default = self
                                .file
                                .inputs
                                .iter()
                                .find(|(i, _)| i == id)
                                .and_then(|(_, d)| d.clone());
                            match default {
                                Some(d) => {
                                    self.secret(&d);
                                    return Ok(d);
                                }
                                None => {
                                    return Err(VarError::Unset {
                                        name: env_name,
                                        var: inner.into(),
                                    })
                                }
                            }
                        }
                    }
                } else if let Some(name) = inner.strip_prefix("env:") {
                    name
                } else if inner.contains(':') {
                    return Err(VarError::Unsupported(inner.into()));
                } else {
                    inner
                };
                let value = (self.env)(name).ok_or_else(|| VarError::Unset {
                    name: name.to_string(),
                    var: inner.into(),
                })?;
                (value, true)
            }
        };
        if secret {
            self.secret(&value);
        }
        Ok(value)
    }

    fn secret(&mut self, value: &str) {
        if value.chars().count() >= MIN_SECRET_CHARS && !self.secrets.iter().any(|s| s == value) {
            self.secrets.push(value.to_string());
        }
    }

    /// Single pass like `tree::substitute`: `${…}` with a non-empty inner text is replaced,
    /// anything else stays literal, substituted text is never rescanned.
    fn resolve(&mut self, s: &str) -> Result<String, VarError> {
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            match after.find('}') {
                Some(end) if end > 0 => {
                    out.push_str(&self.value(&after[..end])?);
                    rest = &after[end + 1..];
                }
                _ => {
                    out.push('$');
                    rest = &rest[start + 1..];
                }
            }
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// The environment variable answering `${input:ID}`: `MCPWARD_INPUT_` + the id in upper
/// case, every character other than `A-Z` and `0-9` as `_` (`api-key` → `MCPWARD_INPUT_API_KEY`).
pub fn input_env_name(id: &str) -> String {
    let mut s = String::from(INPUT_ENV_PREFIX);
    s.extend(id.chars().map(|c| {
        let c = c.to_ascii_uppercase();
        if c.is_ascii_alphanumeric() {
            c
        } else {
            '_'
        }
    }));
    s
}

enum Kind {
    Stdio,
    Http,
}

/// Convert one entry; `env` answers `${VAR}`, `${env:VAR}` and `${input:ID}` (via
/// [`input_env_name`]).
pub(crate) fn convert(
    file: &ClientFile,
    entry: &RawEntry,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Converted, ClientError> {
    let display = &file.display;
    let at = |field: &str| format!("{display}: {}{field}", entry.json_path);
    let Value::Object(m) = &entry.value else {
        return Err(ClientError::Invalid(format!(
            "{}: expected an object, got {}",
            at(""),
            json_kind(&entry.value)
        )));
    };
    if m.get("disabled") == Some(&Value::Bool(true)) {
        return Ok(Converted::Skip("disabled in the client config".into()));
    }
    let mut warnings = Vec::new();
    let mut typos = Vec::new();
    for (k, _) in m {
        let k = k.as_str();
        if ENTRY_KEYS.contains(&k) || IGNORED_KEYS.contains(&k) {
            continue;
        }
        if let Some((_, why)) = UNSUPPORTED_KEYS.iter().find(|(u, _)| *u == k) {
            warnings.push(format!("{}.{k} ignored: {why}", at("")));
        } else if let Some(s) = suggest(k, ENTRY_KEYS) {
            warnings.push(format!(
                "Unknown key \"{}.{k}\" in {display} ignored (did you mean \"{s}\"?)",
                entry.json_path
            ));
            typos.push(format!("\"{k}\": did you mean \"{s}\"?"));
        }
    }
    let string_field = |key: &str| -> Result<Option<String>, ClientError> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(ClientError::Invalid(format!(
                "{}: expected a string, got {}",
                at(&format!(".{key}")),
                json_kind(other)
            ))),
        }
    };
    let command = string_field("command")?;
    let url = match string_field("url")? {
        Some(u) => Some(u),
        None => string_field("serverUrl")?,
    };
    let declared = match string_field("type")? {
        Some(t) => Some(t),
        None => string_field("transport")?,
    };
    let kind =
        match declared.as_deref() {
            Some(t) => match t.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
                "stdio" => Kind::Stdio,
                "http" | "streamablehttp" => Kind::Http,
                "sse" => return Ok(Converted::Skip(
                    "type \"sse\" is the legacy HTTP+SSE transport, which mcpward does not test \
                     (name the server's Streamable HTTP endpoint under servers:)"
                        .into(),
                )),
                _ => {
                    return Ok(Converted::Skip(format!(
                        "type {} is not a transport mcpward tests (stdio, http, streamable-http)",
                        quote_short(t)
                    )))
                }
            },
            None => match (&command, &url) {
                (Some(_), None) => Kind::Stdio,
                (None, Some(_)) => Kind::Http,
                (Some(_), Some(_)) => {
                    return Ok(Converted::Skip(
                        "has both \"command\" and \"url\" and no \"type\"".into(),
                    ))
                }
                (None, None) => {
                    let hint = if typos.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", typos.join("; "))
                    };
                    return Ok(Converted::Skip(format!(
                        "has neither \"command\" nor \"url\"{hint}"
                    )));
                }
            },
        };
    let mut vars = Vars {
        file,
        env,
        secrets: Vec::new(),
    };
    let mut resolve = |s: &str, field: &str| -> Result<String, ClientError> {
        vars.resolve(s).map_err(|e| match e {
            VarError::Unset { name, var } => ClientError::Var {
                name,
                at: format!("{}, ${{{var}}}", at(field)),
            },
            VarError::Unsupported(var) => ClientError::Invalid(format!(
                "{}: variable ${{{var}}} is not supported (use ${{env:NAME}} or ${{input:ID}})",
                at(field)
            )),
        })
    };
    let mut entries: Vec<(String, Node)> = Vec::new();
    let mut literal_secrets: Vec<String> = Vec::new();
    match kind {
        Kind::Stdio => {
            let Some(command) = command else {
                return Ok(Converted::Skip(
                    "type \"stdio\" without a \"command\"".into(),
                ));
            };
            entries.push(("transport".into(), Node::Str("stdio".into())));
            entries.push(("command".into(), Node::Str(resolve(&command, ".command")?)));
            let mut args = Vec::new();
            match m.get("args") {
                None | Some(Value::Null) => {}
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        let field = format!(".args[{i}]");
                        let Some(text) = scalar_text(item) else {
                            return Err(ClientError::Invalid(format!(
                                "{}: expected a string, got {}",
                                at(&field),
                                json_kind(item)
                            )));
                        };
                        args.push(Node::Str(resolve(&text, &field)?));
                    }
                }
                Some(other) => {
                    return Err(ClientError::Invalid(format!(
                        "{}: expected an array of strings, got {}",
                        at(".args"),
                        json_kind(other)
                    )))
                }
            }
            entries.push(("args".into(), Node::Seq(args)));
            let env_map = string_map(m, "env", &at, &mut resolve)?;
            literal_secrets.extend(env_map.iter().map(|(_, v)| v.clone()));
            entries.push((
                "env".into(),
                Node::Map(
                    env_map
                        .into_iter()
                        .map(|(k, v)| (k, Node::Str(v)))
                        .collect(),
                ),
            ));
        }
        Kind::Http => {
            let Some(url) = url else {
                return Ok(Converted::Skip("type \"http\" without a \"url\"".into()));
            };
            entries.push(("transport".into(), Node::Str("http".into())));
            entries.push(("url".into(), Node::Str(resolve(&url, ".url")?)));
            let headers = string_map(m, "headers", &at, &mut resolve)?;
            for (k, v) in &headers {
                literal_secrets.push(v.clone());
                let lower = k.to_ascii_lowercase();
                if lower == "authorization" || lower == "proxy-authorization" {
                    if let Some((_, cred)) = v.trim().split_once(char::is_whitespace) {
                        literal_secrets.push(cred.trim().to_string());
                    }
                }
            }
            entries.push((
                "headers".into(),
                Node::Map(
                    headers
                        .into_iter()
                        .map(|(k, v)| (k, Node::Str(v)))
                        .collect(),
                ),
            ));
        }
    }
    for s in literal_secrets {
        vars.secret(&s);
    }
    Ok(Converted::Server {
        block: Node::Map(entries),
        secrets: vars.secrets,
        warnings,
    })
}

/// `env` / `headers`: an object of scalars (null drops the key), each value resolved.
fn string_map(
    m: &Map<String, Value>,
    key: &str,
    at: &dyn Fn(&str) -> String,
    resolve: &mut dyn FnMut(&str, &str) -> Result<String, ClientError>,
) -> Result<Vec<(String, String)>, ClientError> {
    let mut out = Vec::new();
    match m.get(key) {
        None | Some(Value::Null) => {}
        Some(Value::Object(entries)) => {
            for (k, v) in entries {
                let field = format!(".{key}.{k}");
                if v.is_null() {
                    continue;
                }
                let Some(text) = scalar_text(v) else {
                    return Err(ClientError::Invalid(format!(
                        "{}: expected a string, got {}",
                        at(&field),
                        json_kind(v)
                    )));
                };
                out.push((k.clone(), resolve(&text, &field)?));
            }
        }
        Some(other) => {
            return Err(ClientError::Invalid(format!(
                "{}: expected an object of strings, got {}",
                at(&format!(".{key}")),
                json_kind(other)
            )))
        }
    }
    Ok(out)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
