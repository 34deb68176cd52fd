//! The 2026-07-28 handshake (protocol-2026-07-28.md §3.2–§3.4): the `server/discover`
//! probe, the era verdict, a retry at a version the server lists, and the fallback to the
//! legacy handshake (in place, or on a fresh stdio process) that `auto` allows.

use super::classify::{
    choose_version, classify_http, classify_stdio, string_list, StdioProbe, Verdict, VersionChoice,
};
use super::state::ModernState;
use crate::observed::{DiscoverAnswer, Era, RpcError, ServerHello};
use crate::protocol::envelope::{envelope, with_envelope, META_SERVER_INFO};
use crate::protocol::headers::modern_headers;
use crate::protocol::versions::{EraChoice, LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::transport::conn::{Conn, UNBOUNDED};
use crate::transport::era::{EraState, Handshake};
use crate::transport::legacy;
use serde_json::{Map, Value};

/// `server/discover` with the full envelope at `version`; no per-request deadline
/// (the connect budget bounds it).
async fn discover_at(conn: &Conn, version: &str) -> (Option<u64>, Result<Value, RpcError>) {
    let params = with_envelope(None, &envelope(version));
    let headers = modern_headers(version, "server/discover", &params, None);
    let raw = if conn.is_http() { headers } else { Vec::new() };
    conn.request_raw("server/discover", Some(params), raw, UNBOUNDED, None)
        .await
}

/// Era selection for `auto` / `modern` (§3.2–§3.4).
pub async fn handshake(conn: &Conn, choice: EraChoice) -> Handshake {
    conn.set_stateless(true);
    let mut version = MODERN_VERSIONS[0].to_string();
    let mut retried = false;
    loop {
        let (id, outcome) = discover_at(conn, &version).await;
        let status = conn.status_of(id);
        let verdict = if conn.is_http() {
            classify_http(status, &outcome)
        } else {
            classify_stdio(&StdioProbe::Answered(outcome.clone()))
        };
        let no_fallback = |what: &str| {
            format!(
                "protocol_era is modern, but the server did not answer server/discover as a {} server; it answered {what}",
                MODERN_VERSIONS[0]
            )
        };
        let list_versions = |l: &[String]| format!("[{}]", l.join(", "));
        match verdict {
            Verdict::Modern(result) => {
                // All strings when well-formed; otherwise the string members.
                let supported = string_list(result.get("supportedVersions"))
                    .unwrap_or_else(|| crate::surface::json::strings(result.get("supportedVersions")));
                return match choose_version(&supported) {
                    VersionChoice::Modern(v) => settle_modern(
                        v,
                        DiscoverAnswer {
                            status,
                            error: None,
                        },
                        Some(result),
                        supported,
                    ),
                    VersionChoice::Legacy(v) => {
                        legacy_after_modern(
                            conn,
                            choice,
                            v,
                            format!(
                                "the server lists only legacy versions {}",
                                list_versions(&supported)
                            ),
                        )
                        .await
                    }
                    VersionChoice::None => Handshake::Fail(format!(
                        "no mutually supported protocol version; server supports {}",
                        list_versions(&supported)
                    )),
                };
            }
            Verdict::UnsupportedVersion(list) => match choose_version(&list) {
                VersionChoice::Modern(v) if !retried => {
                    retried = true;
                    version = v;
                }
                VersionChoice::Modern(_) => {
                    return Handshake::Fail(format!(
                        "the server rejected protocol version {version} with -32022 twice; server supports {}",
                        list_versions(&list)
                    ))
                }
                VersionChoice::Legacy(v) => {
                    return legacy_after_modern(
                            conn,
                            choice,
                            v,
                            format!(
                                "the server lists only legacy versions {}",
                                list_versions(&list)
                            ),
                        )
                        .await
                }
                VersionChoice::None => {
                    return Handshake::Fail(format!(
                        "no mutually supported protocol version; server supports {}",
                        list_versions(&list)
                    ))
                }
            },
            Verdict::Rejected(msg) | Verdict::Fatal(msg) => return Handshake::Fail(msg),
            Verdict::ModernWithoutDiscover(e) => {
                let answer = DiscoverAnswer {
                    status,
                    error: Some(e),
                };
                return settle_modern(version, answer, None, Vec::new());
            }
            Verdict::Legacy(what) => {
                if choice == EraChoice::Modern {
                    return Handshake::Fail(no_fallback(&what));
                }
                // In place (stdio §3.2 step 4, HTTP §3.3): the server saw only an
                // error-answered probe, so the plain legacy handshake follows.
                conn.set_stateless(false);
                return match legacy::handshake(conn, LEGACY_VERSIONS[0]).await {
                    Ok(hello) => Handshake::Done(Box::new(hello), EraState::Legacy),
                    Err(e) if choice == EraChoice::Auto && !conn.is_http() => Handshake::Respawn {
                        offer: LEGACY_VERSIONS[0].into(),
                        why: format!("the legacy handshake after the probe failed ({e})"),
                    },
                    Err(e) => Handshake::Fail(e),
                };
            }
            Verdict::Respawn(why) => {
                if choice == EraChoice::Modern {
                    return Handshake::Fail(no_fallback(&why));
                }
                return Handshake::Respawn {
                    offer: LEGACY_VERSIONS[0].into(),
                    why,
                };
            }
        }
    }
}

/// A modern server that only shares a legacy version: `auto` speaks legacy (on a
/// fresh process for stdio, which has already seen modern traffic).
async fn legacy_after_modern(
    conn: &Conn,
    choice: EraChoice,
    offer: String,
    why: String,
) -> Handshake {
    if choice == EraChoice::Modern {
        return Handshake::Fail(format!(
            "protocol_era is modern, but {why}; no mutually supported modern protocol version"
        ));
    }
    if !conn.is_http() {
        return Handshake::Respawn { offer, why };
    }
    conn.set_stateless(false);
    match legacy::handshake(conn, &offer).await {
        Ok(hello) => Handshake::Done(Box::new(hello), EraState::Legacy),
        Err(e) => Handshake::Fail(e),
    }
}

fn settle_modern(
    version: String,
    answer: DiscoverAnswer,
    discover: Option<Value>,
    supported: Vec<String>,
) -> Handshake {
    let d = discover.as_ref();
    let server_info = d
        .and_then(|r| r.get("_meta"))
        .and_then(|m| m.get(META_SERVER_INFO))
        .or_else(|| d.and_then(|r| r.get("serverInfo")))
        .cloned()
        .unwrap_or(Value::Null);
    let capabilities = match d {
        Some(r) => r.get("capabilities").cloned().unwrap_or(Value::Null),
        None => Value::Object(Map::new()),
    };
    let hello = ServerHello {
        era: Era::Modern,
        protocol_version: version.clone(),
        server_info,
        capabilities,
        instructions: d.and_then(|r| r.get("instructions")).cloned(),
        supported_versions: supported,
        discover,
    };
    Handshake::Done(
        Box::new(hello),
        EraState::Modern(Box::new(ModernState::new(version, answer))),
    )
}
