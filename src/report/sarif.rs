//! SARIF 2.1.0 reporter (reporters.md §6), as a typed serde model.
//!
//! Every alert is anchored to the config file that was used (`RenderContext::artifact_path`,
//! percent-encoded per segment) because mcpward tests a black box with no source lines.
//!
//! GitHub code scanning limits (rejected uploads are worse than trimmed ones): at most
//! [`MAX_RESULTS`] results and [`MAX_RULES`] rules per run; beyond that the most severe
//! results are kept (report order otherwise) and an invocation notification says how many
//! were dropped. Message texts and strings inside `properties.expected/actual` are cut to
//! [`MAX_TEXT_CHARS`] characters with the usual truncation note (the JSON report keeps the
//! full text).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::common::{
    encode_uri_path, era_suffix, fleet_results, incomplete_members, Scope, CROSS_SERVER,
};
use super::json;
use super::text::truncate_chars;
use super::types::{RenderContext, Reporter, PROJECT_URL, RULES_DOC_URL};
use crate::model::{Finding, FleetReport, Report, Severity, Status};

pub const SARIF_SCHEMA_URI: &str =
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json";
/// GitHub rejects a run with more results (or rules) than this.
pub const MAX_RESULTS: usize = 25_000;
pub const MAX_RULES: usize = 25_000;
/// Longest message / property string kept, in characters.
pub const MAX_TEXT_CHARS: usize = 10_000;

pub struct SarifReporter;

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    results: Vec<SarifResult>,
    invocations: Vec<Invocation>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: String,
    information_uri: &'static str,
    rules: Vec<RuleDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: String,
    name: String,
    short_description: Message,
    full_description: Message,
    help_uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<MultiformatMessage>,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
struct MultiformatMessage {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    category: &'static str,
    security: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
    partial_fingerprints: Fingerprints,
    /// An accepted finding (#16 §3): GitHub shows the alert as dismissed with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<SarifSuppression>,
    properties: ResultProperties,
}

#[derive(Serialize)]
struct SarifSuppression {
    kind: &'static str,
    status: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Fingerprints {
    primary_location_line_hash: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
struct LogicalLocation {
    name: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct ResultProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<Value>,
    family: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    era: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    end_time_utc: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Message,
}

impl Reporter for SarifReporter {
    fn render(&self, report: &Report, ctx: &RenderContext) -> String {
        let entries = report.results.iter().map(|r| (Scope::Single, r)).collect();
        let run = RunInput {
            version: &report.version,
            timestamp: &report.timestamp,
            successful: report.summary.failed == 0,
            notes: Vec::new(),
        };
        document(entries, run, ctx)
    }

    /// **One** run for the whole fleet (GitHub rejects several runs of one tool and
    /// category in a file): every member's results and the cross-server ones, each message
    /// prefixed with its server (`[api] …`), the server as a logical location (kind
    /// `server`) and in the fingerprint, so one finding on two servers is two alerts. A
    /// server that was not fully tested is an error notification of the invocation.
    fn render_fleet(&self, fleet: &FleetReport, ctx: &RenderContext) -> String {
        let notes = incomplete_members(fleet)
            .map(|(name, reason)| Note {
                level: "error",
                text: format!("[{name}] not fully tested: {reason}"),
            })
            .collect();
        let run = RunInput {
            version: &fleet.version,
            timestamp: &fleet.timestamp,
            successful: fleet.summary.exit_code == 0,
            notes,
        };
        document(fleet_results(fleet), run, ctx)
    }
}

/// What a run says besides its results.
struct RunInput<'a> {
    version: &'a str,
    timestamp: &'a str,
    successful: bool,
    notes: Vec<Note>,
}

struct Note {
    level: &'static str,
    text: String,
}

fn document(entries: Vec<(Scope, &Finding)>, input: RunInput, ctx: &RenderContext) -> String {
    let mut seen = BTreeSet::new();
    let mut ids: Vec<&str> = Vec::new();
    for (_, r) in &entries {
        if seen.insert(r.id.as_str()) {
            ids.push(&r.id);
        }
    }
    let mut notes = input.notes;
    if ids.len() > MAX_RULES {
        notes.push(Note {
            level: "warning",
            text: format!(
                "{} rule descriptors omitted (GitHub code scanning accepts at most {MAX_RULES} per run)",
                ids.len() - MAX_RULES
            ),
        });
        ids.truncate(MAX_RULES);
    }
    let kept: BTreeSet<&str> = ids.iter().copied().collect();
    let rules = ids.iter().map(|id| rule_descriptor(id)).collect();

    let uri = encode_uri_path(&ctx.artifact_path);
    let mut listed: Vec<(usize, Scope, &Finding)> = entries
        .into_iter()
        .enumerate()
        .filter(|(_, (_, r))| matches!(r.status, Status::Fail | Status::Warn | Status::Suppressed))
        .filter(|(_, (_, r))| kept.contains(r.id.as_str()))
        .map(|(i, (scope, r))| (i, scope, r))
        .collect();
    if listed.len() > MAX_RESULTS {
        notes.push(Note {
            level: "warning",
            text: format!(
                "{} results omitted (GitHub code scanning accepts at most {MAX_RESULTS} per run); see the JSON report for all of them",
                listed.len() - MAX_RESULTS
            ),
        });
        // Keep the most severe, then restore report order.
        listed.sort_by_key(|(i, _, r)| (severity_rank(r.severity), *i));
        listed.truncate(MAX_RESULTS);
        listed.sort_by_key(|(i, _, _)| *i);
    }
    // Two results with the same rule, location and message would share a fingerprint
    // (GitHub would fold them into one alert); the occurrence number keeps them apart.
    let mut occurrences: BTreeMap<String, usize> = BTreeMap::new();
    let results = listed
        .into_iter()
        .map(|(_, scope, r)| {
            let hash = fingerprint(r, scope);
            let n = occurrences.entry(hash.clone()).or_insert(0);
            *n += 1;
            let line = match scope {
                Scope::Single => ctx.config_line(r),
                Scope::Server(name) => ctx.member_config_line(name, r),
                Scope::Cross => ctx.cross_config_line(r),
            };
            sarif_result(r, scope, &uri, line, format!("{hash}:{n}"))
        })
        .collect();

    let log = Log {
        schema: SARIF_SCHEMA_URI,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "mcpward",
                    version: input.version.to_string(),
                    information_uri: PROJECT_URL,
                    rules,
                },
            },
            results,
            invocations: vec![Invocation {
                execution_successful: input.successful,
                end_time_utc: input.timestamp.to_string(),
                tool_execution_notifications: notes
                    .into_iter()
                    .map(|n| Notification {
                        level: n.level,
                        message: Message {
                            text: truncate_chars(&n.text, MAX_TEXT_CHARS),
                        },
                    })
                    .collect(),
            }],
        }],
    };
    json::to_pretty(&log)
}

fn severity_rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// `partialFingerprints.primaryLocationLineHash` without its occurrence suffix: the rule,
/// the tool and the kind of finding, so an unchanged finding keeps its alert across runs and
/// distinct findings on one config line get distinct alerts. The kind is the message with
/// its numbers blanked: a latency of 812 ms one run and 790 ms the next is the same alert.
/// A fleet result adds its server (or the cross-server mark) and a result its era, so the
/// same finding on two servers or in two eras are two alerts; a single-era single-server
/// result hashes exactly as before.
fn fingerprint(r: &Finding, scope: Scope) -> String {
    use sha2::{Digest, Sha256};
    let kind: String = r
        .message
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect();
    let mut h = Sha256::new();
    let base = [r.id.as_str(), r.location.as_deref().unwrap_or(""), &kind];
    for part in base.into_iter().chain(scope.fingerprint_parts(r)) {
        h.update(part.as_bytes());
        h.update([0]);
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// GitHub rejects a whole upload when one result has no location, so every result points
/// at the config file (the line of the key it is about); the tool, where there is one, is
/// its logical location.
fn sarif_result(
    r: &Finding,
    scope: Scope,
    uri: &str,
    line: usize,
    fingerprint: String,
) -> SarifResult {
    let owner = match scope {
        Scope::Single => None,
        Scope::Server(name) => Some(LogicalLocation {
            name: truncate_chars(name, MAX_TEXT_CHARS),
            kind: "server",
        }),
        Scope::Cross => Some(LogicalLocation {
            name: CROSS_SERVER.to_string(),
            kind: "fleet",
        }),
    };
    // A cross-server result's location names servers, not a tool.
    let location_kind = if scope == Scope::Cross {
        "servers"
    } else {
        "tool"
    };
    let locations = vec![Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: uri.to_string(),
                uri_base_id: "%SRCROOT%",
            },
            region: Region { start_line: line },
        },
        logical_locations: owner
            .into_iter()
            .chain(r.location.iter().map(|loc| LogicalLocation {
                name: truncate_chars(loc, MAX_TEXT_CHARS),
                kind: location_kind,
            }))
            .collect(),
    }];
    SarifResult {
        rule_id: sarif_rule_id(&r.id),
        level: result_level(r.severity),
        message: Message {
            text: truncate_chars(
                &format!("{}{}{}", scope.prefix(), r.message, era_suffix(r)),
                MAX_TEXT_CHARS,
            ),
        },
        locations,
        partial_fingerprints: Fingerprints {
            primary_location_line_hash: fingerprint,
        },
        suppressions: r
            .suppression
            .iter()
            .map(|s| SarifSuppression {
                kind: "external",
                status: "accepted",
                justification: truncate_chars(&s.reason, MAX_TEXT_CHARS),
            })
            .collect(),
        properties: ResultProperties {
            expected: r.expected.as_ref().map(cap_strings),
            actual: r.actual.as_ref().map(cap_strings),
            family: r.family.clone(),
            era: r.era.clone(),
        },
    }
}

/// Copies `v` with every string cut to [`MAX_TEXT_CHARS`] (iteratively: no recursion
/// limit to worry about on deep values).
fn cap_strings(v: &Value) -> Value {
    let mut out = v.clone();
    let mut stack = vec![&mut out];
    while let Some(node) = stack.pop() {
        match node {
            Value::String(s) if s.chars().nth(MAX_TEXT_CHARS).is_some() => {
                *s = truncate_chars(s, MAX_TEXT_CHARS);
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(o) => stack.extend(o.values_mut()),
            _ => {}
        }
    }
    out
}

/// `family/name` → `family-name` (SARIF ruleId; stable public contract).
pub fn sarif_rule_id(id: &str) -> String {
    id.replace('/', "-")
}

/// `helpUri` for a rule id: the rules document plus the anchor (id without `/`, lower-case).
pub fn help_uri(id: &str) -> String {
    format!("{RULES_DOC_URL}#{}", crate::rules::anchor(id))
}

fn result_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// `defaultConfiguration.level`: the registered rule's default severity, the same value
/// docs/rules.md states and a default run reports (docs/decisions.md); `note` for an id
/// the registry does not know.
pub fn default_level(id: &str) -> &'static str {
    crate::rules::lookup(id).map_or("note", |r| result_level(r.severity))
}

fn rule_descriptor(id: &str) -> RuleDescriptor {
    let family = id.split('/').next().unwrap_or(id);
    let (short, full, help) = match crate::rules::lookup(id) {
        Some(rule) => (
            rule.short.to_string(),
            rule.description.to_string(),
            Some(MultiformatMessage {
                text: format!("{}\n\nHow to fix: {}", rule.description, rule.fix),
                markdown: format!("{}\n\n**How to fix:** {}", rule.description, rule.fix),
            }),
        ),
        // Every id the checks emit is registered (rules.rs); an unknown one is named only.
        None => (id.to_string(), id.to_string(), None),
    };
    RuleDescriptor {
        id: sarif_rule_id(id),
        name: id.to_string(),
        short_description: Message { text: short },
        full_description: Message { text: full },
        help_uri: help_uri(id),
        help,
        default_configuration: Configuration {
            level: default_level(id),
        },
        properties: RuleProperties {
            category: crate::rules::category_of(id),
            security: crate::rules::family(family).is_some_and(|f| f.security),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, ServerSummary};
    use crate::report::text::TRUNCATION_NOTE;

    fn report(results: Vec<Finding>) -> Report {
        Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            results,
            "2024-01-15T10:30:00.000Z".into(),
        )
    }

    fn render(results: Vec<Finding>, ctx: &RenderContext) -> Value {
        serde_json::from_str(&SarifReporter.render(&report(results), ctx)).unwrap()
    }

    #[test]
    fn anchors_and_ids() {
        assert_eq!(
            sarif_rule_id("drift/description_changed"),
            "drift-description_changed"
        );
        for (id, anchor) in [
            ("compliance/handshake", "compliancehandshake"),
            ("security/injection-pattern", "securityinjection-pattern"),
            ("schema/tool-name", "schematool-name"),
            ("drift/description-changed", "driftdescription-changed"),
            ("drift/tool_added", "drifttool_added"),
        ] {
            assert_eq!(help_uri(id), format!("{RULES_DOC_URL}#{anchor}"));
        }
    }

    #[test]
    fn rules_cover_every_distinct_id_and_results_only_fail_warn() {
        let v = render(
            vec![
                Finding::pass("compliance/handshake", "ok"),
                Finding::fail("schema/tool-name", "bad").location("t"),
                Finding::fail("schema/tool-name", "bad2"),
                Finding::skip("latency/summary", "skipped"),
                Finding::warn("drift/tool_added", "new").location("n"),
                Finding::warn("future/thing", "x").severity(Severity::Info),
            ],
            &RenderContext::default().with_artifact_path("ci/checks#prod.yaml"),
        );
        let run = &v["runs"][0];
        let ids: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            ids,
            [
                "compliance-handshake",
                "schema-tool-name",
                "latency-summary",
                "drift-tool_added",
                "future-thing"
            ]
        );
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let registered = crate::rules::lookup("latency/summary").expect("registered rule");
        assert_eq!(rules[2]["shortDescription"]["text"], registered.short);
        assert_eq!(rules[4]["shortDescription"]["text"], "future/thing");
        assert_eq!(rules[4]["fullDescription"]["text"], "future/thing");
        assert_eq!(rules[4]["defaultConfiguration"]["level"], "note");
        assert_eq!(rules[4]["properties"]["category"], "general");
        assert!(rules[1]["help"]["markdown"].as_str().is_some());
        assert!(rules[4].get("help").is_none());
        let results = run["results"].as_array().unwrap();
        let levels: Vec<&str> = results
            .iter()
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["error", "error", "warning", "note"]);
        assert_eq!(
            results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "ci/checks%23prod.yaml"
        );
        // A result without a tool still has a physical location (GitHub rejects the whole
        // upload otherwise), and no logical one.
        assert_eq!(
            results[1]["locations"],
            serde_json::json!([{"physicalLocation": {
                "artifactLocation": {"uri": "ci/checks%23prod.yaml", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 1}
            }}])
        );
        let prints: Vec<&str> = results
            .iter()
            .map(|r| {
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        assert_eq!(prints.iter().collect::<BTreeSet<_>>().len(), prints.len());
        assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    }

    #[test]
    fn long_texts_are_capped() {
        let long = "x".repeat(MAX_TEXT_CHARS + 5);
        let v = render(
            vec![Finding::fail("a/b", long.clone()).actual(serde_json::json!({"d": [long]}))],
            &RenderContext::default(),
        );
        let r = &v["runs"][0]["results"][0];
        let want = format!("{}{TRUNCATION_NOTE}", "x".repeat(MAX_TEXT_CHARS));
        assert_eq!(r["message"]["text"], want.as_str());
        assert_eq!(r["properties"]["actual"]["d"][0], want.as_str());
    }

    #[test]
    fn result_count_is_capped_keeping_errors() {
        let mut results: Vec<Finding> = (0..MAX_RESULTS)
            .map(|i| Finding::warn("a/w", format!("w{i}")))
            .collect();
        results.push(Finding::fail("a/e", "the error"));
        let v = render(results, &RenderContext::default());
        let run = &v["runs"][0];
        let rs = run["results"].as_array().unwrap();
        assert_eq!(rs.len(), MAX_RESULTS);
        assert_eq!(rs[MAX_RESULTS - 1]["message"]["text"], "the error");
        assert_eq!(
            rs[MAX_RESULTS - 2]["message"]["text"],
            format!("w{}", MAX_RESULTS - 2)
        );
        let note = run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap();
        assert!(note.starts_with("1 results omitted"), "{note}");
    }
}
