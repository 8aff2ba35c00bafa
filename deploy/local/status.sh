#!/usr/bin/env bash
# One line per service: deploy/local/status.sh [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]... (default: all).
# Exits 0 when every named service answers, 3 otherwise.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
services=()
for arg in "${@:-all}"; do
  case "$arg" in
    all) services+=(redis clickhouse kafka litellm smtp secure s3) ;;
    redis | clickhouse | kafka | litellm | smtp | s3 | secure) services+=("$arg") ;;
    *) echo "usage: $0 [redis|clickhouse|kafka|litellm|smtp|s3|secure|all]..." >&2; exit 2 ;;
  esac
done
rc=0
for svc in "${services[@]}"; do
  "$HERE/$([ "$svc" = secure ] && echo secure-services || echo "$svc").sh" status || rc=3
done
exit "$rc"
