import type { EventEnvelope } from '../events/event-envelope.js';
import type { DecisionPolicyRow } from '../ports/analytics/analytics-rows.js';

/** The `analytics_decision_policies` row of a decision that logged its policy (0007). */
export function decisionPolicyRowOf(event: EventEnvelope<'decision.created'>): DecisionPolicyRow {
  const p = event.payload;
  const policy = p.policy;
  if (policy === undefined) throw new RangeError(`decision ${event.id} logged no policy`);
  return {
    event_id: event.id,
    merchant_id: event.merchantId,
    created_at_ms: event.occurredAt,
    payment_id: p.paymentId,
    gateway: p.gateway,
    routing_approach: p.routingApproach,
    window_dimension: p.windowDimension ?? '',
    currency: p.payment.currency,
    amount: p.payment.amount,
    propensity: policy.propensity,
    hedged: policy.hedged ? 1 : 0,
    hedging_percent: policy.hedgingPercent,
    bucket_size: policy.bucketSize,
    elimination_threshold: policy.eliminationThreshold,
    elimination_divisor: policy.eliminationDivisor,
    multi_objective: policy.multiObjective === true ? 1 : 0,
    candidates: JSON.stringify(policy.candidates),
  };
}
