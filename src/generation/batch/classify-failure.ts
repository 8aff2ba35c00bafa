import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { ItemFailure } from '../../ports/state/batch-store.js';

interface ProviderErrorShape {
  readonly name: string;
  readonly message: string;
  readonly isRetryable: boolean;
  readonly code?: unknown;
  readonly statusCode?: unknown;
}

function isProviderErrorShape(error: unknown): error is ProviderErrorShape {
  return error instanceof Error && typeof (error as { isRetryable?: unknown }).isRetryable === 'boolean';
}

/**
 * What a failed generate call means for a batch item. The toolkit's error classes say whether
 * another attempt may succeed (`isRetryable`: 429, 5xx, timeouts, network) or not (a bad option,
 * a refused credential, a provider 400); our own errors carry the same flag. Anything else is an
 * unexpected failure and is retried too: the attempts bound it, and giving up on a transient
 * fault nobody classified would lose the item.
 */
export function classifyFailure(error: unknown): ItemFailure {
  if (SwitchyardError.isInstance(error)) return { errorClass: error.name, code: error.code, message: error.message, retryable: error.isRetryable };
  if (isProviderErrorShape(error)) {
    return {
      errorClass: error.name,
      ...(typeof error.code === 'string' ? { code: error.code } : {}),
      message: error.message,
      retryable: error.isRetryable,
      ...(typeof error.statusCode === 'number' ? { statusCode: error.statusCode } : {}),
    };
  }
  if (error instanceof Error) return { errorClass: error.name, message: error.message, retryable: true };
  return { errorClass: 'Error', message: String(error), retryable: true };
}
