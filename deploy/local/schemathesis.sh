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
# shellcheck source=lib/python-venv.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/python-venv.sh"

# Pinned: its checks and CLI flags (v4 `run --checks ...`) are what the fuzz test relies on.
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
VENV="${SCHEMATHESIS_VENV:-$SWITCHYARD_ROOT/.tools/schemathesis-venv}"
DIR="$RUN_DIR/schemathesis"
PIP_LOG="$DIR/pip-install.log"

install() {
  pip_venv_install "$VENV" "schemathesis" schemathesis "$SCHEMATHESIS_VERSION" schemathesis "$PIP_LOG"
}

case "${1:-}" in
  install) with_lock schemathesis install ;;
  path) with_lock schemathesis install; printf '%s\n' "$VENV/bin/schemathesis" ;;
  *) echo "usage: $0 {install|path}" >&2; exit 2 ;;
esac
