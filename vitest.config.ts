import { defineConfig } from 'vitest/config';

/**
 * Projects: unit (pure), contract (HTTP via inject on buildApp), ports (shared port suites against
 * every adapter), integration (real Redis, Kafka, ClickHouse, chDB) and fault (stops and starts the
 * shared servers, so its files run one at a time after the rest) and browser (the dashboard in
 * Debian's chromium against the embedded service; builds the dashboard first).
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // A contract file builds the whole app (every route and schema) in its hooks: on two shared
      // cores that can take longer than vitest's 5 s/10 s defaults without anything being wrong.
      { test: { name: 'contract', include: ['test/contract/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { name: 'ports', include: ['test/ports/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/live/**/*.test.ts'],
          exclude: ['test/integration/**/*.fault.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'fault',
          include: ['test/integration/**/*.fault.test.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/build-dashboard.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
