import { describe, expect, it } from 'vitest';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { ConfigurationError } from '../../../src/generation/errors/provider-errors.js';
import type { LlmCallRecord } from '../../../src/generation/llm-call-record.js';
import { ProviderCalls, type ProviderCallsDeps } from '../../../src/generation/provider-calls.js';
import { noTelemetry } from '../../../src/generation/telemetry.js';
import { ScriptedLanguageModel, scriptedCatalog } from '../../helpers/scripted-language-model.js';

const attribution = { surface: 'gateway' as const, merchantId: 'shop' };
const question = { messages: [{ role: 'user' as const, content: 'hi' }] };

function calls(catalog: ReturnType<typeof scriptedCatalog>, overrides: Partial<ProviderCallsDeps> = {}): ProviderCalls {
  return new ProviderCalls({ catalog, telemetry: () => noTelemetry, maxOutputTokensOf: (model) => (model === 'claude' ? 64_000 : undefined), ...overrides });
}

describe('ProviderCalls', () => {
  it('sends only what the request carries: no temperature and no output limit the caller left out', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt', [{ text: 'a' }]);
    await calls(scriptedCatalog({ openai })).generate([{ provider: 'openai', model: 'gpt' }], question, { attribution });
    expect(openai.calls[0]).not.toHaveProperty('temperature');
    expect(openai.calls[0]).not.toHaveProperty('maxTokens');
    expect(openai.calls[0]).not.toHaveProperty('tools');
    expect(openai.calls[0]?.maxSteps).toBe(5);
  });

  it("gives a provider that requires an output limit the registry's maximum when the request has none, and the request's own when it has one", async () => {
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ text: 'a' }, { text: 'b' }]);
    const layer = calls(scriptedCatalog({ anthropic }));
    await layer.generate([{ provider: 'anthropic', model: 'claude' }], question, { attribution });
    await layer.generate([{ provider: 'anthropic', model: 'claude' }], { ...question, maxTokens: 12 }, { attribution });
    expect(anthropic.calls.map((call) => call.maxTokens)).toEqual([64_000, 12]);
  });

  it('fails over before the first chunk, sending a provider kind its own headers only, and records each attempt', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt', [{ error: new AIProviderError('Service Unavailable', 'openai', { statusCode: 503 }) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ chunks: ['he', 'llo'] }]);
    const records: LlmCallRecord[] = [];
    const layer = calls(scriptedCatalog({ openai, anthropic }), { recordCall: (record) => records.push(record) });
    const streamed = await layer.stream(
      [
        { provider: 'openai', model: 'gpt' },
        { provider: 'anthropic', model: 'claude' },
      ],
      { ...question, providerHeaders: { anthropic: { 'anthropic-beta': 'x' } } },
      { attribution },
    );
    const text: string[] = [];
    for await (const delta of streamed.textStream) text.push(delta);
    expect(text.join('')).toBe('hello');
    expect(streamed.client.provider).toBe('anthropic');
    expect(streamed.attempts).toMatchObject([{ provider: 'openai', model: 'gpt' }]);
    expect(openai.calls[0]?.headers).toBeUndefined();
    expect(anthropic.calls[0]?.headers).toEqual({ 'anthropic-beta': 'x' });
    await streamed.answer;
    expect(records.map((record) => [record.provider, record.outcome, record.fallbackHops])).toEqual([
      ['openai', 'error', 0],
      ['anthropic', 'success', 1],
    ]);
  });

  it('refuses a named provider that is not configured, naming the variable to set', async () => {
    const layer = calls(scriptedCatalog({}));
    await expect(layer.requireConfigured('mistral')).rejects.toThrow(ConfigurationError);
    await expect(layer.requireConfigured('mistral')).rejects.toThrow(/MISTRAL_API_KEY/);
  });

  it('fails a call whose answer its caller refuses, without trying another candidate', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt', [{ text: 'not json' }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ text: '{}' }]);
    const refused = new AIProviderError('not the schema', 'openai', { isRetryable: false });
    const call = calls(scriptedCatalog({ openai, anthropic })).generate(
      [
        { provider: 'openai', model: 'gpt' },
        { provider: 'anthropic', model: 'claude' },
      ],
      question,
      {
        attribution,
        checkAnswer: () => {
          throw refused;
        },
      },
    );
    await expect(call).rejects.toBe(refused);
    expect(anthropic.calls).toHaveLength(0);
  });
});
