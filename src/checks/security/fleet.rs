//! Cross-server security findings (#15), offline over every member's listed tools.
//!
//! * `security/tool-shadowing` across servers: a tool's text (its description, parameter
//!   descriptions and every other string the tool scan reads) gives the model an order about
//!   a tool of *another* server by name — the shadowing signal's order shapes
//!   ([`signals::tool_orders`]) matched against the fleet's tool names. A name the tool's own
//!   server lists is the server's own business (its scan reports what is wrong there); a
//!   tool merely named, without an order, is not reported; "the X tool" counts only when X
//!   reads as an identifier (`get_page`, `getPage`, `page-2`), not as a common word.
//! * `security/toxic-flow`: from annotations alone, one server reads untrusted content
//!   (`openWorldHint: true` and `readOnlyHint: true`) and another has an outward sink
//!   (`openWorldHint: true`, not read-only). One finding per (reading server, sink server)
//!   pair, at most [`MAX_FLOW_PAIRS`], tools listed up to [`LISTED_TOOLS`] per side.
//!
//! Pure and order-independent: servers are sorted by name (UTF-16 code units).

use super::config::{FleetConfig, ToxicFlow};
use super::text::quote;
use super::{normalize, rules, signals, walk};
use crate::model::{Finding, Severity, Status};
use crate::surface::json::utf16_cmp;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// Toxic-flow findings per run at most; past it one more finding counts the rest.
pub const MAX_FLOW_PAIRS: usize = 100;
/// Tools named per side of a toxic-flow finding, and targets per shadowing finding.
pub const LISTED_TOOLS: usize = 5;

/// The cross-server security findings of a fleet: `members` are (server name, its tools as
/// listed). Shadowing first (by server, then listing order), then toxic flows.
pub fn check_fleet(members: &[(&str, &[Value])], cfg: &FleetConfig) -> Vec<Finding> {
    // As in `check_surface`: what the patterns compile to is freed when this returns.
    let _compiled = super::engine::scope();
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| utf16_cmp(members[a].0, members[b].0).then(a.cmp(&b)));
    let sorted: Vec<(&str, &[Value])> = order.iter().map(|&i| members[i]).collect();
    let mut out = Vec::new();
    if cfg.shadowing {
        shadowing(&sorted, &mut out);
    }
    toxic_flow(&sorted, cfg.toxic_flow, &mut out);
    out
}

fn name_of(tool: &Value) -> Option<&str> {
    tool.as_object()?.get("name")?.as_str()
}

/// A name written as an identifier rather than a word: a separator, a digit or an inner
/// capital (`get_page`, `page-2`, `getPage`).
fn identifier_like(n: &str) -> bool {
    n.chars()
        .any(|c| c == '_' || c == '-' || c == '.' || c.is_ascii_digit())
        || n.chars().skip(1).any(char::is_uppercase)
}

/// Words a tool reference can capture that never name a tool.
const NOT_NAMES: &[&str] = &[
    "this",
    "it",
    "that",
    "same",
    "above",
    "following",
    "these",
    "the",
    "tool",
    "any",
    "a",
    "an",
    "you",
    "other",
];

/// The tails of a tool name after a family prefix (`tigergraph__run_query` → `run_query`,
/// `nc_contacts_create_contact` → `create_contact`), those that still read as identifiers:
/// a description that says "use 'run_query' instead" names its own server's tool without
/// the prefix (session 24's TigerGraph and Nextcloud listings).
fn name_tails(name: &str) -> impl Iterator<Item = String> + '_ {
    name.char_indices()
        .filter(|&(_, c)| matches!(c, '_' | '-' | '.'))
        .map(move |(k, _)| name[k + 1..].trim_start_matches(['_', '-', '.']))
        .filter(|t| t.contains(['_', '-', '.']))
        .map(str::to_string)
}

/// Values the tool's own text assigns to one of its own properties (`action='update'`, in
/// Azure's landing-zone tool: "When using 'update', collect ALL parameters"): a quoted such
/// word is a parameter value, not another server's tool.
fn assigned_values(
    items: &[walk::Item<'_>],
    description: Option<&str>,
    props: &HashSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for text in items.iter().map(|it| it.text).chain(description) {
        for (at, _) in text.match_indices('=') {
            let key = text[..at].trim_end();
            let key = &key[key
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .map_or(0, |k| k + key[k..].chars().next().map_or(1, char::len_utf8))..];
            if !props.contains(&key.to_lowercase()) {
                continue;
            }
            let value: String = text[at + 1..]
                .trim_start()
                .trim_start_matches(['\'', '"', '`'])
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            if !value.is_empty() {
                out.push(value.to_lowercase());
            }
        }
    }
    out
}

/// The items of a list the tool's own text gives of its actions ("Actions: status, search,
/// …, list_databases (notion), …": contextstream's `integration`; "Valid actions: navigate,
/// click, …": FastTest's step schema): each is a value of the tool's own, not another
/// server's tool. Read up to the end of the sentence or line, at most a few hundred bytes.
fn listed_actions<'t>(texts: impl Iterator<Item = &'t str>) -> Vec<String> {
    const REACH: usize = 2048;
    let mut out = Vec::new();
    for text in texts {
        let lower = text.to_ascii_lowercase();
        for label in ["actions:", "operations:", "commands:"] {
            let Some(at) = lower.find(label) else {
                continue;
            };
            let rest = &lower[at + label.len()..];
            let mut end = rest.len().min(REACH);
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            let rest = &rest[..end];
            let stop = rest
                .find(". ")
                .into_iter()
                .chain(rest.find('\n'))
                .min()
                .unwrap_or(rest.len());
            out.extend(
                rest[..stop]
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                    .filter(|w| w.len() > 1)
                    .map(str::to_string),
            );
        }
    }
    out
}

/// The name's first part (`jira` of `jira_transition_issue`) opens at least three of the
/// server's own tool names: a tool of the same vendor's family that this listing lacks
/// ("Use before calling jira_transition_issue" in a Jira server without it), not another
/// server's.
fn same_family(name: &str, heads: &HashMap<String, usize>) -> bool {
    name.split_once(['_', '-'])
        .filter(|(head, _)| head.len() >= 3)
        .and_then(|(head, _)| heads.get(head))
        .is_some_and(|&n| n >= 3)
}

/// How many of a server's (lower-cased) tool names open with each first part.
fn name_heads(names: &HashSet<String>) -> HashMap<String, usize> {
    let mut heads = HashMap::new();
    for n in names {
        if let Some((head, _)) = n.split_once(['_', '-']) {
            *heads.entry(head.to_string()).or_insert(0) += 1;
        }
    }
    heads
}

/// One order about another server's tool, found in one string of a tool.
struct Target {
    tool: String,
    servers: Vec<usize>,
    quote: String,
}

fn shadowing(members: &[(&str, &[Value])], out: &mut Vec<Finding>) {
    // Lower-cased name → servers listing it (each once, in member order).
    let mut index: HashMap<String, Vec<usize>> = HashMap::new();
    let mut own: Vec<HashSet<String>> = Vec::with_capacity(members.len());
    let mut own_tails: Vec<HashSet<String>> = Vec::with_capacity(members.len());
    for (i, (_, tools)) in members.iter().enumerate() {
        let mut set = HashSet::new();
        let mut tails = HashSet::new();
        for n in tools.iter().filter_map(name_of) {
            let lower = n.to_lowercase();
            tails.extend(name_tails(&lower));
            if set.insert(lower.clone()) {
                index.entry(lower).or_default().push(i);
            }
        }
        own.push(set);
        own_tails.push(tails);
    }
    if members.iter().filter(|m| !m.1.is_empty()).count() < 2 {
        return;
    }
    // Each server's top-level parameter names: "Call this before using `tags` or
    // `exclude_tags` on any other tool" (usda-mcp, benign 29) names its siblings' parameters,
    // not Datadog's `tags` tool.
    let own_params: Vec<HashSet<String>> = members
        .iter()
        .map(|(_, tools)| {
            tools
                .iter()
                .filter_map(|t| t.get("inputSchema")?.get("properties")?.as_object())
                .flat_map(|p| p.keys().map(|k| k.to_lowercase()))
                .collect()
        })
        .collect();
    // Each server's `enum` values: one of its tools' actions ("or type_text to type into UI
    // elements" beside `action: enum [get_map, sequence, type_text]`, and "use type_text
    // instead" in a sibling: satelliteoflove's Godot tools, benign 30), not another server's
    // tool. Not `default` values: an attacker sets those as freely as prose.
    let own_enums: Vec<HashSet<String>> = members
        .iter()
        .map(|(_, tools)| {
            tools
                .iter()
                .filter_map(Value::as_object)
                .flat_map(|obj| {
                    walk::strings(obj)
                        .into_iter()
                        .filter(|it| it.kind == walk::Kind::Value && it.path.contains("enum["))
                        .map(|it| it.text.trim().to_lowercase())
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .collect();
    // The name head most of a listing's tools share (`omni_` on 198 of 198), if any.
    let prefixes: Vec<Option<String>> = own.iter().map(family_prefix).collect();
    let server_index: HashMap<&str, usize> =
        members.iter().enumerate().map(|(i, m)| (m.0, i)).collect();
    // Counted once per server, not per reference (a hostile member of many tools).
    let own_heads: Vec<HashMap<String, usize>> = own.iter().map(name_heads).collect();
    for (i, (server, tools)) in members.iter().enumerate() {
        for tool in tools.iter() {
            super::engine::trim(super::engine::TRIM_AT);
            let Some(obj) = tool.as_object() else {
                continue;
            };
            let name = obj.get("name").and_then(Value::as_str).unwrap_or("");
            let items = walk::strings(obj);
            // A quoted word that names one of the tool's own properties is about that
            // property ("use 'query' instead" in a search stage), not about a tool.
            let mut props: HashSet<String> = items
                .iter()
                .filter(|it| it.kind == walk::Kind::PropertyName)
                .map(|it| it.text.to_lowercase())
                .collect();
            let values = assigned_values(
                &items,
                obj.get("description").and_then(Value::as_str),
                &props,
            );
            props.extend(values);
            let mut params = Vec::new();
            if let Some(s) = obj.get("inputSchema") {
                walk::params(s, String::new(), 0, &mut params);
            }
            let actions = listed_actions(
                items
                    .iter()
                    .map(|it| it.text)
                    .chain(obj.get("description").and_then(Value::as_str))
                    .chain(params.iter().map(|p| p.1)),
            );
            // A plain quoted word beside such a list is one more value ("Do NOT use 'wait'
            // — use 'wait_for'").
            let has_actions = !actions.is_empty();
            props.extend(actions);
            // A tool that takes a diagram or query language may name its keywords.
            let own_words = format!(
                "{name} {}",
                obj.get("description").and_then(Value::as_str).unwrap_or("")
            )
            .to_lowercase();
            let speaks_language = [
                "mermaid", "diagram", "sql", "graphql", "cypher", "plantuml", "graphviz", "latex",
                "yaml", "dsl",
            ]
            .iter()
            .any(|l| own_words.contains(l));
            let lookup = |raw: &str| -> Option<(String, Vec<usize>)> {
                let n = raw.trim();
                let lower = n.to_lowercase();
                // "use the health-check tool instead" beside its own `omni_health_check`
                // (omni-app-mcp, benign 30): the same name, hyphenated.
                // Only with the prefix its whole listing shares: a decoy `tz_send_email`
                // beside one other tool does not make `send-email` its own (a review,
                // session 38).
                let underscored = lower.replace('-', "_");
                let hyphenated_own = underscored != lower
                    && prefixes[i]
                        .as_ref()
                        .is_some_and(|p| own[i].contains(&format!("{p}_{underscored}")));
                if lower.is_empty()
                    || NOT_NAMES.contains(&lower.as_str())
                    || lower == name.to_lowercase()
                    || own[i].contains(&lower)
                    || own_tails[i].contains(&lower)
                    || hyphenated_own
                    || props.contains(&lower)
                    || own_params[i].contains(&lower)
                    || (has_actions && !identifier_like(n))
                    || same_family(&lower, &own_heads[i])
                {
                    return None;
                }
                if let Some(servers) = index.get(&lower) {
                    let others: Vec<usize> = servers.iter().copied().filter(|&s| s != i).collect();
                    return (!others.is_empty()).then(|| (n.to_string(), others));
                }
                // `server:tool` or `server/tool`, the way fleet locations name a tool.
                let (srv, t) = n.rsplit_once([':', '/'])?;
                let s = *server_index.get(srv.trim())?;
                (s != i && own[s].contains(&t.trim().to_lowercase()))
                    .then(|| (n.to_string(), vec![s]))
            };
            let mut scan = |text: &str, place: String, path: Option<&str>| {
                let norm = normalize::Normalized::new(text);
                let mut targets: Vec<Target> = Vec::new();
                for (m, n, kind) in signals::tool_orders(&norm.text) {
                    let raw = norm.text.get(n.0..n.1).unwrap_or("");
                    // A plain word of three letters or fewer, even quoted ("first use 'get'"
                    // in Grafana's operation list), is an operation, not another server's tool.
                    let short_word =
                        !identifier_like(raw.trim_matches(|c: char| !c.is_alphanumeric()))
                            && raw.chars().filter(|c| c.is_alphanumeric()).count() <= 3;
                    if (kind == signals::RefKind::Named && !identifier_like(raw))
                        || short_word
                        || described_not_ordered(&norm.text, m.0)
                        || (speaks_language && language_construct(&norm.text, n.1))
                        || (own_enums[i].contains(&raw.trim().to_lowercase())
                            && names_an_action(&norm.text, m, n))
                    {
                        continue;
                    }
                    let Some((tool_name, servers)) = lookup(raw) else {
                        continue;
                    };
                    if targets
                        .iter()
                        .any(|t| t.tool.eq_ignore_ascii_case(&tool_name))
                    {
                        continue;
                    }
                    targets.push(Target {
                        tool: tool_name,
                        servers,
                        quote: quote(text, &norm, m),
                    });
                }
                if !targets.is_empty() {
                    out.push(finding(members, server, name, &place, path, &targets));
                }
            };
            if let Some(d) = obj.get("description").and_then(Value::as_str) {
                scan(d, "description".into(), None);
            }
            for (path, text) in params {
                scan(
                    text,
                    format!("parameter \"{path}\" description"),
                    Some(&path),
                );
            }
            for item in &items {
                if item.kind.is_identifier() && !item.text.trim().contains(char::is_whitespace) {
                    continue;
                }
                let path = (!item.path.is_empty()).then_some(item.path.as_str());
                scan(item.text, item.place.clone(), path);
            }
        }
    }
}

/// The head before the first `_` or `-` that at least three tools and four in five of the
/// listing's tools share.
fn family_prefix(names: &HashSet<String>) -> Option<String> {
    let mut heads: HashMap<&str, usize> = HashMap::new();
    for n in names {
        if let Some((h, _)) = n.split_once(['_', '-']) {
            *heads.entry(h).or_default() += 1;
        }
    }
    let (head, count) = heads
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    (count >= 3 && count * 5 >= names.len() * 4).then(|| head.to_string())
}

/// An order to use a value of the listing's own `enum` as it is ("use type_text instead",
/// "or type_text to type into UI elements"): one of its actions. Not "the send_email tool",
/// nor an order to avoid it or to act whenever it runs (a review, session 38).
fn names_an_action(text: &str, m: (usize, usize), n: (usize, usize)) -> bool {
    let order = text.get(m.0..n.0).unwrap_or("").to_ascii_lowercase();
    let after = text.get(n.1..).unwrap_or("");
    let next: String = after
        .trim_start_matches(['\'', '"', '`'])
        .trim_start()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_lowercase();
    !matches!(next.as_str(), "tool" | "tools" | "function" | "server")
        && ![
            "avoid",
            "don't",
            "do not",
            "never",
            "not ",
            "instead of",
            "rather than",
            "when",
            "whenever",
            "always",
            "every",
        ]
        .iter()
        .any(|w| order.contains(w))
}

/// The name ending at `end` is followed by the noun of a language's construct ("avoid using
/// 'style' statements in sequenceDiagram": claude-mermaid's `mermaid_preview`, beside
/// drawio's `style` tool; benign 30): a keyword of the language the tool takes, not a tool.
/// Only for a tool whose name or description names such a language.
fn language_construct(text: &str, end: usize) -> bool {
    let after = text.get(end..).unwrap_or("");
    let after = after.trim_start_matches(['\'', '"', '`']);
    let word: String = after
        .trim_start()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_lowercase();
    after.starts_with(char::is_whitespace)
        && matches!(
            word.as_str(),
            "statement"
                | "statements"
                | "directive"
                | "directives"
                | "keyword"
                | "keywords"
                | "clause"
                | "clauses"
        )
}

/// The match at `at` follows a participle that describes where something shows ("The
/// Kubernetes Cluster Id, … usually seen when using \"kubectl\"": Dynatrace's
/// `get_kubernetes_events`, beside benign 29's `kubectl` tool): no order to the model.
fn described_not_ordered(text: &str, at: usize) -> bool {
    // The match may open on "when" or on the verb after it.
    let words: Vec<String> = text
        .get(..at)
        .unwrap_or("")
        .rsplit(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(2)
        .map(str::to_lowercase)
        .collect();
    let participle = |w: &String| {
        matches!(
            w.as_str(),
            "seen" | "shown" | "visible" | "displayed" | "printed" | "reported" | "found"
        )
    };
    words.first().is_some_and(participle)
        || words.first().is_some_and(|w| w == "when" || w == "while")
            && words.get(1).is_some_and(participle)
}

fn finding(
    members: &[(&str, &[Value])],
    server: &str,
    name: &str,
    place: &str,
    path: Option<&str>,
    targets: &[Target],
) -> Finding {
    let named = |t: &Target| {
        let servers: Vec<String> = t
            .servers
            .iter()
            .map(|&s| format!("\"{}\"", members[s].0))
            .collect();
        format!("\"{}\" of server {}", t.tool, servers.join(", "))
    };
    let mut listed: Vec<String> = targets.iter().take(LISTED_TOOLS).map(named).collect();
    if targets.len() > LISTED_TOOLS {
        listed.push(format!("{} more", targets.len() - LISTED_TOOLS));
    }
    let location = match path {
        Some(p) => format!("{server}:{name}.{p}"),
        None => format!("{server}:{name}"),
    };
    rules::TOOL_SHADOWING
        .fail(format!(
            "Tool \"{name}\" of server \"{server}\" {place} gives the model instructions about another server's tool ({}): {}",
            listed.join("; "),
            targets[0].quote
        ))
        .expected("No instructions about other servers' tools")
        .actual(json!({
            "server": server,
            "tool": name,
            "targets": targets.iter().map(|t| json!({
                "tool": t.tool,
                "servers": t.servers.iter().map(|&s| members[s].0).collect::<Vec<_>>(),
                "quote": t.quote,
            })).collect::<Vec<_>>(),
        }))
        .location(location)
}

/// A tool's behaviour hints: (reads untrusted content, is an outward sink).
fn flow_role(tool: &Value) -> (bool, bool) {
    let Some(a) = tool
        .as_object()
        .and_then(|o| o.get("annotations"))
        .and_then(Value::as_object)
    else {
        return (false, false);
    };
    let open = a.get("openWorldHint") == Some(&Value::Bool(true));
    let read_only = a.get("readOnlyHint") == Some(&Value::Bool(true));
    (open && read_only, open && !read_only)
}

fn toxic_flow(members: &[(&str, &[Value])], level: ToxicFlow, out: &mut Vec<Finding>) {
    let (status, severity) = match level {
        ToxicFlow::Off => return,
        ToxicFlow::Info => (Status::Pass, Severity::Info),
        ToxicFlow::Warn => (Status::Warn, Severity::Warning),
        ToxicFlow::Fail => (Status::Fail, Severity::Error),
    };
    // Per server: its readers and its sinks, sorted and each once.
    let roles: Vec<(Vec<&str>, Vec<&str>)> = members
        .iter()
        .map(|(_, tools)| {
            let (mut readers, mut sinks) = (Vec::new(), Vec::new());
            for t in tools.iter() {
                let Some(n) = name_of(t) else { continue };
                match flow_role(t) {
                    (true, _) => readers.push(n),
                    (_, true) => sinks.push(n),
                    _ => {}
                }
            }
            for v in [&mut readers, &mut sinks] {
                v.sort_by(|a, b| utf16_cmp(a, b));
                v.dedup();
            }
            (readers, sinks)
        })
        .collect();
    let (mut total, mut emitted) = (0usize, 0usize);
    for (a, (readers, _)) in roles.iter().enumerate() {
        if readers.is_empty() {
            continue;
        }
        for (b, (_, sinks)) in roles.iter().enumerate() {
            if a == b || sinks.is_empty() {
                continue;
            }
            total += 1;
            if emitted < MAX_FLOW_PAIRS {
                emitted += 1;
                out.push(flow_finding(
                    members[a].0,
                    readers,
                    members[b].0,
                    sinks,
                    status,
                    severity,
                ));
            }
        }
    }
    if total > MAX_FLOW_PAIRS {
        out.push(
            rules::TOXIC_FLOW
                .finding(
                    status,
                    severity,
                    format!(
                        "{} more toxic-flow server pair(s) not listed: at most {MAX_FLOW_PAIRS} toxic-flow findings are reported per run ({total} pairs in the fleet).",
                        total - MAX_FLOW_PAIRS
                    ),
                )
                .actual(json!({"pairs": total, "listed": MAX_FLOW_PAIRS}))
                .location("fleet"),
        );
    }
}

fn listed(tools: &[&str]) -> String {
    let mut v: Vec<String> = tools
        .iter()
        .take(LISTED_TOOLS)
        .map(|t| format!("\"{t}\""))
        .collect();
    if tools.len() > LISTED_TOOLS {
        v.push(format!("{} more", tools.len() - LISTED_TOOLS));
    }
    v.join(", ")
}

fn flow_finding(
    reader: &str,
    readers: &[&str],
    sink: &str,
    sinks: &[&str],
    status: Status,
    severity: Severity,
) -> Finding {
    rules::TOXIC_FLOW
        .finding(
            status,
            severity,
            format!(
                "Toxic flow: server \"{reader}\" reads untrusted content ({}: openWorldHint and readOnlyHint true) and server \"{sink}\" sends outward ({}: openWorldHint true, not read-only). Content an agent reads with the first can carry instructions that make it send data out with the second. One finding per reading server and sink server pair, from annotations alone.",
                listed(readers),
                listed(sinks)
            ),
        )
        .actual(json!({
            "source": {"server": reader, "tools": &readers[..readers.len().min(LISTED_TOOLS)], "count": readers.len()},
            "sink": {"server": sink, "tools": &sinks[..sinks.len().min(LISTED_TOOLS)], "count": sinks.len()},
        }))
        .location(format!("{reader} -> {sink}"))
}
