import { describe, expect, it } from 'vitest';
import { litellmProvider } from '../../../src/adapters/llm/litellm-provider.js';
import { openaiCompatibleProvider } from '../../../src/adapters/llm/openai-compatible-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import type { LanguageModelClient } from '../../../src/generation/language-model-client.js';
import { baseRequest } from './openai-family-contract.js';

/**
 * Against a real LiteLLM proxy (deploy/local/litellm.sh: models `mock-gpt` and `mock-gpt-alt`
 * answer with fixed `mock_response` text). LITELLM_URL comes from deploy/local/start.sh; without
 * it these tests fail rather than skip, so CI cannot pass without the service.
 */
function liteLlmUrl(): string {
  const url = process.env['LITELLM_URL'];
  if (url === undefined || url.trim() === '') {
    throw new Error('LITELLM_URL is not set: start the proxy with `bash deploy/local/litellm.sh start` and export LITELLM_URL=http://127.0.0.1:4000');
  }
  return url.replace(/\/+$/, '');
}

const kinds: readonly { readonly name: string; readonly model: string; readonly answer: string; client(): LanguageModelClient }[] = [
  {
    name: 'litellm',
    model: 'mock-gpt',
    answer: 'Hello from the LiteLLM mock proxy.',
    client: () => litellmProvider.create({ LITELLM_BASE_URL: liteLlmUrl() }, 'mock-gpt'),
  },
  {
    name: 'openai-compatible',
    model: 'mock-gpt-alt',
    answer: 'The alternate mock model answers.',
    client: () =>
      openaiCompatibleProvider.create({ OPENAI_COMPATIBLE_BASE_URL: `${liteLlmUrl()}/v1`, OPENAI_COMPATIBLE_API_KEY: 'sk-anything' }, 'mock-gpt-alt'),
  },
];

describe.each(kinds)('$name provider against a real LiteLLM proxy', (kind) => {
  it('generates the routed model’s answer with token usage', async () => {
    const result = await kind.client().generate(baseRequest());
    expect(result.text).toBe(kind.answer);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
  });

  it('streams the answer in several deltas, then settles with usage', async () => {
    const stream = kind.client().stream(baseRequest());
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.result;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(kind.answer);
    expect(result.text).toBe(kind.answer);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });
});

describe('a real LiteLLM proxy refusing a request', () => {
  it('an unknown model name → InvalidRequestError with the proxy’s message, not retryable', async () => {
    const client = litellmProvider.create({ LITELLM_BASE_URL: liteLlmUrl() }, 'no-such-model');
    const error = await client.generate(baseRequest()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AIProviderError);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as AIProviderError).isRetryable).toBe(false);
    expect((error as AIProviderError).message).toMatch(/no-such-model/);
  });
});
