#!/usr/bin/env bash
# The run step of the mcpward GitHub Action (action.yml): install mcpward, run it, write the
# step outputs, fail the step on any non-zero exit.
#
# Security: every input arrives ONLY through an environment variable (IN_*); none is ever
# expanded into code. Arguments are built as an array and passed as `--flag=value`, so a
# value is always exactly one argument and can never be read as another flag. Annotations
# (::error::) carry fixed text only: an input echoed there could inject workflow commands.
#
# Environment:
#   IN_CONFIG, IN_REPORTER, IN_OUTPUT, IN_VERSION, IN_LOCAL, IN_PR_COMMENT   the inputs
#   MCPWARD_GITHUB_TOKEN   set by action.yml only when pr-comment is true (unset here otherwise)
#   MCPWARD_PR_NUMBER      github.event.pull_request.number (empty outside pull requests)
#   MCPWARD_ACTION_SKIP_INSTALL=1   use the `mcpward` already on PATH (tests, pre-installed)
set -uo pipefail

IN_CONFIG="${IN_CONFIG:-mcpward.yaml}"
IN_REPORTER="${IN_REPORTER:-console}"
IN_OUTPUT="${IN_OUTPUT:-}"
IN_VERSION="${IN_VERSION:-latest}"
IN_LOCAL="${IN_LOCAL:-false}"
IN_PR_COMMENT="${IN_PR_COMMENT:-false}"

REPO_URL="https://github.com/mcpward/mcpward-rs"
# The crate this action belongs to (the repository root above action/).
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTPUT_FILE="${GITHUB_OUTPUT:-/dev/null}"
# The binary's file name ends in .exe on Windows (release archive and cargo install alike).
EXE=""
case "${RUNNER_OS:-$(uname -s)}" in
  Windows | MINGW* | MSYS* | CYGWIN*) EXE=.exe ;;
esac

error() {
  printf '::error::%s\n' "$1"
}

set_output() {
  printf '%s=%s\n' "$1" "$2" >>"$OUTPUT_FILE"
}

# Exit before running mcpward: still report an exit code.
abort() {
  error "$1"
  set_output exit-code "${2:-2}"
  exit "${2:-2}"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

# Rust target triple of the release binary for this runner; empty when none is published.
release_target() {
  local os="${RUNNER_OS:-$(uname -s)}" arch="${RUNNER_ARCH:-$(uname -m)}"
  case "$os/$arch" in
    Linux/X64 | Linux/x86_64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64 | Linux/aarch64 | Linux/arm64) echo aarch64-unknown-linux-musl ;;
    macOS/X64 | Darwin/x86_64) echo x86_64-apple-darwin ;;
    macOS/ARM64 | Darwin/arm64) echo aarch64-apple-darwin ;;
    Windows/X64 | MINGW*/x86_64 | MSYS*/x86_64) echo x86_64-pc-windows-msvc ;;
    *) echo "" ;;
  esac
}

# Downloads and verifies the release archive for $1 (target) into $2 (install root).
download_release() {
  local target="$1" root="$2" base asset ext tmp expected actual
  if [[ "$IN_VERSION" == latest ]]; then
    base="$REPO_URL/releases/latest/download"
  else
    base="$REPO_URL/releases/download/v${IN_VERSION#v}"
  fi
  ext=tar.gz
  [[ "$target" == *windows* ]] && ext=zip
  asset="mcpward-$target.$ext"
  tmp="$(mktemp -d)" || return 1
  curl -fsSL --retry 3 --proto '=https' --tlsv1.2 -o "$tmp/$asset" "$base/$asset" || return 1
  curl -fsSL --retry 3 --proto '=https' --tlsv1.2 -o "$tmp/$asset.sha256" "$base/$asset.sha256" || return 1
  expected="$(cut -d ' ' -f 1 <"$tmp/$asset.sha256")"
  actual="$(sha256_of "$tmp/$asset")"
  if [[ -z "$expected" || "$expected" != "$actual" ]]; then
    error "checksum mismatch for the downloaded mcpward release archive"
    return 3
  fi
  mkdir -p "$root/bin" || return 1
  if [[ "$ext" == zip ]]; then
    (cd "$tmp" && unzip -q "$asset") || return 1
    cp "$tmp/mcpward-$target/mcpward.exe" "$root/bin/mcpward.exe" || return 1
  else
    tar -xzf "$tmp/$asset" -C "$tmp" || return 1
    cp "$tmp/mcpward-$target/mcpward" "$root/bin/mcpward" || return 1
    chmod +x "$root/bin/mcpward"
  fi
  rm -rf "$tmp"
}

# Sets MCPWARD_BIN.
install_mcpward() {
  if [[ "${MCPWARD_ACTION_SKIP_INSTALL:-}" == 1 ]]; then
    MCPWARD_BIN="$(command -v mcpward)" || abort "mcpward is not on PATH (MCPWARD_ACTION_SKIP_INSTALL=1)" 127
    return
  fi
  local root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcpward-action"
  if [[ "$IN_LOCAL" == true ]]; then
    echo "::group::Building mcpward from $SOURCE_DIR"
    cargo install --locked --quiet --path "$SOURCE_DIR" --root "$root/local" --bin mcpward ||
      abort "building mcpward from the repository failed"
    echo "::endgroup::"
    MCPWARD_BIN="$root/local/bin/mcpward$EXE"
    return
  fi
  # The version becomes part of a URL and a git ref: accept only version syntax.
  if [[ ! "$IN_VERSION" =~ ^(latest|v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)$ ]]; then
    abort "the version input must be \"latest\" or a release version such as 1.2.3"
  fi
  root="$root/$IN_VERSION"
  local target status
  target="$(release_target)"
  if [[ -n "$target" ]]; then
    if [[ -x "$root/bin/mcpward$EXE" ]]; then
      MCPWARD_BIN="$root/bin/mcpward$EXE"
      return
    fi
    download_release "$target" "$root"
    status=$?
    if [[ $status -eq 0 ]]; then
      MCPWARD_BIN="$root/bin/mcpward$EXE"
      return
    fi
    # A bad checksum is never papered over by building from source.
    [[ $status -eq 3 ]] && abort "refusing to run an mcpward binary whose checksum does not match"
    echo "::warning::no mcpward release binary could be downloaded for $target; building from source"
  fi
  command -v cargo >/dev/null 2>&1 ||
    abort "no mcpward release binary fits this runner and cargo is not installed"
  local ref=()
  [[ "$IN_VERSION" != latest ]] && ref=(--tag "v${IN_VERSION#v}")
  echo "::group::Building mcpward with cargo install"
  cargo install --locked --quiet --git "$REPO_URL" ${ref[@]+"${ref[@]}"} --root "$root" --bin mcpward mcpward ||
    abort "cargo install of mcpward failed"
  echo "::endgroup::"
  MCPWARD_BIN="$root/bin/mcpward$EXE"
}

# A newline would add lines to $GITHUB_OUTPUT (forged outputs).
if [[ "$IN_OUTPUT" == *$'\n'* || "$IN_OUTPUT" == *$'\r'* ]]; then
  abort "the output input must not contain a line break"
fi

args=(run "--config=$IN_CONFIG")
[[ "$IN_REPORTER" != console ]] && args+=("--reporter=$IN_REPORTER")
if [[ "$IN_PR_COMMENT" == true ]]; then
  args+=(--pr-comment)
else
  unset MCPWARD_GITHUB_TOKEN
fi
[[ -n "$IN_OUTPUT" ]] && args+=("--out=$IN_OUTPUT")

install_mcpward

"$MCPWARD_BIN" "${args[@]}"
status=$?

set_output exit-code "$status"
[[ -n "$IN_OUTPUT" ]] && set_output report-path "$IN_OUTPUT"

case "$status" in
  0) exit 0 ;;
  1) error "mcpward checks failed" ;;
  2) error "mcpward configuration or connection error" ;;
  *) error "mcpward exited with status $status" ;;
esac
exit "$status"
