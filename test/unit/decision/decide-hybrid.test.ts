import { describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { decideHybrid, srRoutingDisabledMessage } from '../../../src/decision/decide-hybrid.js';
import { createDecidePayment } from '../../../src/decision/decide-payment.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import type { DecideGatewayRequest, RoutingEvaluateRequest } from '../../../src/generated/schema-types.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { activateRoutingAlgorithm, createRoutingAlgorithm } from '../../../src/routing-rules/manage-routing-algorithms.js';
import { runStaticEvaluation } from '../../../src/routing-rules/run-static-evaluation.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const stripe = { gateway_name: 'stripe', gateway_id: null };
const adyen = { gateway_name: 'adyen', gateway_id: null };

/** The embedded store and bus, the real decision and static evaluation use cases, and merchant m1 whose active rule picks stripe. */
async function setup() {
  const clock = createManualClock(1_700_000_000_000);
  const state = memoryStateStore(clock);
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
  onTestFinished(() => bus.close());
  const random = createSequenceRandom([0.5]);
  await state.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 0 });
  await createRoutingAlgorithm({ state, clock }, { rule_id: 'r1', name: 'stripe only', created_by: 'm1', algorithm: { type: 'single', data: stripe } });
  await activateRoutingAlgorithm({ state, clock }, 'm1', 'r1');
  await state.configs.put('m1', 'features', { 'sr-routing': true }, 'upsert');
  const decidePayment = createDecidePayment({ state, bus, random, clock, defaults: defaultRoutingDefaults });
  const evaluateStatic = (body: RoutingEvaluateRequest) => runStaticEvaluation({ state, bus, clock, random }, body, { source: 'hybrid', requestId: 'req-1' });
  return { state, decidePayment, evaluateStatic };
}

const dynamic = (merchantId: string, overrides: Partial<DecideGatewayRequest> = {}): DecideGatewayRequest => ({
  merchantId,
  eligibleGatewayList: ['stripe', 'adyen'],
  rankingAlgorithm: 'SR_BASED_ROUTING',
  eliminationEnabled: false,
  paymentInfo: { paymentId: 'pay_1', amount: 100, currency: 'USD', paymentType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT' },
  ...overrides,
});

describe('decideHybrid', () => {
  it('refuses a request with neither half', async () => {
    const deps = await setup();
    await expect(decideHybrid(deps, { staticRequest: undefined, dynamicRequest: undefined }, 'req-1')).rejects.toMatchObject({
      code: 'SY_ROUTING_RULE_REJECTED',
    });
  });

  it('answers the static evaluation alone, or throws its refusal when nothing follows and there is no fallback', async () => {
    const deps = await setup();
    const outcome = await decideHybrid(deps, { staticRequest: { created_by: 'm1', parameters: {} }, dynamicRequest: undefined }, 'req-1');
    expect(outcome).toMatchObject({ kind: 'static_only', evaluation: { status: 'success' }, connectors: [stripe] });
    await expect(decideHybrid(deps, { staticRequest: { created_by: 'm2', parameters: {} }, dynamicRequest: undefined }, 'req-1')).rejects.toMatchObject({
      message: 'No active routing algorithm found for the created_by entity : m2',
    });
  });

  it('decides over the static output when the dynamic half names no candidates', async () => {
    const deps = await setup();
    const outcome = await decideHybrid(
      deps,
      { staticRequest: { created_by: 'm1', parameters: {} }, dynamicRequest: dynamic('m1', { eligibleGatewayList: null }) },
      'req-1',
    );
    expect(outcome.kind).toBe('decided');
    if (outcome.kind !== 'decided') return;
    expect(outcome.decision.request.eligibleGatewayList).toEqual(['stripe']);
    expect(outcome.decision.decision.decidedGateway).toBe('stripe');
  });

  it('falls back on the static connectors when the decision fails, and is refused with none', async () => {
    const deps = await setup();
    const fallback = await decideHybrid(
      deps,
      { staticRequest: { created_by: 'm2', parameters: {}, fallback_output: [adyen] }, dynamicRequest: dynamic('nobody') },
      'req-1',
    );
    expect(fallback).toMatchObject({ kind: 'fallback', connectors: [adyen], decision: { ok: false } });
    // m2 has no active algorithm: the static half answers its fallback_output (no_active_algorithm).
    expect(fallback).toMatchObject({ evaluation: { status: 'no_active_algorithm', evaluatedOutput: [adyen] } });
    const refused = await decideHybrid(deps, { staticRequest: undefined, dynamicRequest: dynamic('nobody') }, 'req-1');
    expect(refused).toMatchObject({ kind: 'refused', decision: { ok: false, failure: { kind: 'merchant_not_found' } } });
  });

  it("runs the dynamic half only with the merchant's sr-routing feature on (decision-engine #433)", async () => {
    const deps = await setup();
    await deps.state.configs.put('m1', 'features', { 'sr-routing': false }, 'upsert');
    const staticOnly = await decideHybrid(deps, { staticRequest: { created_by: 'm1', parameters: {} }, dynamicRequest: dynamic('m1') }, 'req-1');
    expect(staticOnly).toMatchObject({ kind: 'static_only', evaluation: { status: 'success' }, connectors: [stripe] });
    await expect(decideHybrid(deps, { staticRequest: undefined, dynamicRequest: dynamic('m1') }, 'req-1')).rejects.toMatchObject({
      code: 'SY_ROUTING_RULE_REJECTED',
      message: srRoutingDisabledMessage,
    });
    await deps.state.configs.put('m1', 'features', { 'sr-routing': true }, 'upsert');
    expect(await decideHybrid(deps, { staticRequest: undefined, dynamicRequest: dynamic('m1') }, 'req-1')).toMatchObject({ kind: 'decided' });
  });

  it('reads the merchant and its flags once for the sr-routing gate and the decision together', async () => {
    const deps = await setup();
    const reads: string[] = [];
    // Both ways of reading count: the asynchronous one and the synchronous one of a store in memory.
    const merchants = deps.state.merchants;
    const configs = deps.state.configs;
    const state = {
      ...deps.state,
      merchants: {
        ...merchants,
        get: (merchantId: string) => {
          reads.push('merchant');
          return merchants.get(merchantId);
        },
        held: (merchantId: string) => {
          reads.push('merchant');
          return merchants.held?.(merchantId);
        },
      },
      configs: {
        ...configs,
        get: ((merchantId, name) => {
          reads.push(name);
          return configs.get(merchantId, name);
        }) as typeof configs.get,
        held: ((merchantId, name) => {
          reads.push(name);
          return configs.held?.(merchantId, name);
        }) as NonNullable<typeof configs.held>,
      },
    };
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
    onTestFinished(() => bus.close());
    const clock = createManualClock(1_700_000_000_000);
    const decidePayment = createDecidePayment({ state, bus, random: createSequenceRandom([0.5]), clock, defaults: defaultRoutingDefaults });
    for (const staticRequest of [undefined, { created_by: 'm1', parameters: {} }]) {
      reads.length = 0;
      const outcome = await decideHybrid(
        { state, decidePayment, evaluateStatic: deps.evaluateStatic },
        { staticRequest, dynamicRequest: dynamic('m1') },
        'req-1',
      );
      expect(outcome).toMatchObject({ kind: 'decided' });
      expect(reads.filter((read) => read === 'merchant')).toEqual(['merchant']);
      expect(reads.filter((read) => read === 'features')).toEqual(['features']);
    }
  });
});
