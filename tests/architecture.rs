//! The layering of `src/` (docs/architecture.md), checked from the source text: no import
//! cycle between source files, and no room imports a room above it.
//!
//! An edge A → B means file A names a module path that resolves to file B: `use` items,
//! inline `crate::…` / `super::…` / `self::…` paths, and paths through a child module A
//! declares. A path resolves to the longest module prefix that is a file, so a name a
//! `mod.rs` re-exports counts as an edge to that `mod.rs`: a child that refers back to its
//! parent's re-exports closes a cycle. Test-only code (`#[cfg(test)]` modules and the files
//! they declare) is left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

struct Tree {
    /// Module path → file (relative to `src/`).
    files: BTreeMap<Module, String>,
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn module_of(rel: &str) -> Module {
    let stem = rel.strip_suffix(".rs").expect(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Drops comments (line and block) and the contents of string literals, so paths inside
/// them are not taken for references. Raw strings `r#"…"#` are handled.
fn strip_comments_and_strings(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 1;
            i += 2;
            while i < b.len() && depth > 0 {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\'', '\u{..}') or a lifetime ('a).
            let rest = &src[i + 1..];
            match rest.chars().next() {
                Some('\\') => match rest.get(2..).and_then(|r| r.find('\'')) {
                    Some(k) => {
                        out.push_str("' '");
                        i += 1 + 2 + k + 1;
                    }
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                },
                Some(ch) if rest[ch.len_utf8()..].starts_with('\'') => {
                    out.push_str("' '");
                    i += 1 + ch.len_utf8() + 1;
                }
                _ => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = src[i..].chars().next().expect("char");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Removes `#[cfg(test)]` items that are modules; returns the names of test-only child
/// files they declare (`#[cfg(test)] mod tests;`).
fn strip_test_modules(src: &str, test_children: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let item = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        let Some(m) = item.strip_prefix("mod ") else {
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        };
        let name: String = m
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let tail = m[name.len()..].trim_start();
        if let Some(t) = tail.strip_prefix(';') {
            test_children.push(name);
            rest = t;
        } else if let Some(body) = tail.strip_prefix('{') {
            let mut depth = 1;
            let mut end = body.len();
            for (k, ch) in body.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &body[end..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Expands a `use` tree (`a::{b, c::{d as e}}`) into paths.
fn expand_use(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut start = 0;
        let bytes = inner.as_bytes();
        for k in 0..=bytes.len() {
            let ch = bytes.get(k).copied().unwrap_or(b',');
            match ch {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b',' if depth == 0 => {
                    let item = inner[start..k.min(inner.len())].trim();
                    if !item.is_empty() {
                        expand_use(item, prefix, out);
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
        return;
    }
    if let Some(at) = tree.find("::{") {
        let head: Vec<String> = tree[..at]
            .split("::")
            .map(|s| s.trim().to_string())
            .collect();
        let n = head.len();
        prefix.extend(head);
        expand_use(&tree[at + 2..], prefix, out);
        prefix.truncate(prefix.len() - n);
        return;
    }
    let mut p = prefix.clone();
    for seg in tree.split("::") {
        let seg = seg.split(" as ").next().unwrap_or("").trim();
        p.push(seg.to_string());
    }
    out.push(p);
}

fn references(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    // `use` items.
    let b = code.as_bytes();
    let mut i = 0;
    while let Some(k) = code[i..].find("use ") {
        let at = i + k;
        i = at + 4;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let Some(end) = code[i..].find(';') else {
            break;
        };
        let tree: String = code[i..i + end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        expand_use(&tree, &mut Vec::new(), &mut paths);
    }
    // Inline paths rooted at crate/super/self or at a declared child module.
    let mut roots: Vec<&str> = vec!["crate", "super", "self", "mcpward"];
    roots.extend(children.iter().map(String::as_str));
    for root in roots {
        let pat = format!("{root}::");
        let mut j = 0;
        while let Some(k) = code[j..].find(&pat) {
            let at = j + k;
            j = at + pat.len();
            if at > 0 && (is_ident(b[at - 1]) || (b[at - 1] == b':' && at > 1 && b[at - 2] == b':'))
            {
                continue;
            }
            let mut p = vec![root.to_string()];
            let mut e = j;
            loop {
                let s = e;
                while e < b.len() && is_ident(b[e]) {
                    e += 1;
                }
                if e == s {
                    break;
                }
                p.push(code[s..e].to_string());
                if code[e..].starts_with("::") && code[e + 2..].bytes().next().is_some_and(is_ident)
                {
                    e += 2;
                } else {
                    break;
                }
            }
            // `super::{a, b}` is a `use` group, expanded above.
            if p.len() > 1 {
                paths.push(p);
            }
        }
    }
    paths
}

fn tree() -> Tree {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    walk(&src, &mut all);
    let mut files = BTreeMap::new();
    let mut texts = BTreeMap::new();
    let mut test_only: BTreeSet<Module> = BTreeSet::new();
    for p in &all {
        let rel = p
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let module = module_of(&rel);
        let text = std::fs::read_to_string(p).expect("read source");
        let mut test_children = Vec::new();
        let code = strip_test_modules(&strip_comments_and_strings(&text), &mut test_children);
        for c in test_children {
            let mut m = module.clone();
            m.push(c);
            test_only.insert(m);
        }
        files.insert(module.clone(), rel);
        texts.insert(module, code);
    }
    // A test-only file's own children are test-only too.
    let test_only: BTreeSet<Module> = files
        .keys()
        .filter(|m| test_only.iter().any(|t| m.starts_with(t)))
        .cloned()
        .collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, code) in &texts {
        if test_only.contains(module) {
            continue;
        }
        let children: Vec<String> = files
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m.last().expect("child").clone())
            .collect();
        let mut targets = BTreeSet::new();
        for path in references(code, &children) {
            let Some(first) = path.first() else { continue };
            let (mut base, rest): (Module, &[String]) = match first.as_str() {
                "crate" | "mcpward" => (Vec::new(), &path[1..]),
                "self" => (module.clone(), &path[1..]),
                "super" => {
                    let mut base = module.clone();
                    base.pop();
                    let mut rest = &path[1..];
                    while rest.first().map(String::as_str) == Some("super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                    (base, rest)
                }
                c if children.iter().any(|x| x == c) => (module.clone(), &path[..]),
                _ => continue,
            };
            base.extend(rest.iter().cloned());
            let resolved = (0..=base.len())
                .rev()
                .map(|k| base[..k].to_vec())
                .find(|m| files.contains_key(m));
            if let Some(target) = resolved {
                if !target.is_empty() && &target != module && !test_only.contains(&target) {
                    targets.insert(target);
                }
            }
        }
        edges.insert(module.clone(), targets);
    }
    Tree { files, edges }
}

/// Strongly connected components with more than one file (Tarjan, iterative).
fn cycles(t: &Tree) -> Vec<Vec<String>> {
    let nodes: Vec<&Module> = t.files.keys().collect();
    let idx: BTreeMap<&Module, usize> = nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            t.edges
                .get(*m)
                .map(|s| s.iter().filter_map(|x| idx.get(x).copied()).collect())
                .unwrap_or_default()
        })
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut work = vec![(s, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = adj[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(t.files[nodes[w]].clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    out.push(comp);
                }
            }
        }
    }
    out
}

#[test]
fn no_import_cycle_between_source_files() {
    let t = tree();
    assert!(t.files.len() > 50, "walked {} files", t.files.len());
    if let Ok(which) = std::env::var("MCPWARD_ARCH_EDGES") {
        for (from, to) in &t.edges {
            if t.files[from].starts_with(&which) {
                let names: Vec<&String> = to.iter().map(|m| &t.files[m]).collect();
                println!("{} -> {names:?}", t.files[from]);
            }
        }
    }
    let found = cycles(&t);
    assert!(
        found.is_empty(),
        "import cycles between source files of src/ (see docs/architecture.md):\n{}",
        found
            .iter()
            .map(|c| format!("  {}", c.join(" ↔ ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_cycle_finder_can_fail() {
    // Positive control: the extractor sees the edges a cycle is made of.
    let code = strip_test_modules(
        &strip_comments_and_strings(
            "use crate::a::{b::C, d as e};\nfn f() { super::x::y(); child::z(); \"crate::s::t\"; } // crate::c::d\n#[cfg(test)]\nmod tests { use crate::q::r; }",
        ),
        &mut Vec::new(),
    );
    let refs = references(&code, &["child".to_string()]);
    let flat: Vec<String> = refs.iter().map(|p| p.join("::")).collect();
    for want in ["crate::a::b::C", "crate::a::d", "super::x::y", "child::z"] {
        assert!(flat.contains(&want.to_string()), "{want} in {flat:?}");
    }
    for never in ["crate::s::t", "crate::c::d", "crate::q::r"] {
        assert!(
            !flat.iter().any(|f| f.starts_with(never)),
            "{never} in {flat:?}"
        );
    }
    let mut t = Tree {
        files: BTreeMap::new(),
        edges: BTreeMap::new(),
    };
    for (m, f) in [("a", "a.rs"), ("b", "b.rs"), ("c", "c.rs")] {
        t.files.insert(vec![m.to_string()], f.to_string());
    }
    let e = |x: &str| vec![x.to_string()];
    t.edges.insert(e("a"), [e("b")].into());
    t.edges.insert(e("b"), [e("c")].into());
    assert!(cycles(&t).is_empty());
    t.edges.insert(e("c"), [e("a")].into());
    assert_eq!(cycles(&t), vec![vec!["a.rs", "b.rs", "c.rs"]]);
}

/// Checks and the surface are pure functions of observations: they never reach the wire.
#[test]
fn checks_and_surface_never_import_transport() {
    let t = tree();
    let mut bad = Vec::new();
    for (from, to) in &t.edges {
        let low = matches!(from.first().map(String::as_str), Some("checks" | "surface"));
        for target in to {
            if low && target.first().map(String::as_str) == Some("transport") {
                bad.push(format!("{} → {}", t.files[from], t.files[target]));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The room a module belongs to (docs/architecture.md): its top-level module, except that
/// `rules::types` (what a rule is) sits below the checks while `rules` (the registry) sits
/// above them.
fn room(m: &Module) -> String {
    match m.as_slice() {
        [first, second, ..] if first == "rules" && second == "types" => "rules::types".into(),
        [first, ..] => first.clone(),
        [] => "lib".into(),
    }
}

const LEAVES: &[&str] = &[
    "model",
    "observed",
    "protocol",
    "rules::types",
    "fsutil",
    "heap",
];

/// What each room may import (besides itself), docs/architecture.md's table.
fn allowed(room: &str) -> Option<Vec<&'static str>> {
    let with_leaves = |more: &[&'static str]| {
        let mut v: Vec<&'static str> = LEAVES.to_vec();
        v.extend_from_slice(more);
        Some(v)
    };
    match room {
        "model" | "observed" | "fsutil" | "heap" => Some(vec![]),
        "protocol" => Some(vec!["observed"]),
        "rules::types" => Some(vec!["model"]),
        "surface" => with_leaves(&[]),
        "checks" => with_leaves(&["surface"]),
        "rules" => with_leaves(&["checks"]),
        "redact" => with_leaves(&["surface"]),
        "transport" => with_leaves(&["surface", "redact"]),
        "report" => with_leaves(&["surface", "rules", "redact"]),
        "config" => with_leaves(&["surface", "checks", "redact"]),
        "runner" | "drift_run" => with_leaves(&[
            "surface",
            "checks",
            "rules",
            "redact",
            "transport",
            "report",
            "config",
            "runner",
            "drift_run",
        ]),
        // A fleet tests servers through the runner; only the CLI is above it.
        "fleet" => with_leaves(&[
            "surface",
            "checks",
            "rules",
            "redact",
            "transport",
            "report",
            "config",
            "runner",
            "drift_run",
        ]),
        "publish" => with_leaves(&["surface", "report", "redact"]),
        "cli" | "main" | "lib" => None,
        _ => Some(vec![]),
    }
}

#[test]
fn rooms_import_only_the_rooms_below_them() {
    let t = tree();
    let mut bad = Vec::new();
    for (from, to) in &t.edges {
        let r = room(from);
        let Some(ok) = allowed(&r) else { continue };
        for target in to {
            let tr = room(target);
            if tr != r && !ok.contains(&tr.as_str()) {
                bad.push(format!(
                    "{} ({r}) → {} ({tr})",
                    t.files[from], t.files[target]
                ));
            }
            // A family never imports another family (shared code lives in checks/common.rs).
            if r == "checks" && from.len() > 1 && target.len() > 1 && target[0] == "checks" {
                let shared = ["common", "tool_args"];
                if from[1] != target[1] && !shared.contains(&target[1].as_str()) {
                    bad.push(format!(
                        "{} → {}: a family imports another family",
                        t.files[from], t.files[target]
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports against docs/architecture.md's layer table:\n{}",
        bad.join("\n")
    );
}
