//! Accepted findings at the command line (#16 §3): `mcpward suppress`, the registry check
//! of every entry's rule id, today's date, and the one call that applies the entries to a
//! run's findings (`checks::suppress` does the work). It names nothing of `cli.rs` (a
//! child referring back to its parent would close an import cycle): errors are strings the
//! CLI turns into its `Error::Fatal`.
use crate::checks::suppress::{self, valid_date, Entry};
use crate::config::{self, LoadedAny, SUPPRESS_FILE};
use crate::model::{Finding, FleetMember};
use std::path::{Path, PathBuf};

/// Overrides today's date (`YYYY-MM-DD`) for tests, so expiry is deterministic.
pub const TODAY_VAR: &str = "MCPWARD_TODAY";

/// Today (UTC) as `YYYY-MM-DD`: [`crate::model::today`], the one clock `MCPWARD_TODAY` pins
/// (expiry and baseline ages read the same day).
pub fn today() -> String {
    crate::model::format_timestamp(crate::model::today() * 86_400_000)[..10].to_string()
}

fn unknown_rule(e_rule: &str) -> Option<String> {
    if crate::rules::lookup(e_rule).is_some() {
        return None;
    }
    let known: Vec<&str> = crate::rules::all().map(|r| r.id).collect();
    let hint = config::closest(e_rule, &known)
        .or_else(|| super::extras::nearest(e_rule).first().copied())
        .map(|s| format!(" (did you mean \"{s}\"?)"))
        .unwrap_or_default();
    Some(format!(
        "unknown rule id {e_rule:?}{hint}; see docs/rules.md"
    ))
}

/// Every entry names a registered rule (a config error otherwise, exit 2).
pub fn check_rules(loaded: &LoadedAny) -> Result<(), String> {
    let entries = match loaded {
        LoadedAny::Single(l) => &l.config.suppress,
        LoadedAny::Fleet(f) => &f.suppress,
    };
    let issues: Vec<String> = entries
        .iter()
        .filter_map(|e| unknown_rule(&e.rule).map(|why| format!("{}.rule: {why}", e.origin)))
        .collect();
    if issues.is_empty() {
        Ok(())
    } else {
        Err(format!("Invalid config:\n{}", issues.join("\n")))
    }
}

/// One server's findings with the config's suppressions applied.
pub fn apply_single(findings: Vec<Finding>, entries: &[Entry], strict: bool) -> Vec<Finding> {
    suppress::apply(findings, entries, &today(), strict, None)
}

/// [`apply_single`] for one fleet member tested on its own (`--from FILE --server NAME`):
/// entries scoped to `server` apply too.
pub fn apply_member(
    findings: Vec<Finding>,
    entries: &[Entry],
    strict: bool,
    server: Option<&str>,
) -> Vec<Finding> {
    suppress::apply(findings, entries, &today(), strict, server)
}

/// `MCPWARD_TODAY`, when set, must be a date: a typo must not silently test against the
/// real clock.
pub fn check_today() -> Result<(), String> {
    match std::env::var(TODAY_VAR) {
        Ok(d) if !valid_date(&d) => Err(format!(
            "{TODAY_VAR}={d:?} is not a date (YYYY-MM-DD); unset it to use today's date"
        )),
        _ => Ok(()),
    }
}

/// A fleet run's members and cross-server findings with the suppressions applied; a run
/// of some members only (`--server`, `--shard`) does not judge unscoped entries stale.
pub fn apply_fleet(
    members: &mut [FleetMember],
    cross: &mut Vec<Finding>,
    entries: &[Entry],
    strict: bool,
    whole: bool,
) {
    suppress::apply_fleet(members, cross, entries, &today(), strict, whole);
}

/// The fleet-level suppression verdicts (`config/…`) of the shards' documents, once each:
/// `merge` recomputes the cross-server results, and these are not cross-server findings.
pub fn fleet_verdicts(reports: &[crate::model::FleetReport]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for f in reports.iter().flat_map(|r| &r.results) {
        if f.family == "config" && !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

/// What `mcpward suppress` appends.
pub struct NewEntry<'a> {
    pub rule: &'a str,
    pub location: &'a str,
    pub reason: &'a str,
    pub expires: Option<&'a str>,
    pub server: Option<&'a str>,
}

const HEADER: &str = "# Accepted findings (docs/configuration.md#suppressions), appended by `mcpward suppress`.\n\
# Each entry: rule, location (exact or a glob with * and ?), reason, expires (YYYY-MM-DD), server.\n";

/// A YAML double-quoted scalar (a JSON string is one).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The entry as block YAML, one key a line.
fn entry_text(e: &NewEntry) -> String {
    let mut out = format!(
        "- rule: {}\n  location: {}\n  reason: {}\n",
        quoted(e.rule),
        quoted(e.location),
        quoted(e.reason)
    );
    if let Some(x) = e.expires {
        out.push_str(&format!("  expires: {}\n", quoted(x)));
    }
    if let Some(s) = e.server {
        out.push_str(&format!("  server: {}\n", quoted(s)));
    }
    out
}

/// The file's new text: the old bytes as they are, then the entry.
pub fn appended(old: Option<&str>, e: &NewEntry) -> String {
    let mut text = match old {
        None => HEADER.to_string(),
        Some(t) => t.to_string(),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&entry_text(e));
    text
}

fn suppress_path(config: &Path) -> PathBuf {
    match config.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(SUPPRESS_FILE),
        _ => PathBuf::from(SUPPRESS_FILE),
    }
}

/// `mcpward suppress RULE LOCATION --reason … [--expires …] [--server …]`.
/// The confirmation line.
pub fn command(config: &Path, e: &NewEntry) -> Result<String, String> {
    if let Some(why) = unknown_rule(e.rule) {
        return Err(format!("RULE: {why}"));
    }
    if let Some(x) = e.expires {
        if !valid_date(x) {
            return Err(format!("--expires: expected a date YYYY-MM-DD, got {x:?}"));
        }
    }
    // `--server` must name what the loader will accept: a member of this fleet, and never
    // for a one-server config (read only when the config exists and loads).
    if let Some(server) = e.server {
        match config::load_for_snapshot(config) {
            Ok(LoadedAny::Single(_)) => {
                return Err(format!(
                    "--server {server}: {} tests one server; an entry for it needs no --server",
                    config.display()
                ))
            }
            Ok(LoadedAny::Fleet(f)) if !f.members.iter().any(|m| m.name == server) => {
                let names: Vec<&str> = f.members.iter().map(|m| m.name.as_str()).collect();
                return Err(format!(
                    "--server {server}: no server of that name in {} (its servers: {})",
                    config.display(),
                    names.join(", ")
                ));
            }
            _ => {}
        }
    }
    let path = suppress_path(config);
    let old = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(format!("cannot read {}: {err}", path.display())),
    };
    let text = appended(old.as_deref(), e);
    // Never write a file the next run would refuse (an empty reason, a flow-style list).
    if let Err(issues) = config::parse_suppress_file(&text) {
        return Err(format!(
            "cannot append to {}:\n{}",
            path.display(),
            issues.join("\n")
        ));
    }
    crate::fsutil::write_atomic(&path, text.as_bytes())
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    let until = e.expires.map(|x| format!(" until {x}")).unwrap_or_default();
    let server = e.server.map(|s| format!(" on {s}")).unwrap_or_default();
    Ok(format!(
        "Suppressed {} at {:?}{server}{until} in {}",
        e.rule,
        e.location,
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appending_keeps_the_old_bytes_and_parses() {
        let e = NewEntry {
            rule: "security/tool-poisoning",
            location: "evil \"tool\"\n*",
            reason: "reviewed: ünïcode, # not a comment",
            expires: Some("2027-01-31"),
            server: Some("api"),
        };
        let old = "# mine\n- rule: schema/tool-name\n  location: x\n  reason: ok"; // no final newline
        let text = appended(Some(old), &e);
        assert!(text.starts_with(old));
        let entries = config::parse_suppress_file(&text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].location, e.location);
        assert_eq!(entries[1].reason, e.reason);
        assert_eq!(entries[1].expires.as_deref(), Some("2027-01-31"));
        assert_eq!(entries[1].server.as_deref(), Some("api"));
        let fresh = appended(None, &e);
        assert!(fresh.starts_with("# Accepted findings"));
        assert_eq!(config::parse_suppress_file(&fresh).unwrap().len(), 1);
    }
}
