//! `checks.latency` (suites-latency.md part B), validated by the config loader.

use crate::checks::tool_args::ToolArgs;

/// `checks.latency`; present in the config means latency runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyConfig {
    /// Calls per measured tool (> 0; config validation guarantees it).
    pub samples: u32,
    pub p95_budget_ms: f64,
    pub call_readonly: bool,
    /// Allowlist in config order; the first entry for a name wins.
    pub tools: Vec<ToolArgs>,
    pub call_all: bool,
}

impl Default for LatencyConfig {
    fn default() -> Self {
        LatencyConfig {
            samples: 5,
            p95_budget_ms: 1000.0,
            call_readonly: true,
            tools: Vec::new(),
            call_all: false,
        }
    }
}
