import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Per-key limits and budgets (issue 14) in embedded mode: exact under concurrency, enforced before
 * any provider call, 429s of our own never failed over, spend counted once from the calls' records.
 */

/** A gate the slow provider waits on: the test opens it (no sleeps). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let slow = gate();
let holdCalls = false;
/** Answers like OpenAI, with realistic usage: ~4 characters a prompt token, max_tokens of output (the worst case). */
async function upstream(request: RecordedRequest) {
  const body = request.body as { model: string; messages: unknown[]; max_tokens?: number; max_completion_tokens?: number };
  if (holdCalls) await slow.opened;
  const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = body.max_completion_tokens ?? body.max_tokens ?? 5;
  return chatCompletion({ model: body.model, content: 'ok', usage: { promptTokens, completionTokens } });
}

let provider: FakeHttpServer;
let t: TestApp;
let baseURL: string;
let ownerKey: string;

function newKey(limits: unknown, cache?: unknown): Promise<{ keyId: string; apiKey: string }> {
  return createKeyWith(t.app, ownerKey, 'limited-shop', { limits, ...(cache !== undefined ? { cache } : {}) });
}

async function usageOf(keyId: string) {
  const list = (await t.app.inject({ method: 'GET', url: '/api-key/list/limited-shop', headers: withKey(ownerKey) })).json() as {
    key_id: string;
    usage: Record<string, number | string>;
    limits: unknown;
    effective_limits: unknown;
  }[];
  const item = list.find((entry) => entry.key_id === keyId);
  if (item === undefined) throw new Error(`no key ${keyId}`);
  return item;
}

const chat = (apiKey: string, content = 'hello', maxTokens = 5) =>
  fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }], max_tokens: maxTokens }),
  });

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` }, keyLeaseTtlMs: 30_000 });
  ({ apiKey: ownerKey } = await createMerchant(t.app, 'limited-shop'));
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
});
afterAll(async () => {
  slow.open();
  await t.close();
  await provider.close();
});

describe('API key limits: configuration', () => {
  it('creates a key with limits and a cache setting, shows them with usage, and replaces them', async () => {
    const { keyId } = await newKey({ rpm: 600, tpm: 200000, max_concurrent: 20, budget: { amount_usd: 25, period: 'day' } }, { ttl_s: 300 });
    const listed = await usageOf(keyId);
    expect(listed.limits).toEqual({ rpm: 600, tpm: 200000, max_concurrent: 20, budget: { amount_usd: 25, period: 'day' } });
    expect(listed.usage).toEqual({ requests_this_minute: 0, tokens_this_minute: 0, in_flight: 0, spend_usd: 0, reserved_usd: 0, period: 'day' });
    const replaced = await t.app.inject({ method: 'POST', url: `/api-key/${keyId}/limits`, headers: withKey(ownerKey), payload: { limits: { rpm: 5 } } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ key_id: keyId, limits: { rpm: 5 }, cache: null });
  });

  it('refuses bad limits with a 400 naming the field, an unknown key with 404 and another merchant with 403', async () => {
    const cases: [unknown, unknown, string][] = [
      [{ rpm: 0 }, undefined, 'limits.rpm'],
      [{ rpm: 1.5 }, undefined, 'limits.rpm'],
      [{ max_concurrent: 'many' }, undefined, 'limits.max_concurrent'],
      [{ budget: { amount_usd: 5, period: 'week' } }, undefined, 'limits.budget.period'],
      [{ budget: { amount_usd: -1, period: 'day' } }, undefined, 'limits.budget.amount_usd'],
      [{ rps: 5 }, undefined, 'limits.rps'],
      [undefined, { ttl_s: 0 }, 'cache.ttl_s'],
    ];
    for (const [limits, cache, field] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api-key/create',
        headers: withKey(ownerKey),
        payload: { merchant_id: 'limited-shop', limits, cache },
      });
      expect(response.statusCode, JSON.stringify(limits ?? cache)).toBe(400);
      expect((response.json() as { message: string }).message).toContain(field);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api-key/nope/limits', headers: withKey(ownerKey), payload: { limits: { rpm: 1 } } })).statusCode).toBe(
      404,
    );
    const { keyId } = await newKey({ rpm: 10 });
    const { apiKey: otherKey } = await createMerchant(t.app, 'other-shop');
    expect((await t.app.inject({ method: 'POST', url: `/api-key/${keyId}/limits`, headers: withKey(otherKey), payload: { limits: null } })).statusCode).toBe(
      404,
    );
  });
});

describe('API key limits: enforcement', () => {
  it('serves exactly rpm of 100 parallel gateway requests; the rest are 429 rate_limit_exceeded with Retry-After, never sent upstream', async () => {
    const { apiKey } = await newKey({ rpm: 50 });
    const before = provider.requests.length;
    const responses = await Promise.all(Array.from({ length: 100 }, (_, index) => chat(apiKey, `parallel ${index}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const refused = responses.find((response) => response.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The official SDKs would otherwise retry it twice on their own.
    expect(refused?.headers.get('x-should-retry')).toBe('false');
    expect(await refused?.json()).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } });
    expect(provider.requests.length - before).toBe(50);
    // The official client raises its own RateLimitError for ours.
    await expect(
      new OpenAI({ apiKey, baseURL, maxRetries: 0 }).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('holds max_concurrent with a slow provider, and frees the slots when the answers are done', async () => {
    const { keyId, apiKey } = await newKey({ max_concurrent: 2 });
    slow = gate();
    holdCalls = true;
    const before = provider.requests.length;
    const held = [chat(apiKey, 'first'), chat(apiKey, 'second')];
    await expect.poll(() => provider.requests.length - before).toBe(2);
    const extra = await Promise.all([chat(apiKey, 'third'), chat(apiKey, 'fourth')]);
    expect(extra.map((response) => response.status)).toEqual([429, 429]);
    expect((await usageOf(keyId)).usage['in_flight']).toBe(2);
    holdCalls = false;
    slow.open();
    expect((await Promise.all(held)).map((response) => response.status)).toEqual([200, 200]);
    await expect.poll(async () => (await usageOf(keyId)).usage['in_flight']).toBe(0);
    expect((await chat(apiKey, 'after')).status).toBe(200);
  });

  it('refuses once the minute has used tpm tokens', async () => {
    const { keyId, apiKey } = await newKey({ tpm: 40 });
    expect((await chat(apiKey, 'x', 30)).status).toBe(200);
    expect((await chat(apiKey, 'x', 30)).status).toBe(200);
    // A call's tokens are counted as its record lands, which may be just after its answer reached the
    // client: the limit applies from the moment the key's usage shows them.
    await expect.poll(async () => (await usageOf(keyId)).usage['tokens_this_minute']).toBeGreaterThanOrEqual(60);
    const refused = await chat(apiKey, 'x', 30);
    expect(refused.status).toBe(429);
  });

  it('never lets a budget be overshot: parallel requests reserve max_tokens × price, refusals are insufficient_quota, spend is the records’ cost', async () => {
    const budget = 0.001;
    const { keyId, apiKey } = await newKey({ budget: { amount_usd: budget, period: 'day' } });
    const responses = await Promise.all(Array.from({ length: 20 }, () => chat(apiKey, 'a priced call', 400)));
    const served = responses.filter((response) => response.status === 200).length;
    const refused = responses.filter((response) => response.status === 429);
    expect(served).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(await refused[0]?.json()).toMatchObject({ error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
    await t.eventsCaughtUp();
    const costs = t.events
      .filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.apiKeyId === keyId)
      .map((event) => event.payload.costUsd);
    expect(costs).toHaveLength(served);
    const recorded = costs.reduce((sum, cost) => sum + cost, 0);
    await t.spendCounted();
    const { usage } = await usageOf(keyId);
    expect(usage['spend_usd']).toBeCloseTo(recorded, 9);
    expect(Number(usage['spend_usd'])).toBeLessThanOrEqual(budget);
    expect(usage['reserved_usd']).toBe(0);
    // Spent: a later request is refused until the period renews.
    const later = await chat(apiKey, 'again', 400);
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits the payment routes by rpm too, in their own error envelope', async () => {
    const { apiKey } = await newKey({ rpm: 2, tpm: 1, budget: { amount_usd: 0.000001, period: 'month' } });
    const statuses: number[] = [];
    let last: { headers: Record<string, unknown>; body: string } | undefined;
    for (let index = 0; index < 3; index += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: withKey(apiKey),
        payload: decideBody('limited-shop', `pay-${index}`),
      });
      statuses.push(response.statusCode);
      last = response;
    }
    // tpm and budget do not apply to payments: only rpm refuses the third.
    expect(statuses.slice(0, 2).every((status) => status !== 429)).toBe(true);
    expect(statuses[2]).toBe(429);
    expect(last?.headers['retry-after']).toBeDefined();
    expect(JSON.parse(last?.body ?? '{}')).toMatchObject({ code: 'TE_04', message: expect.stringContaining('rpm 2') });
  });

  it("applies the merchant's defaults to keys without limits of their own, field by field", async () => {
    const { keyId, apiKey } = await newKey(undefined);
    const put = await t.app.inject({ method: 'PUT', url: '/api-key/defaults/limited-shop', headers: withKey(ownerKey), payload: { limits: { rpm: 1 } } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await chat(apiKey)).status).toBe(200);
    expect((await chat(apiKey)).status).toBe(429);
    expect((await usageOf(keyId)).effective_limits).toEqual({ rpm: 1 });
    await t.app.inject({ method: 'PUT', url: '/api-key/defaults/limited-shop', headers: withKey(ownerKey), payload: {} });
  });

  it('reconciles the spend of a replica that died before counting it, from the llm.call event on the spine, once', async () => {
    const { keyId } = await newKey({ budget: { amount_usd: 1, period: 'month' } });
    const payload = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      surface: 'gateway',
      inputTokens: 100,
      outputTokens: 50,
      costUsd: 0.25,
      latencyMs: 10,
      timeToFirstTokenMs: null,
      outcome: 'success',
      errorClass: null,
      fallbackHops: 0,
      userId: null,
      requestId: 'dead-replica',
      batchId: null,
      jobId: null,
      apiKeyId: keyId,
    } as const;
    const event = createEvent('llm.call', 'limited-shop', payload, t.clock.now());
    await t.bus.publish([event]);
    await t.bus.publish([event]);
    await t.worker.caughtUp();
    const { usage } = await usageOf(keyId);
    expect(usage['spend_usd']).toBe(0.25);
  });
});
