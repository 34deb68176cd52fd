//! Streamable HTTP wire: every client message is a POST; answers come back as JSON or as
//! an SSE stream; a broken SSE stream is resumed with GET + Last-Event-ID.

use super::oauth::Authenticator;
use super::rpc::Dispatcher;
use super::sse;
use crate::observed::{show_bytes, AuthProbe, RpcError};
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

const MAX_RESUMES: u32 = 2;
/// Redirects followed before the answer counts as a redirect loop.
const MAX_REDIRECTS: usize = 10;
/// HTTP 429 / 503 (a rate limiter, an overloaded server): retries of one POST, and the
/// longest wait honoured between them. The request's own deadline (`call_ms`, the connect
/// budget) bounds the whole, as `run_ms` bounds the run (#12 §2).
const MAX_RATE_RETRIES: u32 = 6;
const MAX_RETRY_WAIT: Duration = Duration::from_secs(30);
/// Characters of an HTTP error body shown in a message.
const ERROR_BODY_CHARS: usize = 500;

pub struct HttpSpec {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// `server.auth` (#17): the OAuth client or a bearer token.
    pub auth: Option<crate::protocol::oauth::AuthSpec>,
}

/// Which `Authorization` a posture probe sends (#17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeAuth {
    /// No `Authorization` header at all.
    Without,
    /// A well-formed bearer token the server never issued.
    Wrong,
}

/// OAuth rounds for one POST: the first token, then one refresh.
const MAX_AUTH_ROUNDS: u32 = 2;

/// Headers the era strategy adds to one POST (modern: Mcp-Method, Mcp-Name, …).
pub type ExtraHeaders = Vec<(String, String)>;

/// One POST answered while the wire was stateless (modern era or the era probe): what the
/// compliance rules and the era classification need to know about the HTTP layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub id: Option<u64>,
    pub method: String,
    pub status: u16,
    pub content_type: String,
    /// `Mcp-Session-Id` on the response (never adopted in the modern era).
    pub session_id: Option<String>,
}

const MAX_EXCHANGES: usize = 1000;

struct Shared {
    client: reqwest::Client,
    url: String,
    headers: HeaderMap,
    session: Mutex<Option<String>>,
    protocol_version: Mutex<Option<String>>,
    d: Arc<Dispatcher>,
    /// Modern era / era probe: no session, no resumption, error bodies always read.
    stateless: AtomicBool,
    exchanges: Mutex<Vec<Exchange>>,
    auth: Option<Arc<Authenticator>>,
}

pub struct HttpWire {
    s: Arc<Shared>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl HttpWire {
    pub fn new(spec: &HttpSpec, d: Arc<Dispatcher>) -> Result<Self, String> {
        let mut headers = HeaderMap::new();
        for (k, v) in &spec.headers {
            let name = HeaderName::from_bytes(k.as_bytes())
                .map_err(|_| format!("server.headers: \"{k}\" is not a valid HTTP header name"))?;
            let value = HeaderValue::from_str(v).map_err(|_| {
                format!("server.headers.{k}: value is not a valid HTTP header value")
            })?;
            headers.insert(name, value);
        }
        let client = reqwest::Client::builder()
            .no_proxy()
            // Configured headers (API keys) must not follow a redirect to another origin;
            // reqwest strips only Authorization and cookies there.
            .redirect(reqwest::redirect::Policy::custom(|attempt| {
                let same_origin = attempt
                    .previous()
                    .first()
                    .is_some_and(|first| first.origin() == attempt.url().origin());
                if !same_origin {
                    attempt.stop()
                } else if attempt.previous().len() < MAX_REDIRECTS {
                    attempt.follow()
                } else {
                    attempt.error(format!(
                        "redirect loop: more than {MAX_REDIRECTS} redirects"
                    ))
                }
            }))
            .build()
            .map_err(|e| format!("cannot create HTTP client: {e}"))?;
        reqwest::Url::parse(&spec.url).map_err(|e| format!("invalid server.url: {e}"))?;
        let auth = match &spec.auth {
            Some(a) => Some(Authenticator::shared(
                a,
                &spec.url,
                d.guard.redactor.clone(),
            )?),
            None => None,
        };
        Ok(HttpWire {
            s: Arc::new(Shared {
                client,
                url: spec.url.clone(),
                headers,
                session: Mutex::new(None),
                protocol_version: Mutex::new(None),
                d,
                stateless: AtomicBool::new(false),
                exchanges: Mutex::new(Vec::new()),
                auth,
            }),
            tasks: Mutex::new(Vec::new()),
        })
    }

    /// From now on every request carries `MCP-Protocol-Version` (after initialize, legacy;
    /// from the first request, modern).
    pub fn set_protocol_version(&self, v: &str) {
        *self
            .s
            .protocol_version
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(v.to_string());
    }

    /// Modern era (§7.5): no Mcp-Session-Id adopted or sent, no SSE resumption, JSON-RPC
    /// error bodies without an id belong to their POST, and every answer is recorded.
    pub fn set_stateless(&self, on: bool) {
        self.s.stateless.store(on, Ordering::SeqCst);
    }

    pub fn exchanges(&self) -> Vec<Exchange> {
        self.s
            .exchanges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// HTTP status of the answer to request `id` (stateless mode only).
    pub fn status_of(&self, id: u64) -> Option<u16> {
        let ex = self.s.exchanges.lock().unwrap_or_else(|e| e.into_inner());
        ex.iter().rev().find(|e| e.id == Some(id)).map(|e| e.status)
    }

    /// A bare GET or DELETE on the endpoint (the `compliance/stateless-http` probe):
    /// the status, or the transport error.
    pub async fn probe_method(
        &self,
        method: reqwest::Method,
        extra: &ExtraHeaders,
    ) -> Result<u16, String> {
        let accept = if method == reqwest::Method::GET {
            "text/event-stream"
        } else {
            "*/*"
        };
        let req = self.s.base_request(method, extra).header(ACCEPT, accept);
        match tokio::time::timeout(Duration::from_secs(10), req.send()).await {
            Ok(Ok(resp)) => Ok(resp.status().as_u16()),
            Ok(Err(e)) => Err(describe(&e)),
            Err(_) => Err("no answer within 10 s".into()),
        }
    }

    /// A request on the same client and URL but outside the session and the dispatcher
    /// (the `http/origin-validation` probe, `origin.rs`): only the configured headers, no
    /// session id or protocol version; headers set on it later replace theirs. With the URL.
    pub fn detached(&self, method: reqwest::Method) -> (&str, reqwest::RequestBuilder) {
        let req = self.s.client.request(method, &self.s.url);
        let mut headers = self.s.headers.clone();
        // An OAuth server must see the run's token, or both probes only meet its 401.
        self.s.add_token(&mut headers);
        (&self.s.url, req.headers(headers))
    }

    pub fn session_id(&self) -> Option<String> {
        self.s
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// POST one message. For a request, its response is dispatched (inline for JSON, by a
    /// background task for SSE); a failure of the exchange itself is returned here.
    pub async fn send(&self, msg: &Value, extra: &ExtraHeaders) -> Result<(), RpcError> {
        let request_id = msg.get("method").and(msg.get("id")).and_then(Value::as_u64);
        let body = serde_json::to_vec(msg).unwrap_or_default();
        let mut retries = 0;
        let mut auth_rounds = 0;
        let resp = loop {
            let sent = self.s.auth.as_ref().map(|a| a.current());
            let resp = self
                .s
                .base_request(reqwest::Method::POST, extra)
                .header(CONTENT_TYPE, "application/json")
                .header(ACCEPT, "application/json, text/event-stream")
                .body(body.clone())
                .send()
                .await
                .map_err(|e| RpcError::plain(format!("HTTP request failed: {}", describe(&e))))?;
            let code = resp.status().as_u16();
            if let (Some(auth), Some((token, generation))) = (&self.s.auth, &sent) {
                if code == 401 && auth_rounds < MAX_AUTH_ROUNDS {
                    auth_rounds += 1;
                    auth.on_unauthorized(token.as_ref().map(|_| *generation), resp.headers())
                        .await
                        .map_err(RpcError::plain)?;
                    continue;
                }
                if let Some(e) = auth.refusal(code, token.is_some(), resp.headers()) {
                    return Err(RpcError::plain(e));
                }
                match token {
                    None => auth.note_unauthenticated_answer(code, resp.headers()),
                    Some(_) => auth.note_accepted(*generation),
                }
            }
            if code != 429 && code != 503 {
                break resp;
            }
            // A rate limiter's answer is not the server's answer to this request: wait and
            // send it again (the caller's deadline ends the wait).
            let wait = retry_after(resp.headers()).unwrap_or_else(|| backoff(retries));
            if retries >= MAX_RATE_RETRIES || wait > MAX_RETRY_WAIT {
                return Err(RpcError::plain(format!(
                    "HTTP {code}: the server kept refusing the request (rate limited or unavailable) after {retries} retries{}",
                    if wait > MAX_RETRY_WAIT {
                        format!("; it asked to wait {} s", wait.as_secs())
                    } else {
                        String::new()
                    }
                )));
            }
            retries += 1;
            tokio::time::sleep(wait).await;
        };
        self.s.remember_session(resp.headers());
        let status = resp.status();
        let ctype = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let stateless = self.s.stateless.load(Ordering::SeqCst);
        if stateless {
            self.s
                .record_exchange(msg, request_id, status.as_u16(), &ctype, resp.headers());
        }
        if status.as_u16() == 202 {
            if request_id.is_some() {
                return Err(RpcError::plain(
                    "HTTP 202 Accepted for a request: the server sent no response",
                ));
            }
            return Ok(());
        }
        if !status.is_success() {
            let body = self.s.read_capped(resp).await.unwrap_or_default();
            // A JSON-RPC error body (modern 400/404) is the server's answer: dispatch it.
            if let (Some(id), Ok(mut v)) = (request_id, serde_json::from_slice::<Value>(&body)) {
                if stateless {
                    self.s.adopt_orphan_error(&mut v, id);
                }
                // The dispatcher judges its framing; a body that did not settle the request
                // (another id) leaves the HTTP status as the failure.
                if v.get("id").is_some_and(|i| !i.is_null()) && v.get("error").is_some() {
                    self.s.d.dispatch(v);
                    if !self.s.d.has_pending(id) {
                        return Ok(());
                    }
                }
            }
            // Redacted before the cut: a secret across the cut never shows in part.
            let text = self
                .s
                .d
                .guard
                .redactor
                .redact_head(body.trim_ascii(), ERROR_BODY_CHARS);
            return Err(RpcError::plain(format!(
                "HTTP {}: {}",
                status.as_u16(),
                text
            )));
        }
        let Some(id) = request_id else {
            return Ok(()); // body of a notification/response POST is discarded
        };
        if ctype.contains("text/event-stream") {
            let s = self.s.clone();
            let task = tokio::spawn(async move { s.read_sse_for(resp, id).await });
            self.tasks
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(task);
            Ok(())
        } else if ctype.contains("application/json") {
            let body = self.s.read_capped(resp).await.map_err(RpcError::plain)?;
            // A raw-registered answer is handed over as text before anything is parsed.
            let parsed = if self.s.d.try_dispatch_raw(&body) {
                None
            } else {
                Some(serde_json::from_slice::<Value>(&body))
            };
            match parsed {
                None => {}
                Some(Ok(mut v)) => {
                    if stateless {
                        self.s.adopt_orphan_error(&mut v, id);
                    }
                    self.s.d.dispatch(v)
                }
                Some(Err(e)) => {
                    return Err(RpcError::plain(format!(
                        "Invalid JSON in HTTP response: {e}"
                    )))
                }
            }
            if self.s.d.has_pending(id) {
                return Err(RpcError::plain(
                    "HTTP JSON response did not contain the response to the request",
                ));
            }
            Ok(())
        } else {
            Err(RpcError::plain(format!("Unexpected content type: {ctype}")))
        }
    }

    /// The OAuth client, when `server.auth` is configured.
    pub fn authenticator(&self) -> Option<&Arc<Authenticator>> {
        self.s.auth.as_ref()
    }

    /// One posture probe (#17): `msg` POSTed like a normal request but with `how` in place
    /// of the run's token; whether the server served it. Never dispatched: the answer is
    /// read here and only judged.
    pub async fn auth_probe(&self, msg: &Value, extra: &ExtraHeaders, how: ProbeAuth) -> AuthProbe {
        let built = self
            .s
            .base_request(reqwest::Method::POST, extra)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .body(serde_json::to_vec(msg).unwrap_or_default())
            .build();
        let mut req = match built {
            Ok(r) => r,
            Err(e) => {
                return AuthProbe {
                    error: Some(describe(&e)),
                    ..AuthProbe::default()
                }
            }
        };
        // Built as a normal request, then its Authorization replaced.
        let h = req.headers_mut();
        h.remove(reqwest::header::AUTHORIZATION);
        if how == ProbeAuth::Wrong {
            let bogus = format!("Bearer mcpward-probe-{}", super::oauth::unique_id());
            if let Ok(v) = HeaderValue::from_str(&bogus) {
                h.insert(reqwest::header::AUTHORIZATION, v);
            }
        }
        let answer = async {
            let resp = self.s.client.execute(req).await.map_err(|e| describe(&e))?;
            let status = resp.status().as_u16();
            let body = self.s.read_capped(resp).await.unwrap_or_default();
            Ok::<_, String>((status, served(&body)))
        };
        match tokio::time::timeout(Duration::from_secs(10), answer).await {
            Ok(Ok((status, served))) => AuthProbe {
                status: Some(status),
                served: (200..300).contains(&status) && served,
                error: None,
            },
            Ok(Err(e)) => AuthProbe {
                error: Some(e),
                ..AuthProbe::default()
            },
            Err(_) => AuthProbe {
                error: Some("no answer within 10 s".into()),
                ..AuthProbe::default()
            },
        }
    }

    /// Open the optional server→client GET stream (legacy era, after initialized).
    pub fn open_event_stream(&self) {
        let s = self.s.clone();
        let task = tokio::spawn(async move {
            let req = s
                .base_request(reqwest::Method::GET, &Vec::new())
                .header(ACCEPT, "text/event-stream");
            if let Ok(resp) = req.send().await {
                if resp.status().is_success() {
                    let mut parser = sse::Parser::new(s.d.guard.limits.message_bytes);
                    s.pump(resp, &mut parser, None).await;
                }
            }
        });
        self.tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(task);
    }

    /// Abort streams, then end the session with DELETE when one was issued (DECISIONS #7).
    pub async fn close(&self) {
        for t in self
            .tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            t.abort();
        }
        if self.session_id().is_some() {
            let req = self.s.base_request(reqwest::Method::DELETE, &Vec::new());
            let _ = tokio::time::timeout(Duration::from_secs(2), req.send()).await;
        }
    }
}

impl Shared {
    fn base_request(
        &self,
        method: reqwest::Method,
        extra: &ExtraHeaders,
    ) -> reqwest::RequestBuilder {
        let mut headers = self.headers.clone();
        let session = if self.stateless.load(Ordering::SeqCst) {
            None
        } else {
            self.session
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
        };
        if let Some(sid) = session {
            if let Ok(v) = HeaderValue::from_str(&sid) {
                headers.insert("mcp-session-id", v);
            }
        }
        if let Some(pv) = self
            .protocol_version
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
        {
            if let Ok(v) = HeaderValue::from_str(&pv) {
                headers.insert("mcp-protocol-version", v);
            }
        }
        for (k, v) in extra {
            if let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(k.as_bytes()),
                HeaderValue::from_str(v),
            ) {
                headers.insert(n, v);
            }
        }
        self.add_token(&mut headers);
        self.client.request(method, &self.url).headers(headers)
    }

    /// `Authorization: Bearer` with the run's OAuth token, once there is one (#17).
    fn add_token(&self, headers: &mut HeaderMap) {
        if let Some((Some(token), _)) = self.auth.as_ref().map(|a| a.current()) {
            if let Ok(v) = HeaderValue::from_str(&format!("Bearer {token}")) {
                headers.insert(reqwest::header::AUTHORIZATION, v);
            }
        }
    }

    fn remember_session(&self, h: &HeaderMap) {
        if self.stateless.load(Ordering::SeqCst) {
            return; // §3.3 step 3: a probe's (or modern response's) session id is ignored
        }
        if let Some(sid) = h.get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            *self.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(sid.to_string());
        }
    }

    fn record_exchange(
        &self,
        msg: &Value,
        id: Option<u64>,
        status: u16,
        ctype: &str,
        h: &HeaderMap,
    ) {
        let mut ex = self.exchanges.lock().unwrap_or_else(|e| e.into_inner());
        if ex.len() >= MAX_EXCHANGES {
            ex.remove(0);
        }
        ex.push(Exchange {
            id,
            method: msg
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            status,
            content_type: ctype.to_string(),
            session_id: h
                .get("mcp-session-id")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
        });
    }

    /// §7.4: a JSON-RPC error body belongs to the POST it answers even when its `id` is
    /// missing or `null`; such a body is recorded for `compliance/server-messages`.
    fn adopt_orphan_error(&self, v: &mut Value, id: u64) {
        let Value::Object(o) = v else { return };
        if o.contains_key("error") && o.get("id").is_none_or(Value::is_null) {
            self.d.record_orphan_error(&Value::Object(o.clone()));
            o.insert("id".into(), Value::from(id));
        }
    }

    /// Read an SSE answer to request `id`; if it ends early, resume per transport.md §9.5.
    async fn read_sse_for(self: Arc<Self>, resp: reqwest::Response, id: u64) {
        let mut parser = sse::Parser::new(self.d.guard.limits.message_bytes);
        self.pump(resp, &mut parser, Some(id)).await;
        let mut delay_ms = 1000f64;
        let mut attempt = 0;
        while self.d.has_pending(id) {
            if self.stateless.load(Ordering::SeqCst) {
                // No resumption in the modern era (§7.5); the request has failed.
                self.d.fail(
                    id,
                    RpcError::plain("SSE stream ended before the response arrived"),
                );
                return;
            }
            let Some(last) = parser.last_id.clone() else {
                self.d.fail(
                    id,
                    RpcError::plain(
                        "SSE stream ended before the response arrived (no event id to resume from)",
                    ),
                );
                return;
            };
            if attempt >= MAX_RESUMES {
                self.d.fail(id, RpcError::plain(format!("SSE stream ended before the response arrived; gave up after {MAX_RESUMES} reconnections")));
                return;
            }
            attempt += 1;
            let wait = parser
                .retry_ms
                .map(|r| r as f64)
                .unwrap_or(delay_ms)
                .min(30_000.0);
            delay_ms = (delay_ms * 1.5).min(30_000.0);
            tokio::time::sleep(Duration::from_millis(wait as u64)).await;
            let req = self
                .base_request(reqwest::Method::GET, &Vec::new())
                .header(ACCEPT, "text/event-stream")
                .header("last-event-id", last);
            match req.send().await {
                Ok(r) if r.status().is_success() => {
                    self.remember_session(r.headers());
                    self.pump(r, &mut parser, Some(id)).await;
                }
                Ok(r) => {
                    self.d.fail(
                        id,
                        RpcError::plain(format!("SSE resume failed: HTTP {}", r.status().as_u16())),
                    );
                    return;
                }
                Err(e) => {
                    self.d.fail(
                        id,
                        RpcError::plain(format!("SSE resume failed: {}", describe(&e))),
                    );
                    return;
                }
            }
        }
    }

    /// Dispatch every `message` event of one stream until it ends (or the awaited
    /// response arrived, for request streams).
    async fn pump(&self, resp: reqwest::Response, parser: &mut sse::Parser, awaiting: Option<u64>) {
        let mut stream = resp.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else { break };
            let events = parser.feed(&chunk);
            if std::mem::take(&mut parser.oversized) {
                self.d.oversized("an SSE event");
            }
            for ev in events {
                if ev.event.as_deref().is_some_and(|e| e != "message") || ev.data.is_empty() {
                    continue;
                }
                if self.d.try_dispatch_raw(ev.data.as_bytes()) {
                    continue;
                }
                match serde_json::from_str::<Value>(&ev.data) {
                    Ok(v) => self.d.dispatch(v),
                    Err(_) => self.d.record_stray(ev.data.as_bytes()),
                }
            }
            if awaiting.is_some_and(|id| !self.d.has_pending(id)) {
                return;
            }
        }
    }
}

impl Shared {
    /// The whole body, or an error naming `limits.message_bytes` as soon as the body (or
    /// its announced `Content-Length`) passes it: an endless or huge body is never held.
    async fn read_capped(&self, resp: reqwest::Response) -> Result<Vec<u8>, String> {
        let cap = self.d.guard.limits.message_bytes;
        let over = |what: String| {
            let msg = format!(
                "HTTP response body{what} over limits.message_bytes ({}); it was discarded",
                show_bytes(cap)
            );
            self.d
                .record_cut("message_bytes", format!("the server sent an {msg}"));
            msg
        };
        if let Some(n) = resp.content_length().filter(|&n| n > cap as u64) {
            return Err(over(format!(" of {n} bytes (Content-Length)")));
        }
        let mut out = Vec::new();
        let mut stream = resp.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| format!("reading HTTP body failed: {}", describe(&e)))?;
            if out.len() + chunk.len() > cap {
                return Err(over(String::new()));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }
}

/// Whether a body (JSON, or SSE `data:` lines) holds a JSON-RPC result.
fn served(body: &[u8]) -> bool {
    let has_result = |v: &Value| v.get("result").is_some();
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        return has_result(&v);
    }
    String::from_utf8_lossy(body).lines().any(|l| {
        l.strip_prefix("data:")
            .and_then(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .is_some_and(|v| has_result(&v))
    })
}

/// `Retry-After` as delay-seconds. The HTTP-date form counts as absent (the backoff
/// applies): a wall-clock date from a server is not worth trusting over our own bound.
fn retry_after(h: &HeaderMap) -> Option<Duration> {
    let v = h.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim();
    v.parse::<u64>().ok().map(Duration::from_secs)
}

/// Without `Retry-After`: 250 ms, doubling, at most 8 s.
fn backoff(retries: u32) -> Duration {
    Duration::from_millis(250u64 << retries.min(5)).min(Duration::from_secs(8))
}

/// reqwest's Display hides the cause ("error sending request"); show the chain.
pub(super) fn describe(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}
