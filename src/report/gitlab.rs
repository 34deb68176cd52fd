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

use super::json;
use super::types::{RenderContext, Reporter};
use crate::model::{Finding, Report, Severity, Status};

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
        let mut seen: BTreeMap<(&str, &str, &str), u32> = BTreeMap::new();
        let issues: Vec<Issue> = report
            .results
            .iter()
            .filter(|r| matches!(r.status, Status::Fail | Status::Warn))
            .map(|r| {
                let loc = r.location.as_deref().unwrap_or("");
                let n = seen.entry((&r.id, loc, &r.message)).or_insert(0);
                *n += 1;
                issue(r, loc, *n, &ctx.artifact_path)
            })
            .collect();
        json::to_pretty(&issues)
    }
}

fn issue(r: &Finding, loc: &str, occurrence: u32, path: &str) -> Issue {
    let description = match &r.location {
        Some(l) => format!("{} (at {l})", r.message),
        None => r.message.clone(),
    };
    Issue {
        description,
        check_name: r.id.clone(),
        fingerprint: fingerprint(&r.id, loc, &r.message, occurrence),
        severity: severity(r),
        location: Location {
            path: path.to_string(),
            lines: Lines { begin: 1 },
        },
    }
}

fn severity(r: &Finding) -> &'static str {
    match r.severity {
        Severity::Error if r.family == "security" => "critical",
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// Fields are length-prefixed so no two different inputs share a hash preimage.
pub fn fingerprint(id: &str, location: &str, message: &str, occurrence: u32) -> String {
    let mut h = Sha256::new();
    for part in [id, location, message] {
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
