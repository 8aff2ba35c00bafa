import { ReplyError } from 'ioredis';
import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * Redis reply codes (the first word of a reply error) that mean "the server cannot serve us right
 * now" rather than "this command is wrong": they map to the retryable SY_STATE_UNAVAILABLE.
 */
const unavailableReplyCodes: ReadonlySet<string> = new Set(['LOADING', 'BUSY', 'MASTERDOWN', 'READONLY', 'CLUSTERDOWN', 'TRYAGAIN', 'NOREPLICAS', 'OOM']);

function replyCode(error: Error): string {
  const space = error.message.indexOf(' ');
  return space === -1 ? error.message : error.message.slice(0, space);
}

/**
 * Turns any ioredis failure into our error at the adapter edge. Connection loss, timeouts and the
 * "offline queue disabled" rejection are SY_STATE_UNAVAILABLE (retryable: the API degrades and
 * recovers); a reply error for a well-formed call means a bug or corrupt data, so SY_INTERNAL.
 */
export function toStateError(error: unknown, operation: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  if (error instanceof ReplyError && error instanceof Error && !unavailableReplyCodes.has(replyCode(error))) {
    return new SwitchyardError('SY_INTERNAL', {
      message: 'state store command failed',
      cause: error,
      details: { operation, replyCode: replyCode(error) },
    });
  }
  return new SwitchyardError('SY_STATE_UNAVAILABLE', { cause: error, details: { operation }, isRetryable: true });
}
