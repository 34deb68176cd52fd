//! placeholder
pub const RULES: &[crate::rules::Rule] = &[];
