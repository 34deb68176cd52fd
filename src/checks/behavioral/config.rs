//! `suites` (suites-latency.md part A; config.md §10), validated by the config loader.

use serde_json::{Map, Value};

/// One configured suite: every case calls `tool`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suite {
    pub tool: String,
    pub cases: Vec<SuiteCase>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SuiteCase {
    pub name: String,
    /// Passed verbatim as the call's `arguments`.
    pub args: Map<String, Value>,
    /// `None` (no `expect` key) makes a smoke test; `Some(default)` (`expect: {}`) only
    /// requires the call not to throw.
    pub expect: Option<CaseExpect>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CaseExpect {
    pub tool_is_error: Option<bool>,
    pub protocol_error_code: Option<i64>,
    pub output_matches_schema: Option<bool>,
    /// Path → expected value, in config order.
    pub jsonpath: Option<Map<String, Value>>,
    /// As configured (relative to the config file's directory); see `golden_path`.
    pub golden: Option<String>,
}
