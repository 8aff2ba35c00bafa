import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import type { LlmGuardsReport } from '../../src/generated/schema-types.js';
import { createManualClock } from '../../src/time/clock.js';
import { startFakeHttpServer, type FakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/llm/guards (issue 38's evidence) over the embedded analytics store (chDB): gateway calls
 * with a card number, a key's deny-list and a route group's phone guard go through the real guard
 * pipeline, their `guard.applied` events through the bus and the analytics sink, and the read counts
 * them per guard, key and bucket for the caller's merchant only, with its filters and 400s, never the
 * matched text. The same read on ClickHouse server is in test/integration/analytics/analytics-store.suite.ts.
 */

const now = Date.UTC(2026, 0, 15, 12, 0, 0);
const merchantA = 'm-guard-analytics-a';
const merchantB = 'm-guard-analytics-b';
const card = '4111111111111111';
const phone = '+1 415 555 0134';

describe('GET /analytics/llm/guards', () => {
  let provider: FakeHttpServer;
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let ownerA: string;
  let strict: { keyId: string; apiKey: string };
  let ownerB: string;
  const clock = createManualClock(now - 20 * 60_000);
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);

  beforeAll(async () => {
    provider = await startFakeHttpServer((request) =>
      chatCompletion({ model: String((request.body as { model: string }).model), content: 'ok', usage: { promptTokens: 3, completionTokens: 1 } }),
    );
    analytics = await openChdbAnalytics('guard-analytics');
    t = await createTestApp({ clock, analytics: analytics.store, toolkitEnv: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    await analytics.startSink(t.bus, clock);
    ownerA = (await createMerchant(t.app, merchantA)).apiKey;
    ownerB = (await createMerchant(t.app, merchantB)).apiKey;
    strict = await createKeyWith(t.app, ownerA, merchantA, {});
    const group = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/guarded-group',
      headers: withKey(ownerA),
      payload: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] },
    });
    expect(group.statusCode, group.body).toBe(200);
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/guardrails',
      headers: withKey(ownerA),
      payload: {
        keys: { [strict.keyId]: { 'deny-list': { action: 'block', terms: ['project falcon'] } } },
        routeGroups: { 'guarded-group': { phone: { action: 'block' } } },
      },
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const chat = async (key: string, content: string, status: number, model = 'openai/gpt-4o-mini') => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: withKey(key),
        payload: { model, messages: [{ role: 'user', content }] },
      });
      expect(response.statusCode, response.body).toBe(status);
    };
    // Minute -20: two card numbers masked by default on A's owner key.
    await chat(ownerA, `cards ${card} and 4242 4242 4242 4242`, 200);
    // Minute -10: the strict key's deny-list refuses a call; the route group's phone guard another.
    clock.set(now - 10 * 60_000);
    await chat(strict.apiKey, 'about Project Falcon', 400);
    await chat(ownerA, `call ${phone}`, 400, 'guarded-group');
    // B's own card outcome.
    await chat(ownerB, `card ${card}`, 200);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
    clock.set(now);
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
    await provider?.close();
  });

  const get = (query: string, key = ownerA) => t.app.inject({ method: 'GET', url: `/analytics/llm/guards${query}`, headers: withKey(key) });
  const report = async (query: string, key = ownerA): Promise<LlmGuardsReport> => {
    const response = await get(query, key);
    expect(response.statusCode, response.body).toBe(200);
    const validate = ajv.getSchema('LlmGuardsReport')!;
    expect(validate(response.json()), JSON.stringify(validate.errors)).toBe(true);
    return response.json() as LlmGuardsReport;
  };

  it('counts the merchant’s outcomes per guard, stage and action, per key and per bucket, never the text', async () => {
    const body = await report('?range=1h');
    expect(body.merchant_id).toBe(merchantA);
    expect(body.totals).toEqual({ outcomes: 3, calls: 3, found: 4, blocked: 2, masked: 1, logged: 0, refused_calls: 2 });
    expect(body.guards).toEqual([
      { guard: 'card', stage: 'input', action: 'mask', outcomes: 1, found: 2, refused_calls: 0, max_score: null },
      { guard: 'deny-list', stage: 'input', action: 'block', outcomes: 1, found: 1, refused_calls: 1, max_score: null },
      { guard: 'phone', stage: 'input', action: 'block', outcomes: 1, found: 1, refused_calls: 1, max_score: null },
    ]);
    const strictRows = body.keys.filter((row) => row.api_key_id === strict.keyId);
    expect(strictRows).toEqual([{ api_key_id: strict.keyId, guard: 'deny-list', outcomes: 1, found: 1, blocked: 1, masked: 0, logged: 0, refused_calls: 1 }]);
    expect(body.keys.filter((row) => row.api_key_id !== strict.keyId).map((row) => [row.guard, row.masked, row.blocked])).toEqual([
      ['card', 1, 0],
      ['phone', 0, 1],
    ]);
    expect(body.series.map((point) => [point.bucket_ms, point.outcomes, point.blocked, point.masked])).toEqual([
      [now - 20 * 60_000, 1, 0, 1],
      [now - 10 * 60_000, 2, 2, 0],
    ]);
    // Never the matched text, not even a group of its digits; as whole numbers, since a random key id
    // (32 hex digits) can hold '415' inside it (one run in a few dozen did).
    const text = JSON.stringify(body);
    for (const secret of [card, 'Falcon', 'falcon']) expect(text).not.toContain(secret);
    for (const digits of [/\b4242\b/, /\b415\b/]) expect(text).not.toMatch(digits);
  });

  it('narrows to one key, one route group (a refused call included) or one API', async () => {
    expect((await report(`?range=1h&api_key_id=${strict.keyId}`)).guards.map((row) => row.guard)).toEqual(['deny-list']);
    expect((await report('?range=1h&route_group=guarded-group')).guards.map((row) => row.guard)).toEqual(['phone']);
    expect((await report('?range=1h&api=chat_completions')).totals.outcomes).toBe(3);
    const none = await report('?range=1h&api=messages');
    expect([none.totals.outcomes, none.guards, none.keys, none.series]).toEqual([0, [], [], []]);
    expect((await report('?range=15m')).guards.map((row) => row.guard)).toEqual(['deny-list', 'phone']);
  });

  it('answers each merchant its own outcomes only, and a 400 naming a bad parameter', async () => {
    const b = await report('?range=1h', ownerB);
    expect([b.merchant_id, b.totals.outcomes, b.guards.map((row) => row.guard)]).toEqual([merchantB, 1, ['card']]);
    expect(JSON.stringify(b)).not.toContain(strict.keyId);
    const bad = await get(`?api_key_id=${'k'.repeat(129)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('api_key_id');
    expect((await get('?route_group=1bad')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/analytics/llm/guards' })).statusCode).toBe(401);
  });
});
