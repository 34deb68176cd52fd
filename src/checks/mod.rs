//! Check families. Each module turns what the server said (the hello, listings, recorded
//! call outcomes) into findings; none prints or talks to the server itself.

use crate::rules::Rule;

pub mod collision;
pub mod security;

/// Every family's rule table, in run order. Add a family here and nowhere else.
pub const FAMILIES: &[&[Rule]] = &[
    security::RULES,  // security.md
    collision::RULES, // collision.md
];
