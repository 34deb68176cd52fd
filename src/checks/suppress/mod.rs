//! Accepted findings (#16 §3): entries of `suppress:` / `mcpward.suppress.yaml` turn the
//! failing or warning results they match into `suppressed` ones, and the entries themselves
//! are judged: past `expires` → `config/suppression-expired`, matching nothing →
//! `config/suppression-stale`. Pure: results, entries and today's date in, results out.

mod config;
pub mod rules;

#[cfg(test)]
mod tests;

pub use config::{glob_match, valid_date, Entry};

use crate::model::{Finding, FleetMember, MemberStatus, Severity, Status, Summary, Suppression};
use std::collections::BTreeSet;

/// Past its last day: `today` (`YYYY-MM-DD`, UTC) is after `expires`.
pub fn is_expired(e: &Entry, today: &str) -> bool {
    e.expires.as_deref().is_some_and(|x| today > x)
}

/// Only failing and warning results are accepted: a pass or a skip has nothing to accept.
fn matches(e: &Entry, f: &Finding, server: Option<&str>) -> bool {
    matches!(f.status, Status::Fail | Status::Warn)
        && e.rule == f.id
        && e.server.as_deref().is_none_or(|s| Some(s) == server)
        && glob_match(&e.location, f.location.as_deref().unwrap_or(""))
}

/// Suppresses every result of `findings` (of `server`, a fleet member's name, or `None`)
/// that an unexpired entry matches, recording the first matching entry's reason; sets
/// `used[i]` for every entry that matched a result.
pub fn mark(
    findings: &mut [Finding],
    entries: &[Entry],
    today: &str,
    server: Option<&str>,
    used: &mut [bool],
) {
    for f in findings.iter_mut() {
        let mut first: Option<&Entry> = None;
        for (i, e) in entries.iter().enumerate() {
            if !is_expired(e, today) && matches(e, f, server) {
                used[i] = true;
                first.get_or_insert(e);
            }
        }
        if let Some(e) = first {
            f.status = Status::Suppressed;
            f.suppression = Some(Suppression {
                reason: e.reason.clone(),
                expires: e.expires.clone(),
            });
        }
    }
    settle_summaries(findings);
}

/// A family's `<family>/summary` result counts that family's findings: when every one it
/// fails (or warns) for is now accepted, it is accepted too, so accepting every finding
/// makes the run pass without accepting the summary itself (which would hide new findings).
fn settle_summaries(findings: &mut [Finding]) {
    let families: BTreeSet<String> = findings
        .iter()
        .filter(|f| f.id.ends_with("/summary") && matches!(f.status, Status::Fail | Status::Warn))
        .map(|f| f.family.clone())
        .collect();
    for fam in families {
        let summary_id = format!("{fam}/summary");
        let others = || {
            findings
                .iter()
                .filter(|f| f.family == fam && f.id != summary_id)
        };
        let suppressed = others().filter(|f| f.status == Status::Suppressed).count();
        let failing = others().any(|f| f.status == Status::Fail);
        let warning = others().any(|f| f.status == Status::Warn);
        if suppressed == 0 || failing {
            continue;
        }
        for f in findings.iter_mut().filter(|f| f.id == summary_id) {
            if f.status == Status::Fail || (f.status == Status::Warn && !warning) {
                f.status = Status::Suppressed;
                f.suppression = Some(Suppression {
                    reason: format!(
                        "every {fam} finding it counts is accepted ({suppressed} suppressed)"
                    ),
                    expires: None,
                });
            }
        }
    }
}

fn describe(e: &Entry) -> String {
    let server = e
        .server
        .as_deref()
        .map(|s| format!(", server {s}"))
        .unwrap_or_default();
    format!(
        "{} (rule {}, location {:?}{server})",
        e.origin, e.rule, e.location
    )
}

/// The verdict on entry `e`: expired, stale (when `judged`), or nothing.
fn verdict(e: &Entry, used: bool, today: &str, strict: bool, judged: bool) -> Option<Finding> {
    if let Some(x) = e.expires.as_deref().filter(|_| is_expired(e, today)) {
        return Some(
            rules::SUPPRESSION_EXPIRED
                .fail(format!(
                    "{} expired on {x}: it no longer suppresses; review the finding and fix it, or renew the entry",
                    describe(e)
                ))
                .location(e.origin.clone()),
        );
    }
    if used || !judged {
        return None;
    }
    let msg = format!(
        "{} matched no failing or warning result in this run; delete it or correct its rule / location",
        describe(e)
    );
    let f = if strict {
        rules::SUPPRESSION_STALE.finding(Status::Fail, Severity::Error, msg)
    } else {
        rules::SUPPRESSION_STALE.warn(msg)
    };
    Some(f.location(e.origin.clone()))
}

fn family(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

/// One server's results (a single-server run; `server` is `None`) with the entries
/// applied and their verdicts appended. An entry is judged stale only when its rule's
/// family produced a result in this run (a `diff` runs drift only). No entry: the results
/// come back as they are.
pub fn apply(
    mut findings: Vec<Finding>,
    entries: &[Entry],
    today: &str,
    strict: bool,
    server: Option<&str>,
) -> Vec<Finding> {
    if entries.is_empty() {
        return findings;
    }
    let ran: BTreeSet<String> = findings.iter().map(|f| f.family.clone()).collect();
    let mut used = vec![false; entries.len()];
    mark(&mut findings, entries, today, server, &mut used);
    for (e, u) in entries.iter().zip(&used) {
        let mine = e.server.as_deref().is_none_or(|s| Some(s) == server);
        if !mine {
            continue;
        }
        let judged = ran.contains(family(&e.rule));
        findings.extend(verdict(e, *u, today, strict, judged));
    }
    findings
}

/// A fleet run: every tested member's results and the cross-server results (`cross`,
/// which only entries without `server:` accept) with the entries applied. Verdicts on an
/// entry with `server:` go to that member's report, the others to `cross`. An entry for a
/// member not in `members` (not selected by `--server` / `--shard`) is not judged at all;
/// an entry with `server:` is judged stale only when that member was fully tested, one
/// without only when `whole` (every member of the fleet selected) and every member was
/// fully tested: otherwise what it accepts may be in a server this run did not see.
pub fn apply_fleet(
    members: &mut [FleetMember],
    cross: &mut Vec<Finding>,
    entries: &[Entry],
    today: &str,
    strict: bool,
    whole: bool,
) {
    if entries.is_empty() {
        return;
    }
    let mut used = vec![false; entries.len()];
    let mut ran: BTreeSet<String> = cross.iter().map(|f| f.family.clone()).collect();
    for m in members.iter_mut() {
        if let Some(r) = &mut m.report {
            ran.extend(r.results.iter().map(|f| f.family.clone()));
            mark(&mut r.results, entries, today, Some(&m.name), &mut used);
        }
    }
    mark(cross, entries, today, None, &mut used);
    let complete = |m: &FleetMember| m.status != MemberStatus::Incomplete && m.report.is_some();
    let all_complete = members.iter().all(complete);
    for (e, u) in entries.iter().zip(&used) {
        let target = match e.server.as_deref() {
            Some(s) => match members.iter().position(|m| m.name == s) {
                Some(i) => Some(i),
                None => continue,
            },
            None => None,
        };
        let tested = match target {
            Some(i) => complete(&members[i]),
            None => whole && all_complete,
        };
        let judged = tested && ran.contains(family(&e.rule));
        let Some(f) = verdict(e, *u, today, strict, judged) else {
            continue;
        };
        match target.and_then(|i| members[i].report.as_mut()) {
            Some(r) => r.results.push(f),
            None => cross.push(f),
        }
    }
    for m in members.iter_mut() {
        if let Some(r) = &mut m.report {
            r.summary = Summary::of(&r.results);
        }
    }
}
