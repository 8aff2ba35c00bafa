#!/usr/bin/env bash
# Chromium for the dashboard's browser tests: deploy/local/chromium.sh {install|path}
#
# Playwright's own browser download is not available to us, so the tests (test/browser/) drive
# Debian's chromium through npm playwright-core (executablePath). install puts it in with apt when
# it is missing and is a no-op otherwise; it prints the binary's path on stdout, so
#   export CHROMIUM_PATH="$(deploy/local/chromium.sh install)"
# works. path prints the path when installed and exits 3 when not.
set -euo pipefail
LOG_TAG=chromium
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

find_binary() {
  local candidate
  for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
    [ -x "$candidate" ] && { printf '%s' "$candidate"; return 0; }
  done
  return 1
}

install() {
  local binary
  if binary="$(find_binary)"; then
    log "already installed: $binary"
  else
    # fonts-liberation: without any font the pages render as boxes in the screenshots.
    apt_install chromium fonts-liberation
    binary="$(find_binary)" || die "chromium still missing after apt-get install chromium"
  fi
  "$binary" --version >&2 || die "$binary does not run"
  printf '%s\n' "$binary"
}

case "${1:-install}" in
  install) with_lock chromium install ;;
  path) find_binary && echo || { echo "chromium: not installed" >&2; exit 3; } ;;
  *) echo "usage: $0 {install|path}" >&2; exit 2 ;;
esac
