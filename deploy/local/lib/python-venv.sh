# shellcheck shell=bash
# One pinned PyPI package in its own venv (litellm's proxy, schemathesis): sourced after common.sh.
#
# pip_venv_install VENV PACKAGE_SPEC DIST_NAME VERSION EXECUTABLE PIP_LOG
#   Installs PACKAGE_SPEC==VERSION into VENV unless DIST_NAME VERSION and VENV/bin/EXECUTABLE are there
#   already (idempotent); installs python3 and its venv module from Debian when missing. Fails with
#   the last lines of PIP_LOG.

venv_installed_version() {
  local venv="$1" dist="$2"
  [ -x "$venv/bin/python" ] || return 1
  "$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$dist'))" 2>/dev/null
}

pip_venv_install() {
  local venv="$1" spec="$2" dist="$3" version="$4" executable="$5" pip_log="$6"
  if [ "$(venv_installed_version "$venv" "$dist" || true)" = "$version" ] && [ -x "$venv/bin/$executable" ]; then
    return 0
  fi
  local python; python="$(command -v python3 || true)"
  [ -n "$python" ] || apt_install python3 python3-venv
  python="$(command -v python3)" || die "python3 not found"
  "$python" -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  mkdir -p "$(dirname "$pip_log")" "$(dirname "$venv")"
  local t0; t0=$(now_s)
  log "installing $spec==$version into $venv (pip log: $pip_log) ..."
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || die "could not create the venv $venv"
  if ! "$venv/bin/pip" install --disable-pip-version-check -q "$spec==$version" >"$pip_log" 2>&1; then
    tail -n 30 "$pip_log" >&2
    die "pip install $spec==$version failed; see $pip_log"
  fi
  log "installed $dist $version in $(( $(now_s) - t0 ))s"
}
