import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import type { ProviderEnv } from '../../generation/provider-definition.js';

/** Which request/response body the endpoint's container speaks. */
export type SageMakerBodyFormat =
  /** Text Generation Inference / HF containers: `{inputs, parameters}` → `[{generated_text}]`. */
  | 'tgi'
  /** OpenAI-style chat (TGI Messages API, LMI, vLLM, JumpStart chat models): `{messages, …}` → `{choices}`. */
  | 'messages';

export const sageMakerModelTypes = ['llama', 'mistral', 'claude', 'huggingface', 'jumpstart', 'custom'] as const;
export type SageMakerModelType = (typeof sageMakerModelTypes)[number];

/** Model types of chat containers get the messages format; HF/TGI and custom get TGI's. */
export function bodyFormatOf(modelType: SageMakerModelType): SageMakerBodyFormat {
  return modelType === 'huggingface' || modelType === 'custom' ? 'tgi' : 'messages';
}

export interface SageMakerConfig {
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
  /** Endpoint URL override (a VPC endpoint or a local fake); the SDK's regional URL otherwise. */
  readonly endpointUrl: string | undefined;
  /** The SageMaker endpoint to invoke. */
  readonly endpointName: string;
  readonly timeoutMs: number;
  /** Retries after the first attempt (the AWS client gets `maxRetries + 1` attempts). */
  readonly maxRetries: number;
  readonly modelType: SageMakerModelType;
  readonly contentType: string;
  readonly accept: string;
  readonly customAttributes: string | undefined;
}

function integerIn(env: ProviderEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigurationError(`sagemaker: ${name} must be an integer from ${min} to ${max} (got "${raw}")`, 'sagemaker');
  }
  return Number(raw);
}

function firstSet(env: ProviderEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Reads and validates the SageMaker settings; throws `ConfigurationError` naming the variable at fault. */
export function readSageMakerConfig(env: ProviderEnv): SageMakerConfig {
  const accessKeyId = env['AWS_ACCESS_KEY_ID']?.trim();
  if (!accessKeyId) throw new ConfigurationError('sagemaker: AWS_ACCESS_KEY_ID is not set', 'sagemaker');
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY']?.trim();
  if (!secretAccessKey) throw new ConfigurationError('sagemaker: AWS_SECRET_ACCESS_KEY is not set', 'sagemaker');
  const sessionToken = env['AWS_SESSION_TOKEN']?.trim() || undefined;
  const endpointName = firstSet(env, ['SAGEMAKER_DEFAULT_ENDPOINT', 'SAGEMAKER_ENDPOINT_NAME']);
  if (!endpointName)
    throw new ConfigurationError('sagemaker: SAGEMAKER_DEFAULT_ENDPOINT (or SAGEMAKER_ENDPOINT_NAME) must name the endpoint to invoke', 'sagemaker');
  // SageMaker endpoint names: 1–63 alphanumerics and hyphens.
  if (!/^[a-zA-Z0-9](-*[a-zA-Z0-9])*$/.test(endpointName) || endpointName.length > 63) {
    throw new ConfigurationError(`sagemaker: "${endpointName}" (SAGEMAKER_DEFAULT_ENDPOINT) is not a valid endpoint name`, 'sagemaker');
  }
  const region = firstSet(env, ['SAGEMAKER_REGION', 'AWS_REGION']) ?? 'us-east-1';
  if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
    throw new ConfigurationError(`sagemaker: SAGEMAKER_REGION/AWS_REGION "${region}" is not a region name like us-east-1`, 'sagemaker');
  const endpointUrl = env['SAGEMAKER_ENDPOINT']?.trim() || undefined;
  if (endpointUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(endpointUrl)) {
    throw new ConfigurationError(`sagemaker: SAGEMAKER_ENDPOINT must be an http(s) URL (got "${endpointUrl}")`, 'sagemaker');
  }
  const modelTypeRaw = (env['SAGEMAKER_MODEL_TYPE']?.trim() || 'custom').toLowerCase();
  if (!(sageMakerModelTypes as readonly string[]).includes(modelTypeRaw)) {
    throw new ConfigurationError(`sagemaker: SAGEMAKER_MODEL_TYPE must be one of ${sageMakerModelTypes.join(', ')} (got "${modelTypeRaw}")`, 'sagemaker');
  }
  return {
    region,
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    endpointUrl,
    endpointName,
    timeoutMs: integerIn(env, 'SAGEMAKER_TIMEOUT', 30_000, 1_000, 300_000),
    maxRetries: integerIn(env, 'SAGEMAKER_MAX_RETRIES', 3, 0, 10),
    modelType: modelTypeRaw as SageMakerModelType,
    contentType: env['SAGEMAKER_CONTENT_TYPE']?.trim() || 'application/json',
    accept: env['SAGEMAKER_ACCEPT']?.trim() || 'application/json',
    customAttributes: env['SAGEMAKER_CUSTOM_ATTRIBUTES']?.trim() || undefined,
  };
}
