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
 * Parallelism (issue 35): every file runs in a child process of its own (vitest's `forks` pool,
 * isolated), and files of unit, contract, ports and integration run side by side in `maxWorkers`
 * processes: more than the cores, because most of a file's time is waiting on a server (Kafka
 * rebalances, ClickHouse inserts, child processes starting), not CPU. That is safe because every file
 * keeps to its own namespace: a unique Redis key prefix, Kafka topic prefix and consumer groups, a
 * ClickHouse database, chDB and data directories under mkdtemp, ports from the OS (`listen(0)`) and
 * environment changes only in its own process. A file that needs a fixed port or a shared server to
 * itself does not belong here. fault and browser files run one at a time in a single process
 * (`singleFork`), after the parallel ones: scripts/run-tests.sh gives each a vitest run of its own and
 * runs them side by side, with the fuzz run (niced). browser files are isolated (their own service on
 * a free port, data directory and chromium) and use no shared server, but their 30 s Playwright waits
 * timed out beside three busy files of the parallel run; the fault files beside them mostly wait.
 * `maxWorkers` sizes the forks pool for the whole run (vitest does not take it per project), and the
 * threads pool below is half of it; SWITCHYARD_TEST_WORKERS overrides it (1: one process and one
 * thread, so at most two files at once). Files start longest first (test/duration-sequencer.ts),
 * so the run does not end on one long file that started last.
 *
 * Unit and contract files share their workers: a worker runs one file after another on the modules
 * it has loaded, where a fresh worker per file loads the whole app again (about 1.1 s per contract
 * file on an idle machine, 3.3 s in a full run). They run in vitest's `threads` pool, every other
 * project in `forks`: vitest 3.2 decides whether a pool reuses its workers from the root's
 * `poolOptions.<pool>.isolate`, never a project's, so a project's `isolate: false` alone changed
 * nothing (every file still got a process of its own; checked by process id), and the root's
 * `forks.isolate: false` would also put the integration files, which need a process each, into
 * shared ones. (In the threads pool the 46 integration files that start no service of their own
 * took 113 CPU-s instead of 245, but a full run there failed three of them on time limits: MCP
 * stdio handshakes past 5 s and 502s under 200 parallel calls; 2026-12-02.) A file that cannot
 * share runs in the `-isolated` project beside it: {@link needsOwnProcess}. `minWorkers` equals
 * `maxWorkers` because vitest 3.2 with shared workers failed the run with "Terminating worker
 * thread" when it let an idle one go. The shared pool has
 * `sharedWorkers` threads beside the forks pool's `workers` processes; the two pools run at once.
 */
const workers = Number(process.env['SWITCHYARD_TEST_WORKERS'] ?? Math.max(4, availableParallelism() * 2));
if (!Number.isInteger(workers) || workers < 1) throw new Error(`SWITCHYARD_TEST_WORKERS must be a whole number ≥ 1, got ${process.env['SWITCHYARD_TEST_WORKERS']}`);
const serial = { poolOptions: { forks: { singleFork: true } } };
/** Threads for the unit and contract files (see above): half the workers, rounded up. */
const sharedWorkers = Math.ceil(workers / 2);
/** The unit and contract projects: one pool of reused worker threads (`isolate` is read from the root's poolOptions). */
const shared = { pool: 'threads', isolate: false } as const;
/** Every project's setup file: each file's CPU time for the end-of-run report (test/setup/file-cpu.ts). */
const setupFiles = ['test/setup/file-cpu.ts'];

/**
 * Whether a test file must run in a process of its own: chDB binds one data folder per process (a
 * second file's folder is refused), so a file that opens chDB itself or through a helper with a
 * folder of its own does; `vi.mock` replaces a module, and a stubbed or assigned environment
 * variable or global stays so, for every file that shares the process. The files whose chDB is
 * test/helpers/chdb-analytics.ts's are {@link chdbContract}.
 */
const needsOwnProcess =
  /createChdb|ChdbExecutor|from 'chdb'|tenant-fuzz\/world|analytics-engines|\bvi\.(?:mock|doMock|stubEnv|stubGlobal)\(|process\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/;

/** The test files under these folders, sorted. */
function testFiles(...folders: string[]): string[] {
  return folders.flatMap((folder) => globSync(`${folder}/**/*.test.ts`)).sort();
}

/**
 * Test files split into those that share processes and those that need their own: by
 * {@link needsOwnProcess}, and by `alsoAlone` (a file's path and text) where a project asks more.
 */
function byIsolation(files: readonly string[], alsoAlone: (file: string, text: string) => boolean = () => false) {
  const shared: string[] = [];
  const isolated: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    (needsOwnProcess.test(text) || alsoAlone(file, text) ? isolated : shared).push(file);
  }
  return { shared, isolated } as const;
}

const unit = byIsolation(testFiles('test/unit'));
const contract = byIsolation(testFiles('test/contract'));
/**
 * Contract files whose chDB store is test/helpers/chdb-analytics.ts's (a database each in one folder
 * per process): project `contract-chdb`, run by scripts/run-tests.sh beside the main run in one
 * reused process, one file after another, so the app and chDB load once for all 18 instead of once
 * per file in a process of its own (191 CPU-s for the 21 files of contract-isolated, 2026-12-02).
 * One after another because chDB sessions of two threads on one folder are not safe: when one
 * closed, the other's inserts hung (chdb 3.4.0).
 */
const chdbContract = contract.shared.filter((file) => readFileSync(file, 'utf8').includes('openChdbAnalytics'));
/** The OpenAPI fuzz test: a run of its own after the parallel files (scripts/run-tests.sh). */
const fuzz = 'test/integration/openapi-fuzz.test.ts';
/**
 * Integration files that must not share a process even with the others' modules loaded: besides
 * {@link needsOwnProcess}, a file that starts child processes or stdio MCP servers (their start-up
 * waits are timed, and were missed in a shared worker) or makes 200 parallel gateway calls (502s
 * there; both 2026-12-02, in the threads pool), the OpenTelemetry files (a tracer provider is
 * registered process-wide) and the live provider calls (test/live: skipped without their API keys,
 * and with them, waiting on the providers, they would hold up the files behind them).
 */
const integrationAlone = /node:child_process|switchyard-process|StdioClientTransport|mcp-test-helpers|stdio|@opentelemetry|length: 200\b/;
/**
 * The rest share: scripts/run-tests.sh runs project `integration-shared` beside the main run in two
 * reused processes (`forks.isolate=false`), each file after another on the modules its process has
 * loaded, where a process per file loaded the app again for every one of them.
 */
const integration = byIsolation(
  testFiles('test/integration', 'test/e2e', 'test/live').filter((file) => !file.endsWith('.fault.test.ts') && file !== fuzz),
  (file, text) => integrationAlone.test(text) || /\/(otel|live)\/|telemetry/.test(file),
);
// A contract file builds the whole app (every route and schema) in its hooks: on two shared
// cores that can take longer than vitest's 5 s/10 s defaults without anything being wrong.
const contractTimeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
/** Integration and fuzz files wait on real servers and child processes: Kafka rebalances, ClickHouse inserts. */
const integrationTimeouts = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: workers,
    minWorkers: workers,
    poolOptions: { threads: { isolate: false, maxThreads: sharedWorkers, minThreads: sharedWorkers } },
    sequence: { sequencer: DurationSequencer },
    projects: [
      { test: { name: 'unit', setupFiles, include: unit.shared, ...shared } },
      { test: { name: 'unit-isolated', setupFiles, include: unit.isolated } },
      {
        test: { name: 'contract', setupFiles, include: contract.shared.filter((file) => !chdbContract.includes(file)), ...shared, ...contractTimeouts },
      },
      { test: { name: 'contract-chdb', setupFiles, include: chdbContract, ...contractTimeouts } },
      { test: { name: 'contract-isolated', setupFiles, include: contract.isolated, ...contractTimeouts } },
      { test: { name: 'ports', setupFiles, include: ['test/ports/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          setupFiles,
          include: integration.isolated,
          ...integrationTimeouts,
        },
      },
      { test: { name: 'integration-shared', setupFiles, include: integration.shared, ...integrationTimeouts } },
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
