/**
 * One row of `analytics_domain_events` (schemas/clickhouse/0001_domain_events.sql): a routing fact
 * (decision, decision failure, feedback, score snapshot, request hit) in the reference's domain-row
 * vocabulary. String columns use '' for "absent" (never NULL: filters and keys stay simple on both
 * engines); reads turn '' back into null. Numeric metrics are null when unknown.
 */
export interface DomainEventRow {
  /** The envelope id: the de-duplication key of every read. */
  readonly event_id: string;
  readonly merchant_id: string;
  readonly created_at_ms: number;
  readonly api_flow: string;
  readonly flow_type: string;
  /** `dynamic` (payment-audit), `preview` (preview-trace) or '' (in neither). */
  readonly summary_kind: string;
  readonly payment_id: string;
  readonly request_id: string;
  /** Groups a payment's events in payment-audit: payment id, else request id, else event id. */
  readonly lookup_key: string;
  readonly global_request_id: string;
  readonly trace_id: string;
  readonly payment_method_type: string;
  readonly payment_method: string;
  readonly card_network: string;
  readonly card_is_in: string;
  readonly currency: string;
  readonly country: string;
  readonly auth_type: string;
  readonly gateway: string;
  readonly event_stage: string;
  readonly routing_approach: string;
  readonly rule_name: string;
  readonly status: string;
  readonly error_code: string;
  readonly error_message: string;
  readonly score_value: number | null;
  readonly sigma_factor: number | null;
  readonly average_latency: number | null;
  readonly tp99_latency: number | null;
  readonly transaction_count: number | null;
  readonly route: string;
  /** The event payload as a JSON string, cut to {@link maxDetailsBytes}. */
  readonly details: string;
}

/** One row of `analytics_api_events` (schemas/clickhouse/0002_api_events.sql): one HTTP call. */
export interface ApiEventRow {
  readonly event_id: string;
  readonly merchant_id: string;
  readonly created_at_ms: number;
  readonly request_id: string;
  readonly payment_id: string;
  readonly api_flow: string;
  readonly flow_type: string;
  readonly url_path: string;
  readonly http_method: string;
  readonly status_code: number;
  readonly latency_ms: number;
  readonly error_code: string;
  readonly error_message: string;
  readonly user_agent: string;
}

/**
 * One model call (`llm.call`): a row of `analytics_llm_calls` (schemas/clickhouse/0003_llm_calls.sql)
 * and, for a call routed in a route group, of `analytics_llm_route_calls` (0004), which alone holds
 * `route_group`, `route_approach` and `eliminated_candidates`; for a response-cache hit, of
 * `analytics_llm_cache_hits` (0005), which alone holds `saved_cost_usd`; for a call that says which API
 * it came through, of `analytics_llm_call_apis` (0006), which alone holds `api`; for a call that reached
 * a provider, of `analytics_llm_call_usage` (0009), which alone holds the key and the prompt-cache and
 * reasoning counts; for a call that named an end user, of `analytics_llm_call_end_users` (0010). '' for absent strings, [] for an
 * absent list; `ttft_ms` is meaningful only where `has_ttft` is 1 (streams).
 */
export interface LlmCallRow {
  readonly event_id: string;
  readonly merchant_id: string;
  readonly created_at_ms: number;
  readonly provider: string;
  readonly model: string;
  readonly operation: string;
  readonly surface: string;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number;
  readonly latency_ms: number;
  readonly ttft_ms: number;
  readonly has_ttft: 0 | 1;
  readonly outcome: string;
  readonly error_class: string;
  readonly fallback_hops: number;
  readonly user_id: string;
  readonly request_id: string;
  readonly batch_id: string;
  readonly job_id: string;
  /** The route group the request was routed in ('' outside route groups). */
  readonly route_group: string;
  /** How the group ranked its candidates for the request: sr, sr_downtime, explore ('' when not recorded). */
  readonly route_approach: string;
  /** `provider/model` of the group's candidates eliminated when the request was routed. */
  readonly eliminated_candidates: readonly string[];
  /** 1 when the gateway answered from its response cache: the row is also one of `analytics_llm_cache_hits` (0005). */
  readonly cache_hit: 0 | 1;
  /** Hits only: the cached tokens at the registry's price (what the hit saved); 0 otherwise or when unpriced. */
  readonly saved_cost_usd: number;
  /** The API the call came through (src/ports/llm-call-api.ts), '' when the event names none. */
  readonly api: string;
  /** The API key the call was made with ('' without one); with the fields below, a row of `analytics_llm_call_usage` (0009) for every call not answered from the response cache. */
  readonly api_key_id: string;
  /** Part of `input_tokens` read from the provider's prompt cache (0 when none reported). */
  readonly cache_read_tokens: number;
  /** Part of `input_tokens` written to the prompt cache, 5-minute lifetime. */
  readonly cache_write_tokens: number;
  /** Part of `input_tokens` written to the prompt cache, 1-hour lifetime. */
  readonly cache_write_1h_tokens: number;
  /** Part of `output_tokens` spent reasoning. */
  readonly reasoning_tokens: number;
  /** The call's cost at the full input price less `cost_usd` (negative after a cache write premium); 0 without cache use. */
  readonly prompt_cache_saved_usd: number;
  /** The end user the request named ('' when none): a row of `analytics_llm_call_end_users` (0010) when set. */
  readonly end_user: string;
}

/**
 * The policy a decision logged (`decision.created` with `policy`): a row of `analytics_decision_policies`
 * (schemas/clickhouse/0007_decision_policies.sql). `candidates` is the JSON list of
 * `{gateway, score, eliminationScore}`; flags are 0/1; bucket size and threshold null when absent.
 */
export interface DecisionPolicyRow {
  readonly event_id: string;
  readonly merchant_id: string;
  readonly created_at_ms: number;
  readonly payment_id: string;
  readonly gateway: string;
  readonly routing_approach: string;
  readonly window_dimension: string;
  readonly currency: string;
  readonly amount: number;
  readonly propensity: number;
  readonly hedged: number;
  readonly hedging_percent: number;
  readonly bucket_size: number | null;
  readonly elimination_threshold: number | null;
  readonly elimination_divisor: number;
  readonly multi_objective: number;
  readonly candidates: string;
}

/**
 * One guardrail outcome (`guard.applied`): a row of `analytics_llm_guard_outcomes`
 * (schemas/clickhouse/0011_llm_guard_outcomes.sql). Counts only, never the matched text. '' for an absent
 * key, request or route group; `score` null for guards without one; `refused` 1 for the outcome that refused the call.
 */
export interface GuardOutcomeRow {
  readonly event_id: string;
  readonly merchant_id: string;
  readonly created_at_ms: number;
  readonly guard: string;
  readonly stage: string;
  readonly action: string;
  readonly found: number;
  readonly score: number | null;
  readonly refused: number;
  readonly surface: string;
  readonly request_id: string;
  readonly api_key_id: string;
  readonly route_group: string;
}

/** A batch for {@link AnalyticsStore.insert}: rows of every table, written together, safe to resend. */
export interface AnalyticsRows {
  readonly domain: readonly DomainEventRow[];
  readonly api: readonly ApiEventRow[];
  readonly llm: readonly LlmCallRow[];
  /** Decision policies (0007); absent = none. */
  readonly policies?: readonly DecisionPolicyRow[];
  /** Guardrail outcomes (0011); absent = none. */
  readonly guards?: readonly GuardOutcomeRow[];
}

/** `details` is cut to 64 KiB, the reference's bound on a domain row's details. */
export const maxDetailsBytes = 65_536;
