import type { EventEnvelope } from '../events/event-envelope.js';
import type { DecisionContext, ScoreStore } from '../ports/state-store.js';
import type { RoutingDefaults } from '../decision/routing-defaults.js';

export interface RecordDecisionDeps {
  readonly scores: Pick<ScoreStore, 'putDecisionContext'>;
  readonly defaults: RoutingDefaults;
}

/**
 * Stores what feedback needs to find this decision's windows: upstream's
 * `gateway_scoring_data_<paymentId>` (§3.1 step 11), kept for `decisionContextTtlSeconds` (1800 s).
 * A later decision for the same payment overwrites it, so feedback always refers to the latest
 * (§12.9). The decision time is the event's `occurredAt`, which the API sets to the decision's
 * `decidedAt`. Returns the stored context.
 */
export async function recordDecision(event: EventEnvelope<'decision.created'>, deps: RecordDecisionDeps): Promise<DecisionContext> {
  const decision = event.payload;
  const context: { -readonly [K in keyof DecisionContext]: DecisionContext[K] } = {
    merchantId: event.merchantId,
    paymentId: decision.paymentId,
    decidedAt: event.occurredAt,
    decisionEventId: event.id,
    windowDimension: decision.windowDimension,
    eliminationDimension: decision.eliminationDimension,
    eliminationEnabled: decision.eliminationEnabled,
    routingApproach: decision.routingApproach,
    orderType: decision.payment.orderType,
    payment: decision.payment,
  };
  // Assigned, not spread in from a conditional literal: no empty object per decision without it,
  // and no generic copy for those with it (this runs for every decision, on the main thread when embedded).
  if (decision.sticky !== undefined) context.sticky = { customerKey: decision.sticky.customerKey, combo: decision.sticky.combo };
  await deps.scores.putDecisionContext(context, deps.defaults.decisionContextTtlSeconds);
  return context;
}
