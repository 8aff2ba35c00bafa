import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
} from '../../generation/errors/provider-errors.js';

/** Socket-level failures: the provider was never reached or the connection broke; another try may work. */
const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/**
 * Translates whatever an AI SDK call threw into the toolkit's error hierarchy, so the domain's
 * retry/fallback logic can branch on the class and `isRetryable` alone.
 *
 * @remarks The provider's own message (from its JSON error body) is kept in the message; API keys
 * never appear there because the AI SDK does not echo request headers.
 */
export function mapProviderError(provider: string, error: unknown): AIProviderError {
  if (error instanceof AIProviderError) return error;
  const unwrapped = unwrapRetryError(error);
  if (unwrapped !== error) return mapProviderError(provider, unwrapped);

  if (APICallError.isInstance(error)) return fromApiCallError(provider, error);

  const name = errorName(error);
  if (name === 'TimeoutError') {
    return new TimeoutError(`${provider}: request timed out`, provider, 0, undefined, { originalError: error });
  }
  if (name === 'AbortError') {
    // The caller (or its deadline) aborted: trying the next provider would ignore its wish.
    const reason = abortReasonOf(error);
    if (errorName(reason) === 'TimeoutError') {
      return new TimeoutError(`${provider}: request timed out`, provider, 0, undefined, { originalError: error });
    }
    return new AIProviderError(`${provider}: request aborted by the caller`, provider, { originalError: error, isRetryable: false });
  }
  if (name === 'LoadAPIKeyError' || name === 'LoadSettingError' || name === 'AI_LoadAPIKeyError' || name === 'AI_LoadSettingError') {
    return new ConfigurationError(`${provider}: ${messageOf(error)}`, provider, { originalError: error });
  }
  if (name === 'AI_NoSuchModelError' || name === 'NoSuchModelError') {
    return new InvalidRequestError(`${provider}: ${messageOf(error)}`, provider, 'model', { originalError: error });
  }
  if (name === 'AI_NoObjectGeneratedError' || name === 'AI_NoOutputGeneratedError' || name === 'AI_TypeValidationError') {
    // The model answered, but not with JSON matching the schema: another attempt may do better.
    return new AIProviderError(`${provider}: the model's answer does not match the requested schema: ${messageOf(error)}`, provider, {
      originalError: error,
      isRetryable: true,
    });
  }
  const networkCode = networkCodeOf(error);
  if (networkCode !== undefined) {
    return new AIProviderError(`${provider}: network error (${networkCode}): ${messageOf(error)}`, provider, { originalError: error, isRetryable: true });
  }
  if (name === 'AI_InvalidPromptError' || name === 'AI_UnsupportedFunctionalityError' || name === 'AI_InvalidArgumentError') {
    return new InvalidRequestError(`${provider}: ${messageOf(error)}`, provider, undefined, { originalError: error });
  }
  // Malformed responses, empty bodies and unknown failures: the provider misbehaved, so another
  // attempt (or the next provider) may succeed.
  return new AIProviderError(`${provider}: ${messageOf(error)}`, provider, { originalError: error, isRetryable: true });
}

function fromApiCallError(provider: string, error: APICallError): AIProviderError {
  const status = error.statusCode;
  const detail = providerMessage(error.responseBody) ?? error.message;
  const options = { originalError: error, statusCode: status };
  if (status === undefined) {
    // No HTTP answer at all: the AI SDK wraps connection failures as a status-less APICallError.
    const networkCode = networkCodeOf(error);
    return new AIProviderError(`${provider}: network error${networkCode ? ` (${networkCode})` : ''}: ${error.message}`, provider, {
      ...options,
      isRetryable: true,
    });
  }
  if (isQuotaBody(error.responseBody)) {
    return new QuotaExceededError(`${provider}: quota exceeded (${status}): ${detail}`, provider, { ...options, isRetryable: false });
  }
  if (status === 401 || status === 403) {
    return new AuthenticationError(`${provider}: authentication failed (${status}): ${detail}`, provider, options);
  }
  if (status === 429) {
    return new RateLimitError(`${provider}: rate limited (429): ${detail}`, provider, retryAfterSeconds(error.responseHeaders), options);
  }
  if (status === 408) {
    return new TimeoutError(`${provider}: request timed out (408): ${detail}`, provider, 0, undefined, options);
  }
  if (status >= 500) {
    return new AIProviderError(`${provider}: server error (${status}): ${detail}`, provider, { ...options, isRetryable: true });
  }
  // 400, 404 (unknown model/deployment), 409, 413, 422 and the rest: the request itself is wrong.
  if (status >= 400 && status < 500) {
    return new InvalidRequestError(`${provider}: request rejected (${status}): ${detail}`, provider, undefined, options);
  }
  if (status < 400) {
    // A success status whose body is no answer (the AI SDK could not parse it): the provider
    // misbehaved, so another attempt or the next provider may do better.
    return new AIProviderError(`${provider}: invalid response (${status}): ${detail}`, provider, { ...options, isRetryable: true });
  }
  return new AIProviderError(`${provider}: unexpected status ${status}: ${detail}`, provider, { ...options, isRetryable: error.isRetryable });
}

/** `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date); result in seconds. */
export function retryAfterSeconds(headers: Readonly<Record<string, string>> | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) lower[key.toLowerCase()] = value;
  const ms = lower['retry-after-ms'];
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms) / 1000;
  const value = lower['retry-after']?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The human message inside a provider's JSON error body: OpenAI/Azure/Mistral/LiteLLM
 * `{"error":{"message"}}`, HF/Ollama `{"error":"…"}`, Mistral's older `{"message":"…"}`.
 */
export function providerMessage(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  const parsed = parseJson(body);
  if (parsed === undefined) return body.length > 500 ? `${body.slice(0, 500)}…` : body;
  const error = field(parsed, 'error');
  if (typeof error === 'string') return error;
  const nested = field(error, 'message');
  if (typeof nested === 'string') return nested;
  const message = field(parsed, 'message');
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return JSON.stringify(message);
  const detail = field(parsed, 'detail');
  if (typeof detail === 'string') return detail;
  return body.length > 500 ? `${body.slice(0, 500)}…` : body;
}

/** OpenAI (and everyone speaking its wire) says "your credit is spent" with `insufficient_quota`. */
function isQuotaBody(body: string | undefined): boolean {
  if (body === undefined) return false;
  const parsed = parseJson(body);
  const error = field(parsed, 'error');
  return field(error, 'code') === 'insufficient_quota' || field(error, 'type') === 'insufficient_quota';
}

function unwrapRetryError(error: unknown): unknown {
  if (RetryError.isInstance(error)) return error.lastError;
  return error;
}

/** The socket error code anywhere in the cause chain; `FETCH_FAILED` when fetch failed without one. */
function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  let fetchFailed = false;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const code = field(current, 'code');
    if (typeof code === 'string' && networkErrorCodes.has(code)) return code;
    const errors = field(current, 'errors');
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const innerCode = field(inner, 'code');
        if (typeof innerCode === 'string' && networkErrorCodes.has(innerCode)) return innerCode;
      }
    }
    if (current instanceof TypeError && current.message === 'fetch failed') fetchFailed = true;
    current = field(current, 'cause');
  }
  return fetchFailed ? 'FETCH_FAILED' : undefined;
}

function abortReasonOf(error: unknown): unknown {
  return field(error, 'cause') ?? field(error, 'reason');
}

function errorName(error: unknown): string | undefined {
  const name = field(error, 'name');
  return typeof name === 'string' ? name : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
