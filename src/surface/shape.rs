//! Output-shape drift (drift.md §10), the pure parts: which tools may be called, what a
//! result's tracked value is, structure inference and merging, and the consumer-side diff.
//! Only structure is recorded, never values. The caller makes the calls.

use super::canonical::MAX_DEPTH;
use super::drift_vocab::{Change, DriftClass};
use super::json::{js_key_order, to_compact_opt};
use crate::observed::CallOutcome;
use crate::surface::json::type_name as type_of;
use serde_json::{json, Map, Value};

/// Elements of one array merged into `items`; the rest are ignored.
pub const MAX_ARRAY_ITEMS: usize = 100;
/// Keys one object may have before inference gives up.
pub const MAX_OBJECT_KEYS: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteStatus {
    Failed,
    Partial,
    Refused,
    Skipped,
}

impl NoteStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            NoteStatus::Failed => "failed",
            NoteStatus::Partial => "partial",
            NoteStatus::Refused => "refused",
            NoteStatus::Skipped => "skipped",
        }
    }
}

/// Why a tool has no (complete) output shape. `baseline` prints these as console lines;
/// `diff`/`run` report them as `drift/output-sampling` results.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingNote {
    pub tool: String,
    pub status: NoteStatus,
    pub reason: String,
}

impl SamplingNote {
    pub fn new(tool: &str, status: NoteStatus, reason: impl Into<String>) -> Self {
        SamplingNote {
            tool: tool.to_string(),
            status,
            reason: reason.into(),
        }
    }
}

/// Why a tool that is not explicitly allowlisted may not be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallRefusal {
    /// Not annotated `readOnlyHint: true`: it may have side effects.
    NotReadOnly,
    /// Annotated both read-only and destructive.
    Contradictory,
    /// Read-only, but calling read-only tools is switched off.
    Disabled,
}

/// The one rule for calling a tool that no allowlist names (output sampling, latency):
/// read-only by annotation, not also destructive, and `call_readonly` on.
pub fn side_effect_gate(tool: &Value, call_readonly: bool) -> Result<(), CallRefusal> {
    let hint = |key: &str| {
        tool.get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            == Some(true)
    };
    if !hint("readOnlyHint") {
        Err(CallRefusal::NotReadOnly)
    } else if hint("destructiveHint") {
        Err(CallRefusal::Contradictory)
    } else if !call_readonly {
        Err(CallRefusal::Disabled)
    } else {
        Ok(())
    }
}

/// Where a tracked output value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Structured,
    JsonText,
    Content,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Structured => "structured",
            Source::JsonText => "json-text",
            Source::Content => "content",
        }
    }
    fn label(s: &str) -> &str {
        match s {
            "structured" => "structuredContent",
            "json-text" => "JSON text content",
            "content" => "content blocks",
            other => other,
        }
    }
}

/// The value whose structure is tracked for one successful result (drift.md §10.3).
pub fn extract(result: &Value) -> Option<(Source, Value)> {
    let obj = result.as_object()?;
    if obj.get("isError") == Some(&Value::Bool(true)) {
        return None;
    }
    if let Some(sc) = obj.get("structuredContent").filter(|v| !v.is_null()) {
        return Some((Source::Structured, sc.clone()));
    }
    let content = obj.get("content").and_then(Value::as_array);
    if let Some([block]) = content.map(Vec::as_slice) {
        if block.get("type").and_then(Value::as_str) == Some("text") {
            if let Some(text) = block.get("text").and_then(Value::as_str) {
                let t = text.trim_matches(super::text::is_js_whitespace);
                if t.starts_with('{') || t.starts_with('[') {
                    if let Ok(v) = serde_json::from_str::<Value>(t) {
                        return Some((Source::JsonText, v));
                    }
                }
            }
        }
    }
    // Block kinds as keys, never the text: a switch from text to image is visible.
    let mut kinds = Map::new();
    for block in content.into_iter().flatten() {
        let kind = block
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("unknown");
        kinds.insert(kind.to_string(), Value::Bool(true));
    }
    Some((Source::Content, Value::Object(kinds)))
}

fn new_node() -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("types".into(), Value::Array(vec![]));
    m
}

/// Merges one value into a shape node (lockfile.md §2.2.1 member order falls out of the
/// insertion order).
fn merge(node: &mut Map<String, Value>, v: &Value, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("Output exceeds maximum depth of 64 (untrusted input protection)".into());
    }
    let t = type_of(v);
    if let Some(Value::Array(types)) = node.get_mut("types") {
        if !types.iter().any(|x| x == t) {
            types.push(t.into());
            types.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        }
    }
    match v {
        Value::Object(m) => {
            if m.len() > MAX_OBJECT_KEYS {
                return Err(format!(
                    "Output object has {} properties, limit is {MAX_OBJECT_KEYS} (untrusted input protection)",
                    m.len()
                ));
            }
            let count = node.get("objectCount").and_then(Value::as_u64).unwrap_or(0);
            node.insert("objectCount".into(), (count + 1).into());
            if !node.contains_key("properties") {
                node.insert("properties".into(), Value::Object(Map::new()));
            }
            for key in js_key_order(m.keys().map(String::as_str)) {
                let Some(Value::Object(props)) = node.get_mut("properties") else {
                    break;
                };
                let entry = props
                    .entry(key.to_string())
                    .or_insert_with(|| json!({"seen": 0, "shape": Value::Object(new_node())}));
                let seen = entry.get("seen").and_then(Value::as_u64).unwrap_or(0);
                entry["seen"] = (seen + 1).into();
                if let Some(Value::Object(shape)) = entry.get_mut("shape") {
                    merge(shape, &m[key], depth + 1)?;
                }
            }
        }
        Value::Array(a) => {
            for e in a.iter().take(MAX_ARRAY_ITEMS) {
                let items = node
                    .entry("items")
                    .or_insert_with(|| Value::Object(new_node()));
                if let Value::Object(items) = items {
                    merge(items, e, depth + 1)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Merges the tracked values of all successful samples into an `outputShape` object.
pub fn infer(samples: &[(Source, Value)]) -> Result<Value, String> {
    let Some((first, _)) = samples.first() else {
        return Err("no samples".into());
    };
    let mut node = new_node();
    for (src, v) in samples {
        if src != first {
            return Err(format!(
                "inconsistent output kind across samples ({} vs {})",
                first.as_str(),
                src.as_str()
            ));
        }
        merge(&mut node, v, 0)?;
    }
    Ok(json!({"source": first.as_str(), "samples": samples.len(), "shape": Value::Object(node)}))
}

/// The outcome for one sampled tool (drift.md §10.5): its `outputShape` if any, and a note
/// when something went wrong. `outcomes` are the `shape_samples` call results in order.
pub fn sample_tool(tool: &str, outcomes: &[CallOutcome]) -> (Option<Value>, Option<SamplingNote>) {
    let mut ok = Vec::new();
    let mut last_error = String::from("undefined");
    let mut errors = 0;
    for o in outcomes {
        match o {
            Err(e) => {
                errors += 1;
                last_error = e.to_string();
            }
            Ok(r) if r.get("isError") == Some(&Value::Bool(true)) => {
                errors += 1;
                last_error = "tool returned isError: true".into();
            }
            Ok(r) => {
                if let Some(x) = extract(r) {
                    ok.push(x);
                }
            }
        }
    }
    let n = outcomes.len();
    if ok.is_empty() {
        let reason = format!("no successful sample out of {n} (last error: {last_error})");
        return (
            None,
            Some(SamplingNote::new(tool, NoteStatus::Failed, reason)),
        );
    }
    match infer(&ok) {
        Err(e) => (None, Some(SamplingNote::new(tool, NoteStatus::Failed, e))),
        Ok(shape) if errors > 0 => {
            let reason = format!(
                "{errors} of {n} samples failed (last error: {last_error}); shape inferred from {}",
                ok.len()
            );
            (
                Some(shape),
                Some(SamplingNote::new(tool, NoteStatus::Partial, reason)),
            )
        }
        Ok(shape) => (Some(shape), None),
    }
}

struct ShapeDiff<'a> {
    tool: &'a str,
    suffix: String,
    out: Vec<Change>,
}

fn types_of(node: &Value) -> Vec<String> {
    crate::surface::json::strings(node.get("types"))
}

fn count(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

impl ShapeDiff<'_> {
    fn emit(
        &mut self,
        breaking: bool,
        path: &str,
        what: String,
        prev: Option<Value>,
        curr: Option<Value>,
    ) {
        self.out.push(Change {
            class: if breaking {
                DriftClass::BreakingOutputShapeChange
            } else {
                DriftClass::NonbreakingOutputShapeChange
            },
            tool: self.tool.to_string(),
            message: format!("Tool \"{}\" output {path} {what}{}", self.tool, self.suffix),
            previous: prev,
            current: curr,
        });
    }

    fn walk(&mut self, b: &Value, c: &Value, path: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let (tb, tc) = (types_of(b), types_of(c));
        let added: Vec<&String> = tc.iter().filter(|t| !tb.contains(t)).collect();
        let removed: Vec<&String> = tb.iter().filter(|t| !tc.contains(t)).collect();
        let join = |v: &[&String]| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" | ");
        let (jb, jc) = (json!(tb), json!(tc));
        if !added.is_empty() {
            let what = if tb.iter().any(|t| tc.contains(t)) {
                format!("now also returns {}", join(&added))
            } else {
                format!("type changed from {} to {}", tb.join(" | "), tc.join(" | "))
            };
            self.emit(true, path, what, Some(jb), Some(jc));
        } else if !removed.is_empty() {
            self.emit(
                false,
                path,
                format!("no longer returns {}", join(&removed)),
                Some(jb),
                Some(jc),
            );
        }
        if let (Some(Value::Object(pb)), Some(Value::Object(pc))) =
            (b.get("properties"), c.get("properties"))
        {
            let (ob, oc) = (count(b, "objectCount"), count(c, "objectCount"));
            for key in js_key_order(pb.keys().map(String::as_str)) {
                let eb = &pb[key];
                let p = format!("{path}.{key}");
                let always_b = count(eb, "seen") >= ob;
                let Some(ec) = pc.get(key) else {
                    let old = eb.get("shape").map(|s| json!(types_of(s)));
                    if always_b {
                        self.emit(true, &p, "was removed".into(), old, None);
                    } else {
                        self.emit(
                            false,
                            &p,
                            "was not observed (was optional)".into(),
                            old,
                            None,
                        );
                    }
                    continue;
                };
                let always_c = count(ec, "seen") >= oc;
                let counts =
                    |e: &Value, o: u64| json!({"seen": count(e, "seen"), "objectCount": o});
                if always_b && !always_c {
                    let what = format!(
                        "became optional (present in {} of {oc} observed objects)",
                        count(ec, "seen")
                    );
                    self.emit(true, &p, what, Some(counts(eb, ob)), Some(counts(ec, oc)));
                } else if !always_b && always_c {
                    self.emit(
                        false,
                        &p,
                        "became always-present".into(),
                        Some(counts(eb, ob)),
                        Some(counts(ec, oc)),
                    );
                }
                if let (Some(sb), Some(sc)) = (eb.get("shape"), ec.get("shape")) {
                    self.walk(sb, sc, &p, depth + 1);
                }
            }
            for key in js_key_order(pc.keys().map(String::as_str)) {
                if !pb.contains_key(key) {
                    let types = pc[key].get("shape").map(|s| json!(types_of(s)));
                    self.emit(
                        false,
                        &format!("{path}.{key}"),
                        "was added".into(),
                        None,
                        types,
                    );
                }
            }
        }
        if let (Some(ib), Some(ic)) = (b.get("items"), c.get("items")) {
            self.walk(ib, ic, &format!("{path}[]"), depth + 1);
        }
    }
}

/// Consumer-side diff of two `outputShape` objects (drift.md §10.7–§10.8).
pub fn diff_shapes(tool: &str, base: &Value, curr: &Value) -> Vec<Change> {
    let suffix = format!(
        " (inferred; baseline {} sample(s), current {} sample(s))",
        to_compact_opt(base.get("samples")),
        to_compact_opt(curr.get("samples"))
    );
    let mut d = ShapeDiff {
        tool,
        suffix,
        out: Vec::new(),
    };
    let (sb, sc) = (base.get("source"), curr.get("source"));
    if sb != sc {
        let label = |v: Option<&Value>| {
            Source::label(v.and_then(Value::as_str).unwrap_or("undefined")).to_string()
        };
        let what = format!("changed from {} to {}", label(sb), label(sc));
        d.emit(true, "format", what, sb.cloned(), sc.cloned());
        return d.out;
    }
    let null = Value::Null;
    d.walk(
        base.get("shape").unwrap_or(&null),
        curr.get("shape").unwrap_or(&null),
        "$",
        0,
    );
    d.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Severity, Status};
    use crate::observed::RpcError;
    use crate::surface::json::to_compact;

    #[test]
    fn sampling_notes_as_findings() {
        // drift.md §10.6; the plan that makes these notes is the drift family's.
        let f = crate::checks::drift::sampling_finding(&SamplingNote::new(
            "ok",
            NoteStatus::Refused,
            "call_readonly is disabled and the tool is not in checks.drift.output.tools",
        ));
        assert_eq!(
            (f.id.as_str(), f.status, f.severity, f.location.as_deref()),
            (
                "drift/output-sampling",
                Status::Skip,
                Severity::Info,
                Some("ok")
            )
        );
        assert_eq!(f.message, "Output sampling refused for \"ok\": call_readonly is disabled and the tool is not in checks.drift.output.tools");
        let f = crate::checks::drift::sampling_finding(&SamplingNote::new(
            "t",
            NoteStatus::Partial,
            "x",
        ));
        assert_eq!((f.status, f.severity), (Status::Warn, Severity::Warning));
    }

    #[test]
    fn extracting_the_tracked_value() {
        let text = |t: &str| json!({"content": [{"type": "text", "text": t}]});
        assert_eq!(
            extract(&json!({"structuredContent": {"a": 1}, "content": []})),
            Some((Source::Structured, json!({"a": 1})))
        );
        assert_eq!(
            extract(
                &json!({"structuredContent": null, "content": [{"type": "text", "text": "[1]"}]})
            ),
            Some((Source::JsonText, json!([1])))
        );
        assert_eq!(
            extract(&text("\u{feff}\n {\"a\": true} \u{2028}")),
            Some((Source::JsonText, json!({"a": true})))
        );
        assert_eq!(
            extract(&text("hello {")),
            Some((Source::Content, json!({"text": true})))
        );
        assert_eq!(
            extract(&text("{not json")),
            Some((Source::Content, json!({"text": true})))
        );
        assert_eq!(
            extract(
                &json!({"content": [{"type": "text", "text": "{}"}, {"type": "image"}, {"type": 5}, {"type": "text"}]})
            ),
            Some((
                Source::Content,
                json!({"text": true, "image": true, "unknown": true})
            ))
        );
        assert_eq!(extract(&json!({})), Some((Source::Content, json!({}))));
        assert_eq!(
            extract(&json!({"isError": true, "structuredContent": {}})),
            None
        );
        assert_eq!(extract(&json!("x")), None);
    }

    #[test]
    fn inference_matches_the_lockfile_example() {
        let samples = vec![
            json!({"fetchedAt": "a", "cursor": null, "entries": [{"id": "1", "score": 1, "tags": [], "note": "n"}]}),
            json!({"fetchedAt": "b", "cursor": "c", "entries": [{"id": "2", "score": 2.5, "tags": ["x"], "note": "m"}]}),
            json!({"fetchedAt": "c", "cursor": "d", "entries": [{"id": "3", "score": 3, "tags": ["y", "z"]}]}),
        ];
        let s: Vec<(Source, Value)> = samples
            .into_iter()
            .map(|v| (Source::Structured, v))
            .collect();
        let expected = r#"{"source":"structured","samples":3,"shape":{"types":["object"],"objectCount":3,"properties":{"fetchedAt":{"seen":3,"shape":{"types":["string"]}},"cursor":{"seen":3,"shape":{"types":["null","string"]}},"entries":{"seen":3,"shape":{"types":["array"],"items":{"types":["object"],"objectCount":3,"properties":{"id":{"seen":3,"shape":{"types":["string"]}},"score":{"seen":3,"shape":{"types":["number"]}},"tags":{"seen":3,"shape":{"types":["array"],"items":{"types":["string"]}}},"note":{"seen":2,"shape":{"types":["string"]}}}}}}}}}"#;
        assert_eq!(to_compact(&infer(&s).unwrap()), expected);
        let content =
            infer(&[extract(&json!({"content": [{"type": "text", "text": "hi"}]})).unwrap()])
                .unwrap();
        assert_eq!(
            to_compact(&content),
            r#"{"source":"content","samples":1,"shape":{"types":["object"],"objectCount":1,"properties":{"text":{"seen":1,"shape":{"types":["boolean"]}}}}}"#
        );
        // A non-empty array before any object puts `items` first.
        let mixed = infer(&[
            (Source::Structured, json!([1])),
            (Source::Structured, json!({})),
        ])
        .unwrap();
        assert_eq!(
            to_compact(&mixed["shape"]),
            r#"{"types":["array","object"],"items":{"types":["number"]},"objectCount":1,"properties":{}}"#
        );
    }

    #[test]
    fn inference_limits() {
        let mut deep = json!(1);
        for _ in 0..100 {
            deep = json!({ "a": deep });
        }
        assert_eq!(
            infer(&[(Source::Structured, deep)]).unwrap_err(),
            "Output exceeds maximum depth of 64 (untrusted input protection)"
        );
        let wide: Map<String, Value> = (0..1001).map(|i| (format!("k{i}"), json!(1))).collect();
        assert_eq!(
            infer(&[(Source::Structured, Value::Object(wide))]).unwrap_err(),
            "Output object has 1001 properties, limit is 1000 (untrusted input protection)"
        );
        assert_eq!(
            infer(&[
                (Source::Structured, json!({})),
                (Source::JsonText, json!({}))
            ])
            .unwrap_err(),
            "inconsistent output kind across samples (structured vs json-text)"
        );
        let mut long: Vec<Value> = vec![json!(1); 100];
        long.push(json!("ignored"));
        let s = infer(&[(Source::Structured, Value::Array(long))]).unwrap();
        assert_eq!(s["shape"]["items"]["types"], json!(["number"]));
        // Keys like __proto__ and constructor are ordinary.
        let s = infer(&[(
            Source::Structured,
            json!({"__proto__": 1, "constructor": "x", "toString": true, "hasOwnProperty": null}),
        )])
        .unwrap();
        assert_eq!(s["shape"]["properties"].as_object().unwrap().len(), 4);
    }

    #[test]
    fn sampling_outcomes() {
        let ok = |v: Value| -> CallOutcome { Ok(json!({"structuredContent": v})) };
        let tool_err: CallOutcome = Ok(json!({"isError": true, "content": []}));
        let (shape, note) = sample_tool(
            "t",
            &[
                ok(json!({"a": 1})),
                ok(json!({"a": 2})),
                ok(json!({"a": 3})),
            ],
        );
        assert_eq!(shape.unwrap()["samples"], json!(3));
        assert_eq!(note, None);
        let (shape, note) = sample_tool(
            "t",
            &[
                ok(json!({"a": 1})),
                Err(RpcError::request_timeout()),
                ok(json!({"a": 2})),
            ],
        );
        assert_eq!(shape.unwrap()["samples"], json!(2));
        let note = note.unwrap();
        assert_eq!(note.status, NoteStatus::Partial);
        assert_eq!(note.reason, "1 of 3 samples failed (last error: MCP error -32001: Request timed out (raised locally by mcpward, not sent by the server)); shape inferred from 2");
        let (shape, note) = sample_tool("t", &[tool_err.clone(), tool_err.clone(), tool_err]);
        assert!(shape.is_none());
        assert_eq!(
            note.unwrap().reason,
            "no successful sample out of 3 (last error: tool returned isError: true)"
        );
        let (shape, note) = sample_tool(
            "t",
            &[
                Ok(json!({"structuredContent": {}})),
                Ok(json!({"content": []})),
            ],
        );
        assert!(shape.is_none());
        assert_eq!(
            note.unwrap().reason,
            "inconsistent output kind across samples (structured vs content)"
        );
    }

    fn shape_of(src: Source, samples: &[Value]) -> Value {
        infer(&samples.iter().map(|v| (src, v.clone())).collect::<Vec<_>>()).unwrap()
    }

    fn msgs(b: &Value, c: &Value) -> Vec<(DriftClass, String)> {
        diff_shapes("t", b, c)
            .into_iter()
            .map(|ch| (ch.class, ch.message))
            .collect()
    }

    #[test]
    fn shape_diff_messages() {
        use DriftClass::{BreakingOutputShapeChange as B, NonbreakingOutputShapeChange as N};
        let st = |v: Value| shape_of(Source::Structured, &[v.clone(), v.clone(), v]);
        let sfx = " (inferred; baseline 3 sample(s), current 3 sample(s))";
        let m = |s: &str| format!("Tool \"t\" output {s}{sfx}");
        assert_eq!(
            msgs(
                &st(json!({"status": "ok", "uptime": 1, "checkedAt": "x"})),
                &st(json!({"status": "ok", "checkedAt": "x"}))
            ),
            vec![(B, m("$.uptime was removed"))]
        );
        assert_eq!(
            msgs(
                &st(json!({"id": 1, "owner": {"id": 1, "name": "a"}})),
                &st(json!({"id": 1, "owner": "a"}))
            ),
            vec![(B, m("$.owner type changed from object to string"))]
        );
        assert_eq!(
            msgs(&st(json!({"p50": 1})), &st(json!({"p50": 1, "p99": 2}))),
            vec![(N, m("$.p99 was added"))]
        );
        assert_eq!(
            msgs(&st(json!({"a": "x"})), &st(json!({"a": null}))),
            vec![(B, m("$.a type changed from string to null"))]
        );
        assert_eq!(
            msgs(
                &st(json!({"a": "x"})),
                &shape_of(
                    Source::Structured,
                    &[json!({"a": "x"}), json!({"a": null}), json!({"a": 1})]
                )
            ),
            vec![(B, m("$.a now also returns null | number"))]
        );
        assert_eq!(
            msgs(
                &shape_of(
                    Source::Structured,
                    &[json!({"a": "x"}), json!({"a": null}), json!({"a": 1})]
                ),
                &st(json!({"a": "x"}))
            ),
            vec![(N, m("$.a no longer returns null | number"))]
        );
        // Values vary, structure does not: no change.
        let feed1 = shape_of(
            Source::Structured,
            &[
                json!({"n": 1, "cursor": null, "note": "a"}),
                json!({"n": 2, "cursor": "x"}),
                json!({"n": 3, "cursor": "y", "note": "b"}),
            ],
        );
        let feed2 = shape_of(
            Source::Structured,
            &[
                json!({"n": 9, "cursor": "q", "note": "z"}),
                json!({"n": 8, "cursor": null}),
                json!({"n": 7, "cursor": "r"}),
            ],
        );
        assert_eq!(msgs(&feed1, &feed2), vec![]);
        // Optional vs always-present.
        let no_note = shape_of(
            Source::Structured,
            &[
                json!({"n": 1, "cursor": null}),
                json!({"n": 1, "cursor": "x"}),
                json!({"n": 1, "cursor": "y"}),
            ],
        );
        assert_eq!(
            msgs(&feed1, &no_note),
            vec![(N, m("$.note was not observed (was optional)"))]
        );
        assert_eq!(msgs(&no_note, &feed1), vec![(N, m("$.note was added"))]);
        let opt = shape_of(
            Source::Structured,
            &[json!({"a": 1}), json!({}), json!({"a": 1})],
        );
        assert_eq!(
            msgs(&st(json!({"a": 1})), &opt),
            vec![(
                B,
                m("$.a became optional (present in 2 of 3 observed objects)")
            )]
        );
        assert_eq!(
            msgs(&opt, &st(json!({"a": 1}))),
            vec![(N, m("$.a became always-present"))]
        );
        // Nested arrays, content kinds, source change, sample counts.
        assert_eq!(
            msgs(
                &st(json!({"list": [{"name": "a", "id": 1}]})),
                &st(json!({"list": [{"id": 1}]}))
            ),
            vec![(B, m("$.list[].name was removed"))]
        );
        let text = shape_of(Source::Content, &[json!({"text": true})]);
        let image = shape_of(
            Source::Content,
            &[json!({"image": true}), json!({"image": true})],
        );
        let sfx2 = " (inferred; baseline 1 sample(s), current 2 sample(s))";
        assert_eq!(
            msgs(&text, &image),
            vec![
                (B, format!("Tool \"t\" output $.text was removed{sfx2}")),
                (N, format!("Tool \"t\" output $.image was added{sfx2}")),
            ]
        );
        assert_eq!(msgs(&st(json!({})), &shape_of(Source::JsonText, &[json!({})])),
            vec![(B, "Tool \"t\" output format changed from structuredContent to JSON text content (inferred; baseline 3 sample(s), current 1 sample(s))".to_string())]);
        // Prototype-looking keys.
        let proto =
            st(json!({"constructor": 1, "__proto__": 1, "toString": 1, "hasOwnProperty": 1}));
        assert_eq!(msgs(&proto, &proto), vec![]);
        assert_eq!(
            msgs(
                &proto,
                &st(json!({"constructor": 1, "toString": 1, "hasOwnProperty": 1}))
            ),
            vec![(B, m("$.__proto__ was removed"))]
        );
        // Garbage shapes from a hand-edited lockfile do not panic.
        assert_eq!(
            msgs(
                &json!({"source": "structured", "shape": 5}),
                &json!({"source": "structured", "shape": {"types": "x", "properties": []}})
            )
            .len(),
            0
        );
    }
}
