import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { describeAnalyticsStore } from './analytics-store.suite.js';

// The server from deploy/local (or CI). No skip when it is down: the suite must fail then.
const url = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';

describeAnalyticsStore(`ClickHouse server at ${url}`, async () => {
  const executor = createClickHouseServerExecutor({ url });
  const database = `switchyard_test_${randomBytes(6).toString('hex')}`;
  const store = createClickHouseAnalyticsStore(executor, { database });
  return {
    store,
    executor,
    database,
    teardown: async () => {
      await executor.command(`DROP DATABASE IF EXISTS ${database}`);
      await store.close();
    },
  };
});

describe('ClickHouse server executor', () => {
  it('reports unreachable servers as retryable SY_ANALYTICS_UNAVAILABLE and ping false', async () => {
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    const executor = createClickHouseServerExecutor({ url: 'http://127.0.0.1:9', requestTimeoutMs: 2_000 });
    const store = createClickHouseAnalyticsStore(executor, { database: 'unused' });
    expect(await store.ping()).toBe(false);
    const failure = await executor.query('SELECT 1').catch((error: unknown) => error);
    expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_ANALYTICS_UNAVAILABLE');
    expect(SwitchyardError.isInstance(failure) && failure.isRetryable).toBe(true);
    await store.close();
  });
});
