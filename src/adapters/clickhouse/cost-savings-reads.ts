import { analyticsFlows } from '../../analytics/analytics-flows.js';
import { shapeCostSavingsReport } from '../../analytics/shape-cost-savings-report.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { ParsedAnalyticsQuery } from '../../ports/analytics/analytics-query.js';
import type { CostSavingsFact } from '../../ports/analytics/cost-savings.js';
import type { SqlValue } from './bind-sql.js';
import { costSavingsSql } from './sql/cost-savings-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;
type Row = Readonly<Record<string, string | number | null>>;

/** Where the cost-aware post-step's mark starts in a decision's `details` (see sql/cost-savings-sql.ts). */
const markKey = '"multiObjective":{';

/**
 * The cost-savings read over any ClickHouse executor (server or chDB), same SQL for both.
 * `filters` binds the query's window and filters (domain-filter-params.ts); the currency filter is
 * left to the report, which also needs the other currencies' rows for its currency list.
 */
export function costSavingsReads(read: Read, filters: (query: ParsedAnalyticsQuery) => Record<string, SqlValue>): Pick<AnalyticsStore, 'costSavings'> {
  return {
    async costSavings(query, reporting) {
      const rows = await read<Row>(costSavingsSql, {
        ...filters(query),
        f_currency: '',
        decision_flow: analyticsFlows.decision,
        mark_key: markKey,
      });
      return shapeCostSavingsReport(query, rows.map(factOf), reporting);
    },
  };
}

/** Numbers as numbers: the server may answer 64-bit integers as strings. */
function factOf(row: Row): CostSavingsFact {
  const n = (key: string) => {
    const value = Number(row[key] ?? 0);
    return Number.isFinite(value) ? value : 0;
  };
  return {
    currency: String(row['currency'] ?? ''),
    bucketMs: n('bucket_ms'),
    inFilters: n('in_filters') === 1,
    decisions: n('decisions'),
    costWon: n('cost_won'),
    savedDecisions: n('saved_decisions'),
    savedValue: n('saved_value'),
    netValue: n('net_value'),
    approvalsLost: n('approvals_lost'),
    netKnownDecisions: n('net_known'),
  };
}
