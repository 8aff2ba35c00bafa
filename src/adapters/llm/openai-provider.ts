import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { openAiWireOrSdk } from './openai-chat-wire-client.js';
import { createOpenAiModerationClient } from './openai-moderation-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

/** `OPENAI_BASE_URL`, checked; undefined means OpenAI's own API. */
function openaiBaseUrl(env: ProviderEnv): string | undefined {
  const baseUrl = readEnv(env, 'OPENAI_BASE_URL');
  return baseUrl === undefined ? undefined : parseBaseUrl('openai', 'OPENAI_BASE_URL', baseUrl);
}

function openaiSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  const baseUrl = openaiBaseUrl(env);
  return createOpenAI({
    apiKey: readEnv(env, 'OPENAI_API_KEY'),
    ...(baseUrl === undefined ? {} : { baseURL: baseUrl }),
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

/**
 * OpenAI over its Chat Completions and Embeddings APIs; `OPENAI_BASE_URL` points it at a proxy or a test
 * fake. Chat Completions and Responses requests of the gateway are forwarded natively (`/chat/completions`,
 * `/responses`).
 */
export const openaiProvider: ProviderDefinition = {
  name: 'openai',
  requiredEnv: [['OPENAI_API_KEY']],
  modelEnv: ['OPENAI_MODEL'],
  defaultModel: 'gpt-4o-mini',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    return openAiWireOrSdk(
      overrides,
      () => createAiSdkLanguageModelClient({ provider: 'openai', modelId, model: openaiSdk(this, env, overrides).chat(modelId), supportsTools: true }),
      {
        provider: 'openai',
        modelId,
        url: `${openaiBaseUrl(env) ?? 'https://api.openai.com/v1'}/chat/completions`,
        headers: { authorization: `Bearer ${readEnv(env, 'OPENAI_API_KEY') ?? ''}` },
      },
      {
        'openai-chat': {
          url: `${openaiBaseUrl(env) ?? 'https://api.openai.com/v1'}/chat/completions`,
          headers: { authorization: `Bearer ${readEnv(env, 'OPENAI_API_KEY') ?? ''}` },
        },
        'openai-responses': {
          url: `${openaiBaseUrl(env) ?? 'https://api.openai.com/v1'}/responses`,
          headers: { authorization: `Bearer ${readEnv(env, 'OPENAI_API_KEY') ?? ''}` },
        },
      },
    );
  },
  embeddings: {
    defaultModel: 'text-embedding-3-small',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'openai', modelId, model: openaiSdk(openaiProvider, env, overrides).embeddingModel(modelId) });
    },
  },
  moderation: {
    defaultModel: 'omni-moderation-latest',
    create(env, modelId, overrides = {}) {
      assertProviderConfigured(openaiProvider, env);
      return createOpenAiModerationClient({
        modelId,
        baseUrl: openaiBaseUrl(env) ?? 'https://api.openai.com/v1',
        apiKey: readEnv(env, 'OPENAI_API_KEY') ?? '',
        fetch: overrides.fetch,
      });
    },
  },
};
