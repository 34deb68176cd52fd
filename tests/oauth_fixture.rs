//! The `--oauth` fixture (#17, `fixtures/server/oauth.rs`) driven over plain HTTP: the 401
//! challenge, Protected Resource Metadata, authorization server metadata, the token endpoint
//! (every client authentication and grant, every error), the `/mcp` gate, each posture
//! defect, the record file's secrecy, and hostile token requests.

mod common;

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

const SECRET: &str = "canary-secret-7f3a91";
const REFRESH: &str = "canary-refresh-55c2e0";
const PUBLIC_REFRESH: &str = "canary-public-refresh-81d4";

fn key(name: &str) -> String {
    let path = format!("{}/fixtures/keys/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The usual file: a secret client, an RSA and an EC `private_key_jwt` client, a public
/// client, refresh tokens, two scopes with `mcp:read` required.
fn standard() -> Value {
    json!({
        "clients": [
            {"client_id": "ci-bot", "client_secret": SECRET},
            {"client_id": "rsa-bot", "jwt_public_key_pem": key("rsa-public.pem")},
            {"client_id": "ec-bot", "jwt_public_key_pem": key("ec-public.pem")},
            {"client_id": "public-app"},
            {"client_id": "we:ird id", "client_secret": "p&ss w+rd:%"}
        ],
        "refresh_tokens": [
            {"token": REFRESH, "client_id": "ci-bot"},
            {"token": PUBLIC_REFRESH, "client_id": "public-app"}
        ],
        "scopes_supported": ["mcp:read", "mcp:write"],
        "required_scope": "mcp:read"
    })
}

/// A fixture with `--oauth`, killed on drop.
struct Fx {
    /// Killed on drop.
    _fx: common::HttpFixture,
    url: String,
    origin: String,
    record: String,
    _dir: tempfile::TempDir,
}

impl Fx {
    fn start(oauth: &Value) -> Fx {
        Fx::start_with(oauth, &["--tools", "clean"])
    }

    fn start_with(oauth: &Value, args: &[&str]) -> Fx {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("oauth.json");
        std::fs::write(&file, oauth.to_string()).unwrap();
        let record = dir.path().join("record.jsonl").display().to_string();
        let file_s = file.display().to_string();
        let mut all = args.to_vec();
        all.extend(["--record", &record, "--oauth", &file_s]);
        let fx = common::HttpFixture::start(&all);
        let url = fx.url.clone();
        let origin = url.strip_suffix("/mcp").unwrap().to_string();
        Fx {
            _fx: fx,
            url,
            origin,
            record,
            _dir: dir,
        }
    }

    fn prm_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.origin)
    }

    fn oauth_lines(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.record)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["kind"] == "oauth")
            .collect()
    }
}

/// `application/x-www-form-urlencoded` encoding of one value.
fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn basic(id: &str, secret: &str) -> String {
    let raw = format!("{}:{}", enc(id), enc(secret));
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    )
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("{e}: {:?}", self.text))
    }
    fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    }
    fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or("").to_string()
    }
}

async fn answer(r: reqwest::Response) -> Answer {
    Answer {
        status: r.status().as_u16(),
        headers: r.headers().clone(),
        text: r.text().await.unwrap(),
    }
}

async fn get(url: &str) -> Answer {
    answer(reqwest::Client::new().get(url).send().await.unwrap()).await
}

/// POSTs a form to the token endpoint (at `<origin><issuer_path>/token`).
async fn token_req(endpoint: &str, authz: Option<&str>, body: &str) -> Answer {
    let mut r = reqwest::Client::new()
        .post(endpoint)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body.to_string());
    if let Some(a) = authz {
        r = r.header("Authorization", a);
    }
    answer(r.send().await.unwrap()).await
}

impl Fx {
    fn token_endpoint(&self) -> String {
        format!("{}/token", self.origin)
    }

    async fn token(&self, authz: Option<&str>, pairs: &[(&str, &str)]) -> Answer {
        token_req(&self.token_endpoint(), authz, &form(pairs)).await
    }

    /// A client-credentials token for `ci-bot` by `client_secret_basic`.
    async fn access_token(&self, scope: Option<&str>) -> String {
        let mut pairs = vec![
            ("grant_type", "client_credentials"),
            ("resource", &self.url),
        ];
        if let Some(s) = scope {
            pairs.push(("scope", s));
        }
        let a = self.token(Some(&basic("ci-bot", SECRET)), &pairs).await;
        assert_eq!(a.status, 200, "{}", a.text);
        a.json()["access_token"].as_str().unwrap().to_string()
    }

    async fn mcp(&self, authz: Option<&str>, extra: &[(&str, &str)], body: &Value) -> Answer {
        let mut r = reqwest::Client::new()
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(a) = authz {
            r = r.header("Authorization", a);
        }
        for (k, v) in extra {
            r = r.header(*k, *v);
        }
        answer(r.send().await.unwrap()).await
    }

    async fn initialize(&self, authz: Option<&str>) -> Answer {
        self.mcp(
            authz,
            &[],
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "t", "version": "0"}}}),
        )
        .await
    }

    /// `initialize` + `tools/list` with `Authorization: Bearer <token>`: the tool names.
    async fn tool_names(&self, token: &str) -> Vec<String> {
        let authz = format!("Bearer {token}");
        let init = self.initialize(Some(&authz)).await;
        assert_eq!(init.status, 200, "{}", init.text);
        let sid = init.header("mcp-session-id").expect("session");
        let list = self
            .mcp(
                Some(&authz),
                &[
                    ("Mcp-Session-Id", &sid),
                    ("MCP-Protocol-Version", "2025-11-25"),
                ],
                &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
            )
            .await;
        assert_eq!(list.status, 200, "{}", list.text);
        let v = message(&list);
        v["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}

/// The JSON-RPC message of an answer, JSON or SSE.
fn message(a: &Answer) -> Value {
    if a.header("content-type")
        .is_some_and(|c| c.starts_with("text/event-stream"))
    {
        a.text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m.get("id").is_some())
            .unwrap_or_else(|| panic!("no answer in {:?}", a.text))
    } else {
        a.json()
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn sign(alg: Algorithm, private_pem: &str, claims: &Value) -> String {
    let key = match alg {
        Algorithm::RS256 => EncodingKey::from_rsa_pem(private_pem.as_bytes()).unwrap(),
        _ => EncodingKey::from_ec_pem(private_pem.as_bytes()).unwrap(),
    };
    jsonwebtoken::encode(&Header::new(alg), claims, &key).unwrap()
}

fn claims(fx: &Fx, client: &str, jti: &str) -> Value {
    json!({"iss": client, "sub": client, "aud": fx.token_endpoint(),
           "exp": now() + 300, "iat": now(), "jti": jti})
}

const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

async fn jwt_token(fx: &Fx, assertion: &str) -> Answer {
    fx.token(
        None,
        &[
            ("grant_type", "client_credentials"),
            ("resource", &fx.url),
            ("client_assertion_type", JWT_BEARER),
            ("client_assertion", assertion),
        ],
    )
    .await
}

#[tokio::test]
async fn challenge_names_the_resource_metadata_and_the_scope() {
    let fx = Fx::start(&standard());
    let prm = fx.prm_url();
    let a = fx.initialize(None).await;
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("www-authenticate").as_deref(),
        Some(format!("Bearer resource_metadata=\"{prm}\", scope=\"mcp:read\"").as_str())
    );
    assert_eq!(a.error(), "invalid_token");

    let a = fx.initialize(Some("Bearer not-a-token-of-ours")).await;
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("www-authenticate").as_deref(),
        Some(
            format!(
                "Bearer resource_metadata=\"{prm}\", scope=\"mcp:read\", error=\"invalid_token\""
            )
            .as_str()
        )
    );
    // Another scheme is no bearer token either.
    let a = fx.initialize(Some(&basic("ci-bot", SECRET))).await;
    assert_eq!(a.status, 401);
    assert!(a
        .header("www-authenticate")
        .unwrap()
        .ends_with("error=\"invalid_token\""));
    // Paths that are neither MCP nor OAuth stay 404.
    assert_eq!(get(&format!("{}/other", fx.origin)).await.status, 404);
    assert_eq!(
        get(&format!("{}/.well-known/openid-configuration", fx.origin))
            .await
            .status,
        404,
        "metadata: oauth serves no OpenID document"
    );

    // Without required_scope the challenge has no scope; GET and DELETE are gated too.
    let fx = Fx::start(&json!({"clients": [{"client_id": "a", "client_secret": "b"}]}));
    let a = fx.initialize(None).await;
    assert_eq!(
        a.header("www-authenticate").as_deref(),
        Some(format!("Bearer resource_metadata=\"{}\"", fx.prm_url()).as_str())
    );
    let g = answer(reqwest::Client::new().get(&fx.url).send().await.unwrap()).await;
    assert_eq!(g.status, 401);
    let lines = fx.oauth_lines();
    assert_eq!(lines[0]["endpoint"], "mcp-401");
    assert_eq!(lines[0]["token_present"], false);
}

/// Asserts the AS metadata document an issuer serves.
fn assert_as_doc(doc: &Value, issuer: &str, scopes: Option<&Value>) {
    assert_eq!(doc["issuer"], issuer);
    assert_eq!(doc["token_endpoint"], format!("{issuer}/token"));
    assert_eq!(doc["authorization_endpoint"], format!("{issuer}/authorize"));
    assert_eq!(doc["response_types_supported"], json!(["code"]));
    assert_eq!(
        doc["grant_types_supported"],
        json!(["client_credentials", "refresh_token", "authorization_code"])
    );
    assert_eq!(
        doc["token_endpoint_auth_methods_supported"],
        json!([
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt"
        ])
    );
    assert_eq!(
        doc["token_endpoint_auth_signing_alg_values_supported"],
        json!(["RS256", "ES256"])
    );
    assert_eq!(doc["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(doc.get("scopes_supported"), scopes);
}

#[tokio::test]
async fn metadata_documents_follow_the_metadata_kind_and_issuer_path() {
    let scopes = json!(["mcp:read", "mcp:write"]);
    for (kind, issuer_path) in [
        ("oauth", ""),
        ("oauth", "/tenant1"),
        ("openid", ""),
        ("openid", "/tenant1"),
        ("both", ""),
        ("both", "/tenant1"),
    ] {
        let mut file = standard();
        file["metadata"] = json!(kind);
        file["issuer_path"] = json!(issuer_path);
        let fx = Fx::start(&file);
        let o = &fx.origin;
        let issuer = format!("{o}{issuer_path}");
        let want_prm = json!({"resource": fx.url, "authorization_servers": [issuer],
                              "scopes_supported": scopes, "bearer_methods_supported": ["header"]});
        for path in [
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ] {
            let a = get(&format!("{o}{path}")).await;
            assert_eq!(a.status, 200, "{kind} {issuer_path} {path}");
            assert!(a
                .header("content-type")
                .unwrap()
                .starts_with("application/json"));
            assert_eq!(a.json(), want_prm, "{kind} {issuer_path} {path}");
        }
        let oauth_path = format!("{o}/.well-known/oauth-authorization-server{issuer_path}");
        let mut openid_paths = vec![format!("{o}/.well-known/openid-configuration{issuer_path}")];
        if !issuer_path.is_empty() {
            openid_paths.push(format!("{o}{issuer_path}/.well-known/openid-configuration"));
        }
        let a = get(&oauth_path).await;
        if kind == "openid" {
            assert_eq!(a.status, 404, "{kind} {issuer_path}");
        } else {
            assert_eq!(a.status, 200, "{kind} {issuer_path}");
            assert_as_doc(&a.json(), &issuer, Some(&scopes));
        }
        for p in &openid_paths {
            let a = get(p).await;
            if kind == "oauth" {
                assert_eq!(a.status, 404, "{kind} {p}");
            } else {
                assert_eq!(a.status, 200, "{kind} {p}");
                let doc = a.json();
                assert_as_doc(&doc, &issuer, Some(&scopes));
                assert_eq!(doc["jwks_uri"], format!("{issuer}/jwks"));
            }
        }
        if !issuer_path.is_empty() {
            // No document at the root when the issuer has a path, and the token endpoint
            // lives under the issuer.
            for p in [
                "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration",
                "/token",
            ] {
                assert_eq!(get(&format!("{o}{p}")).await.status, 404, "{kind} {p}");
            }
        }
        let t = token_req(
            &format!("{issuer}/token"),
            Some(&basic("ci-bot", SECRET)),
            &form(&[("grant_type", "client_credentials"), ("resource", &fx.url)]),
        )
        .await;
        assert_eq!(t.status, 200, "{kind} {issuer_path}: {}", t.text);
        let authz = get(&format!("{issuer}/authorize")).await;
        assert_eq!(authz.status, 400);
    }
    // Without scopes_supported nothing advertises scopes.
    let fx = Fx::start(&json!({"metadata": "both", "clients": []}));
    let prm = get(&fx.prm_url()).await.json();
    assert!(prm.get("scopes_supported").is_none(), "{prm}");
    let doc = get(&format!(
        "{}/.well-known/oauth-authorization-server",
        fx.origin
    ))
    .await
    .json();
    assert_as_doc(&doc, &fx.origin, None);
    // Documents are GET only.
    let p = answer(
        reqwest::Client::new()
            .post(fx.prm_url())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(p.status, 405);
}

#[tokio::test]
async fn client_credentials_by_basic_post_and_both_jwt_keys_open_mcp() {
    let fx = Fx::start(&standard());
    let url = fx.url.clone();
    let mut tokens = Vec::new();

    let a = fx
        .token(
            Some(&basic("ci-bot", SECRET)),
            &[("grant_type", "client_credentials"), ("resource", &url)],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.header("cache-control").as_deref(), Some("no-store"));
    let v = a.json();
    assert_eq!(v["token_type"], "Bearer");
    assert_eq!(v["expires_in"], 3600);
    assert_eq!(
        v["scope"], "mcp:read",
        "an absent scope grants required_scope"
    );
    assert!(v.get("refresh_token").is_none());
    tokens.push(v["access_token"].as_str().unwrap().to_string());

    // client_secret_basic url-encodes id and secret before base64 (RFC 6749 §2.3.1).
    let a = fx
        .token(
            Some(&basic("we:ird id", "p&ss w+rd:%")),
            &[("grant_type", "client_credentials"), ("resource", &url)],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    tokens.push(a.json()["access_token"].as_str().unwrap().to_string());

    let a = fx
        .token(
            None,
            &[
                ("grant_type", "client_credentials"),
                ("client_id", "ci-bot"),
                ("client_secret", SECRET),
                ("resource", &url),
                ("scope", "mcp:read mcp:write"),
            ],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["scope"], "mcp:read mcp:write");
    tokens.push(a.json()["access_token"].as_str().unwrap().to_string());

    let rsa = sign(
        Algorithm::RS256,
        &key("rsa-private.pem"),
        &claims(&fx, "rsa-bot", "j-1"),
    );
    let a = jwt_token(&fx, &rsa).await;
    assert_eq!(a.status, 200, "{}", a.text);
    tokens.push(a.json()["access_token"].as_str().unwrap().to_string());

    // ES256, with aud as an array naming the issuer.
    let mut c = claims(&fx, "ec-bot", "j-2");
    c["aud"] = json!(["https://elsewhere.example", fx.origin]);
    let ec = sign(Algorithm::ES256, &key("ec-private.pem"), &c);
    let a = jwt_token(&fx, &ec).await;
    assert_eq!(a.status, 200, "{}", a.text);
    tokens.push(a.json()["access_token"].as_str().unwrap().to_string());

    let mut seen = std::collections::BTreeSet::new();
    for t in &tokens {
        assert!(seen.insert(t.clone()), "tokens are unique");
        assert_eq!(fx.tool_names(t).await.len(), 4);
    }
    let auths: Vec<Value> = fx
        .oauth_lines()
        .iter()
        .filter(|l| l["endpoint"] == "token")
        .map(|l| l["client_auth"].clone())
        .collect();
    assert_eq!(
        auths,
        json!(["basic", "basic", "post", "jwt", "jwt"])
            .as_array()
            .unwrap()
            .clone()
    );
    let ok = fx
        .oauth_lines()
        .iter()
        .filter(|l| l["endpoint"] == "mcp" && l["outcome"] == "ok")
        .count();
    assert_eq!(ok, 10, "every MCP request passed the gate");
}

#[tokio::test]
async fn jwt_assertions_are_verified() {
    let fx = Fx::start(&standard());
    let rsa = key("rsa-private.pem");
    let ec = key("ec-private.pem");
    let cases: Vec<(&str, String)> = vec![
        (
            "signed with the other key",
            sign(Algorithm::ES256, &ec, &claims(&fx, "rsa-bot", "x")),
        ),
        ("expired", {
            let mut c = claims(&fx, "rsa-bot", "x");
            c["exp"] = json!(now() - 5);
            sign(Algorithm::RS256, &rsa, &c)
        }),
        ("wrong audience", {
            let mut c = claims(&fx, "rsa-bot", "x");
            c["aud"] = json!("https://elsewhere.example/token");
            sign(Algorithm::RS256, &rsa, &c)
        }),
        ("no jti", {
            let mut c = claims(&fx, "rsa-bot", "x");
            c.as_object_mut().unwrap().remove("jti");
            sign(Algorithm::RS256, &rsa, &c)
        }),
        ("sub is not the client", {
            let mut c = claims(&fx, "rsa-bot", "x");
            c["sub"] = json!("ec-bot");
            sign(Algorithm::RS256, &rsa, &c)
        }),
        ("no exp", {
            let mut c = claims(&fx, "rsa-bot", "x");
            c.as_object_mut().unwrap().remove("exp");
            sign(Algorithm::RS256, &rsa, &c)
        }),
        (
            "unknown client",
            sign(Algorithm::RS256, &rsa, &claims(&fx, "nobody", "x")),
        ),
        (
            "a client without a key",
            sign(Algorithm::RS256, &rsa, &claims(&fx, "ci-bot", "x")),
        ),
        ("not a JWT", "not.a.jwt".to_string()),
        ("alg none", {
            let e =
                |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
            format!(
                "{}.{}.",
                e(&json!({"alg": "none", "typ": "JWT"})),
                e(&claims(&fx, "rsa-bot", "x"))
            )
        }),
    ];
    for (what, assertion) in &cases {
        let a = jwt_token(&fx, assertion).await;
        assert_eq!(
            (a.status, a.error().as_str()),
            (401, "invalid_client"),
            "{what}: {}",
            a.text
        );
    }
    // A tampered signature.
    let good = sign(Algorithm::RS256, &rsa, &claims(&fx, "rsa-bot", "x"));
    let tampered = format!("{}AA", &good[..good.len() - 2]);
    let a = jwt_token(&fx, &tampered).await;
    assert_eq!(a.status, 401, "{}", a.text);
    // The wrong assertion type.
    let a = fx
        .token(
            None,
            &[
                ("grant_type", "client_credentials"),
                ("resource", &fx.url),
                ("client_assertion_type", "urn:example:other"),
                ("client_assertion", &good),
            ],
        )
        .await;
    assert_eq!((a.status, a.error().as_str()), (400, "invalid_request"));
    // The same assertion still works once the others failed.
    assert_eq!(jwt_token(&fx, &good).await.status, 200);
}

#[tokio::test]
async fn token_endpoint_errors_follow_rfc_6749() {
    let fx = Fx::start(&standard());
    let url = fx.url.clone();
    let cc = ("grant_type", "client_credentials");
    let res = ("resource", url.as_str());
    let good = basic("ci-bot", SECRET);

    let a = fx.token(Some(&basic("ci-bot", "wrong")), &[cc, res]).await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));
    assert!(a.header("www-authenticate").unwrap().starts_with("Basic"));
    assert_eq!(a.header("cache-control").as_deref(), Some("no-store"));
    let a = fx
        .token(
            None,
            &[cc, res, ("client_id", "ci-bot"), ("client_secret", "wrong")],
        )
        .await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));
    let a = fx.token(Some(&basic("nobody", SECRET)), &[cc, res]).await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));
    let a = fx.token(None, &[cc, res]).await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));
    // client_id alone is for refresh grants of public clients only.
    let a = fx
        .token(None, &[cc, res, ("client_id", "public-app")])
        .await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));

    let slash = format!("{url}/");
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (
            vec![cc, ("resource", "http://127.0.0.1:1/mcp")],
            "invalid_target",
        ),
        (vec![cc, ("resource", &slash)], "invalid_target"),
        (vec![cc], "invalid_target"),
        (vec![cc, res, res], "invalid_target"),
        (vec![cc, res, ("scope", "mcp:admin")], "invalid_scope"),
        (
            vec![cc, res, ("scope", "mcp:read mcp:admin")],
            "invalid_scope",
        ),
        (
            vec![("grant_type", "password"), res],
            "unsupported_grant_type",
        ),
        (
            vec![("grant_type", "authorization_code"), res, ("code", "x")],
            "invalid_grant",
        ),
        (vec![res], "invalid_request"),
        (vec![cc, cc, res], "invalid_request"),
        (
            vec![cc, res, ("client_secret", SECRET), ("client_id", "ci-bot")],
            "invalid_request",
        ),
    ];
    for (pairs, code) in &cases {
        let a = fx.token(Some(&good), pairs).await;
        assert_eq!(
            (a.status, a.error().as_str()),
            (400, *code),
            "{pairs:?}: {}",
            a.text
        );
        assert!(a.json()["error_description"].is_string());
    }
    // Not a form.
    let a = answer(
        reqwest::Client::new()
            .post(fx.token_endpoint())
            .header("Authorization", &good)
            .header("Content-Type", "application/json")
            .body(json!({"grant_type": "client_credentials"}).to_string())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((a.status, a.error().as_str()), (400, "invalid_request"));
    let a = get(&fx.token_endpoint()).await;
    assert_eq!(a.status, 405);
    // Without scopes_supported any scope is granted as asked.
    let fx = Fx::start(&json!({"clients": [{"client_id": "a", "client_secret": "b"}]}));
    let a = fx
        .token(
            Some(&basic("a", "b")),
            &[cc, ("resource", &fx.url), ("scope", "anything at+all")],
        )
        .await;
    // `+` in the value was sent as %2B, the spaces as `+`.
    assert_eq!(a.json()["scope"], "anything at+all");
    let a = fx
        .token(Some(&basic("a", "b")), &[cc, ("resource", &fx.url)])
        .await;
    assert!(a.json().get("scope").is_none(), "{}", a.text);
}

#[tokio::test]
async fn refresh_tokens_rotate() {
    let fx = Fx::start(&standard());
    let url = fx.url.clone();
    let refresh = |rt: String, authz: Option<String>, extra: Vec<(&'static str, &'static str)>| {
        let fx = &fx;
        let url = url.clone();
        async move {
            let mut pairs = vec![
                ("grant_type", "refresh_token"),
                ("refresh_token", rt.as_str()),
                ("resource", url.as_str()),
            ];
            pairs.extend(extra);
            fx.token(authz.as_deref(), &pairs).await
        }
    };
    let secret = Some(basic("ci-bot", SECRET));
    let a = refresh(REFRESH.into(), secret.clone(), vec![]).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let v = a.json();
    let rt2 = v["refresh_token"].as_str().unwrap().to_string();
    assert_ne!(rt2, REFRESH);
    assert_eq!(
        fx.tool_names(v["access_token"].as_str().unwrap())
            .await
            .len(),
        4
    );

    let a = refresh(REFRESH.into(), secret.clone(), vec![]).await;
    assert_eq!(
        (a.status, a.error().as_str()),
        (400, "invalid_grant"),
        "rotated away"
    );
    // A client with a secret must use it, even for a refresh.
    let a = refresh(rt2.clone(), None, vec![("client_id", "ci-bot")]).await;
    assert_eq!((a.status, a.error().as_str()), (401, "invalid_client"));
    // Another client's refresh token.
    let a = refresh(PUBLIC_REFRESH.into(), secret.clone(), vec![]).await;
    assert_eq!((a.status, a.error().as_str()), (400, "invalid_grant"));
    let a = refresh(rt2.clone(), secret.clone(), vec![("scope", "mcp:write")]).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["scope"], "mcp:write");
    let a = refresh(rt2, secret.clone(), vec![]).await;
    assert_eq!(a.error(), "invalid_grant");
    // A public client by client_id alone; twice in a row through the rotated tokens.
    let a = refresh(
        PUBLIC_REFRESH.into(),
        None,
        vec![("client_id", "public-app")],
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    let rt3 = a.json()["refresh_token"].as_str().unwrap().to_string();
    let a = refresh(rt3, None, vec![("client_id", "public-app")]).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let a = refresh("".into(), secret, vec![]).await;
    assert_eq!(a.error(), "invalid_grant");
    let a = fx
        .token(
            Some(&basic("ci-bot", SECRET)),
            &[("grant_type", "refresh_token"), ("resource", &url)],
        )
        .await;
    assert_eq!(a.error(), "invalid_request", "no refresh_token parameter");
    let line = fx
        .oauth_lines()
        .into_iter()
        .find(|l| l["client_auth"] == "client_id" && l["outcome"] == "ok")
        .unwrap();
    assert_eq!(line["grant_type"], "refresh_token");
    assert_eq!(line["client_id"], "public-app");
}

#[tokio::test]
async fn token_max_uses_then_invalid_token_and_scope_is_enforced() {
    let mut file = standard();
    file["token_max_uses"] = json!(2);
    let fx = Fx::start(&file);
    let t = fx.access_token(None).await;
    let authz = format!("Bearer {t}");
    assert_eq!(fx.initialize(Some(&authz)).await.status, 200);
    assert_eq!(fx.initialize(Some(&authz)).await.status, 200);
    let a = fx.initialize(Some(&authz)).await;
    assert_eq!(a.status, 401);
    assert!(a
        .header("www-authenticate")
        .unwrap()
        .ends_with(", error=\"invalid_token\""));
    assert_eq!(a.error(), "invalid_token");
    // A fresh token answers again.
    let t2 = fx.access_token(None).await;
    assert_eq!(
        fx.initialize(Some(&format!("Bearer {t2}"))).await.status,
        200
    );

    // A token without the required scope: 403 insufficient_scope.
    let w = fx.access_token(Some("mcp:write")).await;
    let a = fx.initialize(Some(&format!("Bearer {w}"))).await;
    assert_eq!(a.status, 403);
    assert_eq!(
        a.header("www-authenticate").as_deref(),
        Some(
            format!(
                "Bearer resource_metadata=\"{}\", scope=\"mcp:read\", error=\"insufficient_scope\"",
                fx.prm_url()
            )
            .as_str()
        )
    );
    assert_eq!(a.error(), "insufficient_scope");
    let ends: Vec<String> = fx
        .oauth_lines()
        .iter()
        .filter(|l| l["endpoint"].as_str().unwrap().starts_with("mcp-"))
        .map(|l| {
            format!(
                "{} {}",
                l["endpoint"].as_str().unwrap(),
                l["client_id"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(ends, ["mcp-401 ci-bot", "mcp-403 ci-bot"]);
}

#[tokio::test]
async fn tokens_are_per_process_and_per_listener() {
    let a = Fx::start(&standard());
    let b = Fx::start(&standard());
    let t = a.access_token(None).await;
    assert_eq!(a.initialize(Some(&format!("Bearer {t}"))).await.status, 200);
    assert_eq!(b.initialize(Some(&format!("Bearer {t}"))).await.status, 401);
    // Lower-case scheme is still Bearer (RFC 7235: schemes are case-insensitive).
    assert_eq!(a.initialize(Some(&format!("bearer {t}"))).await.status, 200);
}

#[tokio::test]
async fn valid_tokens_keep_every_era_and_sse() {
    // SSE answers.
    let fx = Fx::start_with(&standard(), &["--tools", "clean", "--behavior", "sse"]);
    let t = fx.access_token(None).await;
    assert_eq!(fx.tool_names(&t).await.len(), 4);
    // Modern era: server/discover with the envelope.
    let fx = Fx::start_with(&standard(), &["--tools", "clean", "--era", "modern"]);
    let t = fx.access_token(None).await;
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {}}}});
    let hdr = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "server/discover"),
    ];
    let a = fx.mcp(None, &hdr, &discover).await;
    assert_eq!(a.status, 401);
    let a = fx.mcp(Some(&format!("Bearer {t}")), &hdr, &discover).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(message(&a).get("result").is_some(), "{}", a.text);
}

async fn defect(name: &str) -> Fx {
    let mut file = standard();
    file["defects"] = json!([name]);
    file["metadata"] = json!("both");
    Fx::start(&file)
}

#[tokio::test]
async fn challenge_defects() {
    let fx = defect("no-www-authenticate").await;
    let a = fx.initialize(None).await;
    assert_eq!(a.status, 401);
    assert_eq!(a.header("www-authenticate"), None);
    assert_eq!(
        fx.initialize(Some("Bearer nope"))
            .await
            .header("www-authenticate"),
        None
    );

    let fx = defect("no-resource-metadata").await;
    let a = fx.initialize(None).await;
    assert_eq!(
        a.header("www-authenticate").as_deref(),
        Some("Bearer scope=\"mcp:read\"")
    );
    assert_eq!(get(&fx.prm_url()).await.status, 200, "PRM is still served");
    let mut file = json!({"defects": ["no-resource-metadata"]});
    file["clients"] = json!([]);
    let fx = Fx::start(&file);
    assert_eq!(
        fx.initialize(None)
            .await
            .header("www-authenticate")
            .as_deref(),
        Some("Bearer")
    );
}

#[tokio::test]
async fn resource_metadata_defects() {
    for name in ["prm-missing", "prm-not-json"] {
        let fx = defect(name).await;
        for path in [
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ] {
            let a = get(&format!("{}{path}", fx.origin)).await;
            if name == "prm-missing" {
                assert_eq!(a.status, 404, "{name} {path}");
            } else {
                assert_eq!(a.status, 200, "{name} {path}");
                assert!(a.header("content-type").unwrap().starts_with("text/html"));
                assert!(serde_json::from_str::<Value>(&a.text).is_err());
            }
        }
        // The challenge still points at the metadata.
        let a = fx.initialize(None).await;
        assert!(a
            .header("www-authenticate")
            .unwrap()
            .contains("resource_metadata="));
    }
    let fx = defect("prm-no-authorization-servers").await;
    let doc = get(&fx.prm_url()).await.json();
    assert_eq!(doc["resource"], fx.url);
    assert!(doc.get("authorization_servers").is_none(), "{doc}");
    let fx = defect("prm-wrong-resource").await;
    let doc = get(&fx.prm_url()).await.json();
    assert_eq!(doc["resource"], "https://evil.example/mcp");
    assert_eq!(doc["authorization_servers"], json!([fx.origin]));
    // Tokens are still issued for the real resource only.
    let a = fx
        .token(
            Some(&basic("ci-bot", SECRET)),
            &[
                ("grant_type", "client_credentials"),
                ("resource", "https://evil.example/mcp"),
            ],
        )
        .await;
    assert_eq!(a.error(), "invalid_target");
}

#[tokio::test]
async fn server_metadata_defects() {
    let fx = defect("as-metadata-missing").await;
    for p in [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ] {
        assert_eq!(get(&format!("{}{p}", fx.origin)).await.status, 404, "{p}");
    }
    let t = fx.access_token(None).await;
    assert_eq!(
        fx.tool_names(&t).await.len(),
        4,
        "the token endpoint still works"
    );

    let fx = defect("as-no-token-endpoint").await;
    for p in [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ] {
        let doc = get(&format!("{}{p}", fx.origin)).await.json();
        assert!(doc.get("token_endpoint").is_none(), "{p}: {doc}");
        assert_eq!(doc["issuer"], fx.origin);
    }
    fx.access_token(None).await;

    let fx = defect("as-no-s256").await;
    let doc = get(&format!(
        "{}/.well-known/oauth-authorization-server",
        fx.origin
    ))
    .await
    .json();
    assert_eq!(doc["code_challenge_methods_supported"], json!(["plain"]));
}

#[tokio::test]
async fn enforcement_defects() {
    let fx = defect("unauthenticated-access").await;
    let a = fx.initialize(None).await;
    assert_eq!(a.status, 200, "served without a token: {}", a.text);
    let a = fx.initialize(Some("Bearer wrong")).await;
    assert_eq!(a.status, 401, "an invalid token is still refused");
    assert_eq!(
        get(&fx.prm_url()).await.status,
        200,
        "auth is still advertised"
    );
    let t = fx.access_token(None).await;
    assert_eq!(fx.tool_names(&t).await.len(), 4);

    let fx = defect("accepts-invalid-token").await;
    assert_eq!(fx.tool_names("anything-at-all").await.len(), 4);
    assert_eq!(
        fx.initialize(None).await.status,
        401,
        "no header is still refused"
    );
}

#[tokio::test]
async fn the_record_holds_no_secret() {
    let fx = Fx::start(&standard());
    let url = fx.url.clone();
    let mut leaked: Vec<String> = vec![SECRET.into(), REFRESH.into(), PUBLIC_REFRESH.into()];
    // Every way a secret reaches the fixture, failures included.
    let t = fx.access_token(None).await;
    leaked.push(t.clone());
    fx.tool_names(&t).await;
    fx.token(
        None,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", "ci-bot"),
            ("client_secret", SECRET),
            ("resource", &url),
        ],
    )
    .await;
    fx.token(
        Some(&basic("ci-bot", &format!("{SECRET}-wrong"))),
        &[("grant_type", "client_credentials"), ("resource", &url)],
    )
    .await;
    let a = fx
        .token(
            Some(&basic("ci-bot", SECRET)),
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", REFRESH),
                ("resource", &url),
            ],
        )
        .await;
    leaked.push(a.json()["refresh_token"].as_str().unwrap().into());
    leaked.push(a.json()["access_token"].as_str().unwrap().into());
    let assertion = sign(
        Algorithm::RS256,
        &key("rsa-private.pem"),
        &claims(&fx, "rsa-bot", "canary-jti-9911"),
    );
    let a = jwt_token(&fx, &assertion).await;
    leaked.push(a.json()["access_token"].as_str().unwrap().into());
    leaked.push(assertion.clone());
    // Pieces of the assertion (its signature, its claims) must not appear either.
    leaked.push(assertion.rsplit('.').next().unwrap().into());
    leaked.push("canary-jti-9911".into());
    fx.initialize(Some("Bearer canary-unknown-token-3141"))
        .await;
    leaked.push("canary-unknown-token-3141".into());
    fx.token(
        Some(&basic("ci-bot", SECRET)),
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", "canary-bad-rt-2718"),
            ("resource", &url),
        ],
    )
    .await;
    leaked.push("canary-bad-rt-2718".into());

    let record = std::fs::read_to_string(&fx.record).unwrap();
    for s in &leaked {
        assert!(
            !record.contains(s.as_str()),
            "{s:?} leaked into the record:\n{record}"
        );
    }
    // ... while the record still says what happened.
    let endpoints: Vec<String> = fx
        .oauth_lines()
        .iter()
        .map(|l| {
            format!(
                "{}:{}",
                l["endpoint"].as_str().unwrap(),
                l["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        endpoints.contains(&"token:invalid_client".to_string()),
        "{endpoints:?}"
    );
    assert!(
        endpoints.contains(&"token:invalid_grant".to_string()),
        "{endpoints:?}"
    );
    assert!(
        endpoints.contains(&"mcp-401:invalid_token".to_string()),
        "{endpoints:?}"
    );
    let jwt = fx
        .oauth_lines()
        .into_iter()
        .find(|l| l["client_auth"] == "jwt")
        .unwrap();
    assert_eq!(
        jwt,
        json!({"kind": "oauth", "endpoint": "token", "path": "/token",
               "grant_type": "client_credentials", "client_auth": "jwt", "client_id": "rsa-bot",
               "resource": url, "scope": "mcp:read", "outcome": "ok"})
    );
    assert!(record.contains("\"authorization_present\":true"));
}

#[tokio::test]
async fn hostile_token_requests_never_break_the_server() {
    let fx = Fx::start(&standard());
    let ep = fx.token_endpoint();
    let huge = format!("grant_type=client_credentials&pad={}", "A".repeat(8 << 20));
    let a = token_req(&ep, Some(&basic("ci-bot", SECRET)), &huge).await;
    assert_eq!(a.error(), "invalid_request");
    for authz in [
        "Basic",
        "Basic !!!!",
        "Basic ////",
        "Basic Og==",
        "Basic w6g=",
        &format!("Basic {}", "A".repeat(40_000)),
        "Bearer x",
        "Digest a=b",
    ] {
        let a = token_req(&ep, Some(authz), "grant_type=client_credentials").await;
        assert!(matches!(a.status, 400 | 401), "{authz}: {}", a.status);
    }
    for body in [
        "grant_type=%",
        "grant_type=%zz",
        "grant_type=%FF%FE",
        "=&&&=&grant_type",
        "client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=....&grant_type=client_credentials",
        "client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=e30.e30.e30&grant_type=client_credentials",
        "client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJyc2EtYm90In0.%00%01&grant_type=client_credentials",
    ] {
        let a = token_req(&ep, None, body).await;
        assert!(matches!(a.status, 400 | 401), "{body}: {}", a.status);
        assert!(a.json()["error"].is_string());
    }
    let raw = answer(
        reqwest::Client::new()
            .post(&ep)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(vec![0xffu8, 0xfe, b'=', 0x80])
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(raw.error(), "invalid_request");
    // Still serving.
    let t = fx.access_token(None).await;
    assert_eq!(fx.tool_names(&t).await.len(), 4);
}

fn fixture_exit(args: &[&str], file: Option<&str>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(common::fixture());
    cmd.args(["--tools", "clean"]).args(args);
    if let Some(text) = file {
        let p = dir.path().join("oauth.json");
        std::fs::write(&p, text).unwrap();
        cmd.arg("--oauth").arg(&p);
    }
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_oauth_files_and_usage_are_exit_2() {
    let (code, err) = fixture_exit(&[], Some("{}"));
    assert_eq!(code, 2);
    assert!(err.contains("--oauth needs --http"), "{err}");
    for (text, says) in [
        (r#"{"client": []}"#, "unknown member \"client\""),
        (
            r#"{"clients": [{"client_id": "a", "secret": "x"}]}"#,
            "unknown member \"secret\"",
        ),
        (
            r#"{"refresh_tokens": [{"token": "t", "client_id": "a", "x": 1}]}"#,
            "unknown member \"x\"",
        ),
        (
            r#"{"refresh_tokens": [{"token": "t", "client_id": "nobody"}]}"#,
            "not in \"clients\"",
        ),
        (r#"{"defects": ["prm-missin"]}"#, "unknown defect"),
        (r#"{"metadata": "oidc"}"#, "\"metadata\""),
        (r#"{"issuer_path": "tenant1"}"#, "issuer_path"),
        (r#"{"token_max_uses": -1}"#, "token_max_uses"),
        (
            r#"{"clients": [{"client_id": "a", "jwt_public_key_pem": "garbage"}]}"#,
            "jwt_public_key_pem",
        ),
        ("[]", "JSON object"),
        ("{", "oauth file"),
    ] {
        let (code, err) = fixture_exit(&["--http", "0"], Some(text));
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains(says), "{text}: {err}");
    }
}
