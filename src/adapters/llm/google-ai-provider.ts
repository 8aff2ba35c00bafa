import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { mapGoogleError } from './google-ai-error-mapping.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';

/**
 * Google AI Studio (the Gemini API with an API key) through `@ai-sdk/google`.
 * `GOOGLE_AI_BASE_URL` replaces the API base including its version (`…/v1beta`).
 */
export const googleAiProvider: ProviderDefinition = {
  name: 'google-ai',
  requiredEnv: [['GOOGLE_AI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY']],
  modelEnv: ['GOOGLE_AI_MODEL'],
  defaultModel: 'gemini-2.5-flash',
  create(env, modelId, overrides = {}) {
    const apiKey = env['GOOGLE_AI_API_KEY']?.trim() || env['GOOGLE_GENERATIVE_AI_API_KEY']?.trim();
    if (!apiKey) {
      throw new ConfigurationError(
        'google-ai: GOOGLE_AI_API_KEY (or GOOGLE_GENERATIVE_AI_API_KEY) is not set (create a key at aistudio.google.com)',
        'google-ai',
      );
    }
    const baseURL = env['GOOGLE_AI_BASE_URL']?.trim() || undefined;
    const google = createGoogleGenerativeAI({ apiKey, ...(baseURL ? { baseURL } : {}), ...(overrides.fetch ? { fetch: overrides.fetch } : {}) });
    return createAiSdkLanguageModelClient({
      provider: 'google-ai',
      modelId,
      model: google(modelId),
      supportsTools: true,
      mapError: (error) => mapGoogleError('google-ai', error),
    });
  },
};
