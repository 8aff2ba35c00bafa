import { SwitchyardError } from '../errors/switchyard-error.js';
import type { LimitName } from './key-policy.js';
import type { LimitHolder } from '../ports/state-store.js';

const described: Readonly<Record<LimitName, string>> = {
  rpm: 'requests per minute',
  tpm: 'tokens per minute',
  max_concurrent: 'requests in flight',
  budget: 'budget',
};

/**
 * A request refused by its API key's own limits, before any provider call. Its 429 is never a
 * reason to fail over: no provider was asked.
 */
export function keyLimitExceeded(limit: LimitName, retryAfterS: number, value: number | string, holder: LimitHolder = 'key'): SwitchyardError {
  // The end user's own limit is named as such; its id is the caller's and is not repeated back.
  const who = holder === 'end_user' ? 'this end user of the API key' : 'this API key';
  const message =
    limit === 'budget'
      ? `${holder === 'end_user' ? 'This end user of the API key' : 'This API key'} has spent its budget (${value}); it renews in ${retryAfterS} s`
      : `Rate limit reached for ${who}: ${limit} ${value} (${described[limit]}); retry after ${retryAfterS} s`;
  return new SwitchyardError('SY_KEY_LIMIT_EXCEEDED', { message, details: { limit, retryAfterS, holder } });
}
