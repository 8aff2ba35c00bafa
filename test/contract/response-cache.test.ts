import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../fixtures/providers/openai-wire.js';
import { openChdbAnalytics } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * The gateway's response cache (issue 14) in embedded mode, driven by the official `openai`
 * client: opt-in per key, Cache-Control per request, plain and streamed answers replayed either
 * way, merchants kept apart, TTL on the app's clock, hits recorded as `llm.call` with `cacheHit`.
 */

/** Every upstream answer is numbered, so a test can tell a fresh answer from a replayed one. */
let answered = 0;
function upstream(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean; messages: { content: unknown }[]; tools?: unknown[] };
  const text = JSON.stringify(body.messages.at(-1)?.content ?? '');
  answered += 1;
  if (text.includes('fail')) return chatError('server-error');
  if (body.tools !== undefined) {
    const call = { id: `call_${answered}`, name: 'get_weather', arguments: { city: 'Paris' } };
    return body.stream === true ? chatCompletionStream({ model: body.model, toolCalls: [call] }) : chatCompletion({ model: body.model, toolCalls: [call] });
  }
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: [`Answer`, ` #${answered}`], usage: { promptTokens: 8, completionTokens: 3 } });
  return chatCompletion({ model: body.model, content: `Answer #${answered}`, usage: { promptTokens: 12, completionTokens: 5 } });
}

let provider: FakeHttpServer;
let t: TestApp;
let baseURL: string;
const owners: Record<string, string> = {};

async function newKey(merchantId: string, cache?: unknown): Promise<{ keyId: string; apiKey: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api-key/create',
    headers: withKey(owners[merchantId]!),
    payload: { merchant_id: merchantId, ...(cache !== undefined ? { cache } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { key_id: string; api_key: string };
  return { keyId: body.key_id, apiKey: body.api_key };
}

const clientOf = (apiKey: string, headers: Record<string, string> = {}) => new OpenAI({ apiKey, baseURL, maxRetries: 0, defaultHeaders: headers });

/** A plain completion and its x-cache header. */
async function ask(apiKey: string, content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}, headers: Record<string, string> = {}) {
  const { data, response } = await clientOf(apiKey, headers)
    .chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }], ...extra })
    .withResponse();
  return { data, cache: response.headers.get('x-cache'), provider: response.headers.get('x-switchyard-provider') };
}

/** A streamed completion: its text, tool calls, finish reason, usage chunk and x-cache header. */
async function askStreamed(apiKey: string, content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) {
  const { data: stream, response } = await clientOf(apiKey)
    .chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }], stream: true, ...extra })
    .withResponse();
  let text = '';
  let finish: string | null | undefined;
  let usage: OpenAI.CompletionUsage | null | undefined;
  const toolCalls: unknown[] = [];
  const roles: string[] = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.role !== undefined) roles.push(delta.role);
    text += delta?.content ?? '';
    toolCalls.push(...(delta?.tool_calls ?? []));
    finish = chunk.choices[0]?.finish_reason ?? finish;
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, finish, usage, toolCalls, roles, cache: response.headers.get('x-cache') };
}

const hitEvents = (): EventEnvelope<'llm.call'>[] =>
  t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.cacheHit === true);

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` } });
  for (const merchantId of ['cache-shop', 'cache-other-shop']) owners[merchantId] = (await createMerchant(t.app, merchantId)).apiKey;
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

describe('gateway response cache', () => {
  it('misses, then hits without calling the provider; user and key order do not split entries, a sampling parameter does', async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    const before = provider.requests.length;
    const first = await ask(apiKey, 'what is cached?', { temperature: 0.2 });
    expect(first.cache).toBe('MISS');
    const second = await ask(apiKey, 'what is cached?', { temperature: 0.2, user: 'end-user-7' });
    expect(second.cache).toBe('HIT');
    expect(second.provider).toBe('openai');
    expect(second.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(second.data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(second.data.usage).toEqual(first.data.usage);
    // Passed through natively, the answer is replayed as the provider gave it, its id included.
    expect(second.data.id).toBe(first.data.id);
    expect(provider.requests.length - before).toBe(1);
    // The same request with its fields in another order is the same entry.
    const reordered = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ temperature: 0.2, messages: [{ content: 'what is cached?', role: 'user' }], model: 'openai/gpt-4o-mini' }),
    });
    expect(reordered.headers.get('x-cache')).toBe('HIT');
    expect(((await reordered.json()) as OpenAI.ChatCompletion).choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect((await ask(apiKey, 'what is cached?', { temperature: 0.3 })).cache).toBe('MISS');
    expect((await ask(apiKey, 'what is cached?', { temperature: 0.2, max_tokens: 50 })).cache).toBe('MISS');
    expect(provider.requests.length - before).toBe(3);
  });

  it('records a hit as an llm.call with cost 0, cacheHit, the cached tokens and what it saved, and counts no tokens against the key', async () => {
    const { keyId, apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    await ask(apiKey, 'record my hit');
    const hit = await ask(apiKey, 'record my hit');
    expect(hit.cache).toBe('HIT');
    await t.eventsCaughtUp();
    const event = hitEvents().find((candidate) => candidate.payload.apiKeyId === keyId);
    expect(event?.merchantId).toBe('cache-shop');
    expect(event?.payload).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      surface: 'gateway',
      inputTokens: 12,
      outputTokens: 5,
      costUsd: 0,
      outcome: 'success',
      fallbackHops: 0,
      cacheHit: true,
    });
    expect(event?.payload.savedCostUsd).toBeGreaterThan(0);
    expect(event?.payload.requestId).not.toBeNull();
    // Fresh calls carry no cacheHit.
    const fresh = t.events.filter((candidate) => candidate.type === 'llm.call' && candidate.payload.apiKeyId === keyId && candidate.payload.cacheHit !== true);
    expect(fresh).toHaveLength(1);
    // Counts land once the bus has taken each call's record, which can be just after the answer.
    await t.spendCounted();
    const list = (await t.app.inject({ method: 'GET', url: '/api-key/list/cache-shop', headers: withKey(owners['cache-shop']!) })).json() as {
      key_id: string;
      usage: Record<string, number>;
    }[];
    expect(list.find((item) => item.key_id === keyId)?.usage['tokens_this_minute']).toBe(17);
  });

  it('bypasses the lookup on no-cache and stores the fresh answer; no-store neither looks up nor stores', async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    const first = await ask(apiKey, 'bypass me');
    const fresh = await ask(apiKey, 'bypass me', {}, { 'cache-control': 'no-cache' });
    expect(fresh.cache).toBe('BYPASS');
    expect(fresh.data.choices[0]?.message.content).not.toBe(first.data.choices[0]?.message.content);
    const after = await ask(apiKey, 'bypass me');
    expect(after.cache).toBe('HIT');
    expect(after.data.choices[0]?.message.content).toBe(fresh.data.choices[0]?.message.content);

    const unstored = await ask(apiKey, 'do not keep me', {}, { 'cache-control': 'private, No-Store' });
    expect(unstored.cache).toBe('BYPASS');
    expect((await ask(apiKey, 'do not keep me')).cache).toBe('MISS');
    // no-store on a request that has an entry: not served from it either.
    const skipped = await ask(apiKey, 'bypass me', {}, { 'cache-control': 'no-store' });
    expect(skipped.cache).toBe('BYPASS');
    expect(skipped.data.choices[0]?.message.content).not.toBe(after.data.choices[0]?.message.content);
  });

  it('replays a streamed hit as the same SSE stream, and answers a plain request from a streamed answer', async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    const before = provider.requests.length;
    const first = await askStreamed(apiKey, 'stream and cache', { stream_options: { include_usage: true } });
    expect(first).toMatchObject({
      cache: 'MISS',
      finish: 'stop',
      usage: {
        prompt_tokens: 8,
        completion_tokens: 3,
        total_tokens: 11,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    const replay = await askStreamed(apiKey, 'stream and cache', { stream_options: { include_usage: true } });
    expect(replay).toMatchObject({
      cache: 'HIT',
      text: first.text,
      finish: 'stop',
      roles: ['assistant'],
      usage: {
        prompt_tokens: 8,
        completion_tokens: 3,
        total_tokens: 11,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    // Without include_usage, no usage chunk.
    const withoutUsage = await askStreamed(apiKey, 'stream and cache');
    expect(withoutUsage).toMatchObject({ cache: 'HIT', text: first.text, usage: undefined });
    const plain = await ask(apiKey, 'stream and cache');
    expect(plain.cache).toBe('HIT');
    expect(plain.data.choices[0]?.message.content).toBe(first.text);
    expect(plain.data.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 3,
      total_tokens: 11,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(provider.requests.length - before).toBe(1);
    await t.eventsCaughtUp();
    expect(hitEvents().filter((event) => event.payload.operation === 'stream').length).toBeGreaterThanOrEqual(2);
  });

  it('streams a hit stored by a plain request, and replays tool calls both ways', async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    const plain = await ask(apiKey, 'plain first');
    const streamed = await askStreamed(apiKey, 'plain first', { stream_options: { include_usage: true } });
    expect(streamed).toMatchObject({
      cache: 'HIT',
      text: plain.data.choices[0]?.message.content,
      finish: 'stop',
      usage: {
        prompt_tokens: 12,
        completion_tokens: 5,
        total_tokens: 17,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });

    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ];
    const calls = await askStreamed(apiKey, 'weather in Paris?', { tools });
    expect(calls).toMatchObject({ cache: 'MISS', finish: 'tool_calls' });
    const callId = (calls.toolCalls[0] as { id: string }).id;
    const replayed = await ask(apiKey, 'weather in Paris?', { tools });
    expect(replayed.cache).toBe('HIT');
    expect(replayed.data.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    });
    const restreamed = await askStreamed(apiKey, 'weather in Paris?', { tools });
    // A streamed answer passed through natively is replayed as the provider streamed it: the same deltas.
    expect(restreamed).toMatchObject({ cache: 'HIT', finish: 'tool_calls', toolCalls: calls.toolCalls });
    expect(restreamed.toolCalls[0]).toMatchObject({ index: 0, id: callId, type: 'function', function: { name: 'get_weather' } });
  });

  it('never shares an entry between merchants: the same request is a miss for each', async () => {
    const { apiKey: keyA } = await newKey('cache-shop', { ttl_s: 300 });
    const { apiKey: keyB } = await newKey('cache-other-shop', { ttl_s: 300 });
    const before = provider.requests.length;
    const a = await ask(keyA, 'shared question?');
    const b = await ask(keyB, 'shared question?');
    expect([a.cache, b.cache]).toEqual(['MISS', 'MISS']);
    expect(b.data.choices[0]?.message.content).not.toBe(a.data.choices[0]?.message.content);
    expect(provider.requests.length - before).toBe(2);
    // Two keys of one merchant share its entries.
    const { apiKey: secondKeyA } = await newKey('cache-shop', { ttl_s: 300 });
    expect((await ask(secondKeyA, 'shared question?')).data.choices[0]?.message.content).toBe(a.data.choices[0]?.message.content);
  });

  it("expires an entry after the key's TTL on the app clock", async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 60 });
    await ask(apiKey, 'short lived');
    t.clock.advance(59_000);
    expect((await ask(apiKey, 'short lived')).cache).toBe('HIT');
    t.clock.advance(1_000);
    expect((await ask(apiKey, 'short lived')).cache).toBe('MISS');
    expect((await ask(apiKey, 'short lived')).cache).toBe('HIT');
  });

  it('sends no x-cache header and caches nothing for a key without a cache (or a session), and takes the merchant default', async () => {
    const { apiKey } = await newKey('cache-other-shop');
    const before = provider.requests.length;
    const first = await ask(apiKey, 'uncached');
    const second = await ask(apiKey, 'uncached');
    expect([first.cache, second.cache]).toEqual([null, null]);
    expect(provider.requests.length - before).toBe(2);

    const defaults = await t.app.inject({
      method: 'PUT',
      url: '/api-key/defaults/cache-other-shop',
      headers: withKey(owners['cache-other-shop']!),
      payload: { cache: { ttl_s: 120 } },
    });
    expect(defaults.statusCode, defaults.body).toBe(200);
    expect((await ask(apiKey, 'uncached')).cache).toBe('MISS');
    expect((await ask(apiKey, 'uncached')).cache).toBe('HIT');
    await t.app.inject({ method: 'PUT', url: '/api-key/defaults/cache-other-shop', headers: withKey(owners['cache-other-shop']!), payload: {} });
    expect((await ask(apiKey, 'uncached')).cache).toBe(null);
  });

  it('stores only successful answers', async () => {
    const { apiKey } = await newKey('cache-shop', { ttl_s: 300 });
    const before = provider.requests.length;
    await expect(ask(apiKey, 'fail please')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(ask(apiKey, 'fail please')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(provider.requests.length - before).toBeGreaterThanOrEqual(2);
  });
});

describe('gateway response cache in the analytics', () => {
  it('shows hits, their share of calls, the tokens served from the cache and the cost saved in /analytics/llm/overview', async () => {
    const analytics = await openChdbAnalytics('cache-analytics');
    const app = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` }, analytics: analytics.store });
    await analytics.startSink(app.bus, app.clock);
    try {
      const owner = (await createMerchant(app.app, 'cache-analytics-shop')).apiKey;
      const created = await app.app.inject({
        method: 'POST',
        url: '/api-key/create',
        headers: withKey(owner),
        payload: { merchant_id: 'cache-analytics-shop', cache: { ttl_s: 300 } },
      });
      const apiKey = (created.json() as { api_key: string }).api_key;
      const chat = (content: string) =>
        app.app.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: { authorization: `Bearer ${apiKey}` },
          payload: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }] },
        });
      expect((await chat('count my hits')).headers['x-cache']).toBe('MISS');
      expect((await chat('count my hits')).headers['x-cache']).toBe('HIT');
      expect((await chat('count my hits')).headers['x-cache']).toBe('HIT');
      expect((await chat('another question')).headers['x-cache']).toBe('MISS');
      await app.eventsCaughtUp();
      await analytics.caughtUp();
      // Records are stamped with the wall clock; a window ends at the app's clock, so move it past them.
      app.clock.set(Date.now() + 1_000);
      const response = await app.app.inject({ method: 'GET', url: '/analytics/llm/overview?range=1h', headers: withKey(owner) });
      expect(response.statusCode, response.body).toBe(200);
      const overview = response.json() as Record<string, number>;
      expect(overview).toMatchObject({ calls: 4, input_tokens: 48, output_tokens: 20, cache_hits: 2, cache_hit_rate: 0.5, cache_tokens: 34 });
      // Two hits of gpt-4o-mini's 12 + 5 tokens, at the registry's price: what the two misses cost.
      expect(overview['cache_saved_cost_usd']).toBeGreaterThan(0);
      expect(overview['cache_saved_cost_usd']).toBeCloseTo(overview['cost_usd']!, 6);
    } finally {
      await analytics.close(app);
    }
  }, 60_000);
});
