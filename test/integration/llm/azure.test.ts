import { describe, expect, it } from 'vitest';
import { azureEndpoint, azureProvider } from '../../../src/adapters/llm/azure-provider.js';
import { describeOpenAiFamilyContract } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: azureProvider,
  dialect: 'azure',
  model: 'my-gpt4o-deployment',
  env: (baseUrl) => ({ AZURE_OPENAI_API_KEY: 'azure-test-key', AZURE_OPENAI_ENDPOINT: `${baseUrl}/`, AZURE_API_VERSION: '2024-10-21' }),
  chatPath: '/openai/deployments/my-gpt4o-deployment/chat/completions',
  assertAuth: (request) => {
    expect(request.headers['api-key']).toBe('azure-test-key');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.query.get('api-version')).toBe('2024-10-21');
  },
  missingEnvMessage: /AZURE_OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT/,
});

describe('AZURE_OPENAI_ENDPOINT', () => {
  it('takes a bare resource name, the resource host, or a URL that becomes the base URL', () => {
    expect(azureEndpoint('my-resource')).toEqual({ resourceName: 'my-resource' });
    expect(azureEndpoint('https://my-resource.openai.azure.com/')).toEqual({ baseURL: 'https://my-resource.openai.azure.com/openai' });
    expect(azureEndpoint('https://my-resource.openai.azure.com/openai')).toEqual({ baseURL: 'https://my-resource.openai.azure.com/openai' });
    expect(azureEndpoint('http://127.0.0.1:9999')).toEqual({ baseURL: 'http://127.0.0.1:9999/openai' });
  });

  it('defaults the API version to 2024-10-01-preview', async () => {
    const { startFakeHttpServer } = await import('../../fixtures/providers/fake-http-server.js');
    const { chatCompletion } = await import('../../fixtures/providers/openai-wire.js');
    const fake = await startFakeHttpServer(() => chatCompletion({ dialect: 'azure', model: 'dep', content: 'ok' }));
    try {
      const client = azureProvider.create({ AZURE_OPENAI_API_KEY: 'k', AZURE_OPENAI_ENDPOINT: fake.url }, 'dep');
      await client.generate({ messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 10, maxSteps: 1 });
      expect(fake.requests[0]?.query.get('api-version')).toBe('2024-10-01-preview');
    } finally {
      await fake.close();
    }
  });
});
