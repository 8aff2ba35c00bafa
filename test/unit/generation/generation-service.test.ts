import { describe, expect, it } from 'vitest';
import { DeprecationNotice } from '../../../src/generation/deprecation-notice.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { ConfigurationError, InvalidRequestError, TimeoutError } from '../../../src/generation/errors/provider-errors.js';
import { GenerationService, type GenerationServiceDeps } from '../../../src/generation/generation-service.js';
import type { StreamResult } from '../../../src/generation/generate-result.js';
import { noTelemetry } from '../../../src/generation/telemetry.js';
import type { ToolDefinition } from '../../../src/generation/tool-definition.js';
import { ScriptedLanguageModel, scriptedCatalog } from '../../helpers/scripted-language-model.js';

const echoTool: ToolDefinition = {
  name: 'echo',
  description: 'echoes its input back',
  inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
  source: 'built-in',
  execute: async (input) => ({ success: true, echoed: input }),
};

function service(catalog: ReturnType<typeof scriptedCatalog>, overrides: Partial<GenerationServiceDeps> = {}): GenerationService {
  return new GenerationService({
    catalog,
    tools: async () => [echoTool],
    telemetry: () => noTelemetry,
    notice: new DeprecationNotice(() => undefined),
    evaluation: { timeoutMs: 1000 },
    ...overrides,
  });
}

async function readAll(result: StreamResult): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of result.stream) chunks.push(chunk.content);
  return chunks;
}

describe('GenerationService.generate', () => {
  it('returns the documented result with both usage spellings and tool records', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [
      { text: 'done', usage: { inputTokens: 15, outputTokens: 150, totalTokens: 165 }, callTools: [{ name: 'echo', args: { value: 'hi' } }] },
    ]);
    const result = await service(scriptedCatalog({ openai })).generate({ input: { text: 'go' }, systemPrompt: 'sys', temperature: 0.2 });
    expect(result).toMatchObject({
      content: 'done',
      outputs: { text: 'done' },
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: { promptTokens: 15, completionTokens: 150, totalTokens: 165, inputTokens: 15, outputTokens: 150 },
      finishReason: 'stop',
      toolsUsed: ['echo'],
      toolCalls: [{ toolName: 'echo', args: { value: 'hi' } }],
      toolResults: [{ toolName: 'echo', output: { success: true, echoed: { value: 'hi' } }, success: true }],
      toolExecutions: [{ name: 'echo', input: { value: 'hi' }, output: { success: true, echoed: { value: 'hi' } } }],
      attempts: [],
    });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    const call = openai.calls[0];
    expect(call).toMatchObject({ system: 'sys', temperature: 0.2, maxTokens: 1000, maxSteps: 5 });
    expect(call?.tools?.map((tool) => tool.name)).toEqual(['echo']);
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('offers no tools when disableTools is set or the client cannot use them', async () => {
    const openai = new ScriptedLanguageModel('openai', 'm', [{ text: 'a' }]);
    await service(scriptedCatalog({ openai })).generate({ input: { text: 'go' }, disableTools: true });
    expect(openai.calls[0]?.tools).toBeUndefined();
    const ollama = new ScriptedLanguageModel('ollama', 'llama', [{ text: 'a' }], false);
    await service(scriptedCatalog({ ollama })).generate('go');
    expect(ollama.calls[0]?.tools).toBeUndefined();
  });

  it('rejects bad options before creating any client', async () => {
    const catalog = scriptedCatalog({ openai: new ScriptedLanguageModel('openai', 'm', []) });
    await expect(service(catalog).generate({ input: { text: 'x' }, temperature: 3 })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(catalog.created).toEqual([]);
  });

  it('falls back to the next configured provider on a retryable error', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ error: new AIProviderError('Service Unavailable', 'openai', { statusCode: 503 }) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ text: 'from claude' }]);
    const result = await service(scriptedCatalog({ openai, anthropic })).generate('hi');
    expect(result.provider).toBe('anthropic');
    expect(result.attempts).toEqual([{ provider: 'openai', error: 'Service Unavailable', errorCode: 'PROVIDER_ERROR' }]);
  });

  it('does not fall back on a client mistake', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ error: new InvalidRequestError('bad', 'openai', undefined, { statusCode: 400 }) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ text: 'unused' }]);
    await expect(service(scriptedCatalog({ openai, anthropic })).generate('hi')).rejects.toBeInstanceOf(InvalidRequestError);
    expect(anthropic.calls).toEqual([]);
  });

  it('uses only an explicitly requested provider', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ text: 'unused' }]);
    const mistral = new ScriptedLanguageModel('mistral', 'm', [{ error: new AIProviderError('down', 'mistral', { statusCode: 500 }) }]);
    await expect(service(scriptedCatalog({ openai, mistral })).generate({ input: { text: 'x' }, provider: 'mistral' })).rejects.toThrow('down');
    expect(openai.calls).toEqual([]);
  });

  it('throws ConfigurationError for a forced provider without credentials', async () => {
    const catalog = scriptedCatalog({ openai: new ScriptedLanguageModel('openai', 'o', []) });
    await expect(service(catalog).generate({ input: { text: 'x' }, provider: 'anthropic' })).rejects.toThrow(
      new ConfigurationError('Provider "anthropic" (requested) is not configured: set ANTHROPIC_API_KEY.', 'anthropic'),
    );
  });

  it('passes the model to the first provider only', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ error: new AIProviderError('down', 'openai', { statusCode: 502 }) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ text: 'ok' }]);
    const catalog = scriptedCatalog({ openai, anthropic });
    await service(catalog).generate({ input: { text: 'x' }, model: 'gpt-4o' });
    expect(catalog.created).toEqual([
      { provider: 'openai', model: 'gpt-4o' },
      { provider: 'anthropic', model: undefined },
    ]);
  });

  it('turns a timeout into TimeoutError, even when the client ignores the signal', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ hang: true, ignoreAbort: true }]);
    const error = await service(scriptedCatalog({ openai }))
      .generate({ input: { text: 'x' }, timeout: 30 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 30, operation: 'generate', provider: 'openai' });
    expect(openai.calls[0]?.abortSignal?.aborted).toBe(true);
  });

  it('moves to the next provider after a timeout', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ hang: true }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ text: 'quick' }]);
    const result = await service(scriptedCatalog({ openai, anthropic })).generate({ input: { text: 'x' }, timeout: '20ms' });
    expect(result.content).toBe('quick');
    expect(result.attempts[0]?.errorCode).toBe('TIMEOUT');
  });

  it('stops on a caller abort with the abort reason and no fallback', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ hang: true }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ text: 'unused' }]);
    const controller = new AbortController();
    const pending = service(scriptedCatalog({ openai, anthropic })).generate({ input: { text: 'x' }, abortSignal: controller.signal });
    const reason = new Error('user left');
    queueMicrotask(() => controller.abort(reason));
    await expect(pending).rejects.toBe(reason);
    expect(anthropic.calls).toEqual([]);
  });

  it('validates structured output against the schema', async () => {
    const good = new ScriptedLanguageModel('openai', 'o', [{ text: '{"n": 2}' }]);
    const result = await service(scriptedCatalog({ openai: good })).generate({
      input: { text: 'x' },
      schema: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
    });
    expect(result.object).toEqual({ n: 2 });
    expect(good.calls[0]?.schema).toMatchObject({ type: 'object' });
    const bad = new ScriptedLanguageModel('openai', 'o', [{ text: '{"n": "two"}' }]);
    await expect(
      service(scriptedCatalog({ openai: bad })).generate({ input: { text: 'x' }, schema: { type: 'object', properties: { n: { type: 'number' } } } }),
    ).rejects.toThrow(/does not match the schema: \/n must be number/);
  });

  it('attaches analytics priced from the registry and echoes the context', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o', [{ text: 'a', usage: { inputTokens: 1000, outputTokens: 2000, totalTokens: 3000 } }]);
    const result = await service(scriptedCatalog({ openai }), { priceOf: (id) => (id === 'gpt-4o' ? { input: 0.005, output: 0.015 } : undefined) }).generate({
      input: { text: 'x' },
      enableAnalytics: true,
      context: { userId: 'u1' },
    });
    expect(result.analytics).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      tokens: { input: 1000, output: 2000, total: 3000 },
      cost: 0.035,
      context: { userId: 'u1' },
    });
  });

  it('attaches an evaluation from the judge, or a degraded one when the judge fails', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [
      { text: 'four' },
      { text: '{"relevance":8,"accuracy":8,"completeness":8,"overall":8,"reasoning":"ok"}' },
    ]);
    const result = await service(scriptedCatalog({ openai })).generate({ input: { text: '2+2?' }, enableEvaluation: true });
    expect(result.evaluation).toMatchObject({ overallScore: 8, alertLevel: 'none', evaluationModel: 'openai/o' });
    const failing = new ScriptedLanguageModel('openai', 'o', [{ text: 'four' }, { error: new AIProviderError('judge down', 'openai', { statusCode: 500 }) }]);
    const degraded = await service(scriptedCatalog({ openai: failing })).generate({ input: { text: '2+2?' }, enableEvaluation: true });
    expect(degraded.content).toBe('four');
    expect(degraded.evaluation).toMatchObject({ evaluationModel: 'default' });
  });

  it('uses the configured judge provider', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ text: 'four' }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'judge', [{ text: '{"relevance":5,"accuracy":5,"completeness":5,"overall":5}' }]);
    const result = await service(scriptedCatalog({ openai, anthropic }), { evaluation: { provider: 'anthropic', timeoutMs: 500 } }).generate({
      input: { text: 'q' },
      enableEvaluation: true,
    });
    expect(result.evaluation).toMatchObject({ evaluationModel: 'anthropic/judge', alertLevel: 'medium' });
  });

  it('honours a bound provider and model', async () => {
    const mistral = new ScriptedLanguageModel('mistral', 'mistral-small', [{ text: 'bonjour' }]);
    const catalog = scriptedCatalog({ mistral, openai: new ScriptedLanguageModel('openai', 'o', []) });
    const result = await service(catalog).generate('hi', { provider: 'mistral', model: 'mistral-small' });
    expect(result.provider).toBe('mistral');
    expect(catalog.created).toEqual([{ provider: 'mistral', model: 'mistral-small' }]);
  });
});

describe('GenerationService.stream', () => {
  it('streams chunks and fills the end-of-stream fields', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['Hel', 'lo', ''], usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } }]);
    const result = await service(scriptedCatalog({ openai }), { newStreamId: () => 'stream-1' }).stream({ input: { text: 'x' }, enableAnalytics: true });
    expect(result.metadata.streamId).toBe('stream-1');
    expect(result.metadata.totalChunks).toBeUndefined();
    expect(await readAll(result)).toEqual(['Hel', 'lo']);
    expect(result.metadata.totalChunks).toBe(2);
    expect(await result.usage).toMatchObject({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    expect(await result.finishReason).toBe('stop');
    expect(await result.analytics).toMatchObject({ tokens: { input: 3, output: 2, total: 5 } });
    expect((await result.final).content).toBe('Hello');
  });

  it('cuts chunks to output.streaming.chunkSize characters, keeping surrogate pairs whole', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['Hello wo', 'rld', '😀😀x'] }]);
    const result = await service(scriptedCatalog({ openai })).stream({ input: { text: 'x' }, output: { streaming: { chunkSize: 3 } } });
    expect(await readAll(result)).toEqual(['Hel', 'lo ', 'wo', 'rld', '😀', '😀x']);
    expect(result.metadata.totalChunks).toBe(6);
    expect((await result.final).content).toBe('Hello world😀😀x');
  });

  it('rejects a malformed output.streaming before creating any client', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['a'] }]);
    await expect(service(scriptedCatalog({ openai })).stream({ input: { text: 'x' }, output: { streaming: { chunkSize: -4 } } })).rejects.toMatchObject({
      option: 'output.streaming.chunkSize',
    });
    expect(openai.calls).toEqual([]);
  });

  it('uses a uuid stream id by default', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['a'] }]);
    const result = await service(scriptedCatalog({ openai })).stream('x');
    expect(result.metadata.streamId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await readAll(result);
  });

  it('falls back before the first chunk', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['never'], error: new AIProviderError('busy', 'openai', { statusCode: 503 }) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ chunks: ['from ', 'claude'] }]);
    const result = await service(scriptedCatalog({ openai, anthropic })).stream('x');
    expect(result.provider).toBe('anthropic');
    expect(result.metadata.fallback).toBe(true);
    expect(await readAll(result)).toEqual(['from ', 'claude']);
  });

  it('never switches provider after text reached the caller', async () => {
    const failure = new AIProviderError('dropped', 'openai', { statusCode: 502 });
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['one', 'two'], error: failure, errorAfterChunks: 1 }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'a', [{ chunks: ['unused'] }]);
    const result = await service(scriptedCatalog({ openai, anthropic })).stream('x');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of result.stream) seen.push(chunk.content);
      })(),
    ).rejects.toBe(failure);
    expect(seen).toEqual(['one']);
    expect(anthropic.calls).toEqual([]);
    await expect(result.usage).rejects.toBe(failure);
  });

  it('times out the whole stream, not just its creation', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['first', 'second'] }]);
    const result = await service(scriptedCatalog({ openai })).stream({ input: { text: 'x' }, timeout: 20 });
    const iterator = result.stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ content: 'first' });
    // The consumer stalls past the deadline; the next read reports the timeout.
    await new Promise<void>((resolve) => openai.calls[0]?.abortSignal?.addEventListener('abort', () => resolve(), { once: true }));
    await expect(iterator.next()).rejects.toBeInstanceOf(TimeoutError);
    await expect(result.final).rejects.toBeInstanceOf(TimeoutError);
  });

  it('cancels the provider request when the consumer leaves early', async () => {
    const openai = new ScriptedLanguageModel('openai', 'o', [{ chunks: ['a', 'b', 'c'] }]);
    const result = await service(scriptedCatalog({ openai })).stream('x');
    for await (const chunk of result.stream) {
      expect(chunk.content).toBe('a');
      break;
    }
    expect(openai.calls[0]?.abortSignal?.aborted).toBe(true);
    await expect(result.finishReason).rejects.toThrow(/closed by the consumer/);
  });

  it("stops on the caller's abort signal", async () => {
    const controller = new AbortController();
    const openai = new ScriptedLanguageModel('openai', 'o', [{ hang: true }]);
    const pending = service(scriptedCatalog({ openai })).stream({ input: { text: 'x' }, abortSignal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
