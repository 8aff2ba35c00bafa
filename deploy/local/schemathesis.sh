#!/usr/bin/env bash
# Schemathesis (the OpenAPI fuzzer) for test/integration/openapi-fuzz.test.ts:
#   deploy/local/schemathesis.sh {install|path}
#
# install: puts schemathesis from PyPI into its own venv ($SCHEMATHESIS_VENV, default
# .tools/schemathesis-venv); idempotent, a venv that already holds the pinned version is kept.
# path: prints the CLI's path (after installing when needed), the one line on stdout, so a test can
# run `$(deploy/local/schemathesis.sh path) run ...`.
set -euo pipefail
LOG_TAG=schemathesis
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# Pinned: its checks and CLI flags (v4 `run --checks ...`) are what the fuzz test relies on.
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
VENV="${SCHEMATHESIS_VENV:-$SWITCHYARD_ROOT/.tools/schemathesis-venv}"
DIR="$RUN_DIR/schemathesis"
PIP_LOG="$DIR/pip-install.log"

installed_version() {
  [ -x "$VENV/bin/python" ] || return 1
  "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null
}

install() {
  if [ "$(installed_version || true)" = "$SCHEMATHESIS_VERSION" ] && [ -x "$VENV/bin/schemathesis" ]; then
    return 0
  fi
  local python; python="$(command -v python3 || true)"
  [ -n "$python" ] || apt_install python3 python3-venv
  python="$(command -v python3)" || die "python3 not found"
  "$python" -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  mkdir -p "$DIR" "$(dirname "$VENV")"
  local t0; t0=$(now_s)
  log "installing schemathesis==$SCHEMATHESIS_VERSION into $VENV (pip log: $PIP_LOG) ..."
  [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV" || die "could not create the venv $VENV"
  if ! "$VENV/bin/pip" install --disable-pip-version-check -q "schemathesis==$SCHEMATHESIS_VERSION" >"$PIP_LOG" 2>&1; then
    tail -n 30 "$PIP_LOG" >&2
    die "pip install schemathesis==$SCHEMATHESIS_VERSION failed; see $PIP_LOG"
  fi
  log "installed schemathesis $SCHEMATHESIS_VERSION in $(( $(now_s) - t0 ))s"
}

case "${1:-}" in
  install) with_lock schemathesis install ;;
  path) with_lock schemathesis install; printf '%s\n' "$VENV/bin/schemathesis" ;;
  *) echo "usage: $0 {install|path}" >&2; exit 2 ;;
esac
