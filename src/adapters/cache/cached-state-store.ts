import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { ConfigName, MerchantAccount, StateStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';

export interface CachedStateStoreOptions {
  readonly logger: Logger;
  readonly clock: Clock;
  /** Safety net only: invalidations, not expiry, are what keep replicas fresh. */
  readonly ttlMs?: number;
}

interface Cached<T> {
  readonly value: T;
  readonly loadedAt: number;
}

/** Invalidation keys, one format for every replica. */
export const cacheKeys = {
  merchant: (merchantId: string) => `merchant:${merchantId}`,
  config: (merchantId: string, name: ConfigName) => `config:${merchantId}:${name}`,
  apiKey: (keyHash: string) => `apikey:${keyHash}`,
} as const;

/**
 * A read-through cache in front of a remote StateStore (Redis), for what every decision reads:
 * merchants and their configs. Every write through this store invalidates its key here
 * and, through the store's pub/sub, on every other replica before the call returns.
 *
 * While the backing store is down the API degrades instead of failing: cached entries are served
 * even when stale, and score reads answer "no history" (the optimistic default), logged once per
 * outage. Writes still fail, so nothing is silently lost.
 */
export function createCachedStateStore(inner: StateStore, options: CachedStateStoreOptions): StateStore {
  const ttlMs = options.ttlMs ?? 60_000; // 1 min: bounds staleness if an invalidation message is ever lost
  const log = options.logger;
  const cache = new Map<string, Cached<unknown>>();
  let degraded = false;

  inner.onInvalidation((key) => {
    cache.delete(key);
  });

  function noteOutage(error: unknown, operation: string): void {
    if (!degraded) {
      degraded = true;
      log.error({ err: error, operation }, 'state store unavailable: serving cached state and optimistic scores');
    }
  }

  function noteRecovery(): void {
    if (degraded) {
      degraded = false;
      log.info({}, 'state store recovered');
    }
  }

  async function readThrough<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key) as Cached<T> | undefined;
    if (hit !== undefined && options.clock.now() - hit.loadedAt < ttlMs) return hit.value;
    try {
      const value = await load();
      cache.set(key, { value, loadedAt: options.clock.now() });
      noteRecovery();
      return value;
    } catch (error) {
      if (hit !== undefined && SwitchyardError.isInstance(error) && error.code === 'SY_STATE_UNAVAILABLE') {
        noteOutage(error, 'read');
        return hit.value;
      }
      throw error;
    }
  }

  async function invalidate(key: string): Promise<void> {
    cache.delete(key);
    await inner.publishInvalidation(key);
  }

  async function degradable<T>(operation: string, read: () => Promise<T>, fallback: () => T): Promise<T> {
    try {
      const value = await read();
      noteRecovery();
      return value;
    } catch (error) {
      if (SwitchyardError.isInstance(error) && error.code === 'SY_STATE_UNAVAILABLE') {
        noteOutage(error, operation);
        return fallback();
      }
      throw error;
    }
  }

  return {
    merchants: {
      get: (merchantId) => readThrough<MerchantAccount | undefined>(cacheKeys.merchant(merchantId), () => inner.merchants.get(merchantId)),
      async create(account) {
        const result = await inner.merchants.create(account);
        await invalidate(cacheKeys.merchant(account.merchantId));
        return result;
      },
      async delete(merchantId) {
        const removed = await inner.merchants.delete(merchantId);
        await invalidate(cacheKeys.merchant(merchantId));
        return removed;
      },
    },
    configs: {
      get: (merchantId, name) => readThrough(cacheKeys.config(merchantId, name), () => inner.configs.get(merchantId, name)),
      async put(merchantId, name, value, mode) {
        const result = await inner.configs.put(merchantId, name, value, mode);
        await invalidate(cacheKeys.config(merchantId, name));
        return result;
      },
      async delete(merchantId, name) {
        const removed = await inner.configs.delete(merchantId, name);
        await invalidate(cacheKeys.config(merchantId, name));
        return removed;
      },
    },
    scores: {
      readWindows: (keys, bucketSize) => degradable('readWindows', () => inner.scores.readWindows(keys, bucketSize), () => keys.map(() => undefined)),
      readEliminations: (keys) => degradable('readEliminations', () => inner.scores.readEliminations(keys), () => keys.map(() => undefined)),
      recordOutcome: (input) => inner.scores.recordOutcome(input),
      applyElimination: (input) => inner.scores.applyElimination(input),
      putDecisionContext: (context, ttlSeconds) => inner.scores.putDecisionContext(context, ttlSeconds),
      getDecisionContext: (merchantId, paymentId) => inner.scores.getDecisionContext(merchantId, paymentId),
    },
    users: inner.users,
    // Credentials are never cached: a revoked key or token must fail on every replica the moment the
    // revoke call returns, and a pub/sub message can arrive late or not at all. One Redis read per
    // authenticated request is the price.
    apiKeys: inner.apiKeys,
    sessions: inner.sessions,
    publishInvalidation: (key) => invalidate(key),
    onInvalidation: (listener) => inner.onInvalidation(listener),
    probe: () => inner.probe(),
    isAvailable: () => inner.isAvailable(),
    close: () => inner.close(),
  };
}
