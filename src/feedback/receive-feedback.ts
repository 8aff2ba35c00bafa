import { createEvent } from '../events/event-envelope.js';
import type { FeedbackReceivedV1 } from '../generated/schema-types.js';
import type { EventBus } from '../ports/event-bus.js';
import type { StateStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { outcomeOf } from './classify-status.js';
import { classifyFeedbackError } from './gsm/classify-feedback-error.js';
import type { GsmErrorQuery, GsmMatch } from './gsm/gsm-error.js';

export interface ReceiveFeedbackDeps {
  readonly state: Pick<StateStore, 'merchants' | 'configs'>;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly clock: Clock;
}

/** The outcome of one routed payment as a client reported it (either feedback route, mapped). */
export interface PaymentFeedback extends Omit<FeedbackReceivedV1, 'outcome' | 'gsm'> {
  readonly merchantId: string;
  /** The PSP's error, when the client sent one (`errorInfo`); its connector is the feedback's gateway. */
  readonly errorInfo?: Omit<GsmErrorQuery, 'connector'> | null;
}

export type ReceiveFeedbackResult = { readonly kind: 'published'; readonly gsm: GsmMatch | undefined } | { readonly kind: 'merchant_not_found' };

/**
 * Classifies a reported outcome and publishes it as `feedback.received` (1.4.14+ behaviour: the
 * caller is answered at once; the sr-windows worker applies the event to the windows,
 * idempotently). A PSP error, when given, is classified by the gateway status map here, with the
 * merchant's overrides and its `gsm-scoring-filter` flag as they are now, and the verdict rides on
 * the event (docs/gsm.md). A merchant that does not exist is returned, not thrown: each route
 * answers it in its own 1.4.x shape.
 */
export async function receiveFeedback(deps: ReceiveFeedbackDeps, feedback: PaymentFeedback): Promise<ReceiveFeedbackResult> {
  if ((await deps.state.merchants.get(feedback.merchantId)) === undefined) return { kind: 'merchant_not_found' };
  const classified =
    feedback.errorInfo === undefined || feedback.errorInfo === null
      ? undefined
      : await classifyFeedbackError(deps.state.configs, feedback.merchantId, { ...feedback.errorInfo, connector: feedback.gateway });
  const payload: FeedbackReceivedV1 = {
    paymentId: feedback.paymentId,
    gateway: feedback.gateway,
    status: feedback.status,
    outcome: outcomeOf(feedback.status),
    enforceDynamicRoutingFailure: feedback.enforceDynamicRoutingFailure,
    gatewayLatencyMs: feedback.gatewayLatencyMs,
    requestId: feedback.requestId,
    source: feedback.source,
    ...(classified === undefined ? {} : { gsm: classified.recorded }),
  };
  await deps.bus.publish([createEvent('feedback.received', feedback.merchantId, payload, deps.clock.now())]);
  return { kind: 'published', gsm: classified?.match };
}
