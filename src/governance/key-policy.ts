import {
  budgetPeriods,
  type Budget,
  type BudgetPeriod,
  type CachePolicy,
  type KeyLimits,
  type KeyPolicy,
  type LimitName,
  type RateLimits,
} from '../ports/state/key-policy.js';

/*
 * What is computed from a key's policy: its wire form and the key-over-merchant merge. The policy
 * records themselves are stored with keys and merchant defaults, so they are the state-store
 * port's (src/ports/state/key-policy.ts); re-exported here for the governance code and routes that
 * read both.
 */
export { budgetPeriods, type Budget, type BudgetPeriod, type CachePolicy, type KeyLimits, type KeyPolicy, type LimitName, type RateLimits };

/** The wire form of one spender's limits. */
export interface WireRateLimits {
  readonly rpm?: number;
  readonly tpm?: number;
  readonly max_concurrent?: number;
  readonly budget?: { readonly amount_usd: number; readonly period: BudgetPeriod };
}
/** The wire form (`POST /api-key/create`, `POST /api-key/{key_id}/limits`, the key list). */
export interface WireKeyLimits extends WireRateLimits {
  readonly per_end_user?: WireRateLimits;
}
export interface WireCachePolicy {
  readonly ttl_s: number;
}

function fromWireRates(limits: WireRateLimits): RateLimits {
  const own: { -readonly [K in keyof RateLimits]: RateLimits[K] } = {};
  if (limits.rpm !== undefined) own.rpm = limits.rpm;
  if (limits.tpm !== undefined) own.tpm = limits.tpm;
  if (limits.max_concurrent !== undefined) own.maxConcurrent = limits.max_concurrent;
  if (limits.budget !== undefined) own.budget = { amountUsd: limits.budget.amount_usd, period: limits.budget.period };
  return own;
}

function toWireRates(limits: RateLimits): WireRateLimits {
  return {
    ...(limits.rpm !== undefined ? { rpm: limits.rpm } : {}),
    ...(limits.tpm !== undefined ? { tpm: limits.tpm } : {}),
    ...(limits.maxConcurrent !== undefined ? { max_concurrent: limits.maxConcurrent } : {}),
    ...(limits.budget !== undefined ? { budget: { amount_usd: limits.budget.amountUsd, period: limits.budget.period } } : {}),
  };
}

export function fromWirePolicy(limits: WireKeyLimits | null | undefined, cache: WireCachePolicy | null | undefined): KeyPolicy {
  const own: KeyLimits | undefined =
    limits === undefined || limits === null
      ? undefined
      : { ...fromWireRates(limits), ...(limits.per_end_user !== undefined ? { perEndUser: fromWireRates(limits.per_end_user) } : {}) };
  return {
    ...(own !== undefined ? { limits: own } : {}),
    ...(cache !== undefined && cache !== null ? { cache: { ttlS: cache.ttl_s } } : {}),
  };
}

export function toWireLimits(limits: KeyLimits | undefined): WireKeyLimits | null {
  if (limits === undefined) return null;
  return { ...toWireRates(limits), ...(limits.perEndUser !== undefined ? { per_end_user: toWireRates(limits.perEndUser) } : {}) };
}

/** The key's own limits field by field over the merchant's defaults. */
export function effectivePolicy(own: KeyPolicy | undefined, merchantDefault: KeyPolicy | undefined): KeyPolicy {
  const limits = own?.limits === undefined && merchantDefault?.limits === undefined ? undefined : { ...merchantDefault?.limits, ...own?.limits };
  const cache = own?.cache ?? merchantDefault?.cache;
  return { ...(limits !== undefined ? { limits } : {}), ...(cache !== undefined ? { cache } : {}) };
}

/** True when `limits` limits anything (the end users' limits included). */
export function hasLimits(limits: KeyLimits | undefined): limits is KeyLimits {
  return limits !== undefined && (hasRateLimits(limits) || (limits.perEndUser !== undefined && hasRateLimits(limits.perEndUser)));
}

/** True when one spender's limits limit anything. */
export function hasRateLimits(limits: RateLimits): boolean {
  return limits.rpm !== undefined || limits.tpm !== undefined || limits.maxConcurrent !== undefined || limits.budget !== undefined;
}
