//! The drift vocabulary (drift.md §3, §5): the classes of change, their levels, one
//! change, and the direction a schema is read in. Shared by the schema walker
//! (`schema_walk`), the output-shape comparison (`shape`) and the surface diff (`diff`).

use serde_json::Value;

/// The drift classes (public contract: the names never change). The first eight are the
/// tool classes of drift.md; the rest cover the whole surface (#14).
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
    ToolRenamed,
    PromptRemoved,
    PromptAdded,
    PromptRenamed,
    PromptChanged,
    BreakingPromptChange,
    NonbreakingPromptChange,
    ResourceRemoved,
    ResourceAdded,
    ResourceChanged,
    BreakingResourceChange,
    ResourceTemplateRemoved,
    ResourceTemplateAdded,
    ResourceTemplateChanged,
    InstructionsChanged,
}

impl DriftClass {
    pub const ALL: [DriftClass; 23] = [
        DriftClass::ToolRemoved,
        DriftClass::ToolAdded,
        DriftClass::DescriptionChanged,
        DriftClass::BreakingSchemaChange,
        DriftClass::NonbreakingSchemaChange,
        DriftClass::AnnotationChanged,
        DriftClass::BreakingOutputShapeChange,
        DriftClass::NonbreakingOutputShapeChange,
        DriftClass::ToolRenamed,
        DriftClass::PromptRemoved,
        DriftClass::PromptAdded,
        DriftClass::PromptRenamed,
        DriftClass::PromptChanged,
        DriftClass::BreakingPromptChange,
        DriftClass::NonbreakingPromptChange,
        DriftClass::ResourceRemoved,
        DriftClass::ResourceAdded,
        DriftClass::ResourceChanged,
        DriftClass::BreakingResourceChange,
        DriftClass::ResourceTemplateRemoved,
        DriftClass::ResourceTemplateAdded,
        DriftClass::ResourceTemplateChanged,
        DriftClass::InstructionsChanged,
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
            DriftClass::ToolRenamed => "tool_renamed",
            DriftClass::PromptRemoved => "prompt_removed",
            DriftClass::PromptAdded => "prompt_added",
            DriftClass::PromptRenamed => "prompt_renamed",
            DriftClass::PromptChanged => "prompt_changed",
            DriftClass::BreakingPromptChange => "breaking_prompt_change",
            DriftClass::NonbreakingPromptChange => "nonbreaking_prompt_change",
            DriftClass::ResourceRemoved => "resource_removed",
            DriftClass::ResourceAdded => "resource_added",
            DriftClass::ResourceChanged => "resource_changed",
            DriftClass::BreakingResourceChange => "breaking_resource_change",
            DriftClass::ResourceTemplateRemoved => "resource_template_removed",
            DriftClass::ResourceTemplateAdded => "resource_template_added",
            DriftClass::ResourceTemplateChanged => "resource_template_changed",
            DriftClass::InstructionsChanged => "instructions_changed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Default severity (drift.md §3.1, #14's table): blast radius, not breakage.
    pub fn default_level(self) -> Level {
        match self {
            DriftClass::DescriptionChanged
            | DriftClass::AnnotationChanged
            | DriftClass::PromptChanged
            | DriftClass::ResourceChanged
            | DriftClass::ResourceTemplateChanged
            | DriftClass::InstructionsChanged => Level::High,
            DriftClass::BreakingSchemaChange
            | DriftClass::BreakingOutputShapeChange
            | DriftClass::BreakingPromptChange
            | DriftClass::BreakingResourceChange => Level::Medium,
            _ => Level::Low,
        }
    }

    /// Classes whose change carries the old and the new text a model reads: reporters show
    /// them as a word diff with invisible characters marked.
    pub fn is_text_change(self) -> bool {
        matches!(
            self,
            DriftClass::DescriptionChanged
                | DriftClass::PromptChanged
                | DriftClass::ResourceChanged
                | DriftClass::ResourceTemplateChanged
                | DriftClass::InstructionsChanged
        )
    }

    /// The class a report result id (`drift/<class>`) names, if any.
    pub fn of_rule_id(id: &str) -> Option<Self> {
        id.strip_prefix("drift/").and_then(Self::parse)
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

/// What `checks.drift.surface` pins and compares besides tools (tools are always pinned:
/// the lockfile's `tools` member is required).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SurfaceSet {
    pub prompts: bool,
    pub resources: bool,
    pub resource_templates: bool,
    pub instructions: bool,
}

impl SurfaceSet {
    /// The names `checks.drift.surface` accepts, in the order users read them.
    pub const NAMES: [&'static str; 6] = [
        "tools",
        "prompts",
        "resources",
        "resource_templates",
        "instructions",
        "all",
    ];

    pub const ALL: SurfaceSet = SurfaceSet {
        prompts: true,
        resources: true,
        resource_templates: true,
        instructions: true,
    };

    /// Adds one named part; `false` for an unknown name.
    pub fn add(&mut self, name: &str) -> bool {
        match name {
            "tools" => {}
            "prompts" => self.prompts = true,
            "resources" => self.resources = true,
            "resource_templates" => self.resource_templates = true,
            "instructions" => self.instructions = true,
            "all" => *self = SurfaceSet::ALL,
            _ => return false,
        }
        true
    }

    /// Whether anything beyond the tool listing has to be asked for.
    pub fn needs_lists(&self) -> bool {
        self.prompts || self.resources || self.resource_templates
    }

    /// The parts as config names (`tools` first, always).
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = vec!["tools"];
        for (on, name) in [
            (self.prompts, "prompts"),
            (self.resources, "resources"),
            (self.resource_templates, "resource_templates"),
            (self.instructions, "instructions"),
        ] {
            if on {
                out.push(name);
            }
        }
        out
    }
}

/// Input schemas break when they accept less; output schemas break a consumer when they
/// may return more (DECISIONS #27).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}
