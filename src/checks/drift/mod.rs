//! The drift check (drift.md §3–§4, DECISIONS #3, #19, #20, #39): turns a baseline state,
//! the current capture and the user's policy into findings. Pure: the caller loads the
//! baseline, captures the server and prints any warnings.

use crate::model::{Finding, Severity, Status};
use crate::surface::diff::diff_surfaces;
use crate::surface::lockfile::{Lockfile, LockfileError};
use crate::surface::shape::{NoteStatus, SamplingNote};
use serde_json::Value;

pub use crate::surface::drift_vocab::{Change, DriftClass, Level};
pub use crate::surface::lockfile::BaselineState;
pub mod rules;
pub use rules::RULES;

mod config;
mod sampling;

pub use config::{DriftConfig, FailOn, OutputDriftConfig, DEFAULT_BASELINE, DEFAULT_FAIL_ON};
pub use sampling::output_sampling_plan;

pub fn baseline_missing(path: &str) -> Finding {
    rules::BASELINE_MISSING
        .skip(format!(
            "Baseline file not found: {path}. Run 'mcpward baseline' first."
        ))
        .severity(rules::BASELINE_MISSING.severity)
        .expected("Baseline lockfile")
        .actual("File not found")
}

/// `drift/baseline-stale` when `base` was captured more than `max_age_days` before `today`
/// (days since the epoch); an unreadable capture date is not judged.
pub fn baseline_stale(base: &Lockfile, today: i64, max_age_days: u64) -> Option<Finding> {
    if max_age_days == 0 {
        return None;
    }
    let captured = crate::model::parse_day(&base.meta.captured_at)?;
    let age = today - captured;
    (age > max_age_days as i64).then(|| {
        rules::BASELINE_STALE
            .warn(format!(
                "Baseline captured {age} days ago ({}), more than checks.drift.max_age_days ({max_age_days}); review the surface and re-run `mcpward baseline`",
                &base.meta.captured_at[..10]
            ))
            .severity(rules::BASELINE_STALE.severity)
            .expected(format!("A baseline at most {max_age_days} days old"))
            .actual(format!("{age} days old"))
    })
}

pub fn baseline_invalid(err: &LockfileError) -> Finding {
    let reason = err.to_string();
    rules::BASELINE_INVALID
        .fail(format!("Failed to load baseline: {reason}"))
        .expected("Valid JSON lockfile")
        .actual(reason)
}

/// The single result when the live surface could not be captured.
pub fn capture_failed(error: &str) -> Finding {
    rules::CAPTURE_FAILED
        .fail(format!("Failed to capture server surface: {error}"))
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
        rules::AUTH_CONTEXT_MISMATCH.warn(
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
        rules::PROTOCOL_ERA_CHANGED.warn(
            format!(
                "Protocol era changed: baseline captured over the {b} era, current connection uses the {c} era. Capabilities and server info may differ between eras; this alone is not drift."
            ),
        )
        .expected(b)
        .actual(c)
    })
}

/// The one override function (drift.md §3.2–§3.4), pure like cargo-deny's
/// `DiagnosticOverrides::get`: the class's defaults (its default level, the default
/// `fail_on`), then `checks.drift.severity` and `fail_on`, give the report status and
/// severity of a change. Every change finding goes through it; with the default policy it
/// yields the registry's severity of the class's rule (checked by the registry tests).
pub fn resolve(class: DriftClass, policy: &DriftConfig) -> (Status, Severity) {
    if policy.fails(class) {
        return (Status::Fail, Severity::Error);
    }
    match policy.level_of(class) {
        Level::High => (Status::Warn, Severity::Error),
        Level::Medium => (Status::Pass, Severity::Warning),
        Level::Low => (Status::Pass, Severity::Info),
    }
}

/// One change as a report result (drift.md §3.4), with the policy applied.
pub fn change_finding(change: &Change, policy: &DriftConfig) -> Finding {
    let (status, severity) = resolve(change.class, policy);
    let mut f = rules::of_class(change.class)
        .finding(status, severity, change.message.clone())
        .location(change.tool.clone());
    f.expected = change.previous.clone();
    f.actual = change.current.clone();
    f
}

/// An output-sampling note as a result (drift.md §10.6): the surface says what happened,
/// the drift family reports it.
pub fn sampling_finding(note: &SamplingNote) -> Finding {
    let msg = format!(
        "Output sampling {} for \"{}\": {}",
        note.status.as_str(),
        note.tool,
        note.reason
    );
    let f = match note.status {
        NoteStatus::Failed | NoteStatus::Partial => rules::OUTPUT_SAMPLING.warn(msg),
        NoteStatus::Refused | NoteStatus::Skipped => rules::OUTPUT_SAMPLING.skip(msg),
    };
    f.location(note.tool.clone())
}

/// The drift check without output sampling notes.
pub fn check(baseline: &BaselineState, current: &Lockfile, policy: &DriftConfig) -> Vec<Finding> {
    check_with_sampling(baseline, current, &[], policy)
}

/// The drift check (drift.md §4). `sampling` are the output-sampling notes of the current
/// capture, reported in order after the auth/era notices.
pub fn check_with_sampling(
    baseline: &BaselineState,
    current: &Lockfile,
    sampling: &[SamplingNote],
    policy: &DriftConfig,
) -> Vec<Finding> {
    let base = match baseline {
        BaselineState::Missing { path } => return vec![baseline_missing(path)],
        BaselineState::Invalid(e) => return vec![baseline_invalid(e)],
        BaselineState::Loaded(l) => &l.lockfile,
    };
    let mut out: Vec<Finding> = Vec::new();
    out.extend(auth_mismatch(base, current));
    out.extend(era_changed(base, current));
    out.extend(sampling.iter().map(sampling_finding));
    let changes = diff_surfaces(base, current);
    if changes.is_empty() {
        out.push(rules::NO_CHANGES.pass("No drift detected. Server surface matches baseline."));
        return out;
    }
    let results: Vec<Finding> = changes.iter().map(|c| change_finding(c, policy)).collect();
    let total = results.len();
    let failing = results.iter().filter(|f| f.status == Status::Fail).count();
    let summary = if failing > 0 {
        rules::SUMMARY
            .fail(format!(
                "Drift detected: {failing} failing change(s) out of {total} total"
            ))
            .expected("No breaking changes")
            .actual(Value::String(format!(
                "{failing} breaking, {} non-breaking",
                total - failing
            )))
    } else {
        rules::SUMMARY.pass(format!("Drift detected: {total} non-breaking change(s)"))
    };
    out.extend(results);
    out.insert(0, summary);
    out
}

/// No live server to ask (`--from FILE`, #16 §2): the family is one skip saying so.
pub fn offline(source: &str) -> Finding {
    rules::OUTPUT_SAMPLING.skip(format!(
        "Not run on an offline snapshot ({source}): output sampling calls tools on a live server"
    ))
}

#[cfg(test)]
mod tests;
