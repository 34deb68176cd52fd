//! Behavioral suites (suites-latency.md part A): user-listed tool calls with expectations.
//!
//! Pure plan/judge split: [`plan`] turns the listing and the suites into steps, the runner
//! performs each `Step::Call` (one `tools/call`, reading the golden file when the case has
//! one and `--update-golden` is off), [`judge_case`] turns the outcome into findings, and
//! [`finish`] puts the summary in front.

mod golden;
pub mod jsonpath; // pub for the fuzz target (fuzz/fuzz_targets/jsonpath.rs)

pub use golden::{golden_text, js_number};

use crate::model::{Finding, Severity};
use crate::rules::Rule;
use crate::transport::{CallOutcome, Listing};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    /// As configured (relative to the config file's directory); see [`golden_path`].
    pub golden: Option<String>,
}

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

pub const RULES: &[Rule] = &[
    Rule {
        id: "behavioral/summary",
        severity: Severity::Error,
        short: "Behavioral suites summary",
        description: "Aggregate of every behavioral suite result: passes when no case assertion failed.",
        fix: "Look at the failing behavioral results listed after the summary and fix each.",
    },
    Rule {
        id: "behavioral/list-tools",
        severity: Severity::Error,
        short: "Tools could not be listed for the suites",
        description: "The suites need the server's tool list (for tool names and output schemas), and `tools/list` failed, so no case ran.",
        fix: "Make `tools/list` succeed (see the error in the message); check the server starts and advertises the tools capability.",
    },
    Rule {
        id: "behavioral/tool-exists",
        severity: Severity::Error,
        short: "Suite names a tool the server does not list",
        description: "A suite targets a tool name that is absent from `tools/list`; none of its cases ran. Usually a renamed or removed tool.",
        fix: "Restore the tool on the server, or update the suite's `tool` to the new name.",
    },
    Rule {
        id: "behavioral/case",
        severity: Severity::Error,
        short: "Suite case call result",
        description: "A case without assertions (smoke test) or a case whose call had to succeed: fails when the call threw (JSON-RPC error, timeout, transport failure).",
        fix: "Fix the tool so the call succeeds with the case's arguments, or correct the arguments; if an error is the intended behaviour, assert it with `protocol_error_code` or `tool_is_error`.",
    },
    Rule {
        id: "behavioral/tool-is-error",
        severity: Severity::Error,
        short: "tool_is_error assertion",
        description: "Compares the result's `isError` flag (absent counts as false) with the case's `tool_is_error`.",
        fix: "Make the tool report failures with `isError: true` (and success without it), or correct the expectation.",
    },
    Rule {
        id: "behavioral/output-schema",
        severity: Severity::Error,
        short: "output_matches_schema assertion",
        description: "Validates the result's `structuredContent` against the tool's advertised `outputSchema`; a declared schema with no `structuredContent` fails. Skipped on `isError` results.",
        fix: "Return `structuredContent` that satisfies the tool's `outputSchema` (the message lists each violation), or fix the schema.",
    },
    Rule {
        id: "behavioral/jsonpath",
        severity: Severity::Error,
        short: "JSONPath assertions",
        description: "Each configured JSONPath is evaluated on the call result and deep-compared (no type coercion) with the expected value. An invalid path fails naming the parse error.",
        fix: "Fix the tool's output, or the expected value or path (the failing path is in the location).",
    },
    Rule {
        id: "behavioral/protocol-error",
        severity: Severity::Error,
        short: "protocol_error_code assertion",
        description: "The case expects the call to fail with a specific JSON-RPC error code; fails when the call succeeded or failed with another (or no) code.",
        fix: "Make the server reject the call with the expected JSON-RPC code (e.g. -32602 for invalid params), or correct the expectation.",
    },
    Rule {
        id: "behavioral/golden",
        severity: Severity::Error,
        short: "Golden snapshot comparison",
        description: "Compares the result's content, structuredContent and isError with a stored snapshot, ignoring key order and formatting. A missing file fails; it is only written with --update-golden (from the raw result, before report redaction).",
        fix: "If the change is intended, re-run with `--update-golden` and commit the file; otherwise fix the tool's output.",
    },
];

/// The steps for `suites`, or the single `behavioral/list-tools` result when the listing
/// failed. No suites → no steps (the family emits nothing).
pub fn plan<'a>(listing: &'a Listing, suites: &'a [Suite]) -> Result<Vec<Step<'a>>, Box<Finding>> {
    if suites.is_empty() {
        return Ok(Vec::new());
    }
    let tools = super::listed_tools(listing, "behavioral/list-tools").map_err(Box::new)?;
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
                Finding::fail(
                    "behavioral/tool-exists",
                    format!("Tool \"{}\" not found on server", suite.tool),
                )
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
        Finding::pass(
            "behavioral/summary",
            format!("All {n} behavioral tests passed"),
        )
    } else {
        Finding::fail(
            "behavioral/summary",
            format!("{failed} of {n} behavioral tests failed"),
        )
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
    Finding::fail(
        "behavioral/golden",
        format!(
            "Case \"{}\" golden snapshot could not be written to {golden}: {error}",
            case.name
        ),
    )
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
                Ok(_) => Finding::pass(
                    "behavioral/case",
                    format!("Case \"{name}\" completed without error"),
                ),
                Err(err) => Finding::fail(
                    "behavioral/case",
                    format!("Case \"{name}\" threw unexpected error: {err}"),
                ),
            }
            .location(loc),
        );
        return out;
    };

    if let Some(code) = e.protocol_error_code {
        let f = match outcome {
            Ok(_) => Finding::fail(
                "behavioral/protocol-error",
                format!("Case \"{name}\" expected protocol error {code} but call succeeded"),
            )
            .expected(format!("Protocol error code {code}"))
            .actual("No error"),
            Err(err) if err.code == Some(code) => Finding::pass(
                "behavioral/protocol-error",
                format!("Case \"{name}\" got expected protocol error {code}"),
            ),
            Err(err) => Finding::fail(
                "behavioral/protocol-error",
                format!("Case \"{name}\" wrong protocol error code: {err}"),
            )
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
                Finding::fail(
                    "behavioral/case",
                    format!("Case \"{name}\" threw unexpected protocol error: {err}"),
                )
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
                Finding::pass(
                    "behavioral/tool-is-error",
                    format!("Case \"{name}\" tool_is_error as expected"),
                )
            } else {
                Finding::fail(
                    "behavioral/tool-is-error",
                    format!("Case \"{name}\" tool_is_error mismatch"),
                )
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
            Finding::pass("behavioral/case", format!("Case \"{name}\" completed")).location(loc),
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
    const ID: &str = "behavioral/output-schema";
    let schema = listed
        .and_then(|t| t.get("outputSchema"))
        .filter(|s| !s.is_null());
    let Some(schema) = schema else {
        return Finding::pass(
            ID,
            format!("Case \"{name}\" output matches schema (the tool declares no outputSchema)"),
        );
    };
    if is_error {
        // DECISIONS #31: an error result carries no structured output.
        return Finding::skip(
            ID,
            format!(
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
        return Finding::pass(ID, format!("Case \"{name}\" output matches schema"));
    }
    let msgs: Vec<&str> = errors
        .iter()
        .filter_map(|e| e.get("message").and_then(Value::as_str))
        .collect();
    Finding::fail(
        ID,
        format!(
            "Case \"{name}\" output does not match schema: {}",
            msgs.join(", ")
        ),
    )
    .expected("Valid output schema")
    .actual(Value::Array(errors))
}

/// A validator for a tool's schema: `$schema` honoured, 2020-12 otherwise (DECISIONS #6),
/// formats checked (as Ajv with standard formats). No remote `$ref` resolution.
pub(crate) fn compile_schema(schema: &Value) -> Result<jsonschema::Validator, String> {
    // An unknown `$schema` (not one of the five drafts) falls back to 2020-12 rather
    // than failing: the dialect URI is a hint, not worth a failed case.
    let unknown = schema
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|uri| !known_dialect(uri));
    if unknown {
        if let Value::Object(m) = schema {
            let mut m = m.clone();
            m.remove("$schema");
            return compile_schema(&Value::Object(m));
        }
    }
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The `$schema` URIs the validator recognises by itself (each in this exact spelling, with
/// or without a trailing `#`): the set this family has always accepted. Any other string
/// counts as an unknown dialect.
fn known_dialect(uri: &str) -> bool {
    matches!(
        uri.trim_end_matches('#'),
        "https://json-schema.org/draft/2020-12/schema"
            | "https://json-schema.org/draft/2019-09/schema"
            | "http://json-schema.org/draft-07/schema"
            | "http://json-schema.org/draft-06/schema"
            | "http://json-schema.org/draft-04/schema"
    )
}

fn judge_jsonpaths(
    name: &str,
    loc: &str,
    paths: &Map<String, Value>,
    result: &Value,
) -> Vec<Finding> {
    const ID: &str = "behavioral/jsonpath";
    let mut fails = Vec::new();
    for (path, expected) in paths {
        let at = format!("{loc}:{path}");
        match jsonpath::parse(path) {
            Err(e) => fails.push(
                Finding::fail(
                    ID,
                    format!("Case \"{name}\" JSONPath {path} is invalid: {e}"),
                )
                .expected(expected.clone())
                .location(at),
            ),
            Ok(q) => {
                let actual = jsonpath::eval(&q, result);
                if !actual.as_ref().is_some_and(|a| deep_equal(a, expected, 0)) {
                    let mut f =
                        Finding::fail(ID, format!("Case \"{name}\" JSONPath {path} mismatch"))
                            .expected(expected.clone())
                            .location(at);
                    f.actual = actual;
                    fails.push(f);
                }
            }
        }
    }
    if fails.is_empty() {
        vec![Finding::pass(ID, format!("Case \"{name}\" JSONPath assertions passed")).location(loc)]
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
    const ID: &str = "behavioral/golden";
    if update {
        return (
            Finding::pass(
                ID,
                format!("Case \"{name}\" golden snapshot written to {g}"),
            ),
            Some(golden_text(result)),
        );
    }
    let invalid = |detail: String| {
        Finding::fail(
            ID,
            format!("Case \"{name}\" golden file is not valid JSON: {g}"),
        )
        .expected(g)
        .actual(detail)
    };
    let text = match state {
        GoldenState::Present(t) => t,
        GoldenState::Missing => {
            return (
                Finding::fail(
                    ID,
                    format!(
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
            Finding::pass(ID, format!("Case \"{name}\" matches golden snapshot")),
            None,
        )
    } else {
        (
            Finding::fail(
                ID,
                format!(
                    "Case \"{name}\" output differs from golden snapshot {g} (re-run with --update-golden if the change is intended)"
                ),
            )
            .expected(stored)
            .actual(pinned),
            None,
        )
    }
}

#[cfg(test)]
mod tests;
