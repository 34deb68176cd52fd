//! Literal credentials in `server.headers` and `server.env` (#12 §5): the values of
//! `Authorization`, `Proxy-Authorization`, `Cookie` and of any key whose name looks like a
//! secret are registered as secrets even when written literally, not only through `${VAR}`.

use super::tree::Node;
use crate::redact::{is_secret_config_name, MIN_SECRET_CHARS};

const COOKIE_VALUE_MIN_CHARS: usize = 8;

/// The string values of secret-named keys under `server.headers` and `server.env`, as
/// `(section, key, value)`, in document order. Either transport's keys count: a key of the
/// other transport is ignored by validation but its value is still a credential.
pub(crate) fn secret_entries(root: &Node) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let Node::Map(top) = root else {
        return out;
    };
    let Some((_, Node::Map(server))) = top.iter().find(|(k, _)| k == "server") else {
        return out;
    };
    for section in ["headers", "env", "auth"] {
        let Some((_, Node::Map(entries))) = server.iter().find(|(k, _)| k == section) else {
            continue;
        };
        for (k, v) in entries {
            if let Node::Str(value) = v {
                // Every `server.auth` value is a credential (#17) but the two keywords.
                let secret = if section == "auth" {
                    !matches!(k.as_str(), "type" | "auth_method")
                } else {
                    is_secret_config_name(k)
                };
                if secret {
                    out.push((section, k.clone(), value.clone()));
                }
            }
        }
    }
    out
}

/// Adds the secrets of `after` (the entries once interpolated) to `secrets`. `before` are
/// the same entries as written: a value whose only literal text is an authorization scheme
/// (`Bearer ${TOKEN}`) already has its secret registered by interpolation; any other value is
/// registered whole, and for the credential headers also without its scheme, and for
/// `Cookie` each cookie value of 8 characters or more.
pub(crate) fn register_literals(
    before: &[(&'static str, String, String)],
    after: &[(&'static str, String, String)],
    secrets: &mut Vec<String>,
) {
    for (section, key, value) in after {
        let written = before
            .iter()
            .find(|(s, k, _)| s == section && k == key)
            .map(|(_, _, v)| v.as_str())
            .unwrap_or(value);
        let lower = key.to_ascii_lowercase();
        let auth =
            *section == "headers" && (lower == "authorization" || lower == "proxy-authorization");
        if written.contains("${") && literal_text(written, auth).is_empty() {
            continue;
        }
        let mut found = vec![value.clone()];
        if auth {
            if let Some((_, credentials)) = value.trim().split_once(char::is_whitespace) {
                found.push(credentials.trim().to_string());
            }
        } else if *section == "headers" && lower == "cookie" {
            // Each cookie's value, when long enough to be a session id rather than a word
            // (`theme=dark`) that would be redacted everywhere it appears.
            found.extend(
                value
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .map(|(_, v)| v.trim().to_string())
                    .filter(|v| v.chars().count() >= COOKIE_VALUE_MIN_CHARS),
            );
        }
        for s in found {
            if s.chars().count() >= MIN_SECRET_CHARS && !secrets.contains(&s) {
                secrets.push(s);
            }
        }
    }
}

/// `value` without its `${…}` placeholders (and, for a credential header, without a leading
/// scheme word), trimmed.
fn literal_text(value: &str, auth: bool) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find('}') {
            Some(end) if end > 0 => rest = &rest[start + 2 + end + 1..],
            _ => {
                out.push_str("${");
                rest = &rest[start + 2..];
            }
        }
    }
    out.push_str(rest);
    let text = out.trim();
    if auth {
        if let Some((scheme, rest)) = text.split_once(char::is_whitespace) {
            if !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            {
                return rest.trim().to_string();
            }
        }
        // A scheme alone before the placeholder: `Bearer ${TOKEN}` leaves `Bearer`.
        if text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return String::new();
        }
    }
    text.to_string()
}

/// Error text can quote values; interpolated ones may be secrets. Messages quote values
/// `{:?}`-escaped and cut at 60 characters (`tree::quote_short`), so both spellings are
/// redacted, longest first, and so is a secret's beginning where a quote was cut (`"…`).
pub(crate) fn redact(text: &str, secrets: &[String]) -> String {
    let mut forms: Vec<String> = secrets
        .iter()
        .flat_map(|s| {
            let quoted = format!("{s:?}");
            [s.clone(), quoted[1..quoted.len() - 1].to_string()]
        })
        .collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    let mut out = text.to_string();
    for f in &forms {
        out = out.replace(f.as_str(), "[REDACTED]");
    }
    const CUT: &str = "\"…";
    for f in &forms {
        let mut from = 0;
        while let Some(at) = out[from..].find(CUT).map(|i| from + i) {
            let before = &out[..at];
            // The longest beginning of the secret (4 characters or more) right before the cut.
            let cut_prefix = f
                .char_indices()
                .map(|(i, _)| i)
                .chain([f.len()])
                .filter(|&n| f[..n].chars().count() >= 4 && before.ends_with(&f[..n]))
                .max();
            match cut_prefix {
                Some(n) => {
                    out.replace_range(at - n..at, "[REDACTED]");
                    from = at - n + "[REDACTED]".len() + CUT.len();
                }
                None => from = at + CUT.len(),
            }
        }
    }
    out
}
