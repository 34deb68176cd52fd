//! Pure helpers several reporters use.

use crate::model::{Finding, FleetMember, FleetReport, MemberStatus, Report};

pub use crate::surface::text::{encode_uri_component, encode_uri_path};

/// Families in order of first appearance, each with its results in report order.
pub(crate) fn group_by_family(report: &Report) -> Vec<(&str, Vec<&Finding>)> {
    group_results(&report.results)
}

/// [`group_by_family`] over any list of results (a fleet's cross-server results).
pub(crate) fn group_results(results: &[Finding]) -> Vec<(&str, Vec<&Finding>)> {
    let mut groups: Vec<(&str, Vec<&Finding>)> = Vec::new();
    for r in results {
        match groups.iter_mut().find(|(f, _)| *f == r.family) {
            Some((_, v)) => v.push(r),
            None => groups.push((&r.family, vec![r])),
        }
    }
    groups
}

/// What fleet renderings call the cross-server results (they belong to no one server).
pub(crate) const CROSS_SERVER: &str = "cross-server";

/// The pseudo rule id machine formats give a server that was not fully tested (it is no
/// finding of a check, so the registry does not know it).
pub(crate) const INCOMPLETE_ID: &str = "fleet/incomplete";

/// Where a result comes from: a single-server report, one member of a fleet, or the
/// fleet's cross-server results. Machine formats mark fleet results with it (message
/// prefix, fingerprints); a single report renders exactly as before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope<'a> {
    Single,
    Server(&'a str),
    Cross,
}

impl Scope<'_> {
    /// `[api] ` / `[cross-server] ` in front of a message; empty for a single report.
    pub(crate) fn prefix(self) -> String {
        match self {
            Scope::Single => String::new(),
            Scope::Server(name) => format!("[{name}] "),
            Scope::Cross => format!("[{CROSS_SERVER}] "),
        }
    }

    /// Extra fingerprint parts (empty for a single report, so its fingerprints stay).
    pub(crate) fn fingerprint_parts<'a>(self, f: &'a Finding) -> Vec<&'a str>
    where
        Self: 'a,
    {
        let mut parts = match self {
            Scope::Single => vec![],
            Scope::Server(name) => vec!["server", name],
            Scope::Cross => vec!["fleet"],
        };
        if let Some(era) = &f.era {
            parts.extend(["era", era.as_str()]);
        }
        parts
    }
}

/// ` [legacy]` after a message when the result says its era (`protocol_era: both`).
pub(crate) fn era_suffix(f: &Finding) -> String {
    f.era
        .as_deref()
        .map_or_else(String::new, |e| format!(" [{e}]"))
}

/// Every result of a fleet with where it comes from: members in document order, then the
/// cross-server results.
pub(crate) fn fleet_results(fleet: &FleetReport) -> Vec<(Scope<'_>, &Finding)> {
    let mut out: Vec<(Scope, &Finding)> = Vec::new();
    for m in &fleet.servers {
        out.extend(m.results().iter().map(|r| (Scope::Server(&m.name), r)));
    }
    out.extend(fleet.results.iter().map(|r| (Scope::Cross, r)));
    out
}

/// The members that were not fully tested, with their reasons.
pub(crate) fn incomplete_members(fleet: &FleetReport) -> impl Iterator<Item = (&str, &str)> {
    fleet
        .servers
        .iter()
        .filter(|m| m.status == MemberStatus::Incomplete)
        .map(|m| (m.name.as_str(), m.reason.as_deref().unwrap_or("")))
}

/// `1 server` / `3 servers`.
pub(crate) fn count_of(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// At most this many servers are named in an exit explanation (then "and N more").
const NAMED_IN_EXPLANATION: usize = 5;
/// Reasons are cut to this many characters in the explanation (the member's own section
/// shows the whole reason).
const REASON_CHARS: usize = 100;

fn short_reason(r: &str) -> String {
    match r.char_indices().nth(REASON_CHARS) {
        Some((cut, _)) => format!("{}…", &r[..cut]),
        None => r.to_string(),
    }
}

fn named<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    let mut out: Vec<String> = items.iter().take(NAMED_IN_EXPLANATION).map(show).collect();
    if items.len() > NAMED_IN_EXPLANATION {
        out.push(format!("and {} more", items.len() - NAMED_IN_EXPLANATION));
    }
    out.join(", ")
}

/// The fleet's exit code and why, e.g. `2 — 1 server not fully tested: api (connection
/// refused)`. `name` and `reason` escape a server name and a reason for the format.
pub(crate) fn exit_explanation(
    fleet: &FleetReport,
    name: impl Fn(&str) -> String,
    reason: impl Fn(&str) -> String,
) -> String {
    format!(
        "{} — {}",
        fleet.summary.exit_code,
        exit_reason(fleet, name, reason)
    )
}

/// [`exit_explanation`] without the code.
pub(crate) fn exit_reason(
    fleet: &FleetReport,
    name: impl Fn(&str) -> String,
    reason: impl Fn(&str) -> String,
) -> String {
    let incomplete: Vec<(&str, &str)> = incomplete_members(fleet).collect();
    if !incomplete.is_empty() {
        let list = named(&incomplete, |(n, r)| {
            format!("{} ({})", name(n), reason(&short_reason(r)))
        });
        return format!(
            "{} not fully tested: {list}",
            count_of(incomplete.len(), "server", "servers")
        );
    }
    let failing: Vec<(&FleetMember, usize)> = fleet
        .servers
        .iter()
        .map(|m| (m, m.results().iter().filter(|r| is_fail(r)).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    let cross_failed = fleet.results.iter().filter(|r| is_fail(r)).count();
    let mut parts = Vec::new();
    if !failing.is_empty() {
        parts.push(format!(
            "checks failed on {}: {}",
            count_of(failing.len(), "server", "servers"),
            named(&failing, |(m, n)| format!("{} ({n})", name(&m.name)))
        ));
    }
    if cross_failed > 0 {
        parts.push(format!(
            "{} failed",
            count_of(cross_failed, "cross-server check", "cross-server checks")
        ));
    }
    if parts.is_empty() {
        return format!(
            "{} fully tested, no check failed",
            count_of(fleet.servers.len(), "server", "servers")
        );
    }
    parts.join("; ")
}

fn is_fail(r: &Finding) -> bool {
    r.status == crate::model::Status::Fail
}
