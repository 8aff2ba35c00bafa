import type { FeedbackReceivedV1 } from '../generated/schema-types.js';
import type { DecisionContext } from '../ports/state/score-store.js';
import type { StickyStore } from '../ports/state/sticky-store.js';
import { defaultStickySettings, type StickySettings } from '../decision/sticky/sticky-settings.js';
import { failureStatuses } from './classify-status.js';

/**
 * The statuses that add to a customer's habit: the payment itself went through. Narrower than the
 * SR success set on purpose (the peer's #420): lifecycle statuses after a success (voids, refunds,
 * capture failures) would let a late webhook count an earlier attempt's connector again.
 */
export const stickySuccessStatuses: ReadonlySet<string> = new Set(['CHARGED', 'AUTHORIZED', 'PARTIAL_CHARGED']);

export interface LearnStickyHabitDeps {
  readonly sticky: StickyStore;
  readonly settings?: StickySettings;
  readonly dedupeTtlSeconds: number;
}

/** What one feedback did to the customer's counts; undefined when its decision had sticky routing off. */
export type StickyLearning = 'recorded' | 'decremented' | 'unchanged';

/**
 * Moves the customer's net success count on the feedback's gateway (sticky routing, issue 36): +1
 * for a success status, −1 for a gateway failure status (floored at 0), nothing for anything else.
 * Only for decisions made with sticky routing on (their context carries the customer key), from the
 * same `feedback.received` that moves the SR windows, after its GSM check (a failure that is not the
 * gateway's fault does not erode a habit). Idempotent per payment, gateway and direction, so a
 * redelivered feedback counts once (the peer counts every delivery).
 */
export async function learnStickyHabit(
  merchantId: string,
  context: DecisionContext,
  feedback: Pick<FeedbackReceivedV1, 'paymentId' | 'gateway' | 'status'>,
  deps: LearnStickyHabitDeps,
): Promise<StickyLearning | undefined> {
  const sticky = context.sticky;
  if (sticky === undefined) return undefined;
  const delta = stickySuccessStatuses.has(feedback.status) ? 1 : failureStatuses.has(feedback.status) ? -1 : undefined;
  if (delta === undefined) return 'unchanged';
  const settings = deps.settings ?? defaultStickySettings;
  const result = await deps.sticky.adjust({
    customer: { merchantId, customerKey: sticky.customerKey },
    combo: sticky.combo,
    connector: feedback.gateway,
    delta,
    ttlSeconds: settings.keyTtlSeconds,
    maxEntries: settings.maxEntriesPerCustomer,
    dedupeKey: `${merchantId}:${feedback.paymentId}:${feedback.gateway}:${delta > 0 ? 'success' : 'failure'}`,
    dedupeTtlSeconds: deps.dedupeTtlSeconds,
  });
  if (!result.applied) return 'unchanged';
  return delta > 0 ? 'recorded' : 'decremented';
}
