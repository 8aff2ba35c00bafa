import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChdbAnalyticsStore } from '../../src/adapters/chdb/chdb-analytics-store.js';
import { createClickHouseAnalyticsStore } from '../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { createClickHouseServerExecutor } from '../../src/adapters/clickhouse/clickhouse-server-executor.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';

/** The two analytics engines a read is checked on: the ClickHouse server (distributed) and chDB (embedded). */
export const analyticsEngines = ['ClickHouse server', 'chDB'] as const;
export type AnalyticsEngine = (typeof analyticsEngines)[number];

const clickhouseUrl = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';

export interface AnalyticsStoreUnderTest {
  readonly store: AnalyticsStore;
  /** Drops the database (server) or deletes the directory (chDB), closing the store. */
  teardown(): Promise<void>;
}

/**
 * A migrated analytics store on `engine`, in a database no other file shares
 * (`switchyard_<name>_<random>`): on the ClickHouse server at CLICKHOUSE_URL, or in chDB in a new
 * temporary directory (`sytest-<name>-…`). What each read test of both engines sets up in its `beforeAll`.
 */
export async function openAnalyticsStore(engine: AnalyticsEngine, name: string): Promise<AnalyticsStoreUnderTest> {
  const database = `switchyard_${name}_${randomBytes(6).toString('hex')}`;
  let opened: AnalyticsStoreUnderTest;
  if (engine === 'chDB') {
    const dir = mkdtempSync(join(tmpdir(), `sytest-${name}-`));
    const store = createChdbAnalyticsStore({ path: dir, database });
    opened = {
      store,
      async teardown() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } else {
    const executor = createClickHouseServerExecutor({ url: clickhouseUrl });
    const store = createClickHouseAnalyticsStore(executor, { database });
    opened = {
      store,
      async teardown() {
        await executor.command(`DROP DATABASE IF EXISTS ${database}`);
        await store.close();
      },
    };
  }
  try {
    await opened.store.migrate();
  } catch (error) {
    await opened.teardown();
    throw error;
  }
  return opened;
}
