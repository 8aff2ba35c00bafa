import { createEvent, type EventEnvelope } from '../../src/events/event-envelope.js';
import type { PaymentDimensions } from '../../src/generated/schema-types.js';
import { cardPayment } from '../fixtures/payment-dimensions.js';

/**
 * `count` decision.created events of one merchant at `atMs` (+1 ms each), decided round-robin over
 * `gateways`, with the given payment dimensions: the traffic the autopilot reads back from analytics.
 */
export function decisionTraffic(
  merchantId: string,
  count: number,
  gateways: readonly string[],
  atMs: number,
  payment: PaymentDimensions = cardPayment,
  prefix = 'ap',
): EventEnvelope[] {
  return Array.from({ length: count }, (_, index) => {
    const gateway = gateways[index % gateways.length]!;
    return createEvent(
      'decision.created',
      merchantId,
      {
        paymentId: `${prefix}_${merchantId}_${index}`,
        requestId: `${prefix}_req_${merchantId}_${index}`,
        gateway,
        routingApproach: 'SR_SELECTION_V3_ROUTING',
        gatewayPriorityMap: Object.fromEntries(gateways.map((name) => [name, name === gateway ? 1 : 0.5])),
        rankingAlgorithm: 'SR_BASED_ROUTING',
        eliminationEnabled: false,
        latencyMs: 1,
        payment,
        windowDimension: `gw_sr_v3_score_${merchantId}_ORDER_PAYMENT_${payment.paymentMethodType}_${payment.paymentMethod}`,
        eliminationDimension: `gw_score_${merchantId}_ORDER_PAYMENT_${payment.paymentMethodType}_${payment.paymentMethod}`,
      },
      atMs + index,
    );
  });
}
