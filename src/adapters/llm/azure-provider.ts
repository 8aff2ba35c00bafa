import { createAzure } from '@ai-sdk/azure';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { openAiWireOrSdk } from './openai-chat-wire-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

const defaultApiVersion = '2024-10-01-preview';

const apiVersionOf = (env: ProviderEnv): string => readEnv(env, 'AZURE_API_VERSION', 'AZURE_OPENAI_API_VERSION') ?? defaultApiVersion;

function azureSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  return createAzure({
    apiKey: readEnv(env, 'AZURE_OPENAI_API_KEY'),
    ...azureEndpoint(readEnv(env, 'AZURE_OPENAI_ENDPOINT') ?? ''),
    apiVersion: apiVersionOf(env),
    useDeploymentBasedUrls: true,
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

/**
 * Azure OpenAI over the classic deployment URLs
 * (`{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`, `api-key` header).
 * The model id is the deployment name (`AZURE_OPENAI_DEPLOYMENT`).
 */
export const azureProvider: ProviderDefinition = {
  name: 'azure',
  requiredEnv: [['AZURE_OPENAI_API_KEY'], ['AZURE_OPENAI_ENDPOINT']],
  modelEnv: ['AZURE_OPENAI_DEPLOYMENT', 'AZURE_OPENAI_DEPLOYMENT_ID', 'AZURE_MODEL'],
  defaultModel: 'gpt-4o-mini',
  create(env, modelId, overrides = {}) {
    assertProviderConfigured(this, env);
    const endpoint = azureEndpoint(readEnv(env, 'AZURE_OPENAI_ENDPOINT') ?? '');
    const base = 'baseURL' in endpoint ? endpoint.baseURL : `https://${endpoint.resourceName}.openai.azure.com/openai`;
    return openAiWireOrSdk(
      overrides,
      () => createAiSdkLanguageModelClient({ provider: 'azure', modelId, model: azureSdk(this, env, overrides).chat(modelId), supportsTools: true }),
      {
        provider: 'azure',
        modelId,
        url: `${base}/deployments/${encodeURIComponent(modelId)}/chat/completions?api-version=${encodeURIComponent(apiVersionOf(env))}`,
        headers: { 'api-key': readEnv(env, 'AZURE_OPENAI_API_KEY') ?? '' },
      },
      {
        'openai-chat': {
          url: `${base}/deployments/${encodeURIComponent(modelId)}/chat/completions?api-version=${encodeURIComponent(apiVersionOf(env))}`,
          headers: { 'api-key': readEnv(env, 'AZURE_OPENAI_API_KEY') ?? '' },
        },
        // Azure's v1 API takes the deployment as the body's `model`, as OpenAI's Responses API does.
        'openai-responses': { url: `${base}/v1/responses`, headers: { 'api-key': readEnv(env, 'AZURE_OPENAI_API_KEY') ?? '' } },
      },
    );
  },
  /** The model id is the embedding deployment's name. */
  embeddings: {
    defaultModel: 'text-embedding-3-small',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'azure', modelId, model: azureSdk(azureProvider, env, overrides).embeddingModel(modelId) });
    },
  },
};

/**
 * `AZURE_OPENAI_ENDPOINT` is either a bare resource name (`my-resource`) or a URL
 * (`https://my-resource.openai.azure.com/`, or any host for a proxy/fake); a URL becomes the
 * base URL ending in `/openai`.
 */
export function azureEndpoint(value: string): { resourceName: string } | { baseURL: string } {
  if (!/^https?:\/\//i.test(value)) return { resourceName: value.replace(/\.openai\.azure\.com\/?$/i, '') };
  const base = parseBaseUrl('azure', 'AZURE_OPENAI_ENDPOINT', value);
  return { baseURL: /\/openai$/i.test(base) ? base : `${base}/openai` };
}
