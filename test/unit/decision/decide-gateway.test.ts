import { describe, expect, it, vi } from 'vitest';
import type { DecideGatewayRequest, PaymentInfo } from '../../../src/generated/schema-types.js';
import type { EliminationScore, WindowRead } from '../../../src/ports/state-store.js';
import { decideGateway, type DecisionFailure, type DecisionInputs, type DecisionOutcome } from '../../../src/decision/decide-gateway.js';
import type { Decision } from '../../../src/decision/decision.js';
import { createSequenceRandom, type RandomSource } from '../../../src/decision/random-source.js';
import { defaultRoutingDefaults, type RoutingDefaults } from '../../../src/decision/routing-defaults.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';
import { coBadgedMetadata } from './network/metadata-fixture.js';

const now = 1_700_000_000_000;
const upiDimension = 'gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY';
const window = (successes: number, length: number): WindowRead => ({ successes, length });
const elimination = (score: number): EliminationScore => ({ score, transactionCount: 10, updatedAt: now - 60_000 });

/**
 * The embedded adapter's score store, seeded through its own writes with the given windows (`successes`
 * of `length`) and elimination scores; its two reads are watched so tests can check the keys and bucket size asked.
 */
async function seededScores(windows: Record<string, WindowRead> = {}, eliminations: Record<string, EliminationScore> = {}) {
  const { scores } = memoryStateStore(createManualClock(now));
  let seed = 0;
  const write = { dedupeTtlSeconds: 60 };
  for (const [windowKey, { successes, length }] of Object.entries(windows)) {
    // A new window starts as `length` successes; each failure pushed keeps the newest `length`. A window of
    // successes only still needs one write to exist.
    const failures = length - successes;
    for (let index = 0; index < Math.max(1, failures); index += 1) {
      await scores.recordOutcome({
        ...write,
        windowKey,
        outcome: failures === 0 ? 1 : 0,
        bucketSize: length,
        dedupeKey: `seed:${++seed}`,
        windowTtlSeconds: 86_400,
      });
    }
  }
  for (const [key, { score, transactionCount, updatedAt }] of Object.entries(eliminations)) {
    // A new score starts at 1: the first write multiplies it to `score`, the others only count transactions.
    for (let index = 0; index < Math.max(1, transactionCount); index += 1) {
      const factor = index === 0 ? score : 1;
      await scores.applyElimination({
        ...write,
        key,
        factor,
        countsTransaction: index < transactionCount,
        nowMs: updatedAt,
        ttlMs: 86_400_000,
        dedupeKey: `seed:${++seed}`,
      });
    }
  }
  // The embedded store answers synchronously too (readWindowsNow): a read by either way counts.
  const readWindows = vi.spyOn(scores, 'readWindows');
  const readEliminations = vi.spyOn(scores, 'readEliminations');
  const readWindowsNow = vi.spyOn(scores as Required<typeof scores>, 'readWindowsNow');
  const readEliminationsNow = vi.spyOn(scores as Required<typeof scores>, 'readEliminationsNow');
  const calls = {
    get readWindows() {
      return [...readWindows.mock.calls, ...readWindowsNow.mock.calls].map(([keys, bucketSize]) => ({ keys: [...keys], bucketSize }));
    },
    get readEliminations() {
      return [...readEliminations.mock.calls, ...readEliminationsNow.mock.calls].map(([keys]) => [...keys]);
    },
  };
  return { scores, calls };
}

function paymentInfo(overrides: Partial<PaymentInfo> = {}): PaymentInfo {
  return {
    paymentId: 'pay_1',
    amount: 1000,
    currency: 'INR',
    paymentType: 'ORDER_PAYMENT',
    paymentMethodType: 'upi',
    paymentMethod: 'UPI_PAY',
    ...overrides,
  };
}

function request(overrides: Partial<DecideGatewayRequest> = {}, payment: Partial<PaymentInfo> = {}): DecideGatewayRequest {
  return {
    merchantId: 'm1',
    eligibleGatewayList: ['stripe', 'adyen', 'checkout'],
    rankingAlgorithm: 'SR_BASED_ROUTING',
    paymentInfo: paymentInfo(payment),
    ...overrides,
  };
}

function inputs(overrides: Partial<DecisionInputs> = {}): DecisionInputs {
  return {
    merchant: { merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: now },
    successRate: undefined,
    elimination: undefined,
    srDimension: undefined,
    debitRoutingEnabled: false,
    ...overrides,
  };
}

interface RunOptions {
  readonly store?: Awaited<ReturnType<typeof seededScores>>;
  readonly random?: RandomSource;
  readonly defaults?: RoutingDefaults;
}

async function run(req: DecideGatewayRequest, given: DecisionInputs = inputs(), options: RunOptions = {}) {
  const store = options.store ?? (await seededScores());
  // 0.99 never hedges at the default 5 %; tests that hedge pass their own draws.
  const random = options.random ?? createSequenceRandom([0.99]);
  const outcome = await decideGateway(req, given, {
    scores: store.scores,
    random,
    clock: createManualClock(now),
    defaults: options.defaults ?? defaultRoutingDefaults,
  });
  return { outcome, calls: store.calls };
}

function decisionOf(outcome: DecisionOutcome): Decision {
  if (!outcome.ok) throw new Error(`expected a decision, got ${outcome.failure.kind}: ${outcome.failure.message}`);
  return outcome.decision;
}

function failureOf(outcome: DecisionOutcome): DecisionFailure {
  if (outcome.ok) throw new Error(`expected a failure, got ${outcome.decision.decidedGateway}`);
  return outcome.failure;
}

describe('decideGateway with SR_BASED_ROUTING', () => {
  it('decides the gateway with the best window and ranks the rest by score', async () => {
    const store = await seededScores({
      [`${upiDimension}_stripe`]: window(90, 100),
      [`${upiDimension}_adyen`]: window(124, 125),
      [`${upiDimension}_checkout`]: window(98, 100),
    });
    const { outcome, calls } = await run(request(), inputs(), { store });
    expect(decisionOf(outcome)).toEqual({
      decidedGateway: 'adyen',
      fallbackGateways: ['checkout', 'stripe'],
      gatewayPriorityMap: { stripe: 0.9, adyen: 0.992, checkout: 0.98 },
      routingApproach: 'SR_SELECTION_V3_ROUTING',
      gatewayBeforeEvaluation: 'adyen',
      priorityLogicOutput: {
        isEnforcement: false,
        gws: ['stripe', 'adyen', 'checkout'],
        priorityLogicTag: null,
        gatewayReferenceIds: {},
        primaryLogic: null,
        fallbackLogic: null,
      },
      debitRoutingOutput: null,
      resetApproach: 'NO_RESET',
      routingDimension: 'ORDER_PAYMENT, UPI, UPI_PAY',
      routingDimensionLevel: 'PM_LEVEL',
      isScheduledOutage: false,
      rankingAlgorithm: 'SR_BASED_ROUTING',
      windowDimension: upiDimension,
      eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_UPI_UPI_PAY',
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
        amount: 1000,
      },
      eliminationEnabled: false,
      decidedAt: now,
      policy: {
        candidates: [
          { gateway: 'stripe', score: 0.9, eliminationScore: null },
          { gateway: 'adyen', score: 0.992, eliminationScore: null },
          { gateway: 'checkout', score: 0.98, eliminationScore: null },
        ],
        hedgingPercent: 5,
        hedged: false,
        bucketSize: 125,
        eliminationThreshold: null,
        eliminationDivisor: 5,
      },
    });
    expect(calls.readWindows).toEqual([{ keys: [`${upiDimension}_stripe`, `${upiDimension}_adyen`, `${upiDimension}_checkout`], bucketSize: 125 }]);
    expect(calls.readEliminations).toEqual([]);
  });

  it('reads all windows in one call with the merchant bucket size', async () => {
    const { calls } = await run(request(), inputs({ successRate: { defaultBucketSize: 200 } }));
    expect(calls.readWindows).toHaveLength(1);
    expect(calls.readWindows[0]?.bucketSize).toBe(200);
  });

  it('builds window keys from the merchant SR dimension config', async () => {
    const req = request({}, { currency: 'USD', cardSwitchProvider: 'VISA', udfs: ['gold', null] });
    const { outcome, calls } = await run(req, inputs({ srDimension: { udfs: [0], fields: ['card_network', 'currency'] } }));
    const dimension = `${upiDimension}_VISA_USD_gold`;
    expect(decisionOf(outcome).windowDimension).toBe(dimension);
    expect(calls.readWindows[0]?.keys[0]).toBe(`${dimension}_stripe`);
  });

  it('breaks ties by eligible-list order', async () => {
    const first = decisionOf((await run(request({ eligibleGatewayList: ['b', 'a', 'c'] }))).outcome);
    expect(first.decidedGateway).toBe('b');
    expect(first.fallbackGateways).toEqual(['a', 'c']);
    const second = decisionOf((await run(request({ eligibleGatewayList: ['c', 'a', 'b'] }))).outcome);
    expect(second.decidedGateway).toBe('c');
    expect(second.fallbackGateways).toEqual(['a', 'b']);
  });

  it('keeps ties in list order among the fallback gateways', async () => {
    const store = await seededScores({ [`${upiDimension}_a`]: window(1, 2) });
    const decision = decisionOf((await run(request({ eligibleGatewayList: ['a', 'b', 'c', 'd'] }), inputs(), { store })).outcome);
    expect(decision.decidedGateway).toBe('b');
    expect(decision.fallbackGateways).toEqual(['c', 'd', 'a']);
  });

  it('de-duplicates the eligible list keeping the first occurrence order', async () => {
    const { outcome, calls } = await run(request({ eligibleGatewayList: ['adyen', 'stripe', 'adyen', 'stripe'] }));
    const decision = decisionOf(outcome);
    expect(calls.readWindows[0]?.keys).toEqual([`${upiDimension}_adyen`, `${upiDimension}_stripe`]);
    expect(decision.gatewayPriorityMap).toEqual({ adyen: 1, stripe: 1 });
    expect(decision.fallbackGateways).toEqual(['stripe']);
    expect(decision.priorityLogicOutput?.gws).toEqual(['adyen', 'stripe', 'adyen', 'stripe']);
  });

  it('hedges when the draw falls under the hedging percent', async () => {
    const store = await seededScores({
      [`${upiDimension}_stripe`]: window(99, 100),
      [`${upiDimension}_adyen`]: window(80, 100),
      [`${upiDimension}_checkout`]: window(70, 100),
    });
    const random = createSequenceRandom([0.0499]);
    const decision = decisionOf((await run(request(), inputs(), { store, random })).outcome);
    expect(decision.routingApproach).toBe('SR_V3_HEDGING');
    expect(decision.gatewayPriorityMap).toEqual({ stripe: 0.5, adyen: 1, checkout: 1 });
    expect(decision.decidedGateway).toBe('adyen');
    expect(decision.fallbackGateways).toEqual(['checkout', 'stripe']);
    expect(decision.gatewayBeforeEvaluation).toBe('adyen');
    expect(random.drawn()).toBe(1);
  });

  it('does not hedge when the draw is at the hedging percent', async () => {
    const store = await seededScores({ [`${upiDimension}_stripe`]: window(99, 100), [`${upiDimension}_adyen`]: window(80, 100) });
    const decision = decisionOf((await run(request(), inputs(), { store, random: createSequenceRandom([0.05]) })).outcome);
    expect(decision.routingApproach).toBe('SR_SELECTION_V3_ROUTING');
    expect(decision.gatewayPriorityMap).toEqual({ stripe: 0.99, adyen: 0.8, checkout: 1 });
    expect(decision.decidedGateway).toBe('checkout');
  });

  it('uses the merchant hedging percent', async () => {
    const decision = decisionOf(
      (await run(request(), inputs({ successRate: { defaultHedgingPercent: 50 } }), { random: createSequenceRandom([0.4]) })).outcome,
    );
    expect(decision.routingApproach).toBe('SR_V3_HEDGING');
    expect(decision.decidedGateway).toBe('adyen');
  });

  it('never draws when volume hedging is disabled', async () => {
    const random = createSequenceRandom([]);
    const defaults = { ...defaultRoutingDefaults, volumeHedgingEnabled: false };
    const decision = decisionOf((await run(request(), inputs(), { random, defaults })).outcome);
    expect(decision.routingApproach).toBe('SR_SELECTION_V3_ROUTING');
    expect(random.drawn()).toBe(0);
  });

  it('reports card payments at card level', async () => {
    const req = request({}, { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'CREDIT' });
    const decision = decisionOf((await run(req)).outcome);
    expect(decision).toMatchObject({
      routingDimension: 'ORDER_PAYMENT, CARD, CREDIT, CREDIT',
      routingDimensionLevel: 'CARD_LEVEL',
      eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_CARD_CREDIT_CREDIT',
      windowDimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT',
    });
  });
});

describe('decideGateway with priority logic', () => {
  it.each([['PL_BASED_ROUTING' as const], [undefined], [null]])(
    'scores every candidate 1.0 without reading windows when the algorithm is %s',
    async (rankingAlgorithm) => {
      const random = createSequenceRandom([]);
      const req = request(rankingAlgorithm === undefined ? {} : { rankingAlgorithm });
      if (rankingAlgorithm === undefined) delete req.rankingAlgorithm;
      const { outcome, calls } = await run(req, inputs(), { random });
      const decision = decisionOf(outcome);
      expect(decision).toMatchObject({
        decidedGateway: 'stripe',
        fallbackGateways: ['adyen', 'checkout'],
        gatewayPriorityMap: { stripe: 1, adyen: 1, checkout: 1 },
        routingApproach: 'PRIORITY_LOGIC',
        gatewayBeforeEvaluation: 'stripe',
        rankingAlgorithm: rankingAlgorithm ?? null,
        windowDimension: upiDimension,
      });
      expect(decision.priorityLogicOutput?.gws).toEqual([]);
      expect(calls.readWindows).toEqual([]);
      expect(random.drawn()).toBe(0);
    },
  );
});

describe('decideGateway with one candidate', () => {
  it('decides it with score 1.0 and approach DEFAULT without reading windows', async () => {
    const { outcome, calls } = await run(request({ eligibleGatewayList: ['stripe'] }), inputs(), { random: createSequenceRandom([]) });
    expect(decisionOf(outcome)).toMatchObject({
      decidedGateway: 'stripe',
      fallbackGateways: [],
      gatewayPriorityMap: { stripe: 1 },
      routingApproach: 'DEFAULT',
      gatewayBeforeEvaluation: 'stripe',
    });
    expect(calls.readWindows).toEqual([]);
  });

  it('still runs elimination and keeps DEFAULT when the gateway is demoted', async () => {
    const store = await seededScores({}, { gw_score_m1_ORDER_PAYMENT_stripe_UPI_UPI_PAY: elimination(0.01) });
    const req = request({ eligibleGatewayList: ['stripe'], eliminationEnabled: true });
    const { outcome, calls } = await run(req, inputs(), { store });
    expect(decisionOf(outcome)).toMatchObject({ gatewayPriorityMap: { stripe: 0.2 }, routingApproach: 'DEFAULT', eliminationEnabled: true });
    expect(calls.readEliminations).toEqual([['gw_score_m1_ORDER_PAYMENT_stripe_UPI_UPI_PAY']]);
  });

  it('decides the preferred gateway by merchant preference', async () => {
    const req = request({ eligibleGatewayList: ['stripe'], eliminationEnabled: true }, { preferredGateway: 'stripe' });
    const { outcome, calls } = await run(req);
    expect(decisionOf(outcome)).toMatchObject({
      decidedGateway: 'stripe',
      gatewayPriorityMap: { stripe: 1 },
      routingApproach: 'MERCHANT_PREFERENCE',
      gatewayBeforeEvaluation: 'stripe',
    });
    expect(calls.readEliminations).toEqual([]);
  });

  it('ignores a preferred gateway that is not the candidate', async () => {
    const decision = decisionOf((await run(request({ eligibleGatewayList: ['stripe'] }, { preferredGateway: 'adyen' }))).outcome);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'DEFAULT' });
  });
});

describe('decideGateway preferred gateway with several candidates', () => {
  it('ignores the preferred gateway when dynamic switching is on', async () => {
    const store = await seededScores({ [`${upiDimension}_adyen`]: window(1, 2) });
    const decision = decisionOf((await run(request({}, { preferredGateway: 'adyen' }), inputs(), { store })).outcome);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_SELECTION_V3_ROUTING' });
  });
});

describe('decideGateway elimination', () => {
  const key = (gateway: string) => `gw_score_m1_ORDER_PAYMENT_${gateway}_UPI_UPI_PAY`;

  it('reads every elimination score in one call only when elimination is enabled', async () => {
    const off = await run(request());
    expect(off.calls.readEliminations).toEqual([]);
    const on = await run(request({ eliminationEnabled: true }));
    expect(on.calls.readEliminations).toEqual([[key('stripe'), key('adyen'), key('checkout')]]);
    expect(decisionOf(on.outcome).eliminationEnabled).toBe(true);
  });

  it('decides alike from a store that only reads asynchronously (as Redis does): one read of each kind, together', async () => {
    const store = await seededScores(
      { [`${upiDimension}_stripe`]: window(125, 125), [`${upiDimension}_adyen`]: window(120, 125), [`${upiDimension}_checkout`]: window(100, 125) },
      { [key('stripe')]: elimination(0.04) },
    );
    const inMemory = await run(request({ eliminationEnabled: true }), inputs(), { store });
    // The same store without its synchronous reads: what decideGateway sees of a remote one.
    const { readWindowsNow: _windowsNow, readEliminationsNow: _eliminationsNow, ...remote } = store.scores;
    const readsStarted: string[] = [];
    let readsOutWhenWindowsAnswered = 0;
    const slow = {
      ...remote,
      readWindows: (keys: readonly string[], bucketSize: number) => {
        readsStarted.push('windows');
        return new Promise<Awaited<ReturnType<typeof remote.readWindows>>>((resolve) =>
          setImmediate(() => {
            readsOutWhenWindowsAnswered = readsStarted.length;
            resolve(remote.readWindows(keys, bucketSize));
          }),
        );
      },
      readEliminations: (keys: readonly string[]) => {
        readsStarted.push('eliminations');
        return remote.readEliminations(keys);
      },
    };
    const outcome = await decideGateway(request({ eliminationEnabled: true }), inputs(), {
      scores: slow,
      random: createSequenceRandom([0.99]),
      clock: createManualClock(now),
      defaults: defaultRoutingDefaults,
    });
    // Both reads were out before either answered.
    expect(readsStarted).toEqual(['windows', 'eliminations']);
    expect(readsOutWhenWindowsAnswered).toBe(2);
    expect(decisionOf(outcome)).toEqual(decisionOf(inMemory.outcome));
    expect(decisionOf(outcome)).toMatchObject({ decidedGateway: 'adyen', routingApproach: 'SR_V3_DOWNTIME_ROUTING' });
  });

  it('demotes a gateway below the 0.05 default threshold and relabels the approach', async () => {
    const store = await seededScores({}, { [key('stripe')]: elimination(0.04), [key('adyen')]: elimination(0.06) });
    const decision = decisionOf((await run(request({ eliminationEnabled: true }), inputs(), { store })).outcome);
    expect(decision).toMatchObject({
      decidedGateway: 'adyen',
      fallbackGateways: ['checkout', 'stripe'],
      gatewayPriorityMap: { stripe: 0.2, adyen: 1, checkout: 1 },
      routingApproach: 'SR_V3_DOWNTIME_ROUTING',
      gatewayBeforeEvaluation: 'stripe',
    });
  });

  it('uses the merchant elimination threshold', async () => {
    const store = await seededScores({}, { [key('stripe')]: elimination(0.3) });
    const decision = decisionOf((await run(request({ eliminationEnabled: true }), inputs({ elimination: { threshold: 0.35 } }), { store })).outcome);
    expect(decision.gatewayPriorityMap).toMatchObject({ stripe: 0.2 });
  });

  it('labels all-downtime when every candidate is below the threshold', async () => {
    const store = await seededScores({}, { [key('stripe')]: elimination(0), [key('adyen')]: elimination(0), [key('checkout')]: elimination(0) });
    const decision = decisionOf((await run(request({ eliminationEnabled: true }), inputs(), { store })).outcome);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_V3_ALL_DOWNTIME_ROUTING' });
  });

  it('labels priority-logic downtime for a priority-logic decision', async () => {
    const store = await seededScores({}, { [key('stripe')]: elimination(0) });
    const decision = decisionOf((await run(request({ eliminationEnabled: true, rankingAlgorithm: 'PL_BASED_ROUTING' }), inputs(), { store })).outcome);
    expect(decision).toMatchObject({ decidedGateway: 'adyen', routingApproach: 'PL_DOWNTIME_ROUTING', gatewayBeforeEvaluation: 'stripe' });
  });

  it('labels hedging downtime for a hedged decision', async () => {
    const store = await seededScores({}, { [key('adyen')]: elimination(0) });
    const random = createSequenceRandom([0]);
    const decision = decisionOf((await run(request({ eliminationEnabled: true }), inputs(), { store, random })).outcome);
    expect(decision).toMatchObject({
      gatewayPriorityMap: { stripe: 0.5, adyen: 0.2, checkout: 1 },
      routingApproach: 'SR_V3_DOWNTIME_HEDGING',
      decidedGateway: 'checkout',
    });
  });
});

describe('decideGateway network routing', () => {
  const enabled = inputs({ debitRoutingEnabled: true });

  it('ranks the co-badged networks and answers the first eligible gateway for NTW_BASED_ROUTING', async () => {
    const random = createSequenceRandom([]);
    const req = request({ rankingAlgorithm: 'NTW_BASED_ROUTING', eliminationEnabled: true }, { metadata: coBadgedMetadata(), currency: 'USD' });
    const { outcome, calls } = await run(req, enabled, { random });
    expect(decisionOf(outcome)).toEqual({
      decidedGateway: 'stripe',
      fallbackGateways: [],
      gatewayPriorityMap: null,
      routingApproach: 'NTW_BASED_ROUTING',
      gatewayBeforeEvaluation: null,
      priorityLogicOutput: null,
      debitRoutingOutput: {
        coBadgedCardNetworksInfo: [
          { network: 'STAR', savingPercentage: 0.11 },
          { network: 'VISA', savingPercentage: 0 },
          { network: 'PULSE', savingPercentage: 0 },
          { network: 'NYCE', savingPercentage: 0 },
        ],
        issuerCountry: 'US',
        isRegulated: false,
        regulatedName: null,
        cardType: 'debit',
      },
      resetApproach: 'NO_RESET',
      routingDimension: null,
      routingDimensionLevel: null,
      isScheduledOutage: false,
      rankingAlgorithm: 'NTW_BASED_ROUTING',
      windowDimension: null,
      eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_UPI_UPI_PAY',
      payment: expect.objectContaining({ amount: 1000, currency: 'USD' }),
      eliminationEnabled: false,
      decidedAt: now,
    });
    expect(calls).toEqual({ readWindows: [], readEliminations: [] });
    expect(random.drawn()).toBe(0);
  });

  it('answers an empty decided gateway when no gateway is eligible', async () => {
    const req = request({ rankingAlgorithm: 'NTW_BASED_ROUTING', eligibleGatewayList: null }, { metadata: coBadgedMetadata() });
    expect(decisionOf((await run(req, enabled)).outcome).decidedGateway).toBe('');
  });

  it('attaches the debit output to an SR decision for NTW_SR_HYBRID_ROUTING', async () => {
    const req = request({ rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING' }, { metadata: coBadgedMetadata() });
    const { outcome, calls } = await run(req, enabled);
    const decision = decisionOf(outcome);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', routingApproach: 'SR_SELECTION_V3_ROUTING', rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING' });
    expect(decision.debitRoutingOutput?.coBadgedCardNetworksInfo[0]).toEqual({ network: 'STAR', savingPercentage: 0.11 });
    expect(decision.priorityLogicOutput?.gws).toEqual(['stripe', 'adyen', 'checkout']);
    expect(calls.readWindows).toHaveLength(1);
  });

  it('swallows a debit failure in hybrid routing and answers a null debit output', async () => {
    const req = request({ rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING' }, { metadata: 'not json' });
    const decision = decisionOf((await run(req, enabled)).outcome);
    expect(decision).toMatchObject({ decidedGateway: 'stripe', debitRoutingOutput: null });
  });
});

describe('decideGateway failures', () => {
  it('fails with merchant_not_found for an unknown merchant and reads nothing', async () => {
    const { outcome, calls } = await run(request(), inputs({ merchant: undefined }));
    expect(failureOf(outcome)).toEqual({ kind: 'merchant_not_found', message: 'Merchant not found' });
    expect(calls).toEqual({ readWindows: [], readEliminations: [] });
  });

  it.each([[[] as string[]], [null], [undefined]])('fails with gateway_not_found for eligible list %j', async (list) => {
    const req = request();
    if (list === undefined) delete req.eligibleGatewayList;
    else req.eligibleGatewayList = list;
    expect(failureOf((await run(req)).outcome)).toEqual({
      kind: 'gateway_not_found',
      message: "Can't find a suitable gateway to process the transaction",
      priorityLogicOutput: expect.objectContaining({ gws: [] }),
    });
  });

  it('fails with gateway_not_found for priority logic with no candidates', async () => {
    const failure = failureOf((await run(request({ rankingAlgorithm: 'PL_BASED_ROUTING', eligibleGatewayList: [] }))).outcome);
    expect(failure.kind).toBe('gateway_not_found');
  });

  it('fails with gateway_not_found for hybrid routing with no candidates', async () => {
    const req = request({ rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING', eligibleGatewayList: [] }, { metadata: coBadgedMetadata() });
    expect(failureOf((await run(req, inputs({ debitRoutingEnabled: true }))).outcome).kind).toBe('gateway_not_found');
  });

  it.each(['NTW_BASED_ROUTING', 'NTW_SR_HYBRID_ROUTING'] as const)(
    'fails with debit_routing_not_enabled for %s when the merchant has not enabled it',
    async (rankingAlgorithm) => {
      const failure = failureOf((await run(request({ rankingAlgorithm }, { metadata: coBadgedMetadata() }))).outcome);
      expect(failure).toEqual({ kind: 'debit_routing_not_enabled', message: 'Debit routing is not enabled for merchant: m1' });
    },
  );

  it.each([
    [null, 'missing_metadata'],
    ['{broken', 'not_json'],
    [JSON.stringify({ merchant_category_code: 'merchant_category_code_0001', acquirer_country: 'US' }), 'missing_co_badged_card_data'],
    [coBadgedMetadata({ co_badged_card_networks: ['VISA', 'ELO'] }), 'unknown_network'],
    [coBadgedMetadata({ co_badged_card_networks: ['VISA', 'AMEX'] }), 'no_fee_data'],
    [coBadgedMetadata({ is_regulated: 'yes' }), 'invalid_field'],
  ])('fails with co_badged_network_not_found for metadata %j (%s)', async (metadata, problem) => {
    const req = request({ rankingAlgorithm: 'NTW_BASED_ROUTING' }, { metadata });
    const failure = failureOf((await run(req, inputs({ debitRoutingEnabled: true }))).outcome);
    expect(failure).toMatchObject({ kind: 'co_badged_network_not_found', message: "Can't find the co-badged card network", problem });
    expect(failure.kind === 'co_badged_network_not_found' && failure.detail.length).toBeGreaterThan(0);
  });

  it('fails with invalid_input naming an empty gateway name', async () => {
    const failure = failureOf((await run(request({ eligibleGatewayList: ['stripe', ''] }))).outcome);
    expect(failure).toEqual({ kind: 'invalid_input', message: 'eligibleGatewayList[1] is an empty gateway name' });
  });

  it('fails with invalid_input for an amount that is not a finite number', async () => {
    const failure = failureOf((await run(request({}, { amount: Number.NaN }))).outcome);
    expect(failure).toEqual({ kind: 'invalid_input', message: 'paymentInfo.amount must be a finite number' });
  });

  it('checks the merchant before debit-routing enablement', async () => {
    const failure = failureOf((await run(request({ rankingAlgorithm: 'NTW_BASED_ROUTING' }), inputs({ merchant: undefined }))).outcome);
    expect(failure.kind).toBe('merchant_not_found');
  });
});
