import { expect } from 'vitest';
import { mistralProvider } from '../../../src/adapters/llm/mistral-provider.js';
import { describeOpenAiFamilyContract } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: mistralProvider,
  dialect: 'mistral',
  model: 'mistral-small-latest',
  env: (baseUrl) => ({ MISTRAL_API_KEY: 'mistral-test-key', MISTRAL_BASE_URL: `${baseUrl}/v1` }),
  chatPath: '/v1/chat/completions',
  assertAuth: (request) => expect(request.headers.authorization).toBe('Bearer mistral-test-key'),
  missingEnvMessage: /MISTRAL_API_KEY/,
});
