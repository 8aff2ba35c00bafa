import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from './provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from './provider-env.js';

/** OpenAI over its Chat Completions API; `OPENAI_BASE_URL` points it at a proxy or a test fake. */
export const openaiProvider: ProviderDefinition = {
  name: 'openai',
  requiredEnv: [['OPENAI_API_KEY']],
  modelEnv: ['OPENAI_MODEL'],
  defaultModel: 'gpt-4o-mini',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const baseUrl = readEnv(env, 'OPENAI_BASE_URL');
    const openai = createOpenAI({
      apiKey: readEnv(env, 'OPENAI_API_KEY'),
      ...(baseUrl === undefined ? {} : { baseURL: parseBaseUrl('openai', 'OPENAI_BASE_URL', baseUrl) }),
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return createAiSdkLanguageModelClient({ provider: 'openai', modelId, model: openai.chat(modelId), supportsTools: true });
  },
};
