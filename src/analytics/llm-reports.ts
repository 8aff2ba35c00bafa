import type { LlmErrorsReport, LlmLatencyReport, LlmOverviewReport, LlmProviderUsage, LlmUsageReport } from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from './analytics-query.js';

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
  return { calls: num(row?.['calls']), errors: num(row?.['errors']), input_tokens: num(row?.['input_tokens']), output_tokens: num(row?.['output_tokens']), cost_usd: usd(row?.['cost_usd']) };
}
