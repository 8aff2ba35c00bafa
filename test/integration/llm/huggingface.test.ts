import { describe, expect, it } from 'vitest';
import { huggingfaceProvider } from '../../../src/adapters/llm/huggingface-provider.js';
import { startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { baseRequest, describeOpenAiFamilyContract, weatherTool } from './openai-family-contract.js';

describeOpenAiFamilyContract({
  definition: huggingfaceProvider,
  dialect: 'huggingface',
  model: 'meta-llama/Llama-3.1-8B-Instruct',
  env: (baseUrl) => ({ HF_TOKEN: 'hf_testtoken', HUGGINGFACE_BASE_URL: `${baseUrl}/v1` }),
  chatPath: '/v1/chat/completions',
  assertAuth: (request) => expect(request.headers.authorization).toBe('Bearer hf_testtoken'),
  missingEnvMessage: /HUGGINGFACE_API_KEY or HF_TOKEN/,
});

describe('huggingface tool support', () => {
  it('offers tools only to models on the tool-capable list', () => {
    const env = { HUGGINGFACE_API_KEY: 'hf_x' };
    expect(huggingfaceProvider.create(env, 'meta-llama/Llama-3.1-70B-Instruct').supportsTools).toBe(true);
    expect(huggingfaceProvider.create(env, 'microsoft/DialoGPT-medium').supportsTools).toBe(false);
  });

  it('does not send tools to a model that cannot use them', async () => {
    const fake = await startFakeHttpServer(() => chatCompletion({ dialect: 'huggingface', model: 'microsoft/DialoGPT-medium', content: 'hi' }));
    try {
      const client = huggingfaceProvider.create({ HF_TOKEN: 'hf_x', HUGGINGFACE_BASE_URL: fake.url }, 'microsoft/DialoGPT-medium');
      await client.generate(baseRequest({ tools: [weatherTool([])] }));
      expect((fake.requests[0]!.body as { tools?: unknown }).tools).toBeUndefined();
    } finally {
      await fake.close();
    }
  });
});
