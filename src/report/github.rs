//! GitHub Actions annotations (`--reporter github`): one workflow command per failing or
//! warning result, anchored to the config file, then a plain summary line.
//!
//! Workflow-command escaping: data `%` `\r` `\n` → `%25` `%0D` `%0A`; property values
//! additionally `:` → `%3A` and `,` → `%2C`. So a hostile message can neither end the
//! command early nor start a new command line. The runner reads these only from the step
//! log, so this reporter always writes to stdout (it ignores `--out`).

use super::common::{era_suffix, exit_explanation, fleet_results, incomplete_members, Scope};
use super::types::{RenderContext, Reporter};
use super::{json, text};
use crate::model::{Finding, FleetReport, Report, Status};

pub struct GithubReporter;

impl Reporter for GithubReporter {
    fn render(&self, report: &Report, ctx: &RenderContext) -> String {
        let mut lines: Vec<String> = report
            .results
            .iter()
            .filter_map(|r| annotation(r, Scope::Single, &ctx.artifact_path))
            .collect();
        let s = &report.summary;
        lines.push(
            format!(
                "mcpward: {} checks: {} passed, {} failed, {} warnings, {} skipped",
                s.total, s.passed, s.failed, s.warnings, s.skipped
            ) + &suppressed_note(s),
        );
        lines.join("\n")
    }

    /// Every annotation's title names its server (`mcpward [api] security/…`); a server
    /// that was not fully tested is an error annotation of its own; then the fleet's counts
    /// and its exit code with why.
    fn render_fleet(&self, fleet: &FleetReport, ctx: &RenderContext) -> String {
        let file = escape_property(&ctx.artifact_path);
        let mut lines: Vec<String> = incomplete_members(fleet)
            .map(|(name, reason)| {
                format!(
                    "::error file={file},title={}::{}",
                    escape_property(&format!("mcpward [{name}] not fully tested")),
                    escape_data(&clean(reason))
                )
            })
            .collect();
        lines.extend(
            fleet_results(fleet)
                .into_iter()
                .filter_map(|(scope, r)| annotation(r, scope, &ctx.artifact_path)),
        );
        let s = &fleet.summary;
        let r = &s.results;
        lines.push(format!(
            "mcpward: {} servers: {} passed, {} failed, {} incomplete; {} checks: {} passed, {} failed, {} warnings, {} skipped",
            s.servers, s.passed, s.failed, s.incomplete, r.total, r.passed, r.failed, r.warnings, r.skipped
        ) + &suppressed_note(r));
        lines.push(format!(
            "mcpward: exit code {}",
            exit_explanation(fleet, text::terminal_safe, text::terminal_safe)
        ));
        lines.join("\n")
    }
}

/// `, N suppressed` when a suppression accepted results (nothing otherwise, so the line
/// of a run without suppressions is unchanged).
fn suppressed_note(s: &crate::model::Summary) -> String {
    if s.suppressed > 0 {
        format!(", {} suppressed", s.suppressed)
    } else {
        String::new()
    }
}

fn annotation(r: &Finding, scope: Scope, file: &str) -> Option<String> {
    let level = match r.status {
        Status::Fail => "error",
        Status::Warn => "warning",
        // An accepted finding keeps its place as a notice, with the reason it was accepted.
        Status::Suppressed => "notice",
        Status::Pass | Status::Skip => return None,
    };
    let accepted = r
        .suppression
        .as_ref()
        .filter(|_| r.status == Status::Suppressed)
        .map(|s| format!("Suppressed ({}): ", s.reason))
        .unwrap_or_default();
    let mut body = format!("{accepted}{}{}", r.message, era_suffix(r));
    if let Some(l) = &r.location {
        body.push_str(&format!("\nLocation: {l}"));
    }
    if let Some(v) = &r.expected {
        body.push_str(&format!("\nExpected: {}", json::to_compact(v)));
    }
    if let Some(v) = &r.actual {
        body.push_str(&format!("\nActual: {}", json::to_compact(v)));
    }
    Some(format!(
        "::{level} file={},title={}::{}",
        escape_property(file),
        escape_property(&format!("mcpward {}{}", scope.prefix(), r.id)),
        escape_data(&clean(&body))
    ))
}

/// Invisible characters marked and control characters other than line breaks shown as
/// escapes (the log renders ANSI sequences).
fn clean(s: &str) -> String {
    let marked = text::mark_invisibles(s);
    let mut out = String::with_capacity(marked.len());
    for c in marked.chars() {
        let u = c as u32;
        if c != '\n' && c != '\r' && c != '\t' && (u < 0x20 || (0x7F..=0x9F).contains(&u)) {
            out.push_str(&format!("\\u{u:04x}"));
        } else {
            out.push(c);
        }
    }
    out
}

pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

pub fn escape_property(s: &str) -> String {
    escape_data(&clean(s))
        .replace(':', "%3A")
        .replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ServerSummary;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("100% a\r\nb"), "100%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn hostile_message_stays_on_one_line() {
        let r = Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            vec![
                Finding::fail(
                    "security/injection-pattern",
                    "bad\n::add-mask::x\r\n%0A\u{1b}[31m",
                )
                .location("t,title=x::y"),
                Finding::pass("a/b", "not annotated"),
            ],
            "t".into(),
        );
        let out = GithubReporter.render(
            &r,
            &RenderContext::default().with_artifact_path("ci/my checks,1.yaml"),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(
            lines[0],
            "::error file=ci/my checks%2C1.yaml,title=mcpward security/injection-pattern::bad%0A::add-mask::x%0D%0A%250A\\u001b[31m%0ALocation: t,title=x::y"
        );
        assert_eq!(
            lines[1],
            "mcpward: 2 checks: 1 passed, 1 failed, 0 warnings, 0 skipped"
        );
    }
}
