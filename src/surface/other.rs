//! The surface besides tools (#14): prompts, resources, resource templates and the server's
//! instructions — how they are captured from what the server listed, stored as additive
//! top-level lockfile members, read back, and compared. A member that a lockfile does not
//! hold is "not pinned" and never compared (never "all removed"). Descriptions are
//! canonicalized and hashed with the tool description rules. Pure.

use super::canonical::{canonicalize_description, sha256_tag};
use super::drift_vocab::{Change, DriftClass, SurfaceSet};
use super::json::{js_key_order, path_segment, type_name};
use super::rename::{pair_renames, Candidate};
use crate::observed::{Listing, OtherSurface};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The lockfile members, in file order (after `tools`, before `meta`).
pub const MEMBERS: [&str; 4] = ["prompts", "resources", "resourceTemplates", "instructions"];

/// A description as pinned: its hash, and its canonical text unless `full_text` is off.
#[derive(Debug, Clone, PartialEq)]
pub struct Described {
    pub hash: String,
    pub text: Option<String>,
}

impl Described {
    fn of(raw: &str, full_text: bool) -> Self {
        let canonical = canonicalize_description(raw);
        Described {
            hash: sha256_tag(&canonical),
            text: full_text.then_some(canonical),
        }
    }
    /// What a change shows: the text, or the hash when the text was not stored.
    fn shown(&self) -> Value {
        Value::String(self.text.clone().unwrap_or_else(|| self.hash.clone()))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PromptEntry {
    pub title: Option<String>,
    pub description: Described,
    /// By argument name, in JavaScript key order.
    pub arguments: Vec<(String, ArgumentEntry)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArgumentEntry {
    pub title: Option<String>,
    pub description: Described,
    pub required: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResourceEntry {
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Described,
    pub mime_type: Option<String>,
    /// Only when the server gave one (a number).
    pub size: Option<Value>,
    pub annotations: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TemplateEntry {
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Described,
    pub mime_type: Option<String>,
}

/// The pinned members; `None` = not pinned (not in `checks.drift.surface`, or an older file).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OtherPinned {
    /// By name.
    pub prompts: Option<Vec<(String, PromptEntry)>>,
    /// By uri.
    pub resources: Option<Vec<(String, ResourceEntry)>>,
    /// By uriTemplate.
    pub resource_templates: Option<Vec<(String, TemplateEntry)>>,
    /// `Some(None)`: pinned, the server gave no instructions (distinct from empty ones).
    pub instructions: Option<Option<Described>>,
}

// ---------------------------------------------------------------------------------------
// Capture

fn str_of<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

fn title_of(item: &Value) -> Option<String> {
    str_of(item, "title").map(canonicalize_description)
}

/// Keyed entries: a repeated key keeps its first position and the later value (as tools),
/// then JavaScript key order (the file is an object keyed by it).
fn keyed<E>(items: impl IntoIterator<Item = (String, E)>) -> Vec<(String, E)> {
    let mut entries: Vec<(String, E)> = Vec::new();
    let mut slot: HashMap<String, usize> = HashMap::new();
    for (k, e) in items {
        match slot.get(&k) {
            Some(&i) => entries[i].1 = e,
            None => {
                slot.insert(k.clone(), entries.len());
                entries.push((k, e));
            }
        }
    }
    let order: Vec<usize> = js_key_order(entries.iter().map(|(k, _)| k.as_str()))
        .into_iter()
        .map(|k| slot[k])
        .collect();
    let mut taken: Vec<Option<(String, E)>> = entries.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| taken[i].take()).collect()
}

fn capture_prompt(item: &Value, full_text: bool) -> Option<(String, PromptEntry)> {
    let name = str_of(item, "name")?;
    let args = item
        .get("arguments")
        .and_then(Value::as_array)
        .map(|a| a.as_slice())
        .unwrap_or(&[]);
    let arguments = keyed(args.iter().filter_map(|a| {
        Some((
            str_of(a, "name")?.to_string(),
            ArgumentEntry {
                title: title_of(a),
                description: Described::of(str_of(a, "description").unwrap_or(""), full_text),
                required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
            },
        ))
    }));
    Some((
        name.to_string(),
        PromptEntry {
            title: title_of(item),
            description: Described::of(str_of(item, "description").unwrap_or(""), full_text),
            arguments,
        },
    ))
}

fn capture_resource(item: &Value, full_text: bool) -> Option<(String, ResourceEntry)> {
    let uri = str_of(item, "uri")?;
    Some((
        uri.to_string(),
        ResourceEntry {
            name: str_of(item, "name").map(str::to_string),
            title: title_of(item),
            description: Described::of(str_of(item, "description").unwrap_or(""), full_text),
            mime_type: str_of(item, "mimeType").map(str::to_string),
            size: item.get("size").filter(|v| v.is_number()).cloned(),
            annotations: item
                .get("annotations")
                .and_then(Value::as_object)
                .map(super::json::js_ordered),
        },
    ))
}

fn capture_template(item: &Value, full_text: bool) -> Option<(String, TemplateEntry)> {
    let uri = str_of(item, "uriTemplate")?;
    Some((
        uri.to_string(),
        TemplateEntry {
            name: str_of(item, "name").map(str::to_string),
            title: title_of(item),
            description: Described::of(str_of(item, "description").unwrap_or(""), full_text),
            mime_type: str_of(item, "mimeType").map(str::to_string),
        },
    ))
}

/// One list: not declared ⇒ pinned empty (the server offers none, so one added later is
/// drift); a failed listing fails the capture. Items without their key are skipped.
fn capture_list<E: Send>(
    what: &str,
    listing: &Option<Listing>,
    full_text: bool,
    one: fn(&Value, bool) -> Option<(String, E)>,
) -> Result<Vec<(String, E)>, String> {
    match listing {
        None => Ok(Vec::new()),
        Some(Err(e)) => Err(format!("Failed to list {what}: {e}")),
        Some(Ok(items)) => Ok(keyed(
            super::parallel_map(items, |i| one(i, full_text))
                .into_iter()
                .flatten(),
        )),
    }
}

/// The members `set` asks for, from the listed surface and the server's instructions
/// (`ServerHello::instructions`; a non-string value counts as none).
pub fn capture_other(
    other: &OtherSurface,
    instructions: Option<&Value>,
    set: SurfaceSet,
    full_text: bool,
) -> Result<OtherPinned, String> {
    let mut out = OtherPinned::default();
    if set.prompts {
        out.prompts = Some(capture_list(
            "prompts",
            &other.prompts,
            full_text,
            capture_prompt,
        )?);
    }
    if set.resources {
        out.resources = Some(capture_list(
            "resources",
            &other.resources,
            full_text,
            capture_resource,
        )?);
    }
    if set.resource_templates {
        out.resource_templates = Some(capture_list(
            "resource templates",
            &other.resource_templates,
            full_text,
            capture_template,
        )?);
    }
    if set.instructions {
        out.instructions = Some(
            instructions
                .and_then(Value::as_str)
                .map(|s| Described::of(s, full_text)),
        );
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Lockfile members

fn opt_str(v: &Option<String>) -> Value {
    v.clone().map_or(Value::Null, Value::String)
}

fn put_described(m: &mut Map<String, Value>, d: &Described) {
    m.insert("descriptionHash".into(), d.hash.clone().into());
    m.insert("description".into(), opt_str(&d.text));
}

impl PromptEntry {
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("title".into(), opt_str(&self.title));
        put_described(&mut m, &self.description);
        let mut args = Map::new();
        for (name, a) in &self.arguments {
            let mut am = Map::new();
            am.insert("title".into(), opt_str(&a.title));
            put_described(&mut am, &a.description);
            am.insert("required".into(), a.required.into());
            args.insert(name.clone(), Value::Object(am));
        }
        m.insert("arguments".into(), Value::Object(args));
        Value::Object(m)
    }
}

impl ResourceEntry {
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), opt_str(&self.name));
        m.insert("title".into(), opt_str(&self.title));
        put_described(&mut m, &self.description);
        m.insert("mimeType".into(), opt_str(&self.mime_type));
        if let Some(size) = &self.size {
            m.insert("size".into(), size.clone());
        }
        m.insert(
            "annotations".into(),
            self.annotations.clone().map_or(Value::Null, Value::Object),
        );
        Value::Object(m)
    }
}

impl TemplateEntry {
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), opt_str(&self.name));
        m.insert("title".into(), opt_str(&self.title));
        put_described(&mut m, &self.description);
        m.insert("mimeType".into(), opt_str(&self.mime_type));
        Value::Object(m)
    }
}

fn instructions_value(d: &Option<Described>) -> Value {
    match d {
        None => Value::Null,
        Some(d) => {
            let mut m = Map::new();
            m.insert("textHash".into(), d.hash.clone().into());
            m.insert("text".into(), opt_str(&d.text));
            Value::Object(m)
        }
    }
}

fn keyed_value<E>(entries: &[(String, E)], f: impl Fn(&E) -> Value) -> Value {
    Value::Object(entries.iter().map(|(k, e)| (k.clone(), f(e))).collect())
}

impl OtherPinned {
    /// The pinned members as (lockfile member, value), in file order.
    pub fn members(&self) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        if let Some(p) = &self.prompts {
            out.push((MEMBERS[0], keyed_value(p, PromptEntry::to_value)));
        }
        if let Some(r) = &self.resources {
            out.push((MEMBERS[1], keyed_value(r, ResourceEntry::to_value)));
        }
        if let Some(t) = &self.resource_templates {
            out.push((MEMBERS[2], keyed_value(t, TemplateEntry::to_value)));
        }
        if let Some(i) = &self.instructions {
            out.push((MEMBERS[3], instructions_value(i)));
        }
        out
    }

    /// What `baseline` prints besides the tool count, e.g. `3 prompt(s), 2 resource(s),
    /// 0 resource template(s), instructions`; `None` when nothing else is pinned.
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        let count = |n: Option<usize>, what: &str, parts: &mut Vec<String>| {
            if let Some(n) = n {
                parts.push(format!("{n} {what}(s)"));
            }
        };
        count(self.prompts.as_ref().map(Vec::len), "prompt", &mut parts);
        count(
            self.resources.as_ref().map(Vec::len),
            "resource",
            &mut parts,
        );
        count(
            self.resource_templates.as_ref().map(Vec::len),
            "resource template",
            &mut parts,
        );
        match &self.instructions {
            Some(Some(_)) => parts.push("instructions".into()),
            Some(None) => parts.push("no instructions".into()),
            None => {}
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Reads the members of a v2 root object (absent members: not pinned).
    pub fn parse(root: &Map<String, Value>) -> Result<OtherPinned, MemberError> {
        let mut out = OtherPinned::default();
        if let Some(v) = root.get(MEMBERS[0]) {
            out.prompts = Some(parse_keyed("$.prompts", v, parse_prompt)?);
        }
        if let Some(v) = root.get(MEMBERS[1]) {
            out.resources = Some(parse_keyed("$.resources", v, parse_resource)?);
        }
        if let Some(v) = root.get(MEMBERS[2]) {
            out.resource_templates = Some(parse_keyed("$.resourceTemplates", v, parse_template)?);
        }
        if let Some(v) = root.get(MEMBERS[3]) {
            out.instructions = Some(match v {
                Value::Null => None,
                Value::Object(m) => {
                    let e = Entry {
                        map: m,
                        path: "$.instructions".into(),
                    };
                    Some(Described {
                        hash: e.required_string("textHash")?,
                        text: e.string_or_null("text")?,
                    })
                }
                other => return Err(wrong_type("$.instructions", "an object or null", other)),
            });
        }
        Ok(out)
    }
}

/// A member with the wrong type or missing (the lockfile reader reports it as
/// `LockfileError::Invalid` at `path`).
#[derive(Debug, Clone, PartialEq)]
pub struct MemberError {
    pub path: String,
    pub reason: String,
}

fn invalid(path: &str, reason: impl Into<String>) -> MemberError {
    MemberError {
        path: path.to_string(),
        reason: reason.into(),
    }
}

fn wrong_type(path: &str, want: &str, got: &Value) -> MemberError {
    invalid(path, format!("expected {want}, found {}", type_name(got)))
}

struct Entry<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl Entry<'_> {
    fn child(&self, key: &str) -> String {
        format!("{}{}", self.path, path_segment(key))
    }
    fn required_string(&self, key: &str) -> Result<String, MemberError> {
        match self.map.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            None => Err(invalid(&self.child(key), "missing")),
            Some(v) => Err(wrong_type(&self.child(key), "a string", v)),
        }
    }
    fn string_or_null(&self, key: &str) -> Result<Option<String>, MemberError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(wrong_type(&self.child(key), "a string or null", v)),
        }
    }
    fn described(&self) -> Result<Described, MemberError> {
        Ok(Described {
            hash: self.required_string("descriptionHash")?,
            text: self.string_or_null("description")?,
        })
    }
}

fn parse_keyed<E>(
    path: &str,
    v: &Value,
    one: fn(&Entry) -> Result<E, MemberError>,
) -> Result<Vec<(String, E)>, MemberError> {
    let Value::Object(m) = v else {
        return Err(wrong_type(path, "an object", v));
    };
    let mut out = Vec::with_capacity(m.len());
    for key in js_key_order(m.keys().map(String::as_str)) {
        let p = format!("{path}{}", path_segment(key));
        match &m[key] {
            Value::Object(map) => out.push((key.to_string(), one(&Entry { map, path: p })?)),
            other => return Err(wrong_type(&p, "an object", other)),
        }
    }
    Ok(out)
}

fn parse_prompt(e: &Entry) -> Result<PromptEntry, MemberError> {
    let arguments = match e.map.get("arguments") {
        None => Vec::new(),
        Some(v) => parse_keyed(&e.child("arguments"), v, |a| {
            Ok(ArgumentEntry {
                title: a.string_or_null("title")?,
                description: a.described()?,
                required: match a.map.get("required") {
                    None => false,
                    Some(Value::Bool(b)) => *b,
                    Some(v) => return Err(wrong_type(&a.child("required"), "a boolean", v)),
                },
            })
        })?,
    };
    Ok(PromptEntry {
        title: e.string_or_null("title")?,
        description: e.described()?,
        arguments,
    })
}

fn parse_resource(e: &Entry) -> Result<ResourceEntry, MemberError> {
    Ok(ResourceEntry {
        name: e.string_or_null("name")?,
        title: e.string_or_null("title")?,
        description: e.described()?,
        mime_type: e.string_or_null("mimeType")?,
        size: match e.map.get("size") {
            None => None,
            Some(v @ Value::Number(_)) => Some(v.clone()),
            Some(v) => return Err(wrong_type(&e.child("size"), "a number", v)),
        },
        annotations: match e.map.get("annotations") {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m.clone()),
            Some(v) => return Err(wrong_type(&e.child("annotations"), "an object or null", v)),
        },
    })
}

fn parse_template(e: &Entry) -> Result<TemplateEntry, MemberError> {
    Ok(TemplateEntry {
        name: e.string_or_null("name")?,
        title: e.string_or_null("title")?,
        description: e.described()?,
        mime_type: e.string_or_null("mimeType")?,
    })
}

// ---------------------------------------------------------------------------------------
// Diff

fn change(
    class: DriftClass,
    location: String,
    message: String,
    previous: Option<Value>,
    current: Option<Value>,
) -> Change {
    Change {
        class,
        tool: location,
        message,
        previous,
        current,
    }
}

/// Removed entries, added entries, and (baseline, current, key) of the common ones.
type Split<'a, E> = (
    Vec<&'a (String, E)>,
    Vec<&'a (String, E)>,
    Vec<(&'a E, &'a E, &'a str)>,
);

/// Removed and added keys of two keyed lists, in baseline resp. current order.
fn removed_added<'a, E>(base: &'a [(String, E)], curr: &'a [(String, E)]) -> Split<'a, E> {
    let bi: HashMap<&str, &E> = base.iter().map(|(k, e)| (k.as_str(), e)).collect();
    let ci: HashMap<&str, &E> = curr.iter().map(|(k, e)| (k.as_str(), e)).collect();
    let removed = base
        .iter()
        .filter(|(k, _)| !ci.contains_key(k.as_str()))
        .collect();
    let added = curr
        .iter()
        .filter(|(k, _)| !bi.contains_key(k.as_str()))
        .collect();
    let common = base
        .iter()
        .filter_map(|(k, b)| ci.get(k.as_str()).map(|c| (b, *c, k.as_str())))
        .collect();
    (removed, added, common)
}

/// One "`<noun> "<key>" was removed`" change per removed entry and one "`… was added`" per
/// added entry, each showing the pinned entry.
fn push_removed_added<'a, E: 'a>(
    out: &mut Vec<Change>,
    (removed_class, added_class): (DriftClass, DriftClass),
    noun: &str,
    loc: impl Fn(&str) -> String,
    removed: impl IntoIterator<Item = &'a (String, E)>,
    added: impl IntoIterator<Item = &'a (String, E)>,
    value: impl Fn(&E) -> Value,
) {
    for (key, e) in removed {
        out.push(change(
            removed_class,
            loc(key),
            format!("{noun} \"{key}\" was removed"),
            Some(value(e)),
            None,
        ));
    }
    for (key, e) in added {
        out.push(change(
            added_class,
            loc(key),
            format!("{noun} \"{key}\" was added"),
            None,
            Some(value(e)),
        ));
    }
}

/// A text member (title, name) that a model reads: compared after canonicalization.
fn text_changed(
    out: &mut Vec<Change>,
    class: DriftClass,
    location: &str,
    what: String,
    b: &Option<String>,
    c: &Option<String>,
) {
    if b != c {
        out.push(change(
            class,
            location.to_string(),
            format!("{what} changed"),
            Some(opt_str(b)),
            Some(opt_str(c)),
        ));
    }
}

fn description_changed(
    out: &mut Vec<Change>,
    class: DriftClass,
    location: &str,
    what: String,
    b: &Described,
    c: &Described,
) {
    if b.hash != c.hash {
        out.push(change(
            class,
            location.to_string(),
            format!("{what} description changed (possible rug-pull)"),
            Some(b.shown()),
            Some(c.shown()),
        ));
    }
}

fn prompt_location(name: &str) -> String {
    format!("prompt:{name}")
}

/// The argument signature prompts must share to count as a rename.
fn argument_signature(p: &PromptEntry) -> String {
    let mut s = String::new();
    for (name, a) in &p.arguments {
        s.push_str(&super::json::js_string(name));
        s.push(if a.required { '!' } else { '?' });
    }
    s
}

fn compare_prompt(out: &mut Vec<Change>, name: &str, b: &PromptEntry, c: &PromptEntry) {
    // Most entries are unchanged: no location, message or argument index for them.
    if b == c {
        return;
    }
    let loc = prompt_location(name);
    let what = format!("Prompt \"{name}\"");
    text_changed(
        out,
        DriftClass::PromptChanged,
        &loc,
        format!("{what} title"),
        &b.title,
        &c.title,
    );
    description_changed(
        out,
        DriftClass::PromptChanged,
        &loc,
        what.clone(),
        &b.description,
        &c.description,
    );
    let (removed, added, common) = removed_added(&b.arguments, &c.arguments);
    for (arg, a) in removed {
        out.push(change(
            DriftClass::BreakingPromptChange,
            format!("{loc}.arg.{arg}"),
            format!("{what} argument \"{arg}\" was removed"),
            Some(Value::Bool(a.required)),
            None,
        ));
    }
    for (arg, a) in added {
        let (class, message) = if a.required {
            (
                DriftClass::BreakingPromptChange,
                format!("{what} argument \"{arg}\" was added as required"),
            )
        } else {
            (
                DriftClass::NonbreakingPromptChange,
                format!("{what} optional argument \"{arg}\" was added"),
            )
        };
        out.push(change(
            class,
            format!("{loc}.arg.{arg}"),
            message,
            None,
            Some(Value::Bool(a.required)),
        ));
    }
    for (ba, ca, arg) in common {
        let aloc = format!("{loc}.arg.{arg}");
        let awhat = format!("{what} argument \"{arg}\"");
        if ba.required != ca.required {
            let (class, became) = if ca.required {
                (DriftClass::BreakingPromptChange, "required")
            } else {
                (DriftClass::NonbreakingPromptChange, "optional")
            };
            out.push(change(
                class,
                aloc.clone(),
                format!("{awhat} became {became}"),
                Some(Value::Bool(ba.required)),
                Some(Value::Bool(ca.required)),
            ));
        }
        text_changed(
            out,
            DriftClass::PromptChanged,
            &aloc,
            format!("{awhat} title"),
            &ba.title,
            &ca.title,
        );
        description_changed(
            out,
            DriftClass::PromptChanged,
            &aloc,
            awhat,
            &ba.description,
            &ca.description,
        );
    }
}

fn diff_prompts(
    out: &mut Vec<Change>,
    base: &[(String, PromptEntry)],
    curr: &[(String, PromptEntry)],
) {
    let (removed, added, common) = removed_added(base, curr);
    let sig = |l: &[&(String, PromptEntry)]| -> Vec<String> {
        l.iter().map(|(_, p)| argument_signature(p)).collect()
    };
    let (rs, as_) = (sig(&removed), sig(&added));
    fn to_candidates<'a>(l: &[&'a (String, PromptEntry)], s: &'a [String]) -> Vec<Candidate<'a>> {
        l.iter()
            .zip(s)
            .map(|((n, p), g)| Candidate {
                name: n.as_str(),
                group: g.as_str(),
                text: p.description.text.as_deref(),
                hash: p.description.hash.as_str(),
            })
            .collect()
    }
    let renames = pair_renames(&to_candidates(&removed, &rs), &to_candidates(&added, &as_));
    let renamed_r: std::collections::HashSet<usize> = renames.iter().map(|r| r.0).collect();
    let renamed_a: std::collections::HashSet<usize> = renames.iter().map(|r| r.1).collect();
    fn unpaired<'a>(
        l: &[&'a (String, PromptEntry)],
        paired: &std::collections::HashSet<usize>,
    ) -> Vec<&'a (String, PromptEntry)> {
        l.iter()
            .enumerate()
            .filter(|(i, _)| !paired.contains(i))
            .map(|(_, e)| *e)
            .collect()
    }
    push_removed_added(
        out,
        (DriftClass::PromptRemoved, DriftClass::PromptAdded),
        "Prompt",
        prompt_location,
        unpaired(&removed, &renamed_r),
        unpaired(&added, &renamed_a),
        PromptEntry::to_value,
    );
    for &(i, j, _) in &renames {
        let (old, _) = removed[i];
        let (new, _) = added[j];
        out.push(change(
            DriftClass::PromptRenamed,
            prompt_location(new),
            format!("Prompt \"{old}\" was renamed to \"{new}\""),
            Some(Value::String(old.clone())),
            Some(Value::String(new.clone())),
        ));
    }
    for (b, c, name) in common {
        compare_prompt(out, name, b, c);
    }
    for &(i, j, _) in &renames {
        compare_prompt(out, &added[j].0, &removed[i].1, &added[j].1);
    }
}

fn diff_resources(
    out: &mut Vec<Change>,
    base: &[(String, ResourceEntry)],
    curr: &[(String, ResourceEntry)],
) {
    let (removed, added, common) = removed_added(base, curr);
    let loc = |uri: &str| format!("resource:{uri}");
    push_removed_added(
        out,
        (DriftClass::ResourceRemoved, DriftClass::ResourceAdded),
        "Resource",
        loc,
        removed,
        added,
        ResourceEntry::to_value,
    );
    for (b, c, uri) in common {
        // Size and annotations are pinned, not compared (they follow the content).
        if b.name == c.name
            && b.title == c.title
            && b.description.hash == c.description.hash
            && b.mime_type == c.mime_type
        {
            continue;
        }
        let l = loc(uri);
        let what = format!("Resource \"{uri}\"");
        let class = DriftClass::ResourceChanged;
        text_changed(out, class, &l, format!("{what} name"), &b.name, &c.name);
        text_changed(out, class, &l, format!("{what} title"), &b.title, &c.title);
        description_changed(out, class, &l, what.clone(), &b.description, &c.description);
        if b.mime_type != c.mime_type {
            let show = |m: &Option<String>| m.clone().unwrap_or_else(|| "none".into());
            out.push(change(
                DriftClass::BreakingResourceChange,
                l,
                format!(
                    "{what} mimeType changed from \"{}\" to \"{}\"",
                    show(&b.mime_type),
                    show(&c.mime_type)
                ),
                Some(opt_str(&b.mime_type)),
                Some(opt_str(&c.mime_type)),
            ));
        }
    }
}

fn diff_templates(
    out: &mut Vec<Change>,
    base: &[(String, TemplateEntry)],
    curr: &[(String, TemplateEntry)],
) {
    let (removed, added, common) = removed_added(base, curr);
    let loc = |uri: &str| format!("resource_template:{uri}");
    push_removed_added(
        out,
        (
            DriftClass::ResourceTemplateRemoved,
            DriftClass::ResourceTemplateAdded,
        ),
        "Resource template",
        loc,
        removed,
        added,
        TemplateEntry::to_value,
    );
    for (b, c, uri) in common {
        if b == c {
            continue;
        }
        let l = loc(uri);
        let what = format!("Resource template \"{uri}\"");
        let class = DriftClass::ResourceTemplateChanged;
        text_changed(out, class, &l, format!("{what} name"), &b.name, &c.name);
        text_changed(out, class, &l, format!("{what} title"), &b.title, &c.title);
        description_changed(out, class, &l, what.clone(), &b.description, &c.description);
        text_changed(
            out,
            class,
            &l,
            format!("{what} mimeType"),
            &b.mime_type,
            &c.mime_type,
        );
    }
}

fn diff_instructions(out: &mut Vec<Change>, base: &Option<Described>, curr: &Option<Described>) {
    let class = DriftClass::InstructionsChanged;
    let loc = || "instructions".to_string();
    match (base, curr) {
        (None, None) => {}
        (Some(b), Some(c)) => {
            if b.hash != c.hash {
                out.push(change(
                    class,
                    loc(),
                    "Server instructions changed (possible rug-pull)".into(),
                    Some(b.shown()),
                    Some(c.shown()),
                ));
            }
        }
        (None, Some(c)) => out.push(change(
            class,
            loc(),
            "Server instructions were added".into(),
            None,
            Some(c.shown()),
        )),
        (Some(b), None) => out.push(change(
            class,
            loc(),
            "Server instructions were removed".into(),
            Some(b.shown()),
            None,
        )),
    }
}

/// The changes of the members both sides pinned: prompts, resources, templates, then
/// instructions.
pub fn diff_other(base: &OtherPinned, curr: &OtherPinned) -> Vec<Change> {
    let mut out = Vec::new();
    if let (Some(b), Some(c)) = (&base.prompts, &curr.prompts) {
        diff_prompts(&mut out, b, c);
    }
    if let (Some(b), Some(c)) = (&base.resources, &curr.resources) {
        diff_resources(&mut out, b, c);
    }
    if let (Some(b), Some(c)) = (&base.resource_templates, &curr.resource_templates) {
        diff_templates(&mut out, b, c);
    }
    if let (Some(b), Some(c)) = (&base.instructions, &curr.instructions) {
        diff_instructions(&mut out, b, c);
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::observed::Era;
    use crate::surface::capture::capture;
    use crate::surface::capture::tests::{hello, opts, tools_of};
    use crate::surface::diff::diff_surfaces;
    use crate::surface::lockfile::{parse, Lockfile};
    use serde_json::json;

    pub(crate) const V1: &str = include_str!("../../tests/fixtures/surface/v1.json");
    pub(crate) const V1_TOOLS: &str = include_str!("../../tests/fixtures/surface/v1-tools.json");
    pub(crate) const RENAMED_TOOLS: &str =
        include_str!("../../tests/fixtures/surface/v2-tool_renamed-tools.json");
    /// Surfaces equal to v1 (identical, and canonically equal): no change.
    pub(crate) const SAME: [&str; 2] = [
        include_str!("../../tests/fixtures/surface/v2-identical.json"),
        include_str!("../../tests/fixtures/surface/v2-canonical.json"),
    ];
    /// One v2 surface per row of #14's table, each changing v1 in exactly that way.
    pub(crate) const ROWS: [(&str, &str); 15] = [
        (
            "prompt_removed",
            include_str!("../../tests/fixtures/surface/v2-prompt_removed.json"),
        ),
        (
            "prompt_added",
            include_str!("../../tests/fixtures/surface/v2-prompt_added.json"),
        ),
        (
            "prompt_renamed",
            include_str!("../../tests/fixtures/surface/v2-prompt_renamed.json"),
        ),
        (
            "prompt_changed",
            include_str!("../../tests/fixtures/surface/v2-prompt_changed.json"),
        ),
        (
            "breaking_prompt_change",
            include_str!("../../tests/fixtures/surface/v2-breaking_prompt_change.json"),
        ),
        (
            "nonbreaking_prompt_change",
            include_str!("../../tests/fixtures/surface/v2-nonbreaking_prompt_change.json"),
        ),
        (
            "resource_removed",
            include_str!("../../tests/fixtures/surface/v2-resource_removed.json"),
        ),
        (
            "resource_added",
            include_str!("../../tests/fixtures/surface/v2-resource_added.json"),
        ),
        (
            "resource_changed",
            include_str!("../../tests/fixtures/surface/v2-resource_changed.json"),
        ),
        (
            "breaking_resource_change",
            include_str!("../../tests/fixtures/surface/v2-breaking_resource_change.json"),
        ),
        (
            "resource_template_removed",
            include_str!("../../tests/fixtures/surface/v2-resource_template_removed.json"),
        ),
        (
            "resource_template_added",
            include_str!("../../tests/fixtures/surface/v2-resource_template_added.json"),
        ),
        (
            "resource_template_changed",
            include_str!("../../tests/fixtures/surface/v2-resource_template_changed.json"),
        ),
        (
            "instructions_changed",
            include_str!("../../tests/fixtures/surface/v2-instructions_changed.json"),
        ),
        (
            "tool_renamed",
            include_str!("../../tests/fixtures/surface/v2-tool_renamed.json"),
        ),
    ];

    /// A fixture surface file as the client would list it.
    pub(crate) fn surface_of(text: &str) -> (OtherSurface, Option<Value>) {
        let v: Value = serde_json::from_str(text).unwrap();
        let list = |k: &str| v.get(k).and_then(Value::as_array).map(|a| Ok(a.clone()));
        (
            OtherSurface {
                prompts: list("prompts"),
                resources: list("resources"),
                resource_templates: list("resourceTemplates"),
            },
            v.get("instructions").cloned(),
        )
    }

    /// The lockfile of a fixture surface (`surface: all`), with the tools of a tools file.
    pub(crate) fn surface_lock(tools: &str, surface: &str, set: SurfaceSet) -> Lockfile {
        let (other, instructions) = surface_of(surface);
        let mut h = hello(Era::Legacy);
        h.instructions = instructions;
        let mut o = opts();
        o.surface = set;
        o.other = other;
        capture(&h, &tools_of(tools), &o).unwrap()
    }

    /// The v2 lockfile of a table row.
    pub(crate) fn row_lock(class: &str, text: &str) -> Lockfile {
        let tools = if class == "tool_renamed" {
            RENAMED_TOOLS
        } else {
            V1_TOOLS
        };
        surface_lock(tools, text, SurfaceSet::ALL)
    }

    #[test]
    fn each_row_gives_exactly_its_class_and_equal_surfaces_nothing() {
        let base = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        for text in SAME {
            let same = surface_lock(V1_TOOLS, text, SurfaceSet::ALL);
            assert_eq!(diff_surfaces(&base, &same), vec![]);
        }
        for (class, text) in ROWS {
            let changes = diff_surfaces(&base, &row_lock(class, text));
            let classes: Vec<&str> = changes.iter().map(|c| c.class.as_str()).collect();
            assert_eq!(classes, [class], "{changes:#?}");
        }
    }

    #[test]
    fn row_messages_and_locations() {
        let base = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        let got: Vec<(String, String)> = ROWS
            .iter()
            .flat_map(|(class, text)| diff_surfaces(&base, &row_lock(class, text)))
            .map(|c| (c.tool, c.message))
            .collect();
        let want = [
            ("prompt:greet", "Prompt \"greet\" was removed"),
            ("prompt:translate", "Prompt \"translate\" was added"),
            ("prompt:code_review", "Prompt \"review_code\" was renamed to \"code_review\""),
            ("prompt:greet", "Prompt \"greet\" description changed (possible rug-pull)"),
            ("prompt:summarise.arg.style", "Prompt \"summarise\" argument \"style\" became required"),
            ("prompt:review_code.arg.language", "Prompt \"review_code\" optional argument \"language\" was added"),
            ("resource:file:///notes/changelog.txt", "Resource \"file:///notes/changelog.txt\" was removed"),
            ("resource:file:///notes/todo.txt", "Resource \"file:///notes/todo.txt\" was added"),
            ("resource:file:///notes/readme.md", "Resource \"file:///notes/readme.md\" description changed (possible rug-pull)"),
            ("resource:mem://config", "Resource \"mem://config\" mimeType changed from \"application/json\" to \"application/yaml\""),
            ("resource_template:mem://logs/{day}", "Resource template \"mem://logs/{day}\" was removed"),
            ("resource_template:mem://users/{id}", "Resource template \"mem://users/{id}\" was added"),
            ("resource_template:mem://logs/{day}", "Resource template \"mem://logs/{day}\" description changed (possible rug-pull)"),
            ("instructions", "Server instructions changed (possible rug-pull)"),
            ("sum_numbers", "Tool \"add_numbers\" was renamed to \"sum_numbers\""),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(l, m)| (l.to_string(), m.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    fn prompt(args: Value) -> Value {
        json!({"name": "p", "description": "d", "arguments": args})
    }

    fn prompts_diff(a: Value, b: Value) -> Vec<(DriftClass, String)> {
        let lock = |p: Value| {
            let mut o = opts();
            o.surface = SurfaceSet::ALL;
            o.other.prompts = Some(Ok(vec![p]));
            capture(&hello(Era::Legacy), &[] as &[Value], &o).unwrap()
        };
        diff_surfaces(&lock(a), &lock(b))
            .into_iter()
            .map(|c| (c.class, c.message))
            .collect()
    }

    #[test]
    fn prompt_argument_rules() {
        use DriftClass::*;
        let req = |n: &str, r: bool| json!({"name": n, "required": r});
        let cases = [
            (
                json!([]),
                json!([req("a", true)]),
                BreakingPromptChange,
                "argument \"a\" was added as required",
            ),
            (
                json!([]),
                json!([req("a", false)]),
                NonbreakingPromptChange,
                "optional argument \"a\" was added",
            ),
            (
                json!([req("a", false)]),
                json!([]),
                BreakingPromptChange,
                "argument \"a\" was removed",
            ),
            (
                json!([req("a", false)]),
                json!([req("a", true)]),
                BreakingPromptChange,
                "argument \"a\" became required",
            ),
            (
                json!([req("a", true)]),
                json!([req("a", false)]),
                NonbreakingPromptChange,
                "argument \"a\" became optional",
            ),
            // Absent `required` is optional.
            (
                json!([{"name": "a"}]),
                json!([req("a", true)]),
                BreakingPromptChange,
                "argument \"a\" became required",
            ),
            (
                json!([{"name": "a"}]),
                json!([{"name": "a", "description": "new"}]),
                PromptChanged,
                "argument \"a\" description changed (possible rug-pull)",
            ),
            (
                json!([{"name": "a"}]),
                json!([{"name": "a", "title": "T"}]),
                PromptChanged,
                "argument \"a\" title changed",
            ),
        ];
        for (a, b, class, msg) in cases {
            let got = prompts_diff(prompt(a.clone()), prompt(b.clone()));
            assert_eq!(
                got,
                vec![(class, format!("Prompt \"p\" {msg}"))],
                "{a} → {b}"
            );
        }
        // Argument order and a repeated argument (the later wins) are not changes.
        let two = json!([req("a", true), req("b", false)]);
        let swapped = json!([req("b", false), req("a", false), req("a", true)]);
        assert_eq!(prompts_diff(prompt(two), prompt(swapped)), vec![]);
        // Title of the prompt itself.
        let mut titled = prompt(json!([]));
        titled["title"] = json!("New");
        assert_eq!(
            prompts_diff(prompt(json!([])), titled),
            vec![(PromptChanged, "Prompt \"p\" title changed".into())]
        );
    }

    #[test]
    fn instructions_absent_empty_and_changed_stay_distinct() {
        let lock = |i: Option<Value>| {
            let mut h = hello(Era::Legacy);
            h.instructions = i;
            let mut o = opts();
            o.surface = SurfaceSet::ALL;
            capture(&h, &[] as &[Value], &o).unwrap()
        };
        let (absent, empty, text) = (lock(None), lock(Some(json!(""))), lock(Some(json!("Hi"))));
        assert_eq!(absent.other.instructions, Some(None));
        assert!(
            matches!(&empty.other.instructions, Some(Some(d)) if d.text.as_deref() == Some(""))
        );
        let msgs = |a: &Lockfile, b: &Lockfile| -> Vec<String> {
            diff_surfaces(a, b).into_iter().map(|c| c.message).collect()
        };
        assert_eq!(msgs(&absent, &empty), ["Server instructions were added"]);
        assert_eq!(msgs(&empty, &absent), ["Server instructions were removed"]);
        assert_eq!(
            msgs(&empty, &text),
            ["Server instructions changed (possible rug-pull)"]
        );
        assert_eq!(msgs(&text, &text), Vec::<String>::new());
        // A non-string value counts as none.
        assert_eq!(lock(Some(json!({"x": 1}))).other.instructions, Some(None));
        // Round trip keeps absent and empty apart.
        for lf in [&absent, &empty, &text] {
            assert_eq!(&parse(&lf.render()).unwrap().lockfile, lf);
        }
    }

    #[test]
    fn members_not_pinned_on_either_side_are_not_compared() {
        let all = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        let tools_only = surface_lock(V1_TOOLS, V1, SurfaceSet::default());
        assert_eq!(tools_only.other, OtherPinned::default());
        assert_eq!(tools_only.other.summary(), None);
        assert_eq!(
            all.other.summary().as_deref(),
            Some("3 prompt(s), 3 resource(s), 2 resource template(s), instructions")
        );
        // Not pinned reads as "not pinned", never as "everything removed / added".
        assert_eq!(diff_surfaces(&tools_only, &all), vec![]);
        assert_eq!(diff_surfaces(&all, &tools_only), vec![]);
        let prompts_only = SurfaceSet {
            prompts: true,
            ..SurfaceSet::default()
        };
        let p = surface_lock(V1_TOOLS, ROWS[13].1, prompts_only);
        assert!(p.other.resources.is_none() && p.other.instructions.is_none());
        // instructions_changed row: instructions were not pinned on one side.
        assert_eq!(diff_surfaces(&all, &p), vec![]);
    }

    #[test]
    fn undeclared_lists_pin_empty_and_failed_lists_fail_the_capture() {
        let mut o = opts();
        o.surface = SurfaceSet::ALL;
        let lf = capture(&hello(Era::Legacy), &[] as &[Value], &o).unwrap();
        assert_eq!(lf.other.prompts, Some(vec![]));
        assert_eq!(lf.other.resources, Some(vec![]));
        o.other.resources = Some(Err("boom".into()));
        let err = capture(&hello(Era::Legacy), &[] as &[Value], &o).unwrap_err();
        assert_eq!(err, "Failed to list resources: boom");
        // Items without their key (or not objects) are skipped, never a panic.
        o.other.resources = Some(Ok(vec![
            json!(5),
            json!({"uri": 7}),
            json!({"uri": "u", "size": "big", "annotations": [1]}),
        ]));
        let lf = capture(&hello(Era::Legacy), &[] as &[Value], &o).unwrap();
        let r = lf.other.resources.unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].1.size.clone(), r[0].1.annotations.clone()),
            (None, None)
        );
    }

    #[test]
    fn surface_members_round_trip_through_both_readers() {
        let lf = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        let text = lf.render();
        assert_eq!(text, crate::surface::json::to_pretty(&lf.to_value()));
        assert_eq!(parse(&text).unwrap().lockfile, lf);
        // Other whitespace, same model.
        let compact =
            serde_json::to_string(&serde_json::from_str::<Value>(&text).unwrap()).unwrap();
        assert_eq!(parse(&compact).unwrap().lockfile, lf);
        // Members sit between tools and meta, in a fixed order.
        let at = |m: &str| text.find(&format!("\n  \"{m}\": ")).unwrap();
        assert!(at("tools") < at("prompts"));
        assert!(at("prompts") < at("resources"));
        assert!(at("resources") < at("resourceTemplates"));
        assert!(at("resourceTemplates") < at("instructions"));
        assert!(at("instructions") < at("meta"));
        // full_text off: hashes only, still compared.
        let (other, instructions) = surface_of(V1);
        let mut h = hello(Era::Legacy);
        h.instructions = instructions;
        let mut o = opts();
        o.surface = SurfaceSet::ALL;
        o.other = other;
        o.full_text = false;
        let hashed = capture(&h, &tools_of(V1_TOOLS), &o).unwrap();
        assert!(!hashed.render().contains("Summarise the given text"));
        assert_eq!(parse(&hashed.render()).unwrap().lockfile, hashed);
        assert_eq!(diff_surfaces(&lf, &hashed), vec![]);
    }

    #[test]
    fn tools_only_lockfiles_stay_byte_identical() {
        let tools = tools_of(include_str!(
            "../../fixtures/tables/lockfile-example-tools.json"
        ));
        let mut o = opts();
        // Listed prompts and instructions are ignored unless `surface` asks for them.
        o.other = surface_of(V1).0;
        let mut h = hello(Era::Legacy);
        h.instructions = Some(json!("Hello"));
        assert_eq!(
            capture(&h, &tools, &o).unwrap().render(),
            include_str!("../../fixtures/tables/lockfile-example.lock.json")
        );
    }

    #[test]
    fn corrupt_members_name_the_json_path() {
        let text = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL).render();
        let v: Value = serde_json::from_str(&text).unwrap();
        type Mutation = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(Mutation, &str)> = vec![
            (Box::new(|v| v["prompts"] = json!([])), "$.prompts: expected an object, found array"),
            (Box::new(|v| v["prompts"]["greet"] = json!(1)), "$.prompts.greet: expected an object, found number"),
            (Box::new(|v| v["prompts"]["greet"]["descriptionHash"] = json!(null)), "$.prompts.greet.descriptionHash: expected a string, found null"),
            (Box::new(|v| { v["prompts"]["greet"].as_object_mut().unwrap().remove("descriptionHash"); }), "$.prompts.greet.descriptionHash: missing"),
            (Box::new(|v| v["prompts"]["summarise"]["arguments"]["text"]["required"] = json!("yes")), "$.prompts.summarise.arguments.text.required: expected a boolean, found string"),
            (Box::new(|v| v["prompts"]["summarise"]["arguments"] = json!("x")), "$.prompts.summarise.arguments: expected an object, found string"),
            (Box::new(|v| v["resources"]["mem://config"]["size"] = json!("1")), "$.resources[\"mem://config\"].size: expected a number, found string"),
            (Box::new(|v| v["resources"]["mem://config"]["annotations"] = json!(1)), "$.resources[\"mem://config\"].annotations: expected an object or null, found number"),
            (Box::new(|v| v["resources"]["mem://config"]["mimeType"] = json!(1)), "$.resources[\"mem://config\"].mimeType: expected a string or null, found number"),
            (Box::new(|v| v["resourceTemplates"] = json!("x")), "$.resourceTemplates: expected an object, found string"),
            (Box::new(|v| v["resourceTemplates"]["mem://logs/{day}"]["title"] = json!([])), "$.resourceTemplates[\"mem://logs/{day}\"].title: expected a string or null, found array"),
            (Box::new(|v| v["instructions"] = json!("text")), "$.instructions: expected an object or null, found string"),
            (Box::new(|v| v["instructions"]["textHash"] = json!(3)), "$.instructions.textHash: expected a string, found number"),
        ];
        for (mutate, msg) in cases {
            let mut doc = v.clone();
            mutate(&mut doc);
            for text in [doc.to_string(), crate::surface::json::to_pretty(&doc)] {
                let err = parse(&text).unwrap_err();
                assert_eq!(err.to_string(), format!("invalid lockfile at {msg}"));
            }
        }
    }
}
