//! `compliance/surface-stable` and `compliance/spurious-list-changed` (#14): the surface
//! listed again in the same session and on a second connection, compared canonically
//! (order-insensitive by name / uri, member order ignored). Pure: the runner lists, we judge.

use super::rules;
use crate::checks::common::ToolItem;
use crate::model::{Finding, Severity, Status};
use crate::observed::{Era, Listing, OtherSurface, TextListing};
use crate::surface::json::raw_to_value;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One listing of everything a server shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub tools: SnapshotTools,
    pub other: OtherSurface,
    /// The handshake's `instructions` (`Some(None)`: the member was absent); `None` when
    /// not asked (a listing in the same session has no new handshake).
    pub instructions: Option<Option<Value>>,
}

/// A snapshot's tools: parsed, or still the JSON text they came as. The runner's first
/// listing is held as text while the surface is listed twice more, a fifth of its parsed
/// size (#12's memory bound).
#[derive(Debug, Clone)]
pub enum SnapshotTools {
    Parsed(Listing),
    Text(TextListing),
}

impl From<Listing> for SnapshotTools {
    fn from(l: Listing) -> Self {
        SnapshotTools::Parsed(l)
    }
}

impl PartialEq for SnapshotTools {
    fn eq(&self, other: &Self) -> bool {
        self.parsed() == other.parsed()
    }
}

impl SnapshotTools {
    /// The tools parsed (the text form is parsed whole: only where a listing differs).
    pub fn parsed(&self) -> Cow<'_, Listing> {
        match self {
            SnapshotTools::Parsed(l) => Cow::Borrowed(l),
            SnapshotTools::Text(t) => Cow::Owned(match t {
                Ok(ts) => Ok(ts.iter().map(|t| raw_to_value(t)).collect()),
                Err(e) => Err(e.clone()),
            }),
        }
    }

    /// Why the tools could not be listed.
    pub fn error(&self) -> Option<&String> {
        match self {
            SnapshotTools::Parsed(Err(e)) | SnapshotTools::Text(Err(e)) => Some(e),
            _ => None,
        }
    }

    fn count(&self) -> Option<usize> {
        match self {
            SnapshotTools::Parsed(Ok(t)) => Some(t.len()),
            SnapshotTools::Text(Ok(t)) => Some(t.len()),
            _ => None,
        }
    }
}

/// The same tools at the same places, each parsed in turn (only one pair at a time).
fn same_tools<A: ToolItem, B: ToolItem>(a: &[A], b: &[B]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.value() == y.value())
}

/// How one list compares between two listings.
enum ListCmp {
    Same,
    Differs(String),
    /// A listing failed: why the list was not compared.
    NotCompared(String),
}

fn compare_list(what: &str, key: &str, x: Option<&Listing>, y: Option<&Listing>) -> ListCmp {
    match (x, y) {
        (None, None) => ListCmp::Same,
        (Some(_), None) => ListCmp::Differs(format!("{what}: listed, then not declared")),
        (None, Some(_)) => ListCmp::Differs(format!("{what}: not declared, then listed")),
        (Some(Err(e)), _) | (_, Some(Err(e))) => {
            ListCmp::NotCompared(format!("{what} not compared ({e})"))
        }
        (Some(Ok(x)), Some(Ok(y))) => match list_diff(x, y, key) {
            Some(d) => ListCmp::Differs(format!("{what}: {d}")),
            None => ListCmp::Same,
        },
    }
}

/// A later listing reduced to what the two rules read of it: how it differs from the
/// first and which lists are unchanged. The runner keeps this, not the listing, so a long
/// surface is held twice at most, never three times (#12's memory bound).
#[derive(Debug, Clone, PartialEq)]
pub struct Relisted {
    /// One line per list that differs (empty when nothing does).
    diffs: Vec<String>,
    /// The lists that could not be compared (a listing failed).
    notes: Vec<String>,
    /// `tools`, `prompts`, `resources` (with the templates) that are the same in both.
    unchanged: Vec<&'static str>,
}

impl Relisted {
    /// `later` compared with `first`.
    pub fn of(first: &Snapshot, later: &Snapshot) -> Relisted {
        let (x, y) = (first.tools.parsed(), later.tools.parsed());
        let tools = compare_list("tools", "name", Some(&x), Some(&y));
        Relisted::with_tools(first, tools, &later.other, &later.instructions)
    }

    /// `later` compared with `first`, its tools still their JSON text: each is parsed and
    /// compared in turn while it equals the first's at the same place (the usual case), so a
    /// long listing is never held parsed twice; a listing that differs is parsed whole and
    /// compared as by [`Relisted::of`] (#12's memory bound).
    pub fn of_text(
        first: &Snapshot,
        tools: TextListing,
        other: OtherSurface,
        instructions: Option<Option<Value>>,
    ) -> Relisted {
        let same = match (&tools, &first.tools) {
            (Ok(t), SnapshotTools::Parsed(Ok(f))) => same_tools(t, f),
            (Ok(t), SnapshotTools::Text(Ok(f))) => same_tools(t, f),
            _ => false,
        };
        if same {
            return Relisted::with_tools(first, ListCmp::Same, &other, &instructions);
        }
        let later = Snapshot {
            tools: SnapshotTools::Text(tools),
            other,
            instructions,
        };
        Relisted::of(first, &later)
    }

    fn with_tools(
        a: &Snapshot,
        tools: ListCmp,
        other: &OtherSurface,
        instructions: &Option<Option<Value>>,
    ) -> Relisted {
        let cmp = [
            tools,
            compare_list(
                "prompts",
                "name",
                a.other.prompts.as_ref(),
                other.prompts.as_ref(),
            ),
            compare_list(
                "resources",
                "uri",
                a.other.resources.as_ref(),
                other.resources.as_ref(),
            ),
            compare_list(
                "resource templates",
                "uriTemplate",
                a.other.resource_templates.as_ref(),
                other.resource_templates.as_ref(),
            ),
        ];
        let same = |i: usize| matches!(cmp[i], ListCmp::Same);
        let unchanged = [("tools", same(0)), ("prompts", same(1))]
            .into_iter()
            .chain([("resources", same(2) && same(3))])
            .filter_map(|(list, same)| same.then_some(list))
            .collect();
        let (mut diffs, mut notes) = (Vec::new(), Vec::new());
        for c in cmp {
            match c {
                ListCmp::Same => {}
                ListCmp::Differs(d) => diffs.push(d),
                ListCmp::NotCompared(n) => notes.push(n),
            }
        }
        if let (Some(x), Some(y)) = (&a.instructions, instructions) {
            if x != y {
                diffs.push("instructions differ".into());
            }
        }
        Relisted {
            diffs,
            notes,
            unchanged,
        }
    }
}

/// At most this many names per kind of difference.
const NAMED: usize = 3;

fn names(list: &[String]) -> String {
    let mut s: Vec<String> = list.iter().take(NAMED).map(|n| format!("`{n}`")).collect();
    if list.len() > NAMED {
        s.push(format!("and {} more", list.len() - NAMED));
    }
    s.join(", ")
}

/// `key` of each item (its canonical text when it has none) → the items with that key.
fn keyed<'a>(items: &'a [Value], key: &str) -> BTreeMap<Cow<'a, str>, Vec<&'a Value>> {
    let mut m: BTreeMap<Cow<'a, str>, Vec<&'a Value>> = BTreeMap::new();
    for item in items {
        let k = match item.get(key).and_then(Value::as_str) {
            Some(k) => Cow::Borrowed(k),
            None => Cow::Owned(canonical(item)),
        };
        m.entry(k).or_default().push(item);
    }
    m
}

/// Whether two groups of items with one key are equal in any order. `Value` equality
/// already ignores member order; only repeated keys need their canonical texts.
fn same_items(a: &[&Value], b: &[&Value]) -> bool {
    match (a, b) {
        ([x], [y]) => x == y,
        _ if a.len() != b.len() => false,
        _ => {
            let texts = |v: &[&Value]| {
                let mut t: Vec<String> = v.iter().map(|x| canonical(x)).collect();
                t.sort();
                t
            };
            texts(a) == texts(b)
        }
    }
}

fn list_diff(x: &[Value], y: &[Value], key: &str) -> Option<String> {
    // The usual case, and cheap: the same items in the same order.
    if x == y {
        return None;
    }
    let (a, b) = (keyed(x, key), keyed(y, key));
    let removed: Vec<String> = a
        .keys()
        .filter(|k| !b.contains_key(*k))
        .map(|k| k.to_string())
        .collect();
    let added: Vec<String> = b
        .keys()
        .filter(|k| !a.contains_key(*k))
        .map(|k| k.to_string())
        .collect();
    let changed: Vec<String> = a
        .iter()
        .filter(|(k, v)| b.get(*k).is_some_and(|w| !same_items(v, w)))
        .map(|(k, _)| k.to_string())
        .collect();
    let mut parts = Vec::new();
    if !changed.is_empty() {
        parts.push(format!("{} changed", names(&changed)));
    }
    if !removed.is_empty() {
        parts.push(format!("{} missing", names(&removed)));
    }
    if !added.is_empty() {
        parts.push(format!("{} added", names(&added)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// JSON text with every object's members sorted: equal for equal values in any order.
pub fn canonical(v: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = Map::new();
                for k in keys {
                    out.insert(k.clone(), sorted(&m[k]));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(v).to_string()
}

fn counts(s: &Snapshot) -> String {
    let n = |l: Option<&Listing>, what: &str| match l {
        Some(Ok(items)) => Some(format!("{} {what}", items.len())),
        _ => None,
    };
    [
        s.tools.count().map(|c| format!("{c} tools")),
        n(s.other.prompts.as_ref(), "prompts"),
        n(s.other.resources.as_ref(), "resources"),
        n(s.other.resource_templates.as_ref(), "resource templates"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ")
}

/// `compliance/surface-stable`. `first`: the run's listing (with the handshake's
/// instructions); `again`: the same session, listed once more; `second`: a second
/// connection's listing, or why it could not be made; both compared with `first`.
pub fn surface_stable(
    era: Era,
    first: &Snapshot,
    again: &Relisted,
    second: &Result<Relisted, String>,
) -> Finding {
    let r = &rules::SURFACE_STABLE;
    let mut notes = again.notes.clone();
    let mut diffs: Vec<String> = again
        .diffs
        .iter()
        .map(|d| format!("{d} when listed again in the same session"))
        .collect();
    match second {
        Ok(s) => {
            notes.extend(s.notes.iter().cloned());
            diffs.extend(
                s.diffs
                    .iter()
                    .map(|d| format!("{d} on a second connection")),
            );
        }
        Err(e) => notes.push(format!("no second connection ({e})")),
    }
    notes.dedup();
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(" Not compared: {}.", notes.join("; "))
    };
    if diffs.is_empty() {
        if second.is_err() {
            return r.warn(format!(
                "The surface is the same when listed again in the same session, but could not \
                 be compared on a second connection.{note}"
            ));
        }
        return r.pass(format!(
            "The surface is the same when listed again and on a second connection ({}).{note}",
            counts(first)
        ));
    }
    let message = format!("The listed surface differs: {}.{note}", diffs.join("; "));
    let f = match era {
        Era::Modern => r.fail(format!(
            "{message} The 2026-07-28 revision forbids a per-connection surface."
        )),
        Era::Legacy => r.warn(message),
    };
    f.expected("the same tools, prompts, resources, templates and instructions on every listing")
        .actual(Value::Array(diffs.into_iter().map(Value::String).collect()))
}

/// `compliance/surface-stable` when the run's own tool listing failed: nothing to compare,
/// and no second listing or connection is made.
pub fn not_compared(listing_error: &str) -> Finding {
    rules::SURFACE_STABLE.skip(format!(
        "The surface was not compared: the tool listing failed ({listing_error})"
    ))
}

/// The list a `notifications/<list>/list_changed` method names.
fn changed_list(method: &str) -> Option<&'static str> {
    match method {
        "notifications/tools/list_changed" => Some("tools"),
        "notifications/prompts/list_changed" => Some("prompts"),
        "notifications/resources/list_changed" => Some("resources"),
        _ => None,
    }
}

/// How many notifications had arrived when each list (`tools`, `prompts`, `resources`)
/// was first listed: only later ones can be spurious (a server may really change a list
/// before the client saw it, e.g. tools registered once the client is initialized).
pub type ListedAt = [(&'static str, usize)];

/// `compliance/spurious-list-changed`: `notifications` is everything the server sent
/// during the run, in order; a list-changed notification that arrived after the list's
/// first listing is spurious when that list (for resources: also the templates) is the
/// same when listed `again`. `None` when there was none.
pub fn spurious_list_changed(
    notifications: &[Value],
    listed_at: &ListedAt,
    again: &Relisted,
) -> Option<Finding> {
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (i, n) in notifications.iter().enumerate() {
        let Some(list) = n
            .get("method")
            .and_then(Value::as_str)
            .and_then(changed_list)
        else {
            continue;
        };
        let since = listed_at
            .iter()
            .find(|(l, _)| *l == list)
            .map_or(usize::MAX, |(_, at)| *at);
        if i >= since {
            *seen.entry(list).or_default() += 1;
        }
    }
    let same = |list: &str| again.unchanged.contains(&list);
    let spurious: Vec<String> = seen
        .iter()
        .filter(|(list, _)| same(list))
        .map(|(list, n)| {
            let times = if *n == 1 {
                "once".into()
            } else {
                format!("{n} times")
            };
            format!("notifications/{list}/list_changed ({times})")
        })
        .collect();
    if spurious.is_empty() {
        return None;
    }
    Some(
        rules::SPURIOUS_LIST_CHANGED
            .finding(
                Status::Warn,
                Severity::Info,
                format!(
                    "The server sent {} although the list was the same when listed again",
                    spurious.join(", ")
                ),
            )
            .actual(Value::Array(
                spurious.into_iter().map(Value::String).collect(),
            )),
    )
}

impl Snapshot {
    /// No tools, nothing else declared, instructions not asked.
    pub fn empty() -> Snapshot {
        Snapshot {
            tools: SnapshotTools::Parsed(Ok(Vec::new())),
            other: OtherSurface::default(),
            instructions: None,
        }
    }
}
