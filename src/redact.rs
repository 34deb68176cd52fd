//! Secret redaction (reporters.md §9, checks-core.md §1.2). The report is redacted once,
//! in place, before any reporter runs; no rendering ever sees unredacted data.
//!
//! String redaction, in order:
//! 1. every registered secret (literal, every occurrence; longest first so a secret that
//!    contains another is removed whole; its percent-encoded form too) → `[REDACTED]`;
//! 2. `Bearer <token chars>` (case-insensitive) → `Bearer [REDACTED]`;
//! 3. query parameters `?name=` / `&name=` whose name is `api_key`, `api-key`, `apikey`,
//!    `token`, `key`, `secret`, `password` — or ends in `_`/`-` plus one of those or
//!    `signature`/`sig`/`credential` (`access_token`, `client_secret`, `X-Amz-Signature`;
//!    a superset of the original's list) — get the value `[REDACTED]`;
//! 4. URL user-info `://user:pass@` → `://[REDACTED]:[REDACTED]@`.
//!
//! Structured values (`expected`, `actual`): strings as above; arrays element-wise;
//! objects key by key — a *string* value under a key whose name contains one of the
//! sensitive patterns becomes `[REDACTED]` whole, anything else is recursed into. Object
//! keys are string-redacted too (a secret can be a key).

use std::sync::{OnceLock, RwLock};

use regex::Regex;
use serde_json::{Map, Value};

use crate::model::Report;

pub const REDACTED: &str = "[REDACTED]";

/// Values shorter than this (in characters) are not registered: redacting them would
/// mangle ordinary text.
pub const MIN_SECRET_CHARS: usize = 4;

/// Nesting beyond this is replaced by `[REDACTED]` rather than walked: secrets can never
/// leak through depth, and hostile depth cannot exhaust the stack.
const MAX_DEPTH: usize = 256;

/// Bytes redacted beyond a cut: longer than any pattern match worth redacting (a URL's
/// user-info, a bearer token) and than most secrets; a longer registered secret widens it.
const CUT_MARGIN: usize = 4096;

/// Secrets the run obtained itself (OAuth access and refresh tokens), for every redactor of
/// the process: they exist only after the config was read, and a server may echo the token
/// it accepted. Bounded: a run replaces its token at most a few times.
static ISSUED: RwLock<Vec<String>> = RwLock::new(Vec::new());
const MAX_ISSUED: usize = 256;

/// Registers a secret obtained at run time (see [`ISSUED`]).
pub fn register_issued(secret: &str) {
    if secret.chars().count() < MIN_SECRET_CHARS {
        return;
    }
    let mut issued = ISSUED.write().unwrap_or_else(|e| e.into_inner());
    if issued.iter().any(|s| s == secret) {
        return;
    }
    if issued.len() >= MAX_ISSUED {
        issued.remove(0);
    }
    issued.push(secret.to_string());
}

/// The secrets obtained at run time, longest first (empty, and no allocation, when none).
fn issued() -> Vec<String> {
    let issued = ISSUED.read().unwrap_or_else(|e| e.into_inner());
    if issued.is_empty() {
        return Vec::new();
    }
    let mut v = issued.clone();
    v.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    v
}

#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Longest first; no duplicates.
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a secret value (an interpolated `${VAR}`, the PR-comment token). Values
    /// shorter than [`MIN_SECRET_CHARS`] are ignored. Its percent-encoded form is
    /// registered as well, since servers echo URLs.
    pub fn register(&mut self, secret: &str) {
        if secret.chars().count() < MIN_SECRET_CHARS {
            return;
        }
        let encoded = crate::surface::text::encode_uri_component(secret);
        for s in [secret.to_string(), encoded] {
            if !self.secrets.contains(&s) {
                self.secrets.push(s);
            }
        }
        self.secrets
            .sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    }

    /// Forgets every secret (at the start of every config load).
    pub fn clear(&mut self) {
        self.secrets.clear();
    }

    /// Number of registered strings (a secret and its encoded form count separately when
    /// they differ).
    pub fn len(&self) -> usize {
        self.secrets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    pub fn redact_str(&self, s: &str) -> String {
        let mut out = s.to_string();
        for secret in self.secrets.iter().chain(issued().iter()) {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        let out = bearer_re().replace_all(&out, "Bearer [REDACTED]");
        let out = query_re().replace_all(&out, "${1}[REDACTED]");
        let out = userinfo_re().replace_all(&out, "${1}[REDACTED]:[REDACTED]@");
        out.into_owned()
    }

    /// The first `max_chars` characters of `text`, redacted *before* the cut so a secret
    /// that straddles it never shows in part (#12 §2). Only a bounded head is redacted: a
    /// secret or pattern match that starts within `max_chars` ends within the margin.
    pub fn redact_head(&self, text: &[u8], max_chars: usize) -> String {
        let longest = self.secrets.first().map_or(0, String::len);
        let longest = longest.max(issued().first().map_or(0, String::len));
        let margin = longest.max(CUT_MARGIN);
        let head_bytes = max_chars.saturating_mul(4).saturating_add(margin);
        let head = String::from_utf8_lossy(&text[..text.len().min(head_bytes)]);
        let out = self.redact_str(&head);
        match out.char_indices().nth(max_chars) {
            Some((i, _)) => format!("{}…", &out[..i]),
            None if text.len() > head_bytes => format!("{out}…"),
            None => out,
        }
    }

    /// The end of a stream whose beginning was dropped (`front_cut`), redacted. A secret
    /// that began before the kept part is not in the text whole, so it cannot be matched:
    /// the partial first line is dropped (secrets and the redacted patterns hold no line
    /// break), and without a line break, any start that is the end of a registered secret.
    pub fn redact_tail(&self, text: &str, front_cut: bool) -> String {
        let mut rest = text;
        if front_cut {
            match rest.find('\n') {
                Some(i) => rest = &rest[i + 1..],
                None => {
                    let issued = issued();
                    let strip = self
                        .secrets
                        .iter()
                        .chain(issued.iter())
                        .flat_map(|s| {
                            (1..s.len())
                                .filter(|&k| s.is_char_boundary(k))
                                .map(move |k| &s[k..])
                        })
                        .filter(|suffix| rest.starts_with(suffix))
                        .map(str::len)
                        .max()
                        .unwrap_or(0);
                    rest = &rest[strip..];
                    // A pattern secret (a bearer token, a query value) cut at its start.
                    let word = rest
                        .find(|c: char| c.is_whitespace() || c == '&')
                        .unwrap_or(rest.len());
                    rest = &rest[word..];
                }
            }
        }
        let out = self.redact_str(rest);
        if front_cut {
            format!("…{out}")
        } else {
            out
        }
    }

    /// Redacts a JSON value in place (strings, keys, sensitive keys; see module docs).
    pub fn redact_value(&self, v: &mut Value) {
        self.redact_value_at(v, 0);
    }

    fn redact_value_at(&self, v: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            *v = Value::String(REDACTED.to_string());
            return;
        }
        match v {
            Value::String(s) => *s = self.redact_str(s),
            Value::Array(items) => {
                for item in items {
                    self.redact_value_at(item, depth + 1);
                }
            }
            Value::Object(map) => {
                let old = std::mem::take(map);
                let mut new = Map::with_capacity(old.len());
                for (k, mut val) in old {
                    if is_sensitive_key(&k) && val.is_string() {
                        val = Value::String(REDACTED.to_string());
                    } else {
                        self.redact_value_at(&mut val, depth + 1);
                    }
                    // Two keys equal after redaction: the later one wins (both held a
                    // secret; nothing legitimate is lost).
                    new.insert(self.redact_str(&k), val);
                }
                *map = new;
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// Redacts every result's `message`, `location`, `expected` and `actual`, and the
    /// server's name/version/protocolVersion (server-supplied; the original left those
    /// alone, but a server could echo a secret there).
    pub fn redact_report(&self, report: &mut Report) {
        report.server.name = self.redact_str(&report.server.name);
        report.server.version = self.redact_str(&report.server.version);
        report.server.protocol_version = self.redact_str(&report.server.protocol_version);
        for r in &mut report.results {
            r.message = self.redact_str(&r.message);
            if let Some(l) = &mut r.location {
                *l = self.redact_str(l);
            }
            if let Some(v) = &mut r.expected {
                self.redact_value(v);
            }
            if let Some(v) = &mut r.actual {
                self.redact_value(v);
            }
        }
    }
}

impl Redactor {
    /// [`redact_report`](Self::redact_report) for every member of a fleet document, plus
    /// the members' names, reasons and kept tool listings and the cross-server results.
    pub fn redact_fleet(&self, fleet: &mut crate::model::FleetReport) {
        for m in &mut fleet.servers {
            m.name = self.redact_str(&m.name);
            if let Some(r) = &mut m.reason {
                *r = self.redact_str(r);
            }
            if let Some(report) = &mut m.report {
                self.redact_report(report);
            }
            for t in &mut m.tools {
                self.redact_value(t);
            }
        }
        for o in &mut fleet.order {
            *o = self.redact_str(o);
        }
        let mut cross = crate::model::Report::new(
            crate::model::ServerSummary {
                name: String::new(),
                version: String::new(),
                protocol_version: String::new(),
            },
            std::mem::take(&mut fleet.results),
            String::new(),
        );
        self.redact_report(&mut cross);
        fleet.results = cross.results;
    }
}

/// Case-insensitive, unanchored: `token`, `secret`, `password`, `api[-_]?key`,
/// `authorization`, `credential`, `private[-_]?key`, `access[-_]?key`, `auth[-_]?token`
/// (plus `passwd` and `cookie`, which carry credentials as well).
pub fn is_sensitive_key(key: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)token|secret|password|passwd|api[-_]?key|authorization|credential|private[-_]?key|access[-_]?key|auth[-_]?token|cookie",
        )
        .expect("static regex")
    })
    .is_match(key)
}

/// A config header or env key whose value is a credential even when written literally
/// (#12 §5; docs/decisions.md): the three credential headers, and any name containing
/// `token`, `secret`, `key` or `password`, case-insensitive.
pub fn is_secret_config_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "authorization" | "proxy-authorization" | "cookie"
    ) || ["token", "secret", "key", "password"]
        .iter()
        .any(|w| lower.contains(w))
}

fn bearer_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)bearer\s+[A-Za-z0-9_\-./+=]+").expect("static regex"))
}

fn query_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)([?&](?:api[_-]?key|token|key|secret|password|(?:[a-z0-9]+[_-])+(?:api[_-]?key|token|key|secret|password|signature|sig|credential))=)[^&\s]*",
        )
        .expect("static regex")
    })
}

fn userinfo_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(://)[^/\s:@]+:[^/\s@]*@").expect("static regex"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, ServerSummary};

    /// A token the run obtained (OAuth) is redacted by every redactor, including ones made
    /// before it was issued, in whole strings, cut heads and cut tails.
    #[test]
    fn secrets_issued_at_run_time_are_redacted_everywhere() {
        let before = Redactor::new();
        let token = "fx-at-7.issued-token-for-redact-test";
        assert!(before.redact_str(token).contains("issued-token"));
        register_issued(token);
        let after = Redactor::new();
        for r in [&before, &after] {
            let out = r.redact_str(&format!("server says {token} ok"));
            assert_eq!(out, "server says [REDACTED] ok");
            assert!(!r
                .redact_head(format!("x {token}").as_bytes(), 5)
                .contains("fx-at"));
            assert!(!r.redact_tail(&token[10..], true).contains("token-for"));
        }
        register_issued("abc");
        assert_eq!(after.redact_str("abc"), "abc", "too short to register");
    }

    #[test]
    fn a_secret_across_a_head_cut_never_shows_in_part() {
        let mut r = Redactor::new();
        r.register("s3cr3t-value-xyz");
        // The cut (10 characters) falls inside the secret.
        let line = b"token is: s3cr3t-value-xyz and more";
        let out = r.redact_head(line, 12);
        assert!(!out.contains("s3cr"), "{out}");
        assert!(out.starts_with("token is: ["), "{out}");
        // Unredacted text shorter than the cut is unchanged.
        assert_eq!(r.redact_head(b"short", 200), "short");
        // A long line is cut after redaction, with the mark.
        let long = format!("{}s3cr3t-value-xyz", "a".repeat(300));
        assert_eq!(r.redact_head(long.as_bytes(), 5), "aaaaa…");
    }

    #[test]
    fn a_secret_across_a_tail_cut_never_shows_in_part() {
        let mut r = Redactor::new();
        r.register("s3cr3t-value-xyz");
        // The kept bytes begin inside the secret: with a line break, the partial line goes.
        let out = r.redact_tail("lue-xyz end of line\nnext s3cr3t-value-xyz\n", true);
        assert_eq!(out, "…next [REDACTED]\n");
        // Without one, the secret's end and the rest of that word go.
        let out = r.redact_tail("-value-xyz rest", true);
        assert!(!out.contains("xyz"), "{out}");
        assert_eq!(out, "… rest");
        // Nothing was cut: plain redaction.
        assert_eq!(r.redact_tail("a s3cr3t-value-xyz", false), "a [REDACTED]");
    }
    use serde_json::json;

    fn with(secrets: &[&str]) -> Redactor {
        let mut r = Redactor::new();
        for s in secrets {
            r.register(s);
        }
        r
    }

    #[test]
    fn pinned_edge_cases() {
        let secret = "super_secret_token_xyz789_do_not_leak";
        let r = with(&[secret]);
        let out = r.redact_str(&format!("Authorization: Bearer {secret}"));
        assert!(!out.contains(secret) && out.contains(REDACTED), "{out}");

        let r = Redactor::new();
        assert_eq!(
            r.redact_str("Authorization: Bearer abc123xyz"),
            "Authorization: Bearer [REDACTED]"
        );
        assert_eq!(
            r.redact_str("authorization: BEARER abc.def/ghi+=="),
            "authorization: Bearer [REDACTED]"
        );
        let out = r.redact_str("https://api.example.com?api_key=secret123&other=value");
        assert_eq!(
            out,
            "https://api.example.com?api_key=[REDACTED]&other=value"
        );
        assert_eq!(
            r.redact_str("https://user:password123@example.com/path"),
            "https://[REDACTED]:[REDACTED]@example.com/path"
        );
        assert_eq!(r.redact_str(""), "");
    }

    #[test]
    fn query_parameter_names() {
        let r = Redactor::new();
        for name in [
            "api_key",
            "api-key",
            "apikey",
            "APIKEY",
            "token",
            "key",
            "secret",
            "password",
            "access_token",
            "client_secret",
            "X-Amz-Signature",
            "X-Amz-Credential",
        ] {
            let out = r.redact_str(&format!("https://h/p?a=1&{name}=v4lue&b=2"));
            assert_eq!(
                out,
                format!("https://h/p?a=1&{name}=[REDACTED]&b=2"),
                "{name}"
            );
        }
        // Harmless names stay; so does a value ended by whitespace.
        assert_eq!(
            r.redact_str("x?monkey=banana&keyboard=1"),
            "x?monkey=banana&keyboard=1"
        );
        assert_eq!(r.redact_str("?token=abc def"), "?token=[REDACTED] def");
    }

    #[test]
    fn short_values_are_not_registered_and_longest_wins() {
        let mut r = with(&["abc", ""]);
        assert!(r.is_empty());
        assert_eq!(r.redact_str("abc"), "abc");
        r.register("abcd");
        r.register("abcdefgh");
        assert_eq!(r.redact_str("xabcdefghx abcd"), "x[REDACTED]x [REDACTED]");
        r.clear();
        assert_eq!(r.redact_str("abcd"), "abcd");
    }

    #[test]
    fn encoded_form_is_redacted() {
        let r = with(&["p@ss w/rd"]);
        assert_eq!(r.len(), 2);
        assert_eq!(r.redact_str("u?x=p%40ss%20w%2Frd"), "u?x=[REDACTED]");
    }

    #[test]
    fn structured_values() {
        let r = with(&["hunter2hunter2"]);
        let mut v = json!({
            "headers": {"Authorization": "Basic xyz", "X-Api-Key": "k", "accept": "json"},
            "token": {"nested": "plain", "n": 1},
            "list": ["a hunter2hunter2 b", 3, null, true],
            "password": 12,
            "hunter2hunter2": "as key"
        });
        r.redact_value(&mut v);
        assert_eq!(
            v,
            json!({
                "headers": {"Authorization": "[REDACTED]", "X-Api-Key": "[REDACTED]", "accept": "json"},
                "token": {"nested": "plain", "n": 1},
                "list": ["a [REDACTED] b", 3, null, true],
                "password": 12,
                "[REDACTED]": "as key"
            })
        );
        assert!(
            is_sensitive_key("myPrivate-Key")
                && is_sensitive_key("AUTH_TOKEN")
                && !is_sensitive_key("name")
        );
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut v = json!("leaf");
        for _ in 0..300 {
            v = json!([v]);
        }
        Redactor::new().redact_value(&mut v);
        let mut depth = 0;
        let mut cur = &v;
        while let Value::Array(a) = cur {
            depth += 1;
            cur = &a[0];
        }
        assert_eq!(cur, &json!(REDACTED));
        assert_eq!(depth, MAX_DEPTH + 1);
    }

    #[test]
    fn report_fields() {
        let secret = "s3cr3t-canary-value";
        let mut rep = Report::new(
            ServerSummary {
                name: format!("srv {secret}"),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            vec![Finding::fail("a/b", format!("m {secret}"))
                .expected(json!({"k": secret}))
                .actual(secret)
                .location(format!("https://h/x?token={secret}"))],
            "t".into(),
        );
        with(&[secret]).redact_report(&mut rep);
        let s = serde_json::to_string(&rep).unwrap();
        assert!(!s.contains(secret), "{s}");
        assert_eq!(
            rep.results[0].location.as_deref(),
            Some("https://h/x?token=[REDACTED]")
        );
    }

    #[test]
    fn secret_config_names() {
        for name in [
            "Authorization",
            "proxy-authorization",
            "COOKIE",
            "X-Api-Key",
            "MY_API_KEY",
            "GH_TOKEN",
            "Client-Secret",
            "db_password",
            "keychain",
        ] {
            assert!(is_secret_config_name(name), "{name}");
        }
        for name in [
            "Accept",
            "X-Request-Id",
            "PATH",
            "LOG_LEVEL",
            "Cookies-Policy",
        ] {
            assert!(!is_secret_config_name(name), "{name}");
        }
    }
}
