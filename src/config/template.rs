//! The starter config written by `mcpward init` (cli.md §5.1).

use super::schema::CONFIG_SCHEMA_ID;
use super::types::Checks;
use crate::checks::drift::{DriftConfig, OutputDriftConfig};
use crate::checks::latency::LatencyConfig;

/// First line: the yaml-language-server modeline. Placeholders appear only in comments, so
/// loading the template never needs an environment variable. Values that show a default
/// are read from the family's own `Default`.
pub fn init_template() -> String {
    let checks = Checks::default();
    let drift = DriftConfig::default();
    let output = OutputDriftConfig::default();
    let latency = LatencyConfig::default();
    format!(
        r#"# yaml-language-server: $schema={schema_id}
#
# mcpward: contract tests for an MCP server, meant to run in CI.
# Project and full reference: https://github.com/TsvetanG2/mcpward
# Only `server` is required; every other key below shows its default or a typical value.

server:
  # Start the server as a child process and talk to it over stdin/stdout.
  transport: stdio
  command: npx
  args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/sandbox"]
  env: {{}}                      # extra variables for the server process

  # Or test a server reachable over Streamable HTTP instead:
  # transport: http
  # url: "https://example.com/mcp"
  # headers:
  #   Authorization: "Bearer ${{MCP_TOKEN}}"   # read from the environment, masked in reports

# Fail when the server negotiates a different protocol version:
# expect:
#   protocol_version: "2025-11-25"

checks:
  compliance: {compliance}             # handshake, ping, server info, capabilities
  schema: {schema}                 # tool names and input/output schemas
  security: {security}               # tool-poisoning patterns in descriptions
  errors: {errors}                 # error contract (calls an unknown tool and tools with {{}} args)
  drift:
    baseline: {baseline}   # written by `mcpward baseline`
    fail_on: high              # high / medium / low, or a list of drift classes
    surface: all               # also pin prompts, resources, templates and instructions (default: tools)
    # Output-shape drift samples tool results (opt-in, calls tools):
    # output:
    #   enabled: true
    #   shape_samples: {shape_samples}
    #   tools:
    #     - name: read_file
    #       args: {{ path: "/tmp/sandbox/hello.txt" }}
  collision:
    enabled: {collision_enabled}
    threshold: {threshold}             # description similarity (0 to 1) reported as a collision
  latency:
    samples: {samples}
    p95_budget_ms: {p95_budget_ms}

# Behavioral tests: call a tool with fixed arguments and assert on the answer.
suites: []
# suites:
#   - tool: read_file
#     cases:
#       - name: reads a file that exists
#         args: {{ path: "/tmp/sandbox/hello.txt" }}
#         expect:
#           tool_is_error: false
#           output_matches_schema: true
"#,
        schema_id = CONFIG_SCHEMA_ID,
        compliance = checks.compliance.enabled,
        schema = checks.schema,
        security = checks.security,
        errors = checks.errors.enabled,
        baseline = drift.baseline,
        shape_samples = output.shape_samples,
        collision_enabled = checks.collision.enabled,
        threshold = checks.collision.threshold,
        samples = latency.samples,
        p95_budget_ms = latency.p95_budget_ms,
    )
}
