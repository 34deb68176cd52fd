#!/usr/bin/env bash
# Runs fuzz targets one after another (docs/fuzzing.md), each from its committed seeds
# (fuzz/seeds/<target>, read-only) into its grown corpus (fuzz/corpus/<target>, ignored).
#   fuzz/run.sh SECONDS [TARGET...]     (no target: all of them)
# Stops with a non-zero status at the first target that finds a crash, a timeout, an OOM
# or a breach of the per-input CPU bound; the reproducer is then in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
# No sanitizer: the crate is safe Rust, and what is sought (panics, failed properties,
# hangs, memory, time) needs only coverage instrumentation; such runs are several times faster.
# The default build: optimised, with debug assertions and overflow checks.
# MCPWARD_FUZZ_BUILD_FLAGS adds build flags (CI: `--codegen-units 16`, a faster build for
# short runs).
flags=(--sanitizer none)
read -r -a extra <<<"${MCPWARD_FUZZ_BUILD_FLAGS:-}"
flags+=("${extra[@]}")
nice -n 19 cargo +nightly fuzz build "${flags[@]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  start=$(date +%s)
  status=0
  nice -n 19 cargo +nightly fuzz run "${flags[@]}" "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -max_len=16384 \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  echo "fuzz: $t: ${execs:-?} execs in $(( $(date +%s) - start ))s, peak RSS ${rss:-?} MB, corpus $(ls "corpus/$t" | wc -l) files"
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz: $t FAILED (reproducer under fuzz/artifacts/$t/)" >&2
    exit 1
  fi
done
