//! The errors family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUMMARY: Rule = Rule {
    id: "errors/summary",
    severity: Severity::Error,
    short: "Error contract summary",
    description: "Counts the error-contract violations (failed unknown-tool and \
            invalid-params probes); it fails when there is at least one.",
    fix: "Fix the errors/unknown-tool and errors/invalid-params findings it counts.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "errors/list-tools",
    severity: Severity::Error,
    short: "Tool listing",
    description: "The complete `tools/list` listing could not be obtained, so no error-contract \
            probe was sent.",
    fix: "Make `tools/list` answer with a valid result on every page: a `tools` array and an \
            optional string `nextCursor`.",
};

pub const UNKNOWN_TOOL: Rule = Rule {
    id: "errors/unknown-tool",
    severity: Severity::Error,
    short: "Unknown tool error layer",
    description: "Calling a tool that does not exist must be answered with a JSON-RPC error \
            (protocol layer, e.g. -32602 or -32601), not with a tool result: clients and models \
            treat `isError` results as the tool's own output and may retry or hallucinate. With \
            `checks.errors.unknown_tool: either` a tool error is accepted too.",
    fix: "Look up the tool name before dispatching and return a JSON-RPC error (-32602, \
            \"Unknown tool: <name>\") instead of a result; do not wrap protocol errors in a \
            result with `isError: true`.",
};

pub const INVALID_PARAMS: Rule = Rule {
    id: "errors/invalid-params",
    severity: Severity::Warning,
    short: "Invalid params error layer",
    description: "Calling a tool without its required arguments must be rejected. Before \
            protocol 2025-11-25 the expected answer is a JSON-RPC -32602 error; from 2025-11-25 on \
            (SEP-1303) it is a tool result with `isError: true` so the model can correct itself. \
            A call that succeeds warns (as in the original); with \
            `checks.errors.invalid_params: strict` it fails.",
    fix: "Validate arguments against the tool's inputSchema before running it and reject \
            missing required arguments on the layer the negotiated protocol version expects.",
};

pub const RULES: &[Rule] = &[SUMMARY, LIST_TOOLS, UNKNOWN_TOOL, INVALID_PARAMS];
