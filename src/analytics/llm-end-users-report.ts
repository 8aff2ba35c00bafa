import type { LlmEndUsersReport } from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { num, usd, windowOf, type Numeric } from './llm-reports.js';

/** Most end-user rows one report lists (the dearest first). */
export const llmEndUserLimit = 200;

/** One end user and key's sums as the engines return them (llm-end-users-sql.ts). */
export interface EndUserFact {
  readonly end_user: string;
  readonly api_key_id: string;
  readonly calls: Numeric;
  readonly errors: Numeric;
  readonly cache_hits: Numeric;
  readonly input_tokens: Numeric;
  readonly output_tokens: Numeric;
  readonly cost_usd: Numeric;
  readonly last_call_ms: Numeric;
}

/** GET /analytics/llm/end-users: the rows as the read ordered them, money to a millionth. */
export function endUsersReportOf(query: ParsedAnalyticsQuery, rows: readonly EndUserFact[]): LlmEndUsersReport {
  return {
    ...windowOf(query),
    end_users: rows.map((row) => ({
      end_user: row.end_user,
      api_key_id: row.api_key_id === '' ? null : row.api_key_id,
      calls: num(row.calls),
      errors: num(row.errors),
      cache_hits: num(row.cache_hits),
      input_tokens: num(row.input_tokens),
      output_tokens: num(row.output_tokens),
      cost_usd: usd(row.cost_usd),
      last_call_ms: num(row.last_call_ms),
    })),
  };
}
