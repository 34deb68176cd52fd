//! The one registry of public rule ids. Each check family declares its rules next to its
//! code (`RULES`); this file is the single place that lists the families, so docs, SARIF
//! and the rule-id snapshot test all read the same data.

use crate::model::Severity;

/// A public rule: id (never changes), default severity of its failing result, a short
/// label (SARIF shortDescription) and the docs text (what / why / fix).
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    pub short: &'static str,
    /// One or two sentences on what the rule means and why it matters.
    pub description: &'static str,
    /// How to fix a finding of this rule.
    pub fix: &'static str,
}

impl Rule {
    pub fn family(&self) -> &'static str {
        self.id.split('/').next().unwrap_or(self.id)
    }
    /// Anchor in docs/rules.md: the id with `/` removed, lower-cased (the original's rule).
    pub fn anchor(&self) -> String {
        anchor(self.id)
    }
}

pub fn anchor(id: &str) -> String {
    id.replace('/', "").to_lowercase()
}

/// Every family's rules, in family order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    crate::checks::FAMILIES.iter().flat_map(|f| f.iter())
}

pub fn lookup(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_well_formed_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for r in all() {
            let (fam, rule) = r.id.split_once('/').expect("family/rule");
            assert!(
                !fam.is_empty() && fam.bytes().all(|b| b.is_ascii_lowercase()),
                "{}",
                r.id
            );
            assert!(
                !rule.is_empty()
                    && rule.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b == b'_'
                        || b == b'-'),
                "{}",
                r.id
            );
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            assert!(
                !r.short.is_empty() && !r.description.is_empty() && !r.fix.is_empty(),
                "{}",
                r.id
            );
        }
    }

    /// Public contract: a rule id that changes or disappears breaks users' pipelines.
    #[test]
    fn rule_ids_snapshot() {
        let ids: Vec<&str> = all().map(|r| r.id).collect();
        insta::assert_snapshot!(ids.join("\n"));
    }
}
