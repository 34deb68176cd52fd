//! Cross-server collisions (#15): what an agent that loads every server of a fleet sees.
//!
//! * `collision/cross-server-name`: one tool name exposed by two or more servers.
//! * `collision/description-collision` across servers: the lint's own scorer, threshold,
//!   boilerplate discount (per server, as each server's own lint computes it) and schema
//!   divergence gate, keeping only pairs whose tools sit on different servers (pairs within
//!   one server are that server's own collision family's). Tools are named `server:tool`.
//!
//! Pure and order-independent: servers are sorted by name (UTF-16 code units), so the merge
//! of shards gives exactly the unsharded result whatever order the members come in.

use super::{clusters_from, discounted, flagged_in, rules, Pairing, Profile};
use crate::model::{Finding, Severity, Status};
use crate::surface::json::utf16_cmp;
use serde_json::{json, Value};
use std::collections::HashMap;

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
/// clusters (by member names), then at most one `collision/summary` skip.
pub fn check_fleet(members: &[(&str, &[Value])], cfg: &super::CollisionConfig) -> Vec<Finding> {
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
    let mut out = names(&sorted, status, severity);
    descriptions(&sorted, cfg, status, severity, &mut out);
    out
}

/// A tool's name when it is an object with a string name.
fn name_of(tool: &Value) -> Option<&str> {
    tool.as_object()?.get("name")?.as_str()
}

/// `collision/cross-server-name`: one finding per name listed by two or more servers.
fn names(members: &[(&str, &[Value])], status: Status, severity: Severity) -> Vec<Finding> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (_, tools)) in members.iter().enumerate() {
        for t in tools.iter() {
            if let Some(n) = name_of(t) {
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
fn descriptions(
    members: &[(&str, &[Value])],
    cfg: &super::CollisionConfig,
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
                (!crate::surface::text::is_blank(desc)).then_some((t, name_of(t), desc))
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
