//! How the 2026-07-28 era reads answers (protocol-2026-07-28.md §3.2–§3.4, §6.1, §10.3,
//! §11): the verdict on a `server/discover` answer (which era the server speaks), the
//! version choice, and how to proceed with a `tools/call` or `tools/list` result. Pure.

use crate::observed::RpcError;
use crate::protocol::envelope::{
    CODE_HEADER_MISMATCH, CODE_MISSING_CAPABILITY, CODE_UNSUPPORTED_VERSION,
};
use crate::protocol::versions::{LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::surface::text::truncate;
use serde_json::{Map, Value};

/// MRTR: attempts in total for one `tools/call` (§10.3).
pub const MAX_MRTR_ATTEMPTS: usize = 5;

// ---------------------------------------------------------------------------------------
// Era classification (§3.2, §3.3, §3.4, §11)
// ---------------------------------------------------------------------------------------

/// What the stdio probe got.
#[derive(Debug, Clone, PartialEq)]
pub enum StdioProbe {
    Answered(Result<Value, RpcError>),
    /// No answer within `connect_ms`.
    Silent,
}

/// The verdict on a `server/discover` answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A result with a `supportedVersions` array.
    Modern(Value),
    /// `-32022` (or an error shaped like it): the versions the server listed.
    UnsupportedVersion(Vec<String>),
    /// `-32020` / `-32021`: a modern server rejected mcpward's request; no fallback.
    Rejected(String),
    /// HTTP 404 + `-32601`: modern server without `server/discover`.
    ModernWithoutDiscover(RpcError),
    /// Legacy evidence; the text says what the server answered.
    Legacy(String),
    /// stdio: silence or exit before answering; fall back on a fresh process.
    Respawn(String),
    /// Neither era: connection error.
    Fatal(String),
}

/// What a probe answer looked like, for messages.
pub fn describe_outcome(outcome: &Result<Value, RpcError>) -> String {
    match outcome {
        Ok(v) if v.get("supportedVersions").is_some() => format!(
            "a result whose supportedVersions is not an array: {}",
            truncate(&v.to_string(), 200)
        ),
        Ok(v) => format!(
            "a result without supportedVersions: {}",
            truncate(&v.to_string(), 200)
        ),
        Err(RpcError {
            code: Some(code),
            message,
            local: false,
            ..
        }) => format!("error {code} \"{}\"", truncate(message, 200)),
        Err(e) => e.to_string(),
    }
}

pub fn string_list(v: Option<&Value>) -> Option<Vec<String>> {
    let items = v?.as_array()?;
    items
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// The modern errors of §11 ("recognized modern error"), any status, any wire.
fn modern_error(e: &RpcError) -> Option<Verdict> {
    if e.local {
        return None;
    }
    let supported = e
        .data
        .as_ref()
        .and_then(|d| string_list(d.get("supported")));
    match (e.code, supported) {
        (_, Some(list)) => Some(Verdict::UnsupportedVersion(list)),
        (Some(CODE_UNSUPPORTED_VERSION), None) => Some(Verdict::UnsupportedVersion(Vec::new())),
        (Some(CODE_HEADER_MISMATCH | CODE_MISSING_CAPABILITY), _) => Some(Verdict::Rejected(
            format!("the server rejected mcpward's server/discover request: {e}"),
        )),
        _ => None,
    }
}

fn result_verdict(v: &Value) -> Verdict {
    if v.get("supportedVersions").is_some_and(Value::is_array) {
        Verdict::Modern(v.clone())
    } else {
        Verdict::Legacy(describe_outcome(&Ok(v.clone())))
    }
}

/// §3.2 step 3.
pub fn classify_stdio(probe: &StdioProbe) -> Verdict {
    match probe {
        StdioProbe::Silent => Verdict::Respawn("no answer to server/discover".into()),
        StdioProbe::Answered(Ok(v)) => result_verdict(v),
        StdioProbe::Answered(Err(e)) if e.local => Verdict::Respawn(format!(
            "the server closed the connection before answering server/discover ({e})"
        )),
        StdioProbe::Answered(Err(e)) => {
            modern_error(e).unwrap_or_else(|| Verdict::Legacy(describe_outcome(&Err(e.clone()))))
        }
    }
}

/// §3.3 step 2. `status` is the HTTP status of the answer (`None`: no HTTP answer).
pub fn classify_http(status: Option<u16>, outcome: &Result<Value, RpcError>) -> Verdict {
    // An OAuth step that failed says all there is to say (#17).
    if let Err(e) = outcome {
        if e.message.starts_with("OAuth step") {
            return Verdict::Fatal(e.message.clone());
        }
    }
    let Some(status) = status else {
        return Verdict::Fatal(format!(
            "server/discover got no HTTP answer: {}",
            describe_outcome(outcome)
        ));
    };
    if status == 401 || status == 403 {
        return Verdict::Fatal(format!(
            "server/discover was refused with HTTP {status} (authentication): {}",
            describe_outcome(outcome)
        ));
    }
    if status >= 500 {
        return Verdict::Fatal(format!(
            "server/discover failed with HTTP {status}: {}",
            describe_outcome(outcome)
        ));
    }
    match outcome {
        Ok(v) => result_verdict(v),
        Err(e) => {
            if let Some(v) = modern_error(e) {
                return v;
            }
            if status == 404 && e.code == Some(-32601) && !e.local {
                return Verdict::ModernWithoutDiscover(e.clone());
            }
            Verdict::Legacy(format!("HTTP {status} with {}", describe_outcome(outcome)))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum VersionChoice {
    Modern(String),
    Legacy(String),
    None,
}

/// §3.4: the newest modern version in common, else the newest legacy one, else none.
/// Versions compare as dates (ISO strings order lexically).
pub fn choose_version(list: &[String]) -> VersionChoice {
    let newest = |set: &[&str]| {
        list.iter()
            .filter(|v| set.contains(&v.as_str()))
            .max()
            .cloned()
    };
    if let Some(v) = newest(MODERN_VERSIONS) {
        VersionChoice::Modern(v)
    } else if let Some(v) = newest(LEGACY_VERSIONS) {
        VersionChoice::Legacy(v)
    } else {
        VersionChoice::None
    }
}

// ---------------------------------------------------------------------------------------
// Results (§6.1, §10.2, §10.3)
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
pub enum CallStep {
    /// `resultType` absent or `"complete"` (or not an object: the caller reports it).
    Complete,
    /// `input_required` with only `requestState`: retry with it.
    Retry(Value),
    /// `input_required` asking for client input; the methods asked for, sorted.
    InputRequests(Vec<String>),
    /// Error text without code.
    Invalid(String),
}

/// How to proceed with a modern `tools/call` result.
pub fn classify_call_result(r: &Value) -> CallStep {
    let Value::Object(o) = r else {
        return CallStep::Complete;
    };
    match o.get("resultType") {
        None => CallStep::Complete,
        Some(Value::String(t)) if t == "complete" => CallStep::Complete,
        Some(Value::String(t)) if t == "input_required" => {
            let requests = o.get("inputRequests");
            if let Some(Value::Object(reqs)) = requests {
                if !reqs.is_empty() {
                    let mut methods: Vec<String> = reqs
                        .values()
                        .map(|r| {
                            r.get("method")
                                .and_then(Value::as_str)
                                .unwrap_or("unknown")
                                .to_string()
                        })
                        .collect();
                    methods.sort();
                    methods.dedup();
                    return CallStep::InputRequests(methods);
                }
            } else if requests.is_some_and(|v| !v.is_null()) {
                return CallStep::Invalid("invalid result: inputRequests is not an object".into());
            }
            match o.get("requestState") {
                Some(s) if !s.is_null() => CallStep::Retry(s.clone()),
                _ => CallStep::Invalid(
                    "invalid result: input_required without inputRequests or requestState".into(),
                ),
            }
        }
        Some(Value::String(t)) => CallStep::Invalid(format!(
            "invalid result: unexpected resultType \"{}\"",
            t.escape_default()
        )),
        Some(other) => CallStep::Invalid(format!(
            "invalid result: resultType is not a string ({})",
            truncate(&other.to_string(), 100)
        )),
    }
}

/// A `tools/list` page whose `resultType` is other than absent/`complete` fails the
/// listing (§6.1); `n` is the page's number.
pub fn page_problem(page: &Map<String, Value>, n: usize) -> Option<String> {
    match page.get("resultType") {
        None => None,
        Some(Value::String(t)) if t == "complete" => None,
        Some(Value::String(t)) => Some(format!(
            "tools/list page {n}: invalid result: unexpected resultType \"{}\"",
            t.escape_default()
        )),
        Some(other) => Some(format!(
            "tools/list page {n}: invalid result: resultType is not a string ({})",
            truncate(&other.to_string(), 100)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(code: i64, data: Option<Value>) -> RpcError {
        RpcError::protocol(code, "m", data)
    }

    #[test]
    fn stdio_classification() {
        use Verdict::*;
        let modern = json!({"supportedVersions":["2026-07-28"],"capabilities":{}});
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Ok(modern.clone()))),
            Modern(modern)
        );
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Err(err(
                -32022,
                Some(json!({"supported":["2026-07-28"],"requested":"x"}))
            )))),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        // Pre-release drafts used -32004: recognised by the shape of data.supported.
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Err(err(
                -32004,
                Some(json!({"supported":["2026-07-28"]}))
            )))),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(err(-32020, None)))),
            Rejected(_)
        ));
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(err(-32021, None)))),
            Rejected(_)
        ));
        for code in [-32601, -32602, -32600, -32000, -32001] {
            assert_eq!(
                classify_stdio(&StdioProbe::Answered(Err(err(code, None)))),
                Legacy(format!("error {code} \"m\""))
            );
        }
        assert_eq!(
            classify_stdio(&StdioProbe::Answered(Ok(json!({"supportedVersions":"2026-07-28"})))),
            Legacy("a result whose supportedVersions is not an array: {\"supportedVersions\":\"2026-07-28\"}".into())
        );
        assert_eq!(
            classify_stdio(&StdioProbe::Silent),
            Respawn("no answer to server/discover".into())
        );
        assert!(matches!(
            classify_stdio(&StdioProbe::Answered(Err(RpcError::closed()))),
            Respawn(m) if m.starts_with("the server closed the connection")
        ));
    }

    #[test]
    fn http_classification() {
        use Verdict::*;
        let modern = json!({"supportedVersions":["2026-07-28"]});
        assert_eq!(
            classify_http(Some(200), &Ok(modern.clone())),
            Modern(modern)
        );
        assert_eq!(
            classify_http(
                Some(400),
                &Err(err(-32022, Some(json!({"supported":["2026-07-28"]}))))
            ),
            UnsupportedVersion(vec!["2026-07-28".into()])
        );
        assert!(matches!(
            classify_http(Some(400), &Err(err(-32020, None))),
            Rejected(_)
        ));
        assert!(matches!(
            classify_http(Some(404), &Err(err(-32601, None))),
            ModernWithoutDiscover(e) if e.code == Some(-32601)
        ));
        assert_eq!(
            classify_http(Some(200), &Err(err(-32601, None))),
            Legacy("HTTP 200 with error -32601 \"m\"".into())
        );
        assert_eq!(
            classify_http(Some(400), &Err(err(-32000, None))),
            Legacy("HTTP 400 with error -32000 \"m\"".into())
        );
        for s in [400, 404, 405, 406, 415] {
            assert!(matches!(
                classify_http(Some(s), &Err(RpcError::plain(format!("HTTP {s}: ")))),
                Legacy(_)
            ));
        }
        assert!(matches!(
            classify_http(Some(200), &Ok(json!({}))),
            Legacy(_)
        ));
        for s in [401, 403, 500, 503] {
            assert!(matches!(
                classify_http(Some(s), &Err(RpcError::plain("x"))),
                Fatal(_)
            ));
        }
        // 401 even with a JSON-RPC body: auth, no fallback.
        assert!(matches!(
            classify_http(Some(401), &Err(err(-32601, None))),
            Fatal(_)
        ));
        assert!(matches!(
            classify_http(None, &Err(RpcError::plain("connection refused"))),
            Fatal(_)
        ));
    }

    #[test]
    fn version_choice() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            choose_version(&v(&["2025-11-25", "2026-07-28", "2099-01-01"])),
            VersionChoice::Modern("2026-07-28".into())
        );
        assert_eq!(
            choose_version(&v(&["2025-06-18", "2025-11-25"])),
            VersionChoice::Legacy("2025-11-25".into())
        );
        assert_eq!(choose_version(&v(&["1999-01-01"])), VersionChoice::None);
        assert_eq!(choose_version(&[]), VersionChoice::None);
    }

    #[test]
    fn call_result_steps() {
        assert_eq!(
            classify_call_result(&json!({"content":[]})),
            CallStep::Complete
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"complete"})),
            CallStep::Complete
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"input_required","requestState":"s1"})),
            CallStep::Retry(json!("s1"))
        );
        assert_eq!(
            classify_call_result(
                &json!({"resultType":"input_required","requestState":"s","inputRequests":{
                "b":{"method":"sampling/createMessage"},"a":{"method":"elicitation/create"}}})
            ),
            CallStep::InputRequests(vec![
                "elicitation/create".into(),
                "sampling/createMessage".into()
            ])
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"input_required"})),
            CallStep::Invalid(
                "invalid result: input_required without inputRequests or requestState".into()
            )
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":"task"})),
            CallStep::Invalid("invalid result: unexpected resultType \"task\"".into())
        );
        assert_eq!(
            classify_call_result(&json!({"resultType":1})),
            CallStep::Invalid("invalid result: resultType is not a string (1)".into())
        );
    }
}
