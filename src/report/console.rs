//! Console reporter (reporters.md §4): human text, colours only when enabled.
//!
//! Server-supplied text (messages, locations, values, descriptions) goes through
//! [`text::terminal_safe`]: control characters are shown as escapes and invisible
//! characters marked, so a hostile server can neither drive the terminal nor add lines to
//! the CI log (a line starting with `::` would be a GitHub workflow command).

use serde_json::Value;

use super::common::{
    count_of, era_suffix, exit_explanation, group_by_family, group_results, CROSS_SERVER,
};
use super::json;
use super::text::{self, SegmentKind};
use super::types::{RenderContext, Reporter};
use crate::model::{Finding, FleetReport, MemberStatus, Report, Severity, Status, Summary};
use crate::surface::drift_vocab::DriftClass;

pub struct ConsoleReporter;

/// Description texts up to this many characters get a word diff (§4.4).
const DIFF_MAX_CHARS: usize = 200;

const RULE_LINE_WIDTH: usize = 50;

/// ANSI SGR styles, as picocolors writes them (open, close).
#[derive(Clone, Copy)]
enum Sgr {
    Bold,
    Dim,
    Red,
    Green,
    Yellow,
    Cyan,
}

impl Sgr {
    fn codes(self) -> (&'static str, &'static str) {
        match self {
            Sgr::Bold => ("\x1b[1m", "\x1b[22m"),
            Sgr::Dim => ("\x1b[2m", "\x1b[22m"),
            Sgr::Red => ("\x1b[31m", "\x1b[39m"),
            Sgr::Green => ("\x1b[32m", "\x1b[39m"),
            Sgr::Yellow => ("\x1b[33m", "\x1b[39m"),
            Sgr::Cyan => ("\x1b[36m", "\x1b[39m"),
        }
    }
}

#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn s(self, style: Sgr, t: &str) -> String {
        if !self.0 || t.is_empty() {
            return t.to_string();
        }
        let (open, close) = style.codes();
        format!("{open}{t}{close}")
    }
    /// Outer style applied last (outermost), like `pc.bold(pc.cyan(t))` = `[Bold, Cyan]`.
    fn all(self, styles: &[Sgr], t: &str) -> String {
        styles
            .iter()
            .rev()
            .fold(t.to_string(), |acc, s| self.s(*s, &acc))
    }
}

/// Dims `s` when colours are on: for the `… written to <path>` confirmation line.
pub fn dim(s: &str, colour: bool) -> String {
    Paint(colour).s(Sgr::Dim, s)
}

/// Yellow when colours are on: for stderr warnings such as a failed PR comment.
pub fn yellow(s: &str, colour: bool) -> String {
    Paint(colour).s(Sgr::Yellow, s)
}

impl Reporter for ConsoleReporter {
    fn render(&self, report: &Report, ctx: &RenderContext) -> String {
        let p = Paint(ctx.colour);
        let mut out = header(p, &report.version);
        server_body(&mut out, p, report, ctx.verbose);
        out.join("\n")
    }

    /// A fleet header, each server under its name (its single-server rendering, or why it
    /// was not fully tested), the cross-server results, then the fleet summary with the
    /// exit code and why.
    fn render_fleet(&self, fleet: &FleetReport, ctx: &RenderContext) -> String {
        let p = Paint(ctx.colour);
        let s = &fleet.summary;
        let mut out = header(p, &fleet.version);
        out.push(format!(
            "{} {}",
            p.s(Sgr::Bold, "Fleet:"),
            member_counts(p, s.servers, s.passed, s.failed, s.incomplete)
        ));
        if let Some(shard) = &fleet.shard {
            out.push(format!(
                "{} {}/{} {}",
                p.s(Sgr::Bold, "Shard:"),
                shard.index,
                shard.count,
                p.s(
                    Sgr::Dim,
                    &format!(
                        "({} of {} in the fleet)",
                        count_of(fleet.servers.len(), "server", "servers"),
                        fleet.order.len()
                    )
                )
            ));
        }
        for m in &fleet.servers {
            out.push(String::new());
            out.push(member_heading(p, &text::terminal_safe(&m.name)));
            if m.status == MemberStatus::Incomplete {
                out.push(p.all(
                    &[Sgr::Red, Sgr::Bold],
                    &format!(
                        "Not fully tested: {}",
                        text::terminal_safe(m.reason.as_deref().unwrap_or(""))
                    ),
                ));
            }
            if let Some(report) = &m.report {
                server_body(&mut out, p, report, ctx.verbose);
            }
        }
        out.push(String::new());
        out.push(member_heading(p, CROSS_SERVER));
        if fleet.results.is_empty() {
            out.push(p.s(
                Sgr::Dim,
                "No cross-server findings (`run` looks for them; `diff` compares drift only)",
            ));
        } else {
            out.push(String::new());
            for (family, results) in group_results(&fleet.results) {
                render_family(&mut out, p, family, &results, ctx.verbose);
            }
            out.pop();
        }
        out.push(String::new());
        out.push(p.s(Sgr::Dim, &"─".repeat(RULE_LINE_WIDTH)));
        out.push(format!(
            "{} {}",
            p.s(Sgr::Bold, "Fleet summary:"),
            member_counts(p, s.servers, s.passed, s.failed, s.incomplete)
        ));
        // An empty shard has no result to count.
        let counts = match result_counts(p, &s.results) {
            c if c.is_empty() => p.s(Sgr::Dim, "none"),
            c => c,
        };
        out.push(format!("{} {counts}", p.s(Sgr::Bold, "Checks:")));
        out.push(p.s(Sgr::Dim, &format!("Total: {} checks", s.results.total)));
        out.push(String::new());
        let why = format!(
            "Exit code {}",
            exit_explanation(fleet, text::terminal_safe, text::terminal_safe)
        );
        let style = match s.exit_code {
            0 => Sgr::Green,
            1 => Sgr::Red,
            _ => Sgr::Yellow,
        };
        out.push(p.all(&[style, Sgr::Bold], &why));
        out.join("\n")
    }
}

/// The blank line, `mcpward v…` and the rule line every rendering starts with.
fn header(p: Paint, version: &str) -> Vec<String> {
    vec![
        String::new(),
        format!(
            "{} {}",
            p.s(Sgr::Bold, "mcpward"),
            p.s(Sgr::Dim, &format!("v{}", text::terminal_safe(version)))
        ),
        p.s(Sgr::Dim, &"─".repeat(RULE_LINE_WIDTH)),
    ]
}

/// `━━ name ━━━…` (the rule filled up to the line width).
fn member_heading(p: Paint, name: &str) -> String {
    let fill = RULE_LINE_WIDTH
        .saturating_sub(text::char_len(name) + 4)
        .max(3);
    p.all(
        &[Sgr::Bold, Sgr::Cyan],
        &format!("━━ {name} {}", "━".repeat(fill)),
    )
}

fn member_counts(
    p: Paint,
    servers: usize,
    passed: usize,
    failed: usize,
    incomplete: usize,
) -> String {
    let parts: Vec<String> = [
        (passed, "passed", Sgr::Green),
        (failed, "failed", Sgr::Red),
        (incomplete, "incomplete", Sgr::Yellow),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, label, style)| p.s(style, &format!("{n} {label}")))
    .collect();
    let total = count_of(servers, "server", "servers");
    if parts.is_empty() {
        total
    } else {
        format!("{total} {}", p.s(Sgr::Dim, "—")) + " " + &parts.join(&p.s(Sgr::Dim, " | "))
    }
}

fn result_counts(p: Paint, s: &Summary) -> String {
    let parts: Vec<String> = [
        (s.passed, "passed", Sgr::Green),
        (s.failed, "failed", Sgr::Red),
        (s.warnings, "warnings", Sgr::Yellow),
        (s.skipped, "skipped", Sgr::Dim),
        (s.suppressed, "suppressed", Sgr::Dim),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, label, style)| p.s(style, &format!("{n} {label}")))
    .collect();
    parts.join(&p.s(Sgr::Dim, " | "))
}

/// One server's rendering after the header: server, protocol, families, summary, verdict.
fn server_body(out: &mut Vec<String>, p: Paint, report: &Report, verbose: bool) {
    out.extend([
        format!(
            "{} {} {}",
            p.s(Sgr::Bold, "Server:"),
            text::terminal_safe(&report.server.name),
            p.s(
                Sgr::Dim,
                &format!("v{}", text::terminal_safe(&report.server.version))
            )
        ),
        format!(
            "{} {}",
            p.s(Sgr::Bold, "Protocol:"),
            text::terminal_safe(&report.server.protocol_version)
        ),
        String::new(),
    ]);

    for (family, results) in group_by_family(report) {
        render_family(out, p, family, &results, verbose);
    }

    out.push(String::new());
    let s = &report.summary;
    out.push(format!(
        "{} {}",
        p.s(Sgr::Bold, "Summary:"),
        result_counts(p, s)
    ));
    out.push(p.s(Sgr::Dim, &format!("Total: {} checks", s.total)));
    out.push(String::new());
    out.push(if s.failed > 0 {
        p.all(
            &[Sgr::Red, Sgr::Bold],
            &format!("{} check(s) failed", s.failed),
        )
    } else if s.warnings > 0 {
        p.all(&[Sgr::Yellow, Sgr::Bold], "All checks passed with warnings")
    } else {
        p.all(&[Sgr::Green, Sgr::Bold], "All checks passed")
    });
}

fn render_family(
    out: &mut Vec<String>,
    p: Paint,
    family: &str,
    results: &[&Finding],
    verbose: bool,
) {
    let count = |s: Status| results.iter().filter(|r| r.status == s).count();
    let (failed, warned, passed) = (
        count(Status::Fail),
        count(Status::Warn),
        count(Status::Pass),
    );
    let status = if failed > 0 {
        p.s(Sgr::Red, &format!("{failed} failed"))
    } else if warned > 0 {
        p.s(Sgr::Yellow, &format!("{warned} warnings"))
    } else {
        p.s(Sgr::Green, &format!("{passed} passed"))
    };
    out.push(format!(
        "{} {}",
        p.all(
            &[Sgr::Bold, Sgr::Cyan],
            &text::terminal_safe(&family.to_uppercase())
        ),
        p.s(Sgr::Dim, &format!("({status})"))
    ));
    for r in results {
        if verbose || matches!(r.status, Status::Fail | Status::Warn | Status::Suppressed) {
            render_result(out, p, r, verbose);
        }
    }
    if !verbose && failed == 0 && warned == 0 {
        out.push(p.s(Sgr::Dim, &format!("  {passed} check(s) passed")));
    }
    out.push(String::new());
}

fn render_result(out: &mut Vec<String>, p: Paint, r: &Finding, verbose: bool) {
    let icon = match r.status {
        Status::Pass => p.s(Sgr::Green, "✓"),
        Status::Fail => p.s(Sgr::Red, "✗"),
        Status::Warn => p.s(Sgr::Yellow, "⚠"),
        Status::Skip => p.s(Sgr::Dim, "○"),
        Status::Suppressed => p.s(Sgr::Dim, "⊘"),
    };
    let msg_style = match r.severity {
        _ if r.status == Status::Suppressed => Sgr::Dim,
        Severity::Error => Sgr::Red,
        Severity::Warning => Sgr::Yellow,
        Severity::Info => Sgr::Dim,
    };
    out.push(format!(
        "  {icon} {}",
        p.s(
            msg_style,
            &text::terminal_safe(&format!("{}{}", r.message, era_suffix(r)))
        )
    ));
    if let Some(loc) = &r.location {
        out.push(p.s(Sgr::Dim, &format!("    at {}", text::terminal_safe(loc))));
    }
    if let Some(sup) = &r.suppression {
        let until = sup
            .expires
            .as_deref()
            .map(|x| format!(" (until {x})"))
            .unwrap_or_default();
        out.push(p.s(
            Sgr::Dim,
            &format!(
                "    suppressed: {}{until}",
                text::terminal_safe(&sup.reason)
            ),
        ));
    }
    let show_values = r.status == Status::Fail || verbose;
    if DriftClass::of_rule_id(&r.id).is_some_and(DriftClass::is_text_change) {
        match (&r.expected, &r.actual) {
            (Some(Value::String(old)), Some(Value::String(new)))
                if !text::is_description_hash(old) && !text::is_description_hash(new) =>
            {
                render_description_change(out, p, old, new);
                return;
            }
            _ if r.id == "drift/description_changed"
                    || matches!(
                        (&r.expected, &r.actual),
                        (Some(Value::String(_)), Some(Value::String(_)))
                    ) =>
            {
                out.push(p.s(
                Sgr::Dim,
                "    full text unavailable (full_text disabled or v1 baseline) — re-run \"mcpward baseline\" to enable a diff",
                ))
            }
            // Text that appeared or disappeared (e.g. instructions): shown as values below.
            _ => {}
        }
    }
    if show_values {
        if let Some(v) = &r.expected {
            out.push(p.s(Sgr::Dim, &format!("    expected: {}", format_value(v))));
        }
        if let Some(v) = &r.actual {
            out.push(p.s(Sgr::Dim, &format!("    actual:   {}", format_value(v))));
        }
    }
}

/// §4.4: a word diff for short texts, else the truncated before/after texts.
fn render_description_change(out: &mut Vec<String>, p: Paint, old: &str, new: &str) {
    let short = text::char_len(old) <= DIFF_MAX_CHARS && text::char_len(new) <= DIFF_MAX_CHARS;
    if let Some(segs) = short.then(|| text::word_diff(old, new)).flatten() {
        out.push(p.s(Sgr::Dim, "    description diff:"));
        let mut line = String::from("      ");
        for s in &segs {
            let t = text::terminal_safe(&s.text);
            match s.kind {
                SegmentKind::Same => line.push_str(&t),
                SegmentKind::Removed => line.push_str(&p.s(Sgr::Red, &format!("[-{t}-]"))),
                SegmentKind::Added => line.push_str(&p.s(Sgr::Green, &format!("{{+{t}+}}"))),
            }
        }
        out.push(text::defuse_workflow_command(&line));
        return;
    }
    let side = |s: &str, style: Sgr| {
        let shown = text::terminal_safe(&text::truncate_chars(s, DIFF_MAX_CHARS));
        text::defuse_workflow_command(&format!("      {}", p.s(style, &shown)))
    };
    out.push(p.s(Sgr::Dim, "    previous description:"));
    out.push(side(old, Sgr::Red));
    out.push(p.s(Sgr::Dim, "    current description:"));
    out.push(side(new, Sgr::Green));
}

/// Strings quoted without escaping, objects/arrays as compact JSON, the rest as text;
/// then made terminal-safe.
fn format_value(v: &Value) -> String {
    let raw = match v {
        Value::String(s) => format!("\"{s}\""),
        Value::Null => "null".to_string(),
        other => json::to_compact(other),
    };
    text::terminal_safe(&raw)
}

/// `--quiet` (#18 §3): a run's one summary line, as the full rendering ends it.
pub fn summary_line(report: &Report, colour: bool) -> String {
    let p = Paint(colour);
    let counts = result_counts(p, &report.summary);
    let counts = if counts.is_empty() {
        "no checks".to_string()
    } else {
        counts
    };
    format!("{} {counts}", p.s(Sgr::Bold, "Summary:"))
}

/// `--quiet` for a fleet: servers, then results.
pub fn fleet_summary_line(report: &FleetReport, colour: bool) -> String {
    let p = Paint(colour);
    let s = &report.summary;
    let results = result_counts(p, &s.results);
    let servers = member_counts(p, s.servers, s.passed, s.failed, s.incomplete);
    if results.is_empty() {
        format!("{} {servers}", p.s(Sgr::Bold, "Summary:"))
    } else {
        format!("{} {servers}; {results}", p.s(Sgr::Bold, "Summary:"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, Report, ServerSummary};

    fn report_with(results: Vec<Finding>) -> Report {
        let mut r = Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "2025-11-25".into(),
            },
            results,
            "2024-01-15T10:30:00.000Z".into(),
        );
        r.version = "0.1.0".into();
        r
    }

    fn render(results: Vec<Finding>, verbose: bool) -> String {
        ConsoleReporter.render(&report_with(results), &RenderContext::new(false, verbose))
    }

    fn desc(old: &str, new: &str) -> Finding {
        Finding::fail(
            "drift/description_changed",
            "Tool \"t\" description changed",
        )
        .expected(old)
        .actual(new)
        .location("t")
    }

    #[test]
    fn every_text_class_of_the_surface_gets_the_word_diff() {
        for id in [
            "drift/prompt_changed",
            "drift/resource_changed",
            "drift/resource_template_changed",
            "drift/instructions_changed",
        ] {
            let f = Finding::fail(id, "m")
                .expected("Use a tool.")
                .actual("Use a\u{200B} tool.");
            let out = render(vec![f], false);
            assert!(out.contains("description diff:"), "{id}: {out}");
            assert!(out.contains("<U+200B>"), "{id}: {out}");
        }
        // Instructions that appeared: values, not a "full text unavailable" note.
        let f = Finding::fail("drift/instructions_changed", "m").actual("New text");
        let out = render(vec![f], false);
        assert!(!out.contains("full text unavailable"), "{out}");
        assert!(out.contains("    actual:   \"New text\""), "{out}");
        // Not a text class: no diff.
        let f = Finding::fail("drift/tool_renamed", "m")
            .expected("a")
            .actual("b");
        assert!(!render(vec![f], false).contains("description diff:"));
    }

    #[test]
    fn short_description_change_gets_a_word_diff() {
        let out = render(
            vec![desc("Echoes the message.", "Echoes and logs the message.")],
            false,
        );
        assert!(
            out.contains("    description diff:\n      Echoes {+and logs +}the message.\n"),
            "{out}"
        );
        assert!(!out.contains("expected:"), "{out}");
        let out = render(vec![desc("Reads a file.", "Reads a\u{200B} file.")], false);
        assert!(out.contains("<U+200B>"), "{out}");
        assert!(!out.contains('\u{200B}'));
    }

    #[test]
    fn hashed_description_has_no_diff() {
        let h = format!("sha256:{}", "0".repeat(64));
        let out = render(vec![desc(&h, "New text")], false);
        assert!(out.contains("    full text unavailable (full_text disabled or v1 baseline) — re-run \"mcpward baseline\" to enable a diff\n"), "{out}");
        assert!(!out.contains("description diff:"));
        assert!(out.contains(&format!("    expected: \"{h}\"")), "{out}");
        assert!(out.contains("    actual:   \"New text\""), "{out}");
        // Not a string: same fallback.
        let f = Finding::fail("drift/description_changed", "m")
            .expected(1)
            .actual(2);
        assert!(render(vec![f], false).contains("full text unavailable"));
    }

    #[test]
    fn long_description_falls_back_to_truncated_texts() {
        let old = "a".repeat(300);
        let out = render(vec![desc(&old, "short")], false);
        assert!(out.contains("    previous description:\n      "), "{out}");
        assert!(
            out.contains("    current description:\n      short"),
            "{out}"
        );
        assert!(out.contains(&format!(
            "{}… (truncated, see JSON report for full text)",
            "a".repeat(200)
        )));
        assert!(!out.contains(&"a".repeat(201)));
    }

    #[test]
    fn hostile_text_cannot_inject_lines_or_escapes() {
        let f = Finding::fail("drift/description_changed", "evil\n::error::x\u{1b}[2J")
            .expected("ok")
            .actual("::add-mask::x\nmore")
            .location("l\r\n::warning::y");
        let out = render(vec![f], true);
        assert!(!out.contains('\u{1b}'));
        for line in out.lines() {
            assert!(!line.trim_start().starts_with("::"), "line {line:?}");
        }
        let f = Finding::fail("a/b", "m").actual("::error::z");
        let long = format!("::error::{}", "w".repeat(300));
        let out = [
            render(vec![desc("::error::z a", "::error::z b")], false),
            render(vec![desc(&long, "::warning::short")], false),
            render(vec![f], false),
        ]
        .concat();
        assert!(out.contains("      \\::error::z [-a-]{+b+}"), "{out}");
        assert!(out.contains("      \\::warning::short"), "{out}");
        for line in out.lines() {
            assert!(!line.trim_start().starts_with("::"), "line {line:?}");
        }
    }

    #[test]
    fn colours_only_when_enabled() {
        let r = report_with(vec![Finding::fail("a/b", "m"), Finding::warn("a/c", "w")]);
        let plain = ConsoleReporter.render(&r, &RenderContext::new(false, false));
        assert!(!plain.contains('\u{1b}'));
        let coloured = ConsoleReporter.render(&r, &RenderContext::new(true, false));
        assert!(
            coloured.contains(
                "\x1b[1m\x1b[36mA\x1b[39m\x1b[22m \x1b[2m(\x1b[31m1 failed\x1b[39m)\x1b[22m"
            ),
            "{coloured:?}"
        );
        assert!(
            coloured.contains("  \x1b[31m✗\x1b[39m \x1b[31mm\x1b[39m"),
            "{coloured:?}"
        );
        assert!(
            coloured.ends_with("\x1b[31m\x1b[1m1 check(s) failed\x1b[22m\x1b[39m"),
            "{coloured:?}"
        );
        // Stripping SGR sequences gives back the plain text exactly.
        let stripped = regex::Regex::new("\x1b\\[[0-9]+m")
            .unwrap()
            .replace_all(&coloured, "");
        assert_eq!(stripped, plain);
    }
}
