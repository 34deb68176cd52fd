//! The surface diff (drift.md §5–§7): compares two captured surfaces and returns one
//! `Change` per difference, in the order of drift.md §5.3 — tools removed, added, renamed
//! (`rename`), then per tool its description, schemas (`schema_walk`), output shape (`shape`)
//! and annotations; then prompts, resources, templates and instructions (`other`).
//! Pure.

use super::drift_vocab::{Change, Direction, DriftClass};
use super::lockfile::{Lockfile, ToolEntry};
use super::rename::{pair_renames, Candidate};
use super::schema_walk::diff_schema;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Annotation rules with MCP default values (DECISIONS #26).
pub fn diff_annotations(tool: &str, base: &ToolEntry, curr: &ToolEntry) -> Vec<Change> {
    let eff = |e: &ToolEntry, key: &str, default: bool| {
        e.annotations
            .as_ref()
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    let rules: [(&str, bool, bool, &str); 3] = [
        ("readOnlyHint", true, false, "tool may now mutate state"),
        ("destructiveHint", false, true, "tool became destructive"),
        (
            "openWorldHint",
            false,
            true,
            "tool may now reach external systems",
        ),
    ];
    let defaults = |key: &str| key != "readOnlyHint";
    let mut out = Vec::new();
    for (key, from, to, why) in rules {
        if eff(base, key, defaults(key)) == from && eff(curr, key, defaults(key)) == to {
            out.push(Change {
                class: DriftClass::AnnotationChanged,
                tool: tool.to_string(),
                message: format!("Tool \"{tool}\" {key} changed from {from} to {to} ({why})"),
                previous: Some(json!({ key: from })),
                current: Some(json!({ key: to })),
            });
        }
    }
    out
}

/// The per-tool comparisons of one tool present on both sides (under `name`).
fn compare_tool(out: &mut Vec<Change>, name: &str, b: &ToolEntry, c: &ToolEntry) {
    if b.description_hash != c.description_hash {
        let shown = |e: &ToolEntry| {
            Value::String(
                e.description
                    .clone()
                    .unwrap_or_else(|| e.description_hash.clone()),
            )
        };
        out.push(Change {
            class: DriftClass::DescriptionChanged,
            tool: name.to_string(),
            message: format!("Tool \"{name}\" description changed (possible rug-pull)"),
            previous: Some(shown(b)),
            current: Some(shown(c)),
        });
    }
    for (label, dir, bs, cs) in [
        (
            "inputSchema",
            Direction::Input,
            &b.input_schema,
            &c.input_schema,
        ),
        (
            "outputSchema",
            Direction::Output,
            &b.output_schema,
            &c.output_schema,
        ),
    ] {
        // Equal text is equal JSON: the unchanged tool costs one memory compare. Only a
        // schema whose text differs is parsed for the structural walk.
        if bs != cs {
            out.extend(diff_schema(
                name,
                label,
                dir,
                &bs.to_value(),
                &cs.to_value(),
            ));
        }
    }
    if let (Some(sb), Some(sc)) = (&b.output_shape, &c.output_shape) {
        out.extend(super::shape::diff_shapes(name, sb, sc));
    }
    out.extend(diff_annotations(name, b, c));
}

/// A removed and an added tool with the same canonical input schema and similar
/// descriptions (#14): (removed index, added index) pairs, see `rename`.
fn tool_renames(
    removed: &[(&String, &ToolEntry)],
    added: &[(&String, &ToolEntry)],
) -> Vec<(usize, usize, f64)> {
    fn cands<'a>(l: &[(&'a String, &'a ToolEntry)]) -> Vec<Candidate<'a>> {
        l.iter()
            .map(|(n, e)| Candidate {
                name: n.as_str(),
                group: e.input_schema.as_str(),
                text: e.description.as_deref(),
                hash: e.description_hash.as_str(),
            })
            .collect()
    }
    pair_renames(&cands(removed), &cands(added))
}

/// The whole surface diff, in the order of drift.md §5.3 — tools removed, added, renamed,
/// then per tool — followed by the other pinned members (`other::diff_other`).
pub fn diff_surfaces(base: &Lockfile, curr: &Lockfile) -> Vec<Change> {
    // Name indexes: linear lookups made 10,000-tool surfaces quadratic.
    let base_idx = base.index();
    let curr_idx = curr.index();
    let removed: Vec<(&String, &ToolEntry)> = base
        .tools
        .iter()
        .filter(|(n, _)| !curr_idx.contains_key(n.as_str()))
        .map(|(n, e)| (n, e))
        .collect();
    let added: Vec<(&String, &ToolEntry)> = curr
        .tools
        .iter()
        .filter(|(n, _)| !base_idx.contains_key(n.as_str()))
        .map(|(n, e)| (n, e))
        .collect();
    let renames = tool_renames(&removed, &added);
    let renamed_r: HashSet<usize> = renames.iter().map(|r| r.0).collect();
    let renamed_a: HashSet<usize> = renames.iter().map(|r| r.1).collect();
    let mut out = Vec::new();
    for (i, (name, entry)) in removed.iter().enumerate() {
        if !renamed_r.contains(&i) {
            out.push(Change {
                class: DriftClass::ToolRemoved,
                tool: name.to_string(),
                message: format!("Tool \"{name}\" was removed"),
                previous: Some(entry.to_value()),
                current: None,
            });
        }
    }
    for (j, (name, entry)) in added.iter().enumerate() {
        if !renamed_a.contains(&j) {
            out.push(Change {
                class: DriftClass::ToolAdded,
                tool: name.to_string(),
                message: format!("Tool \"{name}\" was added"),
                previous: None,
                current: Some(entry.to_value()),
            });
        }
    }
    for &(i, j, _) in &renames {
        let (old, new) = (removed[i].0, added[j].0);
        out.push(Change {
            class: DriftClass::ToolRenamed,
            tool: new.clone(),
            message: format!("Tool \"{old}\" was renamed to \"{new}\""),
            previous: Some(Value::String(old.clone())),
            current: Some(Value::String(new.clone())),
        });
    }
    for (name, b) in &base.tools {
        if let Some(c) = curr_idx.get(name.as_str()) {
            compare_tool(&mut out, name, b, c);
        }
    }
    // A renamed tool is compared with its old entry under its new name.
    for &(i, j, _) in &renames {
        compare_tool(&mut out, added[j].0, removed[i].1, added[j].1);
    }
    out.extend(super::other::diff_other(&base.other, &curr.other));
    out
}
