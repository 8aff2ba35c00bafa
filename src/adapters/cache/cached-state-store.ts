import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { ConfigName, MerchantAccount, RoutingAlgorithmRecord, StateStore } from '../../ports/state-store.js';
import { configInvalidationKey } from '../../ports/state/config-store.js';
import { type NotHeld, notHeld } from '../../ports/state/held-read.js';
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
  config: (merchantId: string, name: ConfigName) => configInvalidationKey(merchantId, name),
  apiKey: (keyHash: string) => `apikey:${keyHash}`,
  /** A merchant's active routing algorithms (what /routing/evaluate and decisions read). */
  routingActive: (createdBy: string) => `routing:${createdBy}`,
} as const;

/**
 * 15 min: how long a credential last confirmed by the store may still be accepted during an outage
 * (long enough to ride out a restart or failover, short enough that a forgotten key does not live on).
 */
const credentialFallbackMaxAgeMs = 15 * 60_000;

/**
 * A read-through cache in front of a remote StateStore (Redis), for what every decision reads:
 * merchants and their configs. Every write through this store invalidates its key here
 * and, through the store's pub/sub, on every other replica before the call returns.
 *
 * While the backing store is down the API degrades instead of failing: cached entries are served
 * even when stale, API keys the store confirmed recently are still accepted, and score reads answer
 * "no history" (the optimistic default), logged once per outage. Writes still fail, so nothing is
 * silently lost.
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

  /** The cached value while fresh, synchronously; otherwise {@link notHeld} (the caller reads through). */
  function held<T>(key: string): T | NotHeld {
    const hit = cache.get(key) as Cached<T> | undefined;
    return hit !== undefined && options.clock.now() - hit.loadedAt < ttlMs ? hit.value : notHeld;
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

  /**
   * Reads a credential from the store on every call and remembers the record; the remembered
   * record is served only when the store is unreachable (SY_STATE_UNAVAILABLE) and was confirmed
   * less than {@link credentialFallbackMaxAgeMs} ago. A revoke is a store write, so none succeeds
   * during the outage, and one that returned before it was seen by every read since (which
   * replaced the record) or dropped the record through its invalidation.
   *
   * @remarks The one gap left open on purpose: a key revoked while this replica neither read it
   * nor received the invalidation, followed by an outage, is still accepted here until the outage
   * ends or the record ages out. Unknown keys are never remembered, so guessing keys cannot grow
   * the cache.
   */
  async function lastKnownCredential<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    try {
      const value = await load();
      if (value === undefined) cache.delete(key);
      else cache.set(key, { value, loadedAt: options.clock.now() });
      noteRecovery();
      return value;
    } catch (error) {
      const known = cache.get(key) as Cached<T> | undefined;
      if (
        known !== undefined &&
        options.clock.now() - known.loadedAt < credentialFallbackMaxAgeMs &&
        SwitchyardError.isInstance(error) &&
        error.code === 'SY_STATE_UNAVAILABLE'
      ) {
        noteOutage(error, 'credential');
        return known.value;
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
      held: (merchantId) => held<MerchantAccount | undefined>(cacheKeys.merchant(merchantId)),
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
      held: (merchantId, name) => held(cacheKeys.config(merchantId, name)),
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
      readWindows: (keys, bucketSize) =>
        degradable(
          'readWindows',
          () => inner.scores.readWindows(keys, bucketSize),
          () => keys.map(() => undefined),
        ),
      readEliminations: (keys) =>
        degradable(
          'readEliminations',
          () => inner.scores.readEliminations(keys),
          () => keys.map(() => undefined),
        ),
      recordOutcome: (input) => inner.scores.recordOutcome(input),
      applyElimination: (input) => inner.scores.applyElimination(input),
      deleteScores: (selection) => inner.scores.deleteScores(selection),
      putDecisionContext: (context, ttlSeconds) => inner.scores.putDecisionContext(context, ttlSeconds),
      getDecisionContext: (merchantId, paymentId) => inner.scores.getDecisionContext(merchantId, paymentId),
    },
    users: inner.users,
    // Credentials are never served from memory while the store answers: a revoked key must fail on
    // every replica the moment the revoke call returns, and a pub/sub message can arrive late or not
    // at all. One Redis read per authenticated request is the price. Only during an outage is the
    // last record read for a key served (see lastKnownCredential), or no request could authenticate.
    apiKeys: {
      create: (record) => inner.apiKeys.create(record),
      findByHash: (keyHash) => lastKnownCredential(cacheKeys.apiKey(keyHash), () => inner.apiKeys.findByHash(keyHash)),
      findById: (keyId) => inner.apiKeys.findById(keyId),
      listByMerchant: (merchantId) => inner.apiKeys.listByMerchant(merchantId),
      async revoke(keyId) {
        const record = await inner.apiKeys.revoke(keyId);
        // Other replicas drop their outage fallback for this key too.
        if (record !== undefined) await invalidate(cacheKeys.apiKey(record.keyHash));
        return record;
      },
      async setPolicy(keyId, policy) {
        const record = await inner.apiKeys.setPolicy(keyId, policy);
        if (record !== undefined) await invalidate(cacheKeys.apiKey(record.keyHash));
        return record;
      },
    },
    sessions: inner.sessions,
    // Never cached: a password change or session cutoff must hold on every replica at once.
    credentials: inner.credentials,
    // The active algorithms are served from memory (the same record objects until invalidated, so
    // their compiled form can be memoised per object); every write that can change what is active,
    // or the content of an active record, invalidates the owner's key on every replica.
    routingRules: {
      create: (record) => inner.routingRules.create(record),
      get: (id) => inner.routingRules.get(id),
      list: (createdBy) => inner.routingRules.list(createdBy),
      activeIds: (createdBy) => inner.routingRules.activeIds(createdBy),
      loadActive: (createdBy) =>
        readThrough<readonly RoutingAlgorithmRecord[]>(cacheKeys.routingActive(createdBy), () => inner.routingRules.loadActive(createdBy)),
      heldActive: (createdBy) => held<readonly RoutingAlgorithmRecord[]>(cacheKeys.routingActive(createdBy)),
      async update(record) {
        const result = await inner.routingRules.update(record);
        await invalidate(cacheKeys.routingActive(record.createdBy));
        return result;
      },
      async delete(createdBy, id) {
        const result = await inner.routingRules.delete(createdBy, id);
        await invalidate(cacheKeys.routingActive(createdBy));
        return result;
      },
      async activate(createdBy, slot, id) {
        await inner.routingRules.activate(createdBy, slot, id);
        await invalidate(cacheKeys.routingActive(createdBy));
      },
      async deactivate(createdBy, slot, id) {
        const removed = await inner.routingRules.deactivate(createdBy, slot, id);
        await invalidate(cacheKeys.routingActive(createdBy));
        return removed;
      },
    },
    // Batches are read by the batch routes and written by generation workers; nothing on the
    // decision path reads them, so they pass straight through (a cache would only serve stale progress).
    batches: inner.batches,
    // Limit counters are the point of truth for admission: never served from memory.
    usage: inner.usage,
    // A cache already (shared by every replica, expiring with the key's TTL): a per-replica copy would only add staleness.
    responseCache: inner.responseCache,
    // Written once and read by id, never changed: nothing a replica could hold stale, so no copy in front.
    responses: inner.responses,
    // Appended to by every call of a session, on any replica: a copy in front would serve a stale history.
    conversations: inner.conversations,
    // Written by every call of a conversation, on any replica: a per-replica copy would route by a stale holder.
    cacheAffinity: inner.cacheAffinity,
    // Counts moved by every feedback on any worker: a per-replica copy would pin by a stale habit.
    sticky: inner.sticky,
    mcpSessions: inner.mcpSessions,
    publishInvalidation: (key) => invalidate(key),
    onInvalidation: (listener) => inner.onInvalidation(listener),
    probe: () => inner.probe(),
    isAvailable: () => inner.isAvailable(),
    close: () => inner.close(),
  };
}
