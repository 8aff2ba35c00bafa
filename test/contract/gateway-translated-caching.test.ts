import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converseResponse } from '../fixtures/providers/bedrock-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Translated Messages routes keep what the target has an equivalent for (issue 34, points 3 and 5):
 * `cache_control` breakpoints become Bedrock's `cachePoint` blocks for a Converse model (Nova), and
 * `thinking` becomes a reasoning effort (OpenAI's `reasoning_effort`), instead of being lost.
 */

type Body = Record<string, unknown>;

let bedrock: FakeHttpServer;
let gpt: FakeHttpServer;
let t: TestApp;
let anthropic: Anthropic;

// Claude on Bedrock is passed through natively (InvokeModel, gateway-native-bedrock-claude.test.ts); Nova is translated to Converse.
const novaOnBedrock = 'bedrock/amazon.nova-pro-v1:0';
const longSystem = `You are a careful assistant. ${'Follow the house rules. '.repeat(400)}`;

beforeAll(async () => {
  bedrock = await startFakeHttpServer(() => converseResponse([{ text: 'cached hello' }]));
  gpt = await startFakeHttpServer((request) => chatCompletion({ model: String((request.body as Body)['model']), content: 'reasoned answer' }));
  t = await createTestApp({
    toolkitEnv: {
      AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE',
      AWS_SECRET_ACCESS_KEY: 'fake-secret',
      AWS_REGION: 'eu-west-1',
      BEDROCK_ENDPOINT: bedrock.url,
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${gpt.url}/v1`,
    },
  });
  const { apiKey } = await createMerchant(t.app, 'translated-cache-shop');
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  anthropic = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await t.close();
  await bedrock.close();
  await gpt.close();
});

/** The Converse body Bedrock received for the request mentioning `marker`. */
function converseBodyOf(marker: string): { system?: Body[]; messages: { role: string; content: Body[] }[] } {
  const found = bedrock.requests.filter((request) => request.bodyText.includes(marker)).at(-1);
  if (found === undefined) throw new Error(`bedrock received no request mentioning ${marker}`);
  return found.body as { system?: Body[]; messages: { role: string; content: Body[] }[] };
}

describe('Messages → Claude on Bedrock: cache_control becomes cachePoint', () => {
  it('puts a cache point after the marked system prompt and after the marked user turn, and none elsewhere', async () => {
    await anthropic.messages.create({
      model: novaOnBedrock,
      max_tokens: 200,
      system: [{ type: 'text', text: longSystem, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'cachepoint-1 first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: [{ type: 'text', text: 'cachepoint-1 second question', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    const sent = converseBodyOf('cachepoint-1');
    expect(sent.system?.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(sent.messages.at(-1)?.content.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    // The unmarked turns carry none.
    expect(sent.messages[0]?.content.some((block) => 'cachePoint' in block)).toBe(false);
    expect(sent.messages[1]?.content.some((block) => 'cachePoint' in block)).toBe(false);
  });

  it('sends no cache point when the client marked nothing', async () => {
    await anthropic.messages.create({ model: novaOnBedrock, max_tokens: 200, system: longSystem, messages: [{ role: 'user', content: 'cachepoint-2' }] });
    expect(JSON.stringify(converseBodyOf('cachepoint-2'))).not.toContain('cachePoint');
  });
});

describe('Messages → an OpenAI reasoning model: thinking becomes reasoning_effort', () => {
  it.each([
    [{ type: 'enabled' as const, budget_tokens: 2000 }, 'low'],
    [{ type: 'enabled' as const, budget_tokens: 20_000 }, 'high'],
  ])('thinking %j → reasoning_effort %s, and no temperature', async (thinking, effort) => {
    const marker = `thinking-${thinking.budget_tokens}`;
    await anthropic.messages.create({ model: 'openai/o4-mini', max_tokens: 21_000, thinking, messages: [{ role: 'user', content: marker }] });
    const sent = gpt.requests.filter((request) => request.bodyText.includes(marker)).at(-1)?.body as Body;
    expect(sent['reasoning_effort']).toBe(effort);
    expect(sent).not.toHaveProperty('temperature');
  });
});

describe('x-switchyard-dropped-fields names what a translated route could not carry', () => {
  it('lists unknown fields and, for a target without breakpoints, cache_control; none for what the target maps', async () => {
    const body = {
      max_tokens: 200,
      system: [{ type: 'text' as const, text: longSystem, cache_control: { type: 'ephemeral' as const } }],
      messages: [{ role: 'user' as const, content: 'dropped-1' }],
      metadata: { user_id: 'user-1' },
    };
    const toBedrock = await anthropic.messages.create({ model: novaOnBedrock, ...body }).withResponse();
    expect(toBedrock.response.headers.get('x-switchyard-dropped-fields')).toBe('metadata');
    const toOpenAi = await anthropic.messages.create({ model: 'openai/gpt-4o-mini', ...body }).withResponse();
    expect(toOpenAi.response.headers.get('x-switchyard-dropped-fields')).toBe('metadata, cache_control');
  });

  it('is absent when nothing was left out', async () => {
    const plain = await anthropic.messages
      .create({ model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'dropped-2' }] })
      .withResponse();
    expect(plain.response.headers.get('x-switchyard-dropped-fields')).toBeNull();
  });
});
