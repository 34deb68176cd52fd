//! The rest of the surface a model reads (#14): prompts (name, title, description, each
//! argument's name, title and description), resources (uri, name, title, description),
//! resource templates (uriTemplate, name, title, description), the unknown members of each,
//! and the server's instructions — scanned with the same engine as a tool's strings.
//!
//! Which rules apply where (docs/decisions.md, "Scanning the whole surface"):
//! - hidden-unicode: every string, URIs and names included;
//! - injection-pattern, tool-shadowing, command-execution: every prose string; a name or an
//!   argument name without whitespace is an identifier, read as words (as a tool's name and
//!   property names are); URIs are addresses and get hidden-unicode only;
//! - secret-in-schema: prompt arguments named like credentials (their values go straight
//!   into the messages the model reads);
//! - confusable-name: prompt names (a client picks prompts by name, like tools); not resource
//!   names, which are display text where accents are ordinary, nor URIs;
//! - annotation-mismatch: tools only (resources carry no behaviour hints).
//!
//! Instructions and prompts exist to tell the model how to use the server's own tools, so a
//! tool-shadowing or "call me first" hit whose evidence names one of the server's own tools
//! or prompts is not reported there; one about any other tool is.
//!
//! Bounds as for a tool: the strings of one item are capped at [`MAX_ITEMS`] (arguments and
//! unknown members together), unknown members are walked to the walker's depth bound.

use super::text::{lookalike, overlaps_any, quote, raw_quotes, text_hits, Span};
use super::{normalize, rules, secrets, signals, unicode, walk};
use crate::model::Finding;
use crate::observed::{Listing, OtherSurface};
use crate::rules::types::Rule;
use serde_json::Value;
use std::collections::HashSet;

/// Strings scanned per prompt, resource or template at most (the walker's per-tool bound).
pub(super) const MAX_ITEMS: usize = 20_000;

/// How much of the surface was read, for the summary.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Counts {
    pub prompts: usize,
    pub resources: usize,
    pub templates: usize,
    pub instructions: bool,
}

/// Members of a prompt scanned on their own or carrying nothing a model reads as prose.
const PROMPT_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "arguments",
    "icons",
    "_meta",
];
const ARGUMENT_KEYS: &[&str] = &["name", "title", "description", "required", "_meta"];
const RESOURCE_KEYS: &[&str] = &[
    "uri",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "annotations",
    "icons",
    "_meta",
];
const TEMPLATE_KEYS: &[&str] = &[
    "uriTemplate",
    "name",
    "title",
    "description",
    "mimeType",
    "annotations",
    "icons",
    "_meta",
];

/// Scans the surface into `out` and says how much of it there was. `tool_names` are the
/// listed tools' names (the server's own).
pub(super) fn scan(
    other: &OtherSurface,
    instructions: Option<&Value>,
    tool_names: &[String],
    found: &mut Vec<Finding>,
) -> Counts {
    let mut sink = Sink::default();
    let out = &mut sink;
    let mut counts = Counts::default();
    let prompts = listed(&other.prompts, "prompts", out);
    let resources = listed(&other.resources, "resources", out);
    let templates = listed(&other.resource_templates, "resource templates", out);
    let mut own: Vec<String> = Vec::new();
    let prompt_names = prompts
        .iter()
        .filter_map(|p| p.get("name").and_then(Value::as_str));
    for n in tool_names.iter().map(String::as_str).chain(prompt_names) {
        if n.chars().count() >= 3 {
            own.push(n.to_lowercase());
        }
    }
    let ctx = Ctx { own: &own };
    if let Some(text) = instructions.and_then(Value::as_str) {
        counts.instructions = true;
        let s = Subject {
            lead: "Server instructions".into(),
            location: "instructions".into(),
            own: "",
        };
        ctx.prose(&s, "", text, out);
    }
    for p in prompts {
        counts.prompts += 1;
        if let Some(obj) = p.as_object() {
            ctx.prompt(obj, out);
        }
        super::engine::trim(super::engine::TRIM_AT);
    }
    for r in resources {
        counts.resources += 1;
        if let Some(obj) = r.as_object() {
            ctx.resource(obj, "uri", "Resource", "resource", RESOURCE_KEYS, out);
        }
        super::engine::trim(super::engine::TRIM_AT);
    }
    for t in templates {
        counts.templates += 1;
        if let Some(obj) = t.as_object() {
            ctx.resource(
                obj,
                "uriTemplate",
                "Resource template",
                "resource_template",
                TEMPLATE_KEYS,
                out,
            );
            super::engine::trim(super::engine::TRIM_AT);
        }
    }
    found.append(&mut sink.found);
    counts
}

/// Findings of the surface, each place reported once (a set, not a scan of the findings so
/// far: a hostile surface can carry tens of thousands of them).
#[derive(Default)]
struct Sink {
    found: Vec<Finding>,
    seen: HashSet<(String, Option<String>, String)>,
}

impl Sink {
    fn push(&mut self, f: Finding) {
        if self
            .seen
            .insert((f.id.clone(), f.location.clone(), f.message.clone()))
        {
            self.found.push(f);
        }
    }

    /// A hit: a failure, or a warning for advisory labels (as `record`).
    fn record(
        &mut self,
        rule: &Rule,
        label: &str,
        message: String,
        actual: Vec<Value>,
        location: String,
    ) {
        let f = if signals::advisory(label) {
            rule.warn(message)
        } else {
            rule.fail(message)
        };
        self.push(f.actual(actual).location(location));
    }
}

/// The items of a declared list; a list that could not be read is a finding (it could not
/// be scanned), an undeclared one is nothing.
fn listed<'a>(list: &'a Option<Listing>, what: &str, out: &mut Sink) -> &'a [Value] {
    match list {
        None => &[],
        Some(Ok(items)) => items,
        Some(Err(e)) => {
            out.push(rules::LIST_SURFACE.fail(format!(
                "Failed to list {what}: {e}; they could not be scanned"
            )));
            &[]
        }
    }
}

/// Who a string belongs to: how messages name it and where findings point.
struct Subject<'a> {
    /// `Prompt "review"`, `Server instructions`.
    lead: String,
    /// `prompt:review`, `instructions`.
    location: String,
    /// The item's own name: an order to use it is not about another tool.
    own: &'a str,
}

struct Ctx<'a> {
    /// The server's tool and prompt names, lower-cased.
    own: &'a [String],
}

fn str_of<'v>(obj: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    obj.get(key).and_then(Value::as_str)
}

use serde_json::Map;

impl Ctx<'_> {
    fn prompt(&self, obj: &Map<String, Value>, out: &mut Sink) {
        let name = str_of(obj, "name").unwrap_or("");
        let s = Subject {
            lead: format!("Prompt \"{name}\""),
            location: format!("prompt:{name}"),
            own: name,
        };
        if obj.get("name").is_some_and(Value::is_string) {
            self.identifier(&s, "name", name, signals::Field::ToolName, out);
            confusable(&s, name, out);
        }
        self.titles(obj, &s, out);
        let mut budget = MAX_ITEMS;
        let mut arg_schema = serde_json::Map::new();
        if let Some(args) = obj.get("arguments").and_then(Value::as_array) {
            for arg in args {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let Some(a) = arg.as_object() else {
                    continue;
                };
                let an = str_of(a, "name").unwrap_or("");
                let at = Subject {
                    lead: format!("Prompt \"{name}\" argument \"{an}\""),
                    location: format!("prompt:{name}.arg.{an}"),
                    own: name,
                };
                if a.get("name").is_some_and(Value::is_string) {
                    self.identifier(&at, "name", an, signals::Field::Identifier, out);
                    let mut prop = serde_json::Map::new();
                    prop.insert("type".into(), Value::String("string".into()));
                    if let Some(d) = a.get("description") {
                        prop.insert("description".into(), d.clone());
                    }
                    arg_schema.insert(an.to_string(), Value::Object(prop));
                }
                self.titles(a, &at, out);
                budget = self.members(a, ARGUMENT_KEYS, &at, budget, out);
            }
        }
        if !arg_schema.is_empty() {
            let schema = serde_json::json!({ "properties": arg_schema });
            let mut asked = Vec::new();
            secrets::solicits(
                Some(&schema),
                name,
                obj.get("description").and_then(Value::as_str),
                &secrets::Asker::Prompt,
                s.location.clone(),
                &mut asked,
            );
            for f in asked {
                out.push(f);
            }
        }
        self.members(obj, PROMPT_KEYS, &s, budget, out);
    }

    fn resource(
        &self,
        obj: &Map<String, Value>,
        key: &str,
        noun: &str,
        prefix: &str,
        known: &[&str],
        out: &mut Sink,
    ) {
        let uri = str_of(obj, key).unwrap_or("");
        let s = Subject {
            lead: format!("{noun} \"{uri}\""),
            location: format!("{prefix}:{uri}"),
            own: str_of(obj, "name").unwrap_or(""),
        };
        if obj.get(key).is_some_and(Value::is_string) {
            // An address: it cannot carry a sentence, but it can carry invisible characters.
            hidden_at(
                &s,
                if key == "uri" { "URI" } else { "URI template" },
                uri,
                out,
            );
        }
        if let Some(n) = str_of(obj, "name") {
            self.identifier(&s, "name", n, signals::Field::ToolName, out);
        }
        self.titles(obj, &s, out);
        self.members(obj, known, &s, MAX_ITEMS, out);
    }

    /// Title and description: prose.
    fn titles(&self, obj: &Map<String, Value>, s: &Subject, out: &mut Sink) {
        for key in ["title", "description"] {
            if let Some(t) = str_of(obj, key) {
                self.prose(s, key, t, out);
            }
        }
    }

    /// The strings of members a model may be shown that are not scanned on their own, as a
    /// tool's unknown members are. Returns the budget left.
    fn members(
        &self,
        obj: &Map<String, Value>,
        known: &[&str],
        s: &Subject,
        budget: usize,
        out: &mut Sink,
    ) -> usize {
        let items = walk::members(obj, known, budget);
        let left = budget.saturating_sub(items.len());
        for item in items {
            let loc = Subject {
                lead: s.lead.clone(),
                location: format!("{}.{}", s.location, item.path),
                own: s.own,
            };
            if item.kind.is_identifier() {
                self.identifier(
                    &loc,
                    &item.place,
                    item.text,
                    signals::Field::Identifier,
                    out,
                );
            } else {
                self.prose(&loc, &item.place, item.text, out);
            }
        }
        left
    }

    /// A name: read as words unless it is a sentence.
    fn identifier(
        &self,
        s: &Subject,
        place: &str,
        text: &str,
        field: signals::Field,
        out: &mut Sink,
    ) {
        if text.trim().contains(char::is_whitespace) {
            self.prose(s, place, text, out);
            return;
        }
        hidden_at(s, place, text, out);
        let norm = normalize::Normalized::new(text);
        let words = walk::identifier_words(&norm.text);
        for hit in signals::detect(&words, field, s.own) {
            let message = format!(
                "{} {place} \"{text}\" looks like an attack ({})",
                s.lead, hit.label
            );
            out.record(
                hit.rule,
                hit.label,
                message,
                vec![Value::String(text.to_string())],
                s.location.clone(),
            );
        }
    }

    /// Prose: hidden characters, then every text signal, one finding per hit.
    fn prose(&self, s: &Subject, place: &str, text: &str, out: &mut Sink) {
        if text.trim().is_empty() {
            return;
        }
        hidden_at(s, place, text, out);
        let norm = normalize::Normalized::new(text);
        let mut used: Vec<Span> = Vec::new();
        for (rule, label, ev) in text_hits(&norm, s.own, signals::Field::Prose) {
            if overlaps_any(&used, &ev) {
                continue;
            }
            // Checked before the evidence is taken: another signal on the same words still
            // reports.
            if self.about_own_tool(rule, label, &norm, &ev) {
                continue;
            }
            used.extend(ev.iter().copied());
            let at = if place.is_empty() {
                String::new()
            } else {
                format!(" {place}")
            };
            let message = format!(
                "{}{at} contains injection-like pattern ({label}): {}",
                s.lead,
                quote(text, &norm, ev[0])
            );
            out.record(
                rule,
                label,
                message,
                raw_quotes(text, &norm, &ev),
                s.location.clone(),
            );
        }
    }

    /// A hit about using tools whose evidence names one of the server's own tools or
    /// prompts: what instructions and prompts are for.
    fn about_own_tool(
        &self,
        rule: &Rule,
        label: &str,
        norm: &normalize::Normalized,
        ev: &[Span],
    ) -> bool {
        if rule.id != rules::TOOL_SHADOWING.id && label != signals::LINE_JUMPING {
            return false;
        }
        ev.iter().any(|&(a, b)| {
            let span = norm.text.get(a..b).unwrap_or("").to_lowercase();
            self.own.iter().any(|n| names(&span, n))
        })
    }
}

/// `text` names `name` as a word (not inside a longer identifier).
pub(super) fn names(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn hidden_at(s: &Subject, place: &str, text: &str, out: &mut Sink) {
    let found = unicode::scan(text);
    if found.is_empty() {
        return;
    }
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(" {place}")
    };
    let finding = rules::HIDDEN_UNICODE
        .fail(format!(
            "{}{at} contains hidden unicode: {}",
            s.lead,
            unicode::describe(&found)
        ))
        .actual(unicode::occurrences_json(&found))
        .location(s.location.clone());
    out.push(finding);
}

/// `security/confusable-name` on a prompt's name (the tool rule, another subject).
fn confusable(s: &Subject, n: &str, out: &mut Sink) {
    if let Some((looks, odd)) = lookalike(n) {
        out.push(
            rules::CONFUSABLE_NAME
                .fail(format!(
                    "{} name uses look-alike characters ({}): it reads as \"{looks}\"",
                    s.lead,
                    odd.join(", ")
                ))
                .expected(looks.clone())
                .actual(n.to_string())
                .location(s.location.clone()),
        );
    }
}
