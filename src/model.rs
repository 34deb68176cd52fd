//! The findings model every check emits and every reporter reads (checks-core.md §1).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Report layout version; bumps only on a breaking change of the report shape.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Warn,
    Skip,
    /// A failing or warning result an entry of `suppress:` / `mcpward.suppress.yaml`
    /// accepts (#16 §3): reported, counted apart, never failing the run.
    Suppressed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// One result of one rule. Optional members are omitted when absent; `Some(Value::Null)`
/// serialises as an explicit `null` (an observed null).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub id: String,
    pub family: String,
    pub status: Status,
    pub severity: Severity,
    pub message: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub expected: Option<Value>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub actual: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The protocol era of the lane that produced it (`legacy` / `modern`), only when a run
    /// tests both eras (`protocol_era: both`, #15); absent otherwise, so single-era reports
    /// are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub era: Option<String>,
    /// Why a `suppressed` result is accepted, and until when (#16 §3); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppression: Option<Suppression>,
}

/// The accepting entry's reason and expiry, recorded on the suppressed result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppression {
    pub reason: String,
    /// `YYYY-MM-DD`, the last day the entry suppresses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

/// Keeps an explicit JSON `null` as `Some(Null)` so a round trip preserves it.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl Finding {
    /// `id` is `<family>/<rule>`; the family is derived from it so the two never disagree.
    /// Checks never call this with an id of their own: they go through their rule constant
    /// (`crate::rules::types::Rule`), which is where the default severity comes from.
    pub(crate) fn new(
        id: &str,
        status: Status,
        severity: Severity,
        message: impl Into<String>,
    ) -> Self {
        let family = id.split('/').next().unwrap_or(id).to_string();
        Finding {
            id: id.to_string(),
            family,
            status,
            severity,
            message: message.into(),
            expected: None,
            actual: None,
            location: None,
            era: None,
            suppression: None,
        }
    }
    /// Test data only (reporters render any id, registered or not); checks build findings
    /// from their rule constant (`rules::X.pass(…)`).
    #[cfg(test)]
    pub(crate) fn pass(id: &str, message: impl Into<String>) -> Self {
        Self::new(id, Status::Pass, Severity::Info, message)
    }
    /// Test data only (reporters render any id, registered or not); checks build findings
    /// from their rule constant (`rules::X.fail(…)`).
    #[cfg(test)]
    pub(crate) fn fail(id: &str, message: impl Into<String>) -> Self {
        Self::new(id, Status::Fail, Severity::Error, message)
    }
    /// Test data only (reporters render any id, registered or not); checks build findings
    /// from their rule constant (`rules::X.warn(…)`).
    #[cfg(test)]
    pub(crate) fn warn(id: &str, message: impl Into<String>) -> Self {
        Self::new(id, Status::Warn, Severity::Warning, message)
    }
    /// Test data only (reporters render any id, registered or not); checks build findings
    /// from their rule constant (`rules::X.skip(…)`).
    #[cfg(test)]
    pub(crate) fn skip(id: &str, message: impl Into<String>) -> Self {
        Self::new(id, Status::Skip, Severity::Info, message)
    }
    pub fn expected(mut self, v: impl Into<Value>) -> Self {
        self.expected = Some(v.into());
        self
    }
    pub fn actual(mut self, v: impl Into<Value>) -> Self {
        self.actual = Some(v.into());
        self
    }
    pub fn location(mut self, l: impl Into<String>) -> Self {
        self.location = Some(l.into());
        self
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = s;
        self
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub version: String,
    pub protocol_version: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    pub warnings: usize,
    pub skipped: usize,
    /// Results a suppression accepted (#16 §3); omitted when none, so reports of runs
    /// without suppressions are unchanged.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub suppressed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    pub fn of(results: &[Finding]) -> Self {
        let count = |s: Status| results.iter().filter(|r| r.status == s).count();
        Summary {
            total: results.len(),
            passed: count(Status::Pass),
            failed: count(Status::Fail),
            warnings: count(Status::Warn),
            skipped: count(Status::Skip),
            suppressed: count(Status::Suppressed),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema_version: u32,
    pub version: String,
    pub timestamp: String,
    pub server: ServerSummary,
    pub summary: Summary,
    pub results: Vec<Finding>,
}

impl Report {
    pub fn new(server: ServerSummary, results: Vec<Finding>, timestamp: String) -> Self {
        Report {
            schema_version: REPORT_SCHEMA_VERSION,
            version: crate::VERSION.to_string(),
            timestamp,
            server,
            summary: Summary::of(&results),
            results,
        }
    }

    /// 1 when any result failed, else 0. Exit 2 is decided outside the report.
    pub fn exit_code(&self) -> u8 {
        exit_code_of(&self.results)
    }
}

pub fn exit_code_of(results: &[Finding]) -> u8 {
    u8::from(results.iter().any(|r| r.status == Status::Fail))
}

/// Fleet document layout version (`schemas/fleet-report.v1.schema.json`); bumps only on a
/// breaking change of the fleet shape. Each member's `report` is a v1 [`Report`].
pub const FLEET_SCHEMA_VERSION: u32 = 1;

/// One document for a run over several servers (#15): one v1 report per server, the
/// cross-server findings, and a fleet summary. Servers are in config order whatever the
/// completion order; a shard's document lists the whole fleet's order so `merge` can
/// rebuild the unsharded document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetReport {
    pub fleet_schema_version: u32,
    pub version: String,
    pub timestamp: String,
    pub summary: FleetSummary,
    /// Every selected server of the fleet, in config order (before sharding).
    pub order: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub servers: Vec<FleetMember>,
    /// Cross-server findings (`collision/cross-server-name`, `security/tool-shadowing`
    /// across servers, `security/toxic-flow`); their `location` names the servers.
    pub results: Vec<Finding>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub count: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetSummary {
    /// Servers in this document.
    pub servers: usize,
    /// Servers whose every check ran, and nothing failed / something failed.
    pub passed: usize,
    pub failed: usize,
    /// Servers not (fully) tested: unreachable, deadline, unreadable baseline.
    pub incomplete: usize,
    /// Totals over every server's results plus the cross-server results.
    pub results: Summary,
    /// 2 if any server was not fully tested, else 1 if any check failed, else 0.
    pub exit_code: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetMember {
    pub name: String,
    pub status: MemberStatus,
    /// Why the server was not fully tested (redacted), when `status` is `incomplete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The server's v1 report; absent when nothing was tested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// The listed tools (redacted), kept so `merge` can recompute cross-server findings
    /// exactly as one unsharded run would.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemberStatus {
    Passed,
    Failed,
    Incomplete,
}

impl FleetMember {
    /// A server whose checks all ran; its status follows from its results.
    pub fn tested(name: impl Into<String>, report: Report, tools: Vec<Value>) -> Self {
        let status = member_status_of(&report);
        FleetMember {
            name: name.into(),
            status,
            reason: None,
            report: Some(report),
            tools,
        }
    }

    /// A server that was not (fully) tested, with why; `report` holds what did run, if any.
    pub fn incomplete(
        name: impl Into<String>,
        reason: impl Into<String>,
        report: Option<Report>,
    ) -> Self {
        FleetMember {
            name: name.into(),
            status: MemberStatus::Incomplete,
            reason: Some(reason.into()),
            report,
            tools: Vec::new(),
        }
    }

    /// The member's results (none when nothing was tested).
    pub fn results(&self) -> &[Finding] {
        self.report.as_ref().map_or(&[], |r| &r.results)
    }
}

fn member_status_of(report: &Report) -> MemberStatus {
    if exit_code_of(&report.results) == 1 {
        MemberStatus::Failed
    } else {
        MemberStatus::Passed
    }
}

/// The reason an incomplete member gets when none was given.
pub const NOT_TESTED: &str = "not tested (no reason recorded)";

impl FleetReport {
    /// The fleet document, with the summary and every member's status computed here so the
    /// two never disagree: a member marked incomplete or without a report is incomplete
    /// (with a reason), any other is failed when one of its results failed, else passed.
    /// Members keep the order given (the caller passes config order).
    pub fn new(
        order: Vec<String>,
        shard: Option<Shard>,
        members: Vec<FleetMember>,
        cross_results: Vec<Finding>,
        timestamp: String,
    ) -> Self {
        let servers: Vec<FleetMember> = members.into_iter().map(normalise_member).collect();
        let summary = fleet_summary(&servers, &cross_results);
        FleetReport {
            fleet_schema_version: FLEET_SCHEMA_VERSION,
            version: crate::VERSION.to_string(),
            timestamp,
            summary,
            order,
            shard,
            servers,
            results: cross_results,
        }
    }

    /// 2 if any server was not fully tested, else 1 if any check failed, else 0.
    pub fn exit_code(&self) -> u8 {
        self.summary.exit_code
    }

    /// Reads a fleet document (`mcpward run` on a fleet config with `--reporter json`),
    /// telling a single-server report or another file apart with a clear error.
    pub fn from_json(text: &str) -> Result<FleetReport, FleetReadError> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| FleetReadError::NotJson(e.to_string()))?;
        let Some(obj) = v.as_object() else {
            return Err(FleetReadError::NotFleet);
        };
        match obj.get("fleetSchemaVersion") {
            None if obj.contains_key("schemaVersion") && obj.contains_key("server") => {
                Err(FleetReadError::SingleReport)
            }
            None => Err(FleetReadError::NotFleet),
            Some(n) if n.as_u64() == Some(u64::from(FLEET_SCHEMA_VERSION)) => {
                let fleet: FleetReport = serde_json::from_value(v)
                    .map_err(|e| FleetReadError::Invalid(e.to_string()))?;
                fleet.check_ids()?;
                Ok(fleet)
            }
            Some(other) => Err(FleetReadError::UnsupportedVersion(
                serde_json::to_string(other).unwrap_or_default(),
            )),
        }
    }
}

impl FleetReport {
    /// Rule ids, families and eras are ours, and reporters print them as they are (a rule
    /// id is never escaped in Markdown): a file read back must hold only well-formed ones.
    fn check_ids(&self) -> Result<(), FleetReadError> {
        let all = self
            .servers
            .iter()
            .flat_map(|m| m.results())
            .chain(&self.results);
        for f in all {
            let word = |s: &str, extra: &[char]| {
                !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || extra.contains(&c))
            };
            let well_formed = match f.id.split_once('/') {
                Some((family, rule)) => {
                    family == f.family
                        && family.chars().all(|c| c.is_ascii_lowercase())
                        && !family.is_empty()
                        && word(rule, &['_', '-'])
                }
                None => false,
            } && f.era.as_deref().is_none_or(|e| word(e, &[]));
            if !well_formed {
                return Err(FleetReadError::Invalid(format!(
                    "malformed result id {:?} (family {:?}, era {:?})",
                    f.id, f.family, f.era
                )));
            }
        }
        Ok(())
    }
}

fn normalise_member(mut m: FleetMember) -> FleetMember {
    match &m.report {
        Some(r) if m.status != MemberStatus::Incomplete => {
            m.status = member_status_of(r);
            m.reason = None;
        }
        _ => {
            m.status = MemberStatus::Incomplete;
            if m.reason.as_deref().is_none_or(str::is_empty) {
                m.reason = Some(NOT_TESTED.to_string());
            }
        }
    }
    m
}

fn fleet_summary(servers: &[FleetMember], cross: &[Finding]) -> FleetSummary {
    let count = |s: MemberStatus| servers.iter().filter(|m| m.status == s).count();
    let mut results = Summary::of(cross);
    for m in servers {
        let s = Summary::of(m.results());
        results.total += s.total;
        results.passed += s.passed;
        results.failed += s.failed;
        results.warnings += s.warnings;
        results.skipped += s.skipped;
        results.suppressed += s.suppressed;
    }
    let incomplete = count(MemberStatus::Incomplete);
    let exit_code = if incomplete > 0 {
        2
    } else {
        u8::from(results.failed > 0)
    };
    FleetSummary {
        servers: servers.len(),
        passed: count(MemberStatus::Passed),
        failed: count(MemberStatus::Failed),
        incomplete,
        results,
        exit_code,
    }
}

/// Why a file is not a fleet document [`FleetReport::from_json`] can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FleetReadError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("a single-server report (schemaVersion 1), not a fleet document: merge reads the JSON reports of runs over a fleet config (`servers:` / `servers_from:`, e.g. with `--shard`)")]
    SingleReport,
    #[error("not an mcpward fleet document (no fleetSchemaVersion)")]
    NotFleet,
    #[error("fleet document version {0}, this mcpward reads version {FLEET_SCHEMA_VERSION}")]
    UnsupportedVersion(String),
    #[error("not a valid fleet document: {0}")]
    Invalid(String),
}

/// Why fleet reports cannot be merged. Inputs are numbered from 0 in the order given;
/// [`MergeError::describe`] names them (file names) for a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// No input at all.
    Empty,
    /// Two inputs are reports of different fleets (their `order` differs).
    DifferentFleets {
        first: usize,
        second: usize,
        difference: String,
    },
    /// One server is in two inputs (overlapping shards), or twice in one input.
    DuplicateServer {
        server: String,
        first: usize,
        second: usize,
    },
    /// An input holds a server its own `order` does not list.
    UnknownServer { server: String, input: usize },
}

impl MergeError {
    /// The message with input `i` called `names[i]` (`input <i+1>` when there is no name).
    pub fn describe<S: AsRef<str>>(&self, names: &[S]) -> String {
        let name = |i: usize| match names.get(i) {
            Some(n) => n.as_ref().to_string(),
            None => format!("input {}", i + 1),
        };
        match self {
            MergeError::Empty => "nothing to merge: no fleet report given".to_string(),
            MergeError::DifferentFleets {
                first,
                second,
                difference,
            } => format!(
                "{} and {} are reports of different fleets: {difference}",
                name(*first),
                name(*second)
            ),
            MergeError::DuplicateServer {
                server,
                first,
                second,
            } if first == second => {
                format!("server {server:?} appears twice in {}", name(*first))
            }
            MergeError::DuplicateServer {
                server,
                first,
                second,
            } => format!(
                "server {server:?} is in both {} and {} (overlapping shards)",
                name(*first),
                name(*second)
            ),
            MergeError::UnknownServer { server, input } => format!(
                "{} holds server {server:?}, which its fleet order does not list",
                name(*input)
            ),
        }
    }
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe::<&str>(&[]))
    }
}

impl std::error::Error for MergeError {}

/// Names listed in an error message, at most this many (then "and N more").
const LISTED_NAMES: usize = 5;

fn list_names(names: &[&String]) -> String {
    let mut out: Vec<String> = names
        .iter()
        .take(LISTED_NAMES)
        .map(|n| format!("{n:?}"))
        .collect();
    if names.len() > LISTED_NAMES {
        out.push(format!("and {} more", names.len() - LISTED_NAMES));
    }
    out.join(", ")
}

fn only_in<'a>(x: &'a [String], y: &[String]) -> Vec<&'a String> {
    let ys: std::collections::BTreeSet<&String> = y.iter().collect();
    x.iter().filter(|n| !ys.contains(n)).collect()
}

/// How two fleet orders differ, for [`MergeError::DifferentFleets`].
fn order_difference(a: &[String], b: &[String]) -> String {
    let (only_a, only_b) = (only_in(a, b), only_in(b, a));
    let mut parts = Vec::new();
    if !only_a.is_empty() {
        parts.push(format!("only the first lists {}", list_names(&only_a)));
    }
    if !only_b.is_empty() {
        parts.push(format!("only the second lists {}", list_names(&only_b)));
    }
    if parts.is_empty() {
        match a.iter().zip(b).position(|(x, y)| x != y) {
            Some(i) => parts.push(format!(
                "the same servers in another order (position {}: {:?} vs {:?})",
                i + 1,
                a[i],
                b[i]
            )),
            // Same set, same prefix: one lists a server twice.
            None => parts.push(format!(
                "{} vs {} entries in the fleet order",
                a.len(),
                b.len()
            )),
        }
    }
    parts.join("; ")
}

/// `mcpward merge`: combines the fleet reports of shards (or partial runs) into the document
/// one run of the whole fleet would have written. Every input must list the same fleet
/// `order`; a server may be in one input only. Members come out in `order`; a server of the
/// fleet in no input is an incomplete member saying so. The shard is dropped, the timestamp
/// is the latest input's, and the cross-server results are recomputed by `cross` over all
/// members (the caller passes the cross-server checks), because a shard only saw its own
/// slice of the fleet.
pub fn merge(
    reports: Vec<FleetReport>,
    cross: &dyn Fn(&[FleetMember]) -> Vec<Finding>,
) -> Result<FleetReport, MergeError> {
    let Some(first) = reports.first() else {
        return Err(MergeError::Empty);
    };
    let order = first.order.clone();
    for (i, r) in reports.iter().enumerate().skip(1) {
        if r.order != order {
            return Err(MergeError::DifferentFleets {
                first: 0,
                second: i,
                difference: order_difference(&order, &r.order),
            });
        }
    }
    let timestamp = reports
        .iter()
        .map(|r| r.timestamp.as_str())
        .max()
        .unwrap_or_default()
        .to_string();
    let listed: std::collections::BTreeSet<&str> = order.iter().map(String::as_str).collect();
    let mut found: std::collections::BTreeMap<String, (usize, FleetMember)> =
        std::collections::BTreeMap::new();
    for (i, r) in reports.into_iter().enumerate() {
        for m in r.servers {
            if !listed.contains(m.name.as_str()) {
                return Err(MergeError::UnknownServer {
                    server: m.name,
                    input: i,
                });
            }
            if let Some((prev, _)) = found.get(&m.name) {
                return Err(MergeError::DuplicateServer {
                    server: m.name,
                    first: *prev,
                    second: i,
                });
            }
            found.insert(m.name.clone(), (i, m));
        }
    }
    let mut members = Vec::with_capacity(order.len());
    let mut seen = std::collections::BTreeSet::new();
    for name in &order {
        if !seen.insert(name.as_str()) {
            continue; // a name listed twice in the order is one member
        }
        members.push(match found.remove(name) {
            Some((_, m)) => m,
            None => FleetMember::incomplete(
                name.clone(),
                "not in any merged report (a shard's report is missing)",
                None,
            ),
        });
    }
    let cross_results = cross(&members);
    Ok(FleetReport::new(
        order,
        None,
        members,
        cross_results,
        timestamp,
    ))
}

/// ISO-8601 UTC with milliseconds, without pulling a date crate for one format.
pub fn timestamp_now() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format_timestamp(now.as_millis() as i64)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's days-from-civil).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The day (days since the epoch) of an ISO-8601 date or UTC timestamp
/// (`2026-12-01`, `2026-12-01T10:00:00.000Z`); `None` when it is not one.
pub fn parse_day(s: &str) -> Option<i64> {
    let date = s.get(..10)?;
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = &date[r];
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let days_in = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => return None,
    };
    if d < 1 || d > days_in || (s.len() > 10 && s.as_bytes()[10] != b'T') {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// Today as days since the epoch (UTC). `MCPWARD_TODAY=YYYY-MM-DD` pins it, so tests of
/// ages and expiry dates do not depend on the day they run.
pub fn today() -> i64 {
    if let Some(day) = std::env::var("MCPWARD_TODAY")
        .ok()
        .and_then(|s| parse_day(&s))
    {
        return day;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (now.as_secs() / 86_400) as i64
}

pub fn format_timestamp(millis: i64) -> String {
    let secs = millis.div_euclid(1000);
    let ms = millis.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        sod / 3600,
        (sod % 3600) / 60,
        sod % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn days_round_trip_through_timestamps() {
        for day in [-1000_i64, 0, 59, 60, 10_957, 20_423, 47_482] {
            let ts = format_timestamp(day * 86_400_000 + 12_345);
            assert_eq!(parse_day(&ts), Some(day), "{ts}");
        }
        assert_eq!(parse_day("2026-12-01"), Some(days_from_civil(2026, 12, 1)));
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "20261201",
            "2026-12-01x",
            "",
            "2026-1-01",
        ] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn finding_member_order_and_omission() {
        let f = Finding::fail("schema/tool-name", "bad")
            .expected("x")
            .actual(Value::Null)
            .location("t");
        let s = serde_json::to_string(&f).unwrap();
        assert_eq!(
            s,
            r#"{"id":"schema/tool-name","family":"schema","status":"fail","severity":"error","message":"bad","expected":"x","actual":null,"location":"t"}"#
        );
        let back: Finding = serde_json::from_str(&s).unwrap();
        assert_eq!(back, f);
        let bare = serde_json::to_value(Finding::pass("compliance/ping", "ok")).unwrap();
        assert_eq!(bare.as_object().unwrap().len(), 5);
    }

    #[test]
    fn summary_and_exit_code() {
        let rs = vec![
            Finding::pass("a/b", ""),
            Finding::warn("a/c", ""),
            Finding::skip("a/d", ""),
        ];
        assert_eq!(exit_code_of(&rs), 0);
        let mut rs2 = rs.clone();
        rs2.push(Finding::fail("a/e", ""));
        assert_eq!(exit_code_of(&rs2), 1);
        assert_eq!(
            serde_json::to_value(Summary::of(&rs2)).unwrap(),
            json!({"total":4,"passed":1,"failed":1,"warnings":1,"skipped":1})
        );
    }

    #[test]
    fn timestamps() {
        assert_eq!(format_timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            format_timestamp(1_705_314_600_000),
            "2024-01-15T10:30:00.000Z"
        );
        assert_eq!(
            format_timestamp(951_782_400_123),
            "2000-02-29T00:00:00.123Z"
        );
    }

    fn server(name: &str) -> ServerSummary {
        ServerSummary {
            name: name.into(),
            version: "1".into(),
            protocol_version: "2025-11-25".into(),
        }
    }

    fn report(results: Vec<Finding>) -> Report {
        Report::new(server("s"), results, "2024-01-15T10:30:00.000Z".into())
    }

    fn tested(name: &str, results: Vec<Finding>) -> FleetMember {
        FleetMember::tested(
            name,
            report(results),
            vec![json!({"name": format!("{name}_tool")})],
        )
    }

    fn fleet(members: Vec<FleetMember>, cross: Vec<Finding>) -> FleetReport {
        let order = members.iter().map(|m| m.name.clone()).collect();
        FleetReport::new(
            order,
            None,
            members,
            cross,
            "2024-01-15T10:30:00.000Z".into(),
        )
    }

    #[test]
    fn fleet_summary_statuses_and_exit_codes() {
        let ok = || {
            tested(
                "ok",
                vec![Finding::pass("a/b", ""), Finding::warn("a/c", "")],
            )
        };
        let bad = || {
            tested(
                "bad",
                vec![Finding::fail("a/b", ""), Finding::skip("a/d", "")],
            )
        };
        let f = fleet(vec![ok(), bad()], vec![Finding::warn("collision/x", "")]);
        assert_eq!(f.fleet_schema_version, FLEET_SCHEMA_VERSION);
        assert_eq!(
            serde_json::to_value(&f.summary).unwrap(),
            json!({"servers": 2, "passed": 1, "failed": 1, "incomplete": 0,
                   "results": {"total": 5, "passed": 1, "failed": 1, "warnings": 2, "skipped": 1},
                   "exitCode": 1})
        );
        assert_eq!(f.servers[0].status, MemberStatus::Passed);
        assert_eq!(f.servers[1].status, MemberStatus::Failed);
        assert_eq!(fleet(vec![ok()], vec![]).exit_code(), 0);
        // A failing cross-server result alone fails the fleet.
        assert_eq!(
            fleet(vec![ok()], vec![Finding::fail("security/x", "")]).exit_code(),
            1
        );
        // Any incomplete member wins over failures.
        let gone = FleetMember::incomplete("gone", "connection refused", None);
        let f = fleet(vec![bad(), gone], vec![]);
        assert_eq!((f.exit_code(), f.summary.incomplete), (2, 1));
        // Statuses are recomputed: a wrong one given is corrected, a member without a
        // report is incomplete with a reason, a reason on a tested member is dropped.
        let mut lying = bad();
        lying.status = MemberStatus::Passed;
        lying.reason = Some("stale".into());
        let mut empty = ok();
        empty.report = None;
        let f = fleet(vec![lying, empty], vec![]);
        assert_eq!(f.servers[0].status, MemberStatus::Failed);
        assert_eq!(f.servers[0].reason, None);
        assert_eq!(f.servers[1].status, MemberStatus::Incomplete);
        assert_eq!(f.servers[1].reason.as_deref(), Some(NOT_TESTED));
        // Incomplete with a partial report: its results count, it stays incomplete.
        let partial = FleetMember::incomplete(
            "p",
            "deadline",
            Some(report(vec![Finding::pass("a/b", "")])),
        );
        let f = fleet(vec![partial], vec![]);
        assert_eq!(
            (f.servers[0].status, f.summary.results.total, f.exit_code()),
            (MemberStatus::Incomplete, 1, 2)
        );
        // Empty fleet: nothing failed.
        assert_eq!(fleet(vec![], vec![]).exit_code(), 0);
    }

    #[test]
    fn fleet_json_round_trips_and_omits_absent_members() {
        let f = fleet(
            vec![
                tested("a", vec![Finding::pass("a/b", "")]),
                FleetMember::incomplete("b", "why", None),
            ],
            vec![],
        );
        let text = serde_json::to_string(&f).unwrap();
        assert_eq!(FleetReport::from_json(&text).unwrap(), f);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(v.get("shard").is_none());
        assert!(v["servers"][1].get("report").is_none() && v["servers"][1].get("tools").is_none());
        assert!(v["servers"][0].get("reason").is_none());
        assert_eq!(v["servers"][1]["status"], "incomplete");
    }

    #[test]
    fn reading_a_fleet_document_says_what_else_a_file_is() {
        let single = serde_json::to_string(&report(vec![])).unwrap();
        let e = FleetReport::from_json(&single).unwrap_err();
        assert_eq!(e, FleetReadError::SingleReport);
        assert!(e.to_string().contains("single-server report"), "{e}");
        assert!(matches!(
            FleetReport::from_json("{"),
            Err(FleetReadError::NotJson(_))
        ));
        assert_eq!(FleetReport::from_json("[1]"), Err(FleetReadError::NotFleet));
        assert_eq!(
            FleetReport::from_json(r#"{"tools": {}}"#),
            Err(FleetReadError::NotFleet)
        );
        let good = serde_json::to_value(fleet(
            vec![tested("a", vec![Finding::pass("a/b", "")])],
            vec![],
        ))
        .unwrap();
        let mut v2 = good.clone();
        v2["fleetSchemaVersion"] = json!(2);
        let e = FleetReport::from_json(&v2.to_string()).unwrap_err();
        assert_eq!(e, FleetReadError::UnsupportedVersion("2".into()));
        assert!(e.to_string().contains("version 2"), "{e}");
        let mut broken = good.clone();
        broken["servers"][0]["status"] = json!("fine");
        assert!(matches!(
            FleetReport::from_json(&broken.to_string()),
            Err(FleetReadError::Invalid(_))
        ));
        // Ids are printed unescaped by some reporters: a forged one is refused.
        for (field, bad) in [
            ("id", "a/b**[x](y)"),
            ("family", "b"),
            ("id", "A/b"),
            ("era", "<b>"),
        ] {
            let mut forged = good.clone();
            forged["servers"][0]["report"]["results"][0][field] = json!(bad);
            let e = FleetReport::from_json(&forged.to_string()).unwrap_err();
            assert!(
                matches!(e, FleetReadError::Invalid(_)),
                "{field}={bad}: {e:?}"
            );
        }
        let mut fine = good;
        fine["servers"][0]["report"]["results"][0]["era"] = json!("legacy");
        assert!(FleetReport::from_json(&fine.to_string()).is_ok());
    }

    /// Cross-server checks stand-in: one result per tool name listed by two members.
    fn cross(members: &[FleetMember]) -> Vec<Finding> {
        let mut names: Vec<(String, String)> = members
            .iter()
            .flat_map(|m| {
                m.tools
                    .iter()
                    .map(|t| (t["name"].as_str().unwrap_or("").to_string(), m.name.clone()))
            })
            .collect();
        names.sort();
        names
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .map(|w| {
                Finding::warn(
                    "collision/x",
                    format!("{} on {} and {}", w[0].0, w[0].1, w[1].1),
                )
            })
            .collect()
    }

    fn shard(order: &[&str], members: Vec<FleetMember>, index: u32, ts: &str) -> FleetReport {
        let order: Vec<String> = order.iter().map(|s| s.to_string()).collect();
        let r = FleetReport::new(
            order,
            Some(Shard { index, count: 2 }),
            members.clone(),
            cross(&members),
            ts.into(),
        );
        serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap()
    }

    fn shared_tool(name: &str, results: Vec<Finding>) -> FleetMember {
        let mut m = tested(name, results);
        m.tools.push(json!({"name": "shared"}));
        m
    }

    #[test]
    fn merging_every_shard_equals_the_unsharded_run() {
        let order = ["a", "b", "c"];
        let a = || shared_tool("a", vec![Finding::pass("a/b", "")]);
        let b = || FleetMember::incomplete("b", "connection refused", None);
        let c = || shared_tool("c", vec![Finding::fail("a/b", "")]);
        let whole = FleetReport::new(
            order.iter().map(|s| s.to_string()).collect(),
            None,
            vec![a(), b(), c()],
            cross(&[a(), b(), c()]),
            "2024-01-15T10:31:00.000Z".into(),
        );
        assert_eq!(
            whole.results.len(),
            1,
            "the cross-server result needs both shards"
        );
        // Shards in any order, each in its own member order.
        let s1 = shard(&order, vec![c(), b()], 1, "2024-01-15T10:30:00.000Z");
        let s2 = shard(&order, vec![a()], 2, "2024-01-15T10:31:00.000Z");
        assert!(s1.results.is_empty() && s2.results.is_empty());
        let merged = merge(vec![s2.clone(), s1.clone()], &cross).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(
            merged.timestamp, "2024-01-15T10:31:00.000Z",
            "the latest input's"
        );
        assert_eq!(merged.shard, None);
        // A missing shard: its servers are incomplete, saying so.
        let part = merge(vec![s1.clone()], &cross).unwrap();
        assert_eq!(
            part.servers
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>(),
            order
        );
        assert_eq!(part.servers[0].status, MemberStatus::Incomplete);
        assert!(part.servers[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("not in any merged report"));
        assert!(part.results.is_empty());
        assert_eq!(part.exit_code(), 2);
    }

    #[test]
    fn merge_refuses_inputs_that_do_not_fit() {
        let order = ["a", "b"];
        let a = || tested("a", vec![]);
        let s1 = shard(&order, vec![a()], 1, "t");
        assert_eq!(merge(vec![], &cross), Err(MergeError::Empty));
        // The same server twice.
        let e = merge(vec![s1.clone(), s1.clone()], &cross).unwrap_err();
        assert_eq!(
            e,
            MergeError::DuplicateServer {
                server: "a".into(),
                first: 0,
                second: 1
            }
        );
        assert_eq!(
            e.describe(&["s1.json", "s2.json"]),
            "server \"a\" is in both s1.json and s2.json (overlapping shards)"
        );
        let twice = shard(&order, vec![a(), a()], 1, "t");
        assert_eq!(
            merge(vec![twice], &cross).unwrap_err().to_string(),
            "server \"a\" appears twice in input 1"
        );
        // Different fleets: the message names both files and the difference.
        let other = shard(&["a", "z"], vec![], 2, "t");
        let e = merge(vec![s1.clone(), other], &cross).unwrap_err();
        assert_eq!(
            e.describe(&["x.json", "y.json"]),
            "x.json and y.json are reports of different fleets: only the first lists \"b\"; only the second lists \"z\""
        );
        let swapped = shard(&["b", "a"], vec![], 2, "t");
        let e = merge(vec![s1.clone(), swapped], &cross).unwrap_err();
        assert!(
            e.to_string()
                .contains("the same servers in another order (position 1: \"a\" vs \"b\")"),
            "{e}"
        );
        let many: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let e = merge(vec![s1.clone(), shard(&refs, vec![], 2, "t")], &cross).unwrap_err();
        assert!(e.to_string().contains("\"s4\", and 3 more"), "{e}");
        // A member its own order does not list.
        let stray = shard(&order, vec![tested("q", vec![])], 2, "t");
        assert_eq!(
            merge(vec![stray], &cross).unwrap_err(),
            MergeError::UnknownServer {
                server: "q".into(),
                input: 0
            }
        );
    }
}
