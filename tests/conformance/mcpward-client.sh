#!/usr/bin/env bash
# Client wrapper for the official MCP conformance suite, which runs `<this script> <url>`
# with MCP_CONFORMANCE_SCENARIO set. Writes a config for that URL (plus what the scenario
# needs the client to do) and runs `mcpward run` as the client under test.
#
# MCPWARD_BIN: the mcpward binary (required).
# MCPWARD_CONFORMANCE_EXTRA: extra YAML appended to the config; replaces the scenario's
#   own extra YAML below when set.
# MCPWARD_CONFORMANCE_REPORT: where to copy mcpward's JSON report (default: stderr only).
#
# Exit code: 0 when mcpward produced a report (exit 0 or 1: a failing check is about the
# scenario's server, not about mcpward as a client); mcpward's own code otherwise (2: it
# could not connect or finish, 130: interrupted), which the suite reports as a failure.
set -euo pipefail
url="${*: -1}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

# What each scenario expects the client to do beyond the handshake. The error-contract
# family is off where it would call the scenario's tool itself: the suite must see exactly
# the call it checks, made by our behavioral suite.
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  tools_call)
    scenario_yaml='checks:
  errors: false
suites:
  - tool: add_numbers
    cases:
      - name: adds two numbers
        args: { a: 2, b: 3 }
        expect:
          tool_is_error: false
          jsonpath:
            "$.content[0].text": "The sum of 2 and 3 is 5"'
    ;;
  sse-retry)
    # The tool's SSE stream is closed after a priming event (retry: 500); the answer only
    # arrives on the GET stream we resume with Last-Event-ID.
    scenario_yaml='checks:
  errors: false
suites:
  - tool: test_reconnection
    cases:
      - name: answer arrives after SSE resumption
        args: {}
        expect:
          tool_is_error: false
          jsonpath:
            "$.content[0].text": "Reconnection test completed successfully"'
    ;;
  auth/client-credentials-basic | auth/pre-registration | auth/client-credentials-jwt)
    # The suite hands the client its credentials in MCP_CONFORMANCE_CONTEXT (JSON). They go
    # to mcpward through variables, the way a CI secret would. The auth family is off: its
    # wrong-token probe is exactly what the suite's token verifier records as a failure.
    ctx() { python3 -c 'import json,os,sys; print(json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}").get(sys.argv[1], ""))' "$1"; }
    export MCPWARD_CONF_CLIENT_ID MCPWARD_CONF_CLIENT_SECRET MCPWARD_CONF_PRIVATE_KEY
    MCPWARD_CONF_CLIENT_ID="$(ctx client_id)"
    MCPWARD_CONF_CLIENT_SECRET="$(ctx client_secret)"
    MCPWARD_CONF_PRIVATE_KEY="$(ctx private_key_pem)"
    if [ "$MCP_CONFORMANCE_SCENARIO" = auth/client-credentials-jwt ]; then
      credential='    private_key: ${MCPWARD_CONF_PRIVATE_KEY}'
    else
      credential='    client_secret: ${MCPWARD_CONF_CLIENT_SECRET}'
    fi
    auth_yaml="  auth:
    type: client_credentials
    client_id: \${MCPWARD_CONF_CLIENT_ID}
$credential"
    scenario_yaml='checks:
  auth: false
  errors: false'
    ;;
  *) scenario_yaml='' ;;
esac

{
  printf 'server:\n  transport: http\n  url: "%s"\n  protocol_era: legacy\n' "$url"
  if [ -n "${auth_yaml:-}" ]; then printf '%s\n' "$auth_yaml"; fi
  printf 'timeouts:\n  connect_ms: 10000\n  call_ms: 10000\n  run_ms: 25000\n'
  printf '%s\n' "${MCPWARD_CONFORMANCE_EXTRA-$scenario_yaml}"
} > "$dir/mcpward.yaml"

code=0
"${MCPWARD_BIN:?set MCPWARD_BIN}" run --config "$dir/mcpward.yaml" --json > "$dir/report.json" || code=$?
cat "$dir/report.json" >&2
if [ -n "${MCPWARD_CONFORMANCE_REPORT:-}" ]; then cp "$dir/report.json" "$MCPWARD_CONFORMANCE_REPORT"; fi
case "$code" in
  0 | 1) exit 0 ;;
  *) exit "$code" ;;
esac
