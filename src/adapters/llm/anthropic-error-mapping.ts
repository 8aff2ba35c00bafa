import { APICallError } from '@ai-sdk/provider';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, QuotaExceededError, RateLimitError } from '../../generation/errors/provider-errors.js';
import { retryAfterSeconds } from './map-provider-error.js';

/** Anthropic's error envelope: `{"type":"error","error":{"type":"overloaded_error","message":"…"}}`. */
function anthropicErrorBody(responseBody: string | undefined): { type: string; message: string } | undefined {
  if (responseBody === undefined) return undefined;
  try {
    const parsed = JSON.parse(responseBody) as { error?: { type?: unknown; message?: unknown } };
    const type = parsed.error?.type;
    if (typeof type !== 'string') return undefined;
    return { type, message: typeof parsed.error?.message === 'string' ? parsed.error.message : type };
  } catch {
    return undefined;
  }
}

/**
 * Maps Anthropic's typed errors (Messages API, direct or through Vertex `rawPredict`) by their
 * `error.type`, which says more than the status: `overloaded_error` (529) is a transient capacity
 * problem, and a 400 about the credit balance is a spent account, not a malformed request.
 * Returns undefined for anything else so the generic status mapping applies.
 */
export function mapAnthropicError(provider: string, error: unknown): AIProviderError | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const body = anthropicErrorBody(error.responseBody);
  if (body === undefined) return undefined;
  const options = { originalError: error, statusCode: error.statusCode };
  const message = `${provider}: ${body.type}: ${body.message}`;
  switch (body.type) {
    case 'overloaded_error':
      return new AIProviderError(message, provider, { ...options, isRetryable: true });
    case 'rate_limit_error':
      return new RateLimitError(message, provider, retryAfterSeconds(error.responseHeaders), options);
    case 'authentication_error':
    case 'permission_error':
      return new AuthenticationError(message, provider, options);
    case 'invalid_request_error':
      if (/credit balance|billing/i.test(body.message)) return new QuotaExceededError(message, provider, options);
      return new InvalidRequestError(message, provider, undefined, options);
    case 'not_found_error':
    case 'request_too_large':
      return new InvalidRequestError(message, provider, undefined, options);
    case 'api_error':
      return new AIProviderError(message, provider, { ...options, isRetryable: true });
    default:
      return undefined;
  }
}
