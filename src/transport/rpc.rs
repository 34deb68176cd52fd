//! JSON-RPC 2.0 plumbing shared by both wires: request ids, the pending-response table,
//! and dispatch of everything the server sends (responses, notifications, requests).

use crate::observed::{
    show_bytes, Chatter, FramingFault, Limits, RpcError, CHATTER_BYTES, FRAMING_KEEP,
};
use crate::redact::Redactor;
use crate::surface::text::truncate;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot, watch, Notify};

/// Bound on what we keep of server chatter, so a flooding server cannot exhaust memory
/// (with the byte bound `CHATTER_BYTES`).
const MAX_RECORDED: usize = 200;
/// Characters kept of one stray line.
const STRAY_CHARS: usize = 200;

/// What bounds a connection against a hostile server (#12 §2): the configured limits, and
/// the run's secrets, redacted out of anything recorded before it is cut.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    pub limits: Limits,
    pub redactor: Arc<Redactor>,
}

/// A response result: parsed, or (for a request registered as raw) the result's text.
#[derive(Debug)]
pub enum Answer {
    Value(Value),
    Raw(Box<RawValue>),
}

impl Answer {
    pub fn into_value(self) -> Value {
        match self {
            Answer::Value(v) => v,
            Answer::Raw(r) => crate::surface::json::raw_to_value(&r),
        }
    }

    pub fn into_raw(self) -> Box<RawValue> {
        match self {
            Answer::Raw(r) => r,
            Answer::Value(v) => serde_json::value::to_raw_value(&v)
                .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON")),
        }
    }
}

struct Pending {
    tx: oneshot::Sender<Result<Answer, RpcError>>,
    /// Notified by a progress notification carrying the token this request sent; `None`:
    /// the request sent no token, so no progress can restart its timer.
    progress: Option<Arc<Notify>>,
    raw: bool,
}

/// The members of a message that decide whether it answers a raw request; everything else
/// is skipped without being built.
#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    /// Present in any spelling, `null` included: the parsed path judges such a message
    /// (an `error` of `null` is a malformed error there, not a success).
    #[serde(default, deserialize_with = "present")]
    error: bool,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(d).map(|_| true)
}

pub struct Dispatcher {
    pub guard: Guard,
    next_id: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    chatter: Mutex<Chatter>,
    closed: AtomicBool,
    /// Modern era (§8): server→client requests are recorded and never answered.
    modern: AtomicBool,
    /// Replies to server→client requests, written by the wire's writer.
    replies: mpsc::UnboundedSender<Value>,
    /// Pending requests registered as raw: while none is, no message is pre-scanned.
    raw_waiting: AtomicU64,
    /// Bumped for every recorded notification, so a wait can end on one (`tagged`).
    notes_seen: watch::Sender<u64>,
}

impl Dispatcher {
    pub fn new(guard: Guard) -> (Arc<Self>, mpsc::UnboundedReceiver<Value>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (
            Arc::new(Dispatcher {
                guard,
                next_id: AtomicU64::new(0),
                pending: Mutex::new(HashMap::new()),
                chatter: Mutex::new(Chatter::default()),
                closed: AtomicBool::new(false),
                modern: AtomicBool::new(false),
                replies: tx,
                raw_waiting: AtomicU64::new(0),
                notes_seen: watch::channel(0).0,
            }),
            rx,
        )
    }

    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// `raw`: hand the result over as text (a 10,000-tool listing page is never built as
    /// one tree; the caller parses it piecewise). `progress`: the request sent its id as
    /// `progressToken`, so progress notifications with that token wake the returned
    /// `Notify`.
    pub fn register(
        &self,
        id: u64,
        raw: bool,
        progress: bool,
    ) -> (oneshot::Receiver<Result<Answer, RpcError>>, Arc<Notify>) {
        let (tx, rx) = oneshot::channel();
        if raw {
            self.raw_waiting.fetch_add(1, Ordering::SeqCst);
        }
        let notify = Arc::new(Notify::new());
        let progress = progress.then(|| notify.clone());
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Pending { tx, progress, raw });
        (rx, notify)
    }

    fn take(&self, id: u64) -> Option<Pending> {
        let p = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if p.as_ref().is_some_and(|p| p.raw) {
            self.raw_waiting.fetch_sub(1, Ordering::SeqCst);
        }
        p
    }

    pub fn forget(&self, id: u64) {
        self.take(id);
    }

    /// Fail one pending request (a wire-level failure of its own exchange).
    pub fn fail(&self, id: u64, err: RpcError) {
        if let Some(p) = self.take(id) {
            let _ = p.tx.send(Err(err));
        }
    }

    pub fn has_pending(&self, id: u64) -> bool {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&id)
    }

    /// The transport is gone: every pending request fails with -32000.
    pub fn close_all(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let drained: Vec<Pending> = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(_, p)| p)
            .collect();
        self.raw_waiting.store(0, Ordering::SeqCst);
        for p in drained {
            let _ = p.tx.send(Err(RpcError::closed()));
        }
    }

    /// Switch server-request handling between the eras (legacy answers, modern records only).
    pub fn set_modern(&self, on: bool) {
        self.modern.store(on, Ordering::SeqCst);
    }

    pub fn record_orphan_error(&self, msg: &Value) {
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        if c.orphan_errors.len() < MAX_RECORDED && fits(&mut c, msg) {
            c.orphan_errors.push(msg.clone());
        }
    }

    /// A limit cut or discarded something: recorded once per limit (the first time, with
    /// a count of later hits), for `compliance/limits`.
    pub fn record_cut(&self, key: &str, what: String) {
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        // One entry per limit: `key` tags it (the texts are fixed per limit).
        let tagged = format!("{key}\u{0}{what}");
        if !c.cuts.iter().any(|s| s.split('\u{0}').next() == Some(key)) {
            c.cuts.push(tagged);
        }
    }

    /// A server message over `limits.message_bytes` was dropped unread. Its request is
    /// not known (the id is in the dropped bytes), so every pending request fails now with
    /// a message naming the cap, rather than waiting for `call_ms`.
    pub fn oversized(&self, wire: &str) {
        let cap = show_bytes(self.guard.limits.message_bytes);
        let what = format!(
            "the server sent a message ({wire}) over limits.message_bytes ({cap}); it was discarded"
        );
        self.discard_pending("message_bytes", what);
    }

    /// A message was dropped unread: note it (`limits.<key>`) and fail every pending request.
    fn discard_pending(&self, key: &str, what: String) {
        self.record_cut(key, what.clone());
        let drained: Vec<Pending> = {
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            p.drain().map(|(_, p)| p).collect()
        };
        self.raw_waiting.store(0, Ordering::SeqCst);
        for p in drained {
            let _ =
                p.tx.send(Err(RpcError::plain(format!("Response discarded: {what}"))));
        }
    }

    pub fn chatter(&self) -> Chatter {
        self.chatter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// How many notifications were recorded so far, without copying them.
    pub fn notification_count(&self) -> usize {
        self.chatter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .notifications
            .len()
    }

    pub fn record_stray(&self, line: &[u8]) {
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        c.stray_count += 1;
        if c.stray.len() < 20 && c.recorded_bytes < CHATTER_BYTES {
            // Redacted before the cut: a secret across the cut never shows in part.
            let text = self.guard.redactor.redact_head(line, STRAY_CHARS);
            c.recorded_bytes += text.len();
            c.stray.push(text);
        }
    }

    /// Decode and dispatch one message text (a stdio line, an HTTP body, an SSE event).
    /// `false`: it is not a JSON object or array; the caller records it as stray.
    pub fn dispatch_text(&self, text: &[u8]) -> bool {
        if self.try_dispatch_raw(text) {
            return true;
        }
        match serde_json::from_slice::<Value>(text) {
            Ok(v) if v.is_object() || v.is_array() => {
                self.dispatch(v);
                true
            }
            // Nested past serde's recursion limit (128): never built, and the id inside
            // cannot be read, so pending requests fail now, naming the cause.
            Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
                self.discard_pending(
                    "nesting",
                    "the server sent a message nested more than 128 levels deep; it was discarded"
                        .into(),
                );
                true
            }
            _ => false,
        }
    }

    /// A success response to a request registered as raw is delivered as text. Anything
    /// else (errors, notifications, batches, odd shapes) takes the parsed path unchanged.
    pub fn try_dispatch_raw(&self, text: &[u8]) -> bool {
        if self.raw_waiting.load(Ordering::SeqCst) == 0 {
            return false;
        }
        // From text, not bytes: reading bytes skips members it does not keep without
        // checking their UTF-8, where the parsed path rejects the whole message.
        let Ok(text) = std::str::from_utf8(text) else {
            return false;
        };
        let Ok(env) = serde_json::from_str::<Envelope>(text) else {
            return false;
        };
        let is_null = |r: Option<&RawValue>| r.is_none_or(|r| r.get() == "null");
        // Only a plainly valid success response is delivered here; anything doubtful takes
        // the parsed path, which applies the whole framing rule.
        let version_ok = env.jsonrpc.is_some_and(|v| v.get() == r#""2.0""#);
        let (Some(id), Some(result), false, true, true) = (
            env.id,
            env.result,
            env.error,
            is_null(env.method),
            version_ok,
        ) else {
            return false;
        };
        let Ok(id) = serde_json::from_str::<u64>(id.get()) else {
            return false;
        };
        let raw_pending = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .is_some_and(|p| p.raw);
        if !raw_pending {
            return false;
        }
        if let Some(p) = self.take(id) {
            let _ = p.tx.send(Ok(Answer::Raw(result.to_owned())));
        }
        true
    }

    /// Dispatch one decoded JSON value from the server (an object or a batch array).
    pub fn dispatch(&self, msg: Value) {
        match msg {
            Value::Array(items) => {
                for item in items {
                    self.dispatch_one(item);
                }
            }
            other => self.dispatch_one(other),
        }
    }

    fn dispatch_one(&self, msg: Value) {
        let Value::Object(mut obj) = msg else {
            self.record_stray(msg.to_string().as_bytes());
            return;
        };
        if let Some(method) = obj.get("method").and_then(Value::as_str) {
            let method = method.to_string();
            if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
                self.record_framing(FAULT_VERSION, &obj, false);
            }
            match obj.get("id") {
                Some(id) if !id.is_null() => self.answer_server_request(&method, id.clone(), &obj),
                _ => self.record_notification(&method, obj),
            }
            return;
        }
        let Some((id, exact)) = self.claimed_id(obj.get("id")) else {
            // No id, or one no request of ours used in any spelling: an integer id with a
            // result or error is ignored like the reference client; the rest is stray.
            let ignorable = obj.get("id").is_some_and(Value::is_u64)
                && (obj.contains_key("result") || obj.contains_key("error"));
            if !ignorable {
                self.record_stray(Value::Object(obj).to_string().as_bytes());
            }
            return;
        };
        if let Some(fault) = response_fault(&obj, exact) {
            // Never the answer (#12 §1): the request it claimed fails at once, naming why.
            let pending = self.has_pending(id);
            self.record_framing(&fault, &obj, pending);
            self.fail(
                id,
                RpcError::plain(format!(
                    "Invalid JSON-RPC response from server: {fault}; it was not taken as the answer"
                )),
            );
            return;
        }
        // A valid response for an answered or abandoned id is ignored.
        let Some(p) = self.take(id) else { return };
        // The result is moved out, not cloned: a listing page can be megabytes.
        let outcome = match obj.get("error") {
            Some(err) => Err(protocol_error(err)),
            None => Ok(Answer::Value(obj.remove("result").unwrap_or(Value::Null))),
        };
        let _ = p.tx.send(outcome);
    }

    /// The request id a response claims: `(id, true)` for an integer id mcpward used,
    /// `(id, false)` when it matches one only after a type change (`"1"`, `1.0`).
    fn claimed_id(&self, id: Option<&Value>) -> Option<(u64, bool)> {
        let (n, exact) = match id? {
            Value::Number(n) => match n.as_u64() {
                Some(n) => (n, true),
                None => (integral_u64(n.as_f64()?)?, false),
            },
            Value::String(s) => (s.trim().parse::<u64>().ok()?, false),
            _ => return None,
        };
        (n < self.next_id.load(Ordering::SeqCst)).then_some((n, exact))
    }

    fn record_framing(&self, fault: &str, obj: &Map<String, Value>, failed_request: bool) {
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        let f = &mut c.framing;
        f.count += 1;
        if failed_request {
            f.failed_requests += 1;
        }
        if f.first.is_none() {
            let text = serde_json::to_string(obj).unwrap_or_default();
            f.first = Some(FramingFault {
                fault: fault.to_string(),
                text: cut_bytes(&text, FRAMING_KEEP).to_string(),
            });
        }
    }

    /// Resolves with the first notification recorded after the `seen`-th whose value at
    /// `pointer` is `id` (e.g. a subscription acknowledgment), as soon as it is in.
    pub async fn tagged(&self, pointer: &str, id: u64, seen: usize) -> Value {
        let mut rx = self.notes_seen.subscribe();
        loop {
            let found = self
                .chatter
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .notifications
                .iter()
                .skip(seen)
                .find(|n| n.pointer(pointer).and_then(Value::as_u64) == Some(id))
                .cloned();
            if let Some(n) = found {
                return n;
            }
            if rx.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    fn record_notification(&self, method: &str, obj: Map<String, Value>) {
        if method == "notifications/progress" {
            // DECISIONS #32: progress for a pending request restarts its call timer.
            let token = obj
                .get("params")
                .and_then(|p| p.get("progressToken"))
                .and_then(Value::as_u64);
            // Only a token this request sent counts (#12 §2); the exchange bounds how
            // often it may restart the timer.
            if let Some(t) = token {
                if let Some(n) = self
                    .pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&t)
                    .and_then(|p| p.progress.as_ref())
                {
                    n.notify_one();
                }
            }
        }
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        let v = Value::Object(obj);
        if c.notifications.len() < MAX_RECORDED && fits(&mut c, &v) {
            c.notifications.push(v);
        }
        drop(c);
        self.notes_seen.send_modify(|n| *n += 1);
    }

    fn answer_server_request(&self, method: &str, id: Value, obj: &Map<String, Value>) {
        {
            let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
            let v = Value::Object(obj.clone());
            if c.server_requests.len() < MAX_RECORDED && fits(&mut c, &v) {
                c.server_requests.push(v);
            }
        }
        if self.modern.load(Ordering::SeqCst) {
            return; // a modern client must not write responses (§8)
        }
        // We declare no client capabilities: ping gets an empty result, anything else -32601.
        let reply = if method == "ping" {
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
        };
        let _ = self.replies.send(reply);
    }
}

const FAULT_VERSION: &str = "\"jsonrpc\" is missing or not \"2.0\"";

/// What makes a message claiming request `id` an invalid JSON-RPC 2.0 response, if
/// anything (#12 §1). `exact`: its id has the request's type.
fn response_fault(obj: &Map<String, Value>, exact: bool) -> Option<String> {
    if !exact {
        let id = obj.get("id").map(Value::to_string).unwrap_or_default();
        return Some(format!(
            "its id {} is not an integer, but mcpward's request ids are integers",
            truncate(&id, 40)
        ));
    }
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(FAULT_VERSION.into());
    }
    match (obj.get("result"), obj.get("error")) {
        (Some(_), Some(_)) => Some("it has both \"result\" and \"error\"".into()),
        (None, None) => Some("it has neither \"result\" nor \"error\"".into()),
        (None, Some(e)) => {
            // An integral float (`-32602.0`) is the same integer; `protocol_error` reads it.
            let code_ok = e.get("code").is_some_and(|c| {
                c.is_i64()
                    || c.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            });
            let message_ok = e.get("message").is_some_and(Value::is_string);
            (!(e.is_object() && code_ok && message_ok)).then(|| {
                "its \"error\" is not an object with an integer \"code\" and a string \"message\""
                    .into()
            })
        }
        (Some(_), None) => None,
    }
}

fn integral_u64(f: f64) -> Option<u64> {
    (f.fract() == 0.0 && (0.0..9.0e15).contains(&f)).then_some(f as u64)
}

/// The longest prefix of `s` within `max` bytes, cut at a character boundary.
fn cut_bytes(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Whether `v` still fits the chatter's byte bound; counts it in when it does. Past the
/// bound nothing more is recorded, and the cut is noted once.
fn fits(c: &mut Chatter, v: &Value) -> bool {
    if c.recorded_bytes >= CHATTER_BYTES {
        return false;
    }
    let size = serde_json::to_vec(v).map_or(usize::MAX, |b| b.len());
    if c.recorded_bytes.saturating_add(size) > CHATTER_BYTES {
        c.recorded_bytes = CHATTER_BYTES;
        let note = format!(
            "recorded server chatter reached its {} bound; later notifications and server requests were not kept",
            show_bytes(CHATTER_BYTES)
        );
        if !c
            .cuts
            .iter()
            .any(|s| s.starts_with("recorded server chatter"))
        {
            c.cuts.push(note);
        }
        return false;
    }
    c.recorded_bytes += size;
    true
}

/// A JSON-RPC `error` member as the checks see it; malformed members still yield an error.
pub fn protocol_error(err: &Value) -> RpcError {
    let code = err.get("code").and_then(|c| {
        c.as_i64().or_else(|| {
            c.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        })
    });
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("(no message)")
        .to_string();
    match code {
        Some(code) => RpcError::protocol(code, message, err.get("data").cloned()),
        None => RpcError::plain(format!(
            "Malformed JSON-RPC error from server: {}",
            truncate(&err.to_string(), 300)
        )),
    }
}

pub fn request_message(id: u64, method: &str, params: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), json!("2.0"));
    m.insert("id".into(), json!(id));
    m.insert("method".into(), json!(method));
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}

pub fn notification_message(method: &str, params: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), json!("2.0"));
    m.insert("method".into(), json!(method));
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn routes_responses_notifications_and_requests() {
        let (d, mut replies) = Dispatcher::new(Guard::default());
        let id = d.next_id();
        let (rx, _) = d.register(id, false, false);
        d.dispatch(json!({"jsonrpc":"2.0","method":"notifications/message","params":{}}));
        d.dispatch(json!({"jsonrpc":"2.0","id":"s1","method":"roots/list"}));
        d.dispatch(json!({"jsonrpc":"2.0","id":77,"result":{}}));
        d.dispatch(json!("garbage"));
        d.dispatch(json!({"jsonrpc":"2.0","id":id,"error":{"code":-32602,"message":"bad"}}));
        let err = rx.await.unwrap().unwrap_err();
        assert_eq!(err.code, Some(-32602));
        assert_eq!(err.to_string(), "MCP error -32602: bad");
        let reply = replies.recv().await.unwrap();
        assert_eq!(reply["error"]["code"], -32601);
        assert_eq!(reply["id"], "s1");
        let c = d.chatter();
        assert_eq!(c.notifications.len(), 1);
        assert_eq!(c.stray_count, 1);
    }

    #[tokio::test]
    async fn modern_era_records_server_requests_without_answering() {
        let (d, mut replies) = Dispatcher::new(Guard::default());
        d.set_modern(true);
        d.dispatch(json!({"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage"}));
        d.dispatch(json!({"jsonrpc":"2.0","id":"s2","method":"ping"}));
        assert!(replies.try_recv().is_err());
        assert_eq!(d.chatter().server_requests.len(), 2);
        d.set_modern(false);
        d.dispatch(json!({"jsonrpc":"2.0","id":"s3","method":"ping"}));
        assert_eq!(replies.recv().await.unwrap()["id"], "s3");
    }

    #[tokio::test]
    async fn raw_requests_get_their_result_as_text_and_nothing_else_changes() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let raw_id = d.next_id();
        let (raw_rx, _) = d.register(raw_id, true, false);
        let plain_id = d.next_id();
        let (plain_rx, _) = d.register(plain_id, false, false);
        // A notification while a raw request waits still takes the parsed path.
        assert!(d.dispatch_text(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#));
        assert_eq!(d.chatter().notifications.len(), 1);
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{raw_id},"result":{{"tools": [ {{"name":"a"}} ]}}}}"#
        );
        assert!(d.dispatch_text(text.as_bytes()));
        match raw_rx.await.unwrap().unwrap() {
            Answer::Raw(r) => assert_eq!(r.get(), r#"{"tools": [ {"name":"a"} ]}"#),
            other => panic!("{other:?}"),
        }
        let text = format!(r#"{{"jsonrpc":"2.0","id":{plain_id},"result":{{"x":1}}}}"#);
        assert!(d.dispatch_text(text.as_bytes()));
        assert!(matches!(plain_rx.await.unwrap().unwrap(), Answer::Value(v) if v["x"] == 1));
        // An error answer to a raw request is an error, as before.
        let id = d.next_id();
        let (rx, _) = d.register(id, true, false);
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-1,"message":"m"}}}}"#);
        assert!(d.dispatch_text(text.as_bytes()));
        assert_eq!(rx.await.unwrap().unwrap_err().code, Some(-1));
        // Both result and error is no answer at all (#12 §1): it used to be taken as the error.
        let id = d.next_id();
        let (rx, _) = d.register(id, true, false);
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{}},"error":{{"code":-1,"message":"m"}}}}"#
        );
        assert!(d.dispatch_text(text.as_bytes()));
        let e = rx.await.unwrap().unwrap_err();
        assert_eq!(e.code, None);
        assert!(e.message.contains("both \"result\" and \"error\""), "{e}");
        assert!(!d.dispatch_text(b"not json"));
        assert!(!d.dispatch_text(b"42"));
    }

    /// Each framing fault, over the parsed and the raw path: the request fails at once with
    /// a message naming the fault, and the fault is recorded.
    #[tokio::test]
    async fn invalid_responses_fail_their_request_at_once_and_are_recorded() {
        let cases: &[(&str, &str)] = &[
            (r#"{"id":ID,"result":{}}"#, "\"jsonrpc\" is missing"),
            (r#"{"jsonrpc":"1.0","id":ID,"result":{}}"#, "not \"2.0\""),
            (r#"{"jsonrpc":2.0,"id":ID,"result":{}}"#, "not \"2.0\""),
            (
                r#"{"jsonrpc":"2.0","id":"ID","result":{}}"#,
                "is not an integer",
            ),
            (
                r#"{"jsonrpc":"2.0","id":ID.0,"result":{}}"#,
                "is not an integer",
            ),
            (
                r#"{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":1,"message":"m"}}"#,
                "both",
            ),
            (r#"{"jsonrpc":"2.0","id":ID}"#, "neither"),
            (
                r#"{"jsonrpc":"2.0","id":ID,"error":{"code":"x","message":"m"}}"#,
                "integer \"code\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":ID,"error":{"code":1}}"#,
                "string \"message\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":ID,"error":"boom"}"#,
                "not an object",
            ),
            (
                r#"{"jsonrpc":"2.0","id":ID,"error":{"code":1.5,"message":"m"}}"#,
                "integer",
            ),
        ];
        for raw in [false, true] {
            for (i, (template, fault)) in cases.iter().enumerate() {
                let (d, _r) = Dispatcher::new(Guard::default());
                let id = d.next_id();
                let (rx, _) = d.register(id, raw, false);
                let text = template.replace("ID", &id.to_string());
                assert!(d.dispatch_text(text.as_bytes()), "{text}");
                // Settled at once: no timer is involved.
                let e = rx.await.unwrap().unwrap_err();
                assert!(
                    e.message
                        .starts_with("Invalid JSON-RPC response from server: "),
                    "{e}"
                );
                assert!(e.message.contains(fault), "case {i}: {e}");
                assert_eq!(
                    e.code, None,
                    "a framing fault is never a protocol error: {e}"
                );
                let f = d.chatter().framing;
                assert_eq!((f.count, f.failed_requests), (1, 1), "{text}");
                assert_eq!(f.first.unwrap().text, text.replace(' ', ""));
                assert!(!d.has_pending(id));
            }
        }
    }

    #[tokio::test]
    async fn a_valid_answer_after_a_bad_one_is_a_duplicate_and_an_unknown_id_is_ignored() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let id = d.next_id();
        let (rx, _) = d.register(id, false, false);
        // Ids no request used, in any spelling: ignored as before, not a framing fault.
        d.dispatch(json!({"id": 99, "result": {}}));
        d.dispatch(json!({"jsonrpc": "2.0", "id": "99", "result": {}}));
        d.dispatch(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "p"}}),
        );
        assert_eq!(d.chatter().framing.count, 0);
        assert!(d.has_pending(id));
        d.dispatch(json!({"jsonrpc": "2.0", "id": id.to_string(), "result": {"bad": true}}));
        d.dispatch(json!({"jsonrpc": "2.0", "id": id, "result": {"good": true}}));
        assert!(rx.await.unwrap().is_err());
        let f = d.chatter().framing;
        assert_eq!((f.count, f.failed_requests), (1, 1));

        // A valid answer, then an invalid duplicate: the answer stands; the fault is recorded
        // without failing anything (the rule's warn case).
        let id = d.next_id();
        let (rx, _) = d.register(id, false, false);
        d.dispatch(json!({"jsonrpc": "2.0", "id": id, "result": {"ok": 1}}));
        d.dispatch(json!({"id": id, "result": {"ok": 2}}));
        assert!(matches!(rx.await.unwrap().unwrap(), Answer::Value(v) if v["ok"] == 1));
        let f = d.chatter().framing;
        assert_eq!((f.count, f.failed_requests), (2, 1));
    }

    #[tokio::test]
    async fn a_notification_without_jsonrpc_is_recorded_and_still_dispatched() {
        let (d, mut replies) = Dispatcher::new(Guard::default());
        d.dispatch(json!({"method": "notifications/message", "params": {}}));
        d.dispatch(json!({"jsonrpc": "2.0", "method": "notifications/message"}));
        d.dispatch(json!({"jsonrpc": "1.0", "id": "s1", "method": "ping"}));
        let c = d.chatter();
        assert_eq!(c.notifications.len(), 2);
        assert_eq!((c.framing.count, c.framing.failed_requests), (2, 0));
        assert_eq!(replies.recv().await.unwrap()["id"], "s1");
        // Integral float codes are integers (as `protocol_error` reads them).
        let id = d.next_id();
        let (rx, _) = d.register(id, false, false);
        d.dispatch(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602.0, "message": "m"}}),
        );
        assert_eq!(rx.await.unwrap().unwrap_err().code, Some(-32602));
    }

    #[tokio::test]
    async fn the_first_invalid_message_is_kept_bounded() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let id = d.next_id();
        let (_rx, _) = d.register(id, false, false);
        let big = "é".repeat(10_000);
        d.dispatch(json!({"id": id, "result": big}));
        let text = d.chatter().framing.first.unwrap().text;
        assert!(
            text.len() <= FRAMING_KEEP && text.len() > FRAMING_KEEP - 4,
            "{}",
            text.len()
        );
    }

    /// The mechanism behind the listen probe ending early: a recorded notification carrying
    /// the id ends the wait at once, with no timer involved.
    #[tokio::test]
    async fn a_tagged_notification_ends_the_wait() {
        use std::future::Future;
        use std::task::{Context, Poll};
        let (d, _r) = Dispatcher::new(Guard::default());
        let pointer = "/params/_meta/io.modelcontextprotocol~1subscriptionId";
        let note = |id: u64| {
            json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                   "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id}}})
        };
        d.dispatch(note(7)); // before `seen`: not counted
        let seen = d.chatter().notifications.len();
        let wait = d.tagged(pointer, 7, seen);
        tokio::pin!(wait);
        let waker = futures_util::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(wait.as_mut().poll(&mut cx).is_pending());
        d.dispatch(note(8));
        assert!(wait.as_mut().poll(&mut cx).is_pending());
        d.dispatch(note(7));
        match wait.as_mut().poll(&mut cx) {
            Poll::Ready(v) => assert_eq!(v, note(7)),
            Poll::Pending => panic!("the acknowledgment did not end the wait"),
        }
    }

    /// Fuzz finding (fuzz/seeds/jsonrpc/invalid-utf8.txt): invalid UTF-8 in a member the
    /// raw pre-scan skips (`jsonrpc`) made it deliver a message the parsed path rejects.
    #[tokio::test]
    async fn raw_and_parsed_requests_reject_invalid_utf8_alike() {
        let (d, _r) = Dispatcher::new(Guard::default());
        for raw in [true, false] {
            let id = d.next_id();
            let (mut rx, _) = d.register(id, raw, false);
            let text = format!(r#"{{"jsonrpc":"2~0","id":{id},"result":{{}}}}"#);
            let bytes: Vec<u8> = text
                .bytes()
                .map(|b| if b == b'~' { 0xff } else { b })
                .collect();
            assert!(!d.dispatch_text(&bytes), "raw: {raw}");
            assert!(rx.try_recv().is_err(), "raw: {raw}: answered");
            d.forget(id);
        }
    }

    /// Fuzz finding (fuzz/seeds/jsonrpc/error-null.txt): `"error": null` beside a result
    /// made the raw path deliver a success where the parsed path refused it. Both paths now
    /// refuse it as a framing fault (it has both members).
    #[tokio::test]
    async fn raw_and_parsed_requests_judge_an_error_of_null_alike() {
        let (d, _r) = Dispatcher::new(Guard::default());
        for raw in [true, false] {
            let id = d.next_id();
            let (rx, _) = d.register(id, raw, false);
            let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}},"error":null}}"#);
            assert!(d.dispatch_text(text.as_bytes()));
            let err = rx.await.unwrap().unwrap_err();
            assert_eq!(err.code, None, "raw: {raw}");
            assert!(
                err.message.contains("it has both \"result\" and \"error\""),
                "raw: {raw}: {err}"
            );
        }
    }

    #[tokio::test]
    async fn close_fails_pending_with_local_32000() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let (rx, _) = d.register(d.next_id(), false, false);
        d.close_all();
        let e = rx.await.unwrap().unwrap_err();
        assert_eq!(e.code, Some(-32000));
        assert!(e.local);
        assert!(e.to_string().contains("not sent by the server"));
    }

    #[tokio::test]
    async fn progress_counts_only_for_a_token_sent_and_chatter_is_capped_by_bytes() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let with = d.next_id();
        let (_rx1, n1) = d.register(with, false, true);
        let without = d.next_id();
        let (_rx2, n2) = d.register(without, false, false);
        for t in [with, without] {
            d.dispatch(json!({"jsonrpc":"2.0","method":"notifications/progress",
                              "params":{"progressToken": t, "progress": 1}}));
        }
        // The sent token wakes its request; the other request's id as a token does not.
        tokio::time::timeout(std::time::Duration::from_secs(1), n1.notified())
            .await
            .expect("progress for the sent token");
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(50), n2.notified())
                .await
                .is_err()
        );
        // 100 notifications of 64 KiB: only what fits in CHATTER_BYTES is kept.
        let big = "x".repeat(64 * 1024);
        for _ in 0..100 {
            d.dispatch(
                json!({"jsonrpc":"2.0","method":"notifications/message","params":{"data": big}}),
            );
        }
        let c = d.chatter();
        assert!(c.recorded_bytes <= CHATTER_BYTES);
        assert!(c.notifications.len() < 20, "{}", c.notifications.len());
        assert!(c.cut_messages()[0].contains("1 MiB bound"));
    }

    #[tokio::test]
    async fn an_oversized_message_fails_pending_requests_naming_the_cap() {
        let (d, _r) = Dispatcher::new(Guard::default());
        let (rx, _) = d.register(d.next_id(), false, false);
        d.oversized("a stdio line");
        let e = rx.await.unwrap().unwrap_err();
        assert!(e.message.contains("limits.message_bytes (16 MiB)"), "{e}");
        assert_eq!(d.chatter().cut_messages().len(), 1);
        d.oversized("a stdio line");
        assert_eq!(d.chatter().cut_messages().len(), 1, "one entry per limit");
    }
}
