//! `http` family (#17): the server's HTTP transport posture. Today one rule,
//! `http/origin-validation`: how a server on a loopback or private address answered its
//! handshake request sent as a DNS-rebinding page would send it, and with its own origin
//! (the probe is `transport/origin.rs`; this is the judgement of what it recorded).

use crate::model::Finding;
use crate::observed::{OriginAnswer, OriginBody, OriginProbe};
use serde_json::{json, Value};
pub mod rules;
pub use rules::RULES;

/// How one answer counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// 2xx with a JSON-RPC result: the request was served.
    Served,
    /// A 4xx status: the request was refused.
    Refused,
    /// 2xx with a JSON-RPC error: not served, but not refused at the HTTP layer either.
    RpcError,
    /// No answer, another status, or a body that says neither.
    Unclear,
}

fn seen(a: &OriginAnswer) -> Seen {
    match a.status {
        Some(s) if (400..500).contains(&s) => Seen::Refused,
        Some(s) if (200..300).contains(&s) => match a.body {
            OriginBody::Result => Seen::Served,
            OriginBody::Error => Seen::RpcError,
            OriginBody::Other => Seen::Unclear,
        },
        _ => Seen::Unclear,
    }
}

/// `HTTP 403`, `HTTP 200 with a result`, or the transport error, for a message.
fn show(a: &OriginAnswer) -> String {
    let Some(status) = a.status else {
        return format!(
            "no answer ({})",
            a.error.as_deref().unwrap_or("the request failed")
        );
    };
    let body = match a.body {
        OriginBody::Result => " with a JSON-RPC result",
        OriginBody::Error => " with a JSON-RPC error",
        OriginBody::Other => "",
    };
    match &a.error {
        Some(e) => format!("HTTP {status}{body} ({e})"),
        None => format!("HTTP {status}{body}"),
    }
}

fn record(a: &OriginAnswer) -> Value {
    let body = match a.body {
        OriginBody::Result => "result",
        OriginBody::Error => "error",
        OriginBody::Other => "other",
    };
    let mut v = json!({"status": a.status, "body": body});
    if let Some(e) = &a.error {
        v["error"] = json!(e);
    }
    v
}

/// The family's findings for one HTTP connection (one result).
pub fn judge(probe: &OriginProbe) -> Vec<Finding> {
    let r = &rules::ORIGIN_VALIDATION;
    let (method, foreign_origin, own_origin, foreign, own) = match probe {
        OriginProbe::NotLocal { host } => {
            return vec![r.skip(format!(
                "{host} is not a loopback or private address: a DNS-rebinding page reaches servers on the user's machine or network, so Origin validation was not probed"
            ))]
        }
        OriginProbe::Probed {
            method,
            foreign_origin,
            own_origin,
            foreign,
            own,
        } => (method, foreign_origin, own_origin, foreign, own),
    };
    let actual = json!({
        "foreign": {"origin": foreign_origin, "answer": record(foreign)},
        "own": {"origin": own_origin, "answer": record(own)},
    });
    let sent = format!("{method} sent with a foreign Origin ({foreign_origin}, and that Host)");
    let own_said = format!("with its own origin {own_origin}: {}", show(own));
    let f = match (seen(foreign), seen(own)) {
        (Seen::Served, _) => r.fail(format!(
            "the server answered {sent} normally: {}. Any web page can reach it through DNS rebinding; validate Origin and answer other origins with 403",
            show(foreign)
        )),
        // Both asked for credentials: the probe was not let in far enough to tell.
        (Seen::Refused, Seen::Refused) if foreign.status == Some(401) && own.status == Some(401) => {
            r.skip(format!(
                "could not tell whether the server validates Origin: it asked for authentication with both origins ({sent}: {}; {own_said})",
                show(foreign)
            ))
        }
        (Seen::Refused, Seen::Refused) => r.warn(format!(
            "the server refused {sent}: {}, but also {own_said}. It refuses every request a browser sends, so browser-based clients cannot use it; accept the origins you serve",
            show(foreign)
        )),
        (Seen::Refused, _) => r.pass(format!(
            "the server refused {sent}: {}; {own_said}",
            show(foreign)
        )),
        (Seen::RpcError, Seen::Served) => r.pass(format!(
            "the server did not serve {sent}: {} (not the 403 the transport specifies); {own_said}",
            show(foreign)
        )),
        (Seen::RpcError | Seen::Unclear, _) => r.skip(format!(
            "could not tell whether the server validates Origin: {sent} got {}; {own_said}",
            show(foreign)
        )),
    };
    // The two answers, for a result that is not a plain pass.
    if f.status == crate::model::Status::Pass {
        vec![f]
    } else {
        vec![f.actual(actual)]
    }
}

#[cfg(test)]
mod tests;
