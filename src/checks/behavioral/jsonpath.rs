//! JSONPath for suite assertions.
//!
//! Paths in the original's minimal dialect (`$`, `.name`, `[n]`) are evaluated exactly as
//! the original did, quirks included (`.length` and `.0` on arrays, names running to the
//! next `.`/`[`). Anything beyond it (wildcards, `..`, filters, slices, unions, quoted
//! names) is RFC 9535 JSONPath, handed to jsonpath-rust. A query that can select several
//! nodes evaluates to the array of selected nodes; a singular one (RFC 9535 §2.3.5.1) to its
//! node or to nothing.

use jsonpath_rust::parser::model::{JpQuery, Segment, Selector};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    Name(String),
    Index(usize),
}

#[derive(Debug, Clone)]
pub enum Query {
    Simple(Vec<Seg>),
    Full { path: Box<JpQuery>, singular: bool },
}

enum Minimal {
    Ok(Vec<Seg>),
    /// Syntax the minimal dialect lacks; try the full parser.
    Beyond,
    /// An error of the minimal dialect that no dialect accepts.
    Err(String),
}

pub fn parse(path: &str) -> Result<Query, String> {
    match parse_minimal(path) {
        Minimal::Ok(segs) => Ok(Query::Simple(segs)),
        Minimal::Err(e) => Err(e),
        Minimal::Beyond => match full_parse(path) {
            Ok(p) => {
                if has_zero_step(&p) {
                    return Err("slice step must not be 0".into());
                }
                if let Some(e) = too_costly(&p) {
                    return Err(e.into());
                }
                let singular = is_singular(&p);
                Ok(Query::Full {
                    path: Box::new(p),
                    singular,
                })
            }
            Err(e) if e == TOO_COMPLEX => Err(e),
            Err(e) => Err(syntax_error(&e)),
        },
    }
}

/// Parser steps (pest calls) one path may take. jsonpath-rust's grammar backtracks
/// exponentially on some invalid paths (nested unclosed filters such as `$@[?(@@@@[?(@@@@…`,
/// found by fuzzing: 158 bytes took over 10 s); real paths, nested filters included, take a
/// few thousand.
const PARSE_STEPS: usize = 200_000;

const TOO_COMPLEX: &str = "JSONPath too complex to parse (parser step limit reached)";

fn full_parse(path: &str) -> Result<JpQuery, String> {
    static LIMIT: std::sync::Once = std::sync::Once::new();
    // Process-wide in pest; jsonpath-rust is its only user here.
    LIMIT.call_once(|| pest::set_call_limit(std::num::NonZeroUsize::new(PARSE_STEPS)));
    jsonpath_rust::parser::parse_json_path(path).map_err(|e| {
        let e = e.to_string();
        if e.contains("call limit reached") {
            TOO_COMPLEX.to_string()
        } else {
            e
        }
    })
}

/// pest's multi-line report reduced to one line: "... at position <col>: expected ...".
fn syntax_error(raw: &str) -> String {
    let flat = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let col = flat
        .split_once("--> ")
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(lc, _)| lc.split_once(':'))
        .map(|(_, c)| c.to_string());
    let what = flat.rsplit_once("= ").map(|(_, w)| w.to_string());
    match (col, what) {
        (Some(c), Some(w)) => format!("Unsupported JSONPath syntax at position {c}: {w}"),
        _ => format!("Unsupported JSONPath syntax: {flat}"),
    }
}

fn parse_minimal(path: &str) -> Minimal {
    let Some(mut rest) = path.strip_prefix('$') else {
        return Minimal::Err(format!("JSONPath must start with $, got: {path}"));
    };
    let mut segs = Vec::new();
    while let Some(c) = rest.chars().next() {
        match c {
            '.' => {
                let after = &rest[1..];
                let end = after.find(['.', '[']).unwrap_or(after.len());
                let name = &after[..end];
                if name.is_empty() {
                    if after.is_empty() {
                        break; // "$." is the root
                    }
                    return Minimal::Beyond; // ".." (descendants)
                }
                if name.contains('*') || name.ends_with("()") {
                    return Minimal::Beyond;
                }
                segs.push(Seg::Name(name.to_string()));
                rest = &after[end..];
            }
            '[' => {
                let Some(close) = rest.find(']') else {
                    return Minimal::Err(format!("Invalid array index: {}", &rest[1..]));
                };
                let text = &rest[1..close];
                let t = text.trim();
                if t.starts_with(['\'', '"', '*', '?']) || t.contains([':', ',']) {
                    return Minimal::Beyond;
                }
                if let Some(neg) = t.strip_prefix('-') {
                    if !neg.is_empty() && neg.bytes().all(|b| b.is_ascii_digit()) {
                        return Minimal::Err(format!(
                            "Negative array indices are not supported: {t}"
                        ));
                    }
                }
                if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                    return Minimal::Err(format!("Invalid array index: {text}"));
                }
                // Too large for usize: out of range of any array anyway.
                segs.push(Seg::Index(t.parse().unwrap_or(usize::MAX)));
                rest = &rest[close + 1..];
            }
            _ => return Minimal::Beyond,
        }
    }
    Minimal::Ok(segs)
}

/// RFC 9535 singular query: every segment a child segment selecting one name or index.
fn is_singular(p: &JpQuery) -> bool {
    let one = |s: &Selector| matches!(s, Selector::Name(_) | Selector::Index(_));
    p.segments.iter().all(|seg| match seg {
        Segment::Selector(s) => one(s),
        Segment::Selectors(v) => v.len() == 1 && one(&v[0]),
        Segment::Descendant(_) => false,
    })
}

/// A zero slice step selects nothing under RFC 9535; the original's users get told instead.
fn has_zero_step(p: &JpQuery) -> bool {
    let zero = |s: &Selector| matches!(s, Selector::Slice(_, _, Some(0)));
    fn inner(seg: &Segment, zero: &dyn Fn(&Selector) -> bool) -> bool {
        match seg {
            Segment::Selector(s) => zero(s),
            Segment::Selectors(v) => v.iter().any(zero),
            Segment::Descendant(s) => inner(s, zero),
        }
    }
    p.segments.iter().any(|seg| inner(seg, &zero))
}

/// Most `..` steps one path may have: k steps select up to (nodes × depth^(k-1)) nodes.
const MAX_DESCENTS: usize = 2;

/// Paths whose result grows as a power of the document's size (fuzz finding: the 30-byte
/// `$..*..*$.*..*..*$.*$..*..*$..*` took a second on a 20-node document): each `..` step
/// maps every selected node to all its descendants. (RFC 9535 has no `$` after the start of
/// a path outside filters, so the parser already rejects the fuzzer's mid-path `$`.)
fn too_costly(p: &JpQuery) -> Option<&'static str> {
    let descents = p
        .segments
        .iter()
        .filter(|s| matches!(s, Segment::Descendant(_)))
        .count();
    (descents > MAX_DESCENTS).then_some(
        "JSONPath has more than 2 `..` steps (its result grows as a power of the document)",
    )
}

/// The value at the path, or `None` when absent.
pub fn eval(q: &Query, root: &Value) -> Option<Value> {
    match q {
        Query::Simple(segs) => eval_simple(segs, root),
        Query::Full { path, singular } => {
            // Last line of defence against a panic inside the library on odd input, where
            // panics unwind (tests, fuzzing); the release build aborts instead (Cargo.toml).
            let found = std::panic::catch_unwind(|| {
                jsonpath_rust::query::js_path_process(path, root).map(|refs| {
                    refs.into_iter()
                        .map(|r| r.val().clone())
                        .collect::<Vec<Value>>()
                })
            })
            .ok()?
            .ok()?;
            if *singular {
                found.into_iter().next()
            } else {
                Some(Value::Array(found))
            }
        }
    }
}

fn eval_simple(segs: &[Seg], root: &Value) -> Option<Value> {
    let mut cur = root;
    for (i, seg) in segs.iter().enumerate() {
        cur = match (seg, cur) {
            (Seg::Name(n), Value::Object(m)) => m.get(n)?,
            (Seg::Name(n), Value::Array(items)) if n == "length" => {
                // A number has no members, so `.length` only yields a value when last.
                return (i + 1 == segs.len()).then(|| Value::from(items.len()));
            }
            (Seg::Name(n), Value::Array(items)) => items.get(array_own_index(n)?)?,
            (Seg::Index(k), Value::Array(items)) => items.get(*k)?,
            _ => return None,
        };
    }
    Some(cur.clone())
}

/// Canonical array-index strings as JavaScript property keys ("0", "12", not "01").
fn array_own_index(name: &str) -> Option<usize> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if name.len() > 1 && name.starts_with('0') {
        return None;
    }
    name.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({"name": "test", "nested": {"value": 42, "deep": {"array": [1, 2, 3]}},
               "items": [{"type": "text", "content": "hello"},
                         {"type": "image", "url": "https://example.com/img.png"}]})
    }

    fn at(path: &str) -> Option<Value> {
        eval(&parse(path).expect(path), &doc())
    }

    #[test]
    fn minimal_dialect_truth_table() {
        assert_eq!(at("$"), Some(doc()));
        assert_eq!(at("$."), Some(doc()));
        assert_eq!(at("$.name"), Some(json!("test")));
        assert_eq!(at("$.nested.value"), Some(json!(42)));
        assert_eq!(at("$.nested.deep.array"), Some(json!([1, 2, 3])));
        assert_eq!(
            at("$.items[0]"),
            Some(json!({"type": "text", "content": "hello"}))
        );
        assert_eq!(at("$.items[0].type"), Some(json!("text")));
        assert_eq!(
            at("$.items[1].url"),
            Some(json!("https://example.com/img.png"))
        );
        assert_eq!(at("$.nested.deep.array[0]"), Some(json!(1)));
        assert_eq!(at("$.nested.deep.array[2]"), Some(json!(3)));
        for absent in [
            "$.nonexistent",
            "$.nested.missing",
            "$.items[99]",
            "$.name[0]",
            "$.name.x",
        ] {
            assert_eq!(at(absent), None, "{absent}");
        }
        assert_eq!(at("$[0]"), None);
        assert_eq!(at("$.items[99999999999999999999999]"), None);
    }

    #[test]
    fn array_quirks_are_kept() {
        assert_eq!(at("$.items.length"), Some(json!(2)));
        assert_eq!(at("$.items.length.x"), None);
        assert_eq!(at("$.items.1.type"), Some(json!("image")));
        assert_eq!(at("$.items.01"), None);
        assert_eq!(at("$.items.type"), None);
        // Names run to the next '.' or '[' with no escaping: hyphens are fine.
        assert_eq!(
            eval(&parse("$.a-b c").unwrap(), &json!({"a-b c": 1})),
            Some(json!(1))
        );
    }

    #[test]
    fn parse_errors_name_the_problem() {
        let err = |p: &str| parse(p).expect_err(p);
        assert_eq!(err("name"), "JSONPath must start with $, got: name");
        assert_eq!(
            err("$.items[-1]"),
            "Negative array indices are not supported: -1"
        );
        assert_eq!(err("$.items[x]"), "Invalid array index: x");
        assert_eq!(err("$.items[a]"), "Invalid array index: a");
        assert_eq!(err("$.items[0"), "Invalid array index: 0");
        assert_eq!(err("$.items[]"), "Invalid array index: ");
        assert!(err("$.items[::0]").contains("step"));
        // The RFC 9535 grammar names its own rule (jsonpath-rust 0.7 said "atom").
        assert_eq!(
            err("$[?(@.x === 1)]"),
            "Unsupported JSONPath syntax at position 11: expected comparable"
        );
    }

    /// Fuzz finding (fuzz/seeds/jsonpath/nested-unclosed-filters.txt): this path took
    /// jsonpath-rust's parser over 10 s; with the step limit it is an error at once.
    #[test]
    fn pathological_paths_are_refused_not_parsed_forever() {
        let p = format!(
            "$@{}[@['",
            "[?(@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@".repeat(3)
        );
        // jsonpath-rust 0.7 backtracked for seconds here (the step limit stopped it); the
        // RFC 9535 grammar of 1.x rejects it at once. Either way: an error, not a hang.
        let e = parse(&p).unwrap_err();
        assert!(
            e == TOO_COMPLEX || e.starts_with("Unsupported JSONPath syntax"),
            "{e}"
        );
        // Deeply nested real filters stay well inside the limit.
        let nested = format!("${}{}", "[?(@.a[?(@.b".repeat(8), ")])]".repeat(8));
        assert!(parse(&nested).is_ok(), "{nested}");
    }

    /// Fuzz finding (fuzz/seeds/jsonpath/root-and-descents.txt): a path whose result grows
    /// as a power of the document took a second of CPU on a 20-node document.
    #[test]
    fn paths_whose_result_explodes_are_refused() {
        // RFC 9535 has no `$` after the start outside filters: a syntax error.
        assert!(parse("$..*..*$.*..*..*$.*$..*..*$..*").is_err());
        assert!(parse("$..a..b..c").unwrap_err().contains("more than 2"));
        assert!(parse("$..a..b").is_ok());
        // `$` inside a filter is the root as usual, not a restart of the chain.
        assert!(parse("$.items[?(@.n == $.max)]").is_ok());
    }

    #[test]
    fn full_syntax_beyond_the_minimal_dialect() {
        assert_eq!(at("$.items[*].type"), Some(json!(["text", "image"])));
        assert_eq!(at("$..value"), Some(json!([42])));
        assert_eq!(
            at("$.items[?(@.type == 'image')].url"),
            Some(json!(["https://example.com/img.png"]))
        );
        assert_eq!(at("$.nested.deep.array[0:2]"), Some(json!([1, 2])));
        assert_eq!(at("$.items[*].missing"), Some(json!([])));
        // Quoted names are singular: the node itself, or absent.
        assert_eq!(at("$['name']"), Some(json!("test")));
        assert_eq!(at("$['nope']"), None);
        // RFC 9535 forms: bare filter expressions, function extensions, negative indices
        // inside brackets that are not the minimal dialect's.
        assert_eq!(
            at("$.items[?@.type == 'text'].content"),
            Some(json!(["hello"]))
        );
        assert_eq!(
            at("$.items[?length(@.type) == 5].type"),
            Some(json!(["image"]))
        );
        assert_eq!(at("$.items[-1:].type"), Some(json!(["image"])));
    }
}
