/**
 * Transaction statuses that mean the payment went through (§4.1 step 2). Reward the gateway.
 * Includes post-success states (voids, refunds, capture failures) because the gateway did authorise.
 */
export const successStatuses: ReadonlySet<string> = new Set([
  'CHARGED',
  'AUTHORIZED',
  'COD_INITIATED',
  'VOIDED',
  'VOID_INITIATED',
  'CAPTURE_INITIATED',
  'CAPTURE_FAILED',
  'VOID_FAILED',
  'AUTO_REFUNDED',
  'PARTIAL_CHARGED',
  'TO_BE_CHARGED',
]);

/**
 * Statuses that mean the gateway failed the payment (§4.1 step 3). `DECLINED` is deliberately
 * absent: upstream treats it as "other", i.e. like a pending status.
 */
export const failureStatuses: ReadonlySet<string> = new Set(['AUTHENTICATION_FAILED', 'AUTHORIZATION_FAILED', 'JUSPAY_DECLINED', 'FAILURE']);

/** Pending statuses that also cost the gateway elimination score while still pending (§4.2). */
export const eliminationPenaltyStatuses: ReadonlySet<string> = new Set(['PENDING_VBV', 'STARTED']);

export type FeedbackOutcome = 'success' | 'failure' | 'pending';

/**
 * The API-side reading of a feedback status, carried on `feedback.received` for analytics.
 * Everything that is neither a success nor a failure (STARTED, PENDING_VBV, VBV_SUCCESSFUL,
 * AUTHORIZING, NOP, PENDING, DECLINED) is pending.
 */
export function outcomeOf(status: string): FeedbackOutcome {
  if (successStatuses.has(status)) return 'success';
  if (failureStatuses.has(status)) return 'failure';
  return 'pending';
}

/** What feedback does to a gateway: reward, SR failure (window + 0), or pending penalty (elimination only). */
export type ScoringType = 'reward' | 'penalise_srv3' | 'penalise';

export interface ScoringTypeInput {
  readonly status: string;
  readonly enforceDynamicRoutingFailure: boolean;
  readonly decidedAtMs: number;
  /** When the feedback arrived; the worker passes the event's occurredAt, so redelivery classifies alike. */
  readonly nowMs: number;
  readonly latencyThresholdSeconds: number;
}

/**
 * The worker-side classification (upstream get_gateway_scoring_type, §4.1):
 * 1. `enforceDynamicRoutingFailure` → penalise_srv3;
 * 2. success status → reward;
 * 3. failure status → penalise_srv3;
 * 4. anything else is still pending: within the latency threshold of the decision → penalise
 *    (elimination only), after it → penalise_srv3 (pending too long counts as a failure).
 */
export function scoringTypeOf(input: ScoringTypeInput): ScoringType {
  if (input.enforceDynamicRoutingFailure) return 'penalise_srv3';
  if (successStatuses.has(input.status)) return 'reward';
  if (failureStatuses.has(input.status)) return 'penalise_srv3';
  return input.nowMs - input.decidedAtMs < input.latencyThresholdSeconds * 1000 ? 'penalise' : 'penalise_srv3';
}
