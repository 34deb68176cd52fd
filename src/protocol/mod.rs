//! The MCP protocol itself, below the wire and the checks: revisions and the era choice,
//! the 2026-07-28 `_meta` envelope and HTTP header rules. Pure data and functions; imports
//! nothing from `transport`, `checks` or `config`.

pub mod envelope;
pub mod headers;
pub mod oauth;
pub mod versions;

pub use versions::{effective_era, version_at_least, EraChoice, LEGACY_VERSIONS, MODERN_VERSIONS};
