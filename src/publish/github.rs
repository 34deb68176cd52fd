//! `--pr-comment` (reporters.md §8, cli.md §8): post the Markdown report as one pull-request
//! comment, updated in place on every run.
//!
//! Context comes from environment variables only (never the event payload file). A comment
//! is *ours* only when its body starts with [`MARKER`] **and** it was written by the token's
//! own identity, so a human comment that quotes the marker is never overwritten.
//!
//! Errors are returned as text for `Warning: could not post PR comment: <text>`; they never
//! contain the token (every error string is scrubbed of it before it leaves this module).

use std::time::Duration;

use serde_json::{json, Value};

pub use crate::report::markdown::MARKER;

/// Default REST API base.
pub const DEFAULT_API_URL: &str = "https://api.github.com";
/// Identity assumed when `GET /user` fails (installation tokens get 403).
pub const FALLBACK_LOGIN: &str = "github-actions[bot]";
/// Bodies longer than this (in characters) are cut; GitHub's limit is 65536.
pub const MAX_BODY_CHARS: usize = 65_000;
pub const TRUNCATION_NOTICE: &str = "\n\n_… report truncated to fit GitHub's comment limit — see the JSON/SARIF report artifact for everything._\n";
/// Comment pages read at most (100 comments each).
pub const MAX_PAGES: u32 = 30;
const PER_PAGE: usize = 100;
/// Per-request deadline: a hung API must not hold the CI job.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

pub const NO_TOKEN: &str =
    "no token (set GITHUB_TOKEN or MCPWARD_GITHUB_TOKEN with pull-requests: write)";
pub const NO_REPOSITORY: &str = "GITHUB_REPOSITORY is not set — not running in GitHub Actions";
pub const NOT_A_PR: &str = "this run is not for a pull request";

/// Where to post. `Debug` never shows the token.
#[derive(Clone, PartialEq, Eq)]
pub struct PrContext {
    /// API base without trailing slashes.
    pub api_url: String,
    /// `owner/name`.
    pub repo: String,
    pub pr_number: u64,
    /// Register it with the redactor before connecting to the server.
    pub token: String,
}

impl std::fmt::Debug for PrContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrContext")
            .field("api_url", &self.api_url)
            .field("repo", &self.repo)
            .field("pr_number", &self.pr_number)
            .field("token", &"[REDACTED]")
            .finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublishOutcome {
    Created { repo: String, number: u64 },
    Updated { repo: String, number: u64 },
}

impl PublishOutcome {
    /// `PR comment created on o/r#7` / `PR comment updated on o/r#7`.
    pub fn message(&self) -> String {
        let (verb, repo, number) = match self {
            PublishOutcome::Created { repo, number } => ("created", repo, number),
            PublishOutcome::Updated { repo, number } => ("updated", repo, number),
        };
        format!("PR comment {verb} on {repo}#{number}")
    }
}

/// `PR comment skipped: <reason>`.
pub fn skipped_line(reason: &str) -> String {
    format!("PR comment skipped: {reason}")
}

/// `Warning: could not post PR comment: <error>`.
pub fn warning_line(error: &str) -> String {
    format!("Warning: could not post PR comment: {error}")
}

fn non_empty(env: &impl Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    env(name).filter(|v| !v.is_empty())
}

/// The token alone: `MCPWARD_GITHUB_TOKEN` if non-empty, else `GITHUB_TOKEN`. The CLI
/// registers it for redaction even when [`detect`] then gives a skip reason.
pub fn token(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    non_empty(&env, "MCPWARD_GITHUB_TOKEN").or_else(|| non_empty(&env, "GITHUB_TOKEN"))
}

/// The PR context from the environment, or the reason the comment is skipped.
pub fn detect(env: impl Fn(&str) -> Option<String>) -> Result<PrContext, String> {
    let token = token(&env).ok_or_else(|| NO_TOKEN.to_string())?;
    let repo = env("GITHUB_REPOSITORY")
        .filter(|r| valid_repo(r))
        .ok_or_else(|| NO_REPOSITORY.to_string())?;
    let pr_number = match non_empty(&env, "MCPWARD_PR_NUMBER") {
        Some(n) => positive(&n),
        None => env("GITHUB_REF").as_deref().and_then(pr_from_ref),
    }
    .ok_or_else(|| NOT_A_PR.to_string())?;
    let api_url = non_empty(&env, "GITHUB_API_URL")
        .map(|u| u.trim_end_matches('/').to_string())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| DEFAULT_API_URL.to_string());
    Ok(PrContext {
        api_url,
        repo,
        pr_number,
        token,
    })
}

/// `owner/name`, each `[A-Za-z0-9_.-]+` and not made only of dots (`../x` would walk the
/// API path).
fn valid_repo(r: &str) -> bool {
    let seg = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
            && !s.bytes().all(|b| b == b'.')
    };
    matches!(r.split_once('/'), Some((o, n)) if seg(o) && seg(n))
}

fn positive(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok().filter(|n| *n > 0)
}

/// `refs/pull/<n>/…` → n.
fn pr_from_ref(r: &str) -> Option<u64> {
    let rest = r.strip_prefix("refs/pull/")?;
    let (n, tail) = rest.split_once('/')?;
    if tail.is_empty() {
        return None;
    }
    positive(n)
}

/// The body as sent: cut to [`MAX_BODY_CHARS`] characters plus the notice when longer.
pub fn fit_body(body: &str) -> String {
    match body.char_indices().nth(MAX_BODY_CHARS) {
        None => body.to_string(),
        Some((cut, _)) => format!("{}{TRUNCATION_NOTICE}", &body[..cut]),
    }
}

/// Create or update the report comment on `ctx`'s pull request.
pub async fn publish(ctx: &PrContext, body_markdown: &str) -> Result<PublishOutcome, String> {
    let client = reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .build()
        .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
    Api { ctx, client }
        .upsert(&fit_body(body_markdown))
        .await
        .map_err(|e| scrub(&e, &ctx.token))
}

/// Belt and braces: no error text may carry the token, whatever a library put in it.
fn scrub(text: &str, token: &str) -> String {
    if token.is_empty() {
        text.to_string()
    } else {
        text.replace(token, crate::redact::REDACTED)
    }
}

struct Api<'a> {
    ctx: &'a PrContext,
    client: reqwest::Client,
}

struct Answer {
    status: u16,
    body: Value,
}

impl Api<'_> {
    async fn upsert(&self, body: &str) -> Result<PublishOutcome, String> {
        let ctx = self.ctx;
        let login = self.identity().await;
        let repo_path = format!("{}/repos/{}", ctx.api_url, ctx.repo);
        let mut ours: Option<u64> = None;
        for page in 1..=MAX_PAGES {
            let url = format!(
                "{repo_path}/issues/{}/comments?per_page={PER_PAGE}&page={page}",
                ctx.pr_number
            );
            let a = self.send(reqwest::Method::GET, &url, None).await?;
            if !is_success(a.status) {
                return Err(format!("listing PR comments failed: HTTP {}", a.status));
            }
            let Some(items) = a.body.as_array() else {
                return Err("listing PR comments failed: the answer is not a JSON list".into());
            };
            for c in items {
                let marked = c
                    .get("body")
                    .and_then(Value::as_str)
                    .is_some_and(|b| b.starts_with(MARKER));
                let by_us = c
                    .get("user")
                    .and_then(|u| u.get("login"))
                    .and_then(Value::as_str)
                    == Some(login.as_str());
                if marked && by_us {
                    if let Some(id) = c.get("id").and_then(Value::as_u64) {
                        ours = Some(id); // the last one wins
                    }
                }
            }
            if items.len() < PER_PAGE {
                break;
            }
        }
        let payload = json!({ "body": body });
        if let Some(id) = ours {
            let url = format!("{repo_path}/issues/comments/{id}");
            let a = self
                .send(reqwest::Method::PATCH, &url, Some(&payload))
                .await?;
            if is_success(a.status) {
                return Ok(PublishOutcome::Updated {
                    repo: ctx.repo.clone(),
                    number: ctx.pr_number,
                });
            }
            // 403/404: the comment went away or is not editable; post a fresh one.
            if a.status != 403 && a.status != 404 {
                return Err(format!("updating PR comment failed: HTTP {}", a.status));
            }
        }
        let url = format!("{repo_path}/issues/{}/comments", ctx.pr_number);
        let a = self
            .send(reqwest::Method::POST, &url, Some(&payload))
            .await?;
        if !is_success(a.status) {
            return Err(format!("creating PR comment failed: HTTP {}", a.status));
        }
        Ok(PublishOutcome::Created {
            repo: ctx.repo.clone(),
            number: ctx.pr_number,
        })
    }

    /// The token's login, or [`FALLBACK_LOGIN`] when `GET /user` is refused or fails.
    async fn identity(&self) -> String {
        let url = format!("{}/user", self.ctx.api_url);
        match self.send(reqwest::Method::GET, &url, None).await {
            Ok(a) if is_success(a.status) => a
                .body
                .get("login")
                .and_then(Value::as_str)
                .filter(|l| !l.is_empty())
                .unwrap_or(FALLBACK_LOGIN)
                .to_string(),
            _ => FALLBACK_LOGIN.to_string(),
        }
    }

    async fn send(
        &self,
        method: reqwest::Method,
        url: &str,
        json_body: Option<&Value>,
    ) -> Result<Answer, String> {
        let what = format!("{method} {}", path_of(url));
        let mut req = self
            .client
            .request(method, url)
            .header("Accept", "application/vnd.github+json")
            .header("Authorization", format!("Bearer {}", self.ctx.token))
            .header("Content-Type", "application/json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "mcpward");
        if let Some(b) = json_body {
            req = req.body(b.to_string());
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("{what}: {}", chain(e)))?;
        let status = resp.status().as_u16();
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| format!("{what}: reading the answer: {}", chain(e)))?;
        // Error answers may carry HTML or nothing; only 2xx bodies are interpreted.
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Answer { status, body })
    }
}

/// reqwest's error with its causes (`error sending request: … Connection refused`); the URL
/// is left out, the caller names the request itself.
fn chain(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut out = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

fn is_success(status: u16) -> bool {
    (200..300).contains(&status)
}

/// The URL's path and query, for error messages (the API host adds nothing).
fn path_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_string(),
        },
        Err(_) => "(invalid API URL)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k: &str| m.get(k).cloned()
    }

    #[test]
    fn no_token() {
        let e = detect(env(&[("GITHUB_REPOSITORY", "o/r")])).unwrap_err();
        assert!(e.contains("no token"), "{e}");
        assert_eq!(e, NO_TOKEN);
        // Empty values count as unset.
        let e = detect(env(&[("GITHUB_TOKEN", ""), ("MCPWARD_GITHUB_TOKEN", "")])).unwrap_err();
        assert_eq!(e, NO_TOKEN);
    }

    #[test]
    fn push_run_is_not_a_pr() {
        let e = detect(env(&[
            ("GITHUB_TOKEN", "ghs_abcdef"),
            ("GITHUB_REPOSITORY", "o/r"),
            ("GITHUB_REF", "refs/heads/main"),
        ]))
        .unwrap_err();
        assert_eq!(e, "this run is not for a pull request");
    }

    #[test]
    fn pr_number_variable_wins_over_ref() {
        let c = detect(env(&[
            ("GITHUB_TOKEN", "ghs_abcdef"),
            ("GITHUB_REPOSITORY", "o/r"),
            ("GITHUB_REF", "refs/heads/main"),
            ("MCPWARD_PR_NUMBER", "7"),
        ]))
        .unwrap();
        assert_eq!(c.pr_number, 7);
        for bad in ["0", "-3", "7a", "+7", "1.5", "99999999999999999999999"] {
            let e = detect(env(&[
                ("GITHUB_TOKEN", "ghs_abcdef"),
                ("GITHUB_REPOSITORY", "o/r"),
                ("GITHUB_REF", "refs/pull/3/merge"),
                ("MCPWARD_PR_NUMBER", bad),
            ]))
            .unwrap_err();
            assert_eq!(e, NOT_A_PR, "{bad}");
        }
    }

    #[test]
    fn pr_from_github_ref_and_token_redacted() {
        let c = detect(env(&[
            ("GITHUB_TOKEN", "ghs_supersecret"),
            ("GITHUB_REPOSITORY", "o/r"),
            ("GITHUB_REF", "refs/pull/42/merge"),
        ]))
        .unwrap();
        assert_eq!(
            c,
            PrContext {
                api_url: "https://api.github.com".into(),
                repo: "o/r".into(),
                pr_number: 42,
                token: "ghs_supersecret".into(),
            }
        );
        assert!(!format!("{c:?}").contains("supersecret"));
        let mut r = crate::redact::Redactor::new();
        r.register(&c.token);
        assert!(!r
            .redact_str("token=ghs_supersecret")
            .contains("ghs_supersecret"));
        for bad_ref in ["refs/pull/x/merge", "refs/pull/42", "refs/pull/0/merge", ""] {
            let e = detect(env(&[
                ("GITHUB_TOKEN", "t0k3n"),
                ("GITHUB_REPOSITORY", "o/r"),
                ("GITHUB_REF", bad_ref),
            ]))
            .unwrap_err();
            assert_eq!(e, NOT_A_PR, "{bad_ref}");
        }
    }

    #[test]
    fn mcpward_token_wins_and_api_url_is_trimmed() {
        let c = detect(env(&[
            ("GITHUB_TOKEN", "plain-token"),
            ("MCPWARD_GITHUB_TOKEN", "mine-token"),
            ("GITHUB_REPOSITORY", "my-org/repo.rs"),
            ("MCPWARD_PR_NUMBER", "12"),
            ("GITHUB_API_URL", "https://ghe.example.com/api/v3//"),
        ]))
        .unwrap();
        assert_eq!(c.token, "mine-token");
        assert_eq!(c.api_url, "https://ghe.example.com/api/v3");
        assert_eq!(c.repo, "my-org/repo.rs");
    }

    #[test]
    fn malformed_repository() {
        for bad in [
            "../../x", "../x", "o", "o/", "/r", "o/r/x", "o r/x", "ö/r", "",
        ] {
            let e = detect(env(&[
                ("GITHUB_TOKEN", "ghs_abcdef"),
                ("GITHUB_REPOSITORY", bad),
                ("MCPWARD_PR_NUMBER", "1"),
            ]))
            .unwrap_err();
            assert!(e.contains("GITHUB_REPOSITORY"), "{bad}: {e}");
        }
        assert_eq!(
            detect(env(&[
                ("GITHUB_TOKEN", "ghs_abcdef"),
                ("MCPWARD_PR_NUMBER", "1")
            ]))
            .unwrap_err(),
            NO_REPOSITORY
        );
    }

    #[test]
    fn token_helper() {
        assert_eq!(
            token(env(&[("GITHUB_TOKEN", "abcd")])).as_deref(),
            Some("abcd")
        );
        assert_eq!(token(env(&[])), None);
    }

    #[test]
    fn long_bodies_are_cut() {
        let body = format!("{MARKER}\n{}", "x".repeat(70_000));
        let sent = fit_body(&body);
        assert!(sent.chars().count() < 65_536);
        assert!(sent.starts_with(MARKER));
        assert!(sent.contains("report truncated"));
        assert_eq!(
            sent.chars().count(),
            MAX_BODY_CHARS + TRUNCATION_NOTICE.chars().count()
        );
        // Multi-byte characters are cut on a character boundary.
        let wide = "é".repeat(MAX_BODY_CHARS + 1);
        assert!(fit_body(&wide).starts_with(&"é".repeat(MAX_BODY_CHARS)));
        assert_eq!(fit_body("short"), "short");
        let exact = "y".repeat(MAX_BODY_CHARS);
        assert_eq!(fit_body(&exact), exact);
    }

    #[test]
    fn messages() {
        let o = PublishOutcome::Created {
            repo: "o/r".into(),
            number: 7,
        };
        assert_eq!(o.message(), "PR comment created on o/r#7");
        let o = PublishOutcome::Updated {
            repo: "o/r".into(),
            number: 7,
        };
        assert_eq!(o.message(), "PR comment updated on o/r#7");
        assert_eq!(skipped_line("x"), "PR comment skipped: x");
        assert_eq!(warning_line("y"), "Warning: could not post PR comment: y");
        assert_eq!(scrub("a tok3n b", "tok3n"), "a [REDACTED] b");
    }
}
