//! The drift family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;
use crate::surface::drift_vocab::DriftClass;

pub const SUMMARY: Rule = Rule {
    id: "drift/summary",
    severity: Severity::Error,
    short: "Drift summary",
    description: "How many contract changes were found against the baseline and how many of them fail under the configured fail_on policy.",
    fix: "Review each listed change; if intended, re-run `mcpward baseline` and commit the lockfile.",
};

pub const NO_CHANGES: Rule = Rule {
    id: "drift/no-changes",
    severity: Severity::Info,
    short: "No drift",
    description: "The server's pinned surface (tools, and the prompts, resources, templates and instructions `checks.drift.surface` pins) matches the baseline lockfile.",
    fix: "Nothing to do.",
};

pub const BASELINE_MISSING: Rule = Rule {
    id: "drift/baseline-missing",
    severity: Severity::Warning,
    short: "Baseline lockfile missing",
    description: "No lockfile exists at the configured path, so drift cannot be checked.",
    fix: "Run `mcpward baseline` and commit the lockfile (default ./mcpward.lock.json).",
};

pub const BASELINE_STALE: Rule = Rule {
    id: "drift/baseline-stale",
    severity: Severity::Warning,
    short: "Baseline is old",
    description: "The baseline lockfile was captured longer ago than `checks.drift.max_age_days` (default 90): the pinned contract may no longer be what anyone reviewed. Informational: it never fails the run by itself.",
    fix: "Review the server's current surface and re-run `mcpward baseline` (or raise `checks.drift.max_age_days`; 0 turns the reminder off).",
};

pub const BASELINE_INVALID: Rule = Rule {
    id: "drift/baseline-invalid",
    severity: Severity::Error,
    short: "Baseline lockfile unreadable",
    description: "The lockfile is not valid JSON, has a member of the wrong type, or is missing a required member; the message names the JSON path.",
    fix: "Fix or regenerate the file with `mcpward baseline`.",
};

pub const CAPTURE_FAILED: Rule = Rule {
    id: "drift/capture-failed",
    severity: Severity::Error,
    short: "Surface capture failed",
    description: "The current tool surface could not be captured (for example a schema nested deeper than 64 levels).",
    fix: "Fix the server's tool listing; see the message for the cause.",
};

pub const AUTH_CONTEXT_MISMATCH: Rule = Rule {
    id: "drift/auth-context-mismatch",
    severity: Severity::Warning,
    short: "Different credentials than the baseline",
    description: "The baseline was captured with different credentials, so differences may come from permissions rather than from the server.",
    fix: "Capture the baseline and run the diff with the same credentials, or refresh the baseline.",
};

pub const PROTOCOL_ERA_CHANGED: Rule = Rule {
    id: "drift/protocol-era-changed",
    severity: Severity::Warning,
    short: "Protocol era changed",
    description: "The baseline was captured over another MCP protocol era (legacy initialize handshake vs. the stateless 2026-07-28 revision). Informational: it never fails the run by itself.",
    fix: "If the era switch is intended, refresh the baseline with `mcpward baseline`.",
};

pub const OUTPUT_SAMPLING: Rule = Rule {
    id: "drift/output-sampling",
    severity: Severity::Warning,
    short: "Output sampling note",
    description: "A tool's output shape could not be (fully) sampled, or the tool was not called because it may have side effects or needs arguments.",
    fix: "Add the tool with safe arguments to checks.drift.output.tools, or annotate it readOnlyHint: true if it truly has no side effects.",
};

pub const TOOL_REMOVED: Rule = Rule {
    id: "drift/tool_removed",
    severity: Severity::Error,
    short: "Tool removed",
    description:
        "A tool in the baseline is no longer listed by the server; callers of it will fail.",
    fix: "Restore the tool, or refresh the baseline if the removal is intended.",
};

pub const TOOL_ADDED: Rule = Rule {
    id: "drift/tool_added",
    severity: Severity::Info,
    short: "Tool added",
    description: "The server lists a tool that is not in the baseline.",
    fix: "Review the new tool and refresh the baseline.",
};

pub const DESCRIPTION_CHANGED: Rule = Rule {
    id: "drift/description_changed",
    severity: Severity::Error,
    short: "Description changed (possible rug-pull)",
    description: "A tool description or a parameter description changed after approval; a changed description can carry new instructions to the model.",
    fix: "Review the new text; if it is legitimate, refresh the baseline.",
};

pub const BREAKING_SCHEMA_CHANGE: Rule = Rule {
    id: "drift/breaking_schema_change",
    severity: Severity::Error,
    short: "Breaking schema change",
    description: "An input schema now rejects payloads it used to accept, or an output schema may now return data consumers do not expect.",
    fix: "Keep the schema compatible, or coordinate the change with clients and refresh the baseline.",
};

pub const NONBREAKING_SCHEMA_CHANGE: Rule = Rule {
    id: "drift/nonbreaking_schema_change",
    severity: Severity::Info,
    short: "Compatible schema change",
    description: "A schema changed in a compatible direction.",
    fix: "Refresh the baseline to record the change.",
};

pub const ANNOTATION_CHANGED: Rule = Rule {
    id: "drift/annotation_changed",
    severity: Severity::Error,
    short: "Safety annotation changed",
    description: "A tool lost readOnlyHint, or became destructive or open-world (by effective value with MCP defaults), which changes what clients auto-approve.",
    fix: "Review the tool's new behaviour; refresh the baseline if intended.",
};

pub const BREAKING_OUTPUT_SHAPE_CHANGE: Rule = Rule {
    id: "drift/breaking_output_shape_change",
    severity: Severity::Error,
    short: "Breaking output shape change",
    description: "The inferred output structure lost a field, made one optional, or returns a new type at some position.",
    fix: "Keep the output structure stable, or coordinate with consumers and refresh the baseline.",
};

pub const NONBREAKING_OUTPUT_SHAPE_CHANGE: Rule = Rule {
    id: "drift/nonbreaking_output_shape_change",
    severity: Severity::Info,
    short: "Compatible output shape change",
    description: "The inferred output structure changed compatibly (a field added, an optional field not observed).",
    fix: "Refresh the baseline to record the change.",
};

pub const TOOL_RENAMED: Rule = Rule {
    id: "drift/tool_renamed",
    severity: Severity::Error,
    short: "Tool renamed",
    description: "A tool in the baseline is gone and a new one with the same canonical input schema and a similar description (trigram Dice ≥ 0.8) appeared: the tool was renamed, and callers of the old name will fail.",
    fix: "Keep the old name (or an alias), or refresh the baseline if the rename is intended.",
};

pub const PROMPT_REMOVED: Rule = Rule {
    id: "drift/prompt_removed",
    severity: Severity::Error,
    short: "Prompt removed",
    description: "A prompt in the baseline is no longer listed by the server.",
    fix: "Restore the prompt, or refresh the baseline if the removal is intended.",
};

pub const PROMPT_ADDED: Rule = Rule {
    id: "drift/prompt_added",
    severity: Severity::Info,
    short: "Prompt added",
    description: "The server lists a prompt that is not in the baseline.",
    fix: "Review the new prompt and refresh the baseline.",
};

pub const PROMPT_RENAMED: Rule = Rule {
    id: "drift/prompt_renamed",
    severity: Severity::Error,
    short: "Prompt renamed",
    description: "A prompt in the baseline is gone and a new one with the same arguments and a similar description (trigram Dice ≥ 0.8) appeared.",
    fix: "Keep the old name, or refresh the baseline if the rename is intended.",
};

pub const PROMPT_CHANGED: Rule = Rule {
    id: "drift/prompt_changed",
    severity: Severity::Error,
    short: "Prompt text changed (possible rug-pull)",
    description: "A prompt's title or description, or an argument's title or description, changed after approval; the text reaches the model.",
    fix: "Review the new text; if it is legitimate, refresh the baseline.",
};

pub const BREAKING_PROMPT_CHANGE: Rule = Rule {
    id: "drift/breaking_prompt_change",
    severity: Severity::Error,
    short: "Breaking prompt change",
    description: "A prompt argument was removed, added as required, or became required: callers' existing arguments no longer fit.",
    fix: "Keep the arguments compatible, or coordinate the change with clients and refresh the baseline.",
};

pub const NONBREAKING_PROMPT_CHANGE: Rule = Rule {
    id: "drift/nonbreaking_prompt_change",
    severity: Severity::Info,
    short: "Compatible prompt change",
    description: "A prompt gained an optional argument or an argument became optional.",
    fix: "Refresh the baseline to record the change.",
};

pub const RESOURCE_REMOVED: Rule = Rule {
    id: "drift/resource_removed",
    severity: Severity::Error,
    short: "Resource removed",
    description: "A resource (by uri) in the baseline is no longer listed by the server.",
    fix: "Restore the resource, or refresh the baseline if the removal is intended.",
};

pub const RESOURCE_ADDED: Rule = Rule {
    id: "drift/resource_added",
    severity: Severity::Info,
    short: "Resource added",
    description: "The server lists a resource (by uri) that is not in the baseline.",
    fix: "Review the new resource and refresh the baseline.",
};

pub const RESOURCE_CHANGED: Rule = Rule {
    id: "drift/resource_changed",
    severity: Severity::Error,
    short: "Resource text changed (possible rug-pull)",
    description: "A resource's name, title or description changed after approval; the text reaches the model.",
    fix: "Review the new text; if it is legitimate, refresh the baseline.",
};

pub const BREAKING_RESOURCE_CHANGE: Rule = Rule {
    id: "drift/breaking_resource_change",
    severity: Severity::Error,
    short: "Resource type changed",
    description: "A resource's mimeType changed: consumers may not read the new content.",
    fix: "Keep the type, or coordinate the change with consumers and refresh the baseline.",
};

pub const RESOURCE_TEMPLATE_REMOVED: Rule = Rule {
    id: "drift/resource_template_removed",
    severity: Severity::Error,
    short: "Resource template removed",
    description:
        "A resource template (by uriTemplate) in the baseline is no longer listed by the server.",
    fix: "Restore the template, or refresh the baseline if the removal is intended.",
};

pub const RESOURCE_TEMPLATE_ADDED: Rule = Rule {
    id: "drift/resource_template_added",
    severity: Severity::Info,
    short: "Resource template added",
    description: "The server lists a resource template that is not in the baseline.",
    fix: "Review the new template and refresh the baseline.",
};

pub const RESOURCE_TEMPLATE_CHANGED: Rule = Rule {
    id: "drift/resource_template_changed",
    severity: Severity::Error,
    short: "Resource template changed (possible rug-pull)",
    description:
        "A resource template's name, title, description or mimeType changed after approval.",
    fix: "Review the new text; if it is legitimate, refresh the baseline.",
};

pub const INSTRUCTIONS_CHANGED: Rule = Rule {
    id: "drift/instructions_changed",
    severity: Severity::Error,
    short: "Server instructions changed (possible rug-pull)",
    description: "The server's instructions (which clients put into the model's system prompt) changed, appeared or disappeared after approval.",
    fix: "Review the new instructions; if they are legitimate, refresh the baseline.",
};

pub const RULES: &[Rule] = &[
    SUMMARY,
    NO_CHANGES,
    BASELINE_MISSING,
    BASELINE_STALE,
    BASELINE_INVALID,
    CAPTURE_FAILED,
    AUTH_CONTEXT_MISMATCH,
    PROTOCOL_ERA_CHANGED,
    OUTPUT_SAMPLING,
    TOOL_REMOVED,
    TOOL_ADDED,
    DESCRIPTION_CHANGED,
    BREAKING_SCHEMA_CHANGE,
    NONBREAKING_SCHEMA_CHANGE,
    ANNOTATION_CHANGED,
    BREAKING_OUTPUT_SHAPE_CHANGE,
    NONBREAKING_OUTPUT_SHAPE_CHANGE,
    TOOL_RENAMED,
    PROMPT_REMOVED,
    PROMPT_ADDED,
    PROMPT_RENAMED,
    PROMPT_CHANGED,
    BREAKING_PROMPT_CHANGE,
    NONBREAKING_PROMPT_CHANGE,
    RESOURCE_REMOVED,
    RESOURCE_ADDED,
    RESOURCE_CHANGED,
    BREAKING_RESOURCE_CHANGE,
    RESOURCE_TEMPLATE_REMOVED,
    RESOURCE_TEMPLATE_ADDED,
    RESOURCE_TEMPLATE_CHANGED,
    INSTRUCTIONS_CHANGED,
];

/// The rule a drift class reports under (`drift/<class>`).
pub fn of_class(class: DriftClass) -> &'static Rule {
    match class {
        DriftClass::ToolRemoved => &TOOL_REMOVED,
        DriftClass::ToolAdded => &TOOL_ADDED,
        DriftClass::DescriptionChanged => &DESCRIPTION_CHANGED,
        DriftClass::BreakingSchemaChange => &BREAKING_SCHEMA_CHANGE,
        DriftClass::NonbreakingSchemaChange => &NONBREAKING_SCHEMA_CHANGE,
        DriftClass::AnnotationChanged => &ANNOTATION_CHANGED,
        DriftClass::BreakingOutputShapeChange => &BREAKING_OUTPUT_SHAPE_CHANGE,
        DriftClass::NonbreakingOutputShapeChange => &NONBREAKING_OUTPUT_SHAPE_CHANGE,
        DriftClass::ToolRenamed => &TOOL_RENAMED,
        DriftClass::PromptRemoved => &PROMPT_REMOVED,
        DriftClass::PromptAdded => &PROMPT_ADDED,
        DriftClass::PromptRenamed => &PROMPT_RENAMED,
        DriftClass::PromptChanged => &PROMPT_CHANGED,
        DriftClass::BreakingPromptChange => &BREAKING_PROMPT_CHANGE,
        DriftClass::NonbreakingPromptChange => &NONBREAKING_PROMPT_CHANGE,
        DriftClass::ResourceRemoved => &RESOURCE_REMOVED,
        DriftClass::ResourceAdded => &RESOURCE_ADDED,
        DriftClass::ResourceChanged => &RESOURCE_CHANGED,
        DriftClass::BreakingResourceChange => &BREAKING_RESOURCE_CHANGE,
        DriftClass::ResourceTemplateRemoved => &RESOURCE_TEMPLATE_REMOVED,
        DriftClass::ResourceTemplateAdded => &RESOURCE_TEMPLATE_ADDED,
        DriftClass::ResourceTemplateChanged => &RESOURCE_TEMPLATE_CHANGED,
        DriftClass::InstructionsChanged => &INSTRUCTIONS_CHANGED,
    }
}
