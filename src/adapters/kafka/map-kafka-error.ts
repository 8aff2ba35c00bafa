import { findErrorBy } from '@platformatic/kafka';
import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * True when the Kafka client marks the failure (or one it wraps) as worth retrying: connection loss,
 * leader moves, timeouts. A failure that is not the client's own (a socket error) counts as
 * retryable too.
 */
export function isRetryableKafkaError(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (findErrorBy(error, 'canRetry', true) !== null) return true;
  return findErrorBy(error, 'canRetry', false) === null;
}

/** True when the broker refused because of the named protocol error (`TOPIC_ALREADY_EXISTS`, …). */
export function isKafkaProtocolError(error: unknown, apiId: string): boolean {
  return error instanceof Error && findErrorBy(error, 'apiId', apiId) !== null;
}

/**
 * Turns a Kafka client failure into our error at the adapter edge: SY_BUS_UNAVAILABLE, retryable
 * when the client says so. The client's error stays as `cause`; no client type leaves the adapter.
 */
export function toBusError(error: unknown, operation: string, message?: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  return new SwitchyardError('SY_BUS_UNAVAILABLE', {
    ...(message === undefined ? {} : { message }),
    cause: error,
    isRetryable: isRetryableKafkaError(error),
    details: { operation },
  });
}
