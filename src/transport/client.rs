//! The one client interface the runner uses: connect (era strategy), list, call, ping,
//! close, and one generic raw request for the deliberate probes checks plan.

use super::conn::{Conn, Endpoint};
use super::era::{EraState, Handshake};
use super::http::ProbeAuth;
use super::legacy;
use super::modern::classify::{classify_call_result, CallStep, MAX_MRTR_ATTEMPTS};
use super::modern::{envelope, handshake as modern_handshake};
use super::origin;
use super::rpc::{request_message, Answer, Guard};
use crate::observed::{
    AuthObservation, Chatter, DiscoverAnswer, HttpVerb, Listing, OriginProbe, OtherSurface,
    ProbeRecord, RawRequest, RpcError, ServerHello, TextListing, OTHER_LISTS,
};
use crate::protocol::headers::blocked_call_reason;
use crate::protocol::versions::{EraChoice, LEGACY_VERSIONS};
use crate::surface::json::{raw_to_value, RawMembers};
use crate::surface::text::truncate;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::time::Duration;
use tokio::time::Instant;

/// Fixed per-request limit of the protocol layer for requests not bounded by `call_ms`.
pub const PROTOCOL_TIMEOUT: Duration = Duration::from_secs(60);

/// Pagination guard (transport.md §4).
pub const MAX_PAGES: usize = 1000;

pub struct ConnectOptions {
    pub endpoint: Endpoint,
    pub connect_ms: u64,
    pub call_ms: u64,
    pub era: EraChoice,
    /// Limits and the secrets to redact from what is recorded (#12 §2).
    pub guard: Guard,
}

pub struct Client {
    conn: Conn,
    hello: ServerHello,
    call_ms: u64,
    closed: tokio::sync::Mutex<bool>,
    /// The era strategy's state, set by the handshake.
    era: EraState,
    /// Lines the library would have printed (the stdio respawn hint).
    notes: Vec<String>,
    /// Pages of the current `tools/list`, for progress lines.
    pages: std::sync::atomic::AtomicUsize,
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

async fn handshake(conn: &Conn, era: EraChoice) -> Handshake {
    match era {
        EraChoice::Legacy => match legacy::handshake(conn, LEGACY_VERSIONS[0]).await {
            Ok(hello) => Handshake::Done(Box::new(hello), EraState::Legacy),
            Err(e) => Handshake::Fail(e),
        },
        // `both` is split into lanes before connecting; alone it means auto.
        EraChoice::Auto | EraChoice::Modern | EraChoice::Both => {
            modern_handshake::handshake(conn, era).await
        }
    }
}

impl Client {
    pub async fn connect(opts: ConnectOptions) -> Result<Client, ConnectError> {
        let mut client = Client::open(&opts)?;
        let budget = Duration::from_millis(opts.connect_ms);
        let outcome = tokio::time::timeout(budget, handshake(&client.conn, opts.era)).await;
        let err = match outcome {
            Ok(Handshake::Done(hello, era)) => {
                client.hello = *hello;
                client.era = era;
                // A server that never asked for a token still gets the configured one (#17).
                if let Some(auth) = client.conn.http().and_then(|w| w.authenticator()) {
                    if let Err(message) = auth.ensure_token().await {
                        client.abort().await;
                        return Err(ConnectError {
                            message,
                            server_stderr: String::new(),
                        });
                    }
                }
                return Ok(client);
            }
            // A server that exited at start-up on its own is not restarted (#12 §2b): a
            // fresh process would end the same way, and the message would say it twice.
            Ok(Handshake::Respawn { offer, why }) => match client.start_up_exit().await {
                Some(message) => message,
                None => return client.respawn(&opts, &offer, &why).await,
            },
            Ok(Handshake::Fail(e)) => client.start_up_exit().await.unwrap_or(e),
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
        let err = match client
            .conn
            .http()
            .and_then(|w| w.authenticator()?.pending())
        {
            Some(step) => format!("{err}: {step} had not answered"),
            None => err,
        };
        client.abort().await;
        Err(ConnectError {
            message: err,
            server_stderr: client.stderr_tail(),
        })
    }

    /// The one message for a stdio server that exited before reading any request.
    async fn start_up_exit(&self) -> Option<String> {
        // Only once the server closed its stdout; the bound is then the wait for the exit
        // status of a process that closed stdout but keeps running.
        if !self.conn.d.is_closed() {
            return None;
        }
        let status = self.conn.exited_unread(Duration::from_secs(1)).await?;
        Some(format!(
            "the server exited at start-up ({status}) before reading any request"
        ))
    }

    /// stdio `auto` may fall back on a fresh process (§3.2 step 5).
    fn may_respawn(&self, choice: EraChoice) -> bool {
        choice == EraChoice::Auto && !self.conn.is_http()
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
        client.notes = self.notes.clone();
        client.notes.push(format!(
            "mcpward: the server/discover probe failed ({why}); restarted the server for the legacy handshake (set server.protocol_era: legacy to skip the probe)"
        ));
        let budget = Duration::from_millis(opts.connect_ms);
        let err = match tokio::time::timeout(budget, legacy::handshake(&client.conn, offer)).await {
            Ok(Ok(hello)) => {
                client.hello = hello;
                return Ok(client);
            }
            // Only when the connection closing is why initialize failed.
            Ok(Err(e)) if e.contains(&RpcError::closed().to_string()) => {
                match client.conn.exit_status(Duration::from_secs(1)).await {
                    // Say once that it exited, not the -32000 clause of each process (#12 §2b).
                    Some(status) => {
                        client.abort().await;
                        return Err(ConnectError {
                        message: format!(
                            "the server exited ({status}) before answering initialize, also after a restart (the first process ended before answering server/discover)"
                        ),
                        server_stderr: client.stderr_tail(),
                    });
                    }
                    None => e,
                }
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

    /// Start the endpoint with a fresh dispatcher; no message sent.
    fn open(opts: &ConnectOptions) -> Result<Client, ConnectError> {
        let conn = Conn::open(&opts.endpoint, &opts.guard).map_err(|message| ConnectError {
            message,
            server_stderr: String::new(),
        })?;
        Ok(Client {
            conn,
            hello: ServerHello::empty(),
            call_ms: opts.call_ms,
            closed: tokio::sync::Mutex::new(false),
            era: EraState::Legacy,
            notes: Vec::new(),
            pages: std::sync::atomic::AtomicUsize::new(0),
        })
    }

    /// Pages of `tools/list` requested by the listing in progress (or the last one).
    pub fn pages_listed(&self) -> usize {
        self.pages.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn hello(&self) -> &ServerHello {
        &self.hello
    }

    pub fn call_ms(&self) -> u64 {
        self.call_ms
    }

    pub fn is_http(&self) -> bool {
        self.conn.is_http()
    }

    /// The message and HTTP headers of one normal request for the current era. A tool
    /// call carries its id as `_meta.progressToken`: only progress for a token mcpward
    /// sent may restart a call's timer (#12 §2).
    fn shape(
        &self,
        id: u64,
        method: &str,
        params: Option<Value>,
    ) -> (Value, Vec<(String, String)>) {
        let params = match (method, params) {
            ("tools/call", Some(Value::Object(mut p))) => {
                let meta = p.entry("_meta").or_insert_with(|| json!({}));
                if let Value::Object(m) = meta {
                    m.insert("progressToken".into(), json!(id));
                }
                Some(Value::Object(p))
            }
            (_, p) => p,
        };
        match &self.era {
            EraState::Modern(s) => envelope::shape(s, self.is_http(), id, method, params),
            EraState::Legacy => (request_message(id, method, params), Vec::new()),
        }
    }

    /// No `notifications/cancelled` over HTTP in the modern era (§7.5).
    fn may_send_cancel(&self) -> bool {
        !(self.era.modern().is_some() && self.is_http())
    }

    async fn exchange(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
        timeout_msg: Option<String>,
        text_result: bool,
    ) -> Result<Answer, RpcError> {
        self.conn
            .exchange(
                |id| self.shape(id, method, params),
                timeout,
                timeout_msg,
                text_result,
                self.may_send_cancel(),
                None,
            )
            .await
            .1
    }

    /// One normal request with its own deadline (see `Conn::exchange`).
    async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
        timeout_msg: Option<String>,
    ) -> Result<Value, RpcError> {
        self.exchange(method, params, timeout, timeout_msg, false)
            .await
            .map(Answer::into_value)
    }

    /// `request` whose result stays text (see `Dispatcher::register`).
    async fn request_text(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Box<RawValue>, RpcError> {
        self.exchange(method, params, timeout, None, true)
            .await
            .map(Answer::into_raw)
    }

    /// A request a check planned, sent exactly as written (no era envelope or headers
    /// added; headers only over HTTP), and what came back.
    pub async fn raw_request(&self, req: &RawRequest) -> ProbeRecord {
        let headers = if self.is_http() {
            req.headers.clone()
        } else {
            Vec::new()
        };
        let seen = req
            .tagged_by
            .as_ref()
            .map(|_| self.conn.d.chatter().notifications.len());
        let (id, outcome) = self
            .conn
            .exchange(
                |id| {
                    (
                        request_message(id, &req.method, Some(req.params.clone())),
                        headers,
                    )
                },
                req.wait.unwrap_or(PROTOCOL_TIMEOUT),
                req.timeout_msg.clone(),
                false,
                self.may_send_cancel(),
                req.tagged_by.as_deref().zip(seen),
            )
            .await;
        let outcome = outcome.map(Answer::into_value);
        let tagged = match (&req.tagged_by, seen, id) {
            (Some(pointer), Some(seen), Some(id)) => self
                .conn
                .d
                .chatter()
                .notifications
                .into_iter()
                .skip(seen)
                .find(|n| n.pointer(pointer).and_then(Value::as_u64) == Some(id)),
            _ => None,
        };
        ProbeRecord {
            status: self.conn.status_of(id),
            outcome,
            tagged,
        }
    }

    /// HTTP: a bare GET or DELETE on the endpoint with these headers: the status, or the
    /// transport error. `None` on stdio.
    pub async fn raw_verb(
        &self,
        verb: HttpVerb,
        headers: &[(String, String)],
    ) -> Option<Result<u16, String>> {
        let w = self.conn.http()?;
        let method = match verb {
            HttpVerb::Get => reqwest::Method::GET,
            HttpVerb::Delete => reqwest::Method::DELETE,
        };
        Some(w.probe_method(method, &headers.to_vec()).await)
    }

    /// HTTP with `server.auth` (#17): the OAuth step that failed during the run, if one
    /// did (its requests failed, so not everything was tested).
    pub fn auth_failure(&self) -> Option<String> {
        self.conn.http()?.authenticator()?.failure()
    }

    /// HTTP with `server.auth` (#17): what the OAuth flow saw, plus `tools/list` sent once
    /// without a token and once with a token the server never issued. `None` otherwise.
    pub async fn auth_posture(&self) -> Option<AuthObservation> {
        let w = self.conn.http()?;
        let auth = w.authenticator()?;
        let probe = |how| {
            let id = self.conn.d.next_id();
            let (msg, extra) = self.shape(id, "tools/list", None);
            async move { w.auth_probe(&msg, &extra, how).await }
        };
        let without = probe(ProbeAuth::Without).await;
        let wrong = probe(ProbeAuth::Wrong).await;
        let mut obs = auth.observation();
        obs.without_token = Some(without);
        obs.wrong_token = Some(wrong);
        Some(obs)
    }

    /// HTTP: the `http/origin-validation` probe (`origin.rs`), each request bounded by
    /// `call_ms` and 10 s; `None` on stdio.
    pub async fn origin_probe(&self) -> Option<OriginProbe> {
        let w = self.conn.http()?;
        let bound = Duration::from_millis(self.call_ms).min(origin::MAX_WAIT);
        let modern = self.era.modern().is_some();
        let version = &self.hello.protocol_version;
        Some(origin::probe(&self.conn, w, modern, version, bound).await)
    }

    /// HTTP: the `Mcp-Session-Id` values on responses to stateless requests so far
    /// (consecutive repeats once).
    pub fn session_ids(&self) -> Vec<String> {
        let Some(w) = self.conn.http() else {
            return Vec::new();
        };
        let mut ids: Vec<String> = w
            .exchanges()
            .into_iter()
            .filter_map(|e| e.session_id)
            .collect();
        ids.dedup();
        ids
    }

    /// How the connect-time `server/discover` was answered (modern era; default otherwise).
    pub fn discover_answer(&self) -> DiscoverAnswer {
        self.era
            .modern()
            .map(|s| s.discover.clone())
            .unwrap_or_default()
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
        // One tool at a time, each text freed once built: never all text and all trees.
        Ok(tools
            .into_iter()
            .map(|t| crate::surface::json::compact(raw_to_value(&t)))
            .collect())
    }

    /// Every page of `tools/list` like `list_tools`, each tool left as its JSON text:
    /// `baseline` and `diff` parse one tool at a time, so a 10,000-tool surface is never
    /// held as one tree.
    pub async fn list_tools_text(&self) -> TextListing {
        let modern = self.era.modern();
        let mut tools: Vec<Box<RawValue>> = Vec::new();
        if let Some(m) = modern {
            m.begin_listing();
        }
        let mut seen = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        self.pages.store(0, std::sync::atomic::Ordering::Relaxed);
        for _ in 0..MAX_PAGES {
            self.pages
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
            if let Some(m) = modern {
                m.on_page(&rest)?;
            }
            match page_tools {
                Some(t) => match serde_json::from_str::<Vec<Box<RawValue>>>(t.get()) {
                    Ok(items) => {
                        // Read lazily, a tool nested past serde's limit would only turn
                        // into `null` later: refuse the listing now, naming it.
                        if let Some(i) = items.iter().position(|t| too_deep(t.get())) {
                            return Err(format!(
                                "tools/list: tool #{} is nested more than {MAX_DEPTH} levels deep; the listing was not read",
                                tools.len() + i + 1
                            ));
                        }
                        let cap = self.conn.d.guard.limits.tools;
                        if tools.len() + items.len() > cap {
                            // Cut, reported by compliance/limits; the checks judge the
                            // first `cap` tools (a 200,000-tool surface is not held whole).
                            let keep = cap.saturating_sub(tools.len());
                            tools.extend(items.into_iter().take(keep));
                            self.conn.d.record_cut(
                                "tools",
                                format!(
                                    "tools/list returned more than limits.tools ({cap}) tools; the listing was cut to the first {cap}"
                                ),
                            );
                            if let Some(m) = modern {
                                m.remember_tools(&tools);
                            }
                            return Ok(tools);
                        }
                        tools.extend(items)
                    }
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
                    if let Some(m) = modern {
                        m.remember_tools(&tools);
                    }
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

    /// Every page of the lists of [`OtherSurface`] whose capability the server declared,
    /// with the cursor rules of `tools/list` (only an absent `nextCursor` ends a list; loop
    /// and page guards) and the same item cap (`limits.tools` per list, reported when cut).
    pub async fn list_other_surface(&self) -> OtherSurface {
        let caps = &self.hello.capabilities;
        let mut out = OtherSurface::default();
        for (method, member, cap) in OTHER_LISTS {
            if caps.get(cap).is_none_or(Value::is_null) {
                continue;
            }
            let listing = self.list_items(method, member).await;
            match member {
                "prompts" => out.prompts = Some(listing),
                "resources" => out.resources = Some(listing),
                _ => out.resource_templates = Some(listing),
            }
        }
        out
    }

    /// Every page of one list method (`prompts/list`, …): the raw items of `member`.
    pub async fn list_items(&self, method: &str, member: &str) -> Listing {
        let mut items: Vec<Value> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        let cap = self.conn.d.guard.limits.tools;
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let page = self
                .request(method, params, PROTOCOL_TIMEOUT, None)
                .await
                .map_err(|e| e.to_string())?;
            let Value::Object(mut page) = page else {
                return Err(format!(
                    "{method} result is not an object: {}",
                    short(&page)
                ));
            };
            match page.remove(member) {
                Some(Value::Array(list)) => {
                    if items.len() + list.len() > cap {
                        let keep = cap.saturating_sub(items.len());
                        items.extend(list.into_iter().take(keep));
                        self.conn.d.record_cut(
                            member,
                            format!(
                                "{method} returned more than limits.tools ({cap}) items; the list was cut to the first {cap}"
                            ),
                        );
                        return Ok(items);
                    }
                    items.extend(list);
                }
                Some(other) => {
                    return Err(format!(
                        "{method} result \"{member}\" is not an array: {}",
                        short(&other)
                    ))
                }
                None => return Err(format!("{method} result has no \"{member}\" array")),
            }
            match page.get("nextCursor") {
                None => return Ok(items),
                Some(Value::String(c)) => {
                    if !seen.insert(c.clone()) {
                        return Err(format!(
                            "{method} pagination loop: cursor \"{c}\" was returned twice"
                        ));
                    }
                    cursor = Some(c.clone());
                }
                Some(other) => {
                    return Err(format!(
                        "{method} nextCursor is not a string: {}",
                        short(other)
                    ))
                }
            }
        }
        Err(format!("{method} exceeded {MAX_PAGES} pages"))
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

    /// `tools/call`: legacy as is; modern with `resultType` handling and MRTR retries
    /// within the one `call_ms` budget (§10.3).
    async fn tools_call(
        &self,
        params: Value,
        timeout: Duration,
        timeout_msg: String,
    ) -> Result<Value, RpcError> {
        let Some(state) = self.era.modern() else {
            return self
                .request("tools/call", Some(params), timeout, Some(timeout_msg))
                .await;
        };
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if let Some(reason) = self.call_blocked_reason(&name) {
            return Err(RpcError::plain(reason));
        }
        let start = Instant::now();
        let mut p = params;
        for _ in 0..MAX_MRTR_ATTEMPTS {
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(RpcError::plain(timeout_msg));
            }
            let r = self
                .request(
                    "tools/call",
                    Some(p.clone()),
                    left,
                    Some(timeout_msg.clone()),
                )
                .await?;
            match classify_call_result(&r) {
                CallStep::Complete => return Ok(r),
                CallStep::Retry(s) => {
                    if let Value::Object(o) = &mut p {
                        o.insert("requestState".into(), s);
                    }
                }
                CallStep::InputRequests(methods) => {
                    state.record_input_requests(
                        r.get("inputRequests").cloned().unwrap_or(Value::Null),
                    );
                    return Err(RpcError::plain(format!(
                        "server requested client input ({}) although mcpward declared no client capabilities",
                        methods.join(", ")
                    )));
                }
                CallStep::Invalid(msg) => return Err(RpcError::plain(msg)),
            }
        }
        Err(RpcError::plain(format!(
            "tool call \"{name}\" still required input after {MAX_MRTR_ATTEMPTS} attempts"
        )))
    }

    /// Modern HTTP never calls a tool whose `x-mcp-header` annotations are invalid
    /// (§7.3); the reason, naming the broken constraint. `None` elsewhere.
    pub fn call_blocked_reason(&self, tool: &str) -> Option<String> {
        let state = self.era.modern().filter(|_| self.is_http())?;
        blocked_call_reason(tool, &state.schema_of(tool)?)
    }

    /// Every `inputRequests` a server sent so far (modern era), for
    /// `compliance/server-messages`.
    pub fn input_requests(&self) -> Vec<Value> {
        self.era
            .modern()
            .map(|s| s.input_requests())
            .unwrap_or_default()
    }

    /// Lines the library would have printed (e.g. the stdio respawn hint); the CLI shows
    /// them on stderr.
    pub fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// `{resultType?, ttlMs?, cacheScope?}` of each page of the last modern listing
    /// (empty in the legacy era).
    pub fn page_meta(&self) -> Vec<Value> {
        self.era.modern().map(|s| s.page_meta()).unwrap_or_default()
    }

    pub fn chatter(&self) -> Chatter {
        self.conn.d.chatter()
    }

    /// How many notifications the server sent so far (a mark to tell later ones apart).
    pub fn notification_count(&self) -> usize {
        self.conn.d.notification_count()
    }

    /// Why the last listing was cut at `limits.tools`, if it was.
    pub fn listing_cut(&self) -> Option<String> {
        self.list_cut(&["tools"])
    }

    /// The first cut of one of `lists` (`tools`, or a member of [`OTHER_LISTS`] such as
    /// `prompts`), as `compliance/limits` reports it.
    pub fn list_cut(&self, lists: &[&str]) -> Option<String> {
        let c = self.conn.d.chatter();
        c.cuts
            .iter()
            .find_map(|s| {
                let (tag, msg) = s.split_once('\0')?;
                lists.contains(&tag).then_some(msg)
            })
            .map(str::to_string)
    }

    pub fn stderr_tail(&self) -> String {
        self.conn.stderr_tail()
    }

    async fn abort(&self) {
        let mut done = self.closed.lock().await;
        if !*done {
            self.conn.abort().await;
            *done = true;
        }
    }

    /// Idempotent and memoised: concurrent callers all wait for the one shutdown.
    pub async fn close(&self) {
        let mut done = self.closed.lock().await;
        if *done {
            return;
        }
        self.conn.close().await;
        *done = true;
    }
}

/// serde_json's recursion limit: deeper values are never built.
const MAX_DEPTH: usize = 128;

/// Whether JSON text nests arrays/objects deeper than [`MAX_DEPTH`] (strings skipped).
fn too_deep(text: &str) -> bool {
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

fn short(v: &Value) -> String {
    truncate(&v.to_string(), 200)
}
