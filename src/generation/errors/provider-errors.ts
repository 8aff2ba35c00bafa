import { AIProviderError, type AIProviderErrorOptions } from './ai-provider-error.js';

/** The call took longer than `timeout` ms (whole generate, or a whole stream). Retryable. */
export class TimeoutError extends AIProviderError {
  readonly timeout: number;
  readonly operation: 'generate' | 'stream' | 'embed' | undefined;
  constructor(message: string, provider: string, timeout: number, operation?: 'generate' | 'stream' | 'embed', options: AIProviderErrorOptions = {}) {
    super(message, provider, { ...options, code: 'TIMEOUT', isRetryable: true });
    this.name = 'TimeoutError';
    this.timeout = timeout;
    this.operation = operation;
  }
}

/** Missing or malformed settings; the message names the variable or option to set. Never retryable. */
export class ConfigurationError extends AIProviderError {
  constructor(message: string, provider: string, options: AIProviderErrorOptions = {}) {
    super(message, provider, { ...options, code: 'CONFIGURATION', isRetryable: false });
    this.name = 'ConfigurationError';
  }
}

/** The provider refused the credentials (401/403). Never retryable on the same provider. */
export class AuthenticationError extends AIProviderError {
  constructor(message: string, provider: string, options: AIProviderErrorOptions = {}) {
    super(message, provider, { ...options, code: 'AUTHENTICATION', isRetryable: false });
    this.name = 'AuthenticationError';
  }
}

/** 429 from the provider; `retryAfter` in seconds from its `retry-after` header when given. */
export class RateLimitError extends AIProviderError {
  readonly retryAfter: number | undefined;
  constructor(message: string, provider: string, retryAfter?: number, options: AIProviderErrorOptions = {}) {
    super(message, provider, { statusCode: 429, ...options, code: 'RATE_LIMITED', isRetryable: true });
    this.name = 'RateLimitError';
    this.retryAfter = retryAfter;
  }
}

/** The account's quota or credit is spent (OpenAI `insufficient_quota`, Google RESOURCE_EXHAUSTED quota…). */
export class QuotaExceededError extends AIProviderError {
  constructor(message: string, provider: string, options: AIProviderErrorOptions = {}) {
    super(message, provider, { ...options, code: 'QUOTA_EXCEEDED', isRetryable: options.isRetryable ?? true });
    this.name = 'QuotaExceededError';
  }
}

/**
 * An option or request the caller got wrong (bad temperature, malformed timeout, a provider's 400).
 * Raised before any network call when the toolkit can tell; never retryable.
 */
export class InvalidRequestError extends AIProviderError {
  /** The option at fault, e.g. `temperature`. */
  readonly option: string | undefined;
  constructor(message: string, provider: string, option?: string, options: AIProviderErrorOptions = {}) {
    super(message, provider, { ...options, code: 'INVALID_REQUEST', isRetryable: false });
    this.name = 'InvalidRequestError';
    this.option = option;
  }
}
