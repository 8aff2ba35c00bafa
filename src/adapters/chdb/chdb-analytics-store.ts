import type { AnalyticsHandoff, AnalyticsStore } from '../../ports/analytics-store.js';
import type { CostRowStore } from '../../ports/analytics/cost-rows.js';
import { createClickHouseCostRowStore } from '../clickhouse/clickhouse-cost-row-store.js';
import { createClickHouseAnalyticsStore, type ClickHouseAnalyticsStoreOptions } from '../clickhouse/clickhouse-analytics-store.js';
import { ChdbExecutor, type ChdbExecutorOptions } from './chdb-executor.js';

/** The embedded store, and the way to hand it events without mapping them on this thread. */
export interface ChdbAnalytics {
  readonly store: AnalyticsStore;
  /** Events go to chDB's worker thread, which maps, batches and inserts them (see AnalyticsHandoff). */
  readonly handoff: AnalyticsHandoff;
  /** Cost ingestion's raw rows, on the same chDB session (one per process). */
  readonly costRows: CostRowStore;
}

/**
 * The embedded-mode analytics store: chDB persisted under `path` (e.g. `<dataDir>/chdb`), run in a
 * worker thread. Same SQL and same answers as the ClickHouse server store.
 *
 * @remarks One per process: chDB binds a single data folder per process.
 */
export function createChdbAnalytics(options: ChdbExecutorOptions & ClickHouseAnalyticsStoreOptions): ChdbAnalytics {
  const executor = new ChdbExecutor(options);
  return {
    store: createClickHouseAnalyticsStore(executor, options),
    handoff: {
      accept: (events) => executor.handOff(options.database, events),
      flush: () => executor.flushHandoffs(),
    },
    costRows: createClickHouseCostRowStore(executor, { database: options.database }),
  };
}

/** The embedded store alone (rows inserted by the caller). */
export function createChdbAnalyticsStore(options: ChdbExecutorOptions & ClickHouseAnalyticsStoreOptions): AnalyticsStore {
  return createChdbAnalytics(options).store;
}
