//! Check families. Each module turns what the server said (the hello, listings, recorded
//! call outcomes) into findings; none prints or talks to the server itself.

use crate::rules::Rule;

pub mod compliance;
pub mod errors;
pub mod schema;

/// Every family's rule table, in run order. Add a family here and nowhere else.
pub const FAMILIES: &[&[Rule]] = &[
    compliance::RULES,
    schema::RULES,
    // drift, security, collision and behavioral run here, between schema and errors.
    errors::RULES,
    // latency runs last, after errors.
];
