/**
 * What one API key may spend (issue 14): request and token rates, requests in flight, and a budget
 * per day or month, plus an opt-in response cache. Every field is optional; a key without a field
 * of its own takes the merchant's default for it, and no limit at all where neither says one.
 *
 * Stored with each API key (ApiKeyStore) and as the merchant default (ConfigStore), enforced by
 * the UsageStore; src/governance/key-policy.ts holds what is computed from it.
 */

export const budgetPeriods = ['day', 'month'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

export interface Budget {
  readonly amountUsd: number;
  readonly period: BudgetPeriod;
}

/** The limits of one spender: an API key, or one end user of a key. */
export interface RateLimits {
  /** Requests admitted per UTC minute. */
  readonly rpm?: number;
  /** Tokens (input + output) recorded per UTC minute; a request is refused once the minute has used them. */
  readonly tpm?: number;
  /** Requests being served at once. */
  readonly maxConcurrent?: number;
  readonly budget?: Budget;
}

export interface KeyLimits extends RateLimits {
  /**
   * Limits each end user of the key gets on its own (the end user a call names: `user` on the
   * OpenAI wires, `metadata.user_id` on Messages, or the `x-switchyard-end-user` header), admitted
   * in the same atomic step as the key's own. A call naming no end user counts against the key only.
   */
  readonly perEndUser?: RateLimits;
}

export interface CachePolicy {
  /** How long an answer is served from the cache, in seconds. */
  readonly ttlS: number;
}

export interface KeyPolicy {
  readonly limits?: KeyLimits;
  readonly cache?: CachePolicy;
}

/** The limit a refusal names: OpenAI's clients see `rate_limit_exceeded`, or `insufficient_quota` for `budget`. */
export type LimitName = 'rpm' | 'tpm' | 'max_concurrent' | 'budget';
