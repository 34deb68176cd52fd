//! `collision` family: near-identical descriptions on tools that take different payloads
//! (collision.md). Character-trigram Sørensen–Dice similarity, gated by schema divergence.
//!
//! The original compares every pair (O(n²)) and refuses to run above `max_tools`. We keep
//! `max_tools` as the user's limit (same skip result), but find candidate pairs through a
//! trigram inverted index with prefix and size filtering (AllPairs), which provably keeps
//! every pair whose score reaches the threshold; 10,000 tools take milliseconds.
//!
//! Two precision steps on top (#13, docs/decisions.md "Collision lint: clusters and
//! boilerplate"): sentences shared by a third or more of a server's described tools (and by
//! at least three) are dropped before scoring, so boilerplate does not make tools look alike;
//! and flagged pairs are reported per connected component (one finding per cluster), a
//! cluster of two exactly as the original reports a pair.

use super::common::ToolItem;
use crate::model::{Finding, Severity, Status};
use crate::observed::{Listing, OtherSurface, TextListing};
use crate::surface::json::utf16_cmp;
use regex::Regex;
use serde_json::{json, Value};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;
pub mod rules;
pub use rules::RULES;

mod config;

pub use config::CollisionConfig;

pub const SUMMARY: &str = rules::SUMMARY.id;
pub const LIST_TOOLS: &str = rules::LIST_TOOLS.id;
#[cfg(test)]
pub const COLLISION: &str = rules::DESCRIPTION_COLLISION.id;
pub const SCORER: &str = "trigram-dice";

/// Schema depth guard (collision.md §5.2).
const MAX_DEPTH: usize = 64;

pub fn check(listing: &Listing, opts: &CollisionConfig) -> Vec<Finding> {
    check_items(listing.as_deref(), opts)
}

fn check_items<T: ToolItem>(
    listing: Result<&[T], &String>,
    opts: &CollisionConfig,
) -> Vec<Finding> {
    let tools = match super::common::listed(listing, &rules::LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => return vec![f],
    };
    let n = tools.len() as u64;
    if n > opts.max_tools {
        let pairs = u128::from(n) * u128::from(n - 1) / 2;
        return vec![rules::SUMMARY.skip(
            format!(
                "Collision lint skipped: {n} tools exceeds max_tools ({}); pairwise comparison would be {pairs} pairs. Raise checks.collision.max_tools to run it.",
                opts.max_tools
            ),
        )
        .severity(rules::SUMMARY.severity)];
    }
    let collisions = clusters_of(&profiles(tools), opts.threshold);
    let (status, severity) = if opts.fail {
        (Status::Fail, Severity::Error)
    } else {
        (Status::Warn, Severity::Warning)
    };
    let mut out = Vec::with_capacity(collisions.len() + 1);
    out.push(if collisions.is_empty() {
        rules::SUMMARY.pass(format!(
            "No description collisions among {n} tool(s) (threshold {})",
            js_number(opts.threshold)
        ))
    } else {
        rules::SUMMARY.finding(
            status,
            severity,
            format!(
                "{} description collision(s) among {n} tool(s)",
                collisions.len()
            ),
        )
    });
    for c in collisions {
        out.push(c.finding(status, severity));
    }
    out
}

/// The lint over the tools and, among themselves, the prompts (#14): same scorer, threshold,
/// boilerplate discount and clusters. A prompt's "payload" is its arguments, all strings, so
/// two prompts diverge when they take a different number of required arguments. Without
/// prompts the result is exactly [`check`]'s.
pub fn check_surface(
    listing: &Listing,
    other: &OtherSurface,
    opts: &CollisionConfig,
) -> Vec<Finding> {
    check_surface_items(listing.as_deref(), other, opts)
}

/// [`check_surface`] on a listing still held as JSON text: each tool is parsed only while
/// its profile is made (#12's memory bound). Same findings.
pub fn check_surface_text(
    listing: &TextListing,
    other: &OtherSurface,
    opts: &CollisionConfig,
) -> Vec<Finding> {
    check_surface_items(listing.as_deref(), other, opts)
}

fn check_surface_items<T: ToolItem>(
    listing: Result<&[T], &String>,
    other: &OtherSurface,
    opts: &CollisionConfig,
) -> Vec<Finding> {
    let prompts = match &other.prompts {
        Some(Ok(p)) if !p.is_empty() => p.as_slice(),
        _ => return check_items(listing, opts),
    };
    let tools = match super::common::listed(listing, &rules::LIST_TOOLS) {
        Ok(t) => t,
        Err(f) => return vec![f],
    };
    let (n, m) = (tools.len() as u64, prompts.len() as u64);
    if n > opts.max_tools {
        return check_items(listing, opts);
    }
    if m > opts.max_tools {
        let pairs = u128::from(m) * u128::from(m - 1) / 2;
        return vec![rules::SUMMARY.skip(
            format!(
                "Collision lint skipped: {m} prompts exceeds max_tools ({}); pairwise comparison would be {pairs} pairs. Raise checks.collision.max_tools to run it.",
                opts.max_tools
            ),
        )
        .severity(rules::SUMMARY.severity)];
    }
    let found: Vec<(Subject, Cluster)> = clusters_of(&profiles(tools), opts.threshold)
        .into_iter()
        .map(|c| (Subject::Tools, c))
        .chain(
            clusters_of(&prompt_profiles(prompts), opts.threshold)
                .into_iter()
                .map(|c| (Subject::Prompts, c)),
        )
        .collect();
    let (status, severity) = if opts.fail {
        (Status::Fail, Severity::Error)
    } else {
        (Status::Warn, Severity::Warning)
    };
    let mut out = Vec::with_capacity(found.len() + 1);
    out.push(if found.is_empty() {
        rules::SUMMARY.pass(format!(
            "No description collisions among {n} tool(s) and {m} prompt(s) (threshold {})",
            js_number(opts.threshold)
        ))
    } else {
        rules::SUMMARY.finding(
            status,
            severity,
            format!(
                "{} description collision(s) among {n} tool(s) and {m} prompt(s)",
                found.len()
            ),
        )
    });
    for (subject, c) in found {
        out.push(c.finding_for(subject, status, severity));
    }
    out
}

/// What a cluster is made of: tools, or prompts (#14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Subject {
    Tools,
    Prompts,
}

impl Subject {
    fn location(self, name: &str) -> String {
        match self {
            Subject::Tools => name.to_string(),
            Subject::Prompts => format!("prompt:{name}"),
        }
    }
}

/// Prompts as candidates: the description scored as a tool's, the signature the number of
/// required arguments (every argument is a string; arguments are flat).
fn prompt_profiles(prompts: &[Value]) -> Vec<Profile> {
    let candidates: Vec<(&Value, &str)> = prompts
        .iter()
        .filter_map(|p| {
            let desc = p.get("description").and_then(Value::as_str)?;
            (!crate::surface::text::is_blank(desc)).then_some((p, desc))
        })
        .collect();
    let descs: Vec<&str> = candidates.iter().map(|&(_, d)| d).collect();
    candidates
        .iter()
        .zip(discounted(&descs))
        .map(|(&(prompt, _), normalized)| {
            let required = prompt
                .get("arguments")
                .and_then(Value::as_array)
                .map_or(0, |args| {
                    args.iter()
                        .filter(|a| a.get("required") == Some(&Value::Bool(true)))
                        .count()
                });
            Profile {
                name: prompt
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                grams: trigrams(&normalized),
                normalized,
                signature: Some((vec!["string".to_string(); required], 0)),
            }
        })
        .collect()
}

/// One flagged pair, already oriented so that `a` ≤ `b` in UTF-16 code units.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    pub a: String,
    pub b: String,
    pub similarity: f64,
    pub reasons: Vec<Reason>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    RequiredShape(Vec<String>, Vec<String>),
    Depth(usize, usize),
}

impl Reason {
    fn swapped(self) -> Self {
        match self {
            Reason::RequiredShape(a, b) => Reason::RequiredShape(b, a),
            Reason::Depth(a, b) => Reason::Depth(b, a),
        }
    }
    fn json(&self) -> Value {
        match self {
            Reason::RequiredShape(a, b) => json!({"kind": "required-shape", "a": a, "b": b}),
            Reason::Depth(a, b) => json!({"kind": "depth", "a": a, "b": b}),
        }
    }
    fn text(&self) -> String {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        match self {
            Reason::RequiredShape(a, b) => {
                format!("required params [{}] vs [{}]", list(a), list(b))
            }
            Reason::Depth(a, b) => format!("nesting depth {a} vs {b}"),
        }
    }
}

/// A similarity as `actual` prints it: rounded to 4 decimals, an integer when whole.
fn similarity_json(s: f64) -> Value {
    let rounded: f64 = to_fixed(s, 4).parse().unwrap_or(s);
    if rounded.fract() == 0.0 {
        json!(rounded as u64)
    } else {
        json!(rounded)
    }
}

impl Collision {
    fn finding_for(&self, subject: Subject, status: Status, severity: Severity) -> Finding {
        if subject == Subject::Prompts {
            return self.prompt_finding(status, severity);
        }
        let reasons: Vec<String> = self.reasons.iter().map(Reason::text).collect();
        let similarity = similarity_json(self.similarity);
        rules::DESCRIPTION_COLLISION.finding(
            status,
            severity,
            format!(
                "Tools \"{}\" and \"{}\" have near-identical descriptions (similarity {}, {SCORER}) but divergent input schemas: {}. An agent selecting tools by description may call the wrong one with the wrong payload.",
                self.a,
                self.b,
                to_fixed(self.similarity, 2),
                reasons.join("; ")
            ),
        )
        .expected("Distinct descriptions for tools that accept different payloads")
        .actual(json!({
            "similarity": similarity,
            "scorer": SCORER,
            "divergence": self.reasons.iter().map(Reason::json).collect::<Vec<_>>(),
        }))
        .location(format!("{} / {}", self.a, self.b))
    }

    /// A pair of prompts: they differ only in how many arguments they require.
    fn prompt_finding(&self, status: Status, severity: Severity) -> Finding {
        let (ra, rb) = self.required_counts();
        rules::DESCRIPTION_COLLISION
            .finding(
                status,
                severity,
                format!(
                    "Prompts \"{}\" and \"{}\" have near-identical descriptions (similarity {}, {SCORER}) but take different arguments: {ra} vs {rb} required. A user or agent choosing prompts by description may pick the wrong one.",
                    self.a,
                    self.b,
                    to_fixed(self.similarity, 2),
                ),
            )
            .expected("Distinct descriptions for prompts that take different arguments")
            .actual(json!({
                "similarity": similarity_json(self.similarity),
                "scorer": SCORER,
                "divergence": [{"kind": "required-arguments", "a": ra, "b": rb}],
            }))
            .location(format!(
                "{} / {}",
                Subject::Prompts.location(&self.a),
                Subject::Prompts.location(&self.b)
            ))
    }

    fn required_counts(&self) -> (usize, usize) {
        self.reasons
            .iter()
            .find_map(|r| match r {
                Reason::RequiredShape(a, b) => Some((a.len(), b.len())),
                Reason::Depth(..) => None,
            })
            .unwrap_or_default()
    }
}

/// One tool of a cluster with the schema signature the divergence gate compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub name: String,
    pub required: Vec<String>,
    pub depth: usize,
}

/// A connected component of the graph whose edges are the flagged pairs: the tools a reviewer
/// has to tell apart together. Members sorted by name (UTF-16 code units, then listing order),
/// pairs by (a, b).
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    pub members: Vec<Member>,
    pub pairs: Vec<Collision>,
}

/// Pairs listed in a cluster's `actual` at most (the count is always given): a hostile surface
/// of k identical descriptions has k²/2 pairs but its finding stays O(k).
const LISTED_PAIRS: usize = 100;

impl Cluster {
    fn finding(&self, status: Status, severity: Severity) -> Finding {
        self.finding_for(Subject::Tools, status, severity)
    }

    fn finding_for(&self, subject: Subject, status: Status, severity: Severity) -> Finding {
        if let [pair] = self.pairs.as_slice() {
            if self.members.len() == 2 {
                // A cluster of two is the original's pair finding, unchanged.
                return pair.finding_for(subject, status, severity);
            }
        }
        if subject == Subject::Prompts {
            return self.prompt_finding(status, severity);
        }
        let (listed, range, hi) = self.listed_and_range();
        // Only the dimensions that differ inside the cluster are worth reading.
        let first = &self.members[0];
        let shapes_differ = self.members.iter().any(|m| m.required != first.required);
        let depths_differ = self.members.iter().any(|m| m.depth != first.depth);
        let signatures: Vec<String> = self
            .members
            .iter()
            .map(|m| {
                let mut parts = Vec::new();
                if shapes_differ {
                    let list = if m.required.is_empty() {
                        "none".to_string()
                    } else {
                        m.required.join(", ")
                    };
                    parts.push(format!("required params [{list}]"));
                }
                if depths_differ {
                    parts.push(format!("nesting depth {}", m.depth));
                }
                format!("\"{}\" {}", m.name, parts.join(", "))
            })
            .collect();
        let pairs = self.pairs.len();
        rules::DESCRIPTION_COLLISION
            .finding(
                status,
                severity,
                format!(
                    "Tools {listed} have near-identical descriptions ({pairs} pair(s) at similarity {range}, {SCORER}) but divergent input schemas: {}. An agent selecting tools by description may call the wrong one with the wrong payload.",
                    signatures.join("; ")
                ),
            )
            .expected("Distinct descriptions for tools that accept different payloads")
            .actual(json!({
                "similarity": similarity_json(hi),
                "scorer": SCORER,
                "members": self.members.iter().map(|m| json!({
                    "name": m.name, "required": m.required, "depth": m.depth,
                })).collect::<Vec<_>>(),
                "pair_count": pairs,
                "pairs": self.pairs.iter().take(LISTED_PAIRS).map(|p| json!({
                    "a": p.a, "b": p.b, "similarity": similarity_json(p.similarity),
                })).collect::<Vec<_>>(),
            }))
            .location(
                self.members
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" / "),
            )
    }
}

impl Cluster {
    /// The members as `"a", "b" and "c"`, the pairs' similarity as `0.91` or `0.85 to 0.97`,
    /// and the highest similarity.
    fn listed_and_range(&self) -> (String, String, f64) {
        let names: Vec<String> = self
            .members
            .iter()
            .map(|m| format!("\"{}\"", m.name))
            .collect();
        let listed = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(", "),
        };
        let (lo, hi) = self
            .pairs
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
                (lo.min(p.similarity), hi.max(p.similarity))
            });
        let range = if to_fixed(lo, 2) == to_fixed(hi, 2) {
            to_fixed(hi, 2)
        } else {
            format!("{} to {}", to_fixed(lo, 2), to_fixed(hi, 2))
        };
        (listed, range, hi)
    }

    /// Prompts linked by flagged pairs: their names and required-argument counts.
    fn prompt_finding(&self, status: Status, severity: Severity) -> Finding {
        let (listed, range, hi) = self.listed_and_range();
        let counts: Vec<String> = self
            .members
            .iter()
            .map(|m| format!("\"{}\" {}", m.name, m.required.len()))
            .collect();
        let pairs = self.pairs.len();
        rules::DESCRIPTION_COLLISION
            .finding(
                status,
                severity,
                format!(
                    "Prompts {listed} have near-identical descriptions ({pairs} pair(s) at similarity {range}, {SCORER}) but take different arguments (required: {}). A user or agent choosing prompts by description may pick the wrong one.",
                    counts.join(", ")
                ),
            )
            .expected("Distinct descriptions for prompts that take different arguments")
            .actual(json!({
                "similarity": similarity_json(hi),
                "scorer": SCORER,
                "members": self.members.iter().map(|m| json!({
                    "name": m.name, "required_arguments": m.required.len(),
                })).collect::<Vec<_>>(),
                "pair_count": pairs,
                "pairs": self.pairs.iter().take(LISTED_PAIRS).map(|p| json!({
                    "a": p.a, "b": p.b, "similarity": similarity_json(p.similarity),
                })).collect::<Vec<_>>(),
            }))
            .location(
                self.members
                    .iter()
                    .map(|m| Subject::Prompts.location(&m.name))
                    .collect::<Vec<_>>()
                    .join(" / "),
            )
    }
}

/// A candidate tool (collision.md §3.3) with everything the pair loop needs, computed once.
/// A schema's required shape and depth.
type Signature = (Vec<String>, usize);

struct Profile {
    name: String,
    /// The normalized description with the server's boilerplate sentences removed.
    normalized: String,
    /// Trigram multiset as a sorted list of packed UTF-16 windows.
    grams: Vec<u64>,
    /// Required shape and depth, or `None` when the schema is too deep (pair skipped).
    signature: Option<(Vec<String>, usize)>,
}

impl Profile {
    fn new(tool: &Value, normalized: String) -> Profile {
        let (name, signature) = Profile::parts(tool);
        Profile::of_parts(name, signature, normalized)
    }

    /// The tool's name and schema signature.
    fn parts(tool: &Value) -> (String, Option<Signature>) {
        let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        (
            name,
            depth(schema).ok().map(|d| (required_shape(schema), d)),
        )
    }

    fn of_parts(name: String, signature: Option<Signature>, normalized: String) -> Profile {
        Profile {
            name,
            grams: trigrams(&normalized),
            normalized,
            signature,
        }
    }
}

/// The candidates (collision.md §3.3) in listing order, boilerplate discounted.
fn profiles<T: ToolItem>(tools: &[T]) -> Vec<Profile> {
    // What a profile reads of a tool, taken while that tool alone is parsed: the
    // boilerplate discount needs every description before any profile is made.
    let candidates: Vec<(String, Option<Signature>, String)> = tools
        .iter()
        .filter_map(|t| {
            let tool = t.value();
            let desc = tool.get("description").and_then(Value::as_str)?;
            // ECMAScript `String#trim` set (collision.md §3.3).
            if crate::surface::text::is_blank(desc) {
                return None;
            }
            let (name, signature) = Profile::parts(&tool);
            Some((name, signature, desc.to_string()))
        })
        .collect();
    let descs: Vec<&str> = candidates.iter().map(|(_, _, d)| d.as_str()).collect();
    let texts = discounted(&descs);
    candidates
        .into_iter()
        .zip(texts)
        .map(|((name, signature, _), text)| Profile::of_parts(name, signature, text))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Boilerplate discount (#13)

/// A sentence is boilerplate when at least this many described tools carry it …
pub const BOILERPLATE_MIN_TOOLS: usize = 3;
/// … and at least this share of them (1/3: measured on the benign corpus, docs/detection.md).
pub const BOILERPLATE_SHARE: (usize, usize) = (1, 3);

/// The sentences of a raw description, each normalized (§4.1), empty ones dropped. A sentence
/// ends at a line break, at `.`, `!` or `?` before whitespace or the end, at `。！？`, and at a
/// ` | ` title separator ("Notion | Retrieve a page"). All of these are separators under
/// §4.1, so joining the pieces with one space gives `normalize` of the whole text.
pub fn sentences(desc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |piece: &str| {
        let n = normalize(piece);
        if !n.is_empty() {
            out.push(n);
        }
    };
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = desc.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let cut = match c {
            '\n' | '\r' | '\u{2028}' | '\u{2029}' | '。' | '！' | '？' => true,
            '.' | '!' | '?' => next.is_none_or(char::is_whitespace),
            '|' => prev.is_some_and(char::is_whitespace) && next.is_some_and(char::is_whitespace),
            _ => false,
        };
        if cut {
            push(&desc[start..i]);
            start = i + c.len_utf8();
        }
        prev = Some(c);
    }
    push(&desc[start..]);
    out
}

/// The text each description is scored on: its normalized form without the sentences that are
/// boilerplate on this surface. A description made only of boilerplate keeps its whole text,
/// so tools whose descriptions are identical still collide.
fn discounted(descs: &[&str]) -> Vec<String> {
    if descs.len() < BOILERPLATE_MIN_TOOLS {
        return descs.iter().map(|d| normalize(d)).collect();
    }
    let tags = shared_tags(descs);
    let pieces: Vec<Vec<String>> = descs
        .iter()
        .map(|d| match leading_tag(d) {
            Some((tag, rest)) if tags.contains(&tag) => sentences(rest),
            _ => sentences(d),
        })
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for p in &pieces {
        let mut own: Vec<&str> = p.iter().map(String::as_str).collect();
        own.sort_unstable();
        own.dedup();
        for s in own {
            *seen.entry(s).or_default() += 1;
        }
    }
    let n = descs.len();
    let (num, den) = BOILERPLATE_SHARE;
    let boiler = |s: &str| {
        let k = seen.get(s).copied().unwrap_or(0);
        k >= BOILERPLATE_MIN_TOOLS && k.saturating_mul(den) >= n.saturating_mul(num)
    };
    descs
        .iter()
        .zip(&pieces)
        .map(|(d, p)| {
            let kept: Vec<&str> = p
                .iter()
                .map(String::as_str)
                .filter(|s| !boiler(s))
                .collect();
            if kept.is_empty() {
                normalize(d)
            } else {
                kept.join(" ")
            }
        })
        .collect()
}

/// A leading category tag (`[Code Management] Create a new branch`) and the text after it.
fn leading_tag(desc: &str) -> Option<(&str, &str)> {
    let rest = desc.trim_start().strip_prefix('[')?;
    let end = rest.find(']').filter(|&e| e > 0 && e <= 60)?;
    let tag = &rest[..end];
    (!tag.contains(['\n', '['])).then(|| (tag, &rest[end + 1..]))
}

/// Tags that at least [`BOILERPLATE_MIN_TOOLS`] descriptions open with: the module a tool
/// belongs to, not what it does, so they are left out of the score like boilerplate
/// (Alibaba Cloud DevOps tags its 203 tools with ten such modules; session 18).
fn shared_tags<'a>(descs: &[&'a str]) -> Vec<&'a str> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for d in descs {
        if let Some((tag, _)) = leading_tag(d) {
            *count.entry(tag).or_default() += 1;
        }
    }
    let mut shared: Vec<&str> = count
        .into_iter()
        .filter(|&(_, k)| k >= BOILERPLATE_MIN_TOOLS)
        .map(|(t, _)| t)
        .collect();
    shared.sort_unstable();
    shared
}

/// Every flagged pair of a surface (after the boilerplate discount), sorted by (a, b).
/// Exposed for tests and benchmarks.
pub fn find(tools: &[Value], threshold: f64) -> Vec<Collision> {
    let profiles = profiles(tools);
    let mut out: Vec<Collision> = flagged(&profiles, threshold)
        .into_iter()
        .map(|(_, _, c)| c)
        .collect();
    out.sort_by(|x, y| utf16_cmp(&x.a, &y.a).then_with(|| utf16_cmp(&x.b, &y.b)));
    out
}

/// The flagged pairs grouped into connected components, sorted by their member names.
pub fn clusters(tools: &[Value], threshold: f64) -> Vec<Cluster> {
    clusters_of(&profiles(tools), threshold)
}

fn clusters_of(profiles: &[Profile], threshold: f64) -> Vec<Cluster> {
    clusters_from(profiles, flagged(profiles, threshold))
}

/// The clusters of the given flagged pairs (see [`clusters_of`]).
fn clusters_from(profiles: &[Profile], edges: Vec<(usize, usize, Collision)>) -> Vec<Cluster> {
    // Union-find (path halving, union by index): components do not depend on edge order.
    let mut parent: Vec<usize> = (0..profiles.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(i, j, _) in &edges {
        let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
        if ri != rj {
            parent[ri.max(rj)] = ri.min(rj);
        }
    }
    let mut groups: HashMap<usize, (Vec<usize>, Vec<Collision>)> = HashMap::new();
    for (i, _, c) in edges {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().1.push(c);
    }
    for i in 0..profiles.len() {
        let r = root(&mut parent, i);
        if let Some(g) = groups.get_mut(&r) {
            g.0.push(i);
        }
    }
    let by_name =
        |x: &usize, y: &usize| utf16_cmp(&profiles[*x].name, &profiles[*y].name).then(x.cmp(y));
    let mut out: Vec<(Vec<usize>, Cluster)> = groups
        .into_values()
        .map(|(mut idx, mut pairs)| {
            idx.sort_by(by_name);
            pairs.sort_by(|x, y| utf16_cmp(&x.a, &y.a).then_with(|| utf16_cmp(&x.b, &y.b)));
            let members = idx
                .iter()
                .map(|&i| {
                    let (required, depth) = profiles[i].signature.clone().unwrap_or_default();
                    Member {
                        name: profiles[i].name.clone(),
                        required,
                        depth,
                    }
                })
                .collect();
            (idx, Cluster { members, pairs })
        })
        .collect();
    // By member names, then listing positions (two clusters may carry the same names).
    out.sort_by(|(ix, x), (iy, y)| member_order(&x.members, &y.members).then_with(|| ix.cmp(iy)));
    out.into_iter().map(|(_, c)| c).collect()
}

/// Lexicographic order of two member lists by name (UTF-16 code units).
fn member_order(x: &[Member], y: &[Member]) -> Ordering {
    x.iter()
        .zip(y)
        .map(|(a, b)| utf16_cmp(&a.name, &b.name))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| x.len().cmp(&y.len()))
}

/// The flagged pairs as (i, j, collision) with i < j profile indices, in (i, j) order.
fn flagged(profiles: &[Profile], threshold: f64) -> Vec<(usize, usize, Collision)> {
    flagged_in(profiles, &Pairing::default(), threshold)
}

/// Which pairs a comparison keeps: all of them (one server), or only pairs of profiles in
/// different groups (the servers of a fleet, #15), at most `budget` flagged pairs.
struct Pairing<'a> {
    groups: Option<&'a [u32]>,
    budget: usize,
}

impl Default for Pairing<'_> {
    fn default() -> Self {
        Pairing {
            groups: None,
            budget: usize::MAX,
        }
    }
}

impl Pairing<'_> {
    fn apart(&self, i: usize, j: usize) -> bool {
        self.groups.is_none_or(|g| g[i] != g[j])
    }
}

/// [`flagged`] under a [`Pairing`].
fn flagged_in(
    profiles: &[Profile],
    pairing: &Pairing,
    threshold: f64,
) -> Vec<(usize, usize, Collision)> {
    // Schema classes: equal signatures never diverge, so such pairs need no score at all.
    // Ordinary tool families (same shape, similar wording) are most similar pairs.
    let mut class_of: HashMap<&(Vec<String>, usize), u32> = HashMap::new();
    let classes: Vec<u32> = profiles
        .iter()
        .map(|p| match &p.signature {
            Some(sig) => {
                let next = class_of.len() as u32;
                *class_of.entry(sig).or_insert(next)
            }
            None => NO_CLASS,
        })
        .collect();
    let mut out = Vec::new();
    for (i, j, s) in scored_pairs(profiles, &classes, pairing, threshold) {
        let (Some(si), Some(sj)) = (&profiles[i].signature, &profiles[j].signature) else {
            continue;
        };
        let reasons = divergence_of(si, sj);
        if reasons.is_empty() || opposite_leads(&profiles[i].normalized, &profiles[j].normalized) {
            continue;
        }
        let (pa, pb) = (&profiles[i], &profiles[j]);
        let swap = utf16_cmp(&pa.name, &pb.name) == Ordering::Greater;
        let (a, b, reasons) = if swap {
            (
                &pb.name,
                &pa.name,
                reasons.into_iter().map(Reason::swapped).collect(),
            )
        } else {
            (&pa.name, &pb.name, reasons)
        };
        out.push((
            i,
            j,
            Collision {
                a: a.clone(),
                b: b.clone(),
                similarity: s,
                reasons,
            },
        ));
    }
    out
}

/// Two descriptions that open on opposite verbs ("Get the clip color." / "Set the clip
/// color.": Ableton Live's 287 generated tools, benign 31) tell their tools apart in the
/// first word a model reads, however alike the rest is: no collision (docs/decisions.md,
/// "Opposite verbs do not collide").
fn opposite_leads(a: &str, b: &str) -> bool {
    const OPPOSITES: &[(&str, &str)] = &[
        ("get", "set"),
        ("enable", "disable"),
        ("add", "remove"),
        ("start", "stop"),
        ("show", "hide"),
        ("lock", "unlock"),
        ("open", "close"),
        ("mute", "unmute"),
        ("pause", "resume"),
        ("attach", "detach"),
        ("arm", "disarm"),
        ("subscribe", "unsubscribe"),
        ("follow", "unfollow"),
        ("pin", "unpin"),
        ("block", "unblock"),
        ("archive", "unarchive"),
        ("install", "uninstall"),
        ("mount", "unmount"),
        ("connect", "disconnect"),
        ("increase", "decrease"),
        ("upload", "download"),
        ("import", "export"),
        ("read", "write"),
        ("encrypt", "decrypt"),
        ("encode", "decode"),
        ("grant", "revoke"),
        ("approve", "reject"),
        ("activate", "deactivate"),
        ("assign", "unassign"),
        ("link", "unlink"),
        ("publish", "unpublish"),
        ("star", "unstar"),
        ("watch", "unwatch"),
        ("suspend", "unsuspend"),
    ];
    // "Gets" / "Sets", "Closes": the third person of the same verb.
    let lead = |s: &str| -> String {
        let w = s.split(' ').next().unwrap_or("");
        let stem = w
            .strip_suffix("es")
            .filter(|x| x.ends_with("ss") || x.ends_with("sh") || x.ends_with("ch"))
            .or_else(|| w.strip_suffix('s').filter(|x| !x.ends_with('s')))
            .unwrap_or(w);
        stem.to_string()
    };
    let (x, y) = (lead(a), lead(b));
    // "Add or remove labels" / "Remove or add labels", "Set of records": no verb of one
    // side only; nor "Stop … and start it again" / "Start … and stop the old one", which
    // both restart (a review, session 38).
    let second = |s: &str| s.split(' ').nth(1).unwrap_or("").to_string();
    let joined = |s: &str| matches!(second(s).as_str(), "or" | "and" | "of" | "nor");
    let holds = |s: &str, verb: &str| s.split(' ').skip(1).any(|w| lead(w) == verb);
    OPPOSITES
        .iter()
        .any(|&(p, q)| (x == p && y == q) || (x == q && y == p))
        && !joined(a)
        && !joined(b)
        && !holds(a, &y)
        && !holds(b, &x)
}

// ---------------------------------------------------------------------------------------
// Similarity (collision.md §4)

/// Description canonicalization v2 (lockfile.md §5), shared with the lockfile.
fn canonicalize(s: &str) -> String {
    crate::surface::canonical::canonicalize_description(s)
}

fn separators() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"[^\p{L}\p{N}]+").expect("static pattern"))
}

/// §4.1: canonicalize, lowercase (full Unicode mapping), non-letter/number runs → one space.
pub fn normalize(s: &str) -> String {
    if s.is_ascii() {
        // ASCII is already NFC and canonicalization only touches whitespace, which the
        // separator step folds anyway: the result is the lower-cased [a-z0-9] runs.
        let mut out = String::with_capacity(s.len());
        for word in s
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            if !out.is_empty() {
                out.push(' ');
            }
            out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
        }
        return out;
    }
    normalize_unicode(s)
}

fn normalize_unicode(s: &str) -> String {
    let lower = canonicalize(s).to_lowercase();
    separators()
        .replace_all(&lower, " ")
        .trim_matches(' ')
        .to_string()
}

/// §4.2: windows of 3 UTF-16 code units over `"  " + text + " "`, as a sorted multiset.
fn trigrams(normalized: &str) -> Vec<u64> {
    let units: Vec<u16> = [0x20, 0x20]
        .into_iter()
        .chain(normalized.encode_utf16())
        .chain([0x20])
        .collect();
    let mut grams: Vec<u64> = units
        .windows(3)
        .map(|w| (u64::from(w[0]) << 32) | (u64::from(w[1]) << 16) | u64::from(w[2]))
        .collect();
    grams.sort_unstable();
    grams
}

/// Buckets of the count sketch used as a cheap overlap upper bound.
const SKETCH: usize = 64;

/// Σ min over buckets: an upper bound of the overlap (a shared token lands in the same bucket
/// on both sides); without a sketch on either side there is no bound.
fn sketch_bound(a: &Option<[u8; SKETCH]>, b: &Option<[u8; SKETCH]>) -> usize {
    match (a, b) {
        (Some(a), Some(b)) => a.iter().zip(b).map(|(&x, &y)| usize::from(x.min(y))).sum(),
        _ => usize::MAX,
    }
}

/// Size of the intersection of two sorted token lists, or `None` as soon as it provably
/// cannot reach `needed`.
fn overlap_at_least(a: &[u32], b: &[u32], needed: usize) -> Option<usize> {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if n + (a.len() - i).min(b.len() - j) < needed {
            return None;
        }
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (n >= needed).then_some(n)
}

/// Σ min(Ta[g], Tb[g]) over two sorted multisets.
fn overlap(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn score(a: &Profile, b: &Profile) -> f64 {
    if a.normalized.is_empty() || b.normalized.is_empty() {
        return 0.0;
    }
    if a.normalized == b.normalized {
        return 1.0;
    }
    let total = a.grams.len() + b.grams.len();
    if total == 0 {
        return 0.0;
    }
    2.0 * overlap(&a.grams, &b.grams) as f64 / total as f64
}

/// Trigram Dice similarity of two raw descriptions (§4.3).
pub fn dice(a: &str, b: &str) -> f64 {
    let p = |s: &str| Profile::new(&Value::Null, normalize(s));
    score(&p(a), &p(b))
}

/// Class of a tool whose schema is too deep to measure: it never pairs (§3.4 step 3).
const NO_CLASS: u32 = u32::MAX;

/// Whether a pair can diverge at all: different schema classes, both measurable.
fn may_diverge(classes: &[u32], i: usize, j: usize) -> bool {
    classes[i] != classes[j] && classes[i] != NO_CLASS && classes[j] != NO_CLASS
}

/// Pairs (i < j) of different schema classes with score ≥ threshold, in (i, j) order.
fn scored_pairs(
    profiles: &[Profile],
    classes: &[u32],
    pairing: &Pairing,
    threshold: f64,
) -> Vec<(usize, usize, f64)> {
    if threshold.is_nan() || threshold > 1.0 {
        return Vec::new();
    }
    if threshold <= 0.0 {
        // Every pair passes, even those sharing nothing: nothing to prune.
        return brute_pairs(profiles, classes, pairing, threshold);
    }
    indexed_pairs(profiles, classes, pairing, threshold)
}

fn brute_pairs(
    profiles: &[Profile],
    classes: &[u32],
    pairing: &Pairing,
    threshold: f64,
) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::new();
    for i in 0..profiles.len() {
        for j in i + 1..profiles.len() {
            if !may_diverge(classes, i, j) || !pairing.apart(i, j) {
                continue;
            }
            if out.len() >= pairing.budget {
                return out;
            }
            let s = score(&profiles[i], &profiles[j]);
            if s >= threshold {
                out.push((i, j, s));
            }
        }
    }
    out
}

/// AllPairs over the multiset-as-set view: the k-th occurrence of a trigram is its own
/// token, so |A ∩ B| is exactly Σ min(Ta[g], Tb[g]). For 0 < t ≤ 1, Dice ≥ t implies
///   * |B| ≥ t·|A|/(2−t) when |B| ≤ |A| (since overlap ≤ |B|): the size filter;
///   * overlap ≥ t(|A|+|B|)/2 ≥ t·|A|/(2−t) =: α_A for the larger record A, and ≥ t·|B| =: β_B
///     for the smaller one B;
///
/// and two records sharing ≥ α tokens share one among their first |A|−α+1 resp. |B|−β+1
/// tokens under any fixed global order (here: rarest first). Records are processed by
/// increasing size, probing with the α-prefix and indexing the (shorter) β-prefix. Every
/// surviving candidate is scored exactly like the brute force, so results are identical.
/// The bounds are loosened by 1e-9 so rounding can only add candidates, never drop one.
///
/// Same-class pairs are skipped while probing (they cannot diverge). On top, the PPJoin
/// positional filter drops a candidate once the tokens left after the shared one cannot make
/// up the overlap the pair needs, a count sketch bounds the overlap before the exact merge,
/// and the merge stops as soon as it cannot succeed. All of these are upper bounds, so no
/// pair that reaches the threshold is lost (pinned against brute force by the tests).
fn indexed_pairs(
    profiles: &[Profile],
    classes: &[u32],
    pairing: &Pairing,
    t: f64,
) -> Vec<(usize, usize, f64)> {
    const EPS: f64 = 1e-9;
    // Token ids: (trigram, occurrence number) → dense id, in first-seen order.
    let mut ids: HashMap<(u64, u32), u32> = HashMap::new();
    let mut records: Vec<Vec<u32>> = Vec::with_capacity(profiles.len());
    for p in profiles {
        let mut toks = Vec::with_capacity(p.grams.len());
        if !p.normalized.is_empty() {
            let mut k = 0u32;
            for (idx, &g) in p.grams.iter().enumerate() {
                k = if idx > 0 && p.grams[idx - 1] == g {
                    k + 1
                } else {
                    0
                };
                let next = ids.len() as u32;
                toks.push(*ids.entry((g, k)).or_insert(next));
            }
        }
        records.push(toks);
    }
    // What is no longer needed goes as soon as it is not (#12: this index is the collision
    // phase's peak on a long listing).
    let n_ids = ids.len();
    drop(ids);
    // Global order: rarest token first, ties by id (deterministic).
    let mut df = vec![0u32; n_ids];
    for r in &records {
        for &tok in r {
            df[tok as usize] += 1;
        }
    }
    let mut by_rarity: Vec<u32> = (0..n_ids as u32).collect();
    by_rarity.sort_unstable_by_key(|&tok| (df[tok as usize], tok));
    drop(df);
    let mut rank = vec![0u32; n_ids];
    for (r, &tok) in by_rarity.iter().enumerate() {
        rank[tok as usize] = r as u32;
    }
    drop(by_rarity);
    for r in &mut records {
        for tok in r.iter_mut() {
            *tok = rank[*tok as usize];
        }
        r.sort_unstable();
    }
    drop(rank);

    // Count sketch: tokens hashed into SKETCH buckets. Σ_b min(Ca[b], Cb[b]) ≥ |A ∩ B|, so a
    // pair whose sketch bound is below the overlap it needs is dropped before the merge.
    // One cache line per record; a record with a bucket past 255 gets no sketch (None).
    let sketches: Vec<Option<[u8; SKETCH]>> = records
        .iter()
        .map(|r| {
            let mut c = [0u8; SKETCH];
            for &tok in r {
                let b = (tok.wrapping_mul(0x9E37_79B1) >> 26) as usize % SKETCH;
                c[b] = c[b].checked_add(1)?;
            }
            Some(c)
        })
        .collect();

    let mut order: Vec<usize> = (0..profiles.len())
        .filter(|&i| !records[i].is_empty() && classes[i] != NO_CLASS)
        .collect();
    order.sort_by_key(|&i| (records[i].len(), i));

    // Postings per token, split by schema class (same-class pairs are never visited), each
    // bucket in increasing record size so the size filter only ever drops a prefix.
    struct Bucket {
        class: u32,
        start: u32,
        entries: Vec<(u32, u32)>, // (record, position of the token in it)
    }
    // Most tokens are never indexed (only prefixes are): a token's buckets are found through
    // `slot` (4 bytes a token) rather than an empty `Vec` per token (24).
    const UNINDEXED: u32 = u32::MAX;
    let mut slot = vec![UNINDEXED; n_ids];
    let mut postings: Vec<Vec<Bucket>> = Vec::new();
    let mut stamp = vec![usize::MAX; profiles.len()];
    // Shared tokens counted so far for the current probe; -1 once the positional bound failed.
    let mut acc = vec![0i32; profiles.len()];
    let mut out = Vec::new();
    let mut cands: Vec<usize> = Vec::new();
    // Overlap a pair of total size `total` needs, tabulated (the probe loop is hot).
    let max_len = records.iter().map(Vec::len).max().unwrap_or(0);
    let need_table: Vec<usize> = (0..=2 * max_len)
        .map(|total| ((t * total as f64 / 2.0) - EPS).ceil().max(1.0) as usize)
        .collect();
    let need = |total: usize| need_table[total];
    for &x in &order {
        if out.len() >= pairing.budget {
            break;
        }
        let rx = &records[x];
        let n = rx.len();
        let nf = n as f64;
        let alpha = ((t * nf / (2.0 - t)) - EPS).ceil().max(1.0) as usize;
        let min_size = t * nf / (2.0 - t) - EPS;
        cands.clear();
        for (i, &tok) in rx[..n - alpha.min(n) + 1].iter().enumerate() {
            let Some(buckets) = postings.get_mut(slot[tok as usize] as usize) else {
                continue;
            };
            for bucket in buckets.iter_mut() {
                if bucket.class == classes[x] {
                    continue;
                }
                while (bucket.start as usize) < bucket.entries.len()
                    && (records[bucket.entries[bucket.start as usize].0 as usize].len() as f64)
                        < min_size
                {
                    bucket.start += 1;
                }
                for &(y, j) in &bucket.entries[bucket.start as usize..] {
                    let y = y as usize;
                    if stamp[y] != x {
                        stamp[y] = x;
                        acc[y] = 0;
                        cands.push(y);
                    }
                    if acc[y] < 0 {
                        continue;
                    }
                    // Tokens are met in global order in both records, so every shared
                    // token before (i, j) has been counted: the overlap is at most this.
                    let ny = records[y].len();
                    let bound = acc[y] as usize + 1 + (n - i - 1).min(ny - j as usize - 1);
                    if bound >= need(n + ny) {
                        acc[y] += 1;
                    } else {
                        acc[y] = -1;
                    }
                }
            }
        }
        for &y in &cands {
            if acc[y] <= 0 || !pairing.apart(x, y) {
                continue;
            }
            let ry = &records[y];
            let needed = need(n + ry.len());
            if sketch_bound(&sketches[x], &sketches[y]) < needed {
                continue;
            }
            if let Some(ov) = overlap_at_least(rx, ry, needed) {
                // Same value `score` computes: both sides are non-empty, and identical
                // normalized texts have identical multisets (2|A|/2|A| = 1).
                let s = 2.0 * ov as f64 / (n + ry.len()) as f64;
                if s >= t {
                    out.push((x.min(y), x.max(y), s));
                }
            }
        }
        let beta = ((t * nf) - EPS).ceil().max(1.0) as usize;
        for (j, &tok) in rx[..n - beta.min(n) + 1].iter().enumerate() {
            let at = &mut slot[tok as usize];
            if *at == UNINDEXED {
                *at = postings.len() as u32;
                postings.push(Vec::new());
            }
            let buckets = &mut postings[*at as usize];
            let entry = (x as u32, j as u32);
            match buckets.iter_mut().find(|b| b.class == classes[x]) {
                Some(b) => b.entries.push(entry),
                None => {
                    // Most tokens have one class: room for one bucket, not the four a
                    // first push would make.
                    buckets.reserve_exact(1);
                    buckets.push(Bucket {
                        class: classes[x],
                        start: 0,
                        entries: vec![entry],
                    })
                }
            }
        }
    }
    out.sort_by_key(|&(i, j, _)| (i, j));
    out
}

// ---------------------------------------------------------------------------------------
// Cross-server collisions (#15): what an agent that loads every server of a fleet sees.
//
// * `collision/cross-server-name`: one tool name exposed by two or more servers.
// * `collision/description-collision` across servers: the lint's own scorer, threshold,
//   boilerplate discount (per server, as each server's own lint computes it) and schema
//   divergence gate, keeping only pairs whose tools sit on different servers (pairs within
//   one server are that server's own collision family's). Tools are named `server:tool`.
//
// Pure and order-independent: servers are sorted by name (UTF-16 code units), so the merge
// of shards gives exactly the unsharded result whatever order the members come in.

/// The fleet's description comparison covers at most this many times `max_tools` tools in
/// all: past it the comparison is skipped (one `collision/summary` skip says so), as a
/// single server over `max_tools` is.
pub const FLEET_TOOLS_FACTOR: u64 = 20;
/// Flagged cross-server pairs compared at most: a hostile fleet of k identical descriptions
/// has k²/2 of them. Past it the comparison stops (the summary skip says so).
pub const FLEET_PAIR_BUDGET: usize = 10_000;
/// Servers named in a cross-server-name message at most (all of them are in `actual` and the
/// location).
const NAMED_SERVERS: usize = 10;

/// The cross-server collision findings of a fleet: `members` are (server name, its tools as
/// listed). Nothing when the lint is disabled. Names first (by tool name), then description
/// clusters (by member names), then a `collision/summary` skip for each cut the
/// description comparison made.
pub fn check_fleet(members: &[(&str, &[Value])], cfg: &CollisionConfig) -> Vec<Finding> {
    if !cfg.enabled {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| utf16_cmp(members[a].0, members[b].0).then(a.cmp(&b)));
    let sorted: Vec<(&str, &[Value])> = order.iter().map(|&i| members[i]).collect();
    let (status, severity) = if cfg.fail {
        (Status::Fail, Severity::Error)
    } else {
        (Status::Warn, Severity::Warning)
    };
    let mut out = fleet_names(&sorted, status, severity);
    fleet_descriptions(&sorted, cfg, status, severity, &mut out);
    out
}

/// A tool's name when it is an object with a string name.
fn fleet_name_of(tool: &Value) -> Option<&str> {
    tool.as_object()?.get("name")?.as_str()
}

/// `collision/cross-server-name`: one finding per name listed by two or more servers.
fn fleet_names(members: &[(&str, &[Value])], status: Status, severity: Severity) -> Vec<Finding> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (_, tools)) in members.iter().enumerate() {
        for t in tools.iter() {
            if let Some(n) = fleet_name_of(t) {
                let servers = by_name.entry(n).or_default();
                // A name listed twice by one server is schema/unique-names', not ours.
                if servers.last() != Some(&i) {
                    servers.push(i);
                }
            }
        }
    }
    let mut shared: Vec<(&str, Vec<usize>)> =
        by_name.into_iter().filter(|(_, s)| s.len() > 1).collect();
    shared.sort_by(|a, b| utf16_cmp(a.0, b.0));
    shared
        .into_iter()
        .map(|(name, servers)| {
            let names: Vec<&str> = servers.iter().map(|&i| members[i].0).collect();
            let mut listed: Vec<String> = names
                .iter()
                .take(NAMED_SERVERS)
                .map(|s| format!("\"{s}\""))
                .collect();
            if names.len() > NAMED_SERVERS {
                listed.push(format!("{} more", names.len() - NAMED_SERVERS));
            }
            rules::CROSS_SERVER_NAME
                .finding(
                    status,
                    severity,
                    format!(
                        "Tool name \"{name}\" is exposed by {} servers of the fleet ({}): an agent that loads them all sees one name for different tools and may call the wrong server's tool.",
                        names.len(),
                        listed.join(", ")
                    ),
                )
                .expected("Each tool name exposed by one server of the fleet")
                .actual(json!({"name": name, "servers": names}))
                .location(
                    names
                        .iter()
                        .map(|s| format!("{s}:{name}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                )
        })
        .collect()
}

/// Near-identical descriptions with divergent schemas on tools of different servers.
fn fleet_descriptions(
    members: &[(&str, &[Value])],
    cfg: &CollisionConfig,
    status: Status,
    severity: Severity,
    out: &mut Vec<Finding>,
) {
    let mut profiles: Vec<Profile> = Vec::new();
    let mut groups: Vec<u32> = Vec::new();
    let mut left_out: Vec<&str> = Vec::new();
    let limit = cfg.max_tools.saturating_mul(FLEET_TOOLS_FACTOR);
    let mut total: u64 = 0;
    for (g, (server, tools)) in members.iter().enumerate() {
        // A server over max_tools is not compared (its own lint is skipped too).
        if tools.len() as u64 > cfg.max_tools {
            left_out.push(server);
            continue;
        }
        // The server's own candidates (collision.md §3.3), so the boilerplate discount is
        // the one its own lint applies; a tool without a name cannot be called and pairs
        // with nothing.
        let candidates: Vec<(&Value, Option<&str>, &str)> = tools
            .iter()
            .filter_map(|t| {
                let desc = t.get("description").and_then(Value::as_str)?;
                (!crate::surface::text::is_blank(desc)).then_some((t, fleet_name_of(t), desc))
            })
            .collect();
        total += candidates.iter().filter(|c| c.1.is_some()).count() as u64;
        if total > limit {
            out.push(
                rules::SUMMARY
                    .skip(format!(
                        "Cross-server description comparison skipped: the fleet has more than {limit} described tools ({FLEET_TOOLS_FACTOR} × checks.collision.max_tools). Raise checks.collision.max_tools to run it."
                    ))
                    .severity(rules::SUMMARY.severity)
                    .location("fleet"),
            );
            return;
        }
        let descs: Vec<&str> = candidates.iter().map(|c| c.2).collect();
        for (&(tool, name, _), text) in candidates.iter().zip(discounted(&descs)) {
            let Some(name) = name else { continue };
            let mut p = Profile::new(tool, text);
            p.name = format!("{server}:{name}");
            profiles.push(p);
            groups.push(g as u32);
        }
    }
    let pairing = Pairing {
        groups: Some(&groups),
        budget: FLEET_PAIR_BUDGET,
    };
    let edges = flagged_in(&profiles, &pairing, cfg.threshold);
    let stopped = edges.len() >= FLEET_PAIR_BUDGET;
    for c in clusters_from(&profiles, edges) {
        out.push(c.finding(status, severity));
    }
    if stopped {
        out.push(
            rules::SUMMARY
                .skip(format!(
                    "Cross-server description comparison stopped after {FLEET_PAIR_BUDGET} flagged pairs: the clusters above are incomplete."
                ))
                .severity(rules::SUMMARY.severity)
                .location("fleet"),
        );
    }
    if !left_out.is_empty() {
        out.push(
            rules::SUMMARY
                .skip(format!(
                    "Cross-server description comparison left out {} server(s) with more than max_tools ({}) tools: {}{}.",
                    left_out.len(),
                    cfg.max_tools,
                    left_out.iter().take(NAMED_SERVERS).copied().collect::<Vec<_>>().join(", "),
                    if left_out.len() > NAMED_SERVERS { ", …" } else { "" }
                ))
                .severity(rules::SUMMARY.severity)
                .location("fleet"),
        );
    }
}

// ---------------------------------------------------------------------------------------
// Divergence gate (collision.md §5)

/// `requiredShape(S)`: the sorted types of the required parameters; names ignored.
pub fn required_shape(schema: &Value) -> Vec<String> {
    let required = schema.get("required").and_then(Value::as_array);
    let props = schema.get("properties").and_then(Value::as_object);
    let mut shape: Vec<String> = required
        .into_iter()
        .flatten()
        .map(|name| {
            let prop = name
                .as_str()
                .and_then(|n| props.and_then(|p| p.get(n)))
                .and_then(|p| p.get("type"));
            match prop {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(types)) => {
                    let mut ts: Vec<String> = types
                        .iter()
                        .map(|t| match t {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect();
                    ts.sort_by(|a, b| utf16_cmp(a, b));
                    ts.join("|")
                }
                _ => "any".to_string(),
            }
        })
        .collect();
    shape.sort_by(|a, b| utf16_cmp(a, b));
    shape
}

/// Maximum object-nesting depth; `Err` past the 64-level guard.
pub fn depth(schema: &Value) -> Result<usize, String> {
    depth_at(schema, 0)
}

fn depth_at(node: &Value, level: usize) -> Result<usize, String> {
    if level > MAX_DEPTH {
        return Err(format!(
            "Schema exceeds maximum depth of {MAX_DEPTH} (untrusted input protection)"
        ));
    }
    let Some(obj) = node.as_object() else {
        return Ok(0);
    };
    let mut d = 0;
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        let mut deepest = 0;
        for child in props.values() {
            deepest = deepest.max(depth_at(child, level + 1)?);
        }
        d = 1 + deepest;
    }
    match obj.get("items") {
        Some(Value::Array(items)) => {
            for it in items {
                d = d.max(depth_at(it, level + 1)?);
            }
        }
        Some(it) => d = d.max(depth_at(it, level + 1)?),
        None => {}
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = obj.get(key).and_then(Value::as_array) {
            for b in branches {
                d = d.max(depth_at(b, level + 1)?);
            }
        }
    }
    Ok(d)
}

/// `divergence(A, B)`: reasons in the order required-shape, depth; `Err` if a schema is too
/// deep to measure.
pub fn divergence(a: &Value, b: &Value) -> Result<Vec<Reason>, String> {
    let sa = (required_shape(a), depth(a)?);
    let sb = (required_shape(b), depth(b)?);
    Ok(divergence_of(&sa, &sb))
}

fn divergence_of(a: &(Vec<String>, usize), b: &(Vec<String>, usize)) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if a.0 != b.0 {
        reasons.push(Reason::RequiredShape(a.0.clone(), b.0.clone()));
    }
    if a.1 != b.1 {
        reasons.push(Reason::Depth(a.1, b.1));
    }
    reasons
}

// ---------------------------------------------------------------------------------------
// Number formatting (DECISIONS #28)

/// JavaScript `Number#toFixed` for finite x ≥ 0: rounds the exact binary value, ties up.
/// Rust's `{:.N}` rounds ties to even (0.125 → "0.12"), hence this routine.
pub fn to_fixed(x: f64, digits: usize) -> String {
    if !x.is_finite() || x < 0.0 {
        return format!("{x:.digits$}");
    }
    // 1100 fractional digits hold any f64 exactly, so the digit after the cut is exact.
    let exact = format!("{x:.1100}");
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits_vec: Vec<u8> = int_part
        .bytes()
        .chain(frac.bytes().take(digits))
        .map(|b| b - b'0')
        .collect();
    let round_up = frac.as_bytes().get(digits).is_some_and(|&b| b >= b'5');
    if round_up {
        let mut i = digits_vec.len();
        loop {
            if i == 0 {
                digits_vec.insert(0, 1);
                break;
            }
            i -= 1;
            if digits_vec[i] == 9 {
                digits_vec[i] = 0;
            } else {
                digits_vec[i] += 1;
                break;
            }
        }
    }
    let s: String = digits_vec.iter().map(|d| char::from(b'0' + d)).collect();
    let split = s.len() - digits;
    if digits == 0 {
        s
    } else {
        format!("{}.{}", &s[..split], &s[split..])
    }
}

/// ECMAScript number formatting (shared with the lockfile and reports).
pub use crate::surface::json::js_number;

#[cfg(test)]
mod tests;
