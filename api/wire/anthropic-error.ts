import type { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { generationHttpError, type GenerationErrorBody } from './generation-error.js';

/**
 * Anthropic's error body, `{"type":"error","error":{"type","message"}}`: the `/v1/messages` wire of
 * the one error table. The HTTP status of a code is the table's (api/plugins/errors.ts), the same
 * on every surface; the error `type` follows the status as Anthropic's does, so the official
 * client raises its own classes (BadRequestError, NotFoundError, RateLimitError, …).
 */
export interface AnthropicErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: string; readonly message: string };
}

export function anthropicError(type: string, message: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message } };
}

/** Anthropic's error `type` for an HTTP status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** What Anthropic says for a failure of ours: no detail of a 5xx leaves the service (the log has it). */
export function anthropicServerError(status = 500): AnthropicErrorBody {
  return anthropicError(anthropicErrorType(status), 'Internal server error');
}

/** The message of a credential failure, with how Anthropic clients send the key. */
function messageOf(error: SwitchyardError): string {
  if (error.code === 'SY_AUTH_MISSING_CREDENTIALS') return `${error.message}: send your API key as "x-api-key: DE_…" or "Authorization: Bearer DE_…"`;
  if (error.code === 'SY_MODEL_NOT_FOUND')
    return `${error.message}; Anthropic model names (claude-…) work once they are a registry alias or one of your route groups`;
  const param = error.details?.['param'];
  return typeof param === 'string' && error.code === 'SY_GATEWAY_REQUEST_UNSUPPORTED' ? `${param}: ${error.message}` : error.message;
}

/** Anthropic's body for one of our coded errors answered with `status`. */
export function anthropicCodedError(error: SwitchyardError, status: number): AnthropicErrorBody {
  if (status >= 500) return anthropicServerError(status);
  return anthropicError(anthropicErrorType(status), messageOf(error));
}

/** Anthropic's body for a toolkit error (a provider's failure, a bad option) answered with `status`. */
export function anthropicGenerationError(body: GenerationErrorBody, status: number): AnthropicErrorBody {
  return anthropicError(anthropicErrorType(status), body.option !== undefined ? `${body.option}: ${body.error}` : body.error);
}

/** A body that failed schema validation. */
export function anthropicValidationError(problem: string): AnthropicErrorBody {
  return anthropicError('invalid_request_error', `Invalid request: ${problem}`);
}

/**
 * The `error` event of a stream that failed after its first byte: the status is sent, so the
 * client reads the failure in the stream (the SDK throws an APIError with this type).
 */
export function anthropicStreamError(error: unknown): AnthropicErrorBody {
  const mapped = generationHttpError(error);
  if (mapped === undefined) return anthropicError('api_error', 'the stream failed');
  return anthropicError(anthropicErrorType(mapped.status), mapped.body.error);
}
