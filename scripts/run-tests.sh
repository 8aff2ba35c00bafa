#!/usr/bin/env bash
# Runs every vitest project and ends with the runner's own counts: "N passed, N failed".
# The fault project stops and starts the shared servers, so it runs after the others, alone.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .run
rm -f .run/vitest-main.json .run/vitest-fault.json
status=0
npx vitest run --project unit --project contract --project ports --project integration \
  --reporter=default --reporter=json --outputFile.json=.run/vitest-main.json || status=1
npx vitest run --project fault --passWithNoTests --no-file-parallelism \
  --reporter=default --reporter=json --outputFile.json=.run/vitest-fault.json || status=1
node scripts/test-summary.mjs .run/vitest-main.json .run/vitest-fault.json || status=1
exit $status
