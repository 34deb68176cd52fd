//! The `mcpward.yaml` config layer (config.md): locate, read, parse YAML (1.2 core, one
//! document, no duplicate keys), interpolate `${VAR}`, validate by hand and apply defaults.
//!
//! Validation is hand-written rather than serde-derived so that every issue is collected with
//! its dot path, defaults apply only inside present objects, and unknown keys become warnings
//! with a "did you mean" hint (DECISIONS #10) instead of silent drops.

mod clients;
pub mod endpoint;
mod fleet;
pub mod lines;
mod offline;
mod raw;
mod schema;
mod secrets;
mod suppress;
mod template;
mod tree;
mod types;
mod validate;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fleet_tests;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

pub use schema::{config_schema, config_schema_text, CONFIG_SCHEMA_ID};
pub use suppress::{parse_file_text as parse_suppress_file, SUPPRESS_FILE};
pub use template::{init_template, init_template_for};

pub use clients::{input_env_name, INPUT_ENV_PREFIX, MAX_CLIENT_FILE_BYTES};
pub use fleet::{sanitize as member_name, valid_name, FLEET_BASELINE, SERVER_PLACEHOLDER};

pub use types::{Checks, Config, Expect, Server, Timeouts, Transport};

/// Each family's config is the family's own type; re-exported under the config's names.
pub use crate::checks::behavioral::{CaseExpect, Suite, SuiteCase};
pub use crate::checks::collision::CollisionConfig;
pub use crate::checks::compliance::ComplianceConfig;
pub use crate::checks::drift::{
    DriftConfig, FailOn, OutputDriftConfig, DEFAULT_BASELINE, DEFAULT_FAIL_ON,
};
pub use crate::checks::errors::{ErrorsConfig, InvalidParamsPolicy, UnknownToolPolicy};
pub use crate::checks::latency::LatencyConfig;
pub use crate::checks::tool_args::ToolArgs;
pub use crate::surface::drift_vocab::{DriftClass, Level as DriftSeverity};

/// A successfully loaded config plus what the caller needs around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub config: Config,
    /// The path as given.
    pub path: PathBuf,
    /// The config file's directory (`.` for a bare file name); base of `golden` paths.
    pub dir: PathBuf,
    /// Every interpolated value of at least 4 characters, then the literal credentials of
    /// `server.headers`/`server.env` (`secrets.rs`); first-seen order, no duplicates.
    pub secrets: Vec<String>,
    /// Unknown-key warnings, one line each, for stderr.
    pub warnings: Vec<String>,
    /// The line of every key path of the file (`lines::key_lines`), plus `suites.<tool>`
    /// for each suite: reports anchor findings to them.
    pub key_lines: std::collections::BTreeMap<String, usize>,
}

/// One named server of a fleet config (`servers:` / `servers_from:`, #15): a complete
/// single-server [`Loaded`] whose `config.server` is that server and whose `checks` /
/// `timeouts` are the top-level ones with the server's own overrides merged over them
/// (`checks.drift.baseline` with `{server}` already replaced by `name`).
///
/// In `loaded`: `path` / `dir` are the fleet file's; `secrets` are this member's (the
/// `${VAR}` values its derived config uses, its literal credentials and, for a
/// `servers_from` entry, every resolved variable and every env/header value); `warnings`
/// are its unknown keys (real paths) and its client entry's notes; `key_lines` are in
/// single-server terms (`server`, `server.command`, `checks.drift`, `suites.<tool>`) and
/// point into the fleet file (`server` is the `servers.<name>` key, or the `servers_from`
/// entry that imported it). [`Member::baseline`] is its lockfile path.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// `[A-Za-z0-9_.-]+`, unique in the fleet.
    pub name: String,
    pub loaded: Loaded,
}

/// A config naming several servers, in config order (`servers:` entries first, then each
/// `servers_from:` file's entries in file order).
#[derive(Debug, Clone, PartialEq)]
pub struct Fleet {
    pub members: Vec<Member>,
    /// The top-level `checks` (no per-server override): the cross-server findings' settings.
    pub checks: Checks,
    pub path: PathBuf,
    pub dir: PathBuf,
    /// Every member's secrets, first-seen order, no duplicates (for fleet-level output).
    pub secrets: Vec<String>,
    /// Unknown-key warnings of the whole file, one line each, for stderr.
    pub warnings: Vec<String>,
    /// Accepted findings (#16 §3), the same list every member's config holds.
    pub suppress: Vec<crate::checks::suppress::Entry>,
}

/// What a config file describes: one `server:` (the original's shape, unchanged) or a fleet.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadedAny {
    Single(Loaded),
    Fleet(Fleet),
}

/// The closest of `known` to a mistyped name (the did-you-mean of config keys).
pub fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    validate::suggest(name, known)
}

/// What `run`/`baseline`/`diff --from FILE` use when no config file exists (#16 §2;
/// `offline::config`). `path` is the config path that was looked for.
pub fn offline_defaults(path: &Path) -> Loaded {
    Loaded {
        config: offline::config(),
        path: path.to_path_buf(),
        dir: PathBuf::from("."),
        secrets: Vec::new(),
        warnings: Vec::new(),
        key_lines: Default::default(),
    }
}

/// The config of a `--from FILE` run (#16 §2): the server is never contacted, so a variable
/// only its server (or a member's) uses may be unset, and a config without `server:` is
/// accepted (the file stands in for it).
pub fn load_for_snapshot(path: &Path) -> Result<LoadedAny, ConfigError> {
    const PLACEHOLDER: &str = "unset-offline";
    let text = read_config(path)?;
    let mut unset: BTreeMap<String, String> = BTreeMap::new();
    // Each round finds the next unset server variable; a config has far fewer.
    for _ in 0..256 {
        let env = |name: &str| process_var(name).or_else(|| unset.get(name).cloned());
        match load_any_str(&text, path, &env) {
            Err(ConfigError::EnvVar { name, at })
                if at.starts_with("server") && !unset.contains_key(&name) =>
            {
                unset.insert(name, PLACEHOLDER.to_string());
            }
            Err(ConfigError::Invalid { issues })
                if issues.iter().any(|i| i.starts_with("server: required")) =>
            {
                let stripped = text.strip_prefix('\u{feff}').unwrap_or(&text);
                let mut pre = Vec::new();
                let root =
                    tree::parse(stripped, &mut pre).map_err(|message| ConfigError::Yaml {
                        path: path.to_path_buf(),
                        message,
                    })?;
                let ov = endpoint::Overrides {
                    target: Some(endpoint::EndpointTarget::Stdio {
                        command: "(snapshot)".into(),
                        args: Vec::new(),
                    }),
                    ..Default::default()
                };
                return load_parsed(stripped, root, pre, path, &env, Some(&ov))
                    .map(LoadedAny::Single);
            }
            other => return other,
        }
    }
    load_any(path)
}

/// Load a config of either shape from disk, resolving `${VAR}` from the process environment.
/// A `server:` config loads exactly as [`load`] does; `servers:` / `servers_from:` make a
/// fleet (`servers_from` files are read relative to the config file's directory).
pub fn load_any(path: &Path) -> Result<LoadedAny, ConfigError> {
    let text = read_config(path)?;
    load_any_str(&text, path, &process_var)
}

/// [`load_any`] over `text` as if read from `path` (client files are still read from disk).
pub fn load_any_str(
    text: &str,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<LoadedAny, ConfigError> {
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut pre_issues = Vec::new();
    let root = tree::parse(stripped, &mut pre_issues).map_err(|message| ConfigError::Yaml {
        path: path.to_path_buf(),
        message,
    })?;
    match fleet::shape(&root) {
        fleet::Shape::Fleet => match fleet::load(stripped, root.clone(), pre_issues, path, env) {
            Ok(built) => {
                with_suppress_file_fleet(fleet_of(built, path), &root, env).map(LoadedAny::Fleet)
            }
            Err(fleet::Failure::EnvVar { name, at }) => Err(ConfigError::EnvVar { name, at }),
            Err(fleet::Failure::Invalid(issues)) => Err(ConfigError::Invalid { issues }),
        },
        _ => load_parsed(stripped, root, pre_issues, path, env, None).map(LoadedAny::Single),
    }
}

fn fleet_of(built: fleet::Built, path: &Path) -> Fleet {
    Fleet {
        members: built
            .members
            .into_iter()
            .map(|m| Member {
                name: m.name,
                loaded: Loaded {
                    config: m.config,
                    path: path.to_path_buf(),
                    dir: built.dir.clone(),
                    secrets: m.secrets,
                    warnings: m.warnings,
                    key_lines: m.key_lines,
                },
            })
            .collect(),
        checks: built.checks,
        path: path.to_path_buf(),
        dir: built.dir,
        secrets: built.secrets,
        warnings: built.warnings,
        suppress: Vec::new(),
    }
}

impl Member {
    /// The lockfile `baseline` writes and `diff` reads for this member:
    /// `checks.drift.baseline` when drift is configured (`{server}` already replaced),
    /// else the fleet default `./mcpward.lock.<name>.json`.
    pub fn baseline(&self) -> String {
        fleet::member_baseline(&self.name, &self.loaded.config)
    }
}

/// Every load failure; `Display` is the stderr text after the CLI's `Error: ` prefix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("Config file not found: {}\nRun \"mcpward init\" to create one.", path.display())]
    NotFound { path: PathBuf },
    #[error("Failed to read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// YAML syntax, duplicate keys, several documents (message carries line/column when known).
    #[error("Invalid YAML in {}: {message}", path.display())]
    Yaml { path: PathBuf, message: String },
    /// The first unset `${NAME}`; `at` is the dot path of the value that used it.
    #[error("Environment variable \"{name}\" is not set{}", at_suffix(at))]
    EnvVar { name: String, at: String },
    /// All validation issues, each `path: reason` (or just `reason` at the root).
    #[error("Invalid config:\n{}", issues.join("\n"))]
    Invalid { issues: Vec<String> },
    /// [`load`] was given a fleet config (`servers:` / `servers_from:`); use [`load_any`].
    #[error(
        "{} names several servers (servers: / servers_from:), not one server:; it must be loaded as a fleet",
        path.display()
    )]
    Fleet { path: PathBuf },
}

fn at_suffix(at: &str) -> String {
    if at.is_empty() {
        String::new()
    } else {
        format!(" (used by {at})")
    }
}

/// Where a config built from the command line alone says it came from.
pub const COMMAND_LINE: &str = "(command line)";

/// A config with the command line's server and families (#16 §1): from `path` when one is
/// given (it supplies everything else; a flag that repeats what it says is an error), else
/// from the flags alone with every default. A fleet config takes no endpoint flags.
pub fn load_with(
    path: Option<&Path>,
    overrides: &endpoint::Overrides,
) -> Result<LoadedAny, ConfigError> {
    let Some(path) = path else {
        let root = tree::Node::Map(endpoint::command_line_defaults(overrides));
        return load_parsed(
            "",
            root,
            Vec::new(),
            Path::new(COMMAND_LINE),
            &process_var,
            Some(overrides),
        )
        .map(LoadedAny::Single);
    };
    if overrides.is_empty() {
        return load_any(path);
    }
    let text = read_config(path)?;
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut pre_issues = Vec::new();
    let root = tree::parse(stripped, &mut pre_issues).map_err(|message| ConfigError::Yaml {
        path: path.to_path_buf(),
        message,
    })?;
    if fleet::shape(&root) != fleet::Shape::Single {
        return Err(ConfigError::Invalid {
            issues: vec![format!(
                "{} names several servers (servers: / servers_from:); the server flags (a command, --url, --header, --env, --check) apply to a one-server config only",
                path.display()
            )],
        });
    }
    load_parsed(
        stripped,
        root,
        pre_issues,
        path,
        &process_var,
        Some(overrides),
    )
    .map(LoadedAny::Single)
}

/// Load from disk, resolving `${VAR}` from the real process environment.
pub fn load(path: &Path) -> Result<Loaded, ConfigError> {
    let text = read_config(path)?;
    load_str(&text, path, &process_var)
}

fn read_config(path: &Path) -> Result<String, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ConfigError::NotFound {
            path: path.to_path_buf(),
        }),
        Err(source) => Err(ConfigError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// A process variable; names the OS cannot hold count as unset, never a panic.
fn process_var(name: &str) -> Option<String> {
    if name.is_empty() || name.contains(['=', '\0']) {
        return None;
    }
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// Parse, interpolate and validate `text` as if read from `path`.
pub fn load_str(
    text: &str,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Loaded, ConfigError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut pre_issues = Vec::new();
    let root = tree::parse(text, &mut pre_issues).map_err(|message| ConfigError::Yaml {
        path: path.to_path_buf(),
        message,
    })?;
    load_parsed(text, root, pre_issues, path, env, None)
}

/// [`load_str`] after parsing: `text` (without its BOM) is only read for key lines.
fn load_parsed(
    text: &str,
    mut root: tree::Node,
    pre_issues: Vec<String>,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    overrides: Option<&endpoint::Overrides>,
) -> Result<Loaded, ConfigError> {
    match fleet::shape(&root) {
        fleet::Shape::Single => {}
        fleet::Shape::Both => {
            return Err(ConfigError::Invalid {
                issues: vec![fleet::BOTH_ISSUE.to_string()],
            })
        }
        fleet::Shape::Fleet => {
            return Err(ConfigError::Fleet {
                path: path.to_path_buf(),
            })
        }
    }
    let mut secrets = Vec::new();
    let written = secrets::secret_entries(&root);
    tree::interpolate(&mut root, "", env, &mut secrets)
        .map_err(|(name, at)| ConfigError::EnvVar { name, at })?;
    secrets::register_literals(&written, &secrets::secret_entries(&root), &mut secrets);
    if let Some(ov) = overrides {
        endpoint::merge(&mut root, ov, &path.display().to_string(), &mut secrets)
            .map_err(|m| ConfigError::Invalid { issues: vec![m] })?;
    }
    let outcome = validate::validate(&root);
    let mut issues = pre_issues;
    issues.extend(outcome.issues);
    let suppress_entries = suppress::entries_of(&root, &mut issues);
    let config = match outcome.config {
        Some(c) if issues.is_empty() => c,
        _ => {
            // Unknown keys often explain a "required" issue (`comand:`), so list them too.
            issues.extend(outcome.unknown.iter().map(|u| u.as_issue()));
            if issues.is_empty() {
                issues.push("invalid configuration".to_string());
            }
            return Err(ConfigError::Invalid {
                issues: issues
                    .iter()
                    .map(|i| secrets::redact(i, &secrets))
                    .collect(),
            });
        }
    };
    let mut key_lines = lines::key_lines(text);
    for (i, suite) in config.suites.iter().enumerate() {
        if let Some(&line) = key_lines.get(&format!("suites[{i}]")) {
            key_lines
                .entry(format!("suites.{}", suite.tool))
                .or_insert(line);
        }
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut config = config;
    config.suppress = suppress_entries;
    // A config from the command line alone reads no file of the directory (not
    // ./mcpward.yaml, so not ./mcpward.suppress.yaml either).
    if path != Path::new(COMMAND_LINE) {
        with_suppress_file(&mut config.suppress, &dir, None)?;
    }
    Ok(Loaded {
        config,
        path: path.to_path_buf(),
        dir,
        secrets,
        warnings: outcome.unknown.iter().map(|u| u.as_warning()).collect(),
        key_lines,
    })
}

/// Appends `mcpward.suppress.yaml`'s entries (in `dir`) to the config's and checks every
/// entry's `server:` against the fleet's member names (`None`: a single-server config).
fn with_suppress_file(
    entries: &mut Vec<crate::checks::suppress::Entry>,
    dir: &Path,
    members: Option<&[&str]>,
) -> Result<(), ConfigError> {
    let mut issues = Vec::new();
    match suppress::read_file(dir) {
        Ok(more) => entries.extend(more),
        Err(e) => issues.extend(e),
    }
    suppress::check_servers(entries, members, &mut issues);
    if issues.is_empty() {
        Ok(())
    } else {
        Err(ConfigError::Invalid { issues })
    }
}

/// [`with_suppress_file`] for a fleet: every member holds the same list (the top-level
/// `suppress:` is shared like `checks:`), and so does [`Fleet::suppress`].
fn with_suppress_file_fleet(
    mut fleet: Fleet,
    root: &tree::Node,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Fleet, ConfigError> {
    let names: Vec<String> = fleet.members.iter().map(|m| m.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // The top-level list, interpolated like the rest of the file (fleet::load interpolated
    // its own copy; the first unset variable was reported there).
    let mut root = root.clone();
    let mut secrets = Vec::new();
    tree::interpolate(&mut root, "", env, &mut secrets)
        .map_err(|(name, at)| ConfigError::EnvVar { name, at })?;
    let mut issues = Vec::new();
    let mut entries = suppress::entries_of(&root, &mut issues);
    if !issues.is_empty() {
        return Err(ConfigError::Invalid { issues });
    }
    with_suppress_file(&mut entries, &fleet.dir, Some(&names))?;
    for m in &mut fleet.members {
        m.loaded.config.suppress = entries.clone();
    }
    fleet.suppress = entries;
    Ok(fleet)
}

/// mcpward's own credentials, never passed to a stdio server (config.md §8).
const WITHHELD: [&str; 2] = ["MCPWARD_GITHUB_TOKEN", "GITHUB_TOKEN"];

fn withheld(name: &OsStr) -> bool {
    // Case-insensitive so Windows spellings are caught too.
    let name = name.to_string_lossy();
    WITHHELD.iter().any(|w| name.eq_ignore_ascii_case(w))
}

/// The stdio server's environment (config.md §8): `parent` minus mcpward's credentials
/// (case-insensitive), overlaid with `extra` (`server.env`), which always wins. Sorted by name.
pub fn server_env(
    extra: &BTreeMap<String, String>,
    parent: impl Iterator<Item = (String, String)>,
) -> Vec<(String, String)> {
    let mut out: BTreeMap<String, String> = parent
        .filter(|(k, _)| !k.is_empty() && !withheld(OsStr::new(k)))
        .collect();
    out.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
    out.into_iter().collect()
}

/// [`server_env`] over the real process environment, keeping non-UTF-8 entries intact
/// (`std::env::vars` would panic on them). For `Command::env_clear().envs(..)`.
pub fn server_env_for_spawn(extra: &BTreeMap<String, String>) -> Vec<(OsString, OsString)> {
    let mut out: BTreeMap<OsString, OsString> = std::env::vars_os()
        .filter(|(k, _)| !k.is_empty() && !withheld(k))
        .collect();
    out.extend(
        extra
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    out.into_iter().collect()
}
