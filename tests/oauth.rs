//! OAuth end to end (#17): mcpward against the fixture's protected MCP endpoint and its
//! authorization server (`mcpward-fixture --http 0 --oauth FILE`, fixtures/README.md):
//! every grant and client authentication, JSON and SSE answers, both eras, a refresh
//! mid-run, each posture defect the `auth/*` rules catch, the failures that end in exit 2,
//! and canary secrets that never reach any output.

mod common;
use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Output;

const CLIENT_ID: &str = "canary-client-id-7f3a";
const CLIENT_SECRET: &str = "canary-client-secret-91c2";
const JWT_CLIENT: &str = "canary-jwt-client-2b8e";
const REFRESH: &str = "canary-refresh-token-c4d1";
const SCOPE: &str = "canary-scope-5e60";

fn key(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/keys")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The fixture's `--oauth` file: both kinds of client, one refresh token, and `extra`
/// merged over it (defects, metadata kinds, token_max_uses).
fn oauth_file(w: &Workdir, extra: Value) -> PathBuf {
    let mut doc = json!({
        "clients": [
            {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET},
            {"client_id": JWT_CLIENT, "jwt_public_key_pem": key("rsa-public.pem")},
            {"client_id": format!("{JWT_CLIENT}-ec"), "jwt_public_key_pem": key("ec-public.pem")}
        ],
        "refresh_tokens": [{"token": REFRESH, "client_id": CLIENT_ID}],
        "scopes_supported": [SCOPE, "mcp:write"],
        "required_scope": SCOPE,
        "metadata": "oauth",
        "defects": []
    });
    if let (Value::Object(d), Value::Object(e)) = (&mut doc, extra) {
        d.extend(e);
    }
    w.write("oauth.json", &doc.to_string())
}

struct Protected {
    _fx: HttpFixture,
    url: String,
    record: PathBuf,
}

fn start(w: &Workdir, extra: Value, fixture_args: &[&str]) -> Protected {
    let file = oauth_file(w, extra);
    let record = w.path().join("record.jsonl");
    let mut args: Vec<&str> = vec!["--tools", "clean"];
    args.extend_from_slice(fixture_args);
    let file_s = file.to_string_lossy().to_string();
    let record_s = record.to_string_lossy().to_string();
    args.extend(["--oauth", &file_s, "--record", &record_s]);
    let fx = HttpFixture::start(&args);
    let url = fx.url.clone();
    Protected {
        _fx: fx,
        url,
        record,
    }
}

/// `server.auth` lines (indented under `server:`); the credentials come from variables.
fn auth_yaml(kind: &str) -> String {
    match kind {
        "basic" => "  auth:\n    type: client_credentials\n    client_id: ${OA_ID}\n    client_secret: ${OA_SECRET}\n    auth_method: client_secret_basic\n".into(),
        "post" => "  auth:\n    type: client_credentials\n    client_id: ${OA_ID}\n    client_secret: ${OA_SECRET}\n    auth_method: client_secret_post\n    scope: ${OA_SCOPE}\n".into(),
        "jwt-rsa" => "  auth:\n    type: client_credentials\n    client_id: ${OA_JWT}\n    private_key: ${OA_RSA}\n".into(),
        "jwt-ec" => "  auth:\n    type: client_credentials\n    client_id: ${OA_JWT}-ec\n    private_key: ${OA_EC}\n".into(),
        "refresh" => "  auth:\n    type: refresh_token\n    client_id: ${OA_ID}\n    client_secret: ${OA_SECRET}\n    refresh_token: ${OA_REFRESH}\n".into(),
        other => panic!("{other}"),
    }
}

fn config(url: &str, auth: &str, era: &str, extra: &str) -> String {
    format!("server:\n  transport: http\n  url: {url:?}\n  protocol_era: {era}\n{auth}{extra}")
}

fn run_with_env(w: &Workdir, args: &[&str]) -> Output {
    std::process::Command::new(mcpward())
        .args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .env("OA_ID", CLIENT_ID)
        .env("OA_SECRET", CLIENT_SECRET)
        .env("OA_JWT", JWT_CLIENT)
        .env("OA_REFRESH", REFRESH)
        .env("OA_SCOPE", SCOPE)
        .env("OA_RSA", key("rsa-private.pem"))
        .env("OA_EC", key("ec-private.pem"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn records(p: &Protected) -> Vec<Value> {
    std::fs::read_to_string(&p.record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["kind"] == "oauth")
        .collect()
}

fn token_requests(p: &Protected) -> Vec<Value> {
    records(p)
        .into_iter()
        .filter(|r| r["endpoint"] == "token")
        .collect()
}

fn auth_results(report: &Value) -> Vec<(String, String)> {
    triples(report)
        .into_iter()
        .filter(|(id, _, _)| id.starts_with("auth/"))
        .map(|(id, s, _)| (id, s))
        .collect()
}

fn all_auth_pass(report: &Value) -> bool {
    let a = auth_results(report);
    a.len() == 5 && a.iter().all(|(_, s)| s == "pass")
}

fn assert_run_ok(o: &Output) -> Value {
    let r = json_report(o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{:?}\n{}",
        non_pass(&r),
        stderr(o)
    );
    assert!(all_auth_pass(&r), "{:?}", auth_results(&r));
    r
}

#[test]
fn every_grant_and_client_authentication_gets_a_token_for_this_resource() {
    for (kind, client_auth, grant) in [
        ("basic", "basic", "client_credentials"),
        ("post", "post", "client_credentials"),
        ("jwt-rsa", "jwt", "client_credentials"),
        ("jwt-ec", "jwt", "client_credentials"),
        ("refresh", "basic", "refresh_token"),
    ] {
        for answers in [None, Some("sse")] {
            let what = format!("{kind} {answers:?}");
            let args: Vec<&str> = answers.map(|b| vec!["--behavior", b]).unwrap_or_default();
            let w = Workdir::new();
            // run, baseline and diff, each through the grant. A stored refresh token is
            // spent by the command that uses it (the server rotates it), so each command
            // of the refresh grant meets a fresh authorization server.
            let mut p = start(&w, json!({}), &args);
            for cmd in [&["run", "--json"][..], &["baseline"], &["diff"]] {
                if kind == "refresh" {
                    p = start(&w, json!({}), &args);
                }
                w.write(
                    "mcpward.yaml",
                    &config(&p.url, &auth_yaml(kind), "legacy", ""),
                );
                let o = run_with_env(&w, cmd);
                assert_eq!(o.status.code(), Some(0), "{what} {cmd:?}: {}", stderr(&o));
                if cmd[0] == "run" {
                    assert_run_ok(&o);
                }
                let t = token_requests(&p);
                let last = t
                    .last()
                    .unwrap_or_else(|| panic!("{what}: no token request"));
                assert_eq!(last["outcome"], "ok", "{what}: {t:?}");
                assert_eq!(last["client_auth"], client_auth, "{what}: {t:?}");
                assert_eq!(last["grant_type"], grant, "{what}");
                assert_eq!(
                    last["resource"],
                    p.url.as_str(),
                    "{what}: RFC 8707 resource"
                );
                assert_eq!(last["scope"], SCOPE, "{what}: the challenge's scope");
            }
            if kind != "refresh" {
                assert_eq!(token_requests(&p).len(), 3, "{what}: one token per command");
            }
        }
    }
}

#[test]
fn baseline_and_diff_run_through_oauth_over_json_and_sse_in_both_eras() {
    for (era, behaviour) in [
        ("legacy", None),
        ("legacy", Some("sse")),
        ("modern", None),
        ("modern", Some("sse")),
    ] {
        let w = Workdir::new();
        let mut args = vec![];
        if era == "modern" {
            args.extend(["--era", "dual"]);
        }
        if let Some(b) = behaviour {
            args.extend(["--behavior", b]);
        }
        let p = start(&w, json!({}), &args);
        w.write(
            "mcpward.yaml",
            &config(&p.url, &auth_yaml("basic"), era, ""),
        );
        let what = format!("{era} {behaviour:?}");
        let b = run_with_env(&w, &["baseline"]);
        assert_eq!(b.status.code(), Some(0), "{what}: {}", stderr(&b));
        let lock = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
        assert!(lock.contains("\"echo\""), "{what}: the tools were captured");
        for canary in [CLIENT_ID, CLIENT_SECRET] {
            assert!(!lock.contains(canary), "{what}: {canary} in the lockfile");
        }
        let d = run_with_env(&w, &["diff", "--json"]);
        assert_eq!(d.status.code(), Some(0), "{what}: {}", stderr(&d));
        let r = run_with_env(&w, &["run", "--json"]);
        let report = assert_run_ok(&r);
        assert!(report["server"]["protocolVersion"].is_string(), "{what}");
    }
}

#[test]
fn an_expired_token_is_refreshed_once_mid_run() {
    // A run makes about 20 authorized requests: the first token runs out mid-run, the one
    // from the rotated refresh token lasts to the end (the second connection of
    // compliance/surface-stable shares it rather than spending the old refresh token).
    let w = Workdir::new();
    let p = start(&w, json!({"token_max_uses": 12}), &[]);
    w.write(
        "mcpward.yaml",
        &config(&p.url, &auth_yaml("refresh"), "legacy", ""),
    );
    let o = run_with_env(&w, &["run", "--json"]);
    assert_run_ok(&o);
    let t = token_requests(&p);
    assert_eq!(t.len(), 2, "one grant, one refresh: {t:?}");
    assert!(t.iter().all(|r| r["outcome"] == "ok"), "{t:?}");
    assert!(t.iter().all(|r| r["grant_type"] == "refresh_token"));
    let refused = records(&p)
        .into_iter()
        .filter(|r| r["endpoint"] == "mcp-401" && r["token_present"] == true)
        .count();
    // The expired token once, and the auth/invalid-token probe's made-up one.
    assert_eq!(refused, 2, "exactly one request met the expired token");
}

#[test]
fn a_server_that_keeps_rejecting_its_tokens_ends_in_exit_2_naming_the_step() {
    // Each token answers one request: the run needs ~20, mcpward gets at most 10 new ones.
    let w = Workdir::new();
    let p = start(&w, json!({"token_max_uses": 1}), &[]);
    w.write(
        "mcpward.yaml",
        &config(&p.url, &auth_yaml("basic"), "legacy", ""),
    );
    let o = run_with_env(&w, &["run", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("OAuth step 3"), "{e}");
    assert!(e.contains("after 10 new tokens"), "{e}");
    assert!(!e.contains(CLIENT_SECRET));
    assert_eq!(token_requests(&p).len(), 11);
}

#[test]
fn a_token_short_of_the_needed_scope_is_exit_2_naming_insufficient_scope() {
    let w = Workdir::new();
    let p = start(&w, json!({}), &[]);
    // mcp:write is a scope the server supports, but /mcp needs the canary scope.
    let auth = "  auth:\n    type: client_credentials\n    client_id: ${OA_ID}\n    client_secret: ${OA_SECRET}\n    scope: mcp:write\n";
    w.write("mcpward.yaml", &config(&p.url, auth, "auto", ""));
    let o = run_with_env(&w, &["run"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("OAuth step 3 (authorized request): HTTP 403, insufficient_scope"),
        "{e}"
    );
    assert!(e.contains("server.auth.scope"), "{e}");
    assert!(!e.contains("got no HTTP answer"), "{e}");
}

/// Each posture defect fails (or warns) exactly its rule; the run still finishes when the
/// token can be obtained.
#[test]
fn each_defect_is_caught_by_its_rule() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("no-www-authenticate", "", "auth/challenge", "fail"),
        ("no-resource-metadata", "", "auth/challenge", "fail"),
        ("prm-missing", "token", "auth/resource-metadata", "fail"),
        ("prm-not-json", "token", "auth/resource-metadata", "fail"),
        (
            "prm-no-authorization-servers",
            "token",
            "auth/resource-metadata",
            "fail",
        ),
        (
            "prm-wrong-resource",
            "token",
            "auth/resource-metadata",
            "fail",
        ),
        (
            "as-metadata-missing",
            "token",
            "auth/server-metadata",
            "warn",
        ),
        (
            "as-no-token-endpoint",
            "token",
            "auth/server-metadata",
            "warn",
        ),
        ("as-no-s256", "", "auth/server-metadata", "warn"),
        (
            "unauthenticated-access",
            "",
            "auth/unauthenticated-access",
            "fail",
        ),
        ("accepts-invalid-token", "", "auth/invalid-token", "fail"),
    ];
    for (defect, endpoint, rule, status) in cases {
        let w = Workdir::new();
        let p = start(&w, json!({"defects": [defect]}), &[]);
        let te = if endpoint.is_empty() {
            String::new()
        } else {
            // Discovery is broken: the configured endpoint lets the run go on.
            let origin = p.url.trim_end_matches("/mcp");
            format!("    token_endpoint: {origin}/token\n")
        };
        w.write(
            "mcpward.yaml",
            &config(&p.url, &format!("{}{te}", auth_yaml("basic")), "legacy", ""),
        );
        let o = run_with_env(&w, &["run", "--json"]);
        let r = json_report(&o);
        let got = auth_results(&r);
        let bad: Vec<&(String, String)> = got.iter().filter(|(_, s)| s != "pass").collect();
        assert!(
            bad.iter().any(|(id, s)| id == rule && s == status),
            "{defect}: {got:?}\n{}",
            stderr(&o)
        );
        // Nothing else about auth is blamed, except what the defect implies downstream.
        for (id, _) in &bad {
            let implied = matches!(
                (*defect, id.as_str()),
                (
                    "prm-missing"
                        | "prm-not-json"
                        | "prm-no-authorization-servers"
                        | "prm-wrong-resource",
                    "auth/server-metadata"
                ) | ("unauthenticated-access", "auth/challenge")
            );
            assert!(id == rule || implied, "{defect}: also {id}: {got:?}");
        }
        assert_eq!(
            o.status.code(),
            Some(if *status == "fail" { 1 } else { 0 }),
            "{defect}: {got:?}\n{}",
            stderr(&o)
        );
    }
}

#[test]
fn broken_discovery_without_a_token_endpoint_is_exit_2_naming_the_step() {
    for defect in ["prm-missing", "prm-wrong-resource", "as-metadata-missing"] {
        let w = Workdir::new();
        let p = start(&w, json!({"defects": [defect]}), &[]);
        w.write(
            "mcpward.yaml",
            &config(&p.url, &auth_yaml("basic"), "legacy", ""),
        );
        let o = run_with_env(&w, &["run", "--json"]);
        assert_eq!(o.status.code(), Some(2), "{defect}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("OAuth step 1 (discovery)"), "{defect}: {e}");
        assert!(e.contains("server.auth.token_endpoint"), "{defect}: {e}");
        if defect == "prm-wrong-resource" {
            // Credentials never go to the authorization server of another resource.
            assert!(token_requests(&p).is_empty(), "{:?}", token_requests(&p));
        }
    }
}

#[test]
fn token_endpoint_errors_name_the_oauth_code_never_the_secret() {
    // A wrong secret (invalid_client) and a scope the server does not support.
    for (auth, code) in [
        (
            "  auth:\n    type: client_credentials\n    client_id: ${OA_ID}\n    client_secret: wrong-${OA_SECRET}\n".to_string(),
            "invalid_client",
        ),
        (
            "  auth:\n    type: client_credentials\n    client_id: ${OA_ID}\n    client_secret: ${OA_SECRET}\n    scope: not-a-scope-of-it\n".to_string(),
            "invalid_scope",
        ),
    ] {
        let w = Workdir::new();
        let p = start(&w, json!({}), &[]);
        w.write("mcpward.yaml", &config(&p.url, &auth, "legacy", ""));
        let o = run_with_env(&w, &["run"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("OAuth step 2 (token request"), "{e}");
        assert!(e.contains(code), "{e}");
        for canary in [CLIENT_ID, CLIENT_SECRET] {
            assert!(!e.contains(canary), "{canary} in: {e}");
        }
    }
}

#[test]
fn auth_on_stdio_and_plain_http_endpoints_are_config_errors() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        "server:\n  transport: stdio\n  command: x\n  auth:\n    type: bearer\n    token: abcdefgh\n",
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("server.auth: OAuth is for transport http"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("abcdefgh"));
    w.write(
        "mcpward.yaml",
        "server:\n  transport: http\n  url: https://x.example/mcp\n  auth:\n    type: client_credentials\n    client_id: c\n    client_secret: s3cr3tvalue\n    token_endpoint: http://as.example/token\n",
    );
    let o = w.run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("must use HTTPS"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("s3cr3tvalue"));
}

#[test]
fn a_bearer_auth_is_sent_like_a_header() {
    // The fixture's static-token gate (`require-auth`) accepts exactly this token.
    let fx = HttpFixture::start(&[
        "--tools",
        "clean",
        "--behavior",
        "require-auth=canary-bearer-0d9f",
    ]);
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        &config(
            &fx.url,
            "  auth:\n    type: bearer\n    token: canary-bearer-0d9f\n",
            "legacy",
            "",
        ),
    );
    let o = w.run(&["run", "--json"]);
    let r = json_report(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{:?}\n{}",
        non_pass(&r),
        stderr(&o)
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("canary-bearer-0d9f"));
    assert_eq!(
        auth_results(&r),
        [
            ("auth/challenge".to_string(), "skip".to_string()),
            (
                "auth/unauthenticated-access".to_string(),
                "pass".to_string()
            ),
            ("auth/invalid-token".to_string(), "pass".to_string()),
        ]
    );
}

/// A canary in every value of `server.auth` (and the tokens it yields) never shows in any
/// output: stdout and stderr of every reporter, the report files, verbose progress.
#[test]
fn canary_secrets_never_reach_any_output() {
    let w = Workdir::new();
    let p = start(&w, json!({"defects": ["accepts-invalid-token"]}), &[]);
    w.write(
        "mcpward.yaml",
        &config(
            &p.url,
            &auth_yaml("post"),
            "legacy",
            "checks:\n  drift: {}\n",
        ),
    );
    let b = run_with_env(&w, &["baseline"]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    let mut outputs: Vec<(String, String)> = Vec::new();
    for reporter in [
        "console", "json", "junit", "sarif", "markdown", "github", "gitlab",
    ] {
        let o = run_with_env(&w, &["run", "-v", "--reporter", reporter]);
        assert_eq!(o.status.code(), Some(1), "{reporter}: {}", stderr(&o));
        outputs.push((
            format!("{reporter} stdout"),
            String::from_utf8_lossy(&o.stdout).into(),
        ));
        outputs.push((format!("{reporter} stderr"), stderr(&o)));
        let file = format!("report-{reporter}.out");
        let o = run_with_env(&w, &["run", "--reporter", reporter, "--out", &file]);
        assert_eq!(o.status.code(), Some(1), "{reporter} --out");
        outputs.push((
            file.clone(),
            std::fs::read_to_string(w.path().join(&file)).unwrap_or_default(),
        ));
    }
    // The PR comment, posted to a mock GitHub API on loopback.
    let (api, bodies) = mock_github();
    let o = std::process::Command::new(mcpward())
        .args(["run", "--pr-comment"])
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .env("OA_ID", CLIENT_ID)
        .env("OA_SECRET", CLIENT_SECRET)
        .env("OA_SCOPE", SCOPE)
        .env("GITHUB_TOKEN", "ghs_mock")
        .env("GITHUB_REPOSITORY", "o/r")
        .env("MCPWARD_PR_NUMBER", "7")
        .env("GITHUB_API_URL", &api)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let posted = bodies.lock().unwrap().join("\n");
    assert!(
        posted.contains("auth/invalid-token"),
        "no comment posted: {posted}\n{}",
        stderr(&o)
    );
    outputs.push(("PR comment".into(), posted));
    let d = run_with_env(&w, &["diff", "--reporter", "markdown"]);
    outputs.push(("diff".into(), String::from_utf8_lossy(&d.stdout).into()));
    outputs.push((
        "lockfile".into(),
        std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap(),
    ));
    let canaries = [CLIENT_ID, CLIENT_SECRET, SCOPE, REFRESH];
    for (what, text) in &outputs {
        for c in canaries {
            assert!(!text.contains(c), "{c} in {what}:\n{text}");
        }
    }
}

/// A GitHub REST API stand-in: `GET /user`, an empty comment list, and a POST that records
/// its body.
fn mock_github() -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = bodies.clone();
    std::thread::spawn(move || {
        for mut sock in listener.incoming().flatten() {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 8192];
            let (head_end, len) = loop {
                let Ok(n) = sock.read(&mut chunk) else {
                    break (0, 0);
                };
                if n == 0 {
                    break (0, 0);
                }
                buf.extend_from_slice(&chunk[..n]);
                if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    break (i + 4, len);
                }
            };
            while buf.len() < head_end + len {
                match sock.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
            let body = String::from_utf8_lossy(&buf[head_end..]).to_string();
            let answer = if head.starts_with("GET /user") {
                "{\"login\":\"bot\"}".to_string()
            } else if head.starts_with("GET ") {
                "[]".to_string()
            } else {
                seen.lock().unwrap().push(body);
                "{\"id\":1}".to_string()
            };
            let status = if head.starts_with("POST") {
                "201 Created"
            } else {
                "200 OK"
            };
            let _ = write!(
                sock,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (url, bodies)
}

#[test]
fn check_auth_without_server_auth_is_a_usage_error() {
    let w = Workdir::new();
    let o = w.run(&["run", "--check", "auth", "--url", "http://127.0.0.1:9/mcp"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--check auth needs server.auth"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_silent_token_endpoint_is_named_in_the_timeout() {
    // An authorization server that accepts the connection and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    let w = Workdir::new();
    let p = start(&w, json!({}), &[]);
    let auth = format!("  auth:\n    type: client_credentials\n    client_id: ${{OA_ID}}\n    client_secret: ${{OA_SECRET}}\n    token_endpoint: http://127.0.0.1:{port}/token\n");
    w.write(
        "mcpward.yaml",
        &config(&p.url, &auth, "legacy", "timeouts:\n  connect_ms: 1500\n"),
    );
    let o = run_with_env(&w, &["run"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    // The configured endpoint is a server.auth value, so it shows redacted.
    assert!(
        e.contains("OAuth step 2 (token request to [REDACTED])"),
        "{e}"
    );
    assert!(e.contains("had not answered"), "{e}");
}
