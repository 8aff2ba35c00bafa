import { errorCodes, type ErrorCode } from './codes.js';

export interface SwitchyardErrorOptions {
  readonly message?: string;
  readonly cause?: unknown;
  /** Safe, non-secret facts for the log and the wire (never request bodies or credentials). */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly isRetryable?: boolean;
}

const marker = Symbol.for('switchyard.error');

/**
 * The one error type that crosses our module boundaries. Code branches on `code`, not on
 * `instanceof` (which does not survive worker threads or process boundaries) or on message text.
 */
export class SwitchyardError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly isRetryable: boolean;

  constructor(code: ErrorCode, options: SwitchyardErrorOptions = {}) {
    super(options.message ?? errorCodes[code], options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchyardError';
    this.code = code;
    this.details = options.details;
    this.isRetryable = options.isRetryable ?? false;
  }

  static isInstance(value: unknown): value is SwitchyardError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
