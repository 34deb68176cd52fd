//! JUnit XML reporter (reporters.md §5): one `<testsuite>` per family, one `<testcase>`
//! per result, `classname` = rule id. Skipped results carry a `<skipped/>` element
//! (DECISIONS #13; the original emitted none).
//!
//! The exact layout (indentation, CDATA bodies) is written by hand; quick-xml provides
//! the escaping. Server-supplied text is stripped of characters XML 1.0 forbids, and
//! `]]>` inside CDATA is split, so the document is always well-formed.

use super::common::{era_suffix, group_by_family, group_results, CROSS_SERVER, INCOMPLETE_ID};
use super::json;
use super::types::{RenderContext, Reporter};
use crate::model::{Finding, FleetReport, MemberStatus, Report, Status};

pub struct JunitReporter;

const TIME: &str = "0.001";

impl Reporter for JunitReporter {
    fn render(&self, report: &Report, _ctx: &RenderContext) -> String {
        let s = &report.summary;
        let suites: Vec<String> = group_by_family(report)
            .into_iter()
            .map(|(family, results)| suite(family, &results))
            .collect();
        document(s.total, s.failed, 0, s.skipped + s.suppressed, &suites)
    }

    /// One `<testsuite>` per server × family (`api / security`), a server that was not
    /// fully tested as one errored testcase (classname `fleet/incomplete`) in a suite of
    /// its name, then the cross-server results (`cross-server / collision`).
    fn render_fleet(&self, fleet: &FleetReport, _ctx: &RenderContext) -> String {
        let mut suites = Vec::new();
        let mut errors = 0;
        for m in &fleet.servers {
            if m.status == MemberStatus::Incomplete {
                errors += 1;
                suites.push(incomplete_suite(&m.name, m.reason.as_deref().unwrap_or("")));
            }
            if let Some(report) = &m.report {
                for (family, results) in group_by_family(report) {
                    suites.push(suite(&format!("{} / {family}", m.name), &results));
                }
            }
        }
        for (family, results) in group_results(&fleet.results) {
            suites.push(suite(&format!("{CROSS_SERVER} / {family}"), &results));
        }
        let s = &fleet.summary.results;
        document(
            s.total + errors,
            s.failed,
            errors,
            s.skipped + s.suppressed,
            &suites,
        )
    }
}

fn document(
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    suites: &[String],
) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"mcpward\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{TIME}\">\n\
         {}\n\
         </testsuites>",
        suites.join("\n")
    )
}

fn incomplete_suite(name: &str, reason: &str) -> String {
    [
        format!(
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"{TIME}\">",
            attr(name)
        ),
        format!(
            "    <testcase name=\"{}: not fully tested\" classname=\"{INCOMPLETE_ID}\" time=\"{TIME}\">",
            attr(name)
        ),
        format!(
            "      <error message=\"{}\" type=\"Incomplete\">{}</error>",
            attr(reason),
            cdata(reason)
        ),
        "    </testcase>".to_string(),
        "  </testsuite>".to_string(),
    ]
    .join("\n")
}

fn suite(name: &str, results: &[&Finding]) -> String {
    let count = |st: Status| results.iter().filter(|r| r.status == st).count();
    let mut lines = vec![format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{TIME}\">",
        attr(name),
        results.len(),
        count(Status::Fail),
        count(Status::Skip) + count(Status::Suppressed)
    )];
    for r in results {
        lines.push(format!(
            "    <testcase name=\"{}\" classname=\"{}\" time=\"{TIME}\">",
            attr(&format!("{}{}", r.message, era_suffix(r))),
            attr(&r.id)
        ));
        match r.status {
            Status::Fail => lines.push(format!(
                "      <failure message=\"{}\" type=\"AssertionError\">{}</failure>",
                attr(&r.message),
                cdata(&details(r))
            )),
            Status::Warn => lines.push(format!(
                "      <system-out>{}</system-out>",
                cdata(&format!("WARNING: {}", text(&r.message)))
            )),
            Status::Skip => {
                lines.push(format!("      <skipped message=\"{}\"/>", attr(&r.message)))
            }
            Status::Suppressed => lines.push(format!(
                "      <skipped message=\"{}\"/>",
                attr(&format!(
                    "suppressed: {}",
                    r.suppression.as_ref().map_or("", |s| s.reason.as_str())
                ))
            )),
            Status::Pass => {}
        }
        lines.push("    </testcase>".to_string());
    }
    lines.push("  </testsuite>".to_string());
    lines.join("\n")
}

/// `Location:` / `Expected:` / `Actual:` lines, each only when the field exists.
fn details(r: &Finding) -> String {
    let mut lines = Vec::new();
    if let Some(l) = &r.location {
        lines.push(format!("Location: {l}"));
    }
    if let Some(v) = &r.expected {
        lines.push(format!("Expected: {}", json::to_compact(v)));
    }
    if let Some(v) = &r.actual {
        lines.push(format!("Actual: {}", json::to_compact(v)));
    }
    lines.join("\n")
}

/// Drops characters XML 1.0 cannot carry (C0 controls except tab/LF/CR, U+FFFE, U+FFFF).
fn xml_chars(s: &str) -> String {
    s.chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
        })
        .collect()
}

/// The five predefined entities (`&<>"'`).
fn text(s: &str) -> String {
    quick_xml::escape::escape(xml_chars(s)).into_owned()
}

/// Attribute value: the five entities plus tab/LF/CR as character references, which a
/// parser would otherwise normalise to spaces.
fn attr(s: &str) -> String {
    text(s)
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
}

fn cdata(s: &str) -> String {
    format!(
        "<![CDATA[{}]]>",
        xml_chars(s).replace("]]>", "]]]]><![CDATA[>")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, Report, ServerSummary};

    #[test]
    fn hostile_text_stays_well_formed() {
        let f = Finding::fail("a/b", "x]]>y\u{0}\u{1b}<&\"'\n")
            .actual("]]><script>")
            .location("l\u{8}");
        let r = Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            vec![f, Finding::warn("a/c", "w]]>&")],
            "t".into(),
        );
        let xml = JunitReporter.render(&r, &RenderContext::default());
        assert!(!xml.contains('\u{0}') && !xml.contains('\u{1b}') && !xml.contains('\u{8}'));
        assert!(xml.contains("Actual: \"]]]]><![CDATA[><script>\""), "{xml}");
        assert!(
            xml.contains("message=\"x]]&gt;y&lt;&amp;&quot;&apos;&#10;\""),
            "{xml}"
        );
        let mut reader = quick_xml::Reader::from_str(&xml);
        let mut depth = 0i32;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(_)) => depth += 1,
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed: {e}\n{xml}"),
            }
        }
        assert_eq!(depth, 0);
    }
}
