import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, anthropicStreamThenError, anthropicTextStream, anthropicToolUseStream } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * OpenAI's Responses API on the gateway, driven by the official `openai` client, unmodified but for
 * its base URL, in front of local fakes speaking OpenAI's chat wire and Anthropic's Messages wire
 * as upstream providers: any provider kind answers a Responses request.
 */

type ChatBody = {
  model: string;
  stream?: boolean;
  tools?: unknown[];
  messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
};

function openAiUpstream(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const last = body.messages.at(-1);
  const text = JSON.stringify(last?.content ?? '');
  if (last?.role === 'tool')
    return chatCompletion({
      model: body.model,
      content: `It is ${String(last.content)} (for ${last.tool_call_id})`,
      usage: { promptTokens: 30, completionTokens: 6 },
    });
  if (body.tools !== undefined && text.includes('weather')) {
    const call = { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } };
    return body.stream === true ? chatCompletionStream({ model: body.model, toolCalls: [call] }) : chatCompletion({ model: body.model, toolCalls: [call] });
  }
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Hello', ', ', 'world'], usage: { promptTokens: 8, completionTokens: 3 } });
  return chatCompletion({ model: body.model, content: `You said ${text}`, usage: { promptTokens: 12, completionTokens: 5 } });
}

type AnthropicBody = { model: string; stream?: boolean; system?: unknown; tools?: unknown[]; messages: { role: string; content: unknown }[] };

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
  if (body.stream === true) return anthropicTextStream(['Bon', 'jour'], { inputTokens: 9, outputTokens: 2 });
  return anthropicMessage([{ type: 'text', text: 'Hi from Claude' }], { inputTokens: 12, outputTokens: 7 });
}

let gpt: FakeHttpServer;
let claude: FakeHttpServer;
let t: TestApp;
let client: OpenAI;
let other: OpenAI;
let baseURL: string;
let ownerKey: string;

beforeAll(async () => {
  gpt = await startFakeHttpServer(openAiUpstream);
  claude = await startFakeHttpServer(anthropicUpstream);
  t = await createTestApp({
    env: { RESPONSES_TTL_DAYS: '2' },
    toolkitEnv: {
      // The Responses API reaches a Chat Completions server by translation (OpenAI's own API takes it natively:
      // test/contract/gateway-native-pass-through.test.ts), which is what this file checks.
      OPENAI_COMPATIBLE_API_KEY: 'sk-upstream',
      OPENAI_COMPATIBLE_BASE_URL: `${gpt.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `${claude.url}/v1`,
    },
  });
  const { apiKey } = await createMerchant(t.app, 'responses-shop');
  ownerKey = apiKey;
  const { apiKey: otherKey } = await createMerchant(t.app, 'responses-other-shop');
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
  client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
  other = new OpenAI({ apiKey: otherKey, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await gpt.close();
  await claude.close();
});

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'weather by city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

/** The body of the last request a fake upstream received. */
function lastSent<T>(server: FakeHttpServer): T {
  const request = server.requests.at(-1);
  if (request === undefined) throw new Error('the upstream received no request');
  return request.body as T;
}

/** Every event of a raw stream, in order (the SDK throws on an `error` event: that is returned too). */
async function eventsOf(
  stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>,
): Promise<{ events: OpenAI.Responses.ResponseStreamEvent[]; thrown: unknown }> {
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, thrown: error };
  }
  return { events, thrown: undefined };
}

describe('Responses API on an OpenAI-wire upstream', () => {
  it('answers responses.create with the response object, output_text and usage, and names the routing decision', async () => {
    const { data, response } = await client.responses
      .create({
        model: 'openai-compatible/gpt-4o-mini',
        instructions: 'be nice',
        input: 'hi there',
        temperature: 0.3,
        max_output_tokens: 40,
        metadata: { order: '42' },
      })
      .withResponse();
    expect(data.id).toMatch(/^resp_[0-9a-f]+$/);
    expect(data).toMatchObject({
      object: 'response',
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: 'be nice',
      temperature: 0.3,
      metadata: { order: '42' },
      tools: [],
    });
    expect(data.output_text).toBe('You said "hi there"');
    expect(data.output).toHaveLength(1);
    expect(data.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(data.usage).toEqual({
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 17,
    });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai-compatible');
    expect(response.headers.get('x-switchyard-routing-approach')).toBe('explicit');
    const sent = gpt.requests.at(-1)?.body as { model: string; temperature: number; max_tokens?: number; messages: { role: string; content: unknown }[] };
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.3 });
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'be nice' });
    expect(sent.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('streams the documented events in order, each with its sequence number, via stream: true', async () => {
    const stream = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: [{ role: 'user', content: 'stream please' }], stream: true });
    const { events, thrown } = await eventsOf(stream);
    expect(thrown).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const done = events.find((event) => event.type === 'response.output_text.done');
    expect(done).toMatchObject({ text: 'Hello, world' });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.id).toBe((events[0] as OpenAI.Responses.ResponseCreatedEvent).response.id);
    expect(completed.response.usage).toMatchObject({ input_tokens: 8, output_tokens: 3, total_tokens: 11 });
  });

  it('streams through the client.responses.stream() helper, whose checks the events pass', async () => {
    const stream = client.responses.stream({ model: 'openai-compatible/gpt-4o-mini', input: 'stream please' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('Hello, world');
    expect(final.output_text).toBe('Hello, world');
    expect(final.status).toBe('completed');
    const stored = await client.responses.retrieve(final.id);
    expect(stored.output_text).toBe('Hello, world');
    // The helper adds `parsed` to its parts; the items are otherwise the same, ids included.
    expect(stored.output.map((item) => item.id)).toEqual(final.output.map((item) => item.id));
  });

  it('returns function calls as function_call items and runs a tool round trip with function_call_output', async () => {
    const first = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'what is the weather in Paris?', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    expect((call as { id?: string }).id).toMatch(/^fc_/);
    expect(first.output_text).toBe('');
    const upstreamTools = lastSent<{ tools: unknown[] }>(gpt).tools;
    expect(upstreamTools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) })]);

    // The client sends the whole conversation back (no previous_response_id): the call and its output.
    const second = await client.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'what is the weather in Paris?' },
        call as OpenAI.Responses.ResponseFunctionToolCall,
        { type: 'function_call_output', call_id: 'call_w1', output: 'sunny' },
      ],
    });
    expect(second.output_text).toBe('It is sunny (for call_w1)');
    const sent = lastSent<ChatBody>(gpt);
    expect(sent.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'call_w1' })] });
    expect(sent.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w1', content: 'sunny' });
  });

  it('streams a function call as its item events; the helper assembles it', async () => {
    const stream = client.responses.stream({ model: 'openai-compatible/gpt-4o-mini', input: 'weather in Paris, streamed', tools: [weatherTool] });
    const argumentDeltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(argumentDeltas.join('')).toBe('{"city":"Paris"}');
    expect(final.output).toEqual([expect.objectContaining({ type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' })]);
  });

  it('continues a stored conversation with previous_response_id: the earlier input and output come first', async () => {
    const first = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'what is the weather in Paris?', tools: [weatherTool] });
    const followUp = await client.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      previous_response_id: first.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: 'call_w1', output: 'rainy' }],
    });
    expect(followUp.previous_response_id).toBe(first.id);
    expect(followUp.output_text).toBe('It is rainy (for call_w1)');
    const sent = lastSent<ChatBody>(gpt);
    expect(sent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(sent.messages[0]?.content)).toContain('what is the weather in Paris?');

    // A third turn chains through both.
    const third = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', previous_response_id: followUp.id, input: 'thanks!' });
    expect(third.output_text).toContain('thanks!');
    expect(lastSent<ChatBody>(gpt).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('retrieves, lists input items (newest first by default, paged by after) and deletes a stored response', async () => {
    const created = await client.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      input: [
        { role: 'developer', content: 'be terse' },
        { role: 'user', content: [{ type: 'input_text', text: 'first' }] },
        { role: 'user', content: 'second' },
      ],
    });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.output_text).toBe(created.output_text);
    expect(retrieved.output).toEqual(created.output);

    const page = await client.responses.inputItems.list(created.id);
    expect(page.data.map((item) => (item as { role: string }).role)).toEqual(['user', 'user', 'developer']);
    expect(page.data.every((item) => typeof item.id === 'string' && item.id.startsWith('msg_'))).toBe(true);
    expect(page.has_more).toBe(false);
    const firstTwo = await client.responses.inputItems.list(created.id, { order: 'asc', limit: 2 });
    expect(firstTwo.data.map((item) => (item as { role: string }).role)).toEqual(['developer', 'user']);
    expect(firstTwo.has_more).toBe(true);
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { order: 'asc', limit: 1 })) all.push(item.id);
    expect(all).toEqual([...page.data].reverse().map((item) => item.id));

    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.create({ model: 'openai-compatible/gpt-4o-mini', previous_response_id: created.id, input: 'more' })).rejects.toMatchObject({
      status: 400,
      error: { param: 'previous_response_id', code: 'previous_response_not_found' },
    });
  });

  it('keeps nothing with store: false', async () => {
    const created = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'forget me', store: false });
    expect((created as unknown as { store: boolean }).store).toBe(false);
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("never shows one merchant's response to another: 404 with OpenAI's error shape", async () => {
    const created = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'mine only' });
    const notFound = { status: 404, error: { message: `Response with id '${created.id}' not found.`, type: 'invalid_request_error', param: null, code: null } };
    await expect(other.responses.retrieve(created.id)).rejects.toMatchObject(notFound);
    await expect(other.responses.inputItems.list(created.id)).rejects.toMatchObject(notFound);
    await expect(other.responses.delete(created.id)).rejects.toMatchObject(notFound);
    await expect(other.responses.create({ model: 'openai-compatible/gpt-4o-mini', previous_response_id: created.id, input: 'steal' })).rejects.toMatchObject({
      status: 400,
    });
    expect((await client.responses.retrieve(created.id)).id).toBe(created.id);
  });

  it('accepts tool types no provider serves and reasoning, dropping them and saying so', async () => {
    const { data, response } = await client.responses
      .create({
        model: 'openai-compatible/gpt-4o-mini',
        input: 'hello',
        tools: [{ type: 'web_search' }],
        reasoning: { effort: 'low' },
        text: { format: { type: 'text' } },
      })
      .withResponse();
    expect(data.status).toBe('completed');
    expect(data.reasoning).toMatchObject({ effort: 'low' });
    expect(response.headers.get('x-switchyard-ignored-tools')).toBe('web_search');
    expect(lastSent<ChatBody>(gpt).tools).toBeUndefined();
  });

  it('refuses a bad path id and a bad body with 400 in the OpenAI shape', async () => {
    await expect(client.responses.retrieve('not-a-response')).rejects.toMatchObject({ status: 400 });
    await expect(
      client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] }),
    ).rejects.toMatchObject({
      status: 400,
      error: { type: 'invalid_request_error', param: 'input[0].content[0]' },
    });
  });
});

/** A new API key of responses-shop with its own limits and response cache. */
async function keyClient(payload: Record<string, unknown>): Promise<OpenAI> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api-key/create',
    headers: withKey(ownerKey),
    payload: { merchant_id: 'responses-shop', ...payload },
  });
  expect(response.statusCode).toBe(200);
  return new OpenAI({ apiKey: (response.json() as { api_key: string }).api_key, baseURL, maxRetries: 0 });
}

describe('Responses API in the one gateway pipeline', () => {
  it("answers a repeated request from the key's response cache as a new stored response, plain and streamed; a chat request never shares its entry", async () => {
    const cached = await keyClient({ cache: { ttl_s: 300 } });
    const request = { model: 'openai-compatible/gpt-4o-mini', input: 'cache this response', temperature: 0.1 } as const;
    const first = await cached.responses.create(request).withResponse();
    expect(first.response.headers.get('x-cache')).toBe('MISS');
    const calls = gpt.requests.length;
    const second = await cached.responses.create({ ...request, metadata: { attempt: '2' } }).withResponse();
    expect(second.response.headers.get('x-cache')).toBe('HIT');
    expect(gpt.requests.length).toBe(calls);
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.data.output_text).toBe(first.data.output_text);
    expect((await cached.responses.retrieve(second.data.id)).output_text).toBe(first.data.output_text);
    const replayed = await cached.responses.stream(request).finalResponse();
    expect(replayed.output_text).toBe(first.data.output_text);
    expect(gpt.requests.length).toBe(calls);
    const chat = await cached.chat.completions
      .create({ model: 'openai-compatible/gpt-4o-mini', messages: [{ role: 'user', content: 'cache this response' }], temperature: 0.1 })
      .withResponse();
    expect(chat.response.headers.get('x-cache')).toBe('MISS');
  });

  it("refuses a request over the key's rate limit before any provider call", async () => {
    const limited = await keyClient({ limits: { rpm: 1 } });
    await limited.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'one' });
    const calls = gpt.requests.length;
    const refused = await limited.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'two' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect(gpt.requests.length).toBe(calls);
  });
});

describe('Responses API on an Anthropic upstream (translated)', () => {
  it('answers a plain create', async () => {
    const created = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', instructions: 'be brief', input: 'hi there' });
    expect(created.output_text).toBe('Hi from Claude');
    expect(created.usage).toMatchObject({ input_tokens: 12, output_tokens: 7, total_tokens: 19 });
    const sent = lastSent<AnthropicBody>(claude);
    expect(JSON.stringify(sent.system)).toContain('be brief');
    expect((await client.responses.retrieve(created.id)).output_text).toBe('Hi from Claude');
  });

  it('streams text through the helper', async () => {
    const final = await client.responses.stream({ model: 'anthropic/claude-sonnet-4-5', input: 'stream please' }).finalResponse();
    expect(final.output_text).toBe('Bonjour');
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 2 });
  });

  it('runs a tool round trip: function_call out, function_call_output back as a tool_result', async () => {
    const first = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'weather in Paris?', tools: [weatherTool] });
    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    expect(call).toMatchObject({ call_id: 'toolu_w1', name: 'get_weather', arguments: '{"city":"Paris"}' });
    const second = await client.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      previous_response_id: first.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: call!.call_id, output: 'sunny' }],
    });
    expect(second.output_text).toBe('Tool said sunny');
  });

  it('streams a tool call from the upstream stream', async () => {
    const stream = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'weather in Paris?', tools: [weatherTool], stream: true });
    const { events } = await eventsOf(stream);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('ends a stream that fails after its start with response.failed and an error event the client throws on', async () => {
    const stream = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'fail midway', stream: true });
    const { events, thrown } = await eventsOf(stream);
    expect(events.map((event) => event.type)).toContain('response.output_text.delta');
    const failed = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.type).toBe('response.failed');
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error?.code).toBe('server_error');
    expect(thrown).toBeInstanceOf(OpenAI.APIError);
  });
});

// Last in the file: it moves the app's clock, which every stored response of the file expires on.
describe('Responses API storage time (RESPONSES_TTL_DAYS=2)', () => {
  it('keeps a stored response for RESPONSES_TTL_DAYS and answers 404 after', async () => {
    const created = await client.responses.create({ model: 'openai-compatible/gpt-4o-mini', input: 'keep me two days' });
    t.clock.advance(2 * 86_400_000 - 1);
    expect((await client.responses.retrieve(created.id)).id).toBe(created.id);
    t.clock.advance(1);
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.responses.create({ model: 'openai-compatible/gpt-4o-mini', previous_response_id: created.id, input: 'still there?' }),
    ).rejects.toMatchObject({
      status: 400,
    });
  });
});
