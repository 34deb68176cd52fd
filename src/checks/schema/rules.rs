//! The schema family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUMMARY: Rule = Rule {
    id: "schema/summary",
    severity: Severity::Info,
    short: "Schema validation summary",
    description: "Emitted (as a pass) only when every tool passed every schema check.",
    fix: "Nothing to fix; when it is missing, fix the other schema findings.",
};

pub const X_MCP_HEADER: Rule = Rule {
    id: "schema/x-mcp-header",
    severity: Severity::Error,
    short: "x-mcp-header annotations",
    description: "In the 2026-07-28 revision a tool input property may carry `x-mcp-header` to be mirrored into an `Mcp-Param-*` HTTP header. An invalid annotation (not an HTTP token, duplicated, on a non-scalar or nested property) makes HTTP clients drop the tool; mcpward keeps it in the listing but never calls it over HTTP.",
    fix: "Put `x-mcp-header` only on top-level string, integer or boolean properties, with a unique header-token value per tool.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "schema/list-tools",
    severity: Severity::Error,
    short: "Tool listing",
    description: "The complete `tools/list` listing (all pages) could not be obtained, so no \
            tool could be checked.",
    fix: "Make `tools/list` answer with a valid result on every page: a `tools` array and an \
            optional string `nextCursor`.",
};

pub const UNIQUE_NAMES: Rule = Rule {
    id: "schema/unique-names",
    severity: Severity::Error,
    short: "Unique names check",
    description: "Two or more listed tools share a name. Clients call tools by name, so all \
            but one of them are unreachable, and which one is called is undefined.",
    fix: "Give every tool a distinct name, or stop registering the same tool twice.",
};

pub const TOOL_NAME: Rule = Rule {
    id: "schema/tool-name",
    severity: Severity::Error,
    short: "Tool name validation",
    description: "Tool names must be non-empty and use only the characters the MCP \
            specification allows: ASCII letters, digits, `_` and `-` (from protocol 2025-11-25 \
            on also `.`, at most 128 characters). Other names break clients that map tools to \
            function names.",
    fix: "Rename the tool: replace spaces, slashes and other characters by `_` or `-`.",
};

pub const TOOL_DESCRIPTION: Rule = Rule {
    id: "schema/tool-description",
    severity: Severity::Error,
    short: "Tool description validation",
    description: "Every tool needs a non-empty string description: it is what a model reads \
            to decide when and how to call the tool.",
    fix: "Add a `description` that says what the tool does, when to use it and what it \
            returns.",
};

pub const TOOL_INPUT_SCHEMA: Rule = Rule {
    id: "schema/tool-input-schema",
    severity: Severity::Error,
    short: "Input schema validation",
    description: "A tool's `inputSchema` must be a valid JSON Schema (in the dialect its \
            `$schema` names, 2020-12 by default) whose root `type` is \"object\". Clients \
            validate arguments with it and models build calls from it.",
    fix: "Declare `inputSchema` as `{\"type\": \"object\", \"properties\": {...}}`, use only \
            valid JSON Schema keywords and type names, and keep every `$ref` inside the schema.",
};

pub const TOOL_ANNOTATIONS: Rule = Rule {
    id: "schema/tool-annotations",
    severity: Severity::Error,
    short: "Annotations validation",
    description: "The behaviour hints `readOnlyHint`, `destructiveHint`, `idempotentHint` and \
            `openWorldHint` must be booleans; clients use them to decide whether to ask the user \
            before a call.",
    fix: "Send the hints as JSON booleans (`true`/`false`), not strings or numbers, or leave \
            them out.",
};

pub const RULES: &[Rule] = &[
    SUMMARY,
    X_MCP_HEADER,
    LIST_TOOLS,
    UNIQUE_NAMES,
    TOOL_NAME,
    TOOL_DESCRIPTION,
    TOOL_INPUT_SCHEMA,
    TOOL_ANNOTATIONS,
];
