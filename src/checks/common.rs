//! What several families share, kept out of `checks/mod.rs` so no family refers back to
//! the module that declares it.

use crate::model::Finding;
use crate::observed::Listing;
use crate::rules::types::Rule;
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;

/// One listed tool, parsed or still the JSON text it came as: a family that reads one tool
/// at a time takes either, so a long listing need not be held parsed (#12's memory bound).
pub(crate) trait ToolItem {
    fn value(&self) -> Cow<'_, Value>;
}

impl ToolItem for Value {
    fn value(&self) -> Cow<'_, Value> {
        Cow::Borrowed(self)
    }
}

impl ToolItem for Box<RawValue> {
    fn value(&self) -> Cow<'_, Value> {
        Cow::Owned(crate::surface::json::raw_to_value(self))
    }
}

/// The listed tools, or the family's `<family>/list-tools` failure when listing failed.
// Callers return the finding as is; the error path runs once per run, so its size is moot.
#[allow(clippy::result_large_err)]
pub(crate) fn listed_tools<'a>(listing: &'a Listing, rule: &Rule) -> Result<&'a [Value], Finding> {
    listed(listing.as_deref(), rule)
}

/// [`listed_tools`] for a listing parsed or held as text.
#[allow(clippy::result_large_err)]
pub(crate) fn listed<'a, T>(
    listing: Result<&'a [T], &String>,
    rule: &Rule,
) -> Result<&'a [T], Finding> {
    listing.map_err(|e| rule.fail(format!("Failed to list tools: {e}")))
}

/// A validator for a tool's schema: `$schema` honoured, 2020-12 otherwise (DECISIONS #6),
/// formats checked (as Ajv with standard formats). No remote `$ref` resolution.
pub(crate) fn compile_schema(schema: &Value) -> Result<jsonschema::Validator, String> {
    // An unknown `$schema` (not one of the five drafts) falls back to 2020-12 rather
    // than failing: the dialect URI is a hint, not worth a failed case.
    let unknown = schema
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|uri| !known_dialect(uri));
    if unknown {
        if let Value::Object(m) = schema {
            let mut m = m.clone();
            m.remove("$schema");
            return compile_schema(&Value::Object(m));
        }
    }
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The `$schema` URIs the validator recognises by itself (each in this exact spelling, with
/// or without a trailing `#`): the set this family has always accepted. Any other string
/// counts as an unknown dialect.
fn known_dialect(uri: &str) -> bool {
    matches!(
        uri.trim_end_matches('#'),
        "https://json-schema.org/draft/2020-12/schema"
            | "https://json-schema.org/draft/2019-09/schema"
            | "http://json-schema.org/draft-07/schema"
            | "http://json-schema.org/draft-06/schema"
            | "http://json-schema.org/draft-04/schema"
    )
}

/// Glob match over characters: `*` any run (possibly empty), `?` exactly one, anything
/// else itself. Iterative with one backtrack point, so linear-ish and never recursive.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || (p[pi] != '*' && p[pi] == t[ti])) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}
