import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { bedrockClaudeEndpoint } from './bedrock-claude-native.js';
import { mapBedrockError } from './bedrock-error-mapping.js';
import { createNativeWireClient } from './native-wire-client.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';

/**
 * Amazon Bedrock's Converse API through `@ai-sdk/amazon-bedrock`, signed with SigV4 from static
 * keys. `AWS_SESSION_TOKEN` is always honoured (temporary credentials need it in every
 * environment). `BEDROCK_ENDPOINT` (or `BEDROCK_BASE_URL`) replaces
 * `https://bedrock-runtime.{region}.amazonaws.com`, e.g. for a VPC endpoint or a local fake. Claude
 * models (an id containing `claude`) also pass Messages requests through natively with InvokeModel
 * (`nativeWires`: anthropic-messages, see bedrock-claude-native.ts).
 */
export const bedrockProvider: ProviderDefinition = {
  name: 'bedrock',
  requiredEnv: [['AWS_ACCESS_KEY_ID'], ['AWS_SECRET_ACCESS_KEY']],
  modelEnv: ['BEDROCK_MODEL', 'BEDROCK_MODEL_ID'],
  defaultModel: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  create(env, modelId, overrides = {}) {
    const accessKeyId = env['AWS_ACCESS_KEY_ID']?.trim();
    if (!accessKeyId) throw new ConfigurationError('bedrock: AWS_ACCESS_KEY_ID is not set', 'bedrock');
    const secretAccessKey = env['AWS_SECRET_ACCESS_KEY']?.trim();
    if (!secretAccessKey) throw new ConfigurationError('bedrock: AWS_SECRET_ACCESS_KEY is not set', 'bedrock');
    const sessionToken = env['AWS_SESSION_TOKEN']?.trim() || undefined;
    const region = env['AWS_REGION']?.trim() || 'us-east-1';
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
      throw new ConfigurationError(`bedrock: AWS_REGION "${region}" is not a region name like us-east-1`, 'bedrock');
    const baseURL = (env['BEDROCK_ENDPOINT'] ?? env['BEDROCK_BASE_URL'])?.trim().replace(/\/+$/, '') || undefined;
    const bedrock = createAmazonBedrock({
      region,
      accessKeyId,
      secretAccessKey,
      ...(sessionToken ? { sessionToken } : {}),
      ...(baseURL ? { baseURL } : {}),
      ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
    });
    const client = createAiSdkLanguageModelClient({ provider: 'bedrock', modelId, model: bedrock(modelId), supportsTools: true, mapError: mapBedrockError });
    // Claude's Messages requests pass through natively (InvokeModel) on node:http, unless a fetch is handed in (a proxy, or a test seam).
    if (overrides.fetch !== undefined || !/claude/i.test(modelId)) return client;
    const native = createNativeWireClient({
      provider: 'bedrock',
      modelId,
      endpoints: {
        'anthropic-messages': bedrockClaudeEndpoint({
          baseURL: baseURL ?? `https://bedrock-runtime.${region}.amazonaws.com`,
          region,
          modelId,
          credentials: { accessKeyId, secretAccessKey, sessionToken },
        }),
      },
      mapError: mapBedrockError,
    });
    return { ...client, ...native };
  },
};
