//! Compliance rules that exist only in the stateless 2026-07-28 era
//! (protocol-2026-07-28.md §12.2). Pure: they judge the connect-time discover result
//! (`ServerHello`) and the records of the probes `plan.rs` asked for (`ModernRecords`,
//! which do not exist in the legacy era).
//! `compliance/header-validation` and `compliance/stateless-http` exist only over HTTP.

use super::plan::{ModernRecords, PROBE_VERSION};
use super::rules;
#[cfg(test)]
use super::rules::RULES;
use crate::model::Finding;
#[cfg(test)]
use crate::model::Severity;
use crate::observed::{ProbeRecord, RpcError, ServerHello};
use crate::rules::types::Rule;
use serde_json::{json, Value};

const MAX_LISTED: usize = 5;

/// All modern-era compliance results, in the §12.2 order (the HTTP-only rules only over
/// HTTP).
pub fn check(hello: &ServerHello, obs: &ModernRecords) -> Vec<Finding> {
    let mut out = vec![
        discover(hello, obs),
        result_type(hello, obs),
        cache_hints(hello, obs),
        unsupported_version(hello, obs),
        meta_required(obs),
        unknown_method(obs),
    ];
    if obs.http {
        out.push(header_validation(obs));
        out.extend(stateless_http(obs));
    }
    out.push(subscriptions(obs));
    out
}

const ID_SUBSCRIPTIONS: Rule = rules::SUBSCRIPTIONS;

/// §12.2 `compliance/subscriptions`: only when discover advertised `tools.listChanged`,
/// the first message for a `subscriptions/listen` must be its acknowledgment.
pub fn subscriptions(obs: &ModernRecords) -> Finding {
    let Some(p) = obs.listen.as_ref().filter(|_| obs.listen_advertised) else {
        return ID_SUBSCRIPTIONS
            .skip("Server does not advertise tools.listChanged; subscriptions/listen not probed");
    };
    let expected = "notifications/subscriptions/acknowledged tagged with the listen request's id";
    if let Err(e) = &p.outcome {
        if e.code == Some(-32601) {
            return ID_SUBSCRIPTIONS.fail("Server advertises tools.listChanged but does not implement subscriptions/listen",
            )
            .expected(expected)
            .actual(e.to_string());
        }
    }
    let Some(first) = &p.tagged else {
        let got = match &p.outcome {
            Ok(_) => "a response without any acknowledgment".to_string(),
            Err(e) => e.to_string(),
        };
        return ID_SUBSCRIPTIONS
            .fail(format!("subscriptions/listen was not acknowledged: {got}"))
            .expected(expected)
            .actual(got);
    };
    let method = first.get("method").and_then(Value::as_str).unwrap_or("");
    let filter_ok = first
        .pointer("/params/notifications")
        .is_some_and(Value::is_object);
    if method == "notifications/subscriptions/acknowledged" && filter_ok {
        ID_SUBSCRIPTIONS.pass("subscriptions/listen acknowledged with its subscription id")
    } else {
        ID_SUBSCRIPTIONS.fail(format!("The first message for the subscription was {method:?}, not an acknowledgment with a notifications object"),
        )
        .expected(expected)
        .actual(first.clone())
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn listed(items: &[String]) -> String {
    let mut s = items
        .iter()
        .take(MAX_LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > MAX_LISTED {
        s.push_str(&format!(" (and {} more)", items.len() - MAX_LISTED));
    }
    s
}

fn is_ttl(v: &Value) -> bool {
    v.as_u64().is_some()
        || v.as_f64()
            .is_some_and(|f| f >= 0.0 && f.fract() == 0.0 && f.is_finite())
}

fn error_json(e: &RpcError) -> Value {
    json!({"code": e.code, "message": e.message})
}

fn probe_actual(rec: &ProbeRecord) -> Value {
    let mut v = match &rec.outcome {
        Ok(_) => json!({"result": true}),
        Err(e) => json!({"error": error_json(e)}),
    };
    if let (Some(s), Value::Object(o)) = (rec.status, &mut v) {
        o.insert("httpStatus".into(), json!(s));
    }
    v
}

/// The results §12 judges for resultType and cache hints: discover, then each page.
fn judged_results<'a>(hello: &'a ServerHello, obs: &'a ModernRecords) -> Vec<(String, &'a Value)> {
    let mut out = Vec::new();
    if let Some(d) = &hello.discover {
        out.push(("server/discover".to_string(), d));
    }
    for (i, p) in obs.pages.iter().enumerate() {
        out.push((format!("tools/list page {}", i + 1), p));
    }
    out
}

fn no_results(id: Rule, obs: &ModernRecords) -> Finding {
    let why = obs
        .listing_error
        .as_deref()
        .map(|e| format!(" (tools/list failed: {e})"))
        .unwrap_or_default();
    id.skip(format!(
        "No server/discover result or tools/list page to judge{why}"
    ))
}

pub fn discover(hello: &ServerHello, obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::DISCOVER;
    let Some(d) = &hello.discover else {
        let msg = match (&obs.discover_error, obs.discover_status) {
            (Some(e), Some(s)) if e.code == Some(-32601) => {
                format!("server/discover is not implemented (HTTP {s}, {e})")
            }
            (Some(e), _) if e.code == Some(-32601) => {
                format!("server/discover is not implemented ({e})")
            }
            (Some(e), _) => format!("server/discover failed: {e}"),
            (None, _) => "server/discover returned no result".to_string(),
        };
        return ID.fail(msg).actual(
            obs.discover_error
                .as_ref()
                .map(error_json)
                .unwrap_or(Value::Null),
        );
    };
    let Value::Object(o) = d else {
        return ID.fail(format!("DiscoverResult is {}, not an object", kind(d)));
    };
    let mut problems = Vec::new();
    match o.get("resultType") {
        None => problems.push("resultType is missing".to_string()),
        Some(Value::String(t)) if t == "complete" => {}
        Some(Value::String(t)) => problems.push(format!(
            "resultType is \"{}\", expected \"complete\"",
            t.escape_default()
        )),
        Some(v) => problems.push(format!("resultType is {}, not a string", kind(v))),
    }
    match o.get("supportedVersions") {
        Some(Value::Array(vs)) if vs.is_empty() => {
            problems.push("supportedVersions is empty".to_string())
        }
        Some(Value::Array(vs)) if vs.iter().any(|v| !v.is_string()) => {
            problems.push("supportedVersions contains a non-string entry".to_string())
        }
        Some(Value::Array(vs)) => {
            if !vs
                .iter()
                .any(|v| v.as_str() == Some(hello.protocol_version.as_str()))
            {
                problems.push(format!(
                    "supportedVersions does not contain the version in use ({})",
                    hello.protocol_version
                ));
            }
        }
        None => problems.push("supportedVersions is missing".to_string()),
        Some(v) => problems.push(format!("supportedVersions is {}, not an array", kind(v))),
    }
    match o.get("capabilities") {
        Some(Value::Object(_)) => {}
        None => problems.push("capabilities is missing".to_string()),
        Some(v) => problems.push(format!("capabilities is {}, not an object", kind(v))),
    }
    match o.get("ttlMs") {
        None => problems.push("ttlMs is missing".to_string()),
        Some(v) if !is_ttl(v) => problems.push(format!("ttlMs is not an integer >= 0 ({v})")),
        Some(_) => {}
    }
    match o.get("cacheScope") {
        None => problems.push("cacheScope is missing".to_string()),
        Some(Value::String(s)) if s == "public" || s == "private" => {}
        Some(v) => problems.push(format!(
            "cacheScope must be \"public\" or \"private\" (got {v})"
        )),
    }
    if !problems.is_empty() {
        return ID.fail(format!("DiscoverResult is invalid: {}", listed(&problems)));
    }
    if let Some(i) = o.get("instructions").filter(|i| !i.is_string()) {
        return ID.warn(format!(
            "DiscoverResult instructions is {}, not a string",
            kind(i)
        ));
    }
    ID.pass(format!(
        "server/discover returned a valid DiscoverResult (supportedVersions: {})",
        o.get("supportedVersions").cloned().unwrap_or(Value::Null)
    ))
}

pub fn result_type(hello: &ServerHello, obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::RESULT_TYPE;
    let results = judged_results(hello, obs);
    if results.is_empty() {
        return no_results(ID, obs);
    }
    let mut problems = Vec::new();
    for (at, r) in &results {
        match r.get("resultType") {
            Some(Value::String(t)) if t == "complete" => {}
            None => problems.push(format!("{at}: missing")),
            Some(Value::String(t)) => problems.push(format!(
                "{at}: \"{}\" instead of \"complete\"",
                t.escape_default()
            )),
            Some(v) => problems.push(format!("{at}: {}, not a string", kind(v))),
        }
    }
    if problems.is_empty() {
        ID.pass(format!(
            "All {} result(s) carry resultType \"complete\"",
            results.len()
        ))
    } else {
        ID.fail(format!(
            "resultType missing or invalid on {} of {} result(s): {}",
            problems.len(),
            results.len(),
            listed(&problems)
        ))
    }
}

pub fn cache_hints(hello: &ServerHello, obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::CACHE_HINTS;
    let results = judged_results(hello, obs);
    if results.is_empty() {
        return no_results(ID, obs);
    }
    let mut problems = Vec::new();
    for (at, r) in &results {
        match r.get("ttlMs") {
            None => problems.push(format!("{at}: ttlMs missing")),
            Some(v) if !is_ttl(v) => {
                problems.push(format!("{at}: ttlMs is not an integer >= 0 ({v})"))
            }
            Some(_) => {}
        }
        match r.get("cacheScope") {
            None => problems.push(format!("{at}: cacheScope missing")),
            Some(Value::String(s)) if s == "public" || s == "private" => {}
            Some(v) => problems.push(format!(
                "{at}: cacheScope must be \"public\" or \"private\" (got {v})"
            )),
        }
    }
    let scopes: Vec<(usize, &str)> = obs
        .pages
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.get("cacheScope")
                .and_then(Value::as_str)
                .map(|s| (i + 1, s))
        })
        .collect();
    if let Some(&(first_page, first)) = scopes.first() {
        if let Some(&(page, other)) = scopes.iter().find(|(_, s)| *s != first) {
            problems.push(format!(
                "cacheScope differs between pages of one listing (\"{}\" on page {first_page}, \"{}\" on page {page})",
                first.escape_default(),
                other.escape_default()
            ));
        }
    }
    if problems.is_empty() {
        ID.pass(format!(
                "ttlMs and cacheScope are valid on all {} result(s), with one cacheScope across the listing",
                results.len()
            ),
        )
    } else {
        ID.fail(format!(
            "Cache hints missing or invalid: {}",
            listed(&problems)
        ))
    }
}

/// `Ok(error)` when the probe got JSON-RPC error `code` (and, over HTTP, `status`);
/// otherwise the failure text.
fn expect_error<'a>(
    rec: &'a ProbeRecord,
    what: &str,
    code: i64,
    http: bool,
    status: u16,
) -> Result<&'a RpcError, String> {
    let e = match &rec.outcome {
        Ok(_) => {
            return Err(format!(
                "{what} was answered with a result instead of error {code}"
            ))
        }
        Err(e) if e.local || e.code.is_none() => {
            return Err(format!(
                "{what} got no JSON-RPC error (expected {code}): {e}"
            ))
        }
        Err(e) => e,
    };
    if e.code != Some(code) {
        return Err(format!("{what} got {e} instead of error {code}"));
    }
    if http && rec.status != Some(status) {
        let got = rec
            .status
            .map(|s| s.to_string())
            .unwrap_or_else(|| "none".into());
        return Err(format!(
            "{what} got error {code} with HTTP status {got}, expected {status}"
        ));
    }
    Ok(e)
}

fn not_probed(id: Rule) -> Finding {
    id.skip("The probe was not run")
}

pub fn unsupported_version(hello: &ServerHello, obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::UNSUPPORTED_VERSION;
    let Some(rec) = &obs.unsupported_version else {
        return not_probed(ID);
    };
    let what = format!("server/discover with protocol version {PROBE_VERSION}");
    let e = match expect_error(rec, &what, -32022, obs.http, 400) {
        Ok(e) => e,
        Err(m) => return ID.fail(m).actual(probe_actual(rec)),
    };
    let data = e.data.as_ref();
    let supported: Option<Vec<&str>> = data
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_str).collect());
    let supported = match supported {
        Some(s) if !s.is_empty() => s,
        _ => {
            return ID
                .fail("-32022 error data.supported is not a non-empty array of strings")
                .actual(data.cloned().unwrap_or(Value::Null))
        }
    };
    if hello.discover.is_some() {
        let unknown: Vec<&str> = supported
            .iter()
            .copied()
            .filter(|v| !hello.supported_versions.iter().any(|s| s == v))
            .collect();
        if !unknown.is_empty() {
            return ID.fail(format!(
                    "-32022 error data.supported lists versions missing from server/discover supportedVersions: {}",
                    unknown.join(", ")
                ),
            );
        }
    }
    let requested = data.and_then(|d| d.get("requested"));
    if requested.and_then(Value::as_str) != Some(PROBE_VERSION) {
        return ID.fail(format!(
            "-32022 error data.requested is {}, expected \"{PROBE_VERSION}\"",
            requested
                .map(Value::to_string)
                .unwrap_or_else(|| "missing".into())
        ));
    }
    ID.pass(format!(
        "{what} was rejected with -32022 listing the supported versions"
    ))
}

pub fn meta_required(obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::META_REQUIRED;
    let Some(rec) = &obs.meta_required else {
        return not_probed(ID);
    };
    let what = "tools/list without io.modelcontextprotocol/clientCapabilities";
    match expect_error(rec, what, -32602, obs.http, 400) {
        Ok(_) => ID.pass(format!("{what} was rejected with -32602")),
        Err(m) => ID.fail(m).actual(probe_actual(rec)),
    }
}

pub fn unknown_method(obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::UNKNOWN_METHOD;
    let Some(rec) = &obs.unknown_method else {
        return not_probed(ID);
    };
    if rec.outcome.is_ok() {
        return ID.warn("The server still answers ping with a result; ping was removed in 2026-07-28 (expected error -32601)",
        )
        .actual(probe_actual(rec));
    }
    match expect_error(rec, "ping", -32601, obs.http, 404) {
        Ok(_) => ID.pass("ping (removed in 2026-07-28) was rejected with -32601"),
        Err(m) => ID.fail(m).actual(probe_actual(rec)),
    }
}

pub fn header_validation(obs: &ModernRecords) -> Finding {
    const ID: Rule = rules::HEADER_VALIDATION;
    let Some(rec) = &obs.header_mismatch else {
        return not_probed(ID);
    };
    let what = format!(
        "server/discover with header MCP-Protocol-Version different from the envelope version {PROBE_VERSION}"
    );
    if let Err(m) = expect_error(rec, &what, -32020, true, 400) {
        return ID.fail(m).actual(probe_actual(rec));
    }
    if let Some(rec2) = &obs.header_missing_method {
        if let Err(m) = expect_error(
            rec2,
            "server/discover without Mcp-Method",
            -32020,
            true,
            400,
        ) {
            return ID.warn(m).actual(probe_actual(rec2));
        }
    }
    ID.pass(
        "Header/body mismatches and a missing Mcp-Method were rejected with HTTP 400 and -32020",
    )
}

pub fn stateless_http(obs: &ModernRecords) -> Vec<Finding> {
    const ID: Rule = rules::STATELESS_HTTP;
    let mut out = Vec::new();
    for (verb, st) in [("GET", &obs.get_status), ("DELETE", &obs.delete_status)] {
        match st {
            Some(Ok(405)) | None => {}
            Some(Ok(s)) => out.push(
                ID.warn(format!("{verb} on the endpoint answered HTTP {s}, expected 405 (no GET stream or session in 2026-07-28)"),
                )
                .actual(json!({"httpStatus": s})),
            ),
            Some(Err(e)) => out.push(ID.warn(format!("{verb} on the endpoint got no HTTP answer, expected 405: {e}"),
            )),
        }
    }
    if let Some(first) = obs.session_ids.first() {
        out.push(
            ID.warn(format!(
                    "{} modern response(s) carried an Mcp-Session-Id header (first: \"{}\"); 2026-07-28 has no sessions",
                    obs.session_ids.len(),
                    first.escape_default()
                ),
            )
            .actual(json!(obs.session_ids)),
        );
    }
    if out.is_empty() {
        let verbs = if obs.get_status.is_some() {
            "GET and DELETE answered 405"
        } else {
            "GET and DELETE not probed"
        };
        out.push(ID.pass(format!(
            "The endpoint is stateless: {verbs}, no Mcp-Session-Id on responses"
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;
    use crate::observed::Era;

    fn discover_ok() -> Value {
        json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},
               "ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}})
    }

    fn hello(discover: Option<Value>) -> ServerHello {
        ServerHello {
            era: Era::Modern,
            protocol_version: "2026-07-28".into(),
            server_info: Value::Null,
            capabilities: json!({}),
            instructions: None,
            supported_versions: vec!["2026-07-28".into()],
            discover,
        }
    }

    fn err(code: i64, data: Option<Value>, status: Option<u16>) -> Option<ProbeRecord> {
        Some(ProbeRecord::new(
            status,
            Err(RpcError::protocol(code, "m", data)),
        ))
    }

    fn page() -> Value {
        json!({"resultType":"complete","ttlMs":1000,"cacheScope":"private"})
    }

    fn clean(http: bool) -> ModernRecords {
        let st = |s: u16| http.then_some(s);
        ModernRecords {
            http,
            discover_status: st(200),
            pages: vec![page(), page()],
            unsupported_version: err(
                -32022,
                Some(json!({"supported":["2026-07-28"],"requested":"1900-01-01"})),
                st(400),
            ),
            meta_required: err(-32602, None, st(400)),
            unknown_method: err(-32601, None, st(404)),
            header_mismatch: if http {
                err(-32020, None, Some(400))
            } else {
                None
            },
            header_missing_method: if http {
                err(-32020, None, Some(400))
            } else {
                None
            },
            get_status: http.then_some(Ok(405)),
            delete_status: http.then_some(Ok(405)),
            ..Default::default()
        }
    }

    fn summary(fs: &[Finding]) -> Vec<(String, Status, String)> {
        fs.iter()
            .map(|f| (f.id.clone(), f.status, f.message.clone()))
            .collect()
    }

    #[test]
    fn clean_server_passes_everything_in_order() {
        let fs = check(&hello(Some(discover_ok())), &clean(true));
        let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "compliance/discover",
                "compliance/result-type",
                "compliance/cache-hints",
                "compliance/unsupported-version",
                "compliance/meta-required",
                "compliance/unknown-method",
                "compliance/header-validation",
                "compliance/stateless-http",
                "compliance/subscriptions"
            ]
        );
        // listChanged is not advertised: subscriptions is a skip, everything else passes.
        let (last, rest) = fs.split_last().unwrap();
        assert_eq!(last.status, Status::Skip);
        assert!(rest.iter().all(|f| f.status == Status::Pass), "{fs:#?}");
        assert!(fs.iter().all(|f| f.severity == Severity::Info));
        // Over stdio the two HTTP-only rules do not exist.
        let fs = check(&hello(Some(discover_ok())), &clean(false));
        assert_eq!(fs.len(), 7);
        assert!(fs[..6].iter().all(|f| f.status == Status::Pass), "{fs:#?}");
        // Every rule id emitted is in RULES.
        for f in check(&hello(Some(discover_ok())), &clean(true)) {
            assert!(RULES.iter().any(|r| r.id == f.id));
        }
    }

    #[test]
    fn discover_failures() {
        let mut obs = clean(true);
        obs.discover_status = Some(404);
        obs.discover_error = Some(RpcError::protocol(-32601, "Method not found", None));
        let f = discover(&hello(None), &obs);
        assert_eq!(f.status, Status::Fail);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            f.message,
            "server/discover is not implemented (HTTP 404, MCP error -32601: Method not found)"
        );
        let f = discover(
            &hello(Some(
                json!({"supportedVersions":["2025-11-25"],"capabilities":[],"ttlMs":-1,"cacheScope":"shared"}),
            )),
            &clean(true),
        );
        assert_eq!(
            f.message,
            "DiscoverResult is invalid: resultType is missing; supportedVersions does not contain the version in use (2026-07-28); capabilities is an array, not an object; ttlMs is not an integer >= 0 (-1); cacheScope must be \"public\" or \"private\" (got \"shared\")"
        );
        let mut d = discover_ok();
        d["instructions"] = json!(5);
        let f = discover(&hello(Some(d)), &clean(true));
        assert_eq!(
            (f.status, f.message.as_str()),
            (
                Status::Warn,
                "DiscoverResult instructions is a number, not a string"
            )
        );
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(
            discover(&hello(Some(json!("x"))), &clean(true)).message,
            "DiscoverResult is a string, not an object"
        );
    }

    #[test]
    fn result_type_and_cache_hints() {
        let mut obs = clean(false);
        obs.pages = vec![
            json!({"ttlMs":0,"cacheScope":"private"}),
            json!({"resultType":7,"ttlMs":1.5,"cacheScope":"public"}),
        ];
        let fs = summary(&[
            result_type(&hello(Some(discover_ok())), &obs),
            cache_hints(&hello(Some(discover_ok())), &obs),
        ]);
        assert_eq!(
            fs,
            vec![
                (
                    "compliance/result-type".to_string(),
                    Status::Fail,
                    "resultType missing or invalid on 2 of 3 result(s): tools/list page 1: missing; tools/list page 2: a number, not a string".to_string()
                ),
                (
                    "compliance/cache-hints".to_string(),
                    Status::Fail,
                    "Cache hints missing or invalid: tools/list page 2: ttlMs is not an integer >= 0 (1.5); cacheScope differs between pages of one listing (\"private\" on page 1, \"public\" on page 2)".to_string()
                ),
            ]
        );
        // Only the scope differs.
        obs.pages = vec![
            page(),
            json!({"resultType":"complete","ttlMs":0,"cacheScope":"public"}),
        ];
        let f = cache_hints(&hello(Some(discover_ok())), &obs);
        assert_eq!(f.status, Status::Fail);
        // Missing hints on discover.
        let mut d = discover_ok();
        d.as_object_mut().unwrap().remove("ttlMs");
        obs.pages = vec![page()];
        assert_eq!(
            cache_hints(&hello(Some(d)), &obs).message,
            "Cache hints missing or invalid: server/discover: ttlMs missing"
        );
        // Nothing to judge.
        obs.pages.clear();
        obs.listing_error = Some("boom".into());
        let f = result_type(&hello(None), &obs);
        assert_eq!(
            (f.status, f.message.as_str()),
            (
                Status::Skip,
                "No server/discover result or tools/list page to judge (tools/list failed: boom)"
            )
        );
        // More than five problems are summarised.
        obs.pages = vec![json!({}); 7];
        let f = result_type(&hello(None), &obs);
        assert!(
            f.message
                .ends_with("tools/list page 5: missing (and 2 more)"),
            "{}",
            f.message
        );
    }

    #[test]
    fn probe_rules_fail_on_wrong_answers() {
        let h = hello(Some(discover_ok()));
        let mut obs = clean(true);
        obs.unsupported_version = Some(ProbeRecord::new(Some(200), Ok(json!({}))));
        assert_eq!(
            unsupported_version(&h, &obs).message,
            "server/discover with protocol version 1900-01-01 was answered with a result instead of error -32022"
        );
        obs.unsupported_version = err(
            -32022,
            Some(json!({"supported":["2026-07-28"],"requested":"1900-01-01"})),
            Some(200),
        );
        assert_eq!(
            unsupported_version(&h, &obs).message,
            "server/discover with protocol version 1900-01-01 got error -32022 with HTTP status 200, expected 400"
        );
        obs.unsupported_version = err(
            -32022,
            Some(json!({"supported":[],"requested":"1900-01-01"})),
            Some(400),
        );
        assert_eq!(
            unsupported_version(&h, &obs).message,
            "-32022 error data.supported is not a non-empty array of strings"
        );
        obs.unsupported_version = err(
            -32022,
            Some(json!({"supported":["2099-01-01"],"requested":"1900-01-01"})),
            Some(400),
        );
        assert_eq!(
            unsupported_version(&h, &obs).message,
            "-32022 error data.supported lists versions missing from server/discover supportedVersions: 2099-01-01"
        );
        obs.unsupported_version = err(-32022, Some(json!({"supported":["2026-07-28"]})), Some(400));
        assert_eq!(
            unsupported_version(&h, &obs).message,
            "-32022 error data.requested is missing, expected \"1900-01-01\""
        );
        obs.unsupported_version = Some(ProbeRecord::new(None, Err(RpcError::request_timeout())));
        assert!(unsupported_version(&h, &obs).message.starts_with(
            "server/discover with protocol version 1900-01-01 got no JSON-RPC error (expected -32022): MCP error -32001: Request timed out (raised locally"
        ));

        obs.meta_required = err(-32600, None, Some(400));
        let f = meta_required(&obs);
        assert_eq!(
            (f.status, f.message.as_str()),
            (Status::Fail, "tools/list without io.modelcontextprotocol/clientCapabilities got MCP error -32600: m instead of error -32602")
        );
        // stdio: no status needed.
        obs.http = false;
        obs.meta_required = err(-32602, None, None);
        assert_eq!(meta_required(&obs).status, Status::Pass);
        obs.http = true;

        obs.unknown_method = Some(ProbeRecord::new(Some(200), Ok(json!({}))));
        let f = unknown_method(&obs);
        assert_eq!(f.status, Status::Warn);
        assert_eq!(f.message, "The server still answers ping with a result; ping was removed in 2026-07-28 (expected error -32601)");
        obs.unknown_method = err(-32601, None, Some(400));
        assert_eq!(
            unknown_method(&obs).message,
            "ping got error -32601 with HTTP status 400, expected 404"
        );

        obs.header_mismatch = err(-32022, None, Some(400));
        let f = header_validation(&obs);
        assert_eq!(f.status, Status::Fail);
        assert_eq!(f.message, "server/discover with header MCP-Protocol-Version different from the envelope version 1900-01-01 got MCP error -32022: m instead of error -32020");
        obs.header_mismatch = err(-32020, None, Some(400));
        obs.header_missing_method = Some(ProbeRecord::new(Some(200), Ok(json!({}))));
        let f = header_validation(&obs);
        assert_eq!(
            (f.status, f.message.as_str()),
            (Status::Warn, "server/discover without Mcp-Method was answered with a result instead of error -32020")
        );
    }

    #[test]
    fn stateless_http_warns_per_deviation() {
        let mut obs = clean(true);
        obs.get_status = Some(Ok(200));
        obs.delete_status = Some(Err("connection reset".into()));
        obs.session_ids = vec!["abc".into(), "def".into()];
        let fs = summary(&stateless_http(&obs));
        assert_eq!(
            fs,
            vec![
                ("compliance/stateless-http".to_string(), Status::Warn, "GET on the endpoint answered HTTP 200, expected 405 (no GET stream or session in 2026-07-28)".to_string()),
                ("compliance/stateless-http".to_string(), Status::Warn, "DELETE on the endpoint got no HTTP answer, expected 405: connection reset".to_string()),
                ("compliance/stateless-http".to_string(), Status::Warn, "2 modern response(s) carried an Mcp-Session-Id header (first: \"abc\"); 2026-07-28 has no sessions".to_string()),
            ]
        );
        assert_eq!(
            stateless_http(&clean(true))[0].message,
            "The endpoint is stateless: GET and DELETE answered 405, no Mcp-Session-Id on responses"
        );
    }

    #[test]
    fn hostile_values_do_not_panic() {
        let mut obs = clean(true);
        obs.pages = vec![json!(null), json!([1, 2]), json!("x")];
        obs.unsupported_version = err(-32022, Some(json!("not an object")), Some(400));
        let _ = check(&hello(Some(json!([]))), &obs);
        let _ = check(&hello(Some(Value::Null)), &ModernRecords::default());
    }
}

/// `compliance/server-messages` (§12.2, DECISIONS #36): a run-level verdict over everything
/// the server sent during the whole run in the modern era.
pub fn server_messages(chatter: &crate::observed::Chatter, input_requests: &[Value]) -> Finding {
    let logs: Vec<&Value> = chatter
        .notifications
        .iter()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some("notifications/message"))
        .collect();
    let mut kinds: Vec<(String, usize, String)> = Vec::new();
    let first = |v: &Value| crate::surface::text::truncate(&v.to_string(), 160);
    if let Some(f) = chatter.server_requests.first() {
        kinds.push((
            "server→client request(s)".into(),
            chatter.server_requests.len(),
            first(f),
        ));
    }
    if let Some(f) = logs.first() {
        kinds.push((
            "notifications/message without a requested logLevel".into(),
            logs.len(),
            first(f),
        ));
    }
    if let Some(f) = input_requests.first() {
        kinds.push((
            "inputRequests although no client capability was declared".into(),
            input_requests.len(),
            first(f),
        ));
    }
    if let Some(f) = chatter.orphan_errors.first() {
        kinds.push((
            "error response(s) without the request's id".into(),
            chatter.orphan_errors.len(),
            first(f),
        ));
    }
    if kinds.is_empty() {
        return rules::SERVER_MESSAGES
            .pass("Server sent no request, log message or input request during the run");
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|(k, n, f)| format!("{n} {k} (first: {f})"))
        .collect();
    rules::SERVER_MESSAGES
        .fail(format!(
            "Server sent messages the 2026-07-28 revision forbids: {}",
            parts.join("; ")
        ))
        .expected("No server requests, no unsolicited notifications/message, no input requests")
        .actual(serde_json::json!(kinds
            .iter()
            .map(|(k, n, _)| serde_json::json!({"kind": k, "count": n}))
            .collect::<Vec<_>>()))
}

#[cfg(test)]
mod subscriptions_tests {
    use super::*;
    use crate::model::Status;

    fn obs(
        advertised: bool,
        outcome: Result<Value, RpcError>,
        first: Option<Value>,
    ) -> ModernRecords {
        ModernRecords {
            listen_advertised: advertised,
            listen: Some(ProbeRecord {
                status: None,
                outcome,
                tagged: first,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn rows() {
        let ack = json!({"method": "notifications/subscriptions/acknowledged",
            "params": {"notifications": {"toolsListChanged": true},
                       "_meta": {"io.modelcontextprotocol/subscriptionId": 7}}});
        let f = subscriptions(&ModernRecords::default());
        assert_eq!(f.status, Status::Skip);
        assert_eq!(
            subscriptions(&obs(true, Ok(json!({})), Some(ack))).status,
            Status::Pass
        );
        let f = subscriptions(&obs(
            true,
            Err(RpcError::protocol(-32601, "Method not found", None)),
            None,
        ));
        assert_eq!(f.status, Status::Fail);
        assert!(f.message.contains("does not implement"));
        let f = subscriptions(&obs(
            true,
            Err(RpcError::plain("no answer within 2 s")),
            None,
        ));
        assert_eq!(f.status, Status::Fail);
        assert!(f.message.contains("not acknowledged"));
        let other = json!({"method": "notifications/tools/list_changed", "params": {}});
        assert_eq!(
            subscriptions(&obs(true, Ok(json!({})), Some(other))).status,
            Status::Fail
        );
    }
}

#[cfg(test)]
mod server_messages_tests {
    use super::*;
    use crate::model::Status;
    use crate::observed::Chatter;

    #[test]
    fn quiet_server_passes() {
        let f = server_messages(&Chatter::default(), &[]);
        assert_eq!(
            (f.id.as_str(), f.status),
            ("compliance/server-messages", Status::Pass)
        );
    }

    #[test]
    fn requests_logs_and_input_requests_fail_with_counts() {
        let c = Chatter {
            notifications: vec![
                json!({"method": "notifications/message", "params": {"level": "info"}}),
                json!({"method": "notifications/progress"}),
            ],
            server_requests: vec![json!({"id": 1, "method": "roots/list"})],
            ..Chatter::default()
        };
        let f = server_messages(&c, &[json!({"a": {"method": "elicitation/create"}})]);
        assert_eq!(f.status, Status::Fail);
        assert!(
            f.message.contains("1 server→client request(s)"),
            "{}",
            f.message
        );
        assert!(f.message.contains("roots/list"));
        assert!(f.message.contains("1 notifications/message"));
        assert!(f.message.contains("1 inputRequests"));
        // Progress notifications are allowed.
        assert!(!f.message.contains("progress"));
    }
}
