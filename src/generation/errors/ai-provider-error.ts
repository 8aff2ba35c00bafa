/** Stable codes for branching across process boundaries, where `instanceof` does not survive. */
export type GenerationErrorCode =
  | 'PROVIDER_ERROR'
  | 'TIMEOUT'
  | 'CONFIGURATION'
  | 'AUTHENTICATION'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'INVALID_REQUEST'
  | 'MCP_ERROR'
  | 'MCP_CONNECTION'
  | 'MCP_TOOL'
  | 'MCP_CONFIGURATION'
  | 'USER_CONFIRMATION_REQUIRED';

export interface AIProviderErrorOptions {
  readonly originalError?: unknown;
  /** HTTP status the provider answered with, when there was one. */
  readonly statusCode?: number;
  /** Whether another attempt (or the next provider of a fallback chain) may succeed. */
  readonly isRetryable?: boolean;
  readonly code?: GenerationErrorCode;
}

/**
 * Base of the documented provider error hierarchy. `isRetryable` drives fallback: a chain moves
 * on for 429, 5xx, timeouts and network failures, never for a client mistake (other 4xx).
 */
export class AIProviderError extends Error {
  readonly provider: string;
  readonly originalError: unknown;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly code: GenerationErrorCode;

  constructor(message: string, provider: string, options: AIProviderErrorOptions = {}) {
    super(message, options.originalError === undefined ? undefined : { cause: options.originalError });
    this.name = 'AIProviderError';
    this.provider = provider;
    this.originalError = options.originalError;
    this.statusCode = options.statusCode;
    this.code = options.code ?? 'PROVIDER_ERROR';
    this.isRetryable = options.isRetryable ?? (options.statusCode === undefined || options.statusCode === 429 || options.statusCode >= 500);
  }
}
