//! GitLab Code Quality report (`--reporter gitlab`): a JSON array of issues, one per
//! failing or warning result, anchored to the config file (line 1; mcpward tests a black
//! box and has no source lines).
//!
//! Severity: `error` → `major` (`critical` for the security family), `warning` → `minor`,
//! `info` → `info`. Fingerprint: SHA-256 (hex) of rule id, location, message and the
//! occurrence number among identical triples, so it is stable across runs for the same
//! finding and unique within one report (GitLab matches issues between pipelines by it).

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::common::{era_suffix, fleet_results, incomplete_members, Scope, INCOMPLETE_ID};
use super::json;
use super::types::{RenderContext, Reporter};
use crate::model::{Finding, FleetReport, Report, Severity, Status};

pub struct GitlabReporter;

#[derive(Serialize)]
struct Issue {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
}

impl Reporter for GitlabReporter {
    fn render(&self, report: &Report, ctx: &RenderContext) -> String {
        let entries = report.results.iter().map(|r| (Scope::Single, r)).collect();
        json::to_pretty(&issues(entries, &ctx.artifact_path))
    }

    /// Every description starts with its server (`[api] …`) and every fingerprint
    /// includes it; a server that was not fully tested is a `major` issue
    /// (`fleet/incomplete`) of its own.
    fn render_fleet(&self, fleet: &FleetReport, ctx: &RenderContext) -> String {
        let path = &ctx.artifact_path;
        let mut out: Vec<Issue> = incomplete_members(fleet)
            .map(|(name, reason)| Issue {
                description: format!("[{name}] not fully tested: {reason}"),
                check_name: INCOMPLETE_ID.to_string(),
                fingerprint: fingerprint_with(&["server", name], INCOMPLETE_ID, "", "", 1),
                severity: "major",
                location: Location {
                    path: path.to_string(),
                    lines: Lines { begin: 1 },
                },
            })
            .collect();
        out.extend(issues(fleet_results(fleet), path));
        json::to_pretty(&out)
    }
}

fn issues(entries: Vec<(Scope, &Finding)>, path: &str) -> Vec<Issue> {
    let mut seen: BTreeMap<(Vec<&str>, &str, &str, &str), u32> = BTreeMap::new();
    entries
        .into_iter()
        .filter(|(_, r)| matches!(r.status, Status::Fail | Status::Warn | Status::Suppressed))
        .map(|(scope, r)| {
            let loc = r.location.as_deref().unwrap_or("");
            let extra = scope.fingerprint_parts(r);
            let n = seen
                .entry((extra.clone(), &r.id, loc, &r.message))
                .or_insert(0);
            *n += 1;
            let accepted = r
                .suppression
                .as_ref()
                .filter(|_| r.status == Status::Suppressed)
                .map(|s| format!("[suppressed: {}] ", s.reason))
                .unwrap_or_default();
            let message = format!("{accepted}{}{}{}", scope.prefix(), r.message, era_suffix(r));
            let description = match &r.location {
                Some(l) => format!("{message} (at {l})"),
                None => message,
            };
            Issue {
                description,
                check_name: r.id.clone(),
                fingerprint: fingerprint_with(&extra, &r.id, loc, &r.message, *n),
                severity: severity(r),
                location: Location {
                    path: path.to_string(),
                    lines: Lines { begin: 1 },
                },
            }
        })
        .collect()
}

fn severity(r: &Finding) -> &'static str {
    // An accepted finding keeps its place in the widget, at the lowest severity.
    if r.status == Status::Suppressed {
        return "info";
    }
    match r.severity {
        Severity::Error if r.family == "security" => "critical",
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// Fields are length-prefixed so no two different inputs share a hash preimage.
pub fn fingerprint(id: &str, location: &str, message: &str, occurrence: u32) -> String {
    fingerprint_with(&[], id, location, message, occurrence)
}

/// [`fingerprint`] with more parts (a fleet result's server, a result's era); with none it
/// is exactly [`fingerprint`], so single-server fingerprints stay.
pub fn fingerprint_with(
    extra: &[&str],
    id: &str,
    location: &str,
    message: &str,
    occurrence: u32,
) -> String {
    let mut h = Sha256::new();
    for part in [id, location, message].iter().chain(extra) {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    h.update(occurrence.to_be_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ServerSummary;

    #[test]
    fn issues_and_fingerprints() {
        let r = Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            vec![
                Finding::fail("security/injection-pattern", "m").location("t"),
                Finding::fail("security/injection-pattern", "m").location("t"),
                Finding::warn("drift/tool_added", "w"),
                Finding::pass("a/b", "p"),
                Finding::warn("latency/tool", "i").severity(Severity::Info),
            ],
            "t".into(),
        );
        let out = GitlabReporter.render(&r, &RenderContext::default());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 4);
        let sev: Vec<&str> = a.iter().map(|i| i["severity"].as_str().unwrap()).collect();
        assert_eq!(sev, ["critical", "critical", "minor", "info"]);
        assert_eq!(a[0]["description"], "m (at t)");
        assert_eq!(
            a[0]["location"],
            serde_json::json!({"path": "mcpward.yaml", "lines": {"begin": 1}})
        );
        let fps: std::collections::BTreeSet<&str> = a
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(fps.len(), 4, "fingerprints unique");
        assert_eq!(
            a[0]["fingerprint"].as_str().unwrap(),
            fingerprint("security/injection-pattern", "t", "m", 1)
        );
        assert_eq!(fingerprint("a", "b", "c", 1).len(), 64);
        assert_ne!(fingerprint("ab", "", "c", 1), fingerprint("a", "b", "c", 1));
        // Empty report: an empty array.
        let empty = Report::new(r.server.clone(), vec![], "t".into());
        assert_eq!(
            GitlabReporter.render(&empty, &RenderContext::default()),
            "[]"
        );
    }
}
