import Anthropic from '@anthropic-ai/sdk';
import { Ajv } from 'ajv';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { anthropicMessage, anthropicTextStream } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Prompt-cache usage on the gateway's translated routes (issue 34 point 3): fakes of OpenAI and
 * Anthropic report cached and reasoning tokens in their own usage fields; each wire answers them in
 * its own fields (chat `prompt_tokens_details.cached_tokens`, Responses
 * `input_tokens_details.cached_tokens`, Messages `cache_read_input_tokens` with `input_tokens` the
 * uncached rest), plain and streamed, to the official clients; each call's `llm.call` carries them,
 * priced at the registry's cache prices; /analytics/llm/prompt-cache reports them per key and model.
 *
 * Cross-protocol routes only (Messages → OpenAI, chat completions and Responses → Anthropic): those
 * are translated whatever same-protocol pass-through does.
 */

/** gpt-4o answers every prompt with 2,048 prompt tokens, 1,024 of them cached, and 64 reasoning tokens of 100. */
function openAiUpstream(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean };
  const usage = { promptTokens: 2_048, completionTokens: 100, cachedTokens: 1_024, reasoningTokens: 64 };
  return body.stream === true
    ? chatCompletionStream({ model: body.model, deltas: ['Bon', 'jour'], usage })
    : chatCompletion({ model: body.model, content: 'Bonjour', usage });
}

/** Claude reads 8,000 prompt tokens from its cache, writes 1,000 for 5 minutes and 500 for an hour; 500 are uncached. */
const claudeUsage = { inputTokens: 500, outputTokens: 50, cacheReadInputTokens: 8_000, ephemeral5mInputTokens: 1_000, ephemeral1hInputTokens: 500 } as const;
function anthropicUpstream(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean };
  return body.stream === true
    ? anthropicTextStream(['Hello', ' there'], { model: body.model, ...claudeUsage })
    : anthropicMessage([{ type: 'text', text: 'Hello there' }], { model: body.model, ...claudeUsage });
}

const merchant = 'prompt-cache-shop';
let gpt: FakeHttpServer;
let claude: FakeHttpServer;
let t: TestApp;
let analytics: ChdbAnalyticsUnderTest;
let origin: string;
let keyId: string;
let apiKey: string;
let ownerKey: string;

beforeAll(async () => {
  gpt = await startFakeHttpServer(openAiUpstream);
  claude = await startFakeHttpServer(anthropicUpstream);
  analytics = await openChdbAnalytics('prompt-cache');
  t = await createTestApp({
    analytics: analytics.store,
    toolkitEnv: {
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${gpt.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `${claude.url}/v1`,
    },
  });
  await analytics.startSink(t.bus, t.clock);
  ownerKey = (await createMerchant(t.app, merchant)).apiKey;
  // A budget the reservations (prompt at the full input price) stay far below: the spend it counts is the real cost.
  ({ keyId, apiKey } = await createKeyWith(t.app, ownerKey, merchant, { limits: { budget: { amount_usd: 100, period: 'day' } } }));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await analytics?.close(t);
  await gpt?.close();
  await claude?.close();
});

const openai = () => new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });

/** The `llm.call` events of this key since `from` (an index into `t.events`). */
async function callsSince(from: number): Promise<EventEnvelope<'llm.call'>[]> {
  await t.eventsCaughtUp();
  return t.events.slice(from).filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.apiKeyId === keyId);
}

// Registry prices (USD per 1M tokens): gpt-4o input 2.50, cached 1.25, output 10; claude-sonnet-4
// input 3, cache read 0.30, 5-minute write 3.75, 1-hour write 6, output 15.
const gptCost = (1_024 * 2.5 + 1_024 * 1.25 + 100 * 10) / 1e6;
const gptSaved = (1_024 * (2.5 - 1.25)) / 1e6;
const claudeCost = (500 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 500 * 6 + 50 * 15) / 1e6;
const claudeSaved = (8_000 * (3 - 0.3) - 1_000 * (3.75 - 3) - 500 * (6 - 3)) / 1e6;

describe('prompt-cache usage on translated gateway routes', () => {
  it('answers a Messages request routed to OpenAI with cache_read_input_tokens and the uncached rest as input_tokens', async () => {
    const from = t.events.length;
    const message = await anthropic().messages.create({ model: 'openai/gpt-4o', max_tokens: 200, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.usage).toMatchObject({
      input_tokens: 1_024,
      cache_read_input_tokens: 1_024,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 100,
    });
    const streamed = await anthropic()
      .messages.stream({ model: 'openai/gpt-4o', max_tokens: 200, messages: [{ role: 'user', content: 'hi again' }] })
      .finalMessage();
    expect(streamed.usage).toMatchObject({ input_tokens: 1_024, cache_read_input_tokens: 1_024, cache_creation_input_tokens: 0, output_tokens: 100 });

    const calls = await callsSince(from);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.payload).toMatchObject({ provider: 'openai', inputTokens: 2_048, cacheReadTokens: 1_024, reasoningTokens: 64, api: 'messages' });
      expect(call.payload.costUsd).toBeCloseTo(gptCost, 9);
      expect(call.payload.promptCacheSavedUsd).toBeCloseTo(gptSaved, 9);
    }
  });

  it('answers a chat completion routed to Anthropic with prompt_tokens_details.cached_tokens, plain and streamed', async () => {
    const from = t.events.length;
    const plain = await openai().chat.completions.create({ model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user', content: 'hi' }] });
    // prompt_tokens counts every input token, cached ones included (OpenAI's rule).
    expect(plain.usage).toMatchObject({ prompt_tokens: 10_000, completion_tokens: 50, total_tokens: 10_050, prompt_tokens_details: { cached_tokens: 8_000 } });
    const stream = await openai().chat.completions.create({
      model: 'anthropic/claude-sonnet-4',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 10_000, prompt_tokens_details: { cached_tokens: 8_000 } });

    const calls = await callsSince(from);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.payload).toMatchObject({
        provider: 'anthropic',
        inputTokens: 10_000,
        cacheReadTokens: 8_000,
        cacheWriteTokens: 1_000,
        cacheWrite1hTokens: 500,
        api: 'chat_completions',
      });
      expect(call.payload.costUsd).toBeCloseTo(claudeCost, 9);
      expect(call.payload.promptCacheSavedUsd).toBeCloseTo(claudeSaved, 9);
    }
  });

  it('answers a Responses request routed to Anthropic with input_tokens_details.cached_tokens', async () => {
    const response = await openai().responses.create({ model: 'anthropic/claude-sonnet-4', input: 'hi', store: false });
    expect(response.usage).toMatchObject({ input_tokens: 10_000, input_tokens_details: { cached_tokens: 8_000 }, output_tokens: 50 });
  });

  it("spends each call's real cost on its key: cache reads and writes at the registry's cache prices", async () => {
    const calls = await callsSince(0);
    const real = calls.reduce((sum, call) => sum + call.payload.costUsd, 0);
    const atFullInputPrice = calls.reduce((sum, call) => sum + call.payload.costUsd + (call.payload.promptCacheSavedUsd ?? 0), 0);
    expect(real).toBeCloseTo(2 * gptCost + 3 * claudeCost, 9);
    expect(real).toBeLessThan(atFullInputPrice);
    await t.spendCounted();
    const keys = (await t.app.inject({ method: 'GET', url: `/api-key/list/${merchant}`, headers: withKey(ownerKey) })).json() as {
      key_id: string;
      usage: { spend_usd: number; reserved_usd: number };
    }[];
    const usage = keys.find((key) => key.key_id === keyId)?.usage;
    expect(usage?.spend_usd).toBeCloseTo(real, 9);
    expect(usage?.reserved_usd).toBe(0);
  });

  it('reports the cache hit rate and what caching saved per key and model in /analytics/llm/prompt-cache', async () => {
    await analytics.caughtUp();
    // The records are stamped by the publisher's clock (the wall clock): the app's window must reach them.
    const latest = Math.max(...(await callsSince(0)).map((event) => event.occurredAt));
    t.clock.set(Math.max(t.clock.now(), latest + 1));
    const response = await t.app.inject({ method: 'GET', url: '/analytics/llm/prompt-cache?range=1h', headers: withKey(ownerKey) });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Record<string, unknown> & { usage: Record<string, unknown>[] };
    const ajv = new Ajv({ strict: false });
    for (const schema of httpSchemas) ajv.addSchema(schema);
    const validate = ajv.getSchema('LlmPromptCacheReport')!;
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    const claudeRow = body.usage.find((row) => row['provider'] === 'anthropic');
    const gptRow = body.usage.find((row) => row['provider'] === 'openai');
    expect(claudeRow).toMatchObject({
      api_key_id: keyId,
      provider: 'anthropic',
      calls: 3,
      input_tokens: 30_000,
      cache_read_tokens: 24_000,
      cache_write_tokens: 3_000,
      cache_write_1h_tokens: 1_500,
      cache_hit_rate: 0.8,
    });
    expect(claudeRow?.['saved_usd']).toBeCloseTo(3 * claudeSaved, 6);
    expect(claudeRow?.['cost_usd']).toBeCloseTo(3 * claudeCost, 6);
    expect(gptRow).toMatchObject({
      api_key_id: keyId,
      provider: 'openai',
      calls: 2,
      input_tokens: 4_096,
      cache_read_tokens: 2_048,
      reasoning_tokens: 128,
      cache_hit_rate: 0.5,
    });
    expect(gptRow?.['saved_usd']).toBeCloseTo(2 * gptSaved, 6);
    expect(body['cache_read_tokens']).toBe(26_048);
  });

  it('states the same prompt-cache totals in /analytics/llm/overview, for every API and for one', async () => {
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: withKey(ownerKey) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Record<string, unknown> & { prompt_cache: Record<string, number> };
    };
    const ajv = new Ajv({ strict: false });
    for (const schema of httpSchemas) ajv.addSchema(schema);
    const validate = ajv.getSchema('LlmOverviewReport')!;
    const overview = await get('/analytics/llm/overview?range=1h');
    expect(validate(overview), JSON.stringify(validate.errors)).toBe(true);
    // Two Messages calls to gpt-4o and three calls to Claude (chat plain and streamed, Responses).
    expect(overview.prompt_cache).toMatchObject({
      calls: 5,
      input_tokens: 34_096,
      cache_read_tokens: 26_048,
      cache_write_tokens: 3_000,
      cache_write_1h_tokens: 1_500,
      cache_hit_rate: 0.764,
    });
    expect(overview.prompt_cache['saved_usd']).toBeCloseTo(2 * gptSaved + 3 * claudeSaved, 6);
    const report = await get('/analytics/llm/prompt-cache?range=1h');
    for (const field of ['calls', 'input_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cache_write_1h_tokens', 'cache_hit_rate', 'saved_usd'])
      expect(overview.prompt_cache[field], field).toBe(report[field]);
    // The api filter narrows it as it narrows the prompt-cache report: the chat completions to Claude alone.
    const chat = await get('/analytics/llm/overview?range=1h&api=chat_completions');
    expect(chat.prompt_cache).toMatchObject({ calls: 2, input_tokens: 20_000, cache_read_tokens: 16_000, cache_hit_rate: 0.8 });
    expect(chat.prompt_cache['saved_usd']).toBeCloseTo(2 * claudeSaved, 6);
    // OpenAPI documents it (the spec is built from the same schema).
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      components: { schemas: Record<string, { properties?: Record<string, { required?: string[] }> }> };
    };
    expect(spec.components.schemas['LlmOverviewReport']?.properties?.['prompt_cache']?.required).toContain('cache_write_1h_tokens');
  });
});
