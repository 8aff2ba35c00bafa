import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from './provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from './provider-env.js';

/**
 * A LiteLLM proxy (`{LITELLM_BASE_URL}/v1/chat/completions`). It counts as configured only when
 * `LITELLM_BASE_URL` is set: a proxy on the default port is not assumed to exist.
 * `LITELLM_API_KEY` defaults to `sk-anything`, which a proxy without a master key accepts.
 */
export const litellmProvider: ProviderDefinition = {
  name: 'litellm',
  requiredEnv: [['LITELLM_BASE_URL']],
  modelEnv: ['LITELLM_MODEL'],
  defaultModel: 'openai/gpt-4o-mini',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const baseUrl = parseBaseUrl('litellm', 'LITELLM_BASE_URL', readEnv(env, 'LITELLM_BASE_URL') ?? 'http://localhost:4000');
    const litellm = createOpenAICompatible({
      name: 'litellm',
      baseURL: /\/v1$/.test(baseUrl) ? baseUrl : `${baseUrl}/v1`,
      apiKey: readEnv(env, 'LITELLM_API_KEY') ?? 'sk-anything',
      includeUsage: true,
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return createAiSdkLanguageModelClient({ provider: 'litellm', modelId, model: litellm.chatModel(modelId), supportsTools: true });
  },
};
