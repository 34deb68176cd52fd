//! An allowlist entry shared by the families that call tools with configured arguments
//! (`checks.latency.tools`, `checks.drift.output.tools`).

use serde_json::{Map, Value};

/// Call `name` with `args`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolArgs {
    pub name: String,
    pub args: Map<String, Value>,
}

/// The first entry for `name` (config order), if any.
pub fn find<'a>(list: &'a [ToolArgs], name: &str) -> Option<&'a ToolArgs> {
    list.iter().find(|t| t.name == name)
}
