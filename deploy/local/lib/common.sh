# shellcheck shell=bash
# Shared helpers for deploy/local/*.sh. Sourced, never executed.
#
# Why a shared file: every service script needs the same run-directory layout, the same
# apt install path (root or sudo, waiting for the dpkg lock that another apt may hold),
# the same pid-file handling and the same "wait until it answers" loop, and CI needs all of
# them to fail the same loud way.

SWITCHYARD_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
# shellcheck disable=SC2034 # used by the scripts that source this file
DEPLOY_LOCAL_DIR="$SWITCHYARD_ROOT/deploy/local"
# The services' configs, data, logs and pid files: one set per machine, as their ports are. A second
# checkout finds the servers the first one started and reuses them, and its fault tests can stop and
# start them again; with the state in each checkout, the pid files were the other checkout's, so
# those tests failed, and the TLS services' passwords were unknown, so they refused the port.
# SWITCHYARD_RUN_DIR gives a run a set of its own (with ports of its own: docs/testing.md).
RUN_DIR="${SWITCHYARD_RUN_DIR:-${XDG_STATE_HOME:-${HOME:?set HOME or SWITCHYARD_RUN_DIR}/.local/state}/switchyard/run}"

export DEBIAN_FRONTEND=noninteractive

# Progress and errors go to stderr so stdout stays machine-readable (start.sh prints KEY=VALUE lines there).
log() { printf '[%s] %s\n' "${LOG_TAG:-local}" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "${LOG_TAG:-local}" "$*" >&2; exit 1; }

now_s() { date +%s; }

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -E "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

_APT_UPDATED=0
# apt_install PKG...: apt-get update once per process, then install. Waits up to 10 min for the dpkg
# lock so a concurrent apt (another script, unattended-upgrades) does not fail us.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install $* by hand (this script targets Debian 12)"
  local t0; t0=$(now_s)
  if [ "$_APT_UPDATED" -eq 0 ]; then
    log "apt-get update (installing: $*) ..."
    as_root apt-get -o DPkg::Lock::Timeout=600 update -q >&2 || die "apt-get update failed"
    _APT_UPDATED=1
  fi
  log "apt-get install -y $* ..."
  as_root apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$@" >&2 \
    || die "apt-get install $* failed"
  log "installed $* in $(( $(now_s) - t0 ))s"
}

# need_cmd CMD PKG: installs PKG with apt when CMD is not on PATH.
need_cmd() {
  local cmd="$1" pkg="$2"
  command -v "$cmd" >/dev/null 2>&1 || apt_install "$pkg"
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd still missing after installing $pkg"
}

# port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") >/dev/null 2>&1
}

# pid_alive PIDFILE [PATTERN]: prints the pid and succeeds when the pid file names a live process
# whose command line contains PATTERN (guards against a recycled pid after a reboot or crash).
pid_alive() {
  local file="$1" pattern="${2:-}" pid
  [ -s "$file" ] || return 1
  pid="$(tr -dc '0-9' <"$file")"
  [ -n "$pid" ] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [ -n "$pattern" ] && [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$pattern" || return 1
  fi
  printf '%s' "$pid"
}

# stop_pid PIDFILE PATTERN NAME TIMEOUT_S: SIGTERM, wait, SIGKILL as a last resort.
stop_pid() {
  local file="$1" pattern="$2" name="$3" timeout="$4" pid i
  if ! pid="$(pid_alive "$file" "$pattern")"; then
    rm -f "$file"
    return 1
  fi
  log "stopping $name (pid $pid, SIGTERM) ..."
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < timeout * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$file"; log "$name stopped"; return 0; }
    sleep 0.1
  done
  log "$name did not exit within ${timeout}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$file"
  return 0
}

START_MARKER=""
# mark_start DIR: remembers when this start attempt began, so show_logs skips files that the
# attempt never wrote to (their tails belong to an earlier run and would mislead).
mark_start() {
  START_MARKER="$1/.start-marker"
  touch "$START_MARKER"
}

# rotate_log FILE: keeps one previous copy, so each start's stdout/stderr capture begins empty.
rotate_log() {
  [ -f "$1" ] && mv -f "$1" "$1.1"
  : >"$1"
}

# show_logs LOGFILES: prints the tail of each file in a ':'-separated list that this start wrote to.
show_logs() {
  local f
  IFS=':' read -r -a _files <<<"$1"
  for f in "${_files[@]}"; do
    [ -s "$f" ] || continue
    if [ -n "$START_MARKER" ] && [ -f "$START_MARKER" ] && [ "$START_MARKER" -nt "$f" ]; then continue; fi
    log "last lines of $f:"
    tail -n 30 "$f" >&2
  done
}

# wait_until TIMEOUT_S DESCRIPTION PIDFILE PATTERN LOGFILES -- CMD...: polls CMD every 0.2 s until it
# succeeds; fails early (showing the tails of the ':'-separated LOGFILES) when the process behind
# PIDFILE dies.
wait_until() {
  local timeout="$1" what="$2" pidfile="$3" pattern="$4" logfile="$5"
  shift 6
  local deadline=$(( $(now_s) + timeout )) next_note=$(( $(now_s) + 5 ))
  until "$@" >/dev/null 2>&1; do
    if [ -n "$pidfile" ] && ! pid_alive "$pidfile" "$pattern" >/dev/null; then
      show_logs "$logfile"
      die "$what: process exited before it became ready"
    fi
    if [ "$(now_s)" -ge "$deadline" ]; then
      show_logs "$logfile"
      die "$what: not ready after ${timeout}s"
    fi
    if [ "$(now_s)" -ge "$next_note" ]; then
      log "still waiting for $what ..."
      next_note=$(( $(now_s) + 5 ))
    fi
    sleep 0.2
  done
}

LOCK_FD=""
# with_lock NAME CMD...: serialises start/stop of one service across concurrent callers.
with_lock() {
  local name="$1"; shift
  mkdir -p "$RUN_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec {LOCK_FD}>"$RUN_DIR/.$name.lock"
    flock -w 900 "$LOCK_FD" || die "timed out waiting for the $name lock ($RUN_DIR/.$name.lock)"
  fi
  "$@"
}

# without_lock_fd CMD...: runs CMD with the lock descriptor closed. A daemon that inherited it would
# hold the lock for its whole life and every later start/stop would block on it.
without_lock_fd() {
  if [ -n "$LOCK_FD" ]; then
    "$@" {LOCK_FD}>&-
  else
    "$@"
  fi
}

# spawn_detached LOGFILE CMD...: starts CMD in its own session, stdin from /dev/null, output appended
# to LOGFILE, lock descriptor closed, so that neither our caller's pipes nor the lock stay attached to
# it. Prints the pid once that pid runs CMD (or has already exited).
spawn_detached() {
  local logfile="$1"; shift
  if [ -n "$LOCK_FD" ]; then
    setsid "$@" </dev/null >>"$logfile" 2>&1 {LOCK_FD}>&- &
  else
    setsid "$@" </dev/null >>"$logfile" 2>&1 &
  fi
  local pid="$!"
  await_exec "$pid"
  printf '%s' "$pid"
}

# await_exec PID: returns once the child PID forked from this shell is no longer a copy of it: it has
# exec'd its command, exited or gone. Until then /proc/PID/cmdline is this shell's, so pid_alive with
# the command's pattern reads "not running": on a loaded host the start scripts' first liveness check
# came before the exec and a broker that was starting was reported dead (CI, 2026-12-04; once in
# 3,900 spawns beside busy loops). Bounded at 10 s, after which the caller's own checks take over.
await_exec() {
  local pid="$1" self child i
  mapfile -d '' -t self </proc/"$BASHPID"/cmdline
  for ((i = 0; i < 1000; i++)); do
    mapfile -d '' -t child 2>/dev/null </proc/"$pid"/cmdline || return 0
    [ "${child[*]}" = "${self[*]}" ] || return 0
    sleep 0.01
  done
}

# node_arg NODE: the cluster scripts' 1-based node number, checked against their SIZE; prints it.
node_arg() {
  [[ "${1:-}" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$SIZE" ] || die "NODE must be 1..$SIZE"
  echo "$1"
}

# kafka_uuid: a random Kafka Uuid as its tools print it (16 random bytes, URL-safe base64 without
# padding), for a KRaft cluster id. Kafka never hands out one that starts with "-" (it would read as
# an option); a shell and /dev/urandom do this without starting a JVM (`StorageTool random-uuid`
# cost about 2 CPU-s a cluster).
kafka_uuid() {
  local id="-"
  while [ "${id#-}" != "$id" ]; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
  done
  printf '%s' "$id"
}

# tool_java ARCHIVE JAVA_ARGS...: a short-lived JVM (Kafka's storage format, the readiness probe),
# with C1 only and the serial collector (a tool runs for a second or two, so C2's and G1's threads
# only cost CPU) and an AppCDS archive of the classes it loads: the first run writes ARCHIVE on its
# way out, later runs with the same class path map it instead of loading and verifying each class
# again (2.2 → 0.8 CPU-s for a Kafka tool, 2026-12-02). An archive that no longer matches its jars
# is ignored by the JVM (-Xshare:auto); its logging is off so that a tool's output stays its own.
# The class path must be jars only: writing an archive of classes from a folder fails the JVM.
tool_java() {
  local archive="$1"; shift
  local flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Xlog:disable -Xlog:all=off)
  if [ -s "$archive" ]; then
    java "${flags[@]}" -XX:SharedArchiveFile="$archive" "$@"
    return
  fi
  # Written under a name of its own and moved into place: two starts at once never share a file.
  local partial; partial="$archive.$$.partial"
  local status=0
  java "${flags[@]}" -XX:ArchiveClassesAtExit="$partial" "$@" || status=$?
  if [ "$status" -eq 0 ] && [ -s "$partial" ]; then mv -f "$partial" "$archive"; else rm -f "$partial"; fi
  return "$status"
}
