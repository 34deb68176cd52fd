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

/// ISO-8601 UTC with milliseconds, without pulling a date crate for one format.
pub fn timestamp_now() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format_timestamp(now.as_millis() as i64)
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
}
