import { APICallError } from '@ai-sdk/provider';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, QuotaExceededError, RateLimitError } from '../../generation/errors/provider-errors.js';

interface GoogleErrorDetail {
  readonly '@type'?: string;
  readonly reason?: string;
  readonly retryDelay?: string;
  readonly violations?: ReadonlyArray<{ readonly quotaId?: string; readonly quotaMetric?: string }>;
}

interface GoogleErrorBody {
  readonly code?: number;
  readonly message: string;
  readonly status: string;
  readonly details: readonly GoogleErrorDetail[];
}

/** Google's error envelope `{"error":{"code","message","status","details":[…]}}`. */
function googleErrorBody(responseBody: string | undefined): GoogleErrorBody | undefined {
  if (responseBody === undefined) return undefined;
  try {
    // Gemini sometimes answers a stream request with a one-element array of the envelope.
    const parsed = JSON.parse(responseBody) as unknown;
    const envelope = (Array.isArray(parsed) ? parsed[0] : parsed) as
      | { error?: { code?: unknown; message?: unknown; status?: unknown; details?: unknown } }
      | undefined;
    const inner = envelope?.error;
    if (inner === undefined || typeof inner.status !== 'string') return undefined;
    return {
      ...(typeof inner.code === 'number' ? { code: inner.code } : {}),
      message: typeof inner.message === 'string' ? inner.message : inner.status,
      status: inner.status,
      details: Array.isArray(inner.details) ? (inner.details as GoogleErrorDetail[]) : [],
    };
  } catch {
    return undefined;
  }
}

/** `RetryInfo.retryDelay` ("17s", "0.5s") or the `retry-after` header, in seconds. */
function retryAfterSeconds(body: GoogleErrorBody, headers: Record<string, string> | undefined): number | undefined {
  const delay = body.details.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const match = delay === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(delay);
  if (match) return Number(match[1]);
  const header = headers?.['retry-after'];
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * RESOURCE_EXHAUSTED covers both a short-window rate limit and a spent quota, and Google's message
 * says "quota" for both. The QuotaFailure detail tells them apart (`…PerDay…` quota ids are spent
 * until tomorrow; `…PerMinute…` ones are a rate limit); without details, a message about quota or
 * billing counts as quota.
 */
function isSpentQuota(body: GoogleErrorBody): boolean {
  const quotaIds = body.details
    .filter((detail) => detail['@type']?.endsWith('google.rpc.QuotaFailure'))
    .flatMap((detail) => detail.violations ?? [])
    .map((violation) => violation.quotaId ?? violation.quotaMetric ?? '');
  if (quotaIds.length > 0) return quotaIds.some((id) => /PerDay|PerMonth|Daily/i.test(id)) && !quotaIds.some((id) => /PerMinute|PerSecond/i.test(id));
  return /quota|billing/i.test(body.message);
}

/**
 * Maps errors of the Gemini API (Google AI Studio and Vertex AI share the envelope) by their
 * `status`; returns undefined when the body is not Google's so the generic status mapping applies.
 */
export function mapGoogleError(provider: string, error: unknown): AIProviderError | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const body = googleErrorBody(error.responseBody);
  if (body === undefined) return undefined;
  const options = { originalError: error, statusCode: error.statusCode ?? body.code };
  const message = `${provider}: ${body.status}: ${body.message}`;
  switch (body.status) {
    case 'RESOURCE_EXHAUSTED':
      return isSpentQuota(body)
        ? new QuotaExceededError(message, provider, options)
        : new RateLimitError(message, provider, retryAfterSeconds(body, error.responseHeaders), options);
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return new AuthenticationError(message, provider, options);
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
      // An invalid API key is reported as a 400 INVALID_ARGUMENT with reason API_KEY_INVALID.
      if (body.details.some((detail) => detail.reason === 'API_KEY_INVALID') || /API key not valid/i.test(body.message)) {
        return new AuthenticationError(message, provider, options);
      }
      return new InvalidRequestError(message, provider, undefined, options);
    case 'NOT_FOUND':
    case 'OUT_OF_RANGE':
      return new InvalidRequestError(message, provider, undefined, options);
    case 'INTERNAL':
    case 'UNAVAILABLE':
    case 'DEADLINE_EXCEEDED':
    case 'ABORTED':
      return new AIProviderError(message, provider, { ...options, isRetryable: true });
    default:
      return undefined;
  }
}
