//! The parsed document as a small JSON-like tree, and `${VAR}` interpolation over it (§6).

use super::raw::Raw as Yaml;

/// Parse YAML text into a [`Node`]; `Err` is the YAML crate's message. Values that cannot be
/// represented are reported in `issues` (see [`from_yaml`]).
pub(crate) fn parse(text: &str, issues: &mut Vec<String>) -> Result<Node, String> {
    let yaml = super::raw::parse(text)?;
    Ok(from_yaml(yaml, "", issues))
}

/// Integers keep full precision so range checks see what the user wrote.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Keys in document order; unique (duplicates are rejected on the way in).
    Map(Vec<(String, Node)>),
}

impl Node {
    /// Human description of the value's type, for "expected X, got Y".
    pub(crate) fn describe(&self) -> String {
        match self {
            Node::Null => "null".into(),
            Node::Bool(b) => format!("a boolean ({b})"),
            Node::Int(i) => format!("a number ({i})"),
            Node::Float(f) => format!("a number ({})", fmt_float(*f)),
            Node::Str(s) => format!("a string ({})", quote_short(s)),
            Node::Seq(_) => "a list".into(),
            Node::Map(_) => "a mapping".into(),
        }
    }
}

pub(crate) fn fmt_float(f: f64) -> String {
    if f.is_nan() {
        ".nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf" } else { "-.inf" }.into()
    } else if f.abs() >= 1e16 {
        format!("{f:e}")
    } else {
        f.to_string()
    }
}

/// A string quoted for a message, cut so a huge value cannot flood stderr.
pub(crate) fn quote_short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{:?}…", cut)
    } else {
        format!("{s:?}")
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn issue(path: &str, reason: &str) -> String {
    if path.is_empty() {
        reason.to_string()
    } else {
        format!("{path}: {reason}")
    }
}

/// Convert the parsed document. Scalar keys become strings (`1:` → `"1"`, as a JSON object
/// would); anything that cannot be represented is reported in `issues` and dropped.
fn from_yaml(v: Yaml, path: &str, issues: &mut Vec<String>) -> Node {
    match v {
        Yaml::Null => Node::Null,
        Yaml::Bool(b) => Node::Bool(b),
        Yaml::Int(i) => Node::Int(i),
        Yaml::Float(f) => Node::Float(f),
        Yaml::Str(s) => Node::Str(s),
        Yaml::Seq(items) => Node::Seq(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| from_yaml(item, &join(path, &i.to_string()), issues))
                .collect(),
        ),
        Yaml::Map(m) => {
            let mut out: Vec<(String, Node)> = Vec::with_capacity(m.len());
            for (k, v) in m {
                let key = match k {
                    Yaml::Str(s) => s,
                    Yaml::Bool(b) => b.to_string(),
                    Yaml::Int(i) => i.to_string(),
                    Yaml::Float(f) => super::raw::float_text(f),
                    Yaml::Null => "null".to_string(),
                    _ => {
                        issues.push(issue(path, "mapping keys must be plain scalars"));
                        continue;
                    }
                };
                let child = join(path, &key);
                if out.iter().any(|(existing, _)| *existing == key) {
                    // `1:` and `"1":` are distinct in YAML but collide once keys are strings.
                    issues.push(issue(&child, "duplicate key"));
                    continue;
                }
                let node = from_yaml(v, &child, issues);
                out.push((key, node));
            }
            Node::Map(out)
        }
        Yaml::Tagged(tag, _) => {
            // Core tags (`!!str`, `!!int`) are resolved by the parser; anything else would
            // silently mean something we do not implement.
            issues.push(issue(path, &format!("YAML tag {tag} is not supported")));
            Node::Null
        }
    }
}

/// Substitute `${NAME}` in every string value (not keys), in document order. The first unset
/// variable aborts with `(name, path)`. Values of 4+ characters are recorded in `secrets`.
pub(crate) fn interpolate(
    node: &mut Node,
    path: &str,
    env: &dyn Fn(&str) -> Option<String>,
    secrets: &mut Vec<String>,
) -> Result<(), (String, String)> {
    match node {
        Node::Str(s) => {
            if s.contains("${") {
                *s = substitute(s, env, secrets).map_err(|name| (name, path.to_string()))?;
            }
            Ok(())
        }
        Node::Seq(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                interpolate(item, &join(path, &i.to_string()), env, secrets)?;
            }
            Ok(())
        }
        Node::Map(entries) => {
            for (k, v) in entries.iter_mut() {
                interpolate(v, &join(path, k), env, secrets)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Single pass over one string: `${` + one or more non-`}` characters + `}` is a placeholder
/// whose whole inner text is the name; `${}`, `$VAR` and an unclosed `${` stay literal; there
/// is no escape and substituted text is never rescanned.
pub(crate) fn substitute(
    s: &str,
    env: &dyn Fn(&str) -> Option<String>,
    secrets: &mut Vec<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) if end > 0 => {
                let name = &after[..end];
                let value = env(name).ok_or_else(|| name.to_string())?;
                if value.chars().count() >= 4 && !secrets.contains(&value) {
                    secrets.push(value.clone());
                }
                out.push_str(&value);
                rest = &after[end + 1..];
            }
            _ => {
                // Not a placeholder here; keep the `$` and rescan from the next character.
                out.push('$');
                rest = &rest[start + 1..];
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}
