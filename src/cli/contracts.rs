//! Named contracts (#16 §5): `baseline --name NAME <endpoint>` pins a server's contract in
//! `.mcpward/contracts/NAME.lock.json` with the endpoint it was reached at, `diff NAME`
//! checks it with no config, and `contracts list|show|delete` manage what is pinned.

use crate::config::endpoint::{self, EndpointTarget};
use crate::config::{self, LoadedAny};
use crate::surface::lockfile::{self, BaselineState, ContractMeta, Lockfile};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum ContractsAction {
    /// Every lockfile the config names and every named contract: surface counts, captured, age
    List,
    /// The pinned surface of a contract as a table (or --json)
    Show {
        /// A named contract, a fleet server's name, or a lockfile path (--json for JSON)
        name: String,
    },
    /// Delete a named contract
    Delete { name: String },
}

/// What `contracts list|show` read besides the contracts: the config, and `--json`.
pub struct Where<'a> {
    pub config: &'a Path,
    pub config_given: bool,
    pub json: bool,
}

/// Where named contracts live, relative to the working directory.
pub const DIR: &str = ".mcpward/contracts";

/// A name that is one plain file name on every platform.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && !name.starts_with(['.', '-'])
}

fn checked(name: &str) -> Result<(), String> {
    if valid_name(name) {
        Ok(())
    } else {
        Err(format!(
            "contract name {name:?} must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
        ))
    }
}

pub fn path_of(name: &str) -> PathBuf {
    Path::new(DIR).join(format!("{name}.lock.json"))
}

/// A named contract being captured or checked.
#[derive(Debug, Clone)]
pub struct Named {
    pub name: String,
    /// The lockfile, as the drift config names it.
    pub path: String,
    /// What `baseline` stamps into the lockfile (`None` for `diff`).
    pub meta: Option<ContractMeta>,
}

/// The endpoint as one line that [`shlex::split`] reads back to the same words.
fn endpoint_line(target: &EndpointTarget) -> String {
    let words = endpoint::endpoint_words(target);
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

/// `baseline --name NAME [--notes …] <endpoint>`: `target` is the server on the command line.
pub fn for_baseline(
    name: &str,
    notes: Option<&str>,
    target: Option<&EndpointTarget>,
) -> Result<Named, String> {
    checked(name)?;
    let Some(target) = target else {
        return Err(format!(
            "baseline --name {name} needs the server it pins: an endpoint (npx:<package>, stdio:<command> [args], an http(s) URL) or `-- <command…>`"
        ));
    };
    Ok(Named {
        name: name.to_string(),
        path: path_of(name).to_string_lossy().into_owned(),
        meta: Some(ContractMeta {
            name: name.to_string(),
            endpoint: endpoint_line(target),
            notes: notes.map(str::to_string),
        }),
    })
}

fn read(name: &str) -> Result<Lockfile, String> {
    let path = path_of(name);
    match lockfile::load(&path) {
        BaselineState::Loaded(l) => Ok(l.lockfile),
        BaselineState::Missing { .. } => Err(format!(
            "no contract named {name} ({} does not exist); `mcpward contracts list` shows the stored ones, `mcpward baseline --name {name} <endpoint>` creates it",
            path.display()
        )),
        BaselineState::Invalid(e) => Err(format!(
            "contract {name} ({}) cannot be read: {e}",
            path.display()
        )),
    }
}

/// `diff NAME [--endpoint …]`: the server is where the contract was captured unless
/// `--endpoint` says otherwise; headers and env values are never stored, so they come from
/// `--header` / `--env` again.
pub fn for_diff(
    name: &str,
    endpoint_override: Option<&str>,
) -> Result<(EndpointTarget, Named), String> {
    checked(name)?;
    let line = match endpoint_override {
        Some(e) => e.to_string(),
        None => match read(name)?.meta.contract {
            Some(c) if !c.endpoint.trim().is_empty() => c.endpoint,
            _ => {
                return Err(format!(
                    "{} records no endpoint (it was not written by `baseline --name`); give one with --endpoint",
                    path_of(name).display()
                ))
            }
        },
    };
    let words = shlex::split(&line).ok_or_else(|| {
        format!("endpoint of contract {name} is not a valid command line: {line:?}")
    })?;
    let target =
        endpoint::parse_target(&words).map_err(|e| format!("endpoint of contract {name}: {e}"))?;
    // `diff` reads the lockfile itself (and exits 2 when it is missing).
    let named = Named {
        name: name.to_string(),
        path: path_of(name).to_string_lossy().into_owned(),
        meta: None,
    };
    Ok((target, named))
}

/// Points the loaded config's drift at the named contract's lockfile. Without a config file
/// the whole surface is pinned, as `mcpward init` does.
pub fn apply(named: &Named, loaded: &mut config::Loaded, config_given: bool) {
    let mut d = loaded.config.checks.drift.clone().unwrap_or_default();
    d.baseline = named.path.clone();
    if !config_given {
        d.surface = crate::surface::drift_vocab::SurfaceSet::ALL;
    }
    loaded.config.checks.drift = Some(d);
}

/// One pinned contract as `contracts list` shows it.
struct Row {
    name: String,
    kind: &'static str,
    path: String,
    state: Result<Lockfile, String>,
}

fn rows(at: &Where) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let dir = Path::new(DIR);
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".lock.json"))
                    .map(str::to_string)
            })
            .filter(|n| valid_name(n))
            .collect();
        names.sort();
        for name in names {
            out.push(row(name.clone(), "contract", path_of(&name)));
        }
    }
    if at.config_given || at.config.exists() {
        // Only lockfile paths are read: the server's variables need not be set.
        let loaded = match config::load_for_snapshot(at.config) {
            Ok(l) => l,
            Err(e) => {
                out.push(Row {
                    name: at.config.display().to_string(),
                    kind: "config",
                    path: at.config.display().to_string(),
                    state: Err(format!("unreadable: {}", e.to_string().replace('\n', " "))),
                });
                return Ok(out);
            }
        };
        match loaded {
            LoadedAny::Single(l) => {
                let base = crate::drift_run::drift_config(&l).baseline;
                let name = match &l.config.server.transport {
                    config::Transport::Stdio { command, .. } => command.clone(),
                    config::Transport::Http { url, .. } => url.clone(),
                };
                let mut r = row(name, "server", PathBuf::from(base));
                // The server's name comes from the lockfile when there is one.
                if let Ok(lf) = &r.state {
                    r.name = lf.meta.server_name.clone();
                }
                out.push(r);
            }
            LoadedAny::Fleet(f) => {
                for m in &f.members {
                    out.push(row(m.name.clone(), "server", PathBuf::from(m.baseline())));
                }
            }
        }
    }
    Ok(out)
}

fn row(name: String, kind: &'static str, path: PathBuf) -> Row {
    let state = match lockfile::load(&path) {
        BaselineState::Loaded(l) => Ok(l.lockfile),
        BaselineState::Missing { .. } => Err("not captured yet".to_string()),
        BaselineState::Invalid(e) => Err(format!("unreadable: {e}")),
    };
    Row {
        name,
        kind,
        path: path.to_string_lossy().into_owned(),
        state,
    }
}

fn count<T>(v: &Option<Vec<T>>) -> Value {
    v.as_ref().map_or(Value::Null, |v| v.len().into())
}

fn age_days(lf: &Lockfile) -> Option<i64> {
    crate::model::parse_day(&lf.meta.captured_at).map(|d| crate::model::today() - d)
}

fn row_json(r: &Row) -> Value {
    match &r.state {
        Ok(lf) => json!({
            "name": r.name,
            "kind": r.kind,
            "path": r.path,
            "server": lf.meta.server_name,
            "serverVersion": lf.meta.server_version,
            "tools": lf.tools.len(),
            "prompts": count(&lf.other.prompts),
            "resources": count(&lf.other.resources),
            "resourceTemplates": count(&lf.other.resource_templates),
            "capturedAt": lf.meta.captured_at,
            "ageDays": age_days(lf),
            "canonicalVersion": lf.meta.canonical_version,
            "endpoint": lf.meta.contract.as_ref().map(|c| c.endpoint.clone()),
            "notes": lf.meta.contract.as_ref().and_then(|c| c.notes.clone()),
        }),
        Err(e) => json!({"name": r.name, "kind": r.kind, "path": r.path, "error": e}),
    }
}

fn table(header: &[&str], body: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for line in body {
        for (i, cell) in line.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let fmt = |cells: Vec<String>| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string()
    };
    let mut out = vec![fmt(header.iter().map(|h| h.to_string()).collect())];
    out.extend(body.iter().cloned().map(fmt));
    out.join("\n")
}

fn opt(v: &Option<Vec<impl Sized>>) -> String {
    v.as_ref().map_or("-".into(), |v| v.len().to_string())
}

/// Server text in a table: one line, control and invisible characters shown as escapes.
fn cell(s: &str, max: usize) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = crate::redact::Redactor::new().redact_str(&flat);
    let mut cut: String = flat.chars().take(max).collect();
    if flat.chars().count() > max {
        cut.push('…');
    }
    cut
}

fn list(at: &Where) -> Result<String, String> {
    let rows = rows(at)?;
    if at.json {
        return Ok(serde_json::to_string_pretty(&Value::Array(
            rows.iter().map(row_json).collect(),
        ))
        .unwrap_or_default());
    }
    if rows.is_empty() {
        return Ok("No contracts yet: `mcpward baseline` pins the config's server, `mcpward baseline --name NAME <endpoint>` a named one.".into());
    }
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| match &r.state {
            Ok(lf) => vec![
                cell(&r.name, 40),
                r.kind.to_string(),
                cell(&lf.meta.server_name, 40),
                lf.tools.len().to_string(),
                opt(&lf.other.prompts),
                opt(&lf.other.resources),
                opt(&lf.other.resource_templates),
                lf.meta.captured_at.get(..10).unwrap_or("?").to_string(),
                age_days(lf).map_or("?".into(), |a| format!("{a}d")),
                lf.meta.canonical_version.to_string(),
                r.path.clone(),
            ],
            Err(e) => {
                let mut v = vec![cell(&r.name, 40), r.kind.to_string(), cell(e, 40)];
                v.extend(std::iter::repeat_n("-".to_string(), 7));
                v.push(r.path.clone());
                v
            }
        })
        .collect();
    Ok(table(
        &[
            "NAME",
            "KIND",
            "SERVER",
            "TOOLS",
            "PROMPTS",
            "RESOURCES",
            "TEMPLATES",
            "CAPTURED",
            "AGE",
            "CANONICAL",
            "PATH",
        ],
        &body,
    ))
}

/// NAME as a named contract, else a fleet member's or the config server's name, else a path.
fn find(at: &Where, name: &str) -> Result<(String, Lockfile), String> {
    if valid_name(name) && path_of(name).exists() {
        return read(name).map(|l| (path_of(name).to_string_lossy().into_owned(), l));
    }
    for r in rows(at)? {
        if r.name == name || r.path == name {
            return match r.state {
                Ok(l) => Ok((r.path, l)),
                Err(e) => Err(format!("{name} ({}): {e}", r.path)),
            };
        }
    }
    if Path::new(name).is_file() {
        return match lockfile::load(Path::new(name)) {
            BaselineState::Loaded(l) => Ok((name.to_string(), l.lockfile)),
            BaselineState::Invalid(e) => Err(format!("{name}: {e}")),
            BaselineState::Missing { .. } => Err(format!("{name} disappeared while reading it")),
        };
    }
    Err(format!(
        "no contract named {name}; `mcpward contracts list` shows the stored ones"
    ))
}

fn hint(lf_annotations: &Option<serde_json::Map<String, Value>>, key: &str) -> bool {
    lf_annotations
        .as_ref()
        .and_then(|a| a.get(key))
        .and_then(Value::as_bool)
        == Some(true)
}

fn show(at: &Where, name: &str) -> Result<String, String> {
    let (path, lf) = find(at, name)?;
    let mut tools: Vec<&(String, lockfile::ToolEntry)> = lf.tools.iter().collect();
    tools.sort_by(|a, b| a.0.cmp(&b.0));
    if at.json {
        let tools: Vec<Value> = tools
            .iter()
            .map(|(n, t)| {
                json!({
                    "name": n,
                    "description": t.description,
                    "descriptionHash": t.description_hash,
                    "inputSchema": serde_json::from_str::<Value>(t.input_schema.as_str()).unwrap_or(Value::Null),
                    "annotations": t.annotations,
                })
            })
            .collect();
        let names = |v: Option<Vec<String>>| v.map_or(Value::Null, |v| json!(v));
        let doc = json!({
            "path": path,
            "server": lf.meta.server_name,
            "serverVersion": lf.meta.server_version,
            "protocolVersion": lf.protocol_version,
            "capturedAt": lf.meta.captured_at,
            "ageDays": age_days(&lf),
            "canonicalVersion": lf.meta.canonical_version,
            "contract": lf.meta.contract.as_ref().map(|c| json!({"name": c.name, "endpoint": c.endpoint, "notes": c.notes})),
            "tools": tools,
            "prompts": names(lf.other.prompts.as_ref().map(|p| p.iter().map(|(n, _)| n.clone()).collect())),
            "resources": names(lf.other.resources.as_ref().map(|p| p.iter().map(|(n, _)| n.clone()).collect())),
            "resourceTemplates": names(lf.other.resource_templates.as_ref().map(|p| p.iter().map(|(n, _)| n.clone()).collect())),
        });
        return Ok(serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    let mut lines = vec![
        format!("Contract: {path}"),
        format!(
            "Server: {} v{} (protocol {})",
            cell(&lf.meta.server_name, 60),
            cell(&lf.meta.server_version, 30),
            cell(&lf.protocol_version, 30)
        ),
        format!(
            "Captured: {}{}",
            lf.meta.captured_at,
            age_days(&lf).map_or(String::new(), |a| format!(" ({a} days ago)"))
        ),
    ];
    if let Some(c) = &lf.meta.contract {
        lines.push(format!("Endpoint: {}", c.endpoint));
        if let Some(n) = &c.notes {
            lines.push(format!("Notes: {}", cell(n, 200)));
        }
    }
    lines.push(String::new());
    let body: Vec<Vec<String>> = tools
        .iter()
        .map(|(n, t)| {
            let params = serde_json::from_str::<Value>(t.input_schema.as_str())
                .ok()
                .and_then(|s| {
                    s.get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect::<Vec<_>>().join(", "))
                })
                .unwrap_or_default();
            let mut hints = Vec::new();
            if hint(&t.annotations, "readOnlyHint") {
                hints.push("readOnly");
            }
            if hint(&t.annotations, "destructiveHint") {
                hints.push("destructive");
            }
            let desc = t
                .description
                .as_deref()
                .map_or_else(|| format!("(hash {})", t.description_hash), |d| cell(d, 60));
            vec![cell(n, 40), cell(&params, 40), hints.join(","), desc]
        })
        .collect();
    lines.push(format!("Tools ({}):", tools.len()));
    lines.push(table(
        &["NAME", "PARAMETERS", "HINTS", "DESCRIPTION"],
        &body,
    ));
    for (what, names) in [
        (
            "Prompts",
            lf.other
                .prompts
                .as_ref()
                .map(|p| p.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()),
        ),
        (
            "Resources",
            lf.other
                .resources
                .as_ref()
                .map(|p| p.iter().map(|(n, _)| n.clone()).collect()),
        ),
        (
            "Resource templates",
            lf.other
                .resource_templates
                .as_ref()
                .map(|p| p.iter().map(|(n, _)| n.clone()).collect()),
        ),
    ] {
        if let Some(names) = names {
            lines.push(String::new());
            lines.push(format!("{what} ({}):", names.len()));
            lines.extend(names.iter().map(|n| format!("  {}", cell(n, 100))));
        }
    }
    Ok(lines.join("\n"))
}

fn delete(name: &str) -> Result<String, String> {
    checked(name)?;
    let path = path_of(name);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(format!("Deleted contract {name} ({})", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "no contract named {name} ({} does not exist)",
            path.display()
        )),
        Err(e) => Err(format!("cannot delete {}: {e}", path.display())),
    }
}

/// `contracts list|show|delete`: the text to print, or the error (exit 2).
pub fn run(action: &ContractsAction, at: &Where) -> Result<String, String> {
    match action {
        ContractsAction::List => list(at),
        ContractsAction::Show { name } => show(at, name),
        ContractsAction::Delete { name } => delete(name),
    }
}
