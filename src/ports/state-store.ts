import type {
  DebitRoutingConfig,
  EliminationConfig,
  GatewayCapability,
  SrDimensionConfig,
  SuccessRateConfig,
} from '../generated/schema-types.js';
import type { BudgetPeriod, KeyLimits, KeyPolicy, LimitName } from '../governance/key-policy.js';
import type { BatchItem, BatchRecord, BatchSnapshot, ItemOutcome } from '../generation/batch/batch-record.js';
import type { CachedCompletion } from '../generation/gateway/cached-completion.js';

/**
 * Hot state the API reads on every decision and the workers write: merchants, their configs,
 * success-rate windows, elimination scores, decision contexts and operator credentials.
 * Grouped into small stores that speak routing words; an adapter (memory or Redis) provides all.
 *
 * @remarks No transactions or connection handles cross this port: each method is atomic on its own
 * (Redis adapters use Lua/MULTI), which is all the domain needs.
 */
export interface StateStore {
  readonly merchants: MerchantStore;
  readonly configs: ConfigStore;
  readonly scores: ScoreStore;
  readonly users: UserStore;
  readonly apiKeys: ApiKeyStore;
  readonly sessions: SessionStore;
  readonly routingRules: RoutingRuleStore;
  readonly batches: BatchStore;
  /** Per-key limit counters (issue 14): never cached, atomic across replicas. */
  readonly usage: UsageStore;
  /** The gateway's response cache (issue 14): never cached again in front of the store, shared by every replica. */
  readonly responseCache: ResponseCache;

  /**
   * Cache invalidation that reaches every API replica sharing this store (Redis pub/sub, or
   * direct calls in the embedded store). Listeners get the invalidated cache key. The caching
   * decorator (src/adapters/cache/) publishes on every write it passes through; routes never do.
   */
  publishInvalidation(key: string): Promise<void>;
  onInvalidation(listener: (key: string) => void): () => void;

  /** Write → read → delete probe for /health/diagnostics; reports the first failing stage. */
  probe(): Promise<StoreProbe>;

  /** True while the backing store answers; false while it is down (the API degrades, logs, recovers). */
  isAvailable(): boolean;

  /** Flushes pending writes and releases connections. */
  close(): Promise<void>;
}

export type ProbeStage = 'connection' | 'write' | 'read' | 'delete';
export type StoreProbe = { readonly ok: true } | { readonly ok: false; readonly failedStage: ProbeStage };

// ---------------------------------------------------------------- merchants and configs

export interface MerchantAccount {
  readonly merchantId: string;
  readonly merchantName: string | null;
  /** Raw legacy column echoed by GET /merchant-account; elimination config is kept separately. */
  readonly deciderInput: string | null;
  readonly createdAt: number;
}

export interface MerchantStore {
  get(merchantId: string): Promise<MerchantAccount | undefined>;
  /** Creates the account unless the id is taken. */
  create(account: MerchantAccount): Promise<'created' | 'exists'>;
  /** Removes the account; false when there was none. Configs stay (decision-engine compatibility). */
  delete(merchantId: string): Promise<boolean>;
}

/** Every per-merchant config document, by name. */
export interface MerchantConfigs {
  successRate: SuccessRateConfig;
  elimination: EliminationConfig;
  debitRouting: DebitRoutingConfig;
  debitRoutingEnabled: boolean;
  srDimension: SrDimensionConfig;
  /** Per-gateway capabilities for the legacy /decision_gateway filter chain, in configuration order. */
  gatewayCapabilities: readonly GatewayCapability[];
  /** The OpenAI-compatible gateway's route groups, by name (learning router). */
  llmRouteGroups: readonly import('../generation/gateway/route-group-types.js').RouteGroup[];
  /** Limits and cache setting of the merchant's keys that set none of their own (issue 14). */
  apiKeyDefaults: KeyPolicy;
}
export type ConfigName = keyof MerchantConfigs;

export interface ConfigStore {
  get<K extends ConfigName>(merchantId: string, name: K): Promise<MerchantConfigs[K] | undefined>;
  /**
   * Writes a config. `create` fails with 'exists' when present, `update` with 'missing' when absent,
   * `upsert` always writes.
   */
  put<K extends ConfigName>(
    merchantId: string,
    name: K,
    value: MerchantConfigs[K],
    mode: 'create' | 'update' | 'upsert',
  ): Promise<'written' | 'exists' | 'missing'>;
  delete(merchantId: string, name: ConfigName): Promise<boolean>;
}

// ---------------------------------------------------------------- success-rate windows and elimination

/** A window's outcome history: `successes` of the last `length` outcomes (length ≤ bucket size). */
export interface WindowRead {
  readonly successes: number;
  readonly length: number;
}

export interface EliminationScore {
  readonly score: number;
  readonly transactionCount: number;
  readonly updatedAt: number;
}

/** What a decision leaves behind so that later feedback on the same payment finds its windows. */
export interface DecisionContext {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly decidedAt: number;
  readonly decisionEventId: string;
  readonly windowDimension: string | null;
  readonly eliminationDimension: string;
  readonly eliminationEnabled: boolean;
  readonly routingApproach: string;
  readonly orderType: string;
  readonly payment: import('../generated/schema-types.js').PaymentDimensions;
}

export interface ScoreStore {
  /** The last `bucketSize` outcomes of each window key; undefined where a window has no history. */
  readWindows(keys: readonly string[], bucketSize: number): Promise<readonly (WindowRead | undefined)[]>;

  /**
   * Pushes one outcome (1 success, 0 failure) onto a window, keeping the newest `bucketSize`.
   * A window that does not exist yet is first seeded with `bucketSize` successes (optimistic start).
   * Idempotent: when `dedupeKey` was already applied (within `dedupeTtlSeconds`), nothing changes.
   */
  recordOutcome(input: {
    readonly windowKey: string;
    readonly outcome: 0 | 1;
    readonly bucketSize: number;
    readonly dedupeKey: string;
    readonly dedupeTtlSeconds: number;
    readonly windowTtlSeconds: number;
  }): Promise<{ readonly applied: boolean; readonly window: WindowRead }>;

  readEliminations(keys: readonly string[]): Promise<readonly (EliminationScore | undefined)[]>;

  /**
   * Multiplies an elimination score by `factor` (clamped to [0, 1]); an absent or expired key starts
   * at 1.0. `countsTransaction` increments the transaction count. Idempotent by `dedupeKey`.
   */
  applyElimination(input: {
    readonly key: string;
    readonly factor: number;
    readonly countsTransaction: boolean;
    readonly nowMs: number;
    readonly ttlMs: number;
    readonly dedupeKey: string;
    readonly dedupeTtlSeconds: number;
  }): Promise<{ readonly applied: boolean; readonly score: EliminationScore }>;

  putDecisionContext(context: DecisionContext, ttlSeconds: number): Promise<void>;
  getDecisionContext(merchantId: string, paymentId: string): Promise<DecisionContext | undefined>;
}

// ---------------------------------------------------------------- operator credentials (issue: auth)

export type MerchantRole = 'admin' | 'member';

export interface UserRecord {
  readonly userId: string;
  readonly email: string;
  readonly passwordHash: string;
  /** The merchant the user's sessions start in; '' until the user joins or onboards one. */
  readonly currentMerchantId: string;
  readonly isActive: boolean;
  readonly createdAt: number;
}

export interface Membership {
  readonly userId: string;
  readonly merchantId: string;
  readonly role: MerchantRole;
}

export interface UserStore {
  /** Creates a user; 'exists' when the email is taken (emails compared verbatim). */
  create(user: UserRecord): Promise<'created' | 'exists'>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  findById(userId: string): Promise<UserRecord | undefined>;
  setCurrentMerchant(userId: string, merchantId: string): Promise<void>;
  addMembership(membership: Membership): Promise<void>;
  memberships(userId: string): Promise<readonly Membership[]>;
}

export interface ApiKeyRecord {
  readonly keyId: string;
  readonly merchantId: string;
  /** SHA-256 hex of the raw key; the raw key is never stored. */
  readonly keyHash: string;
  readonly keyPrefix: string;
  readonly description: string | null;
  readonly isActive: boolean;
  readonly createdAt: number;
  /** The key's own limits and cache setting; absent: the merchant's defaults apply. */
  readonly policy?: KeyPolicy;
}

export interface ApiKeyStore {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  findById(keyId: string): Promise<ApiKeyRecord | undefined>;
  listByMerchant(merchantId: string): Promise<readonly ApiKeyRecord[]>;
  /** Marks the key inactive; returns the record as it was, or undefined when unknown. */
  revoke(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** Replaces the key's limits and cache setting; the updated record, or undefined when unknown. */
  setPolicy(keyId: string, policy: KeyPolicy): Promise<ApiKeyRecord | undefined>;
}

// ---------------------------------------------------------------- per-key limits (issue 14)

export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly limit: LimitName; readonly retryAfterS: number };

export interface AdmissionRequest {
  /** Names this request's concurrency slot and budget reservation until `release`. */
  readonly leaseId: string;
  /** The most this request can cost (max_tokens × price): held against the budget until released. */
  readonly reserveUsd: number;
  readonly nowMs: number;
  /** A lease not released by then (its replica died) stops counting. */
  readonly leaseTtlMs: number;
}

export interface SpendRecord {
  /** The `llm.call` event id: a record counts once however often it is reported. */
  readonly eventId: string;
  readonly tokens: number;
  readonly costUsd: number;
  readonly atMs: number;
}

export interface KeyUsage {
  readonly requestsThisMinute: number;
  readonly tokensThisMinute: number;
  readonly inFlight: number;
  readonly spendThisPeriodUsd: number;
  readonly reservedUsd: number;
}

export interface UsageStore {
  /**
   * Admits one request of `keyId` under `limits`, or names the limit that refuses it: one atomic
   * step across replicas (a Redis script), so `rpm: 50` admits exactly 50 of 100 parallel requests.
   */
  admit(keyId: string, limits: KeyLimits, request: AdmissionRequest): Promise<Admission>;
  /** Ends an admitted request: frees its slot and its budget reservation. Idempotent. */
  release(keyId: string, leaseId: string): Promise<void>;
  /**
   * Counts a call's tokens and cost for the key, once per event id: the request reports its own
   * calls as they end, and the spine's `llm.call` events reconcile what a dead replica never did.
   * Returns false when the event had been counted already.
   */
  recordSpend(keyId: string, spend: SpendRecord): Promise<boolean>;
  usage(keyId: string, period: BudgetPeriod, nowMs: number): Promise<KeyUsage>;
}

// ---------------------------------------------------------------- gateway response cache (issue 14)

/** Where one cached answer lives: always under its merchant, so two merchants never share an entry. */
export interface ResponseCacheKey {
  readonly merchantId: string;
  /** SHA-256 (hex) of the normalized request (src/generation/gateway/response-cache-key.ts). */
  readonly requestHash: string;
}

/**
 * Finished chat answers of the OpenAI-compatible gateway, by merchant and normalized request, each
 * for the TTL of the key that stored it. Entries are the answer's content, tool calls, finish
 * reason, usage and model, never wire bytes, so a streamed request can be answered from a plain
 * answer and the other way round.
 *
 * @remarks A cache, not a store of record: an entry may be gone before its TTL (the embedded
 * adapter evicts the least recently used beyond its bounds, Redis under memory pressure), and the
 * gateway treats a failed read as a miss. No delete or listing: nothing needs them, and a key's TTL
 * bounds how long an answer is reused.
 */
export interface ResponseCache {
  /** The answer stored under `key`, or undefined when there is none or it expired. */
  get(key: ResponseCacheKey): Promise<CachedCompletion | undefined>;
  /** Stores (or replaces) the answer under `key` for `ttlS` seconds. */
  set(key: ResponseCacheKey, value: CachedCompletion, ttlS: number): Promise<void>;
}

export interface SessionStore {
  /** Denies a token id until `expiresAtMs` (its own expiry); visible to every replica at once. */
  revokeToken(tokenId: string, expiresAtMs: number): Promise<void>;
  isTokenRevoked(tokenId: string): Promise<boolean>;
  /**
   * Counts a failed login for `subject` (an account or a source address) inside a sliding window;
   * returns the failures counted so far in the window.
   */
  recordLoginFailure(subject: string, windowSeconds: number): Promise<number>;
  loginFailures(subject: string): Promise<number>;
  clearLoginFailures(subject: string): Promise<void>;
}

// ---------------------------------------------------------------- routing rules (euclid, issue 7)

export const algorithmForValues = ['payment', 'payout', 'three_ds_authentication'] as const;
export type AlgorithmFor = (typeof algorithmForValues)[number];

/** One stored routing algorithm (decision-engine `routing_algorithm` row). `createdBy` is the merchant. */
export interface RoutingAlgorithmRecord {
  readonly id: string;
  readonly createdBy: string;
  readonly name: string;
  readonly description: string;
  readonly algorithmFor: AlgorithmFor;
  /** The parsed, normalised algorithm (`{type, data}`), as returned by parseRoutingAlgorithm. */
  readonly algorithm: import('../routing-rules/routing-algorithm.js').RoutingAlgorithm;
  /** Stored, never returned (1.4.x behaviour). */
  readonly metadata: unknown;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly modifiedAt: number;
}

/** The active mapping of one merchant: at most one algorithm per `algorithmFor`. */
export type ActiveRoutingAlgorithms = Readonly<Partial<Record<AlgorithmFor, string>>>;

export interface RoutingRuleStore {
  /** Stores a new algorithm; 'exists' when the id is taken (client-supplied `rule_id`). */
  create(record: RoutingAlgorithmRecord): Promise<'created' | 'exists'>;
  get(id: string): Promise<RoutingAlgorithmRecord | undefined>;
  /** Every algorithm of a merchant, oldest first. */
  list(createdBy: string): Promise<readonly RoutingAlgorithmRecord[]>;
  /**
   * Replaces name, description, algorithm and modifiedAt of an existing record, atomically refusing
   * while it is active for its owner.
   */
  update(record: RoutingAlgorithmRecord): Promise<'updated' | 'missing' | 'active'>;
  /** Deletes an algorithm of `createdBy`, atomically refusing while it is active. */
  delete(createdBy: string, id: string): Promise<'deleted' | 'missing' | 'active'>;
  /** Makes `id` the active algorithm of (createdBy, algorithmFor), replacing any other. */
  activate(createdBy: string, algorithmFor: AlgorithmFor, id: string): Promise<void>;
  /** Clears the mapping of (createdBy, algorithmFor) when it points at `id`; false when it did not. */
  deactivate(createdBy: string, algorithmFor: AlgorithmFor, id: string): Promise<boolean>;
  /** The merchant's active mapping. */
  activeIds(createdBy: string): Promise<ActiveRoutingAlgorithms>;
  /**
   * The merchant's active algorithms, `payment` first (what evaluation and decisions read; the
   * caching decorator serves it from memory until an invalidation).
   */
  loadActive(createdBy: string): Promise<readonly RoutingAlgorithmRecord[]>;
}

// ---------------------------------------------------------------- batch generation jobs (issue 9)

/**
 * Batches of generation prompts and the outcome of each item. The queue only carries
 * `(batchId, index)`; prompts, outcomes and progress live here, so they survive a worker or API
 * restart and an embedded worker can re-enqueue what is unfinished.
 *
 * @remarks Outcomes are write-once (`finishItem`): that is what makes a redelivered job harmless.
 * Everything of a batch expires together, `ttlSeconds` after its creation.
 */
export interface BatchStore {
  /** Stores a batch and its prompts (prompts[i] is item i); 'exists' when the id is taken. */
  create(record: BatchRecord, prompts: readonly string[], ttlSeconds: number): Promise<'created' | 'exists'>;
  get(batchId: string): Promise<BatchSnapshot | undefined>;
  item(batchId: string, index: number): Promise<BatchItem | undefined>;
  /** Items `offset`…`offset+limit-1` (fewer at the end), in index order. */
  items(batchId: string, offset: number, limit: number): Promise<readonly BatchItem[]>;
  /** Indexes of the items without an outcome, ascending. */
  pendingIndexes(batchId: string): Promise<readonly number[]>;
  /**
   * Records an item's outcome and counts it, atomically, unless it already has one (the first
   * outcome wins). 'missing' for an unknown batch or an index outside it.
   */
  finishItem(batchId: string, index: number, outcome: ItemOutcome): Promise<'recorded' | 'already-finished' | 'missing'>;
  /** Marks the batch cancelled at `atMs` (the first cancel wins). */
  cancel(batchId: string, atMs: number): Promise<'cancelled' | 'already-cancelled' | 'missing'>;
  /** Ids of batches that still have items without an outcome (what a starting worker resumes). */
  unfinished(): Promise<readonly string[]>;
}
