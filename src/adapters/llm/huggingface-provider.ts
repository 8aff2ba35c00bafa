import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';
import { assertProviderConfigured, modelMatchesAny, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

const defaultRouter = 'https://router.huggingface.co/v1';

/**
 * Model-name fragments that execute tool calls through the HF router (the reference's list);
 * other models see tools but tend to describe a call instead of making it, so none are sent.
 */
export const huggingFaceToolCapableModels: readonly string[] = [
  'llama-3.1-8b-instruct',
  'llama-3.1-70b-instruct',
  'llama-3.1-405b-instruct',
  'hermes-3-llama-3.2',
  'hermes-2-pro',
  'codellama-34b-instruct',
  'codellama-13b-instruct',
  'mistral-7b-instruct-v0.3',
  'mistral-8x7b-instruct',
  'nous-hermes',
  'openchat',
  'wizardcoder',
];

/**
 * Hugging Face Inference Providers through the router's OpenAI-compatible Chat Completions
 * endpoint (the same wire the reference used), rather than `@ai-sdk/huggingface`'s Responses API.
 */
export const huggingfaceProvider: ProviderDefinition = {
  name: 'huggingface',
  requiredEnv: [['HUGGINGFACE_API_KEY', 'HF_TOKEN']],
  modelEnv: ['HUGGINGFACE_MODEL'],
  defaultModel: 'meta-llama/Llama-3.1-8B-Instruct',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const baseUrl = readEnv(env, 'HUGGINGFACE_BASE_URL');
    const hf = createOpenAICompatible({
      name: 'huggingface',
      baseURL: baseUrl === undefined ? defaultRouter : parseBaseUrl('huggingface', 'HUGGINGFACE_BASE_URL', baseUrl),
      apiKey: readEnv(env, 'HUGGINGFACE_API_KEY', 'HF_TOKEN'),
      includeUsage: true,
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return createAiSdkLanguageModelClient({
      provider: 'huggingface',
      modelId,
      model: hf.chatModel(modelId),
      supportsTools: modelMatchesAny(modelId, huggingFaceToolCapableModels),
    });
  },
};
