//! The published JSON Schema of `mcpward.yaml` (`schemas/config.v1.schema.json`,
//! config.md §12, reporters.md §11.2), generated here next to the parser's key tables.
//!
//! Design rule: the schema never rejects a config the parser accepts. It describes the input
//! a user writes (defaults are annotations, only keys without a default are required) and
//! allows unknown keys (the parser only warns about them). Enum-valued strings also accept
//! a `${VAR}` placeholder, since interpolation happens before validation. The tests below
//! keep every object's `properties` equal to the parser's key table, and the integration
//! test `tests/schemas.rs` keeps the committed file equal to [`config_schema`].

use serde_json::{json, Value};

use super::types::{Checks, Timeouts};
use crate::checks::collision::CollisionConfig;
use crate::checks::drift::{DriftConfig, OutputDriftConfig, DEFAULT_FAIL_ON};
use crate::checks::errors::{ErrorsConfig, InvalidParamsPolicy, ProbePolicy, UnknownToolPolicy};
use crate::checks::latency::LatencyConfig;
use crate::protocol::versions::EraChoice;
use crate::surface::drift_vocab::{DriftClass, Level as DriftSeverity, SurfaceSet};

pub const CONFIG_SCHEMA_ID: &str =
    "https://raw.githubusercontent.com/mcpward/mcpward-rs/main/schemas/config.v1.schema.json";

/// Largest integer the parser accepts (the IEEE-754 safe range).
const MAX_SAFE: i64 = 9_007_199_254_740_991;

/// `http`/`https` (any case), `:`, any slashes or backslashes (WHATWG skips them for special
/// schemes), optional user-info, a host (no `/ ? # : @ [ ] \` or whitespace) or a bracketed
/// IPv6 literal, an optional port 0–65535 (leading zeros and an empty port allowed), then a
/// path, query or fragment without whitespace. Surrounding whitespace is trimmed by the parser.
pub const URL_PATTERN: &str = concat!(
    r"^\s*[Hh][Tt][Tt][Pp][Ss]?:[/\\]*",
    r"(?:[^/\\?#\s]*@)?",
    r"(?:[^/\\?#:@\[\]\s]+|\[[0-9A-Fa-f:.]+\])",
    r"(?::(?:0*(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?)?",
    r"(?:[/\\?#]\S*)?\s*$"
);

/// A `${VAR}` placeholder that supplies the scheme itself (nothing but an `http(s)` prefix
/// before it), or one that follows a literal `http:`/`https:`. A fixed `ftp://${HOST}` never
/// matches: no value of `HOST` could make it valid.
pub const URL_PLACEHOLDER_PATTERN: &str =
    r"^\s*(?:[Hh][Tt][Tt][Pp][Ss]?:.*|[Hh](?:[Tt](?:[Tt](?:[Pp][Ss]?)?)?)?)?\$\{[^}]+\}";

/// Any string holding a `${VAR}` placeholder (its value is only known at load time).
const PLACEHOLDER_PATTERN: &str = r"\$\{[^}]+\}";

fn positive_int(default: u64, description: &str) -> Value {
    json!({
        "type": "integer",
        "exclusiveMinimum": 0,
        "maximum": MAX_SAFE,
        "default": default,
        "description": description
    })
}

fn boolean(default: bool, description: &str) -> Value {
    json!({"type": "boolean", "default": default, "description": description})
}

/// One of `values`, or a string the environment fills in.
fn enum_or_placeholder(values: Vec<&str>) -> Value {
    json!({
        "anyOf": [
            {"type": "string", "enum": values},
            {"$ref": "#/$defs/placeholder"}
        ]
    })
}

/// A default number as the schema spells it: integral values without a fraction (`1000`,
/// not `1000.0`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() <= MAX_SAFE as f64 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn drift_classes() -> Vec<&'static str> {
    DriftClass::ALL.iter().map(|c| c.as_str()).collect()
}

fn levels() -> Vec<&'static str> {
    DriftSeverity::ALL.iter().map(|l| l.as_str()).collect()
}

fn string_map(description: &str) -> Value {
    json!({
        "type": "object",
        "additionalProperties": {"type": "string"},
        "default": {},
        "description": description
    })
}

/// The schema of `server` shared keys.
fn protocol_era() -> Value {
    let mut v = enum_or_placeholder(EraChoice::ALL.iter().map(|e| e.as_str()).collect());
    v["default"] = json!(EraChoice::default().as_str());
    v["description"] = json!(
        "Protocol era: auto (discover first, fall back to the initialize handshake), modern (2026-07-28 stateless) or legacy (initialize handshake)."
    );
    v
}

/// `[A-Za-z0-9_.-]+`, not `.` or `..` (`fleet::valid_name`).
const FLEET_NAME_PATTERN: &str = r"^(?:[A-Za-z0-9_.-]*[A-Za-z0-9_-][A-Za-z0-9_.-]*|\.{3,})$";

/// A member's override of a top-level mapping: described by the top-level schema, but any
/// mapping (or null) is accepted, since a `null` anywhere inside removes that key.
fn member_override(reference: &str, description: &str) -> Value {
    json!({
        "description": description,
        "anyOf": [{"$ref": reference}, {"type": ["object", "null"]}]
    })
}

/// `checks.toxic_flow` (#15).
fn toxic_flow(default: crate::checks::security::ToxicFlow) -> Value {
    let mut v = enum_or_placeholder(crate::checks::security::ToxicFlow::NAMES.to_vec());
    v["default"] = json!(default.as_str());
    v["description"] = json!(
        "Fleet runs: what security/toxic-flow reports (one server reads untrusted content, another sends outward): off, info (a pass at info), warn or fail."
    );
    v
}

/// The whole schema, in the order it is published.
pub fn config_schema() -> Value {
    let checks = Checks::default();
    let errors = ErrorsConfig::default();
    let collision = CollisionConfig::default();
    let drift = DriftConfig::default();
    let output = OutputDriftConfig::default();
    let latency = LatencyConfig::default();
    let timeouts = Timeouts::default();
    let limits = crate::observed::Limits::default();
    let unknown_tool: Vec<&str> = UnknownToolPolicy::ALL.iter().map(|p| p.as_str()).collect();
    let probe: Vec<&str> = ProbePolicy::ALL.iter().map(|p| p.as_str()).collect();
    let invalid_params: Vec<&str> = InvalidParamsPolicy::ALL
        .iter()
        .map(|p| p.as_str())
        .collect();
    let fail_on: Vec<&str> = DEFAULT_FAIL_ON.iter().map(|c| c.as_str()).collect();
    let severity_properties: serde_json::Map<String, Value> = drift_classes()
        .into_iter()
        .map(|c| (c.to_string(), enum_or_placeholder(levels())))
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": CONFIG_SCHEMA_ID,
        "title": "mcpward configuration (mcpward.yaml)",
        "description": "Contract tests for an MCP server, or a fleet of them. Either `server` (one server) or `servers` and/or `servers_from` (a fleet) is required, never both. Unknown keys are allowed (mcpward warns about them). `${VAR}` placeholders in string values are read from the environment.",
        "type": "object",
        "oneOf": [
            {
                "required": ["server"],
                "not": {"anyOf": [{"required": ["servers"]}, {"required": ["servers_from"]}]}
            },
            {
                "not": {"required": ["server"]},
                "anyOf": [{"required": ["servers"]}, {"required": ["servers_from"]}]
            }
        ],
        "properties": {
            "server": {
                "description": "The server under test, selected by `transport`.",
                "oneOf": [
                    {"$ref": "#/$defs/stdioServer"},
                    {"$ref": "#/$defs/httpServer"}
                ]
            },
            "servers": {
                "type": "object",
                "description": "A fleet: server name → a server block like `server`, plus optional overrides merged over the top-level keys.",
                "propertyNames": {"pattern": FLEET_NAME_PATTERN},
                "additionalProperties": {"$ref": "#/$defs/member"}
            },
            "servers_from": {
                "description": "MCP client config files whose servers join the fleet (Claude Desktop, VS Code, Cursor, any `mcpServers` file), relative to this file's directory.",
                "anyOf": [
                    {"type": "string", "minLength": 1},
                    {"type": "array", "items": {"type": "string", "minLength": 1}}
                ]
            },
            "expect": {
                "type": "object",
                "description": "Expectations about the server.",
                "properties": {
                    "protocol_version": {
                        "type": "string",
                        "description": "Fail when the negotiated protocol version differs (exact string; empty means not set)."
                    }
                }
            },
            "checks": {
                "type": "object",
                "description": "Which check families run and how.",
                "properties": {
                    "compliance": {
                        "description": "Handshake, ping, server info, capabilities, what is declared is what is served, surface stability: a boolean, or an object.",
                        "default": checks.compliance.enabled,
                        "anyOf": [
                            {"type": "boolean"},
                            {
                                "type": "object",
                                "properties": {
                                    "enabled": boolean(checks.compliance.enabled, "Run the compliance family."),
                                    "stability": boolean(checks.compliance.stability, "compliance/surface-stable: list the surface again in the same session and on a second connection (a second server start for stdio).")
                                }
                            }
                        ]
                    },
                    "schema": boolean(checks.schema, "Tool names and input/output schemas."),
                    "security": boolean(checks.security, "Tool-poisoning patterns in descriptions."),
                    "auth": boolean(checks.auth, "The server's OAuth posture (auth/*), when server.auth is set."),
                    "errors": {
                        "description": "Error contract (calls an unknown tool and tools with `{}` arguments): a boolean, or an object.",
                        "default": errors.enabled,
                        "anyOf": [
                            {"type": "boolean"},
                            {
                                "type": "object",
                                "properties": {
                                    "enabled": boolean(errors.enabled, "Run the error-contract family."),
                                    "unknown_tool": {
                                        "description": "Which layer may report an unknown tool: only a JSON-RPC error (protocol_error) or also an isError tool result (either).",
                                        "default": errors.unknown_tool.as_str(),
                                        "anyOf": enum_or_placeholder(unknown_tool)["anyOf"].clone()
                                    },
                                    "invalid_params": {
                                        "description": "A call that succeeds without its required arguments: a warning (warn) or a failure (strict).",
                                        "default": errors.invalid_params.as_str(),
                                        "anyOf": enum_or_placeholder(invalid_params)["anyOf"].clone()
                                    },
                                    "probe": {
                                        "description": "Which tools the invalid-params probe calls with {}: every tool with required parameters (all, the default) or only tools annotated readOnlyHint: true and not destructiveHint (safe); the others are reported as skip.",
                                        "default": errors.probe.as_str(),
                                        "anyOf": enum_or_placeholder(probe)["anyOf"].clone()
                                    },
                                    "skip": {
                                        "type": "array",
                                        "default": [],
                                        "description": "Tool names or globs (* and ?) the invalid-params probe never calls; each is reported as skip.",
                                        "items": {"type": "string"}
                                    }
                                }
                            }
                        ]
                    },
                    "drift": {"$ref": "#/$defs/drift"},
                    "latency": {"$ref": "#/$defs/latency"},
                    "collision": {
                        "type": "object",
                        "description": "Description-collision lint (runs unless enabled is false).",
                        "properties": {
                            "enabled": boolean(collision.enabled, "Run the collision lint."),
                            "threshold": {
                                "type": "number",
                                "minimum": 0,
                                "maximum": 1,
                                "default": number(collision.threshold),
                                "description": "Description similarity (0 to 1) reported as a collision."
                            },
                            "max_tools": positive_int(collision.max_tools, "Skip the lint above this many tools."),
                            "fail": boolean(collision.fail, "Report collisions as failures instead of warnings.")
                        }
                    },
                    "toxic_flow": toxic_flow(checks.toxic_flow),
                    "http": boolean(checks.http, "HTTP transport posture (HTTP servers only): http/origin-validation probes whether a server on a loopback or private address refuses a foreign Origin (DNS rebinding).")
                }
            },
            "timeouts": {
                "type": "object",
                "description": "Timeouts in milliseconds.",
                "properties": {
                    "connect_ms": positive_int(timeouts.connect_ms, "Connect and handshake."),
                    "call_ms": positive_int(timeouts.call_ms, "Each request."),
                    "run_ms": positive_int(timeouts.run_ms, "The whole run.")
                }
            },
            "limits": {
                "type": "object",
                "description": "What a server may make mcpward hold or wait for; every limit reached is reported by compliance/limits.",
                "properties": {
                    "message_bytes": positive_int(limits.message_bytes as u64, "Largest server message kept (a stdio line, an HTTP body, an SSE event); a larger one is discarded and the request it answered fails."),
                    "tools": positive_int(limits.tools as u64, "Tools kept from a listing (all pages); the rest is cut."),
                    "progress_resets": positive_int(u64::from(limits.progress_resets), "How often progress notifications may restart one request's timer (call_ms × (1 + this) is the longest wait).")
                }
            },
            "suites": {
                "type": "array",
                "default": [],
                "description": "Behavioral tests: call a tool with fixed arguments and assert on the answer.",
                "items": {"$ref": "#/$defs/suite"}
            },
            "suppress": {
                "type": "array",
                "default": [],
                "description": "Accepted findings: each entry turns the failing or warning results it matches into `suppressed` ones (reported, never failing the run). Entries of `mcpward.suppress.yaml` next to the config are added after these.",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["rule", "location", "reason"],
                    "properties": {
                        "rule": {"type": "string", "minLength": 1, "description": "Rule id of the finding (docs/rules.md)."},
                        "location": {"type": "string", "minLength": 1, "description": "The finding's location, exact or a glob: `*` any run of characters (`/` and `.` included), `?` one character; a finding without a location is matched by `*`."},
                        "reason": {"type": "string", "minLength": 1, "pattern": "\\S", "description": "Why the finding is accepted (shown in every report)."},
                        "expires": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "YYYY-MM-DD: the last day (UTC) the entry suppresses; after it the entry gives config/suppression-expired."},
                        "server": {"type": "string", "description": "Fleet configs: the member the entry applies to (default: every server)."}
                    }
                }
            }
        },
        "$defs": {
            "member": {
                "description": "One server of the fleet: a server block selected by `transport`, plus overrides of the top-level keys (mappings merge key by key, other values replace, null removes a key).",
                "oneOf": [
                    {"$ref": "#/$defs/stdioServer"},
                    {"$ref": "#/$defs/httpServer"}
                ],
                "properties": {
                    "checks": member_override("#/properties/checks", "Merged over the top-level `checks`."),
                    "timeouts": member_override("#/properties/timeouts", "Merged over the top-level `timeouts`."),
                    "limits": member_override("#/properties/limits", "Merged over the top-level `limits`."),
                    "expect": member_override("#/properties/expect", "Merged over the top-level `expect`."),
                    "suites": {
                        "description": "Replaces the top-level `suites` for this server.",
                        "anyOf": [{"$ref": "#/properties/suites"}, {"type": "null"}]
                    }
                }
            },
            "placeholder": {
                "type": "string",
                "pattern": PLACEHOLDER_PATTERN,
                "description": "A value read from the environment at load time."
            },
            "stdioServer": {
                "type": "object",
                "required": ["transport", "command"],
                "properties": {
                    "transport": {"const": "stdio", "description": "Start the server as a child process and talk over stdin/stdout."},
                    "protocol_era": protocol_era(),
                    "command": {"type": "string", "description": "Executable (no shell is involved)."},
                    "args": {
                        "type": "array",
                        "items": {"type": "string"},
                        "default": [],
                        "description": "Arguments, passed verbatim (quote numbers and booleans)."
                    },
                    "env": string_map("Extra environment variables for the server process.")
                }
            },
            "httpServer": {
                "type": "object",
                "required": ["transport", "url"],
                "properties": {
                    "transport": {"const": "http", "description": "A server reachable over Streamable HTTP."},
                    "protocol_era": protocol_era(),
                    "url": {
                        "type": "string",
                        "description": "Absolute http(s) URL, or one built from `${VAR}` placeholders.",
                        "anyOf": [
                            {"pattern": URL_PATTERN},
                            {"pattern": URL_PLACEHOLDER_PATTERN}
                        ]
                    },
                    "headers": string_map("Sent on every HTTP request (MCP protocol headers cannot be set)."),
                    "auth": {"$ref": "#/$defs/auth"}
                }
            },
            "auth": {
                "description": "OAuth for the server (#17): a grant mcpward makes at the token endpoint (discovered from the server's 401 and metadata, or `token_endpoint`), or a static bearer token. Every value is a secret, usually `${VAR}`; it is never printed and never sent to a stdio server.",
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["type", "client_id"],
                        "additionalProperties": false,
                        "properties": {
                            "type": {"const": "client_credentials", "description": "The client-credentials grant (machine clients)."},
                            "client_id": {"type": "string"},
                            "client_secret": {"type": "string", "description": "Required with client_secret_basic / client_secret_post."},
                            "scope": {"type": "string", "description": "Space-separated; default: the 401's scope, else the metadata's scopes_supported."},
                            "auth_method": {"enum": ["client_secret_basic", "client_secret_post", "private_key_jwt"], "description": "Default: private_key_jwt when private_key is set, else client_secret_basic."},
                            "private_key": {"type": "string", "description": "PEM text of an RSA (RS256) or P-256 EC (ES256) private key, for private_key_jwt."},
                            "token_endpoint": {"type": "string", "description": "Used when discovery fails or yields none; HTTPS except on loopback."}
                        }
                    },
                    {
                        "type": "object",
                        "required": ["type", "client_id", "refresh_token"],
                        "additionalProperties": false,
                        "properties": {
                            "type": {"const": "refresh_token", "description": "A stored refresh token, exchanged at start."},
                            "client_id": {"type": "string"},
                            "client_secret": {"type": "string", "description": "For a confidential client."},
                            "refresh_token": {"type": "string"},
                            "scope": {"type": "string"},
                            "auth_method": {"enum": ["client_secret_basic", "client_secret_post"]},
                            "token_endpoint": {"type": "string"}
                        }
                    },
                    {
                        "type": "object",
                        "required": ["type", "token"],
                        "additionalProperties": false,
                        "properties": {
                            "type": {"const": "bearer", "description": "The same as an Authorization: Bearer header."},
                            "token": {"type": "string"}
                        }
                    }
                ]
            },
            "toolArgs": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "description": "Tool name."},
                    "args": {"type": "object", "default": {}, "description": "Arguments for the call."}
                }
            },
            "drift": {
                "type": "object",
                "description": "Contract drift against the baseline lockfile (present: drift runs in `run`).",
                "properties": {
                    "baseline": {
                        "type": "string",
                        "default": drift.baseline,
                        "description": "Lockfile path, relative to the working directory. In a fleet, `{server}` is replaced by each server's name, and the default is ./mcpward.lock.{server}.json."
                    },
                    "fail_on": {
                        "description": "A level (every change at or above it fails) or a list of drift classes that fail.",
                        "default": fail_on,
                        "anyOf": [
                            {"type": "string", "enum": levels()},
                            {"$ref": "#/$defs/placeholder"},
                            {"type": "array", "items": enum_or_placeholder(drift_classes())}
                        ]
                    },
                    "severity": {
                        "type": "object",
                        "default": {},
                        "description": "Severity overrides per drift class.",
                        "propertyNames": {"enum": drift_classes()},
                        "properties": severity_properties
                    },
                    "full_text": boolean(drift.full_text, "Store description text in the lockfile (for before/after diffs)."),
                    "max_age_days": {
                        "type": "integer",
                        "minimum": 0,
                        "default": drift.max_age_days,
                        "description": "drift/baseline-stale (warn) when the baseline was captured more days ago than this; 0: never."
                    },
                    "surface": {
                        "description": "What `baseline` pins and `diff` compares: tools (always), and prompts, resources, resource templates, the server's instructions, or all of them.",
                        "default": drift.surface.names(),
                        "anyOf": [
                            {"type": "string", "enum": SurfaceSet::NAMES},
                            {"type": "array", "items": {"type": "string", "enum": SurfaceSet::NAMES}}
                        ]
                    },
                    "output": {
                        "type": "object",
                        "description": "Output-shape drift: samples tool results (opt-in, calls tools).",
                        "properties": {
                            "enabled": boolean(output.enabled, "Sample output shapes."),
                            "shape_samples": positive_int(output.shape_samples.into(), "Calls per tool merged into one shape."),
                            "call_readonly": boolean(output.call_readonly, "Call tools annotated readOnlyHint with `{}`."),
                            "tools": {
                                "type": "array",
                                "default": [],
                                "description": "Tools to call with explicit arguments.",
                                "items": {"$ref": "#/$defs/toolArgs"}
                            }
                        }
                    }
                }
            },
            "latency": {
                "type": "object",
                "description": "Latency budget (present: latency runs).",
                "properties": {
                    "samples": positive_int(latency.samples.into(), "Calls per tool."),
                    "p95_budget_ms": {
                        "type": "number",
                        "exclusiveMinimum": 0,
                        "default": number(latency.p95_budget_ms),
                        "description": "95th-percentile budget in milliseconds."
                    },
                    "call_readonly": boolean(latency.call_readonly, "Measure tools annotated readOnlyHint."),
                    "tools": {
                        "type": "array",
                        "default": [],
                        "description": "Tools to measure with explicit arguments.",
                        "items": {"$ref": "#/$defs/toolArgs"}
                    },
                    "call_all": boolean(latency.call_all, "Measure every tool."),
                    "regression": {
                        "type": "object",
                        "description": "Compare with the baseline lockfile's latency (written by `mcpward baseline` with latency on): latency/regression fails when a tool's p95 grows by more than `ratio` and by more than `min_ms`.",
                        "properties": {
                            "ratio": {
                                "type": "number",
                                "minimum": 1,
                                "default": number(latency.regression.ratio),
                                "description": "How many times the baseline's p95 a tool may reach."
                            },
                            "min_ms": {
                                "type": "number",
                                "minimum": 0,
                                "default": number(latency.regression.min_ms),
                                "description": "How many milliseconds above the baseline's p95 a tool may reach."
                            },
                            "warmup": {
                                "type": "integer",
                                "minimum": 0,
                                "default": latency.regression.warmup,
                                "description": "Calls per tool made and discarded before sampling (baseline, and run/diff when comparing)."
                            }
                        }
                    }
                }
            },
            "suite": {
                "type": "object",
                "required": ["tool", "cases"],
                "properties": {
                    "tool": {"type": "string", "description": "Tool to call."},
                    "cases": {
                        "type": "array",
                        "items": {"$ref": "#/$defs/case"}
                    }
                }
            },
            "case": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "args": {"type": "object", "default": {}},
                    "expect": {
                        "type": "object",
                        "properties": {
                            "tool_is_error": {"type": "boolean", "description": "Expect an isError tool result (true) or a successful one (false)."},
                            "protocol_error_code": {
                                "type": "integer",
                                "minimum": -MAX_SAFE,
                                "maximum": MAX_SAFE,
                                "description": "Expect a JSON-RPC error with this code."
                            },
                            "output_matches_schema": {"type": "boolean", "description": "structuredContent must validate against the tool's outputSchema."},
                            "jsonpath": {"type": "object", "description": "JSONPath → expected value."},
                            "golden": {"type": "string", "description": "Golden file, relative to the config file's directory."}
                        }
                    }
                }
            }
        }
    })
}

/// The committed file's text: pretty JSON plus a final newline.
pub fn config_schema_text() -> String {
    let mut s = serde_json::to_string_pretty(&config_schema()).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::super::validate;
    use super::*;
    use std::collections::BTreeSet;

    fn props(v: &Value) -> BTreeSet<String> {
        v["properties"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn set(keys: &[&str]) -> BTreeSet<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    /// Every object the parser knows has exactly the parser's keys in the schema.
    #[test]
    fn properties_follow_the_parser_key_tables() {
        let s = config_schema();
        let d = &s["$defs"];
        let checks = &s["properties"]["checks"];
        let pairs: Vec<(&str, &Value, &[&str])> = vec![
            ("root", &s, validate::ROOT_KEYS),
            ("member", &d["member"], super::super::fleet::OVERRIDE_KEYS),
            ("stdio", &d["stdioServer"], validate::STDIO_KEYS),
            ("http", &d["httpServer"], validate::HTTP_KEYS),
            ("expect", &s["properties"]["expect"], validate::EXPECT_KEYS),
            ("checks", checks, validate::CHECKS_KEYS),
            (
                "errors",
                &checks["properties"]["errors"]["anyOf"][1],
                validate::ERRORS_KEYS,
            ),
            ("drift", &d["drift"], validate::DRIFT_KEYS),
            (
                "output",
                &d["drift"]["properties"]["output"],
                validate::OUTPUT_KEYS,
            ),
            ("toolArgs", &d["toolArgs"], validate::TOOL_KEYS),
            ("latency", &d["latency"], validate::LATENCY_KEYS),
            (
                "regression",
                &d["latency"]["properties"]["regression"],
                validate::REGRESSION_KEYS,
            ),
            (
                "collision",
                &checks["properties"]["collision"],
                validate::COLLISION_KEYS,
            ),
            (
                "timeouts",
                &s["properties"]["timeouts"],
                validate::TIMEOUT_KEYS,
            ),
            ("limits", &s["properties"]["limits"], validate::LIMIT_KEYS),
            ("suite", &d["suite"], validate::SUITE_KEYS),
            ("case", &d["case"], validate::CASE_KEYS),
            (
                "case.expect",
                &d["case"]["properties"]["expect"],
                validate::CASE_EXPECT_KEYS,
            ),
        ];
        for (name, schema, keys) in pairs {
            assert_eq!(props(schema), set(keys), "{name}");
        }
        let severity = &d["drift"]["properties"]["severity"];
        assert_eq!(
            props(severity),
            DriftClass::ALL
                .iter()
                .map(|c| c.as_str().to_string())
                .collect()
        );
    }

    #[test]
    fn defaults_match_the_parser() {
        let s = config_schema();
        let c = Checks::default();
        let t = Timeouts::default();
        let checks = &s["properties"]["checks"]["properties"];
        assert_eq!(checks["compliance"]["default"], json!(c.compliance.enabled));
        assert_eq!(checks["errors"]["default"], json!(c.errors.enabled));
        let col = &checks["collision"]["properties"];
        assert_eq!(col["threshold"]["default"], json!(c.collision.threshold));
        assert_eq!(col["max_tools"]["default"], json!(c.collision.max_tools));
        assert_eq!(col["fail"]["default"], json!(c.collision.fail));
        let to = &s["properties"]["timeouts"]["properties"];
        assert_eq!(to["connect_ms"]["default"], json!(t.connect_ms));
        assert_eq!(to["call_ms"]["default"], json!(t.call_ms));
        assert_eq!(to["run_ms"]["default"], json!(t.run_ms));
        let lim = crate::observed::Limits::default();
        let li = &s["properties"]["limits"]["properties"];
        assert_eq!(li["message_bytes"]["default"], json!(lim.message_bytes));
        assert_eq!(li["tools"]["default"], json!(lim.tools));
        assert_eq!(li["progress_resets"]["default"], json!(lim.progress_resets));
        let drift = &s["$defs"]["drift"]["properties"];
        let fail_on: Vec<Value> = crate::checks::drift::DEFAULT_FAIL_ON
            .iter()
            .map(|c| json!(c.as_str()))
            .collect();
        assert_eq!(drift["fail_on"]["default"], Value::Array(fail_on));
        let out = OutputDriftConfig::default();
        let o = &drift["output"]["properties"];
        assert_eq!(o["shape_samples"]["default"], json!(out.shape_samples));
        assert_eq!(o["enabled"]["default"], json!(out.enabled));
        let lat = LatencyConfig::default();
        let l = &s["$defs"]["latency"]["properties"];
        assert_eq!(l["samples"]["default"], json!(lat.samples));
        assert_eq!(
            l["p95_budget_ms"]["default"].as_f64(),
            Some(lat.p95_budget_ms)
        );
    }
}
