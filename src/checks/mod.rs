//! Check families. Each module turns what the server said (the hello, listings, recorded
//! call outcomes) into findings; none prints or talks to the server itself.

use crate::rules::Rule;

pub mod behavioral;
pub mod collision;
pub mod compliance;
pub mod drift;
pub mod errors;
pub mod latency;
pub mod modern;
pub mod schema;
pub mod security;

/// Every family's rule table, in run order. Add a family here and nowhere else.
#[rustfmt::skip]
pub const FAMILIES: &[&[Rule]] = &[
    compliance::RULES,
    modern::RULES,
    schema::RULES,
    drift::RULES,
    security::RULES,
    collision::RULES,
    behavioral::RULES,
    errors::RULES,
    latency::RULES,
];
