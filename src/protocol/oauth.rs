//! MCP authorization (2025-06-18 and later) as pure rules: what `server.auth` asks for,
//! the `WWW-Authenticate` challenge, where the metadata documents live (RFC 9728, RFC 8414
//! and OpenID discovery path insertion), the canonical resource URI (RFC 8707) and which
//! endpoints may be plain HTTP. The requests themselves are `transport::oauth`'s.

use std::collections::BTreeMap;

/// `server.auth` once interpolated. Every string is a secret (never printed, never sent to
/// any origin but the one it is for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthSpec {
    /// The same as an `Authorization: Bearer` header.
    Bearer { token: String },
    /// A grant made at the token endpoint: client credentials or a stored refresh token.
    Grant(Box<GrantSpec>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantSpec {
    pub grant: Grant,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Space-separated, as configured.
    pub scope: Option<String>,
    pub method: ClientAuth,
    /// PKCS#8 (or PKCS#1 RSA) PEM text for `private_key_jwt`.
    pub private_key: Option<String>,
    /// Used when discovery does not yield one (or fails).
    pub token_endpoint: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    ClientCredentials,
    RefreshToken(String),
}

impl Grant {
    pub fn name(&self) -> &'static str {
        match self {
            Grant::ClientCredentials => "client_credentials",
            Grant::RefreshToken(_) => "refresh_token",
        }
    }
}

/// How the client authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    Basic,
    Post,
    PrivateKeyJwt,
    /// A public client (refresh grant without a secret): `client_id` in the body only.
    None,
}

impl ClientAuth {
    pub const NAMES: &'static [&'static str] = &[
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt",
    ];

    pub fn parse(s: &str) -> Option<ClientAuth> {
        match s {
            "client_secret_basic" => Some(ClientAuth::Basic),
            "client_secret_post" => Some(ClientAuth::Post),
            "private_key_jwt" => Some(ClientAuth::PrivateKeyJwt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClientAuth::Basic => "client_secret_basic",
            ClientAuth::Post => "client_secret_post",
            ClientAuth::PrivateKeyJwt => "private_key_jwt",
            ClientAuth::None => "none",
        }
    }
}

/// One challenge of a `WWW-Authenticate` value: the scheme (lower-cased) and its
/// parameters (names lower-cased, quoted values unquoted).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    pub scheme: String,
    pub params: BTreeMap<String, String>,
}

impl Challenge {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }
}

/// RFC 9110 §11.6.1 challenges: `Bearer realm="x", scope="a b", Basic realm=y`. Tolerant:
/// a malformed tail ends the parse with what was read.
pub fn parse_www_authenticate(value: &str) -> Vec<Challenge> {
    let mut out: Vec<Challenge> = Vec::new();
    let b = value.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && (b[*i] == b' ' || b[*i] == b'\t' || b[*i] == b',') {
            *i += 1;
        }
    };
    let token = |i: &mut usize| -> String {
        let start = *i;
        while *i < b.len() && !matches!(b[*i], b' ' | b'\t' | b',' | b'=' | b'"') {
            *i += 1;
        }
        value[start..*i].to_string()
    };
    loop {
        skip_ws(&mut i);
        if i >= b.len() {
            break;
        }
        let word = token(&mut i);
        if word.is_empty() {
            break;
        }
        // `name=value` continues the current challenge; a bare word starts a new one.
        let mut j = i;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        let is_param = j < b.len() && b[j] == b'=' && !out.is_empty() && {
            // token68 (`Bearer abc==`) has only `=` after it; a parameter has a value.
            let mut k = j;
            while k < b.len() && b[k] == b'=' {
                k += 1;
            }
            k < b.len() && b[k] != b',' && k == j + 1
        };
        if !is_param {
            out.push(Challenge {
                scheme: word.to_ascii_lowercase(),
                params: BTreeMap::new(),
            });
            continue;
        }
        i = j + 1;
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        let val = if i < b.len() && b[i] == b'"' {
            i += 1;
            let mut s = String::new();
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    i += 1;
                }
                let ch_len = utf8_len(b[i]);
                s.push_str(&value[i..(i + ch_len).min(b.len())]);
                i += ch_len;
            }
            i += 1;
            s
        } else {
            token(&mut i)
        };
        if let Some(last) = out.last_mut() {
            last.params.entry(word.to_ascii_lowercase()).or_insert(val);
        }
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The `Bearer` challenge of a `WWW-Authenticate` value, if any.
pub fn bearer_challenge(value: &str) -> Option<Challenge> {
    parse_www_authenticate(value)
        .into_iter()
        .find(|c| c.scheme == "bearer")
}

/// RFC 8707 / MCP "canonical server URI": scheme and host lower-cased (the URL parser does
/// that), no fragment, no trailing slash on an empty path.
pub fn canonical_resource(server_url: &str) -> String {
    let Ok(mut u) = url::Url::parse(server_url) else {
        return server_url.to_string();
    };
    u.set_fragment(None);
    let _ = u.set_username("");
    let _ = u.set_password(None);
    let mut s = u.to_string();
    if u.path() == "/" && u.query().is_none() {
        s.pop();
    }
    s
}

/// Whether a PRM `resource` names this server (RFC 9728 §3.3: identical to the resource the
/// client asked about), compared in canonical form.
pub fn resource_matches(prm_resource: &str, server_url: &str) -> bool {
    canonical_resource(prm_resource) == canonical_resource(server_url)
}

/// RFC 9728 §3.1 well-known URLs of the Protected Resource Metadata, most specific first:
/// the path-inserted one, then the origin's root (when they differ).
pub fn prm_urls(server_url: &str) -> Vec<String> {
    let Ok(u) = url::Url::parse(server_url) else {
        return Vec::new();
    };
    let origin = u.origin().ascii_serialization();
    let path = u.path().trim_end_matches('/');
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    if path.is_empty() {
        vec![root]
    } else {
        vec![format!("{root}{path}"), root]
    }
}

/// MCP authorization "Authorization Server Metadata Discovery": for an issuer with a path,
/// RFC 8414 path insertion, OpenID path insertion, then OpenID path appending; without a
/// path, RFC 8414 then OpenID at the root.
pub fn as_metadata_urls(issuer: &str) -> Vec<String> {
    let Ok(u) = url::Url::parse(issuer) else {
        return Vec::new();
    };
    let origin = u.origin().ascii_serialization();
    let path = u.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Whether a URL's host is a loopback address or `localhost`.
pub fn is_loopback(u: &url::Url) -> bool {
    match u.host() {
        Some(url::Host::Ipv4(a)) => a.is_loopback(),
        Some(url::Host::Ipv6(a)) => a.is_loopback(),
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        None => false,
    }
}

/// Every authorization endpoint must be HTTPS, except on loopback (MCP authorization,
/// "Communication Security"). `Err` says why, naming the URL's origin only.
pub fn check_endpoint_url(what: &str, raw: &str) -> Result<url::Url, String> {
    let u = url::Url::parse(raw).map_err(|e| format!("{what} is not a valid URL ({e})"))?;
    match u.scheme() {
        "https" => Ok(u),
        "http" if is_loopback(&u) => Ok(u),
        "http" => Err(format!(
            "{what} {} is plain HTTP; OAuth endpoints must use HTTPS (only loopback may use http)",
            u.origin().ascii_serialization()
        )),
        other => Err(format!("{what} has the unsupported scheme {other:?}")),
    }
}

/// The scope to request (MCP "Scope Selection Strategy"): the configured one, else the
/// challenge's, else the PRM's `scopes_supported` joined, else none.
pub fn choose_scope(
    configured: Option<&str>,
    challenge: Option<&str>,
    supported: &[String],
) -> Option<String> {
    let pick = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    configured
        .and_then(pick)
        .or_else(|| challenge.and_then(pick))
        .or_else(|| pick(&supported.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_parameters_quoted_and_bare() {
        let c = parse_www_authenticate(
            r#"Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="read write", error=invalid_token, Basic realm="x""#,
        );
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].scheme, "bearer");
        assert_eq!(
            c[0].param("resource_metadata"),
            Some("https://a.example/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c[0].param("scope"), Some("read write"));
        assert_eq!(c[0].param("error"), Some("invalid_token"));
        assert_eq!(c[1].scheme, "basic");
        assert_eq!(c[1].param("realm"), Some("x"));
        assert!(bearer_challenge(r#"Basic realm="x""#).is_none());
        assert_eq!(bearer_challenge("Bearer").unwrap().params.len(), 0);
    }

    #[test]
    fn challenge_parser_survives_garbage() {
        for v in [
            "",
            "=",
            "\"",
            "Bearer =",
            "Bearer a=\"unterminated",
            "Bearer abc==",
            "Bearer a=\"\\",
            "Bearer a=\"é\"",
            ",,,,",
        ] {
            let _ = parse_www_authenticate(v);
        }
        assert_eq!(
            bearer_challenge("Bearer a=\"é\"").unwrap().param("a"),
            Some("é")
        );
    }

    #[test]
    fn well_known_locations() {
        assert_eq!(
            prm_urls("https://h.example:8443/api/mcp?x=1"),
            vec![
                "https://h.example:8443/.well-known/oauth-protected-resource/api/mcp",
                "https://h.example:8443/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            prm_urls("https://h.example/"),
            vec!["https://h.example/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            as_metadata_urls("https://as.example/tenant1"),
            vec![
                "https://as.example/.well-known/oauth-authorization-server/tenant1",
                "https://as.example/.well-known/openid-configuration/tenant1",
                "https://as.example/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            as_metadata_urls("https://as.example/"),
            vec![
                "https://as.example/.well-known/oauth-authorization-server",
                "https://as.example/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn canonical_uri_and_matching() {
        assert_eq!(
            canonical_resource("HTTPS://MCP.Example.com/mcp#frag"),
            "https://mcp.example.com/mcp"
        );
        assert_eq!(
            canonical_resource("https://mcp.example.com/"),
            "https://mcp.example.com"
        );
        assert!(resource_matches(
            "https://mcp.example.com/mcp",
            "https://MCP.example.com/mcp"
        ));
        assert!(!resource_matches(
            "https://evil.example/mcp",
            "https://mcp.example.com/mcp"
        ));
    }

    #[test]
    fn https_required_except_loopback() {
        assert!(check_endpoint_url("t", "https://as.example/token").is_ok());
        assert!(check_endpoint_url("t", "http://127.0.0.1:9/token").is_ok());
        assert!(check_endpoint_url("t", "http://localhost:9/token").is_ok());
        assert!(check_endpoint_url("t", "http://[::1]:9/token").is_ok());
        let e = check_endpoint_url("the token endpoint", "http://as.example/token").unwrap_err();
        assert!(e.contains("HTTPS"), "{e}");
        assert!(check_endpoint_url("t", "ftp://as.example/").is_err());
        assert!(check_endpoint_url("t", "not a url").is_err());
    }

    #[test]
    fn scope_selection_order() {
        let sup = vec!["a".to_string(), "b".to_string()];
        assert_eq!(
            choose_scope(Some("x"), Some("y"), &sup).as_deref(),
            Some("x")
        );
        assert_eq!(choose_scope(None, Some("y"), &sup).as_deref(), Some("y"));
        assert_eq!(choose_scope(None, None, &sup).as_deref(), Some("a b"));
        assert_eq!(choose_scope(Some(" "), None, &[]), None);
    }
}
