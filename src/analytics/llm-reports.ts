import type { LlmErrorsReport, LlmLatencyReport, LlmOverviewReport, LlmProviderUsage, LlmUsageReport } from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';

/**
 * Response bodies of /analytics/llm/* (no 1.4.x counterpart; snake_case like the payment
 * analytics), typed from schemas/http/analytics/llm-*.json, which also serialise the responses and
 * document them in OpenAPI. Money is USD; times are milliseconds.
 */
export type { LlmErrorsReport, LlmLatencyReport, LlmOverviewReport, LlmUsageReport };

interface LlmWindow {
  readonly merchant_id: string;
  readonly start_ms: number;
  readonly end_ms: number;
}

/** The usage sums every report carries (calls, errors, tokens, cost). */
export type LlmUsageTotals = Omit<LlmProviderUsage, 'provider'>;

/** Rows as the engines return them (numbers, possibly as numeric strings from older servers). */
export type Numeric = number | string;

export function windowOf(query: ParsedAnalyticsQuery): LlmWindow {
  return { merchant_id: query.merchantId, start_ms: query.startMs, end_ms: query.endMs };
}

export function num(value: Numeric | null | undefined): number {
  const parsed = Number(value ?? 0);
  return Number.isFinite(parsed) ? parsed : 0;
}

/** Money to a millionth of a dollar: sums of floats otherwise differ in the last digits between engines. */
export function usd(value: Numeric | null | undefined): number {
  return Math.round(num(value) * 1_000_000) / 1_000_000;
}

export function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

export function totalsOf(row: Readonly<Record<string, Numeric>> | undefined): LlmUsageTotals {
  return {
    calls: num(row?.['calls']),
    errors: num(row?.['errors']),
    input_tokens: num(row?.['input_tokens']),
    output_tokens: num(row?.['output_tokens']),
    cost_usd: usd(row?.['cost_usd']),
  };
}

/**
 * The overview's response-cache fields: hits in the window, their share of the calls (hits are
 * calls too), the tokens served from the cache and what they would have cost at the registry's
 * price when served (an estimate: the price of the hit's day, not of the call that was cached).
 */
export function cacheTotalsOf(
  row: Readonly<Record<string, Numeric>> | undefined,
  calls: number,
): Pick<LlmOverviewReport, 'cache_hits' | 'cache_hit_rate' | 'cache_tokens' | 'cache_saved_cost_usd'> {
  const hits = num(row?.['cache_hits']);
  return {
    cache_hits: hits,
    cache_hit_rate: rate(hits, calls),
    cache_tokens: num(row?.['cache_input_tokens']) + num(row?.['cache_output_tokens']),
    cache_saved_cost_usd: usd(row?.['saved_cost_usd']),
  };
}
