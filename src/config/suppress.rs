//! Accepted findings (#16 §3): the `suppress:` list of a config and the committed file
//! `mcpward.suppress.yaml` beside it (a YAML list of the same entries). Both may exist:
//! the config's entries come first, then the file's. Every bad entry is a config error
//! naming the entry and the field; rule ids are checked against the registry by the CLI
//! (the registry sits above the config layer).

use std::path::Path;

use super::fleet::valid_name;
use super::tree::{self, join, quote_short, Node};
use super::validate::suggest;
use crate::checks::suppress::{valid_date, Entry};

/// The committed suppression file, next to the config file.
pub const SUPPRESS_FILE: &str = "mcpward.suppress.yaml";

/// The largest suppression file read (far above any real list).
const MAX_FILE_BYTES: u64 = 16 << 20;

const ENTRY_KEYS: &[&str] = &["rule", "location", "reason", "expires", "server"];

/// The entries of a `suppress:` list (or of the file's top-level list); `prefix` is
/// `suppress` or the file name. Issues are `prefix[i].field: reason`.
pub(crate) fn entries(node: &Node, prefix: &str, issues: &mut Vec<String>) -> Vec<Entry> {
    let items = match node {
        Node::Null => return Vec::new(),
        Node::Seq(items) => items,
        other => {
            issues.push(format!(
                "{prefix}: expected a list of entries {{rule, location, reason, expires, server}}, got {}",
                other.describe()
            ));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{prefix}[{i}]");
        let Node::Map(m) = item else {
            issues.push(format!(
                "{at}: expected a mapping {{rule, location, reason, expires, server}}, got {}",
                item.describe()
            ));
            continue;
        };
        let before = issues.len();
        for (k, _) in m {
            if !ENTRY_KEYS.contains(&k.as_str()) {
                let hint = suggest(k, ENTRY_KEYS)
                    .map(|s| format!(" (did you mean \"{s}\"?)"))
                    .unwrap_or_default();
                issues.push(format!(
                    "{}: unknown key{hint}; an entry has rule, location, reason, expires and server",
                    join(&at, k)
                ));
            }
        }
        let get = |key: &str| m.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let mut string = |key: &str, required: &str| -> Option<String> {
            let path = join(&at, key);
            match get(key) {
                None if required.is_empty() => None,
                None => {
                    issues.push(format!("{path}: required ({required})"));
                    None
                }
                Some(Node::Str(s)) if s.trim().is_empty() && !required.is_empty() => {
                    issues.push(format!("{path}: must not be empty ({required})"));
                    None
                }
                Some(Node::Str(s)) => Some(s.clone()),
                Some(other) => {
                    issues.push(format!(
                        "{path}: expected a string, got {}",
                        other.describe()
                    ));
                    None
                }
            }
        };
        let rule = string("rule", "a rule id such as security/tool-poisoning");
        let location = string(
            "location",
            "the result's location, exact or a glob with * and ?",
        );
        let reason = string("reason", "why the finding is accepted");
        let expires = string("expires", "");
        let server = string("server", "");
        if let Some(x) = &expires {
            if !valid_date(x) {
                issues.push(format!(
                    "{}: expected a date YYYY-MM-DD, got {}",
                    join(&at, "expires"),
                    quote_short(x)
                ));
            }
        }
        if let Some(s) = &server {
            if !valid_name(s) {
                issues.push(format!(
                    "{}: not a server name, got {}",
                    join(&at, "server"),
                    quote_short(s)
                ));
            }
        }
        if issues.len() > before {
            continue;
        }
        if let (Some(rule), Some(location), Some(reason)) = (rule, location, reason) {
            out.push(Entry {
                rule,
                location,
                reason,
                expires,
                server,
                origin: at,
            });
        }
    }
    out
}

/// The entries of a config document's top-level `suppress:` (none without the key).
pub(crate) fn entries_of(root: &Node, issues: &mut Vec<String>) -> Vec<Entry> {
    match root {
        Node::Map(m) => match m.iter().find(|(k, _)| k == "suppress") {
            Some((_, n)) => entries(n, "suppress", issues),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The entries of `mcpward.suppress.yaml` in `dir` (none when there is no such file).
/// `Err` is the list of issues (a YAML error is one issue).
pub(crate) fn read_file(dir: &Path) -> Result<Vec<Entry>, Vec<String>> {
    use std::io::Read;
    let path = dir.join(SUPPRESS_FILE);
    let mut text = String::new();
    match std::fs::File::open(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(vec![format!("{}: cannot read: {e}", path.display())]),
        Ok(f) => {
            if let Err(e) = f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text) {
                return Err(vec![format!("{}: cannot read: {e}", path.display())]);
            }
        }
    }
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(vec![format!(
            "{}: larger than {MAX_FILE_BYTES} bytes",
            path.display()
        )]);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut issues = Vec::new();
    let root = tree::parse(text, &mut issues)
        .map_err(|m| vec![format!("{}: invalid YAML: {m}", path.display())])?;
    let entries = entries(&root, SUPPRESS_FILE, &mut issues);
    if issues.is_empty() {
        Ok(entries)
    } else {
        Err(issues)
    }
}

/// Entries naming a server in a config that tests one `server:`, or a server the fleet
/// does not have (`members`: the fleet's names).
pub(crate) fn check_servers(entries: &[Entry], members: Option<&[&str]>, issues: &mut Vec<String>) {
    for e in entries {
        let Some(s) = &e.server else { continue };
        match members {
            None => issues.push(format!(
                "{}.server: names a fleet member, but this config tests one `server:` (remove the key)",
                e.origin
            )),
            Some(known) if !known.contains(&s.as_str()) => {
                let hint = suggest(s, known)
                    .map(|k| format!(" (did you mean \"{k}\"?)"))
                    .unwrap_or_default();
                issues.push(format!(
                    "{}.server: no server {s:?} in the fleet{hint}",
                    e.origin
                ));
            }
            Some(_) => {}
        }
    }
}

/// The entries of a suppression file's `text` (what `mcpward suppress` is about to write),
/// or its issues.
pub fn parse_file_text(text: &str) -> Result<Vec<Entry>, Vec<String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut issues = Vec::new();
    let root = tree::parse(text, &mut issues).map_err(|m| vec![format!("invalid YAML: {m}")])?;
    let entries = entries(&root, SUPPRESS_FILE, &mut issues);
    if issues.is_empty() {
        Ok(entries)
    } else {
        Err(issues)
    }
}
