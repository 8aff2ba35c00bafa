import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideGateway, type DecisionOutcome } from '../../../../src/decision/decide-gateway.js';
import type { Decision } from '../../../../src/decision/decision.js';
import { eliminationKeyOf } from '../../../../src/decision/elimination-key.js';
import { actionProbabilities, hedgeProbability, pickIndex, propensityOf, type PolicyCandidate } from '../../../../src/decision/policy/decision-policy.js';
import { policyRecordOf } from '../../../../src/decision/policy/policy-record.js';
import { createSequenceRandom } from '../../../../src/decision/random-source.js';
import { defaultRoutingDefaults } from '../../../../src/decision/routing-defaults.js';
import { createManualClock } from '../../../../src/time/clock.js';
import { memoryStateStore } from '../../../helpers/memory-state-store.js';

const now = 1_700_000_000_000;
const dimension = 'gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY';
const merchant = { merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: now };
const candidate = (gateway: string, score: number, eliminationScore: number | null = null): PolicyCandidate => ({ gateway, score, eliminationScore });
const parameters = { hedgingPercent: 5, eliminationThreshold: null, eliminationDivisor: 5 };

describe('actionProbabilities', () => {
  it('gives the top gateway 1 − h and the first other gateway h', () => {
    const probabilities = actionProbabilities([candidate('a', 0.8), candidate('b', 0.9), candidate('c', 0.7)], { ...parameters, hedgingPercent: 20 });
    expect(Object.fromEntries(probabilities)).toEqual({ b: 0.8, a: 0.2 });
  });

  it('is deterministic without hedging and with one candidate', () => {
    expect(Object.fromEntries(actionProbabilities([candidate('a', 0.8), candidate('b', 0.9)], { ...parameters, hedgingPercent: 0 }))).toEqual({ b: 1 });
    expect(Object.fromEntries(actionProbabilities([candidate('a', 0.8)], { ...parameters, hedgingPercent: 50 }))).toEqual({ a: 1 });
  });

  it('merges branches that end on the same gateway after elimination', () => {
    // Hedged: a 1, b 0.5, c 1 → a; elimination divides a → c wins. Unhedged: b 0.9 → b. c eliminated? no.
    const candidates = [candidate('a', 0.8, 0.01), candidate('b', 0.9), candidate('c', 0.7)];
    const probabilities = actionProbabilities(candidates, { hedgingPercent: 10, eliminationThreshold: 0.05, eliminationDivisor: 5 });
    expect(probabilities.get('b')).toBeCloseTo(0.9);
    expect(probabilities.get('c')).toBeCloseTo(0.1);
    expect(probabilities.has('a')).toBe(false);
    // Every candidate eliminated except the top: both branches can end on the top gateway.
    const both = actionProbabilities([candidate('a', 0.9), candidate('b', 0.8, 0)], { hedgingPercent: 10, eliminationThreshold: 0.05, eliminationDivisor: 5 });
    expect(Object.fromEntries(both)).toEqual({ a: 1 });
  });

  it('caps the hedging probability at 1 and treats negatives as none', () => {
    expect(hedgeProbability(150)).toBe(1);
    expect(hedgeProbability(-3)).toBe(0);
    expect(hedgeProbability(Number.NaN)).toBe(0);
  });
});

describe('propensityOf', () => {
  it('credits the branch taken with the decided gateway', () => {
    const log = {
      candidates: [candidate('a', 0.9), candidate('b', 0.8)],
      hedgingPercent: 5,
      eliminationThreshold: null,
      eliminationDivisor: 5,
      bucketSize: 125,
    };
    expect(propensityOf({ ...log, hedged: false }, 'a')).toBeCloseTo(0.95);
    expect(propensityOf({ ...log, hedged: true }, 'b')).toBeCloseTo(0.05);
    // A deterministic post-step moved the unhedged pick to c: only the unhedged branch ends there.
    const three = { ...log, candidates: [...log.candidates, candidate('c', 0.7)], hedged: false };
    expect(propensityOf(three, 'c')).toBeCloseTo(0.95);
    // Both branches end on b when the unhedged pick was moved to the hedged pick.
    expect(propensityOf({ ...log, hedged: false }, 'b')).toBe(1);
  });
});

/** Runs the real decision with windows and elimination scores seeded through the embedded store's writes. */
async function decide(windows: readonly [number, number][], eliminations: readonly (number | null)[], hedgingPercent: number, draw: number): Promise<Decision> {
  const { scores } = memoryStateStore(createManualClock(now));
  const gateways = windows.map((_, index) => `g${index}`);
  let seed = 0;
  for (const [index, [successes, length]] of windows.entries()) {
    const failures = length - successes;
    for (let step = 0; step < Math.max(1, failures); step += 1) {
      await scores.recordOutcome({
        windowKey: `${dimension}_${gateways[index]}`,
        outcome: failures === 0 ? 1 : 0,
        bucketSize: length,
        dedupeKey: `s${++seed}`,
        dedupeTtlSeconds: 60,
        windowTtlSeconds: 86_400,
      });
    }
    const elimination = eliminations[index];
    if (elimination != null) {
      await scores.applyElimination({
        key: eliminationKeyOf(
          { merchantId: 'm1', orderType: 'ORDER_PAYMENT', paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', cardType: null },
          gateways[index] as string,
        ),
        factor: elimination,
        countsTransaction: true,
        nowMs: now - 1000,
        ttlMs: 86_400_000,
        dedupeKey: `e${++seed}`,
        dedupeTtlSeconds: 60,
      });
    }
  }
  const outcome: DecisionOutcome = await decideGateway(
    {
      merchantId: 'm1',
      eligibleGatewayList: gateways,
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: eliminations.some((value) => value !== null),
      paymentInfo: { paymentId: 'p', amount: 10, currency: 'INR', paymentType: 'ORDER_PAYMENT', paymentMethodType: 'upi', paymentMethod: 'UPI_PAY' },
    },
    {
      merchant,
      successRate: { defaultHedgingPercent: hedgingPercent, defaultBucketSize: 10 },
      elimination: undefined,
      srDimension: undefined,
      debitRoutingEnabled: false,
    },
    { scores, random: createSequenceRandom([draw]), clock: createManualClock(now), defaults: defaultRoutingDefaults },
  );
  if (!outcome.ok) throw new Error(outcome.failure.message);
  return outcome.decision;
}

describe('the logged policy replays the real decision', () => {
  it('each branch of the draw ends where the replica says, and the propensity is that branch’s probability', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.constant(4)), { minLength: 2, maxLength: 4 }),
        fc.array(fc.option(fc.constantFrom(0.01, 0.5, 1), { nil: null }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 60 }),
        async (windows, eliminations, hedgingPercent) => {
          const used = eliminations.slice(0, windows.length);
          const hedgedDraw = (hedgingPercent / 100) * 0.5;
          const plainDraw = Math.min(0.999, hedgingPercent / 100 + 0.001);
          for (const [draw, hedged] of [
            [hedgedDraw, true],
            [plainDraw, false],
          ] as const) {
            const decision = await decide(windows, used, hedgingPercent, draw);
            const log = decision.policy;
            if (log === undefined) throw new Error('no policy logged');
            expect(log.hedged).toBe(hedged);
            expect(log.candidates.map((entry) => entry.score)).toEqual(windows.map(([successes, length]) => successes / length));
            expect(log.candidates.map((entry) => entry.eliminationScore)).toEqual(used.map((value) => (value === null ? null : value)));
            expect(log.candidates[pickIndex(log.candidates, log, hedged)]?.gateway).toBe(decision.decidedGateway);
            const record = policyRecordOf(decision);
            expect(record?.propensity).toBeCloseTo(actionProbabilities(log.candidates, log).get(decision.decidedGateway) ?? -1, 12);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
