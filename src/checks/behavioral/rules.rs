//! The behavioral family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUMMARY: Rule = Rule {
    id: "behavioral/summary",
    severity: Severity::Error,
    short: "Behavioral suites summary",
    description:
        "Aggregate of every behavioral suite result: passes when no case assertion failed.",
    fix: "Look at the failing behavioral results listed after the summary and fix each.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "behavioral/list-tools",
    severity: Severity::Error,
    short: "Tools could not be listed for the suites",
    description: "The suites need the server's tool list (for tool names and output schemas), and `tools/list` failed, so no case ran.",
    fix: "Make `tools/list` succeed (see the error in the message); check the server starts and advertises the tools capability.",
};

pub const TOOL_EXISTS: Rule = Rule {
    id: "behavioral/tool-exists",
    severity: Severity::Error,
    short: "Suite names a tool the server does not list",
    description: "A suite targets a tool name that is absent from `tools/list`; none of its cases ran. Usually a renamed or removed tool.",
    fix: "Restore the tool on the server, or update the suite's `tool` to the new name.",
};

pub const CASE: Rule = Rule {
    id: "behavioral/case",
    severity: Severity::Error,
    short: "Suite case call result",
    description: "A case without assertions (smoke test) or a case whose call had to succeed: fails when the call threw (JSON-RPC error, timeout, transport failure).",
    fix: "Fix the tool so the call succeeds with the case's arguments, or correct the arguments; if an error is the intended behaviour, assert it with `protocol_error_code` or `tool_is_error`.",
};

pub const TOOL_IS_ERROR: Rule = Rule {
    id: "behavioral/tool-is-error",
    severity: Severity::Error,
    short: "tool_is_error assertion",
    description: "Compares the result's `isError` flag (absent counts as false) with the case's `tool_is_error`.",
    fix: "Make the tool report failures with `isError: true` (and success without it), or correct the expectation.",
};

pub const OUTPUT_SCHEMA: Rule = Rule {
    id: "behavioral/output-schema",
    severity: Severity::Error,
    short: "output_matches_schema assertion",
    description: "Validates the result's `structuredContent` against the tool's advertised `outputSchema`; a declared schema with no `structuredContent` fails. Skipped on `isError` results.",
    fix: "Return `structuredContent` that satisfies the tool's `outputSchema` (the message lists each violation), or fix the schema.",
};

pub const JSONPATH: Rule = Rule {
    id: "behavioral/jsonpath",
    severity: Severity::Error,
    short: "JSONPath assertions",
    description: "Each configured JSONPath is evaluated on the call result and deep-compared (no type coercion) with the expected value. An invalid path fails naming the parse error.",
    fix: "Fix the tool's output, or the expected value or path (the failing path is in the location).",
};

pub const PROTOCOL_ERROR: Rule = Rule {
    id: "behavioral/protocol-error",
    severity: Severity::Error,
    short: "protocol_error_code assertion",
    description: "The case expects the call to fail with a specific JSON-RPC error code; fails when the call succeeded or failed with another (or no) code.",
    fix: "Make the server reject the call with the expected JSON-RPC code (e.g. -32602 for invalid params), or correct the expectation.",
};

pub const GOLDEN: Rule = Rule {
    id: "behavioral/golden",
    severity: Severity::Error,
    short: "Golden snapshot comparison",
    description: "Compares the result's content, structuredContent and isError with a stored snapshot, ignoring key order and formatting. A missing file fails; it is only written with --update-golden (from the raw result, before report redaction).",
    fix: "If the change is intended, re-run with `--update-golden` and commit the file; otherwise fix the tool's output.",
};

pub const RULES: &[Rule] = &[
    SUMMARY,
    LIST_TOOLS,
    TOOL_EXISTS,
    CASE,
    TOOL_IS_ERROR,
    OUTPUT_SCHEMA,
    JSONPATH,
    PROTOCOL_ERROR,
    GOLDEN,
];
