//! What a rule and a family are, below every check: families declare their rules with
//! these types and build every finding from a rule constant, so the registry (`rules.rs`)
//! can list the families without the checks ever importing it.

use crate::model::{Finding, Severity, Status};

/// A public rule: id (never changes), default severity, a short label (SARIF
/// shortDescription) and the docs text (what / why / fix).
///
/// `severity` is what the rule's finding reports in a default run (no `checks.*`
/// overrides): the severity of its failing result for a rule that fails, of its `warn` /
/// `skip` result for a rule that only warns or notes. docs/rules.md, SARIF
/// `defaultConfiguration.level` and the JSON report all read it (docs/decisions.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// A result of this rule with an explicit status and severity (a configured override).
    pub fn finding(
        &self,
        status: Status,
        severity: Severity,
        message: impl Into<String>,
    ) -> Finding {
        Finding::new(self.id, status, severity, message)
    }

    /// A failing result, at the rule's severity.
    pub fn fail(&self, message: impl Into<String>) -> Finding {
        self.finding(Status::Fail, self.severity, message)
    }

    pub fn pass(&self, message: impl Into<String>) -> Finding {
        self.finding(Status::Pass, Severity::Info, message)
    }

    pub fn warn(&self, message: impl Into<String>) -> Finding {
        self.finding(Status::Warn, Severity::Warning, message)
    }

    pub fn skip(&self, message: impl Into<String>) -> Finding {
        self.finding(Status::Skip, Severity::Info, message)
    }
}

/// A family of rules: what SARIF and the docs need per family, and its rules in order.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// The id prefix (`schema` in `schema/tool-name`) and the docs heading.
    pub name: &'static str,
    /// SARIF `properties.category` of the family's rules.
    pub category: &'static str,
    /// SARIF `properties.security`.
    pub security: bool,
    /// The `mcpward.yaml` key the family's findings are about: reports anchor them to its
    /// line (SARIF regions), falling back to `server`.
    pub config_key: &'static str,
    pub rules: &'static [Rule],
}

/// SARIF category of an id no family registers.
pub const UNKNOWN_CATEGORY: &str = "general";

pub fn anchor(id: &str) -> String {
    id.replace('/', "").to_lowercase()
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}
