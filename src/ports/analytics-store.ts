/**
 * Analytics rows written by the analytics-sink worker and read by /analytics/*.
 * One SQL dialect serves ClickHouse server (18.16) and chDB (26.x); see schemas/clickhouse/.
 *
 * @remarks Owned by the event-spine issue; this file is its contract.
 */
export interface AnalyticsStore {
  /** Applies schemas/clickhouse migrations in order; safe to call on every start. */
  migrate(): Promise<void>;
  /** Pings the engine; false when it cannot answer. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
