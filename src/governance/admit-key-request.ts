import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import type { ConfigStore, UsageStore } from '../ports/state-store.js';
import { effectivePolicy, hasRateLimits, type KeyPolicy, type LimitName, type RateLimits } from './key-policy.js';
import { keyLimitExceeded } from './key-limit-exceeded.js';
import type { PendingSpend } from './pending-spend.js';

/** 10 minutes: longer than any generation call's deadline, so a live request never loses its slot. */
export const defaultLeaseTtlMs = 600_000;

/**
 * Which of a key's limits a request is under: `llm` requests get all of them, and `reserveUsd`
 * prices the request for the budget; `payment` requests get `rpm` and `max_concurrent` (they spend no tokens).
 */
export type LimitScope = { readonly kind: 'payment' } | { readonly kind: 'llm'; readonly reserveUsd?: () => number | Promise<number> };

/** The API key a request came with. */
export interface KeyHolder {
  readonly keyId: string;
  readonly merchantId: string;
  readonly policy: KeyPolicy | undefined;
}

/** An admitted request's slot and budget reservation, held until `release` (idempotent). */
export interface KeyLease {
  release(): void;
}

export interface KeyAdmissionDeps {
  readonly usage: Pick<UsageStore, 'admit' | 'release'>;
  /** The merchant's `apiKeyDefaults`. */
  readonly configs: Pick<ConfigStore, 'get'>;
  readonly now: () => number;
  /** A lease its replica never released (it died) stops counting after this long. */
  readonly leaseTtlMs: number;
  /** Spend counts of requests not yet landed: a lease is released after its request's. */
  readonly pendingSpend: PendingSpend;
}

function paymentLimits(limits: RateLimits | undefined): RateLimits {
  if (limits === undefined) return {};
  return { ...(limits.rpm !== undefined ? { rpm: limits.rpm } : {}), ...(limits.maxConcurrent !== undefined ? { maxConcurrent: limits.maxConcurrent } : {}) };
}

/** One spender's own limits (a key's without the limits of its end users). */
function rateLimitsOf(limits: RateLimits | undefined): RateLimits {
  if (limits === undefined) return {};
  const { rpm, tpm, maxConcurrent, budget } = limits;
  return {
    ...(rpm !== undefined ? { rpm } : {}),
    ...(tpm !== undefined ? { tpm } : {}),
    ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
    ...(budget !== undefined ? { budget } : {}),
  };
}

function limitValue(limits: RateLimits, limit: LimitName): number | string {
  switch (limit) {
    case 'rpm':
      return limits.rpm ?? 0;
    case 'tpm':
      return limits.tpm ?? 0;
    case 'max_concurrent':
      return limits.maxConcurrent ?? 0;
    case 'budget':
      return `${limits.budget?.amountUsd ?? 0} USD per ${limits.budget?.period ?? 'day'}`;
  }
}

/**
 * Per-key limits (issue 14): a request is admitted against its API key's limits (the key's own
 * over the merchant's defaults) in one atomic store step, before any provider call, or refused.
 * An admitted request holds a slot and its budget reservation until released; the release waits
 * for the request's spend counts to land (src/governance/pending-spend.ts), so no moment counts a
 * call neither as reserved nor as spent.
 */
export class KeyAdmission {
  readonly #deps: KeyAdmissionDeps;

  constructor(deps: KeyAdmissionDeps) {
    this.#deps = deps;
  }

  /**
   * The request's lease, or undefined when its key has no limit this scope counts. A model request
   * naming an end user is admitted against the key's limits and the key's per-end-user limits in
   * one atomic store step (payment requests have no end user).
   * @throws SwitchyardError `SY_KEY_LIMIT_EXCEEDED` (with `limit`, `retryAfterS` and whose limit it is) when a limit refuses it.
   */
  async admit(key: KeyHolder, scope: LimitScope, requestId: string, log: Logger, endUser?: string): Promise<KeyLease | undefined> {
    const { usage, configs, now, leaseTtlMs, pendingSpend } = this.#deps;
    const policy = effectivePolicy(key.policy, await configs.get(key.merchantId, 'apiKeyDefaults'));
    const limits = scope.kind === 'payment' ? paymentLimits(policy.limits) : rateLimitsOf(policy.limits);
    const perEndUser = scope.kind === 'llm' && endUser !== undefined ? policy.limits?.perEndUser : undefined;
    const userLimits = perEndUser !== undefined && hasRateLimits(perEndUser) ? { endUser: endUser as string, limits: perEndUser } : undefined;
    if (!hasRateLimits(limits) && userLimits === undefined) return undefined;
    const budgeted = limits.budget !== undefined || userLimits?.limits.budget !== undefined;
    const reserveUsd = scope.kind === 'llm' && budgeted && scope.reserveUsd !== undefined ? await scope.reserveUsd() : 0;
    const leaseId = `${requestId}:${randomUUID()}`;
    const { keyId } = key;
    const admission = await usage.admit(keyId, limits, { leaseId, reserveUsd, nowMs: now(), leaseTtlMs }, userLimits);
    if (!admission.admitted) {
      const refusedBy = admission.holder === 'end_user' && userLimits !== undefined ? userLimits.limits : limits;
      throw keyLimitExceeded(admission.limit, admission.retryAfterS, limitValue(refusedBy, admission.limit), admission.holder);
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        pendingSpend
          .settled(requestId)
          .then(() => usage.release(keyId, leaseId, userLimits?.endUser))
          .catch((error: unknown) => log.warn({ err: error, keyId }, 'key lease not released; it expires on its own'));
      },
    };
  }
}
