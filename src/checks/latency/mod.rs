//! Latency budgets (suites-latency.md part B).
//!
//! Pure plan/judge split: [`plan`] decides which tools may be called and with which
//! arguments (never a tool the side-effect policy refuses); the runner calls each planned
//! tool `policy.samples` times sequentially, timing each call and turning it into a
//! sample with [`sample_of`]; [`judge`] returns the family's results in order.

mod args;

pub use args::{generate_args, minimal_args};

use crate::model::{Finding, Severity};
use crate::observed::{CallOutcome, Listing, RpcError};
use crate::rules::Rule;
use crate::surface::json::js_number;
use serde_json::{json, Map, Value};

/// `checks.latency`, as the config engineer's type converts into.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyPolicy {
    /// Calls per measured tool (> 0; config validation guarantees it).
    pub samples: u32,
    pub p95_budget_ms: f64,
    pub call_readonly: bool,
    /// Allowlist `{name, args}` in config order; the first entry for a name wins.
    pub tools: Vec<(String, Map<String, Value>)>,
    pub call_all: bool,
}

impl Default for LatencyPolicy {
    fn default() -> Self {
        LatencyPolicy {
            samples: 5,
            p95_budget_ms: 1000.0,
            call_readonly: true,
            tools: Vec::new(),
            call_all: false,
        }
    }
}

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

pub const RULES: &[Rule] = &[
    Rule {
        id: "latency/summary",
        severity: Severity::Error,
        short: "Pooled p95 latency within budget",
        description: "The p95 of all latency samples of all measured tools, pooled, compared with `checks.latency.p95_budget_ms` (equality passes). A warning when nothing could be measured.",
        fix: "Make the slow tools faster (see the `latency/tool` results for which), or raise the budget if it was unrealistic. For a warning, annotate read-only tools with `readOnlyHint: true` or allowlist tools with arguments in `checks.latency.tools`.",
    },
    Rule {
        id: "latency/tool",
        severity: Severity::Warning,
        short: "Per-tool latency",
        description: "min/p50/p95/max of one measured tool's completed calls. Informational; a warning when every call failed, since then nothing was measured.",
        fix: "For a warning, fix the arguments (`checks.latency.tools[].args`) or the tool so the calls succeed; the message shows the first error.",
    },
    Rule {
        id: "latency/sampling",
        severity: Severity::Warning,
        short: "Tools not measured",
        description: "Names the listed tools mcpward refused to call repeatedly (possible side effects, or no valid arguments could be generated) and allowlisted names the server does not list.",
        fix: "Allowlist a tool you want measured in `checks.latency.tools` with arguments that are safe to repeat; remove or correct allowlisted names the server does not have.",
    },
    Rule {
        id: "latency/list-tools",
        severity: Severity::Error,
        short: "Tools could not be listed for latency",
        description: "`tools/list` failed, so no tool could be measured.",
        fix: "Make `tools/list` succeed (see the error in the message).",
    },
    Rule {
        id: "latency/no-tools",
        severity: Severity::Info,
        short: "No tools to measure",
        description: "The server lists no tools, so latency was not measured.",
        fix: "Nothing to fix unless the server should expose tools.",
    },
];

const REASON_NOT_READONLY: &str = "not annotated readOnlyHint: true and not in checks.latency.tools; mcpward will not repeatedly call a tool that may have side effects";
const REASON_CONTRADICTS: &str = "annotated both readOnlyHint and destructiveHint, refusing without an explicit checks.latency.tools entry";
const REASON_DISABLED: &str =
    "call_readonly is disabled and the tool is not in checks.latency.tools";

/// B.3, in order: allowlist, `call_all`, read-only (not destructive) with `call_readonly`.
/// Generated arguments must validate against the tool's `inputSchema`, or it is refused.
pub fn decide(tool: &Value, policy: &LatencyPolicy) -> Decision {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    if let Some((_, a)) = policy.tools.iter().find(|(n, _)| n == name) {
        return Decision::Call(a.clone());
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

pub fn plan(listing: &Listing, policy: &LatencyPolicy) -> LatencyPlan {
    let mut p = LatencyPlan::default();
    let tools = match super::listed_tools(listing, "latency/list-tools") {
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
    for (n, _) in &policy.tools {
        if !listed(n) && !p.unknown_allowlisted.contains(n) {
            p.unknown_allowlisted.push(n.clone());
        }
    }
    if tools.is_empty() {
        p.stop = Some(Finding::pass(
            "latency/no-tools",
            "No tools to test latency",
        ));
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

/// Linear interpolation between closest ranks (R type 7, Excel PERCENTILE.INC) over
/// ascending samples; 0 for none.
pub fn percentile(sorted_ms: &[f64], p: f64) -> f64 {
    let n = sorted_ms.len();
    match n {
        0 => 0.0,
        1 => sorted_ms[0],
        _ => {
            let last = (n - 1) as f64;
            let h = ((p / 100.0) * last).clamp(0.0, last);
            let h = if h.is_nan() { 0.0 } else { h };
            let (lo, hi) = (h.floor(), h.ceil());
            let (x_lo, x_hi) = (sorted_ms[lo as usize], sorted_ms[hi as usize]);
            if lo == hi {
                x_lo
            } else {
                x_lo * (1.0 - (h - lo)) + x_hi * (h - lo)
            }
        }
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
    policy: &LatencyPolicy,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(stop) = &plan.stop {
        out.push(stop.clone());
        if stop.id == "latency/no-tools" {
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
                Finding::warn(
                    "latency/tool",
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
        tools.push(
            Finding::pass("latency/tool", msg)
                .actual(actual)
                .location(name.clone()),
        );
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
        Finding::warn("latency/summary", format!("Latency not measured: {why}")).expected(expected)
    } else {
        let (p50, p95) = (percentile(&pooled, 50.0), percentile(&pooled, 95.0));
        let msg = format!(
            "Latency p50={} p95={} (budget: {}ms)",
            ms(p50),
            ms(p95),
            js_number(budget)
        );
        let f = if p95 <= budget {
            Finding::pass("latency/summary", msg)
        } else {
            Finding::fail("latency/summary", msg)
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
        Finding::skip("latency/sampling", msg)
    } else {
        Finding::warn("latency/sampling", msg)
    };
    let refused: Vec<Value> = plan
        .refused
        .iter()
        .map(|(t, r)| json!({"tool": t, "reason": r}))
        .collect();
    Some(f.actual(json!({"refused": refused, "unknownAllowlisted": plan.unknown_allowlisted})))
}

#[cfg(test)]
mod tests;
