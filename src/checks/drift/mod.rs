//! The drift check (drift.md §3–§4, DECISIONS #3, #19, #20, #39): turns a baseline state,
//! the current capture and the user's policy into findings. Pure: the caller loads the
//! baseline, captures the server and prints any warnings.

use crate::model::{Finding, Severity, Status};
use crate::rules::Rule;
use crate::surface::diff::diff_surfaces;
use crate::surface::lockfile::{Lockfile, LockfileError};
use crate::surface::shape::SamplingNote;
use serde_json::Value;
use std::collections::BTreeMap;

pub use crate::surface::drift_vocab::{Change, DriftClass, Level};
pub use crate::surface::lockfile::BaselineState;

/// Classes that fail the run when `fail_on` is not configured (drift.md §2).
pub const DEFAULT_FAIL_ON: [DriftClass; 5] = [
    DriftClass::ToolRemoved,
    DriftClass::DescriptionChanged,
    DriftClass::BreakingSchemaChange,
    DriftClass::AnnotationChanged,
    DriftClass::BreakingOutputShapeChange,
];

/// `checks.drift.fail_on`: a severity threshold or a list of classes.
#[derive(Debug, Clone, PartialEq)]
pub enum FailOn {
    Level(Level),
    Classes(Vec<DriftClass>),
}

impl Default for FailOn {
    fn default() -> Self {
        FailOn::Classes(DEFAULT_FAIL_ON.to_vec())
    }
}

/// Config-independent policy; the config module maps `checks.drift` onto it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DriftPolicy {
    pub fail_on: FailOn,
    /// `checks.drift.severity`: per-class overrides of the default level.
    pub severity_overrides: BTreeMap<DriftClass, Level>,
}

impl DriftPolicy {
    pub fn level_of(&self, class: DriftClass) -> Level {
        self.severity_overrides
            .get(&class)
            .copied()
            .unwrap_or_else(|| class.default_level())
    }

    /// drift.md §3.3: a threshold compares ranks; a list looks only at the class.
    pub fn fails(&self, class: DriftClass) -> bool {
        match &self.fail_on {
            FailOn::Level(threshold) => self.level_of(class) >= *threshold,
            FailOn::Classes(list) => list.contains(&class),
        }
    }
}

const fn rule(
    id: &'static str,
    severity: Severity,
    short: &'static str,
    description: &'static str,
    fix: &'static str,
) -> Rule {
    Rule {
        id,
        severity,
        short,
        description,
        fix,
    }
}

pub const RULES: &[Rule] = &[
    rule("drift/summary", Severity::Error, "Drift summary",
        "How many contract changes were found against the baseline and how many of them fail under the configured fail_on policy.",
        "Review each listed change; if intended, re-run `mcpward baseline` and commit the lockfile."),
    rule("drift/no-changes", Severity::Info, "No drift",
        "The server's tool surface matches the baseline lockfile.",
        "Nothing to do."),
    rule("drift/baseline-missing", Severity::Warning, "Baseline lockfile missing",
        "No lockfile exists at the configured path, so drift cannot be checked.",
        "Run `mcpward baseline` and commit the lockfile (default ./mcpward.lock.json)."),
    rule("drift/baseline-invalid", Severity::Error, "Baseline lockfile unreadable",
        "The lockfile is not valid JSON, has a member of the wrong type, or is missing a required member; the message names the JSON path.",
        "Fix or regenerate the file with `mcpward baseline`."),
    rule("drift/capture-failed", Severity::Error, "Surface capture failed",
        "The current tool surface could not be captured (for example a schema nested deeper than 64 levels).",
        "Fix the server's tool listing; see the message for the cause."),
    rule("drift/auth-context-mismatch", Severity::Warning, "Different credentials than the baseline",
        "The baseline was captured with different credentials, so differences may come from permissions rather than from the server.",
        "Capture the baseline and run the diff with the same credentials, or refresh the baseline."),
    rule("drift/protocol-era-changed", Severity::Warning, "Protocol era changed",
        "The baseline was captured over another MCP protocol era (legacy initialize handshake vs. the stateless 2026-07-28 revision). Informational: it never fails the run by itself.",
        "If the era switch is intended, refresh the baseline with `mcpward baseline`."),
    rule("drift/output-sampling", Severity::Warning, "Output sampling note",
        "A tool's output shape could not be (fully) sampled, or the tool was not called because it may have side effects or needs arguments.",
        "Add the tool with safe arguments to checks.drift.output.tools, or annotate it readOnlyHint: true if it truly has no side effects."),
    rule("drift/tool_removed", Severity::Error, "Tool removed",
        "A tool in the baseline is no longer listed by the server; callers of it will fail.",
        "Restore the tool, or refresh the baseline if the removal is intended."),
    rule("drift/tool_added", Severity::Error, "Tool added",
        "The server lists a tool that is not in the baseline.",
        "Review the new tool and refresh the baseline."),
    rule("drift/description_changed", Severity::Error, "Description changed (possible rug-pull)",
        "A tool description or a parameter description changed after approval; a changed description can carry new instructions to the model.",
        "Review the new text; if it is legitimate, refresh the baseline."),
    rule("drift/breaking_schema_change", Severity::Error, "Breaking schema change",
        "An input schema now rejects payloads it used to accept, or an output schema may now return data consumers do not expect.",
        "Keep the schema compatible, or coordinate the change with clients and refresh the baseline."),
    rule("drift/nonbreaking_schema_change", Severity::Error, "Compatible schema change",
        "A schema changed in a compatible direction.",
        "Refresh the baseline to record the change."),
    rule("drift/annotation_changed", Severity::Error, "Safety annotation changed",
        "A tool lost readOnlyHint, or became destructive or open-world (by effective value with MCP defaults), which changes what clients auto-approve.",
        "Review the tool's new behaviour; refresh the baseline if intended."),
    rule("drift/breaking_output_shape_change", Severity::Error, "Breaking output shape change",
        "The inferred output structure lost a field, made one optional, or returns a new type at some position.",
        "Keep the output structure stable, or coordinate with consumers and refresh the baseline."),
    rule("drift/nonbreaking_output_shape_change", Severity::Error, "Compatible output shape change",
        "The inferred output structure changed compatibly (a field added, an optional field not observed).",
        "Refresh the baseline to record the change."),
];

pub fn baseline_missing(path: &str) -> Finding {
    Finding::skip(
        "drift/baseline-missing",
        format!("Baseline file not found: {path}. Run 'mcpward baseline' first."),
    )
    .severity(Severity::Warning)
    .expected("Baseline lockfile")
    .actual("File not found")
}

pub fn baseline_invalid(err: &LockfileError) -> Finding {
    let reason = err.to_string();
    Finding::fail(
        "drift/baseline-invalid",
        format!("Failed to load baseline: {reason}"),
    )
    .expected("Valid JSON lockfile")
    .actual(reason)
}

/// The single result when the live surface could not be captured.
pub fn capture_failed(error: &str) -> Finding {
    Finding::fail(
        "drift/capture-failed",
        format!("Failed to capture server surface: {error}"),
    )
    .actual(error)
}

fn auth_mismatch(baseline: &Lockfile, current: &Lockfile) -> Option<Finding> {
    let fb = baseline
        .meta
        .auth_context
        .fingerprint
        .as_deref()
        .filter(|s| !s.is_empty())?;
    let fc = current
        .meta
        .auth_context
        .fingerprint
        .as_deref()
        .filter(|s| !s.is_empty())?;
    if fb == fc {
        return None;
    }
    let label = |l: &Option<String>| match l.as_deref() {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => "unlabeled".to_string(),
    };
    Some(
        Finding::warn(
            "drift/auth-context-mismatch",
            format!(
                "Auth context mismatch: baseline captured under \"{}\", current under \"{}\". Drift may be due to different permissions.",
                label(&baseline.meta.auth_context.label),
                label(&current.meta.auth_context.label)
            ),
        )
        .expected(fb)
        .actual(fc),
    )
}

/// DECISIONS #39: informational, `warn`, never failing and never counted as drift.
fn era_changed(baseline: &Lockfile, current: &Lockfile) -> Option<Finding> {
    let (b, c) = (baseline.era(), current.era());
    (b != c).then(|| {
        Finding::warn(
            "drift/protocol-era-changed",
            format!(
                "Protocol era changed: baseline captured over the {b} era, current connection uses the {c} era. Capabilities and server info may differ between eras; this alone is not drift."
            ),
        )
        .expected(b)
        .actual(c)
    })
}

/// One change as a report result (drift.md §3.4), with the policy applied.
pub fn change_finding(change: &Change, policy: &DriftPolicy) -> Finding {
    let level = policy.level_of(change.class);
    let (status, severity) = if policy.fails(change.class) {
        (Status::Fail, Severity::Error)
    } else {
        match level {
            Level::High => (Status::Warn, Severity::Error),
            Level::Medium => (Status::Pass, Severity::Warning),
            Level::Low => (Status::Pass, Severity::Info),
        }
    };
    let mut f = Finding::new(
        &format!("drift/{}", change.class.as_str()),
        status,
        severity,
        change.message.clone(),
    )
    .location(change.tool.clone());
    f.expected = change.previous.clone();
    f.actual = change.current.clone();
    f
}

/// The drift check without output sampling notes.
pub fn check(baseline: &BaselineState, current: &Lockfile, policy: &DriftPolicy) -> Vec<Finding> {
    check_with_sampling(baseline, current, &[], policy)
}

/// The drift check (drift.md §4). `sampling` are the output-sampling notes of the current
/// capture, reported in order after the auth/era notices.
pub fn check_with_sampling(
    baseline: &BaselineState,
    current: &Lockfile,
    sampling: &[SamplingNote],
    policy: &DriftPolicy,
) -> Vec<Finding> {
    let base = match baseline {
        BaselineState::Missing { path } => return vec![baseline_missing(path)],
        BaselineState::Invalid(e) => return vec![baseline_invalid(e)],
        BaselineState::Loaded(l) => &l.lockfile,
    };
    let mut out: Vec<Finding> = Vec::new();
    out.extend(auth_mismatch(base, current));
    out.extend(era_changed(base, current));
    out.extend(sampling.iter().map(SamplingNote::to_finding));
    let changes = diff_surfaces(base, current);
    if changes.is_empty() {
        out.push(Finding::pass(
            "drift/no-changes",
            "No drift detected. Server surface matches baseline.",
        ));
        return out;
    }
    let results: Vec<Finding> = changes.iter().map(|c| change_finding(c, policy)).collect();
    let total = results.len();
    let failing = results.iter().filter(|f| f.status == Status::Fail).count();
    let summary = if failing > 0 {
        Finding::fail(
            "drift/summary",
            format!("Drift detected: {failing} failing change(s) out of {total} total"),
        )
        .expected("No breaking changes")
        .actual(Value::String(format!(
            "{failing} breaking, {} non-breaking",
            total - failing
        )))
    } else {
        Finding::pass(
            "drift/summary",
            format!("Drift detected: {total} non-breaking change(s)"),
        )
    };
    out.extend(results);
    out.insert(0, summary);
    out
}

#[cfg(test)]
mod tests;
