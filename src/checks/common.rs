//! What several families share, kept out of `checks/mod.rs` so no family refers back to
//! the module that declares it.

use crate::model::Finding;
use crate::observed::Listing;
use crate::rules::types::Rule;
use serde_json::Value;

/// The listed tools, or the family's `<family>/list-tools` failure when listing failed.
// Callers return the finding as is; the error path runs once per run, so its size is moot.
#[allow(clippy::result_large_err)]
pub(crate) fn listed_tools<'a>(listing: &'a Listing, rule: &Rule) -> Result<&'a [Value], Finding> {
    listing
        .as_deref()
        .map_err(|e| rule.fail(format!("Failed to list tools: {e}")))
}
