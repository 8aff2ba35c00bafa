import { APICallError } from '@ai-sdk/provider';
import { isProviderStreamError } from '@ai-sdk/provider-utils';
import { StreamProviderError } from 'ai';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, QuotaExceededError, RateLimitError } from '../../generation/errors/provider-errors.js';

/** `x-amzn-errortype: ThrottlingException:http://internal.amazon.com/…` → `ThrottlingException`. */
export function awsErrorType(headers: Record<string, string> | undefined, responseBody: string | undefined): string | undefined {
  const header = headers?.['x-amzn-errortype'];
  if (header) return header.split(':')[0];
  if (responseBody === undefined) return undefined;
  try {
    const body = JSON.parse(responseBody) as { __type?: unknown };
    return typeof body.__type === 'string' ? body.__type.split('#').pop() : undefined;
  } catch {
    return undefined;
  }
}

function awsMessage(responseBody: string | undefined, fallback: string): string {
  if (responseBody === undefined) return fallback;
  try {
    const body = JSON.parse(responseBody) as { message?: unknown; Message?: unknown };
    if (typeof body.message === 'string') return body.message;
    if (typeof body.Message === 'string') return body.Message;
  } catch {
    return fallback; // not JSON
  }
  return fallback;
}

/**
 * Maps an AWS exception name (the `x-amzn-errortype` of a JSON-protocol error, or the exception
 * type of an in-stream event) to the toolkit's errors; shared by Bedrock and SageMaker.
 */
export function mapAwsException(
  provider: string,
  type: string,
  message: string,
  options: { readonly originalError: unknown; readonly statusCode: number | undefined },
): AIProviderError | undefined {
  const text = `${provider}: ${type}: ${message}`;
  switch (type) {
    case 'ThrottlingException':
    case 'TooManyRequestsException':
      return new RateLimitError(text, provider, undefined, { ...options, statusCode: options.statusCode ?? 429 });
    case 'ServiceQuotaExceededException':
      return new QuotaExceededError(text, provider, options);
    case 'AccessDeniedException':
    case 'UnrecognizedClientException':
    case 'InvalidSignatureException':
    case 'ExpiredTokenException':
    case 'IncompleteSignatureException':
    case 'MissingAuthenticationTokenException':
      return new AuthenticationError(text, provider, options);
    case 'ValidationException':
    case 'ValidationError':
    case 'ResourceNotFoundException':
      return new InvalidRequestError(text, provider, undefined, options);
    // The model is scaling up or briefly unavailable: the same call should work shortly.
    case 'ModelNotReadyException':
    case 'ModelTimeoutException':
    case 'ModelErrorException':
    case 'ModelStreamErrorException':
    case 'ModelStreamError':
    case 'InternalServerException':
    case 'InternalFailure':
    case 'InternalStreamFailure':
    case 'InternalDependencyException':
    case 'ServiceUnavailableException':
    case 'ServiceUnavailable':
      return new AIProviderError(text, provider, { ...options, isRetryable: true });
    default:
      return undefined;
  }
}

/** The exception's own message: the frame's payload (`{throttlingException: {message}}`) when it has one. */
function streamMessage(error: { readonly message: string; readonly type?: string; readonly data?: unknown }): string {
  const payload =
    error.type !== undefined && typeof error.data === 'object' && error.data !== null
      ? (error.data as Record<string, { message?: unknown } | undefined>)[error.type]
      : undefined;
  return typeof payload?.message === 'string' ? payload.message : error.message;
}

/** Bedrock's HTTP errors carry the exception name in `x-amzn-errortype`; the status alone conflates them. */
export function mapBedrockError(error: unknown): AIProviderError | undefined {
  // An exception frame in the middle of a ConverseStream: the AI SDK hands it on with the frame's
  // lowerCamel exception type (`throttlingException`), which names the same exception.
  const streamed = StreamProviderError.isInstance(error) ? error : isProviderStreamError(error) ? error : undefined;
  if (streamed !== undefined && typeof streamed.type === 'string') {
    const type = streamed.type.charAt(0).toUpperCase() + streamed.type.slice(1);
    return mapAwsException('bedrock', type, streamMessage(streamed), { originalError: error, statusCode: streamed.statusCode });
  }
  if (!APICallError.isInstance(error)) return undefined;
  const type = awsErrorType(error.responseHeaders, error.responseBody);
  if (type === undefined) return undefined;
  return mapAwsException('bedrock', type, awsMessage(error.responseBody, error.message), { originalError: error, statusCode: error.statusCode });
}
