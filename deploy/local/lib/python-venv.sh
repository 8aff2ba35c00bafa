# shellcheck shell=bash
# One pinned PyPI package in its own venv (litellm's proxy, schemathesis): sourced after common.sh.
#
# pip_venv_install VENV PACKAGE_SPEC DIST_NAME VERSION EXECUTABLE PIP_LOG
#   Installs PACKAGE_SPEC==VERSION into VENV unless DIST_NAME VERSION and VENV/bin/EXECUTABLE are there
#   already (idempotent); installs python3 and its venv module from Debian when missing. Fails with
#   the last lines of PIP_LOG.
#
# The installer is uv (itself from PyPI, pinned, in a venv of its own under .tools), not pip: on a
# fresh machine pip took 84 s of CPU and 90 s for litellm's proxy, uv 7 s of CPU and 7 s
# (2026-12-02, two shared cores); litellm's install was the longest step before the first test.
# uv writes no bytecode at install time (pip's compile of 7,300 files was 22 s of that CPU);
# Python compiles what it imports on first use. When uv cannot be had, pip installs instead (with
# --no-compile, for the same reason).

UV_VERSION="${UV_VERSION:-0.13.9}"

venv_installed_version() {
  local venv="$1" dist="$2"
  [ -x "$venv/bin/python" ] || return 1
  "$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$dist'))" 2>/dev/null
}

# ensure_uv PYTHON LOG: prints the path of a uv of UV_VERSION (installing it into .tools/uv-venv
# under a lock, as the venvs install in parallel); fails when it cannot be installed.
ensure_uv() {
  local python="$1" log="$2" venv="$SWITCHYARD_ROOT/.tools/uv-venv"
  (
    flock 9
    if [ "$(venv_installed_version "$venv" uv || true)" != "$UV_VERSION" ] || [ ! -x "$venv/bin/uv" ]; then
      { [ -x "$venv/bin/pip" ] || "$python" -m venv "$venv"; } >>"$log" 2>&1 &&
        "$venv/bin/pip" install --disable-pip-version-check -q "uv==$UV_VERSION" >>"$log" 2>&1
    fi
  ) 9>"$SWITCHYARD_ROOT/.tools/uv-venv.lock" || return 1
  printf '%s\n' "$venv/bin/uv"
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
  mkdir -p "$(dirname "$pip_log")" "$(dirname "$venv")" "$SWITCHYARD_ROOT/.tools"
  : >"$pip_log"
  local t0 uv installer; t0=$(now_s)
  if uv="$(ensure_uv "$python" "$pip_log")"; then installer="uv $UV_VERSION"; else uv=""; installer="pip"; fi
  log "installing $spec==$version into $venv with $installer (log: $pip_log) ..."
  # `|| status=$?`: the scripts run under `set -e`, which would end them on a failed install
  # before the log's last lines are shown.
  local status=0
  if [ -n "$uv" ]; then
    # No pip in it: uv installs into it from outside (ensurepip cost 9 s of CPU per venv).
    [ -x "$venv/bin/python" ] || "$python" -m venv --without-pip "$venv" || die "could not create the venv $venv"
    # The machine's certificate store (as pip's PIP_CERT), and pip's time-out when one is set.
    UV_NATIVE_TLS=1 UV_HTTP_TIMEOUT="${UV_HTTP_TIMEOUT:-${PIP_DEFAULT_TIMEOUT:-60}}" \
      "$uv" pip install --python "$venv/bin/python" -q "$spec==$version" >>"$pip_log" 2>&1 || status=$?
  else
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || die "could not create the venv $venv"
    # A venv that uv filled has no pip yet.
    "$venv/bin/python" -m pip --version >/dev/null 2>&1 || "$venv/bin/python" -m ensurepip >>"$pip_log" 2>&1 ||
      die "could not put pip into the venv $venv"
    "$venv/bin/python" -m pip install --disable-pip-version-check --no-compile -q "$spec==$version" >>"$pip_log" 2>&1 || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$pip_log" >&2
    die "installing $spec==$version failed; see $pip_log"
  fi
  log "installed $dist $version in $(( $(now_s) - t0 ))s"
}
