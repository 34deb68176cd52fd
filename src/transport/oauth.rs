//! The OAuth client of the HTTP wire (#17): on the first 401 it discovers the
//! authorization server (RFC 9728 Protected Resource Metadata, then RFC 8414 / OpenID
//! metadata), obtains a token at the token endpoint with the configured grant (client
//! credentials or a stored refresh token; `resource` per RFC 8707) and hands it to every
//! later request; a 401 for that token mid-run gets one refresh. What each step saw is kept
//! as an [`AuthObservation`] for the `auth` family.
//!
//! Every configured value is a secret: messages name steps, URLs' origins and paths and
//! OAuth error codes, never a credential (descriptions from the server pass the redactor).

use crate::observed::{AuthObservation, MetadataFetch};
use crate::protocol::oauth::{
    as_metadata_urls, bearer_challenge, canonical_resource, check_endpoint_url, choose_scope,
    prm_urls, resource_matches, AuthSpec, ClientAuth, Grant, GrantSpec,
};
use crate::redact::Redactor;
use base64::Engine;
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, ACCEPT, AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A metadata document or token answer larger than this is not an OAuth document.
const MAX_DOC_BYTES: usize = 1 << 20;
/// Each discovery or token request, so a silent authorization server cannot hold the run.
const STEP_TIMEOUT: Duration = Duration::from_secs(10);
/// Lifetime of a `private_key_jwt` client assertion.
const ASSERTION_SECONDS: u64 = 300;

/// Tokens obtained after the first in one run: enough for short-lived tokens on a long
/// run, never a loop against a server that rejects every token it issues.
const MAX_REFRESHES: u32 = 10;

const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

pub struct Authenticator {
    spec: AuthSpec,
    server_url: String,
    http: reqwest::Client,
    redactor: Arc<Redactor>,
    state: Mutex<State>,
    /// One flow at a time: concurrent 401s wait for the token the first one fetches.
    flow: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct State {
    token: Option<String>,
    /// Bumped with every new token; a request that was sent with an older one only retries.
    generation: u64,
    /// The current token was accepted at least once: a 401 for it now means it expired.
    served: bool,
    /// New tokens obtained after the first, bounded by [`MAX_REFRESHES`].
    refreshes: u32,
    /// The refresh token to use next (rotated by the server's answers).
    refresh_token: Option<String>,
    token_endpoint: Option<String>,
    /// The authorization server's issuer, the audience of a client assertion.
    issuer: Option<String>,
    scope: Option<String>,
    obs: AuthObservation,
    /// The first step that failed after the connection was set up: the run was not whole.
    failure: Option<String>,
    /// The request being made now, for a timeout's message.
    pending: Option<String>,
}

impl Authenticator {
    /// The one authenticator of this server and `server.auth` in this process: every
    /// connection of a run (the second one of `compliance/surface-stable`, the lanes of
    /// `protocol_era: both`) shares the token, the single refresh and the rotated refresh
    /// token, which the server has already invalidated for anyone else.
    pub fn shared(
        spec: &AuthSpec,
        server_url: &str,
        redactor: Arc<Redactor>,
    ) -> Result<Arc<Self>, String> {
        type Cache = Mutex<Vec<(String, AuthSpec, Arc<Authenticator>)>>;
        static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, a)) = c.iter().find(|(u, s, _)| u == server_url && s == spec) {
            return Ok(a.clone());
        }
        let a = Arc::new(Authenticator::new(spec.clone(), server_url, redactor)?);
        c.push((server_url.to_string(), spec.clone(), a.clone()));
        Ok(a)
    }

    pub fn new(spec: AuthSpec, server_url: &str, redactor: Arc<Redactor>) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .no_proxy()
            // A credential never follows a redirect: the step fails and says where it pointed.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(STEP_TIMEOUT)
            .build()
            .map_err(|e| format!("cannot create the OAuth HTTP client: {e}"))?;
        let mut state = State {
            obs: AuthObservation {
                server_url: server_url.to_string(),
                grant: matches!(spec, AuthSpec::Grant(_)),
                ..AuthObservation::default()
            },
            ..State::default()
        };
        if let AuthSpec::Grant(g) = &spec {
            if let Some(t) = &g.token_endpoint {
                check_endpoint_url("server.auth.token_endpoint", t)?;
            }
            if g.method == ClientAuth::PrivateKeyJwt {
                signing_key(g.private_key.as_deref().unwrap_or(""))?;
            }
            if let Grant::RefreshToken(rt) = &g.grant {
                state.refresh_token = Some(rt.clone());
            }
        }
        Ok(Authenticator {
            spec,
            server_url: server_url.to_string(),
            http,
            redactor,
            state: Mutex::new(state),
            flow: tokio::sync::Mutex::new(()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The token to send now and its generation (`None` before the first 401).
    pub fn current(&self) -> (Option<String>, u64) {
        let s = self.lock();
        (s.token.clone(), s.generation)
    }

    pub fn is_grant(&self) -> bool {
        matches!(self.spec, AuthSpec::Grant(_))
    }

    pub fn observation(&self) -> AuthObservation {
        self.lock().obs.clone()
    }

    /// The answer to an authorized request that is the authorization's failure, not the
    /// server's answer: a 401 left after every OAuth round, or a 403 `insufficient_scope`
    /// (mcpward asks for no more scopes mid-run). Recorded as the run's failure.
    pub fn refusal(&self, status: u16, with_token: bool, headers: &HeaderMap) -> Option<String> {
        let challenge = www_authenticate(headers).and_then(|w| bearer_challenge(&w));
        let error = challenge.as_ref().and_then(|c| c.param("error"));
        let msg = match status {
            401 if with_token => format!(
                "OAuth step 3 (authorized request): HTTP 401 for a token just obtained ({})",
                error.map(|e| format!("error={}", one_line(e, 40))).unwrap_or_else(|| "no error code".into())
            ),
            403 if with_token && error == Some("insufficient_scope") => format!(
                "OAuth step 3 (authorized request): HTTP 403, insufficient_scope{}; set server.auth.scope to the scopes the server needs",
                challenge
                    .as_ref()
                    .and_then(|c| c.param("scope"))
                    .map(|s| format!(" (it asks for scope \"{}\")", one_line(s, 100)))
                    .unwrap_or_default()
            ),
            _ => return None,
        };
        let msg = self.redactor.redact_str(&msg);
        self.lock().failure.get_or_insert_with(|| msg.clone());
        Some(msg)
    }

    /// A request sent with generation `sent` was answered with something else than 401.
    pub fn note_accepted(&self, sent: u64) {
        let mut s = self.lock();
        if s.generation == sent && s.token.is_some() {
            s.served = true;
        }
    }

    /// Every answer to a POST sent without a token: the first one is what the server says
    /// to an unauthenticated client.
    pub fn note_unauthenticated_answer(&self, status: u16, headers: &HeaderMap) {
        let mut s = self.lock();
        if s.obs.first.is_none() {
            s.obs.first = Some((status, www_authenticate(headers)));
        }
    }

    /// A 401 for a request sent with generation `sent` (`None`: without a token). `Ok`:
    /// send it again with [`current`](Self::current); `Err`: the step that failed, for exit 2.
    pub async fn on_unauthorized(
        &self,
        sent: Option<u64>,
        headers: &HeaderMap,
    ) -> Result<(), String> {
        let r = self.unauthorized(sent, headers).await;
        if let Err(e) = &r {
            self.lock().failure.get_or_insert_with(|| e.clone());
        }
        r
    }

    /// Why authorization failed during the run (`None`: it never did).
    pub fn failure(&self) -> Option<String> {
        self.lock().failure.clone()
    }

    async fn unauthorized(&self, sent: Option<u64>, headers: &HeaderMap) -> Result<(), String> {
        let _flow = self.flow.lock().await;
        let (have, generation, served, refreshes) = {
            let s = self.lock();
            (s.token.is_some(), s.generation, s.served, s.refreshes)
        };
        if have && sent != Some(generation) {
            return Ok(()); // another request already fetched a newer token
        }
        let www = www_authenticate(headers);
        if !have {
            self.note_unauthenticated_answer(401, headers);
            return self.first_token(www.as_deref()).await;
        }
        let why = match www.as_deref().and_then(bearer_challenge) {
            Some(c) => c
                .param("error")
                .map(|e| format!("error={}", one_line(e, 40)))
                .unwrap_or_else(|| "no error code".into()),
            None => "no challenge".into(),
        };
        if !served {
            return Err(format!(
                "OAuth step 3 (authorized request): the server rejected the token it had just issued (HTTP 401, {why})"
            ));
        }
        if refreshes >= MAX_REFRESHES {
            return Err(format!(
                "OAuth step 3 (authorized request): the token was rejected again after {MAX_REFRESHES} new tokens in this run (HTTP 401, {why})"
            ));
        }
        self.lock().refreshes += 1;
        match &self.spec {
            AuthSpec::Bearer { .. } => Err(format!(
                "OAuth step 3 (authorized request): the server rejected server.auth.token (HTTP 401, {why}); a static token cannot be refreshed"
            )),
            AuthSpec::Grant(g) => {
                let endpoint = self.lock().token_endpoint.clone().unwrap_or_default();
                self.fetch_token(g, &endpoint).await
            }
        }
    }

    /// The server answered without asking for a token (no 401): for a grant, still run
    /// discovery and obtain a token, so the configured credentials are exercised and the
    /// rest of the run is authorized.
    pub async fn ensure_token(&self) -> Result<(), String> {
        let _flow = self.flow.lock().await;
        if self.lock().token.is_some() {
            return Ok(());
        }
        match &self.spec {
            AuthSpec::Bearer { token } => {
                self.install(token.clone());
                Ok(())
            }
            AuthSpec::Grant(_) => self.first_token(None).await,
        }
    }

    fn install(&self, token: String) {
        crate::redact::register_issued(&token);
        let mut s = self.lock();
        s.token = Some(token);
        s.generation += 1;
        s.served = false;
    }

    async fn first_token(&self, www: Option<&str>) -> Result<(), String> {
        let g = match &self.spec {
            AuthSpec::Bearer { token } => {
                self.install(token.clone());
                return Ok(());
            }
            AuthSpec::Grant(g) => g,
        };
        let discovered = self.discover(www).await;
        let endpoint = match (&g.token_endpoint, discovered) {
            (Some(t), _) => t.clone(),
            (None, Ok(t)) => t,
            (None, Err(e)) => {
                return Err(format!(
                    "OAuth step 1 (discovery): {e}; set server.auth.token_endpoint to go on without discovery"
                ))
            }
        };
        self.lock().token_endpoint = Some(endpoint.clone());
        self.fetch_token(g, &endpoint).await
    }

    /// Step 1: the token endpoint from the server's metadata, recording each document.
    async fn discover(&self, www: Option<&str>) -> Result<String, String> {
        let challenge = www.and_then(bearer_challenge);
        let mut candidates = Vec::new();
        if let Some(u) = challenge
            .as_ref()
            .and_then(|c| c.param("resource_metadata"))
        {
            candidates.push(u.to_string());
        }
        for u in prm_urls(&self.server_url) {
            if !candidates.contains(&u) {
                candidates.push(u);
            }
        }
        let prm = self.fetch_first(&candidates, None).await;
        let prm_doc = prm.document.clone();
        self.lock().obs.resource_metadata = Some(prm);
        let Some(prm_doc) = prm_doc else {
            return Err(format!(
                "no Protected Resource Metadata: {}",
                self.tried_text()
            ));
        };
        if let Some(r) = prm_doc.get("resource").and_then(Value::as_str) {
            if !resource_matches(r, &self.server_url) {
                // Its authorization server was named for another resource: credentials are
                // not sent there.
                return Err(format!(
                    "the Protected Resource Metadata is for the resource {}, not {}; its authorization server is not used",
                    self.redactor.redact_str(r),
                    canonical_resource(&self.server_url)
                ));
            }
        }
        let supported: Vec<String> = prm_doc
            .get("scopes_supported")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let configured = match &self.spec {
            AuthSpec::Grant(g) => g.scope.clone(),
            AuthSpec::Bearer { .. } => None,
        };
        self.lock().scope = choose_scope(
            configured.as_deref(),
            challenge.as_ref().and_then(|c| c.param("scope")),
            &supported,
        );
        let Some(issuer) = prm_doc
            .get("authorization_servers")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().find_map(Value::as_str))
            .map(str::to_string)
        else {
            return Err("the Protected Resource Metadata names no authorization_servers".into());
        };
        check_endpoint_url("the authorization server", &issuer)?;
        let urls = as_metadata_urls(&issuer);
        let meta = self.fetch_first(&urls, Some(&issuer)).await;
        let endpoint = meta
            .document
            .as_ref()
            .and_then(|d| d.get("token_endpoint"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let found = meta.document.is_some();
        let named = meta
            .document
            .as_ref()
            .and_then(|d| d.get("issuer"))
            .and_then(Value::as_str)
            .map(str::to_string);
        {
            let mut s = self.lock();
            s.obs.server_metadata = Some(meta);
            s.issuer = Some(named.unwrap_or(issuer));
        }
        match endpoint {
            Some(t) => {
                check_endpoint_url(
                    "the token_endpoint of the authorization server metadata",
                    &t,
                )?;
                Ok(t)
            }
            None if found => Err("the authorization server metadata has no token_endpoint".into()),
            None => Err(format!(
                "no authorization server metadata: {}",
                self.tried_text()
            )),
        }
    }

    /// The last discovery step's URLs with why each was not used.
    fn tried_text(&self) -> String {
        let s = self.lock();
        let f = s
            .obs
            .server_metadata
            .as_ref()
            .or(s.obs.resource_metadata.as_ref());
        f.map(|f| {
            f.tried
                .iter()
                .map(|(u, o)| format!("{} ({o})", show_url(u)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
    }

    /// GET each URL in turn; the first JSON object is the document. With `issuer`, a
    /// document naming another issuer is not used (RFC 8414 §3.3).
    async fn fetch_first(&self, urls: &[String], issuer: Option<&str>) -> MetadataFetch {
        let mut fetch = MetadataFetch::default();
        for url in urls {
            let outcome = match self.get_json(url).await {
                Ok(doc) => {
                    let named = doc.get("issuer").and_then(Value::as_str);
                    match (issuer, named) {
                        (Some(want), Some(got))
                            if want.trim_end_matches('/') != got.trim_end_matches('/') =>
                        {
                            format!(
                                "its issuer is {}, not {want} (RFC 8414 §3.3: not used)",
                                one_line(got, 100)
                            )
                        }
                        _ => {
                            fetch.tried.push((url.clone(), "ok".into()));
                            fetch.document = Some(doc);
                            return fetch;
                        }
                    }
                }
                Err(why) => why,
            };
            fetch.tried.push((url.clone(), outcome));
        }
        fetch
    }

    /// The OAuth request in flight, if any (`Client::connect` names it on a timeout).
    pub fn pending(&self) -> Option<String> {
        self.lock().pending.clone()
    }

    async fn get_json(&self, url: &str) -> Result<Value, String> {
        self.lock().pending = Some(format!("OAuth step 1 (discovery: GET {})", show_url(url)));
        let r = self.get_json_now(url).await;
        self.lock().pending = None;
        r
    }

    async fn get_json_now(&self, url: &str) -> Result<Value, String> {
        check_endpoint_url("the metadata URL", url)?;
        let resp = self
            .http
            .get(url)
            .header(ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| format!("request failed ({})", short_error(&e)))?;
        let status = resp.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(format!("HTTP {status}"));
        }
        let body = read_capped(resp).await?;
        match serde_json::from_slice::<Value>(&body) {
            Ok(v @ Value::Object(_)) => Ok(v),
            Ok(_) => Err("not a JSON object".into()),
            Err(_) => Err("not JSON".into()),
        }
    }

    /// Step 2: one token request with the configured grant and client authentication.
    async fn fetch_token(&self, g: &GrantSpec, endpoint: &str) -> Result<(), String> {
        self.lock().pending = Some(format!(
            "OAuth step 2 (token request to {})",
            show_url(endpoint)
        ));
        let r = self.fetch_token_now(g, endpoint).await;
        self.lock().pending = None;
        r
    }

    async fn fetch_token_now(&self, g: &GrantSpec, endpoint: &str) -> Result<(), String> {
        let step = |e: String| {
            format!(
                "OAuth step 2 (token request to {}): {e}",
                show_url(endpoint)
            )
        };
        let url = check_endpoint_url("the token endpoint", endpoint).map_err(step)?;
        let (scope, refresh) = {
            let s = self.lock();
            (
                s.scope.clone().or_else(|| g.scope.clone()),
                s.refresh_token.clone(),
            )
        };
        let mut form: Vec<(&str, String)> = vec![("grant_type", g.grant.name().into())];
        if let Grant::RefreshToken(_) = g.grant {
            form.push(("refresh_token", refresh.unwrap_or_default()));
        }
        form.push(("resource", canonical_resource(&self.server_url)));
        if let Some(s) = scope.filter(|s| !s.is_empty()) {
            form.push(("scope", s));
        }
        let mut req = self
            .http
            .post(url.clone())
            .header(ACCEPT, "application/json");
        match g.method {
            ClientAuth::Basic => {
                let pair = format!(
                    "{}:{}",
                    form_encode(&g.client_id),
                    form_encode(g.client_secret.as_deref().unwrap_or(""))
                );
                let b64 = base64::engine::general_purpose::STANDARD.encode(pair);
                req = req.header(AUTHORIZATION, format!("Basic {b64}"));
            }
            ClientAuth::Post => {
                form.push(("client_id", g.client_id.clone()));
                form.push(("client_secret", g.client_secret.clone().unwrap_or_default()));
            }
            ClientAuth::PrivateKeyJwt => {
                // RFC 7523 §3: the issuer identifies the server; the token endpoint URL
                // stands in when discovery did not name one.
                let aud = self
                    .lock()
                    .issuer
                    .clone()
                    .unwrap_or_else(|| url.to_string());
                let assertion = client_assertion(g, &aud).map_err(step)?;
                form.push(("client_id", g.client_id.clone()));
                form.push(("client_assertion_type", JWT_BEARER.into()));
                form.push(("client_assertion", assertion));
            }
            ClientAuth::None => form.push(("client_id", g.client_id.clone())),
        }
        let body: String = form
            .iter()
            .map(|(k, v)| format!("{k}={}", form_encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let resp = req
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .map_err(|e| step(format!("request failed ({})", short_error(&e))))?;
        let status = resp.status().as_u16();
        let location = resp
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(show_url);
        let bytes = read_capped(resp).await.map_err(step)?;
        let doc = serde_json::from_slice::<Value>(&bytes).ok();
        if !(200..300).contains(&status) {
            // Server text on one line without control characters: it goes to a terminal
            // and to CI logs, where a line can be a workflow command.
            let code = doc
                .as_ref()
                .and_then(|d| d.get("error"))
                .and_then(Value::as_str)
                .map(|c| self.redactor.redact_str(&one_line(c, 60)));
            let desc = doc
                .as_ref()
                .and_then(|d| d.get("error_description"))
                .and_then(Value::as_str)
                .map(|d| self.redactor.redact_str(&one_line(d, 200)));
            return Err(step(match (code, location) {
                (Some(c), _) => format!(
                    "HTTP {status}, {c}{}",
                    desc.map(|d| format!(" ({d})")).unwrap_or_default()
                ),
                (None, Some(l)) if (300..400).contains(&status) => {
                    format!("HTTP {status}, a redirect to {l} (not followed with credentials)")
                }
                (None, _) => format!("HTTP {status} without an OAuth error code"),
            }));
        }
        let Some(doc) = doc else {
            return Err(step("the answer is not JSON".into()));
        };
        let Some(token) = doc.get("access_token").and_then(Value::as_str) else {
            return Err(step("the answer has no access_token".into()));
        };
        let kind = doc.get("token_type").and_then(Value::as_str).unwrap_or("");
        if !kind.eq_ignore_ascii_case("bearer") {
            return Err(step(format!(
                "token_type is {:?}, not Bearer",
                crate::surface::text::truncate(kind, 40)
            )));
        }
        if token.is_empty() || !token.bytes().all(|b| (0x21..0x7f).contains(&b)) {
            return Err(step("the access_token is not a valid header value".into()));
        }
        let rotated = doc
            .get("refresh_token")
            .and_then(Value::as_str)
            .map(str::to_string);
        {
            let mut s = self.lock();
            if let Some(r) = &rotated {
                crate::redact::register_issued(r);
            }
            if rotated.is_some() {
                s.refresh_token = rotated;
            }
        }
        self.install(token.to_string());
        Ok(())
    }
}

/// Server text for a message: control and format characters become spaces, runs of space
/// one, at most `max` characters.
pub fn one_line(s: &str, max: usize) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_control() || crate::surface::text::is_marked_invisible(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let joined = mapped.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::surface::text::truncate(&joined, max)
}

fn www_authenticate(h: &HeaderMap) -> Option<String> {
    let all: Vec<String> = h
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    (!all.is_empty()).then(|| all.join(", "))
}

/// A URL as shown in messages: origin and path (a query may carry a credential).
fn show_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(u) => format!("{}{}", u.origin().ascii_serialization(), u.path()),
        Err(_) => "an invalid URL".into(),
    }
}

fn short_error(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return format!("no answer within {} s", STEP_TIMEOUT.as_secs());
    }
    if e.is_connect() {
        return "cannot connect".into();
    }
    let mut s = e.to_string();
    if let Some(u) = e.url() {
        s = s.replace(u.as_str(), &show_url(u.as_str()));
    }
    s
}

async fn read_capped(resp: reqwest::Response) -> Result<Vec<u8>, String> {
    if resp
        .content_length()
        .is_some_and(|n| n > MAX_DOC_BYTES as u64)
    {
        return Err(format!("the answer is over {} bytes", MAX_DOC_BYTES));
    }
    let mut out = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|e| format!("reading the answer failed ({})", short_error(&e)))?;
        if out.len() + chunk.len() > MAX_DOC_BYTES {
            return Err(format!("the answer is over {} bytes", MAX_DOC_BYTES));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// `application/x-www-form-urlencoded` (RFC 6749 Appendix B; also the Basic pair's parts).
fn form_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// The key of `private_key_jwt`: RSA (RS256) or P-256 EC (ES256), from PEM.
fn signing_key(pem: &str) -> Result<(jsonwebtoken::Algorithm, jsonwebtoken::EncodingKey), String> {
    use jsonwebtoken::{Algorithm, EncodingKey};
    if let Ok(k) = EncodingKey::from_rsa_pem(pem.as_bytes()) {
        return Ok((Algorithm::RS256, k));
    }
    if let Ok(k) = EncodingKey::from_ec_pem(pem.as_bytes()) {
        return Ok((Algorithm::ES256, k));
    }
    Err("server.auth.private_key is not an RSA or P-256 EC private key in PEM (PKCS#8, or PKCS#1 for RSA)".into())
}

/// RFC 7523 §3 client assertion: `iss` = `sub` = client_id, `aud` = the server.
fn client_assertion(g: &GrantSpec, audience: &str) -> Result<String, String> {
    let (alg, key) = signing_key(g.private_key.as_deref().unwrap_or(""))?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let claims = serde_json::json!({
        "iss": g.client_id,
        "sub": g.client_id,
        "aud": audience,
        "iat": now,
        "exp": now + ASSERTION_SECONDS,
        "jti": unique_id(),
    });
    jsonwebtoken::encode(&jsonwebtoken::Header::new(alg), &claims, &key)
        .map_err(|e| format!("cannot sign the client assertion ({e})"))
}

/// Unique, not secret: a hash of the time, the process and a counter.
pub fn unique_id() -> String {
    use sha2::{Digest, Sha256};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let digest = Sha256::digest(format!("{t}:{}:{n}", std::process::id()));
    digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_encoding_of_reserved_characters() {
        assert_eq!(form_encode("a b+c:d/é"), "a+b%2Bc%3Ad%2F%C3%A9");
    }

    #[test]
    fn urls_in_messages_lose_their_query() {
        assert_eq!(
            show_url("https://as.example/token?key=SECRET"),
            "https://as.example/token"
        );
    }

    #[test]
    fn a_key_that_is_not_pem_is_named() {
        let Err(e) = signing_key("not a key") else {
            panic!("a key from no PEM")
        };
        assert!(e.contains("server.auth.private_key"), "{e}");
        assert!(!e.contains("not a key"));
    }

    #[test]
    fn server_text_is_one_line_without_controls() {
        assert_eq!(
            one_line(
                "invalid_client\n::error title=pwned::X\u{1b}[31m\u{200b}",
                60
            ),
            "invalid_client ::error title=pwned::X [31m"
        );
    }

    /// An obtained token is a secret of the run: a server echoing it back is redacted.
    #[test]
    fn an_installed_token_is_redacted() {
        let a = Authenticator::new(
            AuthSpec::Bearer {
                token: "configured-bearer-value".into(),
            },
            "http://127.0.0.1:1/mcp",
            Arc::new(Redactor::new()),
        )
        .unwrap();
        a.install("fx-at-1.token-the-run-obtained".into());
        let out = Redactor::new().redact_str("echo: fx-at-1.token-the-run-obtained");
        assert_eq!(out, "echo: [REDACTED]");
    }

    #[test]
    fn ids_are_unique() {
        assert_ne!(unique_id(), unique_id());
        assert_eq!(unique_id().len(), 32);
    }
}
