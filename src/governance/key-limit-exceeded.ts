import { SwitchyardError } from '../errors/switchyard-error.js';
import type { LimitName } from './key-policy.js';

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
export function keyLimitExceeded(limit: LimitName, retryAfterS: number, value: number | string): SwitchyardError {
  const message =
    limit === 'budget'
      ? `This API key has spent its budget (${value}); it renews in ${retryAfterS} s`
      : `Rate limit reached for this API key: ${limit} ${value} (${described[limit]}); retry after ${retryAfterS} s`;
  return new SwitchyardError('SY_KEY_LIMIT_EXCEEDED', { message, details: { limit, retryAfterS } });
}
