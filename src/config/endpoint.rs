//! A server named on the command line instead of in `server:` (#16 §1, §5): the endpoint
//! forms (`-- command…`, `npx:<package>`, `stdio:<command>`, `http(s)://…`), `--header`,
//! `--env` and `--check`, merged into the config tree after interpolation so a value typed
//! on the command line is taken literally (the shell has already expanded it).

use super::tree::Node;
use crate::redact::MIN_SECRET_CHARS;

/// Where the server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointTarget {
    Stdio { command: String, args: Vec<String> },
    Http { url: String },
}

/// Everything the command line says about the server and the families to run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    pub target: Option<EndpointTarget>,
    /// `--header 'K: V'`, in order (values are secrets).
    pub headers: Vec<(String, String)>,
    /// `--env K=V`, in order (values are secrets).
    pub env: Vec<(String, String)>,
    /// `--check family[,family]`: exactly these families run.
    pub checks: Option<Vec<String>>,
}

impl Overrides {
    pub fn is_empty(&self) -> bool {
        self.target.is_none()
            && self.headers.is_empty()
            && self.env.is_empty()
            && self.checks.is_none()
    }
}

/// The families `--check` can name, in the order `checks:` lists them.
pub const FAMILIES: &[&str] = &[
    "compliance",
    "schema",
    "security",
    "errors",
    "drift",
    "latency",
    "collision",
    "auth",
    "http",
];

/// Package runners that may download the server before it starts.
const PACKAGE_RUNNERS: &[&str] = &["npx", "uvx", "pipx", "bunx", "pnpx", "docker"];

/// `timeouts.connect_ms` of a server named on the command line without a config file when
/// it is started by a package runner: the first `npx -y <package>` downloads it, which
/// takes longer than the 10 s a started server gets.
pub const PACKAGE_RUNNER_CONNECT_MS: i128 = 60_000;

/// The config a command line without a config file starts from: empty, except a longer
/// `connect_ms` for a server started by a package runner.
pub(crate) fn command_line_defaults(ov: &Overrides) -> Vec<(String, Node)> {
    let runner = match &ov.target {
        Some(EndpointTarget::Stdio { command, .. }) => std::path::Path::new(command)
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| PACKAGE_RUNNERS.contains(&s)),
        _ => false,
    };
    if !runner {
        return Vec::new();
    }
    vec![(
        "timeouts".to_string(),
        Node::Map(vec![(
            "connect_ms".to_string(),
            Node::Int(PACKAGE_RUNNER_CONNECT_MS),
        )]),
    )]
}

/// Reads the endpoint words: `npx:<package> [args]` (run with `npx -y`), `stdio:<command>
/// [args]`, one `http://` or `https://` URL, or a command and its arguments.
pub fn parse_target(words: &[String]) -> Result<EndpointTarget, String> {
    let Some((first, rest)) = words.split_first() else {
        return Err("no endpoint given".into());
    };
    let lower = first.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        if !rest.is_empty() {
            return Err(format!(
                "an http(s) endpoint takes no arguments, got {:?} after {first}",
                rest[0]
            ));
        }
        return Ok(EndpointTarget::Http { url: first.clone() });
    }
    if let Some(package) = first.strip_prefix("npx:") {
        if package.trim().is_empty() {
            return Err(
                "npx: needs a package name, e.g. npx:@modelcontextprotocol/server-everything"
                    .into(),
            );
        }
        let mut args = vec!["-y".to_string(), package.to_string()];
        args.extend(rest.iter().cloned());
        return Ok(EndpointTarget::Stdio {
            command: "npx".into(),
            args,
        });
    }
    if let Some(command) = first.strip_prefix("stdio:") {
        if command.trim().is_empty() {
            return Err("stdio: needs a command, e.g. stdio:node server.js".into());
        }
        return Ok(EndpointTarget::Stdio {
            command: command.to_string(),
            args: rest.to_vec(),
        });
    }
    if first.trim().is_empty() {
        return Err("the server command is empty".into());
    }
    Ok(EndpointTarget::Stdio {
        command: first.clone(),
        args: rest.to_vec(),
    })
}

/// The endpoint as a named contract records it: the words that [`parse_target`] reads back
/// to the same target (`npx -y <package>` is written `npx:<package>`).
pub fn endpoint_words(target: &EndpointTarget) -> Vec<String> {
    match target {
        EndpointTarget::Http { url } => vec![url.clone()],
        EndpointTarget::Stdio { command, args } => {
            if command == "npx" && args.first().map(String::as_str) == Some("-y") && args.len() > 1
            {
                let mut w = vec![format!("npx:{}", args[1])];
                w.extend(args[2..].iter().cloned());
                w
            } else {
                let mut w = vec![format!("stdio:{command}")];
                w.extend(args.iter().cloned());
                w
            }
        }
    }
}

/// `K: V` (the HTTP header form; `K=V` is refused so a typo is not sent as a header name).
pub fn parse_header(s: &str) -> Result<(String, String), String> {
    let Some((k, v)) = s.split_once(':') else {
        return Err("a header is written 'Name: value'".into());
    };
    let k = k.trim();
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
        return Err(
            "a header name is one token of visible ASCII, e.g. 'Authorization: Bearer …'".into(),
        );
    }
    Ok((k.to_string(), v.trim().to_string()))
}

/// `K=V`.
pub fn parse_env(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.contains('\0') && !v.contains('\0') => {
            Ok((k.to_string(), v.to_string()))
        }
        _ => Err("an environment variable is written NAME=value".into()),
    }
}

/// `--check` names: each must be a family.
pub fn parse_checks(names: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for raw in names {
        let n = raw.trim();
        if n.is_empty() {
            continue;
        }
        if !FAMILIES.contains(&n) {
            let hint = super::validate::suggest(n, FAMILIES)
                .map(|c| format!(" (did you mean {c}?)"))
                .unwrap_or_default();
            return Err(format!(
                "unknown check family {n:?}{hint}; one of {}",
                FAMILIES.join(", ")
            ));
        }
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    if out.is_empty() {
        return Err(format!("--check needs a family: {}", FAMILIES.join(", ")));
    }
    Ok(out)
}

fn key_of<'a>(m: &'a mut [(String, Node)], key: &str) -> Option<&'a mut Node> {
    m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Merges the command line into the interpolated config tree. A flag that says something
/// the file already says is a conflict, never a silent override. `flag` names the endpoint
/// flag for messages.
pub(super) fn merge(
    root: &mut Node,
    ov: &Overrides,
    source: &str,
    secrets: &mut Vec<String>,
) -> Result<(), String> {
    // Not a mapping: validation reports the wrong root; nothing to merge into.
    let Node::Map(top) = root else {
        return Ok(());
    };
    if let Some(target) = &ov.target {
        let flag = match target {
            EndpointTarget::Http { .. } => "--url",
            EndpointTarget::Stdio { .. } => "the server command",
        };
        if top.iter().any(|(k, _)| k == "server") {
            return Err(format!(
                "{flag} names the server, but {source} has `server:` too; drop one of them"
            ));
        }
        let mut server = Vec::new();
        match target {
            EndpointTarget::Stdio { command, args } => {
                server.push(("transport".to_string(), Node::Str("stdio".into())));
                server.push(("command".to_string(), Node::Str(command.clone())));
                server.push((
                    "args".to_string(),
                    Node::Seq(args.iter().cloned().map(Node::Str).collect()),
                ));
            }
            EndpointTarget::Http { url } => {
                server.push(("transport".to_string(), Node::Str("http".into())));
                server.push(("url".to_string(), Node::Str(url.clone())));
            }
        }
        top.insert(0, ("server".to_string(), Node::Map(server)));
    }
    let is_http = |top: &mut Vec<(String, Node)>| match key_of(top, "server") {
        Some(Node::Map(s)) => {
            matches!(key_of(s, "transport"), Some(Node::Str(t)) if t.trim().eq_ignore_ascii_case("http"))
        }
        _ => false,
    };
    for (flag, section, pairs, want_http) in [
        ("--header", "headers", &ov.headers, true),
        ("--env", "env", &ov.env, false),
    ] {
        if pairs.is_empty() {
            continue;
        }
        if top
            .iter()
            .any(|(k, _)| k == "servers" || k == "servers_from")
        {
            return Err(format!(
                "{flag} applies to one server, but {source} names a fleet; put it in that server's entry"
            ));
        }
        if is_http(top) != want_http {
            let needs = if want_http {
                "an HTTP server (--url or transport: http)"
            } else {
                "a stdio server (a command, or transport: stdio)"
            };
            return Err(format!("{flag} needs {needs}"));
        }
        let Some(Node::Map(server)) = key_of(top, "server") else {
            return Err(format!(
                "{flag} needs a server: give one, or a config with `server:`"
            ));
        };
        if key_of(server, section).is_none() {
            server.push((section.to_string(), Node::Map(Vec::new())));
        }
        let Some(Node::Map(entries)) = key_of(server, section) else {
            return Err(format!(
                "{flag}: server.{section} in {source} is not a mapping"
            ));
        };
        for (k, v) in pairs {
            let clash = entries.iter().any(|(e, _)| {
                if section == "headers" {
                    e.eq_ignore_ascii_case(k)
                } else {
                    e == k
                }
            });
            if clash {
                return Err(format!(
                    "{flag} {k}: {source} already sets server.{section}.{k}; drop one of them"
                ));
            }
            entries.push((k.clone(), Node::Str(v.clone())));
            register(v, section == "headers", secrets);
        }
    }
    if let Some(families) = &ov.checks {
        if top.iter().any(|(k, _)| k == "checks") {
            return Err(format!(
                "--check chooses the families, but {source} has `checks:` too; drop one of them"
            ));
        }
        let on = |f: &str| families.iter().any(|x| x == f);
        // The auth family judges what the OAuth flow saw: without server.auth it would
        // run nothing and the run would pass having tested nothing.
        let has_auth = top.iter().any(|(k, v)| {
            k == "server" && matches!(v, Node::Map(m) if m.iter().any(|(k, _)| k == "auth"))
        });
        if on("auth") && !has_auth {
            return Err(
                "--check auth needs server.auth in the config (the auth family judges the server's OAuth while mcpward authorizes itself)"
                    .into(),
            );
        }
        let mut checks = Vec::new();
        for f in ["compliance", "schema", "security", "errors", "auth", "http"] {
            checks.push((f.to_string(), Node::Bool(on(f))));
        }
        checks.push((
            "collision".to_string(),
            Node::Map(vec![("enabled".to_string(), Node::Bool(on("collision")))]),
        ));
        for f in ["drift", "latency"] {
            if on(f) {
                checks.push((f.to_string(), Node::Map(Vec::new())));
            }
        }
        let at = top
            .iter()
            .position(|(k, _)| k == "server")
            .map_or(0, |i| i + 1);
        top.insert(at, ("checks".to_string(), Node::Map(checks)));
    }
    Ok(())
}

/// A command-line value is a secret whatever its name; with an authorization scheme
/// (`Bearer x`) the credential alone too.
fn register(value: &str, header: bool, secrets: &mut Vec<String>) {
    let mut found = vec![value.trim().to_string()];
    if header {
        if let Some((_, credential)) = value.trim().split_once(char::is_whitespace) {
            found.push(credential.trim().to_string());
        }
    }
    for s in found {
        if s.chars().count() >= MIN_SECRET_CHARS && !secrets.contains(&s) {
            secrets.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn endpoint_forms() {
        assert_eq!(
            parse_target(&words(&["npx:@scope/pkg", "--flag"])).unwrap(),
            EndpointTarget::Stdio {
                command: "npx".into(),
                args: words(&["-y", "@scope/pkg", "--flag"])
            }
        );
        assert_eq!(
            parse_target(&words(&["stdio:node", "server.js"])).unwrap(),
            EndpointTarget::Stdio {
                command: "node".into(),
                args: words(&["server.js"])
            }
        );
        assert_eq!(
            parse_target(&words(&["https://h/mcp"])).unwrap(),
            EndpointTarget::Http {
                url: "https://h/mcp".into()
            }
        );
        assert_eq!(
            parse_target(&words(&["python3", "-m", "srv"])).unwrap(),
            EndpointTarget::Stdio {
                command: "python3".into(),
                args: words(&["-m", "srv"])
            }
        );
        assert!(parse_target(&words(&["https://h/mcp", "x"])).is_err());
        assert!(parse_target(&words(&["npx:"])).is_err());
        assert!(parse_target(&[]).is_err());
    }

    #[test]
    fn recorded_words_read_back_to_the_same_target() {
        for w in [
            words(&["npx:@scope/pkg", "a", "-b"]),
            words(&["stdio:node", "s.js"]),
            words(&["http://127.0.0.1:1/mcp"]),
            words(&["stdio:npx", "pkg"]),
        ] {
            let t = parse_target(&w).unwrap();
            assert_eq!(parse_target(&endpoint_words(&t)).unwrap(), t, "{w:?}");
        }
        let plain = parse_target(&words(&["node", "s.js"])).unwrap();
        assert_eq!(endpoint_words(&plain), words(&["stdio:node", "s.js"]));
    }

    #[test]
    fn headers_env_and_checks() {
        assert_eq!(
            parse_header("Authorization: Bearer abc").unwrap(),
            ("Authorization".into(), "Bearer abc".into())
        );
        assert!(parse_header("Authorization=x").is_err());
        assert!(parse_header(": x").is_err());
        assert_eq!(parse_env("A=b=c").unwrap(), ("A".into(), "b=c".into()));
        assert!(parse_env("=x").is_err());
        assert_eq!(
            parse_checks(&words(&["security", "schema", "security"])).unwrap(),
            words(&["security", "schema"])
        );
        let e = parse_checks(&words(&["securty"])).unwrap_err();
        assert!(e.contains("did you mean security"), "{e}");
    }
}
