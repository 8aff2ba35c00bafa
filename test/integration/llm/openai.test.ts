import { describe, expect, it } from 'vitest';
import { openaiProvider } from '../../../src/adapters/llm/openai-provider.js';
import { ConfigurationError, InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import { baseRequest, describeOpenAiFamilyContract } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: openaiProvider,
  dialect: 'openai',
  model: 'gpt-4o-mini',
  env: (baseUrl) => ({ OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${baseUrl}/v1` }),
  chatPath: '/v1/chat/completions',
  assertAuth: (request) => expect(request.headers.authorization).toBe('Bearer sk-test-openai'),
  missingEnvMessage: /OPENAI_API_KEY/,
});

describe('caller mistakes caught before any request', () => {
  it('an image that is not a base64 data URL, or a schema that is not JSON Schema → InvalidRequestError, nothing sent', async () => {
    let requests = 0;
    const client = openaiProvider.create({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, 'gpt-4o-mini', {
      fetch: () => {
        requests += 1;
        return Promise.reject(new Error('no request expected'));
      },
    });
    const badImage = client.generate(baseRequest({ messages: [{ role: 'user', content: [{ type: 'image', dataUrl: 'https://example.test/cat.png' }] }] }));
    await expect(badImage).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(badImage).rejects.toMatchObject({ isRetryable: false, option: 'messages' });
    const badSchema = client.generate(baseRequest({ schema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }));
    await expect(badSchema).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.stream(baseRequest({ schema: { type: 12 } })).result).rejects.toBeInstanceOf(InvalidRequestError);
    expect(requests).toBe(0);
  });

  it('OPENAI_BASE_URL that is not a URL is a ConfigurationError naming it', () => {
    expect(() => openaiProvider.create({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'localhost:8080' }, 'm')).toThrow(ConfigurationError);
    expect(() => openaiProvider.create({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'localhost:8080' }, 'm')).toThrow(/OPENAI_BASE_URL/);
  });
});
