import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * The budget reservation of /api/generate covers the whole input the call sends (issue 28), not
 * only its prompt: the session's remembered history and the text extracted from its documents.
 * A priced model (gpt-4o-mini: $0.00015 per 1K input tokens) and a key with a $0.001 budget: a short
 * prompt fits, the same prompt carrying ~8,000 tokens of history or document text does not, and is
 * refused before any provider call.
 */

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  return chatCompletion({ model: body.model, content: 'ok', usage: { promptTokens: 3, completionTokens: 2 } });
}

let provider: FakeHttpServer;
let t: TestApp;
let ownerKey: string;
let budgetKey: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-reserve', OPENAI_BASE_URL: `${provider.url}/v1` } });
  ownerKey = (await createMerchant(t.app, 'reserve-shop')).apiKey;
  budgetKey = (await createKeyWith(t.app, ownerKey, 'reserve-shop', { limits: { budget: { amount_usd: 0.001, period: 'day' } } })).apiKey;
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const priced = { provider: 'openai', model: 'gpt-4o-mini', maxTokens: 5, disableTools: true } as const;

async function generate(key: string, payload: Record<string, unknown>) {
  const before = provider.requests.length;
  const response = await t.app.inject({ method: 'POST', url: '/api/generate', headers: withKey(key), payload: { ...priced, ...payload } });
  return { response, sent: provider.requests.length - before };
}

describe('/api/generate budget reservation', () => {
  it('admits a short prompt under the budget', async () => {
    const { response, sent } = await generate(budgetKey, { input: { text: 'hi' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(sent).toBe(1);
  });

  it("counts the session's remembered history: refused with 429 before any provider call", async () => {
    const remembered = await generate(ownerKey, { input: { text: 'x'.repeat(24_000) }, context: { sessionId: 'long-history' } });
    expect(remembered.response.statusCode, remembered.response.body).toBe(200);
    const { response, sent } = await generate(budgetKey, { input: { text: 'hi' }, context: { sessionId: 'long-history' } });
    expect(response.statusCode, response.body).toBe(429);
    expect(response.headers['retry-after']).toBeDefined();
    expect((response.json() as { message: string }).message).toContain('budget');
    expect(sent).toBe(0);
    // Another session of the same key carries no history and fits.
    expect((await generate(budgetKey, { input: { text: 'hi' }, context: { sessionId: 'fresh' } })).response.statusCode).toBe(200);
  });

  it("counts the text extracted from the request's documents", async () => {
    const rows = ['sku,name,price', ...Array.from({ length: 1200 }, (_, index) => `${index},item number ${index},${index}.99`)].join('\n');
    expect(rows.length).toBeGreaterThan(24_000);
    const files = [`data:text/csv;base64,${Buffer.from(rows).toString('base64')}`];
    const { response, sent } = await generate(budgetKey, { input: { text: 'Sum the prices.' }, files });
    expect(response.statusCode, response.body).toBe(429);
    expect(sent).toBe(0);
    const small = [`data:text/csv;base64,${Buffer.from('sku,price\n1,2.50').toString('base64')}`];
    expect((await generate(budgetKey, { input: { text: 'Sum the prices.' }, files: small })).response.statusCode).toBe(200);
  });
});

describe('/v1/responses budget reservation', () => {
  async function respond(key: string, payload: Record<string, unknown>) {
    const before = provider.requests.length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/responses',
      headers: withKey(key),
      payload: { model: 'openai/gpt-4o-mini', max_output_tokens: 16, ...payload },
    });
    return { response, sent: provider.requests.length - before };
  }

  it('counts the conversation a previous_response_id carries: refused with 429 before any provider call', async () => {
    const long = await respond(ownerKey, { input: 'x'.repeat(24_000) });
    expect(long.response.statusCode, long.response.body).toBe(200);
    const previous = (long.response.json() as { id: string }).id;
    const { response, sent } = await respond(budgetKey, { input: 'and then?', previous_response_id: previous });
    expect(response.statusCode, response.body).toBe(429);
    expect(sent).toBe(0);
    // The same turn without the chain fits the budget.
    expect((await respond(budgetKey, { input: 'and then?' })).response.statusCode).toBe(200);
  });
});
