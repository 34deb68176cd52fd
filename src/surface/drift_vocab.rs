//! The drift vocabulary (drift.md §3, §5): the classes of change, their levels, one
//! change, and the direction a schema is read in. Shared by the schema walker
//! (`schema_walk`), the output-shape comparison (`shape`) and the surface diff (`diff`).

use serde_json::Value;

/// The eight drift classes (public contract: the names never change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DriftClass {
    ToolRemoved,
    ToolAdded,
    DescriptionChanged,
    BreakingSchemaChange,
    NonbreakingSchemaChange,
    AnnotationChanged,
    BreakingOutputShapeChange,
    NonbreakingOutputShapeChange,
}

impl DriftClass {
    pub const ALL: [DriftClass; 8] = [
        DriftClass::ToolRemoved,
        DriftClass::ToolAdded,
        DriftClass::DescriptionChanged,
        DriftClass::BreakingSchemaChange,
        DriftClass::NonbreakingSchemaChange,
        DriftClass::AnnotationChanged,
        DriftClass::BreakingOutputShapeChange,
        DriftClass::NonbreakingOutputShapeChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DriftClass::ToolRemoved => "tool_removed",
            DriftClass::ToolAdded => "tool_added",
            DriftClass::DescriptionChanged => "description_changed",
            DriftClass::BreakingSchemaChange => "breaking_schema_change",
            DriftClass::NonbreakingSchemaChange => "nonbreaking_schema_change",
            DriftClass::AnnotationChanged => "annotation_changed",
            DriftClass::BreakingOutputShapeChange => "breaking_output_shape_change",
            DriftClass::NonbreakingOutputShapeChange => "nonbreaking_output_shape_change",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Default severity (drift.md §3.1): blast radius, not breakage.
    pub fn default_level(self) -> Level {
        match self {
            DriftClass::DescriptionChanged | DriftClass::AnnotationChanged => Level::High,
            DriftClass::BreakingSchemaChange | DriftClass::BreakingOutputShapeChange => {
                Level::Medium
            }
            _ => Level::Low,
        }
    }
}

/// Drift severity (blast radius). Ordered low < medium < high.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Low,
    Medium,
    High,
}

impl Level {
    /// In the order users write them (highest first).
    pub const ALL: [Level; 3] = [Level::High, Level::Medium, Level::Low];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::High => "high",
            Level::Medium => "medium",
            Level::Low => "low",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "high" => Some(Level::High),
            "medium" => Some(Level::Medium),
            "low" => Some(Level::Low),
            _ => None,
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for DriftClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference between baseline and current.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub class: DriftClass,
    pub tool: String,
    pub message: String,
    pub previous: Option<Value>,
    pub current: Option<Value>,
}

/// Input schemas break when they accept less; output schemas break a consumer when they
/// may return more (DECISIONS #27).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}
