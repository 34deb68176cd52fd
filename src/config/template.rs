//! The starter config written by `mcpward init` (cli.md §5.1).

/// First line: the yaml-language-server modeline. Placeholders appear only in comments, so
/// loading the template never needs an environment variable.
pub const INIT_TEMPLATE: &str = r#"# yaml-language-server: $schema=https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/config.v1.schema.json
#
# mcpward: contract tests for an MCP server, meant to run in CI.
# Project and full reference: https://github.com/TsvetanG2/mcpward
# Only `server` is required; every other key below shows its default or a typical value.

server:
  # Start the server as a child process and talk to it over stdin/stdout.
  transport: stdio
  command: npx
  args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/sandbox"]
  env: {}                      # extra variables for the server process

  # Or test a server reachable over Streamable HTTP instead:
  # transport: http
  # url: "https://example.com/mcp"
  # headers:
  #   Authorization: "Bearer ${MCP_TOKEN}"   # read from the environment, masked in reports

# Fail when the server negotiates a different protocol version:
# expect:
#   protocol_version: "2025-11-25"

checks:
  compliance: true             # handshake, ping, server info, capabilities
  schema: true                 # tool names and input/output schemas
  security: true               # tool-poisoning patterns in descriptions
  errors: true                 # error contract (calls an unknown tool and tools with {} args)
  drift:
    baseline: ./mcpward.lock.json   # written by `mcpward baseline`
    fail_on: high              # high / medium / low, or a list of drift classes
    # Output-shape drift samples tool results (opt-in, calls tools):
    # output:
    #   enabled: true
    #   shape_samples: 3
    #   tools:
    #     - name: read_file
    #       args: { path: "/tmp/sandbox/hello.txt" }
  collision:
    enabled: true
    threshold: 0.8             # description similarity (0 to 1) reported as a collision
  latency:
    samples: 5
    p95_budget_ms: 1000

# Behavioral tests: call a tool with fixed arguments and assert on the answer.
suites: []
# suites:
#   - tool: read_file
#     cases:
#       - name: reads a file that exists
#         args: { path: "/tmp/sandbox/hello.txt" }
#         expect:
#           tool_is_error: false
#           output_matches_schema: true
"#;
