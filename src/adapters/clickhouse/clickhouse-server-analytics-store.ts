import type { CostRowStore } from '../../ports/analytics/cost-rows.js';
import { createClickHouseCostRowStore } from './clickhouse-cost-row-store.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import { createClickHouseAnalyticsStore, type ClickHouseAnalyticsStoreOptions } from './clickhouse-analytics-store.js';
import { createClickHouseServerExecutor, type ClickHouseServerExecutorOptions } from './clickhouse-server-executor.js';

/** The distributed-mode analytics store: a ClickHouse server at `url` (config `clickhouseUrl`). */
export function createClickHouseServerAnalyticsStore(options: ClickHouseServerExecutorOptions & ClickHouseAnalyticsStoreOptions): AnalyticsStore {
  return createClickHouseAnalyticsStore(createClickHouseServerExecutor(options), options);
}

/** Cost ingestion's raw rows on a ClickHouse server (its own HTTP client, closed with the store). */
export function createClickHouseServerCostRowStore(options: ClickHouseServerExecutorOptions & { readonly database: string }): CostRowStore {
  // The cost rows table is created by the analytics store's migrations (in cluster form when `cluster` is set).
  return createClickHouseCostRowStore(createClickHouseServerExecutor(options), { database: options.database, ownsExecutor: true });
}
