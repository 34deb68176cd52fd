//! Check families. Each module turns what the server said (the hello, listings, recorded
//! call outcomes) into findings; none prints or talks to the server itself. Each family
//! declares its rules in `<family>/rules.rs`; the registry (`crate::rules`) lists them.

pub mod auth;
pub mod behavioral;
pub mod collision;
pub(crate) mod common;
pub mod compliance;
pub mod drift;
pub mod errors;
pub mod http;
pub mod latency;
pub mod schema;
pub mod security;
pub mod suppress;
pub mod tool_args;

#[cfg(test)]
mod registry_tests;
