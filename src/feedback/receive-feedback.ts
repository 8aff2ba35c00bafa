import { createEvent } from '../events/event-envelope.js';
import type { FeedbackReceivedV1 } from '../generated/schema-types.js';
import type { EventBus } from '../ports/event-bus.js';
import type { StateStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { outcomeOf } from './classify-status.js';

export interface ReceiveFeedbackDeps {
  readonly state: Pick<StateStore, 'merchants'>;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly clock: Clock;
}

/** The outcome of one routed payment as a client reported it (either feedback route, mapped). */
export interface PaymentFeedback extends Omit<FeedbackReceivedV1, 'outcome'> {
  readonly merchantId: string;
}

/**
 * Classifies a reported outcome and publishes it as `feedback.received` (1.4.14+ behaviour: the
 * caller is answered at once; the sr-windows worker applies the event to the windows,
 * idempotently). A merchant that does not exist is returned, not thrown: each route answers it in
 * its own 1.4.x shape.
 */
export async function receiveFeedback(deps: ReceiveFeedbackDeps, feedback: PaymentFeedback): Promise<'published' | 'merchant_not_found'> {
  if ((await deps.state.merchants.get(feedback.merchantId)) === undefined) return 'merchant_not_found';
  const payload: FeedbackReceivedV1 = {
    paymentId: feedback.paymentId,
    gateway: feedback.gateway,
    status: feedback.status,
    outcome: outcomeOf(feedback.status),
    enforceDynamicRoutingFailure: feedback.enforceDynamicRoutingFailure,
    gatewayLatencyMs: feedback.gatewayLatencyMs,
    requestId: feedback.requestId,
    source: feedback.source,
  };
  await deps.bus.publish([createEvent('feedback.received', feedback.merchantId, payload, deps.clock.now())]);
  return 'published';
}
