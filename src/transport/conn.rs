//! One open connection below any era: the wire (stdio or HTTP), the dispatcher, and the
//! request/response exchange with its deadline. Era strategies (legacy, modern) drive their
//! handshakes through this; the client adds the era's shaping of normal requests on top.

use super::http::{ExtraHeaders, HttpSpec, HttpWire};
use super::rpc::{notification_message, request_message, Answer, Dispatcher, Guard};
use super::stdio::{StdioSpec, StdioWire};
use crate::observed::RpcError;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// How long a `notifications/cancelled` may take to send before it is abandoned.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// No per-request deadline: the connect budget bounds handshake requests.
pub const UNBOUNDED: Duration = Duration::from_secs(u64::MAX / 4);

pub enum Endpoint {
    Stdio(StdioSpec),
    Http(HttpSpec),
}

pub enum Wire {
    Stdio(Box<StdioWire>),
    Http(HttpWire),
}

impl Wire {
    async fn send(&self, msg: &Value, extra: &ExtraHeaders) -> Result<(), RpcError> {
        match self {
            Wire::Stdio(w) => w.send(msg),
            Wire::Http(w) => w.send(msg, extra).await,
        }
    }
}

pub struct Conn {
    pub d: Arc<Dispatcher>,
    pub wire: Arc<Wire>,
}

impl Conn {
    /// Start the endpoint (spawn / HTTP client) with a fresh dispatcher; no message sent.
    pub fn open(endpoint: &Endpoint, guard: &Guard) -> Result<Conn, String> {
        let (d, mut replies) = Dispatcher::new(guard.clone());
        let wire = match endpoint {
            Endpoint::Stdio(spec) => {
                StdioWire::spawn(spec, d.clone()).map(|w| Wire::Stdio(Box::new(w)))
            }
            Endpoint::Http(spec) => HttpWire::new(spec, d.clone()).map(Wire::Http),
        }?;
        let wire = Arc::new(wire);
        // Answers to server→client requests go out on the same wire.
        let w2 = wire.clone();
        tokio::spawn(async move {
            while let Some(reply) = replies.recv().await {
                let _ = w2.send(&reply, &Vec::new()).await;
            }
        });
        Ok(Conn { d, wire })
    }

    pub fn is_http(&self) -> bool {
        matches!(&*self.wire, Wire::Http(_))
    }

    pub fn http(&self) -> Option<&HttpWire> {
        match &*self.wire {
            Wire::Http(w) => Some(w),
            Wire::Stdio(_) => None,
        }
    }

    /// HTTP status of the answer to request `id` (stateless HTTP only).
    pub fn status_of(&self, id: Option<u64>) -> Option<u16> {
        match (self.http(), id) {
            (Some(w), Some(id)) => w.status_of(id),
            _ => None,
        }
    }

    /// The era probe and the modern era: server requests are recorded, never answered, and
    /// the HTTP wire is stateless.
    pub fn set_stateless(&self, on: bool) {
        self.d.set_modern(on);
        if let Some(w) = self.http() {
            w.set_stateless(on);
        }
    }

    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), RpcError> {
        self.wire
            .send(&notification_message(method, params), &Vec::new())
            .await
    }

    /// `params` sent as given with exactly these HTTP headers; returns the id used.
    pub async fn request_raw(
        &self,
        method: &str,
        params: Option<Value>,
        headers: ExtraHeaders,
        timeout: Duration,
        timeout_msg: Option<String>,
    ) -> (Option<u64>, Result<Value, RpcError>) {
        let (id, r) = self
            .exchange(
                |id| (request_message(id, method, params), headers),
                timeout,
                timeout_msg,
                false,
                true,
                None,
            )
            .await;
        (id, r.map(Answer::into_value))
    }

    /// One request with its own deadline; a progress notification for it restarts the
    /// deadline (DECISIONS #32) when the request sent its id as `_meta.progressToken`, at
    /// most `limits.progress_resets` times (#12 §2), so a chatty server costs at most
    /// `timeout` × (1 + that). `timeout_msg` replaces the protocol-layer -32001 error.
    /// `shape` builds the message and HTTP headers for the id; `may_cancel`: a timed-out
    /// request is cancelled with `notifications/cancelled`. `ack`: `(pointer, seen)` — the
    /// wait also ends, like a timeout but at once, when a notification recorded after the
    /// `seen`-th carries the request's id at `pointer` (a subscription acknowledgment: the
    /// listen stays open, so its answer is that notification, not a response).
    #[allow(clippy::too_many_arguments)]
    pub async fn exchange(
        &self,
        shape: impl FnOnce(u64) -> (Value, ExtraHeaders),
        timeout: Duration,
        timeout_msg: Option<String>,
        text_result: bool,
        may_cancel: bool,
        ack: Option<(&str, usize)>,
    ) -> (Option<u64>, Result<Answer, RpcError>) {
        if self.d.is_closed() {
            return (None, Err(RpcError::not_connected()));
        }
        let id = self.d.next_id();
        let (msg, extra) = shape(id);
        let sent_token = msg
            .pointer("/params/_meta/progressToken")
            .and_then(Value::as_u64)
            == Some(id);
        let (rx, progress) = self.d.register(id, text_result, sent_token);
        let mut resets_left = self.d.guard.limits.progress_resets;
        let exchange = async {
            self.wire.send(&msg, &extra).await?;
            rx.await.unwrap_or_else(|_| Err(RpcError::closed()))
        };
        tokio::pin!(exchange);
        let acknowledged = async {
            match ack {
                Some((pointer, seen)) => self.d.tagged(pointer, id, seen).await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(acknowledged);
        let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        let mut deadline = Instant::now().checked_add(timeout).unwrap_or(far);
        loop {
            tokio::select! {
                r = &mut exchange => {
                    self.d.forget(id);
                    return (Some(id), r);
                }
                _ = &mut acknowledged => {
                    self.d.forget(id);
                    self.cancel(id, "acknowledged; the probe is done", may_cancel).await;
                    return (Some(id), Err(RpcError::plain(
                        "still open after its acknowledgment; cancelled",
                    )));
                }
                _ = tokio::time::sleep_until(deadline) => {
                    self.d.forget(id);
                    let reason = timeout_msg.clone().unwrap_or_else(|| "Request timed out".into());
                    self.cancel(id, &reason, may_cancel).await;
                    return (Some(id), Err(match timeout_msg {
                        Some(m) => RpcError::plain(m),
                        None => RpcError::request_timeout(),
                    }));
                }
                _ = progress.notified(), if resets_left > 0 => {
                    resets_left -= 1;
                    deadline = Instant::now().checked_add(timeout).unwrap_or(far);
                    if resets_left == 0 {
                        self.d.record_cut(
                            "progress_resets",
                            format!(
                                "progress notifications restarted a request's timer limits.progress_resets ({}) times; later ones no longer did",
                                self.d.guard.limits.progress_resets
                            ),
                        );
                    }
                }
            }
        }
    }

    /// Best effort, bounded: a server that stopped answering must not turn a call timeout
    /// into the whole run's deadline.
    async fn cancel(&self, id: u64, reason: &str, may_cancel: bool) {
        if may_cancel {
            let cancel = self.notify(
                "notifications/cancelled",
                Some(json!({"requestId": id, "reason": reason})),
            );
            let _ = tokio::time::timeout(CANCEL_GRACE, cancel).await;
        }
    }

    /// stdio: the exit status of a server that exited without reading anything mcpward
    /// wrote (see `StdioWire::exited_unread`); `None` otherwise and over HTTP.
    pub async fn exited_unread(&self, within: Duration) -> Option<String> {
        match &*self.wire {
            Wire::Stdio(w) => w.exited_unread(within).await,
            Wire::Http(_) => None,
        }
    }

    /// stdio, after the server closed its stdout: its exit status, waiting up to `within`.
    pub async fn exit_status(&self, within: Duration) -> Option<String> {
        match &*self.wire {
            Wire::Stdio(w) if self.d.is_closed() => w.exit_status(within).await,
            _ => None,
        }
    }

    pub fn stderr_tail(&self) -> String {
        match &*self.wire {
            Wire::Stdio(w) => w.stderr_tail(),
            Wire::Http(_) => String::new(),
        }
    }

    /// Hard stop (failed connect): kill a stdio server without the grace period.
    pub async fn abort(&self) {
        match &*self.wire {
            Wire::Stdio(w) => w.abort().await,
            Wire::Http(w) => w.close().await,
        }
        self.d.close_all();
    }

    pub async fn close(&self) {
        match &*self.wire {
            Wire::Stdio(w) => w.close().await,
            Wire::Http(w) => w.close().await,
        }
        self.d.close_all();
    }
}
