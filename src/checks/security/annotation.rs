//! `security/annotation-mismatch`: behaviour hints that contradict what the tool says it
//! does (security.md §7, #13).
//!
//! The original matched mutation words anywhere in `name + " " + description`; on real
//! servers most of those words describe something else: a negation ("does not start or
//! modify the crawl"), a filter or a parameter ("Remove products with $0.00", `` `removed` ``),
//! another tool ("choose the corresponding update tool"), a noun ("status updates"). So a
//! word counts only where it states the tool's *own action* (docs/decisions.md, #13):
//!
//! * in the name;
//! * as the leading verb (and the verbs coordinated with it) of the first sentence;
//! * in a later sentence whose subject is the tool ("This tool also deletes …", "Use this to
//!   delete …") or that opens with a third-person verb ("Deletes the cache.");
//!
//! and never when a negation ("not", "never", "without", "no", "…n't") comes before it in
//! its sentence, inside code spans or quotes, or as part of an identifier (`update_mask`).
//!
//! Four lies are reported, one finding per hint: `readOnlyHint: true` on a tool that
//! changes state (the original's case, widened to execute / install / send / write / …),
//! `destructiveHint: false` on one that deletes, `openWorldHint: false` on one that
//! fetches URLs or searches the web, and a read-only claim (hint or description) next to a
//! parameter that switches writing on (`write_mode`).

use super::walk::identifier_parts;
use super::{patterns, rules};
use crate::model::Finding;
use serde_json::{json, Map, Value};

pub(super) fn annotation(
    obj: &Map<String, Value>,
    name: &str,
    description: &str,
    out: &mut Vec<Finding>,
) {
    let hints = obj.get("annotations").and_then(Value::as_object);
    let hint = |key: &str| hints.and_then(|a| a.get(key));
    let read_only = hint("readOnlyHint") == Some(&Value::Bool(true));
    let not_destructive = hint("destructiveHint") == Some(&Value::Bool(false));
    let closed_world = hint("openWorldHint") == Some(&Value::Bool(false));
    // Most tools set none of these hints and claim nothing: skip reading the text.
    if !(read_only || not_destructive || closed_world || may_claim_read_only(description)) {
        return;
    }
    let lower = description.to_ascii_lowercase();
    let text = Text::new(description, &lower);

    // A tool generated from an HTTP API that states its route ("GET /patch.one", Dokploy's
    // 604 tools): GET is the API's read, whatever noun the route's name holds ("patch").
    let http_get = description.trim_start().starts_with("GET /");
    if read_only && !http_get {
        if let Some((ev, strong)) = mutation_evidence(name, &text) {
            out.push(read_only_finding(name, description, &ev, strong));
        } else if hint("destructiveHint") == Some(&Value::Bool(true)) {
            // The two hints contradict each other: a client that trusts the first approves
            // a tool its own author says may destroy data (round 24's vague `execute`; no
            // real listing of the corpus declares both). mcp-go fills every hint with its
            // default (destructive, not idempotent, open world) and serializes them all, so
            // a read-only tool of that SDK carries `destructiveHint: true` it never chose:
            // with the other two at those defaults it is a warning.
            let sdk_defaults = hint("idempotentHint") == Some(&Value::Bool(false))
                && hint("openWorldHint") == Some(&Value::Bool(true));
            let finding = if sdk_defaults {
                rules::ANNOTATION_MISMATCH.warn(format!(
                    "Tool \"{name}\" has readOnlyHint=true and destructiveHint=true: a read-only tool destroys nothing (the other hints are mcp-go's defaults: warning only)"
                ))
            } else {
                rules::ANNOTATION_MISMATCH.fail(format!(
                    "Tool \"{name}\" has readOnlyHint=true and destructiveHint=true: a read-only tool destroys nothing"
                ))
            };
            out.push(
                finding
                    .expected("readOnlyHint should be false for a tool that may destroy data")
                    .actual(json!({"readOnlyHint": true, "destructiveHint": true}))
                    .location(name),
            );
        }
    }
    // MCP: destructiveHint is meaningful only when readOnlyHint is false.
    if not_destructive && !read_only {
        if let Some(ev) = destruction_evidence(name, &text) {
            out.push(
                rules::ANNOTATION_MISMATCH
                    .fail(format!(
                        "Tool \"{name}\" has destructiveHint=false but name/description says it deletes: \"{ev}\""
                    ))
                    .expected("destructiveHint should be true (or omitted) for tools that delete or destroy data")
                    .actual(json!({"destructiveHint": false, "evidence": ev}))
                    .location(name),
            );
        }
    }
    if closed_world {
        if let Some(ev) = open_world_evidence(name, &text) {
            out.push(
                rules::ANNOTATION_MISMATCH
                    .fail(format!(
                        "Tool \"{name}\" has openWorldHint=false but name/description says it reaches the open web: \"{ev}\""
                    ))
                    .expected("openWorldHint should be true (or omitted) for tools that fetch URLs or search the web")
                    .actual(json!({"openWorldHint": false, "evidence": ev}))
                    .location(name),
            );
        }
    }
    let claim = if read_only {
        Some("readOnlyHint=true".to_string())
    } else {
        text.read_only_claim()
    };
    if let Some(claim) = claim {
        if let Some((param, in_schema)) = write_switch(name, obj.get("inputSchema"), &text) {
            let location = if in_schema {
                format!("{name}.{param}")
            } else {
                name.to_string()
            };
            out.push(
                rules::ANNOTATION_MISMATCH
                    .fail(format!(
                        "Tool \"{name}\" says it is read-only ({claim}) but parameter \"{param}\" switches writing on"
                    ))
                    .expected("a read-only tool has no parameter that enables writes")
                    .actual(json!({"readOnlyClaim": claim, "parameter": param}))
                    .location(location),
            );
        }
    }
}

/// Whether the description can hold "read-only" / "readonly" / "read only" at all.
fn may_claim_read_only(description: &str) -> bool {
    let b = description.as_bytes();
    b.windows(4).any(|w| w.eq_ignore_ascii_case(b"read"))
        && b.windows(4).any(|w| w.eq_ignore_ascii_case(b"only"))
}

/// The original's finding, byte for byte, when the original would have reported the tool
/// too (security.md §7.2); a catch beyond the original quotes its evidence. Evidence that
/// is only a weak verb of the description is a warning (see [`weak_in_prose`]).
fn read_only_finding(name: &str, description: &str, ev: &str, strong: bool) -> Finding {
    let original = "readOnlyHint=true but name/description implies mutation";
    if !strong {
        return rules::ANNOTATION_MISMATCH
            .warn(format!(
                "Tool \"{name}\" has {original}: \"{ev}\" (a verb that names a change only sometimes: warning only)"
            ))
            .expected("readOnlyHint should be false for tools that change state")
            .actual(json!({"readOnlyHint": true, "evidence": ev}))
            .location(name);
    }
    if patterns::implies_mutation(&format!("{name} {description}")) {
        rules::ANNOTATION_MISMATCH
            .fail(format!("Tool \"{name}\" has {original}"))
            .expected("readOnlyHint should be false for destructive operations")
            .actual(json!({"readOnlyHint": true, "impliesDestruction": true}))
            .location(name)
    } else {
        rules::ANNOTATION_MISMATCH
            .fail(format!("Tool \"{name}\" has {original}: \"{ev}\""))
            .expected("readOnlyHint should be false for tools that change state")
            .actual(json!({"readOnlyHint": true, "evidence": ev}))
            .location(name)
    }
}

// ---------------------------------------------------------------------------------------
// Word tables. Base forms; the third-person form is derived ([`is_form`]).

/// Verbs that change state (readOnlyHint). The original's fourteen verbs, then what #13
/// lists (execute, install, put, send, write) and their kin.
const MUTATION: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "wipe",
    "erase",
    "drop",
    "truncate",
    "write",
    "modify",
    "update",
    "create",
    "insert",
    "mutate",
    "change",
    // #13
    "execute",
    "run",
    "install",
    "uninstall",
    "put",
    "send",
    "post",
    "upload",
    "overwrite",
    "save",
    "append",
    "edit",
    "rename",
    "move",
    "purge",
    "deploy",
    "publish",
    "kill",
    "terminate",
    "add",
    "commit",
    // more state changes, from real servers' read/write tools (docs/decisions.md)
    "push",
    "fork",
    "assign",
    "dismiss",
    "submit",
    "patch",
    "apply",
    "upgrade",
    "scale",
    "pause",
    "reset",
    "switch",
    "mark",
    "toggle",
    "evaluate",
    "click",
    "fill",
    "press",
    "drag",
    "merge",
    "pull",
    "clone",
    "rebase",
    "stage",
];

/// Creation verbs a side-effect-free tool uses for what it returns ("Create a buffer zone
/// (polygon) around a point … Works offline without API calls"
/// and "Merge two or more polygons into a single unified geometry").
const WEAK: &[&str] = &["create", "add", "insert", "merge"];

/// What a creation verb makes that a read-only tool hands back rather than stores: "Create
/// chat completions", "create embeddings", "Creates a deployment plan", "create GraphQL read
/// queries" (Azure's and Salesforce's read-only tools).
const ARTIFACTS: &[&str] = &[
    "completion",
    "completions",
    "embedding",
    "embeddings",
    "plan",
    "plans",
    "query",
    "queries",
    "summary",
    "summaries",
    "diagram",
    "diagrams",
    "chart",
    "charts",
    "visualization",
    "visualizations",
    "outline",
    "suggestion",
    "suggestions",
];

/// Verbs beyond the original's table that a description uses for a change outright. The
/// rest ("send a message", "save it to", "pulls from", "click", a weak creation verb) name
/// a change on some tools and a read or a returned value on others: real read-only tools
/// use them (Azure's `communication_email_send`, Salesforce's guidance tools that "create a
/// Lightning Web Component"), so in prose alone they warn; in the name they still fail.
const STRONG_BEYOND: &[&str] = &[
    "execute",
    "run",
    "evaluate",
    "install",
    "uninstall",
    "overwrite",
    "purge",
    "kill",
    "terminate",
    "upload",
    "publish",
    "deploy",
    "push",
    "commit",
];

/// A description's verb that is only a warning under readOnlyHint=true.
fn weak_in_prose(verb: &str) -> bool {
    match base_in(verb, MUTATION) {
        Some(b) => {
            WEAK.contains(&b)
                || !(ORIGINAL_MUTATION_WORDS.contains(&b) || STRONG_BEYOND.contains(&b))
        }
        None => false,
    }
}

/// A creation verb whose object is something handed back (see [`ARTIFACTS`]).
fn makes_artifact(verb: &str, object: &[&str]) -> bool {
    base_in(verb, WEAK).is_some() && object.iter().any(|o| ARTIFACTS.contains(o))
}

/// "Remove background from an image", `erase_from_video` (Bria's image and video tools,
/// `readOnlyHint: true`; benign 30): an edited copy of a picture handed back, the picture
/// being input. Not `remove_image`, which takes a picture away.
fn edits_media(verb: &str, object: &[&str]) -> bool {
    let media = |o: &&str| {
        matches!(
            *o,
            "image" | "images" | "video" | "videos" | "photo" | "photos" | "picture" | "pictures"
        )
    };
    base_in(verb, MEDIA_EDITS).is_some()
        && (object
            .iter()
            .any(|o| matches!(*o, "background" | "foreground" | "watermark"))
            || object
                .windows(3)
                .any(|w| w[0] == "from" && (media(&w[1]) || media(&w[2])))
            || object.windows(2).any(|w| w[0] == "from" && media(&w[1])))
}

const MEDIA_EDITS: &[&str] = &["remove", "erase", "crop"];

/// Mutation verbs that mutate only with certain objects: "Run an aggregation" reads,
/// "Execute terminal command" does not.
const NEEDS_EXEC_OBJECT: &[&str] = &["execute", "run", "evaluate"];
const EXEC_OBJECTS: &[&str] = &[
    "command",
    "commands",
    "cmd",
    "script",
    "scripts",
    "code",
    "shell",
    "program",
    "programs",
    "binary",
    "process",
    "terminal",
    "bash",
    "powershell",
    "python",
    "javascript",
    "subprocess",
    "expression",
    "expressions",
];
/// "Send a request/query" reads as often as it writes.
const SEND_READ_OBJECTS: &[&str] = &["request", "requests", "query", "queries", "get"];

/// Verbs that destroy data (destructiveHint). Not "remove": removing a label or a field
/// value is the normal undoable edit (GitHub's `update_issue_type`, destructiveHint=false).
const DESTRUCTION: &[&str] = &[
    "delete",
    "destroy",
    "drop",
    "wipe",
    "erase",
    "truncate",
    "purge",
    "overwrite",
    "uninstall",
];

/// What a purge destroys when it names it ("Purge all user records").
const DATA_NOUNS: &[&str] = &[
    "record",
    "records",
    "data",
    "file",
    "files",
    "user",
    "users",
    "row",
    "rows",
    "entries",
    "documents",
    "messages",
    "posts",
    "items",
    "objects",
    "database",
    "table",
    "tables",
];

/// Verbs that reach a resource the tool names (openWorldHint), with or without a web object.
const OPEN_ALWAYS: &[&str] = &["scrape", "crawl"];
const OPEN_WITH_WEB: &[&str] = &[
    "fetch", "download", "get", "retrieve", "read", "load", "open", "visit", "navigate", "browse",
    "search", "query", "call", "request", "extract",
];
const WEB_OBJECTS: &[&str] = &[
    "url", "urls", "web", "webpage", "webpages", "website", "websites", "internet", "http",
    "https", "online",
];

/// Nouns that "web" only qualifies: a "web test" or a "web app" is a resource of the
/// tool's own platform (Azure Monitor's `monitor_webtests_get`), not the open web.
const WEB_KINDS: &[&str] = &[
    "test",
    "tests",
    "app",
    "apps",
    "hook",
    "hooks",
    "job",
    "jobs",
    "service",
    "services",
    "server",
    "servers",
    "socket",
    "sockets",
    "component",
    "components",
    "part",
    "parts",
    // A security gateway's records about web traffic (Zscaler's ZIA/ZDX tools, session
    // 22's blind capture): "web probes", "URL categories", "URL filtering rules".
    "probe",
    "probes",
    "traffic",
    "category",
    "categories",
    "filtering",
    "dlp",
    // A scanner's stored findings (Sn1per's "Read the web technologies Sn1per detected",
    // `openWorldHint: false`; benign 23).
    "technology",
    "technologies",
];

/// Words after a web word in a tool's name that make it the page itself (`get_url_content`,
/// `fetch_web_page`): the name's object is the web, not a record named after it.
const WEB_CONTENT: &[&str] = &[
    "content",
    "contents",
    "page",
    "pages",
    "text",
    "html",
    "markdown",
    "body",
    "source",
    "links",
    "snapshot",
    "screenshot",
    "data",
    "results",
];

/// Nouns before "URL" that make it a value the tool hands back (a signed download link).
const URL_KINDS: &[&str] = &[
    "download",
    "upload",
    "signed",
    "presigned",
    "share",
    "sharing",
    "preview",
    "access",
    "public",
    "callback",
    "redirect",
    "webhook",
    // "Query metadata and current URL of an active browser session" (wavexis, benign 21):
    // the page a session is on, read back.
    "current",
    // "Get the recording URL for a call" (CallRail, benign 28): a link handed back. Not
    // "file" or "image": those are what a tool fetches.
    "recording",
    "thumbnail",
];

/// Verbs that only read: a name that starts with one names a read ("get-update-status").
const READ: &[&str] = &[
    "get",
    "list",
    "search",
    "read",
    "find",
    "fetch",
    "query",
    "describe",
    "show",
    "view",
    "check",
    "inspect",
    "lookup",
    "count",
    "preview",
    "validate",
    "explain",
    "analyze",
    "retrieve",
    "watch",
    "monitor",
    "status",
    "browse",
    "export",
    "download",
    "diff",
    "compare",
    "calculate",
    "compute",
    "estimate",
    "summarize",
    "parse",
];

/// Verbs that announce a list of the tool's operations.
const UMBRELLA: &[&str] = &[
    "manage",
    "handle",
    "perform",
    "support",
    "provide",
    "offer",
    "administer",
    "control",
];

/// Words before the verb that do not change whose action it is.
const PREAMBLE: &[&str] = &[
    "this",
    "the",
    "a",
    "tool",
    "function",
    "endpoint",
    "operation",
    "command",
    "method",
    "it",
    "use",
    "used",
    "to",
    "can",
    "be",
    "will",
    "may",
    "also",
    "then",
    "allows",
    "allow",
    "lets",
    "let",
    "enables",
    "helps",
    "you",
    "users",
    "user",
    "model",
    "agent",
    "assistant",
    "permanently",
    "safely",
    "quickly",
    "immediately",
    "automatically",
    "directly",
    "securely",
    "simply",
    "just",
    "first",
    "always",
    "only",
];

/// Words that open a verb's object: a later "and deletes them" is a verb, "changes and
/// updates of a project" are nouns.
const OBJECT_START: &[&str] = &[
    "the", "a", "an", "them", "it", "its", "their", "all", "any", "each", "every", "new",
    "existing", "one", "multiple", "selected", "this", "that", "these", "those", "your",
];
/// Preamble words that make the tool the subject of a sentence.
const SUBJECT: &[&str] = &[
    "this", "it", "tool", "use", "used", "allows", "allow", "lets", "enables", "helps",
];

const NEGATORS: &[&str] = &[
    "not", "never", "without", "no", "nor", "cannot", "neither", "none", "nothing",
];
/// Words that end a negation's reach inside a sentence.
const NEGATION_ENDS: &[&str] = &["but", "however", "instead", "whereas", "while", "yet"];

/// A description that says the tool has no effect outside its result.
const NO_EFFECT: &[&[&str]] = &[
    &["read", "only"],
    &["readonly"],
    &["no", "side", "effects"],
    &["without", "side", "effects"],
    &["side", "effect", "free"],
    &["works", "offline"],
    &["without", "api", "calls"],
    &["pure", "function"],
    &["only", "reads"],
];

fn is_form(word: &str, base: &str) -> bool {
    if word == base {
        return true;
    }
    let Some(rest) = word.strip_prefix(base) else {
        // modify → modifies
        return base
            .strip_suffix('y')
            .is_some_and(|stem| word.strip_prefix(stem) == Some("ies"));
    };
    match rest {
        "s" => !base.ends_with('s') && !base.ends_with("sh") && !base.ends_with("ch"),
        "es" => {
            base.ends_with('s')
                || base.ends_with("sh")
                || base.ends_with("ch")
                || base.ends_with('x')
        }
        _ => false,
    }
}

/// The base form from `table` that `word` is a form of.
fn base_in<'a>(word: &str, table: &[&'a str]) -> Option<&'a str> {
    table.iter().copied().find(|b| is_form(word, b))
}

fn third_person(word: &str) -> bool {
    word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us")
}

// ---------------------------------------------------------------------------------------
// The description as sentences of words.

#[derive(Debug)]
struct Word<'t> {
    raw: &'t str,
    /// The word lower-cased: a slice of the text's one lower-cased copy (ASCII lower-casing
    /// keeps byte offsets).
    lower: &'t str,
    start: usize,
    /// Part of an identifier (touches `_`, camelCase, or is followed by `(` / `=`), in a
    /// code span or in double quotes: not prose.
    code: bool,
    /// A comma, colon, parenthesis or slash stands right after it.
    punct_after: Option<char>,
    /// "doesn't", "won't", "can't": the word carries a negation.
    negates: bool,
    /// A negation comes before it in its sentence, with no "but" in between (computed once
    /// per sentence, so no input makes the check quadratic).
    under_negation: bool,
}

/// The line just ended (its last word has no punctuation after it, and is not code) goes on
/// in `rest`, which starts with a lower-case word after its indentation.
fn wrapped_line(sentences: &[Vec<Word<'_>>], rest: &str) -> bool {
    let bare = sentences
        .last()
        .and_then(|s| s.last())
        .is_some_and(|w| w.punct_after.is_none() && !w.code);
    let rest = rest.trim_start_matches([' ', '\t']);
    let first = rest
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    // "… without asking\nit erases every file": a new subject starts a new sentence.
    let new_subject = matches!(
        first,
        "it" | "this" | "that" | "these" | "they" | "we" | "you" | "the"
    );
    // "… what else a write to\nit changes" (Houdini's `node_inspect`, benign 31): a line
    // that ends in a preposition or an article waits for its object.
    let open = sentences.last().and_then(|s| s.last()).is_some_and(|w| {
        matches!(
            w.lower,
            "to" | "of"
                | "for"
                | "from"
                | "with"
                | "by"
                | "at"
                | "in"
                | "on"
                | "into"
                | "a"
                | "an"
                | "than"
        )
    });
    // Only a short tail ("it changes."), not a new clause that goes on ("… sent to\nit
    // uploads the workspace to the remote server": a review, session 37).
    let short_tail = rest
        .lines()
        .next()
        .is_some_and(|l| l.split_whitespace().count() <= 3);
    bare && ((open && short_tail) || !new_subject)
        && rest.starts_with(|c: char| c.is_ascii_lowercase())
}

struct Text<'t> {
    raw: &'t str,
    sentences: Vec<Vec<Word<'t>>>,
}

impl<'t> Text<'t> {
    /// `lower` is `raw.to_ascii_lowercase()`, made by the caller so words can borrow it.
    fn new(raw: &'t str, lower: &'t str) -> Self {
        let mut sentences = vec![Vec::new()];
        let bytes = raw.as_bytes();
        let mut in_code = false;
        let mut in_quote = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_alphanumeric() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let w = &raw[start..i];
                let before = start.checked_sub(1).map(|j| bytes[j]);
                let after = bytes.get(i).copied();
                let camel = w
                    .as_bytes()
                    .windows(2)
                    .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase());
                // "Returns 'changes' (each paragraph that was added …)" (eCFR's
                // `compare_versions`, benign 28): a word in single quotes after "returns",
                // "field" or "key", or before a gloss in brackets, names a field.
                let prev = sentences
                    .last()
                    .and_then(|s| s.last())
                    .map(|w: &Word| w.lower);
                let quoted = before == Some(b'\'')
                    && after == Some(b'\'')
                    && (raw[i + 1..].starts_with(" (")
                        || matches!(prev, Some("returns" | "field" | "fields" | "key" | "named")));
                let ident = before == Some(b'_')
                    || matches!(after, Some(b'_' | b'(' | b'='))
                    || camel
                    || quoted;
                let negates = w.ends_with(['n', 'N'])
                    && (raw[i..].starts_with("'t") || raw[i..].starts_with("\u{2019}t"));
                let punct_after = raw[i..]
                    .chars()
                    .next()
                    .filter(|c| matches!(c, ',' | ':' | '(' | ')' | '/' | '|'));
                let word = Word {
                    raw: w,
                    lower: &lower[start..i],
                    start,
                    code: ident || in_code || in_quote,
                    punct_after,
                    negates,
                    under_negation: false,
                };
                if let Some(s) = sentences.last_mut() {
                    s.push(word);
                }
                if negates {
                    // skip the "'t"
                    i += if raw[i..].starts_with('\'') { 2 } else { 4 };
                }
                continue;
            }
            let c = raw[i..].chars().next().unwrap_or(' ');
            let next = raw[i + c.len_utf8()..].chars().next();
            let ends = match c {
                // A docstring wrapped mid-sentence ("a failed download never\ntruncates a
                // file"; "— Graph silently\ndrops a reminder": Outlook's Graph server, benign
                // 27) runs on: a line that ends in a bare word and goes on in lower case.
                '\n' => !wrapped_line(&sentences, &raw[i + 1..]),
                ';' => true,
                '.' | '!' | '?' => next.is_none_or(char::is_whitespace),
                _ => false,
            };
            match c {
                '`' => in_code = !in_code,
                '"' | '\u{201C}' | '\u{201D}' => in_quote = !in_quote,
                _ => {}
            }
            if ends && sentences.last().is_some_and(|s| !s.is_empty()) {
                sentences.push(Vec::new());
                // A quote or code span does not run across a sentence.
                in_code = false;
                in_quote = false;
            }
            i += c.len_utf8();
        }
        sentences.retain(|s| !s.is_empty());
        for words in &mut sentences {
            let mut negation = false;
            for w in words.iter_mut() {
                w.under_negation = negation;
                if NEGATION_ENDS.contains(&w.lower) {
                    negation = false;
                } else if w.negates || NEGATORS.contains(&w.lower) {
                    negation = true;
                }
            }
            // "it changes nothing", "writes nothing": the object negates the verb.
            // "it writes no files, puts selections back" (REAPER's `measure_loudness`,
            // benign 29) too; not "no longer" ("deletes no longer needed branches"), nor
            // across a comma ("Delete, no confirmation needed").
            for i in 1..words.len() {
                let no = words[i].lower == "no"
                    && words[i - 1].punct_after.is_none()
                    && words
                        .get(i + 1)
                        .is_some_and(|n| !matches!(n.lower, "longer" | "more"));
                if words[i].lower == "nothing" || no {
                    words[i - 1].under_negation = true;
                }
                // "It changes and previews nothing" (Godot's `godot_animation_read`, benign
                // 31): "nothing" is the object of each verb of the list before it. Not after
                // "returns nothing" ("deletes and returns nothing" deletes).
                let returns = matches!(
                    words[i - 1].lower,
                    "returns" | "outputs" | "prints" | "yields" | "shows" | "displays"
                );
                // "nothing but the audit log", "nothing the user would notice" (a review,
                // session 37): only a "nothing" that ends its clause.
                let ends_clause = i + 1 == words.len() || words[i].punct_after.is_some();
                let mut j = i - 1;
                while words[i].lower == "nothing"
                    && ends_clause
                    && !returns
                    && j >= 2
                    && matches!(words[j - 1].lower, "and" | "or" | "nor")
                    && words[j - 2].punct_after.is_none()
                    && is_verb(words[j - 2].lower)
                {
                    words[j - 2].under_negation = true;
                    j -= 2;
                }
            }
        }
        Text { raw, sentences }
    }

    /// Whether the word at `idx` of sentence `s` sits under a negation.
    fn negated(&self, s: usize, idx: usize) -> bool {
        self.sentences[s][idx].under_negation
    }

    /// The verbs that state the tool's own action: `(sentence, word index)`.
    fn action_verbs(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut first = true;
        for (s, words) in self.sentences.iter().enumerate() {
            // A heading such as "🎯 Purpose:" or a list number is not the first sentence.
            let heading = words.len() <= 3
                && (words.last().is_some_and(|w| w.punct_after == Some(':'))
                    || words
                        .iter()
                        .all(|w| w.lower.bytes().all(|b| b.is_ascii_digit())));
            // "Notion | Retrieve a page": the action follows the vendor's prefix.
            let mut i = words
                .iter()
                .take(4)
                .position(|w| w.punct_after == Some('|'))
                .map_or(0, |p| p + 1);
            let mut subject = false;
            while let Some(w) = words.get(i) {
                if w.code || !PREAMBLE.contains(&w.lower) {
                    break;
                }
                subject |= SUBJECT.contains(&w.lower);
                i += 1;
            }
            let Some(lead) = words.get(i) else {
                continue;
            };
            // "Use this tool to delete …" names the action; "Use query for …" names a
            // parameter, and "use" is an instruction to the model.
            let uses = words[..i].iter().any(|w| matches!(w.lower, "use" | "used"));
            if uses && words[..i].last().is_none_or(|w| w.lower != "to") {
                if !heading {
                    first = false;
                }
                continue;
            }
            let is_first = first && !heading;
            if !heading {
                first = false;
            }
            // A later sentence states the tool's action when the tool is its subject or it
            // opens with a third-person verb and its object ("Deletes the cache.").
            let opens_object = |k: usize| {
                words
                    .get(k + 1)
                    .is_some_and(|w| OBJECT_START.contains(&w.lower))
            };
            if lead.code || !(is_first || subject || (third_person(lead.lower) && opens_object(i)))
            {
                continue;
            }
            // "It pushes the aggregation down to Odoo": a query pushed down to the server
            // is read there, not written (Odoo's `aggregate_records`, session 18).
            let pushdown = matches!(lead.lower, "push" | "pushes")
                && words[i + 1..].iter().take(4).any(|w| w.lower == "down");
            if pushdown {
                continue;
            }
            out.push((s, i));
            // "Create, update, or delete X"; "Read and modify"; "read/write".
            let mut j = i;
            loop {
                let mut k = j + 1;
                while words
                    .get(k)
                    .is_some_and(|w| matches!(w.lower, "and" | "or" | "then" | "also"))
                {
                    k += 1;
                }
                let joined = k > j + 1 || matches!(words[j].punct_after, Some(',' | '/'));
                match words.get(k) {
                    Some(w) if joined && !w.code && is_verb(w.lower) => {
                        out.push((s, k));
                        j = k;
                    }
                    _ => break,
                }
            }
            // "Manage tags: list all tags, create a new tag, delete a tag": after an
            // umbrella verb and a colon, each listed item's leading verb ("Get … which
            // includes the operations: …, drop index suggestions" lists nouns).
            let umbrella = base_in(lead.lower, UMBRELLA).is_some();
            if let Some(colon) = (i..words.len())
                .find(|&k| words[k].punct_after == Some(':'))
                .filter(|_| umbrella)
            {
                for k in colon + 1..words.len() {
                    let item_start = k == colon + 1
                        || words[k - 1].punct_after == Some(',')
                        || (matches!(words[k - 1].lower, "or" | "and")
                            && words[k - 2].punct_after == Some(','));
                    if item_start && !words[k].code && is_verb(words[k].lower) {
                        out.push((s, k));
                    }
                }
            }
            // "Lists files, then deletes them": a later verb in the lead verb's form.
            let lead_s = third_person(lead.lower);
            for k in j + 1..words.len() {
                if matches!(words[k - 1].lower, "and" | "then" | "but" | "also")
                    && !words[k].code
                    && opens_object(k)
                    && is_verb(words[k].lower)
                    && third_person(words[k].lower) == lead_s
                {
                    out.push((s, k));
                }
            }
        }
        out
    }

    /// The raw text from word `idx` of sentence `s` over up to `n` more words.
    fn quote(&self, s: usize, idx: usize, n: usize) -> &'t str {
        let words = &self.sentences[s];
        let start = words[idx].start;
        let last = &words[(idx + n).min(words.len() - 1)];
        &self.raw[start..last.start + last.raw.len()]
    }

    /// The next `n` prose words after `idx`, stopping at a comma or colon.
    fn object(&self, s: usize, idx: usize, n: usize) -> Vec<&str> {
        let words = &self.sentences[s];
        let mut out = Vec::new();
        if matches!(words[idx].punct_after, Some(',' | ':')) {
            return out;
        }
        for w in words.iter().skip(idx + 1).take(n) {
            out.push(w.lower);
            if matches!(w.punct_after, Some(',' | ':')) {
                break;
            }
        }
        out
    }

    /// Every place `(sentence, word index)` where `phrase` stands in prose.
    fn phrase_hits<'a>(&'a self, phrase: &'a [&str]) -> impl Iterator<Item = (usize, usize)> + 'a {
        self.sentences
            .iter()
            .enumerate()
            .flat_map(move |(s, words)| {
                (0..words.len().saturating_sub(phrase.len() - 1))
                    .filter(move |&i| {
                        phrase
                            .iter()
                            .zip(&words[i..])
                            .all(|(p, w)| w.lower == *p && !w.code)
                    })
                    .map(move |i| (s, i))
            })
    }

    /// A strong phrase anywhere, not negated: its quote.
    fn strong(&self, phrases: &[&[&str]]) -> Option<String> {
        phrases.iter().find_map(|p| {
            self.phrase_hits(p)
                .find(|&(s, i)| !self.negated(s, i))
                .map(|(s, i)| self.quote(s, i, p.len() + 1).to_string())
        })
    }

    /// The phrase ending before word `end` goes on "except by another …" ("this cannot be
    /// undone except by another change-number round": Signal's `finish_change_number`,
    /// benign 28): it names the way back, the same action again.
    fn excepted(&self, s: usize, end: usize) -> bool {
        let w = &self.sentences[s];
        let at = |k: usize| w.get(end + k).map(|x| x.lower);
        at(0) == Some("except")
            && at(1) == Some("by")
            && matches!(
                at(2),
                Some("another" | "repeating" | "rerunning" | "running")
            )
    }

    /// `strong` for a deletion's irreversibility: "cannot be undone except by another
    /// change-number round" names the way back (only here: whatever needs undoing is still a
    /// write under `readOnlyHint`).
    fn strong_irreversible(&self, phrases: &[&[&str]]) -> Option<String> {
        phrases.iter().find_map(|p| {
            self.phrase_hits(p)
                .find(|&(s, i)| {
                    !self.negated(s, i)
                        && !self.excepted(s, i + p.len())
                        && !self.pointed_elsewhere(s, i)
                })
                .map(|(s, i)| self.quote(s, i, p.len() + 1).to_string())
        })
    }

    /// "To permanently remove, contact CallRail support." (CallRail's `update_tracker`,
    /// benign 28): the sentence sends the reader to someone else for the action.
    /// The word `i` sits in the short "To …," clause and the main clause opens on
    /// contact/ask.
    fn pointed_elsewhere(&self, s: usize, i: usize) -> bool {
        let w = &self.sentences[s];
        // "To permanently remove one — use `omni_delete_dbt_environment`"; "a suggestion
        // that was permanently deleted with `omni_delete_model_suggestion`" (Omni's update
        // and restore tools, benign 30): the sibling named in code does the deleting.
        let deletes = |x: &Word<'_>| {
            ["delete", "remove", "destroy", "purge"]
                .iter()
                .any(|d| x.lower.contains(d))
        };
        // "To permanently revoke a token, use the delete tool instead" (Omni's
        // `omni_update_api_token`) names it in words; a docstring may wrap the sentence
        // before the name ("permanently deleted with\n`omni_delete_model_suggestion`").
        let continues = w
            .last()
            .is_some_and(|x| matches!(x.lower, "with" | "use" | "via" | "using" | "call"));
        let next = self
            .sentences
            .get(s + 1)
            .filter(|_| continues)
            .map_or(&[][..], |n| &n[..n.len().min(2)]);
        let sibling = w.iter().chain(next).any(|x| x.code && deletes(x))
            || w.windows(2).any(|p| deletes(&p[0]) && p[1].lower == "tool");
        if sibling {
            return true;
        }
        let Some(comma) = w.iter().take(8).position(|x| x.punct_after == Some(',')) else {
            return false;
        };
        w.first().is_some_and(|x| x.lower == "to")
            && i <= comma
            && w.get(comma + 1)
                .is_some_and(|x| matches!(x.lower, "contact" | "ask"))
    }

    /// Word `i` of sentence `s` follows "can be", "may be", "could be" or "might be" within
    /// a few words ("collectives that … can be restored or permanently deleted": Nextcloud's
    /// trash listing, session 24): what may happen to the items, not what the tool does.
    fn possible(&self, s: usize, i: usize) -> bool {
        // A wrapped docstring breaks the sentence at its newline: read back across it.
        let prev = s.checked_sub(1).map_or(&[][..], |p| &self.sentences[p][..]);
        let w: Vec<&str> = prev
            .iter()
            .chain(&self.sentences[s][..i])
            .map(|w| w.lower)
            .collect();
        let n = w.len();
        (n.saturating_sub(4)..n)
            .any(|j| j > 0 && w[j] == "be" && matches!(w[j - 1], "can" | "may" | "could" | "might"))
    }

    /// "collections that stay permanently on their profile" (instamcp's
    /// `instagram_highlights`, benign 22): how long a thing lasts, not a change the tool makes.
    /// "makes the project permanently theirs" (Keboola's `create_project`, benign 25): whose
    /// a thing is from then on.
    fn lasting(&self, s: usize, i: usize) -> bool {
        let words = &self.sentences[s];
        (i > 0
            && matches!(
                words[i - 1].lower,
                "stay" | "stays" | "remain" | "remains" | "kept" | "live" | "lives" | "visible"
            ))
            || words.get(i + 1).is_some_and(|w| {
                matches!(
                    w.lower,
                    "theirs" | "yours" | "ours" | "his" | "hers" | "owned" | "assigned"
                )
            })
    }

    /// The first unnegated "permanently", quoted, unless it is what may happen to the items
    /// ([`Text::possible`]) or its sentence `s` is excused by `excused(s)`. Only the first is
    /// weighed: reading each of many would be quadratic.
    fn permanently(&self, excused: impl Fn(usize) -> bool) -> Option<String> {
        self.phrase_hits(&["permanently"])
            .find(|&(s, i)| {
                !self.negated(s, i) && !self.lasting(s, i) && !self.pointed_elsewhere(s, i)
            })
            .filter(|&(s, i)| !excused(s) && !self.possible(s, i))
            .map(|(s, i)| self.quote(s, i, 2).to_string())
    }

    fn declares_no_effect(&self) -> bool {
        NO_EFFECT.iter().any(|p| {
            self.phrase_hits(p)
                .any(|(s, i)| p[0] == "without" || !self.negated(s, i))
        }) || self.sentences.iter().enumerate().any(|(s, words)| {
            // "does not modify / change / write / mutate"
            words.iter().enumerate().any(|(i, w)| {
                base_in(w.lower, &["modify", "change", "write", "mutate", "alter"]).is_some()
                    && self.negated(s, i)
            })
        })
    }

    /// "safe, read-only database query", "Safe readonly file access tool": the tool's own
    /// claim, in a sentence that states its action.
    fn read_only_claim(&self) -> Option<String> {
        for (s, words) in self.sentences.iter().enumerate() {
            for i in 0..words.len() {
                let one = words[i].lower == "readonly";
                let two =
                    words[i].lower == "read" && words.get(i + 1).is_some_and(|w| w.lower == "only");
                // "read-only endpoints navi doesn't wrap" (navi's API passthrough, benign
                // 27): "read-only" that qualifies other things the tool reaches.
                let next = words.get(i + 1 + usize::from(two)).map(|w| w.lower);
                let of_others = next.is_some_and(|n| {
                    matches!(
                        n,
                        "endpoints"
                            | "operations"
                            | "routes"
                            | "methods"
                            | "calls"
                            | "apis"
                            | "requests"
                            | "commands"
                            // "a read-only field or an invalid enum is rejected" (grp-mcp's
                            // `screen_submit`, benign 28): the records it writes.
                            | "field"
                            | "fields"
                            | "column"
                            | "columns"
                            | "attribute"
                            | "attributes"
                    )
                });
                // "the target field is read-only for this row" (grp-mcp, benign 28).
                let field_is = i > 0
                    && matches!(words[i - 1].lower, "is" | "are")
                    && words[i.saturating_sub(4)..i - 1].iter().any(|w| {
                        matches!(
                            w.lower,
                            "field" | "fields" | "column" | "columns" | "attribute" | "attributes"
                        )
                    });
                if (one || two) && !words[i].code && !self.negated(s, i) && !of_others && !field_is
                {
                    let first_sentence = s == 0;
                    let subject = words[..i]
                        .iter()
                        .any(|w| matches!(w.lower, "this" | "it" | "tool" | "is"));
                    if first_sentence || subject {
                        return Some(self.quote(s, i, usize::from(two)).to_string());
                    }
                }
            }
        }
        None
    }
}

fn is_verb(w: &str) -> bool {
    [MUTATION, READ, OPEN_WITH_WEB, OPEN_ALWAYS]
        .iter()
        .any(|t| base_in(w, t).is_some())
}

// ---------------------------------------------------------------------------------------
// The name.

/// The name's words as the original reads them: `_` joins (so `delete_files` is one word,
/// security.md §7.2), `-`, `.`, `/` and spaces separate.
fn name_words_compat(name: &str) -> Vec<String> {
    name.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.contains('_'))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The first word of the name that is a verb of any table: the action the name names.
fn name_action(words: &[String]) -> Option<usize> {
    (0..words.len()).find(|&i| is_verb(&words[i]) && !counted(words, i))
}

/// Word `i` follows a number ("1-click", "one-click": a kind of app, DigitalOcean's
/// `marketplace-1-click-list`), so it is no verb.
fn counted(words: &[String], i: usize) -> bool {
    i > 0 && (words[i - 1].bytes().all(|b| b.is_ascii_digit()) || words[i - 1] == "one")
}

fn mutates(verb: &str, object: &[&str]) -> bool {
    let Some(base) = base_in(verb, MUTATION) else {
        return false;
    };
    if NEEDS_EXEC_OBJECT.contains(&base) {
        // "Executes a Kusto .show command", "Runs a suite of diagnostic commands" (Microsoft
        // Fabric RTI, session 24): commands that only read.
        // Not beside "any" or a shell's own command ("a show command and any shell command").
        // "Execute a READ-ONLY command from an allowlist" (ssh-mcp, session 25's capture):
        // "read-only" right before the command word, with no second command joined on.
        let read_only = (object
            .windows(3)
            .any(|w| w[0] == "read" && w[1] == "only" && EXEC_OBJECTS.contains(&w[2]))
            || object
                .windows(2)
                .any(|w| matches!(w[0], "read-only" | "readonly") && EXEC_OBJECTS.contains(&w[1])))
            && !object.iter().any(|o| {
                matches!(
                    *o,
                    "or" | "and" | "destructive" | "write" | "writes" | "not" | "arbitrary"
                )
            });
        let reads = (read_only
            || object.iter().any(|o| {
                matches!(
                    o.trim_start_matches('.'),
                    "show" | "diagnostic" | "diagnostics" | "select" | "describe" | "explain"
                )
            }))
            && !object.iter().any(|o| {
                matches!(
                    *o,
                    "any" | "arbitrary" | "shell" | "bash" | "script" | "scripts" | "code"
                )
            });
        // "Execute Cypher query against the code knowledge graph" (gitnexus, benign 21):
        // what follows "against", "on" or "over" is what is queried, not what is run.
        let run = object
            .iter()
            .position(|o| matches!(*o, "against" | "on" | "over" | "across"))
            .map_or(object, |p| &object[..p]);
        // "Run a code review" (Codex's `review`, `readOnlyHint: true`; benign 23): the word
        // only qualifies a reading job.
        let qualifies = |i: usize| {
            run.get(i + 1).is_some_and(|n| {
                matches!(
                    *n,
                    "review" | "reviews" | "analysis" | "audit" | "search" | "scan" | "quality"
                )
            })
        };
        // "Evaluate alert expression against real historical data" (a Prometheus server's
        // `prom_simulate_firing_historical`, benign 29): an expression of a query language
        // is evaluated over data, not run as a program.
        let queries = |i: usize| {
            i > 0
                && matches!(
                    run[i - 1],
                    "alert"
                        | "promql"
                        | "filter"
                        | "search"
                        | "query"
                        | "jsonpath"
                        | "jmespath"
                        | "xpath"
                        | "cron"
                        | "regex"
                        | "math"
                        | "mathematical"
                        | "arithmetic"
                        | "boolean"
                        | "logical"
                )
        };
        return !reads
            && (0..run.len())
                .any(|i| EXEC_OBJECTS.contains(&run[i]) && !qualifies(i) && !queries(i));
    }
    if base == "send" {
        return !object.iter().any(|o| SEND_READ_OBJECTS.contains(o));
    }
    // "Change data capture: every record … changed since a time" (a QuickBooks server's
    // `qbo_cdc`, session 23's capture), a change feed or history: the noun, read.
    if base == "change" {
        return !object.starts_with(&["data", "capture"]);
    }
    true
}

// ---------------------------------------------------------------------------------------
// The four lies.

/// The words of the original's mutation table (security.md §7.1).
const ORIGINAL_MUTATION_WORDS: &[&str] = &[
    "delete", "remove", "destroy", "wipe", "erase", "drop", "truncate", "write", "modify",
    "update", "create", "insert", "mutate", "change",
];

/// The words that show a change under readOnlyHint=true, and whether they are strong
/// enough to fail (the name's verb, or a description verb other than [`weak_in_prose`]).
fn mutation_evidence(name: &str, text: &Text) -> Option<(String, bool)> {
    let words = name_words_compat(name);
    let parts = identifier_parts(name);
    // A picture named somewhere: "Remove a background job from the queue" is no edit (a
    // review, session 35).
    let lower_raw = text.raw.to_ascii_lowercase();
    let pictures = ["image", "video", "photo", "picture"]
        .iter()
        .any(|m| lower_raw.contains(m) || parts.iter().any(|w| w.starts_with(m)));
    // "netlify-deploy-services-reader": a name whose head noun is a reader names what it
    // reads; only the original's own words still count there.
    let reader = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "reader"
                | "viewer"
                | "lister"
                | "getter"
                | "fetcher"
                | "finder"
                | "inspector"
                | "explorer"
                | "checker"
        )
    });
    for (i, w) in words.iter().enumerate() {
        if READ.contains(&w.as_str()) {
            break;
        }
        if reader && !ORIGINAL_MUTATION_WORDS.contains(&w.as_str()) {
            continue;
        }
        if counted(&words, i) {
            continue;
        }
        let object: Vec<&str> = words[i + 1..].iter().map(String::as_str).collect();
        // "chat-completions-create": what the name makes may come before its verb, and
        // `_` joins it to a prefix ("foundry_openai_embeddings-create").
        let all: Vec<&str> = parts.iter().map(String::as_str).collect();
        if mutates(w, &object) && !makes_artifact(w, &all) && !(pictures && edits_media(w, &all)) {
            return Some((name.to_string(), true));
        }
    }
    // A tool named for editing a picture (`erase_from_image`) erases from the copy it
    // returns, whatever its description calls the object ("Erase the object a mask covers").
    let all: Vec<&str> = parts.iter().map(String::as_str).collect();
    let media_tool = pictures
        && all
            .iter()
            .any(|w| base_in(w, MEDIA_EDITS).is_some() && edits_media(w, &all));
    // Read only when a weak or scoped verb needs it.
    let mut no_effect: Option<bool> = None;
    let mut weak: Option<String> = None;
    let mut flags = SentenceFlags::default();
    for (s, i) in text.action_verbs() {
        let w = &text.sentences[s][i];
        let object = text.object(s, i, 5);
        if !mutates(w.lower, &object)
            || text.negated(s, i)
            || makes_artifact(w.lower, &object)
            || (pictures && edits_media(w.lower, &object))
            || (media_tool && base_in(w.lower, MEDIA_EDITS).is_some())
            || truncates_to_limit(text, s, i, &mut flags)
            || shows_for_inspection(text, s, i, &mut flags)
        {
            continue;
        }
        // "It changes only the session's tool registry … and does not change GitLab
        // data": a change the author scoped, next to a declared absence of effect.
        let words = &text.sentences[s];
        let scoped = words.get(i + 1).is_some_and(|n| n.lower == "only")
            || (i > 0 && words[i - 1].lower == "only");
        if (scoped || base_in(w.lower, WEAK).is_some())
            && *no_effect.get_or_insert_with(|| text.declares_no_effect())
        {
            continue;
        }
        let ev = text.quote(s, i, 3).to_string();
        if !weak_in_prose(w.lower) {
            return Some((ev, true));
        }
        weak.get_or_insert(ev);
    }
    text.permanently(|_| false)
        .or_else(|| text.strong(&[&["cannot", "be", "undone"]]))
        .map(|ev| (ev, true))
        .or(weak.map(|ev| (ev, false)))
}

fn destruction_evidence(name: &str, text: &Text) -> Option<String> {
    let words = identifier_parts(name);
    if let Some(a) = name_action(&words) {
        let ws: Vec<&str> = words.iter().map(String::as_str).collect();
        if base_in(&words[a], DESTRUCTION).is_some() && !spares_data(&ws, a) {
            return Some(name.to_string());
        }
    }
    let mut flags = SentenceFlags::default();
    for (s, i) in text.action_verbs() {
        let w = &text.sentences[s][i];
        if base_in(w.lower, DESTRUCTION).is_some()
            && !text.negated(s, i)
            && !truncates_to_limit(text, s, i, &mut flags)
        {
            let ws: Vec<&str> = text.sentences[s].iter().map(|w| w.lower).collect();
            // A cache tool's prose ("already purges what it changed") purges its caches,
            // unless it names data as the object.
            let cache_tool = words
                .iter()
                .any(|w| matches!(w.as_str(), "cache" | "caches"))
                && !ws[i + 1..].iter().take(4).any(|w| DATA_NOUNS.contains(w));
            let cache_purge = cache_tool && base_in(w.lower, &["purge"]).is_some();
            if !(spares_data(&ws, i) || cache_purge) {
                return Some(text.quote(s, i, 3).to_string());
            }
        }
    }
    // "Connect this plugin to a hosted Countbean book, permanently" (session 24's capture):
    // a link that lasts, where nothing is destroyed.
    let lasting = |s: usize| {
        let ws = &text.sentences[s];
        // "permanently change classification for FUTURE messages" (Outlook's inbox
        // override, benign 27): a standing rule, nothing destroyed.
        let standing = ws.windows(2).any(|p| {
            p[0].lower == "permanently"
                && matches!(p[1].lower, "change" | "changes" | "set" | "sets")
        });
        standing
            || ws.iter().any(|w| base_in(w.lower, PERSISTS).is_some())
                && !ws.iter().any(|w| takes_away(w.lower))
    };
    // "Send a new email over SMTP immediately; this cannot be undone" (owlpost's
    // `send_email`, benign 29): a message sent is an additive update in MCP's sense, however
    // final. Only a tool whose name opens on a verb that adds (not `cancel_send`); a
    // deletion it names was found above.
    // Not a generated `post_factory_reset` that erases (a review, session 35).
    let erases = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "reset"
                | "delete"
                | "erase"
                | "wipe"
                | "purge"
                | "destroy"
                | "remove"
                | "clear"
                | "format"
        )
    });
    let adds = !erases
        && words.first().is_some_and(|a| {
            matches!(
                a.as_str(),
                "send" | "reply" | "forward" | "publish" | "post" | "submit" | "share" | "invite"
            )
        });
    text.permanently(lasting).or_else(|| {
        if adds {
            return None;
        }
        text.strong_irreversible(&[
            &["cannot", "be", "undone"],
            &["irreversible"],
            &["irreversibly"],
        ])
    })
}

/// What the exemptions below read of a sentence, found once per sentence however many verbs
/// it holds ("Truncate, truncate, … the limit." would otherwise be read once per verb).
#[derive(Default)]
struct SentenceFlags {
    at: Option<usize>,
    names_limit: bool,
    for_inspection: bool,
}

impl SentenceFlags {
    fn of(&mut self, text: &Text, s: usize) -> &Self {
        if self.at != Some(s) {
            let words = &text.sentences[s];
            self.at = Some(s);
            self.names_limit = words.iter().any(|w| {
                matches!(
                    w.lower,
                    "limit"
                        | "limits"
                        | "exceed"
                        | "exceeds"
                        | "exceeded"
                        | "maximum"
                        | "max"
                        | "characters"
                        | "chars"
                        | "bytes"
                        | "tokens"
                        | "length"
                )
            });
            self.for_inspection = words.windows(2).any(|w| {
                matches!(
                    (w[0].lower, w[1].lower),
                    ("for", "inspection" | "viewing" | "display" | "preview") | ("to", "inspect")
                )
            });
        }
        self
    }
}

/// "The tool will truncate the data if those limits are exceeded" (Keboola's `query_data`,
/// benign 25): a result cut to a size limit, not a table emptied. The sentence names the
/// limit, and what is cut is output ("Truncates tables that exceed the retention limit"
/// empties tables).
fn truncates_to_limit(text: &Text, s: usize, i: usize, flags: &mut SentenceFlags) -> bool {
    let words = &text.sentences[s];
    let output = words[i + 1..]
        .iter()
        .take(4)
        .map(|w| w.lower)
        .find(|w| !matches!(*w, "the" | "a" | "an" | "any" | "its" | "long"))
        .is_some_and(|w| {
            matches!(
                w,
                "data"
                    | "output"
                    | "outputs"
                    | "result"
                    | "results"
                    | "response"
                    | "responses"
                    | "text"
                    | "content"
                    | "contents"
                    | "string"
                    | "strings"
                    | "value"
                    | "values"
                    | "message"
                    | "messages"
                    | "body"
                    | "payload"
                    | "lines"
                    | "it"
                    | "them"
            )
        });
    base_in(words[i].lower, &["truncate"]).is_some() && output && flags.of(text, s).names_limit
}

/// "Push backend node IDs to the frontend for inspection." (Lynx DevTool's
/// `DOM_pushNodesByBackendIdsToFrontend`, a Chrome DevTools Protocol method; benign 26): a
/// push or send to a viewer, for someone to look at.
fn shows_for_inspection(text: &Text, s: usize, i: usize, flags: &mut SentenceFlags) -> bool {
    base_in(text.sentences[s][i].lower, &["push", "send", "post"]).is_some()
        && flags.of(text, s).for_inspection
}

/// Verbs that make something last: "permanently" beside one of them keeps, not destroys.
const PERSISTS: &[&str] = &[
    "connect", "link", "store", "save", "persist", "remember", "pin",
];
/// A verb of [`DESTRUCTION`] or [`UNDOES`] in any form, its participle included ("the book
/// is permanently erased"), or "gone"/"lost".
fn takes_away(w: &str) -> bool {
    let participle = |b: &&str| {
        w.strip_prefix(*b)
            .is_some_and(|rest| rest == "d" || rest == "ed")
    };
    base_in(w, DESTRUCTION).is_some()
        || base_in(w, UNDOES).is_some()
        || DESTRUCTION.iter().chain(UNDOES).any(participle)
        || matches!(w, "gone" | "lost" | "dropped")
}

/// Verbs that take something away, so "permanently" beside them still says it is gone.
const UNDOES: &[&str] = &[
    "remove",
    "clear",
    "revoke",
    "discard",
    "disconnect",
    "unlink",
];

/// A destruction verb that destroys no data (session 23's blind capture): a cache purged,
/// which refills itself (Respira's `respira_purge_cache`: "Purge page and object caches"),
/// or the drop of a drag and drop (a Selenium agent's `drag_drop`).
fn spares_data(words: &[&str], i: usize) -> bool {
    let purge = base_in(words[i], &["purge"]).is_some() && purges_only_caches(&words[i + 1..]);
    let dropped = base_in(words[i], &["drop"]).is_some()
        && (words[..i].ends_with(&["drag"]) || words[..i].ends_with(&["drag", "and"]));
    // "Creates a GSQL loading job, runs it with the file, then drops the job" (TigerGraph,
    // session 24): the tool's own temporary job.
    // "the job" and nothing after it but the next clause ("drops the jobs table" is data).
    let job = base_in(words[i], &["drop"]).is_some()
        && words[i + 1..].starts_with(&["the", "job"])
        && words
            .get(i + 3)
            .is_none_or(|w| matches!(*w, "and" | "after" | "when" | "once"));
    // "Drop a cached schedule, freeing its memory. The file is untouched." (p6-mcp, benign
    // 29): an in-memory copy, which the file still holds.
    let cached = base_in(words[i], &["drop", "evict"]).is_some()
        && words[i + 1..].iter().take(3).any(|w| *w == "cached");
    purge || dropped || job || cached
}

/// The words after a purge name caches and nothing else ("page and object caches"), not
/// "all records and caches".
fn purges_only_caches(after: &[&str]) -> bool {
    let object: Vec<&str> = after.iter().copied().take(5).collect();
    let Some(end) = object
        .iter()
        .position(|w| matches!(*w, "cache" | "caches" | "cdn"))
    else {
        return false;
    };
    object[..end].iter().all(|w| {
        matches!(
            *w,
            "the"
                | "all"
                | "its"
                | "page"
                | "pages"
                | "object"
                | "and"
                | "site"
                | "browser"
                | "edge"
                | "full"
                | "post"
                | "opcode"
                | "redis"
                | "cdn"
        )
    })
}

fn open_world_evidence(name: &str, text: &Text) -> Option<String> {
    const VALUE_VERBS: &[&str] = &["get", "retrieve", "read", "extract", "query", "list"];
    let words = identifier_parts(name);
    // `get_project_url`: a URL as the value handed back, not one the tool opens; its prose
    // ("Gets the API URL for a project") says the same and is read the same way.
    let url_value = matches!(words.last().map(String::as_str), Some("url" | "urls"))
        && name_action(&words).is_some_and(|a| base_in(&words[a], VALUE_VERBS).is_some());
    if let Some(a) = name_action(&words) {
        let verb = &words[a];
        // The web word is the name's object where it ends the name (`fetch_url`), stands
        // before its verb (`web_search`) or before the page's content (`get_url_content`);
        // elsewhere it names a kind of record (`zia_get_url_category`, `zdx_get_web_probes`).
        let web = !url_value
            && words.iter().enumerate().any(|(k, w)| {
                WEB_OBJECTS.contains(&w.as_str())
                    && words
                        .get(k + 1)
                        .is_none_or(|n| k + 1 == a || WEB_CONTENT.contains(&n.as_str()))
            });
        if (base_in(verb, OPEN_ALWAYS).is_some() && !scrape_noun(words.get(a + 1)))
            || (web && base_in(verb, OPEN_WITH_WEB).is_some())
        {
            return Some(name.to_string());
        }
    }
    for (s, i) in text.action_verbs() {
        let w = &text.sentences[s][i];
        if text.negated(s, i) || (url_value && base_in(w.lower, VALUE_VERBS).is_some()) {
            continue;
        }
        let object = text.object(s, i, 6);
        let value_verb = base_in(w.lower, VALUE_VERBS).is_some();
        let web = object.iter().enumerate().any(|(k, o)| {
            let before = k.checked_sub(1).and_then(|p| object.get(p));
            WEB_OBJECTS.contains(o)
                && !(matches!(*o, "web" | "url" | "urls" | "http" | "https")
                    && object.get(k + 1).is_some_and(|n| WEB_KINDS.contains(n)))
                // "the malware protocol toggles (HTTP/FTP)" (Zscaler): a protocol named.
                && !(matches!(*o, "http" | "https")
                    && object[..k].iter().any(|p| matches!(*p, "protocol" | "protocols")))
                // "the online migration status" (DigitalOcean): a kind of migration.
                && !(*o == "online" && object.get(k + 1).is_some())
                // "Get the results download URL": a URL handed back, as `get_project_url`.
                && !(value_verb
                    && matches!(*o, "url" | "urls")
                    && before.is_some_and(|b| URL_KINDS.contains(b)))
        });
        let next = text.sentences[s].get(i + 1).map(|n| n.lower.to_string());
        if (base_in(w.lower, OPEN_ALWAYS).is_some() && !scrape_noun(next.as_ref()))
            || (web && base_in(w.lower, OPEN_WITH_WEB).is_some())
        {
            return Some(text.quote(s, i, 4).to_string());
        }
    }
    None
}

/// "scrape pool", "scrape config": Prometheus's nouns for what its own server scrapes
/// (prometheus-mcp's `prometheus_scrape_pool_targets`, benign 21), read from its API.
fn scrape_noun(next: Option<&String>) -> bool {
    next.is_some_and(|n| {
        matches!(
            n.as_str(),
            "pool" | "pools" | "config" | "configs" | "interval" | "timeout"
        )
    })
}

/// A parameter whose name switches writing on: `write_mode`, `allowWrite`, `enable_delete`.
/// Looked for among the input schema's top-level properties, then among the identifiers a
/// description lists ("Parameters: …, write_mode (boolean, …)"). `(name, in_schema)`.
fn write_switch(tool: &str, schema: Option<&Value>, text: &Text) -> Option<(String, bool)> {
    fn switch(ident: &str) -> bool {
        let parts = identifier_parts(ident);
        if parts.len() < 2 {
            return false;
        }
        let writes = parts.iter().any(|p| {
            matches!(
                p.as_str(),
                "write"
                    | "writes"
                    | "writable"
                    | "writeable"
                    | "delete"
                    | "deletes"
                    | "exec"
                    | "execute"
                    | "mutate"
                    | "mutation"
                    | "mutations"
                    | "modify"
                    | "destructive"
            )
        });
        let switch = parts.iter().any(|p| {
            matches!(
                p.as_str(),
                "mode"
                    | "enable"
                    | "enabled"
                    | "allow"
                    | "allowed"
                    | "flag"
                    | "access"
                    | "permission"
                    | "permissions"
                    | "ok"
            )
        });
        // "include_write_access" (an OPC UA server's `read_opcua_nodes`, benign 29) adds
        // what a write would need to the report: the name says what is returned.
        let reports = parts
            .first()
            .is_some_and(|p| matches!(p.as_str(), "include" | "show" | "report" | "return"));
        writes && switch && !reports
    }
    if let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    {
        if let Some(k) = props.keys().find(|k| switch(k)) {
            return Some((k.clone(), true));
        }
    }
    // Identifiers in the description: words joined by `_` or `-`, or camelCase. One that
    // carries the tool's own server prefix and is not given a value is a sibling tool ("Use
    // coda_add_permission to grant access or coda_delete_permission to revoke", session 25's
    // capture), not a parameter of this one.
    let raw = text.raw;
    raw.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|t| t.contains('_') || t.bytes().any(|b| b.is_ascii_uppercase()))
        .find(|t| {
            // `t` is a slice of `raw`: the text after it is the rest of `raw`.
            let start = t.as_ptr() as usize - raw.as_ptr() as usize;
            let end = start + t.len();
            // "1 ReadAccess · 2 WriteAccess" (Dataverse's access rights, benign 28): a
            // PascalCase word names a value or a type, not a parameter.
            let rest = raw[end..].trim_start_matches(['"', '\'', '`']).trim_start();
            let assigned = rest.starts_with(['=', ':']);
            let pascal = t.starts_with(|c: char| c.is_ascii_uppercase())
                && !t.contains(['_', '-'])
                && !assigned;
            // "Requires the instance's \"allow_write\": true" (grp-mcp, benign 28): the
            // server's own setting, a precondition, not an argument the model passes ("requires
            // write_mode=true" still passes one). Read only for a switch, and only 40 bytes back.
            let required = || {
                let mut lo = start.saturating_sub(40);
                while !raw.is_char_boundary(lo) {
                    lo += 1;
                }
                !rest.starts_with('=')
                    && raw[lo..start]
                        .rsplit(|c: char| !c.is_ascii_alphabetic())
                        .filter(|w| !w.is_empty())
                        .take(4)
                        .any(|w| {
                            w.eq_ignore_ascii_case("requires") || w.eq_ignore_ascii_case("require")
                        })
            };
            // `MEDPLUM_ENABLE_WRITES=true` (Medplum's `execute_graphql`, benign 29): an
            // environment variable the operator sets, not an argument the model passes.
            let env_var = t.contains('_')
                && !t.bytes().any(|b| b.is_ascii_lowercase())
                && t.bytes().any(|b| b.is_ascii_uppercase());
            switch(t)
                && !pascal
                && !env_var
                && !in_returns(&raw[..start])
                && !required()
                && !sibling_tool(tool, t, &raw[..start], &raw[end..])
        })
        .map(|t| (t.to_string(), false))
}

/// The text before an identifier ends inside a docstring's "Returns:" section ("Returns:
/// {"readonly": bool, "allow_writes": bool, …}": database_mcp's `db_security_status`,
/// benign 29): a field of the result, not a parameter. A section runs to the next heading
/// (a line of one word and a colon).
fn in_returns(before: &str) -> bool {
    before
        .lines()
        .rev()
        .skip(1)
        .map(str::trim)
        .find(|l| {
            l.len() > 1
                && l.ends_with(':')
                && l[..l.len() - 1].bytes().all(|b| b.is_ascii_alphabetic())
        })
        .is_some_and(|h| matches!(h, "Returns:" | "Return:" | "Yields:" | "Output:"))
}

/// The identifier `ident`, followed in its text by `after`, names a sibling tool: three or
/// more words, the first of them the tool's own first word (its server's prefix), and no
/// value given to it (`=`, `:` or `(` right after).
/// Two words are enough after "use" or "call" ("After finding the right tool, use
/// access_execute to run it": UniFi Access's `access_tool_index`, benign 28).
fn sibling_tool(tool: &str, ident: &str, before: &str, after: &str) -> bool {
    let own = identifier_parts(tool);
    let parts = identifier_parts(ident);
    let valued = after.trim_start().starts_with(['=', ':', '(']);
    let called = before
        .trim_end()
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .is_some_and(|w| matches!(w.to_ascii_lowercase().as_str(), "use" | "call" | "invoke"));
    let long = parts.len() >= 3 || (parts.len() == 2 && called);
    own.len() >= 2 && long && parts.first() == own.first() && !valued
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tool: Value) -> Vec<Finding> {
        let obj = tool.as_object().unwrap();
        let name = obj["name"].as_str().unwrap();
        let desc = obj.get("description").and_then(Value::as_str).unwrap_or("");
        let mut out = Vec::new();
        annotation(obj, name, desc, &mut out);
        out
    }

    /// Session 32: both hints at once; a wrapped docstring line; a tool that declares writes.
    /// Benign 28's annotation false positives (session 33), each beside an edge that still
    /// fails.
    #[test]
    fn benign_28_hints_read_in_context() {
        let hinted = |name: &str, desc: &str, hints: Value| {
            run(json!({"name": name, "description": desc, "annotations": hints})).len()
        };
        let not_destructive = || json!({"destructiveHint": false});
        let read_only = || json!({"readOnlyHint": true});
        let closed = || json!({"openWorldHint": false, "readOnlyHint": true});
        let none = || json!({});
        // (tool, description, hints, findings): each real wording silent beside an edge that
        // still fails.
        let cases = [
            // p6-mcp (benign 29): an in-memory copy dropped; its file untouched.
            ("close_schedule", "Drop a cached schedule, freeing its memory. The file is untouched.", not_destructive(), 0),
            ("clear_cache", "Drop every cached schedule. Files on disk are untouched.", not_destructive(), 0),
            ("drop_schedule", "Drop a schedule and its activities.", not_destructive(), 1),
            // Signal: the way back is named.
            ("finish_change_number", "On success the real account is moved to the new number; this cannot be undone except by another change-number round.", not_destructive(), 0),
            ("finish_change_number", "On success the account is moved; this cannot be undone.", not_destructive(), 1),
            // CallRail: someone else does the deletion; a media link handed back.
            ("update_tracker", "Update a tracker's settings. To disable a tracker, use delete_tracker. To permanently remove, contact CallRail support.", not_destructive(), 0),
            ("update_tracker", "Update a tracker's settings. Old trackers are permanently removed.", not_destructive(), 1),
            ("get_call_recording", "Get the recording URL for a call.", closed(), 0),
            ("get_call_recording", "Download the URL given and return its content.", closed(), 1),
            // eCFR: a result field named in quotes.
            ("compare_versions", "Compare two dates. Returns 'changes' (each paragraph that was added, removed or changed).", read_only(), 0),
            ("compare_versions", "Compare two dates. Changes the older text to match the newer one.", read_only(), 1),
            // Dataverse: access rights listed as values; UniFi: a sibling tool after "use";
            // grp-mcp: the instance's setting a write requires, a field that is read-only.
            ("dataverse_list_privileges", "List privileges. Rights: 1 ReadAccess · 2 WriteAccess · 4 AppendAccess.", read_only(), 0),
            ("access_tool_index", "Index of tools. After finding the right tool, use access_execute to run it.", read_only(), 0),
            ("list_rows", "Lists rows. Parameters: write_access (boolean, enables writes).", read_only(), 1),
            ("create_or_update_entity", "Writes an entity. Requires the instance's \"allow_write\": true (default is read-only).", none(), 0),
            ("screen_submit", "Drives a screen. Each set is checked: a read-only field is rejected up front. Requires allow_write.", none(), 0),
            ("run_query", "Runs a safe, read-only query. Parameters: query, allow_write (boolean).", none(), 1),
            // A reviewer's bypasses of these mends (session 33) still fail.
            ("finalize_invoice", "Finalizes the invoice and bills the customer; this cannot be undone except by issuing a refund.", read_only(), 1),
            ("purge_disk", "Erases the disk. This cannot be undone unless you have a backup.", not_destructive(), 1),
            ("disk_maintenance", "'Wipes' the target disk and erases all snapshots.", not_destructive(), 1),
            ("describe_image", "Reads the image URL supplied by the user and returns a caption.", json!({"openWorldHint": false}), 1),
            ("rotate_snapshots", "To save space, old snapshots are permanently removed without needing to ask the user.", not_destructive(), 1),
            ("query_ledger", "Queries the ledger (read-only). Set AllowWrite: true to persist changes.", none(), 1),
            ("explore_columns", "Column explorer, read-only. Parameters: table, write_mode (boolean).", none(), 1),
            ("view_notes", "Read-only viewer. Requires write_mode=true to save edits.", none(), 1),
        ];
        for (name, desc, hints, want) in cases {
            assert_eq!(hinted(name, desc, hints), want, "{name}: {desc}");
        }
        // Inputs a reviewer built against the new reads: each is read once per word, not per
        // pair (a 50,000-word sentence finishes at once).
        let underscores = format!("Read-only. {}", "_ ".repeat(50_000));
        assert_eq!(hinted("t", &underscores, read_only()), 0);
        let permanently = format!("To x {}contact support.", "permanently ".repeat(50_000));
        assert_eq!(hinted("t", &permanently, not_destructive()), 1);
    }

    #[test]
    fn contradictory_hints_wrapped_lines_and_declared_writes() {
        let fs = run(
            json!({"name": "execute", "description": "Run an action. The name is intentionally vague.",
            "annotations": {"readOnlyHint": true, "destructiveHint": true}}),
        );
        assert_eq!(fs.len(), 1, "{fs:?}");
        assert_eq!(fs[0].status, crate::model::Status::Fail);
        assert!(fs[0].message.contains("destructiveHint=true"));
        // Only the read-only claim: nothing to contradict.
        assert!(
            run(json!({"name": "list_files", "description": "Lists files.",
            "annotations": {"readOnlyHint": true, "destructiveHint": false}}))
            .is_empty()
        );
        // The negation runs across a wrapped line; a bare line break still ends a list item.
        let dl = |d: &str| {
            run(json!({"name": "download_attachment", "description": d,
            "annotations": {"destructiveHint": false}}))
        };
        assert!(dl("Download an attachment.\nThe write is atomic, so a failed download never\ntruncates a file already staged there.").is_empty());
        assert_eq!(dl("Download an attachment.\nWARNING: this overwrites the existing contents and cannot be\nundone.").len(), 1);
        assert_eq!(dl("Download an attachment.\nErases the old logs.").len(), 1);
        // "read-only" that qualifies the endpoints the tool reaches is no claim about it; a
        // claim stays one whatever the hint (readOnlyHint=false is every mcp-go tool's).
        let passthrough = |desc: &str| {
            run(json!({"name": "explore_api", "description": desc,
            "inputSchema": {"type": "object", "properties": {"write_mode": {"type": "boolean"}}},
            "annotations": {"readOnlyHint": false}}))
        };
        assert!(passthrough(
            "Raw API passthrough. Reach for this for status polling and read-only endpoints."
        )
        .is_empty());
        assert_eq!(passthrough("Safe, read-only database query tool.").len(), 1);
        // mcp-go's defaults beside readOnlyHint=true warn; chosen hints fail.
        let go = run(
            json!({"name": "list_issues", "description": "Lists issues.", "annotations":
            {"readOnlyHint": true, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}}),
        );
        assert_eq!(go.len(), 1);
        assert_eq!(go[0].status, crate::model::Status::Warn);
        // A wrapped line that opens on a new subject is a new sentence.
        assert_eq!(
            dl("Archive old logs without asking\nit erases every file under /var/log.").len(),
            1
        );
    }

    #[test]
    fn a_reader_name_reads() {
        assert!(ro("netlify-deploy-services-reader", "Reads deploy services.").is_empty());
        assert!(!ro("deploy-site", "Deploys the site.").is_empty());
    }

    fn ro(name: &str, desc: &str) -> Vec<Finding> {
        run(json!({"name": name, "description": desc, "annotations": {"readOnlyHint": true}}))
    }

    #[test]
    fn honest_read_only_tools_from_real_servers_stay_silent() {
        // Each description is a real server's (tests/corpus/benign), or the quote.
        for (name, desc) in [
            ("firecrawl_check_crawl_status", "Retrieve the current status, progress, and available results for an existing crawl ID. This only reads Firecrawl job state and does not start or modify the crawl."),
            ("firecrawl_monitor_get", "Retrieve one monitor by ID, including its configuration and current state. This does not run or modify the monitor."),
            ("firecrawl_monitor_check", "Retrieve one monitor check and its page-level results, optionally filtered by page status. Pages report `same`, `new`, `changed`, `removed`, or `error`; configured goal judging can add a meaningful-change decision."),
            ("buffer_tool", "Create a buffer zone (polygon) around a point, line, or polygon at a specified distance. Useful for proximity analysis, service areas, or creating zones of influence. Works offline without API calls."),
            ("API-retrieve-page-markdown", "Notion | Retrieve a page as Markdown\nError Responses:\n403: The integration lacks the read/update content capability required for this page."),
            ("get_prompts", "Retrieve a specific Desktop Commander onboarding prompt by ID and execute it.\n\n3. Create organized knowledge base (promptId: 'onb2_03')"),
            ("list_webhooks", "List webhooks for a project or group. It is read-only and does not mutate GitLab data; missing resources are returned as errors."),
            ("get_pricing", "Get pricing information.\n - **exclude_free_products**: Remove products with $0.00 OnDemand pricing"),
            ("find_duplicate", "Find likely duplicate issues. This is a read-only search: it returns ranked candidate issues, and does not close, link, comment on, or otherwise modify any issue."),
            ("aggregate", "Run an aggregation against a MongoDB collection"),
            ("list_notifications", "Lists all GitHub notifications, including mentions, assignments, and updates on issues."),
            ("get_commit", "Get details for a commit and its changes"),
            ("kubectl_context", "Manage Kubernetes contexts - list, get, or set the current context"),
            ("atlas-get-performance-advisor", "Get MongoDB Atlas performance advisor recommendations and suggestions, which includes the operations: suggested indexes, drop index suggestions, schema suggestions"),
            ("union_tool", "Merge two or more polygons into a single unified geometry. Works offline without API calls."),
            ("discover_tools", "Discover and activate additional tool categories for this session. It changes only the session's tool registry, returns the active-tool summary, and does not change GitLab data."),
        ] {
            assert!(ro(name, desc).is_empty(), "{name}: {desc}");
        }
    }

    #[test]
    fn read_only_lies_are_caught() {
        for (name, desc, ev) in [
            (
                "shell",
                "Executes a shell command on the host.",
                "Executes a shell command",
            ),
            (
                "exec",
                "Execute terminal command and return results",
                "Execute terminal command and",
            ),
            (
                "pkg",
                "Installs an npm package into the project.",
                "Installs an npm package",
            ),
            (
                "notes",
                "Lists notes. This tool also updates the note index.",
                "updates the note index",
            ),
            ("mail", "Send an email to a recipient.", "Send an email to"),
            (
                "fs",
                "Read and write files in the workspace.",
                "write files in the",
            ),
            ("s3", "Put an object into a bucket.", "Put an object into"),
            (
                "cleanup",
                "Lists stale files, then deletes them.",
                "deletes them",
            ),
            (
                "wh",
                "Create, update, or delete project webhooks.",
                "Create, update, or delete",
            ),
            (
                "x",
                "Use this tool to overwrite the config.",
                "overwrite the config",
            ),
            ("send-email", "Emails people.", "send-email"),
            (
                "git_tag",
                "Manage tags: list all tags, create a new tag, or delete a tag.",
                "create a new tag,",
            ),
            (
                "git_merge",
                "Merge branches together.",
                "Merge branches together",
            ),
        ] {
            let fs = ro(name, desc);
            assert_eq!(fs.len(), 1, "{name}: {desc}");
            assert!(
                fs[0].message.contains("readOnlyHint=true"),
                "{}",
                fs[0].message
            );
            assert!(
                fs[0].message.contains("implies mutation"),
                "{}",
                fs[0].message
            );
            let actual = fs[0].actual.as_ref().unwrap();
            if let Some(e) = actual.get("evidence") {
                assert_eq!(e, ev, "{name}");
            }
        }
        // Beyond the original: the evidence is quoted.
        let fs = ro("shell", "Executes a shell command on the host.");
        assert_eq!(
            fs[0].message,
            "Tool \"shell\" has readOnlyHint=true but name/description implies mutation: \"Executes a shell command\""
        );
        assert_eq!(
            fs[0].actual,
            Some(json!({"readOnlyHint": true, "evidence": "Executes a shell command"}))
        );
    }

    #[test]
    fn negation_and_context_keep_silent() {
        for desc in [
            "Shows files. It never deletes anything.",
            "Shows files. This tool doesn't delete or modify files.",
            "Shows files without changing them.",
            "Shows the `delete` flag of each file.",
            "Shows files. Use update_file to change them.",
            "Shows the \"update\" history.",
            "Summarises the changes and updates of a project.",
            "Shows files. Cannot delete, write or move them.",
            "Shows files with no permanently deleted entries.",
            // A query pushed down to the server (Odoo's `aggregate_records`).
            "Aggregate records server-side. It pushes the aggregation down to Odoo.",
            // M-PESA's status query (session 18's benign 9).
            "Query the status of a transaction. Read-only; it changes nothing.",
        ] {
            assert!(ro("reader", desc).is_empty(), "{desc}");
        }
        assert_eq!(
            ro("x", "Lists commits. It pushes the branch to origin.").len(),
            1
        );
        // A negation ends where "but" starts.
        assert_eq!(
            ro("x", "This tool does not read files but deletes them.").len(),
            1
        );
    }

    #[test]
    fn destructive_hint_false_on_a_deleting_tool() {
        let t = |name: &str, desc: &str, ann: Value| {
            run(json!({"name": name, "description": desc, "annotations": ann}))
        };
        let fs = t(
            "drop_table",
            "Drops a table.",
            json!({"destructiveHint": false}),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(
            fs[0].message,
            "Tool \"drop_table\" has destructiveHint=false but name/description says it deletes: \"drop_table\""
        );
        assert_eq!(
            fs[0].actual,
            Some(json!({"destructiveHint": false, "evidence": "drop_table"}))
        );
        assert_eq!(
            t(
                "cleanup",
                "Permanently erases old logs.",
                json!({"destructiveHint": false})
            )[0]
            .actual,
            Some(json!({"destructiveHint": false, "evidence": "erases old logs"}))
        );
        assert_eq!(
            t(
                "purge",
                "Deletes the cache. This cannot be undone.",
                json!({"destructiveHint": false})
            )
            .len(),
            1
        );
        // Silent: removing a field value (GitHub's update_issue_type), a true hint, or a
        // read-only tool (destructiveHint then means nothing, MCP).
        for (name, desc, ann) in [
            ("update_issue_type", "Set or remove the type of an existing issue. Pass null to remove the current type.", json!({"destructiveHint": false})),
            ("delete_file", "Delete a file.", json!({"destructiveHint": true})),
            ("delete_file", "Delete a file.", json!({})),
            ("list_deleted", "Lists deleted files; it does not delete anything.", json!({"destructiveHint": false})),
        ] {
            assert!(t(name, desc, ann).is_empty(), "{name}");
        }
    }

    #[test]
    fn open_world_hint_false_on_a_web_tool() {
        let t = |name: &str, desc: &str| {
            run(json!({"name": name, "description": desc, "annotations": {"openWorldHint": false}}))
        };
        for (name, desc) in [
            ("fetch_url", "Returns a page."),
            ("web_search", "Search."),
            ("firecrawl_scrape", "Scrape content."),
            (
                "get",
                "Fetches a URL from the internet and returns its content.",
            ),
            ("lookup", "Search the web for a topic."),
        ] {
            let fs = t(name, desc);
            assert_eq!(fs.len(), 1, "{name}");
            assert!(fs[0].message.contains("openWorldHint=false"));
        }
        for (name, desc) in [
            ("firecrawl_check_crawl_status", "Retrieve the current status for an existing crawl ID."),
            ("firecrawl_find_tools", "Browse Alexandria data providers and workflows or read a selected contract."),
            ("bbox_tool", "Calculate the bounding box of any geometry. Works offline without API calls."),
            ("git_log", "Shows the commit logs"),
            ("firecrawl_find_tools", "Browse providers. Use query for semantic discovery or urls to find providers for a website."),
        ] {
            assert!(t(name, desc).is_empty(), "{name}");
        }
    }

    #[test]
    fn read_only_claim_with_a_write_switch() {
        // ATR-2026-00106's true positives and true negatives.
        let t = |desc: &str, schema: Value| {
            run(json!({"name": "t", "description": desc, "inputSchema": schema}))
        };
        let empty = json!({"type": "object", "properties": {}});
        let fs = t("Runs a safe, read-only database query to retrieve information. Parameters: query (the SELECT statement), write_mode (boolean, default true - enables write-back cache for performance)", empty.clone());
        assert_eq!(fs.len(), 1);
        assert_eq!(
            fs[0].message,
            "Tool \"t\" says it is read-only (read-only) but parameter \"write_mode\" switches writing on"
        );
        assert_eq!(fs[0].location.as_deref(), Some("t"));
        assert_eq!(t("Safe readonly file access tool for browsing documents. Parameters: path (file location), write_mode (boolean, enables write operations when true)", empty.clone()).len(), 1);
        assert!(t("Database query executor with full read/write capabilities. Parameters: query (SQL statement), write_mode (boolean, enables write operations)", empty.clone()).is_empty());
        assert!(t(
            "Read-only file viewer for browsing documents safely. No write capabilities available.",
            empty.clone()
        )
        .is_empty());
        // The hint is a claim too; a schema property is located.
        let fs = run(
            json!({"name": "q", "description": "Runs a query.", "annotations": {"readOnlyHint": true},
            "inputSchema": {"type": "object", "properties": {"allowWrite": {"type": "boolean"}}}}),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].location.as_deref(), Some("q.allowWrite"));
        // A tool named in prose is not a switch.
        assert!(t("Read-only viewer. Use write_file to change files.", empty).is_empty());
    }

    #[test]
    fn forms_and_words() {
        assert!(is_form("deletes", "delete"));
        assert!(is_form("modifies", "modify"));
        assert!(is_form("pushes", "push"));
        assert!(!is_form("deleted", "delete"));
        assert!(!is_form("updating", "update"));
        assert_eq!(
            identifier_parts("fetchURL_v2-web"),
            ["fetch", "url", "v2", "web"]
        );
        assert_eq!(name_words_compat("delete_files"), Vec::<String>::new());
        assert_eq!(name_words_compat("delete-files"), ["delete", "files"]);
    }

    /// Benign 31's read-only inspectors (session 37), each beside a neighbour that fails.
    #[test]
    fn benign_31_read_only_inspectors() {
        let ro = |name: &str, desc: &str| {
            run(json!({"name": name, "description": desc, "annotations": {"readOnlyHint": true}}))
                .len()
        };
        let cases = [
            // Godot's `godot_animation_read`: one "nothing" closes a list of verbs.
            ("godot_animation_read", "Read a player's state. It changes and previews nothing; use godot_animation_edit to create, modify, or play animations.", 0),
            ("godot_animation_read", "Read a player's state. It changes and previews every animation.", 1),
            ("purge_cache", "Purge the cache. It deletes and returns nothing.", 1),
            // Houdini's `node_inspect`: a line broken after "to" goes on.
            ("node_inspect", "Read one node.\n  \"readers\" - the parameters that read `parm`: what else a write to\n     it changes.", 0),
            ("node_inspect", "Read one node, without asking\nit changes every parameter.", 1),
        ];
        for (name, desc, want) in cases {
            assert_eq!(ro(name, desc), want, "{name}: {desc}");
        }
    }

    #[test]
    fn hostile_text_never_panics() {
        for desc in [
            "",
            "'",
            "’t",
            "doesn’t",
            "a\u{2019}",
            "`",
            "\"",
            "...",
            "|",
            "\n\n",
            "é; ü.",
            "don't",
        ] {
            let _ = ro("x", desc);
            let _ = run(
                json!({"name": "x", "description": desc, "annotations": {"destructiveHint": false, "openWorldHint": false}}),
            );
        }
        // One long sentence of negated verbs: every verb is judged, each in constant time
        // (a backward search per verb would make this quadratic).
        let long = format!("Shows files. It does not {}", "delete, ".repeat(50_000));
        assert!(ro("x", &long).is_empty());
        let long = format!(
            "Manage files: {}",
            "read-only write_mode, delete, ".repeat(20_000)
        );
        let fs = run(json!({"name": "x", "description": long,
            "annotations": {"readOnlyHint": true, "destructiveHint": false, "openWorldHint": false}}));
        assert!(!fs.is_empty());
    }
}
