//! Pure helpers several reporters use.

use crate::model::{Finding, Report};

/// Percent-encodes each `/`-separated segment with `encodeURIComponent` rules (unreserved:
/// `A–Z a–z 0–9 - _ . ! ~ * ' ( )`), for the SARIF artifact URI.
pub fn encode_uri_path(path: &str) -> String {
    path.split('/')
        .map(encode_uri_component)
        .collect::<Vec<_>>()
        .join("/")
}

pub fn encode_uri_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Families in order of first appearance, each with its results in report order.
pub(crate) fn group_by_family(report: &Report) -> Vec<(&str, Vec<&Finding>)> {
    let mut groups: Vec<(&str, Vec<&Finding>)> = Vec::new();
    for r in &report.results {
        match groups.iter_mut().find(|(f, _)| *f == r.family) {
            Some((_, v)) => v.push(r),
            None => groups.push((&r.family, vec![r])),
        }
    }
    groups
}
