import { budgetPeriods, fromWirePolicy, type KeyPolicy, type WireCachePolicy, type WireKeyLimits } from './key-policy.js';

/** 1 day: longer-lived answers belong in the caller's own store, not a shared cache. */
export const MAX_CACHE_TTL_S = 86_400;
const MAX_RATE = 10_000_000;
const MAX_BUDGET_USD = 1_000_000_000;

export type PolicyParse = { readonly ok: true; readonly policy: KeyPolicy } | { readonly ok: false; readonly problem: string };

function positiveInteger(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max
    ? undefined
    : `${field} must be an integer from 1 to ${max}; got ${JSON.stringify(value)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(value: Record<string, unknown>, known: readonly string[], at: string): string | undefined {
  const extra = Object.keys(value).find((name) => !known.includes(name));
  return extra === undefined ? undefined : `${at}.${extra} is not a field (expected ${known.join(', ')})`;
}

/**
 * Reads the `limits` and `cache` of `POST /api-key/create` and `POST /api-key/{key_id}/limits`
 * (and the merchant defaults): every field optional, each problem named by its path
 * (`limits.budget.period must be day or month`). `null` or absent means none.
 */
export function parseKeyPolicy(limits: unknown, cache: unknown): PolicyParse {
  const problem = limitsProblem(limits) ?? cacheProblem(cache);
  if (problem !== undefined) return { ok: false, problem };
  return { ok: true, policy: fromWirePolicy(limits as WireKeyLimits | null | undefined, cache as WireCachePolicy | null | undefined) };
}

function limitsProblem(limits: unknown): string | undefined {
  if (limits === undefined || limits === null) return undefined;
  if (!isObject(limits)) return 'limits must be an object { rpm?, tpm?, max_concurrent?, budget?, per_end_user? }';
  const problem = unknownField(limits, ['rpm', 'tpm', 'max_concurrent', 'budget', 'per_end_user'], 'limits') ?? rateLimitsProblem(limits, 'limits');
  if (problem !== undefined) return problem;
  const perEndUser = limits['per_end_user'];
  if (perEndUser === undefined) return undefined;
  if (!isObject(perEndUser)) return 'limits.per_end_user must be an object { rpm?, tpm?, max_concurrent?, budget? }';
  return unknownField(perEndUser, ['rpm', 'tpm', 'max_concurrent', 'budget'], 'limits.per_end_user') ?? rateLimitsProblem(perEndUser, 'limits.per_end_user');
}

/** The first problem of one spender's limits (`at` names where they sit), or undefined. */
function rateLimitsProblem(limits: Record<string, unknown>, at: string): string | undefined {
  const problem =
    positiveInteger(limits['rpm'], `${at}.rpm`, MAX_RATE) ??
    positiveInteger(limits['tpm'], `${at}.tpm`, MAX_RATE * 1000) ??
    positiveInteger(limits['max_concurrent'], `${at}.max_concurrent`, 100_000);
  if (problem !== undefined) return problem;
  const budget = limits['budget'];
  if (budget === undefined) return undefined;
  if (!isObject(budget)) return `${at}.budget must be an object { amount_usd, period }`;
  const extra = unknownField(budget, ['amount_usd', 'period'], `${at}.budget`);
  if (extra !== undefined) return extra;
  const amount = budget['amount_usd'];
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0 || amount > MAX_BUDGET_USD)
    return `${at}.budget.amount_usd must be a number above 0 and at most ${MAX_BUDGET_USD}; got ${JSON.stringify(amount)}`;
  if (!(budgetPeriods as readonly unknown[]).includes(budget['period']))
    return `${at}.budget.period must be day or month; got ${JSON.stringify(budget['period'])}`;
  return undefined;
}

function cacheProblem(cache: unknown): string | undefined {
  if (cache === undefined || cache === null) return undefined;
  if (!isObject(cache)) return 'cache must be an object { ttl_s }';
  return (
    unknownField(cache, ['ttl_s'], 'cache') ??
    (cache['ttl_s'] === undefined ? 'cache.ttl_s is required' : positiveInteger(cache['ttl_s'], 'cache.ttl_s', MAX_CACHE_TTL_S))
  );
}
