import { createAnthropic } from '@ai-sdk/anthropic';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { mapAnthropicError } from './anthropic-error-mapping.js';
import { countAnthropicTokens } from './anthropic-token-count.js';
import { createNativeWireClient } from './native-wire-client.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';

/**
 * Anthropic's Messages API through `@ai-sdk/anthropic`. `ANTHROPIC_BASE_URL` replaces the API base
 * (including its `/v1`), e.g. for a gateway or a local fake. Its clients also count a Messages
 * request's input tokens with Anthropic's own `count_tokens` endpoint, and forward Messages
 * requests natively (`nativeWires`: anthropic-messages) when no proxy fetch is configured.
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
    const withCount = { ...client, countInputTokens: (request: Parameters<typeof countAnthropicTokens>[1]) => countAnthropicTokens(counting, request) };
    // Passed through natively on node:http, unless a fetch is handed in (a proxy, or a test seam): then only translated.
    if (overrides.fetch !== undefined) return withCount;
    const native = createNativeWireClient({
      provider: 'anthropic',
      modelId,
      endpoints: {
        'anthropic-messages': {
          url: `${(baseURL ?? 'https://api.anthropic.com/v1').replace(/\/+$/, '')}/messages`,
          headers: { 'x-api-key': apiKey },
          defaultHeaders: { 'anthropic-version': '2023-06-01' },
        },
      },
      mapError: (error) => mapAnthropicError('anthropic', error),
    });
    return { ...withCount, ...native };
  },
};
