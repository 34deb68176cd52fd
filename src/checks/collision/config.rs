//! `checks.collision` (collision.md §2), validated by the config loader.

/// `checks.collision`; the lint runs unless `enabled` is false.
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionConfig {
    pub enabled: bool,
    pub threshold: f64,
    pub max_tools: u64,
    pub fail: bool,
}

impl Default for CollisionConfig {
    fn default() -> Self {
        CollisionConfig {
            enabled: true,
            threshold: 0.8,
            max_tools: 500,
            fail: false,
        }
    }
}
