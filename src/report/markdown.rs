//! Markdown reporter (reporters.md §7): PR comment and job summary.
//!
//! Security contract: every server-supplied string goes through [`escape`] (prose) or
//! [`code`] (identifiers), or sits inside a fenced block longer than any backtick run it
//! contains, so it cannot inject HTML, links, images, headings, autolinks or @-mentions.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::common::{count_of, era_suffix, exit_reason, group_results, CROSS_SERVER};
use super::text::{self, SegmentKind};
use super::types::{RenderContext, Reporter, PROJECT_URL};
use crate::model::{Finding, FleetReport, MemberStatus, Report, Status, Summary};
use crate::surface::drift_vocab::DriftClass;

pub struct MarkdownReporter;

/// Hidden first line, used to find the PR comment again.
pub const MARKER: &str = "<!-- mcpward-report -->";

/// Descriptions up to this many characters get an inline word diff; longer ones are cut
/// to it in the before/after block.
const DIFF_MAX_CHARS: usize = 1000;

/// More listed results than this in one family fold into a `<details>` block.
const FOLD_AFTER: usize = 5;

impl Reporter for MarkdownReporter {
    fn render(&self, report: &Report, _ctx: &RenderContext) -> String {
        let s = &report.summary;
        let headline = if s.failed > 0 {
            format!("❌ mcpward: {} check(s) failed", s.failed)
        } else if s.warnings > 0 {
            "✅ mcpward: passed with warnings".to_string()
        } else {
            "✅ mcpward: all checks passed".to_string()
        };
        let mut lines = vec![MARKER.to_string(), format!("## {headline}"), String::new()];
        server_lines(&mut lines, report, "###", &escape(&report.version));
        footer(lines)
    }

    /// A fleet header (headline, a table of every server's status and counts, the exit
    /// code and why), then a section per server with its table and findings, then the
    /// cross-server results.
    fn render_fleet(&self, fleet: &FleetReport, _ctx: &RenderContext) -> String {
        let s = &fleet.summary;
        let headline = if s.incomplete > 0 {
            format!(
                "⚠️ mcpward fleet: {} not fully tested",
                count_of(s.incomplete, "server", "servers")
            )
        } else if s.results.failed > 0 {
            format!("❌ mcpward fleet: {} check(s) failed", s.results.failed)
        } else if s.results.warnings > 0 {
            "✅ mcpward fleet: passed with warnings".to_string()
        } else {
            "✅ mcpward fleet: all checks passed".to_string()
        };
        let mut meta = format!(
            "**Fleet:** {} · **mcpward** v{}",
            count_of(s.servers, "server", "servers"),
            escape(&fleet.version)
        );
        if let Some(shard) = &fleet.shard {
            meta.push_str(&format!(
                " · **Shard:** {}/{} ({} of {} in the fleet)",
                shard.index,
                shard.count,
                count_of(fleet.servers.len(), "server", "servers"),
                fleet.order.len()
            ));
        }
        let mut lines = vec![
            MARKER.to_string(),
            format!("## {headline}"),
            String::new(),
            meta,
            String::new(),
            "| Server | Status | Passed | Failed | Warnings | Skipped |".to_string(),
            "|---|---|---:|---:|---:|---:|".to_string(),
        ];
        for m in &fleet.servers {
            let counts = match &m.report {
                Some(r) => counts_cells(&r.summary),
                None => "– | – | – | –".to_string(),
            };
            lines.push(format!(
                "| {} | {} | {counts} |",
                cell_code(&m.name),
                status_label(m.status)
            ));
        }
        if !fleet.results.is_empty() {
            lines.push(format!(
                "| _{CROSS_SERVER}_ | | {} |",
                counts_cells(&Summary::of(&fleet.results))
            ));
        }
        lines.push(format!("| **Total** | | {} |", counts_cells(&s.results)));
        lines.push(String::new());
        lines.push(format!(
            "**Exit code {}** — {}",
            s.exit_code,
            exit_reason(fleet, code, escape)
        ));
        for m in &fleet.servers {
            lines.push(String::new());
            lines.push(format!(
                "### {} — {}",
                code(&m.name),
                match m.status {
                    MemberStatus::Incomplete => "⚠️ not fully tested",
                    other => status_label(other),
                }
            ));
            lines.push(String::new());
            if m.status == MemberStatus::Incomplete {
                lines.push(format!(
                    "**Reason:** {}",
                    escape(m.reason.as_deref().unwrap_or(""))
                ));
                if m.report.is_some() {
                    lines.push(String::new());
                }
            }
            if let Some(report) = &m.report {
                server_lines(&mut lines, report, "####", "");
            }
        }
        lines.push(String::new());
        lines.push("### Cross-server".to_string());
        lines.push(String::new());
        lines.push("_Results across the servers of the fleet, as an agent that loads them all sees them: one tool name on several servers, a tool describing another server's tool, an untrusted-content source and an outward sink on different servers. Each names the servers it is about._".to_string());
        if !family_sections(&mut lines, &fleet.results, "####") {
            lines.push(String::new());
            lines.push(
                "No cross-server findings (`run` looks for them; `diff` compares drift only)."
                    .to_string(),
            );
        }
        footer(lines)
    }
}

fn footer(mut lines: Vec<String>) -> String {
    lines.push(String::new());
    lines.push(format!(
        "<sub>Generated by [mcpward]({PROJECT_URL}) — black-box security & contract testing for MCP servers.</sub>"
    ));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn status_label(s: MemberStatus) -> &'static str {
    match s {
        MemberStatus::Passed => "✅ passed",
        MemberStatus::Failed => "❌ failed",
        MemberStatus::Incomplete => "⚠️ incomplete",
    }
}

fn counts_cells(s: &Summary) -> String {
    format!(
        "{} | {} | {} | {}",
        s.passed, s.failed, s.warnings, s.skipped
    )
}

/// [`code`] for a table cell: a `|` would end the cell even inside a code span (GFM).
fn cell_code(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// The server line, the counts table and the notable findings by family of one report;
/// `mcpward_version` is appended to the server line when not empty (single reports).
fn server_lines(lines: &mut Vec<String>, report: &Report, heading: &str, mcpward_version: &str) {
    let s = &report.summary;
    let mut server = format!(
        "**Server:** {} v{} · **Protocol:** {}",
        code(&report.server.name),
        escape(&report.server.version),
        escape(&report.server.protocol_version),
    );
    if !mcpward_version.is_empty() {
        server.push_str(&format!(" · **mcpward** v{mcpward_version}"));
    }
    lines.extend([
        server,
        String::new(),
        "| Passed | Failed | Warnings | Skipped | Total |".to_string(),
        "|---:|---:|---:|---:|---:|".to_string(),
        format!(
            "| {} | {} | {} | {} | {} |",
            s.passed, s.failed, s.warnings, s.skipped, s.total
        ),
    ]);
    if s.suppressed > 0 {
        lines.push(String::new());
        lines.push(format!(
            "🔕 {} accepted finding(s) suppressed (listed below with the reason)",
            s.suppressed
        ));
    }
    if !family_sections(lines, &report.results, heading) {
        lines.push(String::new());
        lines.push("No failures, warnings or contract changes.".to_string());
    }
}

/// A section per family with notable results; whether there was any.
fn family_sections(lines: &mut Vec<String>, results: &[Finding], heading: &str) -> bool {
    let mut any = false;
    for (family, results) in group_results(results) {
        let mut listed: Vec<&Finding> = results.into_iter().filter(|r| is_notable(r)).collect();
        if listed.is_empty() {
            continue;
        }
        any = true;
        listed.sort_by_key(|r| status_rank(r.status));
        section(lines, heading, family, &listed);
    }
    any
}

fn is_contract_change(r: &Finding) -> bool {
    // A drift result whose id names a drift class is a contract change: listed even when it
    // passes.
    r.family == "drift" && DriftClass::of_rule_id(&r.id).is_some()
}

fn is_notable(r: &Finding) -> bool {
    matches!(r.status, Status::Fail | Status::Warn | Status::Suppressed)
        || (r.status == Status::Pass && is_contract_change(r))
}

fn status_rank(s: Status) -> u8 {
    match s {
        Status::Fail => 0,
        Status::Warn => 1,
        Status::Pass => 2,
        Status::Skip => 3,
        Status::Suppressed => 4,
    }
}

fn section(lines: &mut Vec<String>, heading: &str, family: &str, listed: &[&Finding]) {
    let count = |s: Status| listed.iter().filter(|r| r.status == s).count();
    let (failed, warned, changed, suppressed) = (
        count(Status::Fail),
        count(Status::Warn),
        count(Status::Pass),
        count(Status::Suppressed),
    );
    let counts: Vec<String> = [
        (failed, format!("{failed} failed")),
        (warned, format!("{warned} warning(s)")),
        (changed, format!("{changed} change(s) reported")),
        (suppressed, format!("{suppressed} suppressed")),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(_, t)| t)
    .collect();
    let counts = counts.join(", ");
    let title = title_case(family);
    let body: Vec<String> = listed.iter().map(|r| finding_line(r)).collect();
    lines.push(String::new());
    if listed.len() <= FOLD_AFTER {
        lines.push(format!("{heading} {title} ({counts})"));
        lines.push(String::new());
        lines.extend(body);
    } else {
        let open = if failed > 0 { " open" } else { "" };
        lines.push(format!(
            "<details{open}><summary><b>{title}</b> ({counts})</summary>"
        ));
        lines.push(String::new());
        lines.extend(body);
        lines.push(String::new());
        lines.push("</details>".to_string());
    }
}

fn title_case(family: &str) -> String {
    let mut cs = family.chars();
    match cs.next() {
        Some(first) => first.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

fn finding_line(r: &Finding) -> String {
    let icon = match r.status {
        Status::Fail => "❌",
        Status::Warn => "⚠️",
        Status::Skip => "⏭️",
        Status::Pass => "ℹ️",
        Status::Suppressed => "🔕",
    };
    let message = format!("{}{}", r.message, era_suffix(r));
    let mut line = match &r.location {
        Some(loc) => format!(
            "- {icon} **{}** — {}: {}",
            r.id,
            code(loc),
            escape(&message)
        ),
        None => format!("- {icon} **{}**: {}", r.id, escape(&message)),
    };
    if let Some(sup) = &r.suppression {
        let until = sup
            .expires
            .as_deref()
            .map(|x| format!(" (until {})", escape(x)))
            .unwrap_or_default();
        line.push_str(&format!(" — suppressed: {}{until}", escape(&sup.reason)));
    }
    if DriftClass::of_rule_id(&r.id).is_some_and(DriftClass::is_text_change) {
        if let (Some(Value::String(old)), Some(Value::String(new))) = (&r.expected, &r.actual) {
            let block = description_block(old, new);
            let indented: Vec<String> = block
                .split('\n')
                .map(|l| {
                    if l.is_empty() {
                        String::new()
                    } else {
                        format!("  {l}")
                    }
                })
                .collect();
            line.push_str("\n\n");
            line.push_str(&indented.join("\n"));
            line.push('\n');
        }
    }
    line
}

/// §7.5: an inline word diff (short texts) and always a `diff` block of before/after.
fn description_block(old: &str, new: &str) -> String {
    if text::is_description_hash(old) || text::is_description_hash(new) {
        return "_Full text unavailable (`full_text` disabled or v1 baseline) — re-run `mcpward baseline` to see a diff._".to_string();
    }
    let mut blocks = Vec::new();
    let short = text::char_len(old) <= DIFF_MAX_CHARS && text::char_len(new) <= DIFF_MAX_CHARS;
    if let Some(segs) = short.then(|| text::word_diff(old, new)).flatten() {
        let inline = text::render_inline_diff(&segs, |_: SegmentKind, t: &str| t.to_string());
        blocks.push(fenced("text", &inline));
    }
    let mut diff_lines = Vec::new();
    for (prefix, side) in [("- ", old), ("+ ", new)] {
        let shown = text::mark_invisibles(&text::truncate_chars(side, DIFF_MAX_CHARS));
        diff_lines.extend(split_lines(&shown).map(|l| format!("{prefix}{l}")));
    }
    blocks.push(fenced("diff", &diff_lines.join("\n")));
    blocks.join("\n\n")
}

fn split_lines(s: &str) -> impl Iterator<Item = &str> {
    line_break_re().split(s)
}

fn line_break_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\r\n|\n|\r").expect("static regex"))
}

/// A fence longer than any backtick run in the content, so the content cannot close it.
fn fenced(lang: &str, content: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in content.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{lang}\n{content}\n{fence}")
}

/// Inline code for identifiers (tool names, locations, the server name, link-ish tokens):
/// invisibles marked, backticks → `'`, line breaks → spaces, wrapped in single backticks.
pub fn code(s: &str) -> String {
    let marked = text::mark_invisibles(s).replace('`', "'");
    format!("`{}`", line_break_re().replace_all(&marked, " "))
}

fn linkish_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)[a-z][a-z0-9+.-]*://\S+|www\.\S+|\S*@\S*").expect("static regex")
    })
}

/// Escapes untrusted prose (§7.2): invisibles marked, line breaks → spaces, link-ish tokens
/// (URLs, `www.`, anything with `@`) as inline code, Markdown punctuation backslash-escaped
/// and `& < > @` as entities.
pub fn escape(s: &str) -> String {
    let marked = text::mark_invisibles(s);
    let flat = line_break_re().replace_all(&marked, " ");
    let mut out = String::with_capacity(flat.len());
    let mut last = 0;
    for m in linkish_re().find_iter(&flat) {
        out.push_str(&escape_plain(&flat[last..m.start()]));
        out.push_str(&code(m.as_str()));
        last = m.end();
    }
    out.push_str(&escape_plain(&flat[last..]));
    out
}

fn escape_plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        // Punctuation first, entities after, so the `#` of `&#64;` stays as is.
        match c {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' => out.push_str("&#64;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, ServerSummary};
    use crate::report::text::TRUNCATION_NOTE;

    fn render(results: Vec<Finding>) -> String {
        let mut r = Report::new(
            ServerSummary {
                name: "srv".into(),
                version: "1.0.0".into(),
                protocol_version: "2025-11-25".into(),
            },
            results,
            "2024-01-15T10:30:00.000Z".into(),
        );
        r.version = "0.1.0".into();
        MarkdownReporter.render(&r, &RenderContext::default())
    }

    #[test]
    fn escape_pinned_cases() {
        assert_eq!(
            escape("go to https://evil.example/x now"),
            "go to `https://evil.example/x` now"
        );
        assert_eq!(escape("visit www.evil.example"), "visit `www.evil.example`");
        assert_eq!(escape("mail me@evil.example"), "mail `me@evil.example`");
        assert_eq!(escape("a\u{200B}b"), "a&lt;U+200B&gt;b");
        assert_eq!(
            escape("Tool \"evil_tool\" description"),
            "Tool \"evil\\_tool\" description"
        );
        let out = escape(
            "<img src=x onerror=alert(1)> [click](https://evil.example) @org/security\nnext",
        );
        assert!(!out.contains("<img"), "{out}");
        assert!(!out.contains("]("), "{out}");
        assert!(out.contains("`@org/security`"), "{out}");
        assert!(!out.contains('\n'));
        assert_eq!(escape("a & b # c"), "a &amp; b \\# c");
    }

    #[test]
    fn code_pinned_case() {
        assert_eq!(code("evil`\n# heading @team"), "`evil' # heading @team`");
        assert_eq!(code("a\r\nb\rc"), "`a b c`");
    }

    #[test]
    fn nothing_notable() {
        let out = render(vec![
            Finding::pass("compliance/handshake", "ok"),
            Finding::pass("drift/no-changes", "none"),
        ]);
        assert!(
            out.contains("\n\nNo failures, warnings or contract changes.\n\n<sub>"),
            "{out}"
        );
        assert!(out.contains("## ✅ mcpward: all checks passed\n"));
        assert!(out.ends_with("</sub>\n") && !out.ends_with("\n\n"));
    }

    #[test]
    fn passing_contract_change_is_listed_after_failures() {
        let out = render(vec![
            Finding::pass("drift/breaking_schema_change", "schema changed").location("t"),
            Finding::warn("drift/tool_added", "added").location("n"),
            Finding::pass("drift/no-changes", "not listed"),
            Finding::skip("drift/baseline", "not listed either"),
        ]);
        assert!(out.contains("## ✅ mcpward: passed with warnings"));
        assert!(out.contains(
            "### Drift (1 warning(s), 1 change(s) reported)\n\n- ⚠️ **drift/tool_added** — `n`: added\n"
        ), "{out}");
        let warn = out.find("**drift/tool_added**").unwrap();
        let change = out
            .find("- ℹ️ **drift/breaking_schema_change** — `t`: schema changed")
            .unwrap();
        assert!(warn < change);
        assert!(!out.contains("not listed"));
    }

    #[test]
    fn many_results_fold_into_details() {
        let many: Vec<Finding> = (0..6)
            .map(|i| Finding::fail("security/x", format!("m{i}")))
            .collect();
        let out = render(many);
        assert!(out.contains("\n\n<details open><summary><b>Security</b> (6 failed)</summary>\n\n- ❌ **security/x**: m0\n"), "{out}");
        assert!(
            out.contains("- ❌ **security/x**: m5\n\n</details>\n\n<sub>"),
            "{out}"
        );
        let warns: Vec<Finding> = (0..6)
            .map(|i| Finding::warn("collision/y", format!("w{i}")))
            .collect();
        assert!(
            render(warns).contains("<details><summary><b>Collision</b> (6 warning(s))</summary>")
        );
    }

    #[test]
    fn description_change_blocks() {
        let f = Finding::fail(
            "drift/description_changed",
            "Tool \"read\" description changed",
        )
        .expected("Reads a file.")
        .actual("Reads a\u{200B} file.")
        .location("read");
        let out = render(vec![f]);
        assert!(out.contains(
            "- ❌ **drift/description_changed** — `read`: Tool \"read\" description changed\n\n  ```text\n  Reads [-a-]{+a<U+200B>+} file.\n  ```\n\n  ```diff\n  - Reads a file.\n  + Reads a<U+200B> file.\n  ```\n\n\n<sub>"
        ), "{out}");

        let f = Finding::warn("drift/description_changed", "m")
            .expected("uses ``` fences")
            .actual("uses ``` fences too");
        let out = render(vec![f]);
        assert!(
            out.contains("  ````text\n") && out.contains("  ````diff\n"),
            "{out}"
        );

        let h = format!("sha256:{}", "f".repeat(64));
        let out = render(vec![Finding::fail("drift/description_changed", "m")
            .expected(h)
            .actual("x")]);
        assert!(out.contains("\n\n  _Full text unavailable (`full_text` disabled or v1 baseline) — re-run `mcpward baseline` to see a diff._\n"), "{out}");

        let long = format!("{}\nsecond line", "y".repeat(1200));
        let out = render(vec![Finding::fail("drift/description_changed", "m")
            .expected(long)
            .actual("short")]);
        assert!(!out.contains("```text"), "{out}");
        assert!(
            out.contains(&format!(
                "  - {}{TRUNCATION_NOTE}\n  + short\n",
                "y".repeat(1000)
            )),
            "{out}"
        );
    }

    #[test]
    fn hostile_descriptions_cannot_inject() {
        let hostile = [
            "<img src=x onerror=alert(1)>",
            "[click](https://evil)",
            "![x](https://evil/x.png)",
            "<https://evil>",
            "https://evil.example",
            "@octocat",
            "``` backticks ` and `code`",
            "a | pipe | table",
            "line\n# heading\n<script>x</script>",
            "www.evil.example",
        ];
        for h in hostile {
            let f = Finding::fail(
                "drift/description_changed",
                format!("Tool \"{h}\" changed: {h}"),
            )
            .expected(format!("old {h}"))
            .actual(format!("new {h}"))
            .location(h);
            let out = render(vec![f]);
            // Outside fenced blocks nothing server-supplied may be live Markdown/HTML.
            let mut in_fence: Option<String> = None;
            for line in out.lines() {
                let t = line.trim_start();
                if let Some(f) = &in_fence {
                    if t == f {
                        in_fence = None;
                    }
                    continue;
                }
                if t.starts_with("```") {
                    in_fence = Some(t.chars().take_while(|c| *c == '`').collect());
                    continue;
                }
                if line.starts_with("<sub>Generated by [mcpward](") {
                    continue; // our own footer link
                }
                let live = strip_code_spans(line);
                for bad in [
                    "<img", "<script", "](", "<https", "https://", "www.", "@octocat", "\n#",
                ] {
                    assert!(!live.contains(bad), "{bad:?} live in {line:?}");
                }
                assert!(
                    !t.starts_with('#') || t.starts_with("## ❌ mcpward") || t.starts_with("### "),
                    "{line:?}"
                );
                assert!(!live.contains(" | pipe"), "{line:?}");
            }
            assert!(in_fence.is_none(), "unclosed fence in {out}");
        }
    }

    /// Removes inline code spans (single backticks) from a rendered line.
    fn strip_code_spans(line: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        let mut prev_backslash = false;
        for c in line.chars() {
            if c == '`' && !prev_backslash {
                inside = !inside;
            } else if !inside {
                out.push(c);
            }
            prev_backslash = c == '\\' && !prev_backslash;
        }
        out
    }
}
