#!/usr/bin/env bash
# Stops what deploy/local/start.sh started: deploy/local/stop.sh [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]...
# (default: all). Data stays in the run dir; services this script did not start are left alone.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
services=()
for arg in "${@:-all}"; do
  case "$arg" in
    all) services+=(s3 secure smtp litellm kafka clickhouse redis) ;;   # producers' broker first, state store last
    redis | clickhouse | kafka | litellm | smtp | s3 | secure) services+=("$arg") ;;
    *) echo "usage: $0 [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]..." >&2; exit 2 ;;
  esac
done
rc=0
for svc in "${services[@]}"; do
  "$HERE/$([ "$svc" = secure ] && echo secure-services || echo "$svc").sh" stop || { echo "[stop] ERROR: stopping $svc failed" >&2; rc=1; }
done
exit "$rc"
