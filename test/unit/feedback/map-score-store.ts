import { pushOutcome, readOutcomeWindow, type Outcome } from '../../../src/feedback/outcome-window.js';
import type { DecisionContext, EliminationScore, ScoreStore, WindowRead } from '../../../src/ports/state-store.js';

/**
 * A small Map-backed ScoreStore for unit tests of the feedback math. TTLs are recorded, not enforced
 * (tests move no real time); dedupe marks share one space, like the memory adapter's.
 */
export interface MapScoreStore extends ScoreStore {
  readonly windows: Map<string, Outcome[]>;
  readonly eliminations: Map<string, EliminationScore>;
  readonly contexts: Map<string, { context: DecisionContext; ttlSeconds: number }>;
  readonly dedupe: Set<string>;
  readonly calls: { recordOutcome: number; applyElimination: number };
}

export function createMapScoreStore(): MapScoreStore {
  const windows = new Map<string, Outcome[]>();
  const eliminations = new Map<string, EliminationScore>();
  const contexts = new Map<string, { context: DecisionContext; ttlSeconds: number }>();
  const dedupe = new Set<string>();
  const calls = { recordOutcome: 0, applyElimination: 0 };
  const readWindow = (key: string, bucketSize: number): WindowRead | undefined => {
    const window = windows.get(key);
    return window === undefined ? undefined : readOutcomeWindow(window, bucketSize);
  };
  return {
    windows,
    eliminations,
    contexts,
    dedupe,
    calls,
    async readWindows(keys, bucketSize) {
      return keys.map((key) => readWindow(key, bucketSize));
    },
    async recordOutcome(input) {
      calls.recordOutcome += 1;
      if (dedupe.has(input.dedupeKey)) {
        return { applied: false, window: readWindow(input.windowKey, input.bucketSize) ?? { successes: 0, length: 0 } };
      }
      dedupe.add(input.dedupeKey);
      const next = pushOutcome(windows.get(input.windowKey), input.outcome, input.bucketSize);
      windows.set(input.windowKey, next);
      return { applied: true, window: readOutcomeWindow(next, input.bucketSize) };
    },
    async readEliminations(keys) {
      return keys.map((key) => eliminations.get(key));
    },
    async applyElimination(input) {
      calls.applyElimination += 1;
      const current = eliminations.get(input.key) ?? { score: 1, transactionCount: 0, updatedAt: input.nowMs };
      if (dedupe.has(input.dedupeKey)) return { applied: false, score: current };
      dedupe.add(input.dedupeKey);
      const next: EliminationScore = {
        score: Math.min(1, Math.max(0, current.score * input.factor)),
        transactionCount: current.transactionCount + (input.countsTransaction ? 1 : 0),
        updatedAt: input.nowMs,
      };
      eliminations.set(input.key, next);
      return { applied: true, score: next };
    },
    async putDecisionContext(context, ttlSeconds) {
      contexts.set(`${context.merchantId}:${context.paymentId}`, { context, ttlSeconds });
    },
    async getDecisionContext(merchantId, paymentId) {
      return contexts.get(`${merchantId}:${paymentId}`)?.context;
    },
  };
}
