import { afterAll, beforeAll, describe, expect, it as vitestIt } from 'vitest';
import type { AnalyticsEndpoint, ParsedAnalyticsQuery } from '../../../src/ports/analytics/analytics-query.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import type { ClickHouseExecutor } from '../../../src/adapters/clickhouse/clickhouse-executor.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import type { GuardAppliedV1, LlmCallV1 } from '../../../src/generated/schema-types.js';
import {
  eventId,
  fixtureEvents,
  guardAppliedEvent,
  llmCallEvent,
  hostileGateway,
  hostilePaymentId,
  merchantId,
  now,
  oldEvent,
  otherMerchantId,
  t0,
} from './analytics-fixture.js';

export interface AnalyticsStoreHarness {
  readonly store: AnalyticsStore;
  /** The executor under the store, to look at `schema_migrations` directly. */
  readonly executor: ClickHouseExecutor;
  readonly database: string;
  /** Drops whatever the run created and closes the store. */
  readonly teardown: () => Promise<void>;
}

/** Setup can take a while on a cold engine (chDB worker start, first DDL on the server). */
const setupTimeoutMs = 60_000;

function query(endpoint: AnalyticsEndpoint, raw: Record<string, unknown> = {}, merchant = merchantId): ParsedAnalyticsQuery {
  const parsed = parseAnalyticsQuery(raw, { merchantId: merchant, nowMs: now, endpoint });
  if (!parsed.ok) throw new Error(`fixture query rejected: ${JSON.stringify(parsed.issues)}`);
  return parsed.query;
}

const snapshotStripe = {
  merchant_id: merchantId,
  payment_method_type: 'CARD',
  payment_method: 'CREDIT',
  gateway: 'stripe',
  score_value: 0.85,
  sigma_factor: null,
  average_latency: null,
  tp99_latency: null,
  transaction_count: 10,
  last_updated_ms: t0 + 790_000,
};
const snapshotAdyen = { ...snapshotStripe, payment_method: 'DEBIT', gateway: 'adyen', score_value: 0.8, last_updated_ms: t0 + 361_000 };
const hostileMessage = 'It\'s a "bad" \\ request -- /* x */';
const errorInvalid = { route: 'decide_gateway', error_code: 'INVALID_REQUEST', error_message: hostileMessage, count: 1, last_seen_ms: t0 + 1_260_000 };
const errorNoGateway = {
  route: 'decide_gateway',
  error_code: 'GATEWAY_NOT_FOUND',
  error_message: 'No eligible gateway',
  count: 1,
  last_seen_ms: t0 + 1_200_000,
};
const scoreSeries = [
  { bucket_ms: t0, merchant_id: merchantId, payment_method_type: 'CARD', payment_method: 'CREDIT', gateway: 'stripe', score_value: 0.95 },
  { bucket_ms: t0 + 300_000, merchant_id: merchantId, payment_method_type: 'CARD', payment_method: 'DEBIT', gateway: 'adyen', score_value: 0.8 },
  { bucket_ms: t0 + 600_000, merchant_id: merchantId, payment_method_type: 'CARD', payment_method: 'CREDIT', gateway: 'stripe', score_value: 0.85 },
];
const auditEcho = {
  payment_id: null,
  request_id: null,
  gateway: null,
  route: null,
  status: null,
  flow_type: null,
  routing_approach: null,
  error_code: null,
};
const hostileResult = {
  lookup_key: hostilePaymentId,
  payment_id: hostilePaymentId,
  request_id: 'req_decide_17',
  merchant_id: merchantId,
  first_seen_ms: t0 + 1_500_000,
  last_seen_ms: t0 + 1_500_000,
  event_count: 1,
  latest_status: null,
  latest_gateway: hostileGateway,
  latest_stage: 'gateway_decided',
  gateways: [hostileGateway],
  routes: ['decide_gateway'],
};
const pay1Result = {
  lookup_key: 'pay_1',
  payment_id: 'pay_1',
  request_id: 'req_feedback_4',
  merchant_id: merchantId,
  first_seen_ms: t0,
  last_seen_ms: t0 + 61_000,
  event_count: 5,
  latest_status: 'CHARGED',
  latest_gateway: 'stripe',
  latest_stage: 'score_snapshot',
  gateways: ['stripe'],
  routes: ['decide_gateway', 'update_gateway_score'],
};

/**
 * The AnalyticsStore contract, run against every engine (chDB and ClickHouse server). Every
 * expectation is an exact literal, so two engines that pass both return the same JSON.
 */
export function describeAnalyticsStore(engine: string, setup: () => Promise<AnalyticsStoreHarness>): void {
  describe(`AnalyticsStore on ${engine}`, () => {
    let harness: AnalyticsStoreHarness | undefined;
    let store: AnalyticsStore;
    let setupFailure: unknown;

    beforeAll(async () => {
      try {
        harness = await setup();
        store = harness.store;
        await store.migrate();
        const rows = mapEventsToAnalyticsRows(fixtureEvents);
        await store.insert(rows);
        // A retried batch, and a batch that repeats events within itself: neither may count twice.
        await store.insert(rows);
        await store.insert(mapEventsToAnalyticsRows([...fixtureEvents.slice(0, 5), ...fixtureEvents.slice(0, 5)]));
      } catch (error) {
        // Kept and rethrown by every test: an engine that is down fails each test, never skips it.
        setupFailure = error;
      }
    }, setupTimeoutMs);

    afterAll(async () => {
      await harness?.teardown();
    }, setupTimeoutMs);

    const ready = (): AnalyticsStoreHarness => {
      if (harness === undefined) throw new Error('the harness was not set up');
      return harness;
    };

    /** A test that needs the engine set up; it fails with the setup error when there is one. */
    const it = (name: string, test: () => Promise<void>) =>
      vitestIt(name, async () => {
        if (setupFailure !== undefined) throw setupFailure;
        await test();
      });

    it('applies each migration once when migrate runs again', async () => {
      await store.migrate();
      const rows = await ready().executor.query<{ version: string; copies: number }>(
        `SELECT version, count() AS copies FROM ${ready().database}.schema_migrations FINAL GROUP BY version ORDER BY version`,
      );
      expect(rows).toEqual([
        { version: '0001', copies: 1 },
        { version: '0002', copies: 1 },
        { version: '0003', copies: 1 },
        { version: '0004', copies: 1 },
        { version: '0005', copies: 1 },
        { version: '0006', copies: 1 },
        { version: '0007', copies: 1 },
        { version: '0008', copies: 1 },
        { version: '0009', copies: 1 },
        { version: '0010', copies: 1 },
        { version: '0011', copies: 1 },
      ]);
    });

    it('reads model calls once each, per provider, bucket and error class, with quantiles and time to first token', async () => {
      const llmMerchant = 'm_llm_calls';
      const call = (n: number, at: number, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> =>
        llmCallEvent(900 + n, at, llmMerchant, { surface: 'http', requestId: `r${n}`, ...payload });
      const calls = [
        call(1, t0 + 60_000, { latencyMs: 100 }),
        call(2, t0 + 61_000, { latencyMs: 200, operation: 'stream', timeToFirstTokenMs: 40 }),
        call(3, t0 + 62_000, { latencyMs: 300, outcome: 'error', errorClass: 'RateLimitError', inputTokens: 0, outputTokens: 0, costUsd: 0 }),
        call(4, t0 + 400_000, {
          provider: 'anthropic',
          model: 'claude-3-haiku',
          latencyMs: 50,
          inputTokens: 1000,
          outputTokens: 100,
          costUsd: 0.000375,
          fallbackHops: 1,
        }),
      ];
      const rows = mapEventsToAnalyticsRows(calls);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const q = (endpoint: AnalyticsEndpoint) => query(endpoint, { range: '1h' }, llmMerchant);

      expect(await store.llmOverview(q('llm/overview'))).toEqual({
        merchant_id: llmMerchant,
        start_ms: now - 3_600_000,
        end_ms: now,
        calls: 4,
        errors: 1,
        input_tokens: 1200,
        output_tokens: 120,
        cost_usd: 0.000417,
        total_tokens: 1320,
        error_rate: 0.25,
        avg_latency_ms: 162.5,
        fallback_calls: 1,
        providers: [
          { provider: 'openai', calls: 3, errors: 1, input_tokens: 200, output_tokens: 20, cost_usd: 0.000042 },
          { provider: 'anthropic', calls: 1, errors: 0, input_tokens: 1000, output_tokens: 100, cost_usd: 0.000375 },
        ],
        // Events without `api` (older publishers) are one group with no API.
        apis: [{ api: null, calls: 4, errors: 1, input_tokens: 1200, output_tokens: 120, cost_usd: 0.000417 }],
        cache_hits: 0,
        cache_hit_rate: 0,
        cache_tokens: 0,
        cache_saved_cost_usd: 0,
        prompt_cache: { calls: 4, input_tokens: 1200, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, cache_hit_rate: 0, saved_usd: 0 },
      });
      const usage = await store.llmUsage(q('llm/usage'));
      expect(usage.series.map((point) => [point.provider, point.calls, point.errors])).toEqual([
        ['openai', 3, 1],
        ['anthropic', 1, 0],
      ]);
      expect(usage.series.every((point) => point.bucket_ms % usage.bucket_ms === 0)).toBe(true);
      expect(await store.llmLatency(q('llm/latency'))).toMatchObject({
        models: [
          {
            provider: 'openai',
            model: 'gpt-4o-mini',
            calls: 3,
            p50_ms: 200,
            p95_ms: 300,
            p99_ms: 300,
            streams: 1,
            ttft_p50_ms: 40,
            ttft_p95_ms: 40,
            ttft_p99_ms: 40,
          },
          { provider: 'anthropic', model: 'claude-3-haiku', calls: 1, p50_ms: 50, streams: 0, ttft_p50_ms: null, ttft_p99_ms: null },
        ],
      });
      expect(await store.llmErrors(q('llm/errors'))).toMatchObject({
        total_errors: 1,
        error_rate: 0.25,
        errors: [{ error_class: 'RateLimitError', provider: 'openai', model: 'gpt-4o-mini', count: 1 }],
      });
      expect((await store.llmOverview(query('llm/overview', { range: '1h' }, otherMerchantId))).calls).toBe(0);
    });

    it('reads prompt caching per API key and model: cache-read and cache-write tokens, hit rate, cost and savings, once per event id', async () => {
      const promptMerchant = 'm_llm_prompt_cache';
      const call = (n: number, at: number, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> =>
        llmCallEvent(1300 + n, at, promptMerchant, {
          provider: 'anthropic',
          model: 'claude-sonnet-4',
          inputTokens: 10_000,
          outputTokens: 100,
          costUsd: 0.0315,
          latencyMs: 300,
          requestId: `p${n}`,
          apiKeyId: 'key_a',
          api: 'messages',
          ...payload,
        });
      const calls = [
        // Turn 1 writes the prefix (9,000 tokens at 1.25×: caching cost 0.00675 more), turn 2 reads it (saved 0.0243).
        call(1, t0 + 60_000, { cacheWriteTokens: 9_000, costUsd: 0.03825, promptCacheSavedUsd: -0.00675 }),
        call(2, t0 + 61_000, { cacheReadTokens: 9_000, costUsd: 0.0072, promptCacheSavedUsd: 0.0243, reasoningTokens: 40 }),
        // A 1-hour write of another key.
        call(3, t0 + 62_000, {
          apiKeyId: 'key_b',
          cacheWrite1hTokens: 2_000,
          inputTokens: 2_000,
          outputTokens: 0,
          costUsd: 0.012,
          promptCacheSavedUsd: -0.006,
        }),
        // OpenAI through chat completions, with cached_tokens; no key.
        call(4, t0 + 63_000, {
          provider: 'openai',
          model: 'gpt-4o',
          apiKeyId: null,
          api: 'chat_completions',
          inputTokens: 2_048,
          outputTokens: 10,
          cacheReadTokens: 1_024,
          costUsd: 0.00394,
          promptCacheSavedUsd: 0.00128,
        }),
        // Older publishers (no cache fields at all) count as calls without cache use.
        call(5, t0 + 64_000, { apiKeyId: 'key_b', inputTokens: 1_000, outputTokens: 0, costUsd: 0.003 }),
        // A response-cache hit reached no provider: not in this report.
        call(6, t0 + 65_000, { costUsd: 0, cacheHit: true, savedCostUsd: 0.0315 }),
      ];
      const rows = mapEventsToAnalyticsRows(calls);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const report = await store.llmPromptCache(query('llm/prompt-cache', { range: '1h' }, promptMerchant));
      expect(report).toEqual({
        merchant_id: promptMerchant,
        start_ms: now - 3_600_000,
        end_ms: now,
        calls: 5,
        input_tokens: 25_048,
        output_tokens: 210,
        cache_read_tokens: 10_024,
        cache_write_tokens: 9_000,
        cache_write_1h_tokens: 2_000,
        reasoning_tokens: 40,
        cache_hit_rate: 0.4002,
        cost_usd: 0.06439,
        saved_usd: 0.01283,
        usage: [
          {
            api_key_id: 'key_a',
            provider: 'anthropic',
            model: 'claude-sonnet-4',
            calls: 2,
            input_tokens: 20_000,
            output_tokens: 200,
            cache_read_tokens: 9_000,
            cache_write_tokens: 9_000,
            cache_write_1h_tokens: 0,
            reasoning_tokens: 40,
            cache_hit_rate: 0.45,
            cost_usd: 0.04545,
            saved_usd: 0.01755,
          },
          {
            api_key_id: 'key_b',
            provider: 'anthropic',
            model: 'claude-sonnet-4',
            calls: 2,
            input_tokens: 3_000,
            output_tokens: 0,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            cache_write_1h_tokens: 2_000,
            reasoning_tokens: 0,
            cache_hit_rate: 0,
            cost_usd: 0.015,
            saved_usd: -0.006,
          },
          {
            api_key_id: null,
            provider: 'openai',
            model: 'gpt-4o',
            calls: 1,
            input_tokens: 2_048,
            output_tokens: 10,
            cache_read_tokens: 1_024,
            cache_write_tokens: 0,
            cache_write_1h_tokens: 0,
            reasoning_tokens: 0,
            cache_hit_rate: 0.5,
            cost_usd: 0.00394,
            saved_usd: 0.00128,
          },
        ],
      });
      // The api filter of the other model-call reads applies here too.
      const chat = await store.llmPromptCache(query('llm/prompt-cache', { range: '1h', api: 'chat_completions' }, promptMerchant));
      expect(chat).toMatchObject({ calls: 1, cache_read_tokens: 1_024, cache_hit_rate: 0.5, usage: [{ api_key_id: null, model: 'gpt-4o' }] });
      expect(await store.llmPromptCache(query('llm/prompt-cache', { range: '1h' }, otherMerchantId))).toMatchObject({
        calls: 0,
        input_tokens: 0,
        cache_hit_rate: 0,
        saved_usd: 0,
        usage: [],
      });
    });

    it('reads spend per end user and API key, the dearest first, once per event id, only for calls that named one', async () => {
      const endUserMerchant = 'm_llm_end_users';
      const call = (n: number, at: number, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> =>
        llmCallEvent(1400 + n, at, endUserMerchant, {
          costUsd: 0.001,
          latencyMs: 200,
          requestId: `e${n}`,
          apiKeyId: 'key_shared',
          api: 'chat_completions',
          endUser: 'alice',
          ...payload,
        });
      const rows = mapEventsToAnalyticsRows([
        call(1, t0 + 60_000, {}),
        call(2, t0 + 61_000, { costUsd: 0.002, outputTokens: 20 }),
        call(3, t0 + 62_000, { endUser: 'bob', costUsd: 0.0005, outcome: 'error', errorClass: 'RateLimitError', outputTokens: 0 }),
        call(4, t0 + 63_000, { endUser: 'bob', costUsd: 0, cacheHit: true, savedCostUsd: 0.001 }),
        // The same end user through another key is its own row.
        call(5, t0 + 64_000, { apiKeyId: 'key_other', costUsd: 0.01 }),
        // A call naming no end user, and one of an older publisher (no endUser field), are not listed.
        call(6, t0 + 65_000, { endUser: null }),
        call(7, t0 + 66_000, { endUser: undefined }),
      ]);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const report = await store.llmEndUsers(query('llm/end-users', { range: '1h' }, endUserMerchant));
      expect(report).toEqual({
        merchant_id: endUserMerchant,
        start_ms: now - 3_600_000,
        end_ms: now,
        end_users: [
          {
            end_user: 'alice',
            api_key_id: 'key_other',
            calls: 1,
            errors: 0,
            cache_hits: 0,
            input_tokens: 100,
            output_tokens: 10,
            cost_usd: 0.01,
            last_call_ms: t0 + 64_000,
          },
          {
            end_user: 'alice',
            api_key_id: 'key_shared',
            calls: 2,
            errors: 0,
            cache_hits: 0,
            input_tokens: 200,
            output_tokens: 30,
            cost_usd: 0.003,
            last_call_ms: t0 + 61_000,
          },
          {
            end_user: 'bob',
            api_key_id: 'key_shared',
            calls: 2,
            errors: 1,
            cache_hits: 1,
            input_tokens: 200,
            output_tokens: 10,
            cost_usd: 0.0005,
            last_call_ms: t0 + 63_000,
          },
        ],
      });
      expect((await store.llmEndUsers(query('llm/end-users', { range: '1h', api: 'messages' }, endUserMerchant))).end_users).toEqual([]);
      expect((await store.llmEndUsers(query('llm/end-users', { range: '1h' }, otherMerchantId))).end_users).toEqual([]);
    });

    it('counts guardrail outcomes per guard, stage and action, per key and bucket, once per event id, with the key, route group and API filters', async () => {
      const guardMerchant = 'm_llm_guards';
      const outcome = (n: number, at: number, payload: Partial<GuardAppliedV1>, merchant = guardMerchant): EventEnvelope<'guard.applied'> =>
        guardAppliedEvent(1500 + n, at, merchant, { requestId: `g${n}`, apiKeyId: 'key_a', ...payload });
      const rows = mapEventsToAnalyticsRows([
        outcome(1, t0 + 60_000, { count: 2, requestId: 'r1' }),
        outcome(2, t0 + 60_000, { guard: 'email', requestId: 'r1' }),
        outcome(3, t0 + 61_000, { guard: 'prompt-injection', action: 'block', score: 0.91, blocked: true, apiKeyId: 'key_b', routeGroup: 'support' }),
        outcome(4, t0 + 6 * 60_000, { stage: 'output', action: 'log', surface: 'http' }),
        outcome(5, t0 + 7 * 60_000, { apiKeyId: null, requestId: null, surface: 'library' }),
        outcome(6, t0 + 7 * 60_000, {}, 'm_llm_guards_other'),
      ]);
      expect(rows.guards).toHaveLength(6);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const read = (raw: Record<string, unknown> = {}, merchant = guardMerchant) => store.llmGuards(query('llm/guards', { range: '1h', ...raw }, merchant));
      const none = { blocked: 0, masked: 0, logged: 0 };
      expect(await read()).toEqual({
        merchant_id: guardMerchant,
        start_ms: now - 3_600_000,
        end_ms: now,
        bucket_ms: 300_000,
        totals: { outcomes: 5, calls: 4, found: 6, blocked: 1, masked: 3, logged: 1, refused_calls: 1 },
        guards: [
          { guard: 'card', stage: 'input', action: 'mask', outcomes: 2, found: 3, refused_calls: 0, max_score: null },
          { guard: 'card', stage: 'output', action: 'log', outcomes: 1, found: 1, refused_calls: 0, max_score: null },
          { guard: 'email', stage: 'input', action: 'mask', outcomes: 1, found: 1, refused_calls: 0, max_score: null },
          { guard: 'prompt-injection', stage: 'input', action: 'block', outcomes: 1, found: 1, refused_calls: 1, max_score: 0.91 },
        ],
        keys: [
          { api_key_id: 'key_a', guard: 'card', outcomes: 2, found: 3, ...none, masked: 1, logged: 1, refused_calls: 0 },
          { api_key_id: 'key_a', guard: 'email', outcomes: 1, found: 1, ...none, masked: 1, refused_calls: 0 },
          { api_key_id: 'key_b', guard: 'prompt-injection', outcomes: 1, found: 1, ...none, blocked: 1, refused_calls: 1 },
          { api_key_id: null, guard: 'card', outcomes: 1, found: 1, ...none, masked: 1, refused_calls: 0 },
        ],
        series: [
          { bucket_ms: t0, outcomes: 3, blocked: 1, masked: 2, logged: 0 },
          { bucket_ms: t0 + 300_000, outcomes: 2, blocked: 0, masked: 1, logged: 1 },
        ],
      });
      expect((await read({ api_key_id: 'key_a' })).totals).toEqual({ outcomes: 3, calls: 2, found: 4, blocked: 0, masked: 2, logged: 1, refused_calls: 0 });
      expect((await read({ route_group: 'support' })).guards.map((row) => row.guard)).toEqual(['prompt-injection']);
      expect((await read({ api: 'toolkit' })).guards.map((row) => [row.guard, row.stage])).toEqual([['card', 'output']]);
      const empty = await read({ api: 'messages' });
      expect([empty.totals.outcomes, empty.guards, empty.keys, empty.series]).toEqual([0, [], [], []]);
      expect((await read({}, 'm_llm_guards_other')).totals.outcomes).toBe(1);
    });

    it('reads response-cache hits in the overview: count, share of calls, tokens served and cost saved, once per event id', async () => {
      const cacheMerchant = 'm_llm_cache';
      const call = (n: number, at: number, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> =>
        llmCallEvent(940 + n, at, cacheMerchant, { latencyMs: 300, requestId: `c${n}`, ...payload });
      const hit = { costUsd: 0, latencyMs: 2, cacheHit: true, savedCostUsd: 0.000021 } as const;
      const calls = [
        call(1, t0 + 60_000, {}),
        call(2, t0 + 61_000, hit),
        call(3, t0 + 62_000, { ...hit, operation: 'stream' }),
        // Older publishers: no cacheHit at all; a hit of an unpriced model saves 0.
        call(4, t0 + 63_000, { cacheHit: null, savedCostUsd: null }),
        call(5, t0 + 64_000, { ...hit, provider: 'litellm', model: 'local', savedCostUsd: null }),
      ];
      const rows = mapEventsToAnalyticsRows(calls);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const overview = await store.llmOverview(query('llm/overview', { range: '1h' }, cacheMerchant));
      expect(overview).toMatchObject({ calls: 5, cost_usd: 0.000042, cache_hits: 3, cache_hit_rate: 0.6, cache_tokens: 330, cache_saved_cost_usd: 0.000042 });
      expect(await store.llmOverview(query('llm/overview', { range: '1h' }, otherMerchantId))).toMatchObject({
        cache_hits: 0,
        cache_hit_rate: 0,
        cache_tokens: 0,
        cache_saved_cost_usd: 0,
      });
    });

    it('splits model calls by the API they came through and filters every llm read by api, each call counted once', async () => {
      const apiMerchant = 'm_llm_apis';
      const call = (n: number, at: number, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> =>
        llmCallEvent(960 + n, at, apiMerchant, { requestId: `a${n}`, ...payload });
      const calls = [
        call(1, t0 + 60_000, { api: 'chat_completions' }),
        call(2, t0 + 61_000, { api: 'chat_completions', outcome: 'error', errorClass: 'RateLimitError', inputTokens: 0, outputTokens: 0, costUsd: 0 }),
        call(3, t0 + 62_000, {
          api: 'messages',
          provider: 'anthropic',
          model: 'claude-3-haiku',
          inputTokens: 1000,
          outputTokens: 100,
          costUsd: 0.000375,
          routeGroup: 'chat',
          routeApproach: 'sr',
          eliminatedCandidates: [],
        }),
        call(4, t0 + 63_000, { api: 'messages', costUsd: 0, latencyMs: 2, cacheHit: true, savedCostUsd: 0.000021 }),
        // An older publisher's call (no api) and a library call (api null) read as no API.
        call(5, t0 + 64_000, {}),
        call(6, t0 + 65_000, { api: null, surface: 'library' }),
      ];
      const rows = mapEventsToAnalyticsRows(calls);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const q = (endpoint: AnalyticsEndpoint, api?: string) => query(endpoint, { range: '1h', ...(api !== undefined ? { api } : {}) }, apiMerchant);

      const overview = await store.llmOverview(q('llm/overview'));
      expect(overview).toMatchObject({ calls: 6, errors: 1, input_tokens: 1400, cost_usd: 0.000438 });
      expect(overview.apis).toEqual([
        { api: 'chat_completions', calls: 2, errors: 1, input_tokens: 100, output_tokens: 10, cost_usd: 0.000021 },
        { api: 'messages', calls: 2, errors: 0, input_tokens: 1100, output_tokens: 110, cost_usd: 0.000375 },
        { api: null, calls: 2, errors: 0, input_tokens: 200, output_tokens: 20, cost_usd: 0.000042 },
      ]);

      const messages = await store.llmOverview(q('llm/overview', 'messages'));
      expect(messages).toMatchObject({ calls: 2, errors: 0, input_tokens: 1100, cost_usd: 0.000375, fallback_calls: 0, cache_hits: 1, cache_hit_rate: 0.5 });
      expect(messages.providers.map((p) => [p.provider, p.calls])).toEqual([
        ['anthropic', 1],
        ['openai', 1],
      ]);
      expect(messages.apis.map((a) => a.api)).toEqual(['messages']);
      expect((await store.llmOverview(q('llm/overview', 'chat_completions'))).cache_hits).toBe(0);
      expect((await store.llmUsage(q('llm/usage', 'chat_completions'))).series.map((p) => [p.provider, p.calls, p.errors])).toEqual([['openai', 2, 1]]);
      expect((await store.llmLatency(q('llm/latency', 'messages'))).models.map((m) => [m.provider, m.calls])).toEqual([
        ['anthropic', 1],
        ['openai', 1],
      ]);
      expect((await store.llmErrors(q('llm/errors', 'messages'))).total_errors).toBe(0);
      expect((await store.llmErrors(q('llm/errors', 'chat_completions'))).errors).toEqual([
        { error_class: 'RateLimitError', provider: 'openai', model: 'gpt-4o-mini', count: 1 },
      ]);
      const groups = (api: string) => store.llmRouteGroups(query('llm/route-groups', { range: '1h', api }, apiMerchant));
      expect((await groups('messages')).groups.map((g) => g.route_group)).toEqual(['chat']);
      expect((await groups('responses')).groups).toEqual([]);
      expect((await store.llmOverview(q('llm/overview', 'responses'))).calls).toBe(0);
    });

    it('reads route groups per candidate and bucket: calls, share, success rate and eliminations from the recorded decisions', async () => {
      const routeMerchant = 'm_llm_routes';
      const routed = (n: number, at: number, payload: Partial<LlmCallV1>, merchant = routeMerchant): EventEnvelope<'llm.call'> =>
        llmCallEvent(970 + n, at, merchant, {
          model: 'flaky',
          inputTokens: 1,
          outputTokens: 1,
          costUsd: 0,
          latencyMs: 10,
          requestId: `rq${n}`,
          routeGroup: 'chat',
          routeApproach: 'sr',
          eliminatedCandidates: [],
          ...payload,
        });
      const down = { routeApproach: 'sr_downtime' as const, eliminatedCandidates: ['openai/flaky', 'anthropic/out-of-reach'] };
      const calls = [
        // Bucket t0: the flaky model is ranked first and answers.
        routed(1, t0 + 60_000, {}),
        routed(2, t0 + 120_000, {}),
        // Bucket t0+5m: it fails and the request fails over; the next decisions find it (and a
        // candidate cut by maxHops, never called) eliminated, so the steady model is tried first.
        routed(3, t0 + 360_000, { outcome: 'error', errorClass: 'AIProviderError', requestId: 'rq3' }),
        routed(4, t0 + 361_000, { model: 'steady', fallbackHops: 1, requestId: 'rq3' }),
        routed(5, t0 + 400_000, { model: 'steady', requestId: 'rq5', ...down }),
        routed(6, t0 + 420_000, { model: 'steady', requestId: 'rq6', ...down }),
        // Bucket t0+10m: exploration gives it a call while still eliminated, then it is back.
        routed(7, t0 + 700_000, { routeApproach: 'explore', eliminatedCandidates: ['openai/flaky'] }),
        routed(8, t0 + 760_000, {}),
        // Not in the report: a judge call carrying the request's attribution, a direct call, another merchant's group.
        routed(9, t0 + 760_500, { operation: 'evaluation', fallbackHops: 0 }),
        routed(10, t0 + 760_000, { routeGroup: null, routeApproach: null, eliminatedCandidates: null }),
        routed(11, t0 + 760_000, {}, otherMerchantId),
        // A routed call of a publisher that recorded only the group.
        routed(12, t0 + 100_000, { routeGroup: 'legacy', routeApproach: undefined, eliminatedCandidates: undefined }),
      ];
      const rows = mapEventsToAnalyticsRows(calls);
      await store.insert(rows);
      await store.insert(rows); // a retried batch counts once
      const point = (
        bucket: number,
        calls: number,
        share: number,
        rankedFirst: number,
        successes: number,
        eliminatedDecisions: number,
        eliminated: boolean,
      ) => ({
        bucket_ms: bucket,
        calls,
        share,
        ranked_first: rankedFirst,
        successes,
        errors: calls - successes,
        success_rate: calls === 0 ? null : Math.round((successes / calls) * 10_000) / 10_000,
        eliminated_decisions: eliminatedDecisions,
        eliminated,
      });
      const b0 = t0;
      const b1 = t0 + 300_000;
      const b2 = t0 + 600_000;

      const report = await store.llmRouteGroups(query('llm/route-groups', { range: '1h' }, routeMerchant));
      expect(report).toMatchObject({ merchant_id: routeMerchant, start_ms: now - 3_600_000, end_ms: now, bucket_ms: 300_000, route_group: null });
      expect(report.groups.map((group) => group.route_group)).toEqual(['chat', 'legacy']);
      expect(report.groups[0]).toEqual({
        route_group: 'chat',
        calls: 8,
        successes: 7,
        errors: 1,
        success_rate: 0.875,
        decisions: 7,
        approaches: { sr: 4, sr_downtime: 2, explore: 1 },
        series: [
          { bucket_ms: b0, calls: 2, successes: 2, errors: 0, success_rate: 1, decisions: 2, approaches: { sr: 2 } },
          { bucket_ms: b1, calls: 4, successes: 3, errors: 1, success_rate: 0.75, decisions: 3, approaches: { sr: 1, sr_downtime: 2 } },
          { bucket_ms: b2, calls: 2, successes: 2, errors: 0, success_rate: 1, decisions: 2, approaches: { explore: 1, sr: 1 } },
        ],
        candidates: [
          {
            provider: 'openai',
            model: 'flaky',
            calls: 5,
            share: 0.625,
            ranked_first: 5,
            successes: 4,
            errors: 1,
            success_rate: 0.8,
            eliminated_decisions: 3,
            eliminated: false,
            series: [point(b0, 2, 1, 2, 2, 0, false), point(b1, 1, 0.25, 1, 0, 2, true), point(b2, 2, 1, 2, 2, 1, false)],
          },
          {
            provider: 'openai',
            model: 'steady',
            calls: 3,
            share: 0.375,
            ranked_first: 2,
            successes: 3,
            errors: 0,
            success_rate: 1,
            eliminated_decisions: 0,
            eliminated: false,
            series: [point(b1, 3, 0.75, 2, 3, 0, false)],
          },
          {
            provider: 'anthropic',
            model: 'out-of-reach',
            calls: 0,
            share: 0,
            ranked_first: 0,
            successes: 0,
            errors: 0,
            success_rate: null,
            eliminated_decisions: 2,
            eliminated: false,
            series: [point(b1, 0, 0, 0, 0, 2, true)],
          },
        ],
      });
      expect(report.groups[1]).toMatchObject({
        route_group: 'legacy',
        calls: 1,
        decisions: 1,
        approaches: { unrecorded: 1 },
        candidates: [{ model: 'flaky', calls: 1, share: 1, eliminated_decisions: 0, eliminated: false }],
      });
      // One group, the bucket where the elimination began, and another merchant's view.
      const chatOnly = await store.llmRouteGroups(query('llm/route-groups', { range: '1h', route_group: 'chat' }, routeMerchant));
      expect(chatOnly.route_group).toBe('chat');
      expect(chatOnly.groups).toEqual([report.groups[0]]);
      const during = await store.llmRouteGroups(query('llm/route-groups', { start_ms: t0 + 300_000, end_ms: t0 + 450_000 }, routeMerchant));
      expect(during.groups[0]?.candidates.map((candidate) => [candidate.model, candidate.eliminated])).toEqual([
        ['steady', false],
        ['flaky', true],
        ['out-of-reach', true],
      ]);
      expect((await store.llmRouteGroups(query('llm/route-groups', { range: '1h', route_group: 'nothing' }, routeMerchant))).groups).toEqual([]);
      const other = await store.llmRouteGroups(query('llm/route-groups', { range: '1h' }, otherMerchantId));
      expect(other.groups.map((group) => [group.route_group, group.calls])).toEqual([['chat', 1]]);
    });

    it("counts a batch job's record once when the job ran again later, across a day boundary, at its first time", async () => {
      const rerunMerchant = 'm_llm_rerun';
      const midnight = Date.UTC(2026, 10, 20);
      const record = { surface: 'batch', inputTokens: 10, outputTokens: 2, costUsd: 0.000003, latencyMs: 80, batchId: 'b1', jobId: 'b1:0' } as const;
      // The worker died after the provider answered: the job ran again a minute later, past midnight,
      // and republished its record under the same (derived) id; each copy in its own daily partition.
      await store.insert(mapEventsToAnalyticsRows([llmCallEvent(950, midnight - 30_000, rerunMerchant, record)]));
      await store.insert(mapEventsToAnalyticsRows([llmCallEvent(950, midnight + 30_000, rerunMerchant, { ...record, latencyMs: 90 })]));
      const q = (endpoint: AnalyticsEndpoint) => query(endpoint, { range: '1d' }, rerunMerchant);
      expect(await store.llmOverview(q('llm/overview'))).toMatchObject({
        calls: 1,
        input_tokens: 10,
        avg_latency_ms: 80,
        providers: [{ provider: 'openai', calls: 1 }],
      });
      expect((await store.llmUsage(q('llm/usage'))).series).toEqual([expect.objectContaining({ bucket_ms: midnight - 3_600_000, calls: 1 })]);
      expect((await store.llmLatency(q('llm/latency'))).models).toEqual([expect.objectContaining({ calls: 1, p50_ms: 80 })]);
      // A window holding only the second copy still counts the call once.
      expect((await store.llmOverview(query('llm/overview', { start_ms: midnight, end_ms: now }, rerunMerchant))).calls).toBe(1);
      // Retention covers the model calls too: the day before goes (one partition of the calls and one
      // of their key-and-cache usage, 0009), the rest stays.
      expect(await store.dropPartitionsBefore(midnight)).toBe(2);
      expect((await store.llmOverview(q('llm/overview'))).calls).toBe(1);
      expect((await store.llmOverview(q('llm/overview'))).avg_latency_ms).toBe(90);
    });

    it('answers ping when the engine is up', async () => {
      expect(await store.ping()).toBe(true);
    });

    it('returns the overview counting re-sent events once', async () => {
      expect(await store.overview(query('overview'))).toEqual({
        merchant_id: merchantId,
        kpis: [
          { label: 'Decision events / 1h', value: '4', subtitle: 'Counts decision events, not unique payments' },
          { label: 'Score snapshots', value: '4', subtitle: 'Latest gateway score updates' },
          { label: 'Rule hits', value: '0', subtitle: 'Priority-logic hits' },
          { label: 'Errors', value: '2', subtitle: 'Structured failure summaries' },
        ],
        route_hits: [
          { route: '/decide_gateway', count: 3 },
          { route: '/update_gateway', count: 2 },
          { route: '/rule_evaluate', count: 1 },
        ],
        top_scores: [snapshotStripe, snapshotAdyen],
        top_errors: [errorInvalid, errorNoGateway],
        top_rules: [],
        smart_retry_stats: { retried_count: 0, recovered_count: 0, by_trigger: [], by_fallback: [] },
        start_ms: now - 3_600_000,
        end_ms: now,
        bucket_ms: 300_000,
        // pay_1 approved, pay_2 declined (no PSP code), pay_3 and the hostile payment without feedback.
        approval: { attempts: 4, approved: 1, declined: 1, pending: 0, no_outcome: 2, approval_rate: 0.5 },
        gateway_approval: [
          {
            gateway: 'stripe',
            decisions: 2,
            attempts: 2,
            approved: 1,
            declined: 0,
            pending: 0,
            no_outcome: 1,
            approval_rate: 1,
            avg_latency_ms: null,
            latency_samples: 0,
          },
          {
            gateway: 'adyen',
            decisions: 1,
            attempts: 1,
            approved: 0,
            declined: 1,
            pending: 0,
            no_outcome: 0,
            approval_rate: 0,
            avg_latency_ms: null,
            latency_samples: 0,
          },
          {
            gateway: hostileGateway,
            decisions: 1,
            attempts: 1,
            approved: 0,
            declined: 0,
            pending: 0,
            no_outcome: 1,
            approval_rate: null,
            avg_latency_ms: null,
            latency_samples: 0,
          },
        ],
        approval_series: [
          { bucket_ms: t0, gateway: 'stripe', approved: 1, declined: 0, approval_rate: 1 },
          { bucket_ms: t0 + 300_000, gateway: 'adyen', approved: 0, declined: 1, approval_rate: 0 },
        ],
        decline_reasons: [
          {
            gateway: 'adyen',
            error_code: null,
            error_message: null,
            unified_code: null,
            unified_message: null,
            failure_side: null,
            count: 1,
            last_seen_ms: t0 + 360_002,
          },
        ],
      });
    });

    it('returns decision tiles, series and approaches', async () => {
      expect(await store.decisions(query('decisions'))).toEqual({
        merchant_id: merchantId,
        range: '1h',
        tiles: [
          { label: 'Decisions', value: '4', subtitle: 'Gateway decisions in the selected window' },
          { label: 'Error rate', value: '33.33%', subtitle: 'Failed decision requests / all decision events' },
        ],
        series: [
          { bucket_ms: t0, routing_approach: 'SR_SELECTION_V3_ROUTING', count: 1 },
          { bucket_ms: t0 + 300_000, routing_approach: 'PRIORITY_LOGIC', count: 1 },
          { bucket_ms: t0 + 600_000, routing_approach: 'SR_SELECTION_V3_ROUTING', count: 1 },
          { bucket_ms: t0 + 1_500_000, routing_approach: 'SR_SELECTION_V3_ROUTING', count: 1 },
        ],
        approaches: [
          { rule_name: 'SR_SELECTION_V3_ROUTING', count: 3 },
          { rule_name: 'PRIORITY_LOGIC', count: 1 },
        ],
      });
    });

    it('counts events outside the default window when the range is 12h', async () => {
      const report = await store.decisions(query('decisions', { range: '12h' }));
      expect(report.range).toBe('12h');
      expect(report.tiles[0]?.value).toBe('5');
      expect(report.series).toEqual([
        { bucket_ms: now - 2 * 3_600_000, routing_approach: 'SR_SELECTION_V3_ROUTING', count: 1 },
        { bucket_ms: now - 3_600_000, routing_approach: 'PRIORITY_LOGIC', count: 1 },
        { bucket_ms: now - 3_600_000, routing_approach: 'SR_SELECTION_V3_ROUTING', count: 3 },
      ]);
    });

    it('returns the latest snapshot per gateway and the last snapshot of each bucket as the series', async () => {
      expect(await store.gatewayScores(query('gateway-scores'))).toEqual({
        merchant_id: merchantId,
        range: '1h',
        snapshots: [snapshotStripe, snapshotAdyen],
        series: scoreSeries,
      });
    });

    it('keeps only the listed gateways when gateway is a comma-separated filter', async () => {
      const report = await store.gatewayScores(query('gateway-scores', { gateway: 'adyen, unknown' }));
      expect(report.snapshots).toEqual([snapshotAdyen]);
      expect(report.series.map((point) => point.gateway)).toEqual(['adyen']);
    });

    it('returns error groups and pages of samples newest first', async () => {
      const first = await store.logSummaries(query('log-summaries', { page_size: '1' }));
      expect(first).toEqual({
        merchant_id: merchantId,
        range: '1h',
        total_errors: 2,
        errors: [errorInvalid, errorNoGateway],
        samples: [
          {
            route: 'decide_gateway',
            merchant_id: merchantId,
            payment_id: null,
            request_id: 'req_x',
            global_request_id: null,
            trace_id: null,
            gateway: null,
            routing_approach: null,
            status: 'failure',
            error_code: 'INVALID_REQUEST',
            error_message: hostileMessage,
            flow_type: 'decide_gateway_error',
            created_at_ms: t0 + 1_260_000,
          },
        ],
        page: 1,
        page_size: 1,
      });
      const second = await store.logSummaries(query('log-summaries', { page: '2', page_size: '1' }));
      expect(second.samples.map((sample) => [sample.payment_id, sample.error_code])).toEqual([['pay_4', 'GATEWAY_NOT_FOUND']]);
      const third = await store.logSummaries(query('log-summaries', { page: '3', page_size: '1' }));
      expect(third.samples).toEqual([]);
    });

    it('summarises every dynamic lookup key with the first result timeline', async () => {
      const report = await store.paymentAudit(query('payment-audit'));
      expect({ ...report, results: undefined, timeline: undefined }).toEqual({
        merchant_id: merchantId,
        range: '1h',
        ...auditEcho,
        page: 1,
        page_size: 12,
        total_results: 6,
        total_success: 1,
        total_failure: 3,
        results: undefined,
        timeline: undefined,
      });
      expect(report.results.map((result) => result.lookup_key)).toEqual([hostilePaymentId, 'req_x', 'pay_4', 'pay_3', 'pay_2', 'pay_1']);
      expect(report.results[0]).toEqual(hostileResult);
      expect(report.results[1]).toEqual({
        lookup_key: 'req_x',
        payment_id: null,
        request_id: 'req_x',
        merchant_id: merchantId,
        first_seen_ms: t0 + 1_260_000,
        last_seen_ms: t0 + 1_260_000,
        event_count: 1,
        latest_status: 'failure',
        latest_gateway: null,
        latest_stage: 'request_parse_failed',
        gateways: [],
        routes: ['decide_gateway'],
      });
      expect(report.results[5]).toEqual(pay1Result);
      const hostileDecision = fixtureEvents.find((e) => e.id === eventId(17));
      expect(report.timeline).toEqual([
        {
          id: eventId(17),
          flow_type: 'decide_gateway_decision',
          event_stage: 'gateway_decided',
          route: 'decide_gateway',
          merchant_id: merchantId,
          payment_id: hostilePaymentId,
          request_id: 'req_decide_17',
          global_request_id: null,
          trace_id: null,
          payment_method_type: 'UPI',
          payment_method: 'UPI_COLLECT',
          gateway: hostileGateway,
          routing_approach: 'SR_SELECTION_V3_ROUTING',
          rule_name: null,
          status: 'success',
          error_code: null,
          error_message: null,
          score_value: null,
          sigma_factor: null,
          average_latency: null,
          tp99_latency: null,
          transaction_count: null,
          details: JSON.stringify(hostileDecision?.payload),
          details_json: hostileDecision?.payload,
          created_at_ms: t0 + 1_500_000,
        },
      ]);
    });

    it('returns one payment and its whole timeline when payment_id is given', async () => {
      const report = await store.paymentAudit(query('payment-audit', { payment_id: 'pay_1' }));
      expect(report.payment_id).toBe('pay_1');
      expect(report.results).toEqual([pay1Result]);
      expect(report.timeline.map((entry) => [entry.id, entry.flow_type, entry.status])).toEqual([
        [eventId(1), 'decide_gateway_request_hit', 'received'],
        [eventId(2), 'decide_gateway_decision', 'success'],
        [eventId(3), 'update_gateway_score_request_hit', 'received'],
        [eventId(4), 'update_gateway_score_update', 'CHARGED'],
        [eventId(5), 'update_gateway_score_score_snapshot', 'snapshot'],
      ]);
      expect(report.timeline[4]).toMatchObject({ score_value: 0.95, transaction_count: 10, gateway: 'stripe', payment_method_type: 'CARD' });
    });

    it('filters audit results by status family, route label, approach and error code', async () => {
      const failures = await store.paymentAudit(query('payment-audit', { status: 'failure' }));
      expect(failures.results.map((r) => r.lookup_key)).toEqual(['req_x', 'pay_4', 'pay_2']);
      expect(failures.status).toBe('failure');
      // Decided and never fed back (the hostile payment, pay_3): no outcome yet, not a success.
      const successes = await store.paymentAudit(query('payment-audit', { status: 'SUCCESS' }));
      expect(successes.results.map((r) => r.lookup_key)).toEqual(['pay_1']);
      const charged = await store.paymentAudit(query('payment-audit', { status: 'charged' }));
      expect(charged.results.map((r) => r.lookup_key)).toEqual(['pay_1']);
      const updates = await store.paymentAudit(query('payment-audit', { route: 'Update Gateway' }));
      expect(updates.results.map((r) => r.lookup_key)).toEqual(['pay_3', 'pay_2', 'pay_1']);
      expect(updates.route).toBe('Update Gateway');
      const notSr = await store.paymentAudit(
        query('payment-audit', { flow_type: 'decide_gateway_decision', exclude_routing_approach: 'SR_SELECTION_V3_ROUTING' }),
      );
      expect(notSr.results.map((r) => r.lookup_key)).toEqual(['pay_2']);
      const byError = await store.paymentAudit(query('payment-audit', { error_code: 'GATEWAY_NOT_FOUND' }));
      expect(byError.results.map((r) => r.lookup_key)).toEqual(['pay_4']);
      expect(byError.total_results).toBe(1);
    });

    it('pages audit results', async () => {
      const page = await store.paymentAudit(query('payment-audit', { page: '2', page_size: '4' }));
      expect(page.total_results).toBe(6);
      expect(page.results.map((r) => r.lookup_key)).toEqual(['pay_2', 'pay_1']);
      expect(page.timeline.map((entry) => entry.id)).toEqual([eventId(6), eventId(7), eventId(8), eventId(9), eventId(10)]);
    });

    it('returns rule evaluations in preview-trace only', async () => {
      expect(await store.previewTrace(query('preview-trace'))).toEqual({
        merchant_id: merchantId,
        range: '1h',
        ...auditEcho,
        page: 1,
        page_size: 12,
        total_results: 1,
        total_success: 0,
        total_failure: 0,
        results: [
          {
            lookup_key: 'req_eval',
            payment_id: null,
            request_id: 'req_eval',
            merchant_id: merchantId,
            first_seen_ms: t0 + 1_800_000,
            last_seen_ms: t0 + 1_800_000,
            event_count: 1,
            latest_status: null,
            latest_gateway: null,
            latest_stage: 'request_received',
            gateways: [],
            routes: ['routing_evaluate'],
          },
        ],
        timeline: [
          expect.objectContaining({
            id: eventId(18),
            flow_type: 'routing_evaluate_request_hit',
            route: 'routing_evaluate',
            status: 'received',
            details_json: { method: 'POST', path: '/routing/evaluate', statusCode: 200, latencyMs: 4.5 },
          }),
        ],
      });
    });

    it('returns gateway share, score trend and the filter values seen', async () => {
      expect(await store.routingStats(query('routing-stats'))).toEqual({
        merchant_id: merchantId,
        range: '1h',
        gateway_share: [
          { bucket_ms: t0, gateway: 'stripe', count: 1 },
          { bucket_ms: t0 + 300_000, gateway: 'adyen', count: 1 },
          { bucket_ms: t0 + 600_000, gateway: 'stripe', count: 1 },
          { bucket_ms: t0 + 1_500_000, gateway: hostileGateway, count: 1 },
        ],
        top_rules: [],
        sr_trend: scoreSeries,
        available_filters: {
          dimensions: [
            { key: 'payment_method_type', label: 'Payment method type', values: ['CARD', 'UPI'] },
            { key: 'payment_method', label: 'Payment method', values: ['CREDIT', 'DEBIT', 'UPI_COLLECT'] },
            { key: 'card_network', label: 'Card network', values: ['MASTERCARD', 'VISA'] },
            { key: 'card_is_in', label: 'Card ISIN', values: ['411111'] },
            { key: 'currency', label: 'Currency', values: ['EUR', 'INR', 'USD'] },
            { key: 'country', label: 'Country', values: ['DE', 'IN', 'US'] },
            { key: 'auth_type', label: 'Auth type', values: ['NO_THREE_DS', 'THREE_DS'] },
          ],
          missing_dimensions: [],
          gateways: ['adyen', hostileGateway, 'stripe'],
        },
      });
    });

    it('matches hostile filter values literally', async () => {
      const byId = await store.paymentAudit(query('payment-audit', { payment_id: hostilePaymentId }));
      expect(byId.results).toEqual([hostileResult]);
      const share = await store.routingStats(query('routing-stats', { gateway: hostileGateway, currency: 'INR' }));
      expect(share.gateway_share).toEqual([{ bucket_ms: t0 + 1_500_000, gateway: hostileGateway, count: 1 }]);
      for (const hostile of ["' OR '1'='1", "x\\' OR 1=1 --", "'); DROP TABLE analytics_domain_events; --", '/* */', '\0', '💳']) {
        const audit = await store.paymentAudit(query('payment-audit', { payment_id: hostile, route: hostile, flow_type: hostile }));
        expect(audit.total_results).toBe(0);
        const scores = await store.gatewayScores(query('gateway-scores', { currency: hostile, gateway: hostile }));
        expect(scores.snapshots).toEqual([]);
      }
      expect((await store.overview(query('overview'))).kpis[0]?.value).toBe('4');
    });

    it('shows another merchant none of these events', async () => {
      const overview = await store.overview(query('overview', {}, otherMerchantId));
      expect(overview.kpis.map((kpi) => kpi.value)).toEqual(['1', '0', '0', '0']);
      const audit = await store.paymentAudit(query('payment-audit', {}, otherMerchantId));
      expect(audit.results.map((r) => r.lookup_key)).toEqual(['pay_other']);
    });

    it('answers every read with the JSON both engines share', async () => {
      // One file for both engines: any difference between chDB and the server fails one of them.
      const answers = {
        overview: await store.overview(query('overview')),
        decisions: await store.decisions(query('decisions', { range: '12h' })),
        gatewayScores: await store.gatewayScores(query('gateway-scores')),
        logSummaries: await store.logSummaries(query('log-summaries')),
        paymentAudit: await store.paymentAudit(query('payment-audit', { payment_id: 'pay_2' })),
        previewTrace: await store.previewTrace(query('preview-trace')),
        routingStats: await store.routingStats(query('routing-stats', { range: '1d', payment_method_type: 'CARD' })),
      };
      await expect(`${JSON.stringify(answers, null, 2)}\n`).toMatchFileSnapshot('./analytics-store.golden.json');
    });

    it('fails with SY_ANALYTICS_UNAVAILABLE when the engine rejects a statement', async () => {
      const failure = await ready()
        .executor.query('SELECT no_such_column FROM system.one')
        .catch((error: unknown) => error);
      expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_ANALYTICS_UNAVAILABLE');
      expect(SwitchyardError.isInstance(failure) && failure.isRetryable).toBe(false);
    });

    it('stores strings and string arrays with every escaped character exactly as inserted', async () => {
      const hostile = 'tab\there\nline\rcr\0nul back\\slash quote\' dq" é 💳 \\N \\t';
      const eventId = '0193a000-0000-7000-8000-00000000e5c0';
      const row = {
        event_id: eventId,
        merchant_id: 'm_escapes',
        created_at_ms: now,
        provider: hostile,
        model: 'm',
        operation: 'generate',
        surface: 'library',
        input_tokens: 1,
        output_tokens: 2,
        cost_usd: 0.5,
        latency_ms: 12.25,
        ttft_ms: 0,
        has_ttft: 0,
        outcome: 'success',
        error_class: '',
        fallback_hops: 0,
        user_id: '',
        request_id: '',
        batch_id: '',
        job_id: '',
        route_group: 'escapes',
        route_approach: 'sr',
        eliminated_candidates: [hostile, '', "a'b", 'c\\d'],
        cache_hit: 1,
        saved_cost_usd: 0.25,
        api: 'messages',
        api_key_id: '',
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cache_write_1h_tokens: 0,
        reasoning_tokens: 0,
        prompt_cache_saved_usd: 0,
        end_user: hostile,
      } as const;
      await store.insert({ domain: [], api: [], llm: [row] });
      const { database, executor } = ready();
      const calls = await executor.query(`SELECT provider, cost_usd, latency_ms FROM ${database}.analytics_llm_calls WHERE event_id = '${eventId}'`);
      expect(calls).toEqual([{ provider: hostile, cost_usd: 0.5, latency_ms: 12.25 }]);
      const routed = await executor.query(`SELECT provider, eliminated_candidates FROM ${database}.analytics_llm_route_calls WHERE event_id = '${eventId}'`);
      expect(routed).toEqual([{ provider: hostile, eliminated_candidates: [hostile, '', "a'b", 'c\\d'] }]);
      const hits = await executor.query(`SELECT provider, saved_cost_usd FROM ${database}.analytics_llm_cache_hits WHERE event_id = '${eventId}'`);
      expect(hits).toEqual([{ provider: hostile, saved_cost_usd: 0.25 }]);
      const endUsers = await executor.query(`SELECT end_user FROM ${database}.analytics_llm_call_end_users WHERE event_id = '${eventId}'`);
      expect(endUsers).toEqual([{ end_user: hostile }]);
    });

    it('drops whole days before the cutoff and keeps the rest', async () => {
      await store.insert(mapEventsToAnalyticsRows([oldEvent]));
      const window = { start_ms: String(now - 4 * 86_400_000), end_ms: String(now) };
      expect((await store.decisions(query('decisions', window))).tiles[0]?.value).toBe('6');
      expect(await store.dropPartitionsBefore(now)).toBe(1);
      expect((await store.decisions(query('decisions', window))).tiles[0]?.value).toBe('5');
      expect(await store.dropPartitionsBefore(now)).toBe(0);
    });
  });
}
