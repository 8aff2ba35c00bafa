import type {
  LlmErrorsReport,
  LlmLatencyReport,
  LlmOverviewReport,
  LlmPromptCacheReport,
  LlmPromptCacheUsage,
  LlmProviderUsage,
  LlmUsageReport,
} from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';

/**
 * Response bodies of /analytics/llm/* (no 1.4.x counterpart; snake_case like the payment
 * analytics), typed from schemas/http/analytics/llm-*.json, which also serialise the responses and
 * document them in OpenAPI. Money is USD; times are milliseconds.
 */
export type { LlmErrorsReport, LlmLatencyReport, LlmOverviewReport, LlmPromptCacheReport, LlmUsageReport };

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

/**
 * The overview's `prompt_cache`: the prompt-cache totals (a row of the prompt-cache reads, see
 * {@link promptCacheTotalsOf}) without the costs and token counts the overview states itself.
 */
export function overviewPromptCacheOf(row: Readonly<Record<string, Numeric>> | undefined): LlmOverviewReport['prompt_cache'] {
  const { calls, input_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, cache_hit_rate, saved_usd } = promptCacheTotalsOf(row);
  return { calls, input_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, cache_hit_rate, saved_usd };
}

/** The prompt-cache sums of a call group (everything of `LlmPromptCacheUsage` but the key, provider and model). */
export type PromptCacheTotals = Omit<LlmPromptCacheUsage, 'api_key_id' | 'provider' | 'model'>;

/**
 * A prompt-cache row as the reads sum it: the counts, the hit rate (cache-read tokens over every
 * input token: the share of the prompt the provider did not process again) and the money, to a
 * millionth of a dollar (saved may be negative: cache writes cost more than input on Anthropic).
 */
export function promptCacheTotalsOf(row: Readonly<Record<string, Numeric>> | undefined): PromptCacheTotals {
  const inputTokens = num(row?.['input_tokens']);
  const cacheReadTokens = num(row?.['cache_read_tokens']);
  return {
    calls: num(row?.['calls']),
    input_tokens: inputTokens,
    output_tokens: num(row?.['output_tokens']),
    cache_read_tokens: cacheReadTokens,
    cache_write_tokens: num(row?.['cache_write_tokens']),
    cache_write_1h_tokens: num(row?.['cache_write_1h_tokens']),
    reasoning_tokens: num(row?.['reasoning_tokens']),
    cache_hit_rate: Math.min(1, rate(cacheReadTokens, inputTokens)),
    cost_usd: usd(row?.['cost_usd']),
    saved_usd: usd(row?.['saved_usd']),
  };
}
