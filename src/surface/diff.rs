//! The surface diff (drift.md §5–§7): compares two captured surfaces and returns one
//! `Change` per difference, in the order of drift.md §5.3 — tools removed, added, then per
//! tool its description, schemas (`schema_walk`), output shape (`shape`) and annotations.
//! Pure.

use super::drift_vocab::{Change, Direction, DriftClass};
use super::lockfile::{Lockfile, ToolEntry};
use super::schema_walk::diff_schema;
use serde_json::{json, Value};

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

/// The whole surface diff, in the order of drift.md §5.3.
pub fn diff_surfaces(base: &Lockfile, curr: &Lockfile) -> Vec<Change> {
    // Name indexes: linear lookups made 10,000-tool surfaces quadratic.
    let base_idx = base.index();
    let curr_idx = curr.index();
    let in_curr = |n: &str| curr_idx.get(n).copied();
    let in_base = |n: &str| base_idx.get(n).copied();
    let mut out = Vec::new();
    for (name, entry) in &base.tools {
        if in_curr(name).is_none() {
            out.push(Change {
                class: DriftClass::ToolRemoved,
                tool: name.clone(),
                message: format!("Tool \"{name}\" was removed"),
                previous: Some(entry.to_value()),
                current: None,
            });
        }
    }
    for (name, entry) in &curr.tools {
        if in_base(name).is_none() {
            out.push(Change {
                class: DriftClass::ToolAdded,
                tool: name.clone(),
                message: format!("Tool \"{name}\" was added"),
                previous: None,
                current: Some(entry.to_value()),
            });
        }
    }
    for (name, b) in &base.tools {
        let Some(c) = in_curr(name) else { continue };
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
                tool: name.clone(),
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
    out
}
