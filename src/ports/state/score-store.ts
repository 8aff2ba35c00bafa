import type { PaymentDimensions } from '../../generated/schema-types.js';

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
  readonly payment: PaymentDimensions;
  /** The customer and payment-method combination, when sticky routing was on for the decision (its feedback moves their counts). */
  readonly sticky?: { readonly customerKey: string; readonly combo: string };
}

/**
 * Which learned scores {@link ScoreStore.deleteScores} removes: one merchant's, picked by key prefix
 * (the domain builds them; see src/feedback/reset-gateway-scores.ts).
 */
export interface ScoreSelection {
  /** Success-rate window keys starting with this (`gw_sr_v3_score_<merchant>_`). */
  readonly windowKeyPrefix: string;
  /** Elimination keys starting with this (`gw_score_<merchant>_`). */
  readonly eliminationKeyPrefix: string;
  /**
   * The final say on a key a prefix matched: merchant ids may contain `_`, so the prefix of merchant
   * `m` also matches the keys of merchant `m_1`.
   */
  owns(key: string): boolean;
}

/**
 * Success-rate windows, elimination scores and decision contexts: what decisions read and feedback
 * writes. Every write is idempotent by its dedupe key, because events are delivered at least once.
 */
export interface ScoreStore {
  /** The last `bucketSize` outcomes of each window key; undefined where a window has no history. */
  readWindows(keys: readonly string[], bucketSize: number): Promise<readonly (WindowRead | undefined)[]>;

  /**
   * The same read, answered synchronously: offered only by a store that answers from process memory
   * (the embedded one), so a decision makes no promise and waits for no turn of the event loop. A
   * remote store leaves it out. Offered together with {@link readEliminationsNow}.
   */
  readonly readWindowsNow?: (keys: readonly string[], bucketSize: number) => readonly (WindowRead | undefined)[];

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

  /** {@link readEliminations} answered synchronously, by the store that offers {@link readWindowsNow}. */
  readonly readEliminationsNow?: (keys: readonly string[]) => readonly (EliminationScore | undefined)[];

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

  /**
   * Deletes the success-rate windows and elimination scores a selection picks and answers how many
   * it deleted (POST /gateway-score/reset). Not atomic across keys: a feedback applied meanwhile may
   * land before or after. The next feedback on a deleted window starts it afresh (optimistic seed).
   *
   * @remarks Dedupe markers stay until their TTL, so feedback redelivered after a reset still counts
   * at most once; decision contexts stay too, so feedback on payments decided before the reset still
   * finds its windows.
   */
  deleteScores(selection: ScoreSelection): Promise<number>;

  putDecisionContext(context: DecisionContext, ttlSeconds: number): Promise<void>;
  getDecisionContext(merchantId: string, paymentId: string): Promise<DecisionContext | undefined>;
}
