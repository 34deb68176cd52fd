//! Where each key of the config file sits: the 1-based line of every key path of the
//! block-style YAML text (`server`, `checks.drift.baseline`, `suites[1].cases[0].name`).
//!
//! Reports anchor findings to the config file (SARIF regions, annotations); a finding about
//! `checks.latency` points at that key's line. This reads the text itself because the YAML
//! parser keeps no positions. It only locates keys, never decides validity: anything it does
//! not understand (flow collections, block scalars, anchors) simply has no line, and callers
//! fall back to a parent key or line 1.

use std::collections::BTreeMap;

/// Key path → first line (1-based) where it appears.
pub fn key_lines(text: &str) -> BTreeMap<String, usize> {
    locate(text)
}

struct Open {
    indent: usize,
    path: String,
    /// Items seen so far when this entry owns a sequence.
    items: usize,
}

fn locate(text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<Open> = Vec::new();
    // Inside a block scalar (`|`, `>`), lines indented deeper than this are text.
    let mut scalar_indent: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let indent = line.len() - line.trim_start_matches(' ').len();
        let body = &line[indent..];
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if let Some(si) = scalar_indent {
            if indent > si {
                continue;
            }
            scalar_indent = None;
        }
        if indent == 0 && (body.starts_with("---") || body.starts_with("...")) {
            stack.clear();
            continue;
        }
        let mut indent = indent;
        let mut body = body;
        // Sequence items: `- key: value` (possibly `- - x`, kept to the first level).
        while let Some(rest) = body
            .strip_prefix('-')
            .filter(|r| r.is_empty() || r.starts_with(' '))
        {
            while stack.last().is_some_and(|o| o.indent > indent) {
                stack.pop();
            }
            let Some(owner) = stack.last_mut() else { break };
            let path = format!("{}[{}]", owner.path, owner.items);
            owner.items += 1;
            out.entry(path.clone()).or_insert(line_no);
            stack.push(Open {
                indent: indent + 1,
                path,
                items: 0,
            });
            let trimmed = rest.trim_start_matches(' ');
            indent += 1 + (rest.len() - trimmed.len());
            body = trimmed;
        }
        let Some((key, value)) = split_key(body) else {
            continue;
        };
        while stack.last().is_some_and(|o| o.indent >= indent) {
            stack.pop();
        }
        let path = match stack.last() {
            Some(parent) => format!("{}.{key}", parent.path),
            None => key,
        };
        out.entry(path.clone()).or_insert(line_no);
        let value = value.trim();
        if value.starts_with('|') || value.starts_with('>') {
            scalar_indent = Some(indent);
        }
        stack.push(Open {
            indent,
            path,
            items: 0,
        });
    }
    out
}

/// `key: value` / `key:` / `"quoted key": value` → (key, value). Not a mapping entry → None.
fn split_key(body: &str) -> Option<(String, &str)> {
    if let Some(q) = body.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = body[1..].find(q)? + 1;
        let key = body[1..end].to_string();
        let rest = body[end + 1..].trim_start_matches(' ');
        let value = rest.strip_prefix(':')?;
        return (value.is_empty() || value.starts_with(' ')).then_some((key, value));
    }
    if body.starts_with(['{', '[', '&', '*', '!', '|', '>', '%', '@', '`']) {
        return None;
    }
    let mut from = 0;
    while let Some(at) = body[from..].find(':') {
        let at = from + at;
        let after = &body[at + 1..];
        if after.is_empty() || after.starts_with(' ') {
            let key = body[..at].trim_end();
            if key.is_empty() || key.contains(" #") {
                return None;
            }
            return Some((key.to_string(), after));
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "\
# mcpward config
server:
  transport: stdio
  command: node
  args: [\"server.js\", \"--port: 3\"]
  env:
    TOKEN: ${TOKEN}

checks:
  security: true
  drift:
    baseline: mcpward.lock.json
    fail_on:
      - tool_removed
      - description_changed
  latency:
    samples: 5
suites:
  - tool: echo
    cases:
      - name: hello
        args: { text: hi }
      - name: \"second: case\"
  - tool: add
    description: |
      not: a key
      server: nope
\"quoted key\": 1
url: http://example.test:8080/mcp
";

    #[test]
    fn block_keys_and_items() {
        let k = key_lines(CONFIG);
        for (path, line) in [
            ("server", 2),
            ("server.transport", 3),
            ("server.args", 5),
            ("server.env.TOKEN", 7),
            ("checks", 9),
            ("checks.drift", 11),
            ("checks.drift.baseline", 12),
            ("checks.drift.fail_on[1]", 15),
            ("checks.latency.samples", 17),
            ("suites[0]", 19),
            ("suites[0].tool", 19),
            ("suites[0].cases[1].name", 23),
            ("suites[1].tool", 24),
            ("suites[1].description", 25),
            ("quoted key", 28),
            ("url", 29),
        ] {
            assert_eq!(k.get(path), Some(&line), "{path}");
        }
        // Block scalar text is not keys.
        assert_eq!(k.get("suites[1].description.not"), None);
        assert_eq!(k.get("server.nope"), None);
        assert_eq!(k.get("suites[0].cases[0].args"), Some(&22));
    }

    #[test]
    fn sequences_at_the_parent_indent_and_documents() {
        let k = key_lines(
            "---\nsuites:\n- tool: a\n- tool: b\n  cases: []\nchecks: {security: true}\n",
        );
        assert_eq!(k.get("suites[0].tool"), Some(&3));
        assert_eq!(k.get("suites[1].tool"), Some(&4));
        assert_eq!(k.get("suites[1].cases"), Some(&5));
        assert_eq!(k.get("checks"), Some(&6));
        assert_eq!(k.get("checks.security"), None);
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            ":",
            "- - -",
            "\"unterminated: x",
            "a:\n  - \n  -",
            "\u{feff}server:\n",
            "é: ü\n  ö: 1",
            "- x\n- y",
            "a: 1\r\nb: 2\r\n",
            "? complex\n: value",
            "'': 1",
            "a:b: c",
        ] {
            let _ = key_lines(text);
        }
        assert_eq!(key_lines("a: 1\r\nb: 2\r\n").get("b"), Some(&2));
    }
}
