# Quick start: `make start` (the service, embedded mode) and `make test` (every test).
# Both do all set-up on a fresh machine: Node 24 (from the npm registry when the machine's Node
# is older), dependencies, build; `make test` also installs and starts Redis, Kafka and ClickHouse.
SHELL := /bin/bash
NODE_BIN := $(shell scripts/ensure-node.sh)
export PATH := $(NODE_BIN):$(PATH)

.PHONY: setup build start test test-unit services services-stop bench bench-compare generate check-generated
.PHONY: lint fmt

setup: node_modules/.installed

# `npm install`, not `npm ci`: the npm 11 on these machines writes lock files without the other
# platforms' optional packages and then refuses its own lock in `npm ci` (EUSAGE "Missing: … from lock file").
node_modules/.installed: package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $@

build: setup
	npm run --silent build

start: build
	node dist/cli/main.js serve

services:
	bash deploy/local/start.sh all

services-stop:
	bash deploy/local/stop.sh

# Starts Redis, Kafka and ClickHouse (deploy/local) in the background while it installs, builds and
# type-checks, and passes their URLs to the tests (scripts/run-tests.sh).
test:
	bash scripts/run-tests.sh --with-services --build

test-unit: setup
	npx vitest run --project unit --project unit-isolated

generate: setup
	node scripts/generate-types.mjs

# Lint (Biome, warnings count as errors), format check and the import rules (dependency-cruiser); writes nothing.
lint: setup
	npm run --silent lint

# Formats and applies Biome's safe fixes in place (biome.jsonc lists the folders).
fmt: setup
	npm run --silent fmt

bench: build
	node bench/decide-bench.mjs

# Two builds alternately in one sitting: BASE=<git ref> (built in /tmp), the working tree; ratios and
# CPU µs per request (bench/README.md). ROUNDS, DURATION, CONNECTIONS, SCENARIOS pass through.
# Needs node_modules (`make setup`); not a prerequisite here, so a worktree whose node_modules is a
# link to another checkout's never runs npm install through it.
bench-compare:
	@test -n "$(BASE)" || { echo 'usage: make bench-compare BASE=<git ref>'; exit 2; }
	@test -d node_modules/autocannon || { echo 'node_modules missing: run make setup first'; exit 2; }
	BASE=$(BASE) node bench/bench-compare.mjs
