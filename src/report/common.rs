//! Pure helpers several reporters use.

use crate::model::{Finding, Report};

pub use crate::surface::text::{encode_uri_component, encode_uri_path};

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
