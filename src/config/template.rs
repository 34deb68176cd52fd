//! The starter config written by `mcpward init` (cli.md §5.1), for a placeholder server or
//! for the server given on the command line (#16 §1). It must run as written on a fresh
//! machine: no path that may not exist, no sampling that calls every tool.

use super::endpoint::EndpointTarget;
use super::schema::CONFIG_SCHEMA_ID;
use super::types::Checks;
use crate::checks::collision::CollisionConfig;
use crate::checks::drift::{DriftConfig, OutputDriftConfig};
use crate::checks::latency::LatencyConfig;

const PLACEHOLDER_SERVER: &str = r#"  # Start the server as a child process and talk to it over stdin/stdout.
  transport: stdio
  command: npx
  args: ["-y", "@modelcontextprotocol/server-filesystem", "."]   # serves this directory
  env: {}                      # extra variables for the server process

  # Or test a server reachable over Streamable HTTP instead:
  # transport: http
  # url: "https://example.com/mcp"
  # headers:
  #   Authorization: "Bearer ${MCP_TOKEN}"   # read from the environment, masked in reports
"#;

/// First line: the yaml-language-server modeline. Placeholders appear only in comments, so
/// loading the template never needs an environment variable. Values that show a default
/// are read from the family's own `Default`.
pub fn init_template() -> String {
    render(PLACEHOLDER_SERVER, None)
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A name `${…}` interpolation reads.
fn valid_var_name(k: &str) -> bool {
    let mut b = k.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The variable a header's value is read from.
fn header_var(name: &str) -> String {
    let up: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("MCP_HEADER_{up}")
}

/// The template for one server. Header and env values are secrets and never written:
/// each becomes a `${VAR}` the user sets (returned, to be printed), keeping an
/// authorization scheme (`Bearer ${…}`).
pub fn init_template_for(
    target: &EndpointTarget,
    headers: &[(String, String)],
    env: &[(String, String)],
    checks: Option<&[String]>,
) -> (String, Vec<String>) {
    let mut vars = Vec::new();
    let mut server = String::new();
    match target {
        EndpointTarget::Stdio { command, args } => {
            server.push_str(
                "  # Started as a child process; mcpward talks to it over stdin/stdout.\n",
            );
            server.push_str("  transport: stdio\n");
            server.push_str(&format!("  command: {}\n", quoted(command)));
            let args: Vec<String> = args.iter().map(|a| quoted(a)).collect();
            server.push_str(&format!("  args: [{}]\n", args.join(", ")));
            if env.is_empty() {
                server.push_str(
                    "  env: {}                      # extra variables for the server process\n",
                );
            } else {
                server.push_str("  env:                         # read from mcpward's environment, masked in reports\n");
                for (k, _) in env {
                    let var = if valid_var_name(k) {
                        k.clone()
                    } else {
                        header_var(k)
                    };
                    server.push_str(&format!(
                        "    {}: {}\n",
                        quoted(k),
                        quoted(&format!("${{{var}}}"))
                    ));
                    vars.push(var);
                }
            }
        }
        EndpointTarget::Http { url } => {
            server.push_str("  # Reached over Streamable HTTP.\n");
            server.push_str("  transport: http\n");
            server.push_str(&format!("  url: {}\n", quoted(url)));
            if !headers.is_empty() {
                server.push_str("  headers:                     # read from mcpward's environment, masked in reports\n");
                for (k, v) in headers {
                    let var = header_var(k);
                    let scheme = v
                        .split_once(char::is_whitespace)
                        .map(|(s, _)| s)
                        .filter(|s| {
                            ["bearer", "basic", "token"].contains(&s.to_ascii_lowercase().as_str())
                        });
                    let value = match scheme {
                        Some(s) => format!("{s} ${{{var}}}"),
                        None => format!("${{{var}}}"),
                    };
                    server.push_str(&format!("    {}: {}\n", quoted(k), quoted(&value)));
                    vars.push(var);
                }
            }
        }
    }
    (render(&server, checks), vars)
}

fn render(server: &str, only: Option<&[String]>) -> String {
    let d = Checks::default();
    let on = |f: &str, default: bool| only.map_or(default, |o| o.iter().any(|x| x == f));
    let drift = DriftConfig::default();
    let output = OutputDriftConfig::default();
    let latency = LatencyConfig::default();
    let collision = CollisionConfig::default();
    let mut checks = String::new();
    checks.push_str(&format!(
        "  # Handshake, ping, server info and capabilities; the surface listed twice must agree.\n  compliance: {}\n",
        on("compliance", d.compliance.enabled)
    ));
    checks.push_str(&format!(
        "  # Tool names and input/output schemas.\n  schema: {}\n",
        on("schema", d.schema)
    ));
    checks.push_str(&format!(
        "  # Tool poisoning in every string a model reads: descriptions, schemas, prompts,\n  # resources and the server's instructions.\n  security: {}\n",
        on("security", d.security)
    ));
    checks.push_str(&format!(
        "  # The error contract: an unknown tool and {{}} arguments must give the right kind of error.\n  # `probe: safe` calls only tools whose annotations say read-only and not destructive;\n  # `probe: all` (the default without this key) calls every tool with required parameters.\n  errors:\n    enabled: {}\n    probe: safe\n",
        on("errors", d.errors.enabled)
    ));
    let drift_body = format!(
        "    baseline: {baseline}   # written by `mcpward baseline`; commit it\n    fail_on: high              # high / medium / low, or a list of drift classes\n    surface: all               # tools, prompts, resources, templates and instructions\n    # Output-shape drift samples tool results (opt-in, calls tools):\n    # output:\n    #   enabled: true\n    #   shape_samples: {shape_samples}\n    #   tools:\n    #     - name: read_file\n    #       args: {{ path: \"README.md\" }}\n",
        baseline = drift.baseline,
        shape_samples = output.shape_samples,
    );
    if on("drift", true) {
        checks.push_str("  # Contract drift against the pinned lockfile.\n  drift:\n");
        checks.push_str(&drift_body);
    } else {
        checks.push_str("  # Contract drift against the pinned lockfile (off):\n  # drift:\n");
        for line in drift_body.lines() {
            checks.push_str(&format!("  #{}\n", line.strip_prefix(' ').unwrap_or(line)));
        }
    }
    checks.push_str(&format!(
        "  # Tools whose descriptions are so alike that a model may pick the wrong one.\n  collision:\n    enabled: {}\n    threshold: {}             # description similarity (0 to 1) reported as a collision\n",
        on("collision", collision.enabled),
        collision.threshold
    ));
    checks.push_str(&format!(
        "  # HTTP servers on a loopback or private address must refuse a foreign Origin (DNS rebinding).\n  http: {}\n",
        on("http", d.http)
    ));
    let latency_body = format!(
        "latency:\n    samples: {}\n    p95_budget_ms: {}\n",
        latency.samples, latency.p95_budget_ms
    );
    if on("latency", false) {
        checks.push_str("  # Latency: calls each read-only tool `samples` times.\n  ");
        checks.push_str(&latency_body);
    } else {
        checks.push_str("  # Latency sampling calls tools repeatedly; turn it on for servers whose tools are safe\n  # to call with empty arguments:\n  # ");
        checks.push_str(&latency_body.replace("\n    ", "\n  #   "));
    }
    format!(
        r#"# yaml-language-server: $schema={schema_id}
#
# mcpward: contract tests for an MCP server, meant to run in CI.
# Project and full reference: https://github.com/TsvetanG2/mcpward
# Only `server` is required; every other key below shows its default or a typical value.

server:
{server}
# Fail when the server negotiates a different protocol version:
# expect:
#   protocol_version: "2025-11-25"

checks:
{checks}
# Behavioral tests: call a tool with fixed arguments and assert on the answer.
suites: []
# suites:
#   - tool: read_file
#     cases:
#       - name: reads a file that exists
#         args: {{ path: "README.md" }}
#         expect:
#           tool_is_error: false
#           output_matches_schema: true
"#,
        schema_id = CONFIG_SCHEMA_ID,
    )
}
