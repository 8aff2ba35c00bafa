import { createAnthropic } from '@ai-sdk/anthropic';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { mapAnthropicError } from './anthropic-error-mapping.js';
import { countAnthropicTokens } from './anthropic-token-count.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';

/**
 * Anthropic's Messages API through `@ai-sdk/anthropic`. `ANTHROPIC_BASE_URL` replaces the API base
 * (including its `/v1`), e.g. for a gateway or a local fake. Its clients also count a Messages
 * request's input tokens with Anthropic's own `count_tokens` endpoint.
 */
export const anthropicProvider: ProviderDefinition = {
  name: 'anthropic',
  requiredEnv: [['ANTHROPIC_API_KEY']],
  modelEnv: ['ANTHROPIC_MODEL'],
  defaultModel: 'claude-sonnet-4-5',
  create(env, modelId, overrides = {}) {
    const apiKey = env['ANTHROPIC_API_KEY']?.trim();
    if (!apiKey) throw new ConfigurationError('anthropic: ANTHROPIC_API_KEY is not set (create a key at console.anthropic.com and export it)', 'anthropic');
    const baseURL = env['ANTHROPIC_BASE_URL']?.trim() || undefined;
    const anthropic = createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}), ...(overrides.fetch ? { fetch: overrides.fetch } : {}) });
    const client = createAiSdkLanguageModelClient({
      provider: 'anthropic',
      modelId,
      model: anthropic(modelId),
      supportsTools: true,
      mapError: (error) => mapAnthropicError('anthropic', error),
    });
    const counting = { apiKey, modelId, ...(baseURL ? { baseURL } : {}), ...(overrides.fetch ? { fetch: overrides.fetch } : {}) };
    return { ...client, countInputTokens: (request) => countAnthropicTokens(counting, request) };
  },
};
