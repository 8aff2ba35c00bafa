import { cardPayment } from '../../fixtures/payment-dimensions.js';
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../../src/events/event-envelope.js';
import { recordDecision } from '../../../src/feedback/record-decision.js';
import type { DecisionCreatedV1 } from '../../../src/generated/schema-types.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const payload: DecisionCreatedV1 = {
  paymentId: 'pay_1',
  requestId: 'req_1',
  gateway: 'stripe',
  routingApproach: 'SR_V3_HEDGING',
  gatewayPriorityMap: { stripe: 1, adyen: 0.5 },
  rankingAlgorithm: 'SR_BASED_ROUTING',
  eliminationEnabled: true,
  latencyMs: 2,
  payment: cardPayment,
  windowDimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT',
  eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_CARD_CREDIT_CREDIT',
};

describe('recordDecision', () => {
  it('stores the decision context for 1800 s, timed by the event', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const { scores } = memoryStateStore(clock);
    const event = createEvent('decision.created', 'm1', payload, 1_700_000_000_000);
    const context = await recordDecision(event, { scores, defaults: defaultRoutingDefaults });
    expect(context).toEqual({
      merchantId: 'm1',
      paymentId: 'pay_1',
      decidedAt: 1_700_000_000_000,
      decisionEventId: event.id,
      windowDimension: payload.windowDimension,
      eliminationDimension: payload.eliminationDimension,
      eliminationEnabled: true,
      routingApproach: 'SR_V3_HEDGING',
      orderType: 'ORDER_PAYMENT',
      payment: payload.payment,
    });
    expect(await scores.getDecisionContext('m1', 'pay_1')).toEqual(context);
    // Kept exactly 1800 s: still there 1 ms before, gone at it.
    clock.advance(1_800_000 - 1);
    expect(await scores.getDecisionContext('m1', 'pay_1')).toEqual(context);
    clock.advance(1);
    expect(await scores.getDecisionContext('m1', 'pay_1')).toBeUndefined();
  });

  it('overwrites an earlier decision for the same payment', async () => {
    const { scores } = memoryStateStore(createManualClock());
    await recordDecision(createEvent('decision.created', 'm1', payload, 1_000), { scores, defaults: defaultRoutingDefaults });
    const later = createEvent('decision.created', 'm1', { ...payload, routingApproach: 'SR_SELECTION_V3_ROUTING' }, 2_000);
    await recordDecision(later, { scores, defaults: defaultRoutingDefaults });
    expect(await scores.getDecisionContext('m1', 'pay_1')).toMatchObject({
      decidedAt: 2_000,
      decisionEventId: later.id,
      routingApproach: 'SR_SELECTION_V3_ROUTING',
    });
  });
});
