import type { ProviderName } from '../../generation/provider-name.js';
import { anthropicProvider } from './anthropic-provider.js';
import { azureProvider } from './azure-provider.js';
import { bedrockProvider } from './bedrock-provider.js';
import { googleAiProvider } from './google-ai-provider.js';
import { huggingfaceProvider } from './huggingface-provider.js';
import { litellmProvider } from './litellm-provider.js';
import { mistralProvider } from './mistral-provider.js';
import { ollamaProvider } from './ollama-provider.js';
import { openaiCompatibleProvider } from './openai-compatible-provider.js';
import { openaiProvider } from './openai-provider.js';
import { proxied } from './proxy-fetch.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';
import { sagemakerProvider } from './sagemaker-provider.js';
import { vertexProvider } from './vertex-provider.js';

export { isProviderConfigured, missingProviderEnv } from '../../generation/provider-env.js';

/**
 * Every provider kind by name; the record type makes a forgotten kind a compile error. Each goes
 * through `proxied`: `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` (either case) apply to every client.
 */
export const providerDefinitions: Readonly<Record<ProviderName, ProviderDefinition>> = Object.freeze({
  openai: proxied(openaiProvider),
  anthropic: proxied(anthropicProvider),
  'google-ai': proxied(googleAiProvider),
  vertex: proxied(vertexProvider),
  bedrock: proxied(bedrockProvider),
  azure: proxied(azureProvider),
  mistral: proxied(mistralProvider),
  huggingface: proxied(huggingfaceProvider),
  litellm: proxied(litellmProvider),
  'openai-compatible': proxied(openaiCompatibleProvider),
  sagemaker: proxied(sagemakerProvider),
  ollama: proxied(ollamaProvider),
});
