//! The compliance family's configuration (`checks.compliance`).

/// `checks.compliance`: `true | false | {enabled, stability}` (#14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComplianceConfig {
    pub enabled: bool,
    /// `compliance/surface-stable`: list the surface again and on a second connection
    /// (which costs a server start).
    pub stability: bool,
}

impl Default for ComplianceConfig {
    fn default() -> Self {
        ComplianceConfig {
            enabled: true,
            stability: true,
        }
    }
}
