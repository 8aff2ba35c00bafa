import type { AnalyticsStore } from '../../ports/analytics-store.js';
import { createClickHouseAnalyticsStore, type ClickHouseAnalyticsStoreOptions } from '../clickhouse/clickhouse-analytics-store.js';
import { createChdbExecutor, type ChdbExecutorOptions } from './chdb-executor.js';

/**
 * The embedded-mode analytics store: chDB persisted under `path` (e.g. `<dataDir>/chdb`), run in a
 * worker thread. Same SQL and same answers as the ClickHouse server store.
 *
 * @remarks One per process: chDB binds a single data folder per process.
 */
export function createChdbAnalyticsStore(options: ChdbExecutorOptions & ClickHouseAnalyticsStoreOptions): AnalyticsStore {
  return createClickHouseAnalyticsStore(createChdbExecutor(options), options);
}
