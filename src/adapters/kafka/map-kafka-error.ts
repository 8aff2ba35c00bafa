import { KafkaJSError } from 'kafkajs';
import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * Turns a kafkajs failure into our error at the adapter edge: SY_BUS_UNAVAILABLE, retryable when
 * kafkajs says so (connection loss, leader moves, timeouts) or when it is not a kafkajs error at all
 * (a socket error). The kafkajs error stays as `cause`; no kafkajs type leaves the adapter.
 */
export function toBusError(error: unknown, operation: string, message?: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  const isRetryable = error instanceof KafkaJSError ? error.retriable : true;
  return new SwitchyardError('SY_BUS_UNAVAILABLE', {
    ...(message === undefined ? {} : { message }),
    cause: error,
    isRetryable,
    details: { operation },
  });
}
