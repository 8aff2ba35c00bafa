import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from './provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from './provider-env.js';

/**
 * Any server speaking OpenAI Chat Completions (vLLM, OpenRouter, LM Studio, a LiteLLM proxy…).
 * `OPENAI_COMPATIBLE_BASE_URL` is the API root including its version segment, e.g.
 * `http://localhost:8000/v1`; the key is optional because many local servers need none.
 */
export const openaiCompatibleProvider: ProviderDefinition = {
  name: 'openai-compatible',
  requiredEnv: [['OPENAI_COMPATIBLE_BASE_URL']],
  modelEnv: ['OPENAI_COMPATIBLE_MODEL'],
  defaultModel: 'gpt-3.5-turbo',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const apiKey = readEnv(env, 'OPENAI_COMPATIBLE_API_KEY');
    const compatible = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: parseBaseUrl('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL', readEnv(env, 'OPENAI_COMPATIBLE_BASE_URL') ?? ''),
      ...(apiKey === undefined ? {} : { apiKey }),
      includeUsage: true,
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return createAiSdkLanguageModelClient({ provider: 'openai-compatible', modelId, model: compatible.chatModel(modelId), supportsTools: true });
  },
};
