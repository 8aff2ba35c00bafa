import { windowWhere } from './domain-filters-sql.js';
import { withCallApi } from './llm-sql.js';

/**
 * The read over `analytics_llm_call_end_users` (migration 0010) for /analytics/llm/end-users: the
 * window's calls that named an end user, counted once per event id (`LIMIT 1 BY event_id`, the
 * earliest copy, for the reason llm-sql.ts gives), with the {api} filter of the other model-call
 * reads (`withCallApi`), summed per end user and API key, the dearest first.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s}, {api:String},
 *   {limit:UInt32}
 * Outputs: rows { end_user, api_key_id, calls, errors, cache_hits, input_tokens, output_tokens, cost_usd,
 *   last_call_ms }, by cost descending, then end user and key
 */

const llmCallEndUsers = '{database:Identifier}.analytics_llm_call_end_users';

const endUserCallsOnce = withCallApi(`(SELECT * FROM ${llmCallEndUsers}
  WHERE ${windowWhere}
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`);

export const llmEndUsersSql = `SELECT end_user, api_key_id,
  count() AS calls,
  countIf(outcome = 'error') AS errors,
  sum(cache_hit) AS cache_hits,
  sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens,
  sum(cost_usd) AS cost_usd,
  max(created_at_ms) AS last_call_ms
FROM ${endUserCallsOnce}
GROUP BY end_user, api_key_id
ORDER BY cost_usd DESC, end_user, api_key_id
LIMIT {limit:UInt32}`;
