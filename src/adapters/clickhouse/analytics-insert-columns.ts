import type { ApiEventRow, DecisionPolicyRow, DomainEventRow, GuardOutcomeRow, LlmCallRow } from '../../ports/analytics/analytics-rows.js';
import type { InsertColumn } from './encode-tab-separated.js';

/**
 * The insert column list of each analytics table (schemas/clickhouse/NNNN_*.sql), derived from the row
 * types so that a field added to a row without its column (or with the wrong kind) fails to compile.
 * Every table also gets `created_at` (DateTime, the partition key) computed from `created_at_ms`.
 */
type KindOf<T> = T extends readonly string[] ? 'stringArray' : null extends T ? 'nullableNumber' : T extends string ? 'string' : 'number';
type Kinds<Row> = { readonly [K in keyof Row]-?: KindOf<Row[K]> };

function withCreatedAt<Row>(kinds: Kinds<Row>): readonly InsertColumn[] {
  const columns = Object.entries(kinds).map(([name, kind]) => ({ name, kind }) as InsertColumn);
  return [...columns, { name: 'created_at', kind: 'secondsOfMs', source: 'created_at_ms' }];
}

/** The names of `columns`, in order, as the insert statement lists them. */
export function columnNames(columns: readonly InsertColumn[]): readonly string[] {
  return columns.map((column) => column.name);
}

/** 0001 analytics_domain_events. */
export const domainEventColumns = withCreatedAt<DomainEventRow>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  api_flow: 'string',
  flow_type: 'string',
  summary_kind: 'string',
  payment_id: 'string',
  request_id: 'string',
  lookup_key: 'string',
  global_request_id: 'string',
  trace_id: 'string',
  payment_method_type: 'string',
  payment_method: 'string',
  card_network: 'string',
  card_is_in: 'string',
  currency: 'string',
  country: 'string',
  auth_type: 'string',
  gateway: 'string',
  event_stage: 'string',
  routing_approach: 'string',
  rule_name: 'string',
  status: 'string',
  error_code: 'string',
  error_message: 'string',
  score_value: 'nullableNumber',
  sigma_factor: 'nullableNumber',
  average_latency: 'nullableNumber',
  tp99_latency: 'nullableNumber',
  transaction_count: 'nullableNumber',
  route: 'string',
  details: 'string',
});

/** 0002 analytics_api_events. */
export const apiEventColumns = withCreatedAt<ApiEventRow>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  request_id: 'string',
  payment_id: 'string',
  api_flow: 'string',
  flow_type: 'string',
  url_path: 'string',
  http_method: 'string',
  status_code: 'number',
  latency_ms: 'number',
  error_code: 'string',
  error_message: 'string',
  user_agent: 'string',
});

/** 0003 analytics_llm_calls: the call without its route-group decision (that is 0004's), cache hit (0005's), API (0006's), key and cache usage (0009's) or end user (0010's). */
export const llmCallColumns = withCreatedAt<
  Omit<
    LlmCallRow,
    | 'route_group'
    | 'route_approach'
    | 'eliminated_candidates'
    | 'cache_hit'
    | 'saved_cost_usd'
    | 'api'
    | 'api_key_id'
    | 'cache_read_tokens'
    | 'cache_write_tokens'
    | 'cache_write_1h_tokens'
    | 'reasoning_tokens'
    | 'prompt_cache_saved_usd'
    | 'end_user'
  >
>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  provider: 'string',
  model: 'string',
  operation: 'string',
  surface: 'string',
  input_tokens: 'number',
  output_tokens: 'number',
  cost_usd: 'number',
  latency_ms: 'number',
  ttft_ms: 'number',
  has_ttft: 'number',
  outcome: 'string',
  error_class: 'string',
  fallback_hops: 'number',
  user_id: 'string',
  request_id: 'string',
  batch_id: 'string',
  job_id: 'string',
});

/** 0004 analytics_llm_route_calls: a call routed in a route group (rows with a route_group only). */
export const llmRouteCallColumns = withCreatedAt<
  Pick<
    LlmCallRow,
    | 'event_id'
    | 'merchant_id'
    | 'created_at_ms'
    | 'route_group'
    | 'provider'
    | 'model'
    | 'operation'
    | 'outcome'
    | 'error_class'
    | 'fallback_hops'
    | 'request_id'
    | 'route_approach'
    | 'eliminated_candidates'
  >
>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  route_group: 'string',
  provider: 'string',
  model: 'string',
  operation: 'string',
  outcome: 'string',
  error_class: 'string',
  fallback_hops: 'number',
  request_id: 'string',
  route_approach: 'string',
  eliminated_candidates: 'stringArray',
});

/** 0005 analytics_llm_cache_hits: a call answered from the gateway's response cache (rows with cache_hit only). */
export const llmCacheHitColumns = withCreatedAt<
  Pick<LlmCallRow, 'event_id' | 'merchant_id' | 'created_at_ms' | 'provider' | 'model' | 'input_tokens' | 'output_tokens' | 'saved_cost_usd' | 'request_id'>
>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  provider: 'string',
  model: 'string',
  input_tokens: 'number',
  output_tokens: 'number',
  saved_cost_usd: 'number',
  request_id: 'string',
});

/** 0006 analytics_llm_call_apis: the API a call came through (rows with an api only). */
export const llmCallApiColumns = withCreatedAt<Pick<LlmCallRow, 'event_id' | 'merchant_id' | 'created_at_ms' | 'api'>>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  api: 'string',
});

/** 0009 analytics_llm_call_usage: a call that reached a provider (rows without cache_hit), its key and its prompt-cache and reasoning usage. */
export const llmCallUsageColumns = withCreatedAt<
  Pick<
    LlmCallRow,
    | 'event_id'
    | 'merchant_id'
    | 'created_at_ms'
    | 'api_key_id'
    | 'provider'
    | 'model'
    | 'input_tokens'
    | 'output_tokens'
    | 'cost_usd'
    | 'cache_read_tokens'
    | 'cache_write_tokens'
    | 'cache_write_1h_tokens'
    | 'reasoning_tokens'
    | 'prompt_cache_saved_usd'
  >
>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  api_key_id: 'string',
  provider: 'string',
  model: 'string',
  input_tokens: 'number',
  output_tokens: 'number',
  cost_usd: 'number',
  cache_read_tokens: 'number',
  cache_write_tokens: 'number',
  cache_write_1h_tokens: 'number',
  reasoning_tokens: 'number',
  prompt_cache_saved_usd: 'number',
});

/** 0010 analytics_llm_call_end_users: a call that named an end user (rows with an end user only), its key, outcome and spend. */
export const llmCallEndUserColumns = withCreatedAt<
  Pick<
    LlmCallRow,
    'event_id' | 'merchant_id' | 'created_at_ms' | 'api_key_id' | 'end_user' | 'outcome' | 'cache_hit' | 'input_tokens' | 'output_tokens' | 'cost_usd'
  >
>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  api_key_id: 'string',
  end_user: 'string',
  outcome: 'string',
  cache_hit: 'number',
  input_tokens: 'number',
  output_tokens: 'number',
  cost_usd: 'number',
});

/** 0011 analytics_llm_guard_outcomes: one guardrail outcome (guard, stage, action, counts; never the text). */
export const guardOutcomeColumns = withCreatedAt<GuardOutcomeRow>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  guard: 'string',
  stage: 'string',
  action: 'string',
  found: 'number',
  score: 'nullableNumber',
  refused: 'number',
  surface: 'string',
  request_id: 'string',
  api_key_id: 'string',
  route_group: 'string',
});

/** 0007 analytics_decision_policies: the policy a decision logged (propensity, candidates, parameters). */
export const decisionPolicyColumns = withCreatedAt<DecisionPolicyRow>({
  event_id: 'string',
  merchant_id: 'string',
  created_at_ms: 'number',
  payment_id: 'string',
  gateway: 'string',
  routing_approach: 'string',
  window_dimension: 'string',
  currency: 'string',
  amount: 'number',
  propensity: 'number',
  hedged: 'number',
  hedging_percent: 'number',
  bucket_size: 'nullableNumber',
  elimination_threshold: 'nullableNumber',
  elimination_divisor: 'number',
  multi_objective: 'number',
  candidates: 'string',
});

/** schema_migrations (written by the migrator). */
export const schemaMigrationColumns: readonly InsertColumn[] = [
  { name: 'version', kind: 'string' },
  { name: 'name', kind: 'string' },
  { name: 'applied_at', kind: 'number' },
];
