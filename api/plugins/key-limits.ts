import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { effectivePolicy, hasLimits, type KeyLimits } from '../../src/governance/key-policy.js';
import { keyLimitExceeded } from '../../src/governance/key-limit-exceeded.js';
import type { PendingSpend } from '../../src/governance/pending-spend.js';
import type { StateStore } from '../../src/ports/state-store.js';

/**
 * Which of a key's limits a route is under. `llm` routes get all of them, and `reserveUsd` prices
 * the request for the budget; `payment` routes get `rpm` and `max_concurrent` (they spend no tokens).
 */
export type KeyLimitsRoute =
  | { readonly kind: 'payment' }
  | { readonly kind: 'llm'; readonly reserveUsd?: (request: FastifyRequest) => number | Promise<number> };

declare module 'fastify' {
  interface FastifyContextConfig {
    keyLimits?: KeyLimitsRoute;
  }
}

export interface KeyLimitsOptions {
  readonly state: Pick<StateStore, 'usage' | 'configs'>;
  readonly now: () => number;
  /** A lease its replica never released (it died) stops counting after this long. */
  readonly leaseTtlMs: number;
  /** Spend counts of requests not yet landed: a lease is released after its request's. */
  readonly pendingSpend: PendingSpend;
}

/** 10 minutes: longer than any generation call's deadline, so a live request never loses its slot. */
export const defaultLeaseTtlMs = 600_000;

function paymentLimits(limits: KeyLimits | undefined): KeyLimits | undefined {
  if (limits === undefined) return undefined;
  return { ...(limits.rpm !== undefined ? { rpm: limits.rpm } : {}), ...(limits.maxConcurrent !== undefined ? { maxConcurrent: limits.maxConcurrent } : {}) };
}

function limitValue(limits: KeyLimits, limit: 'rpm' | 'tpm' | 'max_concurrent' | 'budget'): number | string {
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
 * Per-key limits (issue 14) on every route that declares `keyLimits`: after authentication and
 * validation, before the handler (so before any provider call), the request is admitted against
 * its API key's limits (the key's own over the merchant's defaults) in one atomic store step, or
 * refused with 429 and `Retry-After`. An admitted request holds a slot and its budget reservation
 * until its response is finished or its client has gone. Session credentials are not limited.
 */
export function registerKeyLimits(app: FastifyInstance, options: KeyLimitsOptions): void {
  app.addHook('preHandler', async (request, reply) => {
    const route = request.routeOptions.config.keyLimits;
    const credential = request.credential;
    if (route === undefined || credential === null || credential.kind !== 'api_key') return;
    const merchantDefault = await options.state.configs.get(credential.merchantId, 'apiKeyDefaults');
    const policy = effectivePolicy(credential.policy, merchantDefault);
    const limits = route.kind === 'payment' ? paymentLimits(policy.limits) : policy.limits;
    if (!hasLimits(limits)) return;
    const reserveUsd = route.kind === 'llm' && limits.budget !== undefined && route.reserveUsd !== undefined ? await route.reserveUsd(request) : 0;
    const leaseId = `${String(request.id)}:${randomUUID()}`;
    const { keyId } = credential;
    const admission = await options.state.usage.admit(keyId, limits, { leaseId, reserveUsd, nowMs: options.now(), leaseTtlMs: options.leaseTtlMs });
    if (!admission.admitted) throw keyLimitExceeded(admission.limit, admission.retryAfterS, limitValue(limits, admission.limit));
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      options.pendingSpend
        .settled(String(request.id))
        .then(() => options.state.usage.release(keyId, leaseId))
        .catch((error: unknown) => request.log.warn({ err: error, keyId }, 'key lease not released; it expires on its own'));
    };
    // 'finish' once the answer is written (streams included, which bypass fastify's hooks); 'close'
    // when the client left first.
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
}
