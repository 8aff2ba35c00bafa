import { windowWhere } from './domain-filters-sql.js';

/**
 * Reads over `analytics_llm_calls` for /analytics/llm/*, each over the window's calls counted once
 * per event id (`LIMIT 1 BY event_id`, the earliest copy). FINAL is not enough here: it collapses
 * rows only when the whole sorting key (merchant, created_at_ms, event id) matches and both sit in
 * one daily partition, but a batch job run again after a crash republishes its record under the
 * same derived id at a later time. LIMIT BY runs the same on ClickHouse 18.16 and chDB.
 * Empty aggregates are guarded with `if(count() = 0, 0, …)`: avg and quantiles of no rows are NaN,
 * which neither engine writes as valid JSON.
 *
 * Each call carries the API it came through from `analytics_llm_call_apis` (migration 0006), joined
 * by event id (ANY LEFT JOIN of subqueries with aliases, the form both ClickHouse 18.16 and chDB
 * run; a call without a row there reads api ''), and {api} keeps one API's calls ('' = all). The
 * join adds no row, so usage and spend stay counted once per call whatever the split.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s}, {api:String}, plus
 *   llmUsageSql: {bucket:UInt64}; llmErrorsSql: {limit:UInt32}
 * Outputs:
 *   llmTotalsSql:    one row { calls, errors, input_tokens, output_tokens, cost_usd, avg_latency_ms, fallback_calls }
 *   llmProvidersSql: rows { provider, calls, errors, input_tokens, output_tokens, cost_usd }, most calls first
 *   llmApisSql:      rows { api, calls, errors, input_tokens, output_tokens, cost_usd }, most calls first, '' (none recorded) after the named APIs of as many calls
 *   llmUsageSql:     rows { bucket_ms, provider, model, calls, errors, input_tokens, output_tokens, cost_usd }, by time
 *   llmLatencySql:   rows { provider, model, calls, p50_ms, p95_ms, p99_ms, streams, ttft_p50_ms, ttft_p95_ms, ttft_p99_ms }
 *   llmErrorsSql:    rows { error_class, provider, model, count }, most first
 *   llmCacheSql:     one row { cache_hits, cache_input_tokens, cache_output_tokens, saved_cost_usd }
 *                    over `analytics_llm_cache_hits` (migration 0005), counted once per event id the same way
 *   withCallApi(once): the join and the {api} filter over any one-row-per-event-id subquery of these
 *                    tables (also used by llm-route-groups-sql.ts)
 */

export const llmCalls = '{database:Identifier}.analytics_llm_calls';
const llmCallApis = '{database:Identifier}.analytics_llm_call_apis';

/**
 * `once` (a subquery of one row per event id in the window) with each call's `api` column, keeping
 * only the calls of {api} when it names one. The aliases are required by chDB and accepted by 18.16.
 */
export function withCallApi(once: string): string {
  return `(SELECT * FROM ${once} AS calls_once
  ANY LEFT JOIN (SELECT event_id, api FROM ${llmCallApis}
    WHERE ${windowWhere}
    ORDER BY created_at_ms, event_id
    LIMIT 1 BY event_id) AS call_apis USING event_id
  WHERE {api:String} = '' OR api = {api:String})`;
}

/** The merchant's calls in the window, one row per event id (the earliest copy, on both engines alike), with their API. */
const callsOnce = withCallApi(`(SELECT * FROM ${llmCalls}
  WHERE ${windowWhere}
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`);

/** The usage sums every read reports (calls, errors, tokens, cost). */
const usageSums = `count() AS calls,
  countIf(outcome = 'error') AS errors,
  sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens,
  sum(cost_usd) AS cost_usd`;

export const llmTotalsSql = `SELECT ${usageSums},
  if(count() = 0, 0, avg(latency_ms)) AS avg_latency_ms,
  countIf(fallback_hops > 0) AS fallback_calls
FROM ${callsOnce}`;

export const llmProvidersSql = `SELECT provider, ${usageSums}
FROM ${callsOnce}
GROUP BY provider
ORDER BY calls DESC, provider`;

export const llmApisSql = `SELECT api, ${usageSums}
FROM ${callsOnce}
GROUP BY api
ORDER BY calls DESC, api = '', api`;

export const llmUsageSql = `SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, provider, model, ${usageSums}
FROM ${callsOnce}
GROUP BY bucket_ms, provider, model
ORDER BY bucket_ms, provider, model`;

export const llmLatencySql = `SELECT provider, model, count() AS calls,
  quantileExact(0.5)(latency_ms) AS p50_ms,
  quantileExact(0.95)(latency_ms) AS p95_ms,
  quantileExact(0.99)(latency_ms) AS p99_ms,
  countIf(has_ttft = 1) AS streams,
  if(countIf(has_ttft = 1) = 0, 0, quantileExactIf(0.5)(ttft_ms, has_ttft = 1)) AS ttft_p50_ms,
  if(countIf(has_ttft = 1) = 0, 0, quantileExactIf(0.95)(ttft_ms, has_ttft = 1)) AS ttft_p95_ms,
  if(countIf(has_ttft = 1) = 0, 0, quantileExactIf(0.99)(ttft_ms, has_ttft = 1)) AS ttft_p99_ms
FROM ${callsOnce}
GROUP BY provider, model
ORDER BY calls DESC, provider, model`;

export const llmErrorsSql = `SELECT error_class, provider, model, count() AS count
FROM ${callsOnce}
WHERE outcome = 'error'
GROUP BY error_class, provider, model
ORDER BY count DESC, error_class, provider, model
LIMIT {limit:UInt32}`;

const llmCacheHits = '{database:Identifier}.analytics_llm_cache_hits';

export const llmCacheSql = `SELECT count() AS cache_hits,
  sum(input_tokens) AS cache_input_tokens,
  sum(output_tokens) AS cache_output_tokens,
  sum(saved_cost_usd) AS saved_cost_usd
FROM ${withCallApi(`(SELECT * FROM ${llmCacheHits}
  WHERE ${windowWhere}
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`)}`;
