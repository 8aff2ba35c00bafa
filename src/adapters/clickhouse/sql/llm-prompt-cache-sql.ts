import { windowWhere } from './domain-filters-sql.js';
import { withCallApi } from './llm-sql.js';

/**
 * Reads over `analytics_llm_call_usage` (migration 0009) for /analytics/llm/prompt-cache: every call
 * that reached a provider in the window, counted once per event id (`LIMIT 1 BY event_id`, the
 * earliest copy, for the reason llm-sql.ts gives), with the {api} filter of the other model-call
 * reads (`withCallApi`). The table repeats the call's tokens and cost, so the cache hit rate
 * (cache-read over input tokens) and the savings come from one row per call, no join of the calls.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s}, {api:String}
 * Outputs:
 *   llmPromptCacheTotalsSql: one row { calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
 *                            cache_write_1h_tokens, reasoning_tokens, cost_usd, saved_usd }
 *   llmPromptCacheUsageSql:  the same sums per { api_key_id, provider, model }, the dearest first (cost, then
 *                            key, provider, model)
 */

const llmCallUsage = '{database:Identifier}.analytics_llm_call_usage';

const usageOnce = withCallApi(`(SELECT * FROM ${llmCallUsage}
  WHERE ${windowWhere}
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`);

const cacheSums = `count() AS calls,
  sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens,
  sum(cache_read_tokens) AS cache_read_tokens,
  sum(cache_write_tokens) AS cache_write_tokens,
  sum(cache_write_1h_tokens) AS cache_write_1h_tokens,
  sum(reasoning_tokens) AS reasoning_tokens,
  sum(cost_usd) AS cost_usd,
  sum(prompt_cache_saved_usd) AS saved_usd`;

export const llmPromptCacheTotalsSql = `SELECT ${cacheSums}
FROM ${usageOnce}`;

export const llmPromptCacheUsageSql = `SELECT api_key_id, provider, model, ${cacheSums}
FROM ${usageOnce}
GROUP BY api_key_id, provider, model
ORDER BY cost_usd DESC, api_key_id, provider, model`;
