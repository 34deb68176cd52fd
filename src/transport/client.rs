//! The one client interface checks use: connect (era strategy), list, call, ping, close.

use super::http::{ExtraHeaders, HttpSpec, HttpWire};
use super::modern::{self, Handshake};
use super::rpc::{notification_message, Answer, Chatter, Dispatcher};
use super::stdio::{StdioSpec, StdioWire};
use super::{Era, Listing, RpcError, ServerHello, TextListing, LEGACY_VERSIONS};
use crate::surface::json::{raw_to_value, RawMembers};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Fixed per-request limit of the protocol layer for requests not bounded by `call_ms`.
pub const PROTOCOL_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a `notifications/cancelled` may take to send before it is abandoned.
const CANCEL_GRACE: Duration = Duration::from_secs(2);
/// Pagination guard (transport.md §4).
pub const MAX_PAGES: usize = 1000;

pub enum Endpoint {
    Stdio(StdioSpec),
    Http(HttpSpec),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EraChoice {
    Auto,
    Modern,
    Legacy,
}

pub struct ConnectOptions {
    pub endpoint: Endpoint,
    pub connect_ms: u64,
    pub call_ms: u64,
    pub era: EraChoice,
}

pub(super) enum Wire {
    Stdio(Box<StdioWire>),
    Http(HttpWire),
}

impl Wire {
    async fn send(&self, msg: &Value, extra: &Vec<(String, String)>) -> Result<(), RpcError> {
        match self {
            Wire::Stdio(w) => w.send(msg),
            Wire::Http(w) => w.send(msg, extra).await,
        }
    }
    async fn close(&self) {
        match self {
            Wire::Stdio(w) => w.close().await,
            Wire::Http(w) => w.close().await,
        }
    }
}

pub struct Client {
    pub(super) d: Arc<Dispatcher>,
    pub(super) wire: Arc<Wire>,
    hello: ServerHello,
    call_ms: u64,
    closed: tokio::sync::Mutex<bool>,
    /// Modern-era state (version in use, remembered tool schemas, page metadata, notes).
    pub(super) m: modern::State,
}

/// Why a connection could not be set up; the CLI prints it and exits 2.
#[derive(Debug)]
pub struct ConnectError {
    pub message: String,
    /// The tail of what a stdio server wrote to stderr, to help the user see why.
    pub server_stderr: String,
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Client {
    pub async fn connect(opts: ConnectOptions) -> Result<Client, ConnectError> {
        let mut client = Client::open(&opts)?;
        let budget = Duration::from_millis(opts.connect_ms);
        let outcome = tokio::time::timeout(budget, client.handshake(opts.era)).await;
        let err = match outcome {
            Ok(Handshake::Done(hello)) => {
                client.hello = *hello;
                return Ok(client);
            }
            Ok(Handshake::Respawn { offer, why }) => return client.respawn(&opts, &offer, &why).await,
            Ok(Handshake::Fail(e)) => e,
            Err(_) if client.may_respawn(opts.era) => {
                let why = format!("no answer within connect_ms ({}ms)", opts.connect_ms);
                return client.respawn(&opts, LEGACY_VERSIONS[0], &why).await;
            }
            Err(_) if opts.era == EraChoice::Modern => format!(
                "Timeout: connection to server ({}ms); protocol_era is modern, so there is no legacy fallback",
                opts.connect_ms
            ),
            Err(_) => format!("Timeout: connection to server ({}ms)", opts.connect_ms),
        };
        client.abort().await;
        Err(ConnectError {
            message: err,
            server_stderr: client.stderr_tail(),
        })
    }

    /// §3.2 step 5: end the probed process, start a fresh one and run the plain legacy
    /// handshake with a fresh `connect_ms` budget. At most once per connection.
    async fn respawn(
        self,
        opts: &ConnectOptions,
        offer: &str,
        why: &str,
    ) -> Result<Client, ConnectError> {
        self.abort().await;
        let mut client = Client::open(opts)?;
        for n in self.m.notes() {
            client.m.add_note(n);
        }
        client.m.add_note(format!(
            "mcpward: the server/discover probe failed ({why}); restarted the server for the legacy handshake (set server.protocol_era: legacy to skip the probe)"
        ));
        let budget = Duration::from_millis(opts.connect_ms);
        let err = match tokio::time::timeout(budget, client.legacy_handshake_offering(offer)).await
        {
            Ok(Ok(hello)) => {
                client.hello = hello;
                return Ok(client);
            }
            Ok(Err(e)) => e,
            Err(_) => format!("Timeout: connection to server ({}ms)", opts.connect_ms),
        };
        client.abort().await;
        Err(ConnectError {
            message: format!(
                "{err} (on a restarted server, after the server/discover probe failed: {why})"
            ),
            server_stderr: client.stderr_tail(),
        })
    }

    /// Start the endpoint (spawn / HTTP client) with a fresh dispatcher; no message sent.
    fn open(opts: &ConnectOptions) -> Result<Client, ConnectError> {
        let (d, mut replies) = Dispatcher::new();
        let wire = match &opts.endpoint {
            Endpoint::Stdio(spec) => {
                StdioWire::spawn(spec, d.clone()).map(|w| Wire::Stdio(Box::new(w)))
            }
            Endpoint::Http(spec) => HttpWire::new(spec, d.clone()).map(Wire::Http),
        }
        .map_err(|message| ConnectError {
            message,
            server_stderr: String::new(),
        })?;
        let wire = Arc::new(wire);
        // Answers to server→client requests go out on the same wire.
        let w2 = wire.clone();
        tokio::spawn(async move {
            while let Some(reply) = replies.recv().await {
                let _ = w2.send(&reply, &Vec::new()).await;
            }
        });
        Ok(Client {
            d,
            wire,
            hello: ServerHello {
                era: Era::Legacy,
                protocol_version: String::new(),
                server_info: Value::Null,
                capabilities: Value::Null,
                instructions: None,
                supported_versions: Vec::new(),
                discover: None,
            },
            call_ms: opts.call_ms,
            closed: tokio::sync::Mutex::new(false),
            m: modern::State::default(),
        })
    }

    async fn handshake(&self, era: EraChoice) -> Handshake {
        match era {
            EraChoice::Legacy => match self.legacy_handshake().await {
                Ok(hello) => Handshake::Done(Box::new(hello)),
                Err(e) => Handshake::Fail(e),
            },
            EraChoice::Auto | EraChoice::Modern => self.era_handshake(era).await,
        }
    }

    async fn legacy_handshake(&self) -> Result<ServerHello, String> {
        self.legacy_handshake_offering(LEGACY_VERSIONS[0]).await
    }

    pub(super) async fn legacy_handshake_offering(
        &self,
        offer: &str,
    ) -> Result<ServerHello, String> {
        let params = json!({
            "protocolVersion": offer,
            "capabilities": {},
            "clientInfo": {"name": "mcpward", "version": crate::VERSION},
        });
        let result = self
            .request(
                "initialize",
                Some(params),
                Duration::from_secs(u64::MAX / 4),
                None,
            )
            .await
            .map_err(|e| format!("initialize failed: {e}"))?;
        let Value::Object(obj) = result else {
            return Err(format!(
                "initialize result is not an object: {}",
                short(&result)
            ));
        };
        let version = match obj.get("protocolVersion") {
            Some(Value::String(v)) => v.clone(),
            other => {
                return Err(format!(
                    "initialize result has no protocolVersion string (got {})",
                    other.map(short).unwrap_or_else(|| "nothing".into())
                ))
            }
        };
        if !LEGACY_VERSIONS.contains(&version.as_str()) {
            return Err(format!(
                "Server's protocol version is not supported: {version}"
            ));
        }
        if let Wire::Http(w) = &*self.wire {
            w.set_protocol_version(&version);
        }
        self.notify("notifications/initialized", None)
            .await
            .map_err(|e| format!("notifications/initialized failed: {e}"))?;
        if let Wire::Http(w) = &*self.wire {
            w.open_event_stream();
        }
        Ok(ServerHello {
            era: Era::Legacy,
            protocol_version: version,
            server_info: obj.get("serverInfo").cloned().unwrap_or(Value::Null),
            capabilities: obj.get("capabilities").cloned().unwrap_or(Value::Null),
            instructions: obj.get("instructions").cloned(),
            supported_versions: Vec::new(),
            discover: None,
        })
    }

    pub fn hello(&self) -> &ServerHello {
        &self.hello
    }

    pub fn call_ms(&self) -> u64 {
        self.call_ms
    }

    async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), RpcError> {
        self.wire
            .send(&notification_message(method, params), &Vec::new())
            .await
    }

    /// One request with its own deadline; a progress notification for it restarts the
    /// deadline (DECISIONS #32). `timeout_msg` replaces the protocol-layer -32001 error.
    pub(super) async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
        timeout_msg: Option<String>,
    ) -> Result<Value, RpcError> {
        self.request_as(method, params, None, timeout, timeout_msg)
            .await
            .1
    }

    /// `request` that also returns the id used. `raw`: send `params` as given with exactly
    /// these HTTP headers (compliance probes); `None`: shaped for the era (modern envelope
    /// and headers).
    pub(super) async fn request_as(
        &self,
        method: &str,
        params: Option<Value>,
        raw: Option<ExtraHeaders>,
        timeout: Duration,
        timeout_msg: Option<String>,
    ) -> (Option<u64>, Result<Value, RpcError>) {
        let (id, r) = self
            .exchange(method, params, raw, timeout, timeout_msg, false)
            .await;
        (id, r.map(Answer::into_value))
    }

    /// `request` whose result stays text (see `Dispatcher::register`).
    pub(super) async fn request_text(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Box<RawValue>, RpcError> {
        self.exchange(method, params, None, timeout, None, true)
            .await
            .1
            .map(Answer::into_raw)
    }

    async fn exchange(
        &self,
        method: &str,
        params: Option<Value>,
        raw: Option<ExtraHeaders>,
        timeout: Duration,
        timeout_msg: Option<String>,
        text_result: bool,
    ) -> (Option<u64>, Result<Answer, RpcError>) {
        if self.d.is_closed() {
            return (None, Err(RpcError::not_connected()));
        }
        let id = self.d.next_id();
        let (msg, extra) = self.shape(id, method, params, raw);
        let (rx, progress) = self.d.register(id, text_result);
        let exchange = async {
            self.wire.send(&msg, &extra).await?;
            rx.await.unwrap_or_else(|_| Err(RpcError::closed()))
        };
        tokio::pin!(exchange);
        let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        let mut deadline = Instant::now().checked_add(timeout).unwrap_or(far);
        loop {
            tokio::select! {
                r = &mut exchange => {
                    self.d.forget(id);
                    return (Some(id), r);
                }
                _ = tokio::time::sleep_until(deadline) => {
                    self.d.forget(id);
                    let reason = timeout_msg.clone().unwrap_or_else(|| "Request timed out".into());
                    if self.may_send_cancel() {
                        // Best effort, bounded: a server that stopped answering must not turn
                        // a call timeout into the whole run's deadline.
                        let cancel = self.notify(
                            "notifications/cancelled",
                            Some(json!({"requestId": id, "reason": reason})),
                        );
                        let _ = tokio::time::timeout(CANCEL_GRACE, cancel).await;
                    }
                    return (Some(id), Err(match timeout_msg {
                        Some(m) => RpcError::plain(m),
                        None => RpcError::request_timeout(),
                    }));
                }
                _ = progress.notified() => {
                    deadline = Instant::now().checked_add(timeout).unwrap_or(far);
                }
            }
        }
    }

    pub async fn ping(&self) -> Result<(), RpcError> {
        let r = self.request("ping", None, PROTOCOL_TIMEOUT, None).await?;
        match &r {
            Value::Object(o) if o.keys().all(|k| k == "_meta") => Ok(()),
            other => Err(RpcError::plain(format!(
                "Invalid ping result: expected an empty object, got {}",
                short(other)
            ))),
        }
    }

    /// Every page of `tools/list`, with the loop and page guards. Individual tools are
    /// passed through raw: malformed ones are for the checks to report (DECISIONS #5).
    pub async fn list_tools(&self) -> Listing {
        let tools = self.list_tools_text().await?;
        Ok(tools.iter().map(|t| raw_to_value(t)).collect())
    }

    /// Every page of `tools/list` like `list_tools`, each tool left as its JSON text:
    /// `baseline` and `diff` parse one tool at a time, so a 10,000-tool surface is never
    /// held as one tree.
    pub async fn list_tools_text(&self) -> TextListing {
        let mut tools: Vec<Box<RawValue>> = Vec::new();
        self.m.begin_listing();
        let mut seen = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let page = self
                .request_text("tools/list", params, PROTOCOL_TIMEOUT)
                .await
                .map_err(|e| e.to_string())?;
            let Ok(members) = serde_json::from_str::<RawMembers>(page.get()) else {
                return Err(format!(
                    "tools/list result is not an object: {}",
                    short(&raw_to_value(&page))
                ));
            };
            // Everything but the tools, parsed: small, and what the page checks read.
            let mut rest = Map::new();
            let mut page_tools = None;
            for (k, v) in &members {
                if k == "tools" {
                    page_tools = Some(*v);
                } else {
                    rest.insert(k.clone(), raw_to_value(v));
                }
            }
            self.m.on_page(&rest)?;
            match page_tools {
                Some(t) => match serde_json::from_str::<Vec<Box<RawValue>>>(t.get()) {
                    Ok(items) => tools.extend(items),
                    Err(_) => {
                        return Err(format!(
                            "tools/list result \"tools\" is not an array: {}",
                            short(&raw_to_value(t))
                        ))
                    }
                },
                None => return Err("tools/list result has no \"tools\" array".into()),
            }
            match rest.get("nextCursor") {
                None => {
                    self.m.remember_tools(tools.iter().map(|t| raw_to_value(t)));
                    return Ok(tools);
                }
                Some(Value::String(c)) => {
                    if !seen.insert(c.clone()) {
                        return Err(format!(
                            "tools/list pagination loop: cursor \"{c}\" was returned twice"
                        ));
                    }
                    cursor = Some(c.clone());
                }
                Some(other) => {
                    return Err(format!(
                        "tools/list nextCursor is not a string: {}",
                        short(other)
                    ))
                }
            }
        }
        Err(format!("tools/list exceeded {MAX_PAGES} pages"))
    }

    /// `tools/call` bounded by `call_ms`. The raw result object is returned as-is,
    /// `isError: true` results included.
    pub async fn call_tool(&self, name: &str, args: Map<String, Value>) -> Result<Value, RpcError> {
        let msg = format!("Timeout: tool call \"{name}\" ({}ms)", self.call_ms);
        let params = json!({"name": name, "arguments": args});
        let r = self
            .tools_call(params, Duration::from_millis(self.call_ms), msg)
            .await?;
        if r.is_object() {
            Ok(r)
        } else {
            Err(RpcError::plain(format!(
                "Invalid tool result: expected an object, got {}",
                short(&r)
            )))
        }
    }

    pub fn chatter(&self) -> Chatter {
        self.d.chatter()
    }

    pub fn stderr_tail(&self) -> String {
        match &*self.wire {
            Wire::Stdio(w) => w.stderr_tail(),
            Wire::Http(_) => String::new(),
        }
    }

    async fn abort(&self) {
        let mut done = self.closed.lock().await;
        if !*done {
            match &*self.wire {
                Wire::Stdio(w) => w.abort().await,
                Wire::Http(w) => w.close().await,
            }
            self.d.close_all();
            *done = true;
        }
    }

    /// Idempotent and memoised: concurrent callers all wait for the one shutdown.
    pub async fn close(&self) {
        let mut done = self.closed.lock().await;
        if *done {
            return;
        }
        self.wire.close().await;
        self.d.close_all();
        *done = true;
    }
}

fn short(v: &Value) -> String {
    super::rpc::truncate(&v.to_string(), 200)
}
