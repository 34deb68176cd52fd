//! `checks.drift` (drift.md §2, §3.3, §10; config.md §5), validated by the config loader.
//! The same type drives `run`, `diff` and `baseline`.

use crate::checks::tool_args::ToolArgs;
use crate::surface::drift_vocab::{DriftClass, Level, SurfaceSet};
use std::collections::BTreeMap;

/// Default `checks.drift.baseline` (resolved against the CWD by the caller).
pub const DEFAULT_BASELINE: &str = "./mcpward.lock.json";

/// Classes that fail the run when `fail_on` is not configured (drift.md §2).
pub const DEFAULT_FAIL_ON: [DriftClass; 16] = [
    DriftClass::ToolRemoved,
    DriftClass::DescriptionChanged,
    DriftClass::BreakingSchemaChange,
    DriftClass::AnnotationChanged,
    DriftClass::BreakingOutputShapeChange,
    DriftClass::ToolRenamed,
    DriftClass::PromptRemoved,
    DriftClass::PromptRenamed,
    DriftClass::PromptChanged,
    DriftClass::BreakingPromptChange,
    DriftClass::ResourceRemoved,
    DriftClass::ResourceChanged,
    DriftClass::BreakingResourceChange,
    DriftClass::ResourceTemplateRemoved,
    DriftClass::ResourceTemplateChanged,
    DriftClass::InstructionsChanged,
];

/// `checks.drift.fail_on`: a severity threshold or a list of classes.
#[derive(Debug, Clone, PartialEq)]
pub enum FailOn {
    Level(Level),
    Classes(Vec<DriftClass>),
}

impl Default for FailOn {
    fn default() -> Self {
        FailOn::Classes(DEFAULT_FAIL_ON.to_vec())
    }
}

/// `checks.drift`; the default is what `diff`/`baseline` use when the key is absent.
#[derive(Debug, Clone, PartialEq)]
pub struct DriftConfig {
    /// Lockfile path as written; resolved against the CWD (config.md §11).
    pub baseline: String,
    pub fail_on: FailOn,
    /// `checks.drift.severity`: per-class overrides of the default level.
    pub severity: BTreeMap<DriftClass, Level>,
    pub full_text: bool,
    pub output: Option<OutputDriftConfig>,
    /// `checks.drift.surface`: what is pinned and compared besides tools (default: tools only,
    /// so existing lockfiles stay byte-identical).
    pub surface: SurfaceSet,
    /// `checks.drift.max_age_days`: a baseline older than this gives `drift/baseline-stale`
    /// (0: never).
    pub max_age_days: u64,
}

/// Default of `checks.drift.max_age_days`.
pub const DEFAULT_MAX_AGE_DAYS: u64 = 90;

impl Default for DriftConfig {
    fn default() -> Self {
        DriftConfig {
            baseline: DEFAULT_BASELINE.to_string(),
            fail_on: FailOn::default(),
            severity: BTreeMap::new(),
            full_text: true,
            output: None,
            surface: SurfaceSet::default(),
            max_age_days: DEFAULT_MAX_AGE_DAYS,
        }
    }
}

impl DriftConfig {
    pub fn level_of(&self, class: DriftClass) -> Level {
        self.severity
            .get(&class)
            .copied()
            .unwrap_or_else(|| class.default_level())
    }

    /// drift.md §3.3: a threshold compares ranks; a list looks only at the class.
    pub fn fails(&self, class: DriftClass) -> bool {
        match &self.fail_on {
            FailOn::Level(threshold) => self.level_of(class) >= *threshold,
            FailOn::Classes(list) => list.contains(&class),
        }
    }
}

/// `checks.drift.output`: output-shape sampling (drift.md §10; opt-in, calls tools).
#[derive(Debug, Clone, PartialEq)]
pub struct OutputDriftConfig {
    pub enabled: bool,
    /// Calls per sampled tool (> 0; config validation guarantees it).
    pub shape_samples: u32,
    pub call_readonly: bool,
    /// Allowlist in config order; the first entry for a name wins.
    pub tools: Vec<ToolArgs>,
}

impl Default for OutputDriftConfig {
    fn default() -> Self {
        OutputDriftConfig {
            enabled: false,
            shape_samples: 3,
            call_readonly: true,
            tools: Vec::new(),
        }
    }
}
