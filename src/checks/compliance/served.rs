//! `compliance/capabilities-served` (#14): what a server declares is what it serves. For
//! each optional method a declared capability must answer with a valid result; an
//! undeclared one must answer JSON-RPC -32601. Plan → records → judge like `plan.rs`: the
//! declared lists were already read by the surface listing ([`OtherSurface`]); every other
//! method is one raw probe the runner sends.

use super::rules;
use crate::model::Finding;
use crate::observed::{Era, OtherSurface, ProbeRecord, RawRequest, RpcError, ServerHello};
use crate::protocol::envelope::{envelope, with_envelope};
use crate::protocol::headers::modern_headers;
use serde_json::{json, Value};
use std::time::Duration;

/// The methods judged, each with the capability that declares it, in emission order.
pub const METHODS: [(&str, &str); 5] = [
    ("resources/list", "resources"),
    ("resources/templates/list", "resources"),
    ("prompts/list", "prompts"),
    ("logging/setLevel", "logging"),
    ("completion/complete", "completions"),
];

/// A probe waits at most this long: a server that ignores unknown methods must not hold the
/// run for the protocol layer's minute per method.
pub const PROBE_WAIT: Duration = Duration::from_secs(10);

/// The level `logging/setLevel` asks for: the highest, so a server that starts logging at
/// the level set sends as little as possible for the rest of the run.
pub const PROBE_LEVEL: &str = "emergency";

/// The reference `completion/complete` names when the surface offers none of its own.
pub const PROBE_PROMPT: &str = "mcpward-probe";

pub fn declared(hello: &ServerHello, cap: &str) -> bool {
    hello.capabilities.get(cap).is_some_and(|c| !c.is_null())
}

/// The listing of a list method in `other`, when the surface listing read it.
fn listed<'a>(other: &'a OtherSurface, method: &str) -> Option<&'a crate::observed::Listing> {
    match method {
        "prompts/list" => other.prompts.as_ref(),
        "resources/list" => other.resources.as_ref(),
        "resources/templates/list" => other.resource_templates.as_ref(),
        _ => None,
    }
}

/// A request for this connection's era: the modern envelope and headers, or plain.
pub fn request(hello: &ServerHello, method: &str, params: Value) -> RawRequest {
    let (params, headers) = match hello.era {
        Era::Modern => {
            let version = hello.protocol_version.as_str();
            let p = with_envelope(Some(params), &envelope(version));
            let h = modern_headers(version, method, &p, None);
            (p, h)
        }
        Era::Legacy => (params, Vec::new()),
    };
    RawRequest {
        method: method.into(),
        params,
        headers,
        wait: Some(PROBE_WAIT),
        timeout_msg: Some(format!("no answer within {} s", PROBE_WAIT.as_secs())),
        tagged_by: None,
    }
}

/// `completion/complete` arguments: the first listed prompt argument, else the first
/// template variable, else a made-up prompt (the server may then answer -32602: see
/// [`judge`]).
fn completion_params(other: &OtherSurface) -> Value {
    let prompts = other.prompts.as_ref().and_then(|l| l.as_ref().ok());
    for p in prompts.into_iter().flatten() {
        let name = p.get("name").and_then(Value::as_str);
        let arg = p
            .get("arguments")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().find_map(|a| a.get("name").and_then(Value::as_str)));
        if let (Some(name), Some(arg)) = (name, arg) {
            return json!({"ref": {"type": "ref/prompt", "name": name},
                          "argument": {"name": arg, "value": ""}});
        }
    }
    let templates = other
        .resource_templates
        .as_ref()
        .and_then(|l| l.as_ref().ok());
    for t in templates.into_iter().flatten() {
        let Some(uri) = t.get("uriTemplate").and_then(Value::as_str) else {
            continue;
        };
        let var = uri
            .split_once('{')
            .and_then(|(_, rest)| rest.split_once('}'))
            .map(|(v, _)| v.trim_start_matches(['+', '#', '/', '.', ';', '?', '&']))
            .and_then(|v| v.split([',', '*', ':']).next())
            .filter(|v| !v.is_empty());
        if let Some(var) = var {
            return json!({"ref": {"type": "ref/resource", "uri": uri},
                          "argument": {"name": var, "value": ""}});
        }
    }
    json!({"ref": {"type": "ref/prompt", "name": PROBE_PROMPT},
           "argument": {"name": "input", "value": ""}})
}

/// The probes to send: every judged method whose answer the surface listing does not hold.
pub fn plan(hello: &ServerHello, other: &OtherSurface) -> Vec<(&'static str, RawRequest)> {
    METHODS
        .iter()
        .filter(|(m, _)| listed(other, m).is_none())
        .map(|(m, _)| {
            let params = match *m {
                "logging/setLevel" => json!({"level": PROBE_LEVEL}),
                "completion/complete" => completion_params(other),
                _ => json!({}),
            };
            (*m, request(hello, m, params))
        })
        .collect()
}

/// What the probes of [`plan`] came back with, by method.
pub type Records = Vec<(&'static str, ProbeRecord)>;

fn is_code(e: &RpcError, code: i64) -> bool {
    e.code == Some(code) && !e.local
}

/// Why a result of `method` is not valid (`None`: valid).
fn invalid_result(method: &str, r: &Value) -> Option<String> {
    let Some(obj) = r.as_object() else {
        return Some("the result is not an object".into());
    };
    let member = match method {
        "resources/list" => "resources",
        "resources/templates/list" => "resourceTemplates",
        "prompts/list" => "prompts",
        "completion/complete" => {
            return match r.pointer("/completion/values") {
                Some(Value::Array(_)) => None,
                _ => Some("the result has no completion.values array".into()),
            }
        }
        _ => return None,
    };
    match obj.get(member) {
        Some(Value::Array(_)) => match obj.get("nextCursor") {
            None | Some(Value::String(_)) => None,
            Some(_) => Some("nextCursor is not a string".into()),
        },
        _ => Some(format!("the result has no \"{member}\" array")),
    }
}

/// Errors that still show the method exists: `completion/complete` may not know the
/// reference it was asked about (-32602; -32002 from servers that treat it as a missing
/// resource).
fn exists_error(method: &str, e: &RpcError) -> bool {
    method == "completion/complete" && (is_code(e, -32602) || is_code(e, -32002))
}

/// One result per method of [`METHODS`], in order. `records`: the probes of [`plan`].
pub fn judge(hello: &ServerHello, other: &OtherSurface, records: &Records) -> Vec<Finding> {
    METHODS
        .iter()
        .map(|(method, cap)| {
            if let Some(listing) = listed(other, method) {
                return judge_listed(method, cap, listing);
            }
            match records.iter().find(|(m, _)| m == method) {
                Some((_, r)) => judge_probe(hello, method, cap, &r.outcome),
                None => rules::CAPABILITIES_SERVED.skip(format!("{method} was not probed")),
            }
        })
        .collect()
}

fn judge_listed(method: &str, cap: &str, listing: &crate::observed::Listing) -> Finding {
    let r = &rules::CAPABILITIES_SERVED;
    match listing {
        Ok(items) => {
            let n = items.len();
            r.pass(format!(
                "{method} answers: capability \"{cap}\" is declared and served ({n} item{})",
                if n == 1 { "" } else { "s" }
            ))
        }
        Err(e) => r
            .fail(format!(
                "Capability \"{cap}\" is declared but {method} failed: {e}"
            ))
            .expected(format!("a valid {method} result"))
            .actual(e.as_str()),
    }
}

fn judge_probe(
    hello: &ServerHello,
    method: &str,
    cap: &str,
    outcome: &Result<Value, RpcError>,
) -> Finding {
    let r = &rules::CAPABILITIES_SERVED;
    let shown = |o: &Result<Value, RpcError>| match o {
        Ok(v) => crate::surface::text::truncate(&v.to_string(), 200),
        Err(e) => e.to_string(),
    };
    let not_found = matches!(outcome, Err(e) if is_code(e, -32601));
    // Removed in 2026-07-28 (the level is per request): -32601 whatever is declared.
    if method == "logging/setLevel" && hello.era == Era::Modern {
        if not_found {
            return r.pass(
                "logging/setLevel answers -32601: it was removed in 2026-07-28 (capability \
                 \"logging\" means the per-request logLevel)",
            );
        }
        return r
            .warn(format!(
                "logging/setLevel was removed in 2026-07-28, yet the server answered it: {}",
                shown(outcome)
            ))
            .expected("JSON-RPC error -32601")
            .actual(shown(outcome));
    }
    if declared(hello, cap) {
        let problem = match outcome {
            Ok(v) => invalid_result(method, v),
            Err(e) if exists_error(method, e) => None,
            Err(e) => Some(e.to_string()),
        };
        return match problem {
            None => r.pass(format!(
                "{method} answers: capability \"{cap}\" is declared and served"
            )),
            Some(why) => r
                .fail(format!(
                    "Capability \"{cap}\" is declared but {method} failed: {why}"
                ))
                .expected(format!("a valid {method} result"))
                .actual(shown(outcome)),
        };
    }
    if not_found {
        return r.pass(format!(
            "{method} answers -32601: capability \"{cap}\" is not declared"
        ));
    }
    let served = match outcome {
        Ok(_) => true,
        Err(e) => exists_error(method, e),
    };
    let message = if served {
        format!("Capability \"{cap}\" is not declared, yet the server serves {method}")
    } else {
        format!(
            "Capability \"{cap}\" is not declared, yet {method} did not answer -32601: {}",
            shown(outcome)
        )
    };
    r.warn(message)
        .expected("JSON-RPC error -32601 (or declare the capability)")
        .actual(shown(outcome))
}
