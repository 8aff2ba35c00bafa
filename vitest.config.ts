import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/duration-sequencer.js';

/**
 * Projects: unit (pure), contract (HTTP via inject on buildApp), ports (shared port suites against
 * every adapter), integration (real Redis, Kafka, ClickHouse, chDB), fuzz (the OpenAPI fuzz test:
 * the embedded service and schemathesis), fault (stops and starts the shared servers, so its files
 * run one at a time after the rest) and browser (the dashboard in Debian's chromium against the
 * embedded service; builds the dashboard first).
 *
 * Parallelism (issue 35): files of unit, contract, ports and integration run side by side in
 * `maxWorkers` processes and as many threads: more than the cores, because most of a file's time is
 * waiting on a server (Kafka rebalances, ClickHouse inserts, child processes starting), not CPU.
 * That is safe because every file keeps to its own namespace: a unique Redis key prefix, Kafka topic
 * prefix and consumer groups, a ClickHouse database, chDB and data directories under mkdtemp, ports
 * from the OS (`listen(0)`) and environment changes only in its own process. A file that needs a
 * fixed port or a shared server to itself does not belong here. fuzz, fault and browser run after
 * the parallel ones, side by side, each a vitest run of its own (scripts/run-tests.sh): fault and
 * browser files one at a time in a single process (`singleFork`). browser files are isolated (their
 * own service on a free port, data directory and chromium) and use no shared server, but their 30 s
 * Playwright waits timed out beside three busy files of the parallel run; the fault files beside
 * them mostly wait, and the fuzz run beside them is niced. `maxWorkers` sizes the forks pool for the
 * whole run (vitest does not take it per project), and the threads pool below is as large;
 * SWITCHYARD_TEST_WORKERS overrides both (1: one process and one thread, so at most two files at
 * once). Files start longest first (test/duration-sequencer.ts), so the run does not end on one long
 * file that started last.
 *
 * Unit, contract and most integration files share their workers: a worker runs one file after
 * another on the modules it has loaded, where a fresh worker per file loads them all again (about
 * 1.1 s of CPU per contract file on an idle machine, 3.3 s in a full run; 2.9 s per integration
 * file, most of it Kafka's client, the OpenTelemetry exporters and the AI SDK providers). They run
 * in vitest's `threads` pool, every other project in `forks`: vitest 3.2 decides whether a pool
 * reuses its workers from the root's `poolOptions.<pool>.isolate`, never a project's, so a project's
 * `isolate: false` alone changed nothing (every file still got a process of its own; checked by
 * process id), and the root's `forks.isolate: false` would also put the files that need a process
 * each into shared ones. A file that cannot share runs in the `-isolated` project beside it:
 * {@link needsOwnProcess}, and for integration also {@link runsService}. `minWorkers` equals
 * `maxWorkers` because vitest 3.2 with shared workers failed the run with "Terminating worker
 * thread" when it let an idle one go. The two pools run at once.
 */
const workers = Number(process.env['SWITCHYARD_TEST_WORKERS'] ?? Math.max(4, availableParallelism() * 2));
if (!Number.isInteger(workers) || workers < 1) throw new Error(`SWITCHYARD_TEST_WORKERS must be a whole number ≥ 1, got ${process.env['SWITCHYARD_TEST_WORKERS']}`);
const serial = { poolOptions: { forks: { singleFork: true } } };
/** The projects that share workers: one pool of reused worker threads (`isolate` is read from the root's poolOptions). */
const shared = { pool: 'threads', isolate: false } as const;
/** Every project's setup file: each file's CPU time for the end-of-run report (test/setup/file-cpu.ts). */
const setupFiles = ['test/setup/file-cpu.ts'];

/**
 * Whether a test file must run in a process of its own: chDB binds one data folder per process (a
 * second file's folder is refused), opened directly or through the helpers that open it; `vi.mock`
 * replaces a module, and a stubbed or assigned environment variable or global stays so, for every
 * file that shares the process.
 */
const needsOwnProcess =
  /chdb|tenant-fuzz\/world|analytics-engines|\bvi\.(?:mock|doMock|stubEnv|stubGlobal)\(|process\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/i;

/** The test files the patterns match (fault files aside), split into those that share processes and those that need their own. */
function byIsolation(...patterns: string[]): { readonly shared: string[]; readonly isolated: string[] } {
  const files = patterns.flatMap((pattern) => globSync(pattern, { exclude: (name) => name.endsWith('.fault.test.ts') })).sort();
  const isolated = files.filter((file) => needsOwnProcess.test(readFileSync(file, 'utf8')));
  return { shared: files.filter((file) => !isolated.includes(file)), isolated };
}

const unit = byIsolation('test/unit/**/*.test.ts');
const contract = byIsolation('test/contract/**/*.test.ts');
/** The OpenAPI fuzz test: a run of its own after the parallel files (scripts/run-tests.sh). */
const fuzz = 'test/integration/openapi-fuzz.test.ts';
/**
 * Integration files that run the service or its runtime in the test's process need one of their
 * own: without a ClickHouse URL the runtime opens chDB, and two chDB sessions on different folders
 * in one process crashed it (a segmentation fault of the whole vitest run, 2026-12-02).
 */
const runsService = /\b(?:startServer|createRuntime|buildApp)\(|EMBEDDED_WORKERS/;
const integration = byIsolation('test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/live/**/*.test.ts');
const integrationShared = integration.shared.filter((file) => file !== fuzz && !runsService.test(readFileSync(file, 'utf8')));
const integrationIsolated = [...integration.isolated, ...integration.shared].filter((file) => file !== fuzz && !integrationShared.includes(file)).sort();
// A contract file builds the whole app (every route and schema) in its hooks: on two shared
// cores that can take longer than vitest's 5 s/10 s defaults without anything being wrong.
const contractTimeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
const integrationTimeouts = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: workers,
    minWorkers: workers,
    poolOptions: { threads: { isolate: false, maxThreads: workers, minThreads: workers } },
    sequence: { sequencer: DurationSequencer },
    projects: [
      { test: { name: 'unit', setupFiles, include: unit.shared, ...shared } },
      { test: { name: 'unit-isolated', setupFiles, include: unit.isolated } },
      { test: { name: 'contract', setupFiles, include: contract.shared, ...shared, ...contractTimeouts } },
      { test: { name: 'contract-isolated', setupFiles, include: contract.isolated, ...contractTimeouts } },
      { test: { name: 'ports', setupFiles, include: ['test/ports/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'integration', setupFiles, include: integrationShared, ...shared, ...integrationTimeouts } },
      { test: { name: 'integration-isolated', setupFiles, include: integrationIsolated, ...integrationTimeouts } },
      { test: { name: 'fuzz', setupFiles, include: [fuzz], ...integrationTimeouts } },
      {
        test: {
          name: 'fault',
          setupFiles,
          include: ['test/integration/**/*.fault.test.ts'],
          ...serial,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'browser',
          setupFiles,
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/build-dashboard.ts'],
          ...serial,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
