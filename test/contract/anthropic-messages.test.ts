import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, anthropicStreamThenError, anthropicTextStream, anthropicToolUseStream } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Anthropic's Messages API on the gateway, driven by the official `@anthropic-ai/sdk` client,
 * unmodified but for its base URL, in front of local fakes speaking Anthropic's and OpenAI's wire
 * formats as upstream providers: any provider kind answers a Messages request.
 */

type AnthropicBody = {
  model: string;
  stream?: boolean;
  system?: unknown;
  temperature?: number;
  tools?: unknown[];
  messages: { role: string; content: unknown }[];
};

function anthropicUpstream(request: RecordedRequest) {
  const body = request.body as AnthropicBody;
  const last = JSON.stringify(body.messages.at(-1)?.content ?? '');
  if (last.includes('tool_result')) return anthropicMessage([{ type: 'text', text: `Tool said ${last.includes('sunny') ? 'sunny' : 'nothing'}` }]);
  if (body.tools !== undefined && last.includes('weather')) {
    const input = { city: 'Paris' };
    return body.stream === true
      ? anthropicToolUseStream('toolu_w1', 'get_weather', input)
      : anthropicMessage([{ type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input }]);
  }
  if (last.includes('fail midway')) return anthropicStreamThenError(['Hal'], 'overloaded_error', 'Overloaded');
  if (body.stream === true) return anthropicTextStream(['Hello', ', ', 'world'], { inputTokens: 9, outputTokens: 3 });
  return anthropicMessage([{ type: 'text', text: 'Hi from Claude' }], { inputTokens: 12, outputTokens: 7 });
}

type OpenAiBody = { model: string; stream?: boolean; tools?: unknown[]; messages: { role: string; content: unknown; tool_call_id?: string }[] };

function openAiUpstream(request: RecordedRequest) {
  const body = request.body as OpenAiBody;
  const last = body.messages.at(-1);
  const text = JSON.stringify(last?.content ?? '');
  if (last?.role === 'tool') return chatCompletion({ model: body.model, content: `It is ${String(last.content)} (for ${last.tool_call_id})` });
  if (body.tools !== undefined && text.includes('weather')) {
    const call = { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } };
    return body.stream === true ? chatCompletionStream({ model: body.model, toolCalls: [call] }) : chatCompletion({ model: body.model, toolCalls: [call] });
  }
  // A call that costs far more than its reservation: its record spends a small budget at once.
  if (text.includes('expensive')) return chatCompletion({ model: body.model, content: 'pricey', usage: { promptTokens: 10, completionTokens: 200_000 } });
  if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: ['Bon', 'jour'], usage: { promptTokens: 8, completionTokens: 2 } });
  return chatCompletion({ model: body.model, content: `You said ${text}`, usage: { promptTokens: 12, completionTokens: 5 } });
}

let claude: FakeHttpServer;
let gpt: FakeHttpServer;
let t: TestApp;
let apiKey: string;
let origin: string;
let client: Anthropic;

beforeAll(async () => {
  claude = await startFakeHttpServer(anthropicUpstream);
  gpt = await startFakeHttpServer(openAiUpstream);
  t = await createTestApp({
    toolkitEnv: {
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `${claude.url}/v1`,
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${gpt.url}/v1`,
    },
  });
  ({ apiKey } = await createMerchant(t.app, 'messages-shop'));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await claude.close();
  await gpt.close();
});

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'weather by city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('Anthropic Messages on an Anthropic upstream', () => {
  it('answers messages.create with the message object and names the routing decision in headers', async () => {
    const { data, response } = await client.messages
      .create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, system: 'be brief', messages: [{ role: 'user', content: 'hi there' }] })
      .withResponse();
    expect(data).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'end_turn',
      stop_sequence: null,
      content: [{ type: 'text', text: 'Hi from Claude' }],
    });
    expect(data.id).toMatch(/^msg_/);
    expect(data.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    const sent = claude.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 64 });
    expect(JSON.stringify((sent.body as AnthropicBody).system)).toContain('be brief');
  });

  it('takes the key as x-api-key too, accepts anthropic-version and anthropic-beta, and resolves a claude-* registry alias', async () => {
    const response = await fetch(`${origin}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'token-counting-2024-11-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4', max_tokens: 20, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-routing-approach')).toBe('registry');
    expect(((await response.json()) as { content: unknown[] }).content).toEqual([{ type: 'text', text: 'Hi from Claude' }]);
    expect((claude.requests.at(-1)!.body as AnthropicBody).model).toBe('claude-sonnet-4-20250514');
  });

  it('streams the documented events with stream: true, event: lines included', async () => {
    const stream = await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(text).toBe('Hello, world');
    expect(types[0]).toBe('message_start');
    expect(types.slice(1, 2)).toEqual(['content_block_start']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const raw = await fetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'stream please' }], stream: true }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const body = await raw.text();
    expect(body).toMatch(/^event: message_start\ndata: \{"type":"message_start"/);
    expect(body).toContain('event: ping\ndata: {"type":"ping"}');
  });

  it('gives messages.stream() a final message with usage and the stop reason', async () => {
    const final = await client.messages
      .stream({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'stream please' }] })
      .finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello, world' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 3 });
  });

  it('returns tool_use blocks and takes tool_result blocks back (plain and streamed)', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'weather in Paris?' };
    const first = await client.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, tools: [weatherTool], messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } });
    const offered = (claude.requests.at(-1)!.body as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(offered).toEqual(['get_weather']);
    const second = await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w1', content: 'sunny, 21 C' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Tool said sunny' }]);
    const sent = JSON.stringify((claude.requests.at(-1)!.body as AnthropicBody).messages);
    expect(sent).toContain('"tool_use_id":"toolu_w1"');
    expect(sent).toContain('sunny, 21 C');

    const streamed = await client.messages
      .stream({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, tools: [weatherTool], messages: [question] })
      .finalMessage();
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } })]);
  });

  it('reports a failure after the first byte as an error event the SDK throws', async () => {
    const stream = await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'fail midway' }],
      stream: true,
    });
    let text = '';
    const failure = await (async () => {
      for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    })().catch((error: unknown) => error);
    expect(text).toBe('Hal');
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBeUndefined();
  });
});

describe('Anthropic Messages on an OpenAI-wire upstream', () => {
  it('answers plain and streamed requests from an OpenAI-wire provider', async () => {
    const message = await client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user', content: 'hello gpt' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said "hello gpt"', citations: null }]);
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 5 });
    expect(gpt.requests.at(-1)!.path).toBe('/v1/chat/completions');
    const final = await client.messages.stream({ model: 'openai/gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user', content: 'stream' }] }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Bonjour', citations: null }]);
    expect(final.usage).toMatchObject({ input_tokens: 8, output_tokens: 2 });
  });

  it('runs a tool round trip through OpenAI function calls', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'weather in Paris?' };
    const first = await client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 32, tools: [weatherTool], messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([{ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } }]);
    const second = await client.messages.create({
      model: 'openai/gpt-4o-mini',
      max_tokens: 32,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w1', content: 'sunny' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'It is sunny (for call_w1)', citations: null }]);
  });

  it("routes a claude-* name that is one of the merchant's route groups", async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/claude-house',
      headers: withKey(apiKey),
      payload: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { data, response } = await client.messages
      .create({ model: 'claude-house', max_tokens: 32, messages: [{ role: 'user', content: 'grouped' }] })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'You said "grouped"', citations: null }]);
    expect(response.headers.get('x-switchyard-route-group')).toBe('claude-house');
  });
});

describe('count_tokens and errors', () => {
  it('counts input tokens and says the count is an estimate', async () => {
    const { data, response } = await client.messages
      .countTokens({
        model: 'anthropic/claude-sonnet-4-5',
        system: 'be brief',
        messages: [{ role: 'user', content: 'count these words for me please' }],
        tools: [weatherTool],
      })
      .withResponse();
    expect(data.input_tokens).toBeGreaterThan(10);
    expect(response.headers.get('x-switchyard-token-count-source')).toBe('estimate');
    await expect(client.messages.countTokens({ model: 'claude-nope-1', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it("raises the SDK's typed errors with Anthropic's error types", async () => {
    const unknown = await client.messages
      .create({ model: 'claude-unknown-9', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect((unknown as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringContaining('claude-unknown-9') },
    });
    const missing = await client.messages
      .create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Anthropic.BadRequestError);
    expect((missing as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') },
    });
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } } as const;
    await expect(
      client.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: [image] }] }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const stranger = new Anthropic({ apiKey: `DE_${'0'.repeat(64)}`, baseURL: origin, maxRetries: 0 });
    const denied = await stranger.messages
      .create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((denied as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ error: { type: 'authentication_error' } });
  });

  it('passes base64 images to the upstream', async () => {
    const png = Buffer.from('fake-png-bytes').toString('base64');
    await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 8,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'text', text: 'what is this?' },
          ],
        },
      ],
    });
    expect(JSON.stringify(claude.requests.at(-1)!.body)).toContain(png);
  });
});

describe('response cache', () => {
  it('answers a repeated Messages request from the cache, plain and streamed, never from a chat completion', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(apiKey),
      payload: { merchant_id: 'messages-shop', cache: { ttl_s: 300 } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const cachedClient = new Anthropic({ apiKey: (created.json() as { api_key: string }).api_key, baseURL: origin, maxRetries: 0 });
    const params = { model: 'openai/gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user' as const, content: 'cache me' }] };
    const calls = gpt.requests.length;
    const first = await cachedClient.messages.create(params).withResponse();
    expect(first.response.headers.get('x-cache')).toBe('MISS');
    const second = await cachedClient.messages.create(params).withResponse();
    expect(second.response.headers.get('x-cache')).toBe('HIT');
    expect(second.data.content).toEqual(first.data.content);
    const replayed = await cachedClient.messages.stream(params).finalMessage();
    expect(replayed.content).toEqual(first.data.content);
    expect(gpt.requests.length).toBe(calls + 1);
    const chat = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(cachedClient as unknown as { apiKey: string }).apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user', content: 'cache me' }] }),
    });
    expect(chat.headers.get('x-cache')).toBe('MISS');
  });
});

describe('one budget for every API', () => {
  it('a budget spent through /v1/messages refuses /v1/chat/completions and /v1/responses (and further messages, final: x-should-retry false)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(apiKey),
      payload: { merchant_id: 'messages-shop', limits: { budget: { amount_usd: 0.001, period: 'day' } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const limitedKey = (created.json() as { api_key: string }).api_key;
    const limited = new Anthropic({ apiKey: limitedKey, baseURL: origin, maxRetries: 0 });
    const spent = await limited.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'expensive' }] });
    expect(spent.content).toEqual([{ type: 'text', text: 'pricey', citations: null }]);
    await t.eventsCaughtUp();
    const chat = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${limitedKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(chat.status).toBe(429);
    expect(await chat.json()).toMatchObject({ error: { type: 'insufficient_quota' } });
    const responses = await fetch(`${origin}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${limitedKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_output_tokens: 16, input: 'hello' }),
    });
    expect(responses.status).toBe(429);
    const again = await limited.messages
      .create({ model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] })
      .catch((error: unknown) => error);
    expect(again).toBeInstanceOf(Anthropic.RateLimitError);
    const refusal = again as InstanceType<typeof Anthropic.RateLimitError>;
    expect(refusal.headers?.get('x-should-retry')).toBe('false');
    expect(refusal.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});
