//! The deliberate requests of the 2026-07-28 compliance rules (protocol-2026-07-28.md
//! §12.2), as a plan the runner executes through the client's one raw request, and the
//! records they come back as. The judgement is `modern.rs`. Plan → record → judge, like
//! `checks::errors`: a new modern rule adds its probe here and its verdict there.

use crate::observed::{
    DiscoverAnswer, Era, HttpVerb, ProbeRecord, RawRequest, RpcError, ServerHello,
};
use crate::protocol::envelope::{envelope, with_envelope, META_CLIENT_CAPABILITIES};
use crate::protocol::headers::modern_headers;
use serde_json::{json, Value};
use std::time::Duration;

/// The version the compliance probes deliberately send (§12.2).
pub const PROBE_VERSION: &str = "1900-01-01";

/// Wait at most this long for a `subscriptions/listen` acknowledgment (§12.2).
const LISTEN_WAIT: Duration = Duration::from_secs(2);

/// Where a `subscriptions/listen` acknowledgment carries the listen request's id.
const SUBSCRIPTION_ID: &str = "/params/_meta/io.modelcontextprotocol~1subscriptionId";

/// Which rule a probe request serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// `server/discover` with envelope (and header) version `1900-01-01`.
    UnsupportedVersion,
    /// `tools/list` whose envelope lacks `clientCapabilities`.
    MetaRequired,
    /// `ping` with a valid envelope.
    UnknownMethod,
    /// HTTP: `server/discover`, header at the version in use, envelope `1900-01-01`.
    HeaderMismatch,
    /// HTTP: `server/discover` without `Mcp-Method`.
    HeaderMissingMethod,
    /// `subscriptions/listen`, when discover advertised `tools.listChanged`.
    Listen,
}

/// One step of the plan, executed in order (never as the connection's first message).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// One listing of the family's own, for resultType / cache hints of every page.
    List,
    /// A raw request, exactly as written.
    Send(Probe, RawRequest),
    /// HTTP: a bare GET / DELETE on the endpoint with these headers.
    Verb(HttpVerb, Vec<(String, String)>),
    /// HTTP: the `Mcp-Session-Id` values seen on responses so far.
    SessionIds,
}

/// Which wire the connection runs on; the HTTP-only rules and probes exist only there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wire {
    pub http: bool,
}

fn send(probe: Probe, version: &str, method: &str, params: Value) -> Step {
    let headers = modern_headers(version, method, &params, None);
    Step::Send(
        probe,
        RawRequest {
            method: method.into(),
            params,
            headers,
            wait: None,
            timeout_msg: None,
            tagged_by: None,
        },
    )
}

fn advertises_list_changed(hello: &ServerHello) -> bool {
    hello
        .capabilities
        .pointer("/tools/listChanged")
        .and_then(Value::as_bool)
        == Some(true)
}

/// The steps for this connection; empty in the legacy era, where the rules do not exist.
pub fn plan(hello: &ServerHello, wire: Wire) -> Vec<Step> {
    if hello.era != Era::Modern {
        return Vec::new();
    }
    let version = hello.protocol_version.as_str();
    let mut steps = vec![Step::List];
    let bad = with_envelope(None, &envelope(PROBE_VERSION));
    steps.push(send(
        Probe::UnsupportedVersion,
        PROBE_VERSION,
        "server/discover",
        bad.clone(),
    ));
    let mut partial = envelope(version);
    partial.remove(META_CLIENT_CAPABILITIES);
    steps.push(send(
        Probe::MetaRequired,
        version,
        "tools/list",
        with_envelope(None, &partial),
    ));
    steps.push(send(
        Probe::UnknownMethod,
        version,
        "ping",
        with_envelope(None, &envelope(version)),
    ));
    if wire.http {
        // Header says the version in use, the envelope says otherwise.
        steps.push(send(Probe::HeaderMismatch, version, "server/discover", bad));
        let good = with_envelope(None, &envelope(version));
        if let Step::Send(p, mut req) =
            send(Probe::HeaderMissingMethod, version, "server/discover", good)
        {
            req.headers
                .retain(|(k, _)| !k.eq_ignore_ascii_case("mcp-method"));
            steps.push(Step::Send(p, req));
        }
        let vh = vec![("MCP-Protocol-Version".to_string(), version.to_string())];
        steps.push(Step::Verb(HttpVerb::Get, vh.clone()));
        steps.push(Step::Verb(HttpVerb::Delete, vh));
        steps.push(Step::SessionIds);
    }
    if advertises_list_changed(hello) {
        let params = with_envelope(
            Some(json!({"notifications": {"toolsListChanged": true}})),
            &envelope(version),
        );
        if let Step::Send(p, mut req) = send(Probe::Listen, version, "subscriptions/listen", params)
        {
            // A timeout means the listen was still open after the wait: it is cancelled.
            req.wait = Some(LISTEN_WAIT);
            req.timeout_msg = Some("no answer within 2 s".into());
            req.tagged_by = Some(SUBSCRIPTION_ID.into());
            steps.push(Step::Send(p, req));
        }
    }
    steps
}

/// What the modern compliance rules judge, as the plan's steps recorded it. Fields are
/// `None` when the probe was not made.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModernRecords {
    pub http: bool,
    /// HTTP status of the connect-time `server/discover` answer.
    pub discover_status: Option<u16>,
    /// The error the connect-time `server/discover` got (e.g. 404 + -32601).
    pub discover_error: Option<RpcError>,
    /// `{resultType?, ttlMs?, cacheScope?}` of each page of the family's listing.
    pub pages: Vec<Value>,
    /// Why that listing failed, if it did.
    pub listing_error: Option<String>,
    pub unsupported_version: Option<ProbeRecord>,
    pub meta_required: Option<ProbeRecord>,
    pub unknown_method: Option<ProbeRecord>,
    pub header_mismatch: Option<ProbeRecord>,
    pub header_missing_method: Option<ProbeRecord>,
    /// HTTP: status of GET / DELETE on the endpoint, or the transport error.
    pub get_status: Option<Result<u16, String>>,
    pub delete_status: Option<Result<u16, String>>,
    /// HTTP: `Mcp-Session-Id` values on responses to modern requests so far.
    pub session_ids: Vec<String>,
    /// Server input requests seen in `input_required` results (for server-messages).
    pub input_requests: Vec<Value>,
    /// `compliance/subscriptions`: whether discover advertised `tools.listChanged`, and
    /// when it did, the listen probe (its `tagged`: the first notification for it).
    pub listen_advertised: bool,
    pub listen: Option<ProbeRecord>,
}

impl ModernRecords {
    /// Empty records for a connection, before any step ran.
    pub fn new(hello: &ServerHello, wire: Wire, discover: DiscoverAnswer) -> Self {
        ModernRecords {
            http: wire.http,
            discover_status: discover.status,
            discover_error: discover.error,
            listen_advertised: advertises_list_changed(hello),
            ..Default::default()
        }
    }

    /// The outcome of `Step::List`: each page's metadata, and the error if it failed.
    pub fn listed(&mut self, pages: Vec<Value>, error: Option<String>) {
        self.pages = pages;
        self.listing_error = error;
    }

    pub fn probed(&mut self, probe: Probe, record: ProbeRecord) {
        let slot = match probe {
            Probe::UnsupportedVersion => &mut self.unsupported_version,
            Probe::MetaRequired => &mut self.meta_required,
            Probe::UnknownMethod => &mut self.unknown_method,
            Probe::HeaderMismatch => &mut self.header_mismatch,
            Probe::HeaderMissingMethod => &mut self.header_missing_method,
            Probe::Listen => &mut self.listen,
        };
        *slot = Some(record);
    }

    /// The outcome of `Step::Verb` (`None`: the wire is not HTTP).
    pub fn verb(&mut self, verb: HttpVerb, status: Option<Result<u16, String>>) {
        match verb {
            HttpVerb::Get => self.get_status = status,
            HttpVerb::Delete => self.delete_status = status,
        }
    }
}
