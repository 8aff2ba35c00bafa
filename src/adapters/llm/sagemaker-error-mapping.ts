import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import { InvalidRequestError, RateLimitError, TimeoutError } from '../../generation/errors/provider-errors.js';
import { mapAwsException } from './bedrock-error-mapping.js';
import { SageMakerResponseFormatError } from './sagemaker-body-codec.js';
import { SageMakerStreamEventError } from './sagemaker-language-model.js';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Maps AWS SDK exceptions of SageMaker Runtime (by name) to the toolkit's errors. `ModelError`
 * means the container itself failed; its `OriginalStatusCode` says whether that was the caller's
 * fault (4xx), a rate limit (429) or a transient failure (5xx).
 */
export function mapSageMakerError(timeoutMs: number): (error: unknown) => AIProviderError | undefined {
  return (error) => {
    if (error instanceof AIProviderError) return error;
    if (error instanceof SageMakerResponseFormatError) {
      return new AIProviderError(`sagemaker: ${error.message} (check SAGEMAKER_MODEL_TYPE)`, 'sagemaker', { originalError: error, isRetryable: false });
    }
    if (error instanceof SageMakerStreamEventError)
      return new AIProviderError(`sagemaker: stream failed: ${error.message}`, 'sagemaker', { originalError: error, isRetryable: true });
    const name = field(error, 'name');
    if (typeof name !== 'string') return undefined;
    const metadata = field(error, '$metadata');
    const statusCode = typeof field(metadata, 'httpStatusCode') === 'number' ? (field(metadata, 'httpStatusCode') as number) : undefined;
    const message = error instanceof Error ? error.message : String(error);
    const options = { originalError: error, statusCode };
    if (name === 'TimeoutError' || name === 'RequestTimeout')
      return new TimeoutError(`sagemaker: no answer within ${timeoutMs} ms`, 'sagemaker', timeoutMs, undefined, options);
    if (name === 'ModelError') {
      const original = field(error, 'OriginalStatusCode');
      const text = `sagemaker: ModelError: ${message}`;
      if (original === 429) return new RateLimitError(text, 'sagemaker', undefined, options);
      if (typeof original === 'number' && original >= 400 && original < 500) return new InvalidRequestError(text, 'sagemaker', undefined, options);
      return new AIProviderError(text, 'sagemaker', { ...options, isRetryable: true });
    }
    return mapAwsException('sagemaker', name, message, options);
  };
}
