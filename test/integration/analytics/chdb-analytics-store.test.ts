import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChdbExecutor } from '../../../src/adapters/chdb/chdb-executor.js';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { createEvent } from '../../../src/events/event-envelope.js';
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
      const running = executor.query<{ total: number }>('SELECT sum(number % 7) AS total FROM numbers(200000000)').finally(() => {
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

  it('inserts a 20,000-row batch (two tables) while the event loop keeps turning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-'));
    const executor = createChdbExecutor({ path: dir });
    const store = createClickHouseAnalyticsStore(executor, { database: 'switchyard_analytics' });
    try {
      await store.migrate();
      const base = Date.UTC(2026, 10, 20, 12, 0, 0);
      const events = Array.from({ length: 20_000 }, (_, index) =>
        createEvent(
          'api.requested',
          'm_big_batch',
          {
            requestId: `req_${index}`,
            flowType: 'decide_gateway',
            apiFlow: 'dynamic_routing',
            route: '/decide-gateway',
            method: 'POST',
            statusCode: 200,
            latencyMs: index % 50,
            paymentId: `pay_${index}`,
            errorCode: null,
            errorMessage: null,
            userAgent: 'bench',
          },
          base + index,
        ),
      );
      const rows = mapEventsToAnalyticsRows(events);
      let done = false;
      const inserting = store.insert(rows).finally(() => {
        done = true;
      });
      let turns = 0;
      while (!done) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns++;
      }
      await inserting;
      // Encoded 2,000 rows at a time per table (two tables here) with a yield in between, then parsed in the worker.
      expect(turns).toBeGreaterThan(10);
      const [counts] = await executor.query<{ api: number; hits: number }>(
        `SELECT (SELECT count() FROM switchyard_analytics.analytics_api_events FINAL) AS api, (SELECT count() FROM switchyard_analytics.analytics_domain_events FINAL) AS hits`,
      );
      expect(counts).toEqual({ api: 20_000, hits: 20_000 });
    } finally {
      await store.close();
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
