import { guardFiltersOf, guardsReportOf, llmGuardKeyLimit, llmGuardRowLimit, type GuardFacts } from '../../analytics/llm-guards-report.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { ParsedAnalyticsQuery } from '../../ports/analytics/analytics-query.js';
import type { SqlValue } from './bind-sql.js';
import { llmGuardKeysSql, llmGuardRowsSql, llmGuardSeriesSql, llmGuardTotalsSql } from './sql/llm-guards-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;

/**
 * The guardrail-outcome read (/analytics/llm/guards) over any ClickHouse executor (server or chDB),
 * same SQL for both. `filters` binds the query's window (domain-filter-params.ts); the key, route
 * group and API filters are the report's (llm-guards-report.ts).
 */
export function llmGuardReads(read: Read, filters: (query: ParsedAnalyticsQuery) => Record<string, SqlValue>): Pick<AnalyticsStore, 'llmGuards'> {
  return {
    async llmGuards(query) {
      const params = { ...filters(query), ...guardFiltersOf(query) };
      const [totals, guards, keys, series] = await Promise.all([
        read<GuardFacts['totals'] & object>(llmGuardTotalsSql, params),
        read<GuardFacts['guards'][number]>(llmGuardRowsSql, { ...params, limit: llmGuardRowLimit }),
        read<GuardFacts['keys'][number]>(llmGuardKeysSql, { ...params, limit: llmGuardKeyLimit }),
        read<GuardFacts['series'][number]>(llmGuardSeriesSql, params),
      ]);
      return guardsReportOf(query, { totals: totals[0], guards, keys, series });
    },
  };
}
