//! Latency budgets (suites-latency.md part B).
//!
//! Pure plan/judge split: [`plan`] decides which tools may be called and with which
//! arguments (never a tool the side-effect policy refuses); the runner calls each planned
//! tool `policy.samples` times sequentially, timing each call and turning it into a
//! sample with [`sample_of`]; [`judge`] returns the family's results in order. Against a
//! baseline lockfile's `latency` member (#16 §4): [`pin`] and [`compare`].

mod args;
mod baseline;
mod config;
mod stats;

pub use args::{generate_args, minimal_args};
pub use baseline::{compare, pin, regressed, Samples};
pub use config::{LatencyConfig, RegressionConfig};
pub use stats::percentile;

use crate::model::Finding;
use crate::observed::{CallOutcome, Listing, RpcError};
use crate::surface::json::js_number;
use serde_json::{json, Map, Value};
pub mod rules;
#[cfg(test)]
use crate::model::Severity;
pub use rules::RULES;

/// The side-effect decision for one tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Call(Map<String, Value>),
    Refuse(String),
}

/// What the runner executes, plus what [`judge`] reports about the rest.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatencyPlan {
    /// In listing order: call each `policy.samples` times, sequentially, with these args.
    pub calls: Vec<(String, Map<String, Value>)>,
    /// Listed tools not measured, with the reason (listing order).
    pub refused: Vec<(String, String)>,
    /// Allowlisted names the server does not list (config order).
    pub unknown_allowlisted: Vec<String>,
    /// `latency/list-tools` or `latency/no-tools`: the family stops after listing.
    pub stop: Option<Finding>,
}

const REASON_NOT_READONLY: &str = "not annotated readOnlyHint: true and not in checks.latency.tools; mcpward will not repeatedly call a tool that may have side effects";
const REASON_CONTRADICTS: &str = "annotated both readOnlyHint and destructiveHint, refusing without an explicit checks.latency.tools entry";
const REASON_DISABLED: &str =
    "call_readonly is disabled and the tool is not in checks.latency.tools";

/// B.3, in order: allowlist, `call_all`, read-only (not destructive) with `call_readonly`.
/// Generated arguments must validate against the tool's `inputSchema`, or it is refused.
pub fn decide(tool: &Value, policy: &LatencyConfig) -> Decision {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    if let Some(t) = crate::checks::tool_args::find(&policy.tools, name) {
        return Decision::Call(t.args.clone());
    }
    if !policy.call_all {
        use crate::surface::shape::{side_effect_gate, CallRefusal};
        if let Err(r) = side_effect_gate(tool, policy.call_readonly) {
            return Decision::Refuse(
                match r {
                    CallRefusal::NotReadOnly => REASON_NOT_READONLY,
                    CallRefusal::Contradictory => REASON_CONTRADICTS,
                    CallRefusal::Disabled => REASON_DISABLED,
                }
                .into(),
            );
        }
    }
    match generate_args(tool.get("inputSchema").unwrap_or(&Value::Null)) {
        Ok(a) => Decision::Call(a),
        Err(why) => Decision::Refuse(format!(
            "{why}; add it to checks.latency.tools with explicit args"
        )),
    }
}

pub fn plan(listing: &Listing, policy: &LatencyConfig) -> LatencyPlan {
    let mut p = LatencyPlan::default();
    let tools = match super::common::listed_tools(listing, &rules::LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => {
            p.stop = Some(f);
            return p;
        }
    };
    let listed = |n: &str| {
        tools
            .iter()
            .any(|t| t.get("name").and_then(Value::as_str) == Some(n))
    };
    for t in &policy.tools {
        if !listed(&t.name) && !p.unknown_allowlisted.contains(&t.name) {
            p.unknown_allowlisted.push(t.name.clone());
        }
    }
    if tools.is_empty() {
        p.stop = Some(rules::NO_TOOLS.pass("No tools to test latency"));
        return p;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, tool) in tools.iter().enumerate() {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            p.refused.push((
                format!("<tool #{}>", i + 1),
                "the tool has no string name, so it cannot be called".into(),
            ));
            continue;
        };
        // A duplicate name is the same call; measure it once.
        if !seen.insert(name) {
            continue;
        }
        match decide(tool, policy) {
            Decision::Call(a) => p.calls.push((name.to_string(), a)),
            Decision::Refuse(r) => p.refused.push((name.to_string(), r)),
        }
    }
    p
}

/// mcpward's own per-call timeout: no JSON-RPC code and a message starting `Timeout: `.
/// An error with a code (e.g. the server's -32001) never is.
pub fn is_own_timeout(err: &RpcError) -> bool {
    err.code.is_none() && err.message.starts_with("Timeout: ")
}

/// One call as a latency sample: completed results and our own timeouts count (the
/// elapsed time is the sample); `isError` results and other errors are excluded with
/// their text.
pub fn sample_of(outcome: &CallOutcome, elapsed_ms: f64) -> Result<f64, String> {
    match outcome {
        Ok(r) if r.get("isError") == Some(&Value::Bool(true)) => {
            let text = r
                .get("content")
                .and_then(Value::as_array)
                .and_then(|c| c.iter().find_map(|b| b.get("text").and_then(Value::as_str)))
                .map(|t| format!(": {}", crate::surface::text::truncate(t, 200)))
                .unwrap_or_default();
            Err(format!("the tool returned isError: true{text}"))
        }
        Ok(_) => Ok(elapsed_ms),
        Err(e) if is_own_timeout(e) => Ok(elapsed_ms),
        Err(e) => Err(e.to_string()),
    }
}

/// Whole milliseconds for messages (`toFixed(0)`).
fn ms(x: f64) -> String {
    format!("{}ms", js_number(x.round()))
}

/// The family's results in order: summary, one `latency/tool` per measured tool (in the
/// order of `samples`, which follows `plan.calls`), then `latency/sampling`. When the plan
/// stopped at listing: that result (and `latency/sampling` for unknown allowlisted names).
pub fn judge(
    plan: &LatencyPlan,
    samples: &[(String, Vec<Result<f64, String>>)],
    policy: &LatencyConfig,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(stop) = &plan.stop {
        out.push(stop.clone());
        if stop.id == rules::NO_TOOLS.id {
            out.extend(sampling(plan));
        }
        return out;
    }
    let mut pooled: Vec<f64> = Vec::new();
    let mut tools = Vec::new();
    for (name, calls) in samples {
        let mut ok: Vec<f64> = calls
            .iter()
            .filter_map(|c| c.as_ref().ok().copied())
            .filter(|x| x.is_finite())
            .collect();
        ok.sort_by(f64::total_cmp);
        let failed: Vec<&String> = calls.iter().filter_map(|c| c.as_ref().err()).collect();
        if ok.is_empty() {
            let first = failed.first().map_or("no call was made", |s| s.as_str());
            tools.push(
                rules::TOOL.warn(
                    format!(
                        "Tool \"{name}\" latency not measured: all {} call(s) failed — first error: {first}",
                        calls.len()
                    ),
                )
                .actual(json!({"failed": failed.len(), "firstError": first}))
                .location(name.clone()),
            );
            continue;
        }
        let (min, max) = (ok[0], ok[ok.len() - 1]);
        let (p50, p95) = (percentile(&ok, 50.0), percentile(&ok, 95.0));
        let mut msg = format!(
            "Tool \"{name}\" latency: min={} p50={} p95={} max={}",
            ms(min),
            ms(p50),
            ms(p95),
            ms(max)
        );
        let mut actual = json!({"min": min, "p50": p50, "p95": p95, "max": max, "samples": ok});
        if !failed.is_empty() {
            msg.push_str(&format!(" ({} failed call(s) excluded)", failed.len()));
            actual["failed"] = json!(failed.len());
        }
        pooled.extend_from_slice(&ok);
        tools.push(rules::TOOL.pass(msg).actual(actual).location(name.clone()));
    }
    pooled.sort_by(f64::total_cmp);
    let budget = policy.p95_budget_ms;
    let expected = format!("p95 <= {}ms", js_number(budget));
    let summary = if pooled.is_empty() {
        let why = if samples.is_empty() {
            "no tool is annotated readOnlyHint: true or allowlisted in checks.latency.tools"
        } else {
            "every measured call failed"
        };
        rules::SUMMARY
            .warn(format!("Latency not measured: {why}"))
            .expected(expected)
    } else {
        let (p50, p95) = (percentile(&pooled, 50.0), percentile(&pooled, 95.0));
        let msg = format!(
            "Latency p50={} p95={} (budget: {}ms)",
            ms(p50),
            ms(p95),
            js_number(budget)
        );
        let f = if p95 <= budget {
            rules::SUMMARY.pass(msg)
        } else {
            rules::SUMMARY.fail(msg)
        };
        f.expected(expected).actual(format!("p95 = {}", ms(p95)))
    };
    out.push(summary);
    out.extend(tools);
    out.extend(sampling(plan));
    out
}

fn sampling(plan: &LatencyPlan) -> Option<Finding> {
    if plan.refused.is_empty() && plan.unknown_allowlisted.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !plan.refused.is_empty() {
        let names: Vec<&str> = plan.refused.iter().map(|(n, _)| n.as_str()).collect();
        parts.push(format!(
            "{} tool(s) not measured: {}",
            names.len(),
            names.join(", ")
        ));
    }
    if !plan.unknown_allowlisted.is_empty() {
        parts.push(format!(
            "allowlisted but not on the server: {}",
            plan.unknown_allowlisted.join(", ")
        ));
    }
    let msg = format!(
        "Latency: {}. Add tools to checks.latency.tools (with args) to measure them.",
        parts.join("; ")
    );
    let f = if plan.unknown_allowlisted.is_empty() {
        rules::SAMPLING.skip(msg)
    } else {
        rules::SAMPLING.warn(msg)
    };
    let refused: Vec<Value> = plan
        .refused
        .iter()
        .map(|(t, r)| json!({"tool": t, "reason": r}))
        .collect();
    Some(f.actual(json!({"refused": refused, "unknownAllowlisted": plan.unknown_allowlisted})))
}

/// No live server to ask (`--from FILE`, #16 §2): the family is one skip saying so.
pub fn offline(source: &str) -> Finding {
    rules::SUMMARY.skip(format!(
        "Not run on an offline snapshot ({source}): latency is measured by calling tools on a live server"
    ))
}

#[cfg(test)]
mod tests;
