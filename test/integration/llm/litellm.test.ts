import { describe, expect, it } from 'vitest';
import { litellmProvider } from '../../../src/adapters/llm/litellm-provider.js';
import { describeOpenAiFamilyContract } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: litellmProvider,
  dialect: 'litellm',
  model: 'openai/gpt-4o-mini',
  env: (baseUrl) => ({ LITELLM_BASE_URL: baseUrl, LITELLM_API_KEY: 'sk-litellm-master' }),
  chatPath: '/v1/chat/completions',
  assertAuth: (request) => expect(request.headers.authorization).toBe('Bearer sk-litellm-master'),
  missingEnvMessage: /LITELLM_BASE_URL/,
});

describe('litellm defaults', () => {
  it('uses sk-anything as the key when LITELLM_API_KEY is unset', async () => {
    const { startFakeHttpServer } = await import('../../fixtures/providers/fake-http-server.js');
    const { chatCompletion } = await import('../../fixtures/providers/openai-wire.js');
    const fake = await startFakeHttpServer(() => chatCompletion({ dialect: 'litellm', model: 'm', content: 'ok' }));
    try {
      await litellmProvider
        .create({ LITELLM_BASE_URL: `${fake.url}/v1/` }, 'm')
        .generate({ messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 5, maxSteps: 1 });
      expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
      expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-anything');
    } finally {
      await fake.close();
    }
  });
});
