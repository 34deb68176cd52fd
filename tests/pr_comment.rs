//! `--pr-comment` (reporters.md §8): the publisher against a mock GitHub REST API on
//! 127.0.0.1, and the binary end to end (fixture server + mock API).
//!
//! The mock is a hand-rolled HTTP/1.1 server on a std thread (one request per connection,
//! `Connection: close`), so the same mock serves async library calls and a child process.

mod common;
use common::*;

use mcpward::publish::github::{self as pr_comment, PrContext, PublishOutcome, MARKER};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const TOKEN: &str = "ghs_mockTOKENvalue1234567890";

#[derive(Debug, Clone)]
struct Comment {
    id: u64,
    login: String,
    body: String,
}

#[derive(Debug, Clone)]
struct Req {
    method: String,
    /// Path and query.
    target: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Req {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn line(&self) -> String {
        format!("{} {}", self.method, self.target)
    }
}

struct State {
    /// What `GET /user` answers; `None` → 403 (an installation token).
    user: Option<String>,
    /// The author GitHub records for comments this token writes.
    writer: String,
    comments: Vec<Comment>,
    next_id: u64,
    /// Every request answered with this status.
    fail_all: Option<u16>,
    /// PATCH answered with this status.
    patch_status: Option<u16>,
    log: Vec<Req>,
}

struct Mock {
    url: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl Mock {
    fn start() -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            user: None,
            writer: "github-actions[bot]".into(),
            comments: Vec::new(),
            next_id: 1000,
            fail_all: None,
            patch_status: None,
            log: Vec::new(),
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (st, sp) = (state.clone(), stop.clone());
        std::thread::spawn(move || {
            for sock in listener.incoming() {
                if sp.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(sock) = sock {
                    serve(sock, &st);
                }
            }
        });
        Mock {
            url: format!("http://127.0.0.1:{port}"),
            state,
            stop,
            port,
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        f(&mut self.state.lock().unwrap())
    }

    fn add_comment(&self, id: u64, login: &str, body: &str) {
        self.with(|s| {
            s.comments.push(Comment {
                id,
                login: login.into(),
                body: body.into(),
            })
        });
    }

    fn log(&self) -> Vec<Req> {
        self.with(|s| s.log.clone())
    }

    /// Requests other than GETs.
    fn writes(&self) -> Vec<String> {
        self.log()
            .iter()
            .filter(|r| r.method != "GET")
            .map(Req::line)
            .collect()
    }

    fn comments(&self) -> Vec<Comment> {
        self.with(|s| s.comments.clone())
    }

    fn ctx(&self) -> PrContext {
        PrContext {
            api_url: self.url.clone(),
            repo: "o/r".into(),
            pr_number: 7,
            token: TOKEN.into(),
        }
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn read_req(sock: &mut TcpStream) -> Option<Req> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = sock.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = sock.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Req {
        method,
        target,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn serve(mut sock: TcpStream, state: &Mutex<State>) {
    let Some(req) = read_req(&mut sock) else {
        return;
    };
    let (status, body) = {
        let mut s = state.lock().unwrap();
        s.log.push(req.clone());
        route(&mut s, &req)
    };
    let text = body.to_string();
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        text.len()
    );
    let _ = sock.write_all(head.as_bytes());
    let _ = sock.write_all(text.as_bytes());
    let _ = sock.flush();
}

fn comment_json(c: &Comment) -> Value {
    json!({"id": c.id, "body": c.body, "user": {"login": c.login}})
}

fn route(s: &mut State, req: &Req) -> (u16, Value) {
    if let Some(code) = s.fail_all {
        return (code, json!({"message": "Server Error"}));
    }
    let (path, query) = req.target.split_once('?').unwrap_or((&req.target, ""));
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let body_of = |req: &Req| -> String {
        serde_json::from_str::<Value>(&req.body)
            .ok()
            .and_then(|v| v["body"].as_str().map(String::from))
            .unwrap_or_default()
    };
    match (req.method.as_str(), segs.as_slice()) {
        ("GET", ["user"]) => match &s.user {
            Some(login) => (200, json!({"login": login})),
            None => (
                403,
                json!({"message": "Resource not accessible by integration"}),
            ),
        },
        ("GET", ["repos", "o", "r", "issues", "7", "comments"]) => {
            let param = |k: &str| {
                query
                    .split('&')
                    .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
                    .and_then(|v| v.parse::<usize>().ok())
            };
            let per = param("per_page").unwrap_or(30);
            let page = param("page").unwrap_or(1).max(1);
            let items: Vec<Value> = s
                .comments
                .iter()
                .skip((page - 1) * per)
                .take(per)
                .map(comment_json)
                .collect();
            (200, Value::Array(items))
        }
        ("POST", ["repos", "o", "r", "issues", "7", "comments"]) => {
            s.next_id += 1;
            let c = Comment {
                id: s.next_id,
                login: s.writer.clone(),
                body: body_of(req),
            };
            s.comments.push(c.clone());
            (201, comment_json(&c))
        }
        ("PATCH", ["repos", "o", "r", "issues", "comments", id]) => {
            if let Some(code) = s.patch_status {
                return (code, json!({"message": "nope"}));
            }
            let body = body_of(req);
            match s.comments.iter_mut().find(|c| c.id.to_string() == *id) {
                Some(c) => {
                    c.body = body;
                    (200, comment_json(c))
                }
                None => (404, json!({"message": "Not Found"})),
            }
        }
        _ => (404, json!({"message": "Not Found"})),
    }
}

fn report_body(n: u32) -> String {
    format!("{MARKER}\n## mcpward report {n}\n")
}

// ---------------------------------------------------------------- publisher

#[tokio::test]
async fn created_once_then_updated_in_place() {
    let m = Mock::start();
    let out = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap();
    assert_eq!(
        out,
        PublishOutcome::Created {
            repo: "o/r".into(),
            number: 7
        }
    );
    assert_eq!(m.writes(), vec!["POST /repos/o/r/issues/7/comments"]);
    let first = m.comments();
    assert_eq!(first.len(), 1);

    let out = pr_comment::publish(&m.ctx(), &report_body(2))
        .await
        .unwrap();
    assert_eq!(out.message(), "PR comment updated on o/r#7");
    let after = m.comments();
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].id, first[0].id);
    assert_eq!(after[0].body, report_body(2));
    assert_eq!(
        m.writes(),
        vec![
            "POST /repos/o/r/issues/7/comments".to_string(),
            format!("PATCH /repos/o/r/issues/comments/{}", first[0].id)
        ]
    );

    // Every request carries the headers of §8.2.
    for r in m.log() {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
        assert_eq!(r.header("accept"), Some("application/vnd.github+json"));
        assert_eq!(r.header("x-github-api-version"), Some("2022-11-28"));
        assert_eq!(r.header("user-agent"), Some("mcpward"));
        assert_eq!(r.header("content-type"), Some("application/json"));
    }
    let lines: Vec<String> = m.log().iter().map(Req::line).collect();
    assert_eq!(lines[0], "GET /user");
    assert_eq!(
        lines[1],
        "GET /repos/o/r/issues/7/comments?per_page=100&page=1"
    );
}

#[tokio::test]
async fn a_marked_comment_by_someone_else_is_never_touched() {
    let m = Mock::start();
    let human = format!("{MARKER}\nI wrote this by hand");
    let quote = format!("> {MARKER}\nquoting the bot");
    m.add_comment(11, "maintainer", &human);
    m.add_comment(12, "github-actions[bot]", &quote);
    let out = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap();
    assert!(matches!(out, PublishOutcome::Created { .. }));
    assert_eq!(m.writes(), vec!["POST /repos/o/r/issues/7/comments"]);
    let c = m.comments();
    assert_eq!((c[0].id, c[0].body.as_str()), (11, human.as_str()));
    assert_eq!((c[1].id, c[1].body.as_str()), (12, quote.as_str()));
}

#[tokio::test]
async fn personal_token_identity_from_get_user() {
    let m = Mock::start();
    m.with(|s| {
        s.user = Some("ci-user".into());
        s.writer = "ci-user".into();
    });
    m.add_comment(21, "github-actions[bot]", &report_body(0));
    m.add_comment(22, "ci-user", &report_body(0));
    let out = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap();
    assert!(matches!(out, PublishOutcome::Updated { .. }));
    assert_eq!(m.writes(), vec!["PATCH /repos/o/r/issues/comments/22"]);
    assert_eq!(m.comments()[0].body, report_body(0));
}

#[tokio::test]
async fn our_comment_on_page_two_and_the_last_one_wins() {
    let m = Mock::start();
    for i in 0..100 {
        m.add_comment(i + 1, "someone", "hello");
    }
    m.add_comment(554, "github-actions[bot]", &report_body(0));
    m.add_comment(555, "github-actions[bot]", &report_body(0));
    let out = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap();
    assert!(matches!(out, PublishOutcome::Updated { .. }));
    assert_eq!(m.writes(), vec!["PATCH /repos/o/r/issues/comments/555"]);
    let lists: Vec<String> = m
        .log()
        .iter()
        .filter(|r| r.target.contains("/comments?"))
        .map(Req::line)
        .collect();
    assert_eq!(
        lists,
        vec![
            "GET /repos/o/r/issues/7/comments?per_page=100&page=1",
            "GET /repos/o/r/issues/7/comments?per_page=100&page=2"
        ]
    );
}

#[tokio::test]
async fn listing_stops_after_thirty_pages() {
    let m = Mock::start();
    for i in 0..3050 {
        m.add_comment(i + 1, "someone", "hello");
    }
    pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap();
    let lists = m
        .log()
        .iter()
        .filter(|r| r.target.contains("/comments?"))
        .count();
    assert_eq!(lists, 30);
    assert_eq!(m.writes(), vec!["POST /repos/o/r/issues/7/comments"]);
}

#[tokio::test]
async fn patch_forbidden_falls_back_to_create() {
    for code in [403, 404] {
        let m = Mock::start();
        m.add_comment(31, "github-actions[bot]", &report_body(0));
        m.with(|s| s.patch_status = Some(code));
        let out = pr_comment::publish(&m.ctx(), &report_body(1))
            .await
            .unwrap();
        assert!(matches!(out, PublishOutcome::Created { .. }), "{code}");
        assert_eq!(
            m.writes(),
            vec![
                "PATCH /repos/o/r/issues/comments/31",
                "POST /repos/o/r/issues/7/comments"
            ]
        );
    }
    let m = Mock::start();
    m.add_comment(31, "github-actions[bot]", &report_body(0));
    m.with(|s| s.patch_status = Some(422));
    let e = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap_err();
    assert_eq!(e, "updating PR comment failed: HTTP 422");
}

#[tokio::test]
async fn server_errors_are_errors_never_panics() {
    let m = Mock::start();
    m.with(|s| s.fail_all = Some(500));
    let e = pr_comment::publish(&m.ctx(), &report_body(1))
        .await
        .unwrap_err();
    assert_eq!(e, "listing PR comments failed: HTTP 500");
    assert!(m.writes().is_empty());
}

#[tokio::test]
async fn long_bodies_are_truncated_below_the_limit() {
    let m = Mock::start();
    let body = format!("{MARKER}\n{}", "x".repeat(70_000));
    pr_comment::publish(&m.ctx(), &body).await.unwrap();
    let sent = &m.comments()[0].body;
    assert!(sent.chars().count() < 65_536, "{}", sent.len());
    assert!(sent.contains("report truncated"));
    assert!(sent.starts_with(MARKER));
}

#[tokio::test]
async fn the_token_never_appears_in_error_text() {
    // Unreachable API, an API URL that embeds the token, a 500, a non-list answer.
    let unused = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut ctx = Mock::start().ctx();
    ctx.api_url = format!("http://127.0.0.1:{unused}");
    let e = pr_comment::publish(&ctx, &report_body(1))
        .await
        .unwrap_err();
    assert!(!e.contains(TOKEN), "{e}");
    assert!(e.contains("GET /repos/o/r/issues/7/comments"), "{e}");

    ctx.api_url = format!("http://127.0.0.1:{unused}/{TOKEN}");
    let e = pr_comment::publish(&ctx, &report_body(1))
        .await
        .unwrap_err();
    assert!(!e.contains(TOKEN), "{e}");

    ctx.api_url = format!("not a url {TOKEN}");
    let e = pr_comment::publish(&ctx, &report_body(1))
        .await
        .unwrap_err();
    assert!(!e.contains(TOKEN), "{e}");

    let m = Mock::start();
    m.with(|s| s.fail_all = Some(500));
    let e = pr_comment::publish(&m.ctx(), "x").await.unwrap_err();
    assert!(!e.contains(TOKEN), "{e}");
}

// ---------------------------------------------------------------- end to end

const FAST: &str = "timeouts:\n  connect_ms: 5000\n  call_ms: 3000\n  run_ms: 30000\n";

/// `mcpward <args>` in `w` with a GitHub PR environment pointing at `api` (none of the
/// runner's own GitHub variables leak in).
fn run_in_pr(w: &Workdir, api: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(mcpward());
    cmd.args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env_remove("CI");
    for k in [
        "GITHUB_TOKEN",
        "MCPWARD_GITHUB_TOKEN",
        "GITHUB_REPOSITORY",
        "GITHUB_REF",
        "MCPWARD_PR_NUMBER",
        "GITHUB_API_URL",
        "GITHUB_WORKSPACE",
    ] {
        cmd.env_remove(k);
    }
    if !api.is_empty() {
        cmd.env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "o/r")
            .env("GITHUB_REF", "refs/pull/7/merge")
            .env("GITHUB_API_URL", api);
    }
    cmd.stdin(Stdio::null()).output().unwrap()
}

fn clean_workdir(name: &str) -> Workdir {
    let w = Workdir::new();
    let tag = unique_tag(name);
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], &tag, FAST),
    );
    w
}

/// The report without its timestamp, for "stdout unchanged" comparisons.
fn stable(o: &Output) -> Value {
    let mut v = json_report(o);
    v["timestamp"] = Value::Null;
    v
}

#[test]
fn binary_creates_then_updates_the_comment() {
    let m = Mock::start();
    let w = clean_workdir("pr-e2e");
    let o = run_in_pr(&w, &m.url, &["run", "--json", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["schemaVersion"], 1);
    let err = stderr(&o);
    assert!(err.contains("PR comment created on o/r#7"), "{err}");
    assert!(!err.contains(TOKEN));
    let first = m.comments();
    assert_eq!(first.len(), 1);
    assert!(first[0].body.starts_with(MARKER), "{}", first[0].body);
    assert!(first[0].body.contains("mcpward: all checks passed"));

    let o = run_in_pr(&w, &m.url, &["run", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("PR comment updated on o/r#7"));
    // Console output is unaffected by the comment.
    assert!(!String::from_utf8_lossy(&o.stdout).contains("PR comment"));
    let after = m.comments();
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].id, first[0].id);
}

#[test]
fn binary_api_failure_changes_neither_exit_code_nor_stdout() {
    let m = Mock::start();
    m.with(|s| s.fail_all = Some(500));
    let w = clean_workdir("pr-500");
    let plain = run_in_pr(&w, &m.url, &["run", "--json"]);
    let posted = run_in_pr(&w, &m.url, &["run", "--json", "--pr-comment"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_eq!(posted.status.code(), plain.status.code());
    assert_eq!(stable(&posted), stable(&plain));
    let err = stderr(&posted);
    assert!(
        err.contains("Warning: could not post PR comment: listing PR comments failed: HTTP 500"),
        "{err}"
    );
    assert!(!err.contains(TOKEN));
    // Without the flag, the API is never contacted.
    let calls = m.log().len();
    assert!(calls > 0);
    let _ = run_in_pr(&w, &m.url, &["run", "--json"]);
    assert_eq!(m.log().len(), calls);
}

#[test]
fn binary_outside_a_pull_request_skips() {
    let w = clean_workdir("pr-skip");
    let o = run_in_pr(&w, "", &["run", "--json", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["schemaVersion"], 1);
    assert!(
        stderr(&o).contains("PR comment skipped: no token (set GITHUB_TOKEN"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn binary_diff_posts_and_baseline_never_does() {
    let m = Mock::start();
    let w = Workdir::new();
    let tag = unique_tag("pr-diff");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean"],
            &tag,
            &format!("{FAST}checks:\n  drift:\n    baseline: ./mcpward.lock.json\n"),
        ),
    );
    let o = run_in_pr(&w, &m.url, &["baseline", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(m.log().is_empty(), "baseline contacted the API");
    assert!(!stderr(&o).contains("PR comment"));
    let o = run_in_pr(&w, &m.url, &["diff", "--json", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["schemaVersion"], 1);
    assert!(stderr(&o).contains("PR comment created on o/r#7"));
    assert!(m.comments()[0].body.starts_with(MARKER));
}

/// A fleet run (#15) and a merge of its shards post one fleet comment, updated in place.
#[test]
fn binary_fleet_run_and_merge_post_the_fleet_comment() {
    let m = Mock::start();
    let w = Workdir::new();
    let tag = unique_tag("pr-fleet");
    let fx = fixture().display().to_string();
    w.write(
        "mcpward.yaml",
        &format!(
            "servers:\n  api: {{transport: stdio, command: {fx:?}, args: [--tools, clean], env: {{MCPWARD_TEST_TAG: {tag:?}}}, protocol_era: legacy}}\n  docs: {{transport: stdio, command: {fx:?}, args: [--tools, clean], env: {{MCPWARD_TEST_TAG: {tag:?}}}, protocol_era: legacy}}\n{FAST}"
        ),
    );
    let o = run_in_pr(&w, &m.url, &["run", "--json", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_report(&o)["fleetSchemaVersion"], 1);
    assert!(
        stderr(&o).contains("PR comment created on o/r#7"),
        "{}",
        stderr(&o)
    );
    let first = m.comments();
    assert_eq!(first.len(), 1);
    assert!(first[0].body.starts_with(MARKER));
    for name in ["api", "docs"] {
        assert!(first[0].body.contains(name), "{}", first[0].body);
    }
    for i in 1..=2 {
        let o = run_in_pr(
            &w,
            "",
            &[
                "run",
                "--json",
                "--shard",
                &format!("{i}/2"),
                "--out",
                &format!("s{i}.json"),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let o = run_in_pr(&w, &m.url, &["merge", "s1.json", "s2.json", "--pr-comment"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("PR comment updated on o/r#7"),
        "{}",
        stderr(&o)
    );
    let after = m.comments();
    assert_eq!(after.len(), 1);
    assert_eq!(
        after[0].body, first[0].body,
        "the merged comment is the whole run's"
    );
    assert!(processes_with_tag(&tag).is_empty());
}
