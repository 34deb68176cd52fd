//! JSON-RPC 2.0 plumbing shared by both wires: request ids, the pending-response table,
//! and dispatch of everything the server sends (responses, notifications, requests).

use super::RpcError;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot, Notify};

/// Bound on what we keep of server chatter, so a flooding server cannot exhaust memory.
const MAX_RECORDED: usize = 200;

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
    progress: Arc<Notify>,
    raw: bool,
}

/// The members of a message that decide whether it answers a raw request; everything else
/// is skipped without being built.
#[derive(serde::Deserialize)]
struct Envelope<'a> {
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

/// What the server sent besides responses: kept for diagnostics and compliance checks.
#[derive(Debug, Default, Clone)]
pub struct Chatter {
    pub notifications: Vec<Value>,
    pub server_requests: Vec<Value>,
    /// Lines on stdout that were not JSON-RPC messages (first few, truncated).
    pub stray: Vec<String>,
    pub stray_count: usize,
    /// Modern HTTP: JSON-RPC error bodies whose `id` was missing or `null` (adopted by the
    /// POST they answered; recorded for `compliance/server-messages`).
    pub orphan_errors: Vec<Value>,
}

pub struct Dispatcher {
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
}

impl Dispatcher {
    pub fn new() -> (Arc<Self>, mpsc::UnboundedReceiver<Value>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (
            Arc::new(Dispatcher {
                next_id: AtomicU64::new(0),
                pending: Mutex::new(HashMap::new()),
                chatter: Mutex::new(Chatter::default()),
                closed: AtomicBool::new(false),
                modern: AtomicBool::new(false),
                replies: tx,
                raw_waiting: AtomicU64::new(0),
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
    /// one tree; the caller parses it piecewise).
    pub fn register(
        &self,
        id: u64,
        raw: bool,
    ) -> (oneshot::Receiver<Result<Answer, RpcError>>, Arc<Notify>) {
        let (tx, rx) = oneshot::channel();
        if raw {
            self.raw_waiting.fetch_add(1, Ordering::SeqCst);
        }
        let progress = Arc::new(Notify::new());
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                id,
                Pending {
                    tx,
                    progress: progress.clone(),
                    raw,
                },
            );
        (rx, progress)
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
        if c.orphan_errors.len() < MAX_RECORDED {
            c.orphan_errors.push(msg.clone());
        }
    }

    pub fn chatter(&self) -> Chatter {
        self.chatter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn record_stray(&self, line: &[u8]) {
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        c.stray_count += 1;
        if c.stray.len() < 20 {
            let text = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
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
        let (Some(id), Some(result), false, true) =
            (env.id, env.result, env.error, is_null(env.method))
        else {
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
            match obj.get("id") {
                Some(id) if !id.is_null() => self.answer_server_request(&method, id.clone(), &obj),
                _ => self.record_notification(&method, obj),
            }
            return;
        }
        let id = obj.get("id").and_then(Value::as_u64);
        let (Some(id), true) = (id, obj.contains_key("result") || obj.contains_key("error")) else {
            self.record_stray(Value::Object(obj).to_string().as_bytes());
            return;
        };
        // A response for an unknown or abandoned id is ignored, like the reference client.
        let Some(p) = self.take(id) else { return };
        // The result is moved out, not cloned: a listing page can be megabytes.
        let outcome = match obj.get("error") {
            Some(err) => Err(protocol_error(err)),
            None => Ok(Answer::Value(obj.remove("result").unwrap_or(Value::Null))),
        };
        let _ = p.tx.send(outcome);
    }

    fn record_notification(&self, method: &str, obj: Map<String, Value>) {
        if method == "notifications/progress" {
            // DECISIONS #32: progress for a pending request restarts its call timer.
            let token = obj
                .get("params")
                .and_then(|p| p.get("progressToken"))
                .and_then(Value::as_u64);
            if let Some(t) = token {
                if let Some(p) = self
                    .pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&t)
                {
                    p.progress.notify_one();
                }
            }
        }
        let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
        if c.notifications.len() < MAX_RECORDED {
            c.notifications.push(Value::Object(obj));
        }
    }

    fn answer_server_request(&self, method: &str, id: Value, obj: &Map<String, Value>) {
        {
            let mut c = self.chatter.lock().unwrap_or_else(|e| e.into_inner());
            if c.server_requests.len() < MAX_RECORDED {
                c.server_requests.push(Value::Object(obj.clone()));
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

/// The first `max` characters, with `…` when something was cut.
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
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
        let (d, mut replies) = Dispatcher::new();
        let id = d.next_id();
        let (rx, _) = d.register(id, false);
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
        let (d, mut replies) = Dispatcher::new();
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
        let (d, _r) = Dispatcher::new();
        let raw_id = d.next_id();
        let (raw_rx, _) = d.register(raw_id, true);
        let plain_id = d.next_id();
        let (plain_rx, _) = d.register(plain_id, false);
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
        let (rx, _) = d.register(id, true);
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{}},"error":{{"code":-1,"message":"m"}}}}"#
        );
        assert!(d.dispatch_text(text.as_bytes()));
        assert_eq!(rx.await.unwrap().unwrap_err().code, Some(-1));
        assert!(!d.dispatch_text(b"not json"));
        assert!(!d.dispatch_text(b"42"));
    }

    /// Fuzz finding (fuzz/seeds/jsonrpc/invalid-utf8.txt): invalid UTF-8 in a member the
    /// raw pre-scan skips (`jsonrpc`) made it deliver a message the parsed path rejects.
    #[tokio::test]
    async fn raw_and_parsed_requests_reject_invalid_utf8_alike() {
        let (d, _r) = Dispatcher::new();
        for raw in [true, false] {
            let id = d.next_id();
            let (mut rx, _) = d.register(id, raw);
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
    /// made the raw path deliver a success where the parsed path reports a malformed error.
    #[tokio::test]
    async fn raw_and_parsed_requests_judge_an_error_of_null_alike() {
        let (d, _r) = Dispatcher::new();
        for raw in [true, false] {
            let id = d.next_id();
            let (rx, _) = d.register(id, raw);
            let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}},"error":null}}"#);
            assert!(d.dispatch_text(text.as_bytes()));
            let err = rx.await.unwrap().unwrap_err();
            assert_eq!(err.code, None, "raw: {raw}");
            assert!(
                err.message.contains("Malformed JSON-RPC error"),
                "raw: {raw}: {err}"
            );
        }
    }

    #[tokio::test]
    async fn close_fails_pending_with_local_32000() {
        let (d, _r) = Dispatcher::new();
        let (rx, _) = d.register(d.next_id(), false);
        d.close_all();
        let e = rx.await.unwrap().unwrap_err();
        assert_eq!(e.code, Some(-32000));
        assert!(e.local);
        assert!(e.to_string().contains("not sent by the server"));
    }
}
