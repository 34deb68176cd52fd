//! Minimal, deterministic call arguments that validate against a tool's `inputSchema`.
//!
//! Unconstrained values are the spec's (B.2): `""`, `0`, `false`, `[]`, `{}`, `null`; only
//! required properties are filled. Constraints (`enum`, `const`, bounds, `multipleOf`,
//! `minLength`, `format`, `pattern`, `minItems`, `minProperties`, `$ref`, `allOf`,
//! `anyOf`, `oneOf`) are honoured where cheap. The result is always checked with the
//! validator; anything that does not validate is refused rather than sent.

use serde_json::{Map, Value};

/// Deeper schemas (or `$ref` cycles) give up.
const MAX_DEPTH: usize = 24;
/// More required items than this is not a "minimal" call.
const MAX_ITEMS: u64 = 64;

/// `None` when no valid arguments could be built; see [`generate_args`] for the reason.
pub fn minimal_args(input_schema: &Value) -> Option<Map<String, Value>> {
    generate_args(input_schema).ok()
}

/// Like [`minimal_args`], with the reason on failure. A missing (`null`) schema gives `{}`.
pub fn generate_args(input_schema: &Value) -> Result<Map<String, Value>, String> {
    if input_schema.is_null() {
        return Ok(Map::new());
    }
    let validator = crate::checks::common::compile_schema(input_schema)
        .map_err(|e| format!("its inputSchema does not compile: {e}"))?;
    let g = Gen { root: input_schema };
    let candidate = match g.value(input_schema, 0) {
        Some(Value::Object(m)) => Some(m),
        // The arguments must be an object whatever the root says (or omits).
        _ => match g.typed(input_schema.as_object(), "object", 0) {
            Some(Value::Object(m)) => Some(m),
            _ => None,
        },
    };
    let Some(args) = candidate else {
        return Err("no arguments satisfying its inputSchema could be generated".into());
    };
    let as_value = Value::Object(args);
    if validator.is_valid(&as_value) {
        match as_value {
            Value::Object(m) => Ok(m),
            _ => Err("internal: arguments are not an object".into()),
        }
    } else {
        Err("the generated arguments do not validate against its inputSchema".into())
    }
}

struct Gen<'a> {
    root: &'a Value,
}

impl Gen<'_> {
    fn value(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let o = match schema {
            Value::Bool(true) => return Some(Value::Null),
            Value::Object(o) => o,
            _ => return None,
        };
        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
            let target = self.resolve(r)?;
            let mut merged = target.as_object().cloned().unwrap_or_default();
            if target == &Value::Bool(false) {
                return None;
            }
            for (k, v) in o {
                if k != "$ref" {
                    merged.insert(k.clone(), v.clone());
                }
            }
            return self.value(&Value::Object(merged), depth + 1);
        }
        if let Some(c) = o.get("const") {
            return Some(c.clone());
        }
        if let Some(e) = o.get("enum").and_then(Value::as_array) {
            return e.first().cloned();
        }
        if let Some(all) = o.get("allOf").and_then(Value::as_array) {
            let mut merged = o.clone();
            merged.remove("allOf");
            for sub in all {
                let sub = self.deref(sub, depth)?;
                match sub {
                    Value::Bool(true) => {}
                    Value::Object(s) => merge_into(&mut merged, s),
                    _ => return None,
                }
            }
            return self.value(&Value::Object(merged), depth + 1);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = o.get(key).and_then(Value::as_array) {
                return self.choose(o, key, branches, depth);
            }
        }
        match o.get("type") {
            Some(Value::String(t)) => self.typed(Some(o), t, depth),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find_map(|t| self.typed(Some(o), t, depth)),
            _ => self.typed(Some(o), infer_type(o), depth),
        }
    }

    /// First branch whose value, merged with the sibling keywords, satisfies that branch
    /// (and, for `oneOf`, no other).
    fn choose(
        &self,
        o: &Map<String, Value>,
        key: &str,
        branches: &[Value],
        depth: usize,
    ) -> Option<Value> {
        let mut base = o.clone();
        base.remove(key);
        for (i, b) in branches.iter().enumerate() {
            let b = self.deref(b, depth)?;
            let mut merged = base.clone();
            match b {
                Value::Object(s) => merge_into(&mut merged, s),
                Value::Bool(true) => {}
                _ => continue,
            }
            let Some(v) = self.value(&Value::Object(merged), depth + 1) else {
                continue;
            };
            let fits = |s: &Value| self.valid_against(s, &v);
            if !fits(b) {
                continue;
            }
            if key == "oneOf"
                && branches
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && fits(other))
            {
                continue;
            }
            return Some(v);
        }
        None
    }

    /// Validates against a subschema, keeping the root's definitions reachable.
    fn valid_against(&self, sub: &Value, v: &Value) -> bool {
        let mut local = match sub {
            Value::Object(s) => s.clone(),
            Value::Bool(b) => return *b,
            _ => return false,
        };
        if let Some(root) = self.root.as_object() {
            for k in ["$schema", "$defs", "definitions"] {
                if let (Some(def), false) = (root.get(k), local.contains_key(k)) {
                    local.insert(k.into(), def.clone());
                }
            }
        }
        crate::checks::common::compile_schema(&Value::Object(local))
            .map(|val| val.is_valid(v))
            .unwrap_or(false)
    }

    fn deref<'s>(&'s self, s: &'s Value, depth: usize) -> Option<&'s Value> {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) if depth <= MAX_DEPTH && s.as_object().is_some_and(|o| o.len() == 1) => {
                self.deref(self.resolve(r)?, depth + 1)
            }
            _ => Some(s),
        }
    }

    /// Local references only (`#`, `#/$defs/x`, any JSON pointer into the root).
    fn resolve(&self, r: &str) -> Option<&Value> {
        let ptr = r.strip_prefix('#')?;
        if ptr.is_empty() {
            return Some(self.root);
        }
        let decoded = percent_decode(ptr);
        self.root.pointer(&decoded)
    }

    fn typed(&self, o: Option<&Map<String, Value>>, t: &str, depth: usize) -> Option<Value> {
        let empty = Map::new();
        let o = o.unwrap_or(&empty);
        match t {
            "string" => string_value(o),
            "integer" => number_value(o, true),
            "number" => number_value(o, false),
            "boolean" => Some(Value::Bool(false)),
            "null" => Some(Value::Null),
            "array" => self.array_value(o, depth),
            "object" => self.object_value(o, depth),
            _ => None,
        }
    }

    fn object_value(&self, o: &Map<String, Value>, depth: usize) -> Option<Value> {
        let empty = Map::new();
        let props = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let additional = o.get("additionalProperties");
        let mut out = Map::new();
        let required = o.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            if out.contains_key(name) {
                continue;
            }
            let v = match (props.get(name), additional) {
                (Some(ps), _) => self.value(ps, depth + 1)?,
                (None, Some(a @ Value::Object(_))) => self.value(a, depth + 1)?,
                (None, Some(Value::Bool(false))) => return None,
                _ => Value::Null,
            };
            out.insert(name.to_string(), v);
        }
        let min = o.get("minProperties").and_then(Value::as_u64).unwrap_or(0);
        for (name, ps) in props {
            if out.len() as u64 >= min {
                break;
            }
            if !out.contains_key(name) {
                if let Some(v) = self.value(ps, depth + 1) {
                    out.insert(name.clone(), v);
                }
            }
        }
        (out.len() as u64 >= min).then_some(Value::Object(out))
    }

    fn array_value(&self, o: &Map<String, Value>, depth: usize) -> Option<Value> {
        let min = o.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        if min > MAX_ITEMS {
            return None;
        }
        // 2020-12 tuples are `prefixItems` + `items`; older drafts use an `items` array.
        let (prefix, rest) = match (o.get("prefixItems"), o.get("items")) {
            (Some(Value::Array(p)), items) => (p.as_slice(), items.or(Some(&Value::Bool(true)))),
            (_, Some(Value::Array(p))) => (p.as_slice(), o.get("additionalItems")),
            (_, items) => (&[][..], items),
        };
        let any = Value::Bool(true);
        let mut out: Vec<Value> = Vec::new();
        for i in 0..min as usize {
            let s = prefix.get(i).or(rest).unwrap_or(&any);
            let mut v = self.value(s, depth + 1)?;
            if o.get("uniqueItems") == Some(&Value::Bool(true)) && out.contains(&v) {
                v = distinct(s, &out)?;
            }
            out.push(v);
        }
        Some(Value::Array(out))
    }
}

/// For `uniqueItems`: the next unused enum value, or an integer/string made distinct.
fn distinct(s: &Value, used: &[Value]) -> Option<Value> {
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        return e.iter().find(|v| !used.contains(v)).cloned();
    }
    let n = used.len();
    let cand = match s.get("type").and_then(Value::as_str) {
        Some("integer") | Some("number") => Value::from(n as i64),
        Some("string") => Value::String(format!("a{n}")),
        _ => return None,
    };
    (!used.contains(&cand)).then_some(cand)
}

fn infer_type(o: &Map<String, Value>) -> &'static str {
    let has = |ks: &[&str]| ks.iter().any(|k| o.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "patternProperties",
    ]) {
        "object"
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
    ]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        "null"
    }
}

/// Unions `properties` and `required`; other keywords keep their first value.
fn merge_into(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (k, v) in from {
        match (k.as_str(), into.get_mut(k), v) {
            ("properties", Some(Value::Object(a)), Value::Object(b)) => {
                for (pk, pv) in b {
                    a.entry(pk.clone()).or_insert_with(|| pv.clone());
                }
            }
            ("required", Some(Value::Array(a)), Value::Array(b)) => {
                for r in b {
                    if !a.contains(r) {
                        a.push(r.clone());
                    }
                }
            }
            (_, None, _) => {
                into.insert(k.clone(), v.clone());
            }
            _ => {}
        }
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn string_value(o: &Map<String, Value>) -> Option<Value> {
    let min = o.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    if min > 4096 {
        return None;
    }
    let mut s = match o
        .get("format")
        .and_then(Value::as_str)
        .and_then(format_example)
    {
        Some(f) => f.to_string(),
        None => match o.get("pattern").and_then(Value::as_str) {
            Some(p) => pattern_example(p).unwrap_or_default(),
            None => String::new(),
        },
    };
    let len = s.chars().count() as u64;
    if len < min {
        s.push_str(&"a".repeat((min - len) as usize));
    }
    Some(Value::String(s))
}

fn format_example(f: &str) -> Option<&'static str> {
    Some(match f {
        "date-time" => "1970-01-01T00:00:00Z",
        "date" => "1970-01-01",
        "time" => "00:00:00Z",
        "duration" => "P1D",
        "email" | "idn-email" => "a@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "ipv4" => "127.0.0.1",
        "ipv6" => "::1",
        "uri" | "iri" | "uri-reference" | "iri-reference" | "uri-template" => "https://example.com",
        "uuid" => "00000000-0000-0000-0000-000000000000",
        "relative-json-pointer" => "0",
        _ => return None,
    })
}

/// A short string matching `pattern` (best effort: the shortest path through the regex,
/// first alternative, minimum repetitions; look-arounds ignored).
pub(crate) fn pattern_example(pattern: &str) -> Option<String> {
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut out = String::new();
    walk(&hir, &mut out, 0)?;
    let re = regex::Regex::new(pattern).ok()?;
    re.is_match(&out).then_some(out)
}

fn walk(h: &regex_syntax::hir::Hir, out: &mut String, depth: usize) -> Option<()> {
    use regex_syntax::hir::{Class, HirKind};
    if depth > 64 || out.len() > 4096 {
        return None;
    }
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(l) => out.push_str(std::str::from_utf8(&l.0).ok()?),
        HirKind::Class(Class::Unicode(c)) => {
            let has = |ch: char| c.ranges().iter().any(|r| r.start() <= ch && ch <= r.end());
            let ch = ['a', '0', 'A', '_', '-', ' ']
                .into_iter()
                .find(|ch| has(*ch))
                .or_else(|| c.ranges().first().map(|r| r.start()))?;
            out.push(ch);
        }
        HirKind::Class(Class::Bytes(c)) => {
            let b = c.ranges().first()?.start();
            out.push(char::from(b).is_ascii().then_some(char::from(b))?);
        }
        HirKind::Repetition(r) => {
            for _ in 0..r.min.min(256) {
                walk(&r.sub, out, depth + 1)?;
            }
        }
        HirKind::Capture(c) => walk(&c.sub, out, depth + 1)?,
        HirKind::Concat(parts) => {
            for p in parts {
                walk(p, out, depth + 1)?;
            }
        }
        HirKind::Alternation(alts) => walk(alts.first()?, out, depth + 1)?,
    }
    Some(())
}

fn number_value(o: &Map<String, Value>, integer: bool) -> Option<Value> {
    let num = |k: &str| o.get(k).and_then(Value::as_f64);
    // Draft 4 spells exclusivity as booleans next to minimum/maximum.
    let (lo, lo_excl) = match (num("minimum"), o.get("exclusiveMinimum")) {
        (m, Some(Value::Bool(true))) => (m, true),
        (m, Some(Value::Number(x))) => match (m, x.as_f64()) {
            (Some(m), Some(x)) if m > x => (Some(m), false),
            (_, x) => (x, true),
        },
        (m, _) => (m, false),
    };
    let (hi, hi_excl) = match (num("maximum"), o.get("exclusiveMaximum")) {
        (m, Some(Value::Bool(true))) => (m, true),
        (m, Some(Value::Number(x))) => match (m, x.as_f64()) {
            (Some(m), Some(x)) if m < x => (Some(m), false),
            (_, x) => (x, true),
        },
        (m, _) => (m, false),
    };
    let step = num("multipleOf").filter(|m| *m > 0.0);
    let ok = |x: f64| {
        x.is_finite()
            && lo.is_none_or(|l| x > l || (x == l && !lo_excl))
            && hi.is_none_or(|h| x < h || (x == h && !hi_excl))
            && (!integer || x.fract() == 0.0)
            && step.is_none_or(|m| {
                let q = x / m;
                (q - q.round()).abs() < 1e-9
            })
    };
    let mut candidates = vec![0.0];
    if let Some(l) = lo {
        let mut c = if integer {
            if lo_excl {
                l.floor() + 1.0
            } else {
                l.ceil()
            }
        } else if lo_excl {
            match hi {
                Some(h) if l + 1.0 >= h => (l + h) / 2.0,
                _ => l + 1.0,
            }
        } else {
            l
        };
        if let Some(m) = step {
            c = (c / m).ceil() * m;
            if c == l && lo_excl {
                c += m;
            }
        }
        candidates.push(c);
    }
    if let Some(h) = hi {
        let mut c = if integer {
            if hi_excl {
                h.ceil() - 1.0
            } else {
                h.floor()
            }
        } else if hi_excl {
            h - 1.0
        } else {
            h
        };
        if let Some(m) = step {
            c = (c / m).floor() * m;
            if c == h && hi_excl {
                c -= m;
            }
        }
        candidates.push(c);
    }
    let x = candidates.into_iter().find(|c| ok(*c))?;
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Some(Value::from(x as i64))
    } else {
        serde_json::Number::from_f64(x).map(Value::Number)
    }
}
