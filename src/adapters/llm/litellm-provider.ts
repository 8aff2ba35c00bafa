import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { openAiWireOrSdk } from './openai-chat-wire-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

/** The proxy's API root, `/v1` included. */
function litellmBaseUrl(env: ProviderEnv): string {
  const baseUrl = parseBaseUrl('litellm', 'LITELLM_BASE_URL', readEnv(env, 'LITELLM_BASE_URL') ?? 'http://localhost:4000');
  return /\/v1$/.test(baseUrl) ? baseUrl : `${baseUrl}/v1`;
}

const litellmKey = (env: ProviderEnv): string => readEnv(env, 'LITELLM_API_KEY') ?? 'sk-anything';

function litellmSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  return createOpenAICompatible({
    name: 'litellm',
    baseURL: litellmBaseUrl(env),
    apiKey: litellmKey(env),
    includeUsage: true,
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

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
    return openAiWireOrSdk(
      overrides,
      () => createAiSdkLanguageModelClient({ provider: 'litellm', modelId, model: litellmSdk(this, env, overrides).chatModel(modelId), supportsTools: true }),
      {
        provider: 'litellm',
        modelId,
        url: `${litellmBaseUrl(env)}/chat/completions`,
        headers: { authorization: `Bearer ${litellmKey(env)}` },
      },
    );
  },
  /** The proxy's `/v1/embeddings`, for the embedding models its config lists. */
  embeddings: {
    defaultModel: 'text-embedding-3-small',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'litellm', modelId, model: litellmSdk(litellmProvider, env, overrides).embeddingModel(modelId) });
    },
  },
};
