#!/usr/bin/env bash
# Starts the distributed-mode infrastructure without Docker:
#   deploy/local/start.sh [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]...   (default: all)
# `s3` is deploy/local/s3.sh: an S3-compatible server (versitygw) for FILE_STORE=s3; on a fresh machine
# it is built from its Go module, so its install begins in the background before anything else starts
# and `s3` is started last, when that build has had the others' start-up time to run.
# `secure` is deploy/local/secure-services.sh: Redis/Kafka/ClickHouse with TLS and credentials on their
# own ports (16440-16447); its lines are printed as SECURE_* so they never replace the plain services'.
# Each service is installed on first use, reused when already running, and waited for until it
# answers. Progress goes to stderr; stdout gets one "# <service> <url> ready" line per service and
# then KEY=VALUE lines, so either of these works:
#   set -a; eval "$(deploy/local/start.sh)"; set +a
#   deploy/local/start.sh | grep -v '^#' >> "$GITHUB_ENV"
# Exits non-zero, naming the service, when any requested service fails to start.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOG_TAG=start
# shellcheck source=lib/common.sh
. "$HERE/lib/common.sh"

services=()
for arg in "${@:-all}"; do
  case "$arg" in
    all) services+=(redis clickhouse kafka litellm smtp secure s3) ;;
    redis | clickhouse | kafka | litellm | smtp | s3 | secure) services+=("$arg") ;;
    *) echo "usage: $0 [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]..." >&2; exit 2 ;;
  esac
done

url_of() {
  case "$1" in
    redis) echo "redis://127.0.0.1:${REDIS_PORT:-6379}" ;;
    clickhouse) echo "http://127.0.0.1:${CLICKHOUSE_HTTP_PORT:-8123}" ;;
    kafka) echo "127.0.0.1:${KAFKA_PORT:-9092}" ;;
    litellm) echo "http://127.0.0.1:${LITELLM_PORT:-4000}" ;;
    smtp) echo "smtp://127.0.0.1:${SMTP_PORT:-2525}" ;;
    s3) echo "http://127.0.0.1:${S3_PORT:-7070}" ;;
    secure) echo "tls 127.0.0.1:${SECURE_BASE_PORT:-16440}+" ;;
  esac
}
# The script behind a service name.
script_of() {
  case "$1" in
    secure) echo "$HERE/secure-services.sh" ;;
    *) echo "$HERE/$1.sh" ;;
  esac
}
env_of() {
  case "$1" in
    redis) echo "REDIS_URL=$(url_of redis)" ;;
    clickhouse) echo "CLICKHOUSE_URL=$(url_of clickhouse)" ;;
    kafka) echo "KAFKA_BROKERS=$(url_of kafka)" ;;
    litellm) echo "LITELLM_URL=$(url_of litellm)" ;;
    # The mail tests' server (aiosmtpd) and the maildir it writes each accepted message into.
    smtp) echo "SMTP_TEST_URL=$(url_of smtp)"; echo "SMTP_TEST_MAILDIR=$("$HERE/smtp.sh" maildir)" ;;
    # FILE_STORE=s3's settings for the local server (endpoint, bucket, region, its local credentials).
    s3) "$HERE/s3.sh" env ;;
    secure) "$HERE/secure-services.sh" env | grep -v '^SECURE_' | sed 's/^/SECURE_/' ;;
  esac
}

t_all=$(now_s)
log "run dir: $RUN_DIR"
# The S3 server's install may be a Go build of minutes: begin it now, beside the other services'
# start-up; `s3.sh start` waits for it (an install lock) and reports its failure.
s3_install_pid=""
for svc in "${services[@]}"; do
  if [ "$svc" = s3 ]; then
    "$HERE/s3.sh" install >/dev/null &
    s3_install_pid=$!
    break
  fi
done
started=() failed=()
for svc in "${services[@]}"; do
  t0=$(now_s)
  if "$(script_of "$svc")" start; then
    started+=("$svc")
    printf '# %-10s %-28s ready (%ss)\n' "$svc" "$(url_of "$svc")" "$(( $(now_s) - t0 ))"
  else
    failed+=("$svc")
    printf '# %-10s %-28s FAILED (see %s)\n' "$svc" "$(url_of "$svc")" "$RUN_DIR/$svc"
  fi
done
# A background install whose start was never reached (an earlier failure) is not left running.
[ -z "$s3_install_pid" ] || wait "$s3_install_pid" 2>/dev/null || true
for svc in "${started[@]}"; do env_of "$svc"; done
log "done in $(( $(now_s) - t_all ))s"
if [ "${#failed[@]}" -gt 0 ]; then
  die "failed to start: ${failed[*]}"
fi
