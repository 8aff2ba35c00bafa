#!/usr/bin/env bash
# Local S3-compatible object store for the distributed file store of /v1/files (FILE_STORE=s3):
#   deploy/local/s3.sh {install|start|stop|status|env}
#
# The server is the Versity S3 Gateway (versitygw, Apache-2.0) over a POSIX folder: a real S3 API
# (SigV4, path-style, PutObject/GetObject/HeadObject/DeleteObject/ListObjectsV2) that stores each
# object as a file. It ships no binary through a registry we reach, so install builds it from its
# Go module ($VERSITYGW_VERSION, pinned) with the machine's Go (1.25 or newer: /usr/local/go/bin or
# PATH) into .tools/versitygw/bin; its module and build caches live under .tools/versitygw/go and
# are removed once the binary is there. A fresh machine downloads (~340 MB of modules) and compiles
# it: about 85 CPU seconds, 1 to 5 wall minutes on two cores shared with other work, which is why
# start.sh begins this install in the background before it starts the other services. The built binary is also
# kept in the machine's cache ($SWITCHYARD_TOOL_CACHE, default ~/.cache/switchyard), so another
# checkout on the same machine (CI's fresh clone) copies it instead of building it again.
# Installing twice at once is serialised by a lock; an installed binary of the pinned version is reused.
#
# start runs it on 127.0.0.1:$S3_PORT (default 7070) with root credentials $S3_ACCESS_KEY_ID /
# $S3_SECRET_ACCESS_KEY (local defaults below), data under <run dir>/s3/data, creates the bucket
# $S3_BUCKET through the S3 API (CreateBucket), and is ready when a signed HeadBucket answers 200.
# A server that already answers that way on the port is reused. status exits 0 when running, 3 when
# stopped; env prints the S3_* lines the tests and FILE_STORE=s3 read.
set -euo pipefail
LOG_TAG=s3
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# Pinned: the CLI (`--port`, `--access`/`--secret` through ROOT_* variables, `posix DIR`) is what this script relies on.
VERSITYGW_VERSION="${VERSITYGW_VERSION:-v1.8.0}"
S3_PORT="${S3_PORT:-7070}"
S3_BUCKET="${S3_BUCKET:-switchyard-files}"
S3_REGION="${S3_REGION:-us-east-1}"
# Local test credentials of a loopback-only server, not secrets.
S3_ACCESS_KEY_ID="${S3_ACCESS_KEY_ID:-switchyard-local}"
S3_SECRET_ACCESS_KEY="${S3_SECRET_ACCESS_KEY:-switchyard-local-secret}"
TOOLS="$SWITCHYARD_ROOT/.tools/versitygw"
BIN="$TOOLS/bin/versitygw"
STAMP="$TOOLS/bin/.version"
CACHED="${SWITCHYARD_TOOL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/switchyard}/versitygw-$VERSITYGW_VERSION/versitygw"
DIR="$RUN_DIR/s3"
DATA="$DIR/data"
PIDFILE="$DIR/versitygw.pid"
STDOUT_LOG="$DIR/versitygw.log"
BUILD_LOG="$DIR/go-install.log"
URL="http://127.0.0.1:$S3_PORT"

# One signed S3 request (curl's own SigV4); prints the HTTP status. UNSIGNED-PAYLOAD: S3 wants the header.
s3_call() {
  local method="$1" path="$2"
  curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -X "$method" \
    --aws-sigv4 "aws:amz:$S3_REGION:s3" --user "$S3_ACCESS_KEY_ID:$S3_SECRET_ACCESS_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$URL$path" 2>/dev/null || true
}

# The bucket answers a signed HeadBucket: the server speaks S3, knows these credentials and has the bucket.
ping_ok() {
  [ "$(s3_call HEAD "/$S3_BUCKET")" = 200 ]
}

# Something on the port answers S3 at all (any signed request gets an S3 status, not a refused connection).
speaks_s3() {
  [ "$(s3_call GET /)" != 000 ]
}

find_go() {
  local candidate
  for candidate in "${GO:-}" "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    # versitygw's go.mod asks for 1.25.
    if "$candidate" version 2>/dev/null | grep -Eq 'go1\.(2[5-9]|[3-9][0-9])'; then
      printf '%s' "$candidate"
      return 0
    fi
  done
  return 1
}

# Keeps a copy of the installed binary for the next checkout on this machine; a cache that cannot be
# written only costs that checkout a build.
keep_in_cache() {
  [ -x "$CACHED" ] && return 0
  if mkdir -p "$(dirname "$CACHED")" 2>/dev/null && cp -f "$BIN" "$CACHED.tmp.$$" 2>/dev/null; then
    mv -f "$CACHED.tmp.$$" "$CACHED"
  fi
}

do_install() {
  if [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSITYGW_VERSION" ]; then
    keep_in_cache
    return 0
  fi
  mkdir -p "$DIR" "$TOOLS/bin"
  if [ -x "$CACHED" ] && "$CACHED" --version >/dev/null 2>&1; then
    cp -f "$CACHED" "$BIN.tmp" && mv -f "$BIN.tmp" "$BIN"
    printf '%s' "$VERSITYGW_VERSION" >"$STAMP"
    log "versitygw $VERSITYGW_VERSION copied from the machine's cache ($CACHED)"
    return 0
  fi
  local go t0
  go="$(find_go)" || die "versitygw is built from its Go module and needs Go 1.25 or newer (on PATH or /usr/local/go/bin); none found"
  t0=$(now_s)
  log "building versitygw $VERSITYGW_VERSION with $("$go" version | cut -d' ' -f3) (log $BUILD_LOG) ..."
  # Caches of our own under .tools: nothing of the machine's GOPATH is read or written. GOFLAGS from
  # the caller are ignored; GOTOOLCHAIN=local: the Go found above builds it or nothing does.
  # -gcflags=all=-N -l (no optimisation, no inlining): a test server's speed does not matter, and it
  # compiles with 30% less CPU (82 instead of 118 CPU seconds, measured); -s -w: no symbol tables.
  if ! env GOPATH="$TOOLS/go" GOMODCACHE="$TOOLS/go/mod" GOCACHE="$TOOLS/go/cache" GOBIN="$TOOLS/bin" \
    GOFLAGS= GOTOOLCHAIN=local CGO_ENABLED=0 \
    "$go" install -trimpath -gcflags='all=-N -l' -ldflags='-s -w' "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >"$BUILD_LOG" 2>&1; then
    tail -n 30 "$BUILD_LOG" >&2
    die "go install github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION failed (log $BUILD_LOG)"
  fi
  printf '%s' "$VERSITYGW_VERSION" >"$STAMP"
  # The binary is all we keep: the module cache (read-only files) and the build cache are ~0.8 GB.
  env GOPATH="$TOOLS/go" GOMODCACHE="$TOOLS/go/mod" GOCACHE="$TOOLS/go/cache" GOFLAGS= GOTOOLCHAIN=local "$go" clean -cache -modcache >/dev/null 2>&1 || true
  rm -rf "$TOOLS/go"
  keep_in_cache
  log "built versitygw $VERSITYGW_VERSION in $(( $(now_s) - t0 ))s"
}

# A lock of its own, held in a subshell so its descriptor is closed again before versitygw starts
# (start.sh's background install and start's own install must not both build).
install() {
  mkdir -p "$RUN_DIR"
  (
    if command -v flock >/dev/null 2>&1; then
      flock -w 900 9 || die "timed out waiting for the install lock ($RUN_DIR/.s3-install.lock)"
    fi
    do_install
  ) 9>"$RUN_DIR/.s3-install.lock"
}

start() {
  need_cmd curl curl
  install
  if ping_ok; then
    local pid; pid="$(pid_alive "$PIDFILE" versitygw || true)"
    log "already running on $URL${pid:+ (pid $pid)} with bucket $S3_BUCKET; reusing it"
    return 0
  fi
  if port_open "$S3_PORT"; then
    speaks_s3 || die "port 127.0.0.1:$S3_PORT is taken by something that does not speak S3; set S3_PORT"
    pid_alive "$PIDFILE" versitygw >/dev/null ||
      die "an S3 server on $URL (not started by this script) refuses HeadBucket $S3_BUCKET with these credentials; set S3_PORT or S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY"
  else
    mkdir -p "$DATA"
    mark_start "$DIR"
    rotate_log "$STDOUT_LOG"
    log "starting versitygw $VERSITYGW_VERSION on $URL (data $DATA) ..."
    local pid
    pid="$(cd "$DIR" && ROOT_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" ROOT_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" \
      spawn_detached "$STDOUT_LOG" "$BIN" --port "127.0.0.1:$S3_PORT" --region "$S3_REGION" --quiet posix "$DATA")"
    echo "$pid" >"$PIDFILE"
    wait_until 60 "versitygw on $URL" "$PIDFILE" versitygw "$STDOUT_LOG" -- speaks_s3
  fi
  if ! ping_ok; then
    local created; created="$(s3_call PUT "/$S3_BUCKET")"
    [ "$created" = 200 ] || die "CreateBucket $S3_BUCKET on $URL answered $created"
  fi
  wait_until 30 "bucket $S3_BUCKET on $URL" "$PIDFILE" versitygw "$STDOUT_LOG" -- ping_ok
  log "ready: $URL bucket $S3_BUCKET (pid $(pid_alive "$PIDFILE" versitygw || echo '?'))"
}

stop() {
  if stop_pid "$PIDFILE" versitygw versitygw 10; then
    log "stopped"
  elif speaks_s3; then
    log "an S3 server answers on $URL but was not started by this script (no live $PIDFILE); leaving it"
  else
    log "not running"
  fi
}

status() {
  if ping_ok; then
    local pid; pid="$(pid_alive "$PIDFILE" versitygw || true)"
    echo "s3: running $URL${pid:+ pid=$pid} bucket=$S3_BUCKET"
    return 0
  fi
  echo "s3: stopped ($URL bucket $S3_BUCKET)"
  return 3
}

env_lines() {
  printf '%s\n' "S3_ENDPOINT=$URL" "S3_BUCKET=$S3_BUCKET" "S3_REGION=$S3_REGION" \
    "S3_ACCESS_KEY_ID=$S3_ACCESS_KEY_ID" "S3_SECRET_ACCESS_KEY=$S3_SECRET_ACCESS_KEY"
}

case "${1:-}" in
  install) install ;;
  start) with_lock s3 start ;;
  stop) with_lock s3 stop ;;
  status) status ;;
  env) env_lines ;;
  *) echo "usage: $0 {install|start|stop|status|env}" >&2; exit 2 ;;
esac
