import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicProvider } from '../../../src/adapters/llm/anthropic-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, ConfigurationError, InvalidRequestError, RateLimitError } from '../../../src/generation/errors/provider-errors.js';
import { anthropicError, anthropicMessage, anthropicTextStream } from '../../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';

let fake: FakeHttpServer;
const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2, maxTokens: 100, maxSteps: 5 };

beforeAll(async () => {
  fake = await startFakeHttpServer(() => anthropicMessage([{ type: 'text', text: 'hello' }]));
});
afterAll(() => fake.close());

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
      ++call === 1 ? anthropicMessage([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }]) : anthropicMessage([{ type: 'text', text: 'Sunny' }]),
    );
    const result = await client().generate({
      ...base,
      tools: [{ name: 'get_weather', description: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, source: 'custom', execute: async () => ({ temp: 21 }) }],
    });
    expect(result.text).toBe('Sunny');
    const second = fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(second.messages)).toContain('"tool_use_id":"toolu_1"');
    expect(JSON.stringify(second.messages)).toContain('21');
  });

  it.each([
    [529, 'overloaded_error', AIProviderError, true],
    [429, 'rate_limit_error', RateLimitError, true],
    [401, 'authentication_error', AuthenticationError, false],
    [400, 'invalid_request_error', InvalidRequestError, false],
    [500, 'api_error', AIProviderError, true],
  ] as const)('maps %i %s', async (status, type, errorClass, retryable) => {
    fake.setHandler(() => anthropicError(status, type, 'boom', status === 429 ? { 'retry-after': '7' } : {}));
    const error = await client().generate(base).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as AIProviderError).isRetryable).toBe(retryable);
    if (status === 429) expect((error as RateLimitError).retryAfter).toBe(7);
  });
});
