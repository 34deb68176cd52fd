//! Hand-written validation of the interpolated tree (config.md §2–§5, §10; DECISIONS #10,
//! #30, #33, #35). Walks with a dot path, collects every issue, applies defaults only inside
//! present objects, never coerces types, and records unknown keys for warnings.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

use super::tree::{fmt_float, join, quote_short, Node};
use super::types::{Checks, Config, Expect, Limits, Server, Timeouts, Transport};
use crate::checks::behavioral::{CaseExpect, Suite, SuiteCase};
use crate::checks::collision::CollisionConfig;
use crate::checks::compliance::ComplianceConfig;
use crate::checks::drift::{DriftConfig, FailOn, OutputDriftConfig};
use crate::checks::errors::{ErrorsConfig, InvalidParamsPolicy, ProbePolicy, UnknownToolPolicy};
use crate::checks::latency::{LatencyConfig, RegressionConfig};
use crate::checks::security::ToxicFlow;
use crate::checks::tool_args::ToolArgs;
use crate::protocol::oauth::{AuthSpec, ClientAuth, Grant, GrantSpec};
use crate::protocol::versions::EraChoice;
use crate::surface::drift_vocab::{DriftClass, Level as DriftSeverity, SurfaceSet};

/// ±(2^53 − 1): integers beyond this cannot round-trip through the original's numbers.
const MAX_SAFE: i128 = 9_007_199_254_740_991;

pub(crate) struct Outcome {
    /// `None` only when the root is unusable; callers must also check `issues`.
    pub config: Option<Config>,
    pub issues: Vec<String>,
    pub unknown: Vec<Unknown>,
}

/// A key that was ignored.
pub(crate) struct Unknown {
    pub path: String,
    pub kind: UnknownKind,
}

pub(crate) enum UnknownKind {
    /// Not a key at this level; maybe a close known key.
    Typo(Option<&'static str>),
    /// A key of the other `server.transport` variant.
    OtherTransport(&'static str),
}

impl Unknown {
    pub fn as_warning(&self) -> String {
        match &self.kind {
            UnknownKind::Typo(Some(s)) => {
                format!(
                    "Unknown config key \"{}\" ignored (did you mean \"{s}\"?)",
                    self.path
                )
            }
            UnknownKind::Typo(None) => format!("Unknown config key \"{}\" ignored", self.path),
            UnknownKind::OtherTransport(t) => format!(
                "Config key \"{}\" ignored: it only applies to transport \"{t}\"",
                self.path
            ),
        }
    }

    pub fn as_issue(&self) -> String {
        match &self.kind {
            UnknownKind::Typo(Some(s)) => {
                format!(
                    "{}: unknown key, ignored (did you mean \"{s}\"?)",
                    self.path
                )
            }
            UnknownKind::Typo(None) => format!("{}: unknown key, ignored", self.path),
            UnknownKind::OtherTransport(t) => format!(
                "{}: ignored, it only applies to transport \"{t}\"",
                self.path
            ),
        }
    }
}

pub(crate) fn validate(root: &Node) -> Outcome {
    let mut v = V {
        issues: Vec::new(),
        unknown: Vec::new(),
    };
    let config = v.root(root);
    Outcome {
        config,
        issues: v.issues,
        unknown: v.unknown,
    }
}

type Entries = [(String, Node)];

fn get<'a>(m: &'a Entries, key: &str) -> Option<&'a Node> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

pub(super) const ROOT_KEYS: &[&str] = &[
    "server",
    "servers",
    "servers_from",
    "expect",
    "checks",
    "timeouts",
    "limits",
    "suites",
    "suppress",
];
const SERVER_COMMON: &[&str] = &["transport", "protocol_era"];
pub(super) const STDIO_KEYS: &[&str] = &["transport", "protocol_era", "command", "args", "env"];
pub(super) const HTTP_KEYS: &[&str] = &["transport", "protocol_era", "url", "headers", "auth"];
pub(super) const AUTH_TYPES: &[&str] = &["client_credentials", "refresh_token", "bearer"];
const AUTH_KEYS_BEARER: &[&str] = &["type", "token"];
const AUTH_KEYS_CLIENT: &[&str] = &[
    "type",
    "client_id",
    "client_secret",
    "scope",
    "auth_method",
    "private_key",
    "token_endpoint",
];
const AUTH_KEYS_REFRESH: &[&str] = &[
    "type",
    "client_id",
    "client_secret",
    "refresh_token",
    "scope",
    "auth_method",
    "token_endpoint",
];
pub(super) const EXPECT_KEYS: &[&str] = &["protocol_version"];
pub(super) const CHECKS_KEYS: &[&str] = &[
    "compliance",
    "schema",
    "security",
    "errors",
    "drift",
    "latency",
    "collision",
    "toxic_flow",
    "auth",
    "http",
];
pub(super) const COMPLIANCE_KEYS: &[&str] = &["enabled", "stability"];
pub(super) const ERRORS_KEYS: &[&str] =
    &["enabled", "unknown_tool", "invalid_params", "probe", "skip"];
pub(super) const DRIFT_KEYS: &[&str] = &[
    "baseline",
    "fail_on",
    "severity",
    "full_text",
    "output",
    "surface",
    "max_age_days",
];
pub(super) const OUTPUT_KEYS: &[&str] = &["enabled", "shape_samples", "call_readonly", "tools"];
pub(super) const TOOL_KEYS: &[&str] = &["name", "args"];
pub(super) const LATENCY_KEYS: &[&str] = &[
    "samples",
    "p95_budget_ms",
    "call_readonly",
    "tools",
    "call_all",
    "regression",
];
pub(super) const REGRESSION_KEYS: &[&str] = &["ratio", "min_ms", "warmup"];
pub(super) const COLLISION_KEYS: &[&str] = &["enabled", "threshold", "max_tools", "fail"];
pub(super) const TIMEOUT_KEYS: &[&str] = &["connect_ms", "call_ms", "run_ms"];
pub(super) const LIMIT_KEYS: &[&str] = &["message_bytes", "tools", "progress_resets"];
pub(super) const SUITE_KEYS: &[&str] = &["tool", "cases"];
pub(super) const CASE_KEYS: &[&str] = &["name", "args", "expect"];
pub(super) const CASE_EXPECT_KEYS: &[&str] = &[
    "tool_is_error",
    "protocol_error_code",
    "output_matches_schema",
    "jsonpath",
    "golden",
];

/// Headers the MCP client owns (DECISIONS #35); compared lowercase.
const RESERVED_HEADERS: &[&str] = &[
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "mcp-session-id",
];
const RESERVED_HEADER_PREFIX: &str = "mcp-param-";

struct V {
    issues: Vec<String>,
    unknown: Vec<Unknown>,
}

impl V {
    fn issue(&mut self, path: &str, reason: impl AsRef<str>) {
        let reason = reason.as_ref();
        self.issues.push(if path.is_empty() {
            reason.to_string()
        } else {
            format!("{path}: {reason}")
        });
    }

    fn expected(&mut self, path: &str, what: &str, got: &Node) {
        self.issue(path, format!("expected {what}, got {}", got.describe()));
    }

    fn map<'a>(&mut self, node: &'a Node, path: &str) -> Option<&'a Entries> {
        match node {
            Node::Map(m) => Some(m),
            other => {
                let what = if path.is_empty() {
                    "a mapping at the top level"
                } else {
                    "a mapping"
                };
                self.expected(path, what, other);
                None
            }
        }
    }

    fn seq<'a>(&mut self, node: &'a Node, path: &str) -> Option<&'a [Node]> {
        match node {
            Node::Seq(items) => Some(items),
            other => {
                self.expected(path, "a list", other);
                None
            }
        }
    }

    /// Record every key of `m` not in `known` (the typo hint looks only at `known`).
    fn keys(&mut self, m: &Entries, path: &str, known: &[&'static str]) {
        for (k, _) in m {
            if !known.contains(&k.as_str()) {
                self.unknown.push(Unknown {
                    path: join(path, k),
                    kind: UnknownKind::Typo(suggest(k, known)),
                });
            }
        }
    }

    fn boolean(&mut self, m: &Entries, path: &str, key: &str, default: bool) -> bool {
        self.opt_bool(m, path, key).unwrap_or(default)
    }

    fn opt_bool(&mut self, m: &Entries, path: &str, key: &str) -> Option<bool> {
        match get(m, key)? {
            Node::Bool(b) => Some(*b),
            other => {
                self.expected(&join(path, key), "a boolean (true or false)", other);
                None
            }
        }
    }

    fn string(&mut self, node: &Node, path: &str) -> Option<String> {
        match node {
            Node::Str(s) => Some(s.clone()),
            other => {
                self.expected(path, "a string", other);
                None
            }
        }
    }

    fn opt_string(&mut self, m: &Entries, path: &str, key: &str) -> Option<String> {
        let node = get(m, key)?;
        self.string(node, &join(path, key))
    }

    fn req_string(&mut self, m: &Entries, path: &str, key: &str) -> Option<String> {
        let p = join(path, key);
        match get(m, key) {
            Some(node) => self.string(node, &p),
            None => {
                self.issue(&p, "required (a string)");
                None
            }
        }
    }

    /// A finite number (integers and fractions).
    fn number(&mut self, node: &Node, path: &str) -> Option<f64> {
        match node {
            Node::Int(i) => Some(*i as f64),
            Node::Float(f) if f.is_finite() => Some(*f),
            Node::Float(f) => {
                self.issue(
                    path,
                    format!("must be a finite number, got {}", fmt_float(*f)),
                );
                None
            }
            other => {
                self.expected(path, "a number", other);
                None
            }
        }
    }

    /// A safe integer. `1.0` counts (it is an integer in JSON/YAML number terms); `1.5` not.
    fn integer(&mut self, node: &Node, path: &str) -> Option<i128> {
        let i = match node {
            Node::Int(i) => *i,
            Node::Float(f) if f.is_finite() && f.fract() == 0.0 => {
                if f.abs() > MAX_SAFE as f64 {
                    self.issue(
                        path,
                        format!(
                            "must be between -{MAX_SAFE} and {MAX_SAFE}, got {}",
                            fmt_float(*f)
                        ),
                    );
                    return None;
                }
                *f as i128
            }
            Node::Float(f) => {
                self.issue(path, format!("expected an integer, got {}", fmt_float(*f)));
                return None;
            }
            other => {
                self.expected(path, "an integer", other);
                return None;
            }
        };
        if !(-MAX_SAFE..=MAX_SAFE).contains(&i) {
            self.issue(
                path,
                format!("must be between -{MAX_SAFE} and {MAX_SAFE}, got {i}"),
            );
            return None;
        }
        Some(i)
    }

    /// An integer > 0 (absent → `default`).
    fn positive_int(&mut self, m: &Entries, path: &str, key: &str, default: u64) -> u64 {
        let Some(node) = get(m, key) else {
            return default;
        };
        let p = join(path, key);
        match self.integer(node, &p) {
            Some(i) if i > 0 => i as u64,
            Some(i) => {
                self.issue(&p, format!("must be greater than 0, got {i}"));
                default
            }
            None => default,
        }
    }

    /// Like [`Self::positive_int`] for counts held in `u32` (saturating; any such count is
    /// far beyond what a run can do before `run_ms`).
    fn positive_u32(&mut self, m: &Entries, path: &str, key: &str, default: u32) -> u32 {
        let v = self.positive_int(m, path, key, default as u64);
        u32::try_from(v).unwrap_or(u32::MAX)
    }

    fn root(&mut self, node: &Node) -> Option<Config> {
        let m = self.map(node, "")?;
        self.keys(m, "", ROOT_KEYS);
        let server = match get(m, "server") {
            Some(n) => self.server(n, "server"),
            None => {
                self.issue("server", "required (a mapping with a transport)");
                None
            }
        };
        let expect = match get(m, "expect") {
            Some(n) => self.expect(n, "expect"),
            None => Expect::default(),
        };
        let checks = match get(m, "checks") {
            Some(n) => self.checks(n, "checks"),
            None => Checks::default(),
        };
        let timeouts = match get(m, "timeouts") {
            Some(n) => self.timeouts(n, "timeouts"),
            None => Timeouts::default(),
        };
        let limits = match get(m, "limits") {
            Some(n) => self.limits(n, "limits"),
            None => Limits::default(),
        };
        let suites = match get(m, "suites") {
            Some(n) => self.suites(n, "suites"),
            None => Vec::new(),
        };
        Some(Config {
            server: server?,
            expect,
            checks,
            timeouts,
            limits,
            suites,
            // `suppress:` is read by the loader (config/suppress.rs), after validation.
            suppress: Vec::new(),
        })
    }

    fn server(&mut self, node: &Node, path: &str) -> Option<Server> {
        let m = self.map(node, path)?;
        let tpath = join(path, "transport");
        let kind = match get(m, "transport") {
            None => {
                self.issue(&tpath, "required (\"stdio\" or \"http\")");
                None
            }
            Some(Node::Str(s)) if s == "stdio" || s == "http" => Some(s.as_str()),
            Some(Node::Str(s)) => {
                self.issue(
                    &tpath,
                    format!("must be \"stdio\" or \"http\", got {}", quote_short(s)),
                );
                None
            }
            Some(other) => {
                self.expected(&tpath, "\"stdio\" or \"http\"", other);
                None
            }
        };
        let protocol_era = match get(m, "protocol_era") {
            None => EraChoice::Auto,
            Some(Node::Str(s)) => EraChoice::parse(s).unwrap_or_else(|| {
                self.issue(
                    &join(path, "protocol_era"),
                    format!(
                        "must be \"auto\", \"modern\", \"legacy\" or \"both\", got {}",
                        quote_short(s)
                    ),
                );
                EraChoice::Auto
            }),
            Some(other) => {
                self.expected(
                    &join(path, "protocol_era"),
                    "\"auto\", \"modern\", \"legacy\" or \"both\"",
                    other,
                );
                EraChoice::Auto
            }
        };

        let (own, other, other_name): (&[&'static str], &[&'static str], &'static str) = match kind
        {
            Some("stdio") => (STDIO_KEYS, HTTP_KEYS, "http"),
            Some(_) => (HTTP_KEYS, STDIO_KEYS, "stdio"),
            None => {
                // Unknown variant: still flag keys neither variant knows.
                let all: Vec<&'static str> = SERVER_COMMON
                    .iter()
                    .chain(&STDIO_KEYS[2..])
                    .chain(&HTTP_KEYS[2..])
                    .copied()
                    .collect();
                self.keys(m, path, &all);
                return None;
            }
        };
        for (k, _) in m {
            if own.contains(&k.as_str()) || (kind == Some("stdio") && k == "auth") {
                continue;
            }
            let kind = if other.contains(&k.as_str()) {
                UnknownKind::OtherTransport(other_name)
            } else {
                UnknownKind::Typo(suggest(k, own))
            };
            self.unknown.push(Unknown {
                path: join(path, k),
                kind,
            });
        }

        let transport = if kind == Some("stdio") {
            let command = self.req_string(m, path, "command");
            let args = match get(m, "args") {
                None => Vec::new(),
                Some(n) => self.string_list(n, &join(path, "args")),
            };
            let env = match get(m, "env") {
                None => BTreeMap::new(),
                Some(n) => self.env_map(n, &join(path, "env")),
            };
            if get(m, "auth").is_some() {
                // Not a mere unknown key: credentials would silently go unused.
                self.issue(
                    &join(path, "auth"),
                    "OAuth is for transport http; give a stdio server its credentials in server.env",
                );
            }
            Transport::Stdio {
                command: command?,
                args,
                env,
            }
        } else {
            let url = self.req_string(m, path, "url").and_then(|u| {
                let url = u.trim().to_string();
                match check_url(&url) {
                    Ok(()) => Some(url),
                    Err(reason) => {
                        self.issue(&join(path, "url"), reason);
                        None
                    }
                }
            });
            let headers = match get(m, "headers") {
                None => BTreeMap::new(),
                Some(n) => self.headers(n, &join(path, "headers")),
            };
            let auth = get(m, "auth").and_then(|n| self.auth(n, &join(path, "auth")));
            if auth.is_some()
                && headers
                    .keys()
                    .any(|k| k.eq_ignore_ascii_case("authorization"))
            {
                self.issue(
                    &join(path, "auth"),
                    "server.headers.Authorization and server.auth both set the Authorization header; keep one",
                );
            }
            Transport::Http {
                url: url?,
                headers,
                auth,
            }
        };
        Some(Server {
            transport,
            protocol_era,
        })
    }

    /// `server.auth` (#17): the grant and its credentials. Every value is a secret, so an
    /// issue names the key, never the value.
    fn auth(&mut self, node: &Node, path: &str) -> Option<AuthSpec> {
        let m = self.map(node, path)?;
        let kind = match get(m, "type") {
            Some(Node::Str(t)) if AUTH_TYPES.contains(&t.as_str()) => t.clone(),
            Some(Node::Str(t)) => {
                self.issue(
                    &join(path, "type"),
                    format!(
                        "must be \"client_credentials\", \"refresh_token\" or \"bearer\", got {}",
                        quote_short(t)
                    ),
                );
                return None;
            }
            Some(other) => {
                self.expected(
                    &join(path, "type"),
                    "\"client_credentials\", \"refresh_token\" or \"bearer\"",
                    other,
                );
                return None;
            }
            None => {
                self.issue(
                    &join(path, "type"),
                    "required: \"client_credentials\", \"refresh_token\" or \"bearer\"",
                );
                return None;
            }
        };
        let known = match kind.as_str() {
            "bearer" => AUTH_KEYS_BEARER,
            "client_credentials" => AUTH_KEYS_CLIENT,
            _ => AUTH_KEYS_REFRESH,
        };
        for (k, _) in m {
            if !known.contains(&k.as_str()) {
                self.issue(
                    &join(path, k),
                    format!("not a key of a {kind} auth (known: {})", known.join(", ")),
                );
            }
        }
        let secret = |v: &mut Self, key: &str, required: bool| -> Option<String> {
            let p = join(path, key);
            match get(m, key) {
                Some(Node::Str(s)) if s.trim().is_empty() => {
                    v.issue(&p, "is empty (an unset variable?)");
                    None
                }
                Some(Node::Str(s)) => Some(s.clone()),
                Some(other) => {
                    v.issue(&p, format!("expected a string, got {}", other.describe()));
                    None
                }
                None if required => {
                    v.issue(&p, "required (a string)");
                    None
                }
                None => None,
            }
        };
        if kind == "bearer" {
            let token = secret(self, "token", true)?;
            if !token.bytes().all(|b| (0x21..0x7f).contains(&b)) {
                self.issue(
                    &join(path, "token"),
                    "must be printable ASCII without spaces",
                );
                return None;
            }
            return Some(AuthSpec::Bearer { token });
        }
        let client_id = secret(self, "client_id", true);
        let client_secret = secret(self, "client_secret", false);
        let scope = secret(self, "scope", false);
        let private_key = secret(self, "private_key", false);
        let token_endpoint = secret(self, "token_endpoint", false);
        let grant = if kind == "refresh_token" {
            Grant::RefreshToken(secret(self, "refresh_token", true)?)
        } else {
            Grant::ClientCredentials
        };
        if let Some(t) = &token_endpoint {
            if let Err(e) = crate::protocol::oauth::check_endpoint_url("the token endpoint", t) {
                self.issue(&join(path, "token_endpoint"), e);
            }
        }
        let method = match get(m, "auth_method") {
            None if private_key.is_some() => ClientAuth::PrivateKeyJwt,
            None if client_secret.is_none() && kind == "refresh_token" => ClientAuth::None,
            None => ClientAuth::Basic,
            Some(Node::Str(a)) => match ClientAuth::parse(a) {
                Some(ClientAuth::PrivateKeyJwt) if kind == "refresh_token" => {
                    self.issue(
                        &join(path, "auth_method"),
                        "a refresh_token auth uses client_secret_basic or client_secret_post",
                    );
                    return None;
                }
                Some(c) => c,
                None => {
                    self.issue(
                        &join(path, "auth_method"),
                        format!(
                            "must be one of {}, got {}",
                            ClientAuth::NAMES.join(", "),
                            quote_short(a)
                        ),
                    );
                    return None;
                }
            },
            Some(other) => {
                self.expected(&join(path, "auth_method"), "a string", other);
                return None;
            }
        };
        match method {
            ClientAuth::PrivateKeyJwt if private_key.is_none() => {
                self.issue(
                    &join(path, "private_key"),
                    "required with auth_method private_key_jwt (the PEM text, usually ${VAR})",
                );
                return None;
            }
            ClientAuth::Basic | ClientAuth::Post if client_secret.is_none() => {
                self.issue(
                    &join(path, "client_secret"),
                    format!(
                        "required with auth_method {} (or set private_key for private_key_jwt)",
                        method.name()
                    ),
                );
                return None;
            }
            _ => {}
        }
        Some(AuthSpec::Grant(Box::new(GrantSpec {
            grant,
            client_id: client_id?,
            // With private_key_jwt no client secret is ever sent.
            client_secret: client_secret.filter(|_| method != ClientAuth::PrivateKeyJwt),
            scope,
            method,
            private_key,
            token_endpoint,
        })))
    }

    fn string_list(&mut self, node: &Node, path: &str) -> Vec<String> {
        let Some(items) = self.seq(node, path) else {
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                Node::Str(s) => Some(s.clone()),
                other => {
                    self.expected(
                        &join(path, &i.to_string()),
                        "a string (quote numbers and booleans)",
                        other,
                    );
                    None
                }
            })
            .collect()
    }

    /// mapping string → string (free-form keys, never warned about).
    fn string_map(&mut self, node: &Node, path: &str) -> BTreeMap<String, String> {
        let Some(m) = self.map(node, path) else {
            return BTreeMap::new();
        };
        let mut out = BTreeMap::new();
        for (k, v) in m {
            match v {
                Node::Str(s) => {
                    out.insert(k.clone(), s.clone());
                }
                other => self.expected(
                    &join(path, k),
                    "a string (quote numbers and booleans)",
                    other,
                ),
            }
        }
        out
    }

    fn env_map(&mut self, node: &Node, path: &str) -> BTreeMap<String, String> {
        let out = self.string_map(node, path);
        for (k, v) in &out {
            // The OS cannot hold these; better a clear config error than a failed spawn.
            if k.is_empty() || k.contains(['=', '\0']) {
                self.issue(
                    &join(path, k),
                    "not a valid environment variable name (empty, or contains '=' or NUL)",
                );
            } else if v.contains('\0') {
                self.issue(&join(path, k), "value must not contain a NUL character");
            }
        }
        out
    }

    fn headers(&mut self, node: &Node, path: &str) -> BTreeMap<String, String> {
        let out = self.string_map(node, path);
        for (name, value) in &out {
            let p = join(path, name);
            let lower = name.to_ascii_lowercase();
            if RESERVED_HEADERS.contains(&lower.as_str())
                || lower.starts_with(RESERVED_HEADER_PREFIX)
            {
                self.issue(
                    &p,
                    "this MCP protocol header is set by mcpward itself and cannot be configured",
                );
            } else if name.is_empty() || !name.bytes().all(is_token_byte) {
                self.issue(&p, "not a valid HTTP header name");
            } else if value
                .chars()
                .any(|c| (c < ' ' && c != '\t') || c == '\u{7f}')
            {
                self.issue(
                    &p,
                    "header value must not contain control characters (e.g. newlines)",
                );
            } else if !value.is_ascii() {
                // HTTP sends field values as bytes; non-ASCII text has no portable meaning
                // there (#12 §5). The value is not quoted: it may be a credential.
                self.issue(
                    &p,
                    "header value must be ASCII (percent-encode or base64-encode other characters)",
                );
            }
        }
        out
    }

    fn expect(&mut self, node: &Node, path: &str) -> Expect {
        let Some(m) = self.map(node, path) else {
            return Expect::default();
        };
        self.keys(m, path, EXPECT_KEYS);
        Expect {
            protocol_version: self
                .opt_string(m, path, "protocol_version")
                .filter(|s| !s.is_empty()),
        }
    }

    fn checks(&mut self, node: &Node, path: &str) -> Checks {
        let Some(m) = self.map(node, path) else {
            return Checks::default();
        };
        self.keys(m, path, CHECKS_KEYS);
        let d = Checks::default();
        // Let-bindings keep issues in key-table order.
        let compliance = match get(m, "compliance") {
            None => d.compliance,
            Some(n) => self.compliance(n, &join(path, "compliance")),
        };
        let schema = self.boolean(m, path, "schema", d.schema);
        let security = self.boolean(m, path, "security", d.security);
        let errors = match get(m, "errors") {
            None => ErrorsConfig::default(),
            Some(n) => self.errors(n, &join(path, "errors")),
        };
        let auth = self.boolean(m, path, "auth", d.auth);
        Checks {
            auth,
            compliance,
            schema,
            security,
            errors,
            drift: get(m, "drift").map(|n| self.drift(n, &join(path, "drift"))),
            latency: get(m, "latency").map(|n| self.latency(n, &join(path, "latency"))),
            collision: match get(m, "collision") {
                None => CollisionConfig::default(),
                Some(n) => self.collision(n, &join(path, "collision")),
            },
            toxic_flow: match get(m, "toxic_flow") {
                None => d.toxic_flow,
                Some(n) => self.toxic_flow(n, &join(path, "toxic_flow"), d.toxic_flow),
            },
            http: self.boolean(m, path, "http", d.http),
        }
    }

    /// `checks.toxic_flow` (#15): `off`, `info`, `warn` or `fail`.
    fn toxic_flow(&mut self, n: &Node, path: &str, d: ToxicFlow) -> ToxicFlow {
        let parsed = match n {
            Node::Str(s) => ToxicFlow::parse(s),
            _ => None,
        };
        parsed.unwrap_or_else(|| {
            self.issue(
                path,
                format!(
                    "must be \"off\", \"info\", \"warn\" or \"fail\", got {}",
                    n.describe()
                ),
            );
            d
        })
    }

    /// `compliance: bool` or `{enabled, stability}` (#14); a bool sets `enabled` only.
    fn compliance(&mut self, node: &Node, path: &str) -> ComplianceConfig {
        let d = ComplianceConfig::default();
        let m = match node {
            Node::Bool(b) => return ComplianceConfig { enabled: *b, ..d },
            Node::Map(m) => m,
            other => {
                self.expected(path, "a boolean (true or false) or a mapping", other);
                return d;
            }
        };
        self.keys(m, path, COMPLIANCE_KEYS);
        ComplianceConfig {
            enabled: self.boolean(m, path, "enabled", d.enabled),
            stability: self.boolean(m, path, "stability", d.stability),
        }
    }

    /// `errors: bool` or `{enabled, unknown_tool, invalid_params}` (DECISIONS #29/#30).
    fn errors(&mut self, node: &Node, path: &str) -> ErrorsConfig {
        let m = match node {
            Node::Bool(b) => {
                return ErrorsConfig {
                    enabled: *b,
                    ..ErrorsConfig::default()
                }
            }
            Node::Map(m) => m,
            other => {
                self.expected(path, "a boolean or a mapping", other);
                return ErrorsConfig::default();
            }
        };
        self.keys(m, path, ERRORS_KEYS);
        let d = ErrorsConfig::default();
        let enabled = self.boolean(m, path, "enabled", d.enabled);
        let unknown_tool = match get(m, "unknown_tool") {
            None => d.unknown_tool,
            Some(n) => {
                let parsed = match n {
                    Node::Str(s) => UnknownToolPolicy::parse(s),
                    _ => None,
                };
                parsed.unwrap_or_else(|| {
                    self.issue(
                        &join(path, "unknown_tool"),
                        format!(
                            "must be \"protocol_error\" or \"either\", got {}",
                            n.describe()
                        ),
                    );
                    d.unknown_tool
                })
            }
        };
        let invalid_params = match get(m, "invalid_params") {
            None => d.invalid_params,
            Some(n) => {
                let parsed = match n {
                    Node::Str(s) => InvalidParamsPolicy::parse(s),
                    _ => None,
                };
                parsed.unwrap_or_else(|| {
                    self.issue(
                        &join(path, "invalid_params"),
                        format!("must be \"warn\" or \"strict\", got {}", n.describe()),
                    );
                    d.invalid_params
                })
            }
        };
        let probe = match get(m, "probe") {
            None => d.probe,
            Some(n) => {
                let parsed = match n {
                    Node::Str(s) => ProbePolicy::parse(s),
                    _ => None,
                };
                parsed.unwrap_or_else(|| {
                    self.issue(
                        &join(path, "probe"),
                        format!("must be \"all\" or \"safe\", got {}", n.describe()),
                    );
                    d.probe
                })
            }
        };
        let skip = match get(m, "skip") {
            None => Vec::new(),
            Some(n) => self.string_list(n, &join(path, "skip")),
        };
        ErrorsConfig {
            enabled,
            unknown_tool,
            invalid_params,
            probe,
            skip,
        }
    }

    fn drift(&mut self, node: &Node, path: &str) -> DriftConfig {
        let Some(m) = self.map(node, path) else {
            return DriftConfig::default();
        };
        self.keys(m, path, DRIFT_KEYS);
        let d = DriftConfig::default();
        DriftConfig {
            baseline: self.opt_string(m, path, "baseline").unwrap_or(d.baseline),
            fail_on: match get(m, "fail_on") {
                None => d.fail_on,
                Some(n) => self.fail_on(n, &join(path, "fail_on")),
            },
            severity: match get(m, "severity") {
                None => d.severity,
                Some(n) => self.severity(n, &join(path, "severity")),
            },
            full_text: self.boolean(m, path, "full_text", d.full_text),
            output: get(m, "output").map(|n| self.output(n, &join(path, "output"))),
            surface: match get(m, "surface") {
                None => d.surface,
                Some(n) => self.surface(n, &join(path, "surface")),
            },
            max_age_days: match get(m, "max_age_days") {
                None => d.max_age_days,
                Some(n) => {
                    let p = join(path, "max_age_days");
                    match self.integer(n, &p) {
                        Some(i) if i >= 0 => i as u64,
                        Some(i) => {
                            self.issue(&p, format!("must be 0 (never) or more, got {i}"));
                            d.max_age_days
                        }
                        None => d.max_age_days,
                    }
                }
            },
        }
    }

    /// `checks.drift.surface`: one part name or a list of them (did-you-mean on a typo).
    fn surface(&mut self, node: &Node, path: &str) -> SurfaceSet {
        let mut set = SurfaceSet::default();
        let mut one = |this: &mut Self, item: &Node, p: &str| match item {
            Node::Str(s) => {
                if !set.add(s) {
                    let hint = match suggest(s, &SurfaceSet::NAMES) {
                        Some(k) => format!("; did you mean \"{k}\"?"),
                        None => String::new(),
                    };
                    this.issue(
                        p,
                        format!(
                            "unknown surface part {} (one of {}){hint}",
                            quote_short(s),
                            SurfaceSet::NAMES.join(", ")
                        ),
                    );
                }
            }
            other => this.expected(p, "a surface part name", other),
        };
        match node {
            Node::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    one(self, item, &join(path, &i.to_string()));
                }
            }
            other => one(self, other, path),
        }
        set
    }

    fn fail_on(&mut self, node: &Node, path: &str) -> FailOn {
        match node {
            Node::Str(s) => match DriftSeverity::parse(s) {
                Some(level) => FailOn::Level(level),
                None => {
                    self.issue(
                        path,
                        format!(
                            "must be high, medium, low or a list of drift classes, got {}",
                            quote_short(s)
                        ),
                    );
                    FailOn::default()
                }
            },
            Node::Seq(items) => FailOn::Classes(
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| self.drift_class(item, &join(path, &i.to_string())))
                    .collect(),
            ),
            other => {
                self.expected(path, "high, medium, low or a list of drift classes", other);
                FailOn::default()
            }
        }
    }

    fn drift_class(&mut self, node: &Node, path: &str) -> Option<DriftClass> {
        match node {
            Node::Str(s) => DriftClass::parse(s).or_else(|| {
                self.issue(
                    path,
                    format!("unknown drift class {} ({})", quote_short(s), class_list()),
                );
                None
            }),
            other => {
                self.expected(path, "a drift class name", other);
                None
            }
        }
    }

    fn severity(&mut self, node: &Node, path: &str) -> BTreeMap<DriftClass, DriftSeverity> {
        let Some(m) = self.map(node, path) else {
            return BTreeMap::new();
        };
        let mut out = BTreeMap::new();
        for (k, v) in m {
            let p = join(path, k);
            let class = DriftClass::parse(k);
            if class.is_none() {
                self.issue(&p, format!("not a drift class ({})", class_list()));
            }
            let level = match v {
                Node::Str(s) => DriftSeverity::parse(s).or_else(|| {
                    self.issue(
                        &p,
                        format!("must be high, medium or low, got {}", quote_short(s)),
                    );
                    None
                }),
                other => {
                    self.expected(&p, "high, medium or low", other);
                    None
                }
            };
            if let (Some(c), Some(l)) = (class, level) {
                out.insert(c, l);
            }
        }
        out
    }

    fn output(&mut self, node: &Node, path: &str) -> OutputDriftConfig {
        let Some(m) = self.map(node, path) else {
            return OutputDriftConfig::default();
        };
        self.keys(m, path, OUTPUT_KEYS);
        let d = OutputDriftConfig::default();
        OutputDriftConfig {
            enabled: self.boolean(m, path, "enabled", d.enabled),
            shape_samples: self.positive_u32(m, path, "shape_samples", d.shape_samples),
            call_readonly: self.boolean(m, path, "call_readonly", d.call_readonly),
            tools: self.tool_list(m, path),
        }
    }

    fn tool_list(&mut self, m: &Entries, path: &str) -> Vec<ToolArgs> {
        let Some(node) = get(m, "tools") else {
            return Vec::new();
        };
        let path = join(path, "tools");
        let Some(items) = self.seq(node, &path) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = join(&path, &i.to_string());
            let Some(tm) = self.map(item, &p) else {
                continue;
            };
            self.keys(tm, &p, TOOL_KEYS);
            let name = self.req_string(tm, &p, "name");
            let args = match get(tm, "args") {
                None => Map::new(),
                Some(n) => self.free_map(n, &join(&p, "args")),
            };
            if let Some(name) = name {
                out.push(ToolArgs { name, args });
            }
        }
        out
    }

    fn latency(&mut self, node: &Node, path: &str) -> LatencyConfig {
        let Some(m) = self.map(node, path) else {
            return LatencyConfig::default();
        };
        self.keys(m, path, LATENCY_KEYS);
        let d = LatencyConfig::default();
        let samples = self.positive_u32(m, path, "samples", d.samples);
        let p95_budget_ms = match get(m, "p95_budget_ms") {
            None => d.p95_budget_ms,
            Some(n) => {
                let p = join(path, "p95_budget_ms");
                match self.number(n, &p) {
                    Some(x) if x > 0.0 => x,
                    Some(x) => {
                        self.issue(&p, format!("must be greater than 0, got {x}"));
                        d.p95_budget_ms
                    }
                    None => d.p95_budget_ms,
                }
            }
        };
        LatencyConfig {
            samples,
            p95_budget_ms,
            call_readonly: self.boolean(m, path, "call_readonly", d.call_readonly),
            tools: self.tool_list(m, path),
            call_all: self.boolean(m, path, "call_all", d.call_all),
            regression: match get(m, "regression") {
                None => d.regression,
                Some(n) => self.regression(n, &join(path, "regression")),
            },
        }
    }

    /// `checks.latency.regression: {ratio, min_ms, warmup}` (#16 §4).
    fn regression(&mut self, node: &Node, path: &str) -> RegressionConfig {
        let d = RegressionConfig::default();
        let Some(m) = self.map(node, path) else {
            return d;
        };
        self.keys(m, path, REGRESSION_KEYS);
        let ratio = match get(m, "ratio") {
            None => d.ratio,
            Some(n) => {
                let p = join(path, "ratio");
                match self.number(n, &p) {
                    Some(x) if x >= 1.0 => x,
                    Some(x) => {
                        self.issue(&p, format!("must be at least 1, got {x}"));
                        d.ratio
                    }
                    None => d.ratio,
                }
            }
        };
        let min_ms = match get(m, "min_ms") {
            None => d.min_ms,
            Some(n) => {
                let p = join(path, "min_ms");
                match self.number(n, &p) {
                    Some(x) if x >= 0.0 => x,
                    Some(x) => {
                        self.issue(&p, format!("must be 0 or greater, got {x}"));
                        d.min_ms
                    }
                    None => d.min_ms,
                }
            }
        };
        let warmup = match get(m, "warmup") {
            None => d.warmup,
            Some(n) => {
                let p = join(path, "warmup");
                match self.integer(n, &p) {
                    Some(i) if i >= 0 => u32::try_from(i).unwrap_or(u32::MAX),
                    Some(i) => {
                        self.issue(&p, format!("must be 0 or greater, got {i}"));
                        d.warmup
                    }
                    None => d.warmup,
                }
            }
        };
        RegressionConfig {
            ratio,
            min_ms,
            warmup,
        }
    }

    fn collision(&mut self, node: &Node, path: &str) -> CollisionConfig {
        let Some(m) = self.map(node, path) else {
            return CollisionConfig::default();
        };
        self.keys(m, path, COLLISION_KEYS);
        let d = CollisionConfig::default();
        let enabled = self.boolean(m, path, "enabled", d.enabled);
        let threshold = match get(m, "threshold") {
            None => d.threshold,
            Some(n) => {
                let p = join(path, "threshold");
                match self.number(n, &p) {
                    Some(x) if (0.0..=1.0).contains(&x) => x,
                    Some(x) => {
                        self.issue(&p, format!("must be between 0 and 1, got {x}"));
                        d.threshold
                    }
                    None => d.threshold,
                }
            }
        };
        CollisionConfig {
            enabled,
            threshold,
            max_tools: self.positive_int(m, path, "max_tools", d.max_tools),
            fail: self.boolean(m, path, "fail", d.fail),
        }
    }

    fn timeouts(&mut self, node: &Node, path: &str) -> Timeouts {
        let d = Timeouts::default();
        let Some(m) = self.map(node, path) else {
            return d;
        };
        self.keys(m, path, TIMEOUT_KEYS);
        Timeouts {
            connect_ms: self.positive_int(m, path, "connect_ms", d.connect_ms),
            call_ms: self.positive_int(m, path, "call_ms", d.call_ms),
            run_ms: self.positive_int(m, path, "run_ms", d.run_ms),
        }
    }

    fn limits(&mut self, node: &Node, path: &str) -> Limits {
        let d = Limits::default();
        let Some(m) = self.map(node, path) else {
            return d;
        };
        self.keys(m, path, LIMIT_KEYS);
        let message_bytes = self.positive_int(m, path, "message_bytes", d.message_bytes as u64);
        let tools = self.positive_int(m, path, "tools", d.tools as u64);
        Limits {
            message_bytes: usize::try_from(message_bytes).unwrap_or(usize::MAX),
            tools: usize::try_from(tools).unwrap_or(usize::MAX),
            progress_resets: self.positive_u32(m, path, "progress_resets", d.progress_resets),
        }
    }

    fn suites(&mut self, node: &Node, path: &str) -> Vec<Suite> {
        let Some(items) = self.seq(node, path) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = join(path, &i.to_string());
            let Some(m) = self.map(item, &p) else {
                continue;
            };
            self.keys(m, &p, SUITE_KEYS);
            let tool = self.req_string(m, &p, "tool");
            let cases = match get(m, "cases") {
                None => {
                    self.issue(&join(&p, "cases"), "required (a list, may be empty)");
                    None
                }
                Some(n) => {
                    let cp = join(&p, "cases");
                    self.seq(n, &cp).map(|cases| {
                        cases
                            .iter()
                            .enumerate()
                            .filter_map(|(j, c)| self.case(c, &join(&cp, &j.to_string())))
                            .collect()
                    })
                }
            };
            if let (Some(tool), Some(cases)) = (tool, cases) {
                out.push(Suite { tool, cases });
            }
        }
        out
    }

    fn case(&mut self, node: &Node, path: &str) -> Option<SuiteCase> {
        let m = self.map(node, path)?;
        self.keys(m, path, CASE_KEYS);
        let name = self.req_string(m, path, "name");
        let args = match get(m, "args") {
            None => Map::new(),
            Some(n) => self.free_map(n, &join(path, "args")),
        };
        // No `expect` (a smoke test) and `expect: {}` (the call must not throw) differ.
        let expect = get(m, "expect").map(|n| self.case_expect(n, &join(path, "expect")));
        Some(SuiteCase {
            name: name?,
            args,
            expect,
        })
    }

    fn case_expect(&mut self, node: &Node, path: &str) -> CaseExpect {
        let Some(m) = self.map(node, path) else {
            return CaseExpect::default();
        };
        self.keys(m, path, CASE_EXPECT_KEYS);
        let protocol_error_code = get(m, "protocol_error_code").and_then(|n| {
            self.integer(n, &join(path, "protocol_error_code"))
                .map(|i| i as i64)
        });
        CaseExpect {
            tool_is_error: self.opt_bool(m, path, "tool_is_error"),
            protocol_error_code,
            output_matches_schema: self.opt_bool(m, path, "output_matches_schema"),
            jsonpath: get(m, "jsonpath").map(|n| self.free_map(n, &join(path, "jsonpath"))),
            golden: self.opt_string(m, path, "golden"),
        }
    }

    /// A mapping with any values, kept in document order.
    fn free_map(&mut self, node: &Node, path: &str) -> Map<String, Value> {
        let Some(m) = self.map(node, path) else {
            return Map::new();
        };
        m.iter()
            .map(|(k, v)| (k.clone(), self.json(v, &join(path, k))))
            .collect()
    }

    fn json(&mut self, node: &Node, path: &str) -> Value {
        match node {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Int(i) => match i64::try_from(*i)
                .map(Number::from)
                .or_else(|_| u64::try_from(*i).map(Number::from))
            {
                Ok(n) => Value::Number(n),
                Err(_) => {
                    self.issue(
                        path,
                        format!("integer {i} is out of range (at most 64 bits)"),
                    );
                    Value::Null
                }
            },
            // `1.0` is the integer 1 in YAML/JSON number terms; keep it comparable to `1`.
            Node::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() <= MAX_SAFE as f64 => {
                Value::Number(Number::from(*f as i64))
            }
            Node::Float(f) => match Number::from_f64(*f) {
                Some(n) => Value::Number(n),
                None => {
                    self.issue(
                        path,
                        format!("{} cannot be represented in JSON", fmt_float(*f)),
                    );
                    Value::Null
                }
            },
            Node::Str(s) => Value::String(s.clone()),
            Node::Seq(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.json(item, &join(path, &i.to_string())))
                    .collect(),
            ),
            Node::Map(_) => Value::Object(self.free_map(node, path)),
        }
    }
}

fn class_list() -> String {
    let names: Vec<&str> = DriftClass::ALL.iter().map(|c| c.as_str()).collect();
    format!("expected one of: {}", names.join(", "))
}

/// RFC 9110 `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// config.md §3.3: an absolute URL a WHATWG parser accepts, scheme http or https. `url` is
/// already trimmed. Never echoes the URL (it may hold credentials).
pub(crate) fn check_url(url: &str) -> Result<(), String> {
    match url::Url::parse(url) {
        Ok(u) if u.scheme() == "http" || u.scheme() == "https" => Ok(()),
        Ok(u) => Err(format!(
            "URL scheme must be http or https, got \"{}\"",
            u.scheme()
        )),
        Err(e) => Err(format!("not a valid absolute http(s) URL ({e})")),
    }
}

/// The closest known key for a typo: same spelling modulo case and `-`/`_`, a prefix of
/// either, or a small edit distance. Ties go to the earlier key in `known`.
pub(crate) fn suggest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = key.to_lowercase().replace('-', "_");
    let n = norm.chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for &k in known {
        let d = osa_distance(&norm, k);
        let kl = k.chars().count();
        let limit = if kl <= 4 { 1 } else { 2 };
        let prefix = (n >= 4 && k.starts_with(norm.as_str())) || (kl >= 4 && norm.starts_with(k));
        if (d <= limit || prefix) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
fn osa_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Keys are short; bail out on absurd lengths rather than allocate a huge table.
    if a.len() > 256 || b.len() > 256 {
        return usize::MAX;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}
