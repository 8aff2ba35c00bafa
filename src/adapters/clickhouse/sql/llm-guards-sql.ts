import { windowWhere } from './domain-filters-sql.js';

/**
 * Reads over `analytics_llm_guard_outcomes` (migration 0011) for /analytics/llm/guards, each over the
 * window's outcomes counted once per event id (`LIMIT 1 BY event_id`, the earliest copy: a retried
 * batch writes the same event twice), with the read's filters: {api_key_id} one key ('' = every key),
 * {route_group} one route group ('' = every call), {surfaces} the surfaces of one API ([] = every
 * surface). Never the matched text: the table has none.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s},
 *   {api_key_id:String} {route_group:String} {surfaces:Array(String)}, plus
 *   llmGuardSeriesSql: {bucket:UInt64}; llmGuardRowsSql and llmGuardKeysSql: {limit:UInt32}
 * Outputs:
 *   llmGuardTotalsSql: one row { outcomes, found, blocked, masked, logged, refused_calls, calls }
 *   llmGuardRowsSql:   rows { guard, stage, action, outcomes, found, refused_calls, max_score }, most outcomes first
 *   llmGuardKeysSql:   rows { api_key_id, guard, outcomes, found, blocked, masked, logged, refused_calls }, by key then most outcomes
 *   llmGuardSeriesSql: rows { bucket_ms, outcomes, blocked, masked, logged }, by time
 * `blocked`, `masked`, `logged` count outcomes by their guard's action; `refused_calls` the outcomes
 * that refused their call (one per refused call); `calls` the distinct requests with an outcome
 * (outcomes without a request id each count as one). `max_score` is -1 when no outcome had a score
 * (a Nullable aggregate of no value answers differently on the two engines).
 */

const guardOutcomes = '{database:Identifier}.analytics_llm_guard_outcomes';

const outcomesOnce = `(SELECT * FROM ${guardOutcomes}
  WHERE ${windowWhere}
    AND ({api_key_id:String} = '' OR api_key_id = {api_key_id:String})
    AND ({route_group:String} = '' OR route_group = {route_group:String})
    AND (length({surfaces:Array(String)}) = 0 OR has({surfaces:Array(String)}, surface))
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`;

const actionCounts = `countIf(action = 'block') AS blocked,
  countIf(action = 'mask') AS masked,
  countIf(action = 'log') AS logged`;

export const llmGuardTotalsSql = `SELECT count() AS outcomes,
  sum(found) AS found,
  ${actionCounts},
  sum(refused) AS refused_calls,
  uniqExact(if(request_id = '', event_id, request_id)) AS calls
FROM ${outcomesOnce}`;

export const llmGuardRowsSql = `SELECT guard, stage, action,
  count() AS outcomes,
  sum(found) AS found,
  sum(refused) AS refused_calls,
  max(ifNull(score, -1)) AS max_score
FROM ${outcomesOnce}
GROUP BY guard, stage, action
ORDER BY outcomes DESC, guard, stage, action
LIMIT {limit:UInt32}`;

export const llmGuardKeysSql = `SELECT api_key_id, guard,
  count() AS outcomes,
  sum(found) AS found,
  ${actionCounts},
  sum(refused) AS refused_calls
FROM ${outcomesOnce}
GROUP BY api_key_id, guard
ORDER BY api_key_id = '', api_key_id, outcomes DESC, guard
LIMIT {limit:UInt32}`;

export const llmGuardSeriesSql = `SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms,
  count() AS outcomes,
  ${actionCounts}
FROM ${outcomesOnce}
GROUP BY bucket_ms
ORDER BY bucket_ms`;
