import { SwitchyardError } from '../../errors/switchyard-error.js';

/** kafkajs errors carry `retriable`; read structurally because kafkajs (CommonJS) does not expose its error classes as ESM named exports. */
function retriableFlag(error: unknown): boolean | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const flag = (error as { retriable?: unknown }).retriable;
  return typeof flag === 'boolean' ? flag : undefined;
}

/**
 * Turns a kafkajs failure into our error at the adapter edge: SY_BUS_UNAVAILABLE, retryable when
 * kafkajs says so (connection loss, leader moves, timeouts) or when it is not a kafkajs error at all
 * (a socket error). The kafkajs error stays as `cause`; no kafkajs type leaves the adapter.
 */
export function toBusError(error: unknown, operation: string, message?: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  return new SwitchyardError('SY_BUS_UNAVAILABLE', {
    ...(message === undefined ? {} : { message }),
    cause: error,
    isRetryable: retriableFlag(error) ?? true,
    details: { operation },
  });
}
