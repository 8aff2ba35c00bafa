import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { embeddingsResponse } from '../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * OWASP LLM Top 10 2026 LLM09 (vector and embedding weaknesses; LLM08 in 2025): Switchyard keeps no
 * vectors, so what remains is the embeddings route's scoping. A merchant's route group of embedding
 * models is that merchant's alone (another merchant naming it reaches nothing), each call is recorded
 * as its caller's, and the key's limits apply before any provider call: rpm, and the budget, since
 * the registry prices embedding models (`embeddings` of schemas/models.json): each call is costed at
 * its model's price and reserved against the key's budget like any other gateway call.
 */

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string; input: string[] };
  return embeddingsResponse({ model: body.model, vectors: body.input.map(() => [0.5, -0.25]), promptTokens: body.input.length, encoding: 'float' });
}

let provider: FakeHttpServer;
let t: TestApp;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-embed-scope', OPENAI_BASE_URL: `${provider.url}/v1` } });
  keyA = (await createMerchant(t.app, 'embed-scope-a')).apiKey;
  keyB = (await createMerchant(t.app, 'embed-scope-b')).apiKey;
  const put = await t.app.inject({
    method: 'PUT',
    url: '/v1/route-groups/private-embedders',
    headers: withKey(keyA),
    payload: { candidates: [{ provider: 'openai', model: 'text-embedding-3-small' }], explorePercent: 0 },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const embed = (key: string, model: string, input: string | string[]) =>
  t.app.inject({ method: 'POST', url: '/v1/embeddings', headers: { authorization: `Bearer ${key}` }, payload: { model, input } });

describe('/v1/embeddings scoping', () => {
  it("serves a merchant's own route group and records the call as that merchant's", async () => {
    const response = await embed(keyA, 'private-embedders', ['hello']);
    expect(response.statusCode, response.body).toBe(200);
    await t.eventsCaughtUp();
    const record = t.events.findLast((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.operation === 'embed');
    expect(record).toMatchObject({ merchantId: 'embed-scope-a', payload: { routeGroup: 'private-embedders' } });
  });

  it("does not let another merchant reach it: B naming A's group gets a 4xx and no provider call", async () => {
    const before = provider.requests.length;
    const response = await embed(keyB, 'private-embedders', ['hello']);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(provider.requests.length).toBe(before);
    // B's route-group list does not show it either.
    const listed = await t.app.inject({ method: 'GET', url: '/v1/route-groups', headers: withKey(keyB) });
    expect(listed.body).not.toContain('private-embedders');
  });

  it("holds embeddings to the key's rpm like every gateway call, refusing before any provider call", async () => {
    const limitedKey = (await createKeyWith(t.app, keyA, 'embed-scope-a', { limits: { rpm: 1 } })).apiKey;
    expect((await embed(limitedKey, 'openai/text-embedding-3-small', 'one')).statusCode).toBe(200);
    const before = provider.requests.length;
    const response = await embed(limitedKey, 'openai/text-embedding-3-small', 'two');
    expect(response.statusCode, response.body).toBe(429);
    expect(provider.requests.length).toBe(before);
  });

  it("costs a call at the embedding model's price (text-embedding-3-small: $0.00002 per 1K tokens)", async () => {
    const response = await embed(keyA, 'openai/text-embedding-3-small', ['a', 'b', 'c', 'd']);
    expect(response.statusCode, response.body).toBe(200);
    await t.eventsCaughtUp();
    const record = t.events.findLast((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.operation === 'embed');
    // The fake counts one token per text: 4 tokens, not the $0.00015 chat default of the provider.
    expect(record?.payload).toMatchObject({ inputTokens: 4, outputTokens: 0 });
    expect(record?.payload.costUsd).toBeCloseTo((4 / 1000) * 0.00002, 12);
  });

  it("reserves an embedding call against the key's budget: refused with 429 before any provider call", async () => {
    const budgetKey = (await createKeyWith(t.app, keyA, 'embed-scope-a', { limits: { budget: { amount_usd: 0.00001, period: 'day' } } })).apiKey;
    expect((await embed(budgetKey, 'openai/text-embedding-3-small', 'short')).statusCode).toBe(200);
    const before = provider.requests.length;
    // ~10,000 tokens at $0.00002 per 1K: $0.0002, over the $0.00001 budget.
    const response = await embed(budgetKey, 'openai/text-embedding-3-small', 'x'.repeat(30_000));
    expect(response.statusCode, response.body).toBe(429);
    expect(provider.requests.length).toBe(before);
  });
});
