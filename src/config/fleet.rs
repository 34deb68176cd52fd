//! Fleet configs (#15): `servers:` (named server blocks with their own overrides) and
//! `servers_from:` (MCP client config files). Every member is checked by deriving the
//! single-server tree it stands for (`server:` = its block, `checks` / `timeouts` / … = the
//! top-level ones with its overrides merged over them) and running the one validator on it,
//! so every key keeps its meaning and its defaults; issue paths are then mapped back to the
//! real ones (`server.command` → `servers.api.command`).

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use super::clients::{self, ClientError, ClientFile, Converted};
use super::lines;
use super::secrets::{self, redact};
use super::tree::{self, join, Node};
use super::types::{Checks, Config};
use super::validate::{self, suggest, Unknown, UnknownKind};

/// Keys of a `servers.<name>` block merged over the top-level ones (everything else is the
/// server block itself).
pub(super) const OVERRIDE_KEYS: &[&str] = &["checks", "timeouts", "limits", "expect", "suites"];

/// The lockfile of each member when `checks.drift.baseline` is not set.
pub const FLEET_BASELINE: &str = "./mcpward.lock.{server}.json";
/// Replaced by the member's name in `checks.drift.baseline`.
pub const SERVER_PLACEHOLDER: &str = "{server}";

pub(super) const BOTH_ISSUE: &str = "server: cannot be combined with servers or servers_from \
(a config tests one `server:` or names its servers under `servers:`)";

/// Which shape a parsed document has.
#[derive(PartialEq)]
pub(super) enum Shape {
    Single,
    Fleet,
    Both,
}

pub(super) fn shape(root: &Node) -> Shape {
    let Node::Map(m) = root else {
        return Shape::Single;
    };
    let has = |k: &str| m.iter().any(|(key, _)| key == k);
    match (has("server"), has("servers") || has("servers_from")) {
        (true, true) => Shape::Both,
        (false, true) => Shape::Fleet,
        _ => Shape::Single,
    }
}

/// `[A-Za-z0-9_.-]+`, and not `.` or `..` (a name may end up in a lockfile path).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A client's entry name made valid: every other character becomes `-`.
pub fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.chars().all(|c| c == '.') {
        s.replace('.', "-")
    } else {
        s
    }
}

fn get<'a>(m: &'a [(String, Node)], key: &str) -> Option<&'a Node> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn set(m: &mut Vec<(String, Node)>, key: &str, value: Node) {
    match m.iter_mut().find(|(k, _)| k == key) {
        Some((_, v)) => *v = value,
        None => m.push((key.to_string(), value)),
    }
}

/// `over` merged over `base`: mappings key by key (recursively), anything else replaces;
/// a `null` in `over` removes the key (JSON merge patch, RFC 7386).
fn merge(base: &Node, over: &Node) -> Node {
    match (base, over) {
        (Node::Map(b), Node::Map(o)) => {
            let mut out: Vec<(String, Node)> = Vec::with_capacity(b.len() + o.len());
            for (k, bv) in b {
                match get(o, k) {
                    None => out.push((k.clone(), bv.clone())),
                    Some(Node::Null) => {}
                    Some(ov) => out.push((k.clone(), merge(bv, ov))),
                }
            }
            for (k, ov) in o {
                if get(b, k).is_none() && *ov != Node::Null {
                    out.push((k.clone(), strip_nulls(ov)));
                }
            }
            Node::Map(out)
        }
        (_, other) => strip_nulls(other),
    }
}

/// A new mapping from an override has nothing to remove: its nulls are dropped as keys.
fn strip_nulls(n: &Node) -> Node {
    match n {
        Node::Map(m) => Node::Map(
            m.iter()
                .filter(|(_, v)| *v != Node::Null)
                .map(|(k, v)| (k.clone(), strip_nulls(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Where a member came from, to name issues by their real path.
enum Origin {
    Yaml {
        /// `servers.<name>`
        prefix: String,
        /// The block's override keys, as written (ownership of a merged path).
        overrides: Vec<(String, Node)>,
    },
    Client {
        display: String,
        json_path: String,
        /// The `servers_from` key path (`servers_from` or `servers_from.1`) for key lines.
        key: String,
    },
}

impl Origin {
    /// The real path of a derived-tree path (`server.command`, `checks.drift.baseline`).
    fn real(&self, path: &str) -> String {
        let server_rest = if path == "server" {
            Some("")
        } else {
            path.strip_prefix("server.")
        };
        match (self, server_rest) {
            (Origin::Yaml { prefix, .. }, Some("")) => prefix.clone(),
            (Origin::Yaml { prefix, .. }, Some(rest)) => format!("{prefix}.{rest}"),
            (
                Origin::Client {
                    display, json_path, ..
                },
                Some(rest),
            ) => {
                let rest = match rest.split_once('.') {
                    Some(("transport", more)) => format!(".type.{more}"),
                    None if rest == "transport" => ".type".to_string(),
                    _ if rest.is_empty() => String::new(),
                    _ => format!(".{rest}"),
                };
                format!("{display}: {json_path}{rest}")
            }
            (Origin::Yaml { prefix, overrides }, None) if owned(overrides, path) => {
                format!("{prefix}.{path}")
            }
            _ => path.to_string(),
        }
    }

    fn is_client_path(&self, path: &str) -> bool {
        matches!(self, Origin::Client { .. }) && (path == "server" || path.starts_with("server."))
    }
}

/// Whether the value at `path` of the merged tree came from the member's overrides: the
/// path exists in them, or passes through a value there that replaced the top-level one.
fn owned(overrides: &[(String, Node)], path: &str) -> bool {
    let mut segments = path.split('.');
    let Some(first) = segments.next() else {
        return false;
    };
    let Some(mut node) = get(overrides, first) else {
        return false;
    };
    for seg in segments {
        match node {
            Node::Map(m) => match get(m, seg) {
                Some(n) => node = n,
                None => return false,
            },
            _ => return true,
        }
    }
    true
}

/// An issue line `path: reason` of a member's derived tree: `Ok` with its real path, or
/// `Err` with why a client's entry cannot be tested (the issue is inside its server block).
fn real_issue(origin: &Origin, issue: &str) -> Result<String, String> {
    let Some((path, reason)) = issue.split_once(": ") else {
        return Ok(issue.to_string());
    };
    if let Origin::Client {
        display, json_path, ..
    } = origin
    {
        if origin.is_client_path(path) {
            let field = origin.real(path);
            let field = field
                .strip_prefix(&format!("{display}: {json_path}."))
                .unwrap_or("");
            return Err(if field.is_empty() {
                format!("{display}: {json_path} skipped: {reason}")
            } else {
                format!("{display}: {json_path} skipped: {field}: {reason}")
            });
        }
    }
    Ok(format!("{}: {reason}", origin.real(path)))
}

fn real_unknown(origin: &Origin, u: &Unknown) -> Unknown {
    let mut kind = match &u.kind {
        UnknownKind::Typo(s) => UnknownKind::Typo(*s),
        UnknownKind::OtherTransport(t) => UnknownKind::OtherTransport(t),
    };
    // In a `servers.<name>` block the override keys are known too.
    if let (Origin::Yaml { .. }, UnknownKind::Typo(None), Some(key)) =
        (origin, &kind, u.path.strip_prefix("server."))
    {
        if !key.contains('.') {
            kind = UnknownKind::Typo(suggest(key, OVERRIDE_KEYS));
        }
    }
    Unknown {
        path: origin.real(&u.path),
        kind,
    }
}

/// Lines in first-seen order without duplicates; hashed, since a hostile fleet can hold
/// tens of thousands of members.
#[derive(Default)]
struct Unique {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl Unique {
    fn from(list: Vec<String>) -> Self {
        let mut u = Unique::default();
        for l in list {
            u.push(&l);
        }
        u
    }

    fn push(&mut self, line: &str) {
        if self.seen.insert(line.to_string()) {
            self.list.push(line.to_string());
        }
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// One member before validation.
struct Candidate {
    name: String,
    origin: Origin,
    /// The derived single-server tree, `${VAR}` not yet interpolated (a client's server
    /// block is added after interpolation: its strings are already resolved).
    tree: Vec<(String, Node)>,
    client_block: Option<Node>,
    client_secrets: Vec<String>,
    warnings: Vec<String>,
}

/// The `servers_from` paths, as `(key path, path)`.
fn from_paths(node: &Node, issues: &mut Unique) -> Vec<(String, String)> {
    let one = |n: &Node, at: String, issues: &mut Unique| match n {
        Node::Str(s) if !s.trim().is_empty() => Some((at, s.clone())),
        Node::Str(_) => {
            issues.push(&format!("{at}: must not be empty"));
            None
        }
        other => {
            issues.push(&format!(
                "{at}: expected a path to an MCP client config file, got {}",
                other.describe()
            ));
            None
        }
    };
    match node {
        Node::Seq(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, n)| one(n, format!("servers_from.{i}"), issues))
            .collect(),
        other => one(other, "servers_from".into(), issues)
            .into_iter()
            .collect(),
    }
}

/// `servers_from.1` as key lines spell it: `servers_from[1]`.
fn line_key(key: &str) -> String {
    match key.strip_prefix("servers_from.") {
        Some(i) => format!("servers_from[{i}]"),
        None => key.to_string(),
    }
}

fn resolve_path(dir: &Path, p: &str, env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    if let Some(rest) = p.strip_prefix("~/") {
        if let Some(home) = env("HOME").or_else(|| env("USERPROFILE")) {
            return Path::new(&home).join(rest);
        }
    }
    dir.join(p)
}

/// A lockfile path compared as the file it names (`./a.json` is `a.json`).
fn normal(p: &str) -> PathBuf {
    Path::new(p)
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// A member's lockfile (`Member::baseline`): drift's baseline when drift is configured,
/// else the fleet default with the name in it.
pub(super) fn member_baseline(name: &str, config: &Config) -> String {
    match &config.checks.drift {
        Some(d) => d.baseline.clone(),
        None => FLEET_BASELINE.replace(SERVER_PLACEHOLDER, name),
    }
}

/// A loaded fleet, for `config::mod` to wrap in its public types.
pub(super) struct Built {
    pub members: Vec<BuiltMember>,
    pub checks: Checks,
    pub dir: PathBuf,
    pub secrets: Vec<String>,
    pub warnings: Vec<String>,
}

pub(super) struct BuiltMember {
    pub name: String,
    pub config: Config,
    pub secrets: Vec<String>,
    pub warnings: Vec<String>,
    pub key_lines: BTreeMap<String, usize>,
}

pub(super) enum Failure {
    /// As `ConfigError::EnvVar`.
    EnvVar { name: String, at: String },
    /// As `ConfigError::Invalid`, already redacted.
    Invalid(Vec<String>),
}

/// Load a fleet config whose parsed document is `root` (see [`shape`]).
pub(super) fn load(
    text: &str,
    root: Node,
    pre_issues: Vec<String>,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Built, Failure> {
    // Interpolate the whole file once: the first unset variable is named by its real path,
    // in document order. Members interpolate their own derived trees for their secrets.
    let mut interpolated = root.clone();
    let mut file_secrets = Vec::new();
    tree::interpolate(&mut interpolated, "", env, &mut file_secrets)
        .map_err(|(name, at)| Failure::EnvVar { name, at })?;
    let mut all_secrets = Unique::from(file_secrets);
    let mut issues = Unique::from(pre_issues);
    let (Node::Map(raw_top), Node::Map(top)) = (&root, &interpolated) else {
        // `shape` is `Fleet` only for a mapping, and interpolation keeps the shape.
        return Err(Failure::Invalid(vec![
            "expected a mapping at the top level".into(),
        ]));
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base_dir = path.parent().unwrap_or(Path::new(""));
    let mut warnings = Unique::default();
    let mut taken: HashSet<String> = HashSet::new();
    let shared: Vec<(String, Node)> = raw_top
        .iter()
        .filter(|(k, _)| k != "servers" && k != "servers_from")
        .cloned()
        .collect();

    let (fleet_checks, shared_issues) = shared_checks(top);
    for issue in &shared_issues {
        issues.push(issue);
    }

    let mut candidates: Vec<Candidate> = Vec::new();
    if let Some(servers) = get(raw_top, "servers") {
        match servers {
            Node::Map(entries) => {
                for (name, block) in entries {
                    let prefix = join("servers", name);
                    if !valid_name(name) {
                        issues.push(&format!(
                            "{prefix}: server names use only letters, digits, '_', '.' and '-' (and are not '.' or '..')"
                        ));
                        continue;
                    }
                    let Node::Map(block) = block else {
                        // `servers: {transport: stdio, …}` is one server under the wrong key.
                        let hint = if validate::STDIO_KEYS.contains(&name.as_str())
                            || validate::HTTP_KEYS.contains(&name.as_str())
                        {
                            " (one server is written under `server:`; `servers:` maps names to servers)"
                        } else {
                            ""
                        };
                        issues.push(&format!(
                            "{prefix}: expected a mapping with a transport, got {}{hint}",
                            block.describe()
                        ));
                        continue;
                    };
                    let (overrides, server): (Vec<_>, Vec<_>) = block
                        .iter()
                        .cloned()
                        .partition(|(k, _)| OVERRIDE_KEYS.contains(&k.as_str()));
                    let mut tree = shared.clone();
                    for (k, over) in &overrides {
                        // An empty override (`checks:`) changes nothing.
                        if *over == Node::Null {
                            continue;
                        }
                        let merged = match get(&tree, k) {
                            Some(base) => merge(base, over),
                            None => strip_nulls(over),
                        };
                        set(&mut tree, k, merged);
                    }
                    tree.insert(0, ("server".to_string(), Node::Map(server)));
                    taken.insert(name.clone());
                    candidates.push(Candidate {
                        name: name.clone(),
                        origin: Origin::Yaml { prefix, overrides },
                        tree,
                        client_block: None,
                        client_secrets: Vec::new(),
                        warnings: Vec::new(),
                    });
                }
            }
            other => issues.push(&format!(
                "servers: expected a mapping of server names to server blocks, got {}",
                other.describe()
            )),
        }
    }

    if let Some(from) = get(top, "servers_from") {
        for (key, p) in from_paths(from, &mut issues) {
            let file_path = resolve_path(base_dir, &p, env);
            let display = file_path.display().to_string();
            let file: ClientFile = match clients::read(&file_path, &display) {
                Ok(f) => f,
                Err(issue) => {
                    issues.push(&format!("{key}: {issue}"));
                    continue;
                }
            };
            for entry in &file.entries {
                let label = format!("{display}: {}", entry.json_path);
                let mut name = entry.name.clone();
                if !valid_name(&name) {
                    let clean = sanitize(&name);
                    if !valid_name(&clean) {
                        warnings.push(&format!(
                            "{label} skipped: its name cannot be made a server name"
                        ));
                        continue;
                    }
                    warnings.push(&format!(
                            "{label} is named \"{clean}\" (server names use only letters, digits, '_', '.' and '-')"
                        ),
                    );
                    name = clean;
                }
                if taken.contains(&name) {
                    warnings.push(&format!(
                        "{label} skipped: a server named \"{name}\" is already in the fleet"
                    ));
                    continue;
                }
                match clients::convert(&file, entry, env) {
                    Ok(Converted::Skip(why)) => warnings.push(&format!("{label} skipped: {why}")),
                    Ok(Converted::Server {
                        block,
                        secrets,
                        warnings: w,
                    }) => {
                        taken.insert(name.clone());
                        candidates.push(Candidate {
                            name,
                            origin: Origin::Client {
                                display: display.clone(),
                                json_path: entry.json_path.clone(),
                                key: line_key(&key),
                            },
                            tree: shared.clone(),
                            client_block: Some(block),
                            client_secrets: secrets,
                            warnings: w,
                        })
                    }
                    Err(ClientError::Invalid(issue)) => issues.push(&issue),
                    Err(ClientError::Var { name, at }) => {
                        return Err(Failure::EnvVar { name, at });
                    }
                }
            }
        }
    }

    let file_lines = lines::key_lines(text);
    let mut members: Vec<BuiltMember> = Vec::new();
    let mut unknown_lines = Unique::default();
    let top_lines = top_level_lines(&file_lines);
    for c in candidates {
        let mut derived = Node::Map(c.tree);
        // The fleet's default lockfile, one per member.
        if let Node::Map(m) = &mut derived {
            if let Some(Node::Map(checks)) =
                m.iter_mut().find(|(k, _)| k == "checks").map(|(_, v)| v)
            {
                if let Some((_, Node::Map(drift))) = checks.iter_mut().find(|(k, _)| k == "drift") {
                    if get(drift, "baseline").is_none() {
                        drift.push(("baseline".into(), Node::Str(FLEET_BASELINE.into())));
                    }
                }
            }
        }
        let written = secrets::secret_entries(&derived);
        let mut member_secrets = Vec::new();
        // Cannot fail: every string here is part of the file, interpolated above.
        tree::interpolate(&mut derived, "", env, &mut member_secrets)
            .map_err(|(name, at)| Failure::EnvVar { name, at })?;
        secrets::register_literals(
            &written,
            &secrets::secret_entries(&derived),
            &mut member_secrets,
        );
        if let (Some(block), Node::Map(m)) = (c.client_block, &mut derived) {
            m.insert(0, ("server".into(), block));
        }
        for s in &c.client_secrets {
            if !member_secrets.contains(s) {
                member_secrets.push(s.clone());
            }
        }
        for s in &member_secrets {
            all_secrets.push(s);
        }
        let outcome = validate::validate(&derived);
        let mut skip: Option<String> = None;
        for issue in &outcome.issues {
            match real_issue(&c.origin, issue) {
                Ok(real) => issues.push(&real),
                Err(why) => {
                    skip.get_or_insert(why);
                }
            }
        }
        let unknown: Vec<Unknown> = outcome
            .unknown
            .iter()
            .map(|u| real_unknown(&c.origin, u))
            .collect();
        for u in &unknown {
            unknown_lines.push(&u.as_issue());
        }
        if let Some(why) = skip {
            warnings.push(&redact(&why, &member_secrets));
            continue;
        }
        let Some(mut config) = outcome.config else {
            continue;
        };
        if let Some(d) = &mut config.checks.drift {
            d.baseline = d.baseline.replace(SERVER_PLACEHOLDER, &c.name);
        }
        let mut member_warnings = c.warnings.clone();
        member_warnings.extend(unknown.iter().map(|u| u.as_warning()));
        let key_lines = member_lines(&file_lines, top_lines.clone(), &c.origin, &config);
        members.push(BuiltMember {
            name: c.name,
            config,
            secrets: member_secrets,
            warnings: member_warnings,
            key_lines,
        });
    }

    // Two members writing one lockfile would overwrite each other.
    let mut by_file: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        by_file
            .entry(normal(&member_baseline(&m.name, &m.config)))
            .or_default()
            .push(i);
    }
    let mut shared_files: Vec<(usize, String)> = by_file
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(file, at)| {
            let names: Vec<&str> = at.iter().map(|&i| members[i].name.as_str()).collect();
            (
                at[0],
                format!(
                    "checks.drift.baseline: servers {} would all write {}; put {SERVER_PLACEHOLDER} in the path (the fleet default is {FLEET_BASELINE})",
                    names.join(", "),
                    file.display()
                ),
            )
        })
        .collect();
    shared_files.sort();
    for (_, issue) in shared_files {
        issues.push(&issue);
    }

    if issues.is_empty() && members.is_empty() {
        issues.push(if warnings.is_empty() {
            "servers: the fleet names no server to test"
        } else {
            "servers_from: no server to test, every entry was skipped:"
        });
        for w in &warnings.list {
            issues.push(&format!("  {w}"));
        }
    }
    if !issues.is_empty() {
        // Unknown keys often explain a "required" issue (`comand:`), so list them too.
        for u in &unknown_lines.list {
            issues.push(u);
        }
        return Err(Failure::Invalid(
            issues
                .list
                .iter()
                .map(|i| redact(i, &all_secrets.list))
                .collect(),
        ));
    }

    for m in &members {
        for w in &m.warnings {
            warnings.push(w);
        }
        // Judged across the fleet, so a member cannot have a level of its own.
        if m.config.checks.toxic_flow != fleet_checks.toxic_flow {
            warnings.push(&format!(
                "servers.{}.checks.toxic_flow is ignored: toxic flow is judged across the fleet with the top-level checks.toxic_flow",
                m.name
            ));
        }
    }
    Ok(Built {
        checks: fleet_checks,
        members,
        dir,
        secrets: all_secrets.list,
        warnings: warnings.list,
    })
}

/// The top-level keys validated alone, as a single config without its server: their
/// issues (a member's override may hide a bad top-level value from that member's tree,
/// but the file is still wrong) and the fleet's own `checks` (`{server}` unreplaced).
fn shared_checks(top: &[(String, Node)]) -> (Checks, Vec<String>) {
    let mut tree: Vec<(String, Node)> = top
        .iter()
        .filter(|(k, _)| k != "servers" && k != "servers_from")
        .cloned()
        .collect();
    if let Some(Node::Map(checks)) = tree.iter_mut().find(|(k, _)| k == "checks").map(|(_, v)| v) {
        if let Some((_, Node::Map(drift))) = checks.iter_mut().find(|(k, _)| k == "drift") {
            if get(drift, "baseline").is_none() {
                drift.push(("baseline".into(), Node::Str(FLEET_BASELINE.into())));
            }
        }
    }
    tree.insert(
        0,
        (
            "server".into(),
            Node::Map(vec![
                ("transport".into(), Node::Str("stdio".into())),
                ("command".into(), Node::Str(String::new())),
            ]),
        ),
    );
    let outcome = validate::validate(&Node::Map(tree));
    let checks = outcome.config.map(|c| c.checks).unwrap_or_default();
    (checks, outcome.issues)
}

/// The file's key lines outside `servers` / `servers_from` (every member's base).
fn top_level_lines(file: &BTreeMap<String, usize>) -> BTreeMap<String, usize> {
    file.iter()
        .filter(|(k, _)| {
            let first = k.split(['.', '[']).next().unwrap_or("");
            first != "servers" && first != "servers_from"
        })
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}

/// The member's key lines in single-server terms (`server`, `checks.drift.baseline`, …),
/// pointing into the fleet file: the top-level keys, then the member's own block over them
/// (`servers.api.command` → `server.command`); a `servers_from` member's `server` is its
/// `servers_from` entry. Plus `suites.<tool>` as for a single config.
fn member_lines(
    file: &BTreeMap<String, usize>,
    top: BTreeMap<String, usize>,
    origin: &Origin,
    config: &Config,
) -> BTreeMap<String, usize> {
    let mut out = top;
    match origin {
        Origin::Yaml { prefix, .. } => {
            if let Some(&line) = file.get(prefix.as_str()) {
                out.insert("server".into(), line);
            }
            let dotted = format!("{prefix}.");
            for (k, &line) in file.range(dotted.clone()..) {
                let Some(rest) = k.strip_prefix(&dotted) else {
                    break;
                };
                let first = rest.split(['.', '[']).next().unwrap_or("");
                if OVERRIDE_KEYS.contains(&first) {
                    out.insert(rest.to_string(), line);
                } else if validate::STDIO_KEYS.contains(&first)
                    || validate::HTTP_KEYS.contains(&first)
                {
                    out.insert(format!("server.{rest}"), line);
                }
            }
        }
        Origin::Client { key, .. } => {
            if let Some(&line) = file.get(key.as_str()).or_else(|| file.get("servers_from")) {
                out.insert("server".into(), line);
            }
        }
    }
    for (i, suite) in config.suites.iter().enumerate() {
        if let Some(&line) = out.get(&format!("suites[{i}]")) {
            out.entry(format!("suites.{}", suite.tool)).or_insert(line);
        }
    }
    out
}
