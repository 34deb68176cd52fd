//! Every string a model reads of one tool (#13): `(location, kind, text)` for the name,
//! title, description and annotation title, and in the input and output schemas for
//! property names, descriptions, titles, `enum`/`const`/`default`/`examples` values,
//! `required` entries and `x-*` extension keys and values, at any depth.
//!
//! JSON values are trees, so the walk cannot cycle; it is bounded in depth and in the
//! number of strings it yields, so a hostile schema costs linear time at most.

use serde_json::{Map, Value};

/// Schema depth followed (the original's parameter walk uses the same bound).
const MAX_DEPTH: usize = 32;
/// Strings yielded per tool at most.
const MAX_ITEMS: usize = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The tool's title or `annotations.title`.
    Title,
    /// A parameter's (or output field's) description.
    Description,
    /// A schema `title`.
    SchemaTitle,
    /// A property name.
    PropertyName,
    /// An `enum`, `const`, `default` or `examples` value (or a string inside one).
    Value,
    /// A `required` entry that names no declared property.
    Required,
    /// An `x-*` key or a string under one.
    Extension,
    /// Another string of the tool object a model may be shown (an unknown top-level key).
    Other,
}

impl Kind {
    /// Identifiers: matched after `_`/`-`/camelCase are read as spaces.
    pub fn is_identifier(self) -> bool {
        matches!(self, Kind::PropertyName | Kind::Required)
    }

    /// A value a model may copy into a call as it is (shell and SQL payloads count here).
    pub fn is_value(self) -> bool {
        matches!(self, Kind::Value)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item<'a> {
    /// Path after the tool's name (`param.enum[2]`), empty for the tool's own name,
    /// description and title.
    pub path: String,
    /// Where it sits, for messages: `parameter "a" enum value`.
    pub place: String,
    pub kind: Kind,
    pub text: &'a str,
    /// A property of an object that is itself a request to a model (siblings `model` and
    /// `prompt` or `messages`: Rootly's OpenAI workflow task): its `system_prompt` is that
    /// request's, not the calling model's.
    pub model_request: bool,
    /// A property whose schema holds only a flag or a number (`type` boolean, integer or
    /// number): it cannot carry the context or secret its name may name.
    pub scalar: bool,
}

/// The `$ref`s of a schema that point at a document on another host (`https://…`, `//…`),
/// with their paths: at most a few, in document order. Under a remote `$id` a relative
/// `$ref` (`payload.json`, not a `#…` fragment, which names a part of the schema at hand)
/// resolves against that host too.
pub fn remote_refs<'a>(v: &'a Value, path: &str, depth: usize, out: &mut Vec<(String, &'a str)>) {
    refs_under(v, path, depth, false, out);
}

/// `urn:…`, `tag:…`: an absolute identifier, not a path on the base's host.
fn has_scheme(r: &str) -> bool {
    r.split_once(':').is_some_and(|(scheme, _)| {
        scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

fn is_remote(r: &str) -> bool {
    let r = r.trim_start().to_ascii_lowercase();
    ["http://", "https://", "ftp://", "//"]
        .iter()
        .any(|p| r.starts_with(p))
}

fn refs_under<'a>(
    v: &'a Value,
    path: &str,
    depth: usize,
    remote_base: bool,
    out: &mut Vec<(String, &'a str)>,
) {
    const MAX_REFS: usize = 4;
    if depth > MAX_DEPTH || out.len() >= MAX_REFS {
        return;
    }
    match v {
        Value::Object(m) => {
            // Draft 4 spells it `id`; a property named `id` holds a schema, not a string.
            let remote_base = remote_base
                || ["$id", "id"]
                    .iter()
                    .any(|k| m.get(*k).and_then(Value::as_str).is_some_and(is_remote));
            for (k, x) in m {
                if k == "$ref" {
                    if let Some(r) = x.as_str().filter(|r| {
                        let r = r.trim();
                        let relative = !r.is_empty() && !r.starts_with('#') && !has_scheme(r);
                        is_remote(r) || (remote_base && relative)
                    }) {
                        out.push((join(path, k), r));
                    }
                } else if !matches!(k.as_str(), "default" | "examples" | "const" | "enum") {
                    // Data, not schema: an example document may hold any `$ref`.
                    refs_under(x, &join(path, k), depth + 1, remote_base, out);
                }
                if out.len() >= MAX_REFS {
                    return;
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                refs_under(x, &format!("{path}[{i}]"), depth + 1, remote_base, out);
            }
        }
        _ => {}
    }
}

/// The strings of one tool in a stable order. The tool's description and the input
/// parameters' descriptions are not yielded: the family scans those in the original's
/// order and with its messages.
pub fn strings(tool: &Map<String, Value>) -> Vec<Item<'_>> {
    let mut w = Walker::new(MAX_ITEMS, "tool member");
    if let Some(t) = tool.get("title").and_then(Value::as_str) {
        w.push(String::new(), "title".into(), Kind::Title, t);
    }
    if let Some(a) = tool.get("annotations").and_then(Value::as_object) {
        if let Some(t) = a.get("title").and_then(Value::as_str) {
            w.push(
                "annotations.title".into(),
                "annotation title".into(),
                Kind::Title,
                t,
            );
        }
    }
    if let Some(s) = tool.get("inputSchema") {
        w.schema(s, String::new(), 0, false);
    }
    if let Some(s) = tool.get("outputSchema") {
        w.schema(s, "outputSchema".into(), 0, true);
    }
    // A member beyond the spec's hints is text a client may show the model too, and so is a
    // spec member of the wrong type (a hint given as a string). After the schemas, so that
    // padding here cannot spend the budget before them.
    if let Some(a) = tool.get("annotations").and_then(Value::as_object) {
        for (k, v) in a {
            let spec = match k.as_str() {
                "title" => v.is_string(),
                h => ANNOTATION_KEYS.contains(&h) && v.is_boolean(),
            };
            if !spec {
                w.values(v, format!("annotations.{k}"), Kind::Other, 0);
            }
        }
    }
    // `_meta` and `execution` carry labels, tags and URIs on real servers, but an attack puts
    // its order there too ("_meta": {"vendor/hint": "Ignore all previous instructions …"}:
    // mcp-tripwire's and mcp-security-inspector's corpora, round 29), and a client that
    // hands the model the whole tool object shows it. The spec's `taskSupport` is a keyword.
    for key in ["_meta", "execution"] {
        if let Some(m) = tool.get(key).and_then(Value::as_object) {
            for (k, v) in m {
                if !(key == "execution" && k == "taskSupport" && v.is_string()) {
                    w.values(v, format!("{key}.{k}"), Kind::Other, 0);
                }
            }
        }
    }
    w.unknown_members(tool, KNOWN_TOOL_KEYS);
    w.out
}

/// The strings of an object's members that are not in `known` (#14: a prompt, a prompt
/// argument, a resource or a template), as a tool's unknown members and `x-*` extensions
/// are walked; at most `budget` of them.
pub fn members<'a>(obj: &'a Map<String, Value>, known: &[&str], budget: usize) -> Vec<Item<'a>> {
    let mut w = Walker::new(budget.min(MAX_ITEMS), "member");
    w.unknown_members(obj, known);
    w.out
}

/// The annotations the spec defines: the title is walked above, the hints are booleans.
const ANNOTATION_KEYS: &[&str] = &[
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Tool members scanned on their own (or carrying no text a model reads as prose).
const KNOWN_TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
    "execution",
];

/// JSON Schema keywords (2020-12 and draft-07) whose string values are not prose.
const SCHEMA_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "default",
    "examples",
    "title",
    "description",
    "format",
    "pattern",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "readOnly",
    "writeOnly",
    "deprecated",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "nullable",
    "discriminator",
    "example",
];

struct Walker<'a> {
    out: Vec<Item<'a>>,
    /// Strings yielded at most.
    cap: usize,
    /// How messages name an unknown member (`tool member "x"`).
    other: &'static str,
}

/// Collects `(path, description)` of every parameter description (security.md §8), then —
/// beyond the original, because a model reads them too — `prefixItems` (`[]`),
/// `patternProperties` (`{}`), `not`/`if`/`then`/`else`/`dependentSchemas` (same path), and
/// `$defs`/`definitions` entries (`$defs.<name>` from the schema they sit in).
pub fn params<'a>(node: &'a Value, path: String, depth: usize, out: &mut Vec<(String, &'a str)>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(obj) = node.as_object() else {
        return;
    };
    if !path.is_empty() {
        if let Some(d) = obj
            .get("description")
            .and_then(Value::as_str)
            .filter(|d| !d.is_empty())
        {
            out.push((path.clone(), d));
        }
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            params(v, join(&path, k), depth + 1, out);
        }
    }
    match obj.get("items") {
        Some(Value::Array(items)) => {
            for it in items {
                params(it, format!("{path}[]"), depth + 1, out);
            }
        }
        Some(it) => params(it, format!("{path}[]"), depth + 1, out),
        None => {}
    }
    if let Some(ap) = obj.get("additionalProperties") {
        params(ap, format!("{path}{{}}"), depth + 1, out);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = obj.get(key).and_then(Value::as_array) {
            for b in branches {
                params(b, path.clone(), depth + 1, out);
            }
        }
    }
    // Additions (not in the original).
    if let Some(items) = obj.get("prefixItems").and_then(Value::as_array) {
        for it in items {
            params(it, format!("{path}[]"), depth + 1, out);
        }
    }
    if let Some(pp) = obj.get("patternProperties").and_then(Value::as_object) {
        for v in pp.values() {
            params(v, format!("{path}{{}}"), depth + 1, out);
        }
    }
    for key in ["not", "if", "then", "else"] {
        if let Some(v) = obj.get(key) {
            params(v, path.clone(), depth + 1, out);
        }
    }
    if let Some(ds) = obj.get("dependentSchemas").and_then(Value::as_object) {
        for v in ds.values() {
            params(v, path.clone(), depth + 1, out);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(defs) = obj.get(key).and_then(Value::as_object) {
            for (k, v) in defs {
                params(v, join(&path, &format!("{key}.{k}")), depth + 1, out);
            }
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn described(path: &str, output: bool) -> String {
    match (output, path.strip_prefix("outputSchema.")) {
        (true, Some(p)) => format!("output field \"{p}\""),
        (true, None) => "output schema".to_string(),
        (false, _) if path.is_empty() => "input schema".to_string(),
        _ => format!("parameter \"{path}\""),
    }
}

impl<'a> Walker<'a> {
    fn new(cap: usize, other: &'static str) -> Self {
        Walker {
            out: Vec::new(),
            cap,
            other,
        }
    }

    fn push(&mut self, path: String, place: String, kind: Kind, text: &'a str) {
        if self.out.len() < self.cap && !text.trim().is_empty() {
            self.out.push(Item {
                path,
                place,
                kind,
                text,
                model_request: false,
                scalar: false,
            });
        }
    }

    fn full(&self) -> bool {
        self.out.len() >= self.cap
    }

    /// An object's `x-*` extension keys and values, and the values of its members that are
    /// not in `known`.
    fn unknown_members(&mut self, obj: &'a Map<String, Value>, known: &[&str]) {
        for (k, v) in obj {
            if k.starts_with("x-") {
                self.push(
                    k.clone(),
                    format!("extension key \"{k}\""),
                    Kind::Extension,
                    k,
                );
                self.values(v, k.clone(), Kind::Extension, 0);
            } else if !known.contains(&k.as_str()) {
                self.values(v, k.clone(), Kind::Other, 0);
            }
        }
    }

    /// Strings inside a value (`enum` entries, `default` objects, extension payloads).
    fn values(&mut self, v: &'a Value, path: String, kind: Kind, depth: usize) {
        if depth > MAX_DEPTH || self.full() {
            return;
        }
        let other = self.other;
        let place = |p: &str| match kind {
            Kind::Extension => format!("extension \"{p}\""),
            Kind::Other => format!("{other} \"{p}\""),
            _ => format!("value \"{p}\""),
        };
        match v {
            Value::String(s) => {
                let pl = place(&path);
                self.push(path, pl, kind, s);
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    self.values(x, format!("{path}[{i}]"), kind, depth + 1);
                }
            }
            Value::Object(m) => {
                for (k, x) in m {
                    let p = join(&path, k);
                    if kind == Kind::Extension || kind == Kind::Other {
                        self.push(p.clone(), place(&p), kind, k);
                    }
                    self.values(x, p, kind, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn schema(&mut self, node: &'a Value, path: String, depth: usize, output: bool) {
        if depth > MAX_DEPTH || self.full() {
            return;
        }
        let Some(obj) = node.as_object() else {
            return;
        };
        let at = described(&path, output);
        // Input parameter descriptions are scanned by the family itself.
        if output || path.is_empty() {
            if let Some(d) = obj.get("description").and_then(Value::as_str) {
                self.push(
                    path.clone(),
                    format!("{at} description"),
                    Kind::Description,
                    d,
                );
            }
        }
        if let Some(t) = obj.get("title").and_then(Value::as_str) {
            self.push(
                join(&path, "title"),
                format!("{at} title"),
                Kind::SchemaTitle,
                t,
            );
        }
        for key in ["enum", "examples"] {
            if let Some(Value::Array(a)) = obj.get(key) {
                for (i, v) in a.iter().enumerate() {
                    let p = join(&path, &format!("{key}[{i}]"));
                    self.value_at(v, p, format!("{at} {key} value"), depth);
                }
            }
        }
        for key in ["const", "default"] {
            if let Some(v) = obj.get(key) {
                self.value_at(v, join(&path, key), format!("{at} {key} value"), depth);
            }
        }
        let props = obj.get("properties").and_then(Value::as_object);
        if let Some(props) = props {
            // A request to a model (`model` beside `prompt` or `messages`), or a model's own
            // settings (Open WebUI's `create_model`: `base_model_id` beside `temperature`,
            // session 25's capture): its `system_prompt` is that model's.
            let settings = ["temperature", "max_tokens", "maxTokens"]
                .iter()
                .any(|k| props.contains_key(*k));
            // A prompt sent with its sampling settings (ruflo's `agent_execute`: `prompt`,
            // `systemPrompt`, `maxTokens`, `temperature`; benign 21).
            let request = ((props.contains_key("model") || settings)
                && (props.contains_key("prompt")
                    || props.contains_key("messages")
                    // Gemini's generateContent (litellm's `generate_content`, benign 29).
                    || props.contains_key("contents")))
                || (["model_id", "base_model_id"]
                    .iter()
                    .any(|k| props.contains_key(*k))
                    && ["temperature", "max_tokens"]
                        .iter()
                        .any(|k| props.contains_key(*k)));
            for k in props.keys() {
                let p = join(&path, k);
                let pl = format!("{} name", described(&p, output));
                self.push(p, pl, Kind::PropertyName, k);
                let scalar = props[k]
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| matches!(t, "boolean" | "integer" | "number"));
                if let Some(last) = self.out.last_mut().filter(|i| i.text == k.as_str()) {
                    last.model_request = request;
                    last.scalar = scalar;
                }
            }
        }
        if let Some(req) = obj.get("required").and_then(Value::as_array) {
            for (i, r) in req.iter().enumerate() {
                if let Some(r) = r.as_str() {
                    if !props.is_some_and(|p| p.contains_key(r)) {
                        let p = join(&path, &format!("required[{i}]"));
                        self.push(p, format!("{at} required entry"), Kind::Required, r);
                    }
                }
            }
        }
        for (k, v) in obj {
            // `$comment` and keywords JSON Schema does not define are shown to the model
            // with the rest of the schema; their strings are prose like any other.
            if !k.starts_with("x-") && (k == "$comment" || !SCHEMA_KEYWORDS.contains(&k.as_str())) {
                if let Value::String(t) = v {
                    let p = join(&path, k);
                    self.push(p, format!("{at} member \"{k}\""), Kind::Extension, t);
                }
                continue;
            }
            if k.starts_with("x-") {
                let p = join(&path, k);
                self.push(
                    p.clone(),
                    format!("{at} extension key \"{k}\""),
                    Kind::Extension,
                    k,
                );
                self.values(v, p, Kind::Extension, depth + 1);
            }
        }
        if let Some(props) = props {
            for (k, v) in props {
                self.schema(v, join(&path, k), depth + 1, output);
            }
        }
        match obj.get("items") {
            Some(Value::Array(items)) => {
                for it in items {
                    self.schema(it, format!("{path}[]"), depth + 1, output);
                }
            }
            Some(it) => self.schema(it, format!("{path}[]"), depth + 1, output),
            None => {}
        }
        if let Some(items) = obj.get("prefixItems").and_then(Value::as_array) {
            for it in items {
                self.schema(it, format!("{path}[]"), depth + 1, output);
            }
        }
        for key in [
            "additionalProperties",
            "unevaluatedProperties",
            "contains",
            "propertyNames",
        ] {
            if let Some(v) = obj.get(key) {
                self.schema(v, format!("{path}{{}}"), depth + 1, output);
            }
        }
        if let Some(pp) = obj.get("patternProperties").and_then(Value::as_object) {
            for v in pp.values() {
                self.schema(v, format!("{path}{{}}"), depth + 1, output);
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(branches) = obj.get(key).and_then(Value::as_array) {
                for b in branches {
                    self.schema(b, path.clone(), depth + 1, output);
                }
            }
        }
        for key in ["not", "if", "then", "else"] {
            if let Some(v) = obj.get(key) {
                self.schema(v, path.clone(), depth + 1, output);
            }
        }
        if let Some(ds) = obj.get("dependentSchemas").and_then(Value::as_object) {
            for v in ds.values() {
                self.schema(v, path.clone(), depth + 1, output);
            }
        }
        for key in ["$defs", "definitions"] {
            if let Some(defs) = obj.get(key).and_then(Value::as_object) {
                for (k, v) in defs {
                    self.schema(v, join(&path, &format!("{key}.{k}")), depth + 1, output);
                }
            }
        }
    }

    fn value_at(&mut self, v: &'a Value, path: String, place: String, depth: usize) {
        match v {
            Value::String(s) => self.push(path, place, Kind::Value, s),
            other => self.values(other, path, Kind::Value, depth + 1),
        }
    }
}

/// Lower-cased ASCII words of an identifier: every non-alphanumeric character and each
/// camelCase step splits (`fetchURL_v2-web` → `fetch`, `url`, `v2`, `web`). The annotation
/// and secret rules read names this way.
pub fn identifier_parts(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in ident.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            cur.push(c.to_ascii_lowercase());
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// An identifier read as words: `content_from_reading_ssh_id_rsa` → `content from reading
/// ssh id rsa`, `systemPrompt` → `system Prompt`.
pub fn identifier_words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' {
            out.push(' ');
        } else {
            if c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase()) {
                out.push(' ');
            }
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(tool: Value) -> Vec<(String, Kind, String)> {
        let m = tool.as_object().unwrap().clone();
        let items = strings(&m);
        items
            .into_iter()
            .map(|i| (i.path, i.kind, i.text.to_string()))
            .collect()
    }

    #[test]
    fn yields_every_place() {
        let t = json!({
            "name": "t", "title": "T", "description": "d",
            "annotations": {"title": "A"},
            "x-note": "xn",
            "inputSchema": {"type": "object", "required": ["a", "ghost"],
                "properties": {"a": {"type": "string", "description": "pd", "title": "at",
                    "enum": ["e0", "e1"], "default": "df", "examples": ["ex"], "const": "c",
                    "x-hint": {"k": "v"},
                    "items": {"properties": {"deep": {"anyOf": [{"enum": ["n"]}]}}}}}},
            "outputSchema": {"type": "object", "properties": {"r": {"description": "od"}}}
        });
        let got = paths(t);
        let want: Vec<(&str, Kind, &str)> = vec![
            ("", Kind::Title, "T"),
            ("annotations.title", Kind::Title, "A"),
            ("a", Kind::PropertyName, "a"),
            ("required[1]", Kind::Required, "ghost"),
            ("a.title", Kind::SchemaTitle, "at"),
            ("a.enum[0]", Kind::Value, "e0"),
            ("a.enum[1]", Kind::Value, "e1"),
            ("a.examples[0]", Kind::Value, "ex"),
            ("a.const", Kind::Value, "c"),
            ("a.default", Kind::Value, "df"),
            ("a.x-hint", Kind::Extension, "x-hint"),
            ("a.x-hint.k", Kind::Extension, "k"),
            ("a.x-hint.k", Kind::Extension, "v"),
            ("a[].deep", Kind::PropertyName, "deep"),
            ("a[].deep.enum[0]", Kind::Value, "n"),
            ("outputSchema.r", Kind::PropertyName, "r"),
            ("outputSchema.r", Kind::Description, "od"),
            ("x-note", Kind::Extension, "x-note"),
            ("x-note", Kind::Extension, "xn"),
        ];
        let want: Vec<(String, Kind, String)> = want
            .into_iter()
            .map(|(p, k, t)| (p.to_string(), k, t.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    /// `_meta` and `execution` are walked (round 29), the spec's `taskSupport` keyword not.
    #[test]
    fn meta_and_execution_are_walked() {
        let t = json!({
            "name": "t", "inputSchema": {"type": "object"},
            "_meta": {"vendor/hint": "h", "fastmcp": {"tags": ["g"]}},
            "execution": {"taskSupport": "optional", "visibility": "v"}
        });
        let got: Vec<(String, String)> = paths(t).into_iter().map(|(p, _, t)| (p, t)).collect();
        let want = [
            ("_meta.vendor/hint", "h"),
            ("_meta.fastmcp.tags", "tags"),
            ("_meta.fastmcp.tags[0]", "g"),
            ("execution.visibility", "v"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn bounded_on_hostile_schemas() {
        let mut deep = json!({"type": "string"});
        for _ in 0..200 {
            deep = json!({"properties": {"p": deep}});
        }
        let t = json!({"name": "t", "inputSchema": deep});
        assert!(paths(t).len() <= MAX_DEPTH + 2);
        let wide: Vec<Value> = (0..50_000).map(|i| json!(format!("v{i}"))).collect();
        let t = json!({"name": "t", "inputSchema": {"properties": {"a": {"enum": wide}}}});
        assert_eq!(paths(t).len(), MAX_ITEMS);
    }

    #[test]
    fn identifiers_read_as_words() {
        assert_eq!(
            identifier_words("content_from_reading_ssh_id_rsa"),
            "content from reading ssh id rsa"
        );
        assert_eq!(identifier_words("systemPrompt"), "system Prompt");
        assert_eq!(identifier_words("user-context.data"), "user context data");
    }
}
