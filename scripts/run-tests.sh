#!/usr/bin/env bash
# Runs every vitest project and ends with the runner's own counts: "N passed, N failed".
# --with-services first starts Redis, Kafka and ClickHouse (deploy/local) and exports their URLs;
# a service that cannot be had fails the run (counted as one failure), it is never skipped.
# The fault project stops and starts the shared servers, so it runs after the others, alone.
# The browser project drives the dashboard in Debian's chromium, installed here first (idempotent);
# a chromium that cannot be had fails the run, it is never skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .run
if [ "${1:-}" = "--with-services" ]; then
  if ! bash deploy/local/start.sh all > .run/services.env; then
    echo "the test services (Redis, Kafka, ClickHouse) could not be started: see the messages above" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  set -a
  # shellcheck disable=SC1091
  . ./.run/services.env
  set +a
fi
rm -f .run/vitest-main.json .run/vitest-fault.json
status=0
if ! bash deploy/local/chromium.sh install >/dev/null; then
  echo "chromium could not be installed for the browser tests: see the messages above" >&2
  status=1
fi
npx vitest run --project unit --project contract --project ports --project integration --project browser \
  --reporter=default --reporter=json --outputFile.json=.run/vitest-main.json || status=1
npx vitest run --project fault --passWithNoTests --no-file-parallelism \
  --reporter=default --reporter=json --outputFile.json=.run/vitest-fault.json || status=1
node scripts/test-summary.mjs .run/vitest-main.json .run/vitest-fault.json || status=1
exit $status
