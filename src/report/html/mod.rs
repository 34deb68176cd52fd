//! HTML reporter (#18 §2): one self-contained page per report or fleet.
//!
//! Security contract: the page loads nothing (no script at all, no external resource); the
//! CSP meta tag allows exactly the one inline stylesheet by its hash, so neither a `<script>`
//! nor a `style` attribute a server smuggled in could run or apply even if escaping failed.
//! Every string from the model goes through [`esc`]: HTML-escaped (`& < > " '`) and the
//! characters the console marks (invisibles, controls, via [`text::terminal_safe`]) shown as
//! highlighted marks. The status filters are radio inputs and `:checked ~` selectors.
//! Deterministic: nothing but the model (its own timestamp included) goes into the page.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::common::{count_of, era_suffix, exit_reason, group_results, CROSS_SERVER};
use super::json;
use super::text::{self, SegmentKind};
use super::types::{RenderContext, Reporter, PROJECT_URL, RULES_DOC_URL};
use crate::model::{Finding, FleetReport, MemberStatus, Report, Status, Summary};
use crate::surface::drift_vocab::DriftClass;

#[cfg(test)]
mod tests;

pub struct HtmlReporter;

/// The one stylesheet; the CSP allows it by its SHA-256.
const CSS: &str = include_str!("page.css");

/// Texts up to this many characters get the marked word diff; longer ones are shown cut to
/// it, unmarked (the JSON report has them whole). Tool descriptions are cut to it too.
const DIFF_MAX_CHARS: usize = 5000;

/// Statuses in the order the filters and counts show them.
const STATUSES: [Status; 5] = [
    Status::Fail,
    Status::Warn,
    Status::Pass,
    Status::Skip,
    Status::Suppressed,
];

/// `default-src 'none'` forbids every fetch, script, frame, font, image and connection; the
/// stylesheet is allowed by hash only (no `'unsafe-inline'`, so no `style` attribute works).
pub fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(CSS));
        format!(
            "default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'"
        )
    })
}

impl Reporter for HtmlReporter {
    fn render(&self, report: &Report, _ctx: &RenderContext) -> String {
        let mut p = Page::default();
        p.open(&format!("mcpward report: {}", report.server.name));
        p.push("<header>\n<h1>mcpward report</h1>\n");
        p.push(&format!(
            "<p class=\"meta\">mcpward v{} · {}</p>\n</header>\n<main>\n",
            esc(&report.version),
            esc(&report.timestamp)
        ));
        p.server(report, &[], 2);
        p.push("</main>\n");
        p.close()
    }

    fn render_fleet(&self, fleet: &FleetReport, _ctx: &RenderContext) -> String {
        let s = &fleet.summary;
        let mut p = Page::default();
        p.open(&format!(
            "mcpward fleet report: {}",
            count_of(s.servers, "server", "servers")
        ));
        p.push("<header>\n<h1>mcpward fleet report</h1>\n");
        let mut meta = format!(
            "mcpward v{} · {} · {}",
            esc(&fleet.version),
            esc(&fleet.timestamp),
            count_of(s.servers, "server", "servers")
        );
        if let Some(shard) = &fleet.shard {
            meta.push_str(&format!(
                " · shard {}/{} ({} of {} in the fleet)",
                shard.index,
                shard.count,
                fleet.servers.len(),
                fleet.order.len()
            ));
        }
        p.push(&format!(
            "<p class=\"meta\">{meta}</p>\n</header>\n<main>\n"
        ));

        p.push("<section id=\"summary\">\n<h2>Fleet summary</h2>\n");
        p.push("<dl class=\"counts\">\n");
        for (key, label, n, class) in [
            ("servers", "Servers", s.servers, ""),
            ("servers-passed", "Servers passed", s.passed, " c-pass"),
            ("servers-failed", "Servers failed", s.failed, " c-fail"),
            (
                "servers-incomplete",
                "Not fully tested",
                s.incomplete,
                " c-warn",
            ),
        ] {
            p.count(key, label, n, class);
        }
        p.push("</dl>\n");
        p.counts(&s.results);
        p.push(&format!(
            "<p class=\"exit e{code}\"><b>Exit code {code}</b> — {}</p>\n",
            esc(&exit_reason(fleet, str::to_string, str::to_string)),
            code = s.exit_code
        ));
        p.push("<div class=\"scroll\"><table class=\"fleet\">\n<thead><tr><th>Server</th><th>Status</th>");
        for st in STATUSES {
            p.push(&format!("<th class=\"n\">{}</th>", plural_label(st)));
        }
        p.push("</tr></thead>\n<tbody>\n");
        for (i, m) in fleet.servers.iter().enumerate() {
            let status = member_word(m.status);
            p.push(&format!(
                "<tr><td><a href=\"#server-{}\"><code>{}</code></a></td><td><span class=\"badge b-{status}\">{status}</span></td>",
                i + 1,
                esc(&m.name)
            ));
            match &m.report {
                Some(r) => p.count_cells(&r.summary),
                None => p.push(&"<td class=\"n\">–</td>".repeat(STATUSES.len())),
            }
            p.push("</tr>\n");
        }
        if !fleet.results.is_empty() {
            p.push(&format!(
                "<tr><td><a href=\"#cross-server\"><i>{CROSS_SERVER}</i></a></td><td></td>"
            ));
            p.count_cells(&Summary::of(&fleet.results));
            p.push("</tr>\n");
        }
        p.push("<tr class=\"total\"><td>Total</td><td></td>");
        p.count_cells(&s.results);
        p.push("</tr>\n</tbody>\n</table></div>\n</section>\n");

        for (i, m) in fleet.servers.iter().enumerate() {
            let status = member_word(m.status);
            p.push(&format!(
                "<section class=\"member\" id=\"server-{}\">\n<h2><code>{}</code> <span class=\"badge b-{status}\">{status}</span></h2>\n",
                i + 1,
                esc(&m.name)
            ));
            if m.status == MemberStatus::Incomplete {
                p.push(&format!(
                    "<p class=\"exit e2\"><b>Not fully tested:</b> {}</p>\n",
                    esc(m.reason.as_deref().unwrap_or(""))
                ));
            }
            if let Some(r) = &m.report {
                p.server(r, &m.tools, 3);
            }
            p.push("</section>\n");
        }

        p.push("<section class=\"member\" id=\"cross-server\">\n<h2>Cross-server</h2>\n");
        p.push("<p class=\"note\">Results across the servers of the fleet, as an agent that loads them all sees them. Each names the servers it is about.</p>\n");
        if fleet.results.is_empty() {
            p.push("<p>No cross-server findings (<code>run</code> looks for them; <code>diff</code> compares drift only).</p>\n");
        } else {
            p.families(&fleet.results, 3);
        }
        p.push("</section>\n</main>\n");
        p.close()
    }
}

/// The page being written, and the counter that keeps element ids unique and stable.
#[derive(Default)]
struct Page {
    out: String,
    tables: usize,
}

impl Page {
    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn open(&mut self, title: &str) {
        self.push("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        self.push(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n",
            csp()
        ));
        self.push("<meta name=\"referrer\" content=\"no-referrer\">\n");
        self.push("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        self.push(&format!("<title>{}</title>\n", esc_plain(title)));
        self.push(&format!("<style>{CSS}</style>\n</head>\n<body>\n"));
    }

    fn close(mut self) -> String {
        self.push(&format!(
            "<footer>Generated by <a href=\"{PROJECT_URL}\" rel=\"noreferrer\">mcpward</a> — black-box security &amp; contract testing for MCP servers. Rule ids link to their documentation.</footer>\n</body>\n</html>\n"
        ));
        self.out
    }

    fn count(&mut self, key: &str, label: &str, n: usize, class: &str) {
        self.push(&format!(
            "<div class=\"count{class}\"><dt>{label}</dt><dd data-count=\"{key}\">{n}</dd></div>\n"
        ));
    }

    /// The count tiles of a summary (suppressed only when there are any, as in the JSON).
    fn counts(&mut self, s: &Summary) {
        self.push("<dl class=\"counts\">\n");
        self.count("total", "Total", s.total, "");
        self.count("passed", "Passed", s.passed, " c-pass");
        self.count("failed", "Failed", s.failed, " c-fail");
        self.count("warnings", "Warnings", s.warnings, " c-warn");
        self.count("skipped", "Skipped", s.skipped, "");
        if s.suppressed > 0 {
            self.count("suppressed", "Suppressed", s.suppressed, " c-sup");
        }
        self.push("</dl>\n");
    }

    fn count_cells(&mut self, s: &Summary) {
        for n in [s.failed, s.warnings, s.passed, s.skipped, s.suppressed] {
            self.push(&format!("<td class=\"n\">{n}</td>"));
        }
    }

    /// One server: its identity, counts and exit meaning, a table per family, per-tool detail.
    fn server(&mut self, report: &Report, listed: &[Value], level: u8) {
        let s = &report.summary;
        let (h, h2) = (level, level + 1);
        self.push(&format!(
            "<section class=\"summary\">\n<h{h}>Summary</h{h}>\n<p class=\"meta\"><b>Server:</b> <code>{}</code> v{} · <b>Protocol:</b> {}</p>\n",
            esc(&report.server.name),
            esc(&report.server.version),
            esc(&report.server.protocol_version)
        ));
        self.counts(s);
        let code = report.exit_code();
        let why = if s.failed > 0 {
            format!("{} check(s) failed", s.failed)
        } else if s.warnings > 0 {
            "all checks passed with warnings (warnings never fail a run)".to_string()
        } else {
            "all checks passed".to_string()
        };
        self.push(&format!(
            "<p class=\"exit e{code}\"><b>Exit code {code}</b> — {why}</p>\n"
        ));
        if s.suppressed > 0 {
            self.push(&format!(
                "<p class=\"note\">{} accepted finding(s) suppressed: listed with the reason, never failing the run.</p>\n",
                s.suppressed
            ));
        }
        self.push("</section>\n");
        self.push(&format!(
            "<section class=\"families\">\n<h{h}>Results by family</h{h}>\n"
        ));
        if report.results.is_empty() {
            self.push("<p>No results.</p>\n");
        } else {
            self.families(&report.results, h2);
        }
        self.push("</section>\n");
        self.tools(&report.results, listed, h);
    }

    /// A section per family: its counts, the status filters, and the table of its results.
    fn families(&mut self, results: &[Finding], level: u8) {
        for (family, rows) in group_results(results) {
            self.tables += 1;
            let t = self.tables;
            self.push(&format!(
                "<section class=\"family\" id=\"family-{t}\">\n<h{level}>{} <span class=\"note\">({})</span></h{level}>\n",
                esc(&title_case(family)),
                count_words(&rows)
            ));
            self.push(&format!(
                "<input type=\"radio\" class=\"flt flt-all\" name=\"f{t}\" id=\"f{t}-all\" checked><label for=\"f{t}-all\">All {}</label>\n",
                rows.len()
            ));
            for st in STATUSES {
                let n = rows.iter().filter(|r| r.status == st).count();
                if n > 0 {
                    let w = status_word(st);
                    self.push(&format!(
                        "<input type=\"radio\" class=\"flt flt-{w}\" name=\"f{t}\" id=\"f{t}-{w}\"><label for=\"f{t}-{w}\">{} {n}</label>\n",
                        plural_label(st)
                    ));
                }
            }
            self.push("<div class=\"scroll\"><table class=\"results\">\n<thead><tr><th>Status</th><th>Rule</th><th>Location</th><th>Message</th></tr></thead>\n<tbody>\n");
            for r in rows {
                self.row(r);
            }
            self.push("</tbody>\n</table></div>\n</section>\n");
        }
    }

    fn row(&mut self, r: &Finding) {
        let w = status_word(r.status);
        let location = r
            .location
            .as_deref()
            .map_or_else(String::new, |l| format!("<code>{}</code>", esc(l)));
        let mut msg = esc(&format!("{}{}", r.message, era_suffix(r)));
        if let Some(sup) = &r.suppression {
            let until = sup
                .expires
                .as_deref()
                .map(|x| format!(" (until {})", esc(x)))
                .unwrap_or_default();
            msg.push_str(&format!(
                "<br><span class=\"note\">suppressed: {}{until}</span>",
                esc(&sup.reason)
            ));
        }
        let diff = text_change(r);
        if diff.is_none() {
            msg.push_str(&values(r));
        }
        self.push(&format!(
            "<tr class=\"st-{w}\"><td>{}</td><td><a href=\"{RULES_DOC_URL}#{}\" rel=\"noreferrer\"><code>{}</code></a></td><td>{location}</td><td class=\"msg\">{msg}</td></tr>\n",
            badge(r.status),
            esc_plain(&crate::rules::anchor(&r.id)),
            esc(&r.id)
        ));
        if let Some(d) = diff {
            self.push(&format!(
                "<tr class=\"st-{w} diff\"><td></td><td colspan=\"3\">{d}</td></tr>\n"
            ));
        }
    }

    /// Per-tool detail: the results grouped by what they are about (their location, mostly a
    /// tool). A fleet member's listed tools come first, in listing order, each with its
    /// description; then the other locations in order of first appearance. Entries with
    /// failures or warnings are open.
    fn tools(&mut self, results: &[Finding], listed: &[Value], h: u8) {
        let mut order: Vec<(String, Option<&str>)> = listed
            .iter()
            .map(|t| {
                let name = match &t["name"] {
                    Value::String(s) => s.clone(),
                    other => json::to_compact(other),
                };
                (name, t["description"].as_str())
            })
            .collect();
        let mut by: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for r in results {
            let Some(loc) = r.location.as_deref() else {
                continue;
            };
            if !by.contains_key(loc) && !order.iter().any(|(n, _)| n == loc) {
                order.push((loc.to_string(), None));
            }
            by.entry(loc).or_default().push(r);
        }
        if order.is_empty() {
            return;
        }
        self.push(&format!(
            "<section class=\"tools\">\n<h{h}>Per-tool detail</h{h}>\n<p class=\"note\">Every result that names a tool (or a prompt, resource or the server), grouped by that name.</p>\n"
        ));
        let none = Vec::new();
        for (name, description) in &order {
            let rows = by.get(name.as_str()).unwrap_or(&none);
            let open = rows
                .iter()
                .any(|r| matches!(r.status, Status::Fail | Status::Warn));
            let counts = match count_words(rows) {
                c if c.is_empty() => "no results".to_string(),
                c => c,
            };
            self.push(&format!(
                "<details class=\"tool\"{}><summary><code>{}</code> <span class=\"note\">({counts})</span></summary>\n",
                if open { " open" } else { "" },
                esc(name),
            ));
            if let Some(d) = description {
                self.push(&format!(
                    "<pre class=\"values\">{}</pre>\n",
                    esc(&text::truncate_chars(d, DIFF_MAX_CHARS))
                ));
            }
            if !rows.is_empty() {
                self.push("<ul>\n");
                for r in rows {
                    self.push(&format!(
                        "<li>{} <code>{}</code>: {}</li>\n",
                        badge(r.status),
                        esc(&r.id),
                        esc(&format!("{}{}", r.message, era_suffix(r)))
                    ));
                }
                self.push("</ul>\n");
            }
            self.push("</details>\n");
        }
        self.push("</section>\n");
    }
}

/// Expected/actual values of a result, folded.
fn values(r: &Finding) -> String {
    if r.expected.is_none() && r.actual.is_none() {
        return String::new();
    }
    let mut lines = Vec::new();
    if let Some(v) = &r.expected {
        lines.push(format!("expected: {}", esc(&format_value(v))));
    }
    if let Some(v) = &r.actual {
        lines.push(format!("actual:   {}", esc(&format_value(v))));
    }
    format!(
        "<details><summary>expected / actual</summary><pre class=\"values\">{}</pre></details>",
        lines.join("\n")
    )
}

fn format_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        Value::Null => "null".to_string(),
        other => json::to_compact(other),
    }
}

/// The side-by-side before/after of a text change (the word diff the console and Markdown
/// render: removed words marked on the left, added ones on the right); `None` for any other
/// result or one without both texts.
fn text_change(r: &Finding) -> Option<String> {
    if !DriftClass::of_rule_id(&r.id).is_some_and(DriftClass::is_text_change) {
        return None;
    }
    let (Some(Value::String(old)), Some(Value::String(new))) = (&r.expected, &r.actual) else {
        return None;
    };
    if text::is_description_hash(old) || text::is_description_hash(new) {
        return Some("<p class=\"note\">Full text unavailable (<code>full_text</code> disabled or v1 baseline) — re-run <code>mcpward baseline</code> to see a diff.</p>".to_string());
    }
    let short = text::char_len(old) <= DIFF_MAX_CHARS && text::char_len(new) <= DIFF_MAX_CHARS;
    let (before, after) = match short.then(|| text::word_diff(old, new)).flatten() {
        Some(segs) => {
            let (mut b, mut a) = (String::new(), String::new());
            for s in &segs {
                let t = esc(&s.text);
                match s.kind {
                    SegmentKind::Same => {
                        b.push_str(&t);
                        a.push_str(&t);
                    }
                    SegmentKind::Removed => b.push_str(&format!("<del>{t}</del>")),
                    SegmentKind::Added => a.push_str(&format!("<ins>{t}</ins>")),
                }
            }
            (b, a)
        }
        None => (
            esc(&text::truncate_chars(old, DIFF_MAX_CHARS)),
            esc(&text::truncate_chars(new, DIFF_MAX_CHARS)),
        ),
    };
    Some(format!(
        "<div class=\"sbs\"><div class=\"old\"><h4>Before</h4><pre>{before}</pre></div><div class=\"new\"><h4>After</h4><pre>{after}</pre></div></div>"
    ))
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Warn => "warn",
        Status::Skip => "skip",
        Status::Suppressed => "suppressed",
    }
}

fn status_done(s: Status) -> &'static str {
    match s {
        Status::Pass => "passed",
        Status::Fail => "failed",
        Status::Warn => "warned",
        Status::Skip => "skipped",
        Status::Suppressed => "suppressed",
    }
}

fn plural_label(s: Status) -> &'static str {
    match s {
        Status::Pass => "Passed",
        Status::Fail => "Failed",
        Status::Warn => "Warnings",
        Status::Skip => "Skipped",
        Status::Suppressed => "Suppressed",
    }
}

fn badge(s: Status) -> String {
    let icon = match s {
        Status::Pass => "✓",
        Status::Fail => "✗",
        Status::Warn => "⚠",
        Status::Skip => "○",
        Status::Suppressed => "⊘",
    };
    let w = status_word(s);
    format!("<span class=\"badge b-{w}\">{icon} {w}</span>")
}

fn member_word(s: MemberStatus) -> &'static str {
    match s {
        MemberStatus::Passed => "passed",
        MemberStatus::Failed => "failed",
        MemberStatus::Incomplete => "incomplete",
    }
}

/// `2 failed, 1 passed`: the non-zero counts of a group.
fn count_words(rows: &[&Finding]) -> String {
    STATUSES
        .into_iter()
        .filter_map(|st| {
            let n = rows.iter().filter(|r| r.status == st).count();
            let word = match st {
                Status::Warn if n == 1 => "warning",
                Status::Warn => "warnings",
                _ => status_done(st),
            };
            (n > 0).then(|| format!("{n} {word}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn title_case(family: &str) -> String {
    let mut cs = family.chars();
    match cs.next() {
        Some(first) => first.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

/// Server-supplied text for element content: HTML-escaped, and every character the console
/// would rewrite ([`text::terminal_safe`]: invisibles, controls) shown as its console mark in
/// a highlighted `<span class="inv">`. Line breaks and tabs stay (they are harmless in HTML).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let mut buf = [0u8; 4];
    let mut plain_from = 0;
    for (i, c) in s.char_indices() {
        // Printable ASCII and line breaks are never marked; skip the per-character check.
        if (' '..='~').contains(&c) || matches!(c, '\n' | '\r' | '\t') {
            continue;
        }
        let one = c.encode_utf8(&mut buf);
        let shown = text::terminal_safe(one);
        if shown == *one {
            continue;
        }
        html_escape::encode_quoted_attribute_to_string(&s[plain_from..i], &mut out);
        out.push_str("<span class=\"inv\" title=\"hidden character\">");
        html_escape::encode_quoted_attribute_to_string(&shown, &mut out);
        out.push_str("</span>");
        plain_from = i + c.len_utf8();
    }
    html_escape::encode_quoted_attribute_to_string(&s[plain_from..], &mut out);
    out
}

/// Server-supplied text for an attribute value or the `<title>`: marked as on the console
/// (no markup possible there), then HTML-escaped.
fn esc_plain(s: &str) -> String {
    html_escape::encode_quoted_attribute(&text::terminal_safe(s)).into_owned()
}
