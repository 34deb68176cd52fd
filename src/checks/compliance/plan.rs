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

/// The steps for this connection; `None` in the legacy era, where the rules do not exist
/// (and there are no records to judge).
pub fn plan(hello: &ServerHello, wire: Wire) -> Option<Vec<Step>> {
    if hello.era != Era::Modern {
        return None;
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
    Some(steps)
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
    /// How many notifications had arrived when the family's listing ended (the first
    /// tool listing of a modern run, for `compliance/spurious-list-changed`).
    pub notifications_at_listing: Option<usize>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;
    use crate::protocol::envelope::META_PROTOCOL_VERSION;

    fn hello(era: Era, capabilities: Value) -> ServerHello {
        ServerHello {
            era,
            protocol_version: "2026-07-28".into(),
            server_info: json!({"name": "s", "version": "1"}),
            capabilities,
            instructions: None,
            supported_versions: vec!["2026-07-28".into()],
            discover: Some(
                json!({"resultType":"complete","supportedVersions":["2026-07-28"],
                "capabilities":{},"ttlMs":0,"cacheScope":"private"}),
            ),
        }
    }

    fn header<'a>(req: &'a RawRequest, name: &str) -> Option<&'a str> {
        req.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn sends(steps: &[Step]) -> Vec<(Probe, &RawRequest)> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Send(p, r) => Some((*p, r)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn legacy_era_plans_nothing() {
        assert_eq!(
            plan(&hello(Era::Legacy, json!({})), Wire { http: true }),
            None
        );
    }

    #[test]
    fn stdio_plan_lists_then_sends_the_three_envelope_probes() {
        let steps = plan(
            &hello(Era::Modern, json!({"tools": {}})),
            Wire { http: false },
        )
        .unwrap();
        assert_eq!(steps[0], Step::List);
        let s = sends(&steps);
        let probes: Vec<Probe> = s.iter().map(|(p, _)| *p).collect();
        assert_eq!(
            probes,
            [
                Probe::UnsupportedVersion,
                Probe::MetaRequired,
                Probe::UnknownMethod
            ]
        );
        assert_eq!(steps.len(), 4, "no HTTP-only step over stdio: {steps:#?}");
        let (_, unsupported) = s[0];
        assert_eq!(unsupported.method, "server/discover");
        assert_eq!(
            unsupported.params["_meta"][META_PROTOCOL_VERSION],
            PROBE_VERSION
        );
        let (_, meta) = s[1];
        assert_eq!(meta.method, "tools/list");
        assert!(meta.params["_meta"].get(META_CLIENT_CAPABILITIES).is_none());
        assert_eq!(meta.params["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
        let (_, ping) = s[2];
        assert_eq!(ping.method, "ping");
        assert!(ping.params["_meta"].get(META_CLIENT_CAPABILITIES).is_some());
        assert!(s
            .iter()
            .all(|(_, r)| r.wait.is_none() && r.tagged_by.is_none()));
    }

    #[test]
    fn http_plan_adds_header_verb_and_listen_probes_in_order() {
        let h = hello(Era::Modern, json!({"tools": {"listChanged": true}}));
        let steps = plan(&h, Wire { http: true }).unwrap();
        let kinds: Vec<String> = steps
            .iter()
            .map(|s| match s {
                Step::List => "list".to_string(),
                Step::Send(p, _) => format!("{p:?}"),
                Step::Verb(v, _) => format!("{v:?}"),
                Step::SessionIds => "session-ids".to_string(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "list",
                "UnsupportedVersion",
                "MetaRequired",
                "UnknownMethod",
                "HeaderMismatch",
                "HeaderMissingMethod",
                "Get",
                "Delete",
                "session-ids",
                "Listen"
            ]
        );
        let s = sends(&steps);
        let find = |p: Probe| s.iter().find(|(q, _)| *q == p).unwrap().1;
        let unsupported = find(Probe::UnsupportedVersion);
        assert_eq!(
            header(unsupported, "MCP-Protocol-Version"),
            Some(PROBE_VERSION)
        );
        assert_eq!(header(unsupported, "Mcp-Method"), Some("server/discover"));
        // The header names the version in use; the envelope does not.
        let mismatch = find(Probe::HeaderMismatch);
        assert_eq!(header(mismatch, "MCP-Protocol-Version"), Some("2026-07-28"));
        assert_eq!(
            mismatch.params["_meta"][META_PROTOCOL_VERSION],
            PROBE_VERSION
        );
        let missing = find(Probe::HeaderMissingMethod);
        assert_eq!(header(missing, "Mcp-Method"), None);
        assert_eq!(header(missing, "MCP-Protocol-Version"), Some("2026-07-28"));
        let listen = find(Probe::Listen);
        assert_eq!(listen.method, "subscriptions/listen");
        assert_eq!(listen.params["notifications"]["toolsListChanged"], true);
        assert_eq!(listen.wait, Some(Duration::from_secs(2)));
        assert_eq!(listen.timeout_msg.as_deref(), Some("no answer within 2 s"));
        assert_eq!(listen.tagged_by.as_deref(), Some(SUBSCRIPTION_ID));
        for s in &steps {
            if let Step::Verb(_, h) = s {
                assert_eq!(
                    h,
                    &vec![("MCP-Protocol-Version".to_string(), "2026-07-28".to_string())]
                );
            }
        }
    }

    #[test]
    fn records_from_hand_made_outcomes_are_judged_in_family_order() {
        let h = hello(Era::Modern, json!({"tools": {"listChanged": true}}));
        let wire = Wire { http: true };
        let mut r = ModernRecords::new(&h, wire, DiscoverAnswer::default());
        assert!(r.listen_advertised);
        let page = json!({"resultType":"complete","ttlMs":1,"cacheScope":"private"});
        r.listed(vec![page], None);
        let err = |code: i64, data: Option<Value>, status: u16| {
            ProbeRecord::new(Some(status), Err(RpcError::protocol(code, "m", data)))
        };
        r.probed(
            Probe::UnsupportedVersion,
            err(
                -32022,
                Some(json!({"supported":["2026-07-28"],"requested":PROBE_VERSION})),
                400,
            ),
        );
        r.probed(Probe::MetaRequired, err(-32602, None, 400));
        r.probed(Probe::UnknownMethod, err(-32601, None, 404));
        r.probed(Probe::HeaderMismatch, err(-32020, None, 400));
        r.probed(Probe::HeaderMissingMethod, err(-32020, None, 400));
        r.verb(HttpVerb::Get, Some(Ok(405)));
        r.verb(HttpVerb::Delete, Some(Ok(405)));
        r.probed(
            Probe::Listen,
            ProbeRecord {
                status: Some(200),
                outcome: Err(RpcError::plain("no answer within 2 s")),
                tagged: Some(json!({"method": "notifications/subscriptions/acknowledged",
                    "params": {"notifications": {"toolsListChanged": true}}})),
            },
        );
        let fs = super::super::judge(&h, None, Some(&r), Some("2026-07-28"));
        let got: Vec<(&str, Status)> = fs.iter().map(|f| (f.id.as_str(), f.status)).collect();
        assert_eq!(
            got,
            [
                ("compliance/handshake", Status::Pass),
                ("compliance/protocol-version", Status::Pass),
                ("compliance/server-info", Status::Pass),
                ("compliance/capabilities", Status::Pass),
                ("compliance/ping", Status::Skip),
                ("compliance/discover", Status::Pass),
                ("compliance/result-type", Status::Pass),
                ("compliance/cache-hints", Status::Pass),
                ("compliance/unsupported-version", Status::Pass),
                ("compliance/meta-required", Status::Pass),
                ("compliance/unknown-method", Status::Pass),
                ("compliance/header-validation", Status::Pass),
                ("compliance/stateless-http", Status::Pass),
                ("compliance/subscriptions", Status::Pass),
                ("compliance/expected-protocol-version", Status::Pass),
            ],
            "{fs:#?}"
        );
        // Without modern records (legacy era) the family is the six classic results.
        let legacy = super::super::judge(&h, None, None, Some("2026-07-28"));
        assert_eq!(legacy.len(), 6);
        assert_eq!(legacy[5].id, "compliance/expected-protocol-version");
    }
}
