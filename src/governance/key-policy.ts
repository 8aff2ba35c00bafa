/**
 * What one API key may spend (issue 14): request and token rates, requests in flight, and a budget
 * per day or month, plus an opt-in response cache. Every field is optional; a key without a field
 * of its own takes the merchant's default for it, and no limit at all where neither says one.
 */

export const budgetPeriods = ['day', 'month'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

export interface Budget {
  readonly amountUsd: number;
  readonly period: BudgetPeriod;
}

export interface KeyLimits {
  /** Requests admitted per UTC minute. */
  readonly rpm?: number;
  /** Tokens (input + output) recorded per UTC minute; a request is refused once the minute has used them. */
  readonly tpm?: number;
  /** Requests of the key being served at once. */
  readonly maxConcurrent?: number;
  readonly budget?: Budget;
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

/** The wire form (`POST /api-key/create`, `POST /api-key/{key_id}/limits`, the key list). */
export interface WireKeyLimits {
  readonly rpm?: number;
  readonly tpm?: number;
  readonly max_concurrent?: number;
  readonly budget?: { readonly amount_usd: number; readonly period: BudgetPeriod };
}
export interface WireCachePolicy {
  readonly ttl_s: number;
}

export function fromWirePolicy(limits: WireKeyLimits | null | undefined, cache: WireCachePolicy | null | undefined): KeyPolicy {
  const own: { -readonly [K in keyof KeyLimits]: KeyLimits[K] } = {};
  if (limits?.rpm !== undefined) own.rpm = limits.rpm;
  if (limits?.tpm !== undefined) own.tpm = limits.tpm;
  if (limits?.max_concurrent !== undefined) own.maxConcurrent = limits.max_concurrent;
  if (limits?.budget !== undefined) own.budget = { amountUsd: limits.budget.amount_usd, period: limits.budget.period };
  return {
    ...(limits !== undefined && limits !== null ? { limits: own } : {}),
    ...(cache !== undefined && cache !== null ? { cache: { ttlS: cache.ttl_s } } : {}),
  };
}

export function toWireLimits(limits: KeyLimits | undefined): WireKeyLimits | null {
  if (limits === undefined) return null;
  return {
    ...(limits.rpm !== undefined ? { rpm: limits.rpm } : {}),
    ...(limits.tpm !== undefined ? { tpm: limits.tpm } : {}),
    ...(limits.maxConcurrent !== undefined ? { max_concurrent: limits.maxConcurrent } : {}),
    ...(limits.budget !== undefined ? { budget: { amount_usd: limits.budget.amountUsd, period: limits.budget.period } } : {}),
  };
}

/** The key's own limits field by field over the merchant's defaults. */
export function effectivePolicy(own: KeyPolicy | undefined, merchantDefault: KeyPolicy | undefined): KeyPolicy {
  const limits = own?.limits === undefined && merchantDefault?.limits === undefined ? undefined : { ...merchantDefault?.limits, ...own?.limits };
  const cache = own?.cache ?? merchantDefault?.cache;
  return { ...(limits !== undefined ? { limits } : {}), ...(cache !== undefined ? { cache } : {}) };
}

export function hasLimits(limits: KeyLimits | undefined): limits is KeyLimits {
  return limits !== undefined && (limits.rpm !== undefined || limits.tpm !== undefined || limits.maxConcurrent !== undefined || limits.budget !== undefined);
}
