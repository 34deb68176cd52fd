//! Check families. Each module turns what the server said (the hello, listings, recorded
//! call outcomes) into findings; none prints or talks to the server itself.

use crate::model::Finding;
use crate::observed::Listing;
use crate::rules::Rule;
use serde_json::Value;

pub mod behavioral;
pub mod collision;
pub mod compliance;
pub mod drift;
pub mod errors;
pub mod latency;
pub mod schema;
pub mod security;

/// Every family's rule table, in run order. Add a family here and nowhere else.
#[rustfmt::skip]
pub const FAMILIES: &[&[Rule]] = &[
    compliance::RULES,
    compliance::modern::RULES,
    schema::RULES,
    drift::RULES,
    security::RULES,
    collision::RULES,
    behavioral::RULES,
    errors::RULES,
    latency::RULES,
];

/// The listed tools, or the family's `<family>/list-tools` failure when listing failed.
// Callers return the finding as is; the error path runs once per run, so its size is moot.
#[allow(clippy::result_large_err)]
pub(crate) fn listed_tools<'a>(listing: &'a Listing, id: &str) -> Result<&'a [Value], Finding> {
    listing
        .as_deref()
        .map_err(|e| Finding::fail(id, format!("Failed to list tools: {e}")))
}
