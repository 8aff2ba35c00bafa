import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChdbExecutor } from '../../../src/adapters/chdb/chdb-executor.js';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { describeAnalyticsStore } from './analytics-store.suite.js';

// chDB binds one data folder per process: each block below opens its own and closes it before the next.

describeAnalyticsStore('chDB (worker thread, temp folder)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-'));
  const executor = createChdbExecutor({ path: dir });
  const database = 'switchyard_analytics';
  const store = createClickHouseAnalyticsStore(executor, { database });
  return {
    store,
    executor,
    database,
    teardown: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('chDB executor', () => {
  it('keeps the event loop turning while a query runs in the worker', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-'));
    const executor = createChdbExecutor({ path: dir });
    try {
      let done = false;
      // Heavy enough to take a noticeable time (hundreds of ms) inside the engine.
      const running = executor
        .query<{ total: number }>('SELECT sum(number % 7) AS total FROM numbers(200000000)')
        .finally(() => {
          done = true;
        });
      let turns = 0;
      while (!done) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns++;
      }
      expect(await running).toEqual([{ total: 599_999_994 }]);
      expect(turns).toBeGreaterThan(10);
    } finally {
      await executor.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses work after close with SY_ANALYTICS_UNAVAILABLE', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-'));
    const executor = createChdbExecutor({ path: dir });
    await executor.query('SELECT 1 AS ok');
    await executor.close();
    const failure = await executor.query('SELECT 1').catch((error: unknown) => error);
    expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_ANALYTICS_UNAVAILABLE');
    await rm(dir, { recursive: true, force: true });
  });
});
