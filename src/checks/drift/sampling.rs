//! The output-sampling call plan (drift.md §10.2): which tools `checks.drift.output` may
//! call, with which arguments. The caller makes the calls; `surface::shape` infers shapes.

use super::config::OutputDriftConfig;
use crate::checks::tool_args::{self, ToolArgs};
use crate::surface::json::js_string_form;
use crate::surface::shape::{side_effect_gate, CallRefusal, NoteStatus, SamplingNote};
use serde_json::{Map, Value};

/// The side-effect policy (must never regress): returns the tools to call with their
/// arguments, in listing order, and a note for every tool not called.
pub fn output_sampling_plan(
    tools: &[Value],
    cfg: &OutputDriftConfig,
) -> (Vec<ToolArgs>, Vec<SamplingNote>) {
    let names: Vec<&str> = tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let mut notes = Vec::new();
    for t in &cfg.tools {
        if !names.contains(&t.name.as_str()) {
            notes.push(SamplingNote::new(
                &t.name,
                NoteStatus::Failed,
                "listed in checks.drift.output.tools but the server does not expose it",
            ));
        }
    }
    let mut calls = Vec::new();
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        if let Some(t) = tool_args::find(&cfg.tools, name) {
            calls.push(t.clone());
            continue;
        }
        let refusal = side_effect_gate(tool, cfg.call_readonly).err().map(|r| match r {
            CallRefusal::NotReadOnly => "not annotated readOnlyHint: true and not in checks.drift.output.tools — mcpward will not call a tool that may have side effects",
            CallRefusal::Contradictory => "annotated both readOnlyHint and destructiveHint — contradictory, refusing to call without an explicit allowlist entry",
            CallRefusal::Disabled => "call_readonly is disabled and the tool is not in checks.drift.output.tools",
        });
        if let Some(reason) = refusal {
            notes.push(SamplingNote::new(name, NoteStatus::Refused, reason));
            continue;
        }
        let required: Vec<String> = tool
            .get("inputSchema")
            .and_then(|s| s.get("required"))
            .and_then(Value::as_array)
            .map(|a| a.iter().map(js_string_form).collect())
            .unwrap_or_default();
        if !required.is_empty() {
            notes.push(SamplingNote::new(
                name,
                NoteStatus::Skipped,
                format!(
                    "requires arguments ({}) — add it to checks.drift.output.tools with args",
                    required.join(", ")
                ),
            ));
            continue;
        }
        calls.push(ToolArgs {
            name: name.to_string(),
            args: Map::new(),
        });
    }
    (calls, notes)
}
