import type { ErrorCode } from '../../src/errors/codes.js';
import type { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { generationHttpError, type GenerationErrorBody } from './generation-error.js';

/**
 * OpenAI's error body, `{error:{message,type,param,code}}`: the `/v1/*` wire of the one error
 * table. The HTTP status of a code is the table's (api/plugins/errors.ts), the same on every
 * surface; only this body differs, so the official clients raise their own error classes
 * (AuthenticationError, NotFoundError, RateLimitError, …) for our codes.
 */
export interface OpenAiError {
  readonly error: { readonly message: string; readonly type: string; readonly param: string | null; readonly code: string | null };
}

export function openAiError(message: string, type: string, code: string | null = null, param: string | null = null): OpenAiError {
  return { error: { message, type, param, code } };
}

interface OpenAiKind {
  readonly type: string;
  readonly code: string | null;
}

/** OpenAI's `type`/`code` of the toolkit's error codes (their statuses: api/wire/generation-error.ts). */
const toolkitKinds: Readonly<Record<string, OpenAiKind>> = {
  INVALID_REQUEST: { type: 'invalid_request_error', code: null },
  CONFIGURATION: { type: 'server_error', code: 'provider_not_configured' },
  AUTHENTICATION: { type: 'server_error', code: 'upstream_authentication_failed' },
  RATE_LIMITED: { type: 'requests', code: 'rate_limit_exceeded' },
  QUOTA_EXCEEDED: { type: 'insufficient_quota', code: 'insufficient_quota' },
  TIMEOUT: { type: 'server_error', code: 'timeout' },
  PROVIDER_ERROR: { type: 'server_error', code: 'upstream_error' },
};

/** OpenAI's `code` of ours the `/v1/*` routes meet; every other 4xx code is a plain `invalid_request_error`. */
const codedKinds: Partial<Readonly<Record<ErrorCode, string>>> = {
  SY_AUTH_MISSING_CREDENTIALS: 'missing_api_key',
  SY_AUTH_INVALID_TOKEN: 'invalid_api_key',
  SY_AUTH_INVALID_API_KEY: 'invalid_api_key',
  SY_AUTH_REVOKED_API_KEY: 'invalid_api_key',
  SY_AUTH_FORBIDDEN_MERCHANT: 'permission_denied',
  SY_AUTH_FORBIDDEN_ROLE: 'permission_denied',
  SY_MODEL_NOT_FOUND: 'model_not_found',
  SY_GATEWAY_REQUEST_UNSUPPORTED: 'unsupported_parameter',
  SY_PREVIOUS_RESPONSE_NOT_FOUND: 'previous_response_not_found',
  SY_GUARDRAIL_BLOCKED: 'guardrail_blocked',
};

/** What OpenAI says for a failure of ours: no detail of a 5xx leaves the service (the log has it). */
export function openAiServerError(): OpenAiError {
  return openAiError('The server had an error while processing your request.', 'server_error');
}

/** The message as OpenAI words it for the credential codes (what its clients show their users). */
function openAiMessageOf(error: SwitchyardError, code: string | undefined): string {
  if (code === 'missing_api_key') return `${error.message}: send your API key as "Authorization: Bearer DE_…"`;
  if (code === 'invalid_api_key') return `Incorrect API key provided: ${error.message}`;
  return error.message;
}

/** OpenAI's body for one of our coded errors answered with `status`. */
export function openAiCodedError(error: SwitchyardError, status: number): OpenAiError {
  if (status >= 500) return openAiServerError();
  if (error.code === 'SY_KEY_LIMIT_EXCEEDED') {
    // Our own limit, before any provider: OpenAI's shapes, so clients back off as they would from OpenAI.
    const spent = error.details?.['limit'] === 'budget';
    return openAiError(error.message, spent ? 'insufficient_quota' : 'requests', spent ? 'insufficient_quota' : 'rate_limit_exceeded');
  }
  const code = codedKinds[error.code];
  const detailParam = error.details?.['param'];
  const param = error.code === 'SY_MODEL_NOT_FOUND' ? 'model' : typeof detailParam === 'string' ? detailParam : null;
  return openAiError(openAiMessageOf(error, code), 'invalid_request_error', code ?? null, param);
}

/** OpenAI's body for a toolkit error (a provider's failure, a bad option). */
export function openAiGenerationError(body: GenerationErrorBody): OpenAiError {
  const kind = toolkitKinds[body.code] ?? { type: 'server_error', code: null };
  return openAiError(body.error, kind.type, kind.code, body.option ?? null);
}

/** A body that failed schema validation; `param` is the field the problem names first. */
export function openAiValidationError(problem: string): OpenAiError {
  return openAiError(`Invalid request: ${problem}`, 'invalid_request_error', null, problem.split(' ')[0] ?? null);
}

/**
 * The `error` object of a stream that failed after its first byte: the status is sent, so OpenAI's
 * clients read the failure in the stream instead.
 */
export function openAiStreamError(error: unknown): OpenAiError {
  const mapped = generationHttpError(error);
  const kind = toolkitKinds[mapped?.body.code ?? ''] ?? { type: 'server_error', code: null };
  return openAiError(mapped?.body.error ?? 'the stream failed', kind.type, kind.code);
}
