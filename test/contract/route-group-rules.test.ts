import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Route-group rules and objectives through the gateway, with the official client: rules narrow
 * the candidates before ranking (and refuse rather than break a rule), cost and latency weigh in
 * the ranking when a group asks for it.
 */

const answer = (request: RecordedRequest) => chatCompletion({ model: (request.body as { model: string }).model, content: 'ok' });

let openai: FakeHttpServer;
let mistral: FakeHttpServer;
let t: TestApp;
let apiKey: string;
let client: OpenAI;

beforeAll(async () => {
  openai = await startFakeHttpServer(answer);
  mistral = await startFakeHttpServer(answer);
  t = await createTestApp({
    toolkitEnv: {
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      MISTRAL_API_KEY: 'mistral-upstream',
      MISTRAL_BASE_URL: `${mistral.url}/v1`,
    },
  });
  ({ apiKey } = await createMerchant(t.app, 'rules-shop'));
  client = new OpenAI({ apiKey, baseURL: `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await openai.close();
  await mistral.close();
});

async function putGroup(name: string, body: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'PUT', url: `/v1/route-groups/${name}`, headers: withKey(apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>;
}

async function modelsServing(name: string, content: string, calls: number): Promise<string[]> {
  const models: string[] = [];
  for (let index = 0; index < calls; index += 1)
    models.push((await client.chat.completions.create({ model: name, messages: [{ role: 'user', content }] })).model);
  return models;
}

describe('route group rules', () => {
  it('keeps a merchant’s traffic on the providers a rule allows, however the others rank', async () => {
    const stored = await putGroup('eu-only', {
      candidates: [
        { provider: 'openai', model: 'gpt-4o-mini', weight: 10 },
        { provider: 'mistral', model: 'mistral-small-latest' },
      ],
      rules: [{ name: 'data stays in the EU', onlyProviders: ['mistral'] }],
      explorePercent: 0,
    });
    expect(stored['rules']).toEqual([{ name: 'data stays in the EU', onlyProviders: ['mistral'] }]);
    const before = openai.requests.length;
    expect(await modelsServing('eu-only', 'hello', 3)).toEqual(['mistral-small-latest', 'mistral-small-latest', 'mistral-small-latest']);
    expect(openai.requests.length).toBe(before);
  });

  it('sends long prompts only to models with a large enough context, and refuses when none has one', async () => {
    await putGroup('by-length', {
      candidates: [
        { provider: 'mistral', model: 'mistral-small-latest', weight: 10 },
        { provider: 'openai', model: 'gpt-4.1-mini' },
      ],
      rules: [{ name: 'long prompts', promptTokensAtLeast: 1000, minContextWindow: 500_000 }],
      explorePercent: 0,
    });
    expect(await modelsServing('by-length', 'short question', 1)).toEqual(['mistral-small-latest']);
    expect(await modelsServing('by-length', 'word '.repeat(2000), 1)).toEqual(['gpt-4.1-mini']);
    await putGroup('too-small', {
      candidates: [{ provider: 'mistral', model: 'mistral-small-latest' }],
      rules: [{ name: 'huge context', minContextWindow: 10_000_000 }],
    });
    await expect(client.chat.completions.create({ model: 'too-small', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('under its rule "huge context"'),
    });
  });

  it('refuses rules that name no provider or restrict nothing, naming the field', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/bad-rules',
      headers: withKey(apiKey),
      payload: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }], rules: [{ name: 'x', onlyProviders: ['nowhere'] }, { name: 'y' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('rules[0].onlyProviders[0]');
    expect(response.body).toContain('rules[1] (\\"y\\") restricts nothing');
  });
});

describe('route group objectives', () => {
  it('ranks by success rate alone by default, and puts the cheaper candidate first once cost has a weight', async () => {
    const candidates = [
      { provider: 'openai', model: 'gpt-4o' },
      { provider: 'mistral', model: 'mistral-small-latest' },
    ];
    await putGroup('success-first', { candidates, explorePercent: 0 });
    expect(await modelsServing('success-first', 'hi', 1)).toEqual(['gpt-4o']);
    const stored = await putGroup('cost-aware', { candidates, explorePercent: 0, objectives: { costWeight: 0.3 } });
    expect(stored['objectives']).toEqual({ latencyWeight: 0, costWeight: 0.3, latencyTargetMs: 2000 });
    expect(await modelsServing('cost-aware', 'hi', 2)).toEqual(['mistral-small-latest', 'mistral-small-latest']);
  });

  it('learns each candidate’s speed from its calls and moves traffic off a slow one when latency has a weight', async () => {
    // The provider is slow by design (its answer takes longer than the group's target), not a test wait.
    openai.setHandler(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return answer(request);
    });
    try {
      await putGroup('fast-first', {
        candidates: [
          { provider: 'openai', model: 'gpt-4o-mini' },
          { provider: 'mistral', model: 'mistral-small-latest' },
        ],
        explorePercent: 0,
        bucketSize: 4,
        objectives: { latencyWeight: 0.5, latencyTargetMs: 600 },
      });
      expect(await modelsServing('fast-first', 'hi', 1)).toEqual(['gpt-4o-mini']);
      await t.worker.caughtUp();
      expect(await modelsServing('fast-first', 'hi', 2)).toEqual(['mistral-small-latest', 'mistral-small-latest']);
    } finally {
      openai.setHandler(answer);
    }
  });
});
