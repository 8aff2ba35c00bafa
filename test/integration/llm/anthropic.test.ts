import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicProvider } from '../../../src/adapters/llm/anthropic-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
} from '../../../src/generation/errors/provider-errors.js';
import type { ToolDefinition } from '../../../src/generation/tool-definition.js';
import {
  anthropicError,
  anthropicMessage,
  anthropicStreamThenError,
  anthropicTextStream,
  anthropicToolUseStream,
} from '../../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { closedPortUrl } from './openai-family-contract.js';

let fake: FakeHttpServer;
const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2, maxTokens: 100, maxSteps: 5 };

beforeAll(async () => {
  fake = await startFakeHttpServer(() => anthropicMessage([{ type: 'text', text: 'hello' }]));
});
afterAll(() => fake.close());

const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  source: 'custom',
  execute: async (input) => ({ city: (input as { city: string }).city, temp: -3 }),
};

function client() {
  return anthropicProvider.create({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${fake.url}/v1` }, 'claude-sonnet-4-5');
}

describe('anthropic provider against a fake Messages API', () => {
  it('names the missing key', () => {
    expect(() => anthropicProvider.create({}, 'x')).toThrow(ConfigurationError);
    expect(() => anthropicProvider.create({}, 'x')).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('generates text with x-api-key auth and usage', async () => {
    fake.setHandler(() => anthropicMessage([{ type: 'text', text: 'hello' }], { inputTokens: 12, outputTokens: 7 }));
    const result = await client().generate(base);
    expect(result.text).toBe('hello');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
  });

  it('streams text deltas and resolves usage', async () => {
    fake.setHandler(() => anthropicTextStream(['Hel', 'lo'], { inputTokens: 5, outputTokens: 2 }));
    const stream = client().stream(base);
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Hello');
    expect((await stream.result).usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
  });

  it('runs a tool round trip and sends the tool result back', async () => {
    let call = 0;
    fake.setHandler(() =>
      ++call === 1
        ? anthropicMessage([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }])
        : anthropicMessage([{ type: 'text', text: 'Sunny' }]),
    );
    const result = await client().generate({
      ...base,
      tools: [
        {
          name: 'get_weather',
          description: 'weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          source: 'custom',
          execute: async () => ({ temp: 21 }),
        },
      ],
    });
    expect(result.text).toBe('Sunny');
    const second = fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(second.messages)).toContain('"tool_use_id":"toolu_1"');
    expect(JSON.stringify(second.messages)).toContain('21');
  });

  it('streams a tool round trip: input_json_delta pieces assembled, the answer streamed after', async () => {
    let call = 0;
    fake.setHandler(() => (++call === 1 ? anthropicToolUseStream('toolu_2', 'get_weather', { city: 'Oslo' }) : anthropicTextStream(['Co', 'ld'])));
    const stream = client().stream({ ...base, tools: [weatherTool] });
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Cold');
    expect((await stream.result).toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', args: { city: 'Oslo' } })]);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('"tool_use_id":"toolu_2"');
  });

  it('asks for structured output with output_config.format = the JSON Schema and validates the answer', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    fake.setHandler(() => anthropicMessage([{ type: 'text', text: '{"answer":4}' }]));
    const result = await client().generate({ ...base, schema });
    expect(result.object).toEqual({ answer: 4 });
    const sent = fake.requests.at(-1)!.body as { output_config?: { format?: { type: string; schema: unknown } } };
    expect(sent.output_config?.format).toMatchObject({ type: 'json_schema', schema: { properties: { answer: { type: 'number' } }, required: ['answer'] } });

    fake.setHandler(() => anthropicMessage([{ type: 'text', text: '{"answer":"four"}' }]));
    const mismatch = await client()
      .generate({ ...base, schema })
      .catch((caught: unknown) => caught);
    expect(mismatch).toBeInstanceOf(AIProviderError);
  });

  // Status, error.type and message as Anthropic documents them (docs.anthropic.com/en/api/errors).
  it.each([
    [400, 'invalid_request_error', 'messages: at least one message is required', InvalidRequestError, false],
    [
      400,
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      QuotaExceededError,
      undefined,
    ],
    [401, 'authentication_error', 'invalid x-api-key', AuthenticationError, false],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', AuthenticationError, false],
    [404, 'not_found_error', 'model: claude-nope', InvalidRequestError, false],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', InvalidRequestError, false],
    [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', RateLimitError, true],
    [500, 'api_error', 'Internal server error', AIProviderError, true],
    [529, 'overloaded_error', 'Overloaded', AIProviderError, true],
  ] as const)('maps %i %s (%s)', async (status, type, message, errorClass, retryable) => {
    fake.setHandler(() => anthropicError(status, type, message, status === 429 ? { 'retry-after': '7', 'anthropic-ratelimit-requests-remaining': '0' } : {}));
    const error = await client()
      .generate(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as AIProviderError).statusCode).toBe(status);
    expect((error as Error).message).toContain(message);
    if (retryable !== undefined) expect((error as AIProviderError).isRetryable).toBe(retryable);
    if (status === 429) expect((error as RateLimitError).retryAfter).toBe(7);
  });

  it('reads retry-after as an HTTP date too', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    fake.setHandler(() => anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': at }));
    const error = (await client()
      .generate(base)
      .catch((caught: unknown) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBeGreaterThanOrEqual(28);
    expect(error.retryAfter).toBeLessThanOrEqual(30);
  });

  it('maps an error that opens a stream, so a fallback chain can move on', async () => {
    fake.setHandler(() => anthropicError(529, 'overloaded_error', 'Overloaded'));
    const stream = client().stream(base);
    const error = await (async () => {
      for await (const delta of stream.textStream) void delta;
      return stream.result;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AIProviderError);
    expect((error as AIProviderError).isRetryable).toBe(true);
  });

  it('maps an error event in the middle of a stream (HTTP 200, then event: error)', async () => {
    fake.setHandler(() => anthropicStreamThenError(['Hel'], 'overloaded_error', 'Overloaded'));
    const stream = client().stream(base);
    let text = '';
    const error = await (async () => {
      for await (const delta of stream.textStream) text += delta;
      return stream.result;
    })().catch((caught: unknown) => caught);
    expect(text).toBe('Hel');
    expect(error).toBeInstanceOf(AIProviderError);
    expect((error as AIProviderError).isRetryable).toBe(true);
    expect((error as Error).message).toMatch(/overloaded/i);
  });

  it('connection refused → retryable network error', async () => {
    const offline = anthropicProvider.create({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${await closedPortUrl()}/v1` }, 'claude-sonnet-4-5');
    const error = (await offline.generate(base).catch((caught: unknown) => caught)) as AIProviderError;
    expect(error).toBeInstanceOf(AIProviderError);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/network|connect/i);
  });

  it('a deadline → retryable TimeoutError; the caller aborting → not retryable', async () => {
    fake.setHandler(() => new Promise(() => undefined));
    const timedOut = await client()
      .generate({ ...base, abortSignal: AbortSignal.timeout(150) })
      .catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect((timedOut as TimeoutError).isRetryable).toBe(true);
    const controller = new AbortController();
    fake.setHandler(() => {
      controller.abort();
      return new Promise(() => undefined);
    });
    const aborted = await client()
      .generate({ ...base, abortSignal: controller.signal })
      .catch((caught: unknown) => caught);
    expect((aborted as AIProviderError).isRetryable).toBe(false);
  });
});
