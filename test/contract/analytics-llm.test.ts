import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import type { CallAttribution, LlmCallRecord } from '../../src/generation/llm-call-record.js';
import { llmCallPublisher, unattributedMerchant } from '../../src/generation/publish-llm-calls.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { adminSecret, createMerchant, createTestApp, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/llm/{overview,usage,latency,errors} over the embedded analytics store (chDB):
 * call records go through the real publisher, bus and analytics sink, then the routes are read
 * with the payment analytics' parameters, bounds, 400 rules and merchant scoping.
 */

const minuteMs = 60_000;
/** "Now" for the app: fixed, so windows and buckets are exact. */
const now = Date.UTC(2026, 0, 15, 12, 0, 0);
const merchantA = 'm-llm-contract-a';
const merchantB = 'm-llm-contract-b';

const routes = ['overview', 'usage', 'latency', 'errors'] as const;
const reportSchema = { overview: 'LlmOverviewReport', usage: 'LlmUsageReport', latency: 'LlmLatencyReport', errors: 'LlmErrorsReport' } as const;

function record(fields: Partial<LlmCallRecord> & { attribution: CallAttribution }): LlmCallRecord {
  return {
    provider: 'openai',
    model: 'gpt-4o-mini',
    operation: 'generate',
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    latencyMs: 100,
    outcome: 'success',
    fallbackHops: 0,
    ...fields,
  };
}

/** What merchant A's calls were, and when (minutes before `now`). */
const callsOfA: readonly { readonly minutesAgo: number; readonly record: LlmCallRecord }[] = [
  {
    minutesAgo: 12,
    record: record({
      inputTokens: 100,
      outputTokens: 20,
      costUsd: 0.000027,
      latencyMs: 400,
      attribution: { merchantId: merchantA, requestId: 'r1', surface: 'http' },
    }),
  },
  {
    minutesAgo: 9,
    record: record({
      operation: 'stream',
      inputTokens: 10,
      outputTokens: 5,
      costUsd: 0.000004,
      latencyMs: 300,
      timeToFirstTokenMs: 50,
      attribution: { merchantId: merchantA, surface: 'sse' },
    }),
  },
  // One request that failed over: the first attempt is rate limited, the second provider answers.
  {
    minutesAgo: 8,
    record: record({
      outcome: 'error',
      errorClass: 'RateLimitError',
      latencyMs: 100,
      attribution: { merchantId: merchantA, requestId: 'r3', surface: 'http' },
    }),
  },
  {
    minutesAgo: 8,
    record: record({
      provider: 'anthropic',
      model: 'claude-3-haiku',
      fallbackHops: 1,
      inputTokens: 50,
      outputTokens: 10,
      costUsd: 0.000025,
      latencyMs: 600,
      attribution: { merchantId: merchantA, requestId: 'r3', surface: 'http' },
    }),
  },
  // Inside 12h, outside the default 1h window.
  { minutesAgo: 180, record: record({ inputTokens: 7, outputTokens: 3, latencyMs: 200, attribution: { merchantId: merchantA, surface: 'cli' } }) },
];
const callOfB = record({
  provider: 'mistral',
  model: 'mistral-small',
  inputTokens: 1,
  outputTokens: 1,
  attribution: { merchantId: merchantB, surface: 'http' },
});
/**
 * A batch item's failed attempt: published twice (a redelivered job), stored and counted once (its id is
 * derived from the job and attempt; a successful call is always a record of its own).
 */
const batchId = '0b8f9f4e-3c1a-4c55-9a51-6f2f4a9b1c2d';
const batchCallOfB = record({
  provider: 'mistral',
  model: 'mistral-small',
  inputTokens: 2,
  outputTokens: 2,
  outcome: 'error',
  errorClass: 'ProviderError',
  attribution: { merchantId: merchantB, batchId, jobId: `${batchId}:0`, jobAttempt: 1, surface: 'batch' },
});

describe('GET /analytics/llm/*', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);

  beforeAll(async () => {
    analytics = await openChdbAnalytics('llm-analytics');
    const clock = createManualClock(now);
    t = await createTestApp({ clock, analytics: analytics.store });
    await analytics.startSink(t.bus, clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
    let at = 0;
    const publish = llmCallPublisher(t.bus, { now: () => at });
    for (const call of callsOfA) {
      at = now - call.minutesAgo * minuteMs;
      publish(call.record);
    }
    at = now - 5 * minuteMs;
    publish(callOfB);
    publish(batchCallOfB);
    at = now - 4 * minuteMs;
    publish(batchCallOfB);
    await analytics.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  const get = async (url: string, headers: Record<string, string> = keyA) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    const json = response.headers['content-type']?.toString().startsWith('application/json') === true;
    return { status: response.statusCode, body: (json ? response.json() : { text: response.body }) as Record<string, unknown> };
  };

  /** A 200 whose body matches the route's response schema. */
  const report = async (route: (typeof routes)[number], query = '', headers: Record<string, string> = keyA) => {
    const response = await get(`/analytics/llm/${route}${query}`, headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const validate = ajv.getSchema(reportSchema[route])!;
    expect(validate(response.body), JSON.stringify(validate.errors)).toBe(true);
    return response.body;
  };

  it('reports calls, tokens, cost, error rate, fallbacks and providers in the overview', async () => {
    expect(await report('overview')).toEqual({
      merchant_id: merchantA,
      start_ms: now - 60 * minuteMs,
      end_ms: now,
      calls: 4,
      errors: 1,
      input_tokens: 160,
      output_tokens: 35,
      total_tokens: 195,
      cost_usd: 0.000056,
      error_rate: 0.25,
      avg_latency_ms: 350,
      fallback_calls: 1,
      providers: [
        { provider: 'openai', calls: 3, errors: 1, input_tokens: 110, output_tokens: 25, cost_usd: 0.000031 },
        { provider: 'anthropic', calls: 1, errors: 0, input_tokens: 50, output_tokens: 10, cost_usd: 0.000025 },
      ],
      // The toolkit's routes (surface http and sse) are the toolkit API.
      apis: [{ api: 'toolkit', calls: 4, errors: 1, input_tokens: 160, output_tokens: 35, cost_usd: 0.000056 }],
      cache_hits: 0,
      cache_hit_rate: 0,
      cache_tokens: 0,
      cache_saved_cost_usd: 0,
      // Every call reached a provider, none with a prompt cache.
      prompt_cache: { calls: 4, input_tokens: 160, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, cache_hit_rate: 0, saved_usd: 0 },
    });
  });

  it('reports calls per time bucket, provider and model in the usage series', async () => {
    const bucket = 5 * minuteMs;
    const bucketOf = (minutesAgo: number) => Math.floor((now - minutesAgo * minuteMs) / bucket) * bucket;
    expect(await report('usage')).toEqual({
      merchant_id: merchantA,
      start_ms: now - 60 * minuteMs,
      end_ms: now,
      bucket_ms: bucket,
      series: [
        { bucket_ms: bucketOf(12), provider: 'openai', model: 'gpt-4o-mini', calls: 1, errors: 0, input_tokens: 100, output_tokens: 20, cost_usd: 0.000027 },
        {
          bucket_ms: bucketOf(9),
          provider: 'anthropic',
          model: 'claude-3-haiku',
          calls: 1,
          errors: 0,
          input_tokens: 50,
          output_tokens: 10,
          cost_usd: 0.000025,
        },
        { bucket_ms: bucketOf(9), provider: 'openai', model: 'gpt-4o-mini', calls: 2, errors: 1, input_tokens: 10, output_tokens: 5, cost_usd: 0.000004 },
      ],
    });
    // 12h: hourly buckets, and the call of three hours ago is in.
    const wide = await report('usage', '?range=12h');
    expect(wide['bucket_ms']).toBe(60 * minuteMs);
    expect((wide['series'] as { calls: number }[]).reduce((sum, point) => sum + point.calls, 0)).toBe(5);
  });

  it('reports latency percentiles, and time to first token over streams only', async () => {
    expect(await report('latency')).toEqual({
      merchant_id: merchantA,
      start_ms: now - 60 * minuteMs,
      end_ms: now,
      models: [
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          calls: 3,
          p50_ms: 300,
          p95_ms: 400,
          p99_ms: 400,
          streams: 1,
          ttft_p50_ms: 50,
          ttft_p95_ms: 50,
          ttft_p99_ms: 50,
        },
        {
          provider: 'anthropic',
          model: 'claude-3-haiku',
          calls: 1,
          p50_ms: 600,
          p95_ms: 600,
          p99_ms: 600,
          streams: 0,
          ttft_p50_ms: null,
          ttft_p95_ms: null,
          ttft_p99_ms: null,
        },
      ],
    });
  });

  it('reports failed calls by error class, provider and model', async () => {
    expect(await report('errors')).toEqual({
      merchant_id: merchantA,
      start_ms: now - 60 * minuteMs,
      end_ms: now,
      total_errors: 1,
      error_rate: 0.25,
      errors: [{ error_class: 'RateLimitError', provider: 'openai', model: 'gpt-4o-mini', count: 1 }],
    });
  });

  it('reads the range presets and a custom start_ms/end_ms window', async () => {
    expect((await report('overview', '?range=15m'))['calls']).toBe(4);
    expect((await report('overview', '?range=12h'))['calls']).toBe(5);
    // Only the stream, nine minutes ago.
    const custom = await report('overview', `?start_ms=${now - 9.5 * minuteMs}&end_ms=${now - 8.5 * minuteMs}`);
    expect(custom).toMatchObject({ start_ms: now - 9.5 * minuteMs, end_ms: now - 8.5 * minuteMs, calls: 1, input_tokens: 10 });
    // An end in the future is clamped to now; an end before the start is ignored for the default range.
    expect(await report('overview', `?start_ms=${now - 13 * minuteMs}&end_ms=${now + 60 * minuteMs}`)).toMatchObject({ end_ms: now, calls: 4 });
    expect(await report('overview', `?start_ms=${now}&end_ms=${now - minuteMs}`)).toMatchObject({ start_ms: now - 60 * minuteMs, calls: 4 });
    // page and page_size out of bounds are clamped, as on the payment reads.
    expect((await report('errors', '?page=0&page_size=500'))['total_errors']).toBe(1);
  });

  it("shows each merchant only its own calls, and counts a redelivered batch job's record once", async () => {
    expect(await report('overview', '', keyB)).toMatchObject({
      merchant_id: merchantB,
      calls: 2,
      input_tokens: 3,
      providers: [{ provider: 'mistral', calls: 2 }],
    });
    for (const route of routes) {
      const response = await get(`/analytics/llm/${route}?merchant_id=${merchantA}`, keyB);
      expect(response.status, route).toBe(403);
      expect((await get(`/analytics/llm/${route}?merchant_id=${merchantA}`, keyA)).status, route).toBe(200);
    }
  });

  it('keeps the placeholder merchant of unattributed calls out of reach: no merchant may take its id', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: unattributedMerchant },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'TE_03', message: `merchant_id ${unattributedMerchant} is reserved` });
  });

  it('answers a session token for the merchant as it answers its API key', async () => {
    const { token } = await signUp(t.app, 'llm-analytics@example.com', merchantA);
    expect(await report('overview', '', withToken(token))).toEqual(await report('overview'));
  });

  it('refuses a request without a credential, or with an unknown key, with 401', async () => {
    for (const route of routes) {
      expect((await get(`/analytics/llm/${route}`, {})).status, route).toBe(401);
      expect((await get(`/analytics/llm/${route}`, withKey('DE_not-a-key'))).status, route).toBe(401);
    }
  });

  it('answers a malformed parameter with the 400 the payment reads give, naming it', async () => {
    const malformed: readonly [query: string, parameter: string][] = [
      ['range=forever', 'range'],
      ['start_ms=-1&end_ms=5', 'start_ms'],
      ['start_ms=yesterday&end_ms=5', 'start_ms'],
      ['end_ms=1.5', 'end_ms'],
      ['page=abc', 'page'],
      ['page_size=ten', 'page_size'],
      ['range=1h&range=12h', 'range'],
    ];
    for (const [query, parameter] of malformed) {
      const payment = await get(`/analytics/decisions?${query}`);
      expect(payment.status, query).toBe(400);
      for (const route of routes) {
        const response = await get(`/analytics/llm/${route}?${query}`);
        expect(response.status, `${route}?${query}`).toBe(400);
        expect(response.body, `${route}?${query}`).toEqual(payment.body);
        expect(String(response.body['message']), `${route}?${query}`).toContain(parameter);
      }
    }
  });

  it('refuses a tenant other than public with 400, as the payment reads do', async () => {
    for (const route of routes) {
      const response = await get(`/analytics/llm/${route}`, { ...keyA, 'x-tenant-id': 'acme' });
      expect(response.status, route).toBe(400);
      expect(response.body).toEqual((await get('/analytics/decisions', { ...keyA, 'x-tenant-id': 'acme' })).body);
    }
    expect((await get('/analytics/llm/overview', { ...keyA, 'x-tenant-id': 'public' })).status).toBe(200);
  });

  it('documents the four routes in OpenAPI with their response schemas', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get?: { tags?: string[]; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } }>;
    };
    for (const route of routes) {
      const operation = spec.paths[`/analytics/llm/${route}`]?.get;
      expect(operation?.tags, route).toEqual(['Analytics']);
      expect(JSON.stringify(operation?.responses?.['200']?.content?.['application/json']?.schema), route).toContain(reportSchema[route]);
    }
  });
});

describe('GET /analytics/llm/* without an analytics store', () => {
  it('answers as the payment reads do (TE_01, "Failed while connecting to database")', async () => {
    const t = await createTestApp();
    try {
      const key = withKey((await createMerchant(t.app, 'm-llm-no-store')).apiKey);
      const payment = await t.app.inject({ method: 'GET', url: '/analytics/decisions', headers: key });
      for (const route of routes) {
        const response = await t.app.inject({ method: 'GET', url: `/analytics/llm/${route}`, headers: key });
        expect(response.statusCode, route).toBe(payment.statusCode);
        expect(response.json(), route).toEqual(payment.json());
        expect(response.json(), route).toMatchObject({ code: 'TE_01' });
      }
    } finally {
      await t.close();
    }
  });
});
