import type { Clock } from '../../time/clock.js';
import { systemClock } from '../../time/clock.js';
import type { Logger } from '../../logging/logger.js';
import type {
  ApiKeyRecord,
  ApiKeyStore,
  ConfigName,
  ConfigStore,
  EliminationScore,
  MerchantAccount,
  MerchantStore,
  Membership,
  ActiveRoutingAlgorithms,
  RoutingAlgorithmRecord,
  RoutingRuleStore,
  ScoreStore,
  SessionStore,
  StateStore,
  UserRecord,
  UserStore,
  WindowRead,
} from '../../ports/state-store.js';
import { pushOutcome, readOutcomeWindow, type Outcome } from '../../feedback/outcome-window.js';
import { DecisionContextRing } from './decision-context-ring.js';
import { JournaledTables } from './journaled-tables.js';
import { batchTables, createMemoryBatchStore } from './memory-batch-store.js';
import { createMemoryCredentialStore, credentialTables } from './memory-credential-store.js';
import { createMemoryUsageStore, usageTables } from './memory-usage-store.js';
import { createMemoryResponseCache, defaultResponseCacheBounds } from './memory-response-cache.js';
import { createMemoryResponseStore, responseStoreTables } from './memory-response-store.js';
import { createMemoryStickyStore } from './memory-sticky-store.js';
import { createMemoryCacheAffinityStore } from './memory-cache-affinity-store.js';
import { createMemoryMcpSessionStore } from './memory-mcp-session-store.js';
import { createMemoryConversationStore, defaultMaxConversationSessions } from './memory-conversation-store.js';
import { activeIdsInOrder } from '../../routing-rules/active-order.js';
import { configInvalidationKey } from '../../ports/state/config-store.js';

export interface MemoryStateStoreOptions {
  /** Where durable tables are journaled; undefined keeps everything in memory (tests). */
  readonly dataDir: string | undefined;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Bounds of the gateway's response cache (entries, bytes); default {@link defaultResponseCacheBounds}. */
  readonly responseCache?: { readonly maxEntries?: number; readonly maxBytes?: number };
  /** Conversation sessions kept at most (least recently used go first); default {@link defaultMaxConversationSessions}. */
  readonly maxConversationSessions?: number;
  /**
   * Decision contexts kept for feedback at most (default 500,000, under 0.1 GB of heap): the TTL alone
   * would let 30 minutes of decisions pile up in process memory at any rate.
   */
  readonly maxDecisionContexts?: number;
}

export const defaultMaxDecisionContexts = 500_000;

/** Outcomes newest first, trimmed to the bucket size of the last write. */
type Window = Outcome[];

const durableTables = [
  'merchants',
  'configs',
  'windows',
  'eliminations',
  'users',
  'emails',
  'memberships',
  'apiKeys',
  'apiKeyHashes',
  'revokedTokens',
  'oneTimeCodes',
  'routingAlgorithms',
  'routingActive',
  ...batchTables,
  ...credentialTables,
  ...usageTables,
  ...responseStoreTables,
];
/** Merchants whose config keys are remembered before the memo is dropped (it only saves rebuilding strings). */
const maxCachedConfigKeyMerchants = 10_000;
const sweepIntervalMs = 60_000; // 1 min: bounds memory held by expired decision contexts and dedupe marks

/**
 * The embedded StateStore: everything in process memory, durable tables journaled under the data
 * directory. Two app instances given the same store object behave like two replicas on one Redis
 * (invalidations reach both).
 */
export function createMemoryStateStore(options: MemoryStateStoreOptions): StateStore {
  const clock = options.clock ?? systemClock;
  const db = new JournaledTables({ dir: options.dataDir, durableTables, now: () => clock.now(), logger: options.logger });
  const decisionContexts = new DecisionContextRing(options.maxDecisionContexts ?? defaultMaxDecisionContexts);
  const listeners = new Set<(key: string) => void>();
  const announce = (key: string): void => {
    for (const listener of listeners) listener(key);
  };
  const sweeper = setInterval(() => {
    decisionContexts.sweep(clock.now());
    db.sweepUniformTtl('dedupe');
    for (const table of [...batchTables, ...usageTables, ...responseStoreTables]) db.sweepExpired(table);
  }, sweepIntervalMs);
  sweeper.unref();

  /** Marks `key` as applied; false when it already was (the idempotency guard of every score write). */
  function firstTime(key: string, ttlSeconds: number): boolean {
    if (db.has('dedupe', key)) return false;
    db.set('dedupe', key, 1, ttlSeconds * 1000);
    return true;
  }

  function windowRead(window: Window | undefined, bucketSize: number): WindowRead | undefined {
    return window === undefined || window.length === 0 ? undefined : readOutcomeWindow(window, bucketSize);
  }

  // Everything is in process memory: the synchronous `held` reads always answer.
  const merchants: MerchantStore = {
    async get(merchantId) {
      return db.get<MerchantAccount>('merchants', merchantId);
    },
    held: (merchantId) => db.get<MerchantAccount>('merchants', merchantId),
    heldVersion: () => db.version('merchants'),
    async create(account) {
      if (db.has('merchants', account.merchantId)) return 'exists';
      db.set('merchants', account.merchantId, account);
      return 'created';
    },
    async delete(merchantId) {
      return db.delete('merchants', merchantId);
    },
  };

  // A config write is announced on the invalidation channel, as the caching decorator does in front
  // of Redis: in-process caches of a document (the decision's steering plans) drop it at once.
  // A decision reads seven config documents: each merchant's keys are built once (a fresh
  // concatenation per read would be flattened and hashed again every time).
  const configKeys = new Map<string, Partial<Record<ConfigName, string>>>();
  const configKey = (merchantId: string, name: ConfigName): string => {
    let keys = configKeys.get(merchantId);
    if (keys === undefined) {
      if (configKeys.size >= maxCachedConfigKeyMerchants) configKeys.clear();
      keys = {};
      configKeys.set(merchantId, keys);
    }
    let key = keys[name];
    if (key === undefined) {
      key = `${merchantId}\u0000${name}`;
      keys[name] = key;
    }
    return key;
  };
  const configs: ConfigStore = {
    async get(merchantId, name) {
      return db.get('configs', configKey(merchantId, name));
    },
    held: (merchantId, name) => db.get('configs', configKey(merchantId, name)),
    heldVersion: () => db.version('configs'),
    async put(merchantId, name, value, mode) {
      const key = `${merchantId}\u0000${name}`;
      const exists = db.has('configs', key);
      if (mode === 'create' && exists) return 'exists';
      if (mode === 'update' && !exists) return 'missing';
      db.set('configs', key, value);
      announce(configInvalidationKey(merchantId, name));
      return 'written';
    },
    async delete(merchantId, name) {
      const removed = db.delete('configs', `${merchantId}\u0000${name}`);
      if (removed) announce(configInvalidationKey(merchantId, name));
      return removed;
    },
  };

  // Reads in process memory, offered synchronously too (ScoreStore.readWindowsNow): a decision needs no promise.
  const readWindowsNow = (keys: readonly string[], bucketSize: number): (WindowRead | undefined)[] => {
    const reads: (WindowRead | undefined)[] = new Array(keys.length);
    for (let index = 0; index < keys.length; index += 1) reads[index] = windowRead(db.get<Window>('windows', keys[index] as string), bucketSize);
    return reads;
  };
  const readEliminationsNow = (keys: readonly string[]): (EliminationScore | undefined)[] => {
    const reads: (EliminationScore | undefined)[] = new Array(keys.length);
    for (let index = 0; index < keys.length; index += 1) reads[index] = db.get<EliminationScore>('eliminations', keys[index] as string);
    return reads;
  };
  const scores: ScoreStore = {
    async readWindows(keys, bucketSize) {
      return readWindowsNow(keys, bucketSize);
    },
    readWindowsNow,
    async recordOutcome(input) {
      const current = db.get<Window>('windows', input.windowKey);
      if (!firstTime(input.dedupeKey, input.dedupeTtlSeconds)) {
        return { applied: false, window: windowRead(current, input.bucketSize) ?? { successes: input.bucketSize, length: input.bucketSize } };
      }
      const next = pushOutcome(current, input.outcome, input.bucketSize);
      db.set('windows', input.windowKey, next, input.windowTtlSeconds * 1000);
      return { applied: true, window: windowRead(next, input.bucketSize)! };
    },
    async readEliminations(keys) {
      return readEliminationsNow(keys);
    },
    readEliminationsNow,
    async applyElimination(input) {
      const current = db.get<EliminationScore>('eliminations', input.key);
      if (!firstTime(input.dedupeKey, input.dedupeTtlSeconds)) {
        return { applied: false, score: current ?? { score: 1, transactionCount: 0, updatedAt: input.nowMs } };
      }
      const base = current?.score ?? 1;
      const score: EliminationScore = {
        score: Math.min(1, Math.max(0, base * input.factor)),
        transactionCount: (current?.transactionCount ?? 0) + (input.countsTransaction ? 1 : 0),
        updatedAt: input.nowMs,
      };
      db.set('eliminations', input.key, score, input.ttlMs);
      return { applied: true, score };
    },
    async deleteScores(selection) {
      let deleted = 0;
      for (const [table, prefix] of [
        ['windows', selection.windowKeyPrefix],
        ['eliminations', selection.eliminationKeyPrefix],
      ] as const) {
        // Collected first: deleting while iterating a Map is safe, but the journal write is per key anyway.
        const keys = [...db.entries(table)].map(([key]) => key).filter((key) => key.startsWith(prefix) && selection.owns(key));
        for (const key of keys) if (db.delete(table, key)) deleted++;
      }
      return deleted;
    },
    async putDecisionContext(context, ttlSeconds) {
      // A slot of a bounded ring, not a row of a table: past the bound the oldest context is
      // overwritten (its feedback then finds no decision, as after the TTL). See DecisionContextRing.
      decisionContexts.put(context, clock.now() + ttlSeconds * 1000);
    },
    async getDecisionContext(merchantId, paymentId) {
      return decisionContexts.get(merchantId, paymentId, clock.now());
    },
  };

  const users: UserStore = {
    async create(user) {
      if (db.has('emails', user.email)) return 'exists';
      db.set('emails', user.email, user.userId);
      db.set('users', user.userId, user);
      return 'created';
    },
    async findByEmail(email) {
      const userId = db.get<string>('emails', email);
      return userId === undefined ? undefined : db.get<UserRecord>('users', userId);
    },
    async findById(userId) {
      return db.get<UserRecord>('users', userId);
    },
    async setCurrentMerchant(userId, merchantId) {
      const user = db.get<UserRecord>('users', userId);
      if (user !== undefined) db.set('users', userId, { ...user, currentMerchantId: merchantId });
    },
    async addMembership(membership) {
      const list = db.get<Membership[]>('memberships', membership.userId) ?? [];
      const rest = list.filter((m) => m.merchantId !== membership.merchantId);
      db.set('memberships', membership.userId, [...rest, membership]);
    },
    async memberships(userId) {
      return db.get<Membership[]>('memberships', userId) ?? [];
    },
    // No await between the read and the write: atomic on the one event loop.
    async addMembershipIfAbsent(membership) {
      const list = db.get<Membership[]>('memberships', membership.userId) ?? [];
      if (list.some((m) => m.merchantId === membership.merchantId)) return 'exists';
      db.set('memberships', membership.userId, [...list, membership]);
      return 'added';
    },
    // O(users): the embedded store serves one operator team, not a user directory.
    async membersOf(merchantId) {
      const members: Membership[] = [];
      for (const [, list] of db.entries<Membership[]>('memberships')) members.push(...list.filter((m) => m.merchantId === merchantId));
      return members;
    },
    async roleIn(userId, merchantId) {
      return (db.get<Membership[]>('memberships', userId) ?? []).find((m) => m.merchantId === merchantId)?.role;
    },
    async removeMembership(userId, merchantId) {
      const list = db.get<Membership[]>('memberships', userId) ?? [];
      const rest = list.filter((m) => m.merchantId !== merchantId);
      if (rest.length === list.length) return false;
      db.set('memberships', userId, rest);
      return true;
    },
  };

  const apiKeys: ApiKeyStore = {
    async create(record) {
      db.set('apiKeys', record.keyId, record);
      db.set('apiKeyHashes', record.keyHash, record.keyId);
    },
    async findByHash(keyHash) {
      const keyId = db.get<string>('apiKeyHashes', keyHash);
      return keyId === undefined ? undefined : db.get<ApiKeyRecord>('apiKeys', keyId);
    },
    async findById(keyId) {
      return db.get<ApiKeyRecord>('apiKeys', keyId);
    },
    async listByMerchant(merchantId) {
      const out: ApiKeyRecord[] = [];
      for (const [, record] of db.entries<ApiKeyRecord>('apiKeys')) if (record.merchantId === merchantId) out.push(record);
      return out.sort((a, b) => a.createdAt - b.createdAt);
    },
    async revoke(keyId) {
      const record = db.get<ApiKeyRecord>('apiKeys', keyId);
      if (record === undefined) return undefined;
      if (record.isActive) db.set('apiKeys', keyId, { ...record, isActive: false });
      return record;
    },
    async setPolicy(keyId, policy) {
      const record = db.get<ApiKeyRecord>('apiKeys', keyId);
      if (record === undefined) return undefined;
      const updated: ApiKeyRecord = { ...record, policy };
      db.set('apiKeys', keyId, updated);
      return updated;
    },
  };

  const sessions: SessionStore = {
    async revokeToken(tokenId, expiresAtMs) {
      db.set('revokedTokens', tokenId, 1, Math.max(1000, expiresAtMs - clock.now()));
    },
    async isTokenRevoked(tokenId) {
      return db.has('revokedTokens', tokenId);
    },
    async recordLoginFailure(subject, windowSeconds) {
      const count = (db.get<number>('loginFailures', subject) ?? 0) + 1;
      db.set('loginFailures', subject, count, windowSeconds * 1000);
      return count;
    },
    async loginFailures(subject) {
      return db.get<number>('loginFailures', subject) ?? 0;
    },
    async clearLoginFailures(subject) {
      db.delete('loginFailures', subject);
    },
    async putOneTimeCode(purpose, codeHash, payload, ttlMs) {
      db.set('oneTimeCodes', `${purpose}:${codeHash}`, payload, Math.max(1, ttlMs));
    },
    // No await between the read and the delete: atomic in one process.
    async consumeOneTimeCode(purpose, codeHash) {
      const key = `${purpose}:${codeHash}`;
      const payload = db.get<string>('oneTimeCodes', key);
      if (payload !== undefined) db.delete('oneTimeCodes', key);
      return payload;
    },
  };

  const activeOf = (createdBy: string): ActiveRoutingAlgorithms => db.get<ActiveRoutingAlgorithms>('routingActive', createdBy) ?? {};
  const isActive = (createdBy: string, id: string): boolean => Object.values(activeOf(createdBy)).includes(id);

  const activeRecords = (createdBy: string): RoutingAlgorithmRecord[] => {
    const out: RoutingAlgorithmRecord[] = [];
    for (const id of activeIdsInOrder(activeOf(createdBy))) {
      const record = db.get<RoutingAlgorithmRecord>('routingAlgorithms', id);
      if (record !== undefined) out.push(record);
    }
    return out;
  };

  // Every method runs without an await in between its reads and writes: atomic in one process.
  const routingRules: RoutingRuleStore = {
    async create(record) {
      if (db.has('routingAlgorithms', record.id)) return 'exists';
      db.set('routingAlgorithms', record.id, record);
      return 'created';
    },
    async get(id) {
      return db.get<RoutingAlgorithmRecord>('routingAlgorithms', id);
    },
    async list(createdBy) {
      const out: RoutingAlgorithmRecord[] = [];
      for (const [, record] of db.entries<RoutingAlgorithmRecord>('routingAlgorithms')) if (record.createdBy === createdBy) out.push(record);
      return out.sort((a, b) => a.createdAt - b.createdAt);
    },
    async update(record) {
      const current = db.get<RoutingAlgorithmRecord>('routingAlgorithms', record.id);
      if (current === undefined || current.createdBy !== record.createdBy) return 'missing';
      if (isActive(current.createdBy, current.id)) return 'active';
      db.set('routingAlgorithms', record.id, record);
      return 'updated';
    },
    async delete(createdBy, id) {
      const current = db.get<RoutingAlgorithmRecord>('routingAlgorithms', id);
      if (current === undefined || current.createdBy !== createdBy) return 'missing';
      if (isActive(createdBy, id)) return 'active';
      db.delete('routingAlgorithms', id);
      return 'deleted';
    },
    async activate(createdBy, slot, id) {
      db.set('routingActive', createdBy, { ...activeOf(createdBy), [slot]: id });
    },
    async deactivate(createdBy, slot, id) {
      const active = activeOf(createdBy);
      if (active[slot] !== id) return false;
      const { [slot]: _removed, ...rest } = active;
      if (Object.keys(rest).length === 0) db.delete('routingActive', createdBy);
      else db.set('routingActive', createdBy, rest);
      return true;
    },
    async activeIds(createdBy) {
      return activeOf(createdBy);
    },
    async loadActive(createdBy) {
      return activeRecords(createdBy);
    },
    heldActive: (createdBy) => activeRecords(createdBy),
    // Both tables only grow their versions, so the sum changes whenever either does.
    heldVersion: () => db.version('routingAlgorithms') + db.version('routingActive'),
  };

  return {
    merchants,
    configs,
    scores,
    users,
    apiKeys,
    sessions,
    credentials: createMemoryCredentialStore(db, () => clock.now()),
    routingRules,
    batches: createMemoryBatchStore(db, () => clock.now()),
    usage: createMemoryUsageStore(db),
    responseCache: createMemoryResponseCache({ ...defaultResponseCacheBounds, ...options.responseCache, clock }),
    responses: createMemoryResponseStore(db),
    conversations: createMemoryConversationStore({ maxSessions: options.maxConversationSessions ?? defaultMaxConversationSessions, clock }),
    cacheAffinity: createMemoryCacheAffinityStore({ clock }),
    sticky: createMemoryStickyStore({ clock }),
    mcpSessions: createMemoryMcpSessionStore({ clock }),
    async publishInvalidation(key) {
      announce(key);
    },
    onInvalidation(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async probe() {
      const key = `probe-${clock.now()}-${Math.random()}`;
      db.set('probe', key, 1);
      if (!db.has('probe', key)) return { ok: false, failedStage: 'read' };
      if (!db.delete('probe', key)) return { ok: false, failedStage: 'delete' };
      return { ok: true };
    },
    isAvailable: () => true,
    async close() {
      clearInterval(sweeper);
      db.close();
    },
  };
}
