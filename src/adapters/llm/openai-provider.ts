import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { createOpenAiChatWireClient } from './openai-chat-wire-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from './provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from './provider-env.js';

function openaiSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  const baseUrl = readEnv(env, 'OPENAI_BASE_URL');
  return createOpenAI({
    apiKey: readEnv(env, 'OPENAI_API_KEY'),
    ...(baseUrl === undefined ? {} : { baseURL: parseBaseUrl('openai', 'OPENAI_BASE_URL', baseUrl) }),
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

/** OpenAI over its Chat Completions and Embeddings APIs; `OPENAI_BASE_URL` points it at a proxy or a test fake. */
export const openaiProvider: ProviderDefinition = {
  name: 'openai',
  requiredEnv: [['OPENAI_API_KEY']],
  modelEnv: ['OPENAI_MODEL'],
  defaultModel: 'gpt-4o-mini',
  create(env, modelId, overrides = {}) {
    const fallback = createAiSdkLanguageModelClient({ provider: 'openai', modelId, model: openaiSdk(this, env, overrides).chat(modelId), supportsTools: true });
    // A fetch override is a test seam for the AI SDK path: everything goes through it then.
    if (overrides.fetch !== undefined) return fallback;
    const baseUrl = readEnv(env, 'OPENAI_BASE_URL');
    return createOpenAiChatWireClient({
      provider: 'openai',
      modelId,
      url: `${baseUrl === undefined ? 'https://api.openai.com/v1' : parseBaseUrl('openai', 'OPENAI_BASE_URL', baseUrl)}/chat/completions`,
      headers: { authorization: `Bearer ${readEnv(env, 'OPENAI_API_KEY') ?? ''}` },
      includeUsage: true,
      fallback,
    });
  },
  embeddings: {
    defaultModel: 'text-embedding-3-small',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'openai', modelId, model: openaiSdk(openaiProvider, env, overrides).embeddingModel(modelId) });
    },
  },
};
