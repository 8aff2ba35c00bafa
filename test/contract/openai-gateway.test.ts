import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The OpenAI-compatible gateway driven by the official `openai` client, unmodified but for its base
 * URL, in front of a local fake speaking OpenAI's wire format as the upstream provider.
 */

function upstream(request: RecordedRequest) {
  const body = request.body as {
    model: string;
    stream?: boolean;
    messages: { role: string; content: unknown; tool_call_id?: string }[];
    response_format?: unknown;
    tools?: unknown[];
  };
  const last = body.messages.at(-1);
  const text = JSON.stringify(last?.content ?? '');
  if (last?.role === 'tool') return chatCompletion({ model: body.model, content: `It is ${String(last.content)} (for ${last.tool_call_id})` });
  if (body.tools !== undefined && text.includes('weather')) {
    const call = { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } };
    return body.stream === true ? chatCompletionStream({ model: body.model, toolCalls: [call] }) : chatCompletion({ model: body.model, toolCalls: [call] });
  }
  if (text.includes('slow down')) return chatError('rate-limited');
  if (body.response_format !== undefined)
    return chatCompletion({ model: body.model, content: '{"city":"Paris"}', usage: { promptTokens: 20, completionTokens: 6 } });
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Hello', ', ', 'world'], usage: { promptTokens: 8, completionTokens: 3 } });
  return chatCompletion({ model: body.model, content: `You said ${text}`, usage: { promptTokens: 12, completionTokens: 5 } });
}

let provider: FakeHttpServer;
let t: TestApp;
let client: OpenAI;
let baseURL: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` } });
  const { apiKey } = await createMerchant(t.app, 'gateway-shop');
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
  client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

describe('OpenAI-compatible gateway', () => {
  it('answers chat.completions.create with OpenAI shapes and names the routing decision in headers', async () => {
    const { data, response } = await client.chat.completions
      .create({
        model: 'openai/gpt-4o-mini',
        messages: [
          { role: 'system', content: 'be nice' },
          { role: 'user', content: 'hi there' },
        ],
        temperature: 0.3,
        max_tokens: 40,
      })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'You said "hi there"' });
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 5,
      total_tokens: 17,
      // Passed through natively: the provider's usage as it sent it, every detail included.
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(response.headers.get('x-switchyard-routing-approach')).toBe('explicit');
    expect(response.headers.get('x-switchyard-hops')).toBe('0');
    const sent = provider.requests.at(-1)?.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.3 });
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'be nice' });
  });

  it('streams chunks and, with include_usage, a final usage chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello, world');
    expect(finish).toBe('stop');
    expect(usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 3,
      total_tokens: 11,
      // Passed through natively: the provider's usage as it sent it, every detail included.
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('sends the security headers on a stream too (it writes its own head)', async () => {
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(client as unknown as { apiKey: string }).apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'stream please' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.text()).toContain('data: [DONE]');
  });

  it('answers a json_schema response_format with the JSON object as content', async () => {
    const completion = await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'capital of France?' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris' });
  });

  it('resolves a registry alias and lists models as provider/model ids', async () => {
    const models = await client.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toContain('openai/gpt-4o-mini');
    const { response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).withResponse();
    expect(response.headers.get('x-switchyard-routing-approach')).toBe('registry');
  });

  it("raises the client's own error classes: 401, 404, 400, and the provider's 429 with Retry-After", async () => {
    const stranger = new OpenAI({ apiKey: `DE_${'0'.repeat(64)}`, baseURL, maxRetries: 0 });
    await expect(stranger.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    await expect(client.chat.completions.create({ model: 'nobody/knows-this', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    await expect(client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    // What the gateway acts on is validated here (model, messages); the rest an OpenAI upstream judges itself.
    await expect(client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const limited = await client.chat.completions
      .create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'slow down' }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('20');
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
  });

  it("passes the client's function tools through: the model's calls come back, the results go back in", async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'weather by city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const first = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'weather in Paris?' }], tools });
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = first.choices[0]?.message.tool_calls ?? [];
    expect(calls).toEqual([{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    const offered = (provider.requests.at(-1)!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(offered).toEqual(['get_weather']); // the client's tool only: none of ours
    const second = await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'weather in Paris?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: 'call_w1', content: 'sunny, 21 C' }],
    });
    expect(second.choices[0]?.message.content).toBe('It is sunny, 21 C (for call_w1)');
    const sent = provider.requests.at(-1)?.body as { messages: { role: string; tool_calls?: unknown[]; tool_call_id?: string }[] };
    expect(sent.messages.find((message) => message.role === 'assistant')?.tool_calls).toEqual([
      expect.objectContaining({ id: 'call_w1', function: expect.objectContaining({ name: 'get_weather' }) }),
    ]);

    const stream = await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools,
      stream: true,
    });
    const streamedCalls: { name?: string; arguments: string }[] = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        streamedCalls[delta.index] ??= { arguments: '' };
        const entry = streamedCalls[delta.index]!;
        if (delta.function?.name !== undefined) entry.name = delta.function.name;
        entry.arguments += delta.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(streamedCalls).toEqual([{ name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(finish).toBe('tool_calls');
  });

  it('records every gateway call for the key’s merchant with surface gateway', async () => {
    await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'record me' }] });
    await t.eventsCaughtUp();
    const records = t.events.filter((event) => event.type === 'llm.call');
    expect(records.length).toBeGreaterThan(0);
    expect(records.at(-1)).toMatchObject({ merchantId: 'gateway-shop', payload: { surface: 'gateway', provider: 'openai', outcome: 'success' } });
  });
});
