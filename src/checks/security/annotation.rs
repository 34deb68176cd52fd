//! `security/annotation-mismatch`: behaviour hints that contradict what the tool says it
//! does (security.md §7).

use super::{patterns, rules};
use crate::model::Finding;
use serde_json::{json, Map, Value};

pub(super) fn annotation(
    obj: &Map<String, Value>,
    name: &str,
    description: &str,
    out: &mut Vec<Finding>,
) {
    let read_only = obj
        .get("annotations")
        .and_then(|a| a.get("readOnlyHint"))
        .is_some_and(|v| *v == Value::Bool(true));
    if read_only && patterns::implies_mutation(&format!("{name} {description}")) {
        out.push(
            rules::ANNOTATION_MISMATCH
                .fail(format!(
                    "Tool \"{name}\" has readOnlyHint=true but name/description implies mutation"
                ))
                .expected("readOnlyHint should be false for destructive operations")
                .actual(json!({"readOnlyHint": true, "impliesDestruction": true}))
                .location(name),
        );
    }
}
