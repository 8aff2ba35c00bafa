import { describe, expect, it } from 'vitest';
import { openaiCompatibleProvider } from '../../../src/adapters/llm/openai-compatible-provider.js';
import { ConfigurationError } from '../../../src/generation/errors/provider-errors.js';
import { describeOpenAiFamilyContract } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: openaiCompatibleProvider,
  dialect: 'openai',
  model: 'Qwen/Qwen2.5-7B-Instruct',
  env: (baseUrl) => ({ OPENAI_COMPATIBLE_BASE_URL: `${baseUrl}/v1`, OPENAI_COMPATIBLE_API_KEY: 'token-abc123' }),
  chatPath: '/v1/chat/completions',
  assertAuth: (request) => expect(request.headers.authorization).toBe('Bearer token-abc123'),
  missingEnvMessage: /OPENAI_COMPATIBLE_BASE_URL/,
});

describe('openai-compatible configuration', () => {
  it('rejects a base URL that is not http(s)', () => {
    expect(() => openaiCompatibleProvider.create({ OPENAI_COMPATIBLE_BASE_URL: 'ftp://example.test/v1' }, 'm')).toThrow(ConfigurationError);
    expect(() => openaiCompatibleProvider.create({ OPENAI_COMPATIBLE_BASE_URL: 'not a url' }, 'm')).toThrow(/OPENAI_COMPATIBLE_BASE_URL/);
  });
});
