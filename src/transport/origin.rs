//! The `http/origin-validation` probe (#17): the Streamable HTTP transport says a server
//! MUST validate `Origin` to stop DNS rebinding, where a web page on a foreign site reaches
//! a server on the user's machine or network under the page's own host name. For a server
//! on a loopback or private address, the handshake request is sent twice outside the
//! session: once as such a page would send it (`Host` and `Origin` of a foreign name), once
//! with the server's own origin. Nothing of the real session is touched: no session id,
//! no dispatcher, and a session a probe `initialize` created is ended with DELETE.

use super::conn::Conn;
use super::http::{describe, ExtraHeaders, HttpWire};
use super::rpc::request_message;
use super::sse;
use crate::observed::{OriginAnswer, OriginBody, OriginProbe};
use crate::protocol::envelope::{envelope, with_envelope};
use crate::protocol::headers::modern_headers;
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;
use tokio::time::Instant;

/// The foreign name of the rebinding page (`.example` is reserved, RFC 2606).
pub const FOREIGN_HOST: &str = "mcpward-rebinding.example";

/// The longest a probe request may take (within it, `call_ms` when shorter).
pub const MAX_WAIT: Duration = Duration::from_secs(10);

/// How long the DELETE that ends a probe's session may take.
const DELETE_WAIT: Duration = Duration::from_secs(2);

/// Whether a URL host (as `Url::host_str` spells it) is one a DNS-rebinding page can reach
/// only through the user's machine or network: `localhost` (and `*.localhost`), a
/// loopback, private, link-local or unspecified IPv4 address, or IPv6 `::1`, `::`,
/// `fc00::/7`, `fe80::/10` (an IPv4-mapped address as its IPv4). Names are never resolved:
/// any other name counts as public.
pub fn is_local_host(host: &str) -> bool {
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    if h == "localhost" || h.ends_with(".localhost") {
        return true;
    }
    let bare = h
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(&h);
    match bare.parse::<IpAddr>() {
        Ok(IpAddr::V4(a)) => v4_local(a),
        Ok(IpAddr::V6(a)) => a.to_ipv4_mapped().map_or_else(|| v6_local(a), v4_local),
        Err(_) => false,
    }
}

fn v4_local(a: Ipv4Addr) -> bool {
    a.is_loopback() || a.is_private() || a.is_link_local() || a.is_unspecified()
}

fn v6_local(a: Ipv6Addr) -> bool {
    let first = a.segments()[0];
    a.is_loopback() || a.is_unspecified() || first & 0xfe00 == 0xfc00 || first & 0xffc0 == 0xfe80
}

/// Run the probe on an HTTP connection: `modern` sends `server/discover` as the handshake
/// did, else `initialize`, both at the connection's `version`; each request bounded by
/// `bound`. A transport error is recorded in the answer, never returned.
pub async fn probe(
    conn: &Conn,
    w: &HttpWire,
    modern: bool,
    version: &str,
    bound: Duration,
) -> OriginProbe {
    let (url, _) = w.detached(reqwest::Method::POST);
    let parsed = reqwest::Url::parse(url);
    let host = parsed
        .as_ref()
        .ok()
        .and_then(|u| u.host_str())
        .unwrap_or("")
        .to_string();
    let (Ok(url), true) = (parsed, is_local_host(&host)) else {
        return OriginProbe::NotLocal { host };
    };
    let mut foreign_url = url.clone();
    if foreign_url.set_host(Some(FOREIGN_HOST)).is_err() {
        return OriginProbe::NotLocal { host };
    }
    let foreign_origin = foreign_url.origin().ascii_serialization();
    let foreign_host = match foreign_url.port() {
        Some(p) => format!("{FOREIGN_HOST}:{p}"),
        None => FOREIGN_HOST.to_string(),
    };
    let own_origin = url.origin().ascii_serialization();
    let method = if modern {
        "server/discover"
    } else {
        "initialize"
    };
    let request = |id: u64| -> (Value, ExtraHeaders) {
        if modern {
            let params = with_envelope(None, &envelope(version));
            let headers = modern_headers(version, method, &params, None);
            (request_message(id, method, Some(params)), headers)
        } else {
            let params = json!({
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "mcpward", "version": crate::VERSION},
            });
            (request_message(id, method, Some(params)), Vec::new())
        }
    };
    let session_version = (!modern).then_some(version);
    let foreign = send(
        conn,
        w,
        request(conn.d.next_id()),
        Some(&foreign_host),
        &foreign_origin,
        session_version,
        bound,
    )
    .await;
    let own = send(
        conn,
        w,
        request(conn.d.next_id()),
        None,
        &own_origin,
        session_version,
        bound,
    )
    .await;
    OriginProbe::Probed {
        method: method.to_string(),
        foreign_origin,
        own_origin,
        foreign,
        own,
    }
}

/// One probe POST with this `Origin` (and `Host`, when given); a session its answer
/// issued is ended with DELETE (legacy: `session_version` is the protocol version).
async fn send(
    conn: &Conn,
    w: &HttpWire,
    (msg, extra): (Value, ExtraHeaders),
    host: Option<&str>,
    origin: &str,
    session_version: Option<&str>,
    bound: Duration,
) -> OriginAnswer {
    let id = msg.get("id").and_then(Value::as_u64);
    let mut h = header_map(&extra);
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    if let Some(v) = host.and_then(|s| HeaderValue::from_str(s).ok()) {
        h.insert(HOST, v);
    }
    if let Ok(v) = HeaderValue::from_str(origin) {
        h.insert(ORIGIN, v);
    }
    let (_, req) = w.detached(reqwest::Method::POST);
    let req = req
        .headers(h)
        .body(serde_json::to_vec(&msg).unwrap_or_default());
    let deadline = Instant::now() + bound;
    let redact = |s: String| conn.d.guard.redactor.redact_str(&s);
    let no_answer = |error: String| OriginAnswer {
        status: None,
        body: OriginBody::Other,
        error: Some(error),
    };
    let resp = match tokio::time::timeout_at(deadline, req.send()).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return no_answer(redact(describe(&e))),
        Err(_) => return no_answer(format!("no answer within {} ms", bound.as_millis())),
    };
    let status = resp.status().as_u16();
    let session = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let cap = conn.d.guard.limits.message_bytes;
    let (body, error) = match tokio::time::timeout_at(deadline, read_body(resp, id, cap)).await {
        Ok(Ok(b)) => (b, None),
        Ok(Err(e)) => (OriginBody::Other, Some(redact(e))),
        Err(_) => (
            OriginBody::Other,
            Some(format!(
                "the answer was not complete within {} ms",
                bound.as_millis()
            )),
        ),
    };
    if let (Some(sid), Some(version)) = (session, session_version) {
        end_session(w, &sid, version).await;
    }
    OriginAnswer {
        status: Some(status),
        body,
        error,
    }
}

/// The era's extra headers as a map (an invalid pair is left out, as for normal requests).
fn header_map(extra: &ExtraHeaders) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in extra {
        if let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(v),
        ) {
            h.insert(n, v);
        }
    }
    h
}

/// DELETE the session a probe `initialize` created (best effort, bounded), without
/// `Origin`: as a non-browser client, the way the real session ends.
async fn end_session(w: &HttpWire, sid: &str, version: &str) {
    let mut h = HeaderMap::new();
    for (n, v) in [("mcp-session-id", sid), ("mcp-protocol-version", version)] {
        if let Ok(v) = HeaderValue::from_str(v) {
            h.insert(n, v);
        }
    }
    let (_, req) = w.detached(reqwest::Method::DELETE);
    let _ = tokio::time::timeout(DELETE_WAIT, req.headers(h).send()).await;
}

/// What the body holds for request `id`: a JSON body whole (at most `cap` bytes), an SSE
/// stream until the event that answers it.
async fn read_body(
    resp: reqwest::Response,
    id: Option<u64>,
    cap: usize,
) -> Result<OriginBody, String> {
    let sse = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.to_ascii_lowercase().contains("text/event-stream"));
    let mut parser = sse::Parser::new(cap);
    let mut buf = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("reading the answer failed: {}", describe(&e)))?;
        if sse {
            for ev in parser.feed(&chunk) {
                if ev.event.as_deref().is_some_and(|e| e != "message") {
                    continue;
                }
                if let Some(b) = answer_of(ev.data.as_bytes(), id) {
                    return Ok(b);
                }
            }
        } else if buf.len() + chunk.len() > cap {
            return Ok(OriginBody::Other);
        } else {
            buf.extend_from_slice(&chunk);
        }
    }
    Ok(if sse {
        OriginBody::Other
    } else {
        answer_of(&buf, id).unwrap_or(OriginBody::Other)
    })
}

/// A JSON-RPC response in `text`: `Result` when it carries a result for `id`, `Error` for
/// an error response (whatever its id: an error body may not know it); `None` otherwise.
fn answer_of(text: &[u8], id: Option<u64>) -> Option<OriginBody> {
    let v: Value = serde_json::from_slice(text).ok()?;
    let o = v.as_object()?;
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return None;
    }
    if o.contains_key("error") {
        return Some(OriginBody::Error);
    }
    let same = o.get("id").and_then(Value::as_u64) == id && id.is_some();
    (same && o.contains_key("result")).then_some(OriginBody::Result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hosts_are_loopback_and_private_addresses() {
        for h in [
            "127.0.0.1",
            "127.8.9.10",
            "localhost",
            "LocalHost.",
            "mcp.localhost",
            "[::1]",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.20",
            "169.254.1.1",
            "0.0.0.0",
            "[fc00::1]",
            "[fd12:3456::1]",
            "[fe80::1]",
            "[::ffff:192.168.0.1]",
            "[::]",
        ] {
            assert!(is_local_host(h), "{h} is local");
        }
    }

    #[test]
    fn public_addresses_and_names_are_not_local() {
        for h in [
            "8.8.8.8",
            "172.32.0.1",
            "172.15.255.255",
            "192.169.0.1",
            "11.0.0.1",
            "[2001:db8::1]",
            "[fec0::1]",
            "[::ffff:8.8.8.8]",
            "example.com",
            "localhost.example.com",
            "mylocalhost",
            "mcp-server",
            "",
        ] {
            assert!(!is_local_host(h), "{h} is not local");
        }
    }

    #[test]
    fn a_body_is_a_result_only_for_the_request_it_answers() {
        let ok = br#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
        assert_eq!(answer_of(ok, Some(7)), Some(OriginBody::Result));
        assert_eq!(answer_of(ok, Some(8)), None);
        let err = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no"}}"#;
        assert_eq!(answer_of(err, Some(7)), Some(OriginBody::Error));
        assert_eq!(answer_of(br#"{"id":7,"result":{}}"#, Some(7)), None);
        assert_eq!(answer_of(b"Forbidden", Some(7)), None);
        let note = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#;
        assert_eq!(answer_of(note, Some(7)), None);
    }

    /// A silent server and a closed port: each request ends at the bound or with the
    /// transport error, recorded in the answer; the probe itself never fails.
    #[tokio::test]
    async fn no_answer_is_recorded_within_the_bound() {
        use crate::transport::conn::{Conn, Endpoint};
        use crate::transport::http::HttpSpec;
        use crate::transport::rpc::Guard;
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = silent.local_addr().unwrap().port();
        let held = tokio::spawn(async move {
            let mut socks = Vec::new();
            while let Ok((s, _)) = silent.accept().await {
                socks.push(s);
            }
        });
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let closed_port = closed.local_addr().unwrap().port();
        drop(closed);
        for (port, wanted) in [(port, "no answer within 300 ms"), (closed_port, "error")] {
            let spec = HttpSpec {
                url: format!("http://127.0.0.1:{port}/mcp"),
                headers: Vec::new(),
                auth: None,
            };
            let conn = Conn::open(&Endpoint::Http(spec), &Guard::default()).unwrap();
            let w = conn.http().unwrap();
            let start = std::time::Instant::now();
            let p = probe(&conn, w, false, "2025-11-25", Duration::from_millis(300)).await;
            assert!(start.elapsed() < Duration::from_secs(5));
            let OriginProbe::Probed { foreign, own, .. } = p else {
                panic!("{p:?}")
            };
            for a in [foreign, own] {
                assert_eq!((a.status, a.body), (None, OriginBody::Other));
                assert!(a.error.as_deref().unwrap().contains(wanted), "{a:?}");
            }
        }
        held.abort();
    }

    #[tokio::test]
    async fn a_public_host_is_not_probed() {
        use crate::transport::conn::{Conn, Endpoint};
        use crate::transport::http::HttpSpec;
        use crate::transport::rpc::Guard;
        let spec = HttpSpec {
            url: "https://user:secret@mcp.example.com/mcp".into(),
            headers: Vec::new(),
            auth: None,
        };
        let conn = Conn::open(&Endpoint::Http(spec), &Guard::default()).unwrap();
        let p = probe(&conn, conn.http().unwrap(), true, "2026-07-28", MAX_WAIT).await;
        assert_eq!(
            p,
            OriginProbe::NotLocal {
                host: "mcp.example.com".into()
            }
        );
    }
}
