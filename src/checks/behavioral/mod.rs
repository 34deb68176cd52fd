//! Behavioral suites (suites-latency.md part A): user-listed tool calls with expectations.
//!
//! Pure plan/judge split: [`plan`] turns the listing and the suites into steps, the runner
//! performs each `Step::Call` (one `tools/call`, reading the golden file when the case has
//! one and `--update-golden` is off), [`judge_case`] turns the outcome into findings, and
//! [`finish`] puts the summary in front.

mod config;
mod golden;
pub mod jsonpath; // pub for the fuzz target (fuzz/fuzz_targets/jsonpath.rs)

pub use config::{CaseExpect, Suite, SuiteCase};
pub use golden::{golden_text, js_number};

use super::common::compile_schema;
use crate::model::Finding;
use crate::observed::{CallOutcome, Listing};
use crate::rules::types::Rule;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
pub mod rules;
#[cfg(test)]
use crate::model::Severity;
pub use rules::RULES;

/// The golden file as the runner found it. `NotRead` when the case has no golden
/// expectation or `--update-golden` is on (the file is then written, not read).
#[derive(Debug, Clone, PartialEq)]
pub enum GoldenState {
    NotRead,
    Missing,
    Present(String),
    /// The read failed for another reason than absence; the text is the I/O error.
    Unreadable(String),
}

/// What one case produced.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseVerdict {
    pub findings: Vec<Finding>,
    /// In update mode: the golden file's new text. The runner writes it (creating parent
    /// directories); on failure it replaces the case's `behavioral/golden` finding, always
    /// the last one, with [`golden_write_failed`].
    pub golden_write: Option<String>,
}

/// One thing the runner does, in order.
#[derive(Debug, Clone)]
pub enum Step<'a> {
    /// Emit as is (a suite whose tool is not listed).
    Report(Box<Finding>),
    /// Call `tool` with `case.args`, then [`judge_case`] with the listed tool object.
    Call {
        tool: &'a str,
        case: &'a SuiteCase,
        listed: &'a Value,
    },
}

/// The steps for `suites`, or the single `behavioral/list-tools` result when the listing
/// failed. No suites → no steps (the family emits nothing).
pub fn plan<'a>(listing: &'a Listing, suites: &'a [Suite]) -> Result<Vec<Step<'a>>, Box<Finding>> {
    if suites.is_empty() {
        return Ok(Vec::new());
    }
    let tools = super::common::listed_tools(listing, &rules::LIST_TOOLS).map_err(Box::new)?;
    // With duplicate names the last one wins.
    let mut by_name: BTreeMap<&str, &Value> = BTreeMap::new();
    for t in tools {
        if let Some(name) = t.get("name").and_then(Value::as_str) {
            by_name.insert(name, t);
        }
    }
    let mut steps = Vec::new();
    for suite in suites {
        match by_name.get(suite.tool.as_str()) {
            None => steps.push(Step::Report(Box::new(
                rules::TOOL_EXISTS
                    .fail(format!("Tool \"{}\" not found on server", suite.tool))
                    .location(suite.tool.clone()),
            ))),
            Some(listed) => steps.extend(suite.cases.iter().map(|case| Step::Call {
                tool: &suite.tool,
                case,
                listed,
            })),
        }
    }
    Ok(steps)
}

/// Puts `behavioral/summary` in front when there is at least one result.
pub fn finish(results: Vec<Finding>) -> Vec<Finding> {
    if results.is_empty() {
        return results;
    }
    let n = results.len();
    let failed = results
        .iter()
        .filter(|r| r.status == crate::model::Status::Fail)
        .count();
    let summary = if failed == 0 {
        rules::SUMMARY.pass(format!("All {n} behavioral tests passed"))
    } else {
        rules::SUMMARY.fail(format!("{failed} of {n} behavioral tests failed"))
    };
    let mut out = Vec::with_capacity(n + 1);
    out.push(summary);
    out.extend(results);
    out
}

/// Where a golden file lives: relative to the config file's directory (DECISIONS #11),
/// the working directory when none is known; absolute paths as is.
pub fn golden_path(config_dir: Option<&Path>, golden: &str) -> PathBuf {
    let p = Path::new(golden);
    match config_dir {
        Some(dir) if p.is_relative() => dir.join(p),
        _ => p.to_path_buf(),
    }
}

/// Replaces the update-mode pass when the runner could not write the file.
pub fn golden_write_failed(tool: &str, case: &SuiteCase, error: &str) -> Finding {
    let golden = case
        .expect
        .as_ref()
        .and_then(|e| e.golden.as_deref())
        .unwrap_or("");
    rules::GOLDEN
        .fail(format!(
            "Case \"{}\" golden snapshot could not be written to {golden}: {error}",
            case.name
        ))
        .expected(golden)
        .actual(error)
        .location(format!("{tool}/{}", case.name))
}

/// Judges one case. `listed` is the tool object from `tools/list` (for `outputSchema`).
/// Our own per-call timeout arrives as an error without code whose message names it
/// (`Timeout: tool call "<tool>" (<ms>ms)`), so it fails like any thrown error.
pub fn judge_case(
    tool: &str,
    case: &SuiteCase,
    listed: Option<&Value>,
    outcome: &CallOutcome,
    golden: &GoldenState,
    update_golden: bool,
) -> CaseVerdict {
    let loc = format!("{tool}/{}", case.name);
    let name = &case.name;
    let mut out = CaseVerdict {
        findings: Vec::new(),
        golden_write: None,
    };
    let Some(e) = &case.expect else {
        out.findings.push(
            match outcome {
                Ok(_) => rules::CASE.pass(format!("Case \"{name}\" completed without error")),
                Err(err) => {
                    rules::CASE.fail(format!("Case \"{name}\" threw unexpected error: {err}"))
                }
            }
            .location(loc),
        );
        return out;
    };

    if let Some(code) = e.protocol_error_code {
        let f = match outcome {
            Ok(_) => rules::PROTOCOL_ERROR
                .fail(format!(
                    "Case \"{name}\" expected protocol error {code} but call succeeded"
                ))
                .expected(format!("Protocol error code {code}"))
                .actual("No error"),
            Err(err) if err.code == Some(code) => rules::PROTOCOL_ERROR.pass(format!(
                "Case \"{name}\" got expected protocol error {code}"
            )),
            Err(err) => rules::PROTOCOL_ERROR
                .fail(format!("Case \"{name}\" wrong protocol error code: {err}"))
                .expected(code)
                .actual(err.code.map_or_else(|| json!("unknown"), Value::from)),
        };
        out.findings.push(f.location(loc));
        return out;
    }

    let result = match outcome {
        Ok(r) => r,
        Err(err) => {
            out.findings.push(
                rules::CASE
                    .fail(format!(
                        "Case \"{name}\" threw unexpected protocol error: {err}"
                    ))
                    .expected("Successful tool call")
                    .actual(err.to_string())
                    .location(loc),
            );
            return out;
        }
    };
    let is_error = result.get("isError") == Some(&Value::Bool(true));
    let mut asserted = false;

    if let Some(want) = e.tool_is_error {
        asserted = true;
        out.findings.push(
            if want == is_error {
                rules::TOOL_IS_ERROR.pass(format!("Case \"{name}\" tool_is_error as expected"))
            } else {
                rules::TOOL_IS_ERROR
                    .fail(format!("Case \"{name}\" tool_is_error mismatch"))
                    .expected(want)
                    .actual(is_error)
            }
            .location(loc.clone()),
        );
    }

    if e.output_matches_schema == Some(true) {
        asserted = true;
        out.findings
            .push(judge_output_schema(name, listed, result, is_error).location(loc.clone()));
    }

    if let Some(paths) = &e.jsonpath {
        asserted = true;
        out.findings
            .extend(judge_jsonpaths(name, &loc, paths, result));
    }

    if let Some(g) = &e.golden {
        asserted = true;
        let (f, write) = judge_golden(name, g, result, golden, update_golden);
        out.findings.push(f.location(loc.clone()));
        out.golden_write = write;
    }

    if !asserted {
        out.findings.push(
            rules::CASE
                .pass(format!("Case \"{name}\" completed"))
                .location(loc),
        );
    }
    out
}

fn judge_output_schema(
    name: &str,
    listed: Option<&Value>,
    result: &Value,
    is_error: bool,
) -> Finding {
    const ID: Rule = rules::OUTPUT_SCHEMA;
    let schema = listed
        .and_then(|t| t.get("outputSchema"))
        .filter(|s| !s.is_null());
    let Some(schema) = schema else {
        return ID.pass(format!(
            "Case \"{name}\" output matches schema (the tool declares no outputSchema)"
        ));
    };
    if is_error {
        // DECISIONS #31: an error result carries no structured output.
        return ID.skip(format!(
                "Case \"{name}\" output schema not checked: the tool returned isError: true, and error results carry no structured output"
            ),
        );
    }
    let errors: Vec<Value> = match (compile_schema(schema), result.get("structuredContent")) {
        (Err(e), _) => {
            vec![json!({"path": "$", "message": format!("Schema compilation error: {e}")})]
        }
        (Ok(_), None) => vec![json!({
            "path": "$",
            "message": "the result has no structuredContent although the tool declares an outputSchema"
        })],
        (Ok(v), Some(sc)) => v
            .iter_errors(sc)
            .map(|err| {
                let p = err.instance_path().as_str();
                let path = if p.is_empty() {
                    "$".to_string()
                } else {
                    p.to_string()
                };
                json!({"path": path, "message": err.to_string()})
            })
            .collect(),
    };
    if errors.is_empty() {
        return ID.pass(format!("Case \"{name}\" output matches schema"));
    }
    let msgs: Vec<&str> = errors
        .iter()
        .filter_map(|e| e.get("message").and_then(Value::as_str))
        .collect();
    ID.fail(format!(
        "Case \"{name}\" output does not match schema: {}",
        msgs.join(", ")
    ))
    .expected("Valid output schema")
    .actual(Value::Array(errors))
}

fn judge_jsonpaths(
    name: &str,
    loc: &str,
    paths: &Map<String, Value>,
    result: &Value,
) -> Vec<Finding> {
    const ID: Rule = rules::JSONPATH;
    let mut fails = Vec::new();
    for (path, expected) in paths {
        let at = format!("{loc}:{path}");
        match jsonpath::parse(path) {
            Err(e) => fails.push(
                ID.fail(format!("Case \"{name}\" JSONPath {path} is invalid: {e}"))
                    .expected(expected.clone())
                    .location(at),
            ),
            Ok(q) => {
                let actual = jsonpath::eval(&q, result);
                if !actual.as_ref().is_some_and(|a| deep_equal(a, expected, 0)) {
                    let mut f = ID
                        .fail(format!("Case \"{name}\" JSONPath {path} mismatch"))
                        .expected(expected.clone())
                        .location(at);
                    f.actual = actual;
                    fails.push(f);
                }
            }
        }
    }
    if fails.is_empty() {
        vec![ID
            .pass(format!("Case \"{name}\" JSONPath assertions passed"))
            .location(loc)]
    } else {
        fails
    }
}

/// Deep equality without coercion; numbers by value (`1` equals `1.0`), key order ignored.
fn deep_equal(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > 256 {
        return false;
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_equal(p, q, depth + 1))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w, depth + 1)))
        }
        _ => a == b,
    }
}

fn judge_golden(
    name: &str,
    g: &str,
    result: &Value,
    state: &GoldenState,
    update: bool,
) -> (Finding, Option<String>) {
    const ID: Rule = rules::GOLDEN;
    if update {
        return (
            ID.pass(format!("Case \"{name}\" golden snapshot written to {g}")),
            Some(golden_text(result)),
        );
    }
    let invalid = |detail: String| {
        ID.fail(format!(
            "Case \"{name}\" golden file is not valid JSON: {g}"
        ))
        .expected(g)
        .actual(detail)
    };
    let text = match state {
        GoldenState::Present(t) => t,
        GoldenState::Missing => {
            return (
                ID.fail(format!(
                        "Case \"{name}\" golden file not found: {g} (run with --update-golden to create it)"
                    ),
                )
                .expected(g)
                .actual("file not found"),
                None,
            )
        }
        GoldenState::Unreadable(e) => return (invalid(e.clone()), None),
        GoldenState::NotRead => return (invalid("golden file was not read".into()), None),
    };
    let stored: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (invalid(e.to_string()), None),
    };
    let pinned = golden::pinned(result);
    if golden::canonical(&stored, 0) == golden::canonical(&pinned, 0) {
        (
            ID.pass(format!("Case \"{name}\" matches golden snapshot")),
            None,
        )
    } else {
        (
            ID.fail(format!(
                    "Case \"{name}\" output differs from golden snapshot {g} (re-run with --update-golden if the change is intended)"
                ),
            )
            .expected(stored)
            .actual(pinned),
            None,
        )
    }
}

/// No live server to ask (`--from FILE`, #16 §2): the family is one skip saying so.
pub fn offline(source: &str) -> Finding {
    rules::SUMMARY.skip(format!(
        "Not run on an offline snapshot ({source}): behavioral suites call tools on a live server"
    ))
}

#[cfg(test)]
mod tests;
