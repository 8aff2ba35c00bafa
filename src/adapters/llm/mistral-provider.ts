import { createMistral } from '@ai-sdk/mistral';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from './provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from './provider-env.js';

/** Mistral's La Plateforme (`/v1/chat/completions`); `MISTRAL_BASE_URL` overrides the host. */
export const mistralProvider: ProviderDefinition = {
  name: 'mistral',
  requiredEnv: [['MISTRAL_API_KEY']],
  modelEnv: ['MISTRAL_MODEL'],
  defaultModel: 'mistral-small-latest',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const baseUrl = readEnv(env, 'MISTRAL_BASE_URL');
    const mistral = createMistral({
      apiKey: readEnv(env, 'MISTRAL_API_KEY'),
      ...(baseUrl === undefined ? {} : { baseURL: parseBaseUrl('mistral', 'MISTRAL_BASE_URL', baseUrl) }),
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return createAiSdkLanguageModelClient({ provider: 'mistral', modelId, model: mistral(modelId), supportsTools: true });
  },
};
