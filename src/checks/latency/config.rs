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
    /// `checks.latency.regression` (#16 §4): the comparison with the baseline's latency.
    pub regression: RegressionConfig,
}

/// When a tool's p95 counts as a regression against the baseline lockfile's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegressionConfig {
    /// The p95 must grow by more than this factor (> 1 … any positive number) …
    pub ratio: f64,
    /// … and by more than this many milliseconds.
    pub min_ms: f64,
    /// Calls per tool made and discarded before sampling, in `baseline` and when comparing.
    pub warmup: u32,
}

impl Default for RegressionConfig {
    fn default() -> Self {
        RegressionConfig {
            ratio: 2.0,
            min_ms: 50.0,
            warmup: 2,
        }
    }
}

impl Default for LatencyConfig {
    fn default() -> Self {
        LatencyConfig {
            samples: 5,
            p95_budget_ms: 1000.0,
            call_readonly: true,
            tools: Vec::new(),
            call_all: false,
            regression: RegressionConfig::default(),
        }
    }
}
