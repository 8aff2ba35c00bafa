#!/usr/bin/env bash
# Runs every check and every vitest project and ends with one count line: "N passed, N failed"
# (", N skipped" when any were), also written to .run/summary.txt so .ci/run can print it after
# make's own lines. A failing step outside vitest (services, type-check, an install) counts as one
# failure; errors outside tests (a file that fails to load, a throwing afterAll, an unhandled
# rejection) count too: see scripts/test-summary.mjs.
# --with-services starts Redis, Kafka and ClickHouse (deploy/local) and exports their URLs;
# a service that cannot be had fails the run (counted as one failure), it is never skipped.
# The services start in the background (their log: .run/services.log, printed once they are up)
# while `--build` (`make build`: npm install when package.json changed, then the build) and the
# checks outside vitest run; the run waits for them before the first vitest run. A failing build
# fails the run (one failure) before any test.
# The fault project stops and starts the shared servers, so it runs after the others, beside only
# the browser and fuzz projects (which use none of them).
# The browser project drives the dashboard in Debian's chromium, installed here first (idempotent);
# a chromium that cannot be had fails the run, it is never skipped. The same holds for schemathesis
# (the OpenAPI fuzz test).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .run
rm -f .run/summary.txt .run/typecheck.log .run/typecheck.status .run/vitest-{main,chdb,integration-shared,fault,browser,fuzz}.json .run/vitest-{chdb,integration-shared,browser,fuzz}.log
summary_args=()

# step NAME CMD...: runs CMD; its exit status goes to the summary (non-zero is one failure).
step() {
  local name="$1"; shift
  "$@"
  local status=$?
  summary_args+=(--step "$name" "$status")
  return "$status"
}

# One scratch folder per run for everything the tests write under os.tmpdir() (their mkdtemp
# folders, the services and CLIs they spawn), removed when the run ends, failed or not: the tests'
# own clean-up left 377 folders (5.8 MB) in /tmp from one clean clone's run (run 75, 2026-11-30).
# Only the vitest runs get it: the shared services started below keep the machine's TMPDIR.
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/sytest-run.XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT

# vitest_report REPORT ARGS...: one vitest run writing its JSON report (with unhandled errors) to REPORT.
vitest_report() {
  local report="$1"; shift
  TMPDIR="$run_tmp" npx vitest run "$@" --reporter=default --reporter=./scripts/vitest-json-reporter.mjs --outputFile.json="$report"
}

# vitest_run REPORT ARGS...: vitest_report, its report and exit status to the summary.
vitest_run() {
  vitest_report "$@"
  summary_args+=(--vitest "$1" "$?")
}

# await_run PID REPORT LOG: waits for a vitest run started in the background (its output going to
# LOG), prints LOG and counts REPORT with the run's exit status.
await_run() {
  wait "$1"
  local status=$?
  cat "$3"
  summary_args+=(--vitest "$2" "$status")
}

summarize() {
  node scripts/test-summary.mjs "${summary_args[@]}" --out .run/summary.txt
  exit $?
}

with_services=false with_build=false
for arg in "$@"; do
  case "$arg" in
    --with-services) with_services=true ;;
    --build) with_build=true ;;
    *) echo "usage: $0 [--with-services] [--build]" >&2; exit 2 ;;
  esac
done

services_pid=""
if [ "$with_services" = true ]; then
  echo "starting the test services in the background (log: .run/services.log)" >&2
  rm -f .run/services.env .run/services.status
  (
    bash deploy/local/start.sh all > .run/services.env 2> .run/services.log
    echo $? > .run/services.status
  ) &
  services_pid=$!
fi

# Waits for the services started above, prints their log and exports their URLs.
await_services() {
  wait "$services_pid"
  cat .run/services.log >&2
  if [ "$(cat .run/services.status 2>/dev/null)" != 0 ]; then
    echo "the test services (Redis, Kafka, ClickHouse) could not be started: see the messages above" >&2
    return 1
  fi
}

# The type-check (tsc, one core) runs in the background beside the build and the other checks: run
# one after another they were the last 75 s before the first test, with a core a quarter idle,
# once the services no longer took longer (2026-12-02). Its output is printed when it has ended.
# It type-checks test/ along with the sources (tsconfig.json includes test/), so expectTypeOf can
# fail. After --build only the app's half: the build's `build:dashboard` type-checks the dashboard
# (tsc -p dashboard/tsconfig.json), and a second pass cost 9 s of CPU for nothing.
typecheck_pid=""
start_typecheck() {
  local script=typecheck
  [ "$with_build" = false ] || script=typecheck:app
  (
    npm run --silent "$script" > .run/typecheck.log 2>&1
    echo $? > .run/typecheck.status
  ) &
  typecheck_pid=$!
}
# Waits for the type-check, prints its output and counts it as a step.
await_typecheck() {
  wait "$typecheck_pid"
  cat .run/typecheck.log
  summary_args+=(--step typecheck "$(cat .run/typecheck.status 2>/dev/null || echo 1)")
}

if [ "$with_build" = true ]; then
  # Nothing can be tested without a build: count one failure and stop (after the services and the
  # type-check, so none is left running). The type-check needs the dependencies, not the build.
  if ! step install make --no-print-directory setup; then
    [ -z "$services_pid" ] || await_services
    summarize
  fi
  start_typecheck
  if ! step build make --no-print-directory build; then
    await_typecheck
    [ -z "$services_pid" ] || await_services
    summarize
  fi
else
  start_typecheck
fi

# ---- checks outside vitest: each is one step, a failure counts as one failed ----
# Lint, format check (Biome) and the import rules (dependency-cruiser): `make lint`.
step lint npm run --silent lint
step chromium-install bash deploy/local/chromium.sh install >/dev/null ||
  echo "chromium could not be installed for the browser tests: see the messages above" >&2
step schemathesis-install bash deploy/local/schemathesis.sh install ||
  echo "schemathesis could not be installed for the OpenAPI fuzz test: see the messages above" >&2
await_typecheck
# ---- end of checks ----

if [ -n "$services_pid" ]; then
  # Without the services the integration tests cannot say anything: count one failure and stop.
  step services await_services || summarize
  set -a
  # shellcheck disable=SC1091
  . ./.run/services.env
  set +a
fi

# The contract files on test/helpers/chdb-analytics.ts's chDB run beside the main run in one process,
# one file after another (vitest.config.ts, `chdbContract`): the app and chDB load once for all.
vitest_report .run/vitest-chdb.json --project contract-chdb --pool forks --poolOptions.forks.singleFork --poolOptions.forks.isolate=false \
  > .run/vitest-chdb.log 2>&1 &
chdb_pid=$!
# The integration files that can share a process run beside it too, in two reused processes (one
# when SWITCHYARD_TEST_WORKERS=1; vitest.config.ts, `integration.shared`): each loads the app once
# for its share of the files.
shared_workers=2
[ "${SWITCHYARD_TEST_WORKERS:-2}" != 1 ] || shared_workers=1
vitest_report .run/vitest-integration-shared.json --project integration-shared --pool forks --poolOptions.forks.isolate=false \
  --maxWorkers="$shared_workers" --minWorkers="$shared_workers" > .run/vitest-integration-shared.log 2>&1 &
shared_pid=$!
vitest_run .run/vitest-main.json --project unit --project unit-isolated --project contract --project contract-isolated --project ports --project integration
await_run "$chdb_pid" .run/vitest-chdb.json .run/vitest-chdb.log
await_run "$shared_pid" .run/vitest-integration-shared.json .run/vitest-integration-shared.log

# Then three runs side by side: the browser files and the fault files, each project one file at a
# time, and the OpenAPI fuzz test. None of the browser and fuzz files uses a shared server (each
# runs an embedded service of its own), so the fault files stopping Redis, Kafka or ClickHouse
# cannot touch them. The fault files spend most of their time waiting for an outage to be noticed,
# so chromium has the cores it needs (beside three busy files of the parallel run its 30 s waits
# timed out). The fuzz test is CPU-bound and has no short wait (its limit is a hang guard), so it
# runs niced on the cores the other two leave idle: in the main run it was the longest file, 824 s
# of an 826 s run on a slow host (2026-12-02), its 280 CPU-s taken from the files beside it.
# Outputs of the browser and fuzz runs are printed once all three have ended, so the logs do not
# interleave.
vitest_report .run/vitest-browser.json --project browser > .run/vitest-browser.log 2>&1 &
browser_pid=$!
(
  renice -n 10 "$BASHPID" > /dev/null
  vitest_report .run/vitest-fuzz.json --project fuzz
) > .run/vitest-fuzz.log 2>&1 &
fuzz_pid=$!
vitest_run .run/vitest-fault.json --project fault --passWithNoTests --no-file-parallelism
await_run "$browser_pid" .run/vitest-browser.json .run/vitest-browser.log
await_run "$fuzz_pid" .run/vitest-fuzz.json .run/vitest-fuzz.log
summarize
