import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ollamaProvider } from '../../../src/adapters/llm/ollama-provider.js';
import { isProviderConfigured } from '../../../src/generation/provider-env.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, ConfigurationError, InvalidRequestError, RateLimitError, TimeoutError } from '../../../src/generation/errors/provider-errors.js';
import type { LanguageModelClient } from '../../../src/generation/language-model-client.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { type OllamaErrorCase, ollamaChat, ollamaChatStream, ollamaError } from '../../fixtures/providers/ollama-wire.js';
import { baseRequest, closedPortUrl, personSchema, weatherTool } from './openai-family-contract.js';

const model = 'llama3.1:8b';

async function capture(promise: Promise<unknown>): Promise<AIProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AIProviderError);
    return error as AIProviderError;
  }
  throw new Error('expected the call to fail');
}

describe('ollama provider against a fake speaking /api/chat', () => {
  let fake: FakeHttpServer;
  let client: LanguageModelClient;
  const lastRequest = (): RecordedRequest => {
    const request = fake.requests.at(-1);
    if (request === undefined) throw new Error('the fake received no request');
    return request;
  };

  beforeAll(async () => {
    fake = await startFakeHttpServer(() => ollamaChat({ model, content: 'unused' }));
    client = ollamaProvider.create({ OLLAMA_BASE_URL: fake.url }, model);
  });
  afterAll(async () => {
    await fake.close();
  });

  it('counts as configured only when OLLAMA_BASE_URL or OLLAMA_MODEL is set', () => {
    expect(isProviderConfigured(ollamaProvider, {})).toBe(false);
    expect(isProviderConfigured(ollamaProvider, { OLLAMA_MODEL: 'llama3.2' })).toBe(true);
    expect(isProviderConfigured(ollamaProvider, { OLLAMA_BASE_URL: 'http://localhost:11434' })).toBe(true);
    expect(() => ollamaProvider.create({}, model)).toThrow(ConfigurationError);
    expect(() => ollamaProvider.create({}, model)).toThrow(/OLLAMA_BASE_URL or OLLAMA_MODEL/);
  });

  it('offers tools per OLLAMA_TOOL_CAPABLE_MODELS, else the default list', () => {
    expect(ollamaProvider.create({ OLLAMA_MODEL: 'x' }, 'llama3.1:8b').supportsTools).toBe(true);
    expect(ollamaProvider.create({ OLLAMA_MODEL: 'x' }, 'gemma2:2b').supportsTools).toBe(false);
    expect(ollamaProvider.create({ OLLAMA_MODEL: 'x', OLLAMA_TOOL_CAPABLE_MODELS: 'gemma3n, phi4' }, 'gemma3n:e4b').supportsTools).toBe(true);
    expect(ollamaProvider.create({ OLLAMA_MODEL: 'x', OLLAMA_TOOL_CAPABLE_MODELS: 'gemma3n' }, 'llama3.1:8b').supportsTools).toBe(false);
  });

  it('generates over POST /api/chat with stream:false; maps eval counts to usage', async () => {
    fake.setHandler(() => ollamaChat({ model, content: 'Hello from llama.', promptTokens: 26, completionTokens: 5 }));
    const result = await client.generate(baseRequest({ system: 'Be brief.' }));
    expect(result.text).toBe('Hello from llama.');
    expect(result.usage).toEqual({ inputTokens: 26, outputTokens: 5, totalTokens: 31 });
    expect(result.finishReason).toBe('stop');

    const request = lastRequest();
    expect(request.path).toBe('/api/chat');
    const body = request.body as { model: string; stream: boolean; messages: unknown[]; options?: Record<string, unknown> };
    expect(body.model).toBe(model);
    expect(body.stream).toBe(false);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);
    expect(body.options?.temperature).toBe(0.2);
    expect(body.options?.num_predict).toBe(256);
  });

  it('streams NDJSON: deltas in order, usage from the done line', async () => {
    fake.setHandler(() => ollamaChatStream({ model, deltas: ['Why ', 'is the ', 'sky blue?'], promptTokens: 10, completionTokens: 3 }));
    const stream = client.stream(baseRequest());
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.result;
    expect(deltas).toEqual(['Why ', 'is the ', 'sky blue?']);
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 3, totalTokens: 13 });
    expect((lastRequest().body as { stream: boolean }).stream).toBe(true);
  });

  it('round-trips a tool call: object arguments in, a role "tool" message out', async () => {
    const calls: unknown[] = [];
    fake.setHandler((request) => {
      const messages = (request.body as { messages: { role: string }[] }).messages;
      return messages.some((message) => message.role === 'tool')
        ? ollamaChat({ model, content: 'It is 21°C in Lyon.' })
        : ollamaChat({ model, toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] });
    });
    const before = fake.requests.length;
    const result = await client.generate(baseRequest({ tools: [weatherTool(calls)] }));
    expect(calls).toEqual([{ city: 'Lyon' }]);
    expect(result.text).toBe('It is 21°C in Lyon.');
    expect(result.toolCalls.map((call) => [call.toolName, call.args])).toEqual([['get_weather', { city: 'Lyon' }]]);
    expect(result.toolResults[0]).toMatchObject({ toolName: 'get_weather', success: true });

    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(2);
    const first = sent[0]?.body as { tools: { type: string; function: { name: string } }[] };
    expect(first.tools.map((entry) => entry.function.name)).toEqual(['get_weather']);
    const second = sent[1]?.body as { messages: { role: string; content: string; tool_calls?: unknown[] }[] };
    const assistant = second.messages.find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls).toHaveLength(1);
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toContain('"temperatureC":21');
  });

  it('asks for structured output with `format` = the JSON Schema and validates the answer', async () => {
    fake.setHandler(() => ollamaChat({ model, content: '{"name":"Grace","age":45}' }));
    const result = await client.generate(baseRequest({ schema: personSchema }));
    expect(result.object).toEqual({ name: 'Grace', age: 45 });
    expect((lastRequest().body as { format?: unknown }).format).toMatchObject({ type: 'object', required: ['name', 'age'] });

    fake.setHandler(() => ollamaChat({ model, content: '{"name":"Grace"}' }));
    const error = await capture(client.generate(baseRequest({ schema: personSchema })));
    expect(error.isRetryable).toBe(true);
  });

  const expected: Record<OllamaErrorCase, { type: new (...args: never[]) => AIProviderError; retryable: boolean }> = {
    'bad-request': { type: InvalidRequestError, retryable: false },
    unauthorized: { type: AuthenticationError, retryable: false },
    forbidden: { type: AuthenticationError, retryable: false },
    'not-found': { type: InvalidRequestError, retryable: false },
    'rate-limited': { type: RateLimitError, retryable: true },
    'server-error': { type: AIProviderError, retryable: true },
    overloaded: { type: AIProviderError, retryable: true },
  };

  it.each(Object.keys(expected) as OllamaErrorCase[])('maps the %s answer ({"error":"…"}) to its error class', async (errorCase) => {
    const answer = ollamaError(errorCase, model);
    fake.setHandler(() => answer);
    const error = await capture(client.generate(baseRequest()));
    expect(error).toBeInstanceOf(expected[errorCase].type);
    expect(error.isRetryable).toBe(expected[errorCase].retryable);
    expect(error.statusCode).toBe(answer.status);
    expect(error.message).toContain(answer.message);
    if (error instanceof RateLimitError) expect(error.retryAfter).toBe(3);
  });

  it('a missing model while streaming rejects both the deltas and the result', async () => {
    fake.setHandler(() => ollamaError('not-found', model));
    const stream = client.stream(baseRequest());
    const read = async () => {
      for await (const delta of stream.textStream) void delta;
    };
    const error = await capture(read());
    expect(error).toBeInstanceOf(InvalidRequestError);
    await expect(stream.result).rejects.toBe(error);
  });

  it('connection refused (no daemon) → retryable network error', async () => {
    const offline = ollamaProvider.create({ OLLAMA_BASE_URL: await closedPortUrl() }, model);
    const error = await capture(offline.generate(baseRequest()));
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/network|connect/i);
  });

  it('a deadline → retryable TimeoutError; the caller aborting → not retryable', async () => {
    fake.setHandler(() => new Promise(() => undefined));
    const timedOut = await capture(client.generate(baseRequest({ abortSignal: AbortSignal.timeout(150) })));
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut.isRetryable).toBe(true);

    const controller = new AbortController();
    fake.setHandler(() => {
      controller.abort();
      return new Promise(() => undefined);
    });
    const aborted = await capture(client.generate(baseRequest({ abortSignal: controller.signal })));
    expect(aborted.isRetryable).toBe(false);
  });

  it('gives a call without timeout the local-runner default of 5 minutes, or OLLAMA_TIMEOUT', () => {
    expect(ollamaProvider.defaultTimeoutMs?.({ OLLAMA_MODEL: 'x' })).toBe(300_000);
    expect(ollamaProvider.defaultTimeoutMs?.({ OLLAMA_TIMEOUT: '90000' })).toBe(90_000);
    expect(ollamaProvider.defaultTimeoutMs?.({ OLLAMA_TIMEOUT: '10m' })).toBe(600_000);
    expect(() => ollamaProvider.defaultTimeoutMs?.({ OLLAMA_TIMEOUT: 'soon' })).toThrow(ConfigurationError);
    expect(() => ollamaProvider.defaultTimeoutMs?.({ OLLAMA_TIMEOUT: 'soon' })).toThrow(/OLLAMA_TIMEOUT/);
  });

  it('ends a hung call at OLLAMA_TIMEOUT through NeuroLink, while an explicit timeout wins', async () => {
    fake.setHandler(() => new Promise(() => undefined));
    const workDir = mkdtempSync(join(tmpdir(), 'ollama-timeout-'));
    onTestFinished(() => rmSync(workDir, { recursive: true, force: true }));
    const neurolink = new DefaultNeuroLink({
      cwd: workDir,
      env: { OLLAMA_BASE_URL: fake.url, OLLAMA_MODEL: model, OLLAMA_TIMEOUT: '300ms' },
      builtInTools: [],
      warn: () => undefined,
    });
    const byDefault = await capture(neurolink.generate({ input: { text: 'hi' } }));
    expect(byDefault).toBeInstanceOf(TimeoutError);
    expect(byDefault).toMatchObject({ provider: 'ollama', timeout: 300 });
    const explicit = await capture(neurolink.generate({ input: { text: 'hi' }, timeout: 150 }));
    expect(explicit).toMatchObject({ timeout: 150 });
  });
});
