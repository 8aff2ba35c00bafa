import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStickyStore } from '../../../../src/adapters/memory/memory-sticky-store.js';
import type { Decision, DecisionInputs } from '../../../../src/decision/decision.js';
import { rankByExpectedValue } from '../../../../src/decision/multi-objective/rank-by-expected-value.js';
import { applyStickyRouting, stickyRoutingOn } from '../../../../src/decision/sticky/apply-sticky-routing.js';
import { StickyRoutingCounters } from '../../../../src/decision/sticky/sticky-counters.js';
import { customerKeyOf, stickyComboOf } from '../../../../src/decision/sticky/sticky-key.js';
import { defaultStickySettings } from '../../../../src/decision/sticky/sticky-settings.js';
import type { DecideGatewayRequest } from '../../../../src/generated/schema-types.js';
import type { StickyStore } from '../../../../src/ports/state/sticky-store.js';
import { createManualClock } from '../../../../src/time/clock.js';

const payment = {
  orderType: 'ORDER_PAYMENT',
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardType: 'CREDIT',
  cardNetwork: 'VISA',
  cardIsIn: '411111',
  currency: 'USD',
  country: 'US',
  authType: 'THREE_DS',
  amount: 100,
} as const;

const request: DecideGatewayRequest = {
  merchantId: 'm1',
  eligibleGatewayList: ['stripe', 'adyen', 'checkout'],
  rankingAlgorithm: 'SR_BASED_ROUTING',
  paymentInfo: {
    paymentId: 'p1',
    customerId: 'cust-1',
    amount: 100,
    currency: 'USD',
    paymentType: 'ORDER_PAYMENT',
    paymentMethodType: 'CARD',
    paymentMethod: 'CREDIT',
  },
};

const inputs: DecisionInputs = {
  merchant: { merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 1 },
  successRate: undefined,
  elimination: undefined,
  srDimension: undefined,
  debitRoutingEnabled: false,
  features: { 'sticky-routing': true },
};

/** An SR decision over stripe, adyen, checkout with these final scores (the first highest decided). */
/** An SR decision over `scores` (in list order), with the policy log decideGateway writes (no elimination) unless `overrides` sets one. */
function srDecision(scores: Record<string, number>, overrides: Partial<Decision> = {}): Decision {
  const order = Object.keys(scores).sort((a, b) => (scores[b] as number) - (scores[a] as number));
  const policy: Decision['policy'] = {
    candidates: Object.entries(scores).map(([gateway, score]) => ({ gateway, score, eliminationScore: null })),
    bucketSize: 125,
    hedged: false,
    hedgingPercent: 0,
    eliminationThreshold: null,
    eliminationDivisor: 5,
  };
  return {
    policy,
    decidedGateway: order[0] as string,
    fallbackGateways: order.slice(1),
    gatewayPriorityMap: scores,
    routingApproach: 'SR_SELECTION_V3_ROUTING',
    gatewayBeforeEvaluation: order[0] as string,
    priorityLogicOutput: null,
    debitRoutingOutput: null,
    resetApproach: 'NO_RESET',
    routingDimension: null,
    routingDimensionLevel: null,
    isScheduledOutage: false,
    rankingAlgorithm: 'SR_BASED_ROUTING',
    windowDimension: 'w',
    eliminationDimension: 'e',
    payment,
    eliminationEnabled: false,
    decidedAt: 1,
    ...overrides,
  };
}

const customer = { merchantId: 'm1', customerKey: customerKeyOf('cust-1') };
const combo = stickyComboOf(payment);
let marks = 0;
async function storeWith(counts: Record<string, number>): Promise<StickyStore> {
  const store = createMemoryStickyStore({ clock: createManualClock() });
  for (const [connector, count] of Object.entries(counts)) {
    for (let i = 0; i < count; i += 1) {
      marks += 1;
      await store.adjust({ customer, combo, connector, delta: 1, ttlSeconds: 3600, maxEntries: 30, dedupeKey: `d${marks}`, dedupeTtlSeconds: 60 });
    }
  }
  return store;
}

const ok = (decision: Decision) => ({ ok: true as const, decision });
async function apply(decision: Decision, store: StickyStore, options: { staticArm?: boolean; inputs?: DecisionInputs; minScoreRatio?: number } = {}) {
  const counters = new StickyRoutingCounters();
  const outcome = await applyStickyRouting(ok(decision), request, options.inputs ?? inputs, options.staticArm ?? false, {
    store,
    counters,
    settings: { ...defaultStickySettings, minScoreRatio: options.minScoreRatio ?? defaultStickySettings.minScoreRatio },
  });
  if (!outcome.ok) throw new Error('sticky routing turned a decision into a failure');
  return { decision: outcome.decision, counters };
}

describe('stickyRoutingOn', () => {
  it('follows the request switch first, then the merchant feature, and needs a customer', () => {
    expect(stickyRoutingOn(request, inputs)).toBe(true);
    expect(stickyRoutingOn({ ...request, stickyRouting: false }, inputs)).toBe(false);
    expect(stickyRoutingOn(request, { ...inputs, features: {} })).toBe(false);
    expect(stickyRoutingOn({ ...request, stickyRouting: true }, { ...inputs, features: {} })).toBe(true);
    expect(stickyRoutingOn({ ...request, stickyRouting: null }, inputs)).toBe(true);
    expect(stickyRoutingOn({ ...request, paymentInfo: { ...request.paymentInfo, customerId: '  ' } }, inputs)).toBe(false);
    expect(stickyRoutingOn({ ...request, paymentInfo: { ...request.paymentInfo, customerId: null } }, inputs)).toBe(false);
  });
});

describe('applyStickyRouting', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pins the highest count and moves the SR head to the front of the fallbacks', async () => {
    const { decision, counters } = await apply(srDecision({ stripe: 1, adyen: 0.9, checkout: 0.8 }), await storeWith({ checkout: 3, adyen: 2 }));
    expect(decision).toMatchObject({
      decidedGateway: 'checkout',
      fallbackGateways: ['stripe', 'adyen'],
      routingApproach: 'STICKY_ROUTING',
      sticky: { outcome: 'pinned', srHead: 'stripe', combo: 'CREDIT:CARD', customerKey: customerKeyOf('cust-1') },
    });
    expect(counters.decisions().get('pinned')).toBe(1);
    expect(counters.overrides()).toBe(1);
  });

  it('labels a pin that agrees with the SR head STICKY_ROUTING without counting an override', async () => {
    const { decision, counters } = await apply(srDecision({ stripe: 1, adyen: 0.9 }), await storeWith({ stripe: 1 }));
    expect(decision).toMatchObject({ decidedGateway: 'stripe', fallbackGateways: ['adyen'], routingApproach: 'STICKY_ROUTING' });
    expect(counters.overrides()).toBe(0);
  });

  it('breaks equal counts on the higher final score, then the list order', async () => {
    expect((await apply(srDecision({ stripe: 1, adyen: 0.7, checkout: 0.9 }), await storeWith({ adyen: 2, checkout: 2 }))).decision.decidedGateway).toBe(
      'checkout',
    );
    expect((await apply(srDecision({ stripe: 1, adyen: 0.9, checkout: 0.9 }), await storeWith({ checkout: 2, adyen: 2 }))).decision.decidedGateway).toBe(
      'adyen',
    );
  });

  it('without a policy log (a decision another path made), pins from the score map in its list order', async () => {
    const { policy: _logged, ...unlogged } = srDecision({ stripe: 1, adyen: 0.9, checkout: 0.9 });
    expect((await apply(unlogged, await storeWith({ checkout: 2, adyen: 2 }))).decision.decidedGateway).toBe('adyen');
    const { policy: _also, ...weak } = srDecision({ stripe: 1, adyen: 0.4, checkout: 0.9 });
    expect((await apply(weak, await storeWith({ adyen: 5, checkout: 1 }))).decision.decidedGateway).toBe('checkout');
  });

  it('vetoes an eliminated connector even when its score ratio would pass, and falls to the next counted one', async () => {
    const policy = {
      candidates: [
        { gateway: 'stripe', score: 1, eliminationScore: 1 },
        { gateway: 'adyen', score: 1, eliminationScore: 0.02 },
        { gateway: 'checkout', score: 1, eliminationScore: null },
      ],
      bucketSize: 125,
      hedged: false,
      hedgingPercent: 0,
      eliminationThreshold: 0.05,
      eliminationDivisor: 5,
    };
    const decided = srDecision({ stripe: 1, adyen: 0.2, checkout: 1 }, { policy, routingApproach: 'SR_V3_DOWNTIME_ROUTING', eliminationEnabled: true });
    const { decision } = await apply(decided, await storeWith({ adyen: 5, checkout: 1 }), { minScoreRatio: 0 });
    expect(decision).toMatchObject({ decidedGateway: 'checkout', routingApproach: 'STICKY_ROUTING' });
    const alone = await apply(decided, await storeWith({ adyen: 5 }), { minScoreRatio: 0 });
    expect(alone.decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_V3_DOWNTIME_ROUTING', sticky: { outcome: 'vetoed', srHead: null } });
    expect(alone.counters.decisions().get('vetoed')).toBe(1);
  });

  it('drops the cost post-step claim when the pin moved the payment, and keeps it when the pin agrees', async () => {
    const multiObjectiveInfo = { outcome: 'COST_WON' } as unknown as NonNullable<Decision['multiObjectiveInfo']>;
    const costed = srDecision({ stripe: 1, adyen: 1 }, { routingApproach: 'SR_SELECTION_MULTI_OBJECTIVE', multiObjectiveInfo });
    expect((await apply(costed, await storeWith({ adyen: 1 }))).decision.multiObjectiveInfo).toBeUndefined();
    expect((await apply(costed, await storeWith({ stripe: 1 }))).decision.multiObjectiveInfo).toBe(multiObjectiveInfo);
  });

  it("applies a cost ranking left to it in its one copy, and builds the ranking's claim only for a decision that keeps it", async () => {
    // The decision before the cost post-step: SR order stripe, adyen, checkout (equal scores). The
    // ranking promotes checkout (cheapest) on expected value, then adyen, then stripe.
    const uncosted = srDecision({ stripe: 1, adyen: 1, checkout: 1 });
    const priced = rankByExpectedValue(
      [
        { psp: 'stripe', authRate: 1, costBps: 290 },
        { psp: 'adyen', authRate: 1, costBps: 194 },
        { psp: 'checkout', authRate: 1, costBps: 150 },
      ],
      1,
    );
    expect(priced).toMatchObject({ outcome: 'COST_WON', order: ['checkout', 'adyen', 'stripe'] });
    let built = 0;
    const ranking = {
      ...priced,
      info: () => {
        built += 1;
        return priced.info();
      },
    };
    const applyRanked = async (store: StickyStore) => {
      const outcome = await applyStickyRouting(ok(uncosted), request, inputs, false, { store, settings: defaultStickySettings }, ranking);
      if (!outcome.ok) throw new Error('sticky routing turned a decision into a failure');
      return outcome.decision;
    };
    // The pin moves the payment off the ranking's pick: the ranked head leads the fallbacks, the claim is dropped and never built.
    expect(await applyRanked(await storeWith({ stripe: 1 }))).toMatchObject({
      decidedGateway: 'stripe',
      fallbackGateways: ['checkout', 'adyen'],
      routingApproach: 'STICKY_ROUTING',
      sticky: { outcome: 'pinned', srHead: 'checkout' },
      multiObjectiveInfo: undefined,
    });
    expect(built).toBe(0);
    // The pin agrees with the ranking's pick: the ranked order and the claim.
    expect(await applyRanked(await storeWith({ checkout: 1 }))).toMatchObject({
      decidedGateway: 'checkout',
      fallbackGateways: ['adyen', 'stripe'],
      routingApproach: 'STICKY_ROUTING',
      sticky: { outcome: 'pinned', srHead: 'checkout' },
      multiObjectiveInfo: { outcome: 'COST_WON', chosen: { psp: 'checkout' } },
    });
    // Nothing counted: the decision as the cost post-step alone would have left it.
    expect(await applyRanked(await storeWith({}))).toMatchObject({
      decidedGateway: 'checkout',
      fallbackGateways: ['adyen', 'stripe'],
      routingApproach: 'SR_SELECTION_MULTI_OBJECTIVE',
      sticky: { outcome: 'no_state', srHead: null },
      multiObjectiveInfo: { outcome: 'COST_WON', srHead: { psp: 'stripe' } },
    });
    expect(built).toBe(2);
  });

  it('leaves hedging, rule-ordered priority logic, a single candidate and a static arm alone, without reading the store', async () => {
    const neverRead: StickyStore = {
      read: () => Promise.reject(new Error('read where sticky routing does not apply')),
      adjust: () => Promise.reject(new Error('no writes on the decision path')),
    };
    const cases: [Decision, { staticArm?: boolean; inputs?: DecisionInputs }][] = [
      [srDecision({ stripe: 0.5, adyen: 1 }, { routingApproach: 'SR_V3_HEDGING' }), {}],
      [
        srDecision({ stripe: 1, adyen: 0.9 }, { routingApproach: 'PRIORITY_LOGIC' }),
        { inputs: { ...inputs, rule: { name: 'r', gateways: ['stripe', 'adyen'] } } },
      ],
      [srDecision({ stripe: 1 }, { routingApproach: 'DEFAULT' }), {}],
      [srDecision({ stripe: 1, adyen: 0.9 }), { staticArm: true }],
    ];
    for (const [decided, options] of cases) {
      const { decision, counters } = await apply(decided, neverRead, options);
      expect(decision).toMatchObject({
        decidedGateway: decided.decidedGateway,
        routingApproach: decided.routingApproach,
        sticky: { outcome: 'not_applicable' },
      });
      expect(counters.decisions().get('not_applicable')).toBe(1);
    }
  });

  it('fails open on a store error: the decision as it was, outcome store_error', async () => {
    const failing: StickyStore = { read: () => Promise.reject(new Error('store down')), adjust: () => Promise.reject(new Error('store down')) };
    const { decision, counters } = await apply(srDecision({ stripe: 1, adyen: 0.9 }), failing);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_SELECTION_V3_ROUTING', sticky: { outcome: 'store_error' } });
    expect(counters.decisions().get('store_error')).toBe(1);
  });

  it('fails open once the lookup deadline passes, whatever the store answers later', async () => {
    vi.useFakeTimers();
    let answer: (counts: ReadonlyMap<string, number>) => void = () => undefined;
    const slow: StickyStore = {
      read: () => new Promise((resolve) => (answer = resolve)),
      adjust: () => Promise.reject(new Error('no writes on the decision path')),
    };
    const pending = apply(srDecision({ stripe: 1, adyen: 0.9 }), slow);
    await vi.advanceTimersByTimeAsync(defaultStickySettings.lookupTimeoutMs - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { decision, counters } = await pending;
    answer(new Map([['adyen', 9]]));
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_SELECTION_V3_ROUTING', sticky: { outcome: 'store_timeout' } });
    expect(counters.decisions().get('store_timeout')).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
