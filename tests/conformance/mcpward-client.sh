#!/usr/bin/env bash
# Client wrapper for the official MCP conformance suite: it runs `<this script> <url>`.
# Writes a config for that URL and runs `mcpward run` as the client under test.
# MCPWARD_BIN: the mcpward binary; MCPWARD_CONFORMANCE_EXTRA: extra YAML (e.g. suites).
set -euo pipefail
url="${*: -1}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
{
  printf 'server:\n  transport: http\n  url: "%s"\n  protocol_era: legacy\n' "$url"
  printf 'timeouts:\n  connect_ms: 10000\n  call_ms: 10000\n  run_ms: 25000\n'
  if [ -n "${MCPWARD_CONFORMANCE_EXTRA:-}" ]; then printf '%s\n' "$MCPWARD_CONFORMANCE_EXTRA"; fi
} > "$dir/mcpward.yaml"
"${MCPWARD_BIN:?set MCPWARD_BIN}" run --config "$dir/mcpward.yaml" --json > "$dir/report.json" || true
cat "$dir/report.json" >&2
