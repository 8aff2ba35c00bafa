import type { AnalyticsRows } from '../../ports/analytics/analytics-rows.js';
import {
  apiEventColumns,
  decisionPolicyColumns,
  domainEventColumns,
  guardOutcomeColumns,
  llmCacheHitColumns,
  llmCallApiColumns,
  llmCallEndUserColumns,
  llmCallColumns,
  llmCallUsageColumns,
  llmRouteCallColumns,
} from './analytics-insert-columns.js';
import type { InsertColumn } from './encode-tab-separated.js';

const domainTable = 'analytics_domain_events';
const apiTable = 'analytics_api_events';
const llmTable = 'analytics_llm_calls';
const llmRouteTable = 'analytics_llm_route_calls';
const llmCacheHitTable = 'analytics_llm_cache_hits';
const llmCallApiTable = 'analytics_llm_call_apis';
const decisionPolicyTable = 'analytics_decision_policies';
const llmCallUsageTable = 'analytics_llm_call_usage';
const llmCallEndUserTable = 'analytics_llm_call_end_users';
const guardOutcomeTable = 'analytics_llm_guard_outcomes';

export const analyticsTables = [
  domainTable,
  apiTable,
  llmTable,
  llmRouteTable,
  llmCacheHitTable,
  llmCallApiTable,
  decisionPolicyTable,
  llmCallUsageTable,
  llmCallEndUserTable,
  guardOutcomeTable,
] as const;

/** An analytics table's bare name (without its database). */
export type AnalyticsTable = (typeof analyticsTables)[number];

/** The columns each analytics table's inserts write, in order. */
export const analyticsInsertColumns: { readonly [T in AnalyticsTable]: readonly InsertColumn[] } = {
  [domainTable]: domainEventColumns,
  [apiTable]: apiEventColumns,
  [llmTable]: llmCallColumns,
  [llmRouteTable]: llmRouteCallColumns,
  [llmCacheHitTable]: llmCacheHitColumns,
  [llmCallApiTable]: llmCallApiColumns,
  [decisionPolicyTable]: decisionPolicyColumns,
  [llmCallUsageTable]: llmCallUsageColumns,
  [llmCallEndUserTable]: llmCallEndUserColumns,
  [guardOutcomeTable]: guardOutcomeColumns,
};

/** One table's share of a batch: what one insert writes. */
export interface TableRows {
  /** The table's bare name. */
  readonly name: AnalyticsTable;
  /** `<database>.<table>` */
  readonly table: string;
  readonly columns: readonly InsertColumn[];
  readonly rows: readonly object[];
}

/**
 * Where each row of a batch goes: the three event tables, plus the projections a routed, cached
 * or API-attributed model call also lands in (and the key-and-cache-usage row of every call that reached a provider). Tables without rows are left out (no empty inserts).
 */
export function rowsByTable(database: string, batch: AnalyticsRows): TableRows[] {
  const tables: [AnalyticsTable, readonly object[]][] = [
    [domainTable, batch.domain],
    [apiTable, batch.api],
    [llmTable, batch.llm],
    [llmRouteTable, batch.llm.filter((row) => row.route_group !== '')],
    [llmCacheHitTable, batch.llm.filter((row) => row.cache_hit === 1)],
    [llmCallApiTable, batch.llm.filter((row) => row.api !== '')],
    [decisionPolicyTable, batch.policies ?? []],
    [llmCallUsageTable, batch.llm.filter((row) => row.cache_hit === 0)],
    [llmCallEndUserTable, batch.llm.filter((row) => row.end_user !== '')],
    [guardOutcomeTable, batch.guards ?? []],
  ];
  return tables
    .filter(([, rows]) => rows.length > 0)
    .map(([name, rows]) => ({ name, table: `${database}.${name}`, columns: analyticsInsertColumns[name], rows }));
}
