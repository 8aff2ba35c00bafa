import type { ApiKeyStore } from './state/api-key-store.js';
import type { BatchStore } from './state/batch-store.js';
import type { CacheAffinityStore } from './state/cache-affinity-store.js';
import type { ConfigStore } from './state/config-store.js';
import type { ConversationStore } from './state/conversation-store.js';
import type { CredentialStore } from './state/credential-store.js';
import type { MerchantStore } from './state/merchant-store.js';
import type { ResponseCache } from './state/response-cache.js';
import type { ResponseStore } from './state/response-store.js';
import type { RoutingRuleStore } from './state/routing-rule-store.js';
import type { ScoreStore } from './state/score-store.js';
import type { SessionStore } from './state/session-store.js';
import type { StickyStore } from './state/sticky-store.js';
import type { UsageStore } from './state/usage-store.js';
import type { UserStore } from './state/user-store.js';

/*
 * One file per sub-store under ./state/, each with the records it keeps (ARCHITECTURE.md: a
 * store's record types belong to the port, so no port imports a feature folder). The names are
 * re-exported here because most of the domain reaches them as "the state store's".
 */
export type { ApiKeyRecord, ApiKeyStore } from './state/api-key-store.js';
export type {
  BatchCounts,
  BatchItem,
  BatchOptions,
  BatchRecord,
  BatchSnapshot,
  BatchStore,
  ItemFailure,
  ItemOutcome,
  ItemStatus,
  ItemUsage,
} from './state/batch-store.js';
export type { AffinityHolder, CacheAffinityKey, CacheAffinityStore } from './state/cache-affinity-store.js';
export type { ConfigName, ConfigStore, MerchantConfigs } from './state/config-store.js';
export type {
  ConversationBounds,
  ConversationKey,
  ConversationMessage,
  ConversationRole,
  ConversationSnapshot,
  ConversationStore,
  StoredConversationMessage,
} from './state/conversation-store.js';
export type { CredentialStore, OneTimeTokenPurpose, SessionCutoff } from './state/credential-store.js';
export type { MerchantAccount, MerchantStore } from './state/merchant-store.js';
export type {
  CachedCompletion,
  CachedNativeAnswer,
  CompletionUsage,
  OpenAiFinishReason,
  OpenAiToolCall,
  ResponseCache,
  ResponseCacheKey,
} from './state/response-cache.js';
export type { ResponseStore, StoredResponse, StoredResponseItem } from './state/response-store.js';
export { algorithmForValues, experimentSlotOf } from './state/routing-rule-store.js';
export type {
  ActiveRoutingAlgorithms,
  ActiveSlot,
  AlgorithmFor,
  ExperimentSlot,
  RoutingAlgorithmRecord,
  RoutingRuleStore,
} from './state/routing-rule-store.js';
export type { DecisionContext, EliminationScore, ScoreSelection, ScoreStore, WindowRead } from './state/score-store.js';
export type { SessionStore } from './state/session-store.js';
export type { StickyAdjustment, StickyCustomer, StickyStore } from './state/sticky-store.js';
export type { Admission, AdmissionRequest, EndUserAdmission, KeyUsage, LimitHolder, SpendRecord, UsageStore } from './state/usage-store.js';
export type { Membership, MerchantRole, UserRecord, UserStore } from './state/user-store.js';

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
  /** Password changes, one-time tokens and per-user session cutoffs (issue 25). */
  readonly credentials: CredentialStore;
  readonly routingRules: RoutingRuleStore;
  readonly batches: BatchStore;
  /** Per-key limit counters (issue 14): never cached, atomic across replicas. */
  readonly usage: UsageStore;
  /** The gateway's response cache (issue 14): never cached again in front of the store, shared by every replica. */
  readonly responseCache: ResponseCache;
  /** Stored Responses API responses (issue 23): written once, read by id; never cached in front of the store. */
  readonly responses: ResponseStore;
  /** The toolkit's conversation memory (issue 26): per merchant and session, bounded, expiring; never cached in front of the store. */
  readonly conversations: ConversationStore;
  /** Which route-group candidate holds each conversation's prompt cache (issue 34): expiring, shared by every replica; never cached in front of the store. */
  readonly cacheAffinity: CacheAffinityStore;
  /** Per-customer net success counts for sticky routing (issue 36): written by feedback, read by decisions; never cached in front of the store. */
  readonly sticky: StickyStore;

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
