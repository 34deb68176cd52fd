//! `security` family: offline tool-poisoning heuristics over the raw `tools/list` surface
//! (security.md). Never calls a tool, never canonicalises text before scanning it.

mod annotation;
mod config;
mod engine;
mod fleet;
mod foreign;
mod labels;
mod learned;
mod memo;
mod normalize;
pub mod patterns;
pub mod poisoning;
mod rare;
mod secrets;
mod signals;
mod surface;
mod text;
pub mod unicode;
mod walk;

use super::common::ToolItem;
use crate::model::Finding;
use crate::observed::{Listing, OtherSurface, TextListing};
use crate::rules::types::Rule;
use serde_json::Value;
use text::{lookalike, overlaps_any, quote, raw_quotes, shape_hits, text_hits, Span};
pub mod rules;
#[cfg(test)]
use crate::model::Severity;
pub use config::{FleetConfig, ToxicFlow};
pub use fleet::check_fleet;
pub use rules::RULES;

pub const SUMMARY: &str = rules::SUMMARY.id;
pub const LIST_TOOLS: &str = rules::LIST_TOOLS.id;
#[cfg(test)]
pub const INJECTION: &str = rules::INJECTION_PATTERN.id;
pub const HIDDEN_UNICODE: &str = rules::HIDDEN_UNICODE.id;
pub const SECRET_IN_SCHEMA: &str = rules::SECRET_IN_SCHEMA.id;
pub const ANNOTATION_MISMATCH: &str = rules::ANNOTATION_MISMATCH.id;

/// Compiles every pattern of the family now and keeps it for the process, so that no later
/// scan pays for it (the fuzz targets' per-input CPU bound; a long-running caller may want
/// it too). Without it each scan compiles what it needs and frees it when done.
pub fn warm() {
    engine::pin();
    patterns::warm();
    poisoning::warm();
    signals::warm();
    foreign::warm();
    rare::warm();
}

/// Keeps what the patterns compile to until the returned guard is dropped, across scans
/// that would each compile and free it (a fleet's members, then its cross-server findings).
pub fn keep_compiled() -> engine::Scope {
    engine::scope()
}

/// Runs the family over one listing (security.md §2, §9).
pub fn check(listing: &Listing) -> Vec<Finding> {
    check_surface(listing, &OtherSurface::default(), None)
}

/// Runs the family over the whole surface (#14): the tools as [`check`] does, then the
/// prompts, resources, resource templates and the server's instructions (`surface.rs`).
/// Without any of those the result is exactly [`check`]'s.
pub fn check_surface(
    listing: &Listing,
    other: &OtherSurface,
    instructions: Option<&Value>,
) -> Vec<Finding> {
    scan_surface(listing.as_deref(), other, instructions)
}

/// [`check_surface`] over tools still held as their JSON text, each parsed only while it is
/// scanned (#12: a long listing parsed costs about five bytes per byte of its JSON, on top
/// of the compiled patterns). Same findings, same order.
pub fn check_surface_text(
    listing: &TextListing,
    other: &OtherSurface,
    instructions: Option<&Value>,
) -> Vec<Finding> {
    scan_surface(listing.as_deref(), other, instructions)
}

fn scan_surface<T: ToolItem + Sync>(
    listing: Result<&[T], &String>,
    other: &OtherSurface,
    instructions: Option<&Value>,
) -> Vec<Finding> {
    // The compiled patterns live for this scan only: the families after this one run
    // without them (#12's memory bound).
    let _compiled = engine::scope();
    // Texts repeated across the listing are scanned once (`memo.rs`).
    let _memo = memo::scope();
    let tools = match listing {
        Ok(t) => t,
        Err(e) => {
            // The rest is still scanned: a broken tool listing hides nothing else.
            let mut out = vec![rules::LIST_TOOLS.fail(format!("Failed to list tools: {e}"))];
            surface::scan(other, instructions, &[], &mut out);
            return out;
        }
    };
    let mut out = Vec::new();
    let mut names = Vec::with_capacity(tools.len());
    let mut titles = Vec::new();
    for t in scan_tools(tools) {
        names.extend(t.name);
        titles.extend(t.titles);
        out.extend(t.findings);
    }
    drop_orders_about_own_tools(&names, &titles, &mut out);
    drop_first_calls_siblings_require(tools, &mut out);
    drop_learned_about_siblings(tools, &names, &mut out);
    let counts = surface::scan(other, instructions, &names, &mut out);
    let scanned = scanned(tools.len(), counts);
    let failed = out
        .iter()
        .filter(|f| f.status == crate::model::Status::Fail)
        .count();
    let summary = if failed == 0 && !out.is_empty() {
        // Only advisory findings (#13): they do not fail the scan.
        rules::SUMMARY.pass(format!(
            "Security scan passed: {scanned} checked, {} warning(s)",
            out.len()
        ))
    } else if out.is_empty() {
        rules::SUMMARY.pass(format!(
            "Security scan passed: {scanned} checked, no issues found"
        ))
    } else {
        rules::SUMMARY.fail(format!(
            "Security scan found {} issue(s) in {scanned}",
            out.len()
        ))
    };
    out.insert(0, summary);
    out
}

/// What the scan of one tool gives.
struct Scanned {
    name: Option<String>,
    /// Its titles of two words or more: tools are also referred to by their titles ("first
    /// call the `Get Node.js Build Settings from Archive` endpoint": Hostinger's API server).
    titles: Vec<String>,
    findings: Vec<Finding>,
}

/// Surfaces of this many tools or more are scanned on both cores, as capture and rendering
/// are (docs/benchmarks.md): the second thread has lazy-DFA caches of its own (up to
/// [`engine::TRIM_AT`] more), which only a surface this large outweighs. Smaller ones stay on
/// one thread, so #12's 15 MiB run is unaffected.
const PARALLEL_AT: usize = 1000;

/// Each tool's scan, in listing order: on one thread, or on [`engine::SLOTS`] threads that
/// each take the next tool not yet taken (tools differ a hundredfold in length) and each keep
/// their own memo (`memo.rs`) and cache slot. Every tool's findings are its own, so the
/// order of the threads changes nothing but the time.
fn scan_tools<T: ToolItem + Sync>(tools: &[T]) -> Vec<Scanned> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cores.min(engine::SLOTS);
    if tools.len() < PARALLEL_AT || threads < 2 {
        return tools.iter().map(scan_one).collect();
    }
    scan_in_parallel(tools, threads, &scan_one)
}

fn scan_one<T: ToolItem>(item: &T) -> Scanned {
    let tool = item.value();
    let name = tool.get("name").and_then(Value::as_str).map(str::to_string);
    let title = tool.get("title").and_then(Value::as_str);
    let annotated = tool.pointer("/annotations/title").and_then(Value::as_str);
    let titles = [title, annotated]
        .into_iter()
        .flatten()
        .filter(|t| t.split_whitespace().count() >= 2)
        .map(str::to_string)
        .collect();
    let mut findings = Vec::new();
    check_tool(&tool, &mut findings);
    drop(tool);
    engine::trim(engine::TRIM_AT);
    Scanned {
        name,
        titles,
        findings,
    }
}

fn scan_in_parallel<T: Sync>(
    tools: &[T],
    threads: usize,
    one: &(dyn Fn(&T) -> Scanned + Sync),
) -> Vec<Scanned> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = threads.clamp(1, engine::SLOTS);
    let next = AtomicUsize::new(0);
    let work = |slot: usize| {
        engine::in_slot(slot, || {
            let _memo = memo::scope();
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = tools.get(i) else {
                    return done;
                };
                done.push((i, one(item)));
            }
        })
    };
    let mut all = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|slot| scope.spawn(move || work(slot)))
            .collect();
        let mut all = work(0);
        for h in helpers {
            all.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// A tool telling the model to call another tool of the same listing ("MUST call
/// ha_get_skill_guide first", "You MUST call 'check_commit_status' before proceeding") is
/// the server's workflow, not shadowing: the rule the instructions follow (#14), applied to
/// tool descriptions once the whole listing is known. Orders about tools the listing does
/// not have, and every other signal in the same text, are still reported.
fn drop_orders_about_own_tools(names: &[String], titles: &[String], out: &mut Vec<Finding>) {
    if names.len() < 2 {
        return;
    }
    let own: Vec<String> = names
        .iter()
        .chain(titles)
        .map(|n| n.to_lowercase())
        .collect();
    let jump = format!("({})", signals::LINE_JUMPING);
    out.retain(|f| {
        let order = f.id == rules::TOOL_SHADOWING.id
            || (f.id == rules::INJECTION_PATTERN.id && f.message.contains(&jump));
        let quotes = f.actual.as_ref().and_then(Value::as_array);
        let about_own = quotes.is_some_and(|q| {
            q.iter().filter_map(Value::as_str).any(|quote| {
                let quote = quote.to_lowercase();
                own.iter().any(|n| surface::names(&quote, n))
            })
        });
        !(order && about_own)
    });
}

/// A tool that another tool of the listing names as its prerequisite ("You MUST call the
/// `retrieve-instructions` tool BEFORE using this tool") may say itself that it comes
/// first: both state the server's workflow (Google Maps' code assist, session 18). Only that
/// demand is dropped; every other signal in its text is still reported.
const MAX_FIRST_TOOLS: usize = 8;

fn drop_first_calls_siblings_require<T: ToolItem>(tools: &[T], out: &mut Vec<Finding>) {
    let jump = format!("({})", signals::LINE_JUMPING);
    let is_jump = |f: &Finding| f.id == rules::INJECTION_PATTERN.id && f.message.contains(&jump);
    // Only the tools whose own description demands it (the location is the bare name).
    let mut jumpers: Vec<String> = out
        .iter()
        .filter(|f| is_jump(f))
        .filter_map(|f| f.location.clone())
        .collect();
    jumpers.sort_unstable();
    jumpers.dedup();
    // More tools than this each asking to come first is no one workflow: their findings
    // stay, and a hostile listing of thousands of them costs no tools × tools scan.
    if jumpers.is_empty() || jumpers.len() > MAX_FIRST_TOOLS {
        return;
    }
    let mut vouched: Vec<&String> = Vec::new();
    for item in tools {
        let tool = item.value();
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
        let Some(text) = tool.get("description").and_then(Value::as_str) else {
            continue;
        };
        let text = text.to_lowercase();
        if !(text.contains("before") || text.contains("first")) {
            continue;
        }
        for j in &jumpers {
            if j != name && surface::names(&text, &j.to_lowercase()) && !vouched.contains(&j) {
                vouched.push(j);
            }
        }
    }
    out.retain(|f| !(is_jump(f) && f.location.as_ref().is_some_and(|l| vouched.contains(&l))));
}

/// A tool whose text names another tool of its listing speaks of the server's own
/// workflow ("You MUST call `retrieve-instructions` BEFORE using this tool"), in the very
/// words the model weighs towards attacks: its learned finding is dropped, as the rules'
/// orders about own tools are. The rules still judge the text.
fn drop_learned_about_siblings<T: ToolItem>(tools: &[T], names: &[String], out: &mut Vec<Finding>) {
    if names.len() < 2 || !out.iter().any(|f| f.id == rules::LEARNED_POISONING.id) {
        return;
    }
    let flagged: Vec<String> = out
        .iter()
        .filter(|f| f.id == rules::LEARNED_POISONING.id)
        .filter_map(|f| f.location.clone())
        .collect();
    let mut own_workflow: Vec<String> = Vec::new();
    for item in tools {
        let tool = item.value();
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
        if !flagged.iter().any(|f| f == name) {
            continue;
        }
        let text = tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_lowercase();
        if names
            .iter()
            .any(|n| n != name && surface::names(&text, &n.to_lowercase()))
        {
            own_workflow.push(name.to_string());
        }
    }
    out.retain(|f| {
        !(f.id == rules::LEARNED_POISONING.id
            && f.location
                .as_ref()
                .is_some_and(|l| own_workflow.contains(l)))
    });
}

/// What the summary says was scanned: `3 tool(s)`, or `3 tool(s), 2 prompt(s), 4
/// resource(s), 1 resource template(s) and the server instructions`.
fn scanned(tools: usize, c: surface::Counts) -> String {
    let mut parts = vec![format!("{tools} tool(s)")];
    if c.prompts > 0 {
        parts.push(format!("{} prompt(s)", c.prompts));
    }
    if c.resources > 0 {
        parts.push(format!("{} resource(s)", c.resources));
    }
    if c.templates > 0 {
        parts.push(format!("{} resource template(s)", c.templates));
    }
    if c.instructions {
        parts.push("the server instructions".to_string());
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}

fn non_empty_str(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn check_tool(tool: &Value, out: &mut Vec<Finding>) {
    let Some(obj) = tool.as_object() else {
        return;
    };
    let start = out.len();
    let name_value = obj.get("name").and_then(Value::as_str);
    let name = name_value.unwrap_or("");
    let description = non_empty_str(obj.get("description"));

    let schema = obj.get("inputSchema");
    let own_props: Vec<&str> = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if let Some(d) = description {
        injection(d, name, None, &own_props, out);
    }
    if let Some(n) = name_value {
        hidden(n, name, Place::Name, out);
    }
    if let Some(d) = description {
        hidden(d, name, Place::Description, out);
    }
    secrets::secrets(schema, name, description, out);
    let mut params = Vec::new();
    if let Some(s) = schema {
        walk::params(s, String::new(), 0, &mut params);
    }
    for (path, text) in params {
        hidden(text, name, Place::Param(&path), out);
        injection(text, name, Some(&path), &own_props, out);
    }
    annotation::annotation(obj, name, description.unwrap_or(""), out);
    // A schema that pulls part of itself from another host (`"$ref":
    // "https://schemas.attacker.example/…"`: attestral's examples): what the model is shown
    // is whatever that host serves when the client resolves it, changed at will. No real
    // listing of the corpus has one.
    let mut refs = Vec::new();
    for key in ["inputSchema", "outputSchema"] {
        if let Some(s) = obj.get(key) {
            walk::remote_refs(s, key, 0, &mut refs);
        }
    }
    for (path, url) in refs {
        record(
            &rules::INJECTION_PATTERN,
            signals::REMOTE_REF,
            format!(
                "Tool \"{name}\" schema member \"{path}\" contains injection-like pattern ({}): \"{url}\"",
                signals::REMOTE_REF
            ),
            vec![url.to_string()],
            location(name, Some(&path)),
            out,
        );
    }
    // Beyond the original (#13): every other string a model reads, then the name itself.
    for item in walk::strings(obj) {
        if item.kind != walk::Kind::PropertyName {
            hidden(item.text, name, Place::Other(&item.path, &item.place), out);
        } else if let Some((looks, odd)) = lookalike(item.text).filter(|_| {
            // Letters of another script, not Latin-1's `º` or `²` (`nº_pedido`, `area_m²`),
            // which NFKC folds to ASCII too.
            item.text
                .chars()
                .any(|c| c as u32 >= 0x370 && c.is_alphabetic())
        }) {
            // A parameter spelled like an honest one with another script's letters
            // (`tоken` with a Cyrillic o, bastionsupply's fixtures): the model fills the
            // look-alike, the server reads it.
            out.push(
                rules::CONFUSABLE_NAME
                    .fail(format!(
                        "Tool \"{name}\" parameter \"{}\" name uses look-alike characters ({}): it reads as \"{looks}\"",
                        item.path,
                        odd.join(", ")
                    ))
                    .expected(looks)
                    .actual(item.text.to_string())
                    .location(location(name, Some(&item.path))),
            );
        }
        if item.kind == walk::Kind::PropertyName
            && (agents_own_prompt(name, description, schema, &item.path)
                || (item.model_request && system_prompt_name(item.text))
                || own_model_call(name, description, schema, &item.path)
                || prompt_under_test(description, schema, &item.path)
                || prompt_from_a_call(description, schema, &item.path))
        {
            continue;
        }
        let required =
            item.kind == walk::Kind::PropertyName && top_level_required(schema, &item.path);
        let persona_ok = item.kind.is_value() && agents_prompt_value(name, &item.path);
        scan_item(&item, name, required, persona_ok, out);
    }
    if let Some(n) = name_value {
        confusable_name(n, description, out);
        scan_identifier(n, name, None, "name", (false, false), out);
    }
    // The model speaks only where no rule failed the tool: one finding per attack is enough.
    if !out[start..]
        .iter()
        .any(|f| f.status == crate::model::Status::Fail)
    {
        learned_poisoning(tool, name, out);
    }
}

/// `security/learned-poisoning`: the offline model (`learned.rs`) scores the tool above
/// every real tool it was trained on.
fn learned_poisoning(tool: &Value, name: &str, out: &mut Vec<Finding>) {
    let Some((score, words)) = learned::verdict(tool) else {
        return;
    };
    let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    out.push(
        rules::LEARNED_POISONING
            .warn(format!(
                "Tool \"{name}\" reads like published tool-poisoning attacks: the built-in model scores it {score:.2} (it warns above {:.2}); the words that weighed most: {}",
                learned::threshold(),
                quoted.join(", ")
            ))
            .actual(Value::from(words))
            .location(name),
    );
}

/// Agents a tool may create or configure, each with its own system prompt.
const AGENT_NOUNS: &[&str] = &[
    "agent",
    "agents",
    "assistant",
    "assistants",
    "bot",
    "bots",
    "chatbot",
    "persona",
    "character",
];

/// A tool that creates or configures an agent (ElevenLabs' `create_agent`) takes that
/// agent's system prompt: a top-level `system_prompt` whose description (its own, or its
/// line in the tool's docstring) names the agent ("System prompt for the agent") is the new
/// agent's, not the calling model's own.
fn agents_own_prompt(tool: &str, about: Option<&str>, schema: Option<&Value>, prop: &str) -> bool {
    let words = walk::identifier_parts(prop);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if !matches!(
        words.as_slice(),
        [
            "system",
            "prompt" | "instructions" | "instruction" | "message"
        ]
    ) {
        return false;
    }
    let agent = |w: &String| AGENT_NOUNS.contains(&w.as_str());
    if !configures_agent(tool) {
        return false;
    }
    let own = prop_description(schema, prop);
    // Python servers document arguments in the tool's docstring ("Args: system_prompt:
    // System prompt for the agent") and leave the property undescribed.
    let docstring = || {
        about.and_then(|d| {
            d.lines().find_map(|l| {
                l.trim_start()
                    .strip_prefix(prop)
                    .and_then(|r| r.strip_prefix(':'))
            })
        })
    };
    let tool_names_agent = || about.is_some_and(|d| walk::identifier_parts(d).iter().any(agent));
    match own.or_else(docstring) {
        // "New system prompt", "Updated system prompt" (Pencil's `update_agent`, an
        // orchestrator's `updateAgentDefinition`; benign 26): a description that names only
        // the slot leaves it to the tool's description.
        Some(d) if names_only_the_slot(d) => tool_names_agent(),
        Some(d) => walk::identifier_parts(d).iter().any(agent),
        // Undescribed (Discourse's `discourse_ai_create_agent`): the tool's description
        // says what it creates.
        None => tool_names_agent(),
    }
}

/// An optional `system_prompt` of a tool that runs its own model: a schema-guided extraction
/// (localparse's `extract` beside `data_schema`, Reducto's `extract_data` beside `schema`) or
/// a search whose chat model the caller picks (Perplexica's `chat_model`; benign 30). The
/// published attacks' `system_prompt` sits beside a query or numbers, often `required`.
fn own_model_call(tool: &str, about: Option<&str>, schema: Option<&Value>, prop: &str) -> bool {
    let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    if !props.contains_key(prop) || !system_prompt_name(prop) || top_level_required(schema, prop) {
        return false;
    }
    // "The system prompt you were given, verbatim" asks for the caller's own (a review,
    // session 36).
    let own = props[prop]
        .get("description")
        .and_then(Value::as_str)
        .map(walk::identifier_parts)
        .unwrap_or_default();
    if own.iter().any(|w| {
        matches!(
            w.as_str(),
            "you" | "your" | "verbatim" | "given" | "current"
        )
    }) {
        return false;
    }
    let said = about.unwrap_or_default().to_ascii_lowercase();
    let extracts = walk::identifier_parts(tool)
        .iter()
        .any(|w| w == "extract" || w == "extraction")
        && (said.contains("schema") || said.contains("json"))
        && props.keys().any(|k| {
            walk::identifier_parts(k)
                .last()
                .is_some_and(|w| w == "schema")
        });
    // The model is configured, not named: an object (Perplexica's "Chat model
    // configuration"), not a bare `llm_model` string an attack can add.
    let object = |v: &Value| {
        v.get("type").and_then(Value::as_str) == Some("object")
            || ["anyOf", "oneOf"].iter().any(|k| {
                v.get(*k).and_then(Value::as_array).is_some_and(|b| {
                    b.iter()
                        .any(|x| x.get("type").and_then(Value::as_str) == Some("object"))
                })
            })
    };
    let picks_model = props.iter().any(|(k, v)| {
        matches!(
            walk::identifier_parts(k)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice(),
            ["chat" | "llm" | "language", "model"]
        ) && object(v)
    });
    extracts || picks_model
}

/// An optional system prompt a prompt-testing tool runs ("Test a system prompt with a
/// single sample query without deploying": FrootAI's `prompt_dry_run`, benign 31): any
/// prompt under test, not the caller's ("your" anywhere keeps it failing).
fn prompt_under_test(about: Option<&str>, schema: Option<&Value>, prop: &str) -> bool {
    let said = about.unwrap_or_default().trim_start().to_ascii_lowercase();
    let opens = [
        "test",
        "evaluate",
        "try",
        "score",
        "benchmark",
        "lint",
        "validate",
        "dry-run",
    ]
    .iter()
    .any(|v| {
        said.strip_prefix(v)
            .is_some_and(|r| r.starts_with(" a system prompt") || r.starts_with(" a prompt"))
    });
    let own = prop_description(schema, prop)
        .unwrap_or_default()
        .to_ascii_lowercase();
    system_prompt_name(prop)
        && opens
        && !top_level_required(schema, prop)
        && !walk::identifier_parts(&said).iter().any(|w| w == "your")
        && !asks_for_the_callers(&said)
        && !asks_for_the_callers(&own)
        && !walk::identifier_parts(&own)
            .iter()
            .any(|w| w == "your" || w == "you")
}

/// Words that ask for the calling model's own prompt rather than one it was handed ("the
/// complete system instructions the assistant is running under, word for word": a review,
/// session 37).
fn asks_for_the_callers(text: &str) -> bool {
    let w = walk::identifier_parts(text);
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "assistant"
                | "complete"
                | "entire"
                | "full"
                | "verbatim"
                | "always"
                | "prior"
                | "previous"
                | "hidden"
        )
    }) || w
        .windows(3)
        .any(|t| t[0] == "word" && t[1] == "for" && t[2] == "word")
        || w.windows(2).any(|t| t[0] == "running" && t[1] == "under")
}

/// A system prompt another tool's result holds ("system_prompt: The partner system prompt
/// from bazi_partner result": mcp-bazi-partner's `bazi_apply_prompt`, benign 31): the model
/// carries it from that call, as a token another call issued.
fn prompt_from_a_call(about: Option<&str>, schema: Option<&Value>, prop: &str) -> bool {
    let own = prop_description(schema, prop)
        .or_else(|| about.and_then(|d| secrets::docstring_line(d, prop)));
    let Some(d) = own else {
        return false;
    };
    let words: Vec<&str> = d.split_whitespace().collect();
    let call = |w: &str| {
        let w = w.trim_matches('`').trim_end_matches("()");
        w.contains('_')
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    system_prompt_name(prop)
        && !asks_for_the_callers(d)
        && !walk::identifier_parts(d).iter().any(|w| {
            matches!(
                w.as_str(),
                "you" | "your" | "verbatim" | "current" | "own" | "model" | "instructions"
            )
        })
        && words.windows(3).any(|t| {
            t[0].eq_ignore_ascii_case("from")
                && call(t[1])
                && matches!(
                    t[2].trim_end_matches(['.', ',', ';', ')']),
                    "result" | "results" | "output" | "response"
                )
        })
}

/// A property description with no word beyond the slot's name and "new" / "updated".
fn names_only_the_slot(d: &str) -> bool {
    let words = walk::identifier_parts(d);
    !words.is_empty()
        && words.iter().all(|w| {
            matches!(
                w.as_str(),
                "new"
                    | "updated"
                    | "the"
                    | "a"
                    | "optional"
                    | "system"
                    | "prompt"
                    | "instructions"
                    | "instruction"
                    | "message"
            )
        })
}

/// `system_prompt`, `systemMessage`, `system_instructions`: the name of a prompt slot.
fn system_prompt_name(prop: &str) -> bool {
    let w = walk::identifier_parts(prop);
    matches!(
        w.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
        [
            "system",
            "prompt" | "message" | "instructions" | "instruction"
        ]
    )
}

/// The tool creates or configures an agent (a setter verb and an agent noun in its name).
fn configures_agent(tool: &str) -> bool {
    let t = walk::identifier_parts(tool);
    t.iter()
        .any(|w| secrets::SETTER_VERBS.contains(&w.as_str()))
        && t.iter().any(|w| AGENT_NOUNS.contains(&w.as_str()))
}

/// A value under the property that holds the configured agent's prompt (Vapi's
/// `create_assistant` defaults `instructions` to "You are a helpful assistant."): a persona
/// written there is the new agent's, not one forced on the calling model.
fn agents_prompt_value(tool: &str, path: &str) -> bool {
    let top = path.split('.').next().unwrap_or("");
    walk::identifier_parts(top).iter().any(|w| {
        matches!(
            w.as_str(),
            "prompt" | "instructions" | "instruction" | "persona" | "personality"
        )
    }) && configures_agent(tool)
}

/// The description of the top-level input property `prop`, when the schema gives one.
fn prop_description<'a>(schema: Option<&'a Value>, prop: &str) -> Option<&'a str> {
    schema
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get(prop))
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
}

/// A top-level input property the schema lists as `required`.
fn top_level_required(schema: Option<&Value>, path: &str) -> bool {
    schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|e| e.as_str() == Some(path)))
}

/// One walked string: prose gets every text signal; identifiers the identifier signals.
/// `required`: a property the tool cannot be called without; `persona_ok`: a value of a
/// configured agent's prompt.
fn scan_item(
    item: &walk::Item,
    name: &str,
    required: bool,
    persona_ok: bool,
    out: &mut Vec<Finding>,
) {
    // A "name" with spaces is a sentence (a `required` entry carrying an instruction).
    if item.kind.is_identifier() && !item.text.trim().contains(char::is_whitespace) {
        scan_identifier(
            item.text,
            name,
            Some(&item.path),
            &item.place,
            (required, item.scalar),
            out,
        );
        return;
    }
    let norm = normalize::Normalized::new(item.text);
    let mut used = Vec::new();
    let mut emit = |rule: &Rule, label: &str, evidence: Vec<Span>| {
        let msg = format!(
            "Tool \"{name}\" {} contains injection-like pattern ({label}): {}",
            item.place,
            quote(item.text, &norm, evidence[0])
        );
        record(
            rule,
            label,
            msg,
            raw_quotes(item.text, &norm, &evidence),
            location(name, non_empty_path(&item.path)),
            out,
        );
    };
    let field = if item.kind.is_value() {
        signals::Field::Value
    } else {
        signals::Field::Prose
    };
    for (rule, label, ev) in text_hits(&norm, name, field) {
        if (label == signals::PERSONA
            && (persona_ok || own_switch(item.text, &norm, &item.path, &ev)))
            || overlaps_any(&used, &ev)
        {
            continue;
        }
        used.extend(ev.iter().copied());
        emit(rule, label, ev);
    }
    let had_hits = !used.is_empty();
    if item.kind.is_value() && default_sink(&item.path, item.text) {
        let end = norm.text.len();
        emit(
            &rules::INJECTION_PATTERN,
            signals::EXFILTRATION,
            vec![(0, end)],
        );
    }
    // An identifier-shaped value (`include_ssh_keys_and_credentials` among a search's
    // scopes: bad-mcp's enum poisoning; `Read_id_rsa` as a mode) names what picking it
    // hands over, as a property name would. No value of the 34,959 real tools reads so.
    if item.kind.is_value() && !had_hits && identifier_shaped(item.text) {
        let words = walk::identifier_words(&norm.text);
        let names = identifier_hits(words.trim(), signals::Field::Identifier, name, false)
            .into_iter()
            .find(|h| h.label == signals::CONTEXT_PARAM);
        if let Some(hit) = names {
            let message = format!(
                "Tool \"{name}\" {} \"{}\" names a secret or the conversation ({}): a model that picks it hands that over",
                item.place, item.text, hit.label
            );
            record(
                hit.rule,
                hit.label,
                message,
                vec![Value::String(item.text.to_string())],
                location(name, non_empty_path(&item.path)),
                out,
            );
        }
    }
}

/// A value written as an identifier: no spaces, words joined by `_` (two or more).
fn identifier_shaped(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.len() <= 128
        && t.contains('_')
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A URL set as the default of a parameter that names where results go (`callback_url`,
/// `result_sink_uri`: driftguard's poisoning benchmark, round 20): each call the model makes
/// without choosing one sends its results to a host the tool's author chose. No listing of
/// the benign corpus gives such a parameter a default (15 URL defaults in all, each a base
/// URL or a page to read).
fn default_sink(path: &str, text: &str) -> bool {
    let mut segments = path.rsplit('.');
    if segments.next() != Some("default") {
        return false;
    }
    let param = segments.next().unwrap_or_default();
    let t = text.trim_start();
    (t.starts_with("https://") || t.starts_with("http://"))
        && walk::identifier_parts(param).iter().any(|w| {
            matches!(
                w.as_str(),
                "callback" | "sink" | "webhook" | "collector" | "relay" | "beacon" | "exfil"
            )
        })
}

/// "Whether to enable debug mode" describing a `debug` parameter: the switch the parameter
/// is, not one aimed at the model (fetcher-mcp; session 22's blind capture).
fn own_switch(text: &str, norm: &normalize::Normalized, path: &str, ev: &[Span]) -> bool {
    let Some(&(a, e)) = ev.first() else {
        return false;
    };
    let (ra, re) = norm.raw_span(a, e);
    let quoted = text.get(ra..re).unwrap_or_default().to_ascii_lowercase();
    let words: Vec<&str> = quoted.split_whitespace().collect();
    let param = path.rsplit('.').next().unwrap_or_default();
    let parts = walk::identifier_parts(param);
    // "Enable developer mode with no restrictions" qualifies the mode: not a plain switch.
    let next = text.get(re..).unwrap_or_default().split_whitespace().next();
    let qualified = next.is_some_and(|w| {
        matches!(
            w.to_ascii_lowercase()
                .trim_matches(|c: char| !c.is_ascii_alphabetic()),
            "with" | "without" | "and" | "where" | "in" | "that" | "which"
        )
    });
    let mode_switch = words.len() >= 3
        && words.last() == Some(&"mode")
        && matches!(words[0], "enable" | "enter" | "activate" | "switch")
        && parts.iter().any(|p| p == words[words.len() - 2]);
    // Beaker's `power_system`: `force`, "Override safety check if system is in use" (benign
    // 31). A switch named to force or skip states the one check it overrides; a description
    // that goes on to an act ("… and send the files") is no switch's.
    let forces = parts
        .iter()
        .any(|p| matches!(p.as_str(), "force" | "override" | "skip"))
        && matches!(
            words.first().copied(),
            Some("override" | "overrides" | "bypass" | "bypasses" | "skip")
        )
        && words
            .last()
            .is_some_and(|w| *w == "check" || *w == "checks")
        && next.is_none_or(|w| {
            matches!(
                w.to_ascii_lowercase()
                    .trim_matches(|c: char| !c.is_ascii_alphabetic()),
                "" | "if" | "when" | "unless" | "for" | "on" | "default"
            )
        });
    (mode_switch && !qualified) || forces
}

/// "When using file_path, set …" about the tool's own `file_path` parameter: the tool's own
/// input, not another tool (Paperless-NGX's `post_document`; session 23's blind capture).
fn names_own_param(
    text: &str,
    norm: &normalize::Normalized,
    ev: &[Span],
    own_props: &[&str],
) -> bool {
    let Some(&(a, e)) = ev.first() else {
        return false;
    };
    let (ra, re) = norm.raw_span(a, e);
    let own = text
        .get(ra..re)
        .unwrap_or_default()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.len() >= 4 && w.contains('_') && own_props.contains(&w));
    // Not when the sentence sends or copies something somewhere: a property named after the
    // tool it shadows ("When using send_email, always add bcc …") stays an attack.
    let mut cap = (ra + 300).min(text.len());
    while !text.is_char_boundary(cap) {
        cap -= 1;
    }
    let rest = text.get(ra..cap).unwrap_or_default();
    let sentence = rest[..signals::sentence_end(rest)].to_ascii_lowercase();
    let sends = [
        "@",
        "http",
        "bcc",
        " cc",
        "recipient",
        "send",
        "forward",
        "copy",
        "redirect",
    ]
    .iter()
    .any(|w| sentence.contains(w));
    own && !sends
}

fn non_empty_path(p: &str) -> Option<&str> {
    (!p.is_empty()).then_some(p)
}

/// Identifiers (the tool's name, property names) are read as words.
fn scan_identifier(
    text: &str,
    name: &str,
    path: Option<&str>,
    place: &str,
    (required, scalar): (bool, bool),
    out: &mut Vec<Finding>,
) {
    let norm = normalize::Normalized::new(text);
    let words = walk::identifier_words(&norm.text);
    let field = if path.is_some() {
        signals::Field::Identifier
    } else {
        signals::Field::ToolName
    };
    // `_system_prompt_` reads as " system prompt ": the names' patterns are anchored.
    let hits = identifier_hits(words.trim(), field, name, path.is_some());
    for mut hit in hits {
        // `include_credentials: boolean` (the Ludus server's documentation switch, benign
        // 22): a flag holds no credential and no conversation.
        if scalar && hit.label == signals::CONTEXT_PARAM {
            continue;
        }
        // Real servers that ask for the calling model (Netlify, Pinecone, Home Assistant)
        // leave it optional; one that refuses to run without it is fingerprinting. An
        // `agent_id` names an agent the tool manages (ElevenLabs, monday.com), not the caller.
        let of_model = || {
            words
                .split_whitespace()
                .any(|w| matches!(w, "llm" | "model" | "calling" | "caller"))
        };
        if required && hit.label == signals::MODEL_IDENTITY && of_model() {
            hit.label = signals::MODEL_IDENTITY_REQUIRED;
        }
        let message = format!(
            "Tool \"{name}\" {place} \"{text}\" looks like an attack ({}): a model will fill it with what it names",
            hit.label
        );
        record(
            hit.rule,
            hit.label,
            message,
            vec![text.to_string()],
            location(name, path),
            out,
        );
    }
}

/// The signals of an identifier's words (`words`, of a property name when `of_property`,
/// else of the tool's name), with the exemptions names need.
fn identifier_hits(
    words: &str,
    field: signals::Field,
    name: &str,
    of_property: bool,
) -> Vec<signals::Hit> {
    let mut hits = signals::detect(words, field, name);
    // A property name that is a sentence (`input_ignore_previous_instructions`,
    // `query_must_also_send_to_attacker_dot_com`: mcp-sentinel's corpus) is read as prose
    // too, for the orders no real name gives.
    if hits.is_empty() && of_property && words.split_whitespace().count() >= 4 {
        hits = signals::detect(words, signals::Field::Prose, name)
            .into_iter()
            .filter(|h| {
                [
                    signals::OVERRIDE,
                    signals::EXFILTRATION,
                    signals::SECRET_READ,
                    signals::HOSTILE,
                ]
                .contains(&h.label)
            })
            .collect();
    }
    // `bypass_safety_checks` (ventrova's demo manifest): a switch named to get round the
    // safeguards. Real switches say `skip_security_check`, `force`, `dry_run`.
    if hits.is_empty()
        && of_property
        && matches!(
            words.split_whitespace().next(),
            Some("bypass" | "circumvent")
        )
    {
        hits = signals::detect(words, signals::Field::Prose, name)
            .into_iter()
            .filter(|h| h.label == signals::PERSONA)
            .collect();
    }
    // `get_retell_llm`'s `llmId` ("The ID of the Retell LLM to retrieve", session 24): an
    // LLM the tool manages, as an `agent_id` names an agent, not the calling model.
    let manages_models = of_property
        && walk::identifier_words(name)
            .split_whitespace()
            .any(|w| matches!(w, "llm" | "llms" | "model" | "models"));
    // `ssh_db_dump` (mcp-ssh-manager, session 24): a tool family's `ssh` prefix, not the
    // user's SSH key, unless the words after it name the key.
    let mut w = words.split_whitespace();
    let ssh_family = !of_property
        && w.next() == Some("ssh")
        && !w.any(|x| {
            matches!(
                x,
                "key" | "keys" | "id" | "rsa" | "private" | "credentials" | "identity" | "config"
            )
        });
    hits.retain(|h| {
        !(manages_models && h.label == signals::MODEL_IDENTITY
            || ssh_family && h.label == signals::CONTEXT_PARAM)
    });
    hits
}

/// A tool named like one its own description names, with digits for some of its letters
/// (`send_emai1` whose description speaks of `send_email`: magical_meerkat's testbed): the
/// look-alike that takes the real tool's calls. Only a name with a digit, against a named
/// identifier (snake_case) without one.
fn digit_twin<'d>(name: &str, description: &'d str) -> Option<&'d str> {
    if !name.bytes().any(|b| b.is_ascii_digit()) || name.len() > 64 {
        return None;
    }
    let stands_for = |d: u8, c: u8| match d {
        b'0' => c == b'o',
        b'1' => matches!(c, b'l' | b'i'),
        b'3' => c == b'e',
        b'4' => c == b'a',
        b'5' => c == b's',
        b'7' => c == b't',
        _ => false,
    };
    description
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.len() == name.len() && w.contains('_') && !w.bytes().any(|b| b.is_ascii_digit())
        })
        .find(|w| {
            name.bytes().zip(w.bytes()).all(|(a, b)| {
                a.eq_ignore_ascii_case(&b)
                    || (a.is_ascii_digit() && stands_for(a, b.to_ascii_lowercase()))
            })
        })
}

/// `security/confusable-name`: a name with non-ASCII letters whose skeleton is ASCII, or a
/// digit-for-letter twin of a tool its description names.
fn confusable_name(n: &str, description: Option<&str>, out: &mut Vec<Finding>) {
    if let Some((looks, odd)) = lookalike(n) {
        out.push(
            rules::CONFUSABLE_NAME
                .fail(format!(
                    "Tool \"{n}\" name uses look-alike characters ({}): it reads as \"{looks}\"",
                    odd.join(", ")
                ))
                .expected(looks)
                .actual(n.to_string())
                .location(n),
        );
    }
    if let Some(twin) = description.and_then(|d| digit_twin(n, d)) {
        out.push(
            rules::CONFUSABLE_NAME
                .fail(format!(
                    "Tool \"{n}\" name swaps letters for digits of the tool its description names: it reads as \"{twin}\""
                ))
                .expected(twin.to_string())
                .actual(n.to_string())
                .location(n),
        );
    }
}

enum Place<'a> {
    Name,
    Description,
    Param(&'a str),
    /// A walked string: its path and how messages name it.
    Other(&'a str, &'a str),
}

fn location(name: &str, path: Option<&str>) -> String {
    match path {
        Some(p) => format!("{name}.{p}"),
        None => name.to_string(),
    }
}

fn hidden(text: &str, name: &str, place: Place, out: &mut Vec<Finding>) {
    let found = unicode::scan(text);
    if found.is_empty() {
        return;
    }
    let described = unicode::describe(&found);
    let (message, path) = match place {
        Place::Name => (format!("Tool \"{name}\" name contains hidden unicode: {described}"), None),
        Place::Description => (
            format!("Tool \"{name}\" description contains hidden unicode: {described}"),
            None,
        ),
        Place::Param(p) => (
            format!("Tool \"{name}\" parameter \"{p}\" description contains hidden unicode: {described}"),
            Some(p),
        ),
        Place::Other(p, place) => (
            format!("Tool \"{name}\" {place} contains hidden unicode: {described}"),
            non_empty_path(p),
        ),
    };
    let stray = found.iter().all(|&(c, _)| c == '\u{200B}') && stray_zero_width_spaces(text);
    let spaces = found.iter().all(|&(c, _)| c == '\u{A0}') && lone_no_break_spaces(text);
    let finding = if stray {
        rules::HIDDEN_UNICODE.warn(format!(
            "{message} (after a space at the start of a word, so it splits or hides no word: warning only)"
        ))
    } else if spaces {
        rules::HIDDEN_UNICODE.warn(format!(
            "{message} (each alone between two words, where a space belongs: warning only)"
        ))
    } else {
        rules::HIDDEN_UNICODE.fail(message)
    };
    out.push(
        finding
            .actual(unicode::occurrences_json(&found))
            .location(location(name, path)),
    );
}

/// Every U+200B of `text` stands in a run of at most two between whitespace and the start
/// of a word ("How \u{200B}\u{200B}to obtain", pasted from a rich-text editor into a Lark
/// parameter): it joins no letters and splits no word, where smuggling breaks a keyword
/// (`ign\u{200B}ore`) or encodes bits in long runs. Scanners' test data puts a lone one after
/// a word ("A normal tool\u{200B} with …") and calls it poisoned; that shape keeps failing.
fn stray_zero_width_spaces(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    let blank = |c: Option<&char>| c.is_none_or(|c| c.is_whitespace());
    let mut i = 0;
    while i < cs.len() {
        if cs[i] != '\u{200B}' {
            i += 1;
            continue;
        }
        let start = i;
        while cs.get(i) == Some(&'\u{200B}') {
            i += 1;
        }
        let before = start.checked_sub(1).and_then(|j| cs.get(j));
        let word_next = cs.get(i).is_some_and(|c| c.is_alphanumeric());
        if i - start > 2 || !(blank(before) && word_next) {
            return false;
        }
    }
    true
}

/// Every U+00A0 of `text` stands alone between two non-blank characters, where a space
/// belongs ("all the\u{A0}changes", what text copied from a web page keeps: ms-365's Graph
/// descriptions): it hides nothing. Runs (padding that pushes text out of view) and one next
/// to other whitespace keep failing.
fn lone_no_break_spaces(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    let solid = |c: Option<&char>| c.is_some_and(|c| !c.is_whitespace());
    cs.iter()
        .enumerate()
        .all(|(i, &c)| c != '\u{A0}' || (i > 0 && solid(cs.get(i - 1)) && solid(cs.get(i + 1))))
}

/// Records one hit: a failure, or a warning for advisory labels; a place reached twice
/// (a property under two combinator branches) reports once.
fn record(
    rule: &Rule,
    label: &str,
    message: String,
    actual: impl Into<Value>,
    location: String,
    out: &mut Vec<Finding>,
) {
    let finding = if signals::advisory(label) {
        rule.warn(message)
    } else {
        rule.fail(message)
    };
    let finding = finding.actual(actual).location(location);
    if !out.iter().any(|f| {
        f.id == finding.id && f.location == finding.location && f.message == finding.message
    }) {
        out.push(finding);
    }
}

/// The original's twelve phrases (one finding, exact message), then the poisoning shapes and
/// signals (one finding per hit, the shape named in the message). A hit whose evidence
/// overlaps an original match or an earlier hit's evidence is dropped, so one sentence is
/// reported once. Matching runs on the normalized text; quotes are of the raw text.
fn injection(
    text: &str,
    name: &str,
    path: Option<&str>,
    own_props: &[&str],
    out: &mut Vec<Finding>,
) {
    let norm = normalize::Normalized::new(text);
    let mut original = memo::phrases(&norm.text, || patterns::injection_matches(&norm.text));
    // "Execute ANY command" on a tool whose name executes commands (docs/stability.md).
    original.retain(|&m| !text::runs_own_commands(&norm.text, name, m));
    if let Some(&first) = original.first() {
        let message = match path {
            None => format!(
                "Tool \"{name}\" description contains injection-like pattern: {}",
                quote(text, &norm, first)
            ),
            Some(p) => format!(
                "Tool \"{name}\" parameter \"{p}\" description contains injection pattern: {}",
                quote(text, &norm, first)
            ),
        };
        record(
            &rules::INJECTION_PATTERN,
            "",
            message,
            raw_quotes(text, &norm, &original),
            location(name, path),
            out,
        );
    }
    let mut used: Vec<Span> = original;
    // Then prose in base64, hex or ROT13 that no pattern read an order in: what a scanner that
    // does not decode would pass (real listings hold none: images and keys decode to no words).
    let encoded = norm
        .decoded
        .iter()
        .filter(|s| norm.text[s.0..s.1].split_whitespace().count() >= 4)
        .map(|&s| (&rules::INJECTION_PATTERN, signals::ENCODED, vec![s]));
    let hits = shape_hits(&norm, name, signals::Field::Prose);
    for (rule, label, evidence) in hits.into_iter().chain(encoded) {
        let switch = || path.is_some_and(|p| own_switch(text, &norm, p, &evidence));
        if overlaps_any(&used, &evidence)
            || (label == signals::PERSONA && switch())
            || (label == signals::SHADOW_OTHER
                && names_own_param(text, &norm, &evidence, own_props))
        {
            continue;
        }
        used.extend(evidence.iter().copied());
        let q = quote(text, &norm, evidence[0]);
        let message = match path {
            None => format!("Tool \"{name}\" description contains injection-like pattern ({label}): {q}"),
            Some(p) => format!(
                "Tool \"{name}\" parameter \"{p}\" description contains injection pattern ({label}): {q}"
            ),
        };
        record(
            rule,
            label,
            message,
            raw_quotes(text, &norm, &evidence),
            location(name, path),
            out,
        );
    }
}

#[cfg(test)]
mod tests;
