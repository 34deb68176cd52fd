//! Auth family (#17): the server's OAuth posture as mcpward saw it while authorizing
//! itself: the 401 challenge, the metadata documents, and two probes (no token, a token
//! nobody issued). A pure function of [`AuthObservation`].

use crate::model::Finding;
use crate::observed::{AuthObservation, AuthProbe, MetadataFetch};
use crate::protocol::oauth::{bearer_challenge, canonical_resource, resource_matches};
use serde_json::Value;

pub mod rules;
pub use rules::RULES;

#[cfg(test)]
mod tests;

pub fn check(obs: &AuthObservation) -> Vec<Finding> {
    let mut out = vec![challenge(obs)];
    if let Some(f) = &obs.resource_metadata {
        out.push(resource_metadata(f, &obs.server_url));
    }
    if let Some(f) = &obs.server_metadata {
        out.push(server_metadata(f));
    }
    if let Some(p) = &obs.without_token {
        out.push(unauthenticated(obs, p));
    }
    if let Some(p) = &obs.wrong_token {
        // A server that serves anyone and advertises no OAuth has no tokens to check.
        let open = obs.without_token.as_ref().is_some_and(|w| w.served) && !advertises(obs);
        out.push(if open {
            rules::INVALID_TOKEN.skip("the server serves requests without a token and advertises no OAuth, so there is no token to validate")
        } else {
            invalid_token(p)
        });
    }
    out
}

fn challenge(obs: &AuthObservation) -> Finding {
    let r = &rules::CHALLENGE;
    if !obs.grant {
        return r.skip("server.auth is a static bearer token: the OAuth challenge is judged only for the client_credentials and refresh_token grants");
    }
    match &obs.first {
        None => r.skip("no request was sent without a token"),
        Some((401, None)) => r
            .fail("the server answered 401 without a WWW-Authenticate header: a client cannot find its authorization server")
            .expected("a WWW-Authenticate challenge with resource_metadata"),
        Some((401, Some(www))) => match bearer_challenge(www) {
            None => r
                .fail("the 401's WWW-Authenticate has no challenge for the scheme \"Bearer\"")
                .actual(www.clone()),
            Some(c) if c.param("resource_metadata").is_none() => r
                .fail("the 401's challenge has no resource_metadata parameter (RFC 9728 §5.1)")
                .actual(www.clone()),
            Some(_) => r.pass("the 401 challenge names the Protected Resource Metadata"),
        },
        Some((status, _)) => r.skip(format!(
            "the first request without a token was answered with HTTP {status}, not 401"
        )),
    }
}

fn tried(f: &MetadataFetch) -> Value {
    Value::Array(
        f.tried
            .iter()
            .map(|(u, o)| Value::String(format!("{u}: {o}")))
            .collect(),
    )
}

fn resource_metadata(f: &MetadataFetch, server_url: &str) -> Finding {
    let r = &rules::RESOURCE_METADATA;
    let Some(doc) = &f.document else {
        let why = f
            .tried
            .iter()
            .map(|(u, o)| format!("{u} ({o})"))
            .collect::<Vec<_>>()
            .join(", ");
        return r
            .fail(format!("no Protected Resource Metadata document: {why}"))
            .actual(tried(f));
    };
    let servers_ok = doc
        .get("authorization_servers")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string));
    if !servers_ok {
        return r
            .fail("the Protected Resource Metadata has no authorization_servers (a non-empty list of issuer URLs)")
            .actual(doc.get("authorization_servers").cloned().unwrap_or(Value::Null));
    }
    match doc.get("resource").and_then(Value::as_str) {
        None => r
            .fail("the Protected Resource Metadata has no resource member")
            .expected(canonical_resource(server_url)),
        Some(res) if !resource_matches(res, server_url) => r
            .fail(format!(
                "the Protected Resource Metadata is for another resource; its authorization server must not be used for {}",
                canonical_resource(server_url)
            ))
            .expected(canonical_resource(server_url))
            .actual(res.to_string()),
        Some(_) => r.pass("Protected Resource Metadata names this server and its authorization server"),
    }
}

fn server_metadata(f: &MetadataFetch) -> Finding {
    let r = &rules::SERVER_METADATA;
    let Some(doc) = &f.document else {
        return r
            .warn("no authorization server metadata (RFC 8414 or OpenID discovery) at any of the MCP discovery locations")
            .actual(tried(f));
    };
    if !doc.get("token_endpoint").is_some_and(Value::is_string) {
        return r.warn("the authorization server metadata has no token_endpoint");
    }
    let s256 = doc
        .get("code_challenge_methods_supported")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|m| m == "S256"));
    if !s256 {
        return r
            .warn("code_challenge_methods_supported lacks S256: interactive MCP clients cannot use PKCE with this authorization server")
            .actual(
                doc.get("code_challenge_methods_supported")
                    .cloned()
                    .unwrap_or(Value::Null),
            );
    }
    r.pass("authorization server metadata has a token_endpoint and S256 PKCE")
}

fn advertises(obs: &AuthObservation) -> bool {
    matches!(obs.first, Some((401, _)))
        || obs
            .resource_metadata
            .as_ref()
            .is_some_and(|f| f.document.is_some())
}

fn unauthenticated(obs: &AuthObservation, p: &AuthProbe) -> Finding {
    let r = &rules::UNAUTHENTICATED_ACCESS;
    if let Some(e) = &p.error {
        return r.skip(format!("the probe without a token got no answer: {e}"));
    }
    if !p.served {
        return r.pass(format!(
            "tools/list without a token was refused (HTTP {})",
            p.status.unwrap_or(0)
        ));
    }
    if !advertises(obs) {
        return r.skip("the server serves requests without a token and advertises no OAuth (no 401, no Protected Resource Metadata)");
    }
    r.fail("the server advertises OAuth but served tools/list without any token")
        .expected("HTTP 401")
        .actual(format!("HTTP {} with a result", p.status.unwrap_or(0)))
}

fn invalid_token(p: &AuthProbe) -> Finding {
    let r = &rules::INVALID_TOKEN;
    match (p.status, &p.error) {
        (_, Some(e)) => r.skip(format!("the probe with a wrong token got no answer: {e}")),
        (Some(401), _) => r.pass("a token the server never issued was rejected with 401"),
        (Some(s), _) if p.served => r
            .fail(format!(
                "the server served tools/list for a token it never issued (HTTP {s})"
            ))
            .expected("HTTP 401")
            .actual(format!("HTTP {s} with a result")),
        (Some(s), _) => r
            .fail(format!(
                "a token the server never issued was refused with HTTP {s}, not 401 (a client cannot tell it must obtain a new token)"
            ))
            .expected("HTTP 401")
            .actual(format!("HTTP {s}")),
        (None, None) => r.skip("the probe with a wrong token was not sent"),
    }
}
