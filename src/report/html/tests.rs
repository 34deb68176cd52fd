use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::*;
use crate::model::{Finding, ServerSummary, Suppression};
use crate::report::test_report::{fixed_fleet, hostile_fleet, shared_report, NASTY};

fn render(r: &Report) -> String {
    HtmlReporter.render(r, &RenderContext::default())
}

fn render_fleet(f: &FleetReport) -> String {
    HtmlReporter.render_fleet(f, &RenderContext::default())
}

fn report_of(results: Vec<Finding>) -> Report {
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
    r
}

/// The elements the reporter writes; anything else in a page is an injection.
const OURS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "b",
    "i", "main", "section", "dl", "div", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td",
    "a", "code", "span", "input", "label", "br", "details", "summary", "pre", "ul", "li", "del",
    "ins", "footer",
];
const VOID: &[&str] = &["meta", "input", "br"];

/// A small well-formedness check: every tag is one of [`OURS`], non-void elements close in
/// order, the one `<style>` is the stylesheet, and every attribute value is quoted.
fn assert_well_formed(page: &str) {
    let body = page
        .strip_prefix("<!DOCTYPE html>\n")
        .expect("doctype first");
    let style = format!("<style>{CSS}</style>");
    assert_eq!(page.matches("<style>").count(), 1, "one stylesheet");
    let body = body.replacen(&style, "<style></style>", 1);
    let mut stack: Vec<String> = Vec::new();
    let mut rest = body.as_str();
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unclosed tag") + start;
        let tag = &rest[start + 1..end];
        assert!(!tag.contains('<'), "'<' inside a tag: {tag:?}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "misnested </{name}>");
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            assert!(OURS.contains(&name.as_str()), "foreign element <{tag}>");
            // Attributes: name="value" pairs only (values never hold a raw quote).
            let attrs = &tag[name.len()..];
            let mut quotes = 0;
            for c in attrs.chars() {
                if c == '"' {
                    quotes += 1;
                }
            }
            assert_eq!(quotes % 2, 0, "unbalanced quotes in <{tag}>");
            assert!(!attrs.contains("style="), "style attribute in <{tag}>");
            assert!(
                !attrs.to_ascii_lowercase().contains(" on"),
                "event handler in <{tag}>"
            );
            if !VOID.contains(&name.as_str()) {
                stack.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
}

#[test]
fn snapshot_of_the_fixture_report() {
    let page = render(&shared_report());
    assert_well_formed(&page);
    insta::assert_snapshot!("html", page);
}

#[test]
fn snapshot_of_the_fixture_fleet() {
    let page = render_fleet(&fixed_fleet());
    assert_well_formed(&page);
    insta::assert_snapshot!("fleet_html", page);
}

#[test]
fn csp_allows_exactly_the_stylesheet_and_nothing_else() {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(CSS));
    assert_eq!(
        csp(),
        format!(
            "default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'"
        )
    );
    let page = render(&shared_report());
    // The tag comes before the stylesheet, so it governs it.
    let meta = page
        .find(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            csp()
        ))
        .unwrap();
    assert!(meta < page.find("<style>").unwrap());
    // The hashed text is exactly what sits between the tags.
    let (a, b) = (
        page.find("<style>").unwrap() + 7,
        page.find("</style>").unwrap(),
    );
    assert_eq!(&page[a..b], CSS);
    for no in [
        "<script",
        "unsafe-inline",
        "http-equiv=\"refresh\"",
        "<link",
        "<img",
        "url(",
    ] {
        assert!(!page.contains(no), "{no}");
        assert!(!CSS.contains(no), "{no} in CSS");
    }
}

#[test]
fn escaping_and_marks() {
    assert_eq!(
        esc("<script>alert(1)</script> & \"x\" 'y'"),
        "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#x27;y&#x27;"
    );
    // The console's marks (terminal_safe), highlighted.
    assert_eq!(
        esc("a\u{200B}b"),
        "a<span class=\"inv\" title=\"hidden character\">&lt;U+200B&gt;</span>b"
    );
    assert_eq!(
        esc("x\u{1b}[2J\u{0}"),
        "x<span class=\"inv\" title=\"hidden character\">\\u001b</span>[2J<span class=\"inv\" title=\"hidden character\">\\u0000</span>"
    );
    assert_eq!(esc("line\nnext\ttab é ✓"), "line\nnext\ttab é ✓");
    assert_eq!(esc_plain("t\u{202E}<x>\n"), "t&lt;U+202E&gt;&lt;x&gt;\\n");
}

#[test]
fn hostile_text_never_becomes_markup() {
    let nasty = format!("{NASTY}<script>alert(1)</script><style>*{{}}</style>\u{E0041}");
    let mut results = vec![
        Finding::fail("security/injection-pattern", nasty.clone())
            .expected(nasty.clone())
            .actual(serde_json::json!([nasty.clone(), {"k": nasty.clone()}]))
            .location(nasty.clone()),
        Finding::fail("drift/description_changed", nasty.clone())
            .expected(format!("old {nasty}"))
            .actual(format!("new {nasty}"))
            .location(nasty.clone()),
    ];
    let mut sup = Finding::warn("drift/tool_added", nasty.clone()).location(nasty.clone());
    sup.status = Status::Suppressed;
    sup.suppression = Some(Suppression {
        reason: nasty.clone(),
        expires: Some(nasty.clone()),
    });
    results.push(sup);
    let mut r = report_of(results);
    r.server.name = nasty.clone();
    r.server.version = nasty.clone();
    r.server.protocol_version = nasty.clone();
    r.version = nasty.clone();
    r.timestamp = nasty.clone();
    for page in [render(&r), render_fleet(&hostile_fleet())] {
        assert_well_formed(&page);
        for bad in [
            "\u{0}",
            "\u{1b}",
            "\u{200B}",
            "\u{E0041}",
            "<img",
            "<script",
        ] {
            assert!(!page.contains(bad), "{bad:?} in the page");
        }
        assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
    }
    assert!(render(&r).contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn counts_filters_and_diff() {
    let page = render(&shared_report());
    let s = &shared_report().summary;
    for (k, n) in [
        ("total", s.total),
        ("passed", s.passed),
        ("failed", s.failed),
        ("warnings", s.warnings),
        ("skipped", s.skipped),
    ] {
        assert!(page.contains(&format!("data-count=\"{k}\">{n}<")), "{k}");
    }
    assert!(!page.contains("data-count=\"suppressed\""));
    assert!(page.contains("<b>Exit code 1</b> — 3 check(s) failed"));
    // A table per family, each with its own filter group; ids unique.
    let families = crate::report::common::group_by_family(&shared_report()).len();
    assert_eq!(page.matches("<section class=\"family\"").count(), families);
    assert_eq!(page.matches("class=\"flt flt-all\"").count(), families);
    let mut ids: Vec<&str> = page
        .split(" id=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate ids");
    // Side by side, the changed words marked, the invisible character shown.
    assert!(
        page.contains("<h4>Before</h4><pre>Reads <del>a</del> file from <del>disk.</del></pre>"),
        "{page}"
    );
    assert!(page.contains(
        "<h4>After</h4><pre>Reads <ins>a<span class=\"inv\" title=\"hidden character\">&lt;U+200B&gt;</span></ins> file from <ins>disk and sends it to https://evil.example.</ins></pre>"
    ), "{page}");
    // Deterministic.
    assert_eq!(page, render(&shared_report()));
}

#[test]
fn description_fallbacks() {
    let h = format!("sha256:{}", "a".repeat(64));
    let page = render(&report_of(vec![Finding::fail(
        "drift/description_changed",
        "m",
    )
    .expected(h.clone())
    .actual("x")]));
    assert!(page.contains("Full text unavailable"), "{page}");
    let long = "y".repeat(6000);
    let page = render(&report_of(vec![Finding::fail(
        "drift/description_changed",
        "m",
    )
    .expected(long)
    .actual("short")]));
    assert!(page.contains(&format!("{}{}", "y".repeat(5000), text::TRUNCATION_NOTE)));
    assert!(!page.contains(&"y".repeat(5001)));
    assert!(!page.contains("<del>"));
    // Not a text change: the values, folded.
    let page = render(&report_of(vec![Finding::fail("schema/tool-name", "m")
        .expected("a")
        .actual(serde_json::json!({"k": 1}))]));
    assert!(
        page.contains("expected: &quot;a&quot;\nactual:   {&quot;k&quot;:1}"),
        "{page}"
    );
}

#[test]
fn fleet_table_and_sections() {
    let f = fixed_fleet();
    let page = render_fleet(&f);
    for (k, n) in [
        ("servers", f.summary.servers),
        ("servers-failed", f.summary.failed),
        ("servers-incomplete", f.summary.incomplete),
        ("total", f.summary.results.total),
        ("failed", f.summary.results.failed),
    ] {
        assert!(page.contains(&format!("data-count=\"{k}\">{n}<")), "{k}");
    }
    for (i, m) in f.servers.iter().enumerate() {
        let anchor = format!("href=\"#server-{}\"><code>{}</code>", i + 1, m.name);
        let section = format!("id=\"server-{}\"", i + 1);
        assert!(
            page.contains(&anchor) && page.contains(&section),
            "{}",
            m.name
        );
    }
    assert!(page.contains("<b>Not fully tested:</b> connect: connection refused"));
    assert!(page.contains("<b>Exit code 2</b> — 1 server not fully tested: db ("));
    assert!(page.contains("id=\"cross-server\""));
}

#[test]
fn fleet_members_list_their_tools_with_descriptions() {
    let mut f = fixed_fleet();
    f.servers[0]
        .tools
        .push(serde_json::json!({"name": "big", "description": "z".repeat(20_000)}));
    let page = render_fleet(&f);
    let at = page.find("id=\"server-1\"").unwrap();
    let files = &page[at..page.find("id=\"server-2\"").unwrap()];
    let read_url = files
        .find("<summary><code>read_url</code> <span class=\"note\">(no results)</span></summary>\n<pre class=\"values\">Fetches a URL.</pre>")
        .unwrap();
    let search = files.find("<summary><code>search</code>").unwrap();
    let big = files.find("<summary><code>big</code>").unwrap();
    let server = files.find("<summary><code>server</code>").unwrap();
    assert!(read_url < search && search < big && big < server, "{files}");
    assert!(files.contains(&format!("{}{}", "z".repeat(5000), text::TRUNCATION_NOTE)));
    assert!(!files.contains(&"z".repeat(5001)));
    assert!(
        page.starts_with("<!DOCTYPE html>")
            && page.contains("<title>mcpward fleet report: 3 servers</title>")
    );
}
