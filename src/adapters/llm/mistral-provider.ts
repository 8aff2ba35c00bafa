import { createMistral } from '@ai-sdk/mistral';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

function mistralSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  const baseUrl = readEnv(env, 'MISTRAL_BASE_URL');
  return createMistral({
    apiKey: readEnv(env, 'MISTRAL_API_KEY'),
    ...(baseUrl === undefined ? {} : { baseURL: parseBaseUrl('mistral', 'MISTRAL_BASE_URL', baseUrl) }),
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

/** Mistral's La Plateforme (`/v1/chat/completions`, `/v1/embeddings`); `MISTRAL_BASE_URL` overrides the host. */
export const mistralProvider: ProviderDefinition = {
  name: 'mistral',
  requiredEnv: [['MISTRAL_API_KEY']],
  modelEnv: ['MISTRAL_MODEL'],
  defaultModel: 'mistral-small-latest',
  create(env, modelId, overrides = {}) {
    return createAiSdkLanguageModelClient({ provider: 'mistral', modelId, model: mistralSdk(this, env, overrides)(modelId), supportsTools: true });
  },
  embeddings: {
    defaultModel: 'mistral-embed',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'mistral', modelId, model: mistralSdk(mistralProvider, env, overrides).embeddingModel(modelId) });
    },
  },
};
