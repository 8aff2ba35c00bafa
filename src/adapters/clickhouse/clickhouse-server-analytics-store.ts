import type { AnalyticsStore } from '../../ports/analytics-store.js';
import { createClickHouseAnalyticsStore, type ClickHouseAnalyticsStoreOptions } from './clickhouse-analytics-store.js';
import { createClickHouseServerExecutor, type ClickHouseServerExecutorOptions } from './clickhouse-server-executor.js';

/** The distributed-mode analytics store: a ClickHouse server at `url` (config `clickhouseUrl`). */
export function createClickHouseServerAnalyticsStore(options: ClickHouseServerExecutorOptions & ClickHouseAnalyticsStoreOptions): AnalyticsStore {
  return createClickHouseAnalyticsStore(createClickHouseServerExecutor(options), options);
}
