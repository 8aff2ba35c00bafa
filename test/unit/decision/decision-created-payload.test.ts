import { describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { createDecidePayment } from '../../../src/decision/decide-payment.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';
import { customerKeyOf, stickyComboOf } from '../../../src/decision/sticky/sticky-key.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import type { DecideGatewayRequest } from '../../../src/generated/schema-types.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { activateRoutingAlgorithm, createRoutingAlgorithm } from '../../../src/routing-rules/manage-routing-algorithms.js';
import { createManualClock } from '../../../src/time/clock.js';
import { abTestRule } from '../../helpers/ab-test-rule.js';
import { decideBody } from '../../helpers/decide-body.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

/** The keys every decision.created payload has, in the order the event has always had them. */
const coreKeys = [
  'paymentId',
  'requestId',
  'gateway',
  'routingApproach',
  'gatewayPriorityMap',
  'rankingAlgorithm',
  'eliminationEnabled',
  'latencyMs',
  'payment',
  'windowDimension',
  'eliminationDimension',
];

/** m-plain with plain SR; m-all with multi-objective, an A/B experiment and sticky routing, its customer's habit on adyen. */
async function setup() {
  const clock = createManualClock(1_700_000_000_000);
  const state = memoryStateStore(clock);
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
  onTestFinished(() => bus.close());
  const events: EventEnvelope[] = [];
  const subscription = await bus.subscribe({ group: 'test', topics: ['routing'], handler: async (batch) => void events.push(...batch) });
  for (const merchantId of ['m-plain', 'm-all']) await state.merchants.create({ merchantId, merchantName: null, deciderInput: null, createdAt: 0 });
  await state.configs.put('m-all', 'features', { 'multi-objective-routing': true, 'ab-test-real-payments': true, 'sticky-routing': true }, 'upsert');
  const rule = await createRoutingAlgorithm(
    { state, clock },
    { rule_id: 'ab', ...abTestRule('m-all', { name: 'sr against cost-aware sr', description: 'key order' }) },
  );
  await activateRoutingAlgorithm({ state, clock }, 'm-all', rule.id);
  await state.sticky.adjust({
    customer: { merchantId: 'm-all', customerKey: customerKeyOf('cust_1') },
    combo: stickyComboOf({ paymentMethod: 'CREDIT', paymentMethodType: 'CARD' }),
    connector: 'adyen',
    delta: 1,
    ttlSeconds: 86_400,
    maxEntries: 30,
    dedupeKey: 'seed',
    dedupeTtlSeconds: 60,
  });
  const decidePayment = createDecidePayment({ state, bus, random: createSequenceRandom([0.5]), clock, defaults: defaultRoutingDefaults });
  const created = async (merchantId: string, paymentId: string): Promise<Record<string, unknown>> => {
    const decided = await decidePayment(request(merchantId, paymentId), { requestId: `req-${paymentId}`, startedAt: performance.now() });
    expect(decided.ok).toBe(true);
    await subscription.caughtUp();
    const event = events.find((e) => e.type === 'decision.created' && e.payload.paymentId === paymentId);
    if (event === undefined) throw new Error(`no decision.created for ${paymentId}`);
    return event.payload as unknown as Record<string, unknown>;
  };
  return { created };
}

/** The helpers' decide body, naming the customer whose habit m-all has. */
function request(merchantId: string, paymentId: string): DecideGatewayRequest {
  const body = decideBody(merchantId, paymentId) as unknown as DecideGatewayRequest;
  return { ...body, paymentInfo: { ...body.paymentInfo, customerId: 'cust_1' } };
}

describe("decision.created's payload", () => {
  it('has the core keys in their order, then the policy, and no key for a part that is off', async () => {
    const { created } = await setup();
    const payload = await created('m-plain', 'pay-plain');
    expect(Object.keys(payload)).toEqual([...coreKeys, 'policy']);
    expect(payload).not.toHaveProperty('experiment');
    expect(payload).not.toHaveProperty('multiObjective');
    expect(payload).not.toHaveProperty('sticky');
  });

  it('puts `experiment` first (analytics reads its keys from `details` by first occurrence) and the optional parts after the core', async () => {
    const { created } = await setup();
    const payload = await created('m-all', 'pay-all');
    const keys = Object.keys(payload);
    expect(keys[0]).toBe('experiment');
    expect(keys.slice(1, 1 + coreKeys.length)).toEqual(coreKeys);
    // The rest in the event's order; the cost step's mark only when it ran and the pin kept its pick.
    expect(keys.slice(1 + coreKeys.length).filter((key) => key !== 'multiObjective')).toEqual(['sticky', 'policy']);
    expect(payload).toMatchObject({ experiment: { experimentId: 'ab' }, sticky: { outcome: expect.any(String) } });
    // JSON keeps that order, so `details` finds the experiment's keys before any later object's.
    const text = JSON.stringify(payload);
    expect(text.indexOf('"chosenCostBps"')).toBeLessThan(text.indexOf('"paymentId"'));
  });
});
