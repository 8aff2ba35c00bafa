import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { openAiWireOrSdk } from './openai-chat-wire-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

function compatibleSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  const apiKey = readEnv(env, 'OPENAI_COMPATIBLE_API_KEY');
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: compatibleBaseUrl(env),
    ...(apiKey === undefined ? {} : { apiKey }),
    includeUsage: true,
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

function compatibleBaseUrl(env: ProviderEnv): string {
  return parseBaseUrl('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL', readEnv(env, 'OPENAI_COMPATIBLE_BASE_URL') ?? '');
}

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
    return openAiWireOrSdk(
      overrides,
      () =>
        createAiSdkLanguageModelClient({
          provider: 'openai-compatible',
          modelId,
          model: compatibleSdk(this, env, overrides).chatModel(modelId),
          supportsTools: true,
        }),
      {
        provider: 'openai-compatible',
        modelId,
        url: `${compatibleBaseUrl(env)}/chat/completions`,
        headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
      },
    );
  },
  /** The server's `/embeddings` (vLLM, LM Studio, OpenRouter… serve it for their embedding models). */
  embeddings: {
    defaultModel: 'text-embedding-3-small',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({
        provider: 'openai-compatible',
        modelId,
        model: compatibleSdk(openaiCompatibleProvider, env, overrides).embeddingModel(modelId),
      });
    },
  },
};
