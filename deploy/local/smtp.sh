#!/usr/bin/env bash
# Local SMTP server for the mail tests (password reset and email verification over real SMTP):
#   deploy/local/smtp.sh {start|stop|status|maildir}
#
# Installs aiosmtpd from PyPI into its own venv ($SMTP_VENV, default .tools/aiosmtpd-venv) and runs
# it on 127.0.0.1:$SMTP_PORT (default 2525) with its Mailbox handler: every message it accepts is
# written, before the server answers 250, into the maildir $SMTP_MAILDIR (default
# <run dir>/smtp/maildir; one file a message under new/, with X-MailFrom and X-RcptTo headers naming the
# envelope). No authentication, no TLS, loopback only. A server already answering on the port is
# reused. status exits 0 when running, 3 when stopped; maildir prints the maildir's path.
set -euo pipefail
LOG_TAG=smtp
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/python-venv.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/python-venv.sh"

# Pinned: the CLI (`-l host:port -c aiosmtpd.handlers.Mailbox DIR`) and the maildir layout are what the tests rely on.
AIOSMTPD_VERSION="${AIOSMTPD_VERSION:-1.4.6}"
SMTP_PORT="${SMTP_PORT:-2525}"
VENV="${SMTP_VENV:-$SWITCHYARD_ROOT/.tools/aiosmtpd-venv}"
DIR="$RUN_DIR/smtp"
MAILDIR="${SMTP_MAILDIR:-$DIR/maildir}"
PIDFILE="$DIR/aiosmtpd.pid"
STDOUT_LOG="$DIR/aiosmtpd.log"
PIP_LOG="$DIR/pip-install.log"
URL="smtp://127.0.0.1:$SMTP_PORT"

# An SMTP conversation (greeting, EHLO, NOOP, QUIT), not only an open port.
ping_ok() {
  [ -x "$VENV/bin/python" ] || return 1
  "$VENV/bin/python" - "$SMTP_PORT" 2>/dev/null <<'EOF'
import smtplib, sys
with smtplib.SMTP('127.0.0.1', int(sys.argv[1]), timeout=3) as smtp:
    smtp.ehlo()
    code, _ = smtp.noop()
    sys.exit(0 if code == 250 else 1)
EOF
}

install() {
  pip_venv_install "$VENV" "aiosmtpd" aiosmtpd "$AIOSMTPD_VERSION" aiosmtpd "$PIP_LOG"
}

start() {
  install
  if ping_ok; then
    local pid; pid="$(pid_alive "$PIDFILE" aiosmtpd || true)"
    if [ -n "$pid" ]; then
      log "already running on $URL (pid $pid); reusing it"
    else
      log "already running on $URL (not started by this script); reusing it"
    fi
    return 0
  fi
  if port_open "$SMTP_PORT"; then
    die "port 127.0.0.1:$SMTP_PORT is taken by something that does not speak SMTP; set SMTP_PORT"
  fi
  # The three maildir folders: aiosmtpd only makes them for a maildir path that does not exist yet.
  mkdir -p "$DIR" "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
  mark_start "$DIR"
  rotate_log "$STDOUT_LOG"
  log "starting aiosmtpd $AIOSMTPD_VERSION on $URL (maildir $MAILDIR) ..."
  local pid
  # -n: no setuid (we are not dropping to nobody); -c must come last: its arguments follow it.
  pid="$(cd "$DIR" && spawn_detached "$STDOUT_LOG" "$VENV/bin/python" -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c aiosmtpd.handlers.Mailbox "$MAILDIR")"
  echo "$pid" >"$PIDFILE"
  wait_until 60 "aiosmtpd on $URL" "$PIDFILE" aiosmtpd "$STDOUT_LOG" -- ping_ok
  log "ready: $URL (pid $pid)"
}

stop() {
  if stop_pid "$PIDFILE" aiosmtpd aiosmtpd 10; then
    log "stopped"
  elif ping_ok; then
    log "an SMTP server answers on $URL but was not started by this script (no live $PIDFILE); leaving it"
  else
    log "not running"
  fi
}

status() {
  if ping_ok; then
    local pid; pid="$(pid_alive "$PIDFILE" aiosmtpd || true)"
    echo "smtp: running $URL${pid:+ pid=$pid} maildir=$MAILDIR"
    return 0
  fi
  echo "smtp: stopped ($URL)"
  return 3
}

case "${1:-}" in
  start) with_lock smtp start ;;
  stop) with_lock smtp stop ;;
  status) status ;;
  maildir) printf '%s\n' "$MAILDIR" ;;
  *) echo "usage: $0 {start|stop|status|maildir}" >&2; exit 2 ;;
esac
