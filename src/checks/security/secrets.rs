//! `security/secret-in-schema`: input properties named like credentials (security.md §6).

use super::{patterns, rules};
use crate::model::Finding;
use serde_json::Value;

pub(super) fn secrets(schema: Option<&Value>, name: &str, out: &mut Vec<Finding>) {
    let Some(props) = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        return;
    };
    let hits: Vec<&str> = props
        .keys()
        .map(String::as_str)
        .filter(|k| patterns::is_secret_name(k))
        .collect();
    if hits.is_empty() {
        return;
    }
    out.push(
        rules::SECRET_IN_SCHEMA
            .fail(format!(
                "Tool \"{name}\" schema solicits secrets: {}",
                hits.join(", ")
            ))
            .actual(hits.clone())
            .location(name),
    );
}
