//! The latency family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUMMARY: Rule = Rule {
    id: "latency/summary",
    severity: Severity::Error,
    short: "Pooled p95 latency within budget",
    description: "The p95 of all latency samples of all measured tools, pooled, compared with `checks.latency.p95_budget_ms` (equality passes). A warning when nothing could be measured.",
    fix: "Make the slow tools faster (see the `latency/tool` results for which), or raise the budget if it was unrealistic. For a warning, annotate read-only tools with `readOnlyHint: true` or allowlist tools with arguments in `checks.latency.tools`.",
};

pub const TOOL: Rule = Rule {
    id: "latency/tool",
    severity: Severity::Warning,
    short: "Per-tool latency",
    description: "min/p50/p95/max of one measured tool's completed calls. Informational; a warning when every call failed, since then nothing was measured.",
    fix: "For a warning, fix the arguments (`checks.latency.tools[].args`) or the tool so the calls succeed; the message shows the first error.",
};

pub const SAMPLING: Rule = Rule {
    id: "latency/sampling",
    severity: Severity::Warning,
    short: "Tools not measured",
    description: "Names the listed tools mcpward refused to call repeatedly (possible side effects, or no valid arguments could be generated) and allowlisted names the server does not list.",
    fix: "Allowlist a tool you want measured in `checks.latency.tools` with arguments that are safe to repeat; remove or correct allowlisted names the server does not have.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "latency/list-tools",
    severity: Severity::Error,
    short: "Tools could not be listed for latency",
    description: "`tools/list` failed, so no tool could be measured.",
    fix: "Make `tools/list` succeed (see the error in the message).",
};

pub const NO_TOOLS: Rule = Rule {
    id: "latency/no-tools",
    severity: Severity::Info,
    short: "No tools to measure",
    description: "The server lists no tools, so latency was not measured.",
    fix: "Nothing to fix unless the server should expose tools.",
};

pub const REGRESSION: Rule = Rule {
    id: "latency/regression",
    severity: Severity::Error,
    short: "p95 latency not regressed against the baseline",
    description: "One result per tool measured now and in the baseline lockfile's `latency` member (written by `mcpward baseline` with `checks.latency` on): fails when the tool's p95 grew by more than `checks.latency.regression.ratio` (default 2) **and** by more than `checks.latency.regression.min_ms` (default 50 ms). Samples are taken after `checks.latency.regression.warmup` discarded calls. A tool measured on only one side is a `skip`. No result at all when the baseline has no `latency` member.",
    fix: "Find what made the tool slower (the message shows both p95s and sample counts). If the new latency is expected, run `mcpward baseline` to pin it; if the comparison is too sensitive, raise `ratio`, `min_ms` or `checks.latency.samples`.",
};

pub const RULES: &[Rule] = &[SUMMARY, TOOL, SAMPLING, LIST_TOOLS, NO_TOOLS, REGRESSION];
