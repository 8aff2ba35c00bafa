import { describe, expect, it } from 'vitest';
import { mapEventToRows, mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';

const at = Date.UTC(2026, 10, 20, 11, 0, 0);
const payload = {
  paymentId: 'pay_1',
  requestId: 'req_1',
  gateway: 'adyen',
  routingApproach: 'SR_V3_HEDGING',
  gatewayPriorityMap: { stripe: 0.5, adyen: 1 },
  rankingAlgorithm: 'SR_BASED_ROUTING',
  eliminationEnabled: true,
  latencyMs: 3,
  payment: {
    orderType: 'ORDER_PAYMENT',
    paymentMethodType: 'UPI',
    paymentMethod: 'UPI_PAY',
    cardType: null,
    cardNetwork: null,
    cardIsIn: null,
    currency: 'INR',
    country: null,
    authType: null,
    amount: 250.5,
  },
  windowDimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY',
  eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_UPI_UPI_PAY',
  policy: {
    propensity: 0.05,
    hedged: true,
    candidates: [
      { gateway: 'stripe', score: 0.9, eliminationScore: null },
      { gateway: 'adyen', score: 0.8, eliminationScore: 0.7 },
    ],
    hedgingPercent: 5,
    bucketSize: 125,
    eliminationThreshold: 0.05,
    eliminationDivisor: 5,
  },
};
const event = { id: '01930000-0000-7000-8000-000000000001', type: 'decision.created', version: 1, occurredAt: at, merchantId: 'm1', payload } as EventEnvelope;

describe('decision policies in analytics', () => {
  it('the event schema takes the policy field', () => {
    expect(() => validateEvent(event)).not.toThrow();
    expect(() => validateEvent({ ...event, payload: { ...payload, policy: { ...payload.policy, propensity: 0 } } } as EventEnvelope)).toThrow();
  });

  it('maps a decision with a policy to its analytics_decision_policies row beside the domain row', () => {
    const rows = mapEventToRows(event);
    expect(rows.domain).toHaveLength(1);
    expect(rows.policies).toEqual([
      {
        event_id: event.id,
        merchant_id: 'm1',
        created_at_ms: at,
        payment_id: 'pay_1',
        gateway: 'adyen',
        routing_approach: 'SR_V3_HEDGING',
        window_dimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY',
        currency: 'INR',
        amount: 250.5,
        propensity: 0.05,
        hedged: 1,
        hedging_percent: 5,
        bucket_size: 125,
        elimination_threshold: 0.05,
        elimination_divisor: 5,
        multi_objective: 0,
        candidates: JSON.stringify(payload.policy.candidates),
      },
    ]);
  });

  it('a batch collects the policies and leaves them out when no decision logged one', () => {
    const { policy: _omitted, ...withoutPolicy } = payload;
    expect(mapEventsToAnalyticsRows([event, { ...event, id: '01930000-0000-7000-8000-000000000002' }]).policies).toHaveLength(2);
    expect(mapEventsToAnalyticsRows([{ ...event, payload: withoutPolicy } as EventEnvelope]).policies).toBeUndefined();
  });
});
