import { AIProviderError } from '../../src/generation/errors/ai-provider-error.js';
import { MCPError } from '../../src/generation/errors/mcp-errors.js';
import { InvalidRequestError, RateLimitError } from '../../src/generation/errors/provider-errors.js';
import { UserConfirmationRequiredError } from '../../src/generation/errors/user-confirmation-required-error.js';

/**
 * The generation routes' error body, the NeuroLink demo server's `{success:false, error}` plus the
 * toolkit's stable `code` and what the caller can act on (`option`, `provider`, `retryAfter`).
 */
export interface GenerationErrorBody {
  readonly success: false;
  readonly error: string;
  readonly code: string;
  readonly provider?: string;
  readonly option?: string;
  readonly retryAfter?: number;
  readonly timestamp: string;
}

export interface GenerationHttpError {
  readonly status: number;
  readonly body: GenerationErrorBody;
}

/**
 * HTTP status of a toolkit error: the caller's mistakes are 4xx, an upstream provider's failure is
 * 502 (504 for a timeout, 429 passed on with Retry-After), a provider this service has no
 * credentials for is 503 (the operator's to fix, not the caller's).
 */
const statusByCode: Readonly<Record<string, number>> = {
  INVALID_REQUEST: 400,
  USER_CONFIRMATION_REQUIRED: 403,
  CONFIGURATION: 503,
  AUTHENTICATION: 502,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  TIMEOUT: 504,
  PROVIDER_ERROR: 502,
  MCP_CONFIGURATION: 404,
  MCP_CONNECTION: 502,
  MCP_TOOL: 422,
  MCP_ERROR: 502,
};

/** The HTTP answer for an error thrown by the toolkit, or undefined when it is not one of its errors. */
export function generationHttpError(error: unknown, now: Date = new Date()): GenerationHttpError | undefined {
  const known = error instanceof AIProviderError || error instanceof MCPError || error instanceof UserConfirmationRequiredError;
  if (!known) return undefined;
  const code = error.code;
  const body: GenerationErrorBody = {
    success: false,
    error: error.message,
    code,
    ...(error instanceof AIProviderError ? { provider: error.provider } : {}),
    ...(error instanceof InvalidRequestError && error.option !== undefined ? { option: error.option } : {}),
    ...(error instanceof RateLimitError && error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    timestamp: now.toISOString(),
  };
  return { status: statusByCode[code] ?? 502, body };
}
