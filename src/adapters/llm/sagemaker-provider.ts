import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { FetchHttpHandler, type FetchHttpHandlerOptions } from '@smithy/fetch-http-handler';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import type { ProviderDefinition } from '../../generation/provider-definition.js';
import { bodyFormatOf, readSageMakerConfig } from './sagemaker-config.js';
import { mapSageMakerError } from './sagemaker-error-mapping.js';
import { SageMakerLanguageModel } from './sagemaker-language-model.js';
import { messagesCodec } from './sagemaker-messages-codec.js';
import { tgiCodec } from './sagemaker-tgi-codec.js';

/**
 * A SageMaker real-time endpoint through a hand-written AI SDK model (no AI SDK package exists).
 * `SAGEMAKER_MODEL_TYPE` picks the container's body format; `SAGEMAKER_ENDPOINT` overrides the
 * service URL. The AWS client is made here but connects only when called.
 */
export const sagemakerProvider: ProviderDefinition = {
  name: 'sagemaker',
  requiredEnv: [['AWS_ACCESS_KEY_ID'], ['AWS_SECRET_ACCESS_KEY'], ['SAGEMAKER_DEFAULT_ENDPOINT', 'SAGEMAKER_ENDPOINT_NAME']],
  modelEnv: ['SAGEMAKER_MODEL', 'SAGEMAKER_MODEL_NAME'],
  defaultModel: 'sagemaker-model',
  create(env, modelId, overrides = {}) {
    const config = readSageMakerConfig(env);
    const client = new SageMakerRuntimeClient({
      region: config.region,
      credentials: config.credentials,
      maxAttempts: config.maxRetries + 1,
      // A proxy (or a test's fetch) is reached through fetch; otherwise node:http. Without
      // throwOnRequestTimeout the SDK only logs a warning when requestTimeout passes and keeps
      // waiting, so SAGEMAKER_TIMEOUT would never end a hung endpoint call.
      requestHandler:
        overrides.fetch !== undefined
          ? new FetchHttpHandler({ requestTimeout: config.timeoutMs, customFetch: overrides.fetch } as FetchHttpHandlerOptions)
          : { requestTimeout: config.timeoutMs, connectionTimeout: Math.min(config.timeoutMs, 10_000), throwOnRequestTimeout: true },
      ...(config.endpointUrl ? { endpoint: config.endpointUrl } : {}),
    });
    const codec = bodyFormatOf(config.modelType) === 'tgi' ? tgiCodec : messagesCodec;
    return createAiSdkLanguageModelClient({
      provider: 'sagemaker',
      modelId,
      model: new SageMakerLanguageModel(modelId, config, client, codec),
      supportsTools: codec.supportsTools,
      mapError: mapSageMakerError(config.timeoutMs),
    });
  },
};
